"""The twelve 节 (jie) that begin the 月建 months, as exact instants.

The instants come from tyme4py (寿星 algorithm, within a few seconds of JPL DE421 over
1900–2050); after about 2050 every instant rests on tyme4py's forecast of ΔT, so its error
grows with the distance from today. tyme4py's Julian days are Beijing time (UTC+8); this
module turns them into aware UTC datetimes and caches them per Gregorian year.
"""

# No `from __future__ import annotations` here: typing.NamedTuple compiles each string field
# annotation at class creation, a cost every start of the program would pay.
from bisect import bisect_right
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any, NamedTuple

from yimao.errors import UnsupportedDateError
from yimao.ganzhi import Branch

# The 节 and the 月建 month each begins: 立春 starts 寅月 (正月) … 小寒 starts 丑月.
JIE_MONTH: dict[str, Branch] = {
    "小寒": Branch.CHOU,
    "立春": Branch.YIN,
    "惊蛰": Branch.MAO,
    "清明": Branch.CHEN,
    "立夏": Branch.SI,
    "芒种": Branch.WU,
    "小暑": Branch.WEI,
    "立秋": Branch.SHEN,
    "白露": Branch.YOU,
    "寒露": Branch.XU,
    "立冬": Branch.HAI,
    "大雪": Branch.ZI,
}
JIE_NAMES = tuple(JIE_MONTH)

# Years whose 节 this module computes: tyme4py's solar years.
JIE_MIN_YEAR = 1
JIE_MAX_YEAR = 9999
# Years of the moments yimao reads, by their local date: a moment's UTC date is up to a day
# away, and a moment in January needs the previous year's 大雪, one in December the next year's 小寒.
MIN_YEAR = 2
MAX_YEAR = 9998

_J2000 = 2451545.0
# J2000.0 as a wall-clock moment; tyme4py counts its Julian days in Beijing time (UTC+8).
_J2000_NOON = datetime(2000, 1, 1, 12, tzinfo=UTC)
_BEIJING = timedelta(hours=8)


class Jie(NamedTuple):
    """One 节: its name, the 月建 month it begins, and its instant (aware, UTC)."""

    name: str
    month: Branch
    instant: datetime


@lru_cache(maxsize=512)
def jies(year: int) -> tuple[Jie, ...]:
    """The twelve 节 of tyme4py's solar year `year`, in time order (小寒 … 大雪): those that fall
    in Gregorian `year`, but that from 8873 on 小寒 may fall on 31 December of the year before (the
    Gregorian year is some 27 s longer than the tropical year)."""
    check_year(year)
    seconds = precomputed_entry("jie", year)
    if seconds is not None:
        return tuple(Jie(name, JIE_MONTH[name], _EPOCH + timedelta(seconds=s)) for name, s in zip(JIE_NAMES, seconds))
    return _jies_tyme(year)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@lru_cache(maxsize=1)
def precomputed() -> dict | None:
    """tools/build_calendar_table.py's table of 1900-2100 (节 and lunar months), or None."""
    import json

    text = _table_text()
    return None if text is None else json.loads(text)


@lru_cache(maxsize=1)
def _table_text() -> str | None:
    from yimao.data import read_bytes

    try:
        return read_bytes("calendar.json").decode("utf-8")
    except OSError:
        return None


def precomputed_entry(section: str, year: int) -> list | None:
    """`precomputed()[section].get(str(year))`, decoding that one entry alone.

    Parsing the whole table (201 years of 节 and of lunar months) costs a command some 3 ms,
    and a command needs a year or two of it. A batch needs hundreds: after `_SEARCHES` entries
    found by searching the text, the whole table is parsed once and looked up.
    """
    if _searched[0] >= _SEARCHES:
        table = precomputed()
        return None if table is None else table.get(section, {}).get(str(year))
    _searched[0] += 1
    return _search_entry(section, year)


_SEARCHES = 8  # a command's (a year, the one before or after, their lunar years)
_searched = [0]


def _search_entry(section: str, year: int) -> list | None:
    import json

    text = _table_text()
    if text is None:
        return None
    start = text.find(f'"{section}":{{')
    if start < 0:
        return None
    # A section maps years to arrays of numbers, booleans and month names: its first "}" closes
    # it, and the first '"YYYY":' inside it is that year's key.
    key = f'"{year}":'
    at = text.find(key, start, text.find("}", start))
    if at < 0:
        return None
    return json.JSONDecoder().raw_decode(text, at + len(key))[0]


def _jies_tyme(year: int) -> tuple[Jie, ...]:
    from tyme4py.solar import SolarTerm  # imported here: only years outside the table pay for it

    out = []
    for index in range(1, 24, 2):  # tyme4py's odd indices are the 节: 1 小寒, 3 立春 … 23 大雪
        term = SolarTerm.from_index(year, index)
        name = term.get_name()
        out.append(Jie(name, JIE_MONTH[name], _utc(term)))
    return tuple(out)


def _utc(term: Any) -> datetime:
    """A tyme4py solar term's instant, aware UTC, to the second."""
    jd_beijing = term.get_julian_day().get_day()
    instant = _J2000_NOON + timedelta(days=jd_beijing - _J2000) - _BEIJING
    return instant.replace(microsecond=0) + timedelta(seconds=round(instant.microsecond / 1e6))


# The 24 节气 in the order they fall in a Gregorian year (小寒 in January … 冬至 in December):
# tyme4py's index of each within the year is its place here plus one (its 0 is the 冬至 before).
TERM_NAMES = (
    "小寒", "大寒", "立春", "雨水", "惊蛰", "春分", "清明", "谷雨", "立夏", "小满", "芒种", "夏至",
    "小暑", "大暑", "立秋", "处暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至",
)  # fmt: skip


@lru_cache(maxsize=256)
def term_instant(year: int, name: str) -> datetime:
    """The instant (aware, UTC) of the 节气 `name` that falls in Gregorian `year`."""
    from tyme4py.solar import SolarTerm

    check_year(year)
    return _utc(SolarTerm.from_index(year, TERM_NAMES.index(name) + 1))


def on_term_day(moment: datetime, names: tuple[str, ...], day_start: int = 23) -> bool:
    """Whether an aware moment falls on the day of one of the 节气 `names`: the local date of the
    节气's instant, the day as the day pillar counts it (from 23:00 the next day's, 子初换日, with
    `day_start` 23)."""
    day = moment.date() + timedelta(days=1) if day_start == 23 and moment.hour == 23 else moment.date()
    return any(term_instant(day.year, n).astimezone(moment.tzinfo).date() == day for n in names)


def check_year(year: int) -> None:
    if not JIE_MIN_YEAR <= year <= JIE_MAX_YEAR:
        raise UnsupportedDateError(f"the 节 of year {year} are outside the calendar's range {JIE_MIN_YEAR}-{JIE_MAX_YEAR}", year)


@lru_cache(maxsize=512)
def _instants(year: int) -> tuple[datetime, ...]:
    return tuple(j.instant for j in jies(year))


def jie_position(utc: datetime) -> tuple[int, int]:
    """Where an aware moment falls among the 节: (a year, how many of its 节 have begun), from 0
    (before 小寒) to 12 (after 大雪). The year is the moment's UTC year, or the next one when the
    next year's 小寒 has begun (31 December, from 8873 on). The moment must already be in UTC."""
    year = utc.year
    i = bisect_right(_instants(year), utc)
    if i == 12 and year < JIE_MAX_YEAR and utc >= _instants(year + 1)[0]:
        return year + 1, bisect_right(_instants(year + 1), utc)
    return year, i


def jies_around(year: int, i: int) -> tuple[Jie, Jie]:
    """The 节 in force and the next one, at position `i` of `year` (see `jie_position`)."""
    current = jies(year)
    before = current[i - 1] if i > 0 else jies(year - 1)[-1]
    after = current[i] if i < 12 else jies(year + 1)[0]
    return before, after


def jie_at(moment: datetime) -> tuple[Jie, Jie]:
    """The 节 in force at an aware moment and the next one."""
    return jies_around(*jie_position(moment.astimezone(UTC)))


def lichun(year: int) -> datetime:
    """The 立春 instant of Gregorian `year` (UTC)."""
    return jies(year)[1].instant
