"""The JSON contract (schema_version 1): explicit `*_to_dict` functions, nothing implicit.

Keys are ASCII snake_case; domain values are canonical simplified Chinese strings (traditional
on request); line positions are integers 1-6, 初爻 = 1; absent is null. Additive fields do not
bump `SCHEMA_VERSION`; renaming or removing one does.

Documents are read-only: the parts that many charts share (a hexagram's head, a relation, a
jie) are built once and the same objects reappear in every document that contains them — that
is most of what lets `yimao batch` stream thousands of charts a second. `traditional()` copies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import timezone, tzinfo
from functools import cache
from typing import Any

from yimao.chart import ChangedLine, ChangeRelation, Chart, ChartLine, DayRelation, Hidden, MonthRelation
from yimao.ganzhi import Branch, Stem
from yimao.hexagram import Cast, Hexagram, Relative
from yimao.pillars import DateContext, FourPillars
from yimao.script import to_traditional
from yimao.solar_terms import Jie

SCHEMA_VERSION = 1


def _s(x: object) -> str | None:
    return None if x is None else str(x)


def pillars_to_dict(p: FourPillars) -> dict[str, Any]:
    return {name: _s(value) for name, value in p.items()}


def calendar_to_dict(p: FourPillars) -> dict[str, Any]:
    """`pillars`, `xunkong`, `yuepo`, and — when cast from a moment — `lunar`, `jie`, `near_jie`, `conventions`."""
    xk = p.xunkong
    out: dict[str, Any] = {
        "pillars": pillars_to_dict(p),
        "xunkong": [b.value for b in xk] if xk else None,
        "yuepo": _s(p.yuepo),
    }
    ctx = p.context
    out.update(context_to_dict(ctx))
    return out


def _jie(j: Jie, zone: tzinfo | None) -> dict[str, Any]:
    try:
        return _jie_in(j, zone)  # built once per 节 and zone
    except TypeError:  # an unhashable zone (dateutil's tzlocal): build it afresh
        return _jie_in.__wrapped__(j, zone)


@cache
def _jie_in(j: Jie, zone: tzinfo | None) -> dict[str, Any]:
    return {
        "name": j.name,
        "month": j.month.value,
        "utc": j.instant.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "local": j.instant.astimezone(zone).isoformat(timespec="seconds"),
    }


def context_to_dict(ctx: DateContext | None) -> dict[str, Any]:
    if ctx is None:
        return {"lunar": None, "jie": None, "near_jie": None, "conventions": None}
    near = ctx.near_jie
    lunar = ctx.lunar
    return {
        "lunar": None
        if lunar is None
        else {
            "year": lunar.year,
            "year_ganzhi": lunar.year_ganzhi,
            "month": lunar.month,
            "leap": lunar.leap,
            "day": lunar.day,
            "text": str(lunar),
        },
        "jie": {"current": _jie(ctx.jie, ctx.moment.tzinfo), "next": _jie(ctx.next_jie, ctx.moment.tzinfo)},
        "near_jie": None if near is None else {"name": near[0].name, "seconds": round(near[1], 1)},
        "conventions": {
            "moment": ctx.moment.isoformat(timespec="seconds"),
            "utc": ctx.moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "timezone": ctx.tz_name,
            "timezone_source": ctx.tz_source,
            "day_start": ctx.day_start,
            "zi_hour": "子初换日 (23:00 starts the day)" if ctx.day_start == 23 else "晚子时 (the day changes at 00:00)",
            "months": "月建 by the 12 节, exact instants",
        },
    }


@cache
def _month(m: MonthRelation | None) -> dict[str, Any] | None:
    if m is None:
        return None
    return {"vigour": m.vigour.value, "po": m.po, "he": m.he, "effect": m.effect}


@cache
def _day(d: DayRelation | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {
        "stage": d.stage.value,
        "kong": d.kong,
        "effect": d.effect,
        "he": d.he,
        "chong": d.chong,
        "andong": d.andong,
        "ripo": d.ripo,
    }


@cache
def _change(c: ChangeRelation | None) -> dict[str, Any] | None:
    if c is None:
        return None
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
    }


@cache
def _hidden(h: Hidden | None) -> dict[str, Any] | None:
    if h is None:
        return None
    hl = h.line
    return {
        "stem": hl.stem.value,
        "branch": hl.branch.value,
        "element": hl.element.value,
        "relative": hl.relative.value,
        "fei": h.fei,
        "lifted": h.lifted,
        "relations": {"month": _month(h.month), "day": _day(h.day)},
    }


def line_to_dict(cl: ChartLine, stars: Iterable[str] = ()) -> dict[str, Any]:
    line = cl.line
    return {
        "position": line.position,
        "yang": line.yang,
        "moving": cl.moving,
        "value": cl.value,
        **_najia(line.stem, line.branch, line.relative),
        "spirit": _s(cl.spirit),
        "shi": cl.shi,
        "ying": cl.ying,
        "hidden": _hidden(cl.hidden),
        "changed": _changed_line(cl.changed),
        "relations": _relations(cl.month, cl.day, cl.change),
        "tags": _tags(cl),
        "stars": list(stars),
    }


@cache
def _najia(stem: Stem, branch: Branch, relative: Relative) -> dict[str, str]:
    return {"stem": stem.value, "branch": branch.value, "element": branch.element.value, "relative": relative.value}


@cache
def _changed_line(ch: ChangedLine | None) -> dict[str, Any] | None:
    if ch is None:
        return None
    return {"yang": ch.yang, **_najia(ch.stem, ch.branch, ch.relative)}


@cache
def _relations(m: MonthRelation | None, d: DayRelation | None, c: ChangeRelation | None) -> dict[str, Any]:
    return {"month": _month(m), "day": _day(d), "change": _change(c)}


_TAGS: dict[tuple[Any, ...], list[str]] = {}


def _tags(cl: ChartLine) -> list[str]:
    """The line's tags, built once per combination of relations."""
    key = (cl.month, cl.day, cl.change, cl.moving)
    tags = _TAGS.get(key)
    if tags is None:
        tags = _TAGS[key] = list(cl.tags())
    return tags


@cache
def hexagram_to_dict(h: Hexagram) -> dict[str, Any]:
    """A hexagram on its own (no date): its place, 世应, 卦身 and bare 纳甲 lines with 伏神."""
    hidden = {hl.position: hl for hl in h.hidden}
    return {
        **_hexagram_head(h),
        "lines": [
            {
                "position": line.position,
                "yang": line.yang,
                "stem": line.stem.value,
                "branch": line.branch.value,
                "element": line.element.value,
                "relative": line.relative.value,
                "shi": line.position == h.shi,
                "ying": line.position == h.ying,
                "hidden": None
                if line.position not in hidden
                else {
                    "stem": hidden[line.position].stem.value,
                    "branch": hidden[line.position].branch.value,
                    "element": hidden[line.position].element.value,
                    "relative": hidden[line.position].relative.value,
                },
            }
            for line in h.lines
        ],
    }


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
    palace = cast.hexagram.palace_element
    return {
        **_hexagram_head(ch),
        "relatives_against": cast.hexagram.palace.value,
        "lines": [
            {
                "position": line.position,
                "yang": line.yang,
                "moving": line.position in cast.moving,
                "stem": line.stem.value,
                "branch": line.branch.value,
                "element": line.element.value,
                "relative": Relative.of(line.element, palace).value,
            }
            for line in ch.lines
        ],
    }


def chart_to_dict(
    chart: Chart,
    *,
    findings: list[Mapping[str, Any]] | None = None,
    stars: Any = None,
    line_stars: Mapping[int, Iterable[str]] | None = None,
    use: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The document of `yimao cast --json`; `stars` is a list of dicts, or that list already
    encoded (see `pipeline.document`)."""
    line_stars = line_stars or {}
    cal = calendar_to_dict(chart.pillars)
    doc: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "cast": _cast(chart.cast)}
    doc.update(cal)
    doc["earth_school"] = chart.school.value
    doc["hexagram"] = {
        **_hexagram_head(chart.hexagram),
        "features": list(chart.features),
        "lines": [line_to_dict(cl, line_stars.get(cl.position, ())) for cl in chart.lines],
    }
    doc["changed_hexagram"] = changed_to_dict(chart)
    doc["use"] = dict(use) if use is not None else None
    doc["findings"] = findings if findings is not None else []
    doc["stars"] = stars if stars is not None else []
    return doc


@cache
def _cast(cast: Cast) -> dict[str, Any]:
    return {"spec": cast.spec(), "coins": cast.coins(), "moving": sorted(cast.moving)}


def traditional(doc: Any) -> Any:
    """The same document with every string value in traditional characters (keys unchanged)."""
    if isinstance(doc, str):
        return to_traditional(doc)
    if isinstance(doc, list):
        return [traditional(x) for x in doc]
    if isinstance(doc, dict):
        return {k: traditional(v) for k, v in doc.items()}
    return doc


def dumps(doc: Mapping[str, Any], *, compact: bool = False) -> bytes:
    """UTF-8 JSON bytes with a final newline (indent 2, or one line when compact).

    orjson writes UTF-8 directly (no ASCII escapes) and is about seven times faster than the
    standard library on a chart document, which is what lets `yimao batch` stream charts fast.
    """
    import orjson

    option = orjson.OPT_APPEND_NEWLINE | (0 if compact else orjson.OPT_INDENT_2)
    return orjson.dumps(doc, option=option)

