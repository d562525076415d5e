"""The throw notation (toss.py): every spelling of a line's throw, its round trips, the six throws
of a cast, the prompt's steps, tossing, and how a request says its cast was obtained."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yimao.errors import NotationError
from yimao.hexagram import Cast
from yimao.toss import (
    FACES,
    GIVEN,
    LINE_NAMES,
    Obtained,
    Throw,
    cast_of,
    entry_step,
    figure,
    obtained_of,
    parse_throws,
    print_throws,
    row,
    toss,
)

# The 金钱卦 count, written out here rather than derived: 字 2, 背 3, a line the sum of three.
BY_BACKS = {0: 6, 1: 7, 2: 8, 3: 9}


def test_the_coins_count_as_the_convention_says():
    assert Throw.parse("背背背") == Throw(9, "背背背")  # 重, 老阳
    assert Throw.parse("字字字") == Throw(6, "字字字")  # 交, 老阴
    assert Throw.parse("背字字").value == 7  # one 背: 单, 少阳
    assert Throw.parse("背背字").value == 8  # two 背: 拆, 少阴
    for faces in itertools.product("字背", repeat=3):
        assert Throw.parse("".join(faces)).value == BY_BACKS[faces.count("背")]


def test_every_spelling_of_each_value():
    spellings = {
        6: ["6", "６", "字字字", "正正正", "老阴", "老陰", "交"],
        7: ["7", "７", "背字字", "字背字", "字字背", "正正反", "反正正", "少阳", "少陽", "单", "單"],
        8: ["8", "８", "背背字", "字背背", "正反反", "少阴", "少陰", "拆"],
        9: ["9", "９", "背背背", "反反反", "反背反", "老阳", "老陽", "重"],
    }
    for value, texts in spellings.items():
        for text in texts:
            throw = Throw.parse(f" {text} ")
            assert throw.value == value, text
            assert throw.faces == (FACES[value] if len(text) == 3 else None), text  # faces when the coins were given


def test_the_names_of_a_throw():
    assert [(Throw(v).name, Throw(v).moving, Throw(v).yang) for v in (6, 7, 8, 9)] == [
        ("老阴", True, False),
        ("少阳", False, True),
        ("少阴", False, False),
        ("老阳", True, True),
    ]


@pytest.mark.parametrize("text", ["", " ", "5", "0", "66", "字字", "字字字字", "背背x", "阴", "阳", "老", "u", "1", "¹", "o", "x", "○", "×"])
def test_what_is_no_throw_is_said_with_the_forms(text):
    with pytest.raises(NotationError) as e:
        Throw.parse(text)
    message = str(e.value)
    assert "not a throw" in message and "背字字" in message and "老阴" in message and "交 单 拆 重" in message


THROWS = st.builds(lambda v, seen: Throw(v, FACES[v] if seen else None), st.sampled_from((6, 7, 8, 9)), st.booleans())


@given(THROWS)
def test_a_throw_round_trips(throw):
    assert Throw.parse(str(throw)) == throw


@given(st.sampled_from(["6", "７", "字背字", "正正反", "反反反", "老陰", "少阳", "单", "拆", "重", "交"]))
def test_a_throw_printed_is_its_canonical_spelling(text):
    printed = str(Throw.parse(text))
    assert printed in ("6", "7", "8", "9", *FACES.values())
    assert str(Throw.parse(printed)) == printed


@given(st.lists(THROWS, max_size=12))
def test_throws_round_trip(throws):
    assert parse_throws(print_throws(throws)) == tuple(throws)


def test_throws_are_separated_as_typed():
    want = (Throw(7), Throw(9, "背背背"), Throw(8), Throw(7), Throw(8, "背背字"), Throw(6))
    for text in ("7 背背背 8 7 背背字 6", "7,背背背,8，7、背背字;6", "  7  背背背\t8 7 背背字 交", "7 反反反 8 单 背字背 老阴"):
        assert parse_throws(text) == want, text
    assert parse_throws("798788") == tuple(Throw(int(d)) for d in "798788")  # a run of digits: one throw a digit
    assert parse_throws("７９８") == (Throw(7), Throw(9), Throw(8))
    assert print_throws(want) == "7 背背背 8 7 背背字 6"
    with pytest.raises(NotationError):
        parse_throws("7 9 5")


def test_six_throws_make_the_cast_their_values_say():
    throws = parse_throws("7 9 8 7 8 8")
    assert cast_of(throws) == Cast.parse("798788") and cast_of(throws).spec() == "归妹之震"
    for values in itertools.product((6, 7, 8, 9), repeat=3):  # a sample of the 4,096 casts
        six = tuple(Throw(v) for v in values * 2)
        assert cast_of(six).coins() == "".join(map(str, values * 2))


def test_a_toss_is_three_coins_of_the_randomness_given():
    def coins_of(faces: tuple[int, ...], asked: list[int]):
        it = iter(faces)
        return lambda n: asked.append(n) or next(it)

    for coins in itertools.product((0, 1), repeat=3):
        asked: list[int] = []
        throw = toss(coins_of(coins, asked))
        assert asked == [2, 2, 2]  # one draw of two faces a coin
        assert throw == Throw(BY_BACKS[sum(coins)], FACES[BY_BACKS[sum(coins)]])  # 1 is 背


def test_a_throw_as_a_row_and_the_figure_top_first():
    from yimao.render import YANG, YIN
    from yimao.toss import YANG_LINE, YIN_LINE

    assert (YANG_LINE, YIN_LINE) == (YANG, YIN)  # drawn as the chart draws its lines
    assert row(1, Throw(8, "背背字")) == "初爻  背背字  8 少阴  ▅▅ ▅▅"
    assert row(2, Throw(9)) == "二爻          9 老阳  ▅▅▅▅▅ ○"
    assert row(6, Throw(6, "字字字")) == "上爻  字字字  6 老阴  ▅▅ ▅▅ ×"
    rows = figure(parse_throws("7 9 8"))
    assert [r[:2] for r in rows] == ["三爻", "二爻", "初爻"]
    assert LINE_NAMES[0] == "初爻" and LINE_NAMES[5] == "上爻"


def test_the_prompt_adds_takes_back_and_refuses():
    assert entry_step((), "7") == (Throw(7),)
    assert entry_step((Throw(7),), "背背背 8") == (Throw(7), Throw(9, "背背背"), Throw(8))
    assert entry_step((Throw(7), Throw(8)), "u") == (Throw(7),)
    assert entry_step((Throw(7), Throw(8)), " U ") == (Throw(7),)
    assert entry_step((Throw(7),), "") == (Throw(7),)  # an Enter too many takes nothing back
    assert entry_step((), "798788") == tuple(Throw(int(d)) for d in "798788")
    with pytest.raises(NotationError, match="no throw to take back"):
        entry_step((), "u")
    with pytest.raises(NotationError, match="six throws"):
        entry_step(tuple(Throw(7) for _ in range(5)), "7 8")
    with pytest.raises(NotationError, match="not a throw"):
        entry_step((), "5")


LIZHIQIAN = Cast.parse("离之乾")


def test_how_a_request_says_its_cast_was_obtained():
    assert obtained_of(None, None, LIZHIQIAN) is GIVEN and GIVEN == Obtained("given", None)
    assert obtained_of("given", None, LIZHIQIAN) is GIVEN
    entered = obtained_of("entered", "7 6 7 7 6 7", LIZHIQIAN)
    assert entered == Obtained("entered", parse_throws("7 6 7 7 6 7"))
    tossed = obtained_of("tossed", "背字字 字字字 背字字 背字字 字字字 背字字", LIZHIQIAN)
    assert tossed.how == "tossed" and all(t.faces for t in tossed.throws or ())


@pytest.mark.parametrize(
    "how, throws, says",
    [
        ("thrown", "7 6 7 7 6 7", "unknown obtained"),
        ("given", "7 6 7 7 6 7", "not given"),
        (None, "7 6 7 7 6 7", "unknown obtained"),
        ("entered", None, "needs its six throws"),
        ("entered", "7 9 6 7 9", "has 5"),
        ("entered", "7 6 7 7 6 7 7", "has 7"),
        ("entered", "7 6 7 7 6 5", "not a throw"),
        ("entered", "7 7 7 7 7 7", "make 乾 (777777), not the cast given, 离之乾"),
        ("tossed", "7 6 7 7 6 7", "faces of the coins"),
    ],
)
def test_a_request_s_throws_are_checked(how, throws, says):
    with pytest.raises(NotationError, match=says.replace("(", r"\(").replace(")", r"\)")):
        obtained_of(how, throws, LIZHIQIAN)
