"""Independent oracle for the four pillars (年柱 月柱 日柱 时柱).

Pure Python plus ``tests/data/jie_reference.csv`` (built with PyEphem by
``tools/build_jie_reference.py``).  It imports neither ephem, tyme4py nor yimao,
so the project's tests can compare yimao's pillars against it.

Conventions (the project's):

* 节 instants are absolute: an aware ``moment`` is converted to UTC and the
  year/month pillar in force is the one of the latest 节 whose instant is
  <= the moment.
* Year pillar changes at the 立春 instant; the pillar year whose 立春 falls in
  Gregorian 1984 is 甲子 (so index = (pillar_year - 1984) mod 60).
* Month pillar: 立春 寅, 惊蛰 卯, 清明 辰, 立夏 巳, 芒种 午, 小暑 未, 立秋 申,
  白露 酉, 寒露 戌, 立冬 亥, 大雪 子, 小寒 丑 (小寒's 丑 month belongs to the
  previous pillar year).  Stems by 五虎遁: 甲己→丙寅, 乙庚→戊寅, 丙辛→庚寅,
  丁壬→壬寅, 戊癸→甲寅.
* Day pillar from the LOCAL wall-clock date of ``moment`` (its own tzinfo):
  index = (JDN + 49) mod 60 with 0 = 甲子, where JDN is the Julian Day Number
  of the civil date (proleptic Gregorian).  Anchors, all consistent with that
  formula: 2000-01-07 甲子 (JDN 2451551), 1949-10-01 甲子 (JDN 2433191),
  1900-01-31 甲辰 (JDN 2415051; the day of the 1900 lunar new year).
  With ``day_start=23`` a local time 23:00-23:59 takes the next day's pillar;
  with ``day_start=0`` the day pillar stays with the calendar date.
* Hour branch from the local wall clock: 23:00-00:59 子, 01:00-02:59 丑, ...,
  21:00-22:59 亥.  Hour stem by 五鼠遁 from the day stem (甲己→甲子, 乙庚→丙子,
  丙辛→戊子, 丁壬→庚子, 戊癸→壬子); for 23:00-23:59 the stem comes from the
  NEXT day's stem under both day_start conventions.

Valid range: moments from the first tabulated 节 (1900 小寒,
1900-01-05T18:03:58Z; the project itself starts at 1900-02-05, after the 1900
立春) up to 25 days after the last one (大雪 2050), i.e. through 2050-12-31 in
any time zone.  Outside it, and for naive datetimes, ValueError is raised.
"""

from __future__ import annotations

import bisect
import csv
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache
from pathlib import Path

CSV_PATH = Path(__file__).resolve().parent / "data" / "jie_reference.csv"

STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"

JIE_NAMES = ("小寒", "立春", "惊蛰", "清明", "立夏", "芒种", "小暑", "立秋", "白露", "寒露", "立冬", "大雪")

#: 节 name -> month number counted from 寅 (立春 = 0 ... 小寒 = 11).
MONTH_FROM_YIN = {name: i for i, name in enumerate(JIE_NAMES[1:] + JIE_NAMES[:1])}

#: how long after the last tabulated 节 a moment is still answerable (the next
#: 节, 小寒, is always more than 28 days after 大雪).
_TAIL = timedelta(days=25)


@dataclass(frozen=True)
class Jie:
    year: int
    name: str
    longitude: int
    utc: datetime


def _parse_utc(text: str) -> datetime:
    if not text.endswith("Z"):
        raise ValueError(f"utc must end with Z: {text!r}")
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


@cache
def load_jie(path: str = str(CSV_PATH)) -> tuple[Jie, ...]:
    """All rows of the reference CSV, in file (chronological) order."""
    rows = []
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames != ["year", "name", "longitude", "utc"]:
            raise ValueError(f"unexpected header {reader.fieldnames}")
        for rec in reader:
            rows.append(Jie(int(rec["year"]), rec["name"], int(rec["longitude"]), _parse_utc(rec["utc"])))
    return tuple(rows)


@cache
def _instants() -> tuple[datetime, ...]:
    return tuple(j.utc for j in load_jie())


def _to_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("moment must be timezone-aware")
    return moment.astimezone(UTC)


def jie_in_force(moment: datetime) -> Jie:
    """The latest 节 whose instant is <= ``moment``."""
    utc = _to_utc(moment)
    instants = _instants()
    i = bisect.bisect_right(instants, utc) - 1
    if i < 0 or utc >= instants[-1] + _TAIL:
        raise ValueError(f"{moment.isoformat()} is outside the reference table")
    return load_jie()[i]


def nearest_jie_seconds(moment: datetime) -> float:
    """Absolute distance in seconds from ``moment`` to the nearest tabulated 节."""
    utc = _to_utc(moment)
    instants = _instants()
    i = bisect.bisect_left(instants, utc)
    candidates = instants[max(i - 1, 0) : i + 1]
    return min(abs((utc - t).total_seconds()) for t in candidates)


def julian_day_number(d: date) -> int:
    """Julian Day Number of a proleptic-Gregorian civil date (noon-based)."""
    # date.toordinal() is 1 for 0001-01-01, whose JDN is 1721426.
    return d.toordinal() + 1721425


def day_index(d: date) -> int:
    """Sexagenary index (0 = 甲子) of the civil date ``d``."""
    return (julian_day_number(d) + 49) % 60


def ganzhi(index: int) -> str:
    """Sexagenary cycle index (0 = 甲子) to its two-character name."""
    index %= 60
    return STEMS[index % 10] + BRANCHES[index % 12]


def _from_stem_branch(stem: int, branch: int) -> str:
    if (stem - branch) % 2:
        raise AssertionError("stem and branch parity differ")
    return STEMS[stem % 10] + BRANCHES[branch % 12]


def oracle_pillars(moment: datetime, day_start: int = 23) -> tuple[str, str, str, str]:
    """(year, month, day, hour) pillars of an aware ``moment``."""
    if day_start not in (0, 23):
        raise ValueError("day_start must be 23 or 0")
    jie = jie_in_force(moment)

    # Year and month: from the absolute 节 instants.
    pillar_year = jie.year - 1 if jie.name == "小寒" else jie.year
    year_idx = (pillar_year - 1984) % 60
    year_stem = year_idx % 10
    month_no = MONTH_FROM_YIN[jie.name]  # 寅 = 0
    month_stem = (2 * (year_stem % 5) + 2 + month_no) % 10  # 五虎遁
    month_branch = (2 + month_no) % 12

    # Day and hour: from the local wall clock.
    local_date = moment.date()
    hour = moment.hour
    idx = day_index(local_date)
    late_zi = hour == 23
    if late_zi and day_start == 23:
        idx += 1
    hour_branch = ((hour + 1) // 2) % 12
    stem_day = (idx + 1) if (late_zi and day_start == 0) else idx
    hour_stem = (2 * (stem_day % 10 % 5) + hour_branch) % 10  # 五鼠遁

    return (
        ganzhi(year_idx),
        _from_stem_branch(month_stem, month_branch),
        ganzhi(idx),
        _from_stem_branch(hour_stem, hour_branch),
    )
