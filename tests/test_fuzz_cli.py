"""Random and near-miss input in every option: exit 0 or 2, a message on stderr for 2, never a
traceback, never partial stdout."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from yimao.cli import app

runner = CliRunner()

NEAR = {
    "--hex": [
        "kw¹",
        "#²",
        "离之",
        "之乾",
        "离之离",
        "大",
        "火水既济",
        "7988",
        "798780",
        "1011012",
        "䷀䷀",
        "kw65",
        "#0",
        "離之乾",
        "離→",
        "乾->坤->离",
    ],
    "--date": [
        "2026-13-01",
        "2026-02-30T10:00",
        "2026-12-02T25:00+08:00",
        "0000-01-01",
        "99999-01-01",
        "2026-12-02T10:00+25:00",
        "yesterday",
        "1-1-1",
    ],
    "--month": ["¹", "１２", "13", "0", "-1", "寅寅", "正正月", "十三月", "甲", "卯日", "2.5"],
    "--day": ["甲丑", "戊", "寅寅", "甲子子", "癸亥日日", "wu yin", "60"],
    "--use": ["老板", "官官", "7", "0", "世应", ""],
    "--tz": ["Mars/Base", "+25:00", "UTC+", "Asia", "--"],
    "--topic": ["赌博", "", "婚"],
    "--hour": ["午午", "25", "甲"],
    "--year": ["甲", "丙午午", "2026"],
}

texts = st.one_of(st.text(max_size=12), st.sampled_from(sorted({v for vs in NEAR.values() for v in vs})))


def check(args: list[str]) -> None:
    result = runner.invoke(app, args, catch_exceptions=True, env={"TZ": "Asia/Shanghai"})
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert result.exit_code in (0, 2), (args, result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr
    if result.exit_code == 2:
        assert result.stdout == "", (args, result.stdout[:200])
        assert result.stderr.strip(), args


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(NEAR)), texts, st.booleans())
def test_cast_options(option, value, as_json):
    base = ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅"]
    if option in ("--date", "--tz"):
        base = ["cast", "--hex", "离之乾"]
    if option in ("--month", "--day", "--year", "--hour"):
        base = ["cast", "--hex", "离之乾"]
    if option == "--hex":
        base = ["cast", "--month", "卯", "--day", "戊寅"]
    check(base + [option, value] + (["--json"] if as_json else []))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, st.sampled_from(["star", "hex", "text", "pillars-date", "star-month", "star-day", "stars-month"]))
def test_other_commands(value, command):
    args = {
        "star": ["star", value],
        "hex": ["hex", value],
        "text": ["text", value],
        "pillars-date": ["pillars", "--date", value],
        "star-month": ["star", "天医", "--month", value],
        "star-day": ["star", "五符", "--day", value],
        "stars-month": ["stars", "--month", value, "--json"],
    }[command]
    check(args)


def test_option_values_that_look_like_options():
    for args in (["cast", "--hex"], ["cast", "--hex", "--json"], ["star"], ["hex"], ["cast", "--day-start", "x"], ["bogus"]):
        check(args)


# --- every command against closed, full and broken streams and odd widths -------------------------
# A command (table, JSON, help, bad input) drawn at random, run as a shell starts it with one
# stream spoilt; beside the same command run normally (each run once and kept). The promise:
# a closed or full stdout is exit 1 and "cannot write the output" when there was something to
# write, a reader gone away 141 and nothing said, an unwritable stderr or a closed stdin changes
# nothing but the lost messages (but `batch -`: bad input), an odd COLUMNS nothing but the width;
# never a traceback. About 90 processes: some 10-15 s.

import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from test_cli import NEAR_JIE, REQUESTS, STREAM_ENV, broken_pipe_run, shell_run  # noqa: E402

FUZZ_ENV = {k: v for k, v in STREAM_ENV.items() if k not in ("COLUMNS", "LINES")}  # a pipe: 120 columns
FORMS = {
    "cast": ("cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00"),
    "cast-json": ("cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--json"),
    "cast-warning": NEAR_JIE,
    "cast-json-warning": (*NEAR_JIE, "--json"),
    "cast-pillars-explain": ("cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父", "--explain", "-t"),
    "pillars": ("pillars", "--date", "2026-12-02T10:00+08:00"),
    "pillars-json": ("pillars", "--date", "2026-12-02T10:00+08:00", "--json"),
    "hex": ("hex", "既济"),
    "hex-json": ("hex", "离之乾", "--json"),
    "star": ("star", "天医"),
    "star-basis-json": ("star", "驿马", "--day", "甲子", "--json"),
    "star-list": ("star", "--list"),
    "stars": ("stars", "--month", "卯", "--day", "戊寅"),
    "stars-json": ("stars", "--month", "卯", "--day", "戊寅", "--json"),
    "text": ("text", "局会"),
    "text-list-json": ("text", "--json"),
    "examples": ("examples", "--explain"),
    "examples-json": ("examples", "--json"),
    "schema": ("schema",),
    "completion": ("completion", "zsh"),
    "batch": ("batch", "-"),
    "batch-typer": ("batch", "--", "-"),  # the same command through the Typer app
    "help": ("--help",),
    "cast-help": ("cast", "--help"),
    "bad-hex": ("cast", "--hex", "xyz"),
    "bad-hex-json": ("cast", "--hex", "xyz", "--json"),
    "bad-option": ("pillars", "--bogus"),
    "repeated": ("cast", "--hex", "乾", "--month", "3", "--month", "4", "--json"),
}
STREAMS = ("stdout-closed", "stdout-full", "stdout-gone", "stdout-first-byte", "stderr-closed", "stderr-full", "stdin-closed", "columns")
ODD_COLUMNS = ("0", "-3", "abc", "", " ", "1", "2", "79", "100000", "9" * 4400)
UNUSABLE = {"0", "-3", "abc", "", " "}
PIPE_BYTES = 65536  # what a Linux pipe holds: a larger output cannot all be written before the reader goes

_normal: dict[str, subprocess.CompletedProcess] = {}


def _normal_run(form: str) -> subprocess.CompletedProcess:
    if form not in _normal:
        _normal[form] = shell_run(FORMS[form], stdin=REQUESTS, env=FUZZ_ENV)
    return _normal[form]


def _first_byte_run(args, env) -> tuple[int, bytes]:
    """Run with a reader that takes one byte and goes."""
    p = subprocess.Popen(
        ["sh", "-c", 'exec "$0" -m yimao "$@"', sys.executable, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    try:
        p.stdin.write(REQUESTS)
        p.stdin.close()
    except BrokenPipeError:  # the command ended before it read its input (one that needs none may)
        pass
    os.read(p.stdout.fileno(), 1)
    p.stdout.close()
    err = p.stderr.read()
    return p.wait(timeout=120), err


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(FORMS)), st.sampled_from(STREAMS), st.sampled_from(ODD_COLUMNS), st.booleans())
def test_every_command_against_spoilt_streams(form, stream, columns, unbuffered):
    from rich.cells import cell_len

    from yimao.render import MAX_WIDTH

    normal = _normal_run(form)
    wrote = normal.stdout != b""
    assert normal.returncode in (0, 2) and (normal.returncode == 2 or wrote), (form, normal.stderr)
    env = {**FUZZ_ENV, **({"PYTHONUNBUFFERED": "1"} if unbuffered else {})}
    args = FORMS[form]
    out = None
    if stream == "stdout-first-byte":
        code, err = _first_byte_run(args, env)
    elif stream == "stdout-gone":
        r = broken_pipe_run(args, stdin=REQUESTS, env=env)
        code, err = r.returncode, r.stderr
    else:
        redirect = {"stdout-closed": ">&-", "stdout-full": ">/dev/full", "stderr-closed": "2>&-", "stderr-full": "2>/dev/full", "stdin-closed": "<&-"}
        if stream == "columns":
            env["COLUMNS"] = columns
        r = shell_run(args, redirect.get(stream, ""), stdin=REQUESTS, env=env)
        code, out, err = r.returncode, r.stdout, r.stderr
    context = (form, stream, columns if stream == "columns" else None, unbuffered, code, err[-400:])
    for bad in (b"Traceback", b"internal error", b"Exception ignored"):
        assert bad not in err, context
    if stream in ("stdout-closed", "stdout-full"):
        assert code == (1 if wrote else normal.returncode), context
        reason = b"standard output is closed" if stream == "stdout-closed" else b"No space left on device"
        assert (b"cannot write the output: " + reason in err) == wrote, context
    elif stream == "stdout-gone":
        assert code == (141 if wrote else normal.returncode), context
        assert b"cannot write" not in err, context
    elif stream == "stdout-first-byte":
        assert code in ((141,) if len(normal.stdout) > PIPE_BYTES + 1 else (normal.returncode, 141)) and b"cannot write" not in err, context
    elif stream == "stdin-closed" and args[0] == "batch" and args[-1] == "-":
        assert (code, out) == (2, b"") and b"standard input is closed" in err, context
    elif stream == "columns" and columns not in UNUSABLE:
        assert code == normal.returncode, context
        if "--json" in args or form in ("schema", "completion", "batch", "batch-typer"):  # no width
            assert out == normal.stdout, context
        else:
            assert max((cell_len(line) for line in out.decode().splitlines()), default=0) <= MAX_WIDTH, context
    else:  # stderr spoilt, stdin closed, a COLUMNS that is as if unset: the same output
        assert (code, out) == (normal.returncode, normal.stdout), context
        if stream.startswith("stderr"):
            assert err == b"", context
