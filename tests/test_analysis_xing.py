"""三刑, 真刑, 三刑全, 刑冲并见 and 墓开 (docs/rules.md §3)."""

from __future__ import annotations

from yimao.analysis.context import rule_context, targets
from yimao.analysis.finding import MukaiDetails, SanxingDetails, TargetRef, WoxingDetails, XingDetails
from yimao.analysis.mukai import RULE as RULE_MU
from yimao.analysis.mukai import mukai
from yimao.analysis.xing import RULE, sanxing
from yimao.chart import Source, build_chart, resolve_use
from yimao.ganzhi import XING_TARGET, Branch
from yimao.hexagram import Cast
from yimao.pillars import pillars_given


def _chart(spec: str, **pillars):
    return build_chart(Cast.parse(spec), pillars_given(**pillars))


def _xing(spec: str, use: str | None = None, **pillars):
    chart = _chart(spec, **pillars)
    return sanxing(chart, resolve_use(chart, use) if use else None)


def _members(f):
    return {(m.branch.value, m.source.value, m.position, m.role) for m in f.members}


def test_the_table_is_the_books():
    # "巳酉丑而乘申酉戌 … 亥卯未而乘亥子丑，申子辰而乘寅卯辰，寅午戌而乘巳午未矣。乘则刑之" (6.08)
    rides = {"巳酉丑": "申酉戌", "亥卯未": "亥子丑", "申子辰": "寅卯辰", "寅午戌": "巳午未"}
    for upper, lower in rides.items():
        for u, l in zip(upper, lower):
            assert XING_TARGET[Branch(u)] is Branch(l)


# "（… 酉建庚申日，用财得困之兑是谓真刑。）" (6.10)
def test_zhen_xing_kun_zhi_dui():
    found = _xing("困之兑", "财", month="酉", day="庚申")
    zhen = [f for f in found if f.kind == "真刑"]
    assert len(zhen) == 1
    f = zhen[0]
    assert f.rule == RULE and f.holds and f.lines == (1,)
    assert ("寅", "动爻", 1, "用/世") in _members(f)
    assert ("申", "日", None, "刑冲") in _members(f)  # the day both 刑 and 冲 the 用 寅
    assert isinstance(f.details, XingDetails) and f.details.weight == "重"
    assert f.details.target == TargetRef("用/世", False, 1, Branch.YIN)
    assert "6.10" in {q.passage for q in f.text}
    # and with 寅 化 巳 and the 申 day, 寅巳申 are all there
    (full,) = [g for g in found if g.kind == "三刑全"]
    assert full.holds and full.details == SanxingDetails(TargetRef("用/世", False, 1, Branch.YIN), "寅巳申", None)


def test_xing_chong_from_different_sources():
    # 乾 世 戌: the 丑 month 刑 it, the 辰 day 冲 it — 刑冲并见, not 真刑
    (f,) = _xing("乾", month="丑", day="戊辰")
    assert f.kind == "刑冲并见" and f.holds
    assert ("丑", "月", None, "刑") in _members(f) and ("辰", "日", None, "冲") in _members(f)


def test_self_xing_and_wuli():
    # "辰午酉亥之自刑" and "卯子子卯之无礼刑" (6.09): one pair is already a 刑
    (f,) = _xing("坤", month="子", day="癸酉")  # 世 酉, 酉 day
    assert f.kind == "刑" and isinstance(f.details, XingDetails) and f.details.name == "自刑" and f.details.weight == "轻"
    (g,) = _xing("比", month="子", day="甲子")  # 世 卯, 子 month and day
    assert g.kind == "刑" and g.details.name == "无礼之刑" and len(g.members) == 3


def test_the_use_xing_its_source_does_not_count():
    # 乾 世 戌 on a 未 day: 戌 刑 未, but 未 does not 刑 戌 — a near miss
    (f,) = _xing("乾", month="子", day="辛未")
    assert not f.holds and f.reasons[0] == "我刑彼"
    assert ("未", "日", None, "受刑") in _members(f)
    assert f.details == WoxingDetails(TargetRef("世", False, 6, Branch.XU), "丑戌未")


def test_hidden_use():
    # 屯 (坎宫) has no 妻财: its 午 伏 under line 3; the 午 day 刑 it, the 子 month 冲 it
    found = _xing("屯", "财", month="子", day="庚午")
    f = next(f for f in found if f.details.target.role == "用")
    assert f.kind == "刑冲并见" and f.details.target.hidden is True
    assert "用神不上卦，取伏神" in f.reasons
    assert ("午", "伏神", 3, "用") in _members(f)


def test_targets_use_and_shi():
    chart = _chart("困之兑", month="酉", day="庚申")
    (t,) = targets(chart, resolve_use(chart, "财"))  # the 财 寅 is the 世 itself
    assert t.role == "用/世"
    ts = targets(chart, resolve_use(chart, "官"))
    assert [t.role for t in ts] == ["用", "世"]
    assert [t.role for t in targets(chart, None)] == ["世"]


def test_static_lines_do_not_act():
    # 比 世 卯 (line 3) and a static 子 on line 6: no 刑 unless the 子 moves
    assert _xing("比", month="寅", day="甲寅") == ()
    (f,) = _xing("比之观", month="寅", day="甲寅")  # line 6 子 moves
    assert f.kind == "刑" and ("子", "动爻", 6, "刑") in _members(f)
    ctx = rule_context(_chart("比", month="寅", day="甲寅"), None)
    assert all(a[1] in (Source.RI, Source.YUE, Source.DONGYAO, Source.BIANYAO) for t in ctx.targets for a in t.acts)


def test_shi_xing_grave_readings():
    # "官克世而问讼，五克世而问疏，若世刑而大凶也" (6.10): 离 世 巳 (兄弟) with a 鬼 亥; 寅 day 刑 巳
    (f,) = _xing("离", month="子", day="甲寅")
    assert f.holds and isinstance(f.details, XingDetails) and f.details.target.role == "世"
    assert [g.topic for g in f.details.grave] == ["讼"]
    assert {r.topic for r in f.details.readings} >= {"身命", "婚姻", "功名", "疾病"}  # 宦 is 功名, 病 疾病
    assert f.details.readings[-1].topic == "谁遇"  # who meets a 刑 (the note of 6.10)


def test_no_pillars_never_crash():
    for spec in ("困之兑", "乾", "屯"):
        chart = build_chart(Cast.parse(spec))
        for f in sanxing(chart) + mukai(chart):
            assert "未给日辰，日辰不参" in f.reasons


# "三刑之法，墓亦赖之，刑则墓开，刑而兼冲，其力更大。（夫墓得刑冲，犹锁得钥，故曰墓开，然不及冲，
#  故刑而不冲者轻，刑而兼冲者重 …）" (6.10)
def test_mu_heavy():
    # 讼之蒙: 世 午 化 戌 (化墓); the 丑 day 刑 the 戌, the 辰 month 冲 it
    (f,) = mukai(_chart("讼之蒙", month="辰", day="乙丑"))
    assert f.rule == RULE_MU and f.holds and f.kind == "墓开" and isinstance(f.details, MukaiDetails) and f.details.weight == "重"
    assert f.details.holder == "化墓" and f.details.tomb is Branch.XU
    assert ("丑", "日", None, "刑") in _members(f) and ("辰", "月", None, "冲") in _members(f)


def test_mu_light():
    (f,) = mukai(_chart("讼之蒙", month="子", day="乙丑"))
    assert f.kind == "墓开" and f.details.weight == "轻"


def test_mu_chong():
    # 乾 世 戌 (土, 墓 辰) in 辰月 on a 戌 day: the month holds the 墓, the day 冲 it
    (f,) = mukai(_chart("乾", month="辰", day="甲戌"))
    assert f.kind == "冲开" and f.holds and f.details.holder == "入月墓"


def test_mu_closed():
    (f,) = mukai(_chart("讼之蒙", month="子", day="甲子"))
    assert f.kind == "墓闭" and not f.holds and "无刑冲" in f.reasons
    assert isinstance(f.details, MukaiDetails) and f.details.weight is None


def test_mu_only_for_the_targets_acting_sources():
    # 乾之既济, 用官 午: 入墓 at the 戌 day and at the moving 戌 line; a 变爻 of another line
    # (line 2 化 丑) does not open the moving 戌 — a 变爻 acts on its own line only
    chart = _chart("乾之既济", month="寅", day="戊戌")
    found = mukai(chart, resolve_use(chart, "官"))
    assert [f.details.holder for f in found] == ["入日墓", "入动墓"]
    assert all(f.kind == "墓闭" for f in found)
