"""From a request (the options of `yimao cast`, or one line of `yimao batch`) to a reading.

One path for both, so that a batch line gives exactly the document `yimao cast --json` gives.
"""

# No `from __future__ import annotations` here: typing.NamedTuple compiles each string field
# annotation at class creation, a cost every start of the program would pay.
from collections.abc import Mapping
from functools import cache
from typing import Any, NamedTuple

from yimao.chart import Chart, Use, build_chart, resolve_use
from yimao.errors import NotationError, shown
from yimao.ganzhi import EarthSchool
from yimao.hexagram import Cast
from yimao.pillars import FourPillars, check_unused, now, parse_moment, pillars_at, pillars_given
from yimao.toss import GIVEN, Obtained, obtained_of


# NamedTuples rather than frozen dataclasses: as immutable, and defining one costs a command's
# start far less (a dataclass execs every method it generates).
class CastRequest(NamedTuple):
    hex: str
    moving: str | None = None
    date: str | None = None
    tz: str | None = None
    day_start: int = 23
    year: str | None = None
    month: str | None = None
    day: str | None = None
    hour: str | None = None
    use: str | None = None
    topic: str | None = None
    earth: str = "shui"
    # How the cast was obtained (toss.HOW) and its six throws, bottom first (toss.print_throws):
    # set by typed throws and --toss, None for a cast given (--hex, a batch line).
    obtained: str | None = None
    throws: str | None = None

    def inputs(self) -> dict[str, Any]:
        """The request's fields as a journal case keeps them: `obtained` and `throws` only when
        set, so that a case cast from --hex keeps the fields (and the content hash) it had before
        they existed."""
        d = self._asdict()
        if self.obtained is None and self.throws is None:
            del d["obtained"], d["throws"]
        return d

    @staticmethod
    def from_mapping(d: Mapping[str, Any]) -> "CastRequest":
        """A request from a JSON object; unknown keys and wrong types are errors naming the valid ones.
        A `journal` key (a line of `yimao journal export`) is read past: the rest is the request."""
        if "journal" in d:  # a case exported by `yimao journal export`: its cast fields are the request
            d = {k: v for k, v in d.items() if k != "journal"}
        unknown = sorted(d.keys() - _KEYS)
        if unknown:
            raise NotationError(f"unknown request key(s): {', '.join(map(shown, unknown[:4]))}", unknown[0], sorted(_KEYS))
        if "hex" not in d:
            raise NotationError("missing key 'hex'", None, ("hex",))
        if "day_start" not in d:  # the usual line: a few keys, every value a string (nothing to check)
            for v in d.values():
                if type(v) is not str:
                    break
            else:
                return CastRequest(**d)
        kwargs: dict[str, Any] = {}
        for name in _FIELDS:  # in the fields' order, so that the first bad key reported is stable
            v = d.get(name)
            if v is not None:
                kwargs[name] = _field_value(name, v)
        if "hex" not in kwargs:
            raise NotationError("hex must be a string, got null", None, ("离之乾", "798788"))
        return CastRequest(**kwargs)


def _field_value(name: str, v: Any) -> Any:
    """A request's value for a field, checked for its JSON type: day_start a number, moving a
    string or a list of line numbers, month and year a string or a whole number, the rest strings."""
    if name == "day_start":
        if isinstance(v, bool) or not isinstance(v, int):
            raise NotationError(f"day_start must be 23 or 0, got {shown(v)}", v, ("23", "0"))
    elif name == "moving" and isinstance(v, list):
        if len(v) > 6 or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            raise NotationError(f"moving must be a list of line numbers 1-6, got {shown(v)}", v, ("[2, 5]",))
        v = ",".join(map(str, v))  # ints of 64 bits at most (orjson; `batch` refuses longer ones)
    elif name == "throws" and isinstance(v, list):
        if len(v) > 6 or not all(isinstance(x, str) or (isinstance(x, int) and not isinstance(x, bool) and 6 <= x <= 9) for x in v):
            raise NotationError(f'throws must be a string or a list of six throws (7, "背字字"), got {shown(v)}', v, ('"7 背背背 8 7 8 8"',))
        v = " ".join(map(str, v))
    elif name in ("month", "year") and isinstance(v, (int, float)) and not isinstance(v, bool):
        if not isinstance(v, int) or not -(1 << 64) < v < 1 << 64:  # 3.5, or a number too long (orjson reads it as a float)
            raise NotationError(f"{name} must be a string or a whole number of a few digits, got {shown(v)}", v)
        v = str(v)
    elif not isinstance(v, str):
        raise NotationError(f"{name} must be a string, got {json_type(v)}", v)
    return v


def json_type(v: Any) -> str:
    """The JSON name of a decoded value's type, for messages about a request."""
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(v), "a number" if isinstance(v, (int, float)) else type(v).__name__
    )


_FIELDS = CastRequest._fields
_KEYS = frozenset(_FIELDS)


class CastResult(NamedTuple):
    """What a cast request yields: the chart, its 用神, the rules' findings and the stars on it."""

    chart: Chart
    use: Use | None
    findings: tuple[Any, ...]
    stars: Any  # stars.place.ChartStars: the stars found on the chart, once
    topic: str | None
    obtained: Obtained = GIVEN


def earth_school(value: str) -> EarthSchool:
    if value == "shui":  # the default
        return EarthSchool.SHUI
    v = value.strip().lower()
    if v in ("shui", "水", "申", "水土同宫", "水土"):
        return EarthSchool.SHUI
    if v in ("huo", "火", "寅", "火土同宫", "火土"):
        return EarthSchool.HUO
    raise NotationError(f"unknown --earth {shown(value)}", value, ("shui", "huo"))


def resolve_pillars(
    date: str | None,
    tz: str | None,
    day_start: int,
    year: str | None,
    month: str | None,
    day: str | None,
    hour: str | None,
    *,
    default_now: bool = True,
) -> FourPillars:
    """Pillars from a date (or now), or from the pillars the user states; never both."""
    given = year is not None or month is not None or day is not None or hour is not None
    if date is not None and given:
        raise NotationError(
            "give either --date or pillars (--year/--month/--day/--hour), not both",
            date,
            ("--date 2026-12-02T10:00+08:00", "--month 卯 --day 戊寅"),
        )
    if given:
        check_unused(tz, day_start)
        return pillars_given(year, month, day, hour)
    if date is not None:
        moment, label, source, notes = parse_moment(date, tz)
    elif default_now:
        moment, label, source, notes = now(tz)
    else:
        return FourPillars()
    return pillars_at(moment, day_start, tz_name=label, tz_source=source, notes=notes)


def read(req: CastRequest, pillars: FourPillars | None = None) -> CastResult:
    """The reading of a request; `pillars`, when given, stand for the request's moment (the
    journal re-reads a case cast for "now" at the moment it was cast)."""
    the_cast = Cast.parse(req.hex, req.moving)
    how = GIVEN if req.obtained is None and req.throws is None else obtained_of(req.obtained, req.throws, the_cast)
    school = earth_school(req.earth)
    p = pillars if pillars is not None else resolve_pillars(req.date, req.tz, req.day_start, req.year, req.month, req.day, req.hour)
    chart = build_chart(the_cast, p, school)
    analyse, find_stars, topic_filter = _engines()
    topic = topic_filter(req.topic)  # the book's topic (官司 is 词讼), which the rules read by too
    spec = req.use if req.use is not None else _topic_use(topic)  # a topic's own 用神 without --use
    use = resolve_use(chart, spec) if spec is not None else None  # "" is given, and wrong
    if use is not None and req.use is None:
        use = use._replace(from_topic=topic)
    return CastResult(chart, use, analyse(chart, use, topic), find_stars(chart, use=use, topic=topic), req.topic, how)


def pillars_ahead(req: CastRequest) -> FourPillars:
    """The pillars of a request whose cast is still to be typed or thrown, its other options
    (--use, --topic, --earth) checked by reading them on a stand-in cast: what is wrong is said
    before the six throws, not after. A cast for now is cast at this moment, when the throwing
    begins."""
    p = resolve_pillars(req.date, req.tz, req.day_start, req.year, req.month, req.day, req.hour)
    read(req._replace(hex="777777", moving=None, obtained=None, throws=None), p)
    return p


@cache
def _engines() -> tuple[Any, Any, Any]:
    """The rules and the stars, imported when a chart first needs them (`yimao pillars` does not),
    and once: an import statement in a function runs the import machinery at every call."""
    from yimao.analysis.run import analyse
    from yimao.stars.place import find_stars, topic_filter

    return analyse, find_stars, topic_filter


@cache
def _encoder() -> Any:
    """What `document` builds with (see `_engines`)."""
    from yimao.serialize import chart_to_dict

    return chart_to_dict


def topic_note(req: CastRequest) -> str | None:
    """What to say on stderr when the request's topic was an everyday word read as one of the
    book's (官司 as 词讼); None otherwise."""
    if req.topic is None:
        return None
    from yimao.stars.place import topic_filter
    from yimao.stars.topics import topic_note as note

    topic = topic_filter(req.topic)
    return None if topic is None else note(req.topic, topic)


def _topic_use(topic: str | None) -> str | None:
    """The 用神 the topic fixes (docs/rules.md §6), as a --use spec; None when it fixes none."""
    from yimao.analysis.by_topic import topic_use

    row = topic_use(topic)
    return None if row is None else row.use


def topic_use_note(req: CastRequest) -> str | None:
    """What to say on stderr when the topic supplied the 用神 (no --use): the 用神 and why."""
    if req.topic is None or req.use is not None:
        return None
    from yimao.analysis.by_topic import topic_use
    from yimao.stars.place import topic_filter

    row = topic_use(topic_filter(req.topic))
    if row is None:
        return None
    basis = f"「{row.text.original}」 {row.text.passage}" if row.book else f"六爻通例 (cf. 「{row.text.original}」 {row.text.passage})"
    return f"{row.topic}: 用神 {row.use} ({basis})"


def book_topic(topic: str) -> str:
    """The book's topic a request's topic is read as (官司 is 词讼); an unknown one is an error."""
    return _engines()[2](topic)


def use_note(use: Use | None) -> str | None:
    if use is None:
        return None
    if use.is_hidden:
        return f"用神 {use.spec} 不上卦: 取伏神 (爻 {','.join(map(str, use.hidden_positions))})"
    by = f" (据{use.from_topic})" if use.from_topic is not None else ""
    if not use.positions:
        return f"用神 {use.spec}{by}: 不现"
    return f"用神 {use.spec}{by}: 爻 {','.join(map(str, use.positions))}"


def document(result: CastResult) -> dict[str, Any]:
    """The document of `yimao cast --json`, as lists and dicts (to indent, or to put in
    traditional characters)."""
    return _encoder()(result.chart, findings=result.findings, stars=result.stars, use=result.use, obtained=result.obtained)


def document_json(result: CastResult) -> bytes:
    """`document(result)` as `yimao batch` writes it: compact JSON and a newline."""
    from yimao.serialize import dumps

    return dumps(document(result), compact=True)
