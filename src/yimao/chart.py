"""A chart: a cast read against its pillars (六亲, 六神, 伏神, 变爻, and every line relation).

The relations are those of docs/rules.md §0: per line against 月建 and 日辰, per moving line
against its 变爻, per 伏神 against its 飞神, per hexagram. Whatever needs a pillar that was
not given is None. The analysis rules (`yimao.analysis`) and the stars read charts; they never
recompute these relations.

`build_chart` reads a cast line by line. The relation functions are cached (`functools.cache`)
on what each depends on — a branch and a pillar's branch, a few flags, the earth school — so
that a chart looks its relations up rather than working them out again: their domains are
finite and small (a few thousand entries in all).
"""

# No `from __future__ import annotations` here: typing.NamedTuple compiles each string field
# annotation at class creation, a cost every start of the program would pay.
from enum import Enum
from functools import cache, lru_cache
from typing import NamedTuple

from yimao.errors import UnknownNameError, shown
from yimao.ganzhi import (
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
from yimao.hexagram import Cast, Hexagram, HiddenLine, Line, Relative, Trigram
from yimao.pillars import FourPillars


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


@cache  # 12 branches × 6 sources × 7 positions: each made once, and shared by every cast that has it
def actor(branch: Branch, source: Source, position: int | None = None) -> Actor:
    return Actor(branch, source, position)


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
        return relation_tags(self.month, self.day, self.change)


def relation_tags(month: MonthRelation | None, day: DayRelation | None, change: ChangeRelation | None) -> tuple[str, ...]:
    """A line's relations to month, day and change as short labels, in that order."""
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
def month_relation(branch: Branch, month: Branch) -> MonthRelation:
    """A branch against the 月建: 旺相休囚死, 月破 (the month 冲 it), 月合, and 月生, 月克 or 月扶."""
    element, me = branch.element, month.element
    effect = "月扶" if me is element else "月生" if me.generates is element else "月克" if me.overcomes is element else None
    return MonthRelation(vigour(element, month), chong(branch, month), liuhe(branch, month), effect)


@cache
def day_relation(branch: Branch, day: Branch, kong: bool | None, moving: bool, strong: bool, school: EarthSchool) -> DayRelation:
    """A branch against the 日辰 `day`: its 十二长生 stage at the day, 日生, 日克 or 日扶, 日合,
    日冲; `kong` is its 旬空 in the day's 旬 (None when the day's stem is not known). A static
    line 冲 by the day is 暗动 when `strong` (旺相 in the month), else 日破; a moving line is
    neither."""
    element, de = branch.element, day.element
    effect = "日扶" if de is element else "日生" if de.generates is element else "日克" if de.overcomes is element else None
    is_chong = chong(branch, day)
    static_chong = is_chong and not moving
    return DayRelation(
        stage=stage(element, day, school),
        kong=kong,
        effect=effect,
        he=liuhe(branch, day),
        chong=is_chong,
        andong=static_chong and strong,
        ripo=static_chong and not strong,
    )


@cache
def change_relation(branch: Branch, changed: Branch, kong: bool | None, po: bool | None, school: EarthSchool) -> ChangeRelation:
    """A moving line of `branch` against its 变爻 `changed`. `kong` and `po` are the 变爻's own
    旬空 and 月破 (化空, 化破), None when the day's stem or the month is not known."""
    e, ce = branch.element, changed.element
    huitou = "回头生" if ce.generates is e else "回头克" if ce.overcomes is e else None
    return ChangeRelation(
        huitou=huitou,
        jin=JINSHEN.get(branch) is changed,
        tui=TUISHEN.get(branch) is changed,
        kong=kong,
        po=po,
        mu=changed is tomb(e, school),
        jue=stage(e, changed, school) is Stage.JUE,
        he=liuhe(branch, changed),
        chong=chong(branch, changed),
    )


@cache
def changed_line(line: Line, palace: Element) -> ChangedLine:
    """A 变爻: the `line` of the 之卦, its 六亲 counted in the original palace (element `palace`)."""
    return ChangedLine(line.position, line.yang, line.stem, line.branch, Relative.of(line.branch.element, palace))


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


def hexagram_features(h: Hexagram, changed: Hexagram | None) -> tuple[str, ...]:
    """六冲卦, 六合卦, 游魂, 归魂, and 伏吟/反吟 of the inner or outer trigram where the 之卦 warrants it."""
    # Assembled from parts that depend on one hexagram or one pair of trigrams each (the order
    # of the labels is theirs, in turn): 4,096 casts, but 64 hexagrams and 64 pairs of trigrams.
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


# --- building a chart -----------------------------------------------------------------------

_NO_PILLARS = FourPillars()
_NO_SPIRITS = (None,) * 6
# A NamedTuple built from a tuple of its fields in order: its own __new__ is a Python-level
# function, which made building a chart's lines cost three times as much.
_make = tuple.__new__


class _HexagramLine(NamedTuple):
    """What a line of a hexagram is before a cast moves it or the pillars read it."""

    line: Line
    shi: bool
    ying: bool
    hidden: HiddenLine | None  # the 伏神 under it
    fei: str | None  # the line, as 飞神, against that 伏神


@cache
def hexagram_lines(h: Hexagram) -> tuple[_HexagramLine, ...]:
    """The lines of `h`, 1-6, each with its 世 or 应 and the 伏神 under it."""
    under = {hl.position: hl for hl in h.hidden}
    out = []
    for line in h.lines:
        hl = under.get(line.position)
        fei = fei_fu(line.branch.element, hl.branch.element) if hl is not None else None
        out.append(_HexagramLine(line, line.position == h.shi, line.position == h.ying, hl, fei))
    return tuple(out)


def build_chart(cast: Cast, pillars: FourPillars | None = None, school: EarthSchool = EarthSchool.SHUI) -> Chart:
    """`cast` read against `pillars`, line by line (docs/rules.md §0): each line against the month and
    the day; a moving line's 变爻 and the change; the 伏神 under a line against its 飞神, the
    month and the day."""
    if pillars is None:
        pillars = _NO_PILLARS
    h, moving = cast
    if isinstance(moving, frozenset):
        changed_h = cast.changed
    else:  # moving lines given as some other collection
        changed_h = Cast(h, frozenset(moving)).changed
    palace = h.palace.element
    month, day = pillars.month, pillars.day
    if isinstance(month, GanZhi):
        month = month.branch
    yuepo = month.opposite if month is not None else None  # 月破: the branch the month 冲
    spirits: tuple[Spirit | None, ...]
    if isinstance(day, GanZhi):  # a 干支 day: its 旬空 and its 六神 are known
        xunkong, spirits, day = day.xunkong, spirits_for(day.stem), day.branch
    else:
        xunkong, spirits = None, _NO_SPIRITS
    changed_lines = changed_h.lines if changed_h is not None else ()
    lines = []
    for (line, shi, ying, hidden_line, fei), spirit in zip(hexagram_lines(h), spirits):
        branch = line.branch
        is_moving = line.position in moving
        kong = branch in xunkong if xunkong is not None else None
        month_rel, day_rel = line_relations(branch, is_moving, month, day, kong, school)
        changed = change = None
        if is_moving:
            changed = changed_line(changed_lines[line.position - 1], palace)
            cb = changed.branch
            kong = cb in xunkong if xunkong is not None else None  # 化空: the 变爻 旬空
            po = cb is yuepo if month is not None else None  # 化破: the 变爻 月破
            change = change_relation(branch, cb, kong, po, school)
        hidden = None
        if hidden_line is not None:
            hb = hidden_line.branch
            kong = hb in xunkong if xunkong is not None else None
            hidden_month, hidden_day = line_relations(hb, False, month, day, kong, school)
            # a 伏神 is lifted when its 飞神 moves (发动飞爻而相挈)
            hidden = _make(Hidden, (hidden_line, fei, hidden_month, hidden_day, is_moving))
        if line.yang:
            value = 9 if is_moving else 7
        else:
            value = 6 if is_moving else 8
        lines.append(_make(ChartLine, (line, is_moving, value, spirit, shi, ying, hidden, changed, month_rel, day_rel, change)))
    return _make(Chart, (cast, pillars, tuple(lines), hexagram_features(h, changed_h), school))


@cache
def line_relations(
    branch: Branch, moving: bool, month: Branch | None, day: Branch | None, kong: bool | None, school: EarthSchool
) -> tuple[MonthRelation | None, DayRelation | None]:
    """A line (or a 伏神) of `branch` against the month and the day, each None when that pillar
    is not given; `kong`: the branch is 旬空 (None when the day's stem is not known)."""
    month_rel = month_relation(branch, month) if month is not None else None
    if day is None:
        return month_rel, None
    strong = month_rel is not None and month_rel.vigour.strong
    return month_rel, day_relation(branch, day, kong, moving, strong, school)


def changed_relations(chart: Chart, changed: ChangedLine) -> tuple[MonthRelation | None, DayRelation | None]:
    """A 变爻's own standing against the month and the day — its 旺相休囚死 and its stage at the
    day — read as a moving line of its branch (so neither 暗动 nor 日破)."""
    month, day = chart.pillars.month, chart.pillars.day
    if isinstance(month, GanZhi):
        month = month.branch
    kong = None
    if isinstance(day, GanZhi):
        kong, day = changed.branch in day.xunkong, day.branch
    return line_relations(changed.branch, True, month, day, kong, chart.school)


# --- 用神 -------------------------------------------------------------------------------------


class Use(NamedTuple):
    """The 用神 as asked (`spec`) and where it stands: visible lines, or the 伏神 when absent."""

    spec: str
    relative: Relative | None
    positions: tuple[int, ...]  # visible lines carrying it
    hidden_positions: tuple[int, ...]  # when absent from the lines: the positions of its 伏神
    from_topic: str | None = None  # the --topic that supplied it, when no --use was given

    @property
    def is_hidden(self) -> bool:
        return not self.positions and bool(self.hidden_positions)


USE_CHOICES = ("官鬼", "官", "妻财", "财", "父母", "父", "兄弟", "兄", "子孙", "子", "孙", "世", "应", "1", "2", "3", "4", "5", "6")


def resolve_use(chart: Chart, spec: str) -> Use:
    """`--use`: a 六亲 (官鬼/官, 妻财/财, 父母/父, 兄弟/兄, 子孙/子/孙), 世, 应, or a line 1-6."""
    return use_in(chart[0][0], spec)  # chart.cast.hexagram, without the property


@lru_cache(maxsize=4096)  # 64 hexagrams × a dozen common specs
def use_in(h: Hexagram, spec: str) -> Use:
    """`resolve_use` by the hexagram alone, which is all the answer depends on."""
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
