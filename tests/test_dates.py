"""Reading a moment: the date forms --date takes (and nothing else), the supported range at both
ends in any zone, wall times a zone skips or repeats, and the system zone from TZ.

The grammar is checked against a reference written another way (token by token, in `reference`),
over the documented forms, their near misses and random strings; the zone readings against
transitions found by scanning each zone's offsets hour by hour.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from yimao.batch import run as run_batch
from yimao.errors import NotationError, UnsupportedDateError, YimaoError
from yimao.pillars import _posix_zone, _system_zone, on_wall_clock, parse_moment, parse_tz, pillars_at, system_zone
from yimao.pipeline import resolve_pillars

CST = timezone(timedelta(hours=8))


def fast(n: int) -> settings:
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- the reference grammar: README, "Pillars", read token by token -----------------------------

_SPACE = " \t\n\r\f\v"
_FULL = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def _tokens(t: str) -> list[str]:
    """Digit runs, runs of (ASCII) white space, and single other characters."""
    out: list[str] = []
    for c in t:
        kind = "d" if c in "0123456789" else "s" if c in _SPACE else "c"
        if out and kind != "c" and out[-1][0] in ("0123456789" if kind == "d" else _SPACE):
            out[-1] += c
        else:
            out.append(c)
    return out


def _digits(tok: str | None, *lengths: int) -> bool:
    return tok is not None and tok.isdigit() and tok.isascii() and len(tok) in lengths


class _Refused(Exception):
    pass


def reference(text: str) -> tuple[tuple[int, ...], tuple[int, int, int] | None] | None:
    """(year, month, day, hour, minute, second, microsecond) and the offset (sign, hours,
    minutes), as the documented grammar reads `text`, or None where it does not (the values
    themselves are not checked)."""
    toks = _tokens(text.strip().translate(_FULL))
    pos = 0

    def peek(k: int = 0) -> str | None:
        return toks[pos + k] if pos + k < len(toks) else None

    def take(n: int = 1) -> list[str]:
        nonlocal pos
        pos += n
        return toks[pos - n : pos]

    def iso_time() -> list[int]:
        if not (_digits(peek(), 2) and peek(1) == ":" and _digits(peek(2), 2)):
            raise _Refused
        h, _, mi = take(3)
        s, us = 0, 0
        if peek() == ":":
            if not _digits(peek(1), 2):
                raise _Refused
            s = int(take(2)[1])
            if peek() in (".", ","):
                if not _digits(peek(1), *range(1, 10)):
                    raise _Refused
                us = int(take(2)[1][:6].ljust(6, "0"))
        return [int(h), int(mi), s, us]

    def zh_time() -> list[int]:
        if not (_digits(peek(), 1, 2) and peek(1) in ("时", "時", "点", "點")):
            raise _Refused
        h = int(take(2)[0])
        if peek() == "半":
            take()
            return [h, 30, 0, 0]
        if not _digits(peek(), 1, 2):
            return [h, 0, 0, 0]
        mi = int(take()[0])
        if peek() != "分":
            return [h, mi, 0, 0]
        take()
        if _digits(peek(), 1, 2) and peek(1) == "秒":
            return [h, mi, int(take(2)[0]), 0]
        return [h, mi, 0, 0]

    def offset() -> tuple[int, int, int] | None:
        if peek() is not None and peek()[0] in _SPACE:
            take()
        tok = peek()
        if tok is None:
            return None
        if tok in ("Z", "z"):
            take()
            return 1, 0, 0
        if tok not in ("+", "-"):
            raise _Refused
        sign = -1 if take()[0] == "-" else 1
        if _digits(peek(), 2) and peek(1) == ":" and _digits(peek(2), 2):
            hh, _, mm = take(3)
        elif _digits(peek(), 4):
            hh, mm = peek()[:2], take()[0][2:]
        elif _digits(peek(), 2):
            hh, mm = take()[0], "0"
        else:
            raise _Refused
        return sign, int(hh), int(mm)

    try:
        first = peek()
        if _digits(first, 4) and peek(1) == "-":  # 2026-12-02
            if not (_digits(peek(2), 2) and peek(3) == "-" and _digits(peek(4), 2)):
                raise _Refused
            y, _, mo, _, d = take(5)
            kind = "iso"
        elif _digits(first, 8):  # 20261202
            y, mo, d = first[:4], first[4:6], take()[0][6:]
            kind = "basic"
        elif _digits(first, 4) and peek(1) == "年":  # 2026年12月2日
            if not (_digits(peek(2), 1, 2) and peek(3) == "月" and _digits(peek(4), 1, 2) and peek(5) in ("日", "号", "號")):
                raise _Refused
            y, _, mo, _, d, _ = take(6)
            kind = "zh"
        else:
            raise _Refused
        date = [int(y), int(mo), int(d)]
        if peek() is None:
            return (*date, 0, 0, 0, 0), None
        if kind == "basic":
            if peek() not in ("T", "t"):
                raise _Refused
            take()
            tok = peek()
            if _digits(tok, 4):
                time = [int(tok[:2]), int(tok[2:]), 0, 0]
                take()
            elif _digits(tok, 6):
                time = [int(tok[:2]), int(tok[2:4]), int(tok[4:]), 0]
                take()
                if peek() in (".", ","):
                    if not _digits(peek(1), *range(1, 10)):
                        raise _Refused
                    time[3] = int(take(2)[1][:6].ljust(6, "0"))
            else:
                raise _Refused
        else:
            sep = take()[0] if peek() in ("T", "t") or peek()[0] in _SPACE else ""
            if kind == "iso" and not sep:
                raise _Refused
            if kind == "zh" and sep in ("T", "t"):
                raise _Refused
            start = pos
            try:
                time = iso_time()
            except _Refused:
                if sep in ("T", "t"):
                    raise
                pos = start
                time = zh_time()
        off = offset()
        if peek() is not None:
            raise _Refused
        return (*date, *time), off
    except _Refused:
        return None


def read_as_reference(text: str) -> datetime | None:
    """The moment `reference` reads, with the zone +08:00 where it gives none, or None where the
    values are no date-time, out of range or too far from UTC."""
    got = reference(text)
    if got is None:
        return None
    fields, off = got
    if not 2 <= fields[0] <= 9998:
        return None
    if off is not None:
        sign, hh, mm = off
        if mm > 59 or hh * 60 + mm > 14 * 60:
            return None
    try:
        naive = datetime(*fields)
    except ValueError:
        return None
    return naive.replace(tzinfo=CST if off is None else timezone(off[0] * timedelta(hours=off[1], minutes=off[2])))


def parse_or_none(text: str) -> datetime | None:
    try:
        return parse_moment(text, tz="+08:00").moment
    except (NotationError, UnsupportedDateError) as e:
        message = str(e)
        assert message.isprintable() and len(message) < 400, message  # no control character, no pasted megabyte
        return None


def same(a: datetime | None, b: datetime | None) -> bool:
    """The same instant, wall clock and offset. (== on aware datetimes compares instants only, and
    says False for a repeated wall time in another zone (PEP 495): a difference is compared.)"""
    if a is None or b is None:
        return a is b
    return a - b == timedelta(0) and a.replace(tzinfo=None) == b.replace(tzinfo=None) and a.utcoffset() == b.utcoffset()


# --- the forms that are read ----------------------------------------------------------------

E = datetime(2026, 12, 2, 10, 0, tzinfo=CST)


@pytest.mark.parametrize(
    "text, want",
    [
        ("2026-12-02T10:00+08:00", E),
        ("2026-12-02T10:00", E),  # the zone: --tz +08:00 here
        ("2026-12-02 10:00", E),
        ("2026-12-02t10:00", E),
        ("2026-12-02   10:00", E),
        ("2026-12-02T10:00:00+0800", E),
        ("2026-12-02T10:00+08", E),
        ("2026-12-02 10:00 +08:00", E),
        ("2026-12-02T02:00Z", E.astimezone(UTC)),
        ("2026-12-02T02:00z", E.astimezone(UTC)),
        ("2026-12-01T21:00-05:00", E.astimezone(timezone(-timedelta(hours=5)))),
        ("2026-12-02T10:00:30", E + timedelta(seconds=30)),
        ("2026-12-02T10:00:30.5", E + timedelta(seconds=30.5)),
        ("2026-12-02T10:00:30,25", E + timedelta(seconds=30.25)),
        ("2026-12-02T10:00:30.123456789Z", datetime(2026, 12, 2, 10, 0, 30, 123456, tzinfo=UTC)),  # to the microsecond
        ("2026-12-02", E.replace(hour=0)),
        ("20261202T1000", E),
        ("20261202T100000+0800", E),
        ("20261202T0200Z", E.astimezone(UTC)),
        ("20261202", E.replace(hour=0)),
        ("2026年12月2日 10:00", E),
        ("2026年12月02日10:00", E),
        ("2026年12月2日", E.replace(hour=0)),
        ("2026年12月2号 10:00", E),
        ("2026年12月2日10时", E),
        ("2026年12月2日10时30分", E + timedelta(minutes=30)),
        ("2026年12月2日 10時30分15秒", E + timedelta(minutes=30, seconds=15)),
        ("2026年12月2日10点半", E + timedelta(minutes=30)),
        ("2026年12月2日10点30", E + timedelta(minutes=30)),
        ("2026年12月2日9点", E - timedelta(hours=1)),
        ("2026-12-02 10点", E),
        ("2026-12-02 10點5分", E + timedelta(minutes=5)),
        ("2026年12月2日10时+08:00", E),
        ("２０２６－１２－０２ １０：００", E),
        ("２０２６－１２－０２Ｔ１０：００＋０８：００", E),
        ("２０２６年１２月２日　１０时", E),
        ("  2026-12-02T10:00  ", E),
    ],
)
def test_the_documented_forms(text, want):
    assert same(parse_moment(text, tz="+08:00").moment, want)
    assert same(read_as_reference(text), want)  # the reference agrees, or it proves nothing below


# --- and nothing else -----------------------------------------------------------------------

MALFORMED = [
    "202612021000000000000000000",  # a digit run: never cut where it might end
    "111111111111111",
    "1" * 131_000,
    "2026120",
    "202612021",
    "2026120210",
    "202612021000",
    "2026-12-02110:00",  # a separator missing
    "2026-12-0210:00",
    "2026-12-02T1000",  # extended and basic mixed
    "20261202T10:00",
    "20261202 1000",
    "2026-1202",
    "202612-02",
    "2026-12-2",  # ISO takes two digits
    "2026-1-02",
    "2026-12-02T9:00",
    "2026-12-02T10",
    "2026-12-02T10:0",
    "2026-12-02T10:00:0",
    "2026-12-02T10:00:00.",
    "2026-12-02T10:00:00.1234567890",
    "2026-12-02T10:00+8",
    "2026-12-02T10:00+080",
    "2026-12-02T10:00+08:0",
    "2026-12-02+08:00",  # an offset belongs to a time
    "2026-12-02Z",
    "2026-12-02T10:00Z+08:00",
    "2026-12-02TT10:00",
    "2026-12-02T 10:00",
    "2026-12-02T10点",
    "2026-12-0210点",
    "2026",
    "2026-12",
    "2026-336",
    "2026336T1000",
    "2026-W49-3",
    "2026W493",
    "26-12-02",
    "02026-12-02",
    "99999-01-01",
    "1-1-1",
    "2026/12/02",
    "2026.12.02",
    "12:00",
    "10:00 2026-12-02",
    "2026-12-02 10:00 Asia/Shanghai",
    "2026-12-02T10:00:00.5:00",
    "2026年12月2 10:00",
    "2026年12月2日10",
    "2026年123月2日",
    "2026年12月2日100时",
    "2026年12月2日10时300分",
    "2026年12月2日10时30分15",
    "2026年12月2日T10:00",
    "二〇二六年十二月二日",
    "2026-12-02 10:00\x1b[31m",
    "٢٠٢٦-١٢-٠٢",  # digits of another script
    "2026-12-02\u200b10:00",
    "",
    "yesterday",
    "now",
]


@pytest.mark.parametrize("text", MALFORMED)
def test_everything_else_is_refused(text):
    assert reference(text) is None
    with pytest.raises(NotationError) as e:
        parse_moment(text, tz="+08:00")
    message = str(e.value)
    assert "2026-12-02T10:00+08:00" in message and "20261202T1000" in message and "2026年12月2日" in message  # the forms, named
    assert message.isprintable() and len(message) < 400


@pytest.mark.parametrize(
    "text, said",
    [
        ("2026-13-01", "month must be in 1..12"),
        ("2026-02-30T10:00", "day is out of range"),
        ("2026-12-02T24:00", "hour must be in 0..23"),
        ("2026-12-02T10:60", "minute must be in 0..59"),
        ("2026-12-02T10:00:60", "second must be in 0..59"),
        ("20261302T1000", "month must be in 1..12"),
        ("2026年2月30日", "day is out of range"),
        ("2026年12月2日25点", "hour must be in 0..23"),
        ("0000-01-01", "outside the supported range"),
        ("2026-12-02T10:00+15:00", "offset out of range"),
        ("2026-12-02T10:00-14:30", "offset out of range"),
        ("2026-12-02T10:00+08:60", "offset out of range"),
    ],
)
def test_a_form_with_values_that_are_no_moment_says_which(text, said):
    with pytest.raises(YimaoError) as e:
        parse_moment(text, tz="+08:00")
    assert said in str(e.value) and repr(text) in str(e.value)
    assert read_as_reference(text) is None


def test_a_bad_value_is_quoted_escaped_and_short():
    with pytest.raises(NotationError) as e:
        parse_moment("\x1b[31m" + "9" * 5000)
    message = str(e.value)
    assert "\x1b" not in message and "\\x1b" in message and "5,005 characters" in message and len(message) < 400


# random strings: refused, or read exactly as the grammar reads them

DIGIT_RUNS = st.integers(1, 40).flatmap(lambda n: st.text("0123456789", min_size=n, max_size=n))
PIECES = st.one_of(
    DIGIT_RUNS,
    st.sampled_from(["2026", "12", "02", "10", "00", "30", "1", "9", "0000", "9998", "0002", "20261202", "1000", "100030", "24"]),
    st.sampled_from(["-", "-", ":", ":", "T", "t", " ", "  ", ".", ",", "Z", "+", "+08:00", "-05:00", "+0800", "/", "\t"]),
    st.sampled_from(["年", "月", "日", "号", "时", "時", "点", "分", "秒", "半", "－", "：", "１", "２", "　", "\x00", "\u3000"]),
)


@fast(600)
@given(st.lists(PIECES, max_size=10).map("".join))
def test_random_strings_are_refused_or_read_as_the_grammar_reads_them(text):
    assert same(parse_or_none(text), read_as_reference(text)), text


FORMS = [
    "{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}",
    "{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}",
    "{y:04d}{mo:02d}{d:02d}T{h:02d}{mi:02d}{s:02d}",
    "{y:04d}年{mo}月{d}日 {h:02d}:{mi:02d}",
    "{y:04d}年{mo}月{d}日{h}时{mi}分{s}秒",
    "{y:04d}-{mo:02d}-{d:02d} {h}点{mi}分",
]
OFFSETS = st.sampled_from(["", "Z", "+08:00", "-0530", "+14:00", "-12", " +09:00"])


def _mutations(text: str) -> st.SearchStrategy[str]:
    """`text` with one character inserted, removed, doubled or replaced."""
    at = st.integers(0, len(text))
    char = st.sampled_from(list("0123456789-:T +Z年月日时") + ["", "１"])
    return st.tuples(at, char, st.sampled_from(["insert", "delete", "double", "replace"])).map(
        lambda a: {
            "insert": text[: a[0]] + a[1] + text[a[0] :],
            "delete": text[: a[0]] + text[a[0] + 1 :],
            "double": text[: a[0]] + text[a[0] : a[0] + 1] * 2 + text[a[0] + 1 :],
            "replace": text[: a[0]] + a[1] + text[a[0] + 1 :],
        }[a[2]]
    )


ZONES = {"": CST, "Z": UTC, "+08:00": CST, "-0530": timezone(-timedelta(hours=5, minutes=30)), "+14:00": timezone(timedelta(hours=14))}
ZONES |= {"-12": timezone(-timedelta(hours=12)), " +09:00": timezone(timedelta(hours=9))}
moments_in_range = st.datetimes(datetime(2, 1, 1), datetime(9998, 12, 31, 23, 59, 59)).map(lambda m: m.replace(microsecond=0))


@st.composite
def written(draw):
    """A moment written in one of the documented forms, and the moment it stands for."""
    m, form, off = draw(moments_in_range), draw(st.sampled_from(FORMS)), draw(st.sampled_from(sorted(ZONES)))
    text = form.format(y=m.year, mo=m.month, d=m.day, h=m.hour, mi=m.minute, s=m.second) + off
    return text, (m if "{s" in form else m.replace(second=0)).replace(tzinfo=ZONES[off])


@fast(300)
@given(written())
def test_every_documented_form_reads_back_its_moment(case):
    text, want = case
    assert same(parse_moment(text, tz="+08:00").moment, want), text
    assert same(read_as_reference(text), want), text


@fast(400)
@given(written().flatmap(lambda case: _mutations(case[0])))
def test_a_near_miss_is_refused_or_read_as_the_grammar_reads_it(text):
    assert same(parse_or_none(text), read_as_reference(text)), text


# --- the range, at both ends and in any zone --------------------------------------------------

EDGE_ZONES = ["Asia/Shanghai", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Etc/GMT+12", "Asia/Kolkata", "UTC"]
EDGE_OFFSETS = ["+14:00", "-12:00", "+08:00", "-08:00", "+05:45", "Z", "+0000"]
LOW, HIGH = datetime(2, 1, 1), datetime(9998, 12, 31, 23, 59, 59)
near_edges = st.one_of(
    st.datetimes(datetime(1, 1, 1), datetime(2, 1, 4)),
    st.datetimes(datetime(9998, 12, 28), datetime(9999, 12, 31, 23, 59)),
).map(lambda m: m.replace(second=0, microsecond=0))


@fast(150)
@given(near_edges, st.one_of(st.sampled_from(EDGE_ZONES).map(lambda z: ("tz", z)), st.sampled_from(EDGE_OFFSETS).map(lambda o: ("offset", o))))
def test_moments_at_and_beyond_the_ends_of_the_range(local, zone):
    """In range by the local date: pillars, with the 节 in force begun and the next not; beyond
    it: refused as out of range, never an overflow."""
    kind, value = zone
    text = f"{local.year:04d}-{local.month:02d}-{local.day:02d}T{local.hour:02d}:{local.minute:02d}"
    date, tz = (text + value, None) if kind == "offset" else (text, value)
    if not LOW <= local <= HIGH:
        with pytest.raises(UnsupportedDateError) as e:
            resolve_pillars(date, tz, 23, None, None, None, None)
        assert "0002-01-01 to 9998-12-31" in str(e.value)
        return
    p = resolve_pillars(date, tz, 23, None, None, None, None)
    ctx = p.context
    assert ctx.moment.replace(tzinfo=None) == local
    assert ctx.jie.instant <= ctx.moment < ctx.next_jie.instant
    assert p.month_branch == ctx.jie.month


@pytest.mark.parametrize(
    "date, tz",
    [
        ("0001-01-01T00:00+08:00", None),
        ("9999-12-31T23:00-08:00", None),
        ("0001-01-01T00:00", "Asia/Shanghai"),
        ("0001-12-31T23:59-14:00", None),  # 0002 in UTC, but not here
        ("9999-01-01T00:00+14:00", None),
        ("0001-12-31T23:00", "Pacific/Kiritimati"),
        ("00011231T2300Z", None),
        ("0001年12月31日23时", "+08:00"),
    ],
)
def test_the_reported_ends_are_out_of_range_not_an_overflow(date, tz):
    with pytest.raises(UnsupportedDateError) as e:
        resolve_pillars(date, tz, 23, None, None, None, None)
    assert "local dates from 0002-01-01 to 9998-12-31" in str(e.value)


@pytest.mark.parametrize(
    "date, tz",
    [
        ("0002-01-01T12:00Z", None),  # said "year 1 is outside" although 2 is supported
        ("0002-01-01T00:00+14:00", None),  # 0001-12-31 in UTC
        ("0002-01-01T00:00", "Asia/Shanghai"),
        ("9998-12-31T23:59-12:00", None),  # 9999-01-01 in UTC
        ("9998-12-31T23:00", "America/Los_Angeles"),
    ],
)
def test_the_ends_themselves_are_in_range(date, tz):
    p = resolve_pillars(date, tz, 23, None, None, None, None)
    assert p.context.jie.instant <= p.context.moment < p.context.next_jie.instant


def test_pillars_at_checks_the_local_date_first():
    for moment in (datetime(1, 1, 1, tzinfo=CST), datetime(9999, 12, 31, 20, tzinfo=timezone(-timedelta(hours=8)))):
        with pytest.raises(UnsupportedDateError):
            pillars_at(moment)


@pytest.mark.parametrize("year", [8873, 9001, 9997, 9998])
def test_late_years_whose_xiaohan_falls_on_31_december(year):
    """From 8873 the 小寒 of a year may begin on 31 December of the year before: the month
    after it is 丑 there, not still 子."""
    from yimao.solar_terms import jies

    xiaohan = jies(year)[0].instant
    if xiaohan.year == year:
        pytest.skip(f"小寒 {year} falls in its own year")
    after = pillars_at(xiaohan + timedelta(minutes=10))
    assert (after.month_branch.value, after.context.jie.name) == ("丑", "小寒")
    before = pillars_at(xiaohan - timedelta(minutes=10))
    assert (before.month_branch.value, before.context.next_jie.name) == ("子", "小寒")
    assert str(after.year) == str(before.year)  # the year still changes at 立春


@fast(100)
@given(st.datetimes(datetime(2, 1, 1), datetime(9998, 12, 31, 23, 59, 59), timezones=st.just(UTC)))
def test_the_jie_in_force_brackets_the_moment_over_the_whole_range(moment):
    ctx = pillars_at(moment).context
    assert ctx.jie.instant <= moment < ctx.next_jie.instant


def _cli(args: list[str], env: dict[str, str] | None = None, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    import os

    environ = {**os.environ, "TZ": "Asia/Shanghai", "PYTHONIOENCODING": "utf-8", "COLUMNS": "120", **(env or {})}
    return subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=environ, input=stdin, timeout=60)


@pytest.mark.parametrize(
    "args",
    [
        ["pillars", "--date", "0001-01-01T00:00+08:00"],
        ["pillars", "--date", "9999-12-31T23:00-08:00", "--json"],
        ["cast", "--hex", "乾", "--date", "0001-01-01T00:00", "--tz", "Asia/Shanghai", "--json"],
        ["cast", "--hex", "乾", "--date", "9999-12-31T23:00-08:00"],
        ["star", "天医", "--date", "0001-01-01T00:00+08:00"],
        ["stars", "--date", "9999-12-31T23:00-08:00", "--json"],
        ["pillars", "--date", "202612021000000000000000000"],
        ["cast", "--hex", "乾", "--date", "111111111111111", "--json"],
        ["stars", "--date", "2026-12-02110:00"],
    ],
)
def test_each_command_refuses_them_with_status_2(args):
    r = _cli(args)
    assert r.returncode == 2 and r.stdout == b"" and b"Traceback" not in r.stderr, r.stderr.decode()
    assert b"internal error" not in r.stderr and r.stderr.startswith(b"yimao: error: ")


def test_batch_answers_them_as_bad_lines():
    lines = [
        {"hex": "乾", "date": "0001-01-01T00:00+08:00"},
        {"hex": "乾", "date": "9999-12-31T23:00-08:00"},
        {"hex": "乾", "date": "0001-01-01T00:00", "tz": "Asia/Shanghai"},
        {"hex": "乾", "date": "202612021000000000000000000"},
        {"hex": "乾", "date": "1" * 131_000},
        {"hex": "乾", "date": "2026-12-02T10:00+08:00"},
    ]
    out = io.BytesIO()
    summary = run_batch(io.BytesIO(b"".join(json.dumps(x).encode() + b"\n" for x in lines)), out)
    got = [json.loads(x) for x in out.getvalue().splitlines()]
    assert (summary.ok, summary.errors, summary.defects) == (1, 5, 0)
    assert [g.get("line") for g in got[:5]] == [1, 2, 3, 4, 5] and "pillars" in got[5]
    assert all("internal" not in g["error"]["message"] for g in got[:5])
    assert all(len(json.dumps(g)) < 600 for g in got[:5])


# --- wall times a zone skips or repeats -----------------------------------------------------

DST_ZONES = ["America/New_York", "Europe/London", "Australia/Sydney", "Australia/Lord_Howe", "America/Santiago", "Europe/Berlin", "Pacific/Chatham"]


@cache
def transitions(zone: str, year: int) -> tuple[tuple[datetime, timedelta, timedelta], ...]:
    """(UTC instant, offset before, offset after) of each change of `zone`'s offset in `year`,
    found by scanning its offsets every 15 minutes (no transition is closer than that)."""
    z = ZoneInfo(zone)
    out = []
    t = datetime(year, 1, 1, tzinfo=UTC)
    prev = t.astimezone(z).utcoffset()
    while t.year == year:
        nxt = t + timedelta(minutes=15)
        off = nxt.astimezone(z).utcoffset()
        if off != prev:
            out.append((nxt, prev, off))  # transitions fall on the quarter hour
            prev = off
        t = nxt
    return tuple(out)


@st.composite
def changed_wall_times(draw):
    """A zone, and a wall time that its clocks skip or show twice, with what it must read as."""
    zone = draw(st.sampled_from(DST_ZONES))
    year = draw(st.sampled_from([1995, 2010, 2026, 2031]))
    found = transitions(zone, year)
    assume(found)
    at, before, after = draw(st.sampled_from(found))
    width = abs(after - before)
    into = draw(st.integers(0, int(width.total_seconds() // 60) - 1))
    wall = (at + min(before, after)).replace(tzinfo=None) + timedelta(minutes=into)
    return zone, wall, before, after


@fast(120)
@given(changed_wall_times())
def test_skipped_and_repeated_wall_times_read_with_the_offset_before_the_change(case):
    zone, wall, before, after = case
    parsed = parse_moment(wall.strftime("%Y-%m-%dT%H:%M"), tz=zone)
    instant = (wall - before).replace(tzinfo=UTC)
    assert parsed.moment - instant == timedelta(0)  # the offset before the change
    assert parsed.moment.astimezone(UTC).astimezone(ZoneInfo(zone)).replace(tzinfo=None) == parsed.moment.replace(tzinfo=None)  # a real wall time
    (note,) = parsed.notes
    assert ("does not exist" if after > before else "happens twice") in note
    for reading in (instant, (wall - after).replace(tzinfo=UTC)):  # both readings named, by their UTC instants
        assert reading.strftime("%Y-%m-%d %H:%M UTC") in note, note
    assert zone in note


@fast(60)
@given(changed_wall_times())
def test_tz_and_the_system_zone_read_a_wall_time_alike(case):
    import os

    zone, wall, _, _ = case
    text = wall.strftime("%Y-%m-%d %H:%M")
    saved = os.environ.get("TZ")
    os.environ["TZ"] = zone
    try:
        from_env = parse_moment(text)
    finally:
        if saved is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = saved
    from_tz = parse_moment(text, tz=zone)
    assert same(from_env.moment, from_tz.moment) and from_env.notes == from_tz.notes and from_env.source == "system"


@pytest.mark.parametrize(
    "text, zone, moment, first, second",
    [
        ("2026-03-08T02:30", "America/New_York", "2026-03-08T03:30:00-04:00", "2026-03-08 07:30 UTC", "2026-03-08 06:30 UTC"),
        ("2026-03-29T01:30", "Europe/London", "2026-03-29T02:30:00+01:00", "2026-03-29 01:30 UTC", "2026-03-29 00:30 UTC"),
        ("2026-11-01T01:30", "America/New_York", "2026-11-01T01:30:00-04:00", "2026-11-01 05:30 UTC", "2026-11-01 06:30 UTC"),
        ("2026-10-25T01:30", "Europe/London", "2026-10-25T01:30:00+01:00", "2026-10-25 00:30 UTC", "2026-10-25 01:30 UTC"),
    ],
)
def test_the_reported_wall_times(text, zone, moment, first, second):
    parsed = parse_moment(text, tz=zone)
    assert parsed.moment.isoformat() == moment
    assert first in parsed.notes[0] and second in parsed.notes[0]
    # the POSIX rule of New York reads them alike
    if zone == "America/New_York":
        posix = on_wall_clock(datetime.fromisoformat(text), _posix("EST5EDT,M3.2.0,M11.1.0"))
        assert same(posix[0], parsed.moment) and first in posix[1][0] and second in posix[1][0]


def _posix(text: str):
    return _posix_zone(text)[0]


def test_a_wall_time_that_exists_once_says_nothing():
    for zone in DST_ZONES + ["Asia/Shanghai", "+08:00"]:
        assert parse_moment("2026-06-15T12:00", tz=zone).notes == ()
        assert parse_moment("2026-01-15T12:00", tz=zone).notes == ()


def test_the_warning_is_on_stderr_and_the_chart_on_stdout():
    r = _cli(["cast", "--hex", "乾", "--date", "2026-03-08T02:30", "--tz", "America/New_York", "--json"])
    assert r.returncode == 0 and json.loads(r.stdout)["conventions"]["moment"] == "2026-03-08T03:30:00-04:00"
    err = r.stderr.decode()
    assert err.startswith("yimao: warning: 2026-03-08 02:30 does not exist in America/New_York")
    assert "2026-03-08 07:30 UTC" in err and "2026-03-08 06:30 UTC" in err
    same_from_env = _cli(["pillars", "--date", "2026-03-08T02:30", "--json"], env={"TZ": "America/New_York"})
    assert json.loads(same_from_env.stdout)["conventions"]["moment"] == "2026-03-08T03:30:00-04:00"
    assert same_from_env.stderr.decode() == err


def test_in_batch_such_a_line_gives_its_chart():
    lines = b'{"hex":"\xe4\xb9\xbe","date":"2026-11-01T01:30","tz":"America/New_York"}\n'
    out = io.BytesIO()
    summary = run_batch(io.BytesIO(lines), out)
    assert (summary.ok, summary.errors) == (1, 0)
    assert json.loads(out.getvalue())["conventions"]["moment"] == "2026-11-01T01:30:00-04:00"


# --- the system zone ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "env, label, offset",
    [
        ("Asia/Tokyo", "Asia/Tokyo", 9),
        (":Asia/Tokyo", "Asia/Tokyo", 9),
        ("CST-8", "CST-8", 8),  # POSIX: the sign is west-positive
        ("<+0545>-5:45", "<+0545>-5:45", 5.75),
        ("UTC0", "UTC0", 0),
        ("", "UTC", 0),  # an empty TZ is UTC, to the C library too
        (":", "UTC", 0),
        ("/usr/share/zoneinfo/Asia/Tokyo", None, 9),  # named by the file's key (Asia/Tokyo, or Japan where that is the file)
        (":/usr/share/zoneinfo/Asia/Tokyo", None, 9),
    ],
)
def test_tz_names_the_system_zone_as_the_c_library_reads_it(monkeypatch, env, label, offset):
    if env.lstrip(":").startswith("/") and not __import__("os").path.exists(env.lstrip(":")):
        pytest.skip("no system tz database")
    monkeypatch.setenv("TZ", env)
    zone, name, notes = system_zone()
    assert notes == ()
    parsed = parse_moment("2026-01-15T12:00")
    assert parsed.label == (label or name) and parsed.moment.utcoffset() == timedelta(hours=offset) and parsed.source == "system"


@pytest.mark.parametrize(
    "env", ["garbage", "Foo/Bar", "\x1b[31mEVIL", "Asia/Shanghai\n", "../../etc/passwd", "/nonexistent", "Asia", "9" * 5000, "CST"]
)
def test_an_unknown_system_zone_is_utc_said_as_such(monkeypatch, env):
    monkeypatch.setenv("TZ", env)
    parsed = parse_moment("2026-01-15T12:00")
    assert parsed.label == "UTC" and parsed.moment.utcoffset() == timedelta(0)
    (note,) = parsed.notes
    assert "TZ=" in note and "UTC" in note and note.isprintable() and len(note) < 300
    assert now_notes() == parsed.notes  # now too


def now_notes():
    from yimao.pillars import now

    return now().notes


def test_an_unknown_tz_is_not_echoed_into_the_table():
    r = _cli(["pillars", "--date", "2026-12-02T10:00"], env={"TZ": "\x1b[31mEVIL"})
    assert r.returncode == 0
    assert b"\x1b" not in r.stdout and b"EVIL" not in r.stdout and "时区 UTC (本机)".encode() in r.stdout
    assert b"\x1b" not in r.stderr and b"\\x1b[31mEVIL" in r.stderr and b"warning" in r.stderr
    r = _cli(["pillars", "--date", "2026-12-02T10:00", "--json"], env={"TZ": "garbage"})
    doc = json.loads(r.stdout)
    assert doc["conventions"]["timezone"] == "UTC" and doc["conventions"]["moment"] == "2026-12-02T10:00:00+00:00"
    assert b"TZ='garbage'" in r.stderr


@fast(200)
@given(st.text(max_size=30))
def test_any_tz_gives_a_zone_and_printable_words(env):
    zone, label, notes = _system_zone(env)
    assert datetime(2026, 6, 1, tzinfo=zone).utcoffset() is not None
    assert label is None or label.isprintable()
    assert all(n.isprintable() for n in notes)
    assert bool(notes) == (label == "UTC" and env.lstrip(":") not in ("", "UTC", "Etc/UTC"))


@fast(200)
@given(st.text(max_size=30))
def test_any_tz_option_is_a_zone_or_a_printable_error(text):
    try:
        parse_tz(text)
    except NotationError as e:
        assert str(e).isprintable()


def test_a_tz_naming_a_file_with_a_nul_is_utc_said_so():
    # found by hypothesis: os.path refuses such a path with a ValueError, not an OSError
    zone, label, notes = _system_zone("/\x00")
    assert zone is UTC and label == "UTC" and len(notes) == 1
