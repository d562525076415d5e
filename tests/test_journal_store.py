"""The journal's file: forward migrations from every earlier version, a step that fails leaves
the file as it was, and many writers at once lose nothing."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from yimao.journal import store
from yimao.journal.case import new_case
from yimao.journal.records import cases, save
from yimao.pipeline import CastRequest, read


def _schema(db: sqlite3.Connection) -> list[tuple[str, str]]:
    return sorted(db.execute("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchall())


def _at_version(path: Path, version: int) -> sqlite3.Connection:
    """A file as a yimao whose schema stopped at `version` left it."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    store.migrate(db, path, upto=version)
    return db


def _a_case(question: str = "问"):
    req = CastRequest("大畜之离", month="卯", day="戊寅", use="父")
    return new_case(req, read(req), question)


@pytest.mark.parametrize("version", range(store.current_version()))
def test_every_earlier_version_migrates_to_the_current_schema(tmp_path, version):
    fresh = store.connect(tmp_path / "fresh.sqlite3", create=True)
    assert fresh is not None
    old_path = tmp_path / "old.sqlite3"
    old = _at_version(old_path, version)
    assert old.execute("PRAGMA user_version").fetchone()[0] == version
    old.close()
    db = store.connect(old_path, create=False)
    assert db is not None
    assert db.execute("PRAGMA user_version").fetchone()[0] == store.current_version()
    assert _schema(db) == _schema(fresh)
    save(db, _a_case())
    assert len(list(cases(db))) == 1


def _later(db: sqlite3.Connection) -> None:
    """A later step, as a future version would add one: a column, filled from the stored inputs."""
    db.execute("ALTER TABLE cases ADD COLUMN day_start INTEGER")
    for number, inputs in db.execute("SELECT id, inputs FROM cases").fetchall():
        db.execute("UPDATE cases SET day_start = ? WHERE id = ?", (json.loads(inputs)["day_start"], number))


def test_a_file_with_cases_migrates_forward(tmp_path, monkeypatch):
    path = tmp_path / "j.sqlite3"
    db = store.connect(path, create=True)
    assert db is not None
    for q in ("一", "二"):
        save(db, _a_case(q))
    db.close()
    now = store.current_version()
    monkeypatch.setattr(store, "MIGRATIONS", [*store.MIGRATIONS, _later])
    db = store.connect(path, create=False)
    assert db is not None
    assert db.execute("PRAGMA user_version").fetchone()[0] == now + 1
    assert db.execute("SELECT question, day_start FROM cases ORDER BY id").fetchall() == [("一", 23), ("二", 23)]
    assert [c.question for c in cases(db)] == ["一", "二"]  # the cases read as before


def test_a_failing_step_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "j.sqlite3"
    db = store.connect(path, create=True)
    assert db is not None
    save(db, _a_case())
    before = _schema(db)
    db.close()
    now = store.current_version()

    def broken(db: sqlite3.Connection) -> None:
        _later(db)  # the column is added and filled …
        raise sqlite3.OperationalError("disk I/O error")  # … then the step fails

    monkeypatch.setattr(store, "MIGRATIONS", [*store.MIGRATIONS, broken])
    with pytest.raises(store.JournalError, match=str(path)):
        store.connect(path, create=False)
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == now and _schema(raw) == before
    assert raw.execute("SELECT count(*) FROM cases").fetchone()[0] == 1


def test_a_missing_journal_is_not_created_by_reading(tmp_path):
    path = tmp_path / "none" / "j.sqlite3"
    assert store.connect(path, create=False) is None
    assert not path.parent.exists()


def test_an_opener_waits_while_another_creates_the_journal(tmp_path):
    """The switch to WAL is refused at once, not waited for, while another process holds the
    write lock of a new file (as it does while it creates the tables): the opener waits for it as
    a writer would, and then finds the file made."""
    path = tmp_path / "j.sqlite3"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("CREATE TABLE t (x)")
    done = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    done.start()
    try:
        db = store.connect(path, create=True)
    finally:
        done.join()
    assert db is not None and db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._version(db) == store.current_version()


WORKER = textwrap.dedent(
    """
    import os, sys
    from yimao.launch import run
    from yimao.output import settle_streams

    settle_streams()
    worker = sys.argv[1]
    sys.stdout = open(os.devnull, "w")
    failed = 0
    for i in range(int(sys.argv[2])):
        args = ["cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--save", "--question", f"{worker}-{i}", "--json"]
        sys.argv = ["yimao", *args]
        failed += run(args) != 0
    sys.exit(failed)
    """
)


def test_eight_writers_at_once_lose_nothing(tmp_path):
    """Eight processes each save 50 casts, all at once, into a journal that does not exist yet
    (so they also race to create it): exactly 400 cases, every one whole."""
    path = tmp_path / "j.sqlite3"
    env = {**os.environ, "YIMAO_JOURNAL": str(path)}
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(w), "50"], env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL) for w in range(8)
    ]
    errors = [p.communicate(timeout=300)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [e for e in errors if "error" in e]
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM cases").fetchone()[0] == 400
    questions = {q for (q,) in db.execute("SELECT question FROM cases")}
    assert questions == {f"{w}-{i}" for w in range(8) for i in range(50)}
    assert sorted(n for (n,) in db.execute("SELECT id FROM cases")) == list(range(1, 401))
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    saved = [line for e in errors for line in e.splitlines() if "已存为卦例" in line]
    assert sorted(int(line.rsplit(" ", 1)[1]) for line in saved) == list(range(1, 401))  # each told its own number


def test_a_case_survives_its_export_line_whole(tmp_path):
    """export_line and from_export are a pair: a case, with notes and an outcome, read back from
    its line (through JSON) is the same case."""
    from yimao.journal.case import Note, Outcome, export_line, from_export

    case = _a_case("问：今年可得财否")._replace(
        id=7, notes=(Note("财在五爻", "2026-12-04T08:00:00.000001Z"),), outcome=Outcome("部分", "迟", "2027-03-01", "2027-03-02T00:00:00Z")
    )
    line = json.loads(json.dumps(export_line(case), ensure_ascii=False))
    assert from_export(line) == case
    req = CastRequest("离之乾", date="2026-12-02T10:00", tz="Asia/Shanghai")
    dated = new_case(req, read(req), None)
    assert from_export(json.loads(json.dumps(export_line(dated)))) == dated


def test_a_full_disk_during_an_import_is_said_and_changes_nothing(tmp_path, monkeypatch, capfd):
    """The disk fills in the middle of an import (a page limit stands for it): the message says the
    disk is full (SQLite rolls the transaction back itself, and it is not rolled back again, which
    once said "no transaction is active"), exit 2, and the journal is as it was and goes on."""
    from yimao.journal.case import export_line
    from yimao.launch import run

    path = tmp_path / "j.sqlite3"
    db = store.connect(path, create=True)
    assert db is not None
    save(db, _a_case("已有"))
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.close()
    dump = tmp_path / "cases.jsonl"
    dump.write_bytes(b"".join(json.dumps(export_line(_a_case(f"问{i}"))).encode() + b"\n" for i in range(40)))
    connect = sqlite3.connect

    def a_small_disk(*args, **kw):
        db = connect(*args, **kw)
        db.execute(f"PRAGMA max_page_count = {pages + 2}")
        return db

    args = ["journal", "import", str(dump), "--journal", str(path)]
    monkeypatch.setattr(sys, "argv", ["yimao", *args])
    monkeypatch.setattr(store.sqlite3, "connect", a_small_disk)
    assert run(args) == 2
    out, err = capfd.readouterr()
    assert out == "" and f"the journal {path} cannot grow: the disk is full" in err and "Traceback" not in err, err
    monkeypatch.setattr(store.sqlite3, "connect", connect)
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT question FROM cases").fetchall() == [("已有",)]
    assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    raw.close()
    assert run(args) == 0  # with room, the same import goes through
    db = store.connect(path, create=False)
    assert db is not None and len(list(cases(db))) == 41
    save(db, _a_case("又一"))
