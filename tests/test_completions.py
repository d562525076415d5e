"""Shell completion scripts: current, valid, and completing values dynamically."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from yimao.cli import completion_script

ROOT = Path(__file__).resolve().parents[1]
FILES = {"bash": "yimao.bash", "zsh": "_yimao", "fish": "yimao.fish", "powershell": "yimao.ps1"}


@pytest.mark.parametrize("shell, name", FILES.items())
def test_scripts_are_current(shell, name):
    """Regenerate (tools/gen_completions.py) and compare."""
    assert (ROOT / "completions" / name).read_text(encoding="utf-8") == completion_script(shell)


def test_bash_script_is_valid_bash():
    bash = shutil.which("bash")
    r = subprocess.run([bash, "-n", str(ROOT / "completions" / "yimao.bash")], capture_output=True)
    assert r.returncode == 0, r.stderr


def test_zsh_script_starts_with_compdef():
    assert (ROOT / "completions" / "_yimao").read_text(encoding="utf-8").startswith("#compdef yimao")


def _complete(words: str, cword: int) -> list[str]:
    env = {**os.environ, "_YIMAO_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    r = subprocess.run([sys.executable, "-m", "yimao"], capture_output=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.decode("utf-8").split()


def test_completes_hexagram_names():
    assert set(_complete("yimao cast --hex 大", 3)) >= {"大有", "大畜", "大壮", "大过"}
    assert "离之既济" in _complete("yimao cast --hex 离之既", 3)
    assert "既济" in _complete("yimao hex 既", 2)


def test_completes_use_month_and_commands():
    assert _complete("yimao cast --use 官", 3) == ["官鬼"]
    assert "辰" in _complete("yimao cast --month 辰", 3)
    assert "cast" in _complete("yimao ca", 1)


def test_completion_command_prints_scripts():
    r = subprocess.run([sys.executable, "-m", "yimao", "completion", "bash"], capture_output=True, timeout=60)
    assert r.returncode == 0 and r.stdout.decode() == completion_script("bash")
    r = subprocess.run([sys.executable, "-m", "yimao", "completion", "tcsh"], capture_output=True, timeout=60)
    assert r.returncode == 2 and r.stdout == b"" and b"tcsh" in r.stderr
