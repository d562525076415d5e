"""The command line as a user meets it: output, JSON keys, exit codes, stdout/stderr separation."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

ENV = {**os.environ, "COLUMNS": "140", "TZ": "Asia/Shanghai", "PYTHONIOENCODING": "utf-8"}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=ENV, timeout=60)


def jrun(*args: str, quiet: bool = True) -> dict:
    r = run(*args, "--json")
    assert r.returncode == 0, r.stderr.decode()
    if quiet:
        assert r.stderr == b""
    return json.loads(r.stdout.decode("utf-8"))


def test_cast_from_a_date():
    doc = jrun("cast", "--date", "2026-12-02T10:00+08:00", "--hex", "离之乾")
    assert doc["schema_version"] == 2
    assert doc["pillars"] == {"year": "丙午", "month": "己亥", "day": "庚戌", "hour": "辛巳"}
    assert doc["xunkong"] == ["寅", "卯"] and doc["yuepo"] == "巳"
    assert doc["jie"]["current"]["name"] == "立冬" and doc["jie"]["next"]["name"] == "大雪"
    assert doc["lunar"]["text"] == "丙午年十月廿四"
    assert doc["conventions"]["day_start"] == 23 and doc["conventions"]["timezone"] == "+08:00"
    h = doc["hexagram"]
    assert (h["name"], h["palace"], h["generation"], h["shi"], h["ying"]) == ("离为火", "离", "本宫", 6, 3)
    assert [l["position"] for l in h["lines"]] == [1, 2, 3, 4, 5, 6]
    assert [l["spirit"] for l in h["lines"]] == ["白虎", "玄武", "青龙", "朱雀", "勾陈", "螣蛇"]  # 庚日
    l2 = h["lines"][1]
    assert l2["moving"] and l2["value"] == 6 and l2["changed"]["branch"] == "寅" and l2["changed"]["relative"] == "父母"
    assert doc["changed_hexagram"]["name"] == "乾为天"
    assert doc["changed_hexagram"]["lines"][1]["relative"] == "父母"  # against the ORIGINAL palace
    assert doc["findings"] == [] or isinstance(doc["findings"], list)
    assert isinstance(doc["stars"], list)


def test_cast_from_pillars_as_the_book_gives_them():
    doc = jrun("cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父")
    assert doc["pillars"] == {"year": None, "month": "卯", "day": "戊寅", "hour": None}
    assert doc["xunkong"] == ["申", "酉"] and doc["yuepo"] == "酉"
    assert doc["lunar"] is None and doc["jie"] is None and doc["conventions"] is None
    assert doc["hexagram"]["lines"][1]["hidden"]["branch"] == "午"
    assert doc["use"]["hidden"] and doc["use"]["hidden_positions"] == [2]


def test_bare_branch_day():
    doc = jrun("cast", "--hex", "离", "--day", "申")
    assert doc["pillars"]["day"] == "申" and doc["xunkong"] is None
    assert all(l["spirit"] is None for l in doc["hexagram"]["lines"])


def test_cast_without_date_uses_now():
    doc = jrun("cast", "--hex", "乾")
    assert doc["conventions"]["timezone_source"] == "system" and doc["pillars"]["day"]


def test_rich_output_draws_the_chart_top_down():
    r = run("cast", "--date", "2026-12-02T10:00+08:00", "--hex", "离之乾")
    assert r.returncode == 0 and r.stderr == b""
    out = r.stdout.decode()
    for needle in ("丙午", "己亥", "庚戌", "辛巳", "寅卯", "立冬", "离为火", "乾为天", "▅▅▅▅▅", "▅▅ ▅▅", "×", "世", "应", "螣蛇"):
        assert needle in out, needle
    rows = [l for l in out.splitlines() if "▅" in l]
    assert "兄弟己巳火" in rows[0] and "父母己卯木" in rows[-1]  # 上爻 first


def test_traditional_output():
    out = run("cast", "--date", "2026-12-02T10:00+08:00", "--hex", "离之乾", "--traditional").stdout.decode()
    assert "離爲火" in out and "妻財" in out
    doc = jrun("cast", "--date", "2026-12-02T10:00+08:00", "--hex", "离之乾", "--traditional")
    assert doc["hexagram"]["name"] == "離爲火" and "schema_version" in doc
    for script, name in (("tw", "離為火"), ("hk", "離為火"), ("t", "離爲火"), ("s", "离为火")):
        doc = jrun("cast", "--date", "2026-12-02T10:00+08:00", "--hex", "离之乾", "--script", script)
        assert doc["hexagram"]["name"] == name, script


def test_pillars_command():
    doc = jrun("pillars", "--date", "2024-02-04T16:30+08:00", quiet=False)
    assert doc["pillars"]["year"] == "甲辰" and doc["pillars"]["month"] == "丙寅"
    assert doc["near_jie"]["name"] == "立春" and doc["near_jie"]["seconds"] > 0
    r = run("pillars", "--date", "2024-02-04T16:30+08:00")
    assert r.returncode == 0 and b"warning" in r.stderr and "立春".encode() in r.stderr


def test_day_start_option():
    late = "2026-12-02T23:30+08:00"
    assert jrun("pillars", "--date", late)["pillars"]["day"] == "辛亥"
    assert jrun("pillars", "--date", late, "--day-start", "0")["pillars"]["day"] == "庚戌"


def test_tz_option():
    doc = jrun("pillars", "--date", "2026-12-02T10:00", "--tz", "America/New_York")
    assert doc["conventions"]["timezone"] == "America/New_York" and doc["conventions"]["timezone_source"] == "--tz"
    assert doc["conventions"]["utc"] == "2026-12-02T15:00:00Z"


def test_hex_command():
    doc = jrun("hex", "大畜")
    assert doc["hexagram"]["palace"] == "艮" and doc["changed_hexagram"] is None
    assert [x["hidden"]["relative"] for x in doc["hexagram"]["lines"] if x["hidden"]] == ["父母", "子孙"]
    doc = jrun("hex", "离之乾")
    assert doc["changed_hexagram"]["short_name"] == "乾"
    r = run("hex", "既济")
    assert r.returncode == 0 and "水火既济" in r.stdout.decode()


@pytest.mark.parametrize(
    "args, needle",
    [
        (("cast", "--hex", "大"), "大有"),
        (("cast", "--hex", "离之小"), "小"),
        (("cast", "--hex", "离之"), "no hexagram after '之'"),
        (("cast", "--hex", "->乾"), "no hexagram before '->'"),
        (("cast", "--hex", "离", "--moving", "7"), "1-6"),
        (("cast", "--hex", "离", "--date", "2026-13-40"), "2026-13-40"),
        (("cast", "--hex", "离", "--month", "13"), "13"),
        (("cast", "--hex", "离", "--day", "甲丑"), "甲丑"),
        (("cast", "--hex", "离", "--day", "戊"), "戊"),
        (("cast", "--hex", "离", "--date", "2026-12-02T10:00+08:00", "--month", "卯"), "not both"),
        (("cast", "--hex", "离", "--use", "老板"), "老板"),
        (("cast", "--hex", "离", "--tz", "Mars/Base"), "Mars/Base"),
        (("cast", "--hex", "离", "--month", "卯", "--day", "戊寅", "--tz", "Mars/Base"), "Mars/Base"),  # wrong without a date too
        (("cast", "--hex", "离", "--tz", ""), "unknown time zone: ''"),  # not the system zone, silently
        (("cast", "--hex", "离", "--date", "2026-12-02T10:00+08:00", "--tz", "Mars/Base"), "Mars/Base"),  # the offset wins, the zone is still wrong
        (("cast", "--hex", "离", "--month", "卯", "--day", "戊寅", "--topic", "财"), "did you mean: 求财?"),
        (("cast",), "--hex"),
        (("cast", "--hex", "离", "--earth", "wood"), "wood"),
        (("pillars", "--date", "0001-01-01T00:00+00:00"), "range"),
        (("pillars", "--day-start", "5"), "23"),
        (("cast", "--hex", "离", "--month", "卯", "--day", "戊寅", "--day-start", "5"), "23"),  # wrong without a date too
        (("cast", "--hex", "离", "--month", "卯", "--year", "1984"), "甲子年 from its 立春"),  # a calendar year: its 干支
        (("cast", "--hex", "离", "--day", "戊寅", "--hour", "23"), "falls in the 子 hour"),  # a clock hour: its 时辰
        (("cast", "--hex", "离", "--day", "戊寅", "--hour", "7"), "falls in the 辰 hour"),
        (("cast", "--hex", "离", "--month", "闰三"), "no leap"),
        (("cast", "--hex", "离", "--month", "3.5"), "month must be 1-12"),
        (("hex", "xyz"), "xyz"),
        (("star", "天医", "--list"), "--list lists the whole catalogue"),  # not silently the list without 天医
        (("star", "--list", "--month", "3", "--json"), "--list lists the whole catalogue"),
        (("star", "天医", "--tz", "Mars/Base"), "Mars/Base"),  # the whole table uses no zone, but this one is wrong
        (("star", "天医", "--day-start", "5"), "23"),
    ],
)
def test_bad_input_exits_2_with_a_message_and_no_stdout(args, needle):
    r = run(*args)
    assert r.returncode == 2, (r.returncode, r.stderr.decode())
    assert r.stdout == b""
    err = r.stderr.decode()
    assert needle in err and "Traceback" not in err


def test_json_is_deterministic():
    a = run("cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--json").stdout
    b = run("cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--json").stdout
    assert a == b and a.endswith(b"\n")


def test_python_dash_m_and_help():
    r = run("--help")
    assert r.returncode == 0 and b"cast" in r.stdout
    for cmd in ("cast", "pillars", "hex", "star", "stars", "text", "examples", "schema", "batch", "completion"):
        r = run(cmd, "--help")
        assert r.returncode == 0 and b"Example" in r.stdout


def _invoke(command, args: list[str]) -> tuple[object, str, str]:
    """Run a click command in process as `yimao ARGS`: (exit code, stdout, stderr)."""
    from typer.testing import CliRunner

    with CliRunner().isolation(env={"COLUMNS": "140", "TZ": "Asia/Shanghai"}) as (out, err, _):
        try:
            command.main(args=args, prog_name="yimao")
            code = 0
        except SystemExit as e:
            code = e.code
        sys.stdout.flush()
        sys.stderr.flush()
        return code, out.getvalue().decode(), err.getvalue().decode()


COMMANDS = ("cast", "pillars", "hex", "star", "stars", "batch", "text", "examples", "schema", "completion", "journal")


@pytest.mark.parametrize(
    "args",
    [[c, "--help"] for c in COMMANDS]
    + [
        ["cast", "-h"],
        ["cast", "--bogus"],
        ["cast", "--day-start", "x"],
        ["cast", "--hex"],
        ["hex"],
        ["star", "a", "b"],
        ["completion"],
        ["schema", "extra"],
        ["cast", "--hex", "离", "--month", "13"],
    ],
)
def test_a_command_alone_behaves_as_in_the_whole_app(args):
    """main builds only the command argv names (cli.click_command): same help, errors and codes."""
    from typer.main import get_command

    from yimao.cli import app, click_command

    alone = click_command(args)
    assert list(alone.commands) == [args[0]]
    assert _invoke(alone, args) == _invoke(get_command(app), args)


def test_anything_but_a_command_name_gets_the_whole_app():
    from yimao.cli import click_command

    for args in ([], ["--help"], ["-h"], ["ca"], ["bogus", "cast"], ["--help", "cast"]):
        assert set(click_command(args).commands) == set(COMMANDS), args


def test_json_output_imports_no_rich():
    """Rich is for tables: a --json run never loads it (it would cost the cold start)."""
    code = "import runpy, sys; sys.argv[0] = 'yimao'; runpy.run_module('yimao', run_name='__main__')"
    probe = "import atexit, sys; atexit.register(lambda: sys.stderr.write(' '.join(m for m in sys.modules if m.startswith('rich'))))"
    r = subprocess.run(
        [sys.executable, "-c", f"{probe}; {code}", "cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--json"],
        capture_output=True,
        env=ENV,
        timeout=60,
    )
    assert r.returncode == 0 and r.stdout.startswith(b"{")
    assert r.stderr == b"", r.stderr.decode()


def test_pillars_load_neither_the_rules_nor_the_stars():
    """`yimao pillars` prints the calendar alone: the rules, the stars and the book stay unloaded (cold start)."""
    code = "import runpy, sys; sys.argv[0] = 'yimao'; runpy.run_module('yimao', run_name='__main__')"
    heavy = ("yimao.analysis", "yimao.stars", "yimao.texts")
    probe = f"import atexit, sys; atexit.register(lambda: sys.stderr.write(' '.join(m for m in sys.modules if m.startswith({heavy!r}))))"
    r = subprocess.run(
        [sys.executable, "-c", f"{probe}; {code}", "pillars", "--date", "2026-12-02T10:00+08:00"], capture_output=True, env=ENV, timeout=60
    )
    assert r.returncode == 0 and "四柱".encode() in r.stdout
    assert r.stderr == b"", r.stderr.decode()


def test_regressions_found_by_the_fuzzer():
    # '¹' is str.isdigit() but not a line number: a clear error, not an internal one
    r = run("cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--use", "¹")
    assert r.returncode == 2 and r.stdout == b"" and "用神" in r.stderr.decode()
    # a date without an offset takes the system zone (here TZ=Asia/Shanghai)
    doc = jrun("cast", "--hex", "离之乾", "--date", "2026-12-02 10:00")
    assert doc["jie"]["current"]["name"] == "立冬"


@pytest.mark.parametrize("encoding, missing", [("ascii", "据四柱"), ("gbk", "䷝")])  # GBK has 汉字 but no hexagram signs
def test_an_output_encoding_without_the_characters_is_said_plainly(encoding, missing):
    """Tables to a standard output that cannot encode them: nothing written, a message naming the
    encoding, the first character it lacks and the ways out, status 1; --json is bytes, unaffected."""
    env = {**ENV, "PYTHONIOENCODING": encoding}
    args = ("cast", "--hex", "离之乾", "--month", "3", "--day", "戊寅")
    p = subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=env, timeout=60)
    assert p.returncode == 1 and p.stdout == b"" and b"Traceback" not in p.stderr
    assert f"encoding ({encoding}) has no {missing!r}; ".encode(encoding, "backslashreplace") in p.stderr
    assert b"PYTHONIOENCODING=utf-8" in p.stderr and b"--json" in p.stderr
    j = subprocess.run([sys.executable, "-m", "yimao", *args, "--json"], capture_output=True, env=env, timeout=60)
    assert j.returncode == 0 and json.loads(j.stdout)["cast"]["spec"] == "离之乾"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("cast", "--hex", "离", "--month", "卯", "--day", "戊寅", "--json"), ("batch",)])
def test_an_output_that_cannot_be_written_is_said_plainly(args):
    """A full disk or a closed standard output is no defect of yimao and no bad input: a plain
    message and status 1, never a traceback."""
    request = b'{"hex": "\xe7\xa6\xbb", "month": "\xe5\x8d\xaf", "day": "\xe6\x88\x8a\xe5\xaf\x85"}\n'
    with open("/dev/full", "wb") as full:
        p = subprocess.run([sys.executable, "-m", "yimao", *args], input=request, stdout=full, stderr=subprocess.PIPE, env=ENV, timeout=60)
    assert p.returncode == 1 and b"cannot write the output" in p.stderr and b"Traceback" not in p.stderr
    closed = subprocess.run(
        ["sh", "-c", 'exec "$0" -m yimao "$@" >&-', sys.executable, *args], input=request, capture_output=True, env=ENV, timeout=60
    )
    assert closed.returncode == 1 and b"standard output is closed" in closed.stderr and b"Traceback" not in closed.stderr


# --- closed, full and broken streams -------------------------------------------------------------
# Run as a shell starts yimao: stdout block-buffered (PYTHONUNBUFFERED unset), a redirection applied
# by `sh` just before exec, as in `yimao … >&-`.

STREAM_ENV = {k: v for k, v in ENV.items() if k != "PYTHONUNBUFFERED"}
REQUESTS = '{"hex": "离之乾", "date": "2026-12-02T10:00+08:00"}\n{"hex": "xyz"}\n{"hex": "大畜之离", "month": "卯", "day": "戊寅"}\n'.encode()


def shell_run(args, redirect: str = "", *, stdin: bytes | None = None, stdout=subprocess.PIPE, env=None) -> subprocess.CompletedProcess:
    """`yimao ARGS REDIRECT` (e.g. `>&-`, `>/dev/full`, `2>&-`, `<&-`) from a shell."""
    return subprocess.run(
        ["sh", "-c", f'exec "$0" -m yimao "$@" {redirect}', sys.executable, *args],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        env=env or STREAM_ENV,
        timeout=120,
    )


def broken_pipe_run(args, *, stdin: bytes | None = None, env=None) -> subprocess.CompletedProcess:
    """`yimao ARGS` writing into a pipe whose reader has already gone."""
    r, w = os.pipe()
    os.close(r)
    try:
        return shell_run(args, stdin=stdin, stdout=w, env=env)
    finally:
        os.close(w)


# Every command, as a table, as JSON and as help: each writes something on success.
WRITERS = [
    ("cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00"),
    ("cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--json"),
    ("cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--explain"),
    ("pillars", "--date", "2026-12-02T10:00+08:00"),
    ("pillars", "--date", "2026-12-02T10:00+08:00", "--json"),
    ("hex", "离之乾"),
    ("hex", "乾", "--json"),
    ("star", "天医"),
    ("star", "天医", "--month", "3", "--json"),
    ("star", "--list"),
    ("stars", "--month", "卯", "--day", "戊寅"),
    ("text", "天医"),
    ("text", "--json"),
    ("examples",),
    ("schema",),
    ("completion", "bash"),
    ("batch", "-"),
    ("--help",),
    ("cast", "--help"),
    ("batch", "--help"),
]


def _ids(forms):
    return [" ".join(f) for f in forms]


@pytest.mark.parametrize("args", WRITERS, ids=_ids(WRITERS))
def test_a_closed_stdout_is_an_output_that_cannot_be_written(args):
    """`yimao … >&-`: exit 1 and the plain message, for the tables and help as for the JSON (Rich
    and click dropped their output silently and exited 0; the completion script was "internal
    error (AttributeError …)")."""
    r = shell_run(args, ">&-", stdin=REQUESTS)
    err = r.stderr.decode()
    assert r.returncode == 1, (r.returncode, err)
    assert "yimao: error: cannot write the output: standard output is closed" in err and "Traceback" not in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", WRITERS, ids=_ids(WRITERS))
def test_a_full_disk_is_an_output_that_cannot_be_written(args):
    """`yimao … >/dev/full`: exit 1 and the plain message (help gave a traceback)."""
    r = shell_run(args, ">/dev/full", stdin=REQUESTS)
    err = r.stderr.decode()
    assert r.returncode == 1, (r.returncode, err)
    assert "yimao: error: cannot write the output: No space left on device" in err and "Traceback" not in err
    assert "Exception ignored" not in err  # nothing left for Python's own flush at exit


@pytest.mark.parametrize("args", WRITERS, ids=_ids(WRITERS))
def test_a_reader_gone_away_ends_every_command_with_141_quietly(args):
    """Tables and help exited 1 (Rich and Typer end a broken pipe so): now 141, nothing said."""
    r = broken_pipe_run(args, stdin=REQUESTS)
    assert r.returncode == 141 and r.stderr == b"", (r.returncode, r.stderr.decode())


@pytest.mark.parametrize("unbuffered", [False, True])
@pytest.mark.parametrize("args", [("examples", "--explain"), ("cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--json")])
def test_a_reader_that_stops_after_the_first_byte(args, unbuffered):
    """`yimao examples --explain | head -1`: the reader goes mid-way through an output larger than
    the pipe holds. Unbuffered (`python -u`), the raw write that the reader cut short wrote part,
    and nothing looked: the rest was lost and the run exited 0."""
    env = {**STREAM_ENV, "COLUMNS": "250", **({"PYTHONUNBUFFERED": "1"} if unbuffered else {})}
    p = subprocess.Popen([sys.executable, "-m", "yimao", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert os.read(p.stdout.fileno(), 1)
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) == 141 and err == b"", err.decode()


@pytest.mark.parametrize("redirect", [">&-", ">/dev/full"])
def test_bad_input_stays_bad_input_whatever_the_output(redirect):
    """Nothing to write: the exit code says what was wrong with the input."""
    r = shell_run(("cast", "--hex", "xyz"), redirect)
    assert r.returncode == 2 and b"unknown hexagram" in r.stderr and b"cannot write" not in r.stderr
    r = broken_pipe_run(("pillars", "--date", "2026-13-01"))
    assert r.returncode == 2 and b"2026-13-01" in r.stderr


def test_nothing_to_write_is_no_failure_to_write(tmp_path):
    """A closed stdout fails the first write, not the run: an empty batch writes nothing and succeeds."""
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"\n\n")
    r = shell_run(("batch", str(empty)), ">&-")
    assert r.returncode == 0 and b"0 ok, 0 errors, 2 blank skipped" in r.stderr


def test_a_closed_stdin_is_bad_input_for_batch_and_nothing_for_a_file(tmp_path):
    r = shell_run(("batch", "-"), "<&-")
    assert r.returncode == 2 and r.stdout == b"" and r.stderr == b"yimao: error: standard input is closed: give the requests on it, or name a FILE\n"
    r = shell_run(("batch",), "<&-")
    assert r.returncode == 2 and b"standard input is closed" in r.stderr
    r = shell_run(("batch", "-"), "0>/dev/null")  # open, but only for writing
    assert r.returncode == 2 and b"standard input is open only for writing" in r.stderr
    path = tmp_path / "requests.jsonl"
    path.write_bytes(REQUESTS)
    normal = shell_run(("batch", str(path)))
    closed = shell_run(("batch", str(path)), "<&-")  # the file must not be taken for stdin
    assert normal.returncode == closed.returncode == 2 and closed.stdout == normal.stdout and len(closed.stdout.splitlines()) == 3
    assert closed.stderr.startswith(b"yimao: batch: 2 ok, 1 error")
    for args in (("cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00"), ("hex", "乾", "--json"), ("--help",)):
        assert shell_run(args, "<&-").stdout == shell_run(args).stdout


NEAR_JIE = ("cast", "--hex", "乾", "--date", "2024-02-04T16:30+08:00")  # seconds from 立春: a warning on stderr


@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
@pytest.mark.parametrize(
    "args",
    [
        NEAR_JIE + ("--json",),
        NEAR_JIE,
        ("pillars", "--date", "2024-02-04T16:30+08:00", "--json"),
        ("batch", "-"),
        ("cast", "--hex", "xyz"),
        ("cast", "--bogus"),
    ],
    ids=["cast-json-warning", "cast-table-warning", "pillars-json-warning", "batch", "bad-hex", "bad-option"],
)
def test_an_unwritable_stderr_loses_the_message_and_nothing_else(args, redirect):
    """The data on stdout is the product, and the exit code says what the data says (a batch wrote
    no line, the JSON with a warning wrote nothing and exited 1)."""
    normal = shell_run(args, stdin=REQUESTS)
    r = shell_run(args, redirect, stdin=REQUESTS)
    assert (r.returncode, r.stdout) == (normal.returncode, normal.stdout) and r.stderr == b""
    assert normal.returncode == 2 or normal.stdout


# --- the width of the tables --------------------------------------------------------------------


def _widths(out: bytes) -> set[int]:
    from rich.cells import cell_len

    return {cell_len(line) for line in out.decode().splitlines()}


TABLES = [
    ("cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00"),
    ("pillars", "--date", "2026-12-02T10:00+08:00"),
    ("star", "--list"),
    ("text", "天医"),
    ("examples",),
]


def _table_run(args, **env_vars: str) -> bytes:
    env = {k: v for k, v in STREAM_ENV.items() if k not in ("COLUMNS", "LINES")} | env_vars
    r = shell_run(args, env=env)
    assert r.returncode == 0 and r.stderr == b"", r.stderr.decode()
    return r.stdout


@pytest.mark.parametrize("args", TABLES, ids=_ids(TABLES))
def test_a_zero_width_is_as_if_unset(args):
    """COLUMNS=0 printed nothing and exited 0."""
    from yimao.render import PIPE_WIDTH

    unset = _table_run(args)
    assert max(_widths(unset)) <= PIPE_WIDTH and len(unset.splitlines()) > 3
    assert _table_run(args, COLUMNS="0") == unset


def test_an_unusable_width_falls_back_and_a_huge_one_is_capped():
    """COLUMNS=1 or 2 printed fragments, 100000 a chart of megabytes, one of 5,000 digits (and
    LINES too) failed inside Rich's int(): the width is kept within 80..250."""
    from yimao.render import MAX_WIDTH, MIN_WIDTH

    args = TABLES[0]
    narrow, wide = _table_run(args, COLUMNS=str(MIN_WIDTH)), _table_run(args, COLUMNS=str(MAX_WIDTH))
    assert max(_widths(narrow)) <= MIN_WIDTH < max(_widths(wide)) <= MAX_WIDTH
    assert _table_run(args, COLUMNS="1") == narrow
    assert _table_run(args, COLUMNS="100000") == wide
    assert _table_run(args, COLUMNS="9" * 5000, LINES="9" * 5000) == wide
    assert _table_run(args, COLUMNS="abc") == _table_run(args)


@pytest.mark.parametrize("args", [("cast", "--hex", "乾", "--month", "3", "--day", "甲子", "--width", "x"), ("journal", "list", "--last", "2.5")])
def test_a_number_option_given_no_whole_number_says_so(args):
    """click says "'x' is not a valid int range" for an option of a bounded whole number: yimao
    says what the value must be, names the option, and exits 2 with nothing on stdout."""
    done = run(*args)
    said = done.stderr.decode()
    assert (done.returncode, done.stdout) == (2, b"")
    assert f"'{args[-1]}' is not a whole number" in said and args[-2] in said and "int range" not in said


def test_the_width_rules():
    from yimao.render import make_console

    def width(columns: str | None) -> int:
        import io

        env = {"COLUMNS": columns} if columns is not None else {}
        with pytest.MonkeyPatch.context() as mp:
            mp.delenv("COLUMNS", raising=False)
            for k, v in env.items():
                mp.setenv(k, v)
            return make_console(io.StringIO()).width

    assert [width(c) for c in (None, "0", "x", "-1", "+90", "1", "59", "60", "79", "80", "100", " 100 ", "250", "251", "0100", "1" * 40)] == [
        120, 120, 120, 120, 120, 60, 60, 60, 79, 80, 100, 100, 250, 250, 100, 250,
    ]  # fmt: skip


# --- the environment and repeated options ---------------------------------------------------------


STRAY_COMPLETE = ["", "x", "1", "bash", "complete", "bash_complete", "complete_", "complete_tcsh", "source"]


def test_a_stray_completion_variable_is_ignored():
    """`_YIMAO_COMPLETE` that names no completion instruction hijacked every command ("Invalid
    completion instruction.", exit 1): only Typer's `{complete,source}_{shell}` switch to completion."""
    forms = [
        ("pillars", "--date", "2026-12-02T10:00+08:00", "--json"),
        ("cast", "--hex", "乾", "--month", "3", "--json"),
        ("hex", "乾"),
        ("batch", "-"),
    ]
    normal = {args: shell_run(args, stdin=REQUESTS) for args in forms}
    for i, value in enumerate(STRAY_COMPLETE):
        args = forms[i % len(forms)]
        r = shell_run(args, stdin=REQUESTS, env={**STREAM_ENV, "_YIMAO_COMPLETE": value})
        n = normal[args]
        assert (r.returncode, r.stdout, _timeless(r.stderr)) == (n.returncode, n.stdout, _timeless(n.stderr)), (value, r.stderr)


def _timeless(err: bytes) -> bytes:
    """stderr without the charts per second of a batch summary."""
    return re.sub(rb"[\d,.]+ charts/s", b"", err)


def test_the_completion_instructions_are_typers():
    """launch keeps `_YIMAO_COMPLETE` only for these values; each is one Typer acts on, and every
    shell Typer knows is among them."""
    from typer.completion import Shells

    from yimao.launch import COMPLETION_INSTRUCTIONS

    assert COMPLETION_INSTRUCTIONS == {f"{i}_{s.value}" for i in ("complete", "source") for s in Shells}
    env = {**STREAM_ENV, "_YIMAO_COMPLETE": "complete_bash", "COMP_WORDS": "yimao pil", "COMP_CWORD": "1"}
    r = shell_run((), env=env)
    assert r.returncode == 0 and r.stdout.split() == [b"pillars"]


def _value_options():
    """(command, option, a valid value) for every option of every command that takes a value."""
    from typer.main import get_command

    from yimao.cli import app

    valid = {"--hex": "乾", "--moving": "2", "--date": "2026-12-02T10:00+08:00", "--tz": "Asia/Shanghai", "--day-start": "23", "--year": "丙午"}
    valid |= {"--month": "3", "--day": "戊寅", "--hour": "午", "--use": "父", "--topic": "婚姻", "--earth": "shui", "--script": "tw"}
    valid |= {"--changed": "full", "--width": "80", "--svg": "-", "--html": "-", "--png": "-"}
    valid |= {"--question": "问财", "--journal": "journal.sqlite3"}  # refused when repeated, before any file is opened
    found = []
    for name, command in get_command(app).commands.items():
        for param in command.params:
            if getattr(param, "is_flag", True) or param.param_type_name != "option":
                continue
            for opt in param.opts + param.secondary_opts:
                found.append((name, opt, valid[param.opts[0]]))
    return found


VALUE_OPTIONS = _value_options()


def test_every_value_option_is_covered():
    assert {(c, o) for c, o, _ in VALUE_OPTIONS} >= {("cast", "--hex"), ("cast", "-x"), ("cast", "--month"), ("star", "--day"), ("hex", "-m")}


@pytest.mark.parametrize("command, option, value", VALUE_OPTIONS)
def test_a_repeated_option_is_an_error_naming_it(command, option, value):
    """`--month 3 --month 4` cast for month 4, silently: now exit 2 naming the option, the same
    value twice too, and a long and a short spelling of one option."""
    from yimao.cli import click_command

    head = {"cast": ["--hex", "离"], "hex": ["乾"], "star": ["天医"]}.get(command, [])
    if option in ("--hex", "-x"):
        head = []
    for args in ([command, *head, option, value, option, value], [command, *head, f"{option}={value}", option, value]):
        if not option.startswith("--"):
            args = [a if not a.startswith(f"{option}=") else f"{option}{value}" for a in args]
        code, out, err = _invoke(click_command(args), args)
        assert code == 2 and out == "", (args, code, err)
        assert "given more than once; give it once" in err and option in err, (args, err)


def test_a_repeated_option_from_the_command_line():
    r = shell_run(("cast", "--hex", "乾", "--month", "3", "--month", "4", "--json"))
    assert r.returncode == 2 and r.stdout == b"" and b"cast: invalid value for '--month': given more than once; give it once" in r.stderr
    r = shell_run(("cast", "--hex", "乾", "-x", "坤", "--month", "3", "--json"))
    assert r.returncode == 2 and b"'--hex' / '-x': given more than once" in r.stderr
    r = shell_run(("cast", "--hex", "乾", "--month", "3", "--json", "--json"))  # a flag too: every option once
    assert r.returncode == 2 and r.stdout == b"" and b"'--json': given more than once" in r.stderr


@pytest.mark.parametrize("digits", ["9" * 4301, "0" * 4999 + "23", "1" * 100_000])
def test_a_day_start_of_any_length_is_bad_input(digits):
    """`cast … --json --day-start 999…` (4,301 digits and more) was converted with int() outside
    any try: a traceback. Now the value is said to be wrong, as JSON and as tables, and not echoed
    whole."""
    base = ["cast", "--hex", "乾", "--month", "3"]
    for args in ([*base, "--json", "--day-start", digits], [*base, "--json", f"--day-start={digits}"], [*base, "--day-start", digits]):
        r = subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=ENV, timeout=60)
        assert r.returncode == 2 and r.stdout == b"", r.stderr[-300:]
        assert b"invalid value for '--day-start'" in r.stderr and b"Traceback" not in r.stderr
        assert len(r.stderr) < 400
