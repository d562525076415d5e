"""The entry point's own reading of `cast … --json` (launch._plain_cast), kept because it spares
that command Typer's start-up (docs/performance.md): wherever it takes an argument list, it must
say what the Typer app says, byte for byte, and what it does not take goes to the app."""

from __future__ import annotations

import sys

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_fuzz_cli import NEAR, texts
from typer.testing import CliRunner

from yimao.cli import app
from yimao.launch import _plain_cast, run_cast

ENVIRON = {"COLUMNS": "140", "TZ": "Asia/Shanghai"}


def direct(args: list[str]) -> tuple[int, bytes, bytes]:
    """`yimao ARGS` as the entry point runs a plain `cast … --json`: exit code, stdout, stderr."""
    opts = _plain_cast(args)
    assert opts is not None, args
    with CliRunner().isolation(env=ENVIRON) as (out, err, _):
        code = run_cast(opts)
        sys.stdout.flush()
        sys.stderr.flush()
        return code, out.getvalue(), err.getvalue()


def via_typer(args: list[str]) -> tuple[int, bytes, bytes]:
    r = CliRunner().invoke(app, args, env=ENVIRON)
    return r.exit_code, r.stdout_bytes, r.stderr_bytes


BASE = ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅"]
# Taken by the entry point: good casts, a moment near a 节 (a warning on stderr), bad values.
PLAIN = [
    ["cast", "--date", "2026-12-02T10:00+08:00", "--hex", "离之乾", "--json"],
    ["cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父", "--json", "-t"],
    ["cast", "-x", "离之乾", "--date=2026-12-02T10:00+08:00", "--json", "-t", "--day-start", "0"],
    ["cast", "--hex=101101", "--moving=2,5", "--month=3", "--day=甲子", "--hour", "午", "--year", "丙午", "--json"],
    ["cast", "--hex", "乾之坤", "--date", "2024-02-04T16:30+08:00", "--json", "--explain"],
    ["cast", "--hex", "离之乾", "--date", "2026-12-02T23:30", "--tz", "Asia/Tokyo", "--day-start", "0", "--json"],
    ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅", "--topic", "婚姻", "--earth", "huo", "--json"],
    ["cast", "--hex", "离之乾", "--month", "13", "--day", "戊寅", "--json"],
    ["cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--month", "卯", "--json"],
    ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅", "--day-start", "5", "--json"],
    ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅", "--earth", "mu", "--json"],
    ["cast", "--hex", "", "--month", "卯", "--day", "戊寅", "--json"],
    ["cast", "--hex", "离变乾", "--month", "卯", "--day", "戊寅", "--script", "tw", "--json"],
    ["cast", "--hex", "7,6,7,7,6,7", "--month", "卯", "--day", "戊寅", "--script=HK", "--topic", "官司", "--json"],
    ["cast", "--hex", "1011011", "--month", "卯", "--day", "戊寅", "--json", "-t"],
]
# Left to the app, which says what is wrong or reads what needs a parser.
NOT_PLAIN = [
    BASE,  # tables
    [*BASE, "--json", "--help"],
    [*BASE, "--json", "-h"],
    [*BASE, "--json", "--json"],  # repeated
    [*BASE, "--json", "--hex", "乾"],
    [*BASE, "--json", "--day-start", "x"],
    [*BASE, "--json", "--day-start", "２３"],
    [*BASE, "--json", "--day-start", "9" * 4301],  # beyond int()'s digits
    [*BASE, "--json", "--day-start", "0" * 20 + "23"],  # 23 or 0 in at most two digits, on both paths
    [*BASE, "--json", "--json=1"],
    [*BASE, "--json", "-x离"],  # a short option run together with its value
    [*BASE, "--json", "--use"],  # no value
    [*BASE, "--json", "--use", "--json"],
    ["cast", "--json", "--tz", "-05:00", "--hex", "乾"],  # a value that looks like an option: the parser decides
    [*BASE, "--json", "extra"],
    [*BASE, "--json", "--script", "cn"],  # not a script: the app says which are
    [*BASE, "--json", "--script", "s", "-t"],  # two scripts
    [*BASE, "--json", "--hexx", "乾"],
    ["cast", "--month", "卯", "--day", "戊寅", "--json"],  # no --hex: typed on a terminal, else said
    ["cast", "--toss", "--month", "卯", "--day", "戊寅", "--json"],  # coins thrown
    [*BASE, "--json", "--toss"],  # and --hex: said
    ["pillars", "--json"],
    [],
]


@st.composite
def cast_arguments(draw):
    """A cast with a random or near-miss value in one option, as `--name value` or `--name=value`."""
    option, value, equals = draw(st.sampled_from(sorted(NEAR))), draw(texts), draw(st.booleans())
    base = BASE
    if option == "--tz":  # with a date: a valid zone without one would cast for now, which moves between the two runs
        base = ["cast", "--hex", "离之乾", "--date", "2026-12-02T10:00"]
    elif option in ("--date", "--month", "--day", "--year", "--hour"):
        base = ["cast", "--hex", "离之乾"]
    elif option == "--hex":
        base = ["cast", "--month", "卯", "--day", "戊寅"]
    return [*base, *([f"{option}={value}"] if equals else [option, value]), "--json"]


def _examples(cases, plain):
    def add(test):
        for args in reversed(cases):
            test = example(args=args, plain=plain)(test)
        return test

    return add


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@_examples(PLAIN, True)
@_examples(NOT_PLAIN, False)
@given(args=cast_arguments(), plain=st.none())
def test_cast_json_without_typer_says_what_typer_says(args, plain):
    """Where the entry point reads `cast … --json` itself, it gives the Typer app's exit code,
    stdout and stderr; the lists above are taken, or left to the app, as marked."""
    opts = _plain_cast(args)
    if plain is not None:
        assert (opts is not None) == plain, args
    if opts is not None:
        code, out, err = direct(args)
        assert (code, out, err) == via_typer(args), args
        assert (code == 0) == (out != b"") and code in (0, 2) and b"Traceback" not in err
        if "2024-02-04T16:30+08:00" in args:
            assert "立春" in err.decode()
