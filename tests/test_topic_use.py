"""A topic's own 用神 and the reading of 助鬼伤身 beside its verdict (docs/rules.md §6).

The contradiction is defined from the book's words (6.03): 「若女占夫而官星为用者，遇之反吉也；占官骤升，
占武即发。（大抵用官吉而用财凶，世爻尤凶也。）」. A good reading (遇之反吉也, 骤升, 即发) beside a verdict
凶 or 尤凶, or a harm reading (every other reading of 6.03-6.04) beside 反吉, contradicts it; and a
reading the book ties to a 用神 (官星为用者; 男娶谓财) beside a different 用神 does not apply.
"""

from __future__ import annotations

import inspect

import pytest

from yimao.analysis.by_topic import GOOD, MARRIAGE, TOPIC_USE, XING, ZHUGUI, topic_use
from yimao.examples import EXAMPLES
from yimao.pipeline import CastRequest, document, read, topic_use_note
from yimao.stars.catalogue import catalogue
from yimao.texts import passage


def _cases() -> list[tuple[str, str | None, str | None]]:
    """The book's worked cases (examples.py) as (hexagram, month, day), each once; and 离 in a 申
    month on 甲申, where 助鬼伤身 holds with its 旬空 and 月破 judged."""
    out = [("离", "申", "甲申")]
    for ex in EXAMPLES:
        nl = inspect.getclosurevars(ex.compute).nonlocals
        if "hex_" in nl:
            case = (nl["hex_"], nl.get("month"), nl.get("day"))
            if case not in out:
                out.append(case)
    return out


CASES = _cases()
TOPICS = sorted({*ZHUGUI, *XING, MARRIAGE, *TOPIC_USE, *catalogue().topics})
USES = ("官", "财", "父", "兄", "子", "世", "应", None)


def _zhugui(hex_, month, day, topic, use):
    doc = document(read(CastRequest(hex=hex_, month=month, day=day, topic=topic, use=use)))
    return doc, [f for f in doc["findings"] if f["rule"] == "助鬼伤身" and f["holds"]]


def _contradicts(d) -> bool:
    r = d["topic_reading"]
    if r is None:
        return False
    good = r["reading"] in ("遇之反吉也", "骤升", "即发")
    return good != (d["verdict"] == "反吉")


def test_the_book_cases_hold_zhugui():
    # the sweep below is not vacuous: 申日之离, 寅日之咸, 亥日之泰 (6.02) hold
    assert sum(bool(_zhugui(h, m, d, None, None)[1]) for h, m, d in CASES) >= 4


@pytest.mark.parametrize("use", USES)
def test_no_reading_beside_a_verdict_it_contradicts(use):
    for hex_, month, day in CASES:
        for topic in TOPICS:
            doc, held = _zhugui(hex_, month, day, topic, use)
            for f in held:
                d = f["details"]
                assert not _contradicts(d), (hex_, month, day, topic, use, d["verdict"], d["topic_reading"])
                row = topic_use(topic)
                if d["topic_reading"] is None and topic in ZHUGUI:
                    assert d["topic_why"], (hex_, topic, use)  # withheld, and said why
                if row is not None and row.book and d["topic_reading"] is not None:
                    assert doc["use"]["relative"] == row.use or doc["use"]["spec"] == row.use


@pytest.mark.parametrize(
    ("topic", "use", "verdict", "reading"),
    [
        ("女嫁", None, "反吉", "遇之反吉也"),
        ("女嫁", "世", "尤凶", None),
        ("女嫁", "父", "凶", None),
        ("女嫁", "官", "反吉", "遇之反吉也"),
        ("功名", None, "反吉", "骤升"),
        ("功名", "财", "凶", None),
        ("武职", None, "反吉", "即发"),
        ("男娶", None, "凶", "主妇不贤"),
        ("男娶", "官", "反吉", None),
        ("求财", None, "凶", "有妄求之害"),
        ("求财", "官", "反吉", None),
        ("身命", None, "尤凶", "认祸为福，比匪为良，因财丧身，贪色亡命，妻妾不贤而归夫咎，奴仆肆逆而累主殃"),
        ("疾病", "官", "反吉", None),
        ("疾病", "父", "凶", "枕席之患未离"),
    ],
)
def test_the_verdict_and_reading_by_topic_and_use(topic, use, verdict, reading):
    _doc, (f,) = _zhugui("离", "申", "甲申", topic, use)
    d = f["details"]
    assert d["verdict"] == verdict
    assert (d["topic_reading"] and d["topic_reading"]["reading"]) == reading
    assert ("topic_why" in d) == (reading is None)


def test_the_topic_supplies_the_use_when_none_is_given():
    doc = document(read(CastRequest(hex="离", month="申", day="甲申", topic="女嫁")))
    assert doc["use"]["spec"] == "官鬼" and doc["use"]["from_topic"] == "女嫁"
    given = document(read(CastRequest(hex="离", month="申", day="甲申", topic="女嫁", use="官")))["use"]
    assert given["spec"] == "官鬼" and "from_topic" not in given
    assert document(read(CastRequest(hex="离", month="申", day="甲申", topic="求财")))["use"]["spec"] == "妻财"
    assert document(read(CastRequest(hex="离", month="申", day="甲申", topic="疾病")))["use"] is None
    assert topic_use_note(CastRequest(hex="离", topic="女嫁")) == "女嫁: 用神 官鬼 (「若女占夫而官星为用者」 6.03)"
    assert topic_use_note(CastRequest(hex="离", topic="求财")).startswith("求财: 用神 妻财 (六爻通例")
    assert topic_use_note(CastRequest(hex="离", topic="女嫁", use="财")) is None
    assert topic_use_note(CastRequest(hex="离", topic="疾病")) is None


@pytest.mark.parametrize(
    ("topic", "use", "book"),
    [
        ("女嫁", "官鬼", True),
        ("男娶", "妻财", True),
        ("功名", "官鬼", True),
        ("武职", "官鬼", True),
        ("求财", "妻财", False),
        ("失物", "妻财", False),
        ("身命", "世", False),
    ],
)
def test_the_table_of_topic_uses(topic, use, book):
    row = TOPIC_USE[topic]
    assert (row.use, row.book) == (use, book)
    assert row.text.original in passage(row.text.passage).original
    assert set(TOPIC_USE) == {"女嫁", "男娶", "功名", "武职", "求财", "失物", "身命"}


@pytest.mark.parametrize(
    ("use", "role", "ji"),
    [
        (None, "忌神", True),
        ("兄", "忌神", False),
        ("世", "忌神", False),
        ("父", "原神", False),
        ("财", "泄神", False),
        ("子", "用神所克", False),
        ("官", "用神", False),
    ],
)
def test_the_ghost_is_a_ji_only_where_it_overcomes_the_use(use, role, ji):
    _doc, (f,) = _zhugui("离", "申", "甲申", None, use)
    d = f["details"]
    assert d["ghost_role"] == role
    assert any(q["original"] == "总之以鬼为忌者，助伤固凶" for q in d["verdict_text"]) is ji


def test_good_readings_are_the_books():
    assert {r.reading for r in ZHUGUI.values() if r.reading in GOOD} == GOOD


def test_a_xiongdi_use_off_the_shi_cites_the_ji():
    # 咸 (兑宫 金), 寅日 (6.02): the 兄弟 are 申 (line 3, the 世) and 酉 (line 5)
    _doc, (f,) = _zhugui("咸", None, "寅", None, "兄")
    d = f["details"]
    assert (d["verdict"], d["ghost_role"]) == ("凶", "忌神")
    assert [q["original"] for q in d["verdict_text"]] == ["大抵用官吉而用财凶，世爻尤凶也", "总之以鬼为忌者，助伤固凶"]


def test_the_screen_shows_why_a_reading_is_withheld():
    from typer.testing import CliRunner

    from yimao.cli import app

    out = CliRunner().invoke(app, ["cast", "--hex", "离", "--month", "申", "--day", "甲申", "--topic", "女嫁", "--use", "世"]).output
    assert "女嫁之读以官鬼为用神" in out and "遇之反吉也」 6.03" not in out
