"""The JSON contract (schema_version 1): explicit `*_to_dict` functions, nothing implicit.

Keys are ASCII snake_case; domain values are canonical simplified Chinese strings (traditional
on request); line positions are integers 1-6, 初爻 = 1; absent is null. Additive fields do not
bump `SCHEMA_VERSION`; renaming or removing one does.

Documents are read-only: the parts that many charts share (a hexagram's head, a relation, a
jie) are built once and the same objects reappear in every document that contains them — that
is most of what lets `yimao batch` stream thousands of charts a second. Traditional characters
are a conversion of the written text (`output.to_script`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from functools import cache
from operator import itemgetter
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

SCHEMA_VERSION = 1


def document(**parts: Any) -> dict[str, Any]:
    """A document of any command: `schema_version`, then its parts in the order given."""
    return {"schema_version": SCHEMA_VERSION, **parts}


def _s(x: object) -> str | None:
    return None if x is None else str(x)


class _Memo(dict):
    """`memo[key]` is `build(key)`, built on the first lookup of each distinct key.

    Only for keys of small finite domains (pillars, relations, lines), so that it stays bounded;
    a lookup goes through the generic subscript slot (a method lookup and call, as callgrind
    shows), where a plain dict's is specialized: the hot path of `yimao batch` uses plain dicts
    (see `_fill`).
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


@cache
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


@cache  # built once per pair of 节 and zone
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


def _relations_entry(key: tuple[Any, Any, Any]) -> tuple[dict[str, Any], list[str]]:
    (month, month_tags), (day, day_tags), (change, change_tags) = _MONTH[key[0]], _DAY[key[1]], _CHANGE[key[2]]
    return {"month": month, "day": day, "change": change}, [*month_tags, *day_tags, *change_tags]


# A line's `relations` and `tags`, by its (month, day, change) relations: a few thousand
# combinations, most of them common to many charts.
_RELATIONS = _Memo(_relations_entry)


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
    out["relations"], out["tags"] = _RELATIONS[month, day, change]
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


def chart_to_dict(chart: Chart, *, findings: Iterable[Any] = (), stars: Any = None, use: Use | None = None) -> dict[str, Any]:
    """The document of `yimao cast --json`: the chart with the rules' findings (`Finding`s), its
    stars (a `stars.place.ChartStars`) and its 用神."""
    cast, pillars, lines, features, school = chart
    line_stars = {} if stars is None else star_ids_by_line(stars)
    pillars, xunkong, yuepo, lunar, jie, near_jie, conventions = _calendar(pillars)
    cast_part, changed_part = _CAST_PARTS[cast]
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
        stars=[] if stars is None else stars_to_list(stars),
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
    return out


def _shiying_hai_details(d: ShiyingHaiDetails) -> dict[str, Any]:
    return {
        "target": d.target,
        "direction": d.direction,
        "weight": d.weight,
        "severity": [*_QUOTES[d.severity]],
        "relations": [*map(_RELATION.__getitem__, d.relations)],
    }


def use_to_dict(use: Use | None) -> dict[str, Any] | None:
    if use is None:
        return None
    return {
        "spec": use.spec,
        "relative": use.relative.value if use.relative else None,
        "positions": list(use.positions),
        "hidden": use.is_hidden,
        "hidden_positions": list(use.hidden_positions),
    }


@cache
def _cast(cast: Cast) -> dict[str, Any]:
    return {"spec": cast.spec(), "coins": cast.coins(), "moving": sorted(cast.moving)}


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
    """What `yimao star` and `yimao stars` say of a star besides its positions."""
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
        "rule": star.rule,
        "notes": list(star.notes),
        "text": [q.to_dict() for q in star.quotes],
    }


def table_to_dict(table: Mapping[str, Any]) -> dict[str, Any]:
    """A star's table (tuples of positions, or tables by a further key) as lists and dicts."""
    return {k: (list(v) if isinstance(v, tuple) else table_to_dict(v)) for k, v in table.items()}


def _positions(positions: Sequence[str] | None) -> list[str] | None:
    return list(positions) if positions is not None else None


def star_list_document(stars: Iterable[Star]) -> dict[str, Any]:
    """`yimao star --list --json`: the catalogue, grouped as the book groups it."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for s in stars:
        groups.setdefault(s.group, []).append(
            {"id": s.id, "name": s.name, "label": s.label, "basis": s.basis, "nature": s.nature, "placed": s.placed}
        )
    return document(groups=[{"group": g, "stars": members} for g, members in groups.items()])


def star_table_document(star: Star) -> dict[str, Any]:
    """`yimao star NAME --json`: a star's whole table, and its variants'."""
    variants = [{"reading": v.reading, "reason": v.reason, "table": table_to_dict(v.table)} for v in star.variants]
    return document(star=star_meta(star), table=table_to_dict(star.table), variants=variants)


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

    orjson writes UTF-8 directly (no ASCII escapes) and is about seven times faster than the
    standard library on a chart document, which is what lets `yimao batch` stream charts fast.
    """
    orjson = _orjson()
    option = orjson.OPT_APPEND_NEWLINE | (0 if compact else orjson.OPT_INDENT_2)
    return orjson.dumps(doc, option=option)


# --- the document as bytes (`yimao batch`) ----------------------------------------------------
#
# `chart_json` writes the document `chart_to_dict` builds, compactly: byte for byte what
# `dumps(chart_to_dict(…), compact=True)` gives (a property test and the batch tests check it),
# but from the encodings of its parts. The parts many charts share are the memos above; each is
# encoded once, keys and punctuation included, so that a document is mostly bytes joined,
# without building its dicts nor walking them again to encode them.


def _json(value: Any) -> bytes:
    return _orjson().dumps(value)


def _fields(d: Mapping[str, Any]) -> bytes:
    """A dict's fields as JSON, without its braces."""
    return _json(d)[1:-1]


# The memos below are plain dicts, filled when a key is first met (`_fill`): a dict subclass
# with __missing__ (`_Memo`) is subscripted through the generic slot (slot_mp_subscript: a
# method lookup and call), a plain dict through the interpreter's specialized subscript, and
# a document makes some sixty lookups.
def _fill(table: dict[Any, Any], build: Any, key: Any) -> Any:
    value = table[key] = build(key)
    return value


_HEAD_KEYS = ("position", "yang", "moving", "value", "stem", "branch", "element", "relative")


def _line_heads(line: Line) -> tuple[tuple[bytes, int], ...]:
    """A line's JSON up to its 六神 (`{"position":…,"relative":…,"spirit":`), with the value
    build_chart gives it: static, and moving (indexed by `moving`)."""
    return tuple((b"{" + _fields({k: t[k] for k in _HEAD_KEYS}) + b',"spirit":', t["value"]) for t in _LINE[line])


# 六神, 世 and 应 together (7 × a few): `"青龙","shi":false,"ying":false,"hidden":`.
def _spirit_shi_ying(k: tuple[Any, Any, Any]) -> bytes:
    return _json(None if k[0] is None else k[0]._value_) + b',"shi":' + _json(k[1]) + b',"ying":' + _json(k[2]) + b',"hidden":'


_LINE_HEAD_J: dict[Line, Any] = {}
_SPIRIT_SHI_YING_J: dict[tuple[Any, Any, Any], bytes] = {}
_HIDDEN_LINE_J = _Memo(lambda hl: b"{" + _fields(_najia(hl.stem, hl.branch, hl.relative)) + b',"fei":')
_FEI_LIFTED_J = _Memo(lambda k: _json(k[0]) + b',"lifted":' + _json(k[1]) + b',"relations":{"month":')
# Each relation encoded with the key that follows it, and its tags as the inside of a JSON
# list: a line's `relations` and `tags` are joined from its three (keyed by the triple, they
# were thousands of entries still growing after thousands of charts, each one built the first
# time it was met). A 伏神's relations are its month's and day's, without the keys after them.
_MONTH_J: dict[Any, tuple[bytes, bytes, bytes]] = {}
_DAY_J: dict[Any, tuple[bytes, bytes]] = {}
_CHANGE_J: dict[Any, tuple[bytes, bytes, bytes]] = {}
# The tags as pieces that need no join: the month's with a comma after them (when it has
# some), the day's, the change's with a comma before them (when it has some) and the key
# after the list; right whenever the day has tags (always, when there is a day).
_month_json = lambda m: (_json(_MONTH[m][0]) + b',"day":', _json(_MONTH[m][1])[1:-1], (_json(_MONTH[m][1])[1:-1] + b",") if _MONTH[m][1] else b"")  # noqa: E731
_day_json = lambda d: (_json(_DAY[d][0]) + b',"change":', _json(_DAY[d][1])[1:-1])  # noqa: E731


def _change_json(c):
    return (
        _json(_CHANGE[c][0]) + b'},"tags":[',
        _json(_CHANGE[c][1])[1:-1],  # noqa: E731
        (b"," + _json(_CHANGE[c][1])[1:-1] if _CHANGE[c][1] else b"") + b'],"stars":',
    )


_SPIRIT_ONLY_J: dict[Any, bytes] = {}  # 六神 of a line neither 世 nor 应 (four in six)
_HIDDEN_MONTH_J = _Memo(lambda m: _json(_MONTH[m][0]) + b',"day":')
_HIDDEN_DAY_J = _Memo(lambda d: _json(_DAY[d][0]) + b"}}")
_CHANGED_J = _Memo(lambda c: b',"changed":' + _json(_CHANGED[c]) + b',"relations":{"month":')
_NO_HIDDEN_NOR_CHANGED = b'null,"changed":null,"relations":{"month":'


def _line_pieces(cl: ChartLine, stars: bytes, close: bytes) -> tuple[bytes, ...] | None:
    """`line_to_dict(cl, …)` encoded, in pieces, the last one `close` (the line's brace and
    whatever follows it); None for a line built by hand, unlike any of build_chart's."""
    line, moving, value, spirit, shi, ying, hidden, changed, month, day, change = cl
    if moving is not True and moving is not False:
        return None
    try:
        head, expected = _LINE_HEAD_J[line][moving]
    except KeyError:
        head, expected = _fill(_LINE_HEAD_J, _line_heads, line)[moving]
    if value != expected:
        return None
    try:
        month_json, month_tags, month_tags_c = _MONTH_J[month]
    except KeyError:
        month_json, month_tags, month_tags_c = _fill(_MONTH_J, _month_json, month)
    try:
        day_json, day_tags = _DAY_J[day]
    except KeyError:
        day_json, day_tags = _fill(_DAY_J, _day_json, day)
    try:
        change_json, change_tags, c_change_tags = _CHANGE_J[change]
    except KeyError:
        change_json, change_tags, c_change_tags = _fill(_CHANGE_J, _change_json, change)
    if shi is False and ying is False:
        try:
            spirit_json = _SPIRIT_ONLY_J[spirit]
        except KeyError:
            spirit_json = _SPIRIT_ONLY_J[spirit] = _spirit_shi_ying((spirit, False, False))
    else:
        try:
            spirit_json = _SPIRIT_SHI_YING_J[spirit, shi, ying]
        except KeyError:
            spirit_json = _fill(_SPIRIT_SHI_YING_J, _spirit_shi_ying, (spirit, shi, ying))
    if not day_tags:  # no day: the tags of those that have some, the plain way
        day_tags = b",".join(filter(None, (month_tags, change_tags)))
        month_tags_c = b""
        c_change_tags = b'],"stars":'
    if hidden is None and changed is None:
        return (head, spirit_json, _NO_HIDDEN_NOR_CHANGED, month_json, day_json, change_json, month_tags_c, day_tags, c_change_tags, stars, close)
    if hidden is None:
        hidden_json = b"null"
    else:
        hl, fei, h_month, h_day, lifted = hidden
        hidden_json = b"".join((_HIDDEN_LINE_J[hl], _FEI_LIFTED_J[fei, lifted], _HIDDEN_MONTH_J[h_month], _HIDDEN_DAY_J[h_day]))
    return (
        head,
        spirit_json,
        hidden_json,
        _CHANGED_J[changed],
        month_json,
        day_json,
        change_json,
        month_tags_c,
        day_tags,
        c_change_tags,
        stars,
        close,
    )


# A document's start (its `cast`), and its `changed_hexagram` with the key after it, by cast;
# the `earth_school` and `hexagram` head up to `features`, by school and hexagram.
@cache
def _head_json(h: Hexagram) -> bytes:
    """`_hexagram_head(h)` encoded, without its closing brace."""
    return _json(_hexagram_head(h))[:-1]


def _cast_json(cast: Cast) -> tuple[bytes, bytes]:
    """A document's start up to its calendar (its `cast`), and its `changed_hexagram` with the
    key after it: `_cast` encoded, and the 之卦's head and lines from their encodings (a batch
    meets a cast for the first time on a third of its lines)."""
    start = _START + _json(_cast(cast)) + b","
    h, moving, ch = cast.hexagram, cast.moving, cast.changed
    if ch is None:
        return start, b'},"changed_hexagram":null,"use":'
    head, lines = _changed_json(ch, h.palace)
    return start, head + b",".join([moves if p in moving else static for p, static, moves in lines]) + b']},"use":'


_START = b'{"schema_version":%d,"cast":' % SCHEMA_VERSION


@cache  # 64 之卦 × 8 palaces
def _changed_json(ch: Hexagram, palace: Any) -> tuple[bytes, tuple[tuple[int, bytes, bytes], ...]]:
    """A 之卦's `changed_hexagram` up to its lines, and each line encoded static and moving, with
    its position; its 六亲 counted against the palace."""
    head = b'},"changed_hexagram":' + _head_json(ch) + b',"relatives_against":' + _json(palace.value) + b',"lines":['
    lines = _changed_lines(ch, palace.element)
    return head, tuple((static["position"], _json(static), _json(moves)) for static, moves in lines)


def _hexagram_json(k: tuple[Any, Hexagram]) -> bytes:
    return b',"earth_school":' + _json(k[0]._value_) + b',"hexagram":' + _head_json(k[1]) + b',"features":'


_CAST_J: dict[Cast, tuple[bytes, bytes]] = {}
_HEXAGRAM_J: dict[tuple[Any, Hexagram], bytes] = {}
_FEATURES_J: dict[tuple[str, ...], bytes] = {}  # by a cast's features (a few dozen)
_features_json = lambda features: _json(features) + b',"lines":['  # noqa: E731
_NO_STARS = b"[]"


# A document's calendar, encoded from pieces keyed by what each depends on, each a small
# domain: each pillar (60 干支 or 12 branches), the lunar year, month and day, the pair of 节
# in its zone (a dozen a year), the zone and conventions; only the moment's texts are written
# per chart. `_calendar`'s dicts (what `chart_to_dict` puts in a document) are not built.
def _year_json(y: Any) -> bytes:
    return b'"pillars":{"year":' + _json(_PILLAR[y]) + b',"month":'


def _month_pillar_json(m: Any) -> tuple[bytes, bytes]:
    text, yuepo = _MONTH_PILLAR[m]
    return _json(text) + b',"day":', _json(yuepo) + b',"lunar":'


def _day_pillar_json(d: Any) -> tuple[bytes, bytes]:
    text, xunkong = _DAY_PILLAR[d]
    return _json(text) + b',"hour":', _json(xunkong) + b',"yuepo":'


_hour_json = lambda h: _json(_PILLAR[h]) + b'},"xunkong":'  # noqa: E731
_YEAR_J: dict[Any, bytes] = {}
_MONTH_PILLAR_J: dict[Any, tuple[bytes, bytes]] = {}
_DAY_PILLAR_J: dict[Any, tuple[bytes, bytes]] = {}
_HOUR_J: dict[Any, bytes] = {}
_NO_CONTEXT = b'null,"jie":null,"near_jie":null,"conventions":null'


# A lunar date `{"year":…,"year_ganzhi":…,"month":…,"leap":…,"day":…,"text":…}` in three
# parts, each with its share of the text: by lunar year, by month (and leap), by day.
_lunar_year_json = lambda k: (b'{"year":%d,"year_ganzhi":' % k[0] + _json(k[1]) + b',"month":', f"{k[1]}年".encode())  # noqa: E731
_lunar_month_json = lambda k: (b'%d,"leap":' % k[0] + _json(k[1]) + b',"day":', k[2].encode())  # noqa: E731
_lunar_day_json = lambda k: (b'%d,"text":"' % k[0], k[1].encode() + b'"},"jie":')  # noqa: E731
_LUNAR_YEAR_J: dict[tuple[int, str], tuple[bytes, bytes]] = {}
_LUNAR_MONTH_J: dict[tuple[int, bool, str], tuple[bytes, bytes]] = {}
_LUNAR_DAY_J: dict[tuple[int, str], tuple[bytes, bytes]] = {}


def _jie_json(key: tuple[Jie, tzinfo | None]) -> bytes:
    """`_jie_in(j, zone)` encoded, written directly (built once per 节 and zone, some two
    thousand in a run over a century: not through a dict and orjson). Its strings are a 节's
    name, a branch and moments' texts, with nothing to escape."""
    j, zone = key
    instant = j.instant
    local, utc = _moment_texts(instant.astimezone(zone))
    if instant.tzinfo is not UTC:
        utc = instant.strftime("%Y-%m-%dT%H:%M:%SZ")
    return f'{{"name":"{j.name}","month":"{j.month._value_}","utc":"{utc}","local":"{local}"}}'.encode()


_JIE_J: dict[tuple[Jie, tzinfo | None], bytes] = {}


def _jies_json(key: tuple[Jie, Jie, tzinfo | None]) -> tuple[bytes, bytes, int, int]:
    """A pair of 节 in a zone, encoded with the key after it: followed by no `near_jie`, and
    followed by one; and the ordinals of their instants (see `DateContext.near_jie`)."""
    current, following, zone = key
    a = _JIE_J.get((current, zone)) or _fill(_JIE_J, _jie_json, (current, zone))
    b = _JIE_J.get((following, zone)) or _fill(_JIE_J, _jie_json, (following, zone))
    pair = b'{"current":' + a + b',"next":' + b + b'},"near_jie":'
    return pair + b'null,"conventions":{"moment":"', pair, current.instant.toordinal(), following.instant.toordinal()


_JIES_J: dict[tuple[Jie, Jie, tzinfo | None], tuple[bytes, bytes, int, int]] = {}


def _conventions_json(k: tuple[str, str, int]) -> bytes:
    return b'",' + _fields(_conventions_rest(*k)) + b"}"


_CONVENTIONS_J: dict[tuple[str, str, int], bytes] = {}


def _calendar_pieces(p: FourPillars, parts: list[bytes]) -> None:
    """`_fields(calendar_to_dict(p))`, in pieces appended to `parts`."""
    year, month, day, hour, ctx = p
    try:
        y = _YEAR_J[year]
        m, yuepo = _MONTH_PILLAR_J[month]
        d, xunkong = _DAY_PILLAR_J[day]
        h = _HOUR_J[hour]
    except KeyError:
        y = _YEAR_J.get(year) or _fill(_YEAR_J, _year_json, year)
        m, yuepo = _MONTH_PILLAR_J.get(month) or _fill(_MONTH_PILLAR_J, _month_pillar_json, month)
        d, xunkong = _DAY_PILLAR_J.get(day) or _fill(_DAY_PILLAR_J, _day_pillar_json, day)
        h = _HOUR_J.get(hour) or _fill(_HOUR_J, _hour_json, hour)
    if ctx is None:
        parts += (y, m, d, h, xunkong, yuepo, _NO_CONTEXT)
        return
    moment, day_start, tz_name, tz_source, jie, next_jie, _ = ctx  # the notes are for stderr
    key = jie, next_jie, moment.tzinfo
    no_near, then_near, o1, o2 = _JIES_J.get(key) or _fill(_JIES_J, _jies_json, key)
    o = moment.toordinal()
    # near_jie as DateContext.near_jie finds it, whose first test is this one (3 days apart)
    if -3 <= o - o1 <= 3 or -3 <= o - o2 <= 3:
        near = ctx.near_jie
        jies = no_near if near is None else then_near + _json({"name": near[0].name, "seconds": round(near[1], 1)}) + b',"conventions":{"moment":"'
    else:
        jies = no_near
    local, utc = _moment_texts(moment)
    zone = tz_name, tz_source, day_start
    conventions = _CONVENTIONS_J.get(zone) or _fill(_CONVENTIONS_J, _conventions_json, zone)
    lunar = ctx.lunar
    if lunar is None:
        parts += (y, m, d, h, xunkong, yuepo, b'null,"jie":', jies, f'{local}","utc":"{utc}'.encode(), conventions)
        return
    ly, year_ganzhi, lm, leap, ld, month_name, day_name = lunar
    try:
        a, text_a = _LUNAR_YEAR_J[ly, year_ganzhi]
        b, text_b = _LUNAR_MONTH_J[lm, leap, month_name]
        c, text_c = _LUNAR_DAY_J[ld, day_name]
    except KeyError:
        a, text_a = _LUNAR_YEAR_J.get((ly, year_ganzhi)) or _fill(_LUNAR_YEAR_J, _lunar_year_json, (ly, year_ganzhi))
        b, text_b = _LUNAR_MONTH_J.get((lm, leap, month_name)) or _fill(_LUNAR_MONTH_J, _lunar_month_json, (lm, leap, month_name))
        c, text_c = _LUNAR_DAY_J.get((ld, day_name)) or _fill(_LUNAR_DAY_J, _lunar_day_json, (ld, day_name))
    parts += (y, m, d, h, xunkong, yuepo, a, b, c, text_a, text_b, text_c, jies, f'{local}","utc":"{utc}'.encode(), conventions)


# A finding encoded from the encodings of its parts: its head (rule, holds, kind, element,
# relative), its lines, each member, and its sentences are built once each (bounded domains:
# 12 branches × 6 sources × 7 positions × the rules' few roles, and the rules' few dozen tuples
# of sentences); only its reasons and details are encoded per chart. A finding is read by its
# fields' names (analysis.finding.Finding).
def _finding_head(k: tuple[Any, ...]) -> tuple[bytes, bytes]:
    rule, holds, kind, e, r = k
    head = {"rule": rule, "holds": holds, "kind": kind, "element": None if e is None else e._value_, "relative": None if r is None else r._value_}
    first = b"{" + _fields(head) + b',"lines":'
    return first, b"," + first  # first in the list, and after another


def _member_json(m: Any) -> bytes:
    return _json(_member_dict(m))


def _text_json(text: tuple[Any, ...]) -> bytes:
    return b',"text":' + _json([q.to_dict() for q in text]) + b',"details":'


_FINDING_HEAD_J: dict[tuple[Any, ...], tuple[bytes, bytes]] = {}
_FINDING_LINES_J: dict[tuple[int, ...], bytes] = {}
_finding_lines_json = lambda lines: _json(lines) + b',"members":['  # noqa: E731  (by a tuple of positions)
_MEMBER_J = _Memo(_member_json)
_TEXT_J: dict[tuple[Any, ...], bytes] = {}


def _findings_pieces(findings: Iterable[Any], parts: list[bytes]) -> None:
    """`[finding_to_dict(f) for f in findings]` encoded, without its brackets, each piece appended to `parts`."""
    dumps = _orjson().dumps  # once a chart, not through _json twice a finding

    member = _MEMBER_J.__getitem__
    i = 0
    for f in findings:
        key, lines, text = (f.rule, f.holds, f.kind, f.element, f.relative), f.lines, f.text
        try:
            head = _FINDING_HEAD_J[key][i]
            lines_json = _FINDING_LINES_J[lines]
            text_json = _TEXT_J[text]
        except KeyError:
            head = (_FINDING_HEAD_J.get(key) or _fill(_FINDING_HEAD_J, _finding_head, key))[i]
            lines_json = _FINDING_LINES_J.get(lines) or _fill(_FINDING_LINES_J, _finding_lines_json, lines)
            text_json = _TEXT_J.get(text) or _fill(_TEXT_J, _text_json, text)
        details = dumps(details_to_dict(f.details))
        parts += (head, lines_json, b",".join(map(member, f.members)), b'],"reasons":', dumps(f.reasons), text_json, details, b"}")
        i = 1


def _use_json(use: Use | None) -> bytes:
    """`use_to_dict(use)` encoded, by `Use`: a few per hexagram."""
    if use is None:
        return b"null"
    encoded = _USE_J.get(use)
    if encoded is None:
        encoded = _USE_J[use] = _json(use_to_dict(use))
    return encoded


_USE_J: dict[Use, bytes] = {}


def chart_json(chart: Chart, *, findings: Sequence[Any], stars: Any, use: Use | None = None) -> bytes:
    """`dumps(chart_to_dict(chart, …), compact=True)`, from encoded parts: `findings` are the
    `Finding`s (encoded from their parts' encodings), `stars` a `stars.place.ChartStars`, `use`
    the 用神."""
    cast, pillars, lines, features, school = chart
    stars_json, line_stars = _stars_pieces(stars)
    try:
        start, changed = _CAST_J[cast]
        hexagram = _HEXAGRAM_J[school, cast[0]]
        features_json = _FEATURES_J[features]
    except KeyError:
        start, changed = _CAST_J.get(cast) or _fill(_CAST_J, _cast_json, cast)
        hexagram = _HEXAGRAM_J.get((school, cast[0])) or _fill(_HEXAGRAM_J, _hexagram_json, (school, cast[0]))
        features_json = _FEATURES_J.get(features) or _fill(_FEATURES_J, _features_json, features)
    parts = [start]
    _calendar_pieces(pillars, parts)
    parts.append(hexagram)
    parts.append(features_json)
    get = line_stars.get
    for cl in lines:
        pieces = _line_pieces(cl, get(cl[0][0], _NO_STARS), b"},")
        if pieces is None:  # a line built by hand: the plain way
            pieces = (_json(line_to_dict(cl, star_ids_by_line(stars).get(cl[0][0], ()))), b",")
        parts += pieces
    if lines:
        parts[-1] = parts[-1][:-1] + b"]"  # the last line's comma
    else:
        parts.append(b"]")
    parts.append(changed)
    parts.append(_use_json(use))
    parts.append(b',"findings":[')
    _findings_pieces(findings, parts)
    parts.append(b'],"stars":')
    parts += stars_json
    parts.append(b"}\n")
    return b"".join(parts)


# --- stars --------------------------------------------------------------------------------------
#
# A document's `stars` are the stars standing on its chart (a `stars.place.ChartStars`): each
# star's entry is what the catalogue says of it and its positions for the chart's pillars
# (`_star_entry`, once per star and basis key), with where it falls on the chart
# (`_where_fields`, once per set of the chart's parts), in the catalogue's order.


def stars_to_list(stars: Any) -> list[dict[str, Any]]:
    """The document's `stars`, as dicts."""
    entries = []
    conditions = stars.conditions()
    for where, day_match, members in stars.groups:
        fields = _where_fields(where, day_match)
        for star in members:
            entry = _star_entry(star) | fields
            if star.index in conditions:
                entry["conditions"] = conditions_to_list(conditions[star.index])
            entries.append((star.index, entry))
    entries.sort(key=_first)
    return [entry for _, entry in entries]


def _first(pair: tuple[int, Any]) -> int:
    return pair[0]


def star_ids_by_line(stars: Any) -> dict[int, list[str]]:
    """Each line's stars (on its 本爻, 变爻 or 伏神), by id in the catalogue's order."""
    per: dict[int, list[tuple[int, str]]] = {}
    for where, _, members in stars.groups:
        for pos in where.lines:
            per.setdefault(pos, []).extend((s.index, s.star.id) for s in members)
    return {pos: [sid for _, sid in sorted(got)] for pos, got in per.items()}


def _star_entry(star: Any) -> dict[str, Any]:
    """A star's entry for the chart's pillars, the fields of where it falls left None."""
    s = star.star
    q = s.quote
    return {
        "id": s.id,
        "name": s.name,
        "label": s.label,
        "aliases": list(s.aliases),
        "basis": s.basis,
        "weight": s.weight,  # heavy: a month or day star; light: a year or hour star (唯日月之用尊焉)
        "nature": s.nature,
        "topics": list(s.topics),
        # the defining sentence; its modern rendering is in `yimao text <passage>`
        "text": None if q is None else {"passage": q.passage, "original": q.original},
        "positions": list(star.positions),
        **dict.fromkeys(_WHERE_KEYS),
        "conditions": [],  # judged on the chart (`conditions_to_list`)
        "variants": [{"reading": reading, "positions": None if p is None else list(p)} for reading, p in star.variants],
    }


_WHERE_KEYS = ("lines", "hits", "moving", "active", "day_match", "on_use")


def conditions_to_list(results: Any) -> list[dict[str, Any]]:
    """A star's conditions judged on a chart (`stars.conditions.ConditionResult`s): each with its
    sentence, whether its reading holds and on which lines, and each other reading's answer."""
    return [
        {
            "holds": c.result.holds,
            "lines": list(c.result.lines),
            **_reading_fields(c.result.reading),
            "effect": c.condition.effect,
            "text": {"passage": c.condition.quote.passage, "original": c.condition.quote.original},
            "variants": [{**_reading_fields(v.reading), "holds": v.holds, "lines": list(v.lines)} for v in c.variants],
        }
        for c in results
    ]


def _reading_fields(r: Any) -> dict[str, Any]:
    return {"reading": r.on, "relative": r.relative, "moving": r.moving, "topics": list(r.topics)}


def _where_fields(where: Any, day_match: bool) -> dict[str, Any]:
    """Where stars fall on a chart (a `stars.place.StarHits`), as the fields of their entries."""
    return {
        "lines": list(where.lines),
        "hits": [{"position": h.position, "part": h.part, "moving": h.moving} for h in where.hits],
        "moving": where.moving,
        "active": where.moving or day_match,
        "day_match": day_match,
        "on_use": where.on_use,
    }


def _stars_pieces(stars: Any) -> tuple[list[bytes], dict[int, bytes]]:
    """The document's `stars` encoded, as pieces to join, and each line's star ids encoded
    (`stars_to_list` and `star_ids_by_line`, for `chart_json`). An entry is its star's encoding
    before and after where it falls (once per star and basis key), joined by the fields of
    where it falls (once per `StarHits`): one `bytes.join` an entry."""
    quoted, alone = _quoted_ids()
    slots: list[bytes | None] = [None] * len(quoted)
    per: list[list[int]] = [[], [], [], [], [], [], []]  # star indices by line position 1-6
    conditions = stars.conditions(of_the_chart=True)  # the others are in the members' encoding
    topic = stars.topic
    for where, day_match, members in stars.groups:
        join = ((_WHERE_DAY_J if day_match else _WHERE_J).get(where) or _where_json(where, day_match)).join
        entries, indices = _MEMBERS_J.get((members, topic)) or _fill(_MEMBERS_J, _members_json, (members, topic))
        for i, ends in entries:
            if i in conditions:  # judged on this chart: its conditions before the encoded variants
                answer = conditions[i]
                ends = (ends[0], (_CONDITIONS_J.get(id(answer)) or _conditions_json(answer)) + ends[1])
            slots[i] = join(ends)
        for pos in where.lines:
            per[pos] += indices
    lines = {}
    for pos, got in enumerate(per):
        if len(got) > 1:  # the ids' JSON strings picked in one C call (itemgetter), then joined
            got.sort()
            lines[pos] = b"[" + b",".join(itemgetter(*got)(quoted)) + b"]"
        elif got:
            lines[pos] = alone[got[0]]
    return [b"[", b",".join(filter(None, slots)), b"]"], lines


def _members_json(key: tuple[tuple[Any, ...], str | None]) -> tuple[tuple[tuple[int, tuple[bytes, bytes]], ...], tuple[int, ...]]:
    """Each star's index and its entry encoded up to where it falls and from its `conditions`
    (from its `variants` for a star whose conditions read the chart: judged on each chart); and
    the stars' indices. By a group's stars and the question's topic."""
    from yimao.stars.conditions import judged, reads_chart

    members, topic = key
    entries = []
    for star in members:
        entry = _star_entry(star)
        head = _json({k: v for k, v in entry.items() if k not in _WHERE_KEYS and k not in ("conditions", "variants")})[:-1] + b","
        conditions = star.star.conditions
        if not conditions:
            encoded = _NO_CONDITIONS
        elif reads_chart(conditions):
            encoded = b""
        else:  # by the topic alone
            encoded = _conditions_json(judged(conditions, None, None, (), topic))
        entries.append((star.index, (head, encoded + b'"variants":' + _json(entry["variants"]) + b"}")))
    return tuple(entries), tuple(star.index for star in members)


def _where_json(where: Any, day_match: bool) -> bytes:
    """The fields of where stars fall encoded, with the comma after them."""
    encoded = _fields(_where_fields(where, day_match)) + b","
    table = _WHERE_DAY_J if day_match else _WHERE_J
    if len(table) < _WHERE_J_MAX:  # bounded as the sets of hits are (`stars.place._star_hits`)
        table[where] = encoded
    return encoded


_NO_CONDITIONS = b'"conditions":[],'
# A star's conditions encoded with their key and the comma after, by the id of their judgement:
# `stars.conditions.judged` interns its answers for the program's life, so an id is never reused.
_CONDITIONS_J: dict[int, bytes] = {}


def _conditions_json(answer: Any) -> bytes:
    encoded = _CONDITIONS_J[id(answer)] = b'"conditions":' + _json(conditions_to_list(answer)) + b","
    return encoded


_MEMBERS_J: dict[tuple[Any, ...], tuple[tuple[tuple[int, tuple[bytes, bytes]], ...], tuple[int, ...]]] = {}  # by a group's stars, topic
_WHERE_J: dict[Any, bytes] = {}  # by where stars fall (`stars.place.StarHits`), off their day
_WHERE_DAY_J: dict[Any, bytes] = {}  # and on it (干支 stars on their day)
_WHERE_J_MAX = 1 << 15


@cache
def _quoted_ids() -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """Each star's id as a JSON string, and as a JSON array of it alone, by its index on a chart."""
    from yimao.stars.place import chart_order

    quoted = tuple(_json(s.id) for s in chart_order())
    return quoted, tuple(b"[" + q + b"]" for q in quoted)
