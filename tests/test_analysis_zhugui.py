"""助鬼伤身 (docs/rules.md §1): the book's worked examples, and one case per exception clause."""

from __future__ import annotations

import pytest

from yimao.analysis.finding import Ghost, SpiritReading, ZhuguiDetails
from yimao.analysis.zhugui import RULE, zhugui
from yimao.chart import Source, Spirit, build_chart, resolve_use
from yimao.ganzhi import Branch, Vigour
from yimao.hexagram import Cast, all_casts
from yimao.pillars import pillars_given


def _one(spec: str, **pillars):
    chart = build_chart(Cast.parse(spec), pillars_given(**pillars))
    found = zhugui(chart)
    assert len(found) <= 1
    return chart, (found[0] if found else None)


# "是以前贤举申日之离，寅日之咸，亥日之泰者为法。" (6.02)
@pytest.mark.parametrize(
    ("spec", "day", "ghost", "shi"),
    [("离", "申", 3, 6), ("咸", "寅", 2, 3), ("泰", "亥", 2, 3)],
)
def test_the_models_hold(spec, day, ghost, shi):
    chart, f = _one(spec, day=day)
    assert f is not None and f.rule == RULE and f.holds
    assert f.lines == tuple(sorted((ghost, shi)))
    assert f.relative.value == "官鬼"
    roles = {(m.role, m.source, m.position) for m in f.members}
    assert ("日", Source.RI, None) in roles and ("鬼", Source.JINGYAO, ghost) in roles and ("世", Source.JINGYAO, shi) in roles
    d = f.details
    assert isinstance(d, ZhuguiDetails) and d.changsheng is Branch.parse(day) and d.true_changsheng and d.harm is not None
    # a bare-branch day: 旬空 cannot be judged, and the finding says so
    assert "未给日干，旬空未判" in f.reasons
    assert "未给月建，月破与世旺相未判" in f.reasons
    assert {q.passage for q in f.text} >= {"6.01", "6.02"}


# "虽长生于日，而巳日之巽，申日之革则非" … "（五行大生谓之真生，巽鬼革鬼非大生）" (6.02)
@pytest.mark.parametrize(("spec", "day"), [("巽", "巳"), ("革", "申")])
def test_not_a_true_changsheng(spec, day):
    _, f = _one(spec, day=day)
    assert f is not None and not f.holds
    assert "非真生" in f.reasons
    assert "6.02" in {q.passage for q in f.text}
    assert isinstance(f.details, ZhuguiDetails) and not f.details.true_changsheng and f.details.harm is None


def test_ge_has_two_earth_ghosts_reported_together():
    # 革 (坎宫): 官鬼 未 (6) and 丑 (2), both 土 长生 at 申 — one near miss naming both
    _, f = _one("革", day="申")
    assert f.lines == (2, 4, 6)


# "虽曰助鬼，而午日之坎，酉日之离则非。" … "坎鬼离鬼非长生" (6.02)
@pytest.mark.parametrize(("spec", "day"), [("坎", "午"), ("离", "酉")])
def test_day_generates_but_is_not_changsheng(spec, day):
    _, f = _one(spec, day=day)
    assert f is not None and not f.holds
    assert f.reasons[0] == "日生而非长生"


# "然官鬼遇空破者弗能伤" (6.01): 壬申日 旬空 戌亥 — the 鬼 亥 of 离 is 空.
def test_ghost_kong():
    _, f = _one("离", day="壬申")
    assert f is not None and not f.holds
    assert "鬼空" in f.reasons and "未给日干，旬空未判" not in f.reasons


def test_ghost_po():
    # 子月 破 午: 寅日之咸 in 子月 — the 鬼 午 is 月破 (the 世 申 is 休, so no other reason)
    _, f = _one("咸", month="子", day="寅")
    assert f is not None and not f.holds
    assert "鬼破" in f.reasons and "世旺相" not in f.reasons


# "世爻逢旺相者弗能伤" (6.01): 申日之离 in 卯月 — the 世 巳火 is 相.
def test_shi_wangxiang():
    _, f = _one("离", month="卯", day="申")
    assert f is not None and not f.holds
    assert f.reasons[0] == "世旺相"
    assert isinstance(f.details, ZhuguiDetails) and f.details.shi.vigour is Vigour.XIANG
    assert f.details.harm is None  # everything else holds: no reading of a harm not done


def test_shi_kong_or_po_is_no_exemption():
    # 寅日之咸: the 世 申 is 冲 by the day — the book's own model, and it holds
    _, f = _one("咸", day="丙寅")  # 甲戌旬 空 申酉: the 世 is 空 too
    assert f is not None and f.holds


# "虽曰长生，临于岁月动变之位者则非" (6.02)
def test_changsheng_only_at_the_month():
    _, f = _one("离", month="申", day="丁卯")
    assert f is not None and not f.holds
    assert "长生临月" in f.reasons and "日非长生" in f.reasons
    assert any(m.role == "长生" and m.source is Source.YUE for m in f.members)


def test_changsheng_at_a_moving_line_and_a_changed_line():
    # 泰之夬: line 5 亥 moves, line 4 丑 changes into 亥 — the 寅 鬼's 长生 twice, neither counts
    _, f = _one("泰之夬", month="子", day="甲子")
    assert f is not None and not f.holds
    assert {"日生而非长生", "长生临动爻", "长生临变爻"} <= set(f.reasons)


def test_changsheng_at_the_year():
    _, f = _one("离", year="丙申", month="子", day="丁卯")
    assert f is not None and "长生临岁" in f.reasons


def test_ghost_not_ke_shi_reported_only_when_day_is_its_true_changsheng():
    # 乾 (金宫): 世 戌 父母 — 鬼 午 火 长生 寅: a 寅 day gets that far
    _, f = _one("乾", day="寅")
    assert f is not None and not f.holds and f.reasons[0] == "鬼不克世"
    _, none = _one("乾", day="卯")
    assert none is None


def test_no_day_given():
    _, f = _one("离", month="子")
    assert f is not None and not f.holds and "未给日辰" in f.reasons
    chart = build_chart(Cast.parse("离"))
    assert zhugui(chart)[0].reasons[0] == "未给日辰"


# "大抵用官吉而用财凶，世爻尤凶也。" (6.03)
@pytest.mark.parametrize(("use", "verdict"), [(None, "凶"), ("官", "反吉"), ("财", "凶"), ("世", "尤凶")])
def test_reading_by_use(use, verdict):
    chart = build_chart(Cast.parse("离"), pillars_given(day="申"))
    u = resolve_use(chart, use) if use else None
    (f,) = zhugui(chart, u)
    assert isinstance(f.details, ZhuguiDetails) and f.details.harm is not None
    harm = f.details.harm
    assert f.holds and harm.verdict == verdict
    topics = {r.topic for r in harm.readings}
    assert {"身命", "男娶", "功名", "词讼", "疾病", "投军", "避祸"} <= topics
    assert harm.severity.original.startswith("静迟动速")
    assert harm.topic_reading is None  # no topic asked


def test_severity_moving_and_vigour():
    # "静迟动速，旺大衰小" (6.04): 离 with the 鬼 亥 (line 3) moving, in 子月 (水 旺)
    chart = build_chart(Cast.parse("离", [3]), pillars_given(month="子", day="甲申"))
    (f,) = zhugui(chart)
    assert f.holds
    assert isinstance(f.details, ZhuguiDetails)
    (g,) = f.details.ghosts
    assert g == Ghost(3, Branch.HAI, True, Vigour.WANG, "动速", "旺大")
    assert any(m.source is Source.DONGYAO and m.role == "鬼" for m in f.members)


def test_spirit_on_the_ghost():
    # 戊申日: 勾陈 on line 1, so line 3 has 白虎 — "临虎见丧"
    chart = build_chart(Cast.parse("离"), pillars_given(day="戊申"))
    (f,) = zhugui(chart)
    assert isinstance(f.details, ZhuguiDetails) and f.details.harm is not None
    assert f.details.harm.spirits == (SpiritReading(3, Spirit.BAIHU, "见丧"),)
    assert f.details.harm.spirit_text is not None and f.details.harm.spirit_text.original.startswith("鬼临雀起非")


def test_ghost_ke_shi_is_always_a_near_miss():
    # 离 on a 子 day: the 鬼 亥 克 the 世 巳, and 子 is not its 长生 申 — a near miss, not silence
    _, f = _one("离", day="子")
    assert f is not None and not f.holds and "日非长生" in f.reasons


def test_every_failed_condition_is_a_reason():
    # 损 on 辛亥 in 申: 鬼 卯 (2) is 空; 鬼 寅 (6) is both 空 and 月破 — both reasons, both 鬼
    _, f = _one("损", day="辛亥", month="申")
    assert f is not None and not f.holds
    assert "鬼空" in f.reasons and "鬼破" in f.reasons
    assert f.lines == (2, 3, 6)
    assert {q.original for q in f.text} >= {"然官鬼遇空破者弗能伤"}


@pytest.mark.parametrize(("spec", "shi"), [("晋", 4), ("蹇", 4)])
def test_day_not_changsheng_is_a_near_miss(spec, shi):
    # the 火 鬼 巳/午 克 the 金 世; 甲子 is not 寅 (火's 长生)
    _, f = _one(spec, day="甲子", month="申")
    assert f is not None and not f.holds
    assert "日非长生" in f.reasons and shi in f.lines
    assert "6.01" in {q.passage for q in f.text}


def test_every_ghost_ke_shi_chart_yields_a_finding():
    """Over all 4096 casts and six days: wherever a 鬼 line 克 the 世 and 助鬼伤身 does not
    hold, a near miss exists with at least one reason."""
    pillar_sets = [dict(day=d, month=m) for d, m in (("甲子", "寅"), ("辛亥", "申"), ("丙寅", "午"), ("己巳", "酉"), ("壬申", "子"), ("癸亥", "辰"))]
    seen = 0
    for i, cast in enumerate(all_casts()):
        for k in range(3):
            seen += _check_ke_near_miss(cast, pillar_sets[(i + k) % len(pillar_sets)])
    assert seen > 1000


def _check_ke_near_miss(cast, pillars) -> int:
    chart = build_chart(cast, pillars_given(**pillars))
    shi = chart.lines[chart.hexagram.shi - 1]
    ke = any(
        cl.line.relative.value == "官鬼" and cl.line.position != shi.line.position and cl.line.element.overcomes is shi.line.element
        for cl in chart.lines
    )
    if not ke:
        return 0
    found = zhugui(chart)
    assert len(found) == 1, cast
    assert found[0].holds or found[0].reasons, cast
    return 1
