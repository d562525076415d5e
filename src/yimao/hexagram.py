"""The 64 hexagrams, their notations, and the 京房 纳甲 chart of each.

Line positions run 1 (初爻, bottom) to 6 (上爻) everywhere. Bits and coin strings list the
bottom line first. Every notation is a parse/print pair:

    Hexagram.parse("既济").name           -> "水火既济"
    Cast.parse("离之乾").spec()            -> "离之乾"
    Cast.parse("798788").coins()           -> "798788"
    Cast.parse("101101", moving=(2, 5))    -> the same cast as "离之乾"

All 64 hexagrams are built once at import; `Hexagram` values are shared and immutable.
"""

# No `from __future__ import annotations` here: typing.NamedTuple compiles each string field
# annotation at class creation, a cost every start of the program would pay.
from collections.abc import Iterable
from enum import Enum
from functools import cache, lru_cache
from typing import NamedTuple

from yimao.errors import NotationError, UnknownNameError, closest, name_too_long, shown, small_int, too_long_to_be_a_name
from yimao.ganzhi import Branch, Element, Stem
from yimao.hanzi import to_simplified, to_traditional

# By character: a plain dict, where `Branch("子")` would go through the slow EnumType.__call__.
_STEM = {s.value: s for s in Stem}
_BRANCH = {b.value: b for b in Branch}


class Trigram(Enum):
    """The eight trigrams with their 纳甲.

    纳甲 (京房): "乾内甲外壬, 坤内乙外癸, 震庚, 巽辛, 坎戊, 离己, 艮丙, 兑丁"; branches of the
    inner (lower) and outer (upper) three lines, bottom first: 乾 子寅辰/午申戌, 坤 未巳卯/丑亥酉,
    震 子寅辰/午申戌, 巽 丑亥酉/未巳卯, 坎 寅辰午/申戌子, 离 卯丑亥/酉未巳, 艮 辰午申/戌子寅,
    兑 巳卯丑/亥酉未.
    """

    # Attributes of each member (annotations only: not members), set in __new__.
    bits: tuple[bool, ...]
    code: int
    image: str
    element: Element
    inner_stem: Stem
    outer_stem: Stem
    inner_branches: tuple[Branch, ...]
    outer_branches: tuple[Branch, ...]
    direction_branches: tuple[Branch, ...]
    pinyin: str

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    def __new__(
        cls, char: str, bits: str, image: str, element: Element, stems: str, inner: str, outer: str, direction_branches: str, pinyin: str
    ) -> "Trigram":
        obj = object.__new__(cls)
        obj._value_ = char
        obj.bits = tuple(c == "1" for c in bits)  # bottom line first
        obj.code = sum(1 << i for i, c in enumerate(bits) if c == "1")
        obj.image = image
        obj.element = element
        obj.inner_stem, obj.outer_stem = _STEM[stems[0]], _STEM[stems[1]]
        obj.inner_branches = tuple(_BRANCH[b] for b in inner)
        obj.outer_branches = tuple(_BRANCH[b] for b in outer)
        # the branches of the trigram's direction (坎子, 艮丑寅, 震卯, 巽辰巳, 离午, 坤未申, 兑酉, 乾戌亥)
        obj.direction_branches = tuple(_BRANCH[b] for b in direction_branches)
        obj.pinyin = pinyin
        return obj

    QIAN = ("乾", "111", "天", Element.JIN, "甲壬", "子寅辰", "午申戌", "戌亥", "qian")
    DUI = ("兑", "110", "泽", Element.JIN, "丁丁", "巳卯丑", "亥酉未", "酉", "dui")
    LI = ("离", "101", "火", Element.HUO, "己己", "卯丑亥", "酉未巳", "午", "li")
    ZHEN = ("震", "100", "雷", Element.MU, "庚庚", "子寅辰", "午申戌", "卯", "zhen")
    XUN = ("巽", "011", "风", Element.MU, "辛辛", "丑亥酉", "未巳卯", "辰巳", "xun")
    KAN = ("坎", "010", "水", Element.SHUI, "戊戊", "寅辰午", "申戌子", "子", "kan")
    GEN = ("艮", "001", "山", Element.TU, "丙丙", "辰午申", "戌子寅", "丑寅", "gen")
    KUN = ("坤", "000", "地", Element.TU, "乙癸", "未巳卯", "丑亥酉", "未申", "kun")

    def __str__(self) -> str:
        return self._value_  # .value is a Python-level property


_TRIGRAM_BY_CODE = {t.code: t for t in Trigram}


class Relative(Enum):
    """六亲, of a line's element against the palace's: 生我 父母, 同我 兄弟, 克我 官鬼, 我克 妻财, 我生 子孙."""

    short: str  # 父, 兄, 官, 财, 孙

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    def __new__(cls, char: str, short: str) -> "Relative":
        obj = object.__new__(cls)
        obj._value_ = char
        obj.short = short
        return obj

    FUMU = ("父母", "父")
    XIONGDI = ("兄弟", "兄")
    GUANGUI = ("官鬼", "官")
    QICAI = ("妻财", "财")
    ZISUN = ("子孙", "孙")

    def __str__(self) -> str:
        return self._value_  # .value is a Python-level property

    @staticmethod
    def of(element: Element, palace: Element) -> "Relative":
        # module constants, not Relative.XIONGDI …: an enum's class attribute is a slow lookup
        if element is palace:
            return _XIONGDI
        if element.generates is palace:
            return _FUMU
        if element.overcomes is palace:
            return _GUANGUI
        if palace.overcomes is element:
            return _QICAI
        return _ZISUN

    def element_in(self, palace: Element) -> Element:
        """The element that bears this 六亲 in a palace of element `palace`."""
        return {
            Relative.XIONGDI: palace,
            Relative.FUMU: palace.generated_by,
            Relative.GUANGUI: palace.overcome_by,
            Relative.QICAI: palace.overcomes,
            Relative.ZISUN: palace.generates,
        }[self]

    @classmethod
    def parse(cls, text: str) -> "Relative":
        t = text.strip()
        found = _RELATIVE_ALIASES.get(t) or _RELATIVE_ALIASES.get(to_simplified(t))  # 妻財 is 妻财
        if found is not None:
            return found
        raise UnknownNameError(f"not a 六亲: {shown(text)}", text, ("官鬼", "妻财", "父母", "兄弟", "子孙"))


_FUMU, _XIONGDI, _GUANGUI, _QICAI, _ZISUN = Relative
_RELATIVE_BY_NAME = {r._value_: r for r in Relative}
_RELATIVE_ALIASES = {
    name: _RELATIVE_BY_NAME[full]
    for name, full in {
        "官鬼": "官鬼",
        "官": "官鬼",
        "鬼": "官鬼",
        "妻财": "妻财",
        "财": "妻财",
        "妻": "妻财",
        "父母": "父母",
        "父": "父母",
        "兄弟": "兄弟",
        "兄": "兄弟",
        "子孙": "子孙",
        "子": "子孙",
        "孙": "子孙",
    }.items()
}


class Generation(Enum):
    """世代 within a palace, with the 世 line it places: 本宫 6, 一世 … 五世 1-5, 游魂 4, 归魂 3."""

    shi: int
    flips: tuple[int, ...]

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    def __new__(cls, char: str, shi: int, flips: tuple[int, ...]) -> "Generation":
        obj = object.__new__(cls)
        obj._value_ = char
        obj.shi = shi
        obj.flips = flips  # lines of the pure hexagram changed to reach this generation
        return obj

    BENGONG = ("本宫", 6, ())
    YISHI = ("一世", 1, (1,))
    ERSHI = ("二世", 2, (1, 2))
    SANSHI = ("三世", 3, (1, 2, 3))
    SISHI = ("四世", 4, (1, 2, 3, 4))
    WUSHI = ("五世", 5, (1, 2, 3, 4, 5))
    YOUHUN = ("游魂", 4, (1, 2, 3, 5))
    GUIHUN = ("归魂", 3, (5,))

    def __str__(self) -> str:
        return self._value_  # .value is a Python-level property


class Line(NamedTuple):
    """A line of the 纳甲 chart: position 1-6, yin/yang, 干支 and 六亲 (against its palace)."""

    position: int
    yang: bool
    stem: Stem
    branch: Branch
    relative: Relative

    @property
    def element(self) -> Element:
        return self.branch.element


class HiddenLine(NamedTuple):
    """伏神: a 六亲 the hexagram lacks, taken from the palace's pure hexagram at `position`."""

    position: int
    stem: Stem
    branch: Branch
    relative: Relative

    @property
    def element(self) -> Element:
        return self.branch.element


# King Wen numbers by (upper, lower): rows upper 乾 震 坎 艮 坤 巽 离 兑, columns lower in the same order.
_KW_ORDER = (Trigram.QIAN, Trigram.ZHEN, Trigram.KAN, Trigram.GEN, Trigram.KUN, Trigram.XUN, Trigram.LI, Trigram.DUI)
_KW_GRID = (
    (1, 25, 6, 33, 12, 44, 13, 10),
    (34, 51, 40, 62, 16, 32, 55, 54),
    (5, 3, 29, 39, 8, 48, 63, 60),
    (26, 27, 4, 52, 23, 18, 22, 41),
    (11, 24, 7, 15, 2, 46, 36, 19),
    (9, 42, 59, 53, 20, 57, 37, 61),
    (14, 21, 64, 56, 35, 50, 30, 38),
    (43, 17, 47, 31, 45, 28, 49, 58),
)
# Short names in King Wen order 1-64.
_SHORT_NAMES = (
    "乾 坤 屯 蒙 需 讼 师 比 小畜 履 泰 否 同人 大有 谦 豫 随 蛊 临 观 噬嗑 贲 剥 复 无妄 大畜 颐 大过 坎 离 "
    "咸 恒 遁 大壮 晋 明夷 家人 睽 蹇 解 损 益 夬 姤 萃 升 困 井 革 鼎 震 艮 渐 归妹 丰 旅 巽 兑 涣 节 中孚 小过 "
    "既济 未济"
).split()


class _HexagramFields(NamedTuple):
    code: int  # bit i (0-based) set when line i+1 is yang
    lower: Trigram
    upper: Trigram
    king_wen: int
    short_name: str
    name: str
    palace: Trigram
    generation: Generation
    lines: tuple[Line, ...]
    hidden: tuple[HiddenLine, ...]


class Hexagram(_HexagramFields):
    """One of the 64 hexagrams with its 八宫 place and 纳甲 chart. Built once; compare by identity."""

    __slots__ = ()

    # The 64 values are built once and never copied: identity is equality, and hashing stays
    # O(1) (these are cache keys) instead of hashing every line.
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__

    # -- derived ------------------------------------------------------------------------
    @property
    def bits(self) -> tuple[bool, ...]:
        return tuple(bool(self.code >> i & 1) for i in range(6))

    @property
    def palace_element(self) -> Element:
        return self.palace.element

    @property
    def shi(self) -> int:
        return self.generation.shi

    @property
    def ying(self) -> int:
        return (self.generation.shi + 2) % 6 + 1

    @property
    def unicode(self) -> str:
        """The Unicode hexagram symbol (U+4DC0 ䷀ is 乾, in King Wen order)."""
        return chr(0x4DC0 + self.king_wen - 1)

    @property
    def traditional_name(self) -> str:
        return to_traditional(self.name)

    @property
    def guashen(self) -> Branch:
        """卦身 (月卦身): "阳世则从子月起，阴世还从午月生", counted from 初爻 up to the 世 line.

        The book itself says of 助鬼伤身 "世亦称身，实世而非身也": there 身 means the 世 line.
        """
        start = Branch.ZI if self.lines[self.shi - 1].yang else Branch.WU
        return start.shift(self.shi - 1)

    def bit_string(self) -> str:
        return "".join("1" if b else "0" for b in self.bits)

    @property
    def nuclear(self) -> "Hexagram":
        """互卦: lines 2-4 as its lower trigram and 3-5 as its upper (二三四为下互，三四五为上互)."""
        b = self.bits
        return Hexagram.from_bits((*b[1:4], *b[2:5]))

    def flip(self, positions: Iterable[int]) -> "Hexagram":
        code = self.code
        for p in positions:
            code ^= 1 << (p - 1)
        return HEXAGRAMS_BY_CODE[code]

    def __repr__(self) -> str:
        return f"Hexagram.parse({self.short_name!r})"

    def __str__(self) -> str:
        return self.short_name

    # -- notation ------------------------------------------------------------------------
    @staticmethod
    def from_bits(bits: str | Iterable[bool]) -> "Hexagram":
        """'101101' (bottom line first) or an iterable of six booleans."""
        raw = bits
        if isinstance(bits, str):
            s = bits.strip()
            if len(s) != 6 or set(s) - {"0", "1"}:
                raise NotationError(f"six bits expected, bottom line first, e.g. 101101: {shown(raw)}", raw)
            bits = (c == "1" for c in s)
        values = tuple(bits)
        if len(values) != 6:
            raise NotationError(f"six lines expected, got {len(values)}", raw)
        return HEXAGRAMS_BY_CODE[sum(1 << i for i, b in enumerate(values) if b)]

    @staticmethod
    def from_king_wen(n: int) -> "Hexagram":
        if not 1 <= n <= 64:
            raise NotationError(f"King Wen number must be 1-64, got {n}", n)
        return HEXAGRAMS_BY_KING_WEN[n - 1]

    @staticmethod
    def parse(text: str) -> "Hexagram":
        """A hexagram by name: short 既济, full 水火既济, traditional 既濟, Unicode ䷾, or kw63 / #63."""
        raw = text
        t = text.strip()
        found = _named(t) or (None if t.isascii() else _named(t := to_simplified(t)))  # 既濟 is 既济
        if found is not None:
            return found
        low = t.lower()
        for prefix in ("kw", "#"):
            number = low[len(prefix) :]
            if low.startswith(prefix) and number.isdecimal():
                n = small_int(number, 2)
                if n is None:
                    raise NotationError(f"King Wen number must be 1-64 (kw1 … kw64, #1 … #64), got {shown(number)}", raw)
                return Hexagram.from_king_wen(n)
        if too_long_to_be_a_name(t):
            raise UnknownNameError(name_too_long("hexagram", raw), raw)
        raise UnknownNameError(f"unknown hexagram: {raw!r}", raw, _suggest(t))


def _named(t: str) -> "Hexagram | None":
    """The hexagram a name means as written (既济, 既济卦), or None."""
    by_name = _by_name()
    return by_name.get(t) or (by_name.get(t[:-1]) if t.endswith("卦") else None)


@lru_cache(maxsize=256)  # a batch may repeat a bad name many times; difflib is slow
def _suggest(t: str) -> tuple[str, ...]:
    if not t:
        return ("乾", "坤", "离", "既济")
    starts = [h.short_name for h in HEXAGRAMS_BY_KING_WEN if h.short_name.startswith(t) or h.name.startswith(t)]
    if starts:
        return tuple(dict.fromkeys(starts))[:8]
    contains = [h.short_name for h in HEXAGRAMS_BY_KING_WEN if any(c in h.name for c in t)]
    close = closest(t, _by_name(), 5, 0.3)
    names = [_by_name()[c].short_name for c in close] + contains
    return tuple(dict.fromkeys(names))[:8] or ("乾", "坤", "离", "既济")


def _build() -> tuple[dict[int, Hexagram], tuple[Hexagram, ...]]:
    place: dict[int, tuple[Trigram, Generation]] = {}
    for palace in Trigram:
        pure = palace.code | palace.code << 3
        for gen in Generation:
            code = pure
            for p in gen.flips:
                code ^= 1 << (p - 1)
            place[code] = (palace, gen)
    assert len(place) == 64
    relative = {(e, p): Relative.of(e, p) for e in Element for p in Element}
    lines_of: dict[int, tuple[Line, ...]] = {}
    for code in range(64):
        lower, upper = _TRIGRAM_BY_CODE[code & 7], _TRIGRAM_BY_CODE[code >> 3]
        pe = place[code][0].element
        stems = (lower.inner_stem,) * 3 + (upper.outer_stem,) * 3
        branches = lower.inner_branches + upper.outer_branches
        lines_of[code] = tuple(Line(i + 1, bool(code >> i & 1), stems[i], branches[i], relative[branches[i].element, pe]) for i in range(6))
    by_code: dict[int, Hexagram] = {}
    for code in range(64):
        lower, upper = _TRIGRAM_BY_CODE[code & 7], _TRIGRAM_BY_CODE[code >> 3]
        palace, gen = place[code]
        kw = _KW_GRID[_KW_ORDER.index(upper)][_KW_ORDER.index(lower)]
        short = _SHORT_NAMES[kw - 1]
        full = f"{upper.value}为{upper.image}" if upper is lower else f"{upper.image}{lower.image}{short}"
        lines = lines_of[code]
        # 伏神: every 六亲 missing from the lines, from the pure hexagram of the palace, same position.
        present = {line.relative for line in lines}
        hidden = tuple(
            HiddenLine(pl.position, pl.stem, pl.branch, pl.relative) for pl in lines_of[palace.code | palace.code << 3] if pl.relative not in present
        )
        by_code[code] = Hexagram(code, lower, upper, kw, short, full, palace, gen, lines, hidden)
    by_kw = tuple(sorted(by_code.values(), key=lambda h: h.king_wen))
    return by_code, by_kw


HEXAGRAMS_BY_CODE, HEXAGRAMS_BY_KING_WEN = _build()
HEXAGRAMS = HEXAGRAMS_BY_KING_WEN


@cache
def _by_name() -> dict[str, Hexagram]:
    """Every name a hexagram is parsed by (built on the first name parsed: coin strings need none)."""
    by_name: dict[str, Hexagram] = {}
    for h in HEXAGRAMS:
        for n in (h.short_name, h.name, h.unicode):
            by_name[n] = h
        by_name[h.short_name + "卦"] = h
    # the book writes 遯 and 遁 alike; common alternatives
    by_name["遯"] = by_name["遁"]
    return by_name


# --- a cast: a hexagram and its moving lines ------------------------------------------------

# The book's 之 and what practitioners write for it: 离变乾, 离化乾 (變 in traditional), arrows.
_ARROWS = ("之", "变", "化", "變", "->", "→", "=>", ">", "⇒")
# What may stand between the six values of a cast: 7,6,7,7,6,7 or 7 6 7 7 6 7 (、 and full-width
# commas as typed in Chinese); full-width digits (７６７７６７, from a Chinese input method) are
# read as the digits they are.
_SEPARATORS = str.maketrans("０１２３４５６７８９", "0123456789", " ,，、\t")


class _CastFields(NamedTuple):
    hexagram: Hexagram
    moving: frozenset[int] = frozenset()


class Cast(_CastFields):
    """A hexagram and its moving lines (老阳 9 and 老阴 6).

    An immutable (hexagram, moving) pair; the subclass exists to check the moving lines.
    """

    __slots__ = ()

    def __new__(cls, hexagram: Hexagram, moving: frozenset[int] = frozenset()) -> "Cast":
        bad = sorted(p for p in moving if not (isinstance(p, int) and 1 <= p <= 6))
        if bad:
            raise NotationError(f"moving lines must be 1-6 (bottom = 1), got {bad}", bad, ("1", "2", "3", "4", "5", "6"))
        # one of the 64 shared sets (`_MOVING_SETS`): a batch keeps thousands of casts
        return tuple.__new__(cls, (hexagram, _SHARED_MOVING[frozenset(moving)]))

    @property
    def changed(self) -> Hexagram | None:
        """之卦, or None when no line moves."""
        h, moving = self
        if not moving:
            return None
        mask = _MASKS.get(moving)  # a plain lookup: the property is read many times per chart
        return _flipped(h, moving) if mask is None else _BY_CODE[h.code ^ mask]

    def values(self) -> tuple[int, ...]:
        """Coin values bottom first: 6 老阴 (moving), 7 少阳, 8 少阴, 9 老阳 (moving)."""
        moving = self.moving
        return tuple([(9 if line.yang else 6) if line.position in moving else (7 if line.yang else 8) for line in self.hexagram.lines])

    def coins(self) -> str:
        h, moving = self
        mask = _MASKS.get(moving)
        if mask is None:  # moving lines given as some other collection than a frozenset
            return "".join([("9" if line.yang else "6") if line.position in moving else ("7" if line.yang else "8") for line in h.lines])
        # each trigram's three coins, by its lines and its moving lines (64 strings, met as casts come)
        code = h.code
        lo, hi = code & 7 | (mask & 7) << 3, code >> 3 | mask & 0o70
        try:
            return _HALF_COINS[lo] + _HALF_COINS[hi]
        except KeyError:
            return _half_coins(lo) + _half_coins(hi)

    def spec(self) -> str:
        """The book's notation: '离之乾', or just '离' when no line moves."""
        changed = self.changed
        return f"{self.hexagram.short_name}之{changed.short_name}" if changed else self.hexagram.short_name

    def __str__(self) -> str:
        return self.spec()

    def __repr__(self) -> str:
        return f"Cast.parse({self.coins()!r})"

    @staticmethod
    def from_values(values: Iterable[int]) -> "Cast":
        vals = tuple(values)
        if len(vals) != 6 or any(v not in (6, 7, 8, 9) for v in vals):
            raise NotationError(f"six coin values 6/7/8/9 expected, bottom line first: {vals}", vals)
        h = Hexagram.from_bits(v in (7, 9) for v in vals)
        return Cast(h, frozenset(i + 1 for i, v in enumerate(vals) if v in (6, 9)))

    @staticmethod
    def parse(spec: str, moving: Iterable[int] | str | None = None) -> "Cast":
        """Parse any notation of a cast.

        - '离之乾' (also 离变乾, 离化乾, →, ->, >): the changed hexagram fixes the moving lines;
        - '798788': six coin values, bottom first (also '7,9,8,7,8,8', '7 9 8 7 8 8');
        - '101101' with moving=(2, 5): six bits, bottom first;
        - a name ('离', '離', '离为火', '䷝') with moving=(2, 5) or none.
        """
        if moving is None or isinstance(moving, str):
            return _parse_cast_cached(spec, moving)
        return _parse_cast(spec, moving)


def _parse_cast(spec: str, moving: Iterable[int] | str | None) -> Cast:
    """`Cast.parse` itself, for any `moving`."""
    raw = spec
    s = (spec or "").strip()
    if not s:
        raise NotationError("empty hexagram spec", raw, ("离之乾", "798788", "101101 --moving 2,5"))
    if moving is None and len(s) == 6 and s.isascii():
        # Six coin values, the notation of most batch lines, read whole rather than digit by
        # digit: translated into their yang bits and their moving bits, two table lookups.
        b = s.encode()
        h = _HEXAGRAM_BY_BITS.get(b.translate(_YANG_BITS))
        if h is not None:  # else not coin values (any other character is translated to "x")
            return tuple.__new__(Cast, (h, _MOVING_BY_BITS[b.translate(_MOVING_BITS)]))
    moves = parse_moving(moving) if moving is not None else None
    for arrow in _ARROWS:
        if arrow in s:
            return _parse_change(s, arrow, moves, raw)
    digits = s.translate(_SEPARATORS)
    if digits.isdecimal() and digits.isascii():
        return _parse_values(digits, moves, raw)
    return Cast(_parse_single(s, raw), moves or frozenset())


def _parse_values(digits: str, moves: frozenset[int] | None, raw: str) -> Cast:
    """Six line values, bottom first: coins 6-9 ('798788', '7,6,7,7,6,7') or bits 0/1 with
    --moving. Any other run of digits is said for what it is, with the casts nearest to it."""
    if len(digits) == 6 and set(digits) <= set("6789"):
        if moves is not None:
            raise NotationError("coin values already say which lines move; drop --moving", raw)
        return Cast.from_values(int(c) for c in digits)
    if len(digits) == 6 and set(digits) <= set("01"):
        return Cast(Hexagram.from_bits(digits), moves or frozenset())
    if len(digits) != 6:
        raise NotationError(
            f"{shown(raw)} has {len(digits):,} digits: a cast is six line values, bottom first, coins 6-9 (798788) or bits 0/1 (101101)",
            raw,
            _nearest_values(digits),
        )
    kinds = "coins 6-9" if set(digits) & set("6789") else "bits 0/1"
    bad = sorted(set(digits) - set("6789" if kinds == "coins 6-9" else "01"))
    raise NotationError(
        f"{shown(raw)} mixes digits: six line values are all coins 6-9 (798788) or all bits 0/1 (101101), "
        f"and {', '.join(bad)} {'is' if len(bad) == 1 else 'are'} not {kinds}",
        raw,
        _nearest_values(digits),
    )


def _nearest_values(digits: str) -> tuple[str, ...]:
    """The valid six-value casts one edit from `digits` (a digit dropped from seven, or one
    changed in six), bottom first; none for a run that is further off."""
    if len(digits) == 7:
        near = [digits[:i] + digits[i + 1 :] for i in range(7)]
    elif len(digits) == 6:
        near = [digits[:i] + c + digits[i + 1 :] for i in range(6) for c in "016789" if c != digits[i]]
    else:
        return ()
    valid = [d for d in dict.fromkeys(near) if set(d) <= set("6789") or set(d) <= set("01")]
    return tuple(valid[:6])


def _parse_change(s: str, arrow: str, moves: frozenset[int] | None, raw: str) -> Cast:
    """'离之乾': the cast, then the hexagram it changes into, which fixes the moving lines."""
    left, _, right = s.partition(arrow)
    if not left.strip() or not right.strip():
        side = "before" if not left.strip() else "after"
        raise NotationError(f"no hexagram {side} {arrow!r} in {shown(raw)}: the cast, then the hexagram it changes into", raw, ("离之乾", "离"))
    base = _parse_single(left.strip(), raw)
    target = _parse_single(right.strip(), raw)
    diff = frozenset(i + 1 for i in range(6) if (base.code ^ target.code) >> i & 1)
    if not diff:
        raise NotationError(
            f"{base.short_name} cannot change into itself: give the hexagram alone for a cast with no moving line",
            raw,
            (base.short_name,),
        )
    if moves is not None and moves != diff:
        raise NotationError(
            f"--moving {','.join(map(str, sorted(moves)))} contradicts {shown(raw)}, which moves lines {','.join(map(str, sorted(diff)))}",
            raw,
        )
    return Cast(base, diff)


# Coin values as bits, bottom line first: 7 少阳 and 9 老阳 are yang, 6 老阴 and 9 老阳 move.
_YANG_BITS = bytes(b"0101"[b"6789".index(c)] if c in b"6789" else ord("x") for c in range(256))
_MOVING_BITS = bytes(b"1001"[b"6789".index(c)] if c in b"6789" else ord("x") for c in range(256))
_BITS = tuple("".join("1" if mask >> i & 1 else "0" for i in range(6)).encode() for mask in range(64))
_HEXAGRAM_BY_BITS = {bits: HEXAGRAMS_BY_CODE[mask] for mask, bits in enumerate(_BITS)}
# The 64 sets of moving lines (bit i of the mask for line i + 1): shared by the casts parsed
# from coins and by all_casts(), and the keys of `Cast.changed`'s masks (found by identity).
_MOVING_SETS = tuple(frozenset(i + 1 for i in range(6) if mask >> i & 1) for mask in range(64))
_MOVING_BY_BITS = dict(zip(_BITS, _MOVING_SETS))
_MASKS = {moving: mask for mask, moving in enumerate(_MOVING_SETS)}
_SHARED_MOVING = {moving: moving for moving in _MOVING_SETS}
_BY_CODE = tuple(HEXAGRAMS_BY_CODE[code] for code in range(64))
_HALF_COINS: dict[int, str] = {}


def _half_coins(key: int) -> str:
    """The coins of three lines, by their yang bits (0-2) and moving bits (3-5), bottom first."""
    v = _HALF_COINS.get(key)
    if v is None:
        v = _HALF_COINS[key] = "".join(["8769"[key >> i & 1 | key >> i + 2 & 2] for i in range(3)])  # by yang | moving << 1
    return v


# A cast is immutable and a batch repeats notations: parse each (spec, moving) string once.
# Bounded: every coin string is 4096 entries, and other notations are rarer still.
_parse_cast_cached = lru_cache(maxsize=8192)(_parse_cast)


@lru_cache(maxsize=4096)  # one entry per cast: 64 hexagrams × 63 sets of moving lines
def _flipped(h: Hexagram, moving: frozenset[int]) -> Hexagram:
    """`Cast.changed`, read many times per chart."""
    return h.flip(moving)


def _parse_single(s: str, raw: str) -> Hexagram:
    if len(s) == 6 and set(s) <= {"0", "1"}:
        return Hexagram.from_bits(s)
    return Hexagram.parse(s)


def parse_moving(moving: Iterable[int] | str) -> frozenset[int]:
    """'2,5', '2 5', '25' or (2, 5) → frozenset({2, 5}): at most six lines, each 1-6, each once."""
    raw = moving
    if isinstance(moving, str):
        words = moving.replace("，", " ").replace(",", " ").split()
        if not words:
            raise NotationError("empty moving lines: give the lines 1-6 that move (bottom = 1), e.g. 2,5", raw, ("2,5", "1"))
        parts = words if len(words) > 1 else list(words[0])  # "2,5", "2 5", or "25"
        if len(parts) > 6:  # before converting: a hexagram has six lines
            raise NotationError(f"moving lines are at most six, 1-6 each, e.g. 2,5: got {len(parts):,} in {shown(raw)}", raw, ("2,5",))
        numbers = [small_int(p, 1) for p in parts]
        values = [v for v in numbers if v is not None]
        if len(values) < len(numbers):
            raise NotationError(f"moving lines must be numbers 1-6, e.g. 2,5: {shown(raw)}", raw, ("2,5",))
    else:
        values = list(moving)
    bad = [v for v in values if not (isinstance(v, int) and 1 <= v <= 6)]
    if bad:
        raise NotationError(f"moving lines must be 1-6 (bottom = 1), got {shown(bad)}", raw, ("1", "2", "3", "4", "5", "6"))
    twice = sorted({v for v in values if values.count(v) > 1})
    if twice:
        raise NotationError(f"moving line{'s' if len(twice) > 1 else ''} {','.join(map(str, twice))} given twice in {shown(raw)}", raw)
    return frozenset(values)


def all_casts() -> Iterable[Cast]:
    """All 4096 casts: 64 hexagrams × every subset of moving lines."""
    for h in HEXAGRAMS:
        for moving in _MOVING_SETS:
            yield Cast(h, moving)
