"""The journal of casts through its commands: save, list, show, note, outcome, stats, export,
import, delete, and the files that cannot be used. Every journal is a temporary file."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import zlib

import pytest

from yimao.journal.case import JOURNAL_KEYS
from yimao.launch import run as launch_run

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


@pytest.fixture
def journal(tmp_path, monkeypatch):
    path = tmp_path / "journal.sqlite3"
    monkeypatch.setenv("YIMAO_JOURNAL", str(path))
    monkeypatch.setenv("COLUMNS", "140")
    return path


@pytest.fixture
def yimao(monkeypatch, capfdbinary):
    """Run `yimao ARGS` in this process: (exit code, stdout, stderr)."""

    def call(*args: str) -> tuple[int, bytes, bytes]:
        monkeypatch.setattr(sys, "argv", ["yimao", *args])
        code = launch_run(list(args))
        out, err = capfdbinary.readouterr()
        assert b"Traceback" not in err, err.decode()
        return code, out, err

    return call


def ok(result: tuple[int, bytes, bytes]) -> bytes:
    code, out, err = result
    assert code == 0, err.decode()
    return out


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
            saved = yimao("cast", *args, *form, "--save", "--question", "问：今年可得财否")
            assert saved[0] == plain[0] == 0
            assert saved[1] == plain[1]  # the same document, the same tables
            extra = saved[2].replace(plain[2], b"", 1).decode()
            assert extra.count("\n") == 1 and extra.startswith("yimao: saved as case ")
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
    assert schema == 1 and version and saved_at.endswith("Z")
    assert json.loads(zlib.decompress(blob)) == cast_doc(yimao, DATE_CASES[2])


def test_a_case_cast_for_now_or_in_the_system_zone_reads_the_same_elsewhere(tmp_path):
    env = {**os.environ, "YIMAO_JOURNAL": str(tmp_path / "j.sqlite3"), "TZ": "Asia/Shanghai"}
    for args in (("cast", "--hex", "离之乾", "--save", "--json"), ("cast", "--hex", "离之乾", "--date", "2026-06-01 23:30", "--save", "--json")):
        saved = subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=env, timeout=60)
        assert saved.returncode == 0, saved.stderr
        number = saved.stderr.decode().split("saved as case ")[1].split()[0]
        then = json.loads(saved.stdout)
        elsewhere = {**env, "TZ": "America/Los_Angeles"}  # another machine, another day
        shown = subprocess.run([sys.executable, "-m", "yimao", "journal", "show", number, "--json"], capture_output=True, env=elsewhere, timeout=60)
        assert shown.returncode == 0 and b"warning" not in shown.stderr, shown.stderr
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
    assert "otherwise" in err.decode() and "0.0.1" in err.decode() and "findings[0].holds" in err.decode()
    assert without_journal_keys(shown) == cast_doc(yimao, PILLAR_CASES[2])  # the reading of today
    assert json.loads(ok(yimao("journal", "show", "1", "--json", "--as-saved")))["findings"][0]["holds"] is False  # and what was seen then
    table = ok(yimao("journal", "show", "1")).decode()
    assert "findings[0].holds" in table


def test_a_key_added_since_is_no_change(journal, yimao):
    """A case saved before the document gained a key (schema_version 1 grows by additions) reads
    the same: only values that were there and differ are changes."""
    ok(yimao("cast", *DATE_CASES[0], "--save"))
    with sqlite3.connect(journal) as db:
        doc = json.loads(zlib.decompress(db.execute("SELECT document FROM cases").fetchone()[0]))
        assert doc["stars"] and doc["findings"]
        for star in doc["stars"]:
            del star["label"]
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
    assert numbers("--since", "2026-01-01") == [1, 3, 4]  # 4: cast from pillars, dated by the day it was saved
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
    assert "no case has an outcome" in ok(yimao("journal", "stats")).decode()
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
    assert code == 0 and "imported 3 new cases" in err.decode()
    assert listed(yimao, "--journal", other) == before  # numbers, questions, notes, outcomes
    code, _, err = yimao("journal", "import", str(dump), "--journal", other)
    assert code == 0 and "imported 0 new cases, 3 already present" in err.decode()
    assert listed(yimao, "--journal", other) == before
    for e in before:
        a = json.loads(ok(yimao("journal", "show", str(e["case"]), "--json")))
        b = json.loads(ok(yimao("journal", "show", str(e["case"]), "--json", "--journal", other)))
        assert a == b
    # a note added in one journal reaches the other by a second import; nothing is doubled
    ok(yimao("journal", "note", "2", "再记"))
    dump.write_bytes(ok(yimao("journal", "export")))
    code, _, err = yimao("journal", "import", str(dump), "--journal", other)
    assert code == 0 and "(1 note and 0 outcomes added to them)" in err.decode()
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
    import pty

    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([sys.executable, "-m", "yimao", "journal", "delete", "1"], stdin=slave, stdout=subprocess.PIPE, stderr=slave)
        os.write(master, answer)
        assert p.wait(timeout=60) == 0
        prompt = os.read(master, 4096).decode()
    finally:
        os.close(slave)
        os.close(master)
    assert "delete case 1" in prompt
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
    monkeypatch.setattr(store.sqlite3, "connect", lambda path, **kw: connect(f"file:{path}?mode=ro", uri=True, **kw))
    assert len(listed(yimao)) == 1  # reading needs no write
    for args in (COMMANDS[0], COMMANDS[3], COMMANDS[4]):
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
    code, out, err = yimao(*COMMANDS[0])
    assert (code, out) == (2, b"") and str(journal) in err.decode()
    with sqlite3.connect(journal) as db:
        assert db.execute("SELECT count(*) FROM cases").fetchone()[0] == 1


def test_the_file_is_in_wal_mode_with_its_version(journal, yimao):
    from yimao.journal.store import APPLICATION_ID, current_version

    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    with sqlite3.connect(journal) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA user_version").fetchone()[0] == current_version() == 1
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_the_journal_documents_validate_against_the_schema(journal, yimao):
    import jsonschema

    schema = json.loads(ok(yimao("schema")))

    def check(name: str, doc: dict) -> None:
        jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{name}", "anyOf": [{}]}).validate(doc)

    ok(yimao("cast", *DATE_CASES[0], "--save", "--question", "问"))
    ok(yimao("cast", *PILLAR_CASES[0], "--save"))
    ok(yimao("journal", "note", "1", "一记"))
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
