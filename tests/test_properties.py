"""Property tests: random moments × random casts give documents obeying the chart invariants and the schema."""

from __future__ import annotations

import io
import json
import sys
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from yimao.batch import run
from yimao.cli import app
from yimao.errors import BRIEF_DEPTH, MAX_NAME, YimaoError, brief
from yimao.ganzhi import Branch
from yimao.hexagram import HEXAGRAMS, Cast
from yimao.pipeline import CastRequest, document, document_json, read
from yimao.serialize import dumps

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "src" / "yimao" / "data" / "schema.json").read_text(encoding="utf-8"))


@cache
def validator():
    return jsonschema.Draft202012Validator({**SCHEMA, "$ref": "#/$defs/cast", "anyOf": [{}]})


casts = st.builds(lambda h, m: Cast(h, frozenset(i + 1 for i in range(6) if m >> i & 1)), st.sampled_from(HEXAGRAMS), st.integers(0, 63))
zones = st.sampled_from([UTC, timezone(timedelta(hours=8)), timezone(timedelta(hours=-7)), timezone(timedelta(hours=5, minutes=30))])
moments = st.datetimes(min_value=datetime(1901, 1, 1), max_value=datetime(2099, 12, 31), timezones=zones)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(casts, moments, st.sampled_from([23, 0]), st.sampled_from(["官", "财", "父", "兄", "子", "世", "应", "3", None]))
def test_documents_obey_the_invariants(cast, moment, day_start, use):
    reading = read(CastRequest(hex=cast.coins(), date=moment.isoformat(), day_start=day_start, use=use))
    doc = json.loads(json.dumps(document(reading), ensure_ascii=False))
    validator().validate(doc)
    lines = doc["hexagram"]["lines"]
    assert [l["position"] for l in lines] == [1, 2, 3, 4, 5, 6]
    assert sum(l["shi"] for l in lines) == 1 and sum(l["ying"] for l in lines) == 1
    assert abs(doc["hexagram"]["shi"] - doc["hexagram"]["ying"]) == 3
    assert len({l["spirit"] for l in lines}) == 6
    for l in lines:
        assert (l["changed"] is not None) == l["moving"] == (l["value"] in (6, 9))
        assert (l["relations"]["change"] is not None) == l["moving"]
    xk = [Branch(b) for b in doc["xunkong"]]
    assert xk[1].index == (xk[0].index + 1) % 12
    assert Branch(doc["yuepo"]) is Branch(doc["pillars"]["month"][1]).opposite
    # every star on a line is listed on that line, and the other way round
    on_lines = {(p, s["id"]) for s in doc["stars"] for p in s["lines"]}
    assert on_lines == {(l["position"], sid) for l in lines for sid in l["stars"]}
    # holding 局 always has the 日 or the 月 among its members (凡局必得日月有一在局)
    for f in doc["findings"]:
        if f["rule"] == "局会" and f["holds"]:
            assert any(m["source"] in ("日", "月") for m in f["members"])
        if f["rule"] == "助鬼伤身" and f["holds"]:
            shi = next(l for l in lines if l["shi"])
            assert shi["relative"] == "兄弟"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(casts, moments, st.sampled_from([None, "婚姻", "疾病", "家宅"]), st.sampled_from(["官", "财", "世", None]))
def test_batch_encoding_is_the_document_byte_for_byte(cast, moment, topic, use):
    """`yimao batch` encodes a document from encoded parts; it must be exactly what the dicts give."""
    reading = read(CastRequest(hex=cast.coins(), date=moment.isoformat(), use=use, topic=topic))
    plain = dumps(document(reading), compact=True)
    assert document_json(reading) == plain
    assert dumps(document(reading), compact=True) == plain  # shared cached parts are left untouched


# --- hostile input, class by class: a bad-input answer (exit 2, or a bad batch line), never a
# defect, never a traceback, and in bounded work (no int() over a field's digits, no difflib on
# a text longer than a name: both are checked, not timed) ------------------------------------

REQUEST_KEYS = CastRequest._fields
VALUE_KEYS = tuple(k for k in REQUEST_KEYS if k not in ("date", "tz"))  # (a date's and a zone's forms are the date parser's tests)
GOOD_LINE = '{"hex": "大畜之离", "month": "卯", "day": "戊寅", "use": "父"}'.encode()

# Digit strings past Python's int-conversion limit (4,300), ASCII or full-width, bare or as a
# field writes them (kw63, #63, 3月, 2,5).
huge_digits = st.builds(
    lambda prefix, digit, n, suffix: prefix + digit * n + suffix,
    st.sampled_from(["", "kw", "#", "-", "+", " ", "2,"]),
    st.sampled_from(["1", "9", "０", "９"]),
    st.integers(4301, 12_000),
    st.sampled_from(["", "月", "时", "年", "日", " ", ",5"]),
)
# Garbage longer than any name: what "did you mean" must not compare (quadratic in its length).
long_names = st.one_of(
    st.text(min_size=MAX_NAME + 1, max_size=400),
    st.builds(lambda c, n: c * n, st.sampled_from(["a", "乾", "x", "既济", "天"]), st.integers(MAX_NAME + 1, 200_000)),
)


@pytest.fixture(scope="module")
def bounded_work():
    """difflib refuses a text longer than a name, and int() more digits than any field has."""
    import difflib

    real = difflib.get_close_matches

    def guarded(word, possibilities, *args, **kwargs):
        if sys._getframe(1).f_globals["__name__"].startswith("yimao"):  # (click's few option names are its own affair)
            assert len(word) <= MAX_NAME, f"difflib asked to compare {len(word)} characters"
        return real(word, possibilities, *args, **kwargs)

    limit = sys.get_int_max_str_digits()
    difflib.get_close_matches = guarded
    sys.set_int_max_str_digits(640)  # the least Python allows: a conversion of more is a ValueError, found as a defect
    try:
        yield
    finally:
        difflib.get_close_matches = real
        sys.set_int_max_str_digits(limit)


def answers(data: bytes) -> tuple[Any, list[dict]]:
    out = io.BytesIO()
    summary = run(io.BytesIO(data), out)
    return summary, [json.loads(line) for line in out.getvalue().split(b"\n")[:-1]]


def all_bad_lines(data: bytes, count: int) -> list[dict]:
    summary, results = answers(data)
    assert summary.defects == 0, [r["error"]["message"] for r in results if "internal error" in r["error"]["message"]]
    assert summary.errors == count == len(results) and [r["line"] for r in results] == list(range(1, count + 1))
    for r in results:
        assert len(json.dumps(r, ensure_ascii=False)) < 4000  # message and value bounded
    return results


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(VALUE_KEYS), huge_digits, st.booleans())
def test_huge_digit_strings_in_any_batch_field(bounded_work, key, digits, as_number):
    """As a string, or (its ASCII digits) as a JSON number: a bad line either way."""
    if as_number:
        value = b"1" * len(digits)
    else:
        value = json.dumps(digits).encode()
    line = b'{"hex": "\xe4\xb9\xbe", "' + key.encode() + b'": ' + value + b"}\n" if key != "hex" else b'{"hex": ' + value + b"}\n"
    all_bad_lines(line, 1)


def nest(depth: int, kind: str) -> bytes:
    open_, close = {"list": (b"[", b"]"), "object": (b'{"a": ', b"}"), "mixed": (b'[{"a": ', b"}]")}[kind]
    return open_ * depth + b"1" + close * depth


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(REQUEST_KEYS), st.integers(2, 3000) | st.integers(490, 1030), st.sampled_from(["list", "object", "mixed"]))
def test_deep_nesting_at_any_key(bounded_work, key, depth, kind):
    value = nest(depth, kind)
    line = b'{"hex": "\xe4\xb9\xbe", "' + key.encode() + b'": ' + value + b"}\n" if key != "hex" else b'{"hex": ' + value + b"}\n"
    (r,) = all_bad_lines(line, 1)
    assert json.dumps(r["error"]["value"]).count("[") + json.dumps(r["error"]["value"]).count("{") <= BRIEF_DEPTH + 1


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 5000), st.sampled_from(["list", "object", "mixed"]), st.integers(0, 20_000))
def test_an_echoed_value_is_bounded_whatever_it_is(depth, kind, width):
    value = json.loads(nest(min(depth, 900), kind)) if depth else ["x" * width] * (width // 100 + 1)
    got = brief(value)
    text = json.dumps(got, ensure_ascii=False)
    assert len(text) < 4000 and json.loads(text) == got


def _suggesters():
    from yimao.chart import build_chart, resolve_use
    from yimao.ganzhi import GanZhi
    from yimao.hexagram import Hexagram
    from yimao.pillars import parse_pillar, parse_tz
    from yimao.stars.catalogue import catalogue

    chart = build_chart(Cast.parse("离之乾"))
    return {
        "hexagram": Hexagram.parse,
        "cast": Cast.parse,
        "star": lambda t: catalogue().get(t),
        "topic": lambda t: catalogue().topic(t),
        "ganzhi": GanZhi.parse,
        "year": lambda t: parse_pillar(t, "year"),
        "month": lambda t: parse_pillar(t, "month"),
        "day": lambda t: parse_pillar(t, "day"),
        "hour": lambda t: parse_pillar(t, "hour"),
        "use": lambda t: resolve_use(chart, t),
        "zone": lambda t: parse_tz(t),
    }


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted(_suggesters())), long_names)
def test_a_long_garbage_name_in_any_suggester(bounded_work, what, text):
    """Every "did you mean" is refused a text longer than a name (a 900 KB hexagram name took
    26 s): the error comes, without suggestions, and quotes the text cut short."""
    with pytest.raises(YimaoError) as e:
        _suggesters()[what](text)
    if what != "zone":  # (the zone's message is the date parser's)
        assert len(str(e.value)) < 1000


@settings(max_examples=100, deadline=None)
@given(
    st.booleans(),
    st.lists(st.tuples(st.sampled_from(["good", "blank"]), st.sampled_from([b"", b" ", b"\t", b" \t ", b"\r"]), st.sampled_from([b"\n", b"\r\n"]))),
    st.booleans(),
)
def test_byte_order_marks_blank_lines_and_crlf(bom, lines, last_ending):
    """A leading byte order mark is read past, blank lines (whitespace, CR) are skipped and
    counted, CRLF ends a line as LF does; every request is answered, in order."""
    pieces = [space + (GOOD_LINE if kind == "good" else b"") + end for kind, space, end in lines]
    if pieces and not last_ending:
        pieces[-1] = pieces[-1].removesuffix(lines[-1][2])  # the last line without its end
    data = (b"\xef\xbb\xbf" if bom else b"") + b"".join(pieces)
    summary, results = answers(data)
    good = sum(kind == "good" for kind, _, _ in lines)
    assert summary.errors == 0 and summary.ok == good == len(results)
    split = data.removeprefix(b"\xef\xbb\xbf").split(b"\n")
    if split[-1] == b"" and data.endswith(b"\n"):  # the end of the last line: no line after it
        split.pop()
    if data == b"":
        split = []
    assert summary.blank == sum(not line.strip() for line in split)


CLI_NUMBER_FIELDS = {
    "cast": ["--month", "--hour", "--year", "--day", "--moving", "--use", "--hex"],
    "stars": ["--month", "--hour", "--year", "--day"],
    "star": ["--month", "--hour", "--year", "--day"],
    "hex": ["spec", "--moving"],
}


def cli_args(command: str, option: str, value: str) -> list[str]:
    if command == "cast":
        return ["cast", "--hex", "离之乾", option, value] if option != "--hex" else ["cast", "--hex", value, "--month", "卯"]
    if command == "hex":
        return ["hex", value] if option == "spec" else ["hex", "乾", "--moving", value]
    return [command, *(["天医"] if command == "star" else []), option, value]


def check(args: list[str]) -> int:
    """Run the app: its exit code, after checking the streams it promises for it."""
    r = CliRunner().invoke(app, args, catch_exceptions=True, env={"TZ": "Asia/Shanghai"})
    assert r.exception is None or isinstance(r.exception, SystemExit), (args[:3], repr(r.exception)[:300])
    assert "Traceback" not in r.stderr and len(r.stderr) < 4000, r.stderr[:300]
    if r.exit_code == 2:
        assert r.stdout == "" and r.stderr.strip()
    return r.exit_code


cli_fields = st.sampled_from([(c, o) for c, options in CLI_NUMBER_FIELDS.items() for o in options])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(cli_fields, huge_digits | long_names, st.booleans())
def test_huge_digits_and_long_names_in_any_cli_field(bounded_work, field, value, as_json):
    command, option = field
    args = cli_args(command, option, value.replace("\0", "")) + (["--json"] if as_json else [])
    assert check(args) == 2


@pytest.mark.parametrize(("command", "option"), [(c, o) for c, options in CLI_NUMBER_FIELDS.items() for o in options] + [("cast", "--topic")])
@pytest.mark.parametrize("value", ["", " ", "\t"])
def test_an_empty_cli_value_is_bad_input(command, option, value):
    """Given empty, a value is given, and wrong: exit 2 (`--month ''` gave a chart of null
    pillars, exit 0), through Typer and through the entry point's own reading of cast --json."""
    from test_launch import direct

    args = cli_args(command, option, value)
    if command == "cast" and option != "--hex":
        args += ["--day", "戊寅"] if option not in ("--day",) else ["--month", "卯"]
    for json_ in ([], ["--json"]):
        assert check(args + json_) == 2, args + json_
    if command == "cast":
        code, out, err = direct([*args, "--json"])
        assert code == 2 and out == b"" and b"Traceback" not in err and err, args
