"""A journal made by a yimao of schema_version 1 is still read whole: listed, shown (read again as
schema 2, with nothing said changed when the readings agree), shown as saved (the schema-1 document
it stored), counted, exported and imported.

`tests/data/journal_v1.sqlite3` and `journal_v1.jsonl` were written by yimao at ef61fa6 (schema 1):
离之乾 at 2026-12-02 10:00 +08:00 (用 官, a note, 应), 大畜之离 from pillars (用 父, topic 官司),
困之兑 from pillars (用 财, topic 婚姻, 不应)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import jsonschema
import pytest

from yimao.launch import run as launch_run

DATA = Path(__file__).parent / "data"


@pytest.fixture
def journal(tmp_path, monkeypatch):
    path = tmp_path / "journal.sqlite3"
    shutil.copy(DATA / "journal_v1.sqlite3", path)
    monkeypatch.setenv("YIMAO_JOURNAL", str(path))
    monkeypatch.setenv("COLUMNS", "120")
    return path


@pytest.fixture
def yimao(monkeypatch, capfdbinary):
    def call(*args: str) -> bytes:
        monkeypatch.setattr(sys, "argv", ["yimao", *args])
        code = launch_run(list(args))
        out, err = capfdbinary.readouterr()
        assert code == 0 and b"Traceback" not in err, err.decode()
        return out

    return call


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
