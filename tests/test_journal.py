"""The journal of casts through its commands: save, list, show, note, outcome, stats, export,
import, delete, and the files that cannot be used. Every journal is a temporary file."""

from __future__ import annotations

import base64
import functools
import json
import os
import sqlite3
import subprocess
import sys
import zlib

import pytest
from conftest import answered_on_a_terminal, ok
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yimao.journal.case import JOURNAL_KEYS

DATE_CASES = [
    ("--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--use", "官"),
    ("--hex", "798788", "--date", "1999-12-31T23:30+08:00", "--day-start", "0", "--use", "世"),
    ("--hex", "101101", "--moving", "2,5", "--date", "2026-12-02T10:00", "--tz", "America/New_York", "--topic", "求财"),
    ("--hex", "困之兑", "--date", "2024-02-04T16:30+08:00", "--earth", "huo"),
]
PILLAR_CASES = [
    ("--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父"),
    ("--hex", "困之兑", "--month", "8", "--day", "庚申", "--use", "财", "--topic", "婚姻"),
    ("--hex", "离", "--year", "丙午", "--month", "子", "--day", "申"),
]


def cast_doc(yimao, args) -> dict:
    return json.loads(ok(yimao("cast", *args, "--json")))


def listed(yimao, *args: str) -> list[dict]:
    return [json.loads(line) for line in ok(yimao("journal", "list", "--json", *args)).splitlines()]


def without_journal_keys(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in JOURNAL_KEYS}


# --- save, list, show --------------------------------------------------------------------------


def test_save_changes_nothing_printed_but_one_line_on_stderr(journal, yimao):
    for args in (DATE_CASES[0], PILLAR_CASES[0]):
        for form in (("--json",), ()):
            plain = yimao("cast", *args, *form)
            saved = yimao("cast", *args, *form, "--save", "--question", f"问：今年可得财否 {form}")  # (the same question twice is one case)
            assert saved[0] == plain[0] == 0
            assert saved[1] == plain[1]  # the same document, the same tables
            extra = saved[2].replace(plain[2], b"", 1).decode()
            assert extra.count("\n") == 1 and extra.startswith("yimao: 已存为卦例 ")
    assert [e["case"] for e in listed(yimao)] == [1, 2, 3, 4]


def test_show_reproduces_the_cast_document(journal, yimao):
    for n, args in enumerate(DATE_CASES + PILLAR_CASES, 1):
        ok(yimao("cast", *args, "--save", "--question", f"q{n}"))
        shown = json.loads(ok(yimao("journal", "show", str(n), "--json")))
        assert without_journal_keys(shown) == cast_doc(yimao, args), args  # regenerated now, not stored bytes
        assert shown["case"] == n and shown["question"] == f"q{n}" and shown["changes"] is None
        assert set(JOURNAL_KEYS) <= set(shown)
        as_saved = json.loads(ok(yimao("journal", "show", str(n), "--json", "--as-saved")))
        assert without_journal_keys(as_saved) == without_journal_keys(shown)
    traditional = json.loads(ok(yimao("journal", "show", "5", "--json", "--traditional")))
    assert without_journal_keys(traditional) == cast_doc(yimao, (*PILLAR_CASES[0], "--traditional"))


def test_list_shows_cases_from_dates_and_pillars(journal, yimao):
    ok(yimao("cast", *DATE_CASES[0], "--save", "--question", "问：今年可得财否"))
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    first, second = listed(yimao)
    assert first["case"] == 1 and first["question"] == "问：今年可得财否" and first["spec"] == "离之乾"
    assert (first["hexagram"], first["changed_hexagram"], first["use"]) == ("离为火", "乾为天", "官")
    assert first["moment"] == "2026-12-02T10:00:00+08:00" and first["outcome"] is None
    assert second["moment"] is None and second["spec"] == "大畜之离" and second["use"] == "父"
    table = ok(yimao("journal", "list")).decode()
    assert "问：今年可得财否" in table and "离之乾" in table and "大畜之离" in table


def test_the_stored_case_keeps_inputs_moment_and_document(journal, yimao):
    ok(yimao("cast", *DATE_CASES[2], "--save"))
    with sqlite3.connect(journal) as db:
        inputs, utc, local, conventions, version, schema, saved_at, blob = db.execute(
            "SELECT inputs, moment_utc, moment_local, conventions, yimao_version, schema_version, saved_at, document FROM cases"
        ).fetchone()
    inputs = json.loads(inputs)
    assert inputs["hex"] == "101101" and inputs["moving"] == "2,5" and inputs["date"] == "2026-12-02T10:00"
    assert inputs["tz"] == "America/New_York" and inputs["topic"] == "求财" and inputs["day_start"] == 23 and inputs["earth"] == "shui"
    assert utc == "2026-12-02T15:00:00Z" and local == "2026-12-02T10:00:00-05:00"  # 10:00 in New York is 15:00 UTC
    assert json.loads(conventions)["timezone"] == "America/New_York"
    assert schema == 2 and version and saved_at.endswith("Z")
    assert json.loads(zlib.decompress(blob)) == cast_doc(yimao, DATE_CASES[2])


def test_a_case_cast_for_now_or_in_the_system_zone_reads_the_same_elsewhere(tmp_path):
    env = {**os.environ, "YIMAO_JOURNAL": str(tmp_path / "j.sqlite3"), "TZ": "Asia/Shanghai"}
    for args in (("cast", "--hex", "离之乾", "--save", "--json"), ("cast", "--hex", "离之乾", "--date", "2026-06-01 23:30", "--save", "--json")):
        saved = subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=env, timeout=60)
        assert saved.returncode == 0, saved.stderr
        number = saved.stderr.decode().split("已存为卦例 ")[1].split()[0]
        then = json.loads(saved.stdout)
        elsewhere = {**env, "TZ": "America/Los_Angeles"}  # another machine, another day
        shown = subprocess.run([sys.executable, "-m", "yimao", "journal", "show", number, "--json"], capture_output=True, env=elsewhere, timeout=60)
        assert shown.returncode == 0 and shown.stderr == b"", shown.stderr
        assert without_journal_keys(json.loads(shown.stdout)) == then


def test_show_says_when_this_yimao_reads_a_case_otherwise(journal, yimao):
    ok(yimao("cast", *PILLAR_CASES[2], "--save"))  # 申日之离: 助鬼伤身 holds
    # the case as an earlier yimao would have read it: 助鬼伤身 not found
    with sqlite3.connect(journal) as db:
        doc = json.loads(zlib.decompress(db.execute("SELECT document FROM cases").fetchone()[0]))
        assert doc["findings"][0]["rule"] == "助鬼伤身" and doc["findings"][0]["holds"] is True
        doc["findings"][0]["holds"] = False
        db.execute("UPDATE cases SET document = ?, yimao_version = '0.0.1'", (zlib.compress(json.dumps(doc).encode()),))
    code, out, err = yimao("journal", "show", "1", "--json")
    assert code == 0
    shown = json.loads(out)
    assert shown["changes"] == [{"path": "findings[0].holds", "then": False, "now": True}]
    assert "所读不同" in err.decode() and "0.0.1" in err.decode() and "findings[0].holds" in err.decode()
    assert without_journal_keys(shown) == cast_doc(yimao, PILLAR_CASES[2])  # the reading of today
    assert json.loads(ok(yimao("journal", "show", "1", "--json", "--as-saved")))["findings"][0]["holds"] is False  # and what was seen then
    table = ok(yimao("journal", "show", "1")).decode()
    assert "findings[0].holds" in table


def test_a_key_added_since_is_no_change(journal, yimao):
    """A case saved before the document gained a key (a schema grows by additions) reads the same:
    only values that were there and differ are changes."""
    ok(yimao("cast", *DATE_CASES[0], "--save"))
    with sqlite3.connect(journal) as db:
        doc = json.loads(zlib.decompress(db.execute("SELECT document FROM cases").fetchone()[0]))
        assert doc["stars"] and doc["findings"]
        for star in doc["stars"]:
            del star["day_match"]
        del doc["findings"][0]["kind"]
        doc["hexagram"]["shi"] = 1  # and one value that differs
        db.execute("UPDATE cases SET document = ?", (zlib.compress(json.dumps(doc).encode()),))
    shown = json.loads(ok(yimao("journal", "show", "1", "--json")))
    assert [c["path"] for c in shown["changes"]] == ["hexagram.shi"]


def test_show_as_tables(journal, yimao):
    ok(yimao("cast", *DATE_CASES[0], "--save", "--question", "问：今年可得财否"))
    ok(yimao("journal", "note", "1", "财在五爻"))
    ok(yimao("journal", "outcome", "1", "--verdict", "应", "--date", "2027-01-05", "--note", "得财"))
    shown = ok(yimao("journal", "show", "1", "--explain")).decode()
    cast = ok(yimao("cast", *DATE_CASES[0], "--explain")).decode()
    assert shown.startswith(cast)  # the chart as cast shows it, then the case
    rest = shown[len(cast) :]
    assert "问：今年可得财否" in rest and "财在五爻" in rest and "应" in rest and "2027-01-05" in rest and "得财" in rest


# --- notes and outcomes -------------------------------------------------------------------------


def test_notes_and_outcomes_are_recorded_and_listed(journal, yimao):
    ok(yimao("cast", *DATE_CASES[0], "--save", "--question", "问财"))
    ok(yimao("cast", *PILLAR_CASES[0], "--save", "--question", "问婚"))
    ok(yimao("journal", "note", "1", "财在五爻"))
    ok(yimao("journal", "note", "1", "待午月"))
    ok(yimao("journal", "outcome", "2", "--verdict", "部分", "--note", "婚成而迟", "--date", "2027-03-01"))
    entries = listed(yimao)
    assert [(e["notes"], e["outcome"]) for e in entries] == [(2, None), (0, "部分")]
    shown = json.loads(ok(yimao("journal", "show", "1", "--json")))
    assert [n["text"] for n in shown["notes"]] == ["财在五爻", "待午月"]
    o = json.loads(ok(yimao("journal", "show", "2", "--json")))["outcome"]
    assert (o["verdict"], o["note"], o["date"]) == ("部分", "婚成而迟", "2027-03-01")
    ok(yimao("journal", "outcome", "2", "--verdict", "应"))  # recorded again: replaces
    assert [e["outcome"] for e in listed(yimao)] == [None, "应"]
    assert "应" in ok(yimao("journal", "list")).decode()


@pytest.mark.parametrize(
    "args, says",
    [
        (("journal", "outcome", "1", "--verdict", "好"), "unknown verdict"),
        (("journal", "outcome", "1", "--verdict", "应", "--date", "next week"), "--date"),
        (("journal", "outcome", "7", "--verdict", "应"), "no case 7"),
        (("journal", "note", "7", "x"), "no case 7"),
        (("journal", "note", "1", " "), "empty note"),
        (("journal", "show", "7"), "no case 7"),
        (("journal", "show", "x"), "ID"),
        (("journal", "delete", "7", "--yes"), "no case 7"),
        (("journal", "list", "--since", "2026-13-01"), "--since"),
        (("journal", "list", "--hex", "没有"), "没有"),
        (("cast", "--hex", "离", "--question", "问"), "--save"),
        (("journal", "show", "1", "--as-saved"), "--json"),
    ],
)
def test_bad_input_is_exit_2_with_a_message(journal, yimao, args, says):
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    code, out, err = yimao(*args)
    assert (code, out) == (2, b"") and says in err.decode()


def test_list_filters(journal, yimao):
    ok(yimao("cast", *DATE_CASES[0], "--save", "--question", "今年可得财否"))  # 离之乾, 2026-12-02
    ok(yimao("cast", *DATE_CASES[1], "--save", "--question", "问病"))  # 1999-12-31
    ok(yimao("cast", *DATE_CASES[2], "--save", "--question", "问行人"))  # 离之乾 too (101101 moving 2 and 5), topic 求财
    ok(yimao("cast", *PILLAR_CASES[1], "--save", "--question", "问婚"))  # 困之兑, 婚姻, no moment
    ok(yimao("journal", "note", "2", "后来痊愈"))

    def numbers(*args: str) -> list[int]:
        return [e["case"] for e in listed(yimao, *args)]

    assert numbers() == [1, 2, 3, 4]
    assert numbers("--topic", "婚姻") == [4] and numbers("--topic", "求财") == [3]
    assert numbers("--hex", "乾") == [1, 3] and numbers("--hex", "乾为天") == [1, 3] and numbers("--hex", "離之乾") == [1, 3]
    assert numbers("--hex", "兑") == [4] and numbers("--hex", "困") == [4] and numbers("--hex", "离之坤") == []
    assert numbers("--hex", "离") == [e["case"] for e in listed(yimao) if "离" in e["spec"]]
    assert numbers("--since", "2026-01-01") == [1, 3]  # 4: cast from pillars, has no date (the day it was saved is not its date)
    assert numbers("--until", "2000-01-01") == [2]
    assert numbers("--since", "1999-12-31", "--until", "1999-12-31") == [2]
    assert numbers("--search", "财") == [1] and numbers("--search", "痊愈") == [2] and numbers("--search", "%") == []


def test_a_topic_is_kept_as_the_book_names_it(journal, yimao):
    """官司 is read as 词讼 (the stars and rules read it so): kept so, and found by either word;
    the request keeps the word as given. A case saved when the word itself was kept is found by it."""
    ok(yimao("cast", *PILLAR_CASES[0], "--topic", "官司", "--save"))
    ok(yimao("cast", *PILLAR_CASES[1], "--save"))  # 婚姻
    assert [e["topic"] for e in listed(yimao)] == ["词讼", "婚姻"]
    assert json.loads(ok(yimao("journal", "export")).splitlines()[0])["topic"] == "官司"
    for word in ("官司", "词讼", "诉讼"):
        assert [e["case"] for e in listed(yimao, "--topic", word)] == [1]
    with sqlite3.connect(journal) as db:
        db.execute("UPDATE cases SET topic = '官司' WHERE id = 1")
    assert [e["case"] for e in listed(yimao, "--topic", "官司")] == [1]
    code, out, err = yimao("journal", "list", "--topic", "赌博")
    assert (code, out) == (2, b"") and "赌博" in err.decode()


# --- stats --------------------------------------------------------------------------------------

# 申日之离, 亥日之泰: 助鬼伤身 (the book's own examples, 是以前贤举申日之离，寅日之咸，亥日之泰者为法);
# 巳日之巽 is not (巳日之巽 … 非大生), and its 三刑 holds.
STATS_CASES = [
    (("--hex", "离", "--month", "子", "--day", "申"), "应"),
    (("--hex", "泰", "--month", "子", "--day", "亥"), "不应"),
    (("--hex", "离之乾", "--month", "子", "--day", "申"), "部分"),
    (("--hex", "巽", "--month", "子", "--day", "巳"), "应"),
    (("--hex", "泰", "--month", "子", "--day", "亥"), None),  # no outcome: not counted
]


def test_stats_count_a_known_set_of_cases(journal, yimao):
    assert "尚无卦例记应验" in ok(yimao("journal", "stats")).decode()
    for n, (args, verdict) in enumerate(STATS_CASES, 1):
        ok(yimao("cast", *args, "--save"))
        if verdict:
            ok(yimao("journal", "outcome", str(n), "--verdict", verdict))
    stats = json.loads(ok(yimao("journal", "stats", "--json")))
    assert stats["cases"] == {"应": 2, "不应": 1, "部分": 1}
    findings = {f["name"]: f["counts"] for f in stats["findings"]}
    assert findings["助鬼伤身"] == {"应": 1, "不应": 1, "部分": 1}
    assert findings["三刑 刑"] == {"应": 1, "不应": 0, "部分": 0}
    # every row, against the documents cast again: a case counts once for each family it holds
    docs = [(cast_doc(yimao, args), v) for args, v in STATS_CASES if v]
    for row in stats["stars"]:
        expected = {
            v: sum(1 for d, dv in docs if dv == v and any(s["id"] == row["id"] and s["active"] for s in d["stars"])) for v in ("应", "不应", "部分")
        }
        assert row["counts"] == expected, row
    active = {s["id"]: s["label"] for s in docs[2][0]["stars"] if s["active"]}
    assert active and {r["id"]: r["name"] for r in stats["stars"]} == active  # only 离之乾 moves: only its stars act
    assert active["yuesha_yuekong"] == "月煞（耗废）"  # a name two stars share, told apart by its label
    assert all(r["counts"] == {"应": 0, "不应": 0, "部分": 1} for r in stats["stars"])
    table = ok(yimao("journal", "stats")).decode()
    assert "助鬼伤身" in table and "应 2" in table


# --- export, import, batch ----------------------------------------------------------------------


def test_export_import_round_trip_and_idempotence(journal, yimao, tmp_path):
    for args in DATE_CASES[:2] + PILLAR_CASES[:2]:
        ok(yimao("cast", *args, "--save", "--question", "问"))
    ok(yimao("journal", "note", "2", "一记"))
    ok(yimao("journal", "outcome", "3", "--verdict", "不应", "--note", "未成"))
    ok(yimao("journal", "delete", "1", "--yes"))  # a gap in the numbers
    exported = ok(yimao("journal", "export"))
    assert ok(yimao("journal", "export", "--json")) == exported
    lines = [json.loads(line) for line in exported.splitlines()]
    assert len(lines) == 3 and all(line["journal"]["hash"] for line in lines)
    before = listed(yimao)
    dump = tmp_path / "cases.jsonl"
    dump.write_bytes(exported)
    other = str(tmp_path / "other.sqlite3")
    code, _, err = yimao("journal", "import", str(dump), "--journal", other)
    assert code == 0 and "已导入新卦例 3 个" in err.decode()
    assert listed(yimao, "--journal", other) == before  # numbers, questions, notes, outcomes
    code, _, err = yimao("journal", "import", str(dump), "--journal", other)
    assert code == 0 and "已导入新卦例 0 个，已有 3 个" in err.decode()
    assert listed(yimao, "--journal", other) == before
    for e in before:
        a = json.loads(ok(yimao("journal", "show", str(e["case"]), "--json")))
        b = json.loads(ok(yimao("journal", "show", str(e["case"]), "--json", "--journal", other)))
        assert a == b
    # a note added in one journal reaches the other by a second import; nothing is doubled
    ok(yimao("journal", "note", "2", "再记"))
    dump.write_bytes(ok(yimao("journal", "export")))
    code, _, err = yimao("journal", "import", str(dump), "--journal", other)
    assert code == 0 and "（为之添笔记 1 条、应验 0 个、标签 0 个，取其后改 0 处）" in err.decode()
    assert [e["notes"] for e in listed(yimao, "--journal", other)] == [2, 0, 0]


def test_import_reads_standard_input(journal, yimao, tmp_path, monkeypatch):
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    exported = ok(yimao("journal", "export"))
    other = tmp_path / "other.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "yimao", "journal", "import", "-", "--journal", str(other)], input=exported, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert listed(yimao, "--journal", str(other)) == listed(yimao)


def test_a_bad_import_adds_nothing(journal, yimao, tmp_path):
    for args in PILLAR_CASES:
        ok(yimao("cast", *args, "--save"))
    lines = ok(yimao("journal", "export")).splitlines()
    other = str(tmp_path / "other.sqlite3")
    bad = json.loads(lines[2])
    bad["journal"]["outcome"] = {"verdict": "好", "note": None, "date": None, "recorded_at": "2026-01-01T00:00:00Z"}
    tampered = json.loads(lines[1])
    tampered["hex"] = "乾"  # the hash no longer matches
    for last, says in ((json.dumps(bad, ensure_ascii=False).encode(), "line 3"), (b"{not json", "line 3"), (json.dumps(tampered).encode(), "line 3")):
        dump = tmp_path / "cases.jsonl"
        dump.write_bytes(b"\n".join([lines[0], lines[1], last]) + b"\n")
        code, out, err = yimao("journal", "import", str(dump), "--journal", other)
        assert (code, out) == (2, b"") and says in err.decode() and str(dump) in err.decode()
        assert listed(yimao, "--journal", other) == []


def exported_from(yimao, tmp_path, name: str, *casts: tuple[str, ...]) -> list[dict]:
    """The export lines of a journal `name` (beside the test's) holding `casts`, saved in order."""
    other = str(tmp_path / f"{name}.sqlite3")
    for args in casts:
        ok(yimao("cast", *args, "--save", "--journal", other))
    return [json.loads(line) for line in ok(yimao("journal", "export", "--journal", other)).splitlines()]


def import_lines(yimao, tmp_path, lines: list, *args: str) -> tuple[int, bytes, bytes]:
    """`journal import` of `lines` (objects, or bytes as they are) from a file."""
    dump = tmp_path / "import.jsonl"
    dump.write_bytes(b"".join(line if isinstance(line, bytes) else json.dumps(line, ensure_ascii=False).encode() + b"\n" for line in lines))
    return yimao("journal", "import", str(dump), *args)


@pytest.mark.parametrize(
    "number, kept",
    [(2**63 - 1, False), (2**31, False), (2**31 - 1, True), (7, True), (1, False), (0, False), (-3, False), (-(2**63), False)],
)
def test_an_imported_case_keeps_its_number_only_when_the_journal_can_give_it(journal, yimao, tmp_path, number, kept):
    """A number is kept when in 1..2**31-1 and above every number the journal has given; else the
    case gets the next one. Whatever a line says, the journal goes on saving (2**63 - 1 once made
    every later save fail: AUTOINCREMENT had no number left)."""
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    line = exported_from(yimao, tmp_path, "other", PILLAR_CASES[1])[0]
    line["journal"]["case"] = number
    ok(import_lines(yimao, tmp_path, [line]))
    assert [e["case"] for e in listed(yimao)] == [1, number if kept else 2]
    ok(yimao("cast", *PILLAR_CASES[2], "--save"))
    assert listed(yimao)[-1]["case"] == (number + 1 if kept else 3)


def test_a_journal_whose_last_number_an_earlier_import_took_says_so_and_its_cases_move(journal, yimao, tmp_path):
    """An earlier yimao kept any imported number, 2**63 - 1 included, after which SQLite has no
    number to give: a save says so (not "the disk is full"), keeps nothing, and names the way
    out, which works: exported and imported into a new journal, that case gets the next number."""
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    with sqlite3.connect(journal) as db:
        db.execute("UPDATE cases SET id = ?", (2**63 - 1,))
    code, out, err = yimao("cast", *PILLAR_CASES[1], "--save")
    said = err.decode()
    assert (code, out) == (2, b"")
    assert "last case number (9,223,372,036,854,775,807" in said and "disk" not in said and "journal import" in said
    assert [e["case"] for e in listed(yimao)] == [2**63 - 1]
    fresh = str(tmp_path / "new.sqlite3")
    dump = tmp_path / "cases.jsonl"
    dump.write_bytes(ok(yimao("journal", "export")))
    ok(yimao("journal", "import", str(dump), "--journal", fresh))
    ok(yimao("cast", *PILLAR_CASES[1], "--save", "--journal", fresh))
    assert [(e["case"], e["question"]) for e in listed(yimao, "--journal", fresh)] == [(1, None), (2, None)]


def test_list_last_keeps_the_last_cases_the_filters_keep(journal, yimao):
    """--last N: the N highest numbers among the cases kept, still in order; N from 1."""
    for args in PILLAR_CASES:
        ok(yimao("cast", *args, "--save"))
    ok(yimao("journal", "delete", "2", "--yes"))
    assert [e["case"] for e in listed(yimao, "--last", "2")] == [1, 3]  # 2 deleted
    numbers = [e["case"] for e in listed(yimao)]
    for n in range(1, len(numbers) + 2):
        assert [e["case"] for e in listed(yimao, "--last", str(n))] == numbers[-n:]
    spec = listed(yimao)[-1]["spec"]
    assert [e["case"] for e in listed(yimao, "--hex", spec, "--last", "1")] == [e["case"] for e in listed(yimao, "--hex", spec)][-1:]
    table = ok(yimao("journal", "list", "--last", "1")).decode()
    assert "卦例 1" in table and str(numbers[-1]) in table
    for bad in ("0", "-1", "x"):
        code, out, err = yimao("journal", "list", "--last", bad)
        assert (code, out) == (2, b"") and "--last" in err.decode()


def test_import_never_gives_a_deleted_cases_number(journal, yimao, tmp_path):
    """docs/design.md §8: a number is never given again after a deletion, by a save or an import."""
    for args in PILLAR_CASES:
        ok(yimao("cast", *args, "--save"))  # 1-3
    theirs = exported_from(yimao, tmp_path, "r2", PILLAR_CASES[1], PILLAR_CASES[2])  # their 1 and 2
    ok(yimao("journal", "delete", "2", "--yes"))
    ok(yimao("journal", "delete", "3", "--yes"))  # the highest given too
    ok(import_lines(yimao, tmp_path, theirs))
    assert [e["case"] for e in listed(yimao)] == [1, 4, 5]
    code, _, err = yimao("journal", "show", "2")
    assert code == 2 and "no case 2" in err.decode()
    # into an empty journal, an export keeps its numbers, gaps and all; out of order, a number
    # already passed is not kept
    empty = str(tmp_path / "empty.sqlite3")
    mine = [json.loads(line) for line in ok(yimao("journal", "export")).splitlines()]
    ok(import_lines(yimao, tmp_path, mine, "--journal", empty))
    assert [e["case"] for e in listed(yimao, "--journal", empty)] == [1, 4, 5]
    shuffled = str(tmp_path / "shuffled.sqlite3")
    ok(import_lines(yimao, tmp_path, [mine[2], mine[0], mine[1]], "--journal", shuffled))
    got = [(e["case"], e["saved_at"]) for e in listed(yimao, "--journal", shuffled)]
    assert got == [(5, mine[2]["journal"]["saved_at"]), (6, mine[0]["journal"]["saved_at"]), (7, mine[1]["journal"]["saved_at"])]


# --- what an import refuses ---------------------------------------------------------------------


@functools.cache
def base_lines() -> tuple[str, str]:
    """Two export lines, as JSON text: a case cast for a date in a named zone, with a note and an
    outcome, and one cast from pillars."""
    from yimao.journal.case import Note, Outcome, export_line, new_case
    from yimao.pipeline import CastRequest, read

    dated = CastRequest("101101", moving="2,5", date="2026-12-02T10:00", tz="America/New_York", topic="求财", use="财")
    given = CastRequest("困之兑", month="8", day="庚申", use="财", topic="婚姻")
    first = new_case(dated, read(dated), "问财", "2026-12-02T15:01:00.000001Z")._replace(
        id=5, notes=(Note("财在五爻", "2026-12-04T08:00:00.000001Z"),), outcome=Outcome("部分", "迟", "2027-03-01", "2027-03-02T00:00:00Z")
    )
    second = new_case(given, read(given), None, "2026-12-05T01:00:00Z")._replace(id=6)
    return tuple(json.dumps(export_line(c), ensure_ascii=False) for c in (first, second))  # type: ignore[return-value]


def rehashed(line: dict) -> dict:
    """`line` with its hash made its content's again, when it can be: so that what a test changed
    is refused for itself, not for a hash that no longer matches."""
    from yimao.errors import YimaoError
    from yimao.journal.case import content_hash
    from yimao.pipeline import CastRequest

    j = line.get("journal")
    try:
        inputs = CastRequest.from_mapping(line).inputs()
        edit = j.get("question_edited")
        question = edit["saved"] if isinstance(edit, dict) and "saved" in edit else j.get("question")  # the question as saved
        j["hash"] = content_hash(inputs, question, j.get("saved_at"))
    except (YimaoError, TypeError, AttributeError):
        pass
    return line


def put(line: dict, path: str, value) -> dict:
    """`line` with the value at `path` (keys and indices, dotted: journal.notes.0.text) replaced,
    or deleted for DELETE."""
    *parents, last = [int(k) if k.isdigit() else k for k in path.split(".")]
    here = line
    for k in parents:
        here = here[k]
    if value is DELETE:
        del here[last]
    else:
        here[last] = value
    return line


DELETE = object()


def stored(doc_or_bytes) -> str:
    """A `journal.document`: base64 of zlib of a document (or of bytes as they are)."""
    data = doc_or_bytes if isinstance(doc_or_bytes, bytes) else json.dumps(doc_or_bytes, ensure_ascii=False).encode()
    return base64.b64encode(zlib.compress(data)).decode()


def the_document(line: dict) -> dict:
    return json.loads(zlib.decompress(base64.b64decode(line["journal"]["document"])))


def nested(depth: int):
    v: list = []
    for _ in range(depth):
        v = [v]
    return v


def doc_with(path: str, value):
    """A change to the stored document: the line's document with `path` set to `value`."""
    return lambda line: stored(put(the_document(line), path, value))


# (which line, path, value or a function of the line giving it, what the message says)
REFUSED = [
    (0, "hex", "不是卦", "unknown hexagram"),
    (0, "topic", "赌博", "赌博"),
    (0, "use", "老板", "老板"),
    (0, "day_start", 7, "day start"),
    (0, "moving", [9], "moving"),
    (0, "date", "garbage", "garbage"),
    (0, "date", "2026-12-03T10:00", "the moment the request's date names"),
    (0, "tz", "Asia/Tokyo", "the moment the request's date names"),
    (0, "tz", DELETE, "timezone_source must be 'system'"),
    (0, "month", "卯", "either"),
    (0, "journal.hash", None, "journal.hash"),
    (0, "journal.hash", "0" * 64, "journal.hash"),
    (0, "journal.saved_at", "garbage", "journal.saved_at"),
    (0, "journal.saved_at", "2026-12-02T10:00:00", "journal.saved_at"),  # no zone
    (0, "journal.saved_at", "20261202T100000Z", "journal.saved_at"),  # not the date first
    (0, "journal.saved_at", 20261202, "journal.saved_at"),
    (0, "journal.moment", None, "journal.moment"),
    (0, "journal.moment", "2026-12-02T15:00:00Z", "journal.moment"),
    (0, "journal.moment.utc", "garbage", "journal.moment"),
    (0, "journal.moment.utc", "2026-12-02T16:00:00Z", "journal.moment"),
    (0, "journal.moment.local", "2026-12-02T11:00:00-04:00", "journal.moment"),
    (0, "journal.moment.local", "0001-01-01T00:00:00+05:00", "journal.moment"),
    (0, "journal.conventions", [1, 2], "journal.conventions"),
    (0, "journal.conventions", None, "journal.conventions"),
    (0, "journal.conventions.timezone", 8, "journal.conventions"),
    (0, "journal.conventions.timezone_source", "mars", "journal.conventions"),
    (0, "journal.conventions.timezone_source", "offset", "timezone_source must be '--tz'"),
    (0, "journal.conventions.day_start", 0, "journal.conventions.day_start"),
    (0, "journal.conventions.extra", {"a": 1}, "journal.conventions.extra"),
    (0, "journal.schema_version", 1e300, "1e+300"),
    (0, "journal.schema_version", 3, "journal.schema_version"),
    (0, "journal.schema_version", 1, "not the case's 1"),  # a schema this yimao knows, but not its document's
    (0, "journal.schema_version", True, "journal.schema_version"),
    (0, "journal.schema_version", "1", "journal.schema_version"),
    (0, "journal.format", 2, "journal.format"),
    (0, "journal.format", DELETE, "journal lacks format"),
    (0, "journal.case", "3", "journal.case"),
    (0, "journal.case", 1.0, "journal.case"),
    (0, "journal.case", True, "journal.case"),
    (0, "journal.case", 1e300, "journal.case"),
    (0, "journal.question", 5, "journal.question"),
    (0, "journal.yimao_version", None, "journal.yimao_version"),
    (0, "journal.yimao_version", "x" * 65, "journal.yimao_version"),
    (0, "journal.notes", None, "journal.notes"),
    (0, "journal.notes.0", "财在五爻", "journal.notes[0]"),
    (0, "journal.notes.0.text", " ", "journal.notes[0]"),
    (0, "journal.notes.0.written_at", "soon", "journal.notes[0].written_at"),
    (0, "journal.outcome", ["应"], "journal.outcome"),
    (0, "journal.outcome.verdict", "好", "unknown verdict"),
    (0, "journal.outcome.date", "2027-02-30", "journal.outcome.date"),
    (0, "journal.outcome.date", "20270301", "journal.outcome.date"),
    (0, "journal.outcome.note", ["迟"], "journal.outcome.note"),
    (0, "journal.outcome.recorded_at", None, "journal.outcome.recorded_at"),
    (0, "journal.document", 5, "journal.document"),
    (0, "journal.document", "!!not base64!!", "journal.document"),
    (0, "journal.document", base64.b64encode(b"not zlib").decode(), "not zlib"),
    (0, "journal.document", stored(b"{not json"), "not JSON"),
    (0, "journal.document", stored([1, 2]), "an array, not an object"),
    (0, "journal.document", doc_with("schema_version", 1), "schema_version"),
    (0, "journal.document", doc_with("findings", None), "findings"),
    (0, "journal.document", doc_with("findings.0.holds", "yes"), "findings[0].holds"),
    (0, "journal.document", doc_with("findings.0.rule", None), "findings[0].rule"),
    (0, "journal.document", doc_with("stars.0.id", 5), "stars[0].id"),
    (0, "journal.document", doc_with("stars.0.active", 1), "stars[0].active"),
    (0, "journal.document", doc_with("stars.1", "紫微"), "stars[1]"),
    (0, "journal.document", doc_with("deep", nested(300)), "nests too deeply"),
    (0, "journal.tags", "求财", "journal.tags must be an array"),
    (0, "journal.tags", None, "journal.tags must be an array"),
    (0, "journal.tags", [5], "journal.tags[0] must be a string"),
    (0, "journal.tags", ["求财", " 张先生"], "journal.tags[1] must be a tag as kept, trimmed"),
    (0, "journal.tags", ["Work", "work"], "journal.tags[1] repeats a tag"),
    (0, "journal.tags", [""], "journal.tags[0]: an empty tag"),
    (0, "journal.tags", ["a\nb"], "journal.tags[0]: a tag is one line"),
    (0, "journal.tags", ["x" * 33], "journal.tags[0]: a tag is at most 32 characters"),
    (0, "journal.question_edited", "问", "journal.question_edited must be"),
    (0, "journal.question_edited", {"saved": "问"}, "journal.question_edited must be"),
    (0, "journal.question_edited", {"saved": "问", "at": "2027-01-01T00:00:00Z", "by": "me"}, "journal.question_edited must be"),
    (0, "journal.question_edited", {"saved": 5, "at": "2027-01-01T00:00:00Z"}, "journal.question_edited.saved"),
    (0, "journal.question_edited", {"saved": "问", "at": "soon"}, "journal.question_edited.at"),
    (0, "journal.notes.0.edited_at", "soon", "journal.notes[0].edited_at"),
    (0, "journal.notes.0.edited_at", 5, "journal.notes[0].edited_at"),
    (
        1,
        "journal",
        lambda line: {**line["journal"], **{k: json.loads(base_lines()[0])["journal"][k] for k in ("moment", "conventions")}},
        "cast from pillars",
    ),
    (1, "journal.conventions", {"timezone": "UTC", "timezone_source": "offset"}, "journal.conventions must be null"),
    (1, "journal", [], "no `journal` object"),
]


@pytest.mark.parametrize("which, path, value, says", REFUSED, ids=[f"{p}={v!r:.20}" for _, p, v, _ in REFUSED])
def test_an_import_refuses_a_case_cast_would_not_store(journal, yimao, tmp_path, which, path, value, says):
    """Each field of a line is checked as `cast --save` would have made it; a bad line refuses the
    whole import (the good line before it is not kept), naming the line and what is wrong."""
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    before = listed(yimao)
    good = json.loads(base_lines()[1 - which])
    bad = json.loads(base_lines()[which])
    bad = put(bad, path, value(bad) if callable(value) else value)
    if path != "journal.hash":
        bad = rehashed(bad)
    code, out, err = import_lines(yimao, tmp_path, [good, bad])
    assert (code, out) == (2, b"")
    message = err.decode()
    assert "import.jsonl, line 2: " in message and says in message, message
    assert listed(yimao) == before
    with sqlite3.connect(journal) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_the_lines_refused_above_are_good_before_they_are_changed(journal, yimao, tmp_path):
    ok(import_lines(yimao, tmp_path, [json.loads(line) for line in base_lines()]))
    assert [(e["case"], e["topic"], e["notes"], e["outcome"]) for e in listed(yimao)] == [(5, "求财", 1, "部分"), (6, "婚姻", 0, None)]


def test_a_line_of_an_earlier_export_lacks_tags_and_edits(journal, yimao, tmp_path):
    """Exports made before the journal's schema 2 have no `tags`, `question_edited` nor a note's
    `edited_at`: such a line imports, as a case without tags or edits."""
    line = json.loads(base_lines()[0])
    for key in ("tags", "question_edited"):
        del line["journal"][key]
    del line["journal"]["notes"][0]["edited_at"]
    ok(import_lines(yimao, tmp_path, [line]))
    case = json.loads(ok(yimao("journal", "show", "5", "--json")))
    assert (case["tags"], case["question_edited"], case["notes"][0]["edited_at"]) == ([], None, None)


def test_a_line_with_tags_and_edits_imports_them(journal, yimao, tmp_path):
    """The hash is of the question as saved: an edited case's line names it, and imports."""
    line = json.loads(base_lines()[0])
    line["journal"]["tags"] = ["求财", "Work"]
    line["journal"]["question_edited"] = {"saved": line["journal"]["question"], "at": "2027-01-01T00:00:00Z"}
    line["journal"]["question"] = "问财何时"
    line["journal"]["notes"][0]["edited_at"] = "2027-01-02T00:00:00Z"
    ok(import_lines(yimao, tmp_path, [line]))
    case = json.loads(ok(yimao("journal", "show", "5", "--json")))
    assert case["tags"] == ["Work", "求财"] and case["question"] == "问财何时"
    assert case["question_edited"] == {"saved": "问财", "at": "2027-01-01T00:00:00Z"} and case["notes"][0]["edited_at"] == "2027-01-02T00:00:00Z"
    line["journal"]["question_edited"]["saved"] = "另一问"  # the hash is no longer of the question as saved
    code, out, err = import_lines(yimao, tmp_path, [line])
    assert (code, out) == (2, b"") and "journal.hash" in err.decode()


def test_an_imported_case_takes_its_names_from_its_reading(journal, yimao, tmp_path):
    """The names listed, the 用神 and the topic are the reading's, never the stored document's
    (a document whose hexagram is no hexagram once made `journal list` fail for the whole
    journal); the document is kept as it was, and `show` says where it differs."""
    line = json.loads(base_lines()[1])
    line["journal"]["document"] = doc_with("hexagram.name", "不是卦")(line)
    line["topic"] = "官司"
    ok(import_lines(yimao, tmp_path, [rehashed(line)]))
    [entry] = listed(yimao)
    assert (entry["hexagram"], entry["changed_hexagram"], entry["spec"], entry["use"], entry["topic"]) == ("泽水困", "兑为泽", "困之兑", "财", "词讼")
    code, out, err = yimao("journal", "show", "6", "--json")
    assert code == 0 and "hexagram.name" in err.decode()
    assert json.loads(ok(yimao("journal", "show", "6", "--json", "--as-saved")))["hexagram"]["name"] == "不是卦"


# Hostile lines: the line of a good case with one field given a value `cast --save` would never
# have stored — another JSON type, a number too big, negative, fractional or boolean, a name that
# is no hexagram, topic or 用神, a malformed moment or conventions, null, nested junk — its hash
# made its content's again, so that the field itself is what is refused.
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([2**63, 2**63 - 1, -(2**63) - 1, 2**64, 10**30, 1e300, -1e300, 0.5, -0.0, 1.0])
    | st.text(max_size=20)
)
JUNK = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)
BAD_TIMES = st.sampled_from(
    [
        "garbage",
        "",
        "2026-13-01T00:00:00Z",
        "2026-12-02",
        "2026-12-02T10:00:00",
        "20261202T100000Z",
        "0001-01-01T00:00:00+05:00",
        "2026-12-02T10:00:00+25:00",
    ]
)


def unlike(*types: type):
    """Junk of a JSON type other than `types` (bool is not int here, as JSON has it)."""
    return JUNK.filter(lambda v: type(v) not in types)


def failing(check):
    """Texts that `check` refuses (raises a YimaoError or ValueError for)."""
    from yimao.errors import YimaoError

    def refused(text: str) -> bool:
        try:
            check(text)
        except (YimaoError, ValueError):
            return True
        return False

    return st.text(max_size=16).filter(refused)


def _hexagram(text: str) -> None:
    from yimao.hexagram import Cast

    Cast.parse(text, "2,5")


def _topic(text: str) -> None:
    from yimao.pipeline import book_topic

    book_topic(text)


def _date(text: str) -> None:
    from yimao.pillars import parse_moment

    parse_moment(text, "America/New_York")


def _time(text: str) -> None:
    from datetime import datetime

    datetime.fromisoformat(text)


def _differs(path: str):
    """Junk unlike the good line's value at `path`."""
    good = json.loads(base_lines()[0])
    for k in path.split("."):
        good = good[int(k) if k.isdigit() else k]
    return JUNK.filter(lambda v: v != good)


NOT_ONE = (JUNK | st.integers()).filter(lambda v: not (type(v) is int and v == 1))
# Not the schema of the lines' documents (2): a case of schema 1 must hold a document of schema 1.
NOT_TWO = (JUNK | st.integers()).filter(lambda v: not (type(v) is int and v == 2))
HOSTILE = {
    "hex": unlike(str) | failing(_hexagram) | st.sampled_from(["乾乾", "", "kw65", "7988", "离之", "x" * 100]),
    "moving": unlike(str, list, type(None)) | st.sampled_from(["7", "0", "x", [0], [7], [1.5], [True], [1, 2, 3, 4, 5, 6, 7]]),
    "date": unlike(str, type(None)) | failing(_date) | st.sampled_from(["2026-12-03T10:00", "2026-12-02T10:00+08:00", "yesterday"]),
    "tz": unlike(str) | st.sampled_from(["Mars/Base", "+25:00", "", "UTC+", "Asia/Tokyo", "../../etc/passwd", "America/New_York\x00"]),
    "day_start": unlike(int, type(None)) | st.integers().filter(lambda n: n not in (0, 23)),
    "month": JUNK.filter(lambda v: v is not None),  # pillars with a date: either, not both
    "use": unlike(str, type(None)) | st.sampled_from(["老板", "官官", "7", "0", "世应", ""]),
    "topic": unlike(str, type(None)) | failing(_topic),
    "earth": unlike(str, type(None)) | st.sampled_from(["mars", "木", "", "shui shui"]),
    "journal": unlike(dict),
    "journal.format": NOT_ONE,
    "journal.schema_version": NOT_TWO,
    "journal.hash": JUNK,
    "journal.case": unlike(int, type(None)),
    "journal.question": unlike(str, type(None)),
    "journal.saved_at": unlike(str) | BAD_TIMES | failing(_time),
    "journal.yimao_version": unlike(str) | st.just("") | st.text(min_size=65, max_size=80),
    "journal.moment": JUNK,
    "journal.moment.utc": _differs("journal.moment.utc") | BAD_TIMES | st.just("2026-12-02T16:00:00Z"),
    "journal.moment.local": _differs("journal.moment.local") | BAD_TIMES | st.just("2026-12-02T11:00:00-04:00"),
    "journal.conventions": JUNK,
    **{
        f"journal.conventions.{k}": _differs(f"journal.conventions.{k}")
        for k in ("moment", "utc", "timezone", "timezone_source", "day_start", "months")
    },
    "journal.notes": unlike(list),
    "journal.notes.0": unlike(dict) | st.fixed_dictionaries({"text": JUNK, "written_at": JUNK}).filter(lambda n: not isinstance(n["text"], str)),
    "journal.notes.0.text": unlike(str) | st.sampled_from(["", " ", "\n"]),
    "journal.notes.0.written_at": unlike(str) | BAD_TIMES | failing(_time),
    "journal.outcome": unlike(dict, type(None)),
    "journal.outcome.verdict": JUNK.filter(lambda v: v not in ("应", "不应", "部分")),
    "journal.outcome.note": unlike(str, type(None)),
    "journal.outcome.date": unlike(str, type(None))
    | BAD_TIMES.filter(lambda t: t != "2026-12-02")  # (a date is what an outcome's date is)
    | st.sampled_from(["2027-02-30", "20270301", "2027-3-1"]),
    "journal.outcome.recorded_at": unlike(str) | BAD_TIMES,
    "journal.document": unlike(str) | st.text(max_size=40),
    "journal.tags": unlike(list) | st.lists(unlike(str), min_size=1, max_size=3) | st.sampled_from([[""], [" a"], ["a", "A"], ["x" * 33], ["a\nb"]]),
    "journal.question_edited": unlike(dict, type(None)) | st.dictionaries(st.text(max_size=6), JUNK, max_size=3),
    "journal.notes.0.edited_at": unlike(str, type(None)) | BAD_TIMES | failing(_time),
}
# In the stored document: the fields yimao reads back, given another type.
HOSTILE_DOCUMENT = {
    "schema_version": NOT_TWO,
    "findings": unlike(list),
    "stars": unlike(list),
    "findings.0": unlike(dict),
    "stars.0": unlike(dict),
    "findings.0.rule": unlike(str),
    "findings.0.kind": unlike(str, type(None)),
    "findings.0.holds": unlike(bool),
    "stars.0.id": unlike(str),
    "stars.0.label": unlike(str),
    "stars.0.active": unlike(bool),
    "stars.0.lines": unlike(list),
    "deep": st.integers(min_value=255, max_value=1100).map(nested),
}


@st.composite
def hostile_lines(draw) -> tuple[str, bytes]:
    """(what was changed, the line)."""
    line = json.loads(base_lines()[0])
    kind = draw(st.sampled_from(["field", "document", "extra key"]))
    if kind == "field":
        path = draw(st.sampled_from(sorted(HOSTILE)))
        put(line, path, draw(HOSTILE[path]))
    elif kind == "document":
        path = draw(st.sampled_from(sorted(HOSTILE_DOCUMENT)))
        line["journal"]["document"] = doc_with(path, draw(HOSTILE_DOCUMENT[path]))(line)
    else:
        path = draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in line))
        line[path] = draw(JUNK)
    if path != "journal.hash":
        rehashed(line)
    return f"{kind} {path}", json.dumps(line).encode() + b"\n"  # (ASCII: junk text may hold lone surrogates)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(hostile=hostile_lines())
def test_a_hostile_import_line_is_refused_and_the_journal_goes_on(journal, yimao, tmp_path, hostile):
    """Whatever a line holds: exit 2 naming its line, nothing on stdout, no traceback (the `yimao`
    fixture checks), nothing imported; and the journal still saves, lists and shows, whole."""
    what, bad = hostile
    before = listed(yimao)
    code, out, err = import_lines(yimao, tmp_path, [base_lines()[1].encode() + b"\n", bad])
    assert (code, out) == (2, b""), (what, err.decode())
    assert "import.jsonl, line 2: " in err.decode(), (what, err.decode())
    assert listed(yimao) == before
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    number = str(listed(yimao)[-1]["case"])
    ok(yimao("journal", "show", number, "--json"))
    with sqlite3.connect(journal) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(number=st.integers(min_value=-(2**63), max_value=2**64 - 1) | st.sampled_from([2**63 - 1, 2**31 - 1, 2**31, 0, -1]))
def test_whatever_number_a_line_gives_the_journal_goes_on_saving(journal, yimao, tmp_path, number):
    """Any whole number in `journal.case` imports (kept only in 1..2**31-1 above the journal's
    numbers), and a save after it gets a number."""
    line = json.loads(base_lines()[1])
    line["journal"]["case"] = number
    line["journal"]["question"] = f"第{number}问"  # a new case each time
    ok(import_lines(yimao, tmp_path, [rehashed(line)]))
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    assert all(1 <= e["case"] < 2**32 for e in listed(yimao))  # nowhere near the last number SQLite can give


# --- what an import costs ------------------------------------------------------------------------

PEAK = """
import json, resource, subprocess, sys
with open(sys.argv[1], "rb") as f:
    done = subprocess.run([sys.executable, "-m", "yimao", *sys.argv[2:]], stdin=f, capture_output=True)
print(json.dumps({"code": done.returncode, "err": done.stderr.decode(), "peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def import_measured(dump, journal) -> dict:
    """`journal import - < dump` in a process of its own: its exit code, stderr, peak memory (MB)
    and seconds."""
    import time

    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PEAK, str(dump), "journal", "import", "-", "--journal", str(journal)], capture_output=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return {**json.loads(done.stdout), "seconds": time.perf_counter() - start}


def test_the_longest_import_line_is_batchs():
    from yimao import batch
    from yimao.journal import records

    assert records.MAX_LINE_BYTES == batch.MAX_LINE_BYTES == 1 << 20


def test_a_line_too_long_is_refused_unread(journal, yimao, tmp_path):
    good = base_lines()[1].encode()
    padded = good + b" " * (2**20 - len(good))  # the longest line that is read
    ok(import_lines(yimao, tmp_path, [padded + b"\r\n"]))
    code, out, err = import_lines(yimao, tmp_path, [base_lines()[0].encode() + b"\n", padded + b" \n"])
    assert (code, out) == (2, b"") and "line 2: longer than 1,048,576 bytes" in err.decode()
    assert len(listed(yimao)) == 1


def bomb(line: dict, inflated: int) -> dict:
    """`line` with its document padded by whitespace to `inflated` bytes once decompressed: a
    valid document, a few hundred KB of zlib."""
    z = zlib.compressobj(9)
    parts = [z.compress(json.dumps(the_document(line), ensure_ascii=False).encode())]
    chunk = b" " * 2**20
    parts += [z.compress(chunk) for _ in range(inflated // len(chunk))]
    line["journal"]["document"] = base64.b64encode(b"".join(parts) + z.flush()).decode()
    return line


def test_a_compression_bomb_is_refused_quickly_in_little_memory(tmp_path):
    """A line of some 700 KB whose document inflates to 600 MB: refused at 4 MiB decompressed,
    in a fraction of a second (it once took 11.5 s and 2.1 GB for 1.4 MB)."""
    line = bomb(json.loads(base_lines()[1]), 600 * 2**20)
    dump = tmp_path / "bomb.jsonl"
    dump.write_bytes(json.dumps(line).encode() + b"\n")
    assert dump.stat().st_size < 2**20
    got = import_measured(dump, tmp_path / "j.sqlite3")
    assert got["code"] == 2 and "line 1: journal.document" in got["err"] and "larger than 4,194,304 bytes once decompressed" in got["err"]
    assert got["peak_mb"] < 200 and got["seconds"] < 10, got


def test_a_hundred_megabytes_are_imported_line_by_line(tmp_path):
    """100 lines of 1 MB each (a case, padded with whitespace; the first is new, the others the
    same case again) are read one at a time: memory stays far below the file's size (it once
    took 304 MB)."""
    good = base_lines()[1].encode()
    line = good + b" " * (1_000_000 - len(good)) + b"\n"
    dump = tmp_path / "big.jsonl"
    with dump.open("wb") as f:
        for _ in range(100):
            f.write(line)
    got = import_measured(dump, tmp_path / "j.sqlite3")
    assert got["code"] == 0 and "已导入新卦例 1 个，已有 99 个" in got["err"], got
    assert got["peak_mb"] < 200, got


def test_batch_reads_the_exported_lines(journal, yimao, tmp_path):
    for args in DATE_CASES + PILLAR_CASES:
        ok(yimao("cast", *args, "--save", "--question", "问"))
    dump = tmp_path / "cases.jsonl"
    dump.write_bytes(ok(yimao("journal", "export")))
    code, out, err = yimao("batch", str(dump))
    assert code == 0, err
    assert [json.loads(line) for line in out.splitlines()] == [cast_doc(yimao, args) for args in DATE_CASES + PILLAR_CASES]
    # batch still refuses a key it does not know
    typo = tmp_path / "typo.jsonl"
    typo.write_text('{"hex": "离", "month": "子", "dya": "申", "journal": {}}\n', encoding="utf-8")
    code, out, _ = yimao("batch", str(typo))
    assert code == 2 and b"unknown request key" in out and b"dya" in out


# --- delete -------------------------------------------------------------------------------------


def test_delete_needs_yes_without_a_terminal(journal, yimao):
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    ok(yimao("journal", "note", "1", "一记"))
    code, out, err = yimao("journal", "delete", "1")
    assert (code, out) == (2, b"") and "--yes" in err.decode()
    assert len(listed(yimao)) == 1
    ok(yimao("journal", "delete", "1", "--yes"))
    assert listed(yimao) == []
    with sqlite3.connect(journal) as db:
        assert db.execute("SELECT count(*) FROM notes").fetchone()[0] == 0  # its notes went with it
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    assert [e["case"] for e in listed(yimao)] == [2]  # a number is never given again


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
@pytest.mark.parametrize("answer, kept", [(b"n\n", True), (b"y\n", False)])
def test_delete_asks_on_a_terminal(journal, yimao, answer, kept):
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    prompt = answered_on_a_terminal(("journal", "delete", "1"), answer).decode()
    assert "删除卦例 1" in prompt
    assert len(listed(yimao)) == (1 if kept else 0)


# --- where the journal is, and nothing written unasked ------------------------------------------


def test_nothing_is_written_unless_asked(tmp_path, yimao, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("YIMAO_JOURNAL", raising=False)
    ok(yimao("cast", *DATE_CASES[0], "--json"))
    ok(yimao("cast", *DATE_CASES[0]))
    assert ok(yimao("journal", "list", "--json")) == b""
    assert ok(yimao("journal", "export")) == b""
    assert json.loads(ok(yimao("journal", "stats", "--json")))["cases"] == {"应": 0, "不应": 0, "部分": 0}
    code, out, err = yimao("journal", "show", "1")
    assert code == 2 and "no case 1" in err.decode()
    assert list(tmp_path.rglob("*")) == []  # no directory, no file
    ok(yimao("cast", *DATE_CASES[0], "--save"))
    assert (tmp_path / "data" / "yimao" / "journal.sqlite3").is_file()  # the user's data directory (platformdirs)


def test_the_journal_option_wins_over_the_environment(journal, yimao, tmp_path):
    other = tmp_path / "elsewhere" / "mine.sqlite3"
    ok(yimao("cast", *PILLAR_CASES[0], "--save", "--journal", str(other)))
    assert other.is_file() and not journal.exists()
    assert len(listed(yimao, "--journal", str(other))) == 1 and listed(yimao) == []


# --- files that cannot be used ------------------------------------------------------------------

COMMANDS = [
    ("cast", *PILLAR_CASES[0], "--save"),
    ("journal", "list"),
    ("journal", "show", "1"),
    ("journal", "note", "1", "x"),
    ("journal", "outcome", "1", "--verdict", "应"),
    ("journal", "stats"),
    ("journal", "export"),
    ("journal", "delete", "1", "--yes"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_corrupt_journal_is_named_and_export_suggested(journal, yimao, args):
    journal.write_bytes(b"this is no database at all, just text " * 200)
    code, out, err = yimao(*args)
    assert (code, out) == (2, b"")
    message = err.decode()
    assert str(journal) in message and "corrupt" in message and "journal export" in message


def test_a_damaged_page_is_said_as_corrupt(journal, yimao):
    for args in PILLAR_CASES:
        ok(yimao("cast", *args, "--save"))
    with sqlite3.connect(journal) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(journal.read_bytes())
    for page in range(4096, len(data), 4096):  # every page after the schema's: its header (type, cells) no longer valid
        data[page : page + 12] = b"\xff" * 12
    journal.write_bytes(bytes(data))
    code, out, err = yimao("journal", "list")
    assert (code, out) == (2, b"") and str(journal) in err.decode() and "journal export" in err.decode()


def _zlib_of(doc) -> bytes:
    return zlib.compress(json.dumps(doc, ensure_ascii=False).encode())


def _with_holds(doc: dict, value) -> dict:
    doc["findings"][0]["holds"] = value
    return doc


DAMAGED = {
    "not zlib": lambda doc: b"\x78\x9cnot zlib at all",
    "truncated": lambda doc: _zlib_of(doc)[:-10],
    "not JSON": lambda doc: zlib.compress(b"{not json"),
    "not an object": lambda doc: _zlib_of([doc]),
    "a finding of another type": lambda doc: _zlib_of(_with_holds(doc, "yes")),
    "a finding whose words mislead": lambda doc: _zlib_of(_with_holds(doc, "database is locked, readonly")),
    "a compression bomb": lambda doc: base64.b64decode(bomb({"journal": {"document": stored(doc)}}, 300 * 2**20)["journal"]["document"]),
}


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_a_damaged_stored_document_is_said_as_a_corrupt_journal(journal, yimao, damage):
    """A stored document that no longer reads back (a damaged blob, or one an earlier import let
    in) is the corrupt journal's message naming the case, exit 2, wherever it is read — never an
    internal error; the commands that do not read it work as before."""
    ok(yimao("cast", *STATS_CASES[0][0], "--save"))
    ok(yimao("journal", "outcome", "1", "--verdict", "应"))
    with sqlite3.connect(journal) as db:
        doc = json.loads(zlib.decompress(db.execute("SELECT document FROM cases").fetchone()[0]))
        db.execute("UPDATE cases SET document = ?", (DAMAGED[damage](doc),))
    for args in (("journal", "show", "1"), ("journal", "show", "1", "--json", "--as-saved"), ("journal", "stats"), ("journal", "stats", "--json")):
        code, out, err = yimao(*args)
        message = err.decode()
        assert (code, out) == (2, b""), (args, message)
        assert str(journal) in message and "corrupt" in message and "case 1's stored document" in message and "journal export" in message, message
    assert len(listed(yimao)) == 1 and ok(yimao("journal", "export"))


def test_another_programs_database_is_refused(journal, yimao):
    with sqlite3.connect(journal) as db:
        db.execute("CREATE TABLE t (x)")
    for args in COMMANDS[:2]:
        code, out, err = yimao(*args)
        assert (code, out) == (2, b"") and "not a journal of yimao" in err.decode() and str(journal) in err.decode()
    with sqlite3.connect(journal) as db:
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("t",)]  # untouched


def test_a_journal_of_a_later_yimao_is_refused(journal, yimao):
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    with sqlite3.connect(journal) as db:
        db.execute("PRAGMA user_version = 99")
    code, out, err = yimao("journal", "list")
    assert (code, out) == (2, b"") and "later yimao" in err.decode() and "99" in err.decode()


def test_a_locked_journal(journal, yimao, monkeypatch):
    from yimao.journal import store

    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    monkeypatch.setattr(store, "BUSY_TIMEOUT", 0.2)
    holder = sqlite3.connect(journal, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        for args in (COMMANDS[0], COMMANDS[3]):
            code, out, err = yimao(*args)
            assert (code, out) == (2, b"") and "locked" in err.decode() and str(journal) in err.decode()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(listed(yimao)) == 1  # nothing half-written
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))  # and usable again


def test_a_read_only_journal(journal, yimao, monkeypatch):
    from yimao.journal import store

    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    connect = sqlite3.connect
    # the file as a process without write permission opens it (the tests may run as root, whom
    # no permission bit stops)
    monkeypatch.setattr(store.sqlite3, "connect", lambda path, uri=False, **kw: connect(path if uri else f"file:{path}?mode=ro", uri=True, **kw))
    assert len(listed(yimao)) == 1  # reading needs no write
    for args in ((*COMMANDS[0], "--question", "另一问"), COMMANDS[3], COMMANDS[4]):
        code, out, err = yimao(*args)
        assert (code, out) == (2, b"") and "read-only" in err.decode() and str(journal) in err.decode()
    monkeypatch.setattr(store.sqlite3, "connect", connect)
    assert listed(yimao)[0]["notes"] == 0


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes whatever the permissions")
def test_a_file_without_write_permission(journal, yimao):
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    journal.chmod(0o444)
    code, out, err = yimao(*COMMANDS[0])
    assert (code, out) == (2, b"") and str(journal) in err.decode()


def test_a_journal_where_no_file_can_be(tmp_path, yimao):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    path = blocker / "journal.sqlite3"
    code, out, err = yimao(*COMMANDS[0], "--journal", str(path))
    assert (code, out) == (2, b"") and str(path) in err.decode()


def test_no_half_written_case(journal, yimao, monkeypatch):
    """A save that fails after its case row is written leaves no case."""
    from yimao.journal import records

    ok(yimao("cast", *PILLAR_CASES[0], "--save"))

    def failing(db, number, notes):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(records, "_add_notes", failing)
    code, out, err = yimao(*COMMANDS[0], "--question", "另一问")
    assert (code, out) == (2, b"") and str(journal) in err.decode()
    with sqlite3.connect(journal) as db:
        assert db.execute("SELECT count(*) FROM cases").fetchone()[0] == 1


def test_the_file_is_in_wal_mode_with_its_version(journal, yimao):
    from yimao.journal.store import APPLICATION_ID, current_version

    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    with sqlite3.connect(journal) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA user_version").fetchone()[0] == current_version() == 2
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_the_journal_documents_validate_against_the_schema(journal, yimao):
    import jsonschema

    schema = json.loads(ok(yimao("schema")))

    def check(name: str, doc: dict) -> None:
        jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{name}", "anyOf": [{}]}).validate(doc)

    ok(yimao("cast", *DATE_CASES[0], "--save", "--question", "问"))
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    ok(yimao("journal", "note", "1", "一记"))
    ok(yimao("journal", "note", "1", "二记"))
    ok(yimao("journal", "note", "1", "--edit", "2", "二记，改"))
    ok(yimao("journal", "question", "1", "问财"))
    ok(yimao("journal", "tag", "1", "求财", "张先生"))
    ok(yimao("journal", "outcome", "1", "--verdict", "应", "--date", "2027-01-05"))
    for n in ("1", "2"):
        check("journal_case", json.loads(ok(yimao("journal", "show", n, "--json"))))
    for entry in listed(yimao):
        check("journal_list_entry", entry)
    check("journal_stats_doc", json.loads(ok(yimao("journal", "stats", "--json"))))
    for line in ok(yimao("journal", "export")).splitlines():
        check("journal_export_line", json.loads(line))


def test_show_draws_the_case_as_a_picture(journal, yimao, tmp_path):
    ok(yimao("cast", *DATE_CASES[0], "--save", "--question", "问：今年可得财否"))
    picture = tmp_path / "case.svg"
    assert ok(yimao("journal", "show", "1", "--svg", str(picture))) == b""
    text = picture.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<svg") and "今年可得财否" in text
    code, out, err = yimao("journal", "show", "1", "--svg", str(picture), "--json")
    assert (code, out) == (2, b"") and "--svg" in err.decode()
