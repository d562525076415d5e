"""Self-checks of tests/oracle_calendar.py and tests/data/jie_reference.csv.

The oracle is checked against facts known independently of it (published 节
instants, well-known day pillars, the Julian Day Number computed by a different
algorithm) so that other tests can trust it.  Nothing here imports ephem.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent
_ORACLE_PATH = _HERE / "oracle_calendar.py"


def _load_oracle():
    # Load by file path so this works whether or not tests/ is a package.
    name = "oracle_calendar"
    mod = sys.modules.get(name)
    if mod is not None and Path(getattr(mod, "__file__", "")).resolve() == _ORACLE_PATH:
        return mod
    spec = importlib.util.spec_from_file_location(name, _ORACLE_PATH)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


oc = _load_oracle()

UTC = UTC
CST = timezone(timedelta(hours=8))


def utc(*args):
    return datetime(*args, tzinfo=UTC)


def cst(*args):
    return datetime(*args, tzinfo=CST)


# --------------------------------------------------------------------- the CSV


def test_csv_shape_and_order():
    rows = oc.load_jie()
    assert len(rows) == 151 * 12
    assert oc.CSV_PATH.read_text(encoding="utf-8").splitlines()[0] == "year,name,longitude,utc"
    expected_lon = dict(zip(oc.JIE_NAMES, (285, 315, 345, 15, 45, 75, 105, 135, 165, 195, 225, 255)))
    for i, year in enumerate(range(1900, 2051)):
        chunk = rows[12 * i : 12 * i + 12]
        assert [r.year for r in chunk] == [year] * 12
        assert tuple(r.name for r in chunk) == oc.JIE_NAMES
        assert all(r.longitude == expected_lon[r.name] for r in chunk)
        assert all(r.utc.year == year for r in chunk)
        assert date(year, 1, 4) <= chunk[0].utc.date() <= date(year, 1, 7)  # 小寒
        assert date(year, 2, 3) <= chunk[1].utc.date() <= date(year, 2, 5)  # 立春
        assert date(year, 12, 6) <= chunk[11].utc.date() <= date(year, 12, 8)  # 大雪


def test_csv_instants_increase_about_a_twelfth_of_a_year_apart():
    instants = [r.utc for r in oc.load_jie()]
    gaps = [(b - a).total_seconds() / 86400 for a, b in zip(instants, instants[1:])]
    assert all(29.0 < g < 32.0 for g in gaps), (min(gaps), max(gaps))
    mean = sum(gaps) / len(gaps)
    assert abs(mean - 365.2422 / 12) < 0.01
    # same 节 one year apart: a tropical year, within the ~±20 min wobble
    for a, b in zip(instants, instants[12:]):
        assert abs((b - a).total_seconds() / 86400 - 365.2422) < 0.03


def test_csv_utc_format():
    for line in oc.CSV_PATH.read_text(encoding="utf-8").splitlines()[1:]:
        stamp = line.rsplit(",", 1)[1]
        assert len(stamp) == 20 and stamp.endswith("Z") and stamp[10] == "T"


@pytest.mark.parametrize(
    "year, name, published",
    [
        # Published Beijing-time instants (seconds) and USNO minute values.
        (2024, "立春", cst(2024, 2, 4, 16, 26, 53)),
        (2023, "立春", cst(2023, 2, 4, 10, 42, 21)),
        (2025, "立春", cst(2025, 2, 3, 22, 10, 13)),
        (2024, "小寒", cst(2024, 1, 6, 4, 49, 0)),
        (2024, "立冬", cst(2024, 11, 7, 6, 20, 0)),
        (2024, "大雪", cst(2024, 12, 6, 23, 17, 0)),
    ],
)
def test_csv_matches_published_instants(year, name, published):
    row = next(r for r in oc.load_jie() if r.year == year and r.name == name)
    assert abs((row.utc - published).total_seconds()) <= 60


def test_oracle_is_ephem_free_and_independent():
    tree = ast.parse(_ORACLE_PATH.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert not imported & {"ephem", "tyme4py", "yimao", "tyme", "lunar_python"}
    assert imported <= {"__future__", "bisect", "csv", "dataclasses", "datetime", "functools", "pathlib"}


# ------------------------------------------------------------- year and month


def test_lichun_2024_boundary():
    # 立春 2024 = 2024-02-04 16:26:53 Beijing time = 08:26:53 UTC.
    assert oc.oracle_pillars(utc(2024, 2, 4, 8, 20))[:2] == ("癸卯", "乙丑")
    assert oc.oracle_pillars(utc(2024, 2, 4, 8, 30))[:2] == ("甲辰", "丙寅")
    assert oc.oracle_pillars(cst(2024, 2, 4, 16, 20))[:2] == ("癸卯", "乙丑")
    assert oc.oracle_pillars(cst(2024, 2, 4, 16, 30))[:2] == ("甲辰", "丙寅")
    # same instant expressed in another zone: same year/month
    ny = timezone(timedelta(hours=-5))
    assert oc.oracle_pillars(datetime(2024, 2, 4, 3, 30, tzinfo=ny))[:2] == ("甲辰", "丙寅")


def test_boundary_is_inclusive_at_the_jie_instant():
    row = next(r for r in oc.load_jie() if r.year == 2024 and r.name == "立春")
    assert oc.oracle_pillars(row.utc)[:2] == ("甲辰", "丙寅")
    assert oc.oracle_pillars(row.utc - timedelta(seconds=1))[:2] == ("癸卯", "乙丑")


@pytest.mark.parametrize(
    "moment, year, month",
    [
        (cst(1984, 2, 5, 12), "甲子", "丙寅"),  # 1984 is 甲子; 甲 year -> 丙寅
        (cst(1984, 1, 20, 12), "癸亥", "乙丑"),  # before 立春: previous year
        (cst(2024, 12, 10, 12), "甲辰", "丙子"),  # after 大雪
        (cst(2025, 1, 10, 12), "甲辰", "丁丑"),  # after 小寒, before 立春
        (cst(2025, 2, 10, 12), "乙巳", "戊寅"),  # 乙 year -> 戊寅
        (cst(2026, 11, 20, 12), "丙午", "己亥"),  # 丙 year: 寅 庚 ... 亥 己
        (cst(2027, 3, 1, 12), "丁未", "壬寅"),  # 丁 year -> 壬寅
        (cst(2028, 3, 1, 12), "戊申", "甲寅"),  # 戊 year -> 甲寅
        (cst(1900, 2, 5, 12), "庚子", "戊寅"),  # start of the project's range
        (cst(2050, 12, 31, 23, 59), "庚午", "戊子"),  # end of the range
    ],
)
def test_year_and_month_pillars(moment, year, month):
    assert oc.oracle_pillars(moment)[:2] == (year, month)


def test_month_sequence_through_2024():
    months = []
    for r in oc.load_jie():
        if r.year == 2024:
            months.append(oc.oracle_pillars(r.utc + timedelta(hours=1))[1])
    assert months == ["乙丑", "丙寅", "丁卯", "戊辰", "己巳", "庚午", "辛未", "壬申", "癸酉", "甲戌", "乙亥", "丙子"]


# ------------------------------------------------------------------ day pillar


def _jdn_fliegel(y: int, m: int, d: int) -> int:
    """Fliegel & Van Flandern (1968) integer JDN, independent of toordinal()."""
    a = (14 - m) // 12
    yy = y + 4800 - a
    mm = m + 12 * a - 3
    return d + (153 * mm + 2) // 5 + 365 * yy + yy // 4 - yy // 100 + yy // 400 - 32045


@pytest.mark.parametrize("d", [date(1900, 1, 31), date(1949, 10, 1), date(2000, 1, 1), date(2000, 1, 7), date(2024, 2, 29), date(2050, 12, 31)])
def test_jdn_agrees_with_fliegel_van_flandern(d):
    assert oc.julian_day_number(d) == _jdn_fliegel(d.year, d.month, d.day)


def test_jdn_known_value():
    assert oc.julian_day_number(date(2000, 1, 1)) == 2451545  # J2000.0 is JD 2451545.0 at noon


@pytest.mark.parametrize(
    "d, pillar",
    [
        (date(2000, 1, 7), "甲子"),
        (date(2000, 1, 6), "癸亥"),
        (date(2000, 1, 8), "乙丑"),
        (date(1949, 10, 1), "甲子"),
        (date(1900, 1, 31), "甲辰"),  # 1900 lunar new year
    ],
)
def test_day_anchor(d, pillar):
    assert oc.ganzhi(oc.day_index(d)) == pillar
    assert oc.oracle_pillars(datetime(d.year, d.month, d.day, 12, tzinfo=CST))[2] == pillar


def test_founding_of_prc():
    # 1949-10-01 15:00 Beijing: 己丑年 癸酉月 甲子日 壬申时
    assert oc.oracle_pillars(cst(1949, 10, 1, 15, 0)) == ("己丑", "癸酉", "甲子", "壬申")


def test_day_uses_local_wall_clock_date():
    instant = utc(2000, 1, 6, 20, 0)  # 2000-01-07 04:00 in UTC+8
    assert oc.oracle_pillars(instant)[2] == "癸亥"
    assert oc.oracle_pillars(instant.astimezone(CST))[2] == "甲子"


# ------------------------------------------------------------------ hour pillar


@pytest.mark.parametrize(
    "hour, pillar",
    [(0, "甲子"), (1, "乙丑"), (2, "乙丑"), (3, "丙寅"), (11, "庚午"), (12, "庚午"), (13, "辛未"), (21, "乙亥"), (22, "乙亥")],
)
def test_hour_pillars_on_a_jia_day(hour, pillar):
    # 2000-01-07 is a 甲 day: 甲己还加甲 -> 甲子 hour, 午 hour 庚午
    assert oc.oracle_pillars(cst(2000, 1, 7, hour, 30))[2:] == ("甲子", pillar)


@pytest.mark.parametrize(
    "day_stem_date, zi",
    [
        (date(2000, 1, 7), "甲子"),
        (date(2000, 1, 8), "丙子"),
        (date(2000, 1, 9), "戊子"),
        (date(2000, 1, 10), "庚子"),
        (date(2000, 1, 11), "壬子"),
        (date(2000, 1, 12), "甲子"),
    ],
)
def test_wu_shu_dun(day_stem_date, zi):
    d = day_stem_date
    assert oc.oracle_pillars(datetime(d.year, d.month, d.day, 0, 10, tzinfo=CST))[3] == zi


def test_late_zi_hour_day_start_23():
    # 2000-01-06 (癸亥) 23:30 -> next day's pillar 甲子, hour 甲子
    assert oc.oracle_pillars(cst(2000, 1, 6, 23, 30))[2:] == ("甲子", "甲子")
    assert oc.oracle_pillars(cst(2000, 1, 6, 22, 59))[2:] == ("癸亥", "癸亥")
    assert oc.oracle_pillars(cst(2000, 1, 7, 23, 0))[2:] == ("乙丑", "丙子")


def test_late_zi_hour_day_start_0():
    # day pillar stays, 子 hour stem from the next day
    assert oc.oracle_pillars(cst(2000, 1, 6, 23, 30), day_start=0)[2:] == ("癸亥", "甲子")
    assert oc.oracle_pillars(cst(2000, 1, 7, 23, 30), day_start=0)[2:] == ("甲子", "丙子")
    assert oc.oracle_pillars(cst(2000, 1, 7, 0, 30), day_start=0)[2:] == ("甲子", "甲子")
    # outside 23:00 both conventions agree
    for h in range(23):
        m = cst(2013, 5, 17, h, 45)
        assert oc.oracle_pillars(m, day_start=0) == oc.oracle_pillars(m, day_start=23)


def test_hour_stem_branch_parity_over_many_hours():
    start = cst(2020, 1, 1)
    for k in range(0, 24 * 70):
        p = oc.oracle_pillars(start + timedelta(hours=k))
        for gz in p:
            assert (oc.STEMS.index(gz[0]) - oc.BRANCHES.index(gz[1])) % 2 == 0


# -------------------------------------------------------------- misc behaviour


def test_nearest_jie_seconds():
    row = next(r for r in oc.load_jie() if r.year == 2024 and r.name == "立春")
    assert oc.nearest_jie_seconds(row.utc) == 0
    assert oc.nearest_jie_seconds(row.utc + timedelta(minutes=10)) == 600
    assert oc.nearest_jie_seconds((row.utc - timedelta(seconds=90)).astimezone(CST)) == 90
    assert oc.nearest_jie_seconds(utc(2024, 2, 20)) > 10 * 86400


def test_rejects_naive_and_out_of_range():
    with pytest.raises(ValueError):
        oc.oracle_pillars(datetime(2024, 2, 4, 12))
    with pytest.raises(ValueError):
        oc.oracle_pillars(utc(1899, 12, 31))
    with pytest.raises(ValueError):
        oc.oracle_pillars(utc(2051, 2, 1))
    with pytest.raises(ValueError):
        oc.oracle_pillars(utc(2024, 2, 1), day_start=1)
