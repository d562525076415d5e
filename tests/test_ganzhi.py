"""Exhaustive tests of the small tables in ganzhi.py, each against the verse it encodes."""

from __future__ import annotations

import itertools

import pytest

from yimao.errors import NotationError
from yimao.ganzhi import (
    BRANCHES,
    CYCLE,
    JINSHEN,
    SANHE,
    STEMS,
    TUISHEN,
    Branch,
    EarthSchool,
    Element,
    GanZhi,
    Season,
    Stage,
    Stem,
    Vigour,
    changsheng,
    chong,
    hour_stem,
    is_true_changsheng,
    liuhai,
    liuhe,
    month_stem,
    sanhe_of,
    stage,
    tomb,
    vigour,
    xing,
)


def test_cycle_of_sixty():
    assert len(CYCLE) == 60 and len(set(CYCLE)) == 60
    assert str(CYCLE[0]) == "甲子" and str(CYCLE[59]) == "癸亥" and str(CYCLE[14]) == "戊寅"
    for i, gz in enumerate(CYCLE):
        assert gz.index == i
        assert GanZhi.parse(str(gz)) is gz
        assert GanZhi.parse(str(gz) + "日") is gz
        assert GanZhi.parse(gz.stem.pinyin + "-" + gz.branch.pinyin) is gz
        assert eval(repr(gz), {"GanZhi": GanZhi}) == gz
        assert gz.shift(1) is CYCLE[(i + 1) % 60]


def test_parity_is_enforced():
    for s, b in itertools.product(STEMS, BRANCHES):
        if s.index % 2 != b.index % 2:
            with pytest.raises(NotationError):
                GanZhi.parse(s.value + b.value)


@pytest.mark.parametrize("bad", ["", "甲", "甲丑", "子甲", "甲子子", "abc"])
def test_bad_ganzhi(bad):
    with pytest.raises(NotationError):
        GanZhi.parse(bad)


def test_xunkong_of_each_xun():
    # 甲子旬空戌亥, 甲戌旬空申酉, 甲申旬空午未, 甲午旬空辰巳, 甲辰旬空寅卯, 甲寅旬空子丑
    expected = {"甲子": "戌亥", "甲戌": "申酉", "甲申": "午未", "甲午": "辰巳", "甲辰": "寅卯", "甲寅": "子丑"}
    for gz in CYCLE:
        head = str(gz.xun)
        assert "".join(b.value for b in gz.xunkong) == expected[head]


def test_elements_generate_and_overcome():
    assert [e.generates.value for e in Element] == list("火土金水木")
    assert [e.overcomes.value for e in Element] == list("土金水木火")  # 木克土 火克金 土克水 金克木 水克火
    for e in Element:
        assert e.generates.generated_by is e and e.overcomes.overcome_by is e


def test_liuhe_liuchong_liuhai_pairs():
    def pairs(f):
        return {frozenset((a.value, b.value)) for a in BRANCHES for b in BRANCHES if a is not b and f(a, b)}

    assert pairs(liuhe) == {frozenset(p) for p in ("子丑", "寅亥", "卯戌", "辰酉", "巳申", "午未")}
    assert pairs(chong) == {frozenset(p) for p in ("子午", "丑未", "寅申", "卯酉", "辰戌", "巳亥")}
    assert pairs(liuhai) == {frozenset(p) for p in ("子未", "丑午", "寅巳", "卯辰", "申亥", "酉戌")}


def test_liuhai_is_the_chong_of_the_he():
    """冲吾之合，则犹夺吾之好 … 子合丑而未冲，所以子未为害."""
    for a in BRANCHES:
        partner = next(b for b in BRANCHES if liuhe(a, b))
        assert liuhai(a, partner.opposite)


def test_xing_table_from_the_riding_rule():
    """巳酉丑而乘申酉戌 … 亥卯未而乘亥子丑，申子辰而乘寅卯辰，寅午戌而乘巳午未矣。乘则刑之."""
    rides = {"巳酉丑": "申酉戌", "亥卯未": "亥子丑", "申子辰": "寅卯辰", "寅午戌": "巳午未"}
    for upper, lower in rides.items():
        for u, l in zip(upper, lower):
            assert xing(Branch(u), Branch(l))
    assert sum(xing(a, b) for a in BRANCHES for b in BRANCHES) == 12
    # 自刑 辰午酉亥
    assert {b.value for b in BRANCHES if xing(b, b)} == set("辰午酉亥")
    # 孟党孟刑，仲党仲刑，季党季刑
    groups = ["寅巳申亥", "卯午酉子", "辰未戌丑"]
    for a in BRANCHES:
        for b in BRANCHES:
            if xing(a, b):
                assert any(a.value in g and b.value in g for g in groups)


def test_sanhe():
    assert {e.value: "".join(b.value for b in m) for e, m in SANHE.items()} == {"水": "申子辰", "木": "亥卯未", "火": "寅午戌", "金": "巳酉丑"}
    for e, (start, middle, end) in SANHE.items():
        assert changsheng(e) is start and stage(e, middle) is Stage.DIWANG and tomb(e) is end
        assert all(sanhe_of(b) is e for b in (start, middle, end))


def test_changsheng_and_stages():
    assert {e.value: changsheng(e).value for e in Element} == {"木": "亥", "火": "寅", "土": "申", "金": "巳", "水": "申"}
    assert changsheng(Element.TU, EarthSchool.HUO) is Branch.YIN
    assert [stage(Element.MU, b).value for b in (Branch.HAI, Branch.ZI, Branch.YIN, Branch.MAO, Branch.WEI, Branch.SHEN)] == [
        "长生",
        "沐浴",
        "临官",
        "帝旺",
        "墓",
        "绝",
    ]
    for e in Element:
        assert sorted(stage(e, b).index for b in BRANCHES) == list(range(12))


def test_true_changsheng():
    """五行大生谓之真生，巽鬼革鬼非大生."""
    assert {e.value for e in Element if is_true_changsheng(e)} == {"木", "火", "水"}


def test_jin_tui_shen():
    assert {a.value + b.value for a, b in JINSHEN.items()} == {"亥子", "寅卯", "巳午", "申酉", "丑辰", "辰未", "未戌", "戌丑"}
    for a, b in JINSHEN.items():
        assert TUISHEN[b] is a and a.element is b.element


def test_vigour():
    # 寅月: 木旺 火相 水休 金囚 土死
    assert {e.value: vigour(e, Branch.YIN).value for e in Element} == {"木": "旺", "火": "相", "水": "休", "金": "囚", "土": "死"}
    assert vigour(Element.TU, Branch.XU) is Vigour.WANG and vigour(Element.JIN, Branch.XU) is Vigour.XIANG


def test_month_stems_five_tigers():
    """甲己之年丙作首，乙庚之岁戊为头，丙辛必定寻庚起，丁壬壬位顺行流，戊癸甲寅好追求."""
    assert [month_stem(s, Branch.YIN).value for s in STEMS[:5]] == list("丙戊庚壬甲")
    assert all(month_stem(s, Branch.YIN) is month_stem(STEMS[s.index + 5], Branch.YIN) for s in STEMS[:5])
    assert month_stem(Stem.JIA, Branch.CHOU) is Stem.DING  # the 12th month of a 甲 year is 丁丑


def test_hour_stems_five_rats():
    """甲己还加甲，乙庚丙作初，丙辛从戊起，丁壬庚子居，戊癸何方发，壬子是真途."""
    assert [hour_stem(s, Branch.ZI).value for s in STEMS[:5]] == list("甲丙戊庚壬")
    assert hour_stem(Stem.JIA, Branch.WU) is Stem.GENG


def test_seasons_and_month_numbers():
    assert "".join(Season.of(b).value for b in BRANCHES) == "冬冬春春春夏夏夏秋秋秋冬"
    for n in range(1, 13):
        assert Branch.from_month_number(n).month_number == n
    assert Branch.from_month_number(1) is Branch.YIN and Branch.from_month_number(3) is Branch.CHEN
    with pytest.raises(NotationError):
        Branch.from_month_number(13)


def test_stem_and_branch_parse():
    for s in STEMS:
        assert Stem.parse(s.value) is s and Stem.parse(s.pinyin) is s
    for b in BRANCHES:
        assert Branch.parse(b.value) is b and Branch.parse(b.pinyin.upper()) is b
    with pytest.raises(NotationError):
        Branch.parse("甲")


# --- pillars as the user writes them: numbers of any length, empty values, long text ---------

HUGE = "1" * 4301  # one digit over Python's int-conversion limit


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [
        ("month", HUGE, "month must be 1-12"),
        ("month", "９" * 5000, "month must be 1-12"),
        ("month", "003", "month must be 1-12"),  # a month is one or two digits
        ("month", "13", "month must be 1-12"),
        ("month", "0", "month must be 1-12"),
        ("hour", HUGE, "not an hour branch or 干支"),
        ("hour", "25", "not an hour branch or 干支"),
        ("hour", "09", "falls in the 巳 hour"),  # a clock hour, said as its 时辰
        ("year", HUGE, "not a year branch or 干支"),
        ("year", "2026", "丙午年 from its 立春"),  # a calendar year, said as its 干支
        ("year", "20260", "not a year branch or 干支"),
        ("day", HUGE, "not a day branch or 干支"),
    ],
)
def test_a_number_of_any_length_in_a_pillar_is_bad_input(kind, text, message):
    from yimao.pillars import parse_pillar

    with pytest.raises(NotationError, match=message) as e:
        parse_pillar(text, kind)
    assert len(str(e.value)) < 300


def test_month_numbers_in_every_form_still_read():
    from yimao.pillars import parse_pillar

    assert parse_pillar("3", "month") is parse_pillar("03", "month") is parse_pillar("３", "month") is parse_pillar(" 3月 ", "month") is Branch.CHEN
    assert parse_pillar("12", "month") is parse_pillar("１２", "month") is Branch.CHOU


@pytest.mark.parametrize("kind", ["year", "month", "day", "hour"])
@pytest.mark.parametrize("text", ["", " ", "\t", "suffix"])
def test_an_empty_pillar_is_bad_input_not_a_pillar_left_out(kind, text):
    """An empty value was given, and is wrong; only a value not given at all (None) leaves the
    pillar out. ('--month ""' gave a chart with every pillar null.)"""
    from yimao.pillars import pillars_given

    if text == "suffix":  # the kind's suffix alone: 月, 年 …
        text = {"year": " 年", "month": "月", "day": "日 ", "hour": "时"}[kind]
    with pytest.raises(NotationError, match=f"empty {kind}: give"):
        pillars_given(**{kind: text})
    assert pillars_given(**{kind: None}) == pillars_given()


@pytest.mark.parametrize("text", ["甲" * 65, "x" * 200_000, "戊寅" * 1000])
def test_a_ganzhi_too_long_gets_no_suggestions(text):
    with pytest.raises(NotationError) as e:
        GanZhi.parse(text)
    assert e.value.candidates == () and len(str(e.value)) < 200
    assert GanZhi.parse("戊寅日") is CYCLE[14]
