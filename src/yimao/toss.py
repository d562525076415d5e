"""Throws of three coins (摇卦, 金钱卦): one line's value a throw, how it was written, and how a
cast was obtained. Parse/print pairs, as every notation of yimao:

    Throw.parse("背字字")            -> Throw(7, "背字字")     少阳, faces seen
    Throw.parse("正正反")            -> Throw(7, "背字字")     正 is 字, 反 is 背
    Throw.parse("少阳"), ("单"), ("7") -> Throw(7, None)       the value alone
    str(Throw(7, "背字字"))          -> "背字字";  str(Throw(7, None)) -> "7"
    parse_throws("7 背背背 8")       -> three throws;  print_throws(them) -> "7 背背背 8"

The coins are counted by the common 金钱卦 convention (not volume 6's, which takes the cast as
given): 字, the inscribed face, counts 2, and 背, the plain back, 3; a line is the sum of three.
Three 背 make 9 老阳 (重 ○, moving), three 字 6 老阴 (交 ×, moving), one 背 7 少阳 (单), two 背
8 少阴 (拆). 正 and 反 are read as 字 and 背 (the inscribed face is a coin's 正面): a convention,
stated in docs/conventions.md. Tossing takes its randomness as an argument (`toss`), so that
this module stays a function of its inputs.
"""

# No `from __future__ import annotations` here: typing.NamedTuple compiles each string field
# annotation at class creation (see hexagram.py).
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from yimao.errors import NotationError, shown
from yimao.hexagram import Cast

LINE_NAMES = ("初爻", "二爻", "三爻", "四爻", "五爻", "上爻")  # bottom first: a cast is thrown from 初爻 up
VALUE_NAMES = {6: "老阴", 7: "少阳", 8: "少阴", 9: "老阳"}
FACES = {6: "字字字", 7: "背字字", 8: "背背字", 9: "背背背"}  # each value's coins, 背 first
HOW = ("given", "entered", "tossed")  # how a cast was obtained: --hex, typed throws, yimao's coins

# Each face's count (字 2, 背 3), with 正 and 反 read as 字 and 背.
_FACE_COUNT = {"字": 2, "正": 2, "背": 3, "反": 3}
# The names of a line's value: the book's 老阴 … 老阳 (traditional 陰 陽 too) and the marks of
# the 金钱卦 tradition, 交 单 拆 重 (單 traditional).
_NAMES = {
    **{name: v for v, name in VALUE_NAMES.items()},
    **{"老陰": 6, "少陽": 7, "少陰": 8, "老陽": 9},
    **{"交": 6, "单": 7, "單": 7, "拆": 8, "重": 9},
}
_DIGITS = str.maketrans("６７８９", "6789")  # full-width digits, as a Chinese input method types them
_SEPARATORS = str.maketrans(",，、;；", "     ")


class Throw(NamedTuple):
    """One line's throw: its value 6-9 and, when the coins were seen, their faces (`FACES`)."""

    value: int
    faces: str | None = None

    @property
    def name(self) -> str:
        return VALUE_NAMES[self.value]

    @property
    def moving(self) -> bool:
        return self.value in (6, 9)

    @property
    def yang(self) -> bool:
        return self.value in (7, 9)

    def __str__(self) -> str:
        """The throw as written back: its faces when seen, else its digit (`Throw.parse` reads both)."""
        return self.faces or str(self.value)

    @staticmethod
    def parse(text: str) -> "Throw":
        """A throw from one of its spellings: a digit 6-9 (ASCII or full-width), three coin faces
        (字/背, 正/反, in any order), a name 老阴 少阳 少阴 老阳, or a mark 交 单 拆 重."""
        s = text.strip().translate(_DIGITS)
        if s in ("6", "7", "8", "9"):
            return Throw(int(s))
        if len(s) == 3 and all(c in _FACE_COUNT for c in s):
            value = sum(_FACE_COUNT[c] for c in s)
            return Throw(value, FACES[value])
        if s in _NAMES:
            return Throw(_NAMES[s])
        raise NotationError(
            f"not a throw: {shown(text)}: a line is 6, 7, 8 or 9, three coins as 背字字 (字 2, 背 3; 正 is 字, 反 is 背), "
            "老阴 少阳 少阴 老阳, or 交 单 拆 重",
            text,
        )


def parse_throws(text: str) -> tuple[Throw, ...]:
    """Throws in order, bottom first, separated by spaces, commas or 、 (`7 背背背 8`); a run of
    digits is a throw a digit (`798788`)."""
    throws: list[Throw] = []
    for word in text.translate(_SEPARATORS).split():
        digits = word.translate(_DIGITS)
        if len(digits) > 1 and digits.isascii() and digits.isdigit():
            throws.extend(Throw.parse(d) for d in digits)
        else:
            throws.append(Throw.parse(word))
    return tuple(throws)


def print_throws(throws: Iterable[Throw]) -> str:
    """The throws as `parse_throws` reads them back: each as written back, one space apart."""
    return " ".join(map(str, throws))


def cast_of(throws: Sequence[Throw]) -> Cast:
    """The cast six throws make, 初爻 first (6 and 9 move)."""
    return Cast.from_values(t.value for t in throws)


def toss(randbelow: Callable[[int], int]) -> Throw:
    """One line thrown with three coins, each 背 when `randbelow(2)` gives 1 (the caller passes
    `secrets.randbelow`: the operating system's randomness, which no seed can repeat)."""
    backs = sum(randbelow(2) for _ in range(3))
    value = 6 + backs  # 字 2 each, 背 one more
    return Throw(value, FACES[value])


# A line drawn as render.YANG and render.YIN draw it (a test keeps them alike): here, so that a
# toss with --json prints its throws without loading Rich.
YANG_LINE = "▅▅▅▅▅"
YIN_LINE = "▅▅ ▅▅"


def row(position: int, throw: Throw) -> str:
    """One throw as a line of text for stderr: `初爻  背字字  7 少阳  ▅▅▅▅▅`, the faces blank when
    not seen, a moving line's ○ or × last (an ambiguous width there shifts no column)."""
    faces = throw.faces or " " * 6  # three wide characters
    mark = " ○" if throw.value == 9 else " ×" if throw.value == 6 else ""
    return f"{LINE_NAMES[position - 1]}  {faces}  {throw.value} {throw.name}  {YANG_LINE if throw.yang else YIN_LINE}{mark}"


def figure(throws: Sequence[Throw]) -> list[str]:
    """The throws so far as rows, the top line first, as books draw a hexagram."""
    return [row(i + 1, t) for i, t in reversed(list(enumerate(throws)))]


def entry_step(throws: tuple[Throw, ...], text: str) -> tuple[Throw, ...]:
    """The throws after one line typed at the prompt: `u` takes back the last, a blank line
    changes nothing (an Enter pressed twice loses no throw), anything else adds its throws; a
    `NotationError` for a line that is no throw or would make more than six."""
    s = text.strip()
    if s.lower() in ("u", "undo") or s in ("撤", "撤回"):
        if not throws:
            raise NotationError("no throw to take back yet", s)
        return throws[:-1]
    if not s:
        return throws
    more = parse_throws(s)
    if len(throws) + len(more) > 6:
        raise NotationError(f"a cast is six throws: {len(throws)} entered, {len(more)} more is too many", s, ("u",))
    return throws + more


class Obtained(NamedTuple):
    """How a cast was obtained (`HOW`) and, when thrown or typed, its six throws, bottom first."""

    how: str
    throws: tuple[Throw, ...] | None = None


GIVEN = Obtained("given")


def obtained_of(how: str | None, throws: str | None, cast: Cast) -> Obtained:
    """How a request says its cast was obtained, checked against the cast itself: `entered` and
    `tossed` with their six throws, which must make `cast`; `tossed` throws are coins seen."""
    if how is None and throws is None:
        return GIVEN
    if how not in HOW:
        raise NotationError(f"unknown obtained {shown(how)}: given, entered or tossed", how, HOW)
    if how == "given":
        if throws is not None:
            raise NotationError("throws go with obtained entered or tossed, not given", throws, ("entered", "tossed"))
        return GIVEN
    if throws is None:
        raise NotationError(f"obtained {how!r} needs its six throws, bottom first: 7 背背背 8 …", None, ("throws",))
    parsed = parse_throws(throws)
    if len(parsed) != 6:
        raise NotationError(f"six throws make a cast, bottom first; {shown(throws)} has {len(parsed)}", throws)
    if how == "tossed" and any(t.faces is None for t in parsed):
        raise NotationError(f"tossed throws are the faces of the coins thrown (背字字), got {shown(throws)}", throws, ("entered",))
    made = cast_of(parsed)
    if made != cast:
        raise NotationError(
            f"the throws {shown(throws)} make {made.spec()} ({made.coins()}), not the cast given, {cast.spec()}", throws, (made.coins(),)
        )
    return Obtained(how, parsed)
