"""A case (卦例) of the journal as a value: the question, the request as given, the moment it
resolved to, and the document as it read when saved; its notes and outcome. Re-reading a case
and comparing the two readings; a case as a line of `journal export` and back.
"""

from __future__ import annotations

import base64
import hashlib
import re
import zlib
from datetime import UTC, datetime
from typing import Any, NamedTuple

import orjson

from yimao import __version__
from yimao.errors import NotationError, shown
from yimao.journal.store import Damaged
from yimao.pipeline import CastRequest, CastResult, document, json_type, read
from yimao.serialize import SCHEMA_VERSION, dumps

VERDICTS = ("应", "不应", "部分")
NO_VERDICT = "无"  # `journal list --verdict 无`: the cases without an outcome yet
# The verdicts as typed in traditional characters (input is read in either script).
_TRADITIONAL_VERDICTS = {"應": "应", "不應": "不应", "無": "无"}
# The keys a journal case adds around the cast's document (never inside it).
JOURNAL_KEYS = ("case", "question", "question_edited", "saved_at", "saved_with", "tags", "notes", "outcome", "changes")
EXPORT_FORMAT = 1  # of the `journal` object of an exported line (later keys are optional in it)
MAX_TAG = 32  # characters of a tag: a label, not a note


class Note(NamedTuple):
    text: str
    written_at: str
    edited_at: str | None = None  # the time of the latest edit; None: as written


class QuestionEdit(NamedTuple):
    """A question edited since the case was saved: the question as saved (the content hash is
    of it, so the case stays the one saved) and when it was last edited."""

    saved: str | None
    at: str


class Outcome(NamedTuple):
    verdict: str  # 应 | 不应 | 部分
    note: str | None
    date: str | None  # when the matter resolved, as the user gives it (YYYY-MM-DD)
    recorded_at: str


class Case(NamedTuple):
    id: int | None  # None until stored
    hash: str
    question: str | None
    inputs: dict[str, Any]  # CastRequest's fields as given (`CastRequest.inputs`)
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
    tags: tuple[str, ...] = ()
    pillars: dict[str, str | None] | None = None  # the document's, for listing; None: a document a migration could not read
    question_edit: QuestionEdit | None = None

    @property
    def spec(self) -> str:
        """本卦之之卦 by short names, or the 本卦 alone."""
        return f"{_short(self.hexagram)}之{_short(self.changed)}" if self.changed else _short(self.hexagram)

    def saved_document(self) -> dict[str, Any]:
        """The document as it read when the case was saved; a `store.Damaged` when the file no
        longer holds one that yimao can read back (its errors are said as a corrupt journal)."""
        try:
            return open_document(self.document, self.schema_version)
        except BadDocument as e:
            raise Damaged(f"case {self.id}'s stored document: {e}") from None

    def request(self) -> CastRequest:
        return CastRequest(**self.inputs)


def _short(name: str) -> str:
    """A stored hexagram's short name; a name that is no hexagram's (a row an import of an earlier
    yimao let through) as it stands, so that one bad row does not keep the others from listing."""
    from yimao.errors import YimaoError
    from yimao.hexagram import Hexagram

    try:
        return Hexagram.parse(name).short_name
    except YimaoError:
        return name


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def verdict_of(text: str, *, none: bool = False) -> str:
    """A verdict as typed (应, 不应, 部分, in either script; with `none`, 无 too: no outcome yet)."""
    verdict = _TRADITIONAL_VERDICTS.get(text.strip(), text.strip())
    known = (*VERDICTS, NO_VERDICT) if none else VERDICTS
    if verdict not in known:
        raise NotationError(f"unknown verdict {shown(text)}", text, known)
    return verdict


def tag_of(text: str) -> str:
    """A tag as kept: the text trimmed, one line of 1 to MAX_TAG characters, case as given."""
    from yimao.usertext import checked

    tag = checked(text, "a tag").strip()
    if not tag:
        raise NotationError("an empty tag: give its text", text, ("yimao journal tag 12 求财",))
    if tag.splitlines() != [tag]:
        raise NotationError(f"a tag is one line, got {shown(text)}", text)
    if len(tag) > MAX_TAG:
        raise NotationError(f"a tag is at most {MAX_TAG} characters, got {len(tag)}: {shown(text)}", text)
    return tag


def tag_key(tag: str) -> str:
    """What tells tags apart, as the journal compares them (SQLite's NOCASE): ASCII letters in
    either case are one (Work, work), every other character as it is."""
    return "".join(c.lower() if c.isascii() else c for c in tag)


def edited_later(incoming: str | None, kept: str | None) -> bool:
    """Whether an edit made at `incoming` is later than one made at `kept` (None: never edited,
    earlier than any edit): an import takes a question's or a note's text when it was edited later."""
    if incoming is None:
        return False
    if kept is None:
        return True
    a, b = _instant(incoming), _instant(kept)
    return a is not None and b is not None and a > b


def content_hash(inputs: dict[str, Any], question: str | None, saved_at: str) -> str:
    """What makes a case this case: what was asked, of which cast, when. Two saves of the same
    cast are two cases; an exported case imported again is the same one."""
    body = orjson.dumps({"inputs": inputs, "question": question, "saved_at": saved_at}, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(body).hexdigest()


def new_case(req: CastRequest, result: CastResult, question: str | None, saved_at: str | None = None) -> Case:
    """The case of a reading just made, as `cast --save` records it."""
    doc = document(result)
    inputs = req.inputs()
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
    pillars: dict[str, str | None]


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
        pillars={k: doc["pillars"][k] for k in ("year", "month", "day", "hour")},
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
    at most `limit`. Keys that only `now` has are left out: a schema grows by additions (a star's
    `label`), which change no reading. Documents of two schemas are compared by what both say
    alike (`_alike`)."""
    if isinstance(then, dict) and isinstance(now, dict) and then.get("schema_version") != now.get("schema_version"):
        then, now = _alike(then), _alike(now)
    found: list[dict[str, Any]] = []
    _diff(then, now, path, found, limit)
    return found


def _alike(doc: dict[str, Any]) -> dict[str, Any]:
    """What a document says in the same shape under schemas 1 and 2: all but its version, its
    catalogue's, and the stars' entries, which schema 2 cut to what the chart decides; of those,
    where each star falls and whether it acts, by id."""
    same = {k: v for k, v in doc.items() if k not in ("schema_version", "catalogue_version", "stars")}
    same["stars"] = {s["id"]: {"lines": s["lines"], "active": s["active"]} for s in doc.get("stars") or ()}
    return same


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
        "question_edited": _question_edited(case),
        "saved_at": case.saved_at,
        "saved_with": {"yimao_version": case.yimao_version, "schema_version": case.schema_version},
        "tags": list(case.tags),
        "notes": [n._asdict() for n in case.notes],
        "outcome": None if case.outcome is None else case.outcome._asdict(),
        "changes": changes or None,
    }


def _question_edited(case: Case) -> dict[str, Any] | None:
    e = case.question_edit
    return None if e is None else {"saved": e.saved, "at": e.at}


def list_entry(case: Case) -> dict[str, Any]:
    """A case as one line of `journal list --json`."""
    return {
        "schema_version": SCHEMA_VERSION,
        "case": case.id,
        "saved_at": case.saved_at,
        "moment": case.moment_local,
        "pillars": case.pillars,
        "question": case.question,
        "hexagram": case.hexagram,
        "changed_hexagram": case.changed,
        "spec": case.spec,
        "use": case.use_spec,
        "topic": case.topic,
        "outcome": None if case.outcome is None else case.outcome.verdict,
        "notes": len(case.notes),
        "tags": list(case.tags),
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
            "tags": list(case.tags),
            "question_edited": _question_edited(case),
        },
    }


def from_export(obj: Any) -> Case:
    """A case from a line of `journal export`, checked as strictly as `cast --save` makes one: its
    fields of the right types, its hash its content's, its stored document one yimao can read
    back, and its request read again at its stored moment, whose reading gives the names, 用神
    and topic; a `YimaoError` saying what is wrong."""
    j = _journal_object(obj)
    req = CastRequest.from_mapping(obj)
    inputs = req.inputs()
    question = _optional_text(j, "question")
    edit = _question_edit(j.get("question_edited"))
    saved_at = _timestamp(j, "saved_at")
    if j["hash"] != content_hash(inputs, question if edit is None else edit.saved, saved_at):  # (a hash is 64 characters: not quoted)
        raise NotationError("journal.hash must be the SHA-256 of the case's inputs, question as saved and time of saving, and is not", j["hash"])
    schema_version = _schema_version(j)
    stored = _document_bytes(j, schema_version)
    moment_utc, moment_local = _moment(j["moment"])
    case = Case(
        id=_number(j["case"]),
        hash=j["hash"],
        question=question,
        inputs=inputs,
        moment_utc=moment_utc,
        moment_local=moment_local,
        conventions=_conventions(j["conventions"], moment_utc),
        hexagram="",  # these four from the reading (`_read_again`)
        changed=None,
        use_spec=None,
        topic=None,
        yimao_version=_version(j),
        schema_version=schema_version,
        saved_at=saved_at,
        document=stored,
        notes=_notes(j["notes"]),
        outcome=_outcome(j["outcome"]),
        tags=_tags(j.get("tags", [])),
        question_edit=edit,
    )
    return _read_again(req, case)


_EXPORT_KEYS = (
    "format",
    "hash",
    "case",
    "question",
    "saved_at",
    "moment",
    "conventions",
    "yimao_version",
    "schema_version",
    "notes",
    "outcome",
    "document",
)  # and, since the journal's schema 2, `tags` and `question_edited`: optional, as earlier exports lack them
# A time of saving, writing or recording, as `now_utc` gives it (the date first: lists read it).
_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{1,6})?)?(?:Z|[+-]\d\d:\d\d)", re.ASCII)
_DAY = re.compile(r"\d{4}-\d\d-\d\d", re.ASCII)
_ZONE_SOURCES = ("offset", "--tz", "system")  # where a moment's zone came from (pillars.ParsedMoment)
MAX_VERSION = 64  # characters of a yimao version ("0.1.0")


def _journal_object(obj: Any) -> dict[str, Any]:
    """The `journal` object of a line, with every key of its format."""
    if not isinstance(obj, dict) or not isinstance(obj.get("journal"), dict):
        raise NotationError("not a case of `yimao journal export` (no `journal` object)", shown(obj), ('{"hex": …, "journal": {…}}',))
    j: dict[str, Any] = obj["journal"]
    missing = [k for k in _EXPORT_KEYS if k not in j]
    if missing:
        raise NotationError(f"journal lacks {', '.join(missing)}", None)
    if not _is_int(j["format"]) or j["format"] != EXPORT_FORMAT:
        raise NotationError(f"journal.format must be {EXPORT_FORMAT} (of this yimao's export), got {shown(j['format'])}", j["format"])
    return j


def _is_int(v: Any) -> bool:
    return type(v) is int  # not a boolean


def _optional_text(d: dict[str, Any], key: str, where: str = "journal") -> str | None:
    v = d.get(key)
    if v is not None and not isinstance(v, str):
        raise NotationError(f"{where}.{key} must be a string or null, got {json_type(v)}", v)
    return v


def _timestamp(d: dict[str, Any], key: str, where: str = "journal") -> str:
    v = d.get(key)
    if not (isinstance(v, str) and _TIMESTAMP.fullmatch(v) and _instant(v) is not None):
        raise NotationError(f"{where}.{key} must be a time as 2026-12-02T10:00:00.000001Z, got {shown(v)}", v)
    return v


def _instant(text: str) -> datetime | None:
    """The aware moment an ISO 8601 text names, within the calendar's years; else None."""
    from yimao.pillars import MAX_YEAR, MIN_YEAR

    try:
        moment = datetime.fromisoformat(text)
        ok = moment.utcoffset() is not None and MIN_YEAR <= moment.astimezone(UTC).year <= MAX_YEAR
    except (ValueError, OverflowError):
        return None
    return moment if ok else None


def _schema_version(j: dict[str, Any]) -> int:
    v = j["schema_version"]
    if not _is_int(v) or v not in KNOWN_SCHEMAS:
        known = " or ".join(map(str, KNOWN_SCHEMAS))
        raise NotationError(f"journal.schema_version must be {known} (the document schemas this yimao knows), got {shown(v)}", v)
    return int(v)


def _document_bytes(j: dict[str, Any], schema_version: int) -> bytes:
    """The stored document's bytes (zlib), once they are known to hold a document yimao can read back."""
    v = j["document"]
    try:
        if not isinstance(v, str):
            raise ValueError(f"not {json_type(v)}")
        stored = base64.b64decode(v, validate=True)
        open_document(stored, schema_version)
    except (ValueError, BadDocument) as e:
        raise NotationError(f"journal.document must be a document of `yimao cast --json`, zlib-compressed, in base64: {e}", None) from None
    return stored


def _number(v: Any) -> int | None:
    if v is not None and not _is_int(v):
        raise NotationError(f"journal.case must be a whole number or null, got {shown(v)}", v)
    return v  # the journal keeps it only when it can (`records`)


def _moment(m: Any) -> tuple[str | None, str | None]:
    """(utc, local): one instant, or none (a case cast from pillars)."""
    if isinstance(m, dict) and m.get("utc") is None and m.get("local") is None:
        return None, None
    utc, local = (m.get("utc"), m.get("local")) if isinstance(m, dict) else (None, None)
    if not (isinstance(utc, str) and isinstance(local, str) and utc.endswith("Z")):
        raise NotationError(f'journal.moment must be {{"utc": …Z, "local": …}} or both null, got {shown(m)}', m)
    at, here = _instant(utc), _instant(local)
    if at is None or here is None or at != here:
        raise NotationError(f"journal.moment must be one instant in UTC and in local time, got {shown(m)}", m)
    return utc, local


def _conventions(c: Any, moment_utc: str | None) -> dict[str, Any] | None:
    """The document's conventions, with the zone the case was read in: null without a moment."""
    if moment_utc is None:
        if c is not None:
            raise NotationError(f"journal.conventions must be null for a case without a moment, got {shown(c)}", c)
        return None
    if not (isinstance(c, dict) and isinstance(c.get("timezone"), str) and c.get("timezone_source") in _ZONE_SOURCES):
        raise NotationError(
            f"journal.conventions must be the document's, with its timezone and timezone_source ({', '.join(_ZONE_SOURCES)}), got {shown(c)}", c
        )
    return c


def _version(j: dict[str, Any]) -> str:
    v = j["yimao_version"]
    if not (isinstance(v, str) and 0 < len(v) <= MAX_VERSION):
        raise NotationError(f"journal.yimao_version must be a version as 0.1.0, got {shown(v)}", v)
    return v


def _notes(v: Any) -> tuple[Note, ...]:
    if not isinstance(v, list):
        raise NotationError(f"journal.notes must be an array, got {json_type(v)}", v)
    notes = []
    for i, n in enumerate(v):
        where = f"journal.notes[{i}]"
        if not (isinstance(n, dict) and isinstance(n.get("text"), str) and n["text"].strip()):
            raise NotationError(f'{where} must be {{"text": …, "written_at": …}} with a text, got {shown(n)}', n)
        edited = None if n.get("edited_at") is None else _timestamp(n, "edited_at", where)
        notes.append(Note(n["text"], _timestamp(n, "written_at", where), edited))
    return tuple(notes)


def _tags(v: Any) -> tuple[str, ...]:
    """The tags of a line: each as `journal tag` keeps one (trimmed, one line, not too long), once."""
    if not isinstance(v, list):
        raise NotationError(f"journal.tags must be an array, got {json_type(v)}", v)
    seen: set[str] = set()
    for i, t in enumerate(v):
        where = f"journal.tags[{i}]"
        if not isinstance(t, str):
            raise NotationError(f"{where} must be a string, got {json_type(t)}", t)
        try:
            kept = tag_of(t)
        except NotationError as e:
            raise NotationError(f"{where}: {e.message}", t) from None
        if kept != t:
            raise NotationError(f"{where} must be a tag as kept, trimmed: {shown(kept)}, got {shown(t)}", t)
        if tag_key(t) in seen:
            raise NotationError(f"{where} repeats a tag: {shown(t)}", t)
        seen.add(tag_key(t))
    return tuple(v)


def _question_edit(v: Any) -> QuestionEdit | None:
    """A line's `question_edited`: null (or absent, in earlier exports) for a question as saved."""
    if v is None:
        return None
    where = "journal.question_edited"
    if not (isinstance(v, dict) and set(v) == {"saved", "at"}):
        raise NotationError(f'{where} must be {{"saved": …, "at": …}} or null, got {shown(v)}', v)
    return QuestionEdit(_optional_text(v, "saved", where), _timestamp(v, "at", where))


def _outcome(o: Any) -> Outcome | None:
    if o is None:
        return None
    where = "journal.outcome"
    if not isinstance(o, dict):
        raise NotationError(f"{where} must be an object or null, got {json_type(o)}", o)
    verdict = o.get("verdict")
    if not isinstance(verdict, str) or verdict not in VERDICTS:
        raise NotationError(f"{where}.verdict: unknown verdict {shown(verdict)}", verdict, VERDICTS)
    day = o.get("date")
    if day is not None and not (isinstance(day, str) and _DAY.fullmatch(day) and _is_day(day)):
        raise NotationError(f"{where}.date must be a date YYYY-MM-DD or null, got {shown(day)}", day)
    return Outcome(verdict, _optional_text(o, "note", where), day, _timestamp(o, "recorded_at", where))


def _is_day(text: str) -> bool:
    from datetime import date

    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _read_again(req: CastRequest, case: Case) -> Case:
    """`case` with the names, 用神 and topic of its request read again at its stored moment
    (`reading`), once that moment is the request's and the reading gives the stored moment and
    conventions, as `cast --save` would have stored them."""
    _check_moment(req, case)
    result = reading(case)
    read = as_read(req, result, document(result))
    if (read.moment_utc, read.moment_local) != (case.moment_utc, case.moment_local):
        raise NotationError(
            f"journal.moment must be the instant in the zone the case was read in, {shown(read.moment_local)}, got {shown(case.moment_local)}",
            case.moment_local,
        )
    if read.conventions != case.conventions:
        wanted = differences(read.conventions, case.conventions)
        path, want, got = (wanted[0]["path"], wanted[0]["then"], wanted[0]["now"]) if wanted else _extra(case.conventions, read.conventions)
        raise NotationError(f"journal.conventions.{path} must be {shown(want)} for this request at its moment, got {shown(got)}", got)
    return case._replace(hexagram=read.hexagram, changed=read.changed, use_spec=read.use_spec, topic=read.topic, pillars=read.pillars)


def _extra(stored: Any, read: Any) -> tuple[str, Any, Any]:
    """(path, wanted, got) of what `stored` has and `read` lacks."""
    d = differences(stored, read)[0]
    return d["path"], d["now"], d["then"]


def _check_moment(req: CastRequest, case: Case) -> None:
    """The stored moment is the request's: none for pillars; else one, in a zone from where the
    request says (its date's offset, --tz, or the system's zone), and when its date says the
    zone, the instant and zone it names. (The system's zone, and the time of a cast for now, were
    the saving machine's, which no other can check.)"""
    if any(v is not None for v in (req.year, req.month, req.day, req.hour)):
        if req.date is not None:  # (as `pipeline.resolve_pillars` says it)
            raise NotationError("give either a date or pillars (year, month, day, hour), not both", req.date)
        if case.moment_utc is not None:
            raise NotationError(f"journal.moment must be null for a case cast from pillars, got {shown(case.moment_local)}", case.moment_local)
        return
    if case.moment_local is None or case.conventions is None:
        raise NotationError("journal.moment must be given for a case cast for a date or for now, got null", None)
    from yimao.pillars import parse_moment

    named = None if req.date is None else parse_moment(req.date, req.tz)
    source = named.source if named is not None else "--tz" if req.tz is not None else "system"
    if case.conventions["timezone_source"] != source:
        raise NotationError(
            f"journal.conventions.timezone_source must be {source!r} for this request, got {shown(case.conventions['timezone_source'])}", source
        )
    if named is None or source == "system":
        return
    stored = datetime.fromisoformat(case.moment_local).astimezone(UTC)
    if (named.moment.astimezone(UTC), named.label) != (stored, case.conventions["timezone"]):
        raise NotationError(
            f"journal.moment must be the moment the request's date names, {named.moment.isoformat()} ({named.label}), "
            f"got {shown(case.moment_local)} ({shown(case.conventions['timezone'])})",
            case.moment_local,
        )


# --- stored documents ---------------------------------------------------------------------------


# The most a stored document may inflate to: a document is some 60 KB, and a few bytes of zlib
# can stand for gigabytes (1.4 MB of compressed whitespace took 11.5 s and 2.1 GB to read).
MAX_DOCUMENT_BYTES = 4 << 20


class BadDocument(Exception):
    """Bytes that are no document yimao stored: what is wrong with them."""


def open_document(data: bytes, schema_version: int) -> dict[str, Any]:
    """The document stored as `data` (zlib of JSON) for a case of `schema_version`; a
    `BadDocument` when it cannot be read back (`document_problem`)."""
    try:
        doc = orjson.loads(_inflate(data))
    except orjson.JSONDecodeError as e:
        raise BadDocument(f"not JSON ({e})") from None
    problem = document_problem(doc, schema_version)
    if problem is not None:
        raise BadDocument(problem)
    return doc  # type: ignore[no-any-return]


def _inflate(data: bytes) -> bytes:
    """`data` decompressed, never past MAX_DOCUMENT_BYTES (zlib stops there)."""
    z = zlib.decompressobj()
    try:
        out = z.decompress(data, MAX_DOCUMENT_BYTES + 1)
    except zlib.error as e:
        raise BadDocument(f"not zlib ({e})") from None
    if len(out) > MAX_DOCUMENT_BYTES:
        raise BadDocument(f"larger than {MAX_DOCUMENT_BYTES:,} bytes once decompressed (a document is some 60 KB)")
    if not z.eof or z.unused_data:
        raise BadDocument("not one whole zlib stream")
    return out


# The fields of a stored document that yimao reads back (`stats` counts what held and what was
# active), by array, with their JSON types; a missing one reads as null (`kind` and `label` came
# later in schema version 1).
# By schema version: a star of schema 1 is counted by its label, else its name (a label came
# later); of schema 2 by its label. Both are compared by where they fall (`_alike`).
_READ_BACK = {
    1: {
        "findings": {"rule": "string", "kind": "string or null", "holds": "boolean"},
        "stars": {"id": "string", "name": "string", "label": "string or null", "active": "boolean", "lines": "array"},
    },
    2: {
        "findings": {"rule": "string", "kind": "string or null", "holds": "boolean"},
        "stars": {"id": "string", "label": "string", "active": "boolean", "lines": "array"},
    },
}
KNOWN_SCHEMAS = tuple(_READ_BACK)  # the document schemas a case may have been saved under
_JSON_TYPES = {"string": str, "boolean": bool, "null": type(None), "array": list}


def document_problem(doc: Any, schema_version: int) -> str | None:
    """What keeps `doc` from being a document that yimao reads back: an object of the case's
    `schema_version`, whose findings and stars have the fields `journal stats` counts by, and
    which can be written out again (`journal show --as-saved --json`); None when nothing does."""
    if not isinstance(doc, dict):
        return f"{json_type(doc)}, not an object"
    if not _is_int(doc.get("schema_version")) or doc["schema_version"] != schema_version:
        return f"its schema_version is {shown(doc.get('schema_version'))}, not the case's {schema_version}"
    for array, fields in _READ_BACK[schema_version].items():
        items = doc.get(array)
        if not isinstance(items, list):
            return f"its {array} is {json_type(items)}, not an array"
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                return f"its {array}[{i}] is {json_type(item)}, not an object"
            for name, kind in fields.items():
                if not any(type(item.get(name)) is _JSON_TYPES[t] for t in kind.split(" or ")):
                    return f"its {array}[{i}].{name} must be {'an' if kind[0] in 'aeiou' else 'a'} {kind}, got {shown(item.get(name))}"
    try:
        orjson.dumps(doc)
    except orjson.JSONEncodeError:
        return "it nests too deeply to be written out again"
    return None
