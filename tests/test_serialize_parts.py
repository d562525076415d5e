"""The documents serialize.py assembles from shared parts (memos, line templates, the moment's
texts written from its fields) against the same documents written out directly, one field
at a time, as the JSON contract (docs/design.md §4) states them."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import orjson
import pytest

from yimao.chart import build_chart
from yimao.ganzhi import BRANCHES, CYCLE, EarthSchool
from yimao.hexagram import HEXAGRAMS, Cast, Relative, all_casts
from yimao.pillars import NEAR_JIE_SECONDS, FourPillars, lunar_date, pillars_at
from yimao.serialize import (
    SCHEMA_VERSION,
    _moment_texts,
    calendar_to_dict,
    changed_to_dict,
    chart_to_dict,
    context_to_dict,
    line_to_dict,
    pillars_to_dict,
)
from yimao.stars.catalogue import catalogue

ZONES = (
    UTC,
    timezone(timedelta(hours=8)),
    timezone(timedelta(hours=-5)),
    timezone(timedelta(hours=5, minutes=45)),
    timezone(timedelta(hours=-9, minutes=-30)),
    timezone(timedelta(hours=14)),
    timezone(timedelta(hours=-12)),
    timezone(timedelta(hours=23, minutes=59)),
    timezone(timedelta(hours=-23, minutes=-59, seconds=-1)),
    timezone(timedelta(seconds=1, microseconds=5)),
    ZoneInfo("Asia/Shanghai"),  # before 1901 its offset is +08:05:43 (local mean time)
    ZoneInfo("America/New_York"),
    ZoneInfo("Europe/London"),
    ZoneInfo("Australia/Lord_Howe"),
    ZoneInfo("Asia/Kolkata"),
)


def _s(x):
    return None if x is None else str(x)


def ref_head(h):
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


def ref_near_jie(ctx):
    for j in (ctx.jie, ctx.next_jie):
        delta = (ctx.moment - j.instant).total_seconds()
        if abs(delta) < NEAR_JIE_SECONDS:
            return j, delta
    return None


def ref_jie(j, zone):
    return {
        "name": j.name,
        "month": j.month.value,
        "utc": j.instant.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "local": j.instant.astimezone(zone).isoformat(timespec="seconds"),
    }


def ref_context(ctx):
    if ctx is None:
        return {"lunar": None, "jie": None, "near_jie": None, "conventions": None}
    near = ref_near_jie(ctx)
    lunar = lunar_date(ctx.moment.date())
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
        "jie": {"current": ref_jie(ctx.jie, ctx.moment.tzinfo), "next": ref_jie(ctx.next_jie, ctx.moment.tzinfo)},
        "near_jie": None if near is None else {"name": near[0].name, "seconds": round(near[1], 1)},
        "conventions": {
            "moment": ctx.moment.isoformat(timespec="seconds"),
            "utc": ctx.moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "timezone": ctx.tz_name,
            "timezone_source": ctx.tz_source,
            "day_start": ctx.day_start,
            "zi_hour": "子初换日 (23:00 starts the day)" if ctx.day_start == 23 else "晚子时 (the day changes at 00:00)",
            "months": "月建 by the 12 节, exact instants",
        },
    }


def ref_calendar(p):
    xk = p.xunkong
    return {
        "pillars": {name: _s(value) for name, value in p.items()},
        "xunkong": [b.value for b in xk] if xk else None,
        "yuepo": _s(p.yuepo),
        **ref_context(p.context),
    }


def ref_relation(r, *fields):
    return None if r is None else {f: getattr(r, f).value if f in ("vigour", "stage") else getattr(r, f) for f in fields}


def ref_line(cl, stars=()):
    line = cl.line
    najia = {"stem": line.stem.value, "branch": line.branch.value, "element": line.element.value, "relative": line.relative.value}
    h, ch = cl.hidden, cl.changed
    return {
        "position": line.position,
        "yang": line.yang,
        "moving": cl.moving,
        "value": cl.value,
        **najia,
        "spirit": _s(cl.spirit),
        "shi": cl.shi,
        "ying": cl.ying,
        "hidden": None
        if h is None
        else {
            "stem": h.line.stem.value,
            "branch": h.line.branch.value,
            "element": h.line.element.value,
            "relative": h.line.relative.value,
            "fei": h.fei,
            "lifted": h.lifted,
            "relations": {
                "month": ref_relation(h.month, "vigour", "po", "he", "effect"),
                "day": ref_relation(h.day, "stage", "kong", "effect", "he", "chong", "andong", "ripo"),
            },
        },
        "changed": None
        if ch is None
        else {"yang": ch.yang, "stem": ch.stem.value, "branch": ch.branch.value, "element": ch.element.value, "relative": ch.relative.value},
        "relations": {
            "month": ref_relation(cl.month, "vigour", "po", "he", "effect"),
            "day": ref_relation(cl.day, "stage", "kong", "effect", "he", "chong", "andong", "ripo"),
            "change": ref_relation(cl.change, "huitou", "jin", "tui", "kong", "po", "mu", "jue", "he", "chong"),
        },
        "tags": list(cl.tags()),
        "stars": list(stars),
    }


def ref_changed(cast):
    ch = cast.changed
    if ch is None:
        return None
    palace = cast.hexagram.palace_element
    return {
        **ref_head(ch),
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


def ref_document(chart, line_stars):
    return {
        "schema_version": SCHEMA_VERSION,
        "cast": {"spec": chart.cast.spec(), "coins": chart.cast.coins(), "moving": sorted(chart.cast.moving), "obtained": "given", "throws": None},
        **ref_calendar(chart.pillars),
        "earth_school": chart.school.value,
        "hexagram": {
            **ref_head(chart.hexagram),
            "features": list(chart.features),
            "lines": [ref_line(cl, line_stars.get(cl.position, ())) for cl in chart.lines],
        },
        "changed_hexagram": ref_changed(chart.cast),
        "use": None,
        "findings": [],
        "catalogue_version": catalogue().version,
        "stars": [],
    }


def same(a, b):
    assert orjson.dumps(a) == orjson.dumps(b)


def random_moment(rng):
    year = rng.choice((rng.randint(1950, 2050), rng.randint(3, 9997), rng.randint(995, 1005), rng.randint(1890, 1905)))
    moment = datetime(
        year,
        rng.randint(1, 12),
        rng.randint(1, 28),
        rng.randint(0, 23),
        rng.randint(0, 59),
        rng.randint(0, 59),
        rng.choice((0, 0, 0, 250000)),
        tzinfo=rng.choice(ZONES),
    )
    return moment + timedelta(days=rng.choice((0, 0, 1, 2, 3)))


def test_documents_of_every_cast():
    rng = random.Random(40)
    for cast in all_casts():
        kind = rng.random()
        if kind < 0.7:
            p = pillars_at(random_moment(rng), rng.choice((23, 0)), tz_name=rng.choice((None, "here")))
        elif kind < 0.9:
            p = FourPillars(
                rng.choice((None, *CYCLE)), rng.choice((None, *BRANCHES, *CYCLE)), rng.choice((None, *BRANCHES, *CYCLE)), rng.choice((None, *CYCLE))
            )
        else:
            p = None
        chart = build_chart(cast, p, rng.choice(tuple(EarthSchool)))
        same(chart_to_dict(chart), ref_document(chart, {}))
        same(changed_to_dict(chart), ref_changed(cast))
        for cl in chart.lines:
            same(line_to_dict(cl), ref_line(cl))
        same(calendar_to_dict(chart.pillars), ref_calendar(chart.pillars))
        same(context_to_dict(chart.pillars.context), ref_context(chart.pillars.context))
        same(pillars_to_dict(chart.pillars), ref_calendar(chart.pillars)["pillars"])


def test_contexts_near_their_jie():
    rng = random.Random(41)
    for _ in range(2000):
        p = pillars_at(datetime(rng.randint(1950, 2050), 1, 1, tzinfo=UTC))
        jie = p.context.next_jie.instant + timedelta(seconds=rng.uniform(-400, 400))
        moment = jie.astimezone(rng.choice(ZONES)) + timedelta(days=rng.choice((0, 0, 0, 1, -1, 2, -3)))
        ctx = pillars_at(moment, 23).context
        same(context_to_dict(ctx), ref_context(ctx))


def test_moment_texts():
    rng = random.Random(42)
    for _ in range(30000):
        year = rng.choice((rng.randint(1, 9999), rng.randint(990, 1010), rng.randint(9990, 9999), rng.randint(1850, 2100)))
        moment = datetime(
            year,
            rng.randint(1, 12),
            rng.choice((1, 28, rng.randint(1, 28))),
            rng.randint(0, 23),
            rng.randint(0, 59),
            rng.randint(0, 59),
            rng.choice((0, 0, 999999)),
            tzinfo=rng.choice(ZONES),
            fold=rng.randint(0, 1),
        )
        try:
            expected = moment.isoformat(timespec="seconds"), moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        except (OverflowError, ValueError):  # outside datetime's range once in UTC
            continue
        assert _moment_texts(moment) == expected, moment


@pytest.mark.parametrize("h", HEXAGRAMS[:8])
def test_a_line_built_by_hand(h):
    chart = build_chart(Cast(h, frozenset({1})), FourPillars(month=BRANCHES[3], day=CYCLE[7]))
    cl = chart.lines[0]
    for odd in (cl._replace(moving=1), cl._replace(value=8), cl._replace(shi=0, ying=None), cl._replace(moving=False, value=7)):
        same(line_to_dict(odd), ref_line(odd))
