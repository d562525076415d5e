"""Stems, branches, elements and the 60-cycle, with the relations the book works with.

Everything here is a small finite table: the tests check each one exhaustively. Values are
`enum.Enum` members (never `IntEnum`: members of different enums must not compare equal),
each carrying its index as a plain attribute so that the hot paths stay arithmetic.
"""

from __future__ import annotations

from enum import Enum
from functools import cache
from typing import NamedTuple, TypeVar

from yimao.errors import NotationError, shown, too_long_to_be_a_name


class Element(Enum):
    """五行, in the order of mutual generation: 木 → 火 → 土 → 金 → 水 → 木."""

    # Attributes of each member (annotations only: not members), set in __new__ and below.
    index: int
    pinyin: str
    generates: Element  # the element this one 生 (木生火 …)
    overcomes: Element  # the element this one 克 (木克土 …)
    generated_by: Element
    overcome_by: Element

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    def __new__(cls, char: str, index: int, pinyin: str) -> Element:
        obj = object.__new__(cls)
        obj._value_ = char
        obj.index = index
        obj.pinyin = pinyin
        return obj

    MU = ("木", 0, "mu")
    HUO = ("火", 1, "huo")
    TU = ("土", 2, "tu")
    JIN = ("金", 3, "jin")
    SHUI = ("水", 4, "shui")

    def __str__(self) -> str:
        return self._value_  # .value is a Python-level property

    @classmethod
    def parse(cls, text: str) -> Element:
        return _parse(cls, text, "element")


_ELEMENTS = tuple(Element)

# Each element's neighbours in the two cycles, as plain attributes of the members (the rules
# read them on every line, and a property is a Python-level call):
# `generates`, the element this one 生 (木生火 …); `overcomes`, the element this one 克
# (木克土, 土克水, 水克火, 火克金, 金克木); `generated_by`; `overcome_by`.
for _e in _ELEMENTS:
    _e.generates = _ELEMENTS[(_e.index + 1) % 5]
    _e.overcomes = _ELEMENTS[(_e.index + 2) % 5]
    _e.generated_by = _ELEMENTS[(_e.index - 1) % 5]
    _e.overcome_by = _ELEMENTS[(_e.index - 2) % 5]
del _e


class Stem(Enum):
    """天干. `yang` for 甲丙戊庚壬."""

    index: int
    pinyin: str
    element: Element
    yang: bool

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    def __new__(cls, char: str, index: int, pinyin: str, element: Element) -> Stem:
        obj = object.__new__(cls)
        obj._value_ = char
        obj.index = index
        obj.pinyin = pinyin
        obj.element = element
        obj.yang = index % 2 == 0
        return obj

    JIA = ("甲", 0, "jia", Element.MU)
    YI = ("乙", 1, "yi", Element.MU)
    BING = ("丙", 2, "bing", Element.HUO)
    DING = ("丁", 3, "ding", Element.HUO)
    WU = ("戊", 4, "wu", Element.TU)
    JI = ("己", 5, "ji", Element.TU)
    GENG = ("庚", 6, "geng", Element.JIN)
    XIN = ("辛", 7, "xin", Element.JIN)
    REN = ("壬", 8, "ren", Element.SHUI)
    GUI = ("癸", 9, "gui", Element.SHUI)

    def __str__(self) -> str:
        return self._value_  # .value is a Python-level property

    def shift(self, n: int) -> Stem:
        return STEMS[(self.index + n) % 10]

    @classmethod
    def parse(cls, text: str) -> Stem:
        return _parse(cls, text, "heavenly stem")


STEMS = tuple(Stem)


class Branch(Enum):
    """地支, 子 = 0 … 亥 = 11."""

    index: int
    pinyin: str
    element: Element
    yang: bool

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    def __new__(cls, char: str, index: int, pinyin: str, element: Element) -> Branch:
        obj = object.__new__(cls)
        obj._value_ = char
        obj.index = index
        obj.pinyin = pinyin
        obj.element = element
        obj.yang = index % 2 == 0
        return obj

    ZI = ("子", 0, "zi", Element.SHUI)
    CHOU = ("丑", 1, "chou", Element.TU)
    YIN = ("寅", 2, "yin", Element.MU)
    MAO = ("卯", 3, "mao", Element.MU)
    CHEN = ("辰", 4, "chen", Element.TU)
    SI = ("巳", 5, "si", Element.HUO)
    WU = ("午", 6, "wu", Element.HUO)
    WEI = ("未", 7, "wei", Element.TU)
    SHEN = ("申", 8, "shen", Element.JIN)
    YOU = ("酉", 9, "you", Element.JIN)
    XU = ("戌", 10, "xu", Element.TU)
    HAI = ("亥", 11, "hai", Element.SHUI)

    def __str__(self) -> str:
        return self._value_  # .value is a Python-level property

    def shift(self, n: int) -> Branch:
        return BRANCHES[(self.index + n) % 12]

    @property
    def opposite(self) -> Branch:
        """The branch this one 冲 (子午, 丑未, 寅申, 卯酉, 辰戌, 巳亥)."""
        return BRANCHES[(self.index + 6) % 12]

    @property
    def month_number(self) -> int:
        """The month of the 月建 calendar: 寅 = 1 (正月) … 子 = 11, 丑 = 12."""
        return (self.index - 2) % 12 + 1

    @classmethod
    def from_month_number(cls, n: int) -> Branch:
        if not 1 <= n <= 12:
            raise NotationError(f"month must be 1-12, got {n}", n, ("1 (寅)", "12 (丑)"))
        return BRANCHES[(n + 1) % 12]

    @classmethod
    def parse(cls, text: str) -> Branch:
        return _parse(cls, text, "earthly branch")


BRANCHES = tuple(Branch)
# By character: a plain dict, where `Branch("子")` goes through EnumType.__call__.
BRANCH_BY_CHAR: dict[str, Branch] = {b._value_: b for b in BRANCHES}


_E = TypeVar("_E", Element, Stem, Branch)


def _parse(enum: type[_E], text: str, what: str) -> _E:
    raw = text
    text = text.strip()
    names = _names(enum)
    member = names.get(text)
    if member is None:
        member = names.get(text.lower())
        if member is None:
            raise NotationError(f"not a {what}: {shown(raw)}", raw, ("".join(m.value for m in enum),))
    return member


@cache
def _names(enum: type[_E]) -> dict[str, _E]:
    """An enum's members by character and by pinyin (the two are disjoint): a lookup, not a walk
    over the members through the Python-level `value` property."""
    names: dict[str, _E] = {}
    for m in enum:
        names[m._value_] = m
        names[m.pinyin] = m
    return names


# --- relations between branches -----------------------------------------------------------
# 六合 子丑 寅亥 卯戌 辰酉 巳申 午未: the indices sum to 1 mod 12.
# 六冲 子午 丑未 …: six apart.
# 六害 子未 丑午 寅巳 卯辰 申亥 酉戌 — "冲吾之合": 子合丑而未冲，所以子未为害; indices sum to 7.


def chong(a: Branch, b: Branch) -> bool:
    """a and b 冲 each other."""
    return (a.index - b.index) % 12 == 6


def liuhe(a: Branch, b: Branch) -> bool:
    """a and b are a 六合 pair."""
    return (a.index + b.index) % 12 == 1


def liuhai(a: Branch, b: Branch) -> bool:
    """a and b are a 六害 pair (夺吾之好为害也)."""
    return (a.index + b.index) % 12 == 7


# 三刑, directed: "巳酉丑而乘申酉戌 … 亥卯未而乘亥子丑，申子辰而乘寅卯辰，寅午戌而乘巳午未矣。
# 乘则刑之，上下相对" — the upper branch 刑 the lower one it rides on.
_XING = {
    "巳": "申",
    "酉": "酉",
    "丑": "戌",
    "亥": "亥",
    "卯": "子",
    "未": "丑",
    "申": "寅",
    "子": "卯",
    "辰": "辰",
    "寅": "巳",
    "午": "午",
    "戌": "未",
}
XING_TARGET: dict[Branch, Branch] = {BRANCH_BY_CHAR[k]: BRANCH_BY_CHAR[v] for k, v in _XING.items()}


def xing(a: Branch, b: Branch) -> bool:
    """a 刑 b (directed). 自刑 (辰午酉亥) is a 刑 of a branch on itself."""
    return XING_TARGET[a] is b


# 三合局: 始 (长生), 中 (帝旺), 终 (墓). "生乃物之始，藏乃物之终 … 如卯木生亥墓未，为木局".
SANHE: dict[Element, tuple[Branch, Branch, Branch]] = {
    Element.SHUI: (Branch.SHEN, Branch.ZI, Branch.CHEN),
    Element.MU: (Branch.HAI, Branch.MAO, Branch.WEI),
    Element.HUO: (Branch.YIN, Branch.WU, Branch.XU),
    Element.JIN: (Branch.SI, Branch.YOU, Branch.CHOU),
}


def sanhe_of(b: Branch) -> Element:
    """The element of the 三合局 a branch belongs to (申子辰 水 …)."""
    for element, members in SANHE.items():
        if b in members:
            return element
    raise AssertionError(b)  # every branch is in exactly one 局


# 进神 and 退神: a moving line that changes forward within its element. The 土 branches
# advance by the seasons' tombs 丑→辰→未→戌→丑.
_JINSHEN = {"亥": "子", "寅": "卯", "巳": "午", "申": "酉", "丑": "辰", "辰": "未", "未": "戌", "戌": "丑"}
JINSHEN: dict[Branch, Branch] = {BRANCH_BY_CHAR[k]: BRANCH_BY_CHAR[v] for k, v in _JINSHEN.items()}
TUISHEN: dict[Branch, Branch] = {v: k for k, v in JINSHEN.items()}


# --- 十二长生 ------------------------------------------------------------------------------


class Stage(Enum):
    """十二长生: the twelve stages of an element through the branches."""

    index: int

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    def __new__(cls, char: str, index: int) -> Stage:
        obj = object.__new__(cls)
        obj._value_ = char
        obj.index = index
        return obj

    CHANGSHENG = ("长生", 0)
    MUYU = ("沐浴", 1)
    GUANDAI = ("冠带", 2)
    LINGUAN = ("临官", 3)
    DIWANG = ("帝旺", 4)
    SHUAI = ("衰", 5)
    BING = ("病", 6)
    SI = ("死", 7)
    MU = ("墓", 8)
    JUE = ("绝", 9)
    TAI = ("胎", 10)
    YANG = ("养", 11)

    def __str__(self) -> str:
        return self._value_  # .value is a Python-level property


STAGES = tuple(Stage)


class EarthSchool(Enum):
    """Where 土 has its 长生: 水土同宫 (申, the default) or 火土同宫 (寅)."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    SHUI = "水土同宫"
    HUO = "火土同宫"


# 长生: 木亥 火寅 金巳 水申; 土 申 (水土同宫) by default.
_CHANGSHENG = {Element.MU: Branch.HAI, Element.HUO: Branch.YIN, Element.JIN: Branch.SI, Element.SHUI: Branch.SHEN}


def changsheng(element: Element, school: EarthSchool = EarthSchool.SHUI) -> Branch:
    """The 长生 branch of an element."""
    if element is Element.TU:
        return Branch.SHEN if school is EarthSchool.SHUI else Branch.YIN
    return _CHANGSHENG[element]


def stage(element: Element, branch: Branch, school: EarthSchool = EarthSchool.SHUI) -> Stage:
    """The 十二长生 stage of `element` at `branch` (always counted forward, as the book does)."""
    return STAGES[(branch.index - changsheng(element, school).index) % 12]


def tomb(element: Element, school: EarthSchool = EarthSchool.SHUI) -> Branch:
    """墓: 木未 火戌 金丑 水辰, 土 辰 (水土同宫) or 戌 (火土同宫)."""
    return changsheng(element, school).shift(8)


def is_true_changsheng(element: Element, school: EarthSchool = EarthSchool.SHUI) -> bool:
    """真生 (大生): the 长生 branch's own element 生 the element.

    "五行大生谓之真生，巽鬼革鬼非大生": 木 at 亥 (水生木), 火 at 寅 (木生火), 水 at 申 (金生水)
    are true; 金 at 巳 is fire (火克金) and 土 at 申 is borrowed, so neither is.
    """
    return changsheng(element, school).element.generates is element


# --- 旺相休囚死 ----------------------------------------------------------------------------


class Vigour(Enum):
    """旺相休囚死 of an element in a month: same 旺, 月生 相, 生月 休, 克月 囚, 月克 死."""

    strong: bool

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    def __new__(cls, char: str, strong: bool) -> Vigour:
        obj = object.__new__(cls)
        obj._value_ = char
        obj.strong = strong  # 旺相 (a plain attribute: the rules read it on every line)
        return obj

    WANG = ("旺", True)
    XIANG = ("相", True)
    XIU = ("休", False)
    QIU = ("囚", False)
    SI = ("死", False)

    def __str__(self) -> str:
        return self._value_  # .value is a Python-level property


def vigour(element: Element, month: Branch) -> Vigour:
    m = month.element
    if m is element:
        return Vigour.WANG
    if m.generates is element:
        return Vigour.XIANG
    if element.generates is m:
        return Vigour.XIU
    if element.overcomes is m:
        return Vigour.QIU
    return Vigour.SI


# --- seasons ----------------------------------------------------------------------------


class Season(Enum):
    """Seasons by 月建: 春 寅卯辰, 夏 巳午未, 秋 申酉戌, 冬 亥子丑."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    CHUN = "春"
    XIA = "夏"
    QIU = "秋"
    DONG = "冬"

    def __str__(self) -> str:
        return self._value_  # .value is a Python-level property

    @classmethod
    def of(cls, month: Branch) -> Season:
        return _SEASONS[((month.index - 2) % 12) // 3]


_SEASONS = tuple(Season)


# --- the 60-cycle ----------------------------------------------------------------------------


# Functional form: the field types are objects, not strings that typing would compile at import.
class _GanZhiFields(NamedTuple):
    stem: Stem
    branch: Branch


class GanZhi(_GanZhiFields):
    """A 干支 of the 60-cycle. Stem and branch have the same parity (甲子, never 甲丑).

    An immutable (stem, branch) pair; the subclass exists to check the parity on construction.
    """

    __slots__ = ()

    def __new__(cls, stem: Stem, branch: Branch) -> GanZhi:
        if stem.index % 2 != branch.index % 2:
            raise NotationError(
                f"not a 干支 of the 60-cycle: {stem.value}{branch.value} (stem and branch differ in parity)",
                f"{stem.value}{branch.value}",
            )
        return tuple.__new__(cls, (stem, branch))

    @property
    def index(self) -> int:  # type: ignore[override]  # tuple.index(value) is never called on a 干支
        """0 for 甲子 … 59 for 癸亥."""
        return _GZ_INDEX[(self.stem.index, self.branch.index)]

    @staticmethod
    def from_index(i: int) -> GanZhi:
        return CYCLE[i % 60]

    @staticmethod
    def parse(text: str) -> GanZhi:
        """Parse '戊寅', '戊寅日', '戊寅月', or pinyin 'wu-yin' / 'wuyin'."""
        raw = text
        t = text.strip()
        if t and t[-1] in "日月年时時":
            t = t[:-1]
        if len(t) == 2:
            try:
                return GanZhi.of(Stem.parse(t[0]), Branch.parse(t[1]))
            except NotationError:
                pass
        else:
            low = t.lower().replace("-", "").replace(" ", "")
            for gz in CYCLE:
                if low == gz.stem.pinyin + gz.branch.pinyin:
                    return gz
        raise NotationError(f"not a 干支 of the 60-cycle: {shown(raw)}", raw, _close_ganzhi(t))

    @staticmethod
    def of(stem: Stem, branch: Branch) -> GanZhi:
        try:
            return CYCLE[_GZ_INDEX[(stem.index, branch.index)]]
        except KeyError:
            raise NotationError(
                f"not a 干支 of the 60-cycle: {stem.value}{branch.value} (stem and branch differ in parity)",
                f"{stem.value}{branch.value}",
                _close_ganzhi(stem.value + branch.value),
            ) from None

    def __str__(self) -> str:
        return self.stem._value_ + self.branch._value_

    def __repr__(self) -> str:
        return f"GanZhi.parse({str(self)!r})"

    def shift(self, n: int) -> GanZhi:
        return CYCLE[(self.index + n) % 60]

    @property
    def xunkong(self) -> tuple[Branch, Branch]:
        """旬空: the two branches the 旬 of this 干支 lacks (甲子旬 空 戌亥)."""
        return _XUNKONG[(self.branch.index - self.stem.index) % 12]

    @property
    def xun(self) -> GanZhi:
        """The 甲 that heads this 旬 (甲子, 甲戌, 甲申, 甲午, 甲辰, 甲寅)."""
        return CYCLE[self.index - self.index % 10]


# 旬空 by the branch of the 旬's 甲: shared tuples, so that equal values are one object
_XUNKONG = tuple((BRANCHES[(first + 10) % 12], BRANCHES[(first + 11) % 12]) for first in range(12))
_GZ_INDEX: dict[tuple[int, int], int] = {(i % 10, i % 12): i for i in range(60)}
CYCLE: tuple[GanZhi, ...] = tuple(GanZhi(STEMS[i % 10], BRANCHES[i % 12]) for i in range(60))


def _close_ganzhi(text: str) -> tuple[str, ...]:
    """A few valid 干支 sharing a character with `text` (none for a text too long to be one)."""
    if too_long_to_be_a_name(text):
        return ()
    hits = [str(gz) for gz in CYCLE if text and (gz.stem.value in text or gz.branch.value in text)]
    return tuple(hits[:6]) or ("甲子", "乙丑", "…", "癸亥")


# --- 五虎遁 and 五鼠遁 -------------------------------------------------------------------------


def month_stem(year_stem: Stem, month: Branch) -> Stem:
    """五虎遁: 甲己之年丙作首, 乙庚之岁戊为头, 丙辛必定寻庚起, 丁壬壬位顺行流, 戊癸何方发, 甲寅之上好追求."""
    first = (year_stem.index % 5) * 2 + 2  # the stem of the 寅 month
    return STEMS[(first + (month.index - 2) % 12) % 10]


def hour_stem(day_stem: Stem, hour: Branch) -> Stem:
    """五鼠遁: 甲己还加甲, 乙庚丙作初, 丙辛从戊起, 丁壬庚子居, 戊癸何方发, 壬子是真途."""
    return STEMS[((day_stem.index % 5) * 2 + hour.index) % 10]


@cache
def element_relation(a: Element, b: Element) -> str:
    """How a stands to b: '同', '生' (a 生 b), '克' (a 克 b), '被生' (b 生 a), '被克' (b 克 a)."""
    if a is b:
        return "同"
    if a.generates is b:
        return "生"
    if a.overcomes is b:
        return "克"
    if b.generates is a:
        return "被生"
    return "被克"
