"""The shortcuts of pillars.py against the direct computation: the per-year table of month
pillars, the date filter of `near_jie`, and the per-lunar-year bisection of `_lunar_of`."""

from __future__ import annotations

import random
from bisect import bisect_right
from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from yimao.ganzhi import GanZhi
from yimao.pillars import _LUNAR_DAY_NAMES, NEAR_JIE_SECONDS, Lunar, _lunar_months, _lunar_of, _month_pillars, _year_table, pillars_at
from yimao.solar_terms import jie_position, jies

ZONES = (
    UTC,
    timezone(timedelta(hours=8)),
    timezone(timedelta(hours=-11, minutes=-30)),
    timezone(timedelta(hours=23, minutes=59)),
    timezone(timedelta(hours=-23, minutes=-59)),
    ZoneInfo("Asia/Shanghai"),
    ZoneInfo("America/New_York"),
)


def test_year_table():
    for year in (*range(1895, 2106), 3, 4, 1000, 9997):
        instants, entries = _year_table(year)
        assert instants == tuple(j.instant for j in jies(year))
        assert entries[0] is None and entries[12] is None
        for i in range(1, 12):
            assert entries[i] == _month_pillars.__wrapped__(year, i)


def test_pillars_at_the_ends_of_the_years():
    rng = random.Random(50)
    for _ in range(3000):
        year = rng.randint(1900, 2100)
        moment = datetime(year, rng.choice((1, 12)), rng.choice((1, 5, 6, 7, 8, 28, 31)), rng.randint(0, 23), tzinfo=rng.choice(ZONES))
        p = pillars_at(moment)
        jie, next_jie, y, m = _month_pillars.__wrapped__(*jie_position(moment.astimezone(UTC)))
        assert (p.context.jie, p.context.next_jie, p.year, p.month) == (jie, next_jie, y, m)


def reference_near_jie(ctx):
    for j in (ctx.jie, ctx.next_jie):
        delta = (ctx.moment - j.instant).total_seconds()
        if abs(delta) < NEAR_JIE_SECONDS:
            return j, delta
    return None


def test_near_jie():
    rng = random.Random(51)
    for _ in range(5000):
        p = pillars_at(datetime(rng.randint(1950, 2050), rng.randint(1, 12), 1, tzinfo=UTC))
        j = rng.choice((p.context.jie, p.context.next_jie)).instant
        moment = (j + timedelta(seconds=rng.uniform(-400, 400))).astimezone(rng.choice(ZONES))
        moment += timedelta(days=rng.choice((0, 0, 0, 1, -1, 2, -2, 3, -3, 4)))
        ctx = pillars_at(moment, rng.choice((23, 0))).context
        assert ctx.near_jie == reference_near_jie(ctx)


def reference_lunar(o):
    d = date.fromordinal(o)
    for ly in (d.year, d.year - 1):
        months = _lunar_months(ly)
        if o < months[0][0]:
            continue
        i = bisect_right([m[0] for m in months], o) - 1
        first, month, leap, name, days = months[i]
        if o - first < days:
            return Lunar(ly, str(GanZhi.from_index((ly - 4) % 60)), month, leap, o - first + 1, name, _LUNAR_DAY_NAMES[o - first])
    return None


def test_lunar_every_day_of_the_table():
    for o in range(date(1901, 3, 1).toordinal(), date(2100, 12, 31).toordinal() + 1):
        assert _lunar_of.__wrapped__(o) == reference_lunar(o)
