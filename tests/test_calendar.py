"""The calendar against an independent astronomical reference and the conventions of docs/conventions.md.

The reference is tests/data/jie_reference.csv, made by tools/build_jie_reference.py with
PyEphem (not tyme4py), and tests/oracle_calendar.py, plain arithmetic on that table.
"""

from __future__ import annotations

import csv
import importlib.util
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yimao.errors import NotationError, UnsupportedDateError, YimaoError
from yimao.ganzhi import Branch, GanZhi
from yimao.pillars import parse_moment, parse_pillar, parse_tz, pillars_at, pillars_given
from yimao.solar_terms import jie_at, jies

HERE = Path(__file__).resolve().parent
CST = timezone(timedelta(hours=8))


def _oracle():
    name = "oracle_calendar"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, HERE / "oracle_calendar.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


oracle = _oracle()


def _reference() -> list[tuple[int, str, datetime]]:
    with open(HERE / "data" / "jie_reference.csv", encoding="utf-8") as f:
        return [(int(r["year"]), r["name"], datetime.strptime(r["utc"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)) for r in csv.DictReader(f)]


def test_every_jie_1900_2050_within_60_seconds_of_the_ephemeris():
    ref = _reference()
    assert len(ref) == 151 * 12
    worst = 0.0
    for year, name, instant in ref:
        ours = {j.name: j.instant for j in jies(year)}[name]
        worst = max(worst, abs((ours - instant).total_seconds()))
    # ephem's ΔT forecast drifts from tyme4py's after ~2030 by tens of seconds at most
    assert worst < 60, worst


def test_jie_instants_before_2030_agree_closely():
    diffs = [abs(({j.name: j.instant for j in jies(y)}[n] - t).total_seconds()) for y, n, t in _reference() if y < 2030]
    assert max(diffs) < 20


def test_jie_months_and_order():
    js = jies(2026)
    assert [j.name for j in js] == ["小寒", "立春", "惊蛰", "清明", "立夏", "芒种", "小暑", "立秋", "白露", "寒露", "立冬", "大雪"]
    assert [j.month.value for j in js] == list("丑寅卯辰巳午未申酉戌亥子")
    assert all(a.instant < b.instant for a, b in zip(js, js[1:]))


moments = st.datetimes(
    min_value=datetime(1900, 2, 10),
    max_value=datetime(2050, 12, 1),
    timezones=st.sampled_from(
        [UTC, CST, timezone(timedelta(hours=-5)), timezone(timedelta(hours=5, minutes=45)), ZoneInfo("Asia/Shanghai"), ZoneInfo("America/New_York")]
    ),
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moments, st.sampled_from([23, 0]))
def test_pillars_agree_with_the_oracle(moment, day_start):
    if oracle.nearest_jie_seconds(moment) < 120:
        return  # within 2 minutes of a 节 the two ephemerides may disagree on the month
    ours = pillars_at(moment, day_start)
    assert tuple(str(x) for x in (ours.year, ours.month, ours.day, ours.hour)) == oracle.oracle_pillars(moment, day_start)


def test_pillars_every_hour_of_a_year_agree_with_the_oracle():
    start = datetime(2026, 1, 1, tzinfo=CST)
    for h in range(0, 365 * 24, 1):
        m = start + timedelta(hours=h, minutes=30)
        if oracle.nearest_jie_seconds(m) < 120:
            continue
        for ds in (23, 0):
            p = pillars_at(m, ds)
            assert tuple(map(str, (p.year, p.month, p.day, p.hour))) == oracle.oracle_pillars(m, ds), m


# --- the 子 hour under both conventions ------------------------------------------------------
# 2026-12-02 is a 庚戌 day (its 子 hour stem 丙); 2026-12-03 辛亥 (子 hour 戊子).


@pytest.mark.parametrize(
    "clock, ds, day, hour",
    [
        ("2026-12-02T22:59", 23, "庚戌", "丁亥"),
        ("2026-12-02T23:00", 23, "辛亥", "戊子"),
        ("2026-12-02T23:59", 23, "辛亥", "戊子"),
        ("2026-12-03T00:00", 23, "辛亥", "戊子"),
        ("2026-12-03T00:59", 23, "辛亥", "戊子"),
        ("2026-12-03T01:00", 23, "辛亥", "己丑"),
        ("2026-12-02T22:59", 0, "庚戌", "丁亥"),
        ("2026-12-02T23:00", 0, "庚戌", "戊子"),  # 晚子时: the day stays, the hour stem is the next day's
        ("2026-12-02T23:59", 0, "庚戌", "戊子"),
        ("2026-12-03T00:00", 0, "辛亥", "戊子"),
        ("2026-12-03T00:59", 0, "辛亥", "戊子"),
    ],
)
def test_zi_hour_boundaries(clock, ds, day, hour):
    p = pillars_at(datetime.fromisoformat(clock).replace(tzinfo=CST), ds)
    assert (str(p.day), str(p.hour)) == (day, hour)


def test_xunkong_follows_the_day_pillar_under_each_convention():
    late = datetime(2026, 12, 2, 23, 30, tzinfo=CST)
    assert pillars_at(late, 23).xunkong == GanZhi.parse("辛亥").xunkong
    assert pillars_at(late, 0).xunkong == GanZhi.parse("庚戌").xunkong


def test_lichun_2024_on_either_side():
    # 立春 2024: 2024-02-04 16:26:53 Beijing time (published), 08:26:53 UTC.
    before = pillars_at(datetime(2024, 2, 4, 16, 25, tzinfo=CST))
    after = pillars_at(datetime(2024, 2, 4, 16, 29, tzinfo=CST))
    assert (str(before.year), str(before.month)) == ("癸卯", "乙丑")
    assert (str(after.year), str(after.month)) == ("甲辰", "丙寅")


def test_near_jie_warning_within_five_minutes():
    lichun = {j.name: j.instant for j in jies(2024)}["立春"]
    near = pillars_at(lichun + timedelta(minutes=4))
    far = pillars_at(lichun + timedelta(minutes=6))
    assert near.context.near_jie is not None and near.context.near_jie[0].name == "立春"
    assert far.context.near_jie is None
    assert pillars_at(lichun - timedelta(minutes=4)).context.near_jie[1] < 0


def test_jie_in_force_and_next():
    cur, nxt = jie_at(datetime(2026, 12, 2, 10, tzinfo=CST))
    assert (cur.name, nxt.name) == ("立冬", "大雪")
    cur, nxt = jie_at(datetime(2026, 1, 2, tzinfo=CST))  # before 小寒: the previous year's 大雪
    assert (cur.name, cur.instant.year, nxt.name) == ("大雪", 2025, "小寒")


def test_the_same_instant_in_any_zone_has_the_same_month_and_year():
    m = datetime(2024, 2, 4, 8, 40, tzinfo=UTC)  # 13 minutes after 立春
    for zone in (UTC, CST, timezone(timedelta(hours=-10)), ZoneInfo("Europe/London")):
        p = pillars_at(m.astimezone(zone))
        assert (str(p.year), str(p.month)) == ("甲辰", "丙寅")


# --- time zones --------------------------------------------------------------------------------


def test_offset_in_the_date_wins_over_tz():
    moment, label, source, notes = parse_moment("2026-12-02T10:00+08:00", tz="America/New_York")
    assert moment.utcoffset() == timedelta(hours=8) and source == "offset" and label == "+08:00"


def test_tz_applies_when_the_date_has_no_offset():
    moment, label, source, _ = parse_moment("2026-12-02T10:00", tz="Asia/Shanghai")
    assert moment.utcoffset() == timedelta(hours=8) and source == "--tz" and label == "Asia/Shanghai"
    moment, label, source, _ = parse_moment("2026-12-02T10:00", tz="-05:30")
    assert moment.utcoffset() == -timedelta(hours=5, minutes=30) and label == "-05:30"


def test_system_zone_when_nothing_is_given(monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    moment, label, source, notes = parse_moment("2026-07-01T12:00")
    assert source == "system" and moment.utcoffset() == timedelta(hours=9) and label == "Asia/Tokyo" and notes == ()


def test_iana_zone_handles_daylight_saving():
    summer = parse_moment("2026-07-01T12:00", tz="America/New_York").moment
    winter = parse_moment("2026-01-15T12:00", tz="America/New_York").moment
    assert summer.utcoffset() == timedelta(hours=-4) and winter.utcoffset() == timedelta(hours=-5)


@pytest.mark.parametrize("bad", ["Mars/Olympus", "+25:00", "Asia/Shangai"])
def test_bad_time_zone(bad):
    with pytest.raises(NotationError) as e:
        parse_tz(bad)
    assert bad in str(e.value)


def test_unknown_zone_suggests_close_names():
    with pytest.raises(NotationError) as e:
        parse_tz("Asia/Shangai")
    assert "Asia/Shanghai" in e.value.candidates


@pytest.mark.parametrize("text", ["２０２６-１２-０２T１０:００+０８:００", "２０２６－１２－０２ １０：００＋０８：００"])
def test_full_width_dates_read_as_their_ascii_forms(text):
    """Digits and signs as a Chinese input method types them read as the same moment; the error
    message still quotes what was given."""
    assert parse_moment(text) == parse_moment("2026-12-02T10:00+08:00")
    with pytest.raises(NotationError) as e:
        parse_moment("２０２６－１３－０２")
    assert "２０２６－１３－０２" in str(e.value)


@pytest.mark.parametrize("bad", ["2026-13-01", "yesterday", "2026-02-30T10:00", "", "12:00"])
def test_malformed_dates(bad):
    with pytest.raises(NotationError):
        parse_moment(bad)


def test_naive_datetime_is_refused_with_the_fix():
    with pytest.raises(UnsupportedDateError) as e:
        pillars_at(datetime(2026, 12, 2, 10))
    assert "+08:00" in str(e.value)


def test_out_of_range_years():
    with pytest.raises(UnsupportedDateError):
        pillars_at(datetime(1, 12, 31, 23, tzinfo=UTC))
    with pytest.raises(UnsupportedDateError):
        pillars_at(datetime(9999, 1, 1, tzinfo=UTC))
    assert str(pillars_at(datetime(3000, 6, 1, tzinfo=UTC)).year)  # far but supported


def test_lunar_date():
    p = pillars_at(datetime(2026, 12, 2, 10, tzinfo=CST))
    assert str(p.context.lunar) == "丙午年十月廿四"
    leap = pillars_at(datetime(2023, 4, 1, 10, tzinfo=CST)).context.lunar
    assert leap.leap and leap.month_name == "闰二月"


# --- pillars as the book states them --------------------------------------------------------


def test_given_pillars_as_in_the_book():
    p = pillars_given(month="卯", day="戊寅")  # "卯建戊寅日"
    assert p.month is Branch.MAO and str(p.day) == "戊寅" and p.year is None and p.hour is None
    assert p.xunkong == (Branch.SHEN, Branch.YOU) and p.yuepo is Branch.YOU
    bare = pillars_given(day="申")  # "申日之离"
    assert bare.day is Branch.SHEN and bare.xunkong is None and bare.day_stem is None


@pytest.mark.parametrize("text", ["卯", "卯月", "卯建", "2", "二月", "己卯"])
def test_month_spellings(text):
    assert parse_pillar(text, "month") in (Branch.MAO, GanZhi.parse("己卯"))


def test_month_numbers_follow_the_yin_calendar():
    assert [parse_pillar(str(n), "month").value for n in range(1, 13)] == list("寅卯辰巳午未申酉戌亥子丑")
    assert parse_pillar("正月", "month") is Branch.YIN and parse_pillar("腊月", "month") is Branch.CHOU
    assert parse_pillar("１２", "month") is Branch.CHOU  # full-width digits are numbers too


def test_given_stems_are_completed_and_checked():
    p = pillars_given(year="丙午", month="3", day="戊寅", hour="午")
    assert (str(p.month), str(p.hour)) == ("壬辰", "戊午")
    with pytest.raises(NotationError):
        pillars_given(year="丙午", month="甲辰")
    with pytest.raises(NotationError):
        pillars_given(day="戊寅", hour="甲午")


@pytest.mark.parametrize(
    "kind, bad", [("month", "13"), ("month", "0"), ("month", "¹"), ("day", "甲丑"), ("day", "戊"), ("day", "xyz"), ("hour", "午午午"), ("year", "")]
)
def test_bad_pillars(kind, bad):
    with pytest.raises(YimaoError):
        parse_pillar(bad, kind)


def test_lunar_dates_agree_with_tyme4py_day_by_day():
    """The per-year month tables give what tyme4py's own LunarDay gives, for every day of 2019-2024."""
    from datetime import date
    from datetime import timedelta as td

    from tyme4py.solar import SolarDay

    from yimao.pillars import lunar_date

    d = date(2019, 1, 1)
    while d < date(2025, 1, 1):
        ld = SolarDay.from_ymd(d.year, d.month, d.day).get_lunar_day()
        ours = lunar_date(d)
        lm = ld.get_lunar_month()
        assert (ours.year, ours.month, ours.leap, ours.day, ours.day_name, ours.month_name) == (
            lm.get_lunar_year().get_year(),
            lm.get_month(),
            lm.is_leap(),
            ld.get_day(),
            ld.get_name(),
            lm.get_name(),
        ), d
        assert ours.year_ganzhi == lm.get_lunar_year().get_sixty_cycle().get_name()
        d += td(days=1)


def test_lunar_dates_before_the_gregorian_reform():
    """yimao counts days in the proleptic Gregorian calendar (as ISO 8601 does); tyme4py names days
    before 1582-10-15 in the Julian calendar. The same day, reached through its Julian day number,
    must have the same lunar date."""
    from datetime import date

    from tyme4py.jd import JulianDay

    from yimao.pillars import lunar_date

    for d in (date(1500, 3, 1), date(1200, 7, 15), date(1582, 10, 10), date(800, 1, 31)):
        ld = JulianDay.from_julian_day(d.toordinal() + 1721425).get_solar_day().get_lunar_day()
        ours = lunar_date(d)
        assert (ours.year, ours.month, ours.leap, ours.day) == (
            ld.get_lunar_month().get_lunar_year().get_year(),
            ld.get_lunar_month().get_month(),
            ld.get_lunar_month().is_leap(),
            ld.get_day(),
        ), d
