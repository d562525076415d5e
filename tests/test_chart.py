"""The chart layer: 六神, 变爻 六亲 against the original palace, line relations (docs/rules.md §0)."""

from __future__ import annotations

import pytest

from yimao.chart import Source, build_chart, resolve_use, spirits_for
from yimao.errors import UnknownNameError
from yimao.ganzhi import (
    BRANCHES,
    CYCLE,
    JINSHEN,
    STEMS,
    TUISHEN,
    EarthSchool,
    GanZhi,
    Stage,
    Stem,
    Vigour,
    chong,
    liuhe,
    stage,
    tomb,
    vigour,
)
from yimao.hexagram import HEXAGRAMS, Cast, Relative, all_casts
from yimao.pillars import FourPillars, branch_of, pillars_given


def test_six_spirits_by_day_stem():
    first = {s.value: spirits_for(s)[0].value for s in STEMS}
    assert first == {
        "甲": "青龙",
        "乙": "青龙",
        "丙": "朱雀",
        "丁": "朱雀",
        "戊": "勾陈",
        "己": "螣蛇",
        "庚": "白虎",
        "辛": "白虎",
        "壬": "玄武",
        "癸": "玄武",
    }
    assert [s.value for s in spirits_for(Stem.WU)] == ["勾陈", "螣蛇", "白虎", "玄武", "青龙", "朱雀"]


def test_changed_lines_count_against_the_original_palace():
    c = build_chart(Cast.parse("离之乾"))
    line2 = c.lines[1]
    # 离 (火宫) line 2 己丑 moves to 乾's 甲寅: 寅木 生火 = 父母 in 离宫 (in 乾宫 it would be 妻财)
    assert (line2.changed.branch.value, line2.changed.relative.value) == ("寅", "父母")
    assert c.lines[4].changed.relative.value == "妻财"  # 壬申金 against 火


def test_no_pillars_no_relations():
    c = build_chart(Cast.parse("离之乾"))
    assert all(l.spirit is None and l.month is None and l.day is None for l in c.lines)
    assert c.lines[1].change.kong is None  # 化空 needs the day stem


def test_line_relations_for_the_book_case():
    # 卯建戊寅日 大畜之离
    c = build_chart(Cast.parse("大畜之离"), pillars_given(month="卯", day="戊寅"))
    l2, l4 = c.lines[1], c.lines[3]
    assert l2.month.vigour is Vigour.WANG and l2.day.stage is Stage.LINGUAN
    assert l4.month.he and l4.change.kong and l4.change.po  # 戌 合 卯; 化 酉: 旬空 (申酉) and 月破
    assert l2.hidden.line.branch.value == "午" and l2.hidden.lifted and l2.hidden.fei == "飞生伏"
    assert not c.lines[2].hidden.lifted
    assert l2.spirit.value == "螣蛇"  # 戊日: 勾陈 on line 1


def test_andong_and_ripo():
    # 酉日 冲 卯; in 卯月 the 卯 line is 旺 → 暗动; in 酉月 it is 死 → 日破
    strong = build_chart(Cast.parse("离"), pillars_given(month="卯", day="辛酉"))
    weak = build_chart(Cast.parse("离"), pillars_given(month="申", day="辛酉"))
    assert strong.lines[0].day.andong and not strong.lines[0].day.ripo
    assert weak.lines[0].day.ripo and not weak.lines[0].day.andong
    moving = build_chart(Cast.parse("离", [1]), pillars_given(month="卯", day="辛酉"))
    assert moving.lines[0].day.chong and not moving.lines[0].day.andong and not moving.lines[0].day.ripo


def test_jin_tui_hua():
    # 乾 line 1 甲子 moving → 巽 (乾之姤) line 1 辛丑: 子 化 丑 is 化合, not 进
    c = build_chart(Cast.parse("乾之姤"))
    ch = c.lines[0].change
    assert ch.he and not ch.jin and not ch.tui and ch.huitou == "回头克"


def test_hexagram_features():
    assert "六冲卦" in build_chart(Cast.parse("乾")).features
    assert "六合卦" in build_chart(Cast.parse("泰")).features
    assert "游魂卦" in build_chart(Cast.parse("晋")).features
    assert "内卦伏吟" in build_chart(Cast.parse("乾之无妄")).features  # 乾 → 震 inside: 子寅辰 again
    assert "内卦反吟" in build_chart(Cast.parse("乾之姤")).features  # 乾 → 巽 inside (姤 = 天风)
    assert "外卦反吟" in build_chart(Cast.parse("乾之小畜")).features  # 小畜 = 风天


def test_six_chong_and_six_he_hexagrams_of_the_64():
    chong = {h.short_name for h in HEXAGRAMS if "六冲卦" in build_chart(Cast(h)).features}
    he = {h.short_name for h in HEXAGRAMS if "六合卦" in build_chart(Cast(h)).features}
    assert chong == {"乾", "坤", "震", "巽", "坎", "离", "艮", "兑", "无妄", "大壮"}
    assert he == {"否", "泰", "豫", "复", "困", "节", "贲", "旅"}


def test_actors():
    c = build_chart(Cast.parse("大畜之离"), pillars_given(month="卯", day="戊寅"))
    kinds = [(a.branch.value, a.source, a.position) for a in c.actors()]
    assert ("寅", Source.RI, None) in kinds and ("卯", Source.YUE, None) in kinds
    assert ("戌", Source.DONGYAO, 4) in kinds and ("酉", Source.BIANYAO, 4) in kinds and ("午", Source.FUSHEN, 2) in kinds


def test_resolve_use():
    c = build_chart(Cast.parse("大畜之离"))
    u = resolve_use(c, "父")
    assert u.is_hidden and u.hidden_positions == (2,) and u.relative.value == "父母"
    assert resolve_use(c, "世").positions == (2,) and resolve_use(c, "应").positions == (5,)
    assert resolve_use(c, "官鬼").positions == (2, 6)
    assert resolve_use(c, "4").relative.value == "兄弟"
    with pytest.raises(UnknownNameError):
        resolve_use(c, "老板")


def test_resolve_use_cache_gives_the_computed_use():
    from yimao.chart import USE_CHOICES, use_in

    specs = (*USE_CHOICES, " 财 ", "財", "應", "世爻", "應爻", "鬼", "妻")
    for h in HEXAGRAMS:
        c = build_chart(Cast(h))
        for spec in specs:
            assert resolve_use(c, spec) == use_in.__wrapped__(h, spec)
        with pytest.raises(UnknownNameError):
            resolve_use(c, "老板")


def test_vigour_strong_and_relative_of():
    from yimao.ganzhi import Element
    from yimao.hexagram import Relative

    assert {v.value for v in Vigour if v.strong} == {"旺", "相"}
    table = {"同": "兄弟", "生": "子孙", "克": "妻财", "被生": "父母", "被克": "官鬼"}  # the line's element against the palace's
    from yimao.ganzhi import element_relation

    for e in Element:
        for palace in Element:
            assert Relative.of(e, palace).value == table[element_relation(palace, e)]


def test_moving_lines_in_another_collection():
    # a cast built with its moving lines as a tuple, a list or a set reads as with a frozenset
    h = HEXAGRAMS[29]
    p = FourPillars(None, CYCLE[3], CYCLE[40], None)
    expected = build_chart(Cast(h, frozenset({2, 5})), p).lines
    for moving in ((2, 5), [2, 5], {2, 5}):
        assert build_chart(Cast(h, moving), p).lines == expected


@pytest.mark.parametrize("day", [CYCLE[0], BRANCHES[4], None])
def test_spirits_need_the_day_stem(day):
    c = build_chart(Cast.parse("离"), FourPillars(day=day))
    expected = spirits_for(day.stem) if isinstance(day, GanZhi) else (None,) * 6
    assert tuple(cl.spirit for cl in c.lines) == expected


def _pillar_sets(i: int):
    """A month and a day for cast i: a 干支 or a bare branch or none, in rotation."""
    pillars = (None, *BRANCHES, *CYCLE)
    return pillars[(i * 7) % len(pillars)], pillars[(i * 13 + 5) % len(pillars)]


def test_every_relation_of_every_cast_follows_its_definition():
    """docs/rules.md §0 line by line, over all 4096 casts and every kind of month and day, in both earth
    schools: each relation against the primitives it is defined by."""
    for i, cast in enumerate(all_casts()):
        month, day = _pillar_sets(i)
        school = EarthSchool.HUO if i % 3 == 0 else EarthSchool.SHUI
        c = build_chart(cast, FourPillars(None, month, day, None), school)
        mb, db = branch_of(month), branch_of(day)
        xk = day.xunkong if isinstance(day, GanZhi) else None
        h, changed = cast.hexagram, cast.changed
        hidden = {hl.position: hl for hl in h.hidden}
        for cl, line in zip(c.lines, h.lines):
            p, b = line.position, line.branch
            moving = p in cast.moving
            assert (cl.line, cl.moving, cl.shi, cl.ying) == (line, moving, p == h.shi, p == h.ying)
            assert cl.value == ((9 if line.yang else 6) if moving else (7 if line.yang else 8))
            for br, rel_m, rel_d, mv in ((b, cl.month, cl.day, moving),) + (
                ((hidden[p].branch, cl.hidden.month, cl.hidden.day, False),) if p in hidden else ()
            ):
                if mb is None:
                    assert rel_m is None
                else:
                    assert (rel_m.vigour, rel_m.po, rel_m.he) == (vigour(br.element, mb), chong(br, mb), liuhe(br, mb))
                if db is None:
                    assert rel_d is None
                    continue
                assert (rel_d.stage, rel_d.he, rel_d.chong) == (stage(br.element, db, school), liuhe(br, db), chong(br, db))
                assert rel_d.kong == (br in xk if xk is not None else None)
                strong = rel_m is not None and rel_m.vigour.strong
                assert rel_d.andong == (chong(br, db) and not mv and strong)
                assert rel_d.ripo == (chong(br, db) and not mv and not strong)
            if p in hidden:
                assert cl.hidden.line is hidden[p] and cl.hidden.lifted is moving
            if not moving:
                assert cl.changed is None and cl.change is None
                continue
            cb = changed.lines[p - 1].branch
            assert cl.changed.branch is cb and cl.changed.relative is Relative.of(cb.element, h.palace.element)
            ch = cl.change
            assert (ch.jin, ch.tui) == (JINSHEN.get(b) is cb, TUISHEN.get(b) is cb)
            assert (ch.mu, ch.jue) == (cb is tomb(b.element, school), stage(b.element, cb, school) is Stage.JUE)
            assert (ch.he, ch.chong) == (liuhe(b, cb), chong(b, cb))
            assert ch.kong == (cb in xk if xk is not None else None)
            assert ch.po == (chong(cb, mb) if mb is not None else None)
