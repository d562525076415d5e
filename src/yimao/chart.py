"""A chart: a cast read against its pillars (六亲, 六神, 伏神, 变爻, and every line relation).

The relations are RULES §0 of the project: per line against 月建 and 日辰, per moving line
against its 变爻, per 伏神 against its 飞神, per hexagram. Whatever needs a pillar that was
not given is None. The analysis rules (`yimao.analysis`) and the stars read charts; they never
recompute these relations.
"""

# No `from __future__ import annotations` here: typing.NamedTuple compiles each string field
# annotation at class creation, a cost every start of the program would pay.
from enum import Enum
from functools import cache, lru_cache
from typing import Any, NamedTuple

from yimao.errors import UnknownNameError, shown
from yimao.ganzhi import (
    BRANCHES,
    JINSHEN,
    TUISHEN,
    Branch,
    EarthSchool,
    Element,
    GanZhi,
    Stage,
    Stem,
    Vigour,
    chong,
    element_relation,
    liuhe,
    stage,
    tomb,
    vigour,
)
from yimao.hexagram import _BY_CODE, _MASKS, Cast, Hexagram, HiddenLine, Line, Relative, Trigram
from yimao.pillars import FourPillars, branch_of


class Spirit(Enum):
    """六神, placed from 初爻 upward by the day stem: 甲乙 青龙, 丙丁 朱雀, 戊 勾陈, 己 螣蛇, 庚辛 白虎, 壬癸 玄武."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    QINGLONG = "青龙"
    ZHUQUE = "朱雀"
    GOUCHEN = "勾陈"
    TENGSHE = "螣蛇"
    BAIHU = "白虎"
    XUANWU = "玄武"

    def __str__(self) -> str:
        return self._value_  # .value is a Python-level property


SPIRITS = tuple(Spirit)
_SPIRIT_START = {0: 0, 1: 0, 2: 1, 3: 1, 4: 2, 5: 3, 6: 4, 7: 4, 8: 5, 9: 5}  # stem index → first spirit


@cache
def spirits_for(day_stem: Stem) -> tuple[Spirit, ...]:
    start = _SPIRIT_START[day_stem.index]
    return tuple(SPIRITS[(start + i) % 6] for i in range(6))


class Source(Enum):
    """Where a branch acting in the chart comes from."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    RI = "日"
    YUE = "月"
    DONGYAO = "动爻"
    BIANYAO = "变爻"
    FUSHEN = "伏神"
    JINGYAO = "静爻"

    def __str__(self) -> str:
        return self._value_  # .value is a Python-level property


class Actor(NamedTuple):
    """A branch present in the chart, with its source and line position (None for 日 and 月)."""

    branch: Branch
    source: Source
    position: int | None = None


# --- relations --------------------------------------------------------------------------------


class MonthRelation(NamedTuple):
    vigour: Vigour  # 旺相休囚死 of the line's element in the month
    po: bool  # 月破: the month 冲 the line
    he: bool  # 月合
    effect: str | None  # "月生" | "月克" | "月扶" (same element) | None


class DayRelation(NamedTuple):
    stage: Stage  # 十二长生 stage of the line's element at the day branch
    kong: bool | None  # 旬空 (None when the day's stem is unknown)
    effect: str | None  # "日生" | "日克" | "日扶" | None
    he: bool  # 日合
    chong: bool  # 日冲
    andong: bool  # 暗动: a static line 冲 by the day while 旺相 in the month
    ripo: bool  # 日破: a static line 冲 by the day while 休囚 (or with no month given)


class ChangeRelation(NamedTuple):
    """A moving line against its own 变爻."""

    huitou: str | None  # "回头生" | "回头克" | None
    jin: bool  # 化进神
    tui: bool  # 化退神
    kong: bool | None  # 化空
    po: bool | None  # 化破
    mu: bool  # 化墓
    jue: bool  # 化绝
    he: bool  # 化合
    chong: bool  # 化冲


class ChangedLine(NamedTuple):
    """A 变爻: its 干支 from the 之卦, its 六亲 counted against the ORIGINAL palace."""

    position: int
    yang: bool
    stem: Stem
    branch: Branch
    relative: Relative

    @property
    def element(self) -> Element:
        return self.branch.element


class Hidden(NamedTuple):
    """A 伏神 with its relations: to the 飞神 above it, and to month and day."""

    line: HiddenLine
    fei: str  # "飞生伏" | "飞克伏" | "伏生飞" | "伏克飞" | "比和"
    month: MonthRelation | None
    day: DayRelation | None
    lifted: bool  # its 飞神 moves (发动飞爻而相挈)


class ChartLine(NamedTuple):
    line: Line
    moving: bool
    value: int
    spirit: Spirit | None
    shi: bool
    ying: bool
    hidden: Hidden | None
    changed: ChangedLine | None
    month: MonthRelation | None
    day: DayRelation | None
    change: ChangeRelation | None

    @property
    def position(self) -> int:
        return self.line.position

    @property
    def branch(self) -> Branch:
        return self.line.branch

    @property
    def element(self) -> Element:
        return self.line.branch.element

    @property
    def relative(self) -> Relative:
        return self.line.relative

    def tags(self) -> tuple[str, ...]:
        """The line's relations as short labels, in a fixed order (for the compact column)."""
        return _tags(self.month, self.day, self.change, self.moving)


def _tags(month: MonthRelation | None, day: DayRelation | None, change: ChangeRelation | None, moving: bool) -> tuple[str, ...]:
    out: list[str] = []
    if month is not None:
        out.append(f"月{month.vigour.value}")
        if month.po:
            out.append("月破")
        if month.he:
            out.append("月合")
        if month.effect:
            out.append(month.effect)
    if day is not None:
        if day.kong:
            out.append("旬空")
        if day.effect:
            out.append(day.effect)
        if day.he:
            out.append("日合")
        if day.andong:
            out.append("暗动")
        elif day.ripo:
            out.append("日破")
        elif day.chong:
            out.append("日冲")
        out.append(f"日{day.stage.value}")
    if change is not None:
        if change.huitou:
            out.append(change.huitou)
        for flag, label in (
            (change.jin, "化进"),
            (change.tui, "化退"),
            (change.kong, "化空"),
            (change.po, "化破"),
            (change.mu, "化墓"),
            (change.jue, "化绝"),
            (change.he, "化合"),
            (change.chong, "化冲"),
        ):
            if flag:
                out.append(label)
    return tuple(out)


@cache
def month_relation(element: Element, branch: Branch, month: Branch) -> MonthRelation:
    me = month.element
    effect = "月扶" if me is element else "月生" if me.generates is element else "月克" if me.overcomes is element else None
    return MonthRelation(vigour(element, month), chong(branch, month), liuhe(branch, month), effect)


@cache
def day_relation(
    element: Element,
    branch: Branch,
    day: Branch,
    xunkong: tuple[Branch, Branch] | None,
    month_vigour: Vigour | None,
    moving: bool,
    school: EarthSchool,
) -> DayRelation:
    de = day.element
    effect = "日扶" if de is element else "日生" if de.generates is element else "日克" if de.overcomes is element else None
    is_chong = chong(branch, day)
    static_chong = is_chong and not moving
    strong = month_vigour is not None and month_vigour.strong
    return DayRelation(
        stage=stage(element, day, school),
        kong=(branch in xunkong) if xunkong is not None else None,
        effect=effect,
        he=liuhe(branch, day),
        chong=is_chong,
        andong=static_chong and strong,
        ripo=static_chong and not strong,
    )


@cache
def change_relation(
    branch: Branch, changed: Branch, xunkong: tuple[Branch, Branch] | None, month: Branch | None, school: EarthSchool
) -> ChangeRelation:
    """A moving line of `branch` against its 变爻 `changed`."""
    e, ce = branch.element, changed.element
    huitou = "回头生" if ce.generates is e else "回头克" if ce.overcomes is e else None
    return ChangeRelation(
        huitou=huitou,
        jin=JINSHEN.get(branch) is changed,
        tui=TUISHEN.get(branch) is changed,
        kong=(changed in xunkong) if xunkong is not None else None,
        po=(chong(changed, month)) if month is not None else None,
        mu=changed is tomb(e, school),
        jue=stage(e, changed, school) is Stage.JUE,
        he=liuhe(branch, changed),
        chong=chong(branch, changed),
    )


@cache
def _changed_line(changed_h: Hexagram, position: int, palace: Element) -> ChangedLine:
    cl = changed_h.lines[position - 1]
    return ChangedLine(position, cl.yang, cl.stem, cl.branch, Relative.of(cl.branch.element, palace))


_FEI_FU = {"同": "比和", "生": "飞生伏", "克": "飞克伏", "被生": "伏生飞", "被克": "伏克飞"}


def fei_fu(fei: Element, fu: Element) -> str:
    """The 飞神 (the visible line) against the 伏神 hidden under it."""
    return _FEI_FU[element_relation(fei, fu)]


# --- per hexagram -----------------------------------------------------------------------------

# 卦反吟: a trigram changed into the one opposite it in the 后天 square.
_FANYIN_TRIGRAMS = {
    frozenset({Trigram.QIAN, Trigram.XUN}),
    frozenset({Trigram.KAN, Trigram.LI}),
    frozenset({Trigram.GEN, Trigram.KUN}),
    frozenset({Trigram.ZHEN, Trigram.DUI}),
}


@cache
def hexagram_features(h: Hexagram, changed: Hexagram | None) -> tuple[str, ...]:
    """六冲卦, 六合卦, 游魂, 归魂, and 伏吟/反吟 of the inner or outer trigram where the 之卦 warrants it."""
    # One entry per cast; a cast not seen yet is assembled from the parts below, which depend
    # on one hexagram or one pair of trigrams each (the order of the labels is theirs, in turn).
    if changed is None:
        return _own_features(h)
    return (
        _own_features(h)
        + _changed_features(changed)
        + _trigram_features("内卦", h.lower, changed.lower)
        + _trigram_features("外卦", h.upper, changed.upper)
    )


@cache
def _own_features(h: Hexagram) -> tuple[str, ...]:
    out = []
    if all(chong(h.lines[i].branch, h.lines[i + 3].branch) for i in range(3)):
        out.append("六冲卦")
    if all(liuhe(h.lines[i].branch, h.lines[i + 3].branch) for i in range(3)):
        out.append("六合卦")
    if h.generation.value in ("游魂", "归魂"):
        out.append(f"{h.generation.value}卦")
    return tuple(out)


@cache
def _changed_features(changed: Hexagram) -> tuple[str, ...]:
    out = []
    if all(chong(changed.lines[i].branch, changed.lines[i + 3].branch) for i in range(3)):
        out.append("变六冲")
    if all(liuhe(changed.lines[i].branch, changed.lines[i + 3].branch) for i in range(3)):
        out.append("变六合")
    return tuple(out)


@cache
def _trigram_features(part: str, before: Trigram, after: Trigram) -> tuple[str, ...]:
    """伏吟 or 反吟 of the inner (内卦: 纳甲 of the inner lines) or outer trigram."""
    if before is after:
        return ()
    b1 = before.inner_branches if part == "内卦" else before.outer_branches
    b2 = after.inner_branches if part == "内卦" else after.outer_branches
    if b1 == b2:
        return (f"{part}伏吟",)
    if frozenset({before, after}) in _FANYIN_TRIGRAMS or all(chong(x, y) for x, y in zip(b1, b2)):
        return (f"{part}反吟",)
    return ()


# --- the chart --------------------------------------------------------------------------------


class Chart(NamedTuple):
    cast: Cast
    pillars: FourPillars
    lines: tuple[ChartLine, ...]
    features: tuple[str, ...]
    school: EarthSchool = EarthSchool.SHUI

    @property
    def hexagram(self) -> Hexagram:
        return self.cast.hexagram

    @property
    def changed_hexagram(self) -> Hexagram | None:
        return self.cast.changed

    @property
    def shi_line(self) -> ChartLine:
        return self.lines[self.hexagram.shi - 1]

    @property
    def ying_line(self) -> ChartLine:
        return self.lines[self.hexagram.ying - 1]

    @property
    def moving_lines(self) -> tuple[ChartLine, ...]:
        return tuple(line for line in self.lines if line.moving)

    def actors(self) -> tuple[Actor, ...]:
        """Every branch in the chart with its source: 日, 月, each line (动爻 or 静爻), each 变爻,
        and each 伏神 (lifted or not; see `Hidden.lifted`)."""
        out: list[Actor] = []
        if self.pillars.day_branch is not None:
            out.append(Actor(self.pillars.day_branch, Source.RI))
        if self.pillars.month_branch is not None:
            out.append(Actor(self.pillars.month_branch, Source.YUE))
        for cl in self.lines:
            out.append(Actor(cl.branch, Source.DONGYAO if cl.moving else Source.JINGYAO, cl.position))
            if cl.changed is not None:
                out.append(Actor(cl.changed.branch, Source.BIANYAO, cl.position))
            if cl.hidden is not None:
                out.append(Actor(cl.hidden.line.branch, Source.FUSHEN, cl.position))
        return tuple(out)


# --- building a chart ---------------------------------------------------------------------
#
# build_chart runs for every chart, so it reads the relations from tables instead of calling
# the relation functions above line by line: a chart depends on its month only through the
# month table (one per month pillar), on its day only through the day table (one per day pillar
# and earth school), and on its cast only through the rows of its hexagram and the hexagram's
# table of its 64 sets of moving lines. The tables are filled from the functions above on first
# use and hold finite domains (72 month and 144 day tables, 64 hexagrams, 288 pairs of branches
# and schools), so memory stays bounded; a test compares every entry with the function it
# stands for, and whole charts with the direct computation. Hashing a 7-argument cache key per
# line cost more than the rest of a chart; indexing these tables by `Branch.index` costs little.

_new = tuple.__new__  # positional construction without NamedTuple's Python-level __new__
_NO_PILLARS = FourPillars()
_SHUI, _HUO = EarthSchool.SHUI, EarthSchool.HUO  # an enum class attribute is a slow lookup
_SCHOOL_INDEX = {_SHUI: 0, _HUO: 1}

# The day table has three day relations per branch: [0] for a static line not 旺相 in the month
# (or with no month: 日冲 is then 日破), [1] for a static line 旺相 in the month (日冲 is 暗动),
# [2] for a moving line. 旬空 (day table) and 月冲 (month table) of a branch, which decide 化空
# and 化破 of a 变爻 of that branch, are 0 (False), 1 (True) or 2 (not known): `kong * 3 + po`
# indexes the change relations of `_change_rels`.
_STATES = (False, True, None)


@cache
def _month_table(month: "GanZhi | Branch") -> tuple[tuple[MonthRelation, ...], tuple[int, ...], tuple[int, ...]]:
    """Per branch index: the month relation of a line of that branch, whether it is 旺相 (0/1),
    and whether the month 冲 it (化破 of a 变爻 of that branch, 0/1)."""
    return _month_branch_table(branch_of(month))  # the month's branch alone: 12 tables, not 60


@cache
def _month_branch_table(m: Branch) -> tuple[tuple[MonthRelation, ...], tuple[int, ...], tuple[int, ...]]:
    """`_month_table` of the months of branch `m`."""
    rels = tuple(month_relation.__wrapped__(b.element, b, m) for b in BRANCHES)
    return rels, tuple(int(r.vigour.strong) for r in rels), tuple(int(chong(b, m)) for b in BRANCHES)


_NO_MONTH = ((None,) * 12, (0,) * 12, (2,) * 12)


@cache
def _day_table(
    day: "GanZhi | Branch", school: EarthSchool
) -> tuple[tuple[tuple[DayRelation, DayRelation, DayRelation], ...], tuple[int, ...], tuple[Spirit | None, ...]]:
    """Per branch index: the three day relations (see above) and 旬空 (0/1/2); and the 六神 of
    lines 1-6."""
    if not isinstance(day, GanZhi):  # a bare day branch: no stem, so no 旬空 and no 六神
        return tuple([_day_rels(x, day, None, school) for x in BRANCHES]), (2,) * 12, (None,) * 6
    # A line's day relations depend on the day's 旬 only through 旬空 of the line's branch: the
    # table is read off its branch's (12 per school, where the days are 60), two rows in 空.
    xk = day.xunkong
    kong = tuple([int(x in xk) for x in BRANCHES])
    rows = _day_branch_table(day.branch, school)
    return tuple([row[k] for row, k in zip(rows, kong)]), kong, spirits_for(day.stem)


def _day_rels(x: Branch, day: Branch, xk: tuple[Branch, ...] | None, school: EarthSchool) -> tuple[DayRelation, DayRelation, DayRelation]:
    """The three day relations (see above) of a line of branch `x`."""
    rel = day_relation.__wrapped__
    e = x.element
    return rel(e, x, day, xk, None, False, school), rel(e, x, day, xk, Vigour.WANG, False, school), rel(e, x, day, xk, None, True, school)


@cache
def _day_branch_table(day: Branch, school: EarthSchool) -> tuple[tuple[tuple[DayRelation, ...], tuple[DayRelation, ...]], ...]:
    """Per branch index: the three day relations of a line of that branch on a day of branch
    `day`, the branch not 旬空 [0] and 旬空 [1]."""
    out = []
    for x in BRANCHES:
        rels = _day_rels(x, day, (), school)
        # positional construction: NamedTuple._replace is a Python-level call through a dict
        out.append((rels, tuple([_new(DayRelation, (r[0], True, *r[2:])) for r in rels])))
    return tuple(out)


_NO_DAY = (((None, None, None),) * 12, (2,) * 12, (None,) * 6)


@cache
def _change_rels(branch: Branch, changed: Branch, school: EarthSchool) -> tuple[ChangeRelation, ...]:
    """The change relation of `branch` moving into `changed`, by 化空 and 化破 (`kong * 3 + po`)."""
    b = change_relation.__wrapped__(branch, changed, None, None, school)
    # positional construction: NamedTuple._replace is a Python-level call through a dict
    return tuple(_new(ChangeRelation, (b[0], b[1], b[2], k, p, *b[5:])) for k in _STATES for p in _STATES)


@cache
def _change_rels_by_school(branch: Branch, changed: Branch) -> tuple[tuple[ChangeRelation, ...], tuple[ChangeRelation, ...]]:
    """`_change_rels` for each school (`_SCHOOL_INDEX`): one lookup per moving line of a cast met
    for the first time, not two."""
    return _change_rels(branch, changed, _SHUI), _change_rels(branch, changed, _HUO)


@cache
def _rows(h: Hexagram) -> tuple[tuple, ...]:
    """Per line of a hexagram what does not depend on the pillars or the moving lines:
    (line, position, branch index, 世, 应, value static, value moving, 伏神, its branch index, 飞伏)."""
    under = {hl.position: hl for hl in h.hidden}
    out = []
    for line in h.lines:
        p = line.position
        hl = under.get(p)
        out.append(
            (
                line,
                p,
                line.branch.index,
                p == h.shi,
                p == h.ying,
                7 if line.yang else 8,
                9 if line.yang else 6,
                hl,
                None if hl is None else hl.branch.index,
                None if hl is None else fei_fu(line.branch.element, hl.branch.element),
            )
        )
    return tuple(out)


def _cast_entry(h: Hexagram, moving: frozenset[int]) -> tuple:
    """What a chart of the cast (h, moving) takes from the cast alone: the 之卦, the features,
    and per position None (a static line) or (变爻, its branch index, its change relations by
    school, each by `kong * 3 + po`)."""
    mask = _MASKS.get(moving)
    if mask is None:  # moving lines given as some other collection than a frozenset
        mask = _MASKS[frozenset(moving)]
    if not mask:
        return None, _own_features(h), (None,) * 6
    # A cast's entry is its two trigrams' parts joined (see _half), which are fewer (1024) and
    # shared: a run meets most of them long before it has met half of the 4096 casts.
    lows, highs = _halves(h)
    k = mask & 7
    lo = lows[k] or _fill_half(lows, h, 1, k)
    k = mask >> 3
    hi = highs[k] or _fill_half(highs, h, 4, k)
    changed_h = _BY_CODE[h.code ^ mask]
    return changed_h, _own_features(h) + _changed_features(changed_h) + lo[1] + hi[1], lo[0] + hi[0]


@cache
def _halves(h: Hexagram) -> tuple[list[Any], list[Any]]:
    """`_half` of each trigram of `h` (lower, upper) by its moving lines (3 bits, bit 0 its
    first line), filled as casts come."""
    return [None] * 8, [None] * 8


def _fill_half(table: list[Any], h: Hexagram, first: int, k: int) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    # A half depends on the hexagram only through its trigram there and its palace's element:
    # the 64 hexagrams' 1,024 halves are some 640 (fewer than 500 met in thousands of charts).
    t = h.lower if first == 1 else h.upper
    key = t.code | k << 3 | first << 6 | h.palace.element.index << 9
    v = _HALVES.get(key)
    if v is None:
        v = _HALVES[key] = _half(h, first, k)
    table[k] = v
    return v


_HALVES: dict[int, tuple[tuple[Any, ...], tuple[str, ...]]] = {}


def _half(h: Hexagram, first: int, k: int) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    """The part of `_cast_entry` the trigram of `h` from position `first` gives, its lines
    moving as `k` (bits): its three positions' moves, and its 伏吟/反吟. A 变爻 is the line
    of the trigram its own trigram changes into: the other trigram takes no part."""
    flipped = _BY_CODE[h.code ^ k << (first - 1)]  # this trigram changed, the other not
    palace = h.palace.element
    moves = []
    for p in range(first, first + 3):
        if not k >> (p - first) & 1:
            moves.append(None)
            continue
        _p, yang, stem, cb, _r = flipped.lines[p - 1]
        changed = _new(ChangedLine, (p, yang, stem, cb, Relative.of(cb.element, palace)))
        moves.append((changed, cb.index, _change_rels_by_school(h.lines[p - 1].branch, cb)))
    if first == 1:
        features = _trigram_features("内卦", h.lower, flipped.lower)
    else:
        features = _trigram_features("外卦", h.upper, flipped.upper)
    return tuple(moves), features


_CASTS: dict[Cast, tuple] = {}  # `_cast_entry` by cast, each built at its first chart: at most 4096


def _cast_table(h: Hexagram) -> dict[frozenset[int], tuple]:
    """`_cast_entry` for every set of moving lines of `h` (64): what `build_chart` reads, entry
    by entry (tests)."""
    sets = (frozenset(i + 1 for i in range(6) if mask >> i & 1) for mask in range(64))
    return {moving: _cast_entry(h, moving) for moving in sets}


def build_chart(cast: Cast, pillars: FourPillars | None = None, school: EarthSchool = EarthSchool.SHUI) -> Chart:
    if pillars is None:
        pillars = _NO_PILLARS
    h, moving = cast
    try:
        entry = _CASTS.get(cast)
    except TypeError:  # moving lines given as some other collection than a frozenset
        entry = _cast_entry(h, frozenset(moving))
    if entry is None:  # built when first met, not for all 64 casts of a hexagram: a single command
        entry = _CASTS[cast] = _cast_entry(h, moving)  # casts one chart
    changed_h, features, moves = entry
    month = pillars.month
    mrels, strong, po = _NO_MONTH if month is None else _month_table(month)
    day = pillars.day
    drels, kong, spirits = _NO_DAY if day is None else _day_table(day, school)
    si = _SCHOOL_INDEX[school]
    lines = []
    for (line, _p, bi, shi, ying, v_static, v_moving, hl, hbi, fei), spirit, move in zip(_rows(h), spirits, moves):
        if move is None:
            mv = False
            changed = crel = None
            drel = drels[bi][strong[bi]]
            value = v_static
        else:
            mv = True
            changed, cbi, crels = move
            crel = crels[si][kong[cbi] * 3 + po[cbi]]
            drel = drels[bi][2]
            value = v_moving
        hidden = None if hl is None else _new(Hidden, (hl, fei, mrels[hbi], drels[hbi][strong[hbi]], mv))
        lines.append(_new(ChartLine, (line, mv, value, spirit, shi, ying, hidden, changed, mrels[bi], drel, crel)))
    return _new(Chart, (cast, pillars, tuple(lines), features, school))


# --- 用神 -------------------------------------------------------------------------------------


class Use(NamedTuple):
    """The 用神 as asked (`spec`) and where it stands: visible lines, or the 伏神 when absent."""

    spec: str
    relative: Relative | None
    positions: tuple[int, ...]  # visible lines carrying it
    hidden_positions: tuple[int, ...]  # when absent from the lines: the positions of its 伏神

    @property
    def is_hidden(self) -> bool:
        return not self.positions and bool(self.hidden_positions)


USE_CHOICES = ("官鬼", "官", "妻财", "财", "父母", "父", "兄弟", "兄", "子孙", "子", "孙", "世", "应", "1", "2", "3", "4", "5", "6")


def resolve_use(chart: Chart, spec: str) -> Use:
    """`--use`: a 六亲 (官鬼/官, 妻财/财, 父母/父, 兄弟/兄, 子孙/子/孙), 世, 应, or a line 1-6."""
    return _resolve_use(chart[0][0], spec)  # chart.cast.hexagram, without the property


@lru_cache(maxsize=4096)  # the answer depends on the hexagram alone: 64 × a dozen common specs
def _resolve_use(h: Hexagram, spec: str) -> Use:
    s = spec.strip()
    if s in ("世", "世爻"):
        return Use("世", h.lines[h.shi - 1].relative, (h.shi,), ())
    if s in ("应", "應", "应爻", "應爻"):
        return Use("应", h.lines[h.ying - 1].relative, (h.ying,), ())
    if s in ("1", "2", "3", "4", "5", "6"):  # not isdigit(): '¹' is a digit int() refuses
        p = int(s)
        return Use(s, h.lines[p - 1].relative, (p,), ())
    try:
        rel = Relative.parse(s)
    except UnknownNameError:
        raise UnknownNameError(f"not a 用神: {shown(spec)} (a 六亲, 世, 应, or a line 1-6)", spec, USE_CHOICES[:12]) from None
    visible = tuple(line.position for line in h.lines if line.relative is rel)
    hidden = tuple(hl.position for hl in h.hidden if hl.relative is rel)
    return Use(rel.value, rel, visible, () if visible else hidden)
