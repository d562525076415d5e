"""What the journal's tests share: a journal of their own (never the user's), yimao run in this
process, and the checks of a run that succeeded or refused its input."""

from __future__ import annotations

import sys

import pytest

from yimao.launch import run as launch_run


@pytest.fixture
def journal(tmp_path, monkeypatch):
    """A journal file of the test's own, named by YIMAO_JOURNAL, with tables 140 columns wide."""
    path = tmp_path / "journal.sqlite3"
    monkeypatch.setenv("YIMAO_JOURNAL", str(path))
    monkeypatch.setenv("COLUMNS", "140")
    return path


@pytest.fixture
def yimao(monkeypatch, capfdbinary):
    """Run `yimao ARGS` in this process: (exit code, stdout, stderr), never a traceback."""

    def call(*args: str) -> tuple[int, bytes, bytes]:
        monkeypatch.setattr(sys, "argv", ["yimao", *args])  # (cli reads the command line there)
        code = launch_run(list(args))
        out, err = capfdbinary.readouterr()
        assert b"Traceback" not in err, err.decode()
        return code, out, err

    return call


def ok(result: tuple[int, bytes, bytes]) -> bytes:
    """The output of a run that succeeded."""
    code, out, err = result
    assert code == 0, err.decode()
    return out


def bad(result: tuple[int, bytes, bytes], *says: str) -> str:
    """The message of a run refused as bad input (exit 2, nothing on stdout), which says `says`."""
    code, out, err = result
    assert (code, out) == (2, b""), (code, out[:200], err.decode())
    message = err.decode()
    for s in says:
        assert s in message, message
    return message


def answered_on_a_terminal(args: tuple[str, ...], typed: bytes) -> bytes:
    """Run `yimao ARGS` in a new process whose stdin and stderr are a pseudo-terminal, type `typed`
    at its prompt, and give what the terminal showed (the run must succeed)."""
    import os
    import pty
    import subprocess

    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([sys.executable, "-m", "yimao", *args], stdin=slave, stdout=subprocess.PIPE, stderr=slave)
        os.write(master, typed)
        assert p.wait(timeout=60) == 0
        return os.read(master, 4096)
    finally:
        os.close(slave)
        os.close(master)
