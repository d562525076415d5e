"""A case (卦例) of the journal as a value: the question, the request as given, the moment it
resolved to, and the document as it read when saved; its notes and outcome. Re-reading a case
and comparing the two readings; a case as a line of `journal export` and back.
"""

from __future__ import annotations

import base64
import hashlib
import zlib
from datetime import UTC, datetime
from typing import Any, NamedTuple

import orjson

from yimao import __version__
from yimao.errors import NotationError, shown
from yimao.pipeline import CastRequest, CastResult, document, read
from yimao.serialize import SCHEMA_VERSION, dumps

VERDICTS = ("应", "不应", "部分")
# The keys a journal case adds around the cast's document (never inside it).
JOURNAL_KEYS = ("case", "question", "saved_at", "saved_with", "notes", "outcome", "changes")
EXPORT_FORMAT = 1  # of the `journal` object of an exported line


class Note(NamedTuple):
    text: str
    written_at: str


class Outcome(NamedTuple):
    verdict: str  # 应 | 不应 | 部分
    note: str | None
    date: str | None  # when the matter resolved, as the user gives it (YYYY-MM-DD)
    recorded_at: str


class Case(NamedTuple):
    id: int | None  # None until stored
    hash: str
    question: str | None
    inputs: dict[str, Any]  # CastRequest's fields as given
    moment_utc: str | None
    moment_local: str | None
    conventions: dict[str, Any] | None
    hexagram: str
    changed: str | None
    use_spec: str | None
    topic: str | None
    yimao_version: str
    schema_version: int
    saved_at: str
    document: bytes  # zlib of the compact JSON document
    notes: tuple[Note, ...] = ()
    outcome: Outcome | None = None

    @property
    def spec(self) -> str:
        """本卦之之卦 by short names, or the 本卦 alone."""
        from yimao.hexagram import Hexagram

        name = Hexagram.parse(self.hexagram).short_name
        return f"{name}之{Hexagram.parse(self.changed).short_name}" if self.changed else name

    def saved_document(self) -> dict[str, Any]:
        """The document as it read when the case was saved."""
        return orjson.loads(zlib.decompress(self.document))  # type: ignore[no-any-return]

    def request(self) -> CastRequest:
        return CastRequest(**self.inputs)


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def content_hash(inputs: dict[str, Any], question: str | None, saved_at: str) -> str:
    """What makes a case this case: what was asked, of which cast, when. Two saves of the same
    cast are two cases; an exported case imported again is the same one."""
    body = orjson.dumps({"inputs": inputs, "question": question, "saved_at": saved_at}, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(body).hexdigest()


def new_case(req: CastRequest, result: CastResult, question: str | None, saved_at: str | None = None) -> Case:
    """The case of a reading just made, as `cast --save` records it."""
    doc = document(result)
    inputs = dict(req._asdict())
    saved_at = saved_at or now_utc()
    return Case(
        id=None,
        hash=content_hash(inputs, question, saved_at),
        question=question,
        inputs=inputs,
        **as_read(req, result, doc)._asdict(),
        yimao_version=__version__,
        schema_version=doc["schema_version"],
        saved_at=saved_at,
        document=zlib.compress(dumps(doc, compact=True), 9),
    )


class AsRead(NamedTuple):
    """The fields of a case that its reading gives (`as_read`)."""

    moment_utc: str | None
    moment_local: str | None
    conventions: dict[str, Any] | None
    hexagram: str
    changed: str | None
    use_spec: str | None
    topic: str | None


def as_read(req: CastRequest, result: CastResult, doc: dict[str, Any]) -> AsRead:
    """What a reading of `req` (`doc` its document) says of the case: the moment it resolved to,
    the conventions, the hexagrams' names, the 用神 and the topic as the book names it (官司 is
    kept as 词讼, as the stars and rules read it). `cast --save` and `journal import` both take
    these from here, so that an imported case is stored as a saved one is."""
    ctx = result.chart.pillars.context
    changed = doc.get("changed_hexagram")
    return AsRead(
        moment_utc=None if ctx is None else ctx.moment.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        moment_local=None if ctx is None else ctx.moment.isoformat(),
        conventions=doc.get("conventions"),
        hexagram=doc["hexagram"]["name"],
        changed=changed["name"] if changed else None,
        use_spec=req.use,
        topic=result.stars.topic,
    )


# --- re-reading ---------------------------------------------------------------------------------


def reading(case: Case) -> CastResult:
    """The case read again by this yimao, from its inputs: a case cast for a moment is read at
    that moment, in the zone it was read in then (a cast for "now", or in the system's zone, reads
    the same tomorrow and on another machine)."""
    req = case.request()
    pillars = None
    if case.moment_utc is not None and case.conventions is not None:
        from yimao.pillars import pillars_at

        moment = datetime.fromisoformat(case.moment_utc.replace("Z", "+00:00")).astimezone(_zone(case))
        pillars = pillars_at(moment, req.day_start, tz_name=case.conventions["timezone"], tz_source=case.conventions["timezone_source"])
    return read(req, pillars)


def _zone(case: Case) -> Any:
    """The zone the case's moment was read in: its IANA zone when it had one, else its offset."""
    assert case.moment_local is not None and case.conventions is not None
    fixed = datetime.fromisoformat(case.moment_local).tzinfo
    if case.conventions["timezone_source"] == "offset":
        return fixed
    from yimao.errors import YimaoError
    from yimao.pillars import parse_tz

    try:
        return parse_tz(case.inputs.get("tz") or case.conventions["timezone"])
    except YimaoError:  # a system zone known only by its offset
        return fixed


def differences(then: Any, now: Any, path: str = "", limit: int = 20) -> list[dict[str, Any]]:
    """Where two documents differ, as paths (`findings[2].holds`) with the value then and now;
    at most `limit`. Keys that only `now` has are left out: schema_version 1 grows by additions
    (a star's `label`), which change no reading."""
    found: list[dict[str, Any]] = []
    _diff(then, now, path, found, limit)
    return found


def _diff(a: Any, b: Any, path: str, found: list[dict[str, Any]], limit: int) -> None:
    if len(found) >= limit or a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:  # a key only the later document has is an addition to the contract, not a reading changed
            _diff(a[key], b.get(key), f"{path}.{key}" if path else key, found, limit)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, f"{path}[{i}]", found, limit)
    else:
        found.append({"path": path, "then": a, "now": b})


# --- documents ----------------------------------------------------------------------------------


def journal_fields(case: Case, changes: list[dict[str, Any]] | None) -> dict[str, Any]:
    """The keys a case adds around its cast's document (JOURNAL_KEYS)."""
    return {
        "case": case.id,
        "question": case.question,
        "saved_at": case.saved_at,
        "saved_with": {"yimao_version": case.yimao_version, "schema_version": case.schema_version},
        "notes": [n._asdict() for n in case.notes],
        "outcome": None if case.outcome is None else case.outcome._asdict(),
        "changes": changes or None,
    }


def list_entry(case: Case) -> dict[str, Any]:
    """A case as one line of `journal list --json`."""
    return {
        "schema_version": SCHEMA_VERSION,
        "case": case.id,
        "saved_at": case.saved_at,
        "moment": case.moment_local,
        "question": case.question,
        "hexagram": case.hexagram,
        "changed_hexagram": case.changed,
        "spec": case.spec,
        "use": case.use_spec,
        "topic": case.topic,
        "outcome": None if case.outcome is None else case.outcome.verdict,
        "notes": len(case.notes),
    }


# --- export and import --------------------------------------------------------------------------


def export_line(case: Case) -> dict[str, Any]:
    """A case as a line of `journal export`: the cast's fields at the top (a request `yimao batch`
    reads), the journal's own under `journal` (which batch reads past)."""
    cast_fields = {k: v for k, v in case.inputs.items() if v is not None}
    return {
        **cast_fields,
        "journal": {
            "format": EXPORT_FORMAT,
            "hash": case.hash,
            "case": case.id,
            "question": case.question,
            "saved_at": case.saved_at,
            "moment": {"utc": case.moment_utc, "local": case.moment_local},
            "conventions": case.conventions,
            "yimao_version": case.yimao_version,
            "schema_version": case.schema_version,
            "notes": [n._asdict() for n in case.notes],
            "outcome": None if case.outcome is None else case.outcome._asdict(),
            "document": base64.b64encode(case.document).decode("ascii"),  # zlib, as stored: what was seen then
        },
    }


def from_export(obj: Any) -> Case:
    """A case from a line of `journal export`; a `NotationError` saying what is wrong."""
    if not isinstance(obj, dict) or not isinstance(obj.get("journal"), dict):
        raise NotationError("not a case of `yimao journal export` (no `journal` object)", shown(obj), ('{"hex": …, "journal": {…}}',))
    j = obj["journal"]
    try:
        req = CastRequest.from_mapping(obj)
        inputs = dict(req._asdict())
        saved_at = _text(j, "saved_at")
        question = j.get("question")
        case_hash = content_hash(inputs, question, saved_at)
        if j.get("hash") not in (None, case_hash):
            raise NotationError("the case's hash does not match its inputs, question and time of saving", j.get("hash"))
        stored = base64.b64decode(_text(j, "document"), validate=True)
        doc = orjson.loads(zlib.decompress(stored))
        changed = doc.get("changed_hexagram")
        moment = j.get("moment") or {}
        outcome = j.get("outcome")
        return Case(
            id=j.get("case") if isinstance(j.get("case"), int) else None,
            hash=case_hash,
            question=question,
            inputs=inputs,
            moment_utc=moment.get("utc"),
            moment_local=moment.get("local"),
            conventions=j.get("conventions"),
            hexagram=doc["hexagram"]["name"],
            changed=changed["name"] if changed else None,
            use_spec=req.use,
            topic=req.topic,
            yimao_version=_text(j, "yimao_version"),
            schema_version=int(j["schema_version"]),
            saved_at=saved_at,
            document=stored,
            notes=tuple(Note(_text(n, "text"), _text(n, "written_at")) for n in j.get("notes") or ()),
            outcome=None if outcome is None else _outcome(outcome),
        )
    except NotationError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, zlib.error) as e:
        raise NotationError(f"a malformed case ({type(e).__name__}: {e})", None) from None


def _text(d: Any, key: str) -> str:
    v = d[key]
    if not isinstance(v, str):
        raise NotationError(f"{key} must be a string, got {shown(v)}", v)
    return v


def _outcome(o: dict[str, Any]) -> Outcome:
    verdict = _text(o, "verdict")
    if verdict not in VERDICTS:
        raise NotationError(f"unknown verdict {shown(verdict)}", verdict, VERDICTS)
    return Outcome(verdict, o.get("note"), o.get("date"), _text(o, "recorded_at"))
