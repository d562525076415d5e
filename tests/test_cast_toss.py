"""`yimao cast` without --hex: the coins thrown (--toss) or the throws typed on a terminal, and how
the document, a batch line and the journal say how the cast was obtained."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

import jsonschema
import pytest
from typer.testing import CliRunner

from yimao.cli import app
from yimao.data import read_bytes
from yimao.toss import FACES

ENV = {**os.environ, "COLUMNS": "100", "TZ": "Asia/Shanghai", "PYTHONIOENCODING": "utf-8"}
PILLARS = ("--month", "卯", "--day", "戊寅", "--use", "财")
ROW = re.compile(r"^(初爻|二爻|三爻|四爻|五爻|上爻)  (字字字|背字字|背背字|背背背)  ([6-9]) (老阴|少阳|少阴|老阳)  (▅▅▅▅▅|▅▅ ▅▅)( ○| ×)?$")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=ENV, timeout=60, stdin=subprocess.DEVNULL)


def valid(doc: dict) -> None:
    jsonschema.validate(doc, json.loads(read_bytes("schema.json")))


def without_how(doc: dict) -> dict:
    """The document less how its cast was obtained: what a cast given by its coins also says."""
    return {**doc, "cast": {k: v for k, v in doc["cast"].items() if k not in ("obtained", "throws")}}


# --- --toss ---------------------------------------------------------------------------------------


def test_toss_throws_six_lines_and_reads_their_chart():
    r = run("cast", "--toss", *PILLARS, "--json")
    assert r.returncode == 0, r.stderr.decode()
    rows = r.stderr.decode().splitlines()
    assert len(rows) == 6 and all(ROW.match(x) for x in rows), rows
    assert [x[:2] for x in rows] == ["初爻", "二爻", "三爻", "四爻", "五爻", "上爻"]  # thrown from the bottom up
    doc = json.loads(r.stdout)  # stdout is the document alone
    valid(doc)
    cast = doc["cast"]
    assert cast["obtained"] == "tossed" and len(cast["throws"]) == 6
    assert cast["coins"] == "".join(ROW.match(x)[3] for x in rows) == "".join(str(t["value"]) for t in cast["throws"])
    assert [t["faces"] for t in cast["throws"]] == [ROW.match(x)[2] for x in rows]
    assert without_how(doc) == without_how(json.loads(run("cast", "--hex", cast["coins"], *PILLARS, "--json").stdout))


def test_toss_draws_the_chart_after_the_throws():
    r = run("cast", "--toss", *PILLARS)
    assert r.returncode == 0, r.stderr.decode()
    assert len(r.stderr.decode().splitlines()) == 6
    assert "据四柱" in r.stdout.decode() and "▅" in r.stdout.decode()


def test_toss_takes_the_operating_system_s_coins(monkeypatch):
    """The coins come from `secrets.randbelow`, one draw of two faces a coin (1 is 背)."""
    import secrets

    coins = iter([1, 0, 0] + [1, 1, 1] + [0, 0, 0] + [1, 0, 0] + [1, 1, 0] + [1, 0, 0])  # 7 9 6 7 8 7
    asked = []
    monkeypatch.setattr(secrets, "randbelow", lambda n: asked.append(n) or next(coins))
    r = CliRunner().invoke(app, ["cast", "--toss", *PILLARS, "--json"], env={"TZ": "Asia/Shanghai"})
    assert r.exit_code == 0, r.stderr
    assert asked == [2] * 18
    assert r.stderr.splitlines() == [
        "初爻  背字字  7 少阳  ▅▅▅▅▅",
        "二爻  背背背  9 老阳  ▅▅▅▅▅ ○",
        "三爻  字字字  6 老阴  ▅▅ ▅▅ ×",
        "四爻  背字字  7 少阳  ▅▅▅▅▅",
        "五爻  背背字  8 少阴  ▅▅ ▅▅",
        "上爻  背字字  7 少阳  ▅▅▅▅▅",
    ]
    doc = json.loads(r.stdout)
    assert doc["cast"]["coins"] == "796787" and doc["cast"]["obtained"] == "tossed"
    assert doc["cast"]["throws"] == [{"value": v, "faces": FACES[v]} for v in (7, 9, 6, 7, 8, 7)]
    monkeypatch.setattr(secrets, "randbelow", lambda n: 0)  # six times 字字字
    traditional = CliRunner().invoke(app, ["cast", "--toss", *PILLARS, "-t", "--json"], env={"TZ": "Asia/Shanghai"})
    assert traditional.stderr.splitlines()[0] == "初爻  字字字  6 老陰  ▅▅ ▅▅ ×"  # in the script asked for


@pytest.mark.parametrize(
    "args, says",
    [
        (("cast", "--toss", "--hex", "乾"), "--toss throws the cast: give it without --hex"),
        (("cast", "--toss", "--moving", "2"), "--moving goes with --hex"),
        (("cast", "--toss", "--use", "财主"), "not a 用神"),  # said before any coin is thrown
        (("cast", "--toss", "--date", "2026-13-01"), "2026-13-01"),
        (("cast", *PILLARS), "missing --hex: the cast to read (or --toss to throw the coins"),  # no terminal: as before
    ],
)
def test_what_cannot_be_tossed_or_typed_is_bad_input(args, says):
    r = run(*args)
    assert (r.returncode, r.stdout) == (2, b""), r.stderr.decode()
    assert says in r.stderr.decode() and "初爻" not in r.stderr.decode()  # nothing thrown, nothing asked


# --- throws typed on a terminal ---------------------------------------------------------------------


class Terminal:
    """`yimao ARGS` with a pseudo-terminal for stdin and stderr, stdout a pipe: what the user types,
    and the screen they see."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        self.p = subprocess.Popen([sys.executable, "-m", "yimao", *args], stdin=slave, stdout=subprocess.PIPE, stderr=slave, env=ENV)
        os.close(slave)
        self.screen = ""
        self.mark = 0  # where the screen stood when the last line was typed

    def expect(self, text: str, timeout: float = 30) -> None:
        """Wait until `text` shows after the last line typed."""
        end = time.monotonic() + timeout
        while text not in self.screen[self.mark :]:
            assert time.monotonic() < end, f"waited for {text!r}; the screen:\n{self.screen}"
            if select.select([self.master], [], [], 0.1)[0]:
                try:
                    self.screen += os.read(self.master, 4096).decode("utf-8", "replace")
                except OSError:  # the program ended and closed its side
                    assert text in self.screen[self.mark :], f"waited for {text!r}; the screen:\n{self.screen}"

    def type(self, line: str, then: str | None = None) -> None:
        self.mark = len(self.screen)
        os.write(self.master, line.encode() + b"\n")
        if then is not None:
            self.expect(then)

    def end(self) -> tuple[int, bytes]:
        out = self.p.stdout.read() if self.p.stdout else b""
        code = self.p.wait(timeout=60)
        try:
            while select.select([self.master], [], [], 0.1)[0]:
                self.screen += os.read(self.master, 4096).decode("utf-8", "replace")
        except OSError:
            pass
        os.close(self.master)
        return code, out


def test_typed_throws_read_as_the_same_coins_given():
    t = Terminal("cast", *PILLARS, "--json")
    t.expect("初爻: ")
    assert "u takes back the last throw" in t.screen and "背字字" in t.screen  # the forms and the hint, before the first line
    t.type("7", then="二爻: ")
    t.type("x", then="二爻: ")  # not a throw: said, and asked again
    assert "not a throw: 'x'" in t.screen
    t.type("背背背", then="三爻: ")
    assert "  二爻  背背背  9 老阳  ▅▅▅▅▅ ○\n  初爻          7 少阳  ▅▅▅▅▅" in t.screen.replace("\r\n", "\n")  # top line first
    t.type("9", then="四爻: ")
    t.type("u", then="三爻: ")  # taken back
    t.type("", then="三爻: ")  # an empty line takes nothing back
    t.type("背背字", then="四爻: ")
    t.type("少阳 拆", then="上爻: ")  # two at once
    t.type("８", then="归妹之震: Enter reads it")  # full-width, as an input method types it
    t.type("")
    code, out = t.end()
    assert code == 0, t.screen
    doc = json.loads(out)  # stdout carries the document alone: the prompts went to the terminal
    valid(doc)
    assert doc["cast"]["obtained"] == "entered" and doc["cast"]["coins"] == "798788"
    assert doc["cast"]["throws"] == [
        {"value": 7, "faces": None},
        {"value": 9, "faces": "背背背"},
        {"value": 8, "faces": "背背字"},
        {"value": 7, "faces": None},
        {"value": 8, "faces": None},
        {"value": 8, "faces": None},
    ]
    given = json.loads(run("cast", "--hex", "798788", *PILLARS, "--json").stdout)
    assert given["cast"]["obtained"] == "given" and given["cast"]["throws"] is None
    assert without_how(doc) == without_how(given)


def test_typed_throws_draw_the_chart_given_coins_draw():
    t = Terminal("cast", *PILLARS)
    t.expect("初爻: ")
    t.type("798788", then="归妹之震: Enter reads it")  # six at once
    t.type("u", then="上爻: ")  # the last taken back before reading
    t.type("拆", then="Enter reads it")
    t.type("")
    code, out = t.end()
    assert code == 0, t.screen
    assert out == run("cast", "--hex", "798788", *PILLARS).stdout


def test_the_end_of_input_is_no_cast_entered():
    t = Terminal("cast", *PILLARS, "--json")
    t.expect("初爻: ")
    t.type("7", then="二爻: ")
    os.write(t.master, b"\x04")  # Ctrl-D
    code, out = t.end()
    assert (code, out) == (2, b"")
    assert "no cast entered" in t.screen


def test_an_interrupt_ends_the_entry():
    t = Terminal("cast", *PILLARS)
    t.expect("初爻: ")
    t.p.send_signal(signal.SIGINT)  # Ctrl-C
    code, out = t.end()
    assert (code, out) == (130, b"")
    assert "interrupted" in t.screen and "Traceback" not in t.screen


def test_more_than_six_or_a_wrong_line_is_asked_again():
    t = Terminal("cast", *PILLARS, "--json")
    t.expect("初爻: ")
    t.type("u", then="no throw to take back yet")
    t.type("7777777", then="a cast is six throws")
    t.type("5", then="not a throw: '5'")
    t.type("777777", then="乾: Enter reads it")
    t.type("7", then="a cast is six throws: 6 entered")
    t.type("")
    code, out = t.end()
    assert code == 0, t.screen
    assert json.loads(out)["cast"]["coins"] == "777777"
    assert "Traceback" not in t.screen


def test_a_typed_cast_is_saved_and_read_again_as_entered(tmp_path):
    journal = str(tmp_path / "j.sqlite3")
    t = Terminal("cast", *PILLARS, "--save", "--journal", journal, "--json")
    t.expect("初爻: ")
    t.type("背字字 背背背 背背字 7 8 8", then="Enter reads it")
    t.type("")
    code, out = t.end()
    assert code == 0 and "已存为卦例 1" in t.screen, t.screen
    shown = json.loads(run("journal", "show", "1", "--journal", journal, "--json").stdout)
    assert shown["changes"] is None and shown["cast"] == json.loads(out)["cast"]
    assert shown["cast"]["throws"][1] == {"value": 9, "faces": "背背背"}
    exported = run("journal", "export", "--journal", journal).stdout
    line = json.loads(exported)
    assert (line["obtained"], line["throws"]) == ("entered", "背字字 背背背 背背字 7 8 8")
    other = str(tmp_path / "k.sqlite3")  # an export imports again, and batch reads it as a request
    imported = subprocess.run(
        [sys.executable, "-m", "yimao", "journal", "import", "-", "--journal", other], input=exported, capture_output=True, env=ENV, timeout=60
    )
    assert imported.returncode == 0, imported.stderr.decode()
    assert json.loads(run("journal", "show", "1", "--journal", other, "--json").stdout)["cast"] == shown["cast"]
    batch = subprocess.run([sys.executable, "-m", "yimao", "batch"], input=exported, capture_output=True, env=ENV, timeout=60)
    assert json.loads(batch.stdout)["cast"] == shown["cast"]


def test_a_cast_given_is_saved_as_before(tmp_path):
    """A case from --hex keeps the request's fields it always kept, so its content hash is as it was."""
    journal = str(tmp_path / "j.sqlite3")
    assert run("cast", "--hex", "798788", *PILLARS, "--save", "--journal", journal).returncode == 0
    line = json.loads(run("journal", "export", "--journal", journal).stdout)
    assert "obtained" not in line and "throws" not in line


def test_a_bad_option_is_said_before_the_throws_are_asked():
    t = Terminal("cast", "--month", "卯", "--day", "戊寅", "--use", "财主")
    code, out = t.end()
    assert (code, out) == (2, b"")
    assert "not a 用神" in t.screen and "初爻" not in t.screen


# --- a batch line ----------------------------------------------------------------------------------


def test_a_batch_line_says_how_its_cast_was_obtained():
    lines = [
        {"hex": "798788", "obtained": "entered", "throws": [7, "背背背", 8, 7, "拆", "少阴"], "month": "卯", "day": "戊寅"},
        {"hex": "归妹之震", "obtained": "tossed", "throws": "背字字 背背背 背背字 背字字 背背字 背背字", "month": "卯", "day": "戊寅"},
        {"hex": "798788", "obtained": "entered", "throws": "7 9 8 7 8 7", "month": "卯", "day": "戊寅"},
        {"hex": "798788", "throws": "7 9 8 7 8 8", "month": "卯", "day": "戊寅"},
        {"hex": "798788", "obtained": "entered", "throws": [7, 9, 8, 7, 8, 5], "month": "卯", "day": "戊寅"},
    ]
    data = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines).encode()
    r = subprocess.run([sys.executable, "-m", "yimao", "batch"], input=data, capture_output=True, env=ENV, timeout=60)
    answers = [json.loads(x) for x in r.stdout.splitlines()]
    assert answers[0]["cast"]["throws"][1] == {"value": 9, "faces": "背背背"} and answers[0]["cast"]["obtained"] == "entered"
    assert answers[1]["cast"]["obtained"] == "tossed" and answers[1]["cast"]["coins"] == "798788"
    assert "make 睽之噬嗑 (798787), not the cast given, 归妹之震" in answers[2]["error"]["message"]
    assert "unknown obtained None" in answers[3]["error"]["message"]
    assert "throws must be a string or a list of six throws" in answers[4]["error"]["message"]
    for doc in answers[:2]:
        valid(doc)
