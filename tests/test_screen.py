"""The practitioner's screen: the hexagram one figure at every width, the 伏神's and the 变爻's
state, the stars of a moving line by weight, the whole 之卦 where the width allows it, the 互卦."""

from __future__ import annotations

import io
import random
import re
import statistics

import pytest

from yimao.chart import build_chart
from yimao.hexagram import HEXAGRAMS, Cast, Hexagram
from yimao.pipeline import CastRequest, read
from yimao.render import MOST_NAMES, _Script, cells, chart_table, make_console, render_reading

WIDTHS = (60, 80, 100, 120, 160, 250)


def casts(n: int, seed: int = 29) -> list[CastRequest]:
    """Random casts at random minutes of 1950-2050, with a 用神 now and then (a 伏神 as 用神 too)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        coins = "".join(rng.choice("6789") for _ in range(6))
        date = f"{rng.randint(1950, 2050)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}+08:00"
        out.append(CastRequest(hex=coins, date=date, use=rng.choice([None, "官", "财", "父", "兄", "子", "世"])))
    return out


def screen(req: CastRequest, width: int, **options) -> str:
    console = make_console(io.StringIO(), width=width)
    render_reading(read(req), console, **options)
    return console.file.getvalue()


def table_rows(req: CastRequest, width: int, **options) -> tuple[list[str], list[str]]:
    """The chart table alone at `width`: its header row, and the rows under its rule."""
    console = make_console(io.StringIO(), width=width)
    console.print(chart_table(read(req).chart, _Script(False), width, **options)[0])
    lines = console.file.getvalue().splitlines()
    rule = next(i for i, line in enumerate(lines) if line.strip() and set(line.strip()) == {"─"})
    return lines[rule - 1 : rule], lines[rule + 1 :]


def line_cell(line) -> str:
    return f"{line.relative.value}{line.stem.value}{line.branch.value}{line.element.value}"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("changed", [None, True])
def test_the_hexagram_is_one_figure_at_every_width(width, changed):
    """Each line one row from 100 columns (with a 伏神 column, with the whole 之卦), at most two
    below; stars never a column of the chart; no printed line wider than the width."""
    for req in [*casts(40), CastRequest("大畜之离", month="卯", day="戊寅", use="父"), CastRequest("666666", date="2026-12-02T10:00+08:00")]:
        header, rows = table_rows(req, width, changed_full=changed)
        assert "神煞" not in header[0]
        chart = read(req).chart
        at = [next(i for i, row in enumerate(rows) if line_cell(cl.line) in row) for cl in reversed(chart.lines)]
        assert at == sorted(at) and at[0] == 0
        spans = [b - a for a, b in zip(at, [*at[1:], len(rows)])]  # rows each line takes
        assert max(spans) == 1 if width >= 100 else max(spans) <= 2, (req, width, spans)
        assert max(map(cells, screen(req, width).splitlines())) <= width


def test_no_moving_line_names_more_than_twelve_stars():
    natures = {"吉", "凶", "吉凶", "·", "神煞"}
    for width in (100, 250):
        for req in casts(150, seed=7):
            block: list[str] = []
            for line in screen(req, width).splitlines():  # 神煞 爻5 …, then its indented lines
                if line.startswith("神煞 ") or (block and line.startswith(" ")):
                    block.append(line)
                elif block:
                    break
            for entry in re.split(r"爻\d\s", " ".join(block))[1:]:
                names = [w for w in entry.split() if w not in natures and not re.fullmatch(r"(余|未详|轻|异读)\d+", w)]
                assert len(names) <= MOST_NAMES, (req, width, entry)


def moving_line_counts(out: str) -> dict[int, dict[str, int]]:
    """The counts after each moving line's stars on a default screen: {line: {"余": 3, …}}."""
    block = " ".join(line for line in out.splitlines() if line.startswith("神煞 ") or line.startswith("     "))
    return {
        int(pos): {k: int(n) for k, n in re.findall(r"(余|未详|轻|异读)(\d+)", rest)}
        for pos, rest in re.findall(r"爻(\d)\s+(.*?)(?=爻\d\s|$)", block)
    }


def test_a_star_that_a_variant_alone_puts_on_a_moving_line_is_counted_there():
    """离之乾 (lines 2 and 5 move) in 卯月: 血刃 has no place in an even month by 「正三五七九鼠月」,
    but reading 「血忌之星同血刃」 puts it with 血忌 on 午, line 5's 变爻. The first screen counts it
    on line 5 (异读1), --explain names it. Over random casts, each moving line's count is the
    number of stars the document lists on no line whose variant falls on that line (every part of
    a moving line moves: its 本爻, its 变爻, its lifted 伏神)."""
    req = CastRequest("离之乾", month="卯", day="戊寅")
    assert moving_line_counts(screen(req, 100))[5].get("异读") == 1
    assert "异读 血刃" in screen(req, 100, explain=True)
    from yimao.pipeline import document

    seen = 0
    for req in casts(150, seed=5):
        doc = document(read(req))
        moving = [line["position"] for line in doc["hexagram"]["lines"] if line["moving"]]
        expected = {
            p: sum(1 for s in doc["stars"] if not s["lines"] and not s["day_match"] and any(p in (v["lines"] or ()) for v in s["variants"]))
            for p in moving
        }
        got = {p: c.get("异读", 0) for p, c in moving_line_counts(screen(req, 250)).items()}
        assert got == {p: n for p, n in expected.items() if p in got}, (req, got, expected)
        seen += sum(expected.values())
    assert seen > 0


def test_the_default_screen_is_short():
    """At 100 columns the default cast is one screen: median at most 30 lines, the longest 45."""
    counts = [len(screen(req, 100).splitlines()) for req in casts(200, seed=11)]
    assert statistics.median(counts) <= 30 and max(counts) <= 45, (statistics.median(counts), max(counts))


def test_a_hidden_use_says_its_state_on_its_row():
    """大畜 has no 父母: the 用神 父 is the 伏神 午火 under line 2 (甲寅 官鬼, which moves). Its
    state, written out from the rules: 飞神 寅木 生 伏神 午火 (飞生伏); 午火 in 卯月 (木旺 火相)
    相; at the day 寅 火 is 长生; its 飞神 moves, so it is lifted (相挈)."""
    for width in (80, 100, 160):
        out = screen(CastRequest("大畜之离", month="卯", day="戊寅", use="父"), width)
        row = " ".join(line for line in out.splitlines() if line.startswith("爻2") or "父母丙午火" in line)
        assert all(w in row for w in ("飞生伏", "月相", "日长生", "相挈")), (width, row)


def test_a_changed_line_says_its_own_strength():
    """困之兑 in 酉月 庚申日: line 1 寅 changes to 巳火. 火 in a 金 month is 囚 (旺 金, 相 水, 死 木,
    囚 火, 休 土); at the day 申, 火 (长生 寅) is at 病."""
    for width in (80, 100):
        out = screen(CastRequest("困之兑", month="酉", day="庚申", use="财"), width)
        assert re.search(r"变\s+(爻1\s+)?月囚 日病", out), out


def test_the_whole_zhi_gua_where_the_width_allows_it():
    """From 100 columns the 之卦's six lines stand beside the 本卦's; below, its 变爻 alone; and
    --changed says which."""
    req = CastRequest("困之兑", month="酉", day="庚申")
    lower = ["父母丁丑土", "妻财丁卯木", "官鬼丁巳火"]  # 兑's lower lines against 兑 palace 金 (its upper are 困's own)
    _, rows = table_rows(req, 100)
    assert all(any(c in row for row in rows) for c in lower)
    _, rows = table_rows(req, 80)
    assert [c for c in lower if any(c in row for row in rows)] == ["官鬼丁巳火"]  # the 变爻 of line 1 alone
    _, rows = table_rows(req, 80, changed_full=True)
    assert all(any(c in row for row in rows) for c in lower)


# 互卦: lines 2-4 below, 3-5 above. Known pairs, as the tradition tabulates them.
NUCLEAR = {
    "乾": "乾",
    "坤": "坤",
    "既济": "未济",
    "未济": "既济",
    "离": "大过",
    "坎": "颐",
    "屯": "剥",
    "蒙": "复",
    "困": "家人",
    "大畜": "归妹",
    "泰": "归妹",
    "否": "渐",
}


@pytest.mark.parametrize("name, nuclear", sorted(NUCLEAR.items()))
def test_the_nuclear_hexagram(name, nuclear):
    assert Hexagram.parse(name).nuclear is Hexagram.parse(nuclear)


def test_nuclear_hexagrams_come_to_the_four():
    """Taken twice, every 互卦 is 乾, 坤, 既济 or 未济."""
    four = {Hexagram.parse(n) for n in ("乾", "坤", "既济", "未济")}
    assert {h.nuclear.nuclear for h in HEXAGRAMS} == four


def test_the_header_names_the_nuclear_hexagram():
    out = screen(CastRequest("困之兑", month="酉", day="庚申"), 100)
    assert "互卦：风火家人" in out.splitlines()[1]
    chart = build_chart(Cast.parse("离之乾"))
    console = make_console(io.StringIO(), width=100)
    console.print(chart_table(chart, _Script(False), 100)[0])
    assert "互卦：泽风大过" in console.file.getvalue()


def test_explain_gives_the_books_sentences_for_a_hidden_line():
    """The book's own 伏会 (卯建戊寅日，用父得大畜之离, 6.06): 午火 hidden under 寅, its 长生 (伏得生:
    「午伏寅者是也」, 6.07), lifted as 寅 moves (相挈). 申金 under 辰 (line 3) is generated by its
    飞神 but not at its 长生 (巳), and its 飞神 is still: neither sentence is its."""
    out = screen(CastRequest("大畜之离", month="卯", day="戊寅", use="父"), 160, explain=True)
    block = out[out.index("\n伏神\n") :]
    line3 = next(line for line in block.splitlines() if line.startswith("爻3"))
    line2 = next(line for line in block.splitlines() if line.startswith("爻2"))
    assert "伏得生" not in line3 and "相挈" not in line3
    assert "（用神）" in line2 and "伏得生" in line2 and "相挈" in line2
    assert "「伏会者，发动飞爻而相挈也」 6.06" in block and "「伏得生者其局真」 6.07" in block
