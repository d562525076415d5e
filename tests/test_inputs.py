"""Inputs as practitioners type them: 离变乾, coins with separators, Chinese dates, everyday topic
words; and a wrong input answered with the valid inputs nearest to it. Each form is read alike by
the Typer app, by the entry point's own `cast --json` reader and in a batch line."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_launch import direct, via_typer

from yimao.batch import answer
from yimao.errors import NotationError, UnknownNameError
from yimao.hexagram import Cast, all_casts
from yimao.stars.catalogue import catalogue
from yimao.stars.topics import TOPIC_WORDS
from yimao.texts import passages

CASTS = list(all_casts())
MOVING = [c for c in CASTS if c.moving]


@given(st.sampled_from(MOVING), st.sampled_from(["之", "变", "化", "變", "→"]))
def test_the_change_in_each_word_round_trips(c, word):
    """离变乾 and 离化乾 are 离之乾: the print form (`spec`) with any of the words reads back."""
    assert Cast.parse(c.spec().replace("之", word)) == c


@given(st.sampled_from(CASTS), st.sampled_from([",", " ", "，", "、", ", "]))
def test_coin_values_with_separators_round_trip(c, sep):
    """7,6,7,7,6,7 and 7 6 7 7 6 7 are 767767: the print form (`values`) joined either way reads back."""
    assert Cast.parse(sep.join(map(str, c.values()))) == c
    bits = sep.join(str(v % 2) for v in c.values())  # 7, 9 yang → 1; 6, 8 → 0
    assert Cast.parse(bits, sorted(c.moving)) == c


def test_the_forms_from_the_book_and_from_practice():
    c = Cast.parse("离之乾")
    for typed in (
        "离变乾",
        "离化乾",
        "離變乾",
        "離化乾",
        "7,6,7,7,6,7",
        "7 6 7 7 6 7",
        " 7，6，7，7，6，7 ",
        "767767",
        "７６７７６７",
        "７，６，７，７，６，７",
    ):
        assert Cast.parse(typed) == c, typed
    with pytest.raises(NotationError, match="already say which lines move"):
        Cast.parse("7,6,7,7,6,7", "2")
    assert Cast.parse("１０１１０１", "2,5") == c  # full-width bits, as a Chinese input method types them


@pytest.mark.parametrize(
    "typed, says, nearest",
    [
        ("1011011", "has 7 digits: a cast is six line values", {"101101", "101011", "011011"}),
        ("7,6,7,7,6,7,7", "has 7 digits", {"767767", "767677"}),
        ("10110", "has 5 digits", set()),
        ("101171", "mixes digits", {"101101", "101111"}),
        ("767761", "mixes digits", {"767767", "767768", "767769", "767766"}),
        ("123456", "and 1, 2, 3, 4, 5 are not coins 6-9", set()),
    ],
)
def test_a_wrong_run_of_digits_is_said_as_such_with_the_nearest_casts(typed, says, nearest):
    """Not "unknown hexagram (did you mean 乾, 坤, 离)": how many digits, and the casts one edit away."""
    with pytest.raises(NotationError) as e:
        Cast.parse(typed)
    assert says in str(e.value)
    assert nearest <= set(e.value.candidates) and not set(e.value.candidates) & {"乾", "坤", "离"}
    for near in e.value.candidates:  # each suggestion is a cast
        Cast.parse(near, "1" if set(near) <= set("01") else None)


# --- each form on every path ----------------------------------------------------------------------

DATE = "2026-12-02T10:00+08:00"
REFERENCE = ["cast", "--hex", "离之乾", "--date", DATE, "--json"]
SAME = [
    ["cast", "--hex", "离变乾", "--date", DATE, "--json"],
    ["cast", "--hex", "離化乾", "--date", DATE, "--json"],
    ["cast", "--hex", "7,6,7,7,6,7", "--date", DATE, "--json"],
    ["cast", "--hex", "7 6 7 7 6 7", "--date", DATE, "--json"],
    ["cast", "--hex", "离之乾", "--date", "2026年12月2日 10:00", "--tz", "+08:00", "--json"],
    ["cast", "--hex", "离之乾", "--date", "2026年12月2日10时00分", "--tz", "+08:00", "--json"],
    ["cast", "--hex", "离之乾", "--date", "2026-12-02 10点", "--tz", "+08:00", "--json"],
]


def _reading(doc: dict) -> tuple:
    """What a document says of the cast and the moment (the 约定 row echoes the date as typed)."""
    return doc["cast"], doc["pillars"], doc["hexagram"]["name"], doc["changed_hexagram"]["name"], doc["conventions"]["moment"]


@pytest.mark.parametrize("args", SAME, ids=" ".join)
def test_each_form_reads_as_the_books_on_both_paths_and_in_batch(args):
    code, ref, _ = direct(REFERENCE)
    expected = _reading(json.loads(ref))
    code, out, err = direct(args)
    assert code == 0 and (code, out, err) == via_typer(args), err
    assert _reading(json.loads(out)) == expected
    request = {"hex": args[2], "date": args[4]}
    if "--tz" in args:
        request["tz"] = args[6]
    line = answer(1, json.dumps(request, ensure_ascii=False).encode())
    assert isinstance(line, bytes), line
    assert _reading(json.loads(line)) == expected


@pytest.mark.parametrize("date", ["2026年12月2日 10:00", "2026年12月2日10时30分", "2026-12-02 10点", "2026-12-02 10点30分", "2026年12月2日 10点"])
def test_chinese_dates_read_as_their_iso_form(date):
    from yimao.pillars import parse_moment

    iso = "2026-12-02T10:30+08:00" if "30" in date else "2026-12-02T10:00+08:00"
    assert parse_moment(date, "+08:00").moment == parse_moment(iso).moment


@pytest.mark.parametrize("date", ["2026年13月2日 10:00", "2026年12月32日", "2026-12-02 25点", "2026年12月2日10时61分"])
def test_chinese_dates_out_of_range_are_refused_by_name(date):
    args = ["cast", "--hex", "离", "--date", date, "--json"]
    code, out, err = direct(args)
    assert code == 2 and out == b"" and b"Traceback" not in err and (code, out, err) == via_typer(args)
    line = answer(1, json.dumps({"hex": "离", "date": date}, ensure_ascii=False).encode())
    assert isinstance(line, dict) and line["error"]["value"] == date


def test_a_wrong_cast_is_answered_alike_on_every_path():
    args = ["cast", "--hex", "1011011", "--month", "卯", "--day", "戊寅", "--json"]
    code, out, err = direct(args)
    assert code == 2 and out == b"" and (code, out, err) == via_typer(args)
    assert "7 digits" in err.decode() and "101101" in err.decode() and "乾" not in err.decode()
    line = answer(3, json.dumps({"hex": "1011011", "month": "卯", "day": "戊寅"}).encode())
    assert isinstance(line, dict) and "7 digits" in line["error"]["message"]


# --- topics ---------------------------------------------------------------------------------------


def test_every_topic_word_names_a_topic_of_the_book_and_cites_it():
    topics = catalogue().topics
    text = {p.id: p.original + p.vernacular for p in passages()}
    for word, w in TOPIC_WORDS.items():
        assert w.topic in topics, word
        assert w.source in text[w.passage], (word, w.source)
        assert word not in topics, word  # the book's own words need no table
    assert {TOPIC_WORDS[w].topic for w in ("官司", "诉讼")} == {"词讼"}
    assert {TOPIC_WORDS[w].topic for w in ("感情", "恋爱")} == {"婚姻"}
    assert {TOPIC_WORDS[w].topic for w in ("工作", "求职")} == {"功名"} and TOPIC_WORDS["工作"].nearest


@pytest.mark.parametrize(
    "word, topic, note",
    [
        ("官司", "词讼", "read as volume 6's topic 词讼"),
        ("訴訟", "词讼", "read as volume 6's topic 词讼"),
        ("感情", "婚姻", "volume 6 has no such topic; read as its nearest, 婚姻"),
        ("工作", "功名", "volume 6 has no such topic; read as its nearest, 功名"),
        ("词讼", "词讼", None),
        ("求財", "求财", None),
    ],
)
def test_a_topic_word_keeps_the_stars_of_its_topic_and_says_so(word, topic, note):
    base = ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅", "--json"]
    code, out, err = direct([*base, "--topic", word])
    _, ref, _ = direct([*base, "--topic", topic])
    assert code == 0 and out == ref and (code, out, err) == via_typer([*base, "--topic", word])
    if note is None:  # at most the 用神 a topic fixes (求财: 妻财)
        assert re.fullmatch(rf"(yimao: note: {topic}: 用神 .*\n)?", err.decode()), err
    else:
        # a topic that fixes its 用神 (功名: 官鬼) says so on a line of its own
        assert re.fullmatch(rf"yimao: note: --topic {word}: {note}\n(yimao: note: {topic}: 用神 .*\n)?", err.decode()), err
    line = answer(1, json.dumps({"hex": "离之乾", "month": "卯", "day": "戊寅", "topic": word}, ensure_ascii=False).encode())
    assert isinstance(line, bytes) and json.loads(line) == json.loads(ref)


def test_an_unknown_topic_suggests_the_topic_of_a_word_in_it():
    with pytest.raises(UnknownNameError) as e:
        catalogue().topic("感情问题")
    assert "婚姻" in e.value.candidates
