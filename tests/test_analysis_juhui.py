"""局会 (docs/rules.md §2): the book's five worked examples, and one case per exception clause."""

from __future__ import annotations

from yimao.analysis.finding import JuhuiDetails, JuhuiRole
from yimao.analysis.juhui import RULE, juhui
from yimao.chart import Source, build_chart, resolve_use
from yimao.ganzhi import Branch, Element, Vigour
from yimao.hexagram import Cast
from yimao.pillars import pillars_given


def _ju(spec: str, element: str, use: str | None = None, **pillars):
    chart = build_chart(Cast.parse(spec), pillars_given(**pillars))
    u = resolve_use(chart, use) if use else None
    found = [f for f in juhui(chart, u) if f.element is Element(element)]
    assert len(found) == 1, juhui(chart, u)
    f = found[0]
    assert f.rule == RULE and isinstance(f.details, JuhuiDetails)
    return f


def _roles(f):
    return {(m.branch.value, m.source.value, m.position, m.role) for m in f.members}


# "凡局必得日月有一在局，始成动会，如寅建戊戌日，用官得乾之既济是也" (6.06)
def test_dong_hui_qian_zhi_jiji():
    f = _ju("乾之既济", "火", "官", month="寅", day="戊戌")
    assert f.holds and f.kind == "动会"
    assert f.relative.value == "官鬼"
    assert {("寅", "月", None, "始"), ("寅", "动爻", 2, "始"), ("午", "动爻", 4, "中"), ("戌", "日", None, "终"), ("戌", "动爻", 6, "终")} == _roles(
        f
    )
    assert f.details.strength == "力大" and f.details.xuan == "悬始"
    assert f.details.use is not None and f.details.use.is_use is True and f.details.use.element is Element.HUO
    assert f.details.vigour is Vigour.XIANG
    assert (f.details.ri, f.details.yue) == ("终", "始")
    assert "6.06" in {q.passage for q in f.text}


# "变会如戌建甲寅日，用官得遁之乾是也" (6.06)
def test_bian_hui_dun_zhi_qian():
    f = _ju("遁之乾", "火", "官", month="戌", day="甲寅")
    assert f.holds and f.kind == "变会"
    # the 寅 is the day, the 变爻 of line 2, and the 伏神 under it: the 变爻 decides the type
    assert {("寅", "日", None, "始"), ("寅", "变爻", 2, "始"), ("寅", "伏神", 2, "始")} <= _roles(f)
    assert ("戌", "月", None, "终") in _roles(f)
    assert f.details.xuan == "悬始"  # 日 at 始, 月 at 终: 悬始 prevails


# "伏会如卯建戊寅日，用父得大畜之离是也" (6.06); "伏得生者其局真 … 午伏寅者是也" (6.07)
def test_fu_hui_dachu_zhi_li():
    f = _ju("大畜之离", "火", "父", month="卯", day="戊寅")
    assert f.holds and f.kind == "伏会"
    assert f.relative.value == "父母"
    assert ("午", "伏神", 2, "中") in _roles(f)
    assert f.details.zhen is True and "伏得生" in f.reasons
    assert f.details.use is not None and f.details.use.is_use is True


# "如戌建己酉日，用官得谦之泰，以戌月午变寅爻当成火局，然寅值空，乃失其始，戌月悬午，是墓非生，
#  则此火局休囚，不成会矣。" (6.07)
def test_qian_zhi_tai_does_not_form():
    f = _ju("谦之泰", "火", "官", month="戌", day="己酉")
    assert not f.holds and f.kind == "变会"
    assert f.reasons[:2] == ("变失始", "悬终")
    assert "始神寅旬空" in f.reasons
    assert f.details.xuan == "悬终" and f.details.roles[0] == JuhuiRole("始", Branch.YIN, True, False)
    assert f.details.strength is None and f.details.xuan_reading is None  # it does not form
    assert {"6.07"} <= {q.passage for q in f.text}


# "如申建甲辰日，用财得履之睽，子伏申下，财乃长生，申为月建，谓之悬始，则水局旺相，故成会尔" (6.07)
def test_lv_zhi_kui_forms():
    f = _ju("履之睽", "水", "财", month="申", day="甲辰")
    assert f.holds and f.kind == "伏会"
    assert f.relative.value == "妻财"
    assert f.details.xuan == "悬始" and f.details.xuan_reading == "吉"
    assert f.details.zhen is True
    assert f.details.vigour in (Vigour.WANG, Vigour.XIANG)
    assert ("申", "月", None, "始") in _roles(f) and ("子", "伏神", 5, "中") in _roles(f)


# "中神主也，失其主则不能会，伤其中则不能局。" (6.05)
def test_zhong_kong_and_po():
    kong = _ju("乾之遁", "火", month="丑", day="丙戌")  # 甲申旬 空 午未
    assert not kong.holds and kong.reasons[:2] == ("伤中", "中神空")
    po = _ju("乾之遁", "火", month="子", day="甲戌")  # 子月 破 午
    assert not po.holds and po.reasons[:2] == ("伤中", "中神破")


def test_shizhu_zhong_absent():
    f = _ju("屯之萃", "木", month="子", day="乙亥")
    assert not f.holds and f.reasons[0] == "失主" and "中神卯不现" in f.reasons


# "伤其始者，局会之力小，伤其终者，局会之力存，终始不伤。局会之力大矣。" (6.05)
def test_strength():
    small = _ju("乾之讼", "水", month="子", day="甲戌")  # 申 static and 空; 月 子 at 中
    assert small.holds and small.kind == "动会" and small.details.strength == "力小"
    assert small.details.xuan == "悬中" and small.details.xuan_reading is None
    kept = _ju("乾之遁", "火", month="子", day="庚午")  # 戌 空; 日 午 at 中
    assert kept.holds and kept.details.strength == "力存" and "终神戌旬空" in kept.reasons
    big = _ju("乾之遁", "水", month="子", day="甲子")
    assert big.holds and big.details.strength == "力大" and big.details.xuan == "悬中"


def test_xuan_zhong_formed_when_the_shi_is_sound():
    # 日 戌 at the 终 only, but the 始 寅 moves and is sound: 悬终 (凶) yet formed
    f = _ju("乾之既济", "火", day="戌")
    assert f.holds and f.details.xuan == "悬终" and f.details.xuan_reading == "凶"


def test_one_active_member_is_not_enough():
    f = _ju("乾之姤", "水", month="子", day="甲子")
    assert not f.holds and f.reasons == ("动变伏不足二支",)


def test_riyue_not_in_the_ju():
    f = _ju("坤之明夷", "木", month="子", day="甲戌")
    assert not f.holds and f.reasons == ("日月不在局",)


def test_no_pillars():
    chart = build_chart(Cast.parse("乾之既济"))
    (f,) = juhui(chart)
    assert not f.holds and f.reasons[0] == "未给日月"
    month_only = build_chart(Cast.parse("乾之既济"), pillars_given(month="寅"))
    (g,) = juhui(month_only)
    assert g.holds and "未给日辰" not in g.reasons and "未给月建，月破未判" not in g.reasons


def test_static_chart_has_no_ju():
    assert juhui(build_chart(Cast.parse("乾"), pillars_given(month="寅", day="戊戌"))) == ()


def test_members_carry_sources():
    f = _ju("乾之既济", "火", month="寅", day="戊戌")
    assert all(m.role in ("始", "中", "终") for m in f.members)
    assert any(m.source is Source.RI for m in f.members) and any(m.source is Source.YUE for m in f.members)
