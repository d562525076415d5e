"""The 64 hexagrams and all 4096 casts: against an independent 纳甲 reference and invariants.

tests/data/najia_reference.json was transcribed from the traditional 八宫 tables and checked
by a separate first-principles script (tools/build_najia_reference.py); see its .md note.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from yimao.errors import NotationError, UnknownNameError
from yimao.hexagram import (
    HEXAGRAMS,
    HEXAGRAMS_BY_CODE,
    Cast,
    Generation,
    Hexagram,
    Relative,
    Trigram,
    all_casts,
    parse_moving,
)

REFERENCE = json.loads((Path(__file__).parent / "data" / "najia_reference.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("ref", REFERENCE, ids=[r["short_name"] for r in REFERENCE])
def test_against_the_reference(ref):
    h = Hexagram.parse(ref["short_name"])
    assert h.name == ref["name"]
    assert h.king_wen == ref["king_wen"]
    assert h.unicode == ref["unicode"]
    assert h.bit_string() == ref["bits"]
    assert h.palace.value == ref["palace"] and h.palace_element.value == ref["palace_element"]
    assert h.generation.value == ref["generation"]
    assert (h.shi, h.ying) == (ref["shi"], ref["ying"])
    got = [
        {"position": l.position, "stem": l.stem.value, "branch": l.branch.value, "element": l.element.value, "relative": l.relative.value}
        for l in h.lines
    ]
    assert got == ref["lines"]
    hidden = [
        {"position": x.position, "stem": x.stem.value, "branch": x.branch.value, "element": x.element.value, "relative": x.relative.value}
        for x in h.hidden
    ]
    assert hidden == ref["hidden"]


def test_reference_covers_all_64():
    assert sorted(r["king_wen"] for r in REFERENCE) == list(range(1, 65))


def test_dachu_lacks_two_relatives():
    """Issue example: 大畜 hides 父母 丙午 under line 2 and 子孙 丙申 under line 3."""
    h = Hexagram.parse("大畜")
    assert [(x.position, x.relative.value, f"{x.stem}{x.branch}") for x in h.hidden] == [
        (2, "父母", "丙午"),
        (3, "子孙", "丙申"),
    ]


@pytest.mark.parametrize("h", HEXAGRAMS, ids=lambda h: h.short_name)
def test_invariants_of_each_hexagram(h):
    assert abs(h.shi - h.ying) == 3 and {h.shi, h.ying} <= set(range(1, 7))
    present = {l.relative for l in h.lines}
    hidden = [x.relative for x in h.hidden]
    # each 六亲 is present or hidden, exactly once when hidden
    assert present | set(hidden) == set(Relative) and not present & set(hidden) and len(hidden) == len(set(hidden))
    # the 世代 is what the changed lines from the pure hexagram say
    pure = HEXAGRAMS_BY_CODE[h.palace.code | h.palace.code << 3]
    assert pure.flip(h.generation.flips) is h
    assert pure.generation is Generation.BENGONG and pure.palace is h.palace
    # 纳甲 stems: inner from the lower trigram, outer from the upper
    assert all(l.stem is h.lower.inner_stem for l in h.lines[:3])
    assert all(l.stem is h.upper.outer_stem for l in h.lines[3:])
    # every hexagram has exactly two 土 lines (each trigram carries one), so the palace's 土 六亲 is never hidden
    assert sum(l.element.value == "土" for l in h.lines) == 2


def test_eight_per_palace_and_one_palace_each():
    for palace in Trigram:
        assert sum(h.palace is palace for h in HEXAGRAMS) == 8
    assert len({h.code for h in HEXAGRAMS}) == 64


def test_all_4096_casts():
    n = 0
    for c in all_casts():
        n += 1
        ch = c.changed
        if not c.moving:
            assert ch is None and c.spec() == c.hexagram.short_name
            continue
        # 之卦 of the 之卦 gives back the 本卦
        assert Cast(ch, c.moving).changed is c.hexagram
        # exactly the moving lines differ
        assert {i + 1 for i in range(6) if (c.hexagram.code ^ ch.code) >> i & 1} == set(c.moving)
        # coin values: moving lines are 6 or 9, and 9 is a moving yang
        vals = c.values()
        assert all((v in (6, 9)) == (i + 1 in c.moving) for i, v in enumerate(vals))
        # notations round-trip
        assert Cast.parse(c.spec()) == c
        assert Cast.parse(c.coins()) == c
        assert Cast.parse(c.hexagram.bit_string(), sorted(c.moving)) == c
        assert Cast.parse(f"{c.hexagram.name}->{ch.name}") == c
    assert n == 4096


@pytest.mark.parametrize("h", HEXAGRAMS, ids=lambda h: h.short_name)
def test_name_notations_round_trip(h):
    for text in (h.short_name, h.name, h.traditional_name, h.unicode, h.bit_string(), f"kw{h.king_wen}", f"#{h.king_wen}"):
        assert Cast.parse(text).hexagram is h, text
    assert Hexagram.from_bits(h.bits) is h
    assert eval(repr(h), {"Hexagram": Hexagram}) is h


def test_the_books_notation_and_arrows():
    c = Cast.parse("离之乾")
    assert c.hexagram.short_name == "离" and c.changed.short_name == "乾" and c.moving == {2, 5}
    for arrow in ("→", "->", ">"):
        assert Cast.parse(f"离{arrow}乾") == c
    assert Cast.parse("離之乾") == c
    assert Cast.parse("101101", "2,5") == c == Cast.parse("离", [2, 5]) == Cast.parse("767767")
    assert Cast.parse("䷝→䷀") == c


def test_traditional_names():
    assert Hexagram.parse("既濟").short_name == "既济"
    assert Hexagram.parse("兌").short_name == "兑"
    assert Hexagram.parse("天山遯").short_name == "遁"
    assert Hexagram.parse("离").traditional_name == "離爲火"  # OpenCC's standard form; 臺灣 and 香港 write 為
    for typed in ("乾爲天", "乾為天", "乾", "乾卦", "離之乾", "離為火"):  # OpenCC's t2s alone reads 乾 as 干
        assert Cast.parse(typed).hexagram.short_name in ("乾", "离"), typed


@pytest.mark.parametrize(
    "spec, moving, err",
    [
        ("大", None, UnknownNameError),
        ("离之", None, NotationError),  # nothing after 之
        ("xyz", None, UnknownNameError),
        ("离之离", None, NotationError),
        ("7988", None, NotationError),  # four digits, said as such
        ("798780", None, NotationError),  # 0 among coins
        ("离", "7", NotationError),
        ("离", "0", NotationError),
        ("离", "a", NotationError),
        ("离之乾", "3", NotationError),
        ("798788", "2", NotationError),
        ("", None, NotationError),
        ("kw¹", None, UnknownNameError),  # a digit int() refuses
        ("#²", None, UnknownNameError),
    ],
)
def test_bad_specs(spec, moving, err):
    with pytest.raises(err):
        Cast.parse(spec, moving)


def test_ambiguous_prefix_lists_candidates():
    with pytest.raises(UnknownNameError) as e:
        Hexagram.parse("大")
    assert set(e.value.candidates) >= {"大有", "大畜", "大壮", "大过"}


def test_unknown_name_suggests_close_names():
    with pytest.raises(UnknownNameError) as e:
        Hexagram.parse("火水既济")
    assert "既济" in e.value.candidates or "未济" in e.value.candidates


def test_parse_moving_forms():
    assert parse_moving("2,5") == parse_moving("2 5") == parse_moving("25") == parse_moving("2，5") == {2, 5}


def test_guashen():
    # 阳世则从子月起，阴世还从午月生: 乾 世6 yang → 子 counted to 6 = 巳; 姤 世1 yin → 午
    assert Hexagram.parse("乾").guashen.value == "巳"
    assert Hexagram.parse("姤").guashen.value == "午"
    assert Hexagram.parse("坤").guashen.value == "亥"  # 世6 yin: 午 … 亥


def test_coin_strings_read_whole():
    """The coin-string fast path of Cast.parse (two bit translations and two lookups) against
    reading the values one by one, for all 4096 casts; other six-character specs go on to the
    general parser."""
    from yimao.hexagram import _parse_cast

    for c in all_casts():
        coins = "".join(str((9 if l.yang else 6) if l.position in c.moving else (7 if l.yang else 8)) for l in c.hexagram.lines)
        assert c.coins() == coins and c.values() == tuple(map(int, coins))
        parsed = _parse_cast(f" {coins} ", None)
        assert parsed == Cast.from_values(int(x) for x in coins) and type(parsed) is Cast
        assert type(parsed.moving) is frozenset
    assert _parse_cast("101101", None) == Cast(Hexagram.from_bits("101101"))
    with pytest.raises(UnknownNameError):
        _parse_cast("79878x", None)
    assert _parse_cast("７９８７８８", None) == _parse_cast("798788", None)  # full-width digits by the general parser
    for bad in ("798780", "7988889"):
        with pytest.raises(NotationError, match="mixes digits|has 7 digits"):
            _parse_cast(bad, None)


# --- hostile specs: numbers of any length, names of any length, empty values ------------------

HUGE = "1" * 4301  # one digit over Python's int-conversion limit


@pytest.mark.parametrize("spec", ["kw" + HUGE, "#" + HUGE, "KW" + "９" * 5000, "kw065", "#100", "kw0", "#65"])
def test_a_king_wen_number_of_any_length_is_bad_input(spec):
    """kw/# with more digits than 1-64 has is refused before int() (which raised ValueError over
    4,300 digits: an internal error); the message quotes it cut short."""
    for parse in (Hexagram.parse, Cast.parse):
        with pytest.raises(NotationError, match="King Wen number must be 1-64") as e:
            parse(spec)
        assert len(str(e.value)) < 200


@pytest.fixture
def no_difflib_on_long_text(monkeypatch):
    """difflib refused a text longer than a name: its comparison is quadratic in the length."""
    import difflib

    from yimao.errors import MAX_NAME

    real = difflib.get_close_matches

    def guarded(word, possibilities, *args, **kwargs):
        assert len(word) <= MAX_NAME, f"difflib asked to compare {len(word)} characters"
        return real(word, possibilities, *args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", guarded)


@pytest.mark.parametrize("spec", ["a" * 65, "a" * 900_000, "既济" * 40, "离之" + "x" * 100_000, "x" * 100_000 + "之乾", "乾" * 65])
def test_a_name_too_long_gets_no_suggestions(spec, no_difflib_on_long_text):
    with pytest.raises(UnknownNameError, match="is too long to be a name") as e:
        Cast.parse(spec)
    assert e.value.candidates == () and len(str(e.value)) < 200


def test_a_name_at_the_limit_still_gets_suggestions(no_difflib_on_long_text):
    from yimao.errors import MAX_NAME

    with pytest.raises(UnknownNameError) as e:
        Hexagram.parse("既" * MAX_NAME)
    assert "既济" in e.value.candidates and "too long" not in str(e.value)


@pytest.mark.parametrize(
    ("moving", "message"),
    [
        ("", "empty moving lines"),
        (" ", "empty moving lines"),
        (",", "empty moving lines"),
        (" ， ", "empty moving lines"),
        ("\t\n", "empty moving lines"),
        ("1111111", "at most six"),
        (HUGE, "at most six"),
        ("1,2,3,4,5,6,1", "at most six"),
        ("2,2", "line 2 given twice"),
        ("22", "line 2 given twice"),
        ("2 5 2 5", "lines 2,5 given twice"),
        ("2," + HUGE, "must be numbers 1-6"),
        ("12,3", "must be numbers 1-6"),
        ("¹", "must be numbers 1-6"),
        ("a", "must be numbers 1-6"),
        ("0", "must be 1-6"),
        ("7", "must be 1-6"),
        ((2, 2), "given twice"),
        ((0, 9), "must be 1-6"),
    ],
)
def test_bad_moving_lines(moving, message):
    with pytest.raises(NotationError, match=message) as e:
        parse_moving(moving)
    assert len(str(e.value)) < 200
    with pytest.raises(NotationError, match=message):  # the same through a cast, by name or by bits
        Cast.parse("乾", moving)


def test_moving_lines_in_every_form_still_read():
    assert (
        parse_moving("２,５")
        == parse_moving(" 5 2 ")
        == parse_moving("2\t5")
        == parse_moving(",2,,5,")
        == parse_moving("1,2,3,4,5,6") - {1, 3, 4, 6}
        == {2, 5}
    )
    assert parse_moving("123456") == parse_moving((6, 5, 4, 3, 2, 1)) == frozenset(range(1, 7))
    assert Cast.parse("乾", "2,5").spec() == Cast.parse("乾", [2, 5]).spec() == Cast.parse("111111", "５２").spec() == "乾之离"
