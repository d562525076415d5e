"""The four pillars (年月日时) of a moment, or as given by the user the way the book states them.

Conventions (DESIGN §1, each echoed in the output):
- the year changes at the 立春 instant, the month at each of the 12 节 instants, compared as
  absolute instants;
- the day changes at 23:00 local time (子初换日, ``day_start=23``); with ``day_start=0``
  (晚子时) 23:00–23:59 keeps the day's pillar and 旬空, while the 子 hour's stem still comes
  from the next day by 五鼠遁;
- hours are two-hour branches of the local wall clock (23–01 子, 01–03 丑 …).

A chart may also be cast from pillars alone ("卯建 戊寅日", or just "申日"): whatever is not
given is None, and the analysis skips what needs it.
"""

# No `from __future__ import annotations` here: typing.NamedTuple compiles each string field
# annotation at class creation, a cost every start of the program would pay.
import re
from bisect import bisect_right
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from math import floor
from typing import Any, NamedTuple

from yimao.errors import NotationError, UnsupportedDateError, closest, shown, small_int, too_long_to_be_a_name
from yimao.ganzhi import BRANCHES, CYCLE, Branch, GanZhi, Stem, hour_stem, month_stem
from yimao.solar_terms import MAX_YEAR, MIN_YEAR, Jie, _instants, jies_around

Pillar = GanZhi | Branch  # a full 干支, or a bare branch when that is all the user gave

_ORDINAL_JIAZI = date(2000, 1, 7).toordinal()  # 2000-01-07 was a 甲子 day
NEAR_JIE_SECONDS = 300
DAY_STARTS = (23, 0)
_new = tuple.__new__  # positional construction without NamedTuple's Python-level __new__


def branch_of(p: Pillar | None) -> Branch | None:
    if p is None:
        return None
    return p if isinstance(p, Branch) else p.branch


def stem_of(p: Pillar | None) -> Stem | None:
    return p.stem if isinstance(p, GanZhi) else None


class Lunar(NamedTuple):
    """The lunar date of the local civil day (from tyme4py): 丙午年 十月 廿四."""

    year: int
    year_ganzhi: str
    month: int
    leap: bool
    day: int
    month_name: str
    day_name: str

    def __str__(self) -> str:
        return f"{self.year_ganzhi}年{self.month_name}{self.day_name}"


class DateContext(NamedTuple):
    """What a moment adds beyond the pillars: the local moment, its 节, the lunar date, conventions."""

    moment: datetime
    day_start: int
    tz_name: str
    tz_source: str  # "offset" (in the date), "--tz", or "system"
    jie: Jie
    next_jie: Jie

    @property
    def lunar(self) -> Lunar | None:
        """The lunar date of the local civil day (computed when asked: a reading does not need it)."""
        return _lunar_of(self.moment.toordinal())

    @property
    def near_jie(self) -> tuple[Jie, float] | None:
        """The 节 within 5 minutes of the moment, with the signed distance in seconds."""
        moment = self.moment
        day = moment.toordinal()
        for j in (self.jie, self.next_jie):
            # Subtracting aware datetimes asks both zones for their offsets, which costs more
            # than the rest of a document's calendar, while comparing dates costs little. Each
            # date is its zone's, at most a day off the UTC date (offsets are under 24 h), so
            # instants 5 minutes apart are at most 3 days apart by their dates.
            if abs(day - j.instant.toordinal()) > 3:
                continue
            delta = (moment - j.instant).total_seconds()
            if abs(delta) < NEAR_JIE_SECONDS:
                return j, delta
        return None


class FourPillars(NamedTuple):
    """The four pillars; `context` (what a moment adds) takes no part in equality or hashing."""

    year: Pillar | None = None
    month: Pillar | None = None
    day: Pillar | None = None
    hour: Pillar | None = None
    context: DateContext | None = None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FourPillars):
            return self[:4] == other[:4]
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, FourPillars):
            return self[:4] != other[:4]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self[:4])

    @property
    def month_branch(self) -> Branch | None:
        return branch_of(self.month)

    @property
    def day_branch(self) -> Branch | None:
        return branch_of(self.day)

    @property
    def day_stem(self) -> Stem | None:
        return stem_of(self.day)

    @property
    def xunkong(self) -> tuple[Branch, Branch] | None:
        """旬空 of the day, or None when the day's stem is not known."""
        return self.day.xunkong if isinstance(self.day, GanZhi) else None

    @property
    def yuepo(self) -> Branch | None:
        """月破: the branch the month 冲."""
        mb = self.month_branch
        return mb.opposite if mb is not None else None

    def items(self) -> tuple[tuple[str, Pillar | None], ...]:
        return (("year", self.year), ("month", self.month), ("day", self.day), ("hour", self.hour))

    def __str__(self) -> str:
        return " ".join(f"{p}{suffix}" for (_, p), suffix in zip(self.items(), "年月日时") if p is not None)


# --- from a moment -------------------------------------------------------------------------


def check_day_start(day_start: int) -> None:
    if day_start not in DAY_STARTS:
        raise NotationError(f"day start must be 23 (子初换日) or 0 (晚子时), got {day_start}", day_start, ("23", "0"))


def check_unused(tz: str | None, day_start: int) -> None:
    """A zone and a day start with no moment to apply to (stated pillars, a star's whole table):
    of no use, but a wrong value is wrong all the same."""
    check_day_start(day_start)
    if tz is not None:
        parse_tz(tz)


def pillars_at(moment: datetime, day_start: int = 23, *, tz_name: str | None = None, tz_source: str = "offset") -> FourPillars:
    """The four pillars of an aware moment."""
    if moment.utcoffset() is None:  # naive (or a tzinfo that gives no offset)
        raise UnsupportedDateError(
            f"naive datetime {moment.isoformat()}: give a time zone, e.g. {moment.isoformat()}+08:00 or --tz Asia/Shanghai",
            moment.isoformat(),
        )
    check_day_start(day_start)
    utc = moment.astimezone(UTC)
    if not (MIN_YEAR <= utc.year <= MAX_YEAR and MIN_YEAR <= moment.year <= MAX_YEAR):
        raise UnsupportedDateError(f"{moment.isoformat()} is outside the supported range: years {MIN_YEAR}-{MAX_YEAR}", moment.isoformat())
    instants, entries = _year_table(utc.year)
    i = bisect_right(instants, utc)  # jie_position(utc)
    jie, next_jie, year, month = entries[i] or _month_pillars(utc.year, i)

    civil = moment.toordinal()
    # 23:00-23:59 is the next day's 子 hour: its stem always comes from the next day (五鼠遁);
    # the day pillar follows only when the day starts at 23:00
    stem_day = (civil + (moment.hour == 23) - _ORDINAL_JIAZI) % 60
    day = CYCLE[stem_day if day_start == 23 else (civil - _ORDINAL_JIAZI) % 60]
    # 五鼠遁 in the 60-cycle: the 子 hour of a 甲/己 day is 甲子 (0), of 乙/庚 丙子 (12), of 丙/辛
    # 戊子 (24), of 丁/壬 庚子 (36), of 戊/癸 壬子 (48); the other hours follow in order
    hour = CYCLE[stem_day % 5 * 12 + (moment.hour + 1) // 2 % 12]

    ctx = _new(DateContext, (moment, day_start, tz_name or _tz_label(moment), tz_source, jie, next_jie))
    return _new(FourPillars, (year, month, day, hour, ctx))


@lru_cache(maxsize=512)
def _year_table(year: int) -> tuple[tuple[datetime, ...], tuple[tuple[Jie, Jie, GanZhi, GanZhi] | None, ...]]:
    """The 节 instants of UTC `year`, and `_month_pillars(year, i)` for the positions among them.

    Built for the year at once (a run meets a hundred years, and a thousand positions): the
    positions between the year's own 节, 1-11; the two ends (before 小寒, after 大雪) need a
    neighbouring year's 节, and are left to `_month_pillars` (None here).
    """
    return _instants(year), (None, *(_month_pillars.__wrapped__(year, i) for i in range(1, 12)), None)


@lru_cache(maxsize=4096)
def _month_pillars(year: int, i: int) -> tuple[Jie, Jie, GanZhi, GanZhi]:
    """The 节 in force, the next 节, and the year and month pillars, at position `i` among the
    节 of UTC `year` (`solar_terms.jie_position`). Thirteen positions a year, so cached."""
    jie, next_jie = jies_around(year, i)
    # the year changes at 立春, the second 节 of the calendar year (after 小寒)
    pillar_year = year if i >= 2 else year - 1
    year_gz = GanZhi.from_index((pillar_year - 4) % 60)
    return jie, next_jie, year_gz, GanZhi.of(month_stem(year_gz.stem, jie.month), jie.month)


_LUNAR_DAY_NAMES = (
    "初一 初二 初三 初四 初五 初六 初七 初八 初九 初十 十一 十二 十三 十四 十五 "
    "十六 十七 十八 十九 二十 廿一 廿二 廿三 廿四 廿五 廿六 廿七 廿八 廿九 三十"
).split()


@lru_cache(maxsize=256)
def _lunar_months(lunar_year: int) -> tuple[tuple[int, int, bool, str, int], ...]:
    """The months of a lunar year: (ordinal of the first day, month, leap, name, days).

    Computing a lunar date costs tyme4py a millisecond or more; one table per lunar year makes
    every later date of that year a bisection, and 1900-2100 come precomputed.
    """
    from yimao.solar_terms import precomputed_entry

    rows = precomputed_entry("lunar", lunar_year)
    if rows is not None:
        return tuple((r[0], r[1], r[2], r[3], r[4]) for r in rows)
    return _lunar_months_tyme(lunar_year)


_JD_ORDINAL = 1721425  # Julian day number of proleptic Gregorian 0001-01-01 (ordinal 1) minus 1


def _lunar_months_tyme(lunar_year: int) -> tuple[tuple[int, int, bool, str, int], ...]:
    from tyme4py.lunar import LunarYear

    out = []
    for m in LunarYear.from_year(lunar_year).get_months():
        # through the Julian day, not tyme4py's y/m/d: before 1582-10-15 those are Julian-calendar
        # dates, while yimao (like ISO 8601 and Python) counts days in the proleptic Gregorian calendar
        first = floor(m.get_first_julian_day().get_day() + 0.5) - _JD_ORDINAL
        out.append((first, m.get_month(), m.is_leap(), m.get_name(), m.get_day_count()))
    return tuple(out)


def lunar_date(d: date) -> Lunar | None:
    """The lunar date of a civil day, or None outside tyme4py's range."""
    return _lunar_of(d.toordinal())


@lru_cache(maxsize=256)
def _lunar_year(lunar_year: int) -> tuple[tuple[int, ...], tuple[tuple[int, int, bool, str, int], ...], str]:
    """`_lunar_months(lunar_year)` with the first days of its months apart (to bisect), and the
    year's 干支."""
    months = _lunar_months(lunar_year)
    return tuple(m[0] for m in months), months, str(GanZhi.from_index((lunar_year - 4) % 60))


@lru_cache(maxsize=4096)
def _lunar_of(o: int) -> Lunar | None:
    d = date.fromordinal(o)
    try:
        for ly in (d.year, d.year - 1):
            firsts, months, year_ganzhi = _lunar_year(ly)
            if o < firsts[0]:
                continue
            i = bisect_right(firsts, o) - 1
            first, month, leap, name, days = months[i]
            if o - first < days:
                return _new(Lunar, (ly, year_ganzhi, month, leap, o - first + 1, name, _LUNAR_DAY_NAMES[o - first]))
    except Exception:  # tyme4py's range ends before ours at the extremes; the lunar date is then absent
        return None
    return None


def _tz_label(moment: datetime) -> str:
    key = getattr(moment.tzinfo, "key", None)  # zoneinfo
    return key or format_offset(moment.utcoffset())


@lru_cache(maxsize=256)  # a handful of distinct offsets; formatting one is slow by comparison
def format_offset(off: timedelta | None) -> str:
    total = int((off or timedelta()).total_seconds() // 60)
    sign = "+" if total >= 0 else "-"
    return f"{sign}{abs(total) // 60:02d}:{abs(total) % 60:02d}"


# --- parsing moments and zones --------------------------------------------------------------

_OFFSET = r"^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$"  # compiled by `re` when first used


@lru_cache(maxsize=256)  # a batch names a few zones on many lines
def parse_tz(text: str) -> tzinfo:
    """An IANA name (Asia/Shanghai), 'UTC', or an offset ±HH:MM."""
    t = text.strip()
    if t.upper() in ("UTC", "Z", "GMT"):
        return UTC
    m = re.match(_OFFSET, t, re.I)
    if m:
        sign, hh, mm = m.group(1), int(m.group(2)), int(m.group(3) or 0)
        if hh > 14 or mm > 59:
            raise NotationError(f"offset out of range: {text!r}", text, ("+08:00", "-05:00"))
        off = timedelta(hours=hh, minutes=mm)
        return timezone(-off if sign == "-" else off)
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(t)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise NotationError(
            f"unknown time zone: {text!r} (an IANA name like Asia/Shanghai, or an offset like +08:00)",
            text,
            _close_zones(t) or ("Asia/Shanghai", "+08:00", "UTC"),
        ) from None


@lru_cache(maxsize=256)  # a batch may repeat a misspelt zone on every line
def _close_zones(t: str) -> tuple[str, ...]:
    return tuple(closest(t, _zone_names(), 4, 0.5))  # none for a text too long to be a zone


@lru_cache(maxsize=1)
def _zone_names() -> tuple[str, ...]:
    """Every IANA zone name, sorted: listing them walks the tz database (~10 ms), once."""
    from zoneinfo import available_timezones

    return tuple(sorted(available_timezones()))


def _dateutil_may_read(t: str) -> bool:
    """False where dateutil's isoparse surely fails too: a text not opening with a year's four
    digits, or opening with a calendar date that does not exist (2026-02-30, 2026-13-01: the
    usual malformed date; what follows its year and month can be no ordinal nor week date)."""
    if not (len(t) >= 4 and t[:4].isdecimal() and t[:4].isascii()):
        return False
    if len(t) >= 10 and t[4] == "-" == t[7] and t[5:7].isdecimal() and t[8:10].isdecimal() and t[:10].isascii():
        try:
            date(int(t[:4]), int(t[5:7]), int(t[8:10]))
        except ValueError:
            return False
    return True


def parse_moment(text: str, tz: str | None = None) -> tuple[datetime, str, str]:
    """Parse an ISO 8601 date-time; return (aware moment, zone label, where the zone came from).

    An offset in the text wins; else `tz`; else the system's local zone. A date alone means 00:00.
    """
    raw = text
    t = text.strip()
    if not t.isascii():  # full-width digits and signs, as a Chinese input method types them
        import unicodedata

        t = unicodedata.normalize("NFKC", t)
    try:
        dt = datetime.fromisoformat(t)  # the common forms, without importing dateutil
    except ValueError:
        dt = None
        if _dateutil_may_read(t):  # else it can do no better, and importing it costs ~25 ms
            from dateutil import parser as dparser

            try:
                dt = dparser.isoparse(t)
            except (ValueError, OverflowError):
                pass
        if dt is None:
            raise NotationError(f"not an ISO 8601 date-time: {raw!r}", raw, ("2026-12-02T10:00+08:00", "2026-12-02 10:00", "2026-12-02")) from None
    if dt.tzinfo is not None:
        if tz is not None:
            parse_tz(tz)  # the offset wins, but a zone that does not exist is an error all the same
        return dt, format_offset(dt.utcoffset()), "offset"
    if tz is not None:
        zone = parse_tz(tz)
        aware = dt.replace(tzinfo=zone)
        return aware, getattr(zone, "key", None) or format_offset(aware.utcoffset()), "--tz"
    from dateutil import tz as dtz

    aware = dt.replace(tzinfo=dtz.tzlocal())  # the system zone, daylight saving included
    return aware, _system_zone_name() or format_offset(aware.utcoffset()), "system"


def _system_zone_name() -> str | None:
    import os

    name = os.environ.get("TZ")
    if name:
        return name.lstrip(":")
    try:
        link = os.path.realpath("/etc/localtime")
    except OSError:
        return None
    marker = "zoneinfo/"
    return link.split(marker, 1)[1] if marker in link else None


def now(tz: str | None = None) -> tuple[datetime, str, str]:
    """The current moment in `tz` or the system zone."""
    if tz is not None:
        zone = parse_tz(tz)
        moment = datetime.now(zone)
        return moment, getattr(zone, "key", None) or format_offset(moment.utcoffset()), "--tz"
    moment = datetime.now().astimezone()
    return moment, _system_zone_name() or format_offset(moment.utcoffset()), "system"


# --- pillars as the user gives them -----------------------------------------------------------

_MONTH_WORDS = {
    "正": 1,
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
    "十一": 11,
    "冬": 11,
    "十二": 12,
    "腊": 12,
    "臘": 12,
}


@lru_cache(maxsize=1024)  # a batch states the same pillars again and again
def parse_pillar(text: str, kind: str) -> Pillar:
    """Parse one pillar as the user gives it.

    year: 丙午 | 午 | 丙午年;  month: 卯 | 卯月 | 卯建 | 2 | 二月 | 己卯;  day: 戊寅 | 戊寅日 | 申 | 申日;
    hour: 午 | 午时 | 庚午.
    """
    raw = text
    t = text.strip()
    suffixes = {"year": "年", "month": "月建", "day": "日", "hour": "时時"}[kind]
    while t and t[-1] in suffixes:
        t = t[:-1]
    if not t:
        raise NotationError(f"empty {kind}: {_PILLAR_TAKES[kind]}", raw, _pillar_examples(kind))
    if kind == "month":
        if t.isdecimal():
            n = small_int(t, 2)
            if n is None or not 1 <= n <= 12:
                raise _bad_pillar(kind, raw, t, ())
            return Branch.from_month_number(n)
        if t in _MONTH_WORDS:
            return Branch.from_month_number(_MONTH_WORDS[t])
    if len(t) == 1:
        try:
            return Branch.parse(t)
        except NotationError:
            raise _bad_pillar(kind, raw, t, _pillar_examples(kind)) from None
    try:
        return GanZhi.parse(t)
    except NotationError as e:
        try:
            return Branch.parse(t)  # pinyin branch
        except NotationError:
            raise _bad_pillar(kind, raw, t, e.candidates or _pillar_examples(kind)) from None


_PILLAR_TAKES = {
    "year": "give a branch 午 or a 干支 丙午",
    "month": "give 1-12 (1 = 寅月 正月), 正 … 腊, a branch 卯 or a 干支 己卯",
    "day": "give a 干支 戊寅 or a branch 申",
    "hour": "give a branch 午 or a 干支 庚午",
}


def _bad_pillar(kind: str, raw: str, t: str, candidates: Any) -> NotationError:
    """The error for a pillar that is none, saying what the option takes, and, for what looks
    like a clock hour, a calendar year or a leap month, what to give instead."""
    if kind == "month":
        leap = "months run from 节 to 节, with no leap: " if t.startswith(("闰", "閏")) else ""
        return NotationError(
            f"{leap}month must be 1-12 (1 = 寅月 正月 … 12 = 丑月), 正 … 腊, a branch or a 干支, got {shown(raw)}", raw, ("1", "12", "寅", "丑")
        )
    n = small_int(t, 4)  # a clock hour or a calendar year, as some write them
    if n is not None and kind == "hour" and n <= 24:  # a clock hour: its 时辰 (23:00-00:59 子)
        branch = BRANCHES[(n + 1) // 2 % 12]
        return NotationError(
            f"--hour takes a 时辰 (branch or 干支), not a clock hour: {raw!r} o'clock falls in the {branch} hour", raw, (str(branch),)
        )
    if n is not None and kind == "year" and len(t) == 4 and MIN_YEAR <= n <= MAX_YEAR:  # a calendar year: its 干支 from its 立春
        gz = GanZhi.from_index((n - 4) % 60)
        return NotationError(
            f"--year takes a branch or 干支, not a calendar year: {raw!r} is {gz}年 from its 立春 (for a moment, give --date)",
            raw,
            (str(gz), str(gz.branch)),
        )
    if too_long_to_be_a_name(t):  # no 干支 to suggest: comparing it would cost time for nothing
        return NotationError(f"not {'an' if kind == 'hour' else 'a'} {kind} branch or 干支: {shown(raw)}; {_PILLAR_TAKES[kind]}", raw)
    return NotationError(f"not {'an' if kind == 'hour' else 'a'} {kind} branch or 干支: {shown(raw)}", raw, candidates)


def _pillar_examples(kind: str) -> tuple[str, ...]:
    return {
        "year": ("丙午", "午"),
        "month": ("卯", "卯月", "2", "己卯"),
        "day": ("戊寅", "戊寅日", "申"),
        "hour": ("午", "庚午"),
    }[kind]


def pillars_given(year: str | None = None, month: str | None = None, day: str | None = None, hour: str | None = None) -> FourPillars:
    """Pillars as stated by the user. A month branch gets its stem from a known year stem
    (五虎遁) and an hour branch from a known day stem (五鼠遁); a stated stem must agree."""
    # `is not None`: an empty value was given, and is wrong (a missing one is None)
    y = parse_pillar(year, "year") if year is not None else None
    m = parse_pillar(month, "month") if month is not None else None
    d = parse_pillar(day, "day") if day is not None else None
    h = parse_pillar(hour, "hour") if hour is not None else None
    ys, ds = stem_of(y), stem_of(d)
    if m is not None and ys is not None:
        expected = GanZhi.of(month_stem(ys, branch_of(m)), branch_of(m))
        if isinstance(m, GanZhi) and m != expected:
            raise NotationError(f"month {m} does not belong to year {y}: by 五虎遁 its {m.branch} month is {expected}", str(m), (str(expected),))
        m = expected
    if h is not None and ds is not None:
        expected = GanZhi.of(hour_stem(ds, branch_of(h)), branch_of(h))
        if isinstance(h, GanZhi) and h != expected:
            raise NotationError(f"hour {h} does not belong to day {d}: by 五鼠遁 its {h.branch} hour is {expected}", str(h), (str(expected),))
        h = expected
    return FourPillars(y, m, d, h)
