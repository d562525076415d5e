"""The 合冲生克 around a 六害 (「然亦必兼合冲生克而考之」, 6.12), on hand-derived branches."""

from __future__ import annotations

from yimao.analysis.finding import Member
from yimao.analysis.relations import around_hai, between
from yimao.chart import Source
from yimao.ganzhi import BRANCHES, Branch, liuhai

B = Branch.parse


def _short(rels):
    return [f"{r.from_.branch.value}{r.kind}{r.to.branch.value}" for r in rels]


def test_the_book_example_pair_with_its_day_and_month():
    # 困之兑, 酉建庚申日, 用财: the 世/用 寅 (line 1, moving) is 害 by its own 变爻 巳.
    target = Member(B("寅"), Source.DONGYAO, 1, "用/世")
    by = Member(B("巳"), Source.BIANYAO, 1, "害")
    rels = around_hai(target, by, B("申"), B("酉"))
    # 木生火; 申冲寅, 金克木; 巳申合, 火克金; 酉金克寅木; 巳火克酉金
    assert _short(rels) == ["寅生巳", "寅冲申", "申克寅", "巳合申", "巳克申", "酉克寅", "巳克酉"]
    assert rels[1].to == Member(B("申"), Source.RI, None, "日")
    assert rels[0].from_.role == "用/世" and rels[0].to.role == "害"


def test_a_hai_from_the_day_is_related_to_the_target_once():
    # a 子 target 害 by the 未 day in a 午 month: 未克子 (the pair), 子冲午 and 水克火, 未合午 and 火生土
    target = Member(B("子"), Source.JINGYAO, 3, "世")
    by = Member(B("未"), Source.RI, None, "害")
    assert _short(around_hai(target, by, B("未"), B("午"))) == ["未克子", "子冲午", "子克午", "未合午", "午生未"]


def test_no_pillars_no_pillar_relations():
    target = Member(B("卯"), Source.JINGYAO, 2, "用")
    by = Member(B("辰"), Source.DONGYAO, 5, "害")
    assert _short(around_hai(target, by, None, None)) == ["卯克辰"]


def test_between_is_each_relation_once_in_its_direction_over_all_pairs():
    for x in BRANCHES:
        for y in BRANCHES:
            a, b = Member(x, Source.JINGYAO, 1, "a"), Member(y, Source.JINGYAO, 2, "b")
            kinds = [r.kind for r in between(a, b)]
            assert ("合" in kinds) == ((x.index + y.index) % 12 == 1)
            assert ("冲" in kinds) == (abs(x.index - y.index) == 6)
            same = x.element is y.element
            assert (("生" in kinds) + ("克" in kinds)) == (0 if same else 1)
            if liuhai(x, y):  # a 害 pair is never a 合 nor a 冲, always a 生 or a 克
                assert set(kinds) <= {"生", "克"} and len(kinds) == 1
