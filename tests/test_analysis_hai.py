"""六害 (docs/rules.md §4): 世应相害 over all 64 hexagrams, and the 害 on the 用神 / 世."""

from __future__ import annotations

from yimao.analysis.finding import HaiDetails, Member, Relation, ShiyingHaiDetails
from yimao.analysis.hai import RULE, kind_of, liuhai_findings, shi_ying
from yimao.chart import Source, build_chart, resolve_use
from yimao.ganzhi import BRANCHES, Branch, liuhai
from yimao.hexagram import HEXAGRAMS, Cast
from yimao.pillars import pillars_given


def test_pairs_and_kinds():
    # "故子合丑而未冲，所以子未为害尔" (6.11): 冲吾之合
    pairs = {frozenset((a.value, b.value)) for a in BRANCHES for b in BRANCHES if liuhai(a, b)}
    assert pairs == {frozenset(p) for p in ("子未", "丑午", "寅巳", "卯辰", "申亥", "酉戌")}
    kinds = {p: kind_of(Branch(p[0]), Branch(p[1])) for p in ("子未", "丑午", "寅巳", "卯辰", "申亥", "酉戌")}
    assert kinds == {"子未": "克害", "丑午": "生害", "寅巳": "生害", "卯辰": "克害", "申亥": "生害", "酉戌": "生害"}


# "（… 若姤恒小畜益卦，虽存六害之名，当察其用而权之。）" (6.12) — exhaustive over the 64
def test_only_four_hexagrams_have_shi_ying_hai():
    found = {}
    for h in HEXAGRAMS:
        f = shi_ying(build_chart(Cast(h)))
        if f is not None:
            assert isinstance(f.details, ShiyingHaiDetails) and f.details.target == "世应"
            found[h.short_name] = (f.kind, f.details.direction)
    assert found == {
        "姤": ("生害", "应生世"),
        "恒": ("生害", "应生世"),  # 世 酉, 应 戌: 戌生酉
        "小畜": ("克害", "应克世"),
        "益": ("克害", "应克世"),
    }


def test_shi_ying_is_reported_with_or_without_use():
    chart = build_chart(Cast.parse("小畜"), pillars_given(month="寅", day="甲寅"))
    for use in (None, resolve_use(chart, "官")):
        f = liuhai_findings(chart, use)[0]
        assert f.rule == RULE and f.holds and f.reasons == ("世应相害", "应克世")
        assert isinstance(f.details, ShiyingHaiDetails) and f.details.weight == "重"
        assert "6.12" in {q.passage for q in f.text}
    # 小畜 世 子 (line 1) and 应 未 (line 4), in 寅月 on a 寅 day: 未克子 first, then each with the 日 and 月
    shi, ying = Member(Branch.ZI, Source.JINGYAO, 1, "世"), Member(Branch.WEI, Source.JINGYAO, 4, "应")
    assert f.details.relations[0] == Relation("克", ying, shi)


def test_ke_hai_on_the_shi():
    # 小畜 世 子 on a 未 day: "彼克我者，彼刚而我柔，力被制尔" (6.12)
    chart = build_chart(Cast.parse("小畜"), pillars_given(month="子", day="辛未"))
    f = [f for f in liuhai_findings(chart) if isinstance(f.details, HaiDetails) and f.details.target.role == "世"][0]
    assert f.kind == "克害" and f.details.direction == "彼克我" and f.details.weight == "重"
    assert any("彼克我者" in q.original for q in f.text)
    # 比 世 卯 on a 辰 day: 我克彼
    chart = build_chart(Cast.parse("比"), pillars_given(month="子", day="戊辰"))
    (g,) = liuhai_findings(chart)
    assert g.kind == "克害" and g.details.direction == "我克彼"


def test_sheng_hai_on_the_use():
    # 困之兑 用财 寅 化 巳: "心恶而面好，外悦而内仇，此相生之害也" (6.12)
    chart = build_chart(Cast.parse("困之兑"), pillars_given(month="酉", day="庚申"))
    (f,) = liuhai_findings(chart, resolve_use(chart, "财"))
    assert f.kind == "生害" and f.details.direction == "我生彼" and f.details.target.role == "用/世"
    assert f.details.relations[0] == Relation("生", f.members[0], f.members[1])  # 寅木生巳火
    assert [(m.branch.value, m.source.value, m.role) for m in f.members] == [("寅", "动爻", "用/世"), ("巳", "变爻", "害")]


def test_hidden_use_hai():
    # 屯 用财: 午 伏 under line 3; a 丑 day 害 it
    chart = build_chart(Cast.parse("屯"), pillars_given(month="寅", day="乙丑"))
    f = [f for f in liuhai_findings(chart, resolve_use(chart, "财")) if isinstance(f.details, HaiDetails) and f.details.target.role == "用"][0]
    assert f.details.target.hidden and "用神不上卦，取伏神" in f.reasons and f.kind == "生害"


def test_no_pillars():
    chart = build_chart(Cast.parse("姤"))
    (f,) = liuhai_findings(chart)
    assert f.reasons == ("世应相害", "应生世")


# "然亦不及六冲之甚也" (6.12): a 冲 on the same target outweighs the 害, which is then never 重
def _use_hai(spec, use, **pillars):
    chart = build_chart(Cast.parse(spec), pillars_given(**pillars))
    found = [f for f in liuhai_findings(chart, resolve_use(chart, use)) if isinstance(f.details, HaiDetails)]
    return [f for f in found if f.details.target.role.startswith("用")][0]


def test_month_chong_outweighs_the_hai():
    # 泰, 用 the 子 line (1), 乙未 day (未克子: 克害), 午 month (月破)
    f = _use_hai("泰", "1", day="乙未", month="午")
    assert f.kind == "克害" and f.details.weight == "轻"
    assert f.details.outweighed_by == (Member(Branch.WU, Source.YUE, None, "冲"),)
    assert "月破，害不及冲" in f.reasons
    assert any(q.original.startswith("然亦不及六冲之甚也") for q in f.text)


def test_no_chong_keeps_the_ke_hai_heavy():
    f = _use_hai("泰", "1", day="乙未", month="寅")
    assert f.details.weight == "重" and f.details.outweighed_by == ()
    assert not any("害不及冲" in r for r in f.reasons)
    assert not any(q.original.startswith("然亦不及六冲之甚也") for q in f.text)


def test_day_chong_outweighs_a_month_hai():
    # 泰 子 (1): the 未 month 害 it, the 甲午 day 冲 it
    f = _use_hai("泰", "1", day="甲午", month="未")
    assert "月未害用" in f.reasons and "日冲，害不及冲" in f.reasons
    assert f.details.outweighed_by == (Member(Branch.WU, Source.RI, None, "冲"),) and f.details.weight == "轻"


def test_moving_line_chong_outweighs_the_hai():
    # 乾之小畜: line 4 午 moves and 冲 the 子 of line 1, which the 未 day 害
    f = _use_hai("乾之小畜", "1", day="乙未", month="寅")
    assert "动爻午冲，害不及冲" in f.reasons
    assert f.details.outweighed_by == (Member(Branch.WU, Source.DONGYAO, 4, "冲"),) and f.details.weight == "轻"


def _shi_ying_finding(*args: str) -> dict:
    import json

    from yimao.pipeline import CastRequest, document, read

    options = dict(zip(args[::2], args[1::2]))
    doc = document(read(CastRequest(**options)))
    (f,) = [f for f in doc["findings"] if f["rule"] == "六害" and f["details"].get("target") == "世应"]
    return json.loads(json.dumps(f))


def test_a_chong_on_shi_or_ying_outweighs_their_hai():
    """然亦不及六冲之甚也 (6.12): 小畜's 世 甲子 and 应 辛未 are a 害 pair, 未土 克 子水 (应克世, 重). In a
    午 month the 世 is 月破: the 冲 outweighs the 害, which is no longer 重. 姤's 世 辛丑 and 应 壬午:
    a 子 day 冲 the 应; its line 6 changing to 丁未 冲 the 世."""
    plain = _shi_ying_finding("hex", "小畜", "month", "寅", "day", "甲寅")
    assert plain["details"]["weight"] == "重" and plain["details"]["outweighed_by"] == []
    broken = _shi_ying_finding("hex", "小畜", "month", "午", "day", "甲寅")
    assert broken["details"]["weight"] == "轻" and "月破世，害不及冲" in broken["reasons"]
    assert [(m["branch"], m["source"], m["role"]) for m in broken["details"]["outweighed_by"]] == [("午", "月", "冲世")]
    assert any("不及六冲之甚" in t["original"] for t in broken["text"])
    day = _shi_ying_finding("hex", "姤", "month", "寅", "day", "甲子")
    assert "日冲应，害不及冲" in day["reasons"]
    changed = _shi_ying_finding("hex", "姤", "moving", "6", "month", "寅", "day", "甲寅")
    assert "变爻未冲世，害不及冲" in changed["reasons"]
    assert [(m["branch"], m["source"], m["position"]) for m in changed["details"]["outweighed_by"]] == [("未", "变爻", 6)]
