"""The four pillars (年月日时) of a moment, or as given by the user the way the book states them.

Conventions (docs/conventions.md, each echoed in the output):
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
from typing import Any, NamedTuple, overload

from yimao.errors import NotationError, UnsupportedDateError, closest, shown, small_int, too_long_to_be_a_name
from yimao.ganzhi import BRANCHES, CYCLE, Branch, GanZhi, Stem, hour_stem, month_stem
from yimao.solar_terms import MAX_YEAR, MIN_YEAR, Jie, _instants, jie_position, jies_around

Pillar = GanZhi | Branch  # a full 干支, or a bare branch when that is all the user gave

_ORDINAL_JIAZI = date(2000, 1, 7).toordinal()  # 2000-01-07 was a 甲子 day
NEAR_JIE_SECONDS = 300
DAY_STARTS = (23, 0)
_new = tuple.__new__  # positional construction without NamedTuple's Python-level __new__


@overload
def branch_of(p: Pillar) -> Branch: ...
@overload
def branch_of(p: None) -> None: ...
@overload
def branch_of(p: Pillar | None) -> Branch | None: ...
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
    notes: tuple[str, ...] = ()  # how the moment was read, where the user should know (warnings on stderr)

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


def pillars_at(
    moment: datetime, day_start: int = 23, *, tz_name: str | None = None, tz_source: str = "offset", notes: tuple[str, ...] = ()
) -> FourPillars:
    """The four pillars of an aware moment (its local date within the supported range)."""
    if moment.utcoffset() is None:  # naive (or a tzinfo that gives no offset)
        raise UnsupportedDateError(
            f"naive datetime {moment.isoformat()}: give a time zone, e.g. {moment.isoformat()}+08:00 or --tz Asia/Shanghai",
            moment.isoformat(),
        )
    check_day_start(day_start)
    # the local date first: its UTC date is up to a day away, beyond datetime's range at the ends
    if not MIN_YEAR <= moment.year <= MAX_YEAR:
        raise UnsupportedDateError(f"{moment.isoformat()} is outside the supported range: {RANGE_TEXT}", moment.isoformat())
    utc = moment.astimezone(UTC)
    instants, entries = _year_table(utc.year)
    # jie_position(utc), whose ends (before the year's first 节, after its last) may belong to a
    # neighbouring year: left to it
    jie, next_jie, year, month = entries[bisect_right(instants, utc)] or _month_pillars(*jie_position(utc))

    civil = moment.toordinal()
    # 23:00-23:59 is the next day's 子 hour: its stem always comes from the next day (五鼠遁);
    # the day pillar follows only when the day starts at 23:00
    stem_day = (civil + (moment.hour == 23) - _ORDINAL_JIAZI) % 60
    day = CYCLE[stem_day if day_start == 23 else (civil - _ORDINAL_JIAZI) % 60]
    # 五鼠遁 in the 60-cycle: the 子 hour of a 甲/己 day is 甲子 (0), of 乙/庚 丙子 (12), of 丙/辛
    # 戊子 (24), of 丁/壬 庚子 (36), of 戊/癸 壬子 (48); the other hours follow in order
    hour = CYCLE[stem_day % 5 * 12 + (moment.hour + 1) // 2 % 12]

    ctx = _new(DateContext, (moment, day_start, tz_name or _tz_label(moment), tz_source, jie, next_jie, notes))
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
MAX_OFFSET_HOURS = 14  # the furthest any zone is from UTC (Pacific/Kiritimati, +14:00)
RANGE_TEXT = f"local dates from {MIN_YEAR:04d}-01-01 to {MAX_YEAR:04d}-12-31"


def _fixed_offset(sign: str, hh: int, mm: int, text: str) -> timezone:
    if mm > 59 or hh * 60 + mm > MAX_OFFSET_HOURS * 60:
        raise NotationError(f"offset out of range: {shown(text)} (zones lie within ±{MAX_OFFSET_HOURS}:00 of UTC)", text, ("+08:00", "-05:00"))
    off = timedelta(hours=hh, minutes=mm)
    return timezone(-off if sign == "-" else off)


@lru_cache(maxsize=256)  # a batch names a few zones on many lines
def parse_tz(text: str) -> tzinfo:
    """An IANA name (Asia/Shanghai), 'UTC', or an offset ±HH:MM."""
    t = text.strip()
    if not t.isascii():
        t = t.translate(_full_width())
    if t.upper() in ("UTC", "Z", "GMT"):
        return UTC
    m = re.match(_OFFSET, t, re.I | re.A)
    if m:
        return _fixed_offset(m.group(1), int(m.group(2)), int(m.group(3) or 0), text)
    zone = _zone_key(t)
    if zone is None:
        raise NotationError(
            f"unknown time zone: {shown(text)} (an IANA name like Asia/Shanghai, or an offset like +08:00)",
            text,
            _close_zones(t) or ("Asia/Shanghai", "+08:00", "UTC"),
        )
    return zone


def _zone_key(name: str) -> tzinfo | None:
    """The IANA zone `name`, or None."""
    from zoneinfo import ZoneInfo

    try:
        return ZoneInfo(name)
    except (LookupError, ValueError, OSError):  # unknown, malformed (a path, a NUL), or a directory
        return None


@lru_cache(maxsize=256)  # a batch may repeat a misspelt zone on every line
def _close_zones(t: str) -> tuple[str, ...]:
    return tuple(closest(t, _zone_names(), 4, 0.5))  # none for a text too long to be a zone


@lru_cache(maxsize=1)
def _zone_names() -> tuple[str, ...]:
    """Every IANA zone name, sorted: listing them walks the tz database (~10 ms), once."""
    from zoneinfo import available_timezones

    return tuple(sorted(available_timezones()))


# --- the system's zone


def system_zone() -> tuple[tzinfo, str | None, tuple[str, ...]]:
    """The system's time zone, its name in the output (None: name it by the moment's offset), and
    what to warn of. TZ as the C library reads it (an IANA name, a zone file, a POSIX TZ string;
    empty is UTC), else /etc/localtime, else UTC; a TZ that is none of those is UTC, said so."""
    import os

    return _system_zone(os.environ.get("TZ"))


@lru_cache(maxsize=8)
def _system_zone(env: str | None) -> tuple[tzinfo, str | None, tuple[str, ...]]:
    if env is None:
        found = _zone_file("/etc/localtime")
        return (UTC, "UTC", ()) if found is None else (*found, ())
    name = env[1:] if env.startswith(":") else env
    if not name:
        return UTC, "UTC", ()
    if name.startswith("/"):
        found = _zone_file(name)
    else:
        zone = _zone_key(name)
        found = (zone, name) if zone is not None else _posix_zone(name)
    if found is not None:
        return (*found, ())
    return (
        UTC,
        "UTC",
        (
            f"the system time zone TZ={shown(env)} is none yimao knows (an IANA name like Asia/Shanghai, "
            "a POSIX TZ string like CST-8, or give --tz): times are read in UTC",
        ),
    )


def _zone_file(path: str) -> tuple[tzinfo, str | None] | None:
    """The zone of a TZif file, named by its IANA key when it is a link into the tz database."""
    import os

    if "\0" in path:  # no file has such a name (and os.path refuses it with a ValueError)
        return None

    real = os.path.realpath(path)
    if "/zoneinfo/" in real:
        key = real.split("/zoneinfo/", 1)[1]
        zone = _zone_key(key)
        if zone is not None:
            return zone, key
    from zoneinfo import ZoneInfo

    try:
        with open(path, "rb") as f:
            return ZoneInfo.from_file(f), None
    except (OSError, ValueError):
        return None


def _posix_zone(text: str) -> tuple[tzinfo, str] | None:
    """A POSIX TZ string (CST-8, <+08>-8, EST5EDT,M3.2.0,M11.1.0) as a zone, or None.

    zoneinfo reads such a string as the rule of a TZif file after its last transition: a file
    with no transitions and this rule is the zone, read by the same code as every other zone."""
    if not (text.isascii() and text.isprintable()) or len(text) > 64:
        return None
    import io
    import struct
    from zoneinfo import ZoneInfo

    # header: magic, version, 15 reserved bytes, then the counts of UT/local flags, standard/wall
    # flags, leap seconds, transitions, local time types (1: UTC) and designation bytes ("UTC\0")
    block = b"TZif2" + bytes(15) + struct.pack(">6l", 0, 0, 0, 0, 1, 4) + struct.pack(">lBB", 0, 0, 0) + b"UTC\0"
    try:
        return ZoneInfo.from_file(io.BytesIO(block + block + b"\n" + text.encode() + b"\n"), key=text), text
    except ValueError:
        return None


# --- moments


class ParsedMoment(NamedTuple):
    moment: datetime  # aware
    label: str  # the zone as the output names it
    source: str  # "offset" (in the date), "--tz", or "system"
    notes: tuple[str, ...] = ()  # how it was read, where the user should know (warnings)


# What --date reads (README, "Pillars"): each form whole, so that no digit is lost or guessed
# at. ISO 8601 extended (2026-12-02T10:00:00.5+08:00, 2026-12-02 10:00, 2026-12-02), basic
# (20261202T1000+0800, 20261202), and the Chinese forms (2026年12月2日 10:00, 2026年12月2日10时30分,
# 2026-12-02 10点). Digits are ASCII (full-width forms are mapped to theirs first).
_TIME_ISO = r"(?P<h>\d\d):(?P<mi>\d\d)(?::(?P<s>\d\d)(?:[.,](?P<f>\d{1,9}))?)?"
_TIME_ZH = r"(?P<h>\d{1,2})[时時点點](?:(?P<mi>半|\d{1,2})(?:(?<=\d)分(?:(?P<s>\d{1,2})秒)?)?)?"
_ZONE = r"(?:\s*(?P<zone>[Zz]|[+-]\d\d(?::?\d\d)?))?"
_DATE_ISO = r"(?P<y>\d{4})-(?P<mo>\d\d)-(?P<d>\d\d)"
_DATE_ZH = r"(?P<y>\d{4})年(?P<mo>\d{1,2})月(?P<d>\d{1,2})[日号號]"
_MOMENT_FORMS = (
    rf"{_DATE_ISO}(?:(?:[Tt]|\s+){_TIME_ISO}{_ZONE})?",
    rf"(?P<y>\d{{4}})(?P<mo>\d\d)(?P<d>\d\d)(?:[Tt](?P<h>\d\d)(?P<mi>\d\d)(?:(?P<s>\d\d)(?:[.,](?P<f>\d{{1,9}}))?)?{_ZONE})?",
    rf"{_DATE_ISO}\s+{_TIME_ZH}{_ZONE}",
    rf"{_DATE_ZH}(?:\s*{_TIME_ISO}{_ZONE})?",
    rf"{_DATE_ZH}\s*{_TIME_ZH}{_ZONE}",
)
FORMS_TEXT = (
    "give ISO 8601 as 2026-12-02T10:00+08:00, 2026-12-02 10:00, 2026-12-02 or 20261202T1000, "
    "or 2026年12月2日 10:00, 2026年12月2日10时30分 (seconds, and an offset Z, +08:00 or +0800, optional)"
)


# The usual forms, a subset of the first: for these datetime.fromisoformat reads the same values
# as the general path, in a quarter of its time (a batch reads a date on every line).
_USUAL = r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?(?:Z|[+-]\d\d:[0-5]\d)?"  # (fromisoformat takes +08:60 as +09:00)
_MAX_OFFSET = timedelta(hours=MAX_OFFSET_HOURS)


@lru_cache(maxsize=1)
def _usual_pattern() -> re.Pattern[str]:
    return re.compile(_USUAL, re.ASCII)


@lru_cache(maxsize=1)
def _form_patterns() -> tuple[re.Pattern[str], ...]:
    """Compiled when first needed: compiling them costs a command some 13 M instructions (4 %)."""
    return tuple(re.compile(form, re.ASCII) for form in _MOMENT_FORMS)


@lru_cache(maxsize=1)
def _full_width() -> dict[int, int]:
    """Full-width ASCII (as a Chinese input method types digits and signs) to ASCII."""
    return {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def parse_moment(text: str, tz: str | None = None) -> ParsedMoment:
    """Read a date-time in one of the forms above: the moment, its zone's name and where the zone
    came from. An offset in the text wins; else `tz`; else the system zone. A date alone is 00:00.
    A wall time that its zone skips or repeats is read with the offset before the change (fold=0),
    and said in `notes`."""
    t = text.strip()
    if not t.isascii():
        t = t.translate(_full_width())
    if _usual_pattern().fullmatch(t):
        usual = _parse_usual(t, tz)
        if usual is not None:
            return usual
    g = _form_groups(t, text)
    y = int(g["y"])
    if not MIN_YEAR <= y <= MAX_YEAR:
        raise UnsupportedDateError(f"{shown(text)} is outside the supported range: {RANGE_TEXT}", text)
    written = g["zone"]
    offset, offset_label = (None, "") if written is None else _OFFSETS.get(written) or _offset_in(written, text)
    dt = _wall_time(y, g, offset, text)
    if offset is not None:
        if tz is not None:
            parse_tz(tz)  # the offset wins, but a zone that does not exist is an error all the same
        return _new(ParsedMoment, (dt, offset_label, "offset", ()))
    return _in_zone(dt, tz)


def _parse_usual(t: str, tz: str | None) -> ParsedMoment | None:
    """The ISO forms most dates are given in, read by `datetime.fromisoformat`; None for what it
    cannot read, or reads outside the range, for the general reading to explain."""
    try:
        dt = datetime.fromisoformat(t)
    except ValueError:  # no such day or time: said by the general reading
        return None
    off = dt.utcoffset()
    if MIN_YEAR <= dt.year <= MAX_YEAR and (off is None or -_MAX_OFFSET <= off <= _MAX_OFFSET):
        return _in_zone(dt, tz) if off is None else _new(ParsedMoment, (dt, _offset_label(off, tz), "offset", ()))
    return None


def _form_groups(t: str, text: str) -> dict[str, Any]:
    """The fields of the first documented form `t` matches (y, mo, d, h, mi, s, f, zone)."""
    for pattern in _form_patterns():
        m = pattern.fullmatch(t)
        if m is not None:
            return m.groupdict()
    raise NotationError(f"not a date-time: {shown(text)}; {FORMS_TEXT}", text)


def _wall_time(y: int, g: dict[str, Any], offset: tzinfo | None, text: str) -> datetime:
    """The date and time of a form's fields, to the microsecond; a day or time that does not exist
    (month 13, 30 February, hour 24 …) is bad input."""
    h, mi, s, f = g["h"], g["mi"], g["s"], g.get("f")
    try:
        return datetime(
            y,
            int(g["mo"]),
            int(g["d"]),
            int(h) if h else 0,
            (30 if mi == "半" else int(mi)) if mi else 0,
            int(s) if s else 0,
            int(f[:6].ljust(6, "0")) if f else 0,  # to the microsecond
            offset,
        )
    except ValueError as e:
        raise NotationError(f"not a date-time: {shown(text)} ({e})", text) from None


def _offset_label(off: timedelta, tz: str | None) -> str:
    if tz is not None:
        parse_tz(tz)  # the offset wins, but a zone that does not exist is an error all the same
    return format_offset(off)


def _in_zone(dt: datetime, tz: str | None) -> ParsedMoment:
    """A naive wall time in --tz `tz` or else the system zone."""
    notes: tuple[str, ...] = ()
    if tz is not None:
        zone = parse_tz(tz)
        label, source = getattr(zone, "key", None), "--tz"
    else:
        zone, label, notes = system_zone()
        source = "system"
    moment, wall = on_wall_clock(dt, zone, label)
    return _new(ParsedMoment, (moment, label or format_offset(moment.utcoffset()), source, notes + wall))


_OFFSETS: dict[str, tuple[tzinfo | None, str]] = {}  # offsets as written (+08:00), read: a run meets a few


def _offset_in(o: str, text: str) -> tuple[tzinfo | None, str]:
    """The zone and label of an offset as a date gives it (Z, +08:00, +0800, +08)."""
    if o in ("Z", "z"):
        zone: tzinfo = UTC
    else:
        zone = _fixed_offset(o[0], int(o[1:3]), int(o[-2:]) if len(o) > 3 else 0, text)
    _OFFSETS[o] = found = zone, format_offset(zone.utcoffset(None))
    return found


def on_wall_clock(dt: datetime, zone: tzinfo, label: str | None = None) -> tuple[datetime, tuple[str, ...]]:
    """A naive wall time in `zone`, and what to say of it: a time the zone's clocks skip (put
    forward) is read with the offset before the change, i.e. as the wall clock then shows it (02:30
    as 03:30); a time they show twice (put back) is the first. Both as fold=0 reads them (PEP 495)."""
    first = dt.replace(tzinfo=zone)
    before, after = first.utcoffset(), dt.replace(tzinfo=zone, fold=1).utcoffset()
    if before == after or before is None or after is None:
        return first, ()
    early = (dt - before).replace(tzinfo=UTC).astimezone(zone)  # the reading with the offset before the change
    late = (dt - after).replace(tzinfo=UTC).astimezone(zone)  # and with the offset after it
    where = label or "the system zone"
    wall = _iso(dt, " ")
    if early.replace(tzinfo=None) == dt:
        note = f"{wall} happens twice in {where} (the clocks are put back): read as the first, {_iso(early)} ({_utc(early)}); the second is {_iso(late)} ({_utc(late)})"
    else:
        note = (
            f"{wall} does not exist in {where} (the clocks are put forward): read with the offset before the change, "
            f"{format_offset(before)}, as {_iso(early)} ({_utc(early)}); with the offset after it, {format_offset(after)}, "
            f"it would be {_iso(late)} ({_utc(late)})"
        )
    return early, (note,)


def _iso(moment: datetime, sep: str = "T") -> str:
    return moment.isoformat(sep, "seconds" if moment.second or moment.microsecond else "minutes")


def _utc(moment: datetime) -> str:
    return _iso(moment.astimezone(UTC).replace(tzinfo=None), " ") + " UTC"


def now(tz: str | None = None) -> ParsedMoment:
    """The current moment in `tz` or the system zone."""
    if tz is not None:
        zone = parse_tz(tz)
        moment = datetime.now(zone)
        return ParsedMoment(moment, getattr(zone, "key", None) or format_offset(moment.utcoffset()), "--tz")
    zone, label, notes = system_zone()
    moment = datetime.now(zone)
    return ParsedMoment(moment, label or format_offset(moment.utcoffset()), "system", notes)


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
