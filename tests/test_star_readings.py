"""The star readings through the commands: 喜神 by the body's branch, 鹤神's stations in heaven,
金舆 and 玉辇, the names of fixed branches (黄泉杀 …), the two readings of 天赦, 经星 and 五纬 on
乾's top line. Expectations are typed from the sentences quoted beside them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from yimao.cli import app
from yimao.stars.catalogue import catalogue

ENV = {**os.environ, "COLUMNS": "140", "TZ": "Asia/Shanghai"}
runner = CliRunner()

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
STEMS = "甲乙丙丁戊己庚辛壬癸"
GANZHI = [STEMS[i % 10] + BRANCHES[i % 12] for i in range(60)]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=ENV, timeout=60)


def invoke(*args: str):
    """In process (the many-name cases): exit code, stdout."""
    r = runner.invoke(app, list(args), env={"COLUMNS": "140", "TZ": "Asia/Shanghai"})
    return r.exit_code, r.stdout


def doc(*args: str) -> dict:
    code, out = invoke(*args, "--json")
    assert code == 0, out
    return json.loads(out)


# --- 喜神: 「甲己五遁得丙寅，则喜神在寅也，乙庚五遁得丙戌，则喜神在戌矣」 ------------------------------


def test_xishen_jiazi_places_yin():
    r = run("star", "喜神", "--day", "甲子", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["positions"] == ["寅"]
    assert [v["positions"] for v in d["variants"]] == [["艮"]]  # the verse's palace, kept as the variant
    r = run("star", "喜神", "--day", "甲子")
    assert r.returncode == 0 and "甲子日 → 寅" in r.stdout.decode()


# the body's two pairs, and the same 五虎遁 rule for the other three (丙 falls on 申, 午, 辰)
XISHEN = {"甲": "寅", "己": "寅", "乙": "戌", "庚": "戌", "丙": "申", "辛": "申", "丁": "午", "壬": "午", "戊": "辰", "癸": "辰"}


@pytest.mark.parametrize("day", ["甲子", "甲戌", "己卯", "乙丑", "庚午", "丙寅", "辛酉", "丁卯", "壬申", "戊辰", "癸亥", "甲", "己"])
def test_xishen_every_stem(day):
    assert doc("star", "喜神", "--day", day)["positions"] == [XISHEN[day[0]]]


def _cast_star(sid: str, *args: str):
    d = doc("cast", *args)
    return next((s for s in d["stars"] if s["id"] == sid), None), d


def test_xishen_on_a_chart_falls_on_the_yin_line_only():
    """泰 carries 寅 (line 2) and 丑 (line 4): on a 甲 day 喜神 is on line 2, not on the 丑 line of 艮."""
    s, d = _cast_star("xishen", "--hex", "泰", "--month", "寅", "--day", "甲子")
    branches = {ln["position"]: ln["branch"] for ln in d["hexagram"]["lines"]}
    assert branches[2] == "寅" and branches[4] == "丑"
    assert s["positions"] == ["寅"] and s["lines"] == [2]
    # 坤 (未巳卯丑亥酉, no 寅 anywhere, static): 喜神 of a 甲 day is on no line
    s, _ = _cast_star("xishen", "--hex", "坤", "--month", "寅", "--day", "甲子")
    assert s is None or s["lines"] == []


# --- 鹤神: 「第四十五日上天而居于房北，复五日而入房中…复二日迁南…复三日而迁西…复一日而迁东…复四日而迁中宫」 --------

HEAVEN = dict(zip(GANZHI[GANZHI.index("癸巳") :][:16], "房北 房北 房北 房北 房北 房中 房中 南 南 南 西 东 东 东 东 中宫".split()))


def test_heshen_heaven_day_names_its_station():
    r = run("star", "鹤神", "--day", "乙未", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["positions"] == ["房北"]


@pytest.mark.parametrize("day", list(HEAVEN))
def test_heshen_each_day_in_heaven(day):
    d = doc("star", "鹤神", "--day", day)
    assert d["positions"] == [HEAVEN[day]]
    assert all(v["positions"][0] in {"房北", "房中", "南", "西", "东", "中宫"} for v in d["variants"])


def test_heshen_on_earth_unchanged():
    """鹤神自天而降，始践于艮 … 四维六日而更，四正五日而迁: 己酉 艮, 乙卯 震, 壬辰 坎."""
    assert [doc("star", "鹤神", "--day", g)["positions"] for g in ("己酉", "甲寅", "乙卯", "壬辰")] == [["艮"], ["艮"], ["震"], ["坎"]]


def test_heshen_in_heaven_is_on_no_line():
    """A station in heaven covers no branch: on 庚子 (南) 鹤神 is not on 乾's 午 line (line 4)."""
    s, d = _cast_star("heshen", "--hex", "乾", "--moving", "4", "--month", "寅", "--day", "庚子")
    assert {ln["position"]: ln["branch"] for ln in d["hexagram"]["lines"]}[4] == "午"
    assert s is None or s["lines"] == []
    # and on an earth day it is: 丙寅 离 → the 午 line
    s, _ = _cast_star("heshen", "--hex", "乾", "--moving", "4", "--month", "寅", "--day", "丙寅")
    assert s is not None and s["positions"] == ["离"] and 4 in s["lines"]


def test_stars_command_names_the_station():
    d = doc("stars", "--month", "午", "--day", "癸卯")
    assert next(s for s in d["stars"] if s["id"] == "heshen")["positions"] == ["西"]


# --- 金舆 玉辇: 「故天符为金舆，地符为玉辇」 (五符者，即天符也) -----------------------------------------------


@pytest.mark.parametrize("name, sid", [("金舆", "wufu"), ("金輿", "wufu"), ("玉辇", "difu"), ("玉輦", "difu"), ("天符", "wufu")])
def test_jinyu_yunian(name, sid):
    r = run("star", name, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["star"]["id"] == sid
    assert any("故天符为金舆，地符为玉辇" in q["original"] for q in json.loads(r.stdout)["star"]["text"])


def test_jinyu_by_day():
    """甲禄在寅为法，寅乃五符: 金舆 (天符) of a 甲 day is 寅; 玉辇 (地符) two places on, 辰."""
    assert doc("star", "金舆", "--day", "甲")["positions"] == ["寅"]
    assert doc("star", "玉辇", "--day", "甲")["positions"] == ["辰"]


# --- names of fixed branches: 「古法以子为帝座 … 丑为黄泉杀，未为广寒宫也」 -----------------------------------

FIXED = {
    "帝座": "子",
    "端门": "午",
    "雷门": "卯",
    "佛境": "酉",
    "天门": "亥",
    "地户": "巳",
    "神门": "申",
    "鬼路": "寅",
    "天罗": "辰",
    "地网": "戌",
    "黄泉杀": "丑",
    "黄泉煞": "丑",
    "广寒宫": "未",
    "双女宫": "巳",
    "文库": "戌",
    "武库": "丑",
    "刃库": "丑",
    "金库": "丑",
}


@pytest.mark.parametrize("name", ["黄泉杀", "黄泉煞"])
def test_huangquan_answers(name):
    r = run("star", name)
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    assert "丑为黄泉杀" in out and "丑" in out
    r = run("star", name, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["fixed_name"]["position"] == "丑"


@pytest.mark.parametrize("name", list(FIXED))
def test_fixed_name_answers_with_its_branch_and_sentence(name):
    d = doc("star", name)["fixed_name"]
    assert d["position"] == FIXED[name]
    assert any(f"{FIXED[name]}为" in q["original"] or "故曰" in q["original"] for q in d["text"])
    code, out = invoke("star", name)
    assert code == 0 and FIXED[name] in out


@pytest.mark.parametrize("name", ["黃泉殺", "黃泉煞", "帝座", "廣寒宮", "雷門"])
def test_fixed_name_in_traditional_characters(name):
    d = doc("star", name, "--traditional")["fixed_name"]
    assert d["position"] in BRANCHES


def test_fixed_name_with_a_basis_is_the_same_and_bad_input_is_refused():
    assert doc("star", "黄泉杀", "--month", "3")["fixed_name"]["position"] == "丑"
    r = run("star", "黄泉杀", "--month", "13")
    assert r.returncode == 2 and r.stdout == b"" and "month" in r.stderr.decode()


def test_near_miss_suggests_the_fixed_name():
    r = run("star", "黄泉殃")
    assert r.returncode == 2 and "黄泉" in r.stderr.decode()


@pytest.mark.parametrize("name", [*FIXED, "金舆", "玉辇"])
def test_text_search_finds_the_name(name):
    found = {p["id"] for p in doc("text", name)["passages"]}
    want = (
        "6.52" if name in ("金舆", "玉辇") else {"双女宫": "6.36", "文库": "6.23", "武库": "6.23", "刃库": "6.40", "金库": "6.34"}.get(name, "6.17")
    )
    assert want in found


def test_completion_offers_fixed_names():
    from yimao.cli import _complete_star

    assert {"黄泉杀", "黄泉煞", "黄泉"} <= set(_complete_star("黄"))
    assert "金舆" in _complete_star("金")


# --- 天赦: season-wide, and 「先王以二至及春秋首日 … 以是日为天赦」 as the variant ---------------------------


@pytest.mark.parametrize(
    "month, primary, four",
    [
        ("寅", "戊寅", ["戊寅"]),
        ("卯", "戊寅", []),
        ("午", "甲午", ["甲午"]),
        ("申", "戊申", ["戊申"]),
        ("酉", "戊申", []),
        ("子", "甲子", ["甲子"]),
        ("丑", "甲子", []),
    ],
)
def test_tianshe_readings(month, primary, four):
    d = doc("star", "天赦", "--month", month)
    assert d["positions"] == [primary]
    months, day = d["variants"]
    assert months == {"reading": months["reading"], "positions": four} and "二至" in months["reading"]
    assert day == {"reading": day["reading"], "positions": None} and "节气本日" in day["reading"]  # no date, no day of a 节气


# 「故后世以是日为天赦」: the strict reading, the very day of 立春, 夏至, 立秋 or 冬至. 夏至 1997 fell on
# 21 June at 16:19:56 (UTC+8), a 甲午 day of 午月; 23 June 2008 is a 甲午 day of 午月 two days
# after 夏至 (21 June 2008); 立秋 2025 fell on 7 August at 13:51:35, a 戊申 day, 未月 before it.
@pytest.mark.parametrize(
    "date, on_the_day",
    [
        ("1997-06-21T18:00+08:00", ["甲午"]),
        ("1997-06-21T01:00+08:00", ["甲午"]),  # the whole local day, before the instant too (夏至 is mid-month)
        ("2008-06-23T10:00+08:00", []),
        ("2025-08-07T15:00+08:00", ["戊申"]),
        ("2025-08-07T10:00+08:00", []),  # 立秋's day, but still 未月: not 戊申's season
        ("1997-06-20T23:30+08:00", ["甲午"]),  # 子初换日: from 23:00 the day is the 21st's, 甲午
    ],
)
def test_tianshe_on_the_day_of_the_jieqi(date, on_the_day):
    d = doc("star", "天赦", "--date", date)
    (strict,) = [v for v in d["variants"] if "节气本日" in v["reading"]]
    assert strict["positions"] == on_the_day


def test_a_chart_on_a_tianshe_day_says_whether_it_is_the_day_of_the_jieqi():
    """天赦 in force (值日) on a 甲午 day of 午月; the strict reading agrees on 夏至 1997 and places it
    nowhere two days after 夏至 2008."""

    def tianshe(date: str) -> dict:
        (s,) = [s for s in doc("cast", "--hex", "乾", "--date", date)["stars"] if s["id"] == "tianshe"]
        return s

    on = tianshe("1997-06-21T18:00+08:00")
    assert on["day_match"] and on["variants"] == []  # every reading places it where yimao's does
    after = tianshe("2008-06-23T10:00+08:00")
    assert after["day_match"] and [(v["positions"], "节气本日" in v["reading"]) for v in after["variants"]] == [([], True)]
    (stated,) = [s for s in doc("cast", "--hex", "乾", "--month", "午", "--day", "甲午")["stars"] if s["id"] == "tianshe"]
    assert [v["positions"] for v in stated["variants"]] == [None]  # pillars alone: the day of a 节气 is not known


# --- 经星 五纬: 「乾之上九降参，又降镇星」 ----------------------------------------------------------------------


def test_jingxing_wuwei_data_for_qian():
    cat = catalogue()
    (jx,) = cat.by_id["jingxing"].hexagram_lines
    (ww,) = cat.by_id["wuwei"].hexagram_lines
    assert (jx.hexagram, jx.king_wen, jx.line, jx.name) == ("乾为天", 1, 6, "参宿")
    assert (ww.hexagram, ww.king_wen, ww.line, ww.name) == ("乾为天", 1, 6, "镇星")
    assert all(not s.hexagram_lines for s in cat.stars if s.id not in ("jingxing", "wuwei"))


def test_a_star_only_another_reading_puts_on_a_line_is_listed_with_that_reading():
    """血刃 in an even month: yimao's reading gives it no place (「正三五七九鼠月，以丑寅卯辰巳午为
    血刃」: the odd months), the variant reading 「血忌之星同血刃」 as one star of twelve months puts
    it at 未 in 卯月. On 离 (卯丑亥酉未巳) 未 is line 5: the chart lists 血刃 on no line, and its
    variant on line 5 — the disagreement shown. On 乾 (子寅辰午申戌, no 伏神) no reading puts it
    on a line, and it is not listed."""
    (xueren,) = [s for s in doc("cast", "--hex", "离", "--month", "卯", "--day", "甲子")["stars"] if s["id"] == "xueren"]
    assert (xueren["positions"], xueren["lines"], xueren["hits"], xueren["active"]) == ([], [], [], False)
    assert [(v["positions"], v["lines"]) for v in xueren["variants"]] == [(["未"], [5])]
    assert xueren["variants"][0]["reading"] == "血刃血忌同一星，十二月皆取"
    assert "xueren" not in {s["id"] for s in doc("cast", "--hex", "乾", "--month", "卯", "--day", "甲子")["stars"]}
    # in an odd month yimao's reading places it, and the variant agrees: no variant is listed
    (odd,) = [s for s in doc("cast", "--hex", "离", "--month", "寅", "--day", "甲子")["stars"] if s["id"] == "xueren"]
    assert (odd["positions"], odd["lines"], odd["variants"]) == (["丑"], [2], [])


def test_a_variant_says_the_lines_it_places_the_star_on():
    """Each variant placing a star otherwise names the lines of this chart it falls on: for the
    variants on branches, the lines whose 本爻, 变爻 or 伏神 carries one, read from the lines here."""
    chart = doc("cast", "--hex", "离之乾", "--month", "卯", "--day", "甲子")
    carried: dict[str, set[int]] = {}
    for line in chart["hexagram"]["lines"]:
        for part in (line, line["changed"], line["hidden"]):
            if part is not None:
                carried.setdefault(part["branch"], set()).add(line["position"])
    seen = 0
    for s in chart["stars"]:
        for v in s["variants"]:
            if v["positions"] and all(p in BRANCHES for p in v["positions"]):
                assert v["lines"] == sorted(set().union(*(carried.get(p, set()) for p in v["positions"]))), (s["label"], v)
                seen += 1
    assert seen >= 3


def test_the_screen_says_where_another_reading_puts_a_star_the_reading_taken_does_not():
    """On the screen, a star listed by a variant alone says where that reading puts it: 血刃 in 卯月
    on 离 with line 5 (未) moving, 「血忌之星同血刃」 putting it on that moving line."""
    code, out = invoke("cast", "--hex", "离", "--moving", "5", "--month", "卯", "--day", "甲子", "--explain")
    assert code == 0, out
    assert "血刃(异读5动)" in out.replace("\n", "").replace("│", "").replace(" ", "")
