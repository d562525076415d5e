"""What a user gives the journal is kept as given and shown safely; the journal's files, numbers
and streams keep the README's promises (exit 2 with a message for bad input, 1 for an output that
cannot be written, 141 when the reader goes away, never a traceback, never a journal that stops
saving)."""

from __future__ import annotations

import errno
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import answered_on_a_terminal, bad, ok
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yimao.launch import run as launch_run
from yimao.usertext import is_visible, visible

CAST = ("--hex", "离之乾", "--month", "卯", "--day", "戊寅")

# Text that acts on a terminal, reads as Rich markup or emoji, or breaks XML.
HOSTILE = [
    "\x1b]0;pwned\x07\x1b[2J\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\",
    "收入[/月]",
    "[link=http://evil.example]click[/link]",
    "[red]",
    ":smile: [bold]粗[/bold]",
    "a\rb\x08c\x07",
    "\x9b2J\x85",
    "abc\u202edef\u2066",
    "\x01\ufffe\uffff",
]


def shows_nothing_that_acts(data: bytes) -> None:
    """No control character but the line break, no bidirectional override, nothing XML refuses."""
    text = data.decode("utf-8")
    assert is_visible(text), [c for c in text if not is_visible(c)]


def urls(text: str) -> set[str]:
    return set(re.findall(r"https?://[^\s\"'<>)\\\x1b\x07]+", text))


def pictures(yimao, tmp_path: Path, *args: str) -> tuple[str, str]:
    svg, html = tmp_path / "p.svg", tmp_path / "p.html"
    assert ok(yimao(*args, "--svg", str(svg), "--html", str(html))) == b""
    return svg.read_text(encoding="utf-8"), html.read_text(encoding="utf-8")


def check_picture(svg: str, html: str, *user_texts: str) -> None:
    ET.fromstring(svg)  # parses as XML
    shows_nothing_that_acts(html.encode("utf-8"))
    mine = {u for t in user_texts for u in urls(t) | urls(visible(t))}  # the user's own text may name an address
    assert urls(svg) <= {"http://www.w3.org/2000/svg"} | mine
    assert urls(html) <= mine
    assert "@font-face" not in svg and "url(http" not in svg


# --- text shown safely -------------------------------------------------------------------------


@pytest.mark.parametrize("text", HOSTILE)
def test_user_text_is_shown_as_text_everywhere(journal, yimao, tmp_path, text):
    ok(yimao("cast", *CAST, "--save", "--question", text))
    ok(yimao("journal", "note", "1", text))
    ok(yimao("journal", "outcome", "1", "--verdict", "应", "--note", text))
    for args in (("journal", "list"), ("journal", "show", "1"), ("journal", "stats"), ("journal", "list", "--search", text)):
        out = ok(yimao(*args))
        shows_nothing_that_acts(out)
        if "list" in args:
            assert "1" in out.decode()  # the case is listed, not an error for the whole journal
    for markup in ("[/月]", "[link=http://evil.example]", "[red]", ":smile:"):
        if markup in text:
            assert markup in ok(yimao("journal", "list")).decode()  # shown, not read
            assert markup in ok(yimao("journal", "show", "1")).decode()
    check_picture(*pictures(yimao, tmp_path, "journal", "show", "1"), text)
    assert json.loads(ok(yimao("journal", "show", "1", "--json")))["question"] == text  # kept as given


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.text(
        alphabet=st.one_of(
            st.characters(min_codepoint=1, max_codepoint=0x9F),
            st.sampled_from("[]/=:#\u202e\u2066\u2028\ufffe\uffff财问"),
            st.characters(codec="utf-8", exclude_characters="\x00"),
        ),
        min_size=1,
        max_size=30,
    ).filter(lambda t: t.strip() and not t.startswith("-"))
)
def test_any_question_and_note_is_shown_safely(tmp_path_factory, monkeypatch, capfdbinary, text):
    where = tmp_path_factory.mktemp("j") / "j.sqlite3"
    monkeypatch.setenv("COLUMNS", "120")

    monkeypatch.setenv("YIMAO_JOURNAL", str(where))  # (never the user's own journal)

    def run(*args: str) -> bytes:
        monkeypatch.setattr(sys, "argv", ["yimao", *args])
        code = launch_run(list(args))
        out, err = capfdbinary.readouterr()
        assert code == 0 and b"Traceback" not in err, err.decode()
        return out

    run("cast", *CAST, "--save", "--question", text)
    run("journal", "note", "1", text)
    for args in (("journal", "list"), ("journal", "show", "1")):
        shows_nothing_that_acts(run(*args))
    svg = where.parent / "c.svg"
    run("journal", "show", "1", "--svg", str(svg))
    ET.parse(svg)


def test_names_in_stored_documents_are_shown_as_text(journal, yimao):
    """`journal stats` shows finding and star names from the stored documents (which an import
    brings): markup and escapes there are text too."""
    ok(yimao("cast", *CAST, "--save"))
    ok(yimao("journal", "outcome", "1", "--verdict", "应"))
    with sqlite3.connect(journal) as db:
        doc = json.loads(zlib.decompress(db.execute("SELECT document FROM cases").fetchone()[0]))
        doc["findings"] = [{"rule": "[/月]\x1b[2J", "kind": "[link=http://evil]x", "holds": True}]
        doc["stars"] = [{"id": "x", "label": "\x1b]0;t\x07[red]", "active": True, "lines": [1]}]
        db.execute("UPDATE cases SET document = ?", (zlib.compress(json.dumps(doc).encode()),))
    out = ok(yimao("journal", "stats"))
    shows_nothing_that_acts(out)
    assert "[/月]␛[2J" in out.decode() and "[link=http://evil]x" in out.decode() and "[red]" in out.decode()


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_the_delete_prompt_shows_the_question_as_text(journal, yimao):
    ok(yimao("cast", *CAST, "--save", "--question", "问\x1b]0;pwned\x07\x1b[2J\r\x08\u202e尾"))
    prompt = answered_on_a_terminal(("journal", "delete", "1"), b"n\n")
    assert "删除卦例 1".encode() in prompt
    assert not re.search(rb"[\x07\x08\x1b]", prompt) and "\u202e".encode() not in prompt
    assert "问␛]0;pwned␇␛[2J␍␈<U+202E>尾" in prompt.decode()


# --- text that cannot be kept -------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, says",
    [
        (("cast", *CAST, "--save", "--question", "caf\udce9"), "--question"),
        (("journal", "note", "1", "caf\udce9"), "the note"),
        (("journal", "outcome", "1", "--verdict", "应", "--note", "caf\udce9"), "--note"),
        (("journal", "list", "--search", "caf\udce9"), "--search"),
        (("journal", "list", "--tag", "caf\udce9"), "a tag"),
        (("journal", "tag", "1", "caf\udce9"), "a tag"),
        (("journal", "question", "1", "caf\udce9"), "the question"),
        (("journal", "note", "1", "--edit", "1", "caf\udce9"), "the note"),
    ],
)
def test_text_that_is_not_utf8_is_bad_input(journal, yimao, args, says):
    ok(yimao("cast", *CAST, "--save"))
    bad(yimao(*args), says, "caf\\xe9", "UTF-8")
    assert json.loads(ok(yimao("journal", "show", "1", "--json")))["notes"] == []


# --- case numbers, topics, searches -------------------------------------------------------------


@pytest.mark.parametrize("number", ["99999999999999999999999", "9223372036854775808", "0", "-1", "1.5", "x", "1" * 5000])
@pytest.mark.parametrize(
    "command",
    [("show",), ("note", "{}", "x"), ("delete", "{}", "--yes"), ("outcome", "{}", "--verdict", "应"), ("tag", "{}", "x"), ("question", "{}", "x")],
)
def test_a_case_number_out_of_range_is_bad_input(journal, yimao, command, number):
    ok(yimao("cast", *CAST, "--save"))
    args = [number if a == "{}" else a for a in command] if "{}" in command else [*command, number]
    message = bad(yimao("journal", *args), "-1" if number == "-1" else "case number")  # (-1 reads as an option)
    assert len(message) < 400  # a long value is not echoed whole
    assert json.loads(ok(yimao("journal", "show", "1", "--json")))["case"] == 1


def test_the_largest_case_number_is_no_case(journal, yimao):
    ok(yimao("cast", *CAST, "--save"))
    bad(yimao("journal", "show", "9223372036854775807"), "no case 9223372036854775807")
    bad(yimao("journal", "show", "#2"), "no case 2")
    assert ok(yimao("journal", "show", "#1"))


def test_topics_are_kept_and_found_by_the_books_name(journal, yimao):
    for word in ("官司", "詞訟", "词讼"):
        ok(yimao("cast", *CAST, "--topic", word, "--save", "--question", word))
    with sqlite3.connect(journal) as db:  # a case saved before topics were kept canonical
        db.execute("UPDATE cases SET topic = '官司' WHERE id = 1")
    for word in ("词讼", "官司", "詞訟"):
        found = [json.loads(line) for line in ok(yimao("journal", "list", "--json", "--topic", word)).splitlines()]
        assert [e["case"] for e in found] == [1, 2, 3]
    assert {json.loads(line)["topic"] for line in ok(yimao("journal", "list", "--json")).splitlines()} <= {"词讼", "官司"}
    bad(yimao("journal", "list", "--topic", "不存在"), "unknown topic", "词讼")
    Path(journal).unlink()
    bad(yimao("journal", "list", "--topic", "不存在"), "unknown topic")  # with no journal too


def test_a_search_is_text_of_any_length(journal, yimao):
    ok(yimao("cast", *CAST, "--save", "--question", "收入100%_a"))
    ok(yimao("cast", *CAST, "--save", "--question", "收入1000ab"))
    search = lambda s: [json.loads(x)["case"] for x in ok(yimao("journal", "list", "--json", "--search", s)).splitlines()]  # noqa: E731
    assert search("100%_") == [1] and search("%") == [1] and search("_") == [1]  # no wildcards
    assert search("收入") == [1, 2] and search("A") == [1, 2]  # ASCII folded, as before
    assert search("x" * 120_000) == []  # no "pattern too complex"


# --- where the journal is -----------------------------------------------------------------------


@pytest.mark.parametrize("given, says", [(":memory:", "in memory"), ("", "empty"), ("   ", "empty")])
def test_special_or_empty_names_are_refused(tmp_path, yimao, monkeypatch, given, says):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "none.jsonl").write_bytes(b"")
    for args in (("cast", *CAST, "--save"), ("journal", "list"), ("journal", "import", "none.jsonl")):
        bad(yimao(*args, "--journal", given), "--journal", says)
    monkeypatch.setenv("YIMAO_JOURNAL", ":memory:")
    bad(yimao("cast", *CAST, "--save"), "YIMAO_JOURNAL", "in memory")
    assert [p.name for p in tmp_path.iterdir()] == ["none.jsonl"]


def test_a_uri_like_name_is_a_file(tmp_path, yimao, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ok(yimao("cast", *CAST, "--save", "--journal", "file:x.db?mode=memory"))
    assert (tmp_path / "file:x.db?mode=memory").is_file()
    assert ok(yimao("journal", "list", "--json", "--journal", "file:x.db?mode=memory")).count(b"\n") == 1


@contextmanager
def as_a_user_without_rights():
    """The body run as a user who is not root, with no write permission: as `nobody` when the
    tests run as root (whom no permission bit stops), else as the user running them."""
    if os.geteuid() != 0:
        yield
        return
    os.setegid(65534)
    os.seteuid(65534)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX users")
def test_a_read_only_journal_in_a_read_only_directory_reads(yimao):
    top = Path(tempfile.mkdtemp(prefix="yimao-ro-"))
    try:
        top.chmod(0o755)
        where = top / "journal.sqlite3"
        for question in ("一", "二"):
            ok(yimao("cast", *CAST, "--save", "--question", question, "--journal", str(where)))
        ok(yimao("journal", "outcome", "1", "--verdict", "应", "--journal", str(where)))
        with sqlite3.connect(where) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for extra in ("-wal", "-shm"):
            Path(f"{where}{extra}").unlink(missing_ok=True)
        where.chmod(0o444)
        top.chmod(0o555)
        with as_a_user_without_rights():
            assert not os.access(top, os.W_OK, effective_ids=os.access in os.supports_effective_ids)
            listed = ok(yimao("journal", "list", "--json", "--journal", str(where)))
            assert [json.loads(x)["question"] for x in listed.splitlines()] == ["一", "二"]
            assert json.loads(ok(yimao("journal", "show", "2", "--json", "--journal", str(where))))["question"] == "二"
            assert json.loads(ok(yimao("journal", "stats", "--json", "--journal", str(where))))["cases"]["应"] == 1
            assert ok(yimao("journal", "export", "--journal", str(where))).count(b"\n") == 2
            bad(yimao("journal", "note", "1", "x", "--journal", str(where)), str(where))
            bad(yimao("cast", *CAST, "--save", "--journal", str(where)), str(where))
        assert sorted(p.name for p in top.iterdir()) == ["journal.sqlite3"]  # nothing written beside it
    finally:
        top.chmod(0o755)
        for p in top.iterdir():
            p.unlink()
        top.rmdir()


# --- streams and files --------------------------------------------------------------------------


def _saved(yimao, n: int) -> None:
    for i in range(n):
        ok(yimao("cast", *CAST, "--save", "--question", f"问{i}"))


def test_export_to_a_reader_that_went_away_is_141_quietly(journal, yimao):
    _saved(yimao, 2)
    p = subprocess.Popen([sys.executable, "-m", "yimao", "journal", "export"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()  # before it writes
    err = p.stderr.read()
    assert p.wait(timeout=60) == 141 and err == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="/dev/full")
def test_export_to_a_full_disk_or_a_closed_stdout_is_1(journal, yimao):
    _saved(yimao, 1)
    with open("/dev/full", "wb") as full:
        p = subprocess.run([sys.executable, "-m", "yimao", "journal", "export"], stdout=full, stderr=subprocess.PIPE)
    assert p.returncode == 1 and b"cannot write the output" in p.stderr and b"journal" not in p.stderr
    p = subprocess.run([sys.executable, "-m", "yimao", "journal", "export"], stderr=subprocess.PIPE, preexec_fn=_close_stdout)
    assert p.returncode == 1 and b"cannot write the output" in p.stderr


def _close_stdout() -> None:  # in the child, before it starts: `yimao … >&-`
    os.close(1)


def test_a_picture_that_cannot_be_written_leaves_the_old_one_whole(journal, yimao, tmp_path, monkeypatch):
    picture = tmp_path / "chart.svg"
    picture.write_text("<svg>the old picture</svg>", encoding="utf-8")
    real_fsync = os.fsync

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    for kind in ("--svg", "--html"):
        code, out, err = yimao("cast", *CAST, kind, str(picture))
        assert (code, out) == (1, b"") and "No space left on device" in err.decode() and str(picture) in err.decode(), err
        assert picture.read_text(encoding="utf-8") == "<svg>the old picture</svg>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chart.svg"]  # no part left behind
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert ok(yimao("cast", *CAST, "--svg", str(picture))) == b""
    ET.parse(picture)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chart.svg"]


def test_a_save_whose_output_failed_is_not_made_twice(journal, yimao):
    argv = ["cast", *CAST, "--json", "--save", "--question", "问"]
    for _ in range(2):
        p = subprocess.run(
            [sys.executable, "-m", "yimao", *argv],
            stderr=subprocess.PIPE,
            preexec_fn=_close_stdout,
            env={**os.environ, "YIMAO_JOURNAL": str(journal)},
        )
        assert p.returncode == 1 and "卦例 1".encode() in p.stderr
    assert "已存此卦此问，不再存".encode() in p.stderr
    out = ok(yimao("journal", "list", "--json"))
    assert [json.loads(x)["case"] for x in out.splitlines()] == [1]
    ok(yimao("cast", *CAST, "--save", "--question", "另一问"))  # another question is another case
    ok(yimao("cast", *CAST, "--save"))
    assert [json.loads(x)["case"] for x in ok(yimao("journal", "list", "--json")).splitlines()] == [1, 2, 3]


@pytest.mark.parametrize(
    "args",
    [
        ("cast", *CAST, "--json", "--json"),
        ("cast", *CAST, "--explain", "--explain"),
        ("cast", *CAST, "-t", "--traditional"),
        ("hex", "离", "--json", "--json"),
        ("journal", "list", "--json", "--json"),
        ("journal", "delete", "1", "--yes", "-y"),
    ],
)
def test_a_flag_given_twice_is_said_as_an_option_given_twice(journal, yimao, args):
    bad(yimao(*args), "more than once")


def test_a_row_an_earlier_import_let_through_does_not_stop_the_list(journal, yimao):
    """An earlier yimao's import stored what it had not checked (a hexagram that is none): the
    other cases still list, and that row is shown as it stands, visibly."""
    ok(yimao("cast", *CAST, "--save", "--question", "一"))
    ok(yimao("cast", *CAST, "--save", "--question", "二"))
    with sqlite3.connect(journal) as db:
        db.execute("UPDATE cases SET hexagram = '不是卦\x1b[2J' WHERE id = 2")
    out = ok(yimao("journal", "list"))
    shows_nothing_that_acts(out)
    assert "离之乾" in out.decode() and "不是卦␛[2J之乾" in out.decode()
    assert [json.loads(x)["case"] for x in ok(yimao("journal", "list", "--json")).splitlines()] == [1, 2]
