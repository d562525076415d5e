"""The journal as a casebook: `list` with the moment (据四柱 for a case cast from pillars), 四柱,
topic, 用神 and verdict, filtered by verdict and tag; tags; a question and notes edited or
deleted; messages in the interface's language. docs/design.md §8 (the stats: test_journal_stats)."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from datetime import UTC, datetime

import pytest
from conftest import answered_on_a_terminal, bad, ok

from yimao.usertext import is_visible

DATED = ("--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--use", "官", "--topic", "求财")
PILLARS = ("--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父")
ALL_PILLARS = ("--hex", "困之兑", "--year", "丙午", "--month", "8", "--day", "庚申", "--hour", "午", "--topic", "婚姻")


def listed(yimao, *args: str) -> list[dict]:
    return [json.loads(line) for line in ok(yimao("journal", "list", "--json", *args)).splitlines()]


def numbers(yimao, *args: str) -> list[int]:
    return [e["case"] for e in listed(yimao, *args)]


def shown(yimao, n: int = 1) -> dict:
    return json.loads(ok(yimao("journal", "show", str(n), "--json")))


def rows(table: str) -> dict[str, str]:
    """The lines of a `journal list` table by case number (a row's first line)."""
    return {m.group(1): line for line in table.splitlines() if (m := re.match(r"\s*(\d+)\s", line))}


# --- list ---------------------------------------------------------------------------------------


def test_list_shows_the_moment_pillars_topic_use_and_verdict(journal, yimao):
    ok(yimao("cast", *DATED, "--save", "--question", "今年可得财否"))
    ok(yimao("cast", *PILLARS, "--save", "--question", "讼事如何"))
    ok(yimao("cast", *ALL_PILLARS, "--save"))
    ok(yimao("journal", "outcome", "1", "--verdict", "部分"))
    table = rows(ok(yimao("journal", "list")).decode())
    assert re.search(r"2026-12-02 10:00 +丙午 己亥 庚戌 辛巳 +离之乾 +官 +求财 +部分 +今年可得财否", table["1"]), table["1"]
    assert re.search(r"据四柱 +卯月 戊寅日 +大畜之离 +父 +讼事如何", table["2"]), table["2"]
    assert re.search(r"据四柱 +丙午 丁酉 庚申 壬午 +困之兑 +婚姻", table["3"]), table["3"]  # all four: written as four
    today = datetime.now(UTC).date().isoformat()
    assert today not in table["2"] + table["3"]  # the time of saving is no case's date
    entries = listed(yimao)
    assert [e["pillars"] for e in entries] == [
        {"year": "丙午", "month": "己亥", "day": "庚戌", "hour": "辛巳"},
        {"year": None, "month": "卯", "day": "戊寅", "hour": None},
        {"year": "丙午", "month": "丁酉", "day": "庚申", "hour": "壬午"},
    ]
    assert [json.loads(ok(yimao("cast", *args, "--json")))["pillars"] for args in (DATED, PILLARS, ALL_PILLARS)] == [e["pillars"] for e in entries]
    assert all(e["schema_version"] == 2 and {"saved_at", "moment", "spec", "notes", "tags"} <= set(e) for e in entries)
    assert "卦例 3" in ok(yimao("journal", "list")).decode()


def test_a_date_filter_leaves_out_a_case_cast_from_pillars(journal, yimao):
    ok(yimao("cast", *DATED, "--save"))
    ok(yimao("cast", *PILLARS, "--save"))
    today = datetime.now(UTC).date().isoformat()
    assert numbers(yimao, "--since", "2000-01-01") == [1]
    assert numbers(yimao, "--since", today) == []  # not dated by the day it was saved
    assert numbers(yimao, "--until", "2026-12-02") == [1] and numbers(yimao, "--until", "2026-12-01") == []
    assert "left out" in ok(yimao("journal", "list", "--help")).decode()


@pytest.mark.parametrize(
    "given, says, meant",
    [("2026/1/5", "--since", "2026-01-05"), ("2026年1月5日", "--since", "2026-01-05"), ("2026-13-01", "--since", None), ("soon", "--since", None)],
)
def test_a_bad_date_suggests_the_date_it_may_mean(journal, yimao, given, says, meant):
    message = bad(yimao("journal", "list", "--since", given), says, "YYYY-MM-DD")
    assert ("did you mean" in message) == (meant is not None) and (meant is None or meant in message)
    assert "2026-12-02" not in message  # no date from the README


def test_list_by_verdict(journal, yimao):
    for _ in range(4):
        ok(yimao("cast", *PILLARS, "--save", "--question", f"问{_}"))
    for n, verdict in ((1, "应"), (2, "不应"), (3, "部分")):
        ok(yimao("journal", "outcome", str(n), "--verdict", verdict))
    assert [numbers(yimao, "--verdict", v) for v in ("应", "不应", "部分", "无")] == [[1], [2], [3], [4]]
    assert numbers(yimao, "--verdict", "應") == [1] and numbers(yimao, "--verdict", "無") == [4]  # either script
    assert numbers(yimao, "--verdict", " 不應 ") == [2]
    bad(yimao("journal", "list", "--verdict", "好"), "unknown verdict", "无")
    bad(yimao("journal", "outcome", "1", "--verdict", "无"), "unknown verdict")  # no outcome is not one to record
    ok(yimao("journal", "outcome", "4", "--verdict", "應"))
    assert numbers(yimao, "--verdict", "应") == [1, 4]
    assert "无合此条件之卦例" in ok(yimao("journal", "list", "--verdict", "无")).decode()


def test_an_empty_journal_says_how_to_save(journal, yimao):
    assert "尚无卦例" in ok(yimao("journal", "list")).decode()


@pytest.mark.parametrize("width", [60, 80, 100, 120])
def test_list_fits_its_width(journal, yimao, monkeypatch, width):
    """At any width every line fits; below the moment's and pillars' one-line room, they take two
    lines (date over time) and the question keeps room."""
    monkeypatch.setenv("COLUMNS", str(width))
    ok(yimao("cast", *DATED, "--save", "--question", "问：今年可得财否，何时可得，得之多少，当往何方" * 2))
    ok(yimao("cast", *PILLARS, "--save", "--question", "讼事如何"))
    table = ok(yimao("journal", "list")).decode()
    from yimao.render import cells

    assert all(cells(line) <= width for line in table.splitlines()), table
    first = rows(table)["1"]
    assert ("2026-12-02 10:00" in first) == (width >= 100), table
    if width < 100:
        after = table.splitlines()[table.splitlines().index(first) + 1]
        assert "10:00" in after and ("庚戌 辛巳" if width >= 80 else "己亥") in after, table  # 60: a pillar a line
    if width >= 80:
        question = first.split("部分")[-1] if "部分" in first else first[first.index("问：") :]
        assert cells(question.strip()) >= 20, table


# --- tags ---------------------------------------------------------------------------------------


def test_tags_are_added_removed_listed_and_shown(journal, yimao):
    for q in ("一", "二", "三"):
        ok(yimao("cast", *PILLARS, "--save", "--question", q))
    ok(yimao("journal", "tag", "1", "求财", "  张先生 ", "Work"))
    ok(yimao("journal", "tag", "1", "work", "求财"))  # a tag it has: once, as first typed
    ok(yimao("journal", "tag", "2", "求财"))
    ok(yimao("journal", "tag", "3", "WORK"))
    assert shown(yimao)["tags"] == ["Work", "张先生", "求财"]
    assert [e["tags"] for e in listed(yimao)] == [["Work", "张先生", "求财"], ["求财"], ["WORK"]]
    assert numbers(yimao, "--tag", "求财") == [1, 2] and numbers(yimao, "--tag", "work") == [1, 3]
    assert numbers(yimao, "--tag", "求财", "--tag", "张先生") == [1]  # every tag given
    assert numbers(yimao, "--tag", " 张先生 ") == [1] and numbers(yimao, "--tag", "无此") == []
    assert "标签: Work · 张先生 · 求财" in ok(yimao("journal", "show", "1")).decode()
    ok(yimao("journal", "tag", "1", "WORK", "张先生", "--remove"))
    assert shown(yimao)["tags"] == ["求财"]
    bad(yimao("journal", "tag", "1", "求财", "张先生", "--remove"), "case 1 has no tag '张先生'")
    assert shown(yimao)["tags"] == ["求财"]  # all or nothing
    ok(yimao("journal", "delete", "2", "--yes"))
    with sqlite3.connect(journal) as db:
        assert db.execute("SELECT count(*) FROM tags WHERE case_id = 2").fetchone()[0] == 0  # gone with its case


@pytest.mark.parametrize(
    "tag, says",
    [("", "an empty tag"), ("   ", "an empty tag"), ("a\nb", "one line"), ("a\rb", "one line"), ("\u2028", "an empty tag"), ("x" * 33, "at most 32")],
)
def test_a_tag_that_cannot_be_kept_is_bad_input(journal, yimao, tag, says):
    ok(yimao("cast", *PILLARS, "--save"))
    bad(yimao("journal", "tag", "1", "好", tag), says)
    bad(yimao("journal", "list", "--tag", tag), says)
    assert shown(yimao)["tags"] == []
    ok(yimao("journal", "tag", "1", "x" * 32))


def test_a_tag_command_needs_a_tag_and_a_case(journal, yimao):
    ok(yimao("cast", *PILLARS, "--save"))
    bad(yimao("journal", "tag", "1"), "TAG")
    bad(yimao("journal", "tag", "2", "x"), "no case 2")


# --- editing ------------------------------------------------------------------------------------


def test_an_edited_question_keeps_the_case(journal, yimao, tmp_path):
    """The question is replaced; the case's hash (of the question as saved) is not, so its export
    imports as the same case, and the question as saved is kept and shown."""
    ok(yimao("cast", *DATED, "--save", "--question", "今年可得财否"))
    old_export = tmp_path / "before.jsonl"
    old_export.write_bytes(ok(yimao("journal", "export")))
    with sqlite3.connect(journal) as db:
        (before,) = db.execute("SELECT hash FROM cases").fetchone()
    ok(yimao("journal", "question", "1", "明年可得财否"))
    ok(yimao("journal", "question", "1", "明年可得财否"))  # the same again: no edit
    with sqlite3.connect(journal) as db:
        assert db.execute("SELECT hash FROM cases").fetchone()[0] == before
    case = shown(yimao)
    assert case["question"] == "明年可得财否" and case["question_edited"]["saved"] == "今年可得财否"
    table = ok(yimao("journal", "show", "1")).decode()
    assert "问: 明年可得财否" in table and "存时问: 今年可得财否" in table
    ok(yimao("journal", "question", "1", "后年可得财否"))
    assert shown(yimao)["question_edited"]["saved"] == "今年可得财否"  # the one saved, whatever the edits
    assert listed(yimao)[0]["question"] == "后年可得财否"
    # its export imports as the same case, into the same journal and into another
    dump = tmp_path / "after.jsonl"
    dump.write_bytes(ok(yimao("journal", "export")))
    _, _, err = yimao("journal", "import", str(dump))
    assert "已导入新卦例 0 个，已有 1 个" in err.decode()
    other = str(tmp_path / "other.sqlite3")
    ok(yimao("journal", "import", str(old_export), "--journal", other))  # the case as saved …
    _, _, err = yimao("journal", "import", str(dump), "--journal", other)  # … takes the edit made since
    assert "已有 1 个" in err.decode() and "取其后改 1 处" in err.decode()
    assert shown(yimao) == json.loads(ok(yimao("journal", "show", "1", "--json", "--journal", other)))
    _, _, err = yimao("journal", "import", str(old_export))  # an export made before the edit does not undo it
    assert "取其后改 0 处" in err.decode() and shown(yimao)["question"] == "后年可得财否"
    assert len(listed(yimao)) == 1
    bad(yimao("journal", "question", "1", " "), "an empty question")
    bad(yimao("journal", "question", "2", "x"), "no case 2")


def test_a_case_without_a_question_is_given_one(journal, yimao, tmp_path):
    ok(yimao("cast", *PILLARS, "--save"))
    ok(yimao("journal", "question", "1", "讼事如何"))
    assert shown(yimao)["question_edited"]["saved"] is None
    assert "存时问: —" in ok(yimao("journal", "show", "1")).decode()
    dump = tmp_path / "cases.jsonl"
    dump.write_bytes(ok(yimao("journal", "export")))
    other = str(tmp_path / "other.sqlite3")
    ok(yimao("journal", "import", str(dump), "--journal", other))
    assert listed(yimao, "--journal", other)[0]["question"] == "讼事如何"


def test_notes_are_numbered_edited_and_deleted(journal, yimao):
    ok(yimao("cast", *PILLARS, "--save"))
    for text in ("一记", "二记", "三记"):
        ok(yimao("journal", "note", "1", text))
    first = shown(yimao)["notes"]
    assert [n["text"] for n in first] == ["一记", "二记", "三记"] and all(n["edited_at"] is None for n in first)
    ok(yimao("journal", "note", "1", "--edit", "2", "二记，改"))
    notes = shown(yimao)["notes"]
    assert [n["text"] for n in notes] == ["一记", "二记，改", "三记"]  # its place and time kept
    assert notes[1]["written_at"] == first[1]["written_at"] and notes[1]["edited_at"] is not None
    table = ok(yimao("journal", "show", "1")).decode()
    assert re.search(r"1\. \S+  一记", table) and re.search(r"2\. \S+  二记，改  \(改于 ", table) and "3. " in table
    bad(yimao("journal", "note", "1", "--delete", "1"), "no terminal", "--yes")
    ok(yimao("journal", "note", "1", "--delete", "1", "--yes"))
    assert [n["text"] for n in shown(yimao)["notes"]] == ["二记，改", "三记"]
    _, _, err = yimao("journal", "note", "1", "--delete", "2", "-y")
    assert "已删卦例 1 笔记 2" in err.decode()
    assert [n["text"] for n in shown(yimao)["notes"]] == ["二记，改"]
    bad(yimao("journal", "note", "1", "--edit", "2", "x"), "case 1 has no note 2", "one note, 1")
    bad(yimao("journal", "note", "1", "--edit", "1", " "), "an empty note")
    bad(yimao("journal", "note", "1", "--edit", "0", "x"), "note's number")
    bad(yimao("journal", "note", "1", "--edit", "1", "--delete", "1"), "not both")
    bad(yimao("journal", "note", "1", "--delete", "1", "x"), "takes no text")
    bad(yimao("journal", "note", "1"), "missing the note's text")
    bad(yimao("journal", "note", "1", "x", "--yes"), "--yes goes with --delete")
    bad(yimao("journal", "note", "2", "--edit", "1", "x"), "no case 2")
    ok(yimao("journal", "note", "1", "--delete", "1", "--yes"))
    bad(yimao("journal", "note", "1", "--delete", "1", "--yes"), "has no notes")


def test_an_edited_note_imports_as_the_same_note(journal, yimao, tmp_path):
    """A note is the one written at the same time: the later edit is kept, on either side, and an
    export made before the edit neither undoes it nor adds the old text beside it."""
    ok(yimao("cast", *PILLARS, "--save"))
    ok(yimao("journal", "note", "1", "财在五爻"))
    before = tmp_path / "before.jsonl"
    before.write_bytes(ok(yimao("journal", "export")))
    other = str(tmp_path / "other.sqlite3")
    ok(yimao("journal", "import", str(before), "--journal", other))
    ok(yimao("journal", "note", "1", "--edit", "1", "财在五爻，午月应"))
    ok(yimao("journal", "import", str(before)))
    assert [n["text"] for n in shown(yimao)["notes"]] == ["财在五爻，午月应"]
    after = tmp_path / "after.jsonl"
    after.write_bytes(ok(yimao("journal", "export")))
    _, _, err = yimao("journal", "import", str(after), "--journal", other)
    assert "为之添笔记 0 条" in err.decode() and "取其后改 1 处" in err.decode()
    assert json.loads(ok(yimao("journal", "show", "1", "--json", "--journal", other)))["notes"] == shown(yimao)["notes"]


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
@pytest.mark.parametrize("answer, kept", [(b"n\n", True), (b"y\n", False)])
def test_deleting_a_note_asks_on_a_terminal_showing_it_as_text(journal, yimao, answer, kept):
    ok(yimao("cast", *PILLARS, "--save"))
    ok(yimao("journal", "note", "1", "记\x1b]0;pwned\x07\x1b[2J\u202e尾"))
    prompt = answered_on_a_terminal(("journal", "note", "1", "--delete", "1"), answer).decode()
    assert "删除卦例 1 笔记 1" in prompt and "记␛]0;pwned␇␛[2J<U+202E>尾" in prompt
    assert not re.search("[\x07\x1b\u202e]", prompt)
    assert len(shown(yimao)["notes"]) == (1 if kept else 0)


# --- hostile text -------------------------------------------------------------------------------

HOSTILE = ["\x1b]0;pwned\x07\x1b[2J", "收入[/月]", "[link=http://evil.example]click[/link]", ":smile: [bold]粗[/bold]", "abc\u202edef\u2066"]


@pytest.mark.parametrize("text", HOSTILE)
def test_tags_and_edits_are_shown_as_text(journal, yimao, text):
    ok(yimao("cast", *PILLARS, "--save", "--question", "问"))
    ok(yimao("journal", "note", "1", "记"))
    tag = text[:32]
    ok(yimao("journal", "tag", "1", tag))
    ok(yimao("journal", "question", "1", text))
    ok(yimao("journal", "note", "1", "--edit", "1", text))
    for args in (("journal", "list"), ("journal", "show", "1"), ("journal", "list", "--tag", tag)):
        out = ok(yimao(*args)).decode()
        assert is_visible(out), args
        for markup in ("[/月]", "[link=http://evil.example]", "[bold]", ":smile:"):
            assert markup not in text or markup in out, args
    case = shown(yimao)
    assert case["tags"] == [tag] and case["question"] == text and case["notes"][0]["text"] == text  # kept as given
    assert numbers(yimao, "--tag", tag) == [1]


# --- messages -----------------------------------------------------------------------------------


def test_messages_are_in_the_interfaces_language_and_script(journal, yimao, tmp_path):
    _, _, err = yimao("cast", *PILLARS, "--save")
    assert err.decode() == "yimao: 已存为卦例 1\n"
    _, _, err = yimao("cast", *PILLARS, "--save", "-t")
    assert err.decode() == "yimao: 卦例 1 已存此卦此問，不再存\n"  # one line, converted
    dump = tmp_path / "cases.jsonl"
    dump.write_bytes(ok(yimao("journal", "export")))
    _, _, err = yimao("journal", "import", str(dump), "--script", "tw")
    assert err.decode().startswith("yimao: 已導入新卦例 0 個")
    ok(yimao("journal", "note", "1", "记"))
    _, _, err = yimao("journal", "note", "1", "--delete", "1", "--yes", "-t")
    assert err.decode() == "yimao: 已刪卦例 1 筆記 1\n"
    _, _, err = yimao("journal", "delete", "1", "--yes")
    assert err.decode() == "yimao: 已删卦例 1\n"
    bad(yimao("journal", "delete", "1", "--yes"), "yimao: error: no case 1")  # errors stay English, as all of yimao's
