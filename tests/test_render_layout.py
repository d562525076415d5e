"""The tables as a reader meets them: the default cast fits a screen, the cells of the lines stay
whole at any width from 60 columns, the marks of 用神/原神/忌神, the whole 之卦 on request, the
line-breaking rule of Chinese text, and the chart as a picture (SVG, HTML)."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from yimao.linebreak import NO_LINE_END, NO_LINE_START, cells, tokens, wrap_text
from yimao.pipeline import CastRequest, read
from yimao.render import make_console, render_reading

DATE = "2026-12-02T10:00+08:00"  # the README's quick start
ENV = {**os.environ, "TZ": "Asia/Shanghai", "PYTHONIOENCODING": "utf-8"}

# 五行 生克, written out here rather than read from yimao: 木生火 火生土 土生金 金生水 水生木; 木克土 土克水 水克火 火克金 金克木
GENERATES = {"木": "火", "火": "土", "土": "金", "金": "水", "水": "木"}
OVERCOMES = {"木": "土", "土": "水", "水": "火", "火": "金", "金": "木"}


def text_of(req: CastRequest, width: int, **options) -> str:
    console = make_console(io.StringIO(), width=width)
    render_reading(read(req), console, **options)
    return console.file.getvalue()


def cli(*args: str, columns: int = 100) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env={**ENV, "COLUMNS": str(columns)}, timeout=60)


def cell(line) -> str:
    return f"{line.relative.value}{line.stem.value}{line.branch.value}{line.element.value}"


# --- one screen -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, use, at_100, at_80",
    [
        ("离之乾", None, 45, 60),  # the README's quick start: the targets
        ("666666", "财", 45, 60),  # every line moves: the most stars acting
        ("乾", None, 30, 30),
        ("大畜之离", "父", 45, 60),  # a 用神 taken from a 伏神
    ],
)
def test_the_default_cast_fits_a_screen(spec, use, at_100, at_80):
    req = CastRequest(spec, date=DATE, use=use)
    assert len(text_of(req, 100).splitlines()) <= at_100
    assert len(text_of(req, 80).splitlines()) <= at_80
    # the whole account is there with --explain, and much longer
    assert len(text_of(req, 100, explain=True).splitlines()) > 2 * len(text_of(req, 100).splitlines())


def test_the_quick_start_from_the_command_line():
    """COLUMNS and --width both set the width; the lines counted are the ones printed."""
    for columns, most in ((100, 45), (80, 60)):
        r = cli("cast", "--date", DATE, "--hex", "离之乾", columns=columns)
        assert r.returncode == 0 and r.stderr == b""
        out = r.stdout.decode()
        assert len(out.splitlines()) <= most and max(map(cells, out.splitlines())) <= columns
        assert cli("cast", "--date", DATE, "--hex", "离之乾", "--width", str(columns), columns=200).stdout == r.stdout


def test_the_default_says_what_holds_with_its_sentence_and_counts_the_rest():
    out = text_of(CastRequest("离之乾", date=DATE), 100)
    assert "✔ 墓开" in out and "「三刑之法，墓亦赖之，刑则墓开，刑而兼冲，其力更大。」 6.10" in out
    assert "✘" not in out.replace("✘1", "").replace("✘ 未成", "")  # near misses counted, not listed
    # a family checked with nothing found says so; near misses counted per family
    assert "三刑 无" in out and "六害 无" in out and "助鬼伤身 ✘1" in out and "局会 ✘1" in out and "--explain" in out
    # the facts of the hexagram on one line; the stars that act by line, without their quotes
    assert "卦身 巳" in out and "六冲卦" in out and "变六冲" in out
    assert "爻5" in out and "天乙贵人" in out and "天德" in out and "6.15" not in out
    assert "神煞静" in out


def test_explain_keeps_every_quote_near_miss_and_dormant_star():
    out = text_of(CastRequest("离之乾", date=DATE), 100, explain=True)
    assert "✘ 水 官鬼" in out and "日非长生" in out  # the near miss of 助鬼伤身 with its reasons
    assert "「虽曰长生，临于岁月动变之位者则非」 6.02" in out
    assert "静 (不动则不伺)" in out
    assert "三刑 无" in out


# --- whole cells at any width -----------------------------------------------------------------


def _rows(out: str) -> list[str]:
    return [line for line in out.splitlines() if "▅" in line]


def _casts(n: int) -> list[CastRequest]:
    rng = random.Random(20)
    return [
        CastRequest(
            "".join(rng.choice("6789") for _ in range(6)),
            date=f"20{rng.randint(10, 40)}-{rng.randint(1, 12):02d}-15T{rng.randint(0, 23):02d}:00+08:00",
            use=rng.choice([None, "官", "财", "父", "兄", "子"]),
        )
        for _ in range(n)
    ]


@pytest.mark.parametrize("width", [60, 70, 80, 100, 140])
def test_every_line_cell_is_whole_on_its_row(width):
    """本卦, 变爻 and 伏神 cells whole, on the row of their line, top line first; the moving mark on
    the row too; no printed line wider than the width."""
    for req in [*_casts(40), CastRequest("离之乾", date=DATE), CastRequest("大畜之离", month="卯", day="戊寅", use="父")]:
        for explain in (False, True):
            out = text_of(req, width, explain=explain)
            assert max(map(cells, out.splitlines())) <= width, (req, width)
            rows = _rows(out)
            chart = read(req).chart
            assert len(rows) == 6
            for row, cl in zip(rows, reversed(chart.lines)):
                assert cell(cl.line) in row, (req, width, row)
                if cl.hidden is not None:
                    assert cell(cl.hidden.line) in row
                if cl.changed is not None:
                    assert cell(cl.changed) in row
                assert ("○" in row or "×" in row) == cl.moving


@pytest.mark.parametrize("width", [60, 80, 100])
def test_a_star_name_is_never_split(width):
    """Every star acting on a line is printed whole (天乙贵人, not 天乙/贵人) under the chart with
    --explain; by default each is named whole or counted."""
    for req in _casts(15):
        reading = read(req)
        out = text_of(req, width, explain=True)
        for s in reading.stars.placements:
            if any(h.moving for h in s.hits):
                assert s.star.label in out, (req, width, s.star.name)


# --- marks ------------------------------------------------------------------------------------


def _marks(out: str, chart) -> list[str]:
    """The 世应 column of each row, 上爻 first: the word after the drawn line (and its ○ or ×)."""
    marks = []
    for row, cl in zip(_rows(out), reversed(chart.lines)):
        rest = row[row.index(cell(cl.line)) + len(cell(cl.line)) :].lstrip()[5:].replace("○", "").replace("×", "").split()
        marks.append(rest[0] if rest and set(rest[0]) <= set("世应用伏原忌") else "")
    return marks


def test_the_yongshen_yuanshen_and_jishen_are_marked():
    """用 on the lines of the 用神; 原 on the lines whose element 生 it, 忌 on those that 克 it."""
    for req in _casts(60):
        if req.use is None:
            continue
        reading = read(req)
        use, chart = reading.use, reading.chart
        if not use.positions:
            continue
        marks = _marks(text_of(req, 100), chart)
        element = chart.lines[use.positions[0] - 1].element.value
        for mark, cl in zip(marks, reversed(chart.lines)):
            e = cl.element.value
            assert ("用" in mark) == (cl.position in use.positions), (req, mark)
            if cl.position not in use.positions:
                assert ("原" in mark) == (GENERATES[e] == element), (req, mark, e, element)
                assert ("忌" in mark) == (OVERCOMES[e] == element), (req, mark, e, element)
            assert mark.startswith("世") == cl.shi and mark.startswith("应") == cl.ying


def test_a_hidden_yongshen_is_marked_on_its_line():
    """大畜 has no 父母: the 用神 is the 伏神 父母丙午火 under line 2, shown bold, marked 伏用; 木 生
    火 (原: 寅 on lines 2 and 6), 水 克 火 (忌: 子 on lines 1 and 5)."""
    req = CastRequest("大畜之离", month="卯", day="戊寅", use="父")
    out = text_of(req, 100)
    assert _marks(out, read(req).chart) == ["原", "应忌", "", "", "世伏用原", "忌"]
    assert "原神木 忌神水" in out


# --- the whole 之卦 -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, expected",
    [
        # 离 palace 火; 乾's 纳甲 甲子 甲寅 甲辰 壬午 壬申 壬戌: 水克火 官鬼, 木生火 父母, 火生土 子孙, 火 兄弟, 火克金 妻财
        ("离之乾", ["官鬼甲子水", "父母甲寅木", "子孙甲辰土", "兄弟壬午火", "妻财壬申金", "子孙壬戌土"]),
        # 艮 palace 土; 离's 纳甲 己卯 己丑 己亥 己酉 己未 己巳: 木克土 官鬼, 土 兄弟, 土克水 妻财, 土生金 子孙, 火生土 父母
        ("大畜之离", ["官鬼己卯木", "兄弟己丑土", "妻财己亥水", "子孙己酉金", "兄弟己未土", "父母己巳火"]),
    ],
)
def test_changed_full_draws_the_whole_zhi_gua_against_the_original_palace(spec, expected):
    req = CastRequest(spec, date=DATE)
    rows = _rows(text_of(req, 100, changed_full=True))
    assert [next(c for c in expected if c in row) for row in reversed(rows)] == expected
    assert _rows(text_of(req, 100)) == rows  # from 100 columns the whole 之卦 by default
    moving = {cl.position for cl in read(req).chart.lines if cl.moving}
    for changed, width in ((False, 100), (None, 80)):  # the 变爻 only, asked or by default where the width is short
        for p, row in zip(range(6, 0, -1), _rows(text_of(req, width, changed_full=changed))):
            assert (expected[p - 1] in row) == (p in moving)


def test_changed_full_in_hex_and_a_bad_value():
    r = cli("hex", "离之乾", "--changed", "full")
    assert r.returncode == 0 and "官鬼甲子水" in r.stdout.decode() and "兄弟壬午火" in r.stdout.decode()
    r = cli("cast", "--hex", "离之乾", "--changed", "half")
    assert r.returncode == 2 and r.stdout == b"" and b"half" in r.stderr and b"full" in r.stderr


# --- breaking Chinese lines -------------------------------------------------------------------

CJK = st.text(
    alphabet=st.sampled_from(list("天乙贵人之卦身世应用原忌") + list("，。、；：」「』『（）") + [" ", "6", ".", "1"]), min_size=0, max_size=80
)


@settings(max_examples=300, deadline=None)
@given(CJK, st.integers(min_value=4, max_value=40))
@example("1「 1、", 5)  # an opening mark before a space at the break: the space is looked through
@example("、、 、", 4)  # a space before a hanging mark goes, not past the width
def test_wrapped_lines_keep_the_rules_of_chinese_text(text, width):
    lines = wrap_text(text, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost, nothing added
    for i, line in enumerate(lines):
        # a piece wider than the line has one of its own, with the marks bound to it
        single = len([t for t in tokens(line.strip()) if t not in NO_LINE_START | NO_LINE_END]) <= 1
        assert cells(line.rstrip("".join(NO_LINE_START))) <= width or single  # only closing marks may hang past it
        if i and line and not single:
            assert line[0] not in NO_LINE_START, lines
        if i < len(lines) - 1 and line and not single:
            assert line[-1] not in NO_LINE_END or all(c in NO_LINE_END for c in line), lines


def test_no_printed_line_starts_with_a_closing_mark():
    for width in (60, 80, 100):
        out = text_of(CastRequest("离之乾", date=DATE), width, explain=True)
        for line in out.splitlines():
            body = line.strip("│ ")
            assert not body or body[0] not in NO_LINE_START, line


# --- the 节 warning, once ---------------------------------------------------------------------


def test_the_jie_warning_is_said_once_on_stderr_in_local_time():
    r = cli("cast", "--hex", "乾", "--date", "2024-02-04T16:30+08:00")
    assert r.returncode == 0 and r.stderr.decode().count("warning") == 1
    assert "16:27:07+0800" in r.stderr.decode() and "warning" not in r.stdout.decode() and "⚠" not in r.stdout.decode()


# --- pictures ---------------------------------------------------------------------------------


def _html_text(page: str) -> str:
    """The text of an HTML page, checking that every tag opened is closed in order."""
    from html.parser import HTMLParser

    class Checker(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.open: list[str] = []
            self.text: list[str] = []

        def handle_starttag(self, tag, attrs):
            if tag not in ("meta", "br", "link"):
                self.open.append(tag)

        def handle_endtag(self, tag):
            assert self.open and self.open.pop() == tag, tag

        def handle_data(self, data):
            self.text.append(data)

    checker = Checker()
    checker.feed(page)
    checker.close()
    assert page.startswith("<!DOCTYPE html>") and checker.open == []
    return "".join(checker.text)


def test_a_picture_to_stdout_and_bad_paths(tmp_path):
    r = cli("cast", "--date", DATE, "--hex", "离之乾", "--svg", "-")
    assert r.returncode == 0 and r.stdout.startswith(b"<svg") and "离为火".encode() in r.stdout
    for args, needle in (
        (("--svg", str(tmp_path / "no" / "such" / "x.svg")), b"no directory"),
        (("--html", str(tmp_path)), b"directory"),
        (("--svg", "-", "--html", "-"), b"only one"),
        (("--svg", "x.svg", "--json"), b"without --json"),
    ):
        r = cli("cast", "--date", DATE, "--hex", "离之乾", *args)
        assert r.returncode == 2 and r.stdout == b"" and needle in r.stderr, (args, r.stderr)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("args", [("text", "6.10"), ("text", "天医"), ("star", "天医"), ("star", "--list"), ("examples",)])
def test_the_books_text_breaks_as_chinese_breaks(args):
    """In the passages (two columns), a star's notes, the catalogue and the worked examples, no
    cell's line starts with a closing mark nor ends with an opening one, and no name is split."""
    for columns in (60, 80):
        r = cli(*args, columns=columns)
        assert r.returncode == 0
        for line in r.stdout.decode().splitlines():
            assert cells(line) <= columns
            for part in line.split("│"):
                body = part.strip().removeprefix("· ").strip()
                assert not body or (body[0] not in NO_LINE_START and body[-1] not in NO_LINE_END), (args, columns, line)
        if args == ("star", "--list"):
            from yimao.stars.catalogue import catalogue

            assert all(s.label in r.stdout.decode() for s in catalogue().stars)


def test_each_holding_finding_is_shown_with_the_sentence_that_names_its_case():
    """The deciding sentence is one of the finding's own quotes (so verbatim), and for every kind
    the table names, the one naming that case (动会者…, 此相生之害也, 是谓真刑), not the general rule."""
    from yimao.view import _DECIDING, deciding_quote

    seen = set()
    for req in _casts(400):
        for f in read(req).findings:
            if not f.holds:
                continue
            q = deciding_quote(f)
            assert q in f.text
            phrase = _DECIDING.get(f.kind or f.rule) or _DECIDING.get(f.rule)
            assert phrase is not None and phrase in q.original, (f.rule, f.kind, q.original)
            seen.add(f.kind or f.rule)
    assert {"动会", "变会", "生害", "克害", "真刑", "刑", "墓开", "冲开"} <= seen
    kehai = [f for req in _casts(400) for f in read(req).findings if f.holds and f.kind == "克害"]
    assert {deciding_quote(f).original for f in kehai} <= {"彼克我者，彼刚而我柔，力被制尔", "我克彼者，我强而彼弱，志相恶尔"}


def test_stars_alone():
    """--stars: every star on the chart (acting and dormant) with its sentence, and nothing of the
    chart or the findings; with --explain the modern rendering too."""
    req = CastRequest("离之乾", date=DATE)
    out = text_of(req, 100, stars_only=True)
    assert "▅" not in out and "墓开" not in out and "四柱" not in out
    for s in read(req).stars.placements:
        assert s.star.label in out
    assert "「天德之星，正月起亥而顺行" in out
    assert len(text_of(req, 100, stars_only=True, explain=True).splitlines()) > len(out.splitlines())
    r = cli("cast", "--hex", "离之乾", "--day", "申", "--stars")
    assert r.returncode == 0 and "卦中无神煞" in r.stdout.decode()


def test_a_wrapped_star_cell_never_starts_or_ends_with_the_group_dot():
    """The · between the 吉, 凶 … groups of a line's stars separates groups on one line only."""
    from yimao.render import LineStar, _pieces_text, stars_by_nature

    rng = random.Random(7)
    names = ["天医", "天乙贵人", "驿马", "丧门", "劫煞", "咸池", "天喜", "白虎"]
    seen_dot = False
    for _ in range(400):
        stars = [LineStar(rng.choice(names), rng.choice(["吉", "凶", "吉凶", "未详"])) for _ in range(rng.randint(1, 8))]
        pieces = stars_by_nature(stars, str)
        for width in range(4, 30):
            for line in _pieces_text(pieces, width):
                words = line.plain.split()
                assert words and words[0] != "·" and words[-1] != "·", (stars, width, line.plain)
                seen_dot = seen_dot or "·" in words
    assert seen_dot  # the groups are still separated where they share a line
