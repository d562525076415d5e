"""The rules read by the topic asked (docs/rules.md §6), on charts derived by hand.

离为火, 申建甲申日: the 世 巳 (火, 兄弟, line 6) is 克 by the 官鬼 亥 (水, line 3), whose 长生 申 is
the day (真生); 亥 is neither 空 (甲申旬空午未) nor 破 (申月破寅); the 世 火 is 囚 in 申: 助鬼伤身 holds.
In a 巳 month the 世 is 旺: it does not (世旺相).

泽水困 (兑宫): line 1 寅 妻财 is the 世, line 3 午 官鬼; 困之兑 moves line 1 (寅 化 巳).
"""

from __future__ import annotations

import pytest

from yimao.pipeline import CastRequest, document, read


def _findings(**kw):
    return document(read(CastRequest(**kw)))["findings"]


def _one(findings, rule, holds=True):
    found = [f for f in findings if f["rule"] == rule and f["holds"] is holds]
    assert len(found) == 1, found
    return found[0]


ZHUGUI = {"hex": "离", "month": "申", "day": "甲申"}


@pytest.mark.parametrize(
    ("topic", "original", "reading"),
    [
        ("投军", "投军脱役，鱼为饵钩", "鱼为饵钩"),
        ("脱役", "投军脱役，鱼为饵钩", "鱼为饵钩"),
        ("修方", "昧事修方，步遭荆棘", "步遭荆棘"),
        ("出家", "离尘修戒，障业未除", "障业未除"),
        ("公役", "公役参房，杖笞难免", "杖笞难免"),
        ("奉神", "奉神神怒", "神怒"),
        ("安灵", "安灵灵哭", "灵哭"),
        ("避祸", "避祸祸必临", "祸必临"),
        ("防害", "防害害必至", "害必至"),
        ("身命", "占身命者认祸为福，比匪为良，因财丧身，贪色亡命，妻妾不贤而归夫咎，奴仆肆逆而累主殃", None),
        ("收仆", "收仆则主仆怀叛", "主仆怀叛"),
        ("词讼", "占讼有重责之忧", "有重责之忧"),
        ("刑狱", "占监狱囹圄之灾未满", "囹圄之灾未满"),
        ("婚姻", "娶妇则主妇不贤", "主妇不贤"),
    ],
)
def test_a_holding_zhugui_carries_the_reading_of_the_topic(topic, original, reading):
    f = _one(_findings(**ZHUGUI, topic=topic), "助鬼伤身")
    r = f["details"]["topic_reading"]
    assert r["topic"] == topic
    assert r["text"]["original"] == original
    assert r["text"]["passage"] in ("6.03", "6.04")
    if reading is not None:
        assert r["reading"] == reading


def test_the_books_word_is_read_as_its_topic():
    f = _one(_findings(**ZHUGUI, topic="讼"), "助鬼伤身")
    assert f["details"]["topic_reading"]["topic"] == "词讼"


def test_a_womans_marriage_with_the_guan_as_use_reads_fanji():
    f = _one(_findings(**ZHUGUI, topic="婚姻", use="官"), "助鬼伤身")
    assert f["details"]["topic_reading"]["matter"] == "女占夫"
    assert f["details"]["verdict"] == "反吉"


def test_no_topic_or_an_unnamed_topic_has_no_reading():
    assert _one(_findings(**ZHUGUI), "助鬼伤身")["details"]["topic_reading"] is None
    assert _one(_findings(**ZHUGUI, topic="岁时"), "助鬼伤身")["details"]["topic_reading"] is None


def test_a_near_miss_carries_no_reading():
    f = _one(_findings(hex="离", month="巳", day="甲申", topic="投军"), "助鬼伤身", holds=False)
    assert "世旺相" in f["reasons"]
    assert "topic_reading" not in f["details"]


# 困之兑, 酉建庚申日 (the book's 真刑): the day 申 刑 and 冲 the moving 寅 on line 1, 世 and 妻财.
KUN = {"hex": "困之兑", "month": "酉", "day": "庚申"}


def test_the_xing_reading_by_topic():
    f = _one([x for x in _findings(**KUN, topic="疾病") if x["kind"] == "真刑"], "三刑")
    assert f["details"]["topic_reading"]["text"]["original"] == "病防带疾"
    g = _one([x for x in _findings(**KUN, topic="出行") if x["kind"] == "真刑"], "三刑")
    assert g["details"]["topic_reading"] is None


def test_a_mans_marriage_judges_the_cai():
    # the 妻财 寅 is the 世 as well: 财/世, and the 世's 大凶 readings stay (五克世: 酉 克 寅)
    f = _one([x for x in _findings(**KUN, topic="男娶") if x["kind"] == "真刑"], "三刑")
    assert f["details"]["target"] == "财/世"
    assert f["members"][0] == {"branch": "寅", "source": "动爻", "position": 1, "role": "财/世"}
    assert "日申刑财/世" in f["reasons"] and "男娶谓财" in f["reasons"]
    assert f["details"]["topic_reading"]["text"]["original"] == "婚姻遇之，惧门第之相压"
    assert [g["topic"] for g in f["details"]["grave"]] == ["疏"]


def test_a_mans_marriage_on_a_cai_that_is_not_the_shi():
    # 乾 (金宫): the 妻财 寅 on line 2, the 世 戌 on line 6. 申建甲申日: the 申 day 刑 and 冲 the 寅.
    plain = {"hex": "乾", "month": "申", "day": "甲申"}
    assert not [f for f in _findings(**plain) if f["rule"] == "三刑"]  # the 世 戌 meets no 刑
    f = _one(_findings(**plain, topic="男娶"), "三刑")
    assert f["kind"] == "真刑" and f["details"]["target"] == "财" and "grave" not in f["details"]
    assert f["members"][0] == {"branch": "寅", "source": "静爻", "position": 2, "role": "财"}


def test_a_womans_marriage_judges_the_guan_and_not_the_shi():
    # the 官鬼 午 (line 3, static) meets neither a 刑 (no 午 acts) nor a 害 (no 丑): nothing on it,
    # and the 世 寅 is no target, so the 真刑 the default finds on it is not reported.
    default = _findings(**KUN)
    assert any(f["rule"] == "三刑" and f["kind"] == "真刑" for f in default)
    women = _findings(**KUN, topic="女嫁")
    assert not [f for f in women if f["rule"] in ("三刑", "六害") and f["details"].get("target") != "世应"]
    assert _findings(**KUN, topic="婚姻", use="官") == women


def test_a_womans_marriage_finds_the_xing_on_the_guan():
    # 困 static, 酉建庚午日: the 午 day 自刑 the 官鬼 午 (line 3); nothing 刑 the 世 寅.
    plain = {"hex": "困", "month": "酉", "day": "庚午"}
    assert not [f for f in _findings(**plain) if f["rule"] == "三刑"]
    f = _one(_findings(**plain, topic="女嫁"), "三刑")
    assert f["kind"] == "刑" and f["details"]["target"] == "官" and f["details"]["name"] == "自刑"
    assert f["members"][0] == {"branch": "午", "source": "静爻", "position": 3, "role": "官"}
    assert "日午刑官" in f["reasons"]


def test_shenming_is_the_default_named():
    xs = {(f["rule"], f["kind"], f["details"].get("target")) for f in _findings(**KUN, use="财", topic="身命")}
    ys = {(f["rule"], f["kind"], f["details"].get("target")) for f in _findings(**KUN, use="财")}
    assert xs == ys


def test_the_hai_reports_the_relations_round_it():
    # the 寅 (用/世, line 1) is 害 by its own 变爻 巳: 寅木生巳火; 日申冲寅, 申金克寅木; 巳申合,
    # 巳火克申金; 月酉金克寅木; 巳火克酉金
    f = _one(_findings(**KUN, use="财"), "六害")
    short = [f"{r['from']['branch']}{r['relation']}{r['to']['branch']}" for r in f["details"]["relations"]]
    assert short == ["寅生巳", "寅冲申", "申克寅", "巳合申", "巳克申", "酉克寅", "巳克酉"]
    assert f["details"]["relations"][1]["to"]["source"] == "日"
    assert f["details"]["relations"][5]["from"]["source"] == "月"


def test_a_mans_marriage_takes_the_hidden_cai_when_none_is_on_the_lines():
    # 姤 (乾宫一世): no 妻财 among 丑亥酉午申戌; the 伏 妻财 is 乾's 寅 under line 2. 申建甲申日:
    # the 申 day 刑 and 冲 it (真刑); the 世 丑 meets no 刑 (未 刑 丑; no 未 acts).
    plain = {"hex": "姤", "month": "申", "day": "甲申"}
    assert not [f for f in _findings(**plain) if f["rule"] == "三刑"]
    f = _one(_findings(**plain, topic="男娶"), "三刑")
    assert f["kind"] == "真刑" and f["details"]["target"] == "财" and f["details"]["hidden"] is True
    assert f["members"][0] == {"branch": "寅", "source": "伏神", "position": 2, "role": "财"}
    assert "财不上卦，取伏神" in f["reasons"]
