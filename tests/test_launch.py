"""The entry point's plain `cast … --json`, read without Typer: it takes exactly the argument
lists that need no parser, and on them it says what the Typer app says, byte for byte."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cli import ENV
from test_fuzz_cli import NEAR, texts
from typer.testing import CliRunner

from yimao.cli import app
from yimao.launch import _plain_cast, run_cast

ENVIRON = {"COLUMNS": "140", "TZ": "Asia/Shanghai"}


def direct(args: list[str]) -> tuple[int, bytes, bytes]:
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


def agree(args: list[str]) -> tuple[int, bytes, bytes]:
    d = direct(args)
    assert d == via_typer(args), args
    return d


def test_which_argument_lists_are_plain():
    base = ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅"]
    assert _plain_cast([*base, "--json"]) == {"hex": "离之乾", "month": "卯", "day": "戊寅", "json": True, "day_start": 23}
    assert _plain_cast(["cast", "-x", "离之乾", "--date=2026-12-02T10:00+08:00", "--json", "-t", "--day-start", "0"]) == {
        "hex": "离之乾", "date": "2026-12-02T10:00+08:00", "json": True, "traditional": True, "day_start": 0,
    }  # fmt: skip
    for args in (
        base,  # tables, not JSON: Rich anyway
        [*base, "--json", "--help"],
        [*base, "--json", "-h"],
        [*base, "--json", "--json"],  # repeated
        [*base, "--json", "--hex", "乾"],
        [*base, "--json", "--day-start", "x"],  # Typer's own message
        [*base, "--json", "--day-start", "２３"],
        [*base, "--json", "--json=1"],
        [*base, "--json", "-x离"],  # a short option run together with its value
        [*base, "--json", "--use"],  # no value
        [*base, "--json", "--use", "--json"],
        ["cast", "--json", "--tz", "-05:00"],  # a value that looks like an option: the parser decides
        [*base, "--json", "extra"],
        [*base, "--json", "--hexx", "乾"],
        ["pillars", "--json"],
        [],
    ):
        assert _plain_cast(args) is None, args


@pytest.mark.parametrize(
    "args",
    [
        ["cast", "--date", "2026-12-02T10:00+08:00", "--hex", "离之乾", "--json"],
        ["cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父", "--json", "-t"],
        ["cast", "--hex=101101", "--moving=2,5", "--month=3", "--day=甲子", "--hour", "午", "--year", "丙午", "--json"],
        ["cast", "--hex", "乾之坤", "--date", "2024-02-04T16:30+08:00", "--json", "--explain"],  # near a 节: the warning
        ["cast", "--hex", "离之乾", "--date", "2026-12-02T23:30", "--tz", "Asia/Tokyo", "--day-start", "0", "--json"],
        ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅", "--topic", "婚姻", "--earth", "huo", "--json"],
        ["cast", "--month", "卯", "--day", "戊寅", "--json"],  # no --hex
        ["cast", "--hex", "离之乾", "--month", "13", "--day", "戊寅", "--json"],
        ["cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--month", "卯", "--json"],
        ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅", "--day-start", "5", "--json"],
        ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅", "--earth", "mu", "--json"],
        ["cast", "--hex", "", "--month", "卯", "--day", "戊寅", "--json"],
    ],
)
def test_plain_cast_says_what_typer_says(args):
    code, out, err = agree(args)
    assert (code == 0) == (out != b"") and (code in (0, 2))
    if "2024-02-04T16:30+08:00" in args:
        assert "立春" in err.decode()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted(NEAR)), texts, st.booleans())
def test_plain_cast_agrees_on_random_values(option, value, equals):
    """Random and near-miss values in every option: where the plain path takes the arguments, it
    gives Typer's exit code, stdout and stderr."""
    base = ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅"]
    if option == "--tz":  # with a date: a valid zone without one would cast for now, which moves between the two runs
        base = ["cast", "--hex", "离之乾", "--date", "2026-12-02T10:00"]
    elif option in ("--date", "--month", "--day", "--year", "--hour"):
        base = ["cast", "--hex", "离之乾"]
    elif option == "--hex":
        base = ["cast", "--month", "卯", "--day", "戊寅"]
    args = [*base, *([f"{option}={value}"] if equals else [option, value]), "--json"]
    if _plain_cast(args) is not None:
        agree(args)


def test_the_installed_command_takes_the_plain_path():
    """`python -m yimao cast … --json` starts without importing Typer, click or Rich."""
    code = (
        "import runpy, sys; sys.argv = ['yimao', 'cast', '--hex', '离之乾', '--month', '卯', '--day', '戊寅', '--json'];\n"
        "try:\n    runpy.run_module('yimao', run_name='__main__')\n"
        "except SystemExit as e:\n    assert e.code == 0, e.code\n"
        "sys.stderr.write(' '.join(m for m in ('typer', 'click', 'rich') if m in sys.modules))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, env=ENV, timeout=60)
    assert r.returncode == 0 and r.stdout.startswith(b'{\n  "schema_version": 1'), r.stderr
    assert r.stderr == b""


@pytest.mark.parametrize("digits", ["9" * 4301, "0" * 4999 + "23", "1" * 100_000])
def test_a_day_start_of_any_length_is_bad_input(digits):
    """`cast … --json --day-start 999…` (4,301 digits and more) converted with int() outside any
    try: a traceback. Beyond the interpreter's digits the plain path hands the arguments to the
    parser, which says the value is wrong; the tables say the same; a batch line is no concern of
    the command line."""
    base = ["cast", "--hex", "乾", "--month", "3"]
    for args in ([*base, "--json", "--day-start", digits], [*base, "--json", f"--day-start={digits}"], [*base, "--day-start", digits]):
        if "--json" in args:
            assert _plain_cast(args) is None
        r = subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=ENV, timeout=60)
        assert r.returncode == 2 and r.stdout == b"", r.stderr[-300:]
        assert b"Invalid value for '--day-start'" in r.stderr and b"Traceback" not in r.stderr
        assert len(r.stderr) < 400  # the value is not echoed whole
    assert _plain_cast([*base, "--json", "--day-start", "0" * 20 + "23"]) is None  # 23 or 0, written in at most two digits, on both paths
