"""The command line around the commands: --version, help whose examples stand on their own lines
(and run), passage ids as written, and click's usage errors said as yimao says bad input."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from importlib.metadata import version

import pytest
from typer.testing import CliRunner

from yimao.cli import _commands, app

ENV = {**os.environ, "COLUMNS": "60", "TZ": "Asia/Shanghai", "PYTHONIOENCODING": "utf-8"}
runner = CliRunner()


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=ENV, timeout=60, text=True)


def test_version_is_the_installed_package_s():
    r = run("--version")
    assert (r.returncode, r.stdout, r.stderr) == (0, f"yimao {version('yimao')}\n", "")


def _examples(help_text: str) -> list[str]:
    lines = help_text.splitlines()
    out = []
    for i, line in enumerate(lines):
        if line.strip() in ("Example:", "Examples:"):
            for follow in lines[i + 1 :]:
                if not follow.strip():
                    break
                out.append(follow.strip())
    return out


@pytest.mark.parametrize("command", [None, *_commands()])
def test_help_examples_stand_on_lines_of_their_own_and_run(command, tmp_path, monkeypatch):
    args = [command, "-h"] if command else ["-h"]
    result = runner.invoke(app, args, env={"COLUMNS": "60"}, terminal_width=60)
    assert result.exit_code == 0
    examples = _examples(result.stdout)
    assert examples, result.stdout
    for example in examples:
        words = shlex.split(example)
        assert words[0] == "yimao" and (command is None or words[1] == command), example  # whole, one a line
        words = words[1 : words.index(">")] if ">" in words else words[1:]
        (tmp_path / "requests.jsonl").write_text('{"hex": "离之乾", "month": "卯", "day": "戊寅"}\n', encoding="utf-8")
        monkeypatch.chdir(tmp_path)  # where batch's example finds its file
        ran = runner.invoke(app, words, env={"TZ": "Asia/Shanghai", "COLUMNS": "120"})
        assert ran.exit_code == 0, (example, ran.stderr)


def test_a_long_example_is_not_broken_across_lines():
    out = runner.invoke(app, ["completion", "-h"], terminal_width=60).stdout
    assert "yimao completion bash > ~/.local/share/bash-completion/completions/yimao" in out


@pytest.mark.parametrize("written", ["6.07", "6.7", "07", "7"])
def test_a_passage_id_as_written(written):
    r = runner.invoke(app, ["text", written, "--json"])
    assert r.exit_code == 0, r.stderr
    assert [p["id"] for p in json.loads(r.stdout)["passages"]] == ["6.07"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["cats"], "yimao: error: no such command: 'cats' (did you mean: cast?)"),
        (
            ["zzz"],
            "yimao: error: no such command: 'zzz'; the commands are cast, pillars, hex, star, stars, batch, text, examples, schema, completion, journal",
        ),
        (["cast", "--hexx", "乾"], "yimao: error: cast: no such option: --hexx (did you mean: --hex?)"),
        (["cast", "--hex"], "yimao: error: cast: option '--hex' requires an argument; see 'yimao cast -h'"),
        (["hex"], "yimao: error: hex: missing argument 'spec'; see 'yimao hex -h'"),
        (["pillars", "extra"], "yimao: error: pillars: got unexpected extra argument(s) (extra); see 'yimao pillars -h'"),
        (["--bogus"], "yimao: error: no such option: --bogus; see 'yimao -h'"),
        (["journal", "lst"], "yimao: error: journal: no such command: 'lst' (did you mean: list, stats?)"),
        (
            ["journal", "zzz"],
            "yimao: error: journal: no such command: 'zzz'; the commands are delete, export, import, list, note, outcome, question, show, stats, tag",
        ),
    ],
)
def test_usage_errors_in_yimao_s_own_words(args, message):
    r = run(*args)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", message + "\n")


def test_an_unknown_option_with_nothing_near_lists_the_command_s_options():
    r = run("hex", "乾", "--zzzzzz")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("yimao: error: hex: no such option: --zzzzzz; the options are ") and "--moving" in r.stderr
