"""The kinds of question and the rules' readings by them (analysis.by_topic; docs/rules.md §6)."""

from __future__ import annotations

import re

import pytest

from yimao.analysis.by_topic import TARGETS, XING, ZHUGUI, side, topic_targets, xing_reading, zhugui_reading
from yimao.errors import UnknownNameError
from yimao.stars.catalogue import catalogue
from yimao.stars.topics import RULE_TOPICS, TOPIC_WORDS
from yimao.texts import passage

# The matters 6.03 and 6.04 name, read by hand from the text, and the topic each is filed under.
MATTERS = {
    "占身命": "身命",
    "国占": "国事",
    "师占": "军事",
    "占家": "家宅",
    "娶妇": "男娶",
    "收仆": "收仆",
    "女占夫": "女嫁",
    "占官": "功名",
    "占武": "武职",
    "占讼": "词讼",
    "占失": "失物",
    "投军": "投军",
    "脱役": "脱役",
    "昧事修方": "修方",
    "求财": "求财",
    "出行": "出行",
    "离尘修戒": "出家",
    "公役参房": "公役",
    "占监狱": "刑狱",
    "占疾病": "疾病",
    "奉神": "奉神",
    "安灵": "安灵",
    "占怪": "怪异",
    "占梦": "梦兆",
    "避祸": "避祸",
    "防害": "防害",
}


def test_every_reading_is_verbatim_and_its_words_are_pieces_of_its_sentence():
    for table in (ZHUGUI, XING):
        for topic, r in table.items():
            assert r.topic == topic
            p = passage(r.text.passage)
            assert r.text.original in p.original, r
            assert r.text.vernacular in p.vernacular, r
            assert r.matter in r.text.original and r.reading in r.text.original, r
    assert {r.text.passage for r in ZHUGUI.values()} == {"6.03", "6.04"}
    assert {r.text.passage for r in XING.values()} == {"6.10"}


def test_every_matter_of_the_passage_is_mapped_onto_a_topic_of_the_vocabulary():
    vocabulary = catalogue().topics
    for matter, topic in MATTERS.items():
        assert topic in vocabulary, topic
        r = ZHUGUI[topic]
        assert matter in r.text.original, (matter, r)
    # and nothing but these: the table is the passage's matters (and 防非, read as 防害)
    assert set(ZHUGUI) == set(MATTERS.values()) | {"防非"}
    assert ZHUGUI["防非"].text == ZHUGUI["防害"].text


def _uncovered(text: str, pieces: list[str]) -> str:
    covered = [False] * len(text)
    for piece in pieces:
        for m in re.finditer(re.escape(piece), text):
            for i in range(m.start(), m.end()):
                covered[i] = True
    return "".join(c for c, done in zip(text, covered) if not done and c not in "，；。、：")


def test_the_readings_cover_every_word_of_the_passages_that_read_by_matter():
    """Every word of 6.03 and 6.04 that reads 助鬼伤身 by a matter is in one of the sentences:
    what is left is the notes, the 六神 clause (read on a holding 鬼's spirit, not by matter) and
    the general sentence that closes 6.04."""
    pieces = [r.text.original for r in ZHUGUI.values()]
    body_03 = re.sub(r"（[^（）]*）", "", passage("6.03").original)
    assert _uncovered(body_03, pieces) == "鬼临雀起非临武被劫临虎见丧临蛇而惊"
    head_04 = passage("6.04").original.split("总之")[0]
    assert _uncovered(head_04, pieces) == ""


def test_the_third_passage_of_xing_names_four_matters():
    text = passage("6.10").original
    clause = text[text.index("身命遇之") : text.index("官克世")]
    assert _uncovered(clause, [r.text.original for r in XING.values()]) == ""
    assert xing_reading("功名").reading == "忧内丧" and xing_reading("疾病").reading == "防带疾"
    assert xing_reading("出行") is None and xing_reading(None) is None


def test_marriage_is_the_mans_unless_the_use_is_guangui():
    # 「若女占夫而官星为用者，遇之反吉也」: the woman's reading needs 官星为用
    assert side("婚姻", "官鬼") == "女嫁"
    assert side("婚姻", "妻财") == side("婚姻", None) == "男娶"
    assert side("出行", "官鬼") == "出行"
    assert zhugui_reading("婚姻").text.original == "娶妇则主妇不贤"
    assert zhugui_reading("婚姻", "官鬼").text.original == "若女占夫而官星为用者，遇之反吉也"
    assert zhugui_reading("婚姻").topic == "婚姻"  # the topic asked, with the book's matter
    assert zhugui_reading("婚姻").matter == "娶妇"
    assert zhugui_reading("岁时") is None and zhugui_reading(None) is None


def test_who_meets_a_xing_or_a_hai_by_topic():
    # 「身命，谓世及用爻遇之，男娶谓财、女嫁谓官遇之」
    assert topic_targets("男娶").relative == "妻财" and topic_targets("男娶").role == "财"
    assert topic_targets("女嫁").relative == "官鬼" and topic_targets("女嫁").role == "官"
    assert topic_targets("婚姻", "官鬼").relative == "官鬼"
    assert topic_targets("婚姻").relative == "妻财"
    assert topic_targets("身命").relative is None and topic_targets("身命").topic == "身命"
    for t in ("疾病", "出行", "词讼", None):
        assert topic_targets(t) == topic_targets(None) and topic_targets(t).relative is None and topic_targets(t).topic is None
    assert set(TARGETS) == {"身命", "男娶", "女嫁"}


def test_the_vocabulary_is_the_stars_topics_then_the_rules():
    c = catalogue()
    star_topics = list(dict.fromkeys(t for s in c.stars for t in s.topics))
    assert list(c.topics) == star_topics + [t for t in RULE_TOPICS if t not in star_topics]
    assert not set(RULE_TOPICS) & set(star_topics)


@pytest.mark.parametrize("word", ["讼", "师", "国占", "女占夫", "娶妇", "昧事", "离尘", "参房", "占梦", "宦", "病"])
def test_the_books_words_name_their_topic(word):
    w = TOPIC_WORDS[word]
    assert catalogue().topic(word) == w.topic
    assert w.topic in ZHUGUI or w.topic in XING  # a matter the rules read by
    assert word not in catalogue().topics


def test_an_unknown_topic_names_the_nearest():
    with pytest.raises(UnknownNameError) as e:
        catalogue().topic("投军役")
    assert "投军" in e.value.candidates
