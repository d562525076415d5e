"""Text a user gave, made visible before it is shown and checked before it is kept."""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET
from html import escape

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yimao.errors import NotationError
from yimao.usertext import checked, is_visible, visible, xml_safe

# What may act on a terminal or break a picture, one of each kind.
ACTING = "\x00\x07\x08\t\r\x1b\x7f\x85\x9b\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029\ud800\udce9\ufffe\uffff"

# Characters a question is made of, and the few that act, mixed: every kind of code point a
# keyboard, a paste or an import may bring.
hostile_text = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.characters(min_codepoint=0, max_codepoint=0x9F),
        st.sampled_from(ACTING),
        st.sampled_from("[]/=:财问"),
    ),
    max_size=40,
)


def test_each_acting_character_becomes_a_visible_mark():
    assert visible("\x1b]0;pwned\x07") == "␛]0;pwned␇"
    assert visible("a\rb\x08c\x7f") == "a␍b␈c␡"
    assert visible("abc\u202edef") == "abc<U+202E>def"
    assert visible("\x9b2J") == "<U+009B>2J"
    assert visible("caf\udce9") == "caf<U+DCE9>"
    for c in ACTING:
        assert visible(c) != c and is_visible(visible(c)), repr(c)


def test_what_is_read_stays_as_it_is():
    text = "问：今年可得财否？ [red] :smile: 收入[/月] café 👍🏽 ‍ 　全角"
    assert visible(text) == text
    assert visible("两段\n笔记") == "两段\n笔记"  # a line break moves nothing back


@given(hostile_text)
def test_visible_leaves_nothing_that_acts(text):
    shown = visible(text)
    assert is_visible(shown)
    assert visible(shown) == shown  # a fixed point: marks are plain characters
    assert (shown == text) == is_visible(text)
    for c in shown:
        category = unicodedata.category(c)
        assert c == "\n" or category not in ("Cc", "Cs", "Zl", "Zp"), repr(c)


@given(hostile_text)
def test_visible_text_is_valid_in_xml(text):
    ET.fromstring(f"<svg><text>{escape(visible(text))}</text></svg>")


@given(hostile_text)
def test_xml_safe_makes_any_document_parse(text):
    ET.fromstring(xml_safe(f"<svg><text>{escape(text)}</text></svg>"))


def test_checked_refuses_bytes_that_were_not_utf8():
    assert checked("问：财", "--question") == "问：财"
    with pytest.raises(NotationError) as e:
        checked("caf\udce9", "--question")
    assert "--question" in str(e.value) and "caf\\xe9" in str(e.value)
    with pytest.raises(NotationError) as e:
        checked("x\ud800", "the note")
    assert "\\ud800" in str(e.value)
