"""The JSON contract (schema_version 2): explicit `*_to_dict` functions, nothing implicit, and
one encoder — dicts and lists that orjson writes (`dumps`), indented for `cast --json`, one line
for `yimao batch`.

Keys are ASCII snake_case; domain values are canonical simplified Chinese strings (traditional
on request); line positions are integers 1-6, 初爻 = 1; absent is null. Additive fields do not
bump `SCHEMA_VERSION`; renaming or removing one does.

A chart's document says what this chart says. What would be the same in every chart — a star's
name, aliases, topics, table and sentence, a condition's effect when it does not hold — is said
once, in the catalogue's document (`catalogue_document`), which a chart names by its
`catalogue_version`.

Documents are read-only: the parts that many charts share (a hexagram's head, a relation, a
jie, a star's fields for its positions) are built once and the same objects reappear in every
document that contains them. Traditional characters are a converted copy of a document
(`output.in_script`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from yimao.chart import ChangedLine, ChangeRelation, Chart, ChartLine, DayRelation, Hidden, MonthRelation, Use, relation_tags
from yimao.ganzhi import Branch, Element, Stem
from yimao.hexagram import Cast, Hexagram, Line, Relative
from yimao.pillars import DateContext, FourPillars
from yimao.solar_terms import Jie

if TYPE_CHECKING:
    from yimao.analysis.by_topic import TopicReading
    from yimao.analysis.finding import (
        Details,
        Finding,
        HaiDetails,
        JuhuiDetails,
        Member,
        MukaiDetails,
        Relation,
        SanxingDetails,
        ShiyingHaiDetails,
        TargetRef,
        WoxingDetails,
        XingDetails,
        ZhuguiDetails,
    )
    from yimao.stars.catalogue import FixedName, Star
    from yimao.texts import Passage

SCHEMA_VERSION = 2


def document(**parts: Any) -> dict[str, Any]:
    """A document of any command: `schema_version`, then its parts in the order given."""
    return {"schema_version": SCHEMA_VERSION, **parts}


def _s(x: object) -> str | None:
    return None if x is None else str(x)


class _Memo(dict):
    """`memo[key]` is `build(key)`, built on the first lookup of each distinct key.

    Only for keys of small finite domains (pillars, relations, lines, placed stars), so that it
    stays bounded.
    """

    __slots__ = ("build",)

    def __init__(self, build: Any) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.build(key)
        return value


# A pillar's text, and what the document derives from the month (月破) and the day (旬空).
_PILLAR = _Memo(_s)
_MONTH_PILLAR = _Memo(lambda m: (_s(m), _s(FourPillars(month=m).yuepo)))
_DAY_PILLAR = _Memo(lambda d: (_s(d), [b.value for b in xk] if (xk := FourPillars(day=d).xunkong) else None))


def pillars_to_dict(p: FourPillars) -> dict[str, Any]:
    return {"year": _PILLAR[p[0]], "month": _PILLAR[p[1]], "day": _PILLAR[p[2]], "hour": _PILLAR[p[3]]}


def calendar_to_dict(p: FourPillars) -> dict[str, Any]:
    """`pillars`, `xunkong`, `yuepo`, and — when cast from a moment — `lunar`, `jie`, `near_jie`, `conventions`."""
    pillars, xunkong, yuepo, lunar, jie, near_jie, conventions = _calendar(p)
    return {
        "pillars": pillars,
        "xunkong": xunkong,
        "yuepo": yuepo,
        "lunar": lunar,
        "jie": jie,
        "near_jie": near_jie,
        "conventions": conventions,
    }


def _calendar(p: FourPillars) -> tuple[Any, ...]:
    """The values of `calendar_to_dict`, in its order (`chart_to_dict` puts them in its own document)."""
    year, month, day, hour, ctx = p
    month_text, yuepo = _MONTH_PILLAR[month]
    day_text, xunkong = _DAY_PILLAR[day]
    pillars = {"year": _PILLAR[year], "month": month_text, "day": day_text, "hour": _PILLAR[hour]}
    if ctx is None:
        return pillars, xunkong, yuepo, None, None, None, None
    return (pillars, xunkong, yuepo, *_context(ctx))


def _jie_in(j: Jie, zone: tzinfo | None) -> dict[str, Any]:
    instant = j.instant
    local, utc = _moment_texts(instant.astimezone(zone))
    return {
        "name": j.name,
        "month": j.month.value,
        # the instant's own wall clock (solar_terms gives instants in UTC, where the two agree)
        "utc": utc if instant.tzinfo is UTC else instant.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "local": local,
    }


# The 节 of a moment in its zone: the pairs met lately are kept. Their number grows with the
# calendar a batch spans (2,400 节 over 1901-2100, in each zone), not with the book's values.
@lru_cache(maxsize=1024)
def _jies(current: Jie, following: Jie, zone: tzinfo | None) -> dict[str, Any]:
    return {"current": _jie_in(current, zone), "next": _jie_in(following, zone)}


# Formatting a moment is the dearest part of a document's calendar: `isoformat` and `strftime`
# cost some 10,000 instructions each, half of it for the offset. `_moment_texts` writes the
# same texts from the moment's fields and the offset's text, found once per offset. A test
# compares it with isoformat and strftime over many moments, zones and offsets.
_TWO = tuple(f"{i:02d}" for i in range(100))


def _offset_entry(offset: timedelta | None) -> tuple[str, int | None]:
    """isoformat's text of a UTC offset, and the offset in seconds (None when not whole)."""
    if offset is None:  # a naive moment
        return "", None
    text = datetime(2000, 1, 1, tzinfo=timezone(offset)).isoformat()[19:]
    return text, None if offset.microseconds else offset.days * 86400 + offset.seconds


_OFFSETS = _Memo(_offset_entry)  # a few offsets per run (each a timedelta under a day)


def _moment_texts(moment: datetime) -> tuple[str, str]:
    """`moment.isoformat(timespec="seconds")`, and the moment in UTC as `2026-12-02T02:00:00Z`
    (strftime's `%Y-%m-%dT%H:%M:%SZ`) — for an aware moment."""
    suffix, offset = _OFFSETS[moment.utcoffset()]
    y = moment.year
    if offset is None or not 1000 <= y <= 9998:
        # the rare cases, the plain way (strftime leaves a year before 1000 unpadded, with glibc)
        return moment.isoformat(timespec="seconds"), moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    mo, d, h, mi, sec = moment.month, moment.day, moment.hour, moment.minute, moment.second
    two = _TWO
    local = f"{y}-{two[mo]}-{two[d]}T{two[h]}:{two[mi]}:{two[sec]}{suffix}"
    t = h * 3600 + mi * 60 + sec - offset  # the UTC time of day, in seconds from the local midnight
    if not 0 <= t < 86400:  # the UTC date is the day before or after
        u = date.fromordinal(moment.toordinal() + t // 86400)
        y, mo, d = u.year, u.month, u.day
        if y < 1000:
            return local, moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        t %= 86400
    return local, f"{y}-{two[mo]}-{two[d]}T{two[t // 3600]}:{two[t // 60 % 60]}:{two[t % 60]}Z"


def context_to_dict(ctx: DateContext | None) -> dict[str, Any]:
    if ctx is None:
        return {"lunar": None, "jie": None, "near_jie": None, "conventions": None}
    lunar, jie, near_jie, conventions = _context(ctx)
    return {"lunar": lunar, "jie": jie, "near_jie": near_jie, "conventions": conventions}


def _context(ctx: DateContext) -> tuple[Any, Any, Any, Any]:
    moment, day_start, tz_name, tz_source, jie, next_jie, _ = ctx  # the notes are for stderr
    local, utc = _moment_texts(moment)
    near = ctx.near_jie
    lunar: dict[str, Any] | None = None
    if ctx.lunar is not None:
        year, year_ganzhi, month, leap, day, month_name, day_name = ctx.lunar
        lunar = {
            "year": year,
            "year_ganzhi": year_ganzhi,
            "month": month,
            "leap": leap,
            "day": day,
            "text": f"{year_ganzhi}年{month_name}{day_name}",  # str(lunar), without the call
        }
    return (
        lunar,
        _jies(jie, next_jie, moment.tzinfo),
        None if near is None else {"name": near[0].name, "seconds": round(near[1], 1)},
        {"moment": local, "utc": utc, **_conventions_rest(tz_name, tz_source, day_start)},
    )


def _conventions_rest(tz_name: str, tz_source: str, day_start: int) -> dict[str, Any]:
    """A document's `conventions` after the moment's texts."""
    return {
        "timezone": tz_name,
        "timezone_source": tz_source,
        "day_start": day_start,
        "zi_hour": "子初换日 (23:00 starts the day)" if day_start == 23 else "晚子时 (the day changes at 00:00)",
        "months": "月建 by the 12 节, exact instants",
    }


# The relations of a line, each with its tags (the document's `tags` of a line are those of its
# month, day and change relations in turn; see `chart.relation_tags`). Relations are NamedTuples of
# enums, booleans and short strings: finitely many values, each built once.
def _month_entry(m: MonthRelation | None) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    if m is None:
        return None, ()
    return {"vigour": m.vigour.value, "po": m.po, "he": m.he, "effect": m.effect}, relation_tags(m, None, None)


def _day_entry(d: DayRelation | None) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    if d is None:
        return None, ()
    return {
        "stage": d.stage.value,
        "kong": d.kong,
        "effect": d.effect,
        "he": d.he,
        "chong": d.chong,
        "andong": d.andong,
        "ripo": d.ripo,
    }, relation_tags(None, d, None)


def _change_entry(c: ChangeRelation | None) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    if c is None:
        return None, ()
    return {
        "huitou": c.huitou,
        "jin": c.jin,
        "tui": c.tui,
        "kong": c.kong,
        "po": c.po,
        "mu": c.mu,
        "jue": c.jue,
        "he": c.he,
        "chong": c.chong,
    }, relation_tags(None, None, c)


_MONTH = _Memo(_month_entry)
_DAY = _Memo(_day_entry)
_CHANGE = _Memo(_change_entry)


@cache
def _najia(stem: Stem, branch: Branch, relative: Relative) -> dict[str, str]:
    return {"stem": stem.value, "branch": branch.value, "element": branch.element.value, "relative": relative.value}


# Building a dict from a literal costs an insertion per key, while copying a dict costs little
# more than its memory: a line's dict is a copy of its line's template (the keys in the
# document's order, with what the line alone decides), then the chart's values are set.
def _line_templates(line: Line) -> tuple[dict[str, Any], dict[str, Any]]:
    """The templates of a line's dict: static, and moving."""
    static = {
        "position": line.position,
        "yang": line.yang,
        "moving": False,
        "value": 7 if line.yang else 8,
        **_najia(line.stem, line.branch, line.relative),
        "spirit": None,
        "shi": False,
        "ying": False,
        "hidden": None,
        "changed": None,
        "relations": None,
        "tags": None,
        "stars": None,
    }
    return static, {**static, "moving": True, "value": 9 if line.yang else 6}


_LINE = _Memo(_line_templates)
_HIDDEN_LINE = _Memo(lambda hl: {**_najia(hl.stem, hl.branch, hl.relative), "fei": None, "lifted": None, "relations": None})


def _hidden(h: Hidden | None) -> dict[str, Any] | None:
    if h is None:
        return None
    hl, fei, month, day, lifted = h
    out = _HIDDEN_LINE[hl].copy()
    out["fei"] = fei
    out["lifted"] = lifted
    out["relations"] = {"month": _MONTH[month][0], "day": _DAY[day][0]}
    return out


def line_to_dict(cl: ChartLine, stars: Iterable[str] = ()) -> dict[str, Any]:
    line, moving, value, spirit, shi, ying, hidden, changed, month, day, change = cl
    out = _LINE[line][moving is True].copy()
    # what a line built by hand (not by build_chart) may say otherwise than its template
    if moving is not True and moving is not False:
        out["moving"] = moving
    if value != out["value"]:
        out["value"] = value
    if spirit is not None:
        out["spirit"] = spirit._value_  # _value_: .value is a Python-level property
    if shi is not False:
        out["shi"] = shi
    if ying is not False:
        out["ying"] = ying
    if hidden is not None:
        out["hidden"] = _hidden(hidden)
    if changed is not None:
        out["changed"] = _CHANGED[changed]
    # built here: the combinations of the three are many (13,000 in 100,000 charts), and kept
    # by them they held some 7 MB of a long batch and saved nothing measurable
    (month_entry, month_tags), (day_entry, day_tags), (change_entry, change_tags) = _MONTH[month], _DAY[day], _CHANGE[change]
    out["relations"] = {"month": month_entry, "day": day_entry, "change": change_entry}
    out["tags"] = [*month_tags, *day_tags, *change_tags]
    out["stars"] = list(stars)
    return out


def _changed_line(ch: ChangedLine | None) -> dict[str, Any] | None:
    if ch is None:
        return None
    return {"yang": ch.yang, **_najia(ch.stem, ch.branch, ch.relative)}


_CHANGED = _Memo(_changed_line)


@cache
def _hexagram_head(h: Hexagram) -> dict[str, Any]:
    return {
        "name": h.name,
        "short_name": h.short_name,
        "unicode": h.unicode,
        "king_wen": h.king_wen,
        "bits": h.bit_string(),
        "upper": h.upper.value,
        "lower": h.lower.value,
        "palace": h.palace.value,
        "palace_element": h.palace_element.value,
        "generation": h.generation.value,
        "shi": h.shi,
        "ying": h.ying,
        "guashen": h.guashen.value,
    }


def changed_to_dict(chart: Chart) -> dict[str, Any] | None:
    """The 之卦: its own place and lines; each line's `relative` is counted against the ORIGINAL palace."""
    return _changed(chart.cast)


@cache
def _changed(cast: Cast) -> dict[str, Any] | None:
    ch = cast.changed
    if ch is None:
        return None
    h, moving = cast
    return {
        **_hexagram_head(ch),
        "relatives_against": h.palace.value,
        "lines": [moves if static["position"] in moving else static for static, moves in _changed_lines(ch, h.palace_element)],
    }


@cache  # 64 之卦 × 5 palace elements
def _changed_lines(ch: Hexagram, palace: Element) -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    """The lines of a 之卦 counted against a palace, each static and moving."""
    out = []
    for line in ch.lines:
        static = {
            "position": line.position,
            "yang": line.yang,
            "moving": False,
            "stem": line.stem.value,
            "branch": line.branch.value,
            "element": line.element.value,
            "relative": Relative.of(line.element, palace).value,
        }
        out.append((static, {**static, "moving": True}))
    return tuple(out)


def chart_to_dict(chart: Chart, *, findings: Iterable[Any] = (), stars: Any = None, use: Use | None = None, obtained: Any = None) -> dict[str, Any]:
    """The document of `yimao cast --json`: the chart with the rules' findings (`Finding`s), its
    stars (a `stars.place.ChartStars`), its 用神, and how its cast was obtained (a
    `toss.Obtained`; None for a cast given)."""
    cast, pillars, lines, features, school = chart
    star_entries = [] if stars is None else stars_to_list(stars)
    line_stars = _ids_by_line(star_entries)
    pillars, xunkong, yuepo, lunar, jie, near_jie, conventions = _calendar(pillars)
    cast_part, changed_part = _CAST_PARTS[cast]
    if obtained is not None and obtained.throws is not None:  # typed or thrown: the throws, bottom first
        cast_part = {**cast_part, "obtained": obtained.how, "throws": [{"value": t.value, "faces": t.faces} for t in obtained.throws]}
    hexagram = _HEXAGRAM[cast.hexagram].copy()
    hexagram["features"] = list(features)
    hexagram["lines"] = [line_to_dict(cl, line_stars.get(cl.line.position, ())) for cl in lines]
    return document(
        cast=cast_part,
        pillars=pillars,
        xunkong=xunkong,
        yuepo=yuepo,
        lunar=lunar,
        jie=jie,
        near_jie=near_jie,
        conventions=conventions,
        earth_school=school._value_,
        hexagram=hexagram,
        changed_hexagram=changed_part,
        use=use_to_dict(use),
        findings=[finding_to_dict(f) for f in findings],
        catalogue_version=_catalogue_version(),
        stars=star_entries,
    )


def finding_to_dict(f: Finding) -> dict[str, Any]:
    """A rule's `Finding` (analysis.finding), its details as their family writes them."""
    return {
        "rule": f.rule,
        "holds": f.holds,
        "kind": f.kind,
        "element": None if f.element is None else f.element._value_,
        "relative": None if f.relative is None else f.relative._value_,
        "lines": list(f.lines),
        "members": [*map(_MEMBER.__getitem__, f.members)],
        "reasons": list(f.reasons),
        "text": [*_QUOTES[f.text]],
        "details": details_to_dict(f.details),
    }


def _member_dict(m: Member) -> dict[str, Any]:
    """A branch taking part in a finding (analysis.finding.Member)."""
    return {"branch": m.branch._value_, "source": m.source._value_, "position": m.position, "role": m.role}


def _relation(r: Relation) -> dict[str, Any]:
    """A 合, 冲, 生 or 克 round a 六害 (the schema's `relation`)."""
    return {"relation": r.kind, "from": _MEMBER[r.from_], "to": _MEMBER[r.to]}


def _topic_reading(r: TopicReading) -> dict[str, Any]:
    """The book's reading of a rule for the topic asked (the schema's `topic_reading`)."""
    return {"topic": r.topic, "matter": r.matter, "reading": r.reading, "text": r.text.to_dict()}


# The parts of findings that many charts share, each written once, by its value (documents are
# read-only): a member, a tuple of sentences, the readings of a rule by topic, a 合冲生克, the
# reading of a topic, a grave. Bounded by construction: 12 branches × 6 sources × 7 positions ×
# the rules' few roles, and the rules' own sentences.
_MEMBER = _Memo(_member_dict)
_QUOTES = _Memo(lambda text: tuple([q.to_dict() for q in text]))
_TOPIC_TEXTS = _Memo(lambda readings: tuple([{"topic": r.topic, **r.text.to_dict()} for r in readings]))
_RELATION = _Memo(_relation)
_TOPIC_READING = _Memo(_topic_reading)
_GRAVE = _Memo(lambda g: {"topic": g.topic, "reading": g.reading, **g.text.to_dict()})


# --- a finding's details, one function a family ------------------------------------------------


def details_to_dict(d: Details) -> dict[str, Any]:
    """A finding's `details`, by the family of its value (analysis.finding)."""
    return _details_writers()[type(d)](d)


@cache
def _details_writers() -> dict[type, Any]:
    """The writer of each family's details, by its type: the rules' module is imported when a
    document first has findings, not by every command that writes JSON."""
    from yimao.analysis import finding as fd

    return {
        fd.ZhuguiDetails: _zhugui_details,
        fd.JuhuiDetails: _juhui_details,
        fd.XingDetails: _xing_details,
        fd.SanxingDetails: _sanxing_details,
        fd.WoxingDetails: _woxing_details,
        fd.MukaiDetails: _mukai_details,
        fd.HaiDetails: _hai_details,
        fd.ShiyingHaiDetails: _shiying_hai_details,
    }


def _zhugui_details(d: ZhuguiDetails) -> dict[str, Any]:
    shi = d.shi
    out = {
        "changsheng": d.changsheng._value_,
        "true_changsheng": d.true_changsheng,
        "ghosts": [
            {
                "position": g.position,
                "branch": g.branch._value_,
                "moving": g.moving,
                "vigour": None if g.vigour is None else g.vigour._value_,
                "speed": g.speed,
                "size": g.size,
            }
            for g in d.ghosts
        ],
        "shi": {"position": shi.position, "branch": shi.branch._value_, "vigour": None if shi.vigour is None else shi.vigour._value_},
    }
    harm = d.harm
    if harm is not None:
        out["use"] = harm.use
        out["verdict"] = harm.verdict
        out["verdict_text"] = [*_QUOTES[harm.verdict_text]]
        out["severity"] = harm.severity.to_dict()
        out["readings"] = [*_TOPIC_TEXTS[harm.readings]]
        out["topic_reading"] = None if harm.topic_reading is None else _TOPIC_READING[harm.topic_reading]
        out["ghost_role"] = harm.ghost_role
        if harm.topic_why is not None:
            out["topic_why"] = harm.topic_why
        if harm.spirit_text is not None:
            out["spirits"] = [{"position": s.position, "spirit": s.spirit._value_, "reading": s.reading} for s in harm.spirits]
            out["spirit_text"] = harm.spirit_text.to_dict()
    return out


def _juhui_details(d: JuhuiDetails) -> dict[str, Any]:
    roles = d.roles
    out = {
        "roles": {r.name: r.branch._value_ for r in roles},
        "present": {r.name: r.present for r in roles},
        "sound": {r.name: r.sound for r in roles},
        "ri": d.ri,
        "yue": d.yue,
        "xuan": d.xuan,
        "vigour": None if d.vigour is None else d.vigour._value_,
    }
    use = d.use
    if use is not None:
        out["use_element"] = use.element._value_
        out["is_use"] = use.is_use
        out["to_use"] = use.relation
    if d.zhen:
        out["zhen"] = True
    if d.strength is not None:  # a 局 that forms
        out["strength"] = d.strength
        out["xuan_reading"] = d.xuan_reading
    return out


def _target(t: TargetRef) -> dict[str, Any]:
    """What the details of a finding on a target (三刑, 墓开, 六害) start with."""
    return {"target": t.role, "hidden": t.hidden, "position": t.position, "branch": t.branch._value_}


def _xing_details(d: XingDetails) -> dict[str, Any]:
    out = _target(d.target)
    out["name"] = d.name
    out["weight"] = d.weight
    out["severity"] = [*_QUOTES[d.severity]]
    out["readings"] = [*_TOPIC_TEXTS[d.readings]]
    out["topic_reading"] = None if d.topic_reading is None else _TOPIC_READING[d.topic_reading]
    if d.grave:
        out["grave"] = [*map(_GRAVE.__getitem__, d.grave)]
    return out


def _sanxing_details(d: SanxingDetails) -> dict[str, Any]:
    out = _target(d.target)
    out["name"] = d.name
    out["topic_reading"] = None if d.topic_reading is None else _TOPIC_READING[d.topic_reading]
    return out


def _woxing_details(d: WoxingDetails) -> dict[str, Any]:
    out = _target(d.target)
    out["name"] = d.name
    return out


def _mukai_details(d: MukaiDetails) -> dict[str, Any]:
    out = _target(d.target)
    out["tomb"] = d.tomb._value_
    out["holder"] = d.holder
    out["weight"] = d.weight
    return out


def _hai_details(d: HaiDetails) -> dict[str, Any]:
    out = _target(d.target)
    out["direction"] = d.direction
    out["weight"] = d.weight
    out["severity"] = [*_QUOTES[d.severity]]
    out["relations"] = [*map(_RELATION.__getitem__, d.relations)]
    out["outweighed_by"] = [*map(_MEMBER.__getitem__, d.outweighed_by)]
    return out


def _shiying_hai_details(d: ShiyingHaiDetails) -> dict[str, Any]:
    return {
        "target": d.target,
        "direction": d.direction,
        "weight": d.weight,
        "severity": [*_QUOTES[d.severity]],
        "relations": [*map(_RELATION.__getitem__, d.relations)],
        "outweighed_by": [*map(_MEMBER.__getitem__, d.outweighed_by)],
    }


def use_to_dict(use: Use | None) -> dict[str, Any] | None:
    if use is None:
        return None
    out = {
        "spec": use.spec,
        "relative": use.relative.value if use.relative else None,
        "positions": list(use.positions),
        "hidden": use.is_hidden,
        "hidden_positions": list(use.hidden_positions),
    }
    if use.from_topic is not None:
        out["from_topic"] = use.from_topic
    return out


@cache
def _cast(cast: Cast) -> dict[str, Any]:
    """A cast as given (--hex, a batch line): no throws."""
    return {"spec": cast.spec(), "coins": cast.coins(), "moving": sorted(cast.moving), "obtained": "given", "throws": None}


# A document's `cast` and `changed_hexagram`, one lookup per cast (4096 of them), each built
# when its cast is first met (a single command casts one chart: it should not pay for 64); and
# the template of its `hexagram`, the head with `features` and `lines` to fill in.
_CAST_PARTS = _Memo(lambda cast: (_cast(cast), _changed(cast)))
_HEXAGRAM = _Memo(lambda h: {**_hexagram_head(h), "features": None, "lines": None})


# --- the documents of the other commands --------------------------------------------------


def pillars_document(p: FourPillars) -> dict[str, Any]:
    """`yimao pillars --json`: the pillars of a moment with its calendar."""
    return document(**calendar_to_dict(p))


def hexagram_document(chart: Chart) -> dict[str, Any]:
    """`yimao hex --json`: a cast without a date, its hexagram and its 之卦 as `cast --json` gives
    them (the same keys; with no month or day, `spirit` and those relations are null)."""
    doc = chart_to_dict(chart)
    return document(cast=doc["cast"], hexagram=doc["hexagram"], changed_hexagram=doc["changed_hexagram"])


def star_meta(star: Star) -> dict[str, Any]:
    """What the catalogue says of a star (`yimao star`, `yimao stars`, `yimao star --list`): its
    names, group, basis, nature, topics, rule, sentences, and the conditions the book attaches
    (each with its effect, sentence and readings)."""
    return {
        "id": star.id,
        "name": star.name,
        "label": star.label,
        "traditional": star.traditional,
        "aliases": list(star.aliases),
        "group": star.group,
        "basis": star.basis,
        "weight": star.weight,  # heavy: a month or day star; light: a year or hour star (唯日月之用尊焉)
        "kind": star.kind,
        "nature": star.nature,
        "topics": list(star.topics),
        "placed": star.placed,
        "rule": star.rule,
        "notes": list(star.notes),
        "text": [q.to_dict() for q in star.quotes],
        "conditions": [
            {
                "index": i,
                "effect": c.effect,
                "text": {"passage": c.quote.passage, "original": c.quote.original},
                **_reading_fields(c.reading),
                "reason": c.reading.reason,
                "variants": [{**_reading_fields(v), "reason": v.reason} for v in c.variants],
            }
            for i, c in enumerate(star.conditions)
        ],
    }


def table_to_dict(table: Mapping[str, Any]) -> dict[str, Any]:
    """A star's table (tuples of positions, or tables by a further key) as lists and dicts."""
    return {k: (list(v) if isinstance(v, tuple) else table_to_dict(v)) for k, v in table.items()}


def _positions(positions: Sequence[str] | None) -> list[str] | None:
    return list(positions) if positions is not None else None


def star_list_document(stars: Iterable[Star]) -> dict[str, Any]:
    """`yimao star --list --json`: the catalogue — every star by id, with what a chart's document
    does not repeat (`star_meta`), and the groups as the book has them."""
    entries: dict[str, dict[str, Any]] = {}
    groups: dict[str, list[str]] = {}
    for s in stars:
        entries[s.id] = {**star_meta(s), "variants": [{"reading": v.reading, "reason": v.reason} for v in s.variants]}
        groups.setdefault(s.group, []).append(s.id)
    return document(catalogue_version=_catalogue_version(), groups=[{"group": g, "stars": ids} for g, ids in groups.items()], stars=entries)


def star_table_document(star: Star) -> dict[str, Any]:
    """`yimao star NAME --json`: a star's whole table, and its variants'."""
    variants = [{"reading": v.reading, "reason": v.reason, "table": table_to_dict(v.table)} for v in star.variants]
    return document(catalogue_version=_catalogue_version(), star=star_meta(star), table=table_to_dict(star.table), variants=variants)


def star_positions_document(
    star: Star,
    basis: Mapping[str, str | None],
    positions: Sequence[str] | None,
    variants: Iterable[tuple[str, Sequence[str] | None]],
) -> dict[str, Any]:
    """`yimao star NAME --json` with a date or pillars: where the star stands for their basis values."""
    return document(
        star=star_meta(star),
        basis=dict(basis),
        positions=_positions(positions),
        variants=[{"reading": r, "positions": _positions(v)} for r, v in variants],
    )


def fixed_name_document(fixed: FixedName) -> dict[str, Any]:
    """`yimao star NAME --json` for the name of a fixed branch (帝座, 黄泉杀 …)."""
    return document(
        fixed_name={
            "name": fixed.name,
            "traditional": fixed.traditional,
            "aliases": list(fixed.aliases),
            "group": fixed.group,
            "position": fixed.position,
            "rule": fixed.rule,
            "notes": list(fixed.notes),
            "text": [q.to_dict() for q in fixed.quotes],
        }
    )


def stars_document(p: FourPillars, rows: Iterable[tuple[Star, Sequence[str] | None, Iterable[tuple[str, Sequence[str] | None]]]]) -> dict[str, Any]:
    """`yimao stars --json`: every placed star's positions (and its variants') for the pillars."""
    stars = [
        {**star_meta(s), "positions": _positions(pos), "variants": [{"reading": r, "positions": _positions(v)} for r, v in variants]}
        for s, pos, variants in rows
    ]
    return document(basis=pillars_to_dict(p), stars=stars)


def passage_list_document(passages: Iterable[Passage]) -> dict[str, Any]:
    """`yimao text --json` without a query: every passage's id and first words."""
    return document(query=None, passages=[{"id": p.id, "first_words": p.first_words} for p in passages])


def passages_document(query: str, passages: Iterable[Passage]) -> dict[str, Any]:
    """`yimao text QUERY --json`: the passages found, whole."""
    found = [{"id": p.id, "number": p.number, "original": p.original, "vernacular": p.vernacular, "notes": list(p.notes)} for p in passages]
    return document(query=query, passages=found)


def examples_document(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """`yimao examples --json`: each worked example recomputed, and how many agree with the book."""
    bad = sum(not r["agrees"] for r in results)
    return document(examples=list(results), agree=len(results) - bad, disagree=bad)


@cache
def _orjson() -> Any:
    """orjson, imported when first needed (the tables of `yimao cast` need none of it), and
    once: an import statement in a function runs the import machinery at every call."""
    import orjson

    return orjson


def dumps(doc: Mapping[str, Any], *, compact: bool = False) -> bytes:
    """UTF-8 JSON bytes with a final newline (indent 2, or one line when compact).

    orjson writes UTF-8 directly (no ASCII escapes) and is some six times faster than the
    standard library on a chart document, which is what lets `yimao batch` stream charts fast.
    """
    orjson = _orjson()
    option = orjson.OPT_APPEND_NEWLINE | (0 if compact else orjson.OPT_INDENT_2)
    return orjson.dumps(doc, option=option)


# --- stars --------------------------------------------------------------------------------------
#
# A chart's `stars` are the stars standing on it (a `stars.place.ChartStars`), each entry what
# the chart says of its star: where it stands and falls, whether it acts, the conditions that
# hold by some reading, the variant readings that place it elsewhere. The fields that depend on
# the star and its positions alone are built once per placed star (`_placed`).


@cache
def _catalogue_version() -> str:
    from yimao.stars.catalogue import catalogue

    return catalogue().version


class _Placed:
    """A star's entry as its positions fix it (a `PositionedStar`, built once per star and
    pillars' basis value), acting and dormant: the fields of where it falls left None, its
    sentence with the original when it acts (the passage alone when not), no condition held and
    no variant (those placing it elsewhere are the chart's: they say its lines). A chart's entry
    is a copy with its own fields set in: copying a dict of fixed keys costs less than building one."""

    __slots__ = ("acting", "dormant", "dated", "judged_apart", "variants")

    def __init__(self, star: Any) -> None:
        from yimao.stars.conditions import readings_of
        from yimao.stars.place import dated_stars

        s = star.star
        q = s.quote
        self.dated = s in dated_stars()  # a variant of some 节气 days only: its positions are the chart's day's
        # its conditions read the chart and a variant may place it otherwise: judged there too
        self.judged_apart = bool(star.variants) and readings_of(s.conditions) is not None
        head = {"id": s.id, "label": s.label, "nature": s.nature, "weight": s.weight, "positions": list(star.positions), **dict.fromkeys(_WHERE)}
        # variants placing it otherwise: their entries are the chart's, which says their lines
        self.variants = any(p != star.positions for _, p in star.variants)
        self.acting = {**head, "text": None if q is None else {"passage": q.passage, "original": q.original}, "conditions": [], "variants": []}
        self.dormant = {**head, "text": None if q is None else {"passage": q.passage, "original": None}, "conditions": [], "variants": []}


_WHERE = ("lines", "hits", "moving", "active", "day_match", "on_use")  # `_where_fields`, in the entry's order
_PLACED = _Memo(_Placed)  # by PositionedStar: one per star and pillars' basis value, bounded as those are


def stars_to_list(stars: Any) -> list[dict[str, Any]]:
    """The document's `stars`, in the catalogue's chart order (heavy first)."""
    entries = []
    # without a topic, a condition of the topic alone holds by no reading: only those of the chart are judged
    judged = stars.conditions(of_the_chart=stars.topic is None)
    for where, day_match, members in stars.groups:
        fields = _WHERE_FIELDS[where, day_match]
        acting = fields["active"]
        for star in members:
            placed = _PLACED[star]
            entry = (placed.acting if acting else placed.dormant).copy()
            entry.update(fields)
            if placed.variants or placed.dated:
                entry["variants"] = [
                    {"reading": r, "positions": None if p is None else list(p), "lines": None if lines is None else list(lines), "conditions": []}
                    for r, p, lines in stars.variant_falls(star)
                ]
            held = judged.get(star.index)
            if held:
                entry["conditions"] = conditions_to_list(held)
                if placed.judged_apart:
                    entry["variants"] = _variants_judged(entry["variants"], stars.variant_conditions(star))
            entries.append((star.index, entry))
    entries.sort(key=_first)
    return [entry for _, entry in entries]


def _variants_judged(variants: list[dict[str, Any]], judged: Any) -> list[dict[str, Any]]:
    """A star's variants placing it otherwise, each with the conditions on the chart that hold
    where it puts the star (`ChartStars.variant_conditions`; one of the topic alone is the
    entry's own); the template's own list when none holds."""
    from yimao.stars.conditions import reads_the_chart

    held = {reading: [c for c in conditions_to_list(results) if reads_the_chart(results[c["index"]].condition)] for reading, results in judged}
    if not any(held.values()):
        return variants
    return [{**v, "conditions": held.get(v["reading"]) or []} for v in variants]


def _first(pair: tuple[int, Any]) -> int:
    return pair[0]


def star_ids_by_line(stars: Any) -> dict[int, list[str]]:
    """Each line's stars (on its 本爻, 变爻 or 伏神), by id in the catalogue's order."""
    return _ids_by_line(stars_to_list(stars))


def _ids_by_line(entries: list[dict[str, Any]]) -> dict[int, list[str]]:
    per: dict[int, list[str]] = {}
    for e in entries:  # in chart order already
        for pos in e["lines"]:
            per.setdefault(pos, []).append(e["id"])
    return per


def conditions_to_list(results: Any) -> list[dict[str, Any]]:
    """A star's conditions judged on a chart (`stars.conditions.ConditionResult`s) that hold by
    their reading or by another: each with its index in the catalogue's entry, the effect and
    sentence, the lines, and every other reading's answer (a disagreement is shown, not hidden).
    A condition that holds by no reading is the catalogue's to say."""
    return [
        {
            "index": i,
            "holds": c.result.holds,
            "lines": list(c.result.lines),
            **_reading_fields(c.result.reading),
            "effect": c.condition.effect,
            "text": {"passage": c.condition.quote.passage, "original": c.condition.quote.original},
            "variants": [{**_reading_fields(v.reading), "holds": v.holds, "lines": list(v.lines)} for v in c.variants],
        }
        for i, c in enumerate(results)
        if c.result.holds or any(v.holds for v in c.variants)
    ]


def _reading_fields(r: Any) -> dict[str, Any]:
    return {"reading": r.on, "relative": r.relative, "moving": r.moving, "topics": list(r.topics), "hidden": r.hidden, "day_stems": list(r.day_stems)}


_HIT = _Memo(lambda h: {"position": h.position, "part": h.part, "moving": h.moving})  # by `place.Hit`: 6 lines × 3 parts × moving


def _where_fields(key: tuple[Any, bool]) -> dict[str, Any]:
    """Where stars fall on a chart (a `stars.place.StarHits`, and whether it is their day), as
    the fields of their entries."""
    where, day_match = key
    return {
        "lines": list(where.lines),
        "hits": [_HIT[h] for h in where.hits],
        "moving": where.moving,
        "active": where.moving or day_match,
        "day_match": day_match,
        "on_use": where.on_use,
    }


# by StarHits (kept by `place._star_hits`, some thousands) and day: the same lists in every entry that falls there
_WHERE_FIELDS = _Memo(_where_fields)
