"""A journal made by a yimao of schema_version 1 is still read whole: listed, shown (read again as
schema 2, with nothing said changed when the readings agree), shown as saved (the schema-1 document
it stored), counted, exported and imported.

`tests/data/journal_v1.sqlite3` and `journal_v1.jsonl` were written by yimao at ef61fa6 (schema 1):
离之乾 at 2026-12-02 10:00 +08:00 (用 官, a note, 应), 大畜之离 from pillars (用 父, topic 官司),
困之兑 from pillars (用 财, topic 婚姻, 不应)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from conftest import ok

DATA = Path(__file__).parent / "data"


@pytest.fixture
def journal(tmp_path, monkeypatch):
    path = tmp_path / "journal.sqlite3"
    shutil.copy(DATA / "journal_v1.sqlite3", path)
    monkeypatch.setenv("YIMAO_JOURNAL", str(path))
    monkeypatch.setenv("COLUMNS", "120")
    return path


@pytest.fixture
def yimao(yimao):
    """Run `yimao ARGS` in this process: its stdout, the run having succeeded."""
    return lambda *args: ok(yimao(*args))


@pytest.fixture(scope="module")
def schema():
    from yimao.data import read_bytes

    return json.loads(read_bytes("schema.json"))


def valid(schema, name: str, doc) -> None:
    jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{name}", "anyOf": [{}]}).validate(doc)


def test_a_schema_1_journal_lists_and_finds_by_topic(journal, yimao):
    entries = [json.loads(x) for x in yimao("journal", "list", "--json").splitlines()]
    assert [(e["case"], e["spec"], e["use"], e["outcome"]) for e in entries] == [
        (1, "离之乾", "官", "应"),
        (2, "大畜之离", "父", None),
        (3, "困之兑", "财", "不应"),
    ]
    assert [json.loads(x)["case"] for x in yimao("journal", "list", "--json", "--topic", "词讼").splitlines()] == [2]  # saved as 官司


def test_a_schema_1_case_is_read_again_as_schema_2(journal, yimao, schema):
    for n in (1, 2, 3):
        doc = json.loads(yimao("journal", "show", str(n), "--json"))
        assert doc["schema_version"] == 2 and doc["saved_with"]["schema_version"] == 1
        if n == 3:  # 困之兑 on 庚申: the day 冲 the 寅 the 巳 害, which the reading now weighs (6.12)
            assert [c["path"] for c in doc["changes"]] == ["findings[2].reasons", "findings[2].text"]
            assert "日冲，害不及冲" in doc["changes"][0]["now"]
        else:
            assert doc["changes"] is None  # the readings agree: the stars' new shape is no change
        valid(schema, "journal_case", doc)
        saved = json.loads(yimao("journal", "show", str(n), "--json", "--as-saved"))
        assert saved["schema_version"] == 1 and "name" in saved["stars"][0]  # the document as stored then
        valid(
            schema,
            "cast_v1",
            {k: v for k, v in saved.items() if k not in ("case", "question", "saved_at", "saved_with", "notes", "outcome", "changes")},
        )
    table = yimao("journal", "show", "1").decode()
    assert "问：今年可得财否" in table and "财在五爻" in table


def test_a_schema_1_journal_counts_exports_and_imports(journal, yimao, tmp_path):
    stats = json.loads(yimao("journal", "stats", "--json"))
    assert stats["cases"] == {"应": 1, "不应": 1, "部分": 0} and stats["stars"] and stats["findings"]
    exported = yimao("journal", "export")
    assert exported.count(b"\n") == 3
    fresh = tmp_path / "fresh.sqlite3"
    lines = tmp_path / "cases.jsonl"
    lines.write_bytes(exported)
    yimao("journal", "import", str(lines), "--journal", str(fresh))
    yimao("journal", "import", str(DATA / "journal_v1.jsonl"), "--journal", str(fresh))  # the export of that yimao: the same cases
    again = [json.loads(x) for x in yimao("journal", "list", "--json", "--journal", str(fresh)).splitlines()]
    assert [e["case"] for e in again] == [1, 2, 3]
    assert json.loads(yimao("journal", "stats", "--json", "--journal", str(fresh))) == stats


def _schema_of(path) -> list:
    import sqlite3

    with sqlite3.connect(path) as db:
        return sorted(db.execute("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchall())


def test_the_version_1_file_migrates_to_version_2(journal, yimao, tmp_path):
    """The file written by that yimao (journal version 1) is taken to version 2 on first opening:
    the schema of a new file, the pillars filled from its stored documents, no tags and no edits;
    and then it is tagged, edited and listed as a new one is."""
    import sqlite3
    import zlib

    with sqlite3.connect(journal) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
        documents = {n: json.loads(zlib.decompress(d))["pillars"] for n, d in db.execute("SELECT id, document FROM cases")}
    entries = [json.loads(x) for x in yimao("journal", "list", "--json").splitlines()]  # reading opens it: migrated
    with sqlite3.connect(journal) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
        stored = {n: json.loads(p) for n, p in db.execute("SELECT id, pillars FROM cases")}
        assert db.execute("SELECT count(*) FROM tags").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM cases WHERE asked IS NOT NULL OR question_edited_at IS NOT NULL").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM notes WHERE edited_at IS NOT NULL").fetchone()[0] == 0
    assert stored == documents == {e["case"]: e["pillars"] for e in entries}
    assert documents[2] == {"year": None, "month": "卯", "day": "戊寅", "hour": None}
    yimao("cast", "--hex", "离", "--month", "子", "--day", "申", "--save", "--journal", str(tmp_path / "new.sqlite3"))
    assert _schema_of(journal) == _schema_of(tmp_path / "new.sqlite3")
    table = yimao("journal", "list").decode()
    assert "据四柱" in table and "卯月 戊寅日" in table and "丙午 己亥 庚戌 辛巳" in table and "2026-12-06" not in table
    yimao("journal", "tag", "2", "讼")
    yimao("journal", "question", "1", "问：明年可得财否")
    yimao("journal", "note", "1", "--edit", "1", "财在五爻，已应")
    assert [json.loads(x)["case"] for x in yimao("journal", "list", "--json", "--tag", "讼").splitlines()] == [2]
    case = json.loads(yimao("journal", "show", "1", "--json"))
    assert case["question_edited"]["saved"] == "问：今年可得财否" and case["notes"][0]["text"] == "财在五爻，已应"
    yimao("journal", "import", str(DATA / "journal_v1.jsonl"))  # its export of then: the same cases, nothing undone
    assert json.loads(yimao("journal", "show", "1", "--json")) == case


def test_a_stored_document_that_does_not_read_leaves_its_pillars_unknown(journal, yimao):
    """A damaged document does not stop the migration: its case lists without pillars, and is said
    as damaged where the document is read."""
    import sqlite3

    with sqlite3.connect(journal) as db:
        db.execute("UPDATE cases SET document = ? WHERE id = 3", (b"not zlib",))
    entries = [json.loads(x) for x in yimao("journal", "list", "--json").splitlines()]
    assert [e["pillars"] is None for e in entries] == [False, False, True]
    assert "困之兑" in yimao("journal", "list").decode()
