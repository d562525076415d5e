"""三刑, 真刑, 三刑全, 刑冲并见, and 墓开 (docs/rules.md §3), judged on the 用神 and the 世.

"乘则刑之，上下相对，循环相加，此三刑之立法也。" (6.08) — the directed table is
`ganzhi.XING_TARGET`: X 刑 Y when XING_TARGET[X] is Y.
"三刑六害，当别用爻，非以卦象云尔。" (6.12) — so 刑 and 害 are judged per target line, never on
the hexagram as a whole.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple

from yimao.analysis.finding import MEMBERS as _M
from yimao.analysis.finding import Finding, Member, lines_in, new_finding, reading
from yimao.chart import Chart, ChartLine, Source, Use
from yimao.ganzhi import BRANCHES, XING_TARGET, Branch, EarthSchool, Element, GanZhi, tomb
from yimao.hexagram import Hexagram, Relative
from yimao.texts import Quote, quote

RULE = "三刑"
RULE_MU = "墓开"

# -- targets and the sources acting on them (shared with 六害) -------------------------------

USE_HIDDEN = "用神不上卦，取伏神"
USE_ABSENT = "用神不现，仅论世爻"
NO_DAY = "未给日辰，日辰不参"
NO_MONTH = "未给月建，月建不参"

# A source acting on a line, as a plain tuple for speed: (branch, source, position or None).
Act = tuple[Branch, Source, "int | None"]

_RI, _YUE, _DONG, _JING, _BIAN, _FU = Source.RI, Source.YUE, Source.DONGYAO, Source.JINGYAO, Source.BIANYAO, Source.FUSHEN


class ByAct(dict):
    """A value made from each act (branch, source, position) by `make`, made once, then shared.

    The rules turn a finding's acts into members and reasons with `map(BY_ACT.__getitem__,
    acts)`: a loop in C over one lookup each, where a comprehension costs a Python frame and a
    tuple or an f-string per act. Bounded by construction: 12 branches × 6 sources × 7 positions.
    """

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Act], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, a: Act) -> Any:
        v = self[a] = self.make(a)
        return v


def as_role(role: str) -> Callable[[Act], Member]:
    """act → its member in `role` (interned, see MEMBERS)."""
    return ByAct(lambda a: _M[(*a, role)]).__getitem__


def reason(template: str) -> Callable[[Act], str]:
    """act → `template` filled with its source and branch ({source}{branch}刑世 …)."""
    return ByAct(lambda a: template.format(source=a[1]._value_, branch=a[0]._value_)).__getitem__


class Target(NamedTuple):
    """A line a 刑 or 害 is judged on: a 用 line, the 用's 伏神 when it is absent, or the 世."""

    branch: Branch
    source: Source  # 动爻 | 静爻 | 伏神
    position: int
    role: str  # "用" | "世" | "用/世"
    relative: Relative
    changed: Branch | None  # its own 变爻 (a moving visible line only)

    @property
    def element(self) -> Element:
        return self.branch.element

    @property
    def hidden(self) -> bool:
        return self.source is Source.FUSHEN

    def member(self) -> Member:
        return Member(self.branch, self.source, self.position, self.role)


class Scope:
    """What the rules share for one chart and 用神, worked out once (`analyse`): the pillars, the
    palace, the 世 and 应 lines; and for 三刑, 墓开 and 六害 the targets, the sources acting on
    each (docs/rules.md §0: 日, 月, the other moving lines, the line's own 变爻), and the notes."""

    __slots__ = (
        "chart", "day", "month", "stemless", "palace", "shi", "ying",
        "moving", "per_target", "base_hits", "changes",
    )  # fmt: skip

    def __init__(self, chart: Chart, use: Use | None) -> None:
        self.chart = chart
        cast, pl, lines, _features, _school = chart  # unpacked: a NamedTuple field read costs twice a local
        _year, m, d, _hour, _context = pl
        self.day, self.stemless, no_day = day, _stemless, no_day = _DAYS[d]
        self.month = month = m.branch if m.__class__ is GanZhi else m
        h, moving = cast
        palace, shi_at, ying_at, facts, lows, highs = _hexagram_facts(h)
        self.palace = palace
        self.shi = lines[shi_at]  # Chart.shi_line and ying_line without their property calls
        self.ying = lines[ying_at]
        # 日, 月, the moving lines — what acts on every target (but a moving line on itself) —
        # grouped by branch, so that each rule looks up the few branches it cares about. The
        # moving lines come by trigram (see _trigram_moves), the 日 and the 月 before them.
        self.moving = mv = _MOVING_BITS[moving]
        k = mv >> 1 & 7
        lo = lows[k]
        if lo is None:
            lo = lows[k] = _shared_moving(h.lower.code | k << 3, lines, facts, 1, k)
        k = mv >> 4
        hi = highs[k]
        if hi is None:
            hi = highs[k] = _shared_moving(h.upper.code | k << 3 | 64, lines, facts, 4, k)
        (lo_sources, lo_changes), (hi_sources, hi_changes) = lo, hi
        base_hits = {**lo_sources, **hi_sources}
        if len(base_hits) < len(lo_sources) + len(hi_sources):  # a branch moves in both trigrams
            for b in lo_sources.keys() & hi_sources.keys():
                base_hits[b] = lo_sources[b] + hi_sources[b]
        if month is not None:
            i = month.index
            got = base_hits.get(month)
            base_hits[month] = _YUE_ONLY[i] if got is None else (_YUE_ACTS[i], *got)
        if day is not None:
            i = day.index
            got = base_hits.get(day)
            base_hits[day] = _RI_ONLY[i] if got is None else (_RI_ACTS[i], *got)
        self.base_hits = base_hits
        self.changes = changes = (None, *lo_changes, *hi_changes)  # by position: the 变爻 of each moving line

        # The targets: the 用神's lines, else its 伏神; and the 世 as well, unless it is a 用 line
        # already ("身命，谓世及用爻遇之", "克害重用爻世爻"). Per target, what its findings are made
        # of: the target as a member (its branch, source, position, role); its 六亲; the sources
        # acting on it, by branch (the dicts are shared: never changed); its notes; the details
        # every finding on it starts with (shared too: the rules copy it). A visible line as a
        # target: a static line suffers 日, 月 and every moving line; a moving one the others and
        # its own 变爻 (see _moving_hits); its member and head by role, static then moving, are
        # kept with its line's facts (see _hexagram_facts).
        no_month = month is None
        notes = _NOTES[no_day][no_month]  # the notes of the visible targets
        shi_p = shi_at + 1
        per_target = []
        if use is None:
            visible = ((shi_p, 1),)
        else:
            positions = use.positions
            if positions:
                visible = _VISIBLE[(positions, shi_p)]
            else:
                visible = ((shi_p, 1),)
                if use.hidden_positions:
                    fu_notes = _HIDDEN_NOTES[no_day][no_month]
                    for p in use.hidden_positions:
                        hd = lines[p - 1].hidden
                        if hd is not None:
                            hl = hd.line
                            tm, head = _TARGET_PARTS[(hl.branch, _FU, p, "用")]
                            per_target.append((tm, hl.relative, base_hits, fu_notes, head))
                else:
                    notes = _ABSENT_NOTES[no_day][no_month]
        for p, role in visible:  # inline: a call per target cost as much as the rest
            act, relative, parts = facts[p]
            if mv >> p & 1:
                k = role + 3
                got = parts[k]
                if got is None:
                    got = parts[k] = _TARGET_PARTS[(act[0], _DONG, p, _ROLES[role])]
                per_target.append((got[0], relative, _moving_hits(base_hits, act, changes[p]), notes, got[1]))
            else:
                got = parts[role]
                if got is None:
                    got = parts[role] = _TARGET_PARTS[(act[0], _JING, p, _ROLES[role])]
                per_target.append((got[0], relative, base_hits, notes, got[1]))
        self.per_target: tuple[tuple[Member, Relative, dict[Branch, tuple[Act, ...]], tuple[str, ...], dict[str, Any]], ...] = tuple(per_target)

    @property
    def base(self) -> tuple[Act, ...]:
        """日, 月 and the moving lines, in chart order: what acts on every target (but a moving
        line on itself)."""
        out: list[Act] = []
        if self.day is not None:
            out.append((self.day, _RI, None))
        if self.month is not None:
            out.append((self.month, _YUE, None))
        out.extend([(cl.line.branch, _DONG, cl.line.position) for cl in self.chart.lines if cl.moving])
        return tuple(out)

    @property
    def targets(self) -> tuple[Target, ...]:
        """The lines 三刑, 墓开 and 六害 are judged on (see `targets`)."""
        out = []
        for tm, relative, _hits, _notes, _head in self.per_target:
            ch = self.changes[tm.position] if tm.source is _DONG else None
            out.append(Target(tm.branch, tm.source, tm.position, tm.role, relative, ch[0] if ch is not None else None))
        return tuple(out)

    @property
    def acts(self) -> tuple[tuple[Act, ...], ...]:
        """Per target, the sources acting on it: 日, 月, the other moving lines, its own 变爻."""
        out = []
        base = self.base
        for t in self.targets:
            if t.source is _DONG:
                ch = self.changes[t.position]
                out.append(tuple([a for a in base if a[2] != t.position] + ([ch] if ch is not None else [])))
            else:
                out.append(base)
        return tuple(out)


_ROLES = ("用", "世", "用/世")


@cache
def _hexagram_facts(h: Hexagram) -> tuple[Any, ...]:
    """What Scope takes from the hexagram alone: the palace element, the indices of the 世 and 应
    lines, per position (1-6) its line as a moving source (branch, 动爻, position), its 六亲,
    and its parts as a target (see _TARGET_PARTS) by role — 用, 世, 用/世 static, then moving —
    filled as targets come (a hexagram's lines are the 世 or a 用 in a few ways only); and what
    the moving lines of each trigram bring (see _trigram_moves), one cache lookup for both."""
    facts: list[Any] = [None]
    for ln in h.lines:
        facts.append(((ln.branch, _DONG, ln.position), ln.relative, [None] * 6))
    return (h.palace.element, h.shi - 1, h.ying - 1, tuple(facts), *_trigram_moves(h))


class _Visible(dict):
    """The visible targets, by the 用神's positions and the 世's: (position, role) in order — each
    用 line (0 用, 2 用/世 when it is the 世), then the 世 (1) unless it is a 用 line. A few dozen
    keys: the positions of a 六亲 in a hexagram, or one line."""

    __slots__ = ()

    def __missing__(self, key: tuple[tuple[int, ...], int]) -> tuple[tuple[int, int], ...]:
        positions, shi_p = key
        v = tuple((p, 2 if p == shi_p else 0) for p in positions)
        if shi_p not in positions:
            v += ((shi_p, 1),)
        self[key] = v
        return v


_VISIBLE = _Visible()


class _Days(dict):
    """Per day pillar (a 干支, a bare branch, or None; 73 keys): its branch, whether its stem is
    missing (a bare branch: no 旬空), and whether it is missing."""

    __slots__ = ()

    def __missing__(self, d: GanZhi | Branch | None) -> tuple[Branch | None, bool, bool]:
        if d.__class__ is GanZhi:
            v = (d.branch, False, False)
        else:
            v = (d, d is not None, d is None)
        self[d] = v
        return v


_DAYS = _Days()


def _notes_table(first: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """A target's notes by [no day][no month]: those of the 用神 (`first`), then of the pillars."""
    return tuple(
        tuple(first + ((NO_DAY,) if no_day else ()) + ((NO_MONTH,) if no_month else ()) for no_month in (False, True)) for no_day in (False, True)
    )


_NOTES = _notes_table(())
_HIDDEN_NOTES = _notes_table((USE_HIDDEN,))
_ABSENT_NOTES = _notes_table((USE_ABSENT,))


class _Head(dict):
    """The head of every finding's details on a target (target, hidden, position, branch), and in
    `memo` the details of its findings by what they add (三刑, 墓开, 六害: a few ways each; a
    三刑 on the 世 by hexagram, as its 凶 readings are the hexagram's), each built once: they are
    shared, read-only (documents are, see serialize)."""

    __slots__ = ("memo",)


class _TargetParts(dict):
    """Per target (its branch, source, position, role): the target as a member and the head of
    every finding's details on it (see _Head), both built on first use and shared (never
    changed). Bounded by construction: 12 branches, 3 sources, 6 positions, 3 roles."""

    __slots__ = ()

    def __missing__(self, key: tuple[Branch, Source, int, str]) -> tuple[Member, _Head]:
        b, source, p, role = key
        head = _Head({"target": role, "hidden": source is _FU, "position": p, "branch": b._value_})
        head.memo = {}
        parts = self[key] = (_M[key], head)
        return parts


_TARGET_PARTS = _TargetParts()


def _moving_hits(base_hits: dict[Branch, tuple[Act, ...]], own: Act, ch: Act | None) -> dict[Branch, tuple[Act, ...]]:
    """The sources acting on a moving line (`own`, as a source), by branch: those of every line
    but itself, and its own 变爻 `ch`."""
    out = base_hits.copy()
    b = own[0]
    same = out[b]
    if len(same) == 1:
        del out[b]
    else:
        p = own[2]
        out[b] = tuple([a for a in same if a[2] != p])
    if ch is not None:
        cb = ch[0]
        out[cb] = (*out[cb], ch) if cb in out else (ch,)
    return out


# Sources as shared tuples: the 日 and the 月 by branch, a 变爻 by [position][branch].
_RI_ACTS = tuple((b, _RI, None) for b in BRANCHES)
_YUE_ACTS = tuple((b, _YUE, None) for b in BRANCHES)
_RI_ONLY = tuple((a,) for a in _RI_ACTS)  # the 日 or the 月 as a branch's only source
_YUE_ONLY = tuple((a,) for a in _YUE_ACTS)
_BIAN_ACTS = tuple(tuple((b, _BIAN, p) for b in BRANCHES) for p in range(7))


class _MovingBits(dict):
    """A cast's moving lines as bits (bit p for line p), by their frozenset: 64 keys at most."""

    __slots__ = ()

    def __missing__(self, moving: frozenset[int]) -> int:
        bits = self[moving] = sum([1 << p for p in moving])
        return bits


_MOVING_BITS = _MovingBits()


@cache
def _trigram_moves(h: Hexagram) -> tuple[list[Any], list[Any]]:
    """What the moving lines of each trigram of `h` bring, by the trigram's moving lines (3 bits,
    bit 0 its first line): [lower], [upper], filled as charts come (see _trigram_moving).

    A 变爻's branch is the 纳甲 of the trigram its line changes into: it depends on the hexagram
    and on which lines of its own trigram move, not on the other trigram. So a trigram's part is
    read off the first chart that moves it so and kept: 64 × 2 × 8 entries at most, most of them
    met within the first few hundred charts (where whole casts, 4096, would rarely repeat)."""
    return [None] * 8, [None] * 8


def _trigram_moving(
    lines: tuple[ChartLine, ...], facts: tuple[Any, ...], first: int, mask: int
) -> tuple[dict[Branch, tuple[Act, ...]], tuple[Act | None, ...]]:
    """The lines of the trigram from position `first` that move (`mask`) as sources, by branch in
    chart order; and by position (its three) the 变爻 of each, or None."""
    sources: dict[Branch, tuple[Act, ...]] = {}
    changes: list[Act | None] = []
    for p in range(first, first + 3):
        ch = None
        if mask >> (p - first) & 1:
            a = facts[p][0]
            b = a[0]
            sources[b] = (*sources[b], a) if b in sources else (a,)
            chl = lines[p - 1].changed
            if chl is not None:
                ch = _BIAN_ACTS[p][chl.branch.index]
        changes.append(ch)
    return sources, tuple(changes)


_MOVING_PARTS: dict[int, tuple[dict[Branch, tuple[Act, ...]], tuple[Act | None, ...]]] = {}


def _shared_moving(key: int, lines: tuple[ChartLine, ...], facts: tuple[Any, ...], first: int, mask: int) -> tuple[Any, Any]:
    """`_trigram_moving`, shared by the hexagrams with the same trigram there: a part depends on
    the trigram, its place (`key` bit 6: upper) and its moving lines (bits 3-5) alone (128 keys)."""
    v = _MOVING_PARTS.get(key)
    if v is None:
        v = _MOVING_PARTS[key] = _trigram_moving(lines, facts, first, mask)
    return v


def targets(chart: Chart, use: Use | None) -> tuple[Target, ...]:
    """The lines 三刑, 墓开 and 六害 are judged on: the 用神's lines, else its 伏神; and the 世."""
    return Scope(chart, use).targets


def lines_of(position: int, acts) -> tuple[int, ...]:
    """The lines of a finding on the target at `position` with the sources `acts` (日/月 have none)."""
    mask = 1 << position
    for a in acts:
        mask |= BIT[a[2]]
    return lines_in(mask)


BIT = {None: 0, **{p: 1 << p for p in range(1, 7)}}  # a source's line as a bit, by its position (日/月: none)


_BV = tuple(b.value for b in BRANCHES)


# -- the sentences ---------------------------------------------------------------------------
Q_LAW = quote("乘则刑之，上下相对，循环相加，此三刑之立法也。", "凡乘上去就成刑，上下相对，循环相加——这就是三刑的立法。")
Q_NOT_THREE = quote("是故三刑之名，不可以三泥也。", "所以「三刑」这个名称，不可拘泥在「三」字上。")
Q_NAMES = quote(
    "孟党孟刑，仲党仲刑，季党季刑，以故有寅巳申、丑戌未、卯子、子卯、辰午酉亥之名也。",
    "孟位一类的刑孟位，仲位一类的刑仲位，季位一类的刑季位，所以有寅巳申、丑戌未、卯刑子、子刑卯，以及辰、午、酉、亥各自自刑这些名目。",
)
Q_USE = quote("三刑六害，当别用爻，非以卦象云尔。", "三刑与六害，要分辨落在哪个用爻上，不是就整个卦象说的。")
Q_ZHEN = quote("酉建庚申日，用财得困之兑是谓真刑", "酉月庚申日以妻财为用，得《困》变《兑》，这就叫真刑")
Q_JIANCHONG = quote("刑而兼冲，其力更大", "若刑而又兼冲，力量更大")
Q_IMAGE = quote("夫刑之为象，于物若毙，于心若忧，于事若漓", "刑的取象：在物上像要凋敝，在心上像是忧愁，在事上像是浇薄")
Q_WEIGHT = quote("犹退神之例，而不及旬空月破之凶也", "与「退神」的例子相仿，还不及旬空、月破那样凶")
Q_WHOM = quote("身命，谓世及用爻遇之，男娶谓财、女嫁谓官遇之", "所谓身命遇刑，指世爻及用爻逢刑；男子娶妻则指妻财逢刑，女子出嫁则指官鬼逢刑")
Q_SHI_XING = quote("官克世而问讼，五克世而问疏，若世刑而大凶也", "官鬼克世而问讼事、第五爻克世而问上疏，此时世爻若又逢刑，就是大凶")
Q_MU = quote("三刑之法，墓亦赖之，刑则墓开，刑而兼冲，其力更大。", "三刑之法，入墓之爻也要靠它：一刑，墓门就开；若刑而又兼冲，力量更大。")
Q_MU_KEY = quote("夫墓得刑冲，犹锁得钥，故曰墓开", "入墓之爻得刑得冲，好比锁配上了钥匙，所以叫「墓开」")
Q_MU_LIGHT = quote("然不及冲，故刑而不冲者轻，刑而兼冲者重", "不过刑的力量不如冲，所以只刑不冲的轻，刑而兼冲的重")


READINGS: tuple[dict[str, str], ...] = (
    reading("身命", "身命遇之，恐骨肉之相残", "占身命遇刑，恐怕骨肉相残"),
    reading("婚姻", "婚姻遇之，惧门第之相压", "占婚姻遇刑，怕两家门第互相倾轧"),
    reading("宦", "宦忧内丧", "做官的忧家中有丧"),
    reading("病", "病防带疾", "病人须防落下残疾"),
)
_SEVERITY = (Q_IMAGE.to_dict(), Q_WEIGHT.to_dict())

# Names the book gives (6.09): 寅巳申 and 丑戌未 (孟/季), 子卯 无礼之刑, 辰午酉亥 自刑.
_TRIPLES = (
    (Branch.YIN, Branch.SI, Branch.SHEN),
    (Branch.CHOU, Branch.XU, Branch.WEI),
)
_TRIPLE_OF = [next((tr for tr in _TRIPLES if b in tr), None) for b in BRANCHES]
_TRIPLE_OTHERS = [None if tr is None else tuple(o for o in tr if o is not b) for b, tr in zip(BRANCHES, _TRIPLE_OF)]
_TRIPLE_NAME = {tr: "".join(b.value for b in tr) for tr in _TRIPLES}
_READINGS = [*READINGS, {"topic": "谁遇", **Q_WHOM.to_dict()}]
_SHI_XING = Q_SHI_XING.to_dict()


def _name(x: Branch, y: Branch) -> str:
    if x is y:
        return "自刑"
    if {x, y} == {Branch.ZI, Branch.MAO}:
        return "无礼之刑"
    return "寅巳申" if x in _TRIPLES[0] else "丑戌未"


# Per branch (by index), so that a target's checks compare branches by identity. XING_TARGET is
# a permutation of the branches (each branch is 刑'd by exactly one), so "who 刑 me" is one branch.
_XING_OF = tuple(XING_TARGET[b] for b in BRANCHES)  # the branch b 刑
if len(set(_XING_OF)) != len(BRANCHES):
    raise AssertionError("XING_TARGET must be a permutation of the branches")
_XING_BY = tuple(next(x for x in BRANCHES if XING_TARGET[x] is b) for b in BRANCHES)  # the branch that 刑 b
_OPPOSITE = tuple(b.opposite for b in BRANCHES)  # the branch that 冲 b
_NAME_BY = tuple(_name(_XING_BY[b.index], b) for b in BRANCHES)  # the name of the 刑 on b
_NAME_OF = tuple(_name(b, _XING_OF[b.index]) for b in BRANCHES)  # the name of the 刑 b does


# -- 三刑 ------------------------------------------------------------------------------------

_TEXT_REV = (Q_LAW, Q_USE)
_TEXT_ZHEN = (Q_LAW, Q_JIANCHONG, Q_ZHEN)
_TEXT_JIANCHONG = (Q_LAW, Q_JIANCHONG)
_TEXT_XING = (Q_LAW, Q_NOT_THREE)
_TEXT_FULL = (Q_NAMES, Q_LAW)


def sanxing(chart: Chart, use: Use | None = None, scope: Scope | None = None) -> tuple[Finding, ...]:
    """三刑 on each target: 真刑 / 刑冲并见 / 刑 (holding), 我刑彼 (a near miss), and 三刑全."""
    sc = scope if scope is not None else Scope(chart, use)
    out: list[Finding] = []
    for tm, relative, hits, notes, head in sc.per_target:
        bi = tm[0].index
        # most targets meet no 刑 at all: look before calling
        if _XING_BY[bi] in hits or _XING_OF[bi] in hits:
            out.append(_xing_on(sc, tm, relative, head, hits, notes, bi))
        others = _TRIPLE_OTHERS[bi]
        if others is not None and others[0] in hits and others[1] in hits:
            out.append(_full(tm, relative, head, hits, notes))
    return tuple(out)


_AS_XING, _AS_CHONG, _AS_XINGCHONG, _AS_SHOUXING = as_role("刑"), as_role("冲"), as_role("刑冲"), as_role("受刑")
_XING_REASON = {role: reason("{source}{branch}刑" + role) for role in _ROLES}  # by the target's role


def _xing_on(sc: Scope, tm: Member, relative: Relative, head: _Head, hits: dict[Branch, tuple[Act, ...]], notes: tuple[str, ...], bi: int) -> Finding:
    b, _source, position, role = tm
    xb = _XING_BY[bi]
    xing_by = hits.get(xb)
    if xing_by is None:
        # The 用 刑 its source but is not 刑'd by it (寅 化 巳): reported, does not count.
        rev = hits[_XING_OF[bi]]
        return new_finding(
            (  # rule, holds, kind, element, relative, lines, members, reasons, text, details
                RULE,
                False,
                "刑",
                b.element,
                relative,
                lines_of(position, rev),
                (tm, *map(_AS_SHOUXING, rev)),
                ("我刑彼", *notes),
                _TEXT_REV,
                _memo(head, "我刑彼", {"name": _NAME_OF[bi]}),
            )
        )
    reasons = (*map(_XING_REASON[role], xing_by),)
    mask = 1 << position  # the finding's lines (lines_of inlined)
    for a in xing_by:
        mask |= BIT[a[2]]
    ob = _OPPOSITE[bi]
    if xb is ob:  # one source both 刑 and 冲 (申→寅, 未→丑): 真刑
        kind, text, weight = "真刑", _TEXT_ZHEN, "重"
        members = (tm, *map(_AS_XINGCHONG, xing_by))
        reasons += ("刑而兼冲",)
        lines = lines_in(mask)
    else:
        chong_by = hits.get(ob)
        if chong_by is not None:
            kind, text, weight = "刑冲并见", _TEXT_JIANCHONG, "中"
            members = (tm, *map(_AS_XING, xing_by), *map(_AS_CHONG, chong_by))
            reasons += ("刑冲异源",)
            for a in chong_by:
                mask |= BIT[a[2]]
            lines = lines_in(mask)
        else:
            kind, text, weight = "刑", _TEXT_XING, "轻"
            members = (tm, *map(_AS_XING, xing_by))
            lines = lines_in(mask)
    # the details by the kind, and on the 世 by the hexagram too (see _Head)
    memo = head.memo
    dkey = kind if role == "用" else (kind, sc.chart.cast.hexagram)
    details = memo.get(dkey)
    if details is None:
        details = memo[dkey] = {
            **head,
            "name": _NAME_BY[bi],
            "weight": weight,
            "severity": [*_SEVERITY],
            "readings": [*_READINGS],
        }
        if role != "用":
            grave = _shi_danger_in(sc.chart.cast.hexagram)
            if grave:
                details["grave"] = [*grave]
    return new_finding(
        (  # rule, holds, kind, element, relative, lines, members, reasons, text, details
            RULE,
            True,
            kind,
            b.element,
            relative,
            lines,
            members,
            (*reasons, *notes),
            text,
            details,
        )
    )


def _shi_danger(chart: Chart, shi: ChartLine) -> list[dict[str, str]]:
    """官克世而问讼，五克世而问疏，若世刑而大凶 (6.10): which of the two this chart has."""
    return list(_shi_danger_in(chart.cast.hexagram))


@cache
def _shi_danger_in(h: Hexagram) -> tuple[dict[str, str], ...]:
    """`_shi_danger` by hexagram: the 世 and the lines, 六亲 and elements, are the hexagram's."""
    shi = h.lines[h.generation.shi - 1]
    out = []
    if shi.relative is Relative.XIONGDI and any(ln.relative is Relative.GUANGUI for ln in h.lines):
        out.append({"topic": "讼", "reading": "官克世而世刑，大凶", **_SHI_XING})
    five = h.lines[4]
    if five is not shi and five.branch.element.overcomes is shi.branch.element:
        out.append({"topic": "疏", "reading": "五克世而世刑，大凶", **_SHI_XING})
    return tuple(out)


def _full(tm: Member, relative: Relative, head: _Head, hits: dict[Branch, tuple[Act, ...]], notes: tuple[str, ...]) -> Finding:
    """三刑全: the target and the other two of 寅巳申 (or 丑戌未) among the sources acting on it."""
    b = tm[0]
    bi = b.index
    o1, o2 = _TRIPLE_OTHERS[bi]
    found = hits[o1] + hits[o2]
    name = _TRIPLE_NAME[_TRIPLE_OF[bi]]
    return new_finding(
        (  # rule, holds, kind, element, relative, lines, members, reasons, text, details
            RULE,
            True,
            "三刑全",
            b.element,
            relative,
            lines_of(tm[2], found),
            (tm, *map(_AS_XING, found)),
            (name + "全", *notes),
            _TEXT_FULL,
            _memo(head, "全", {"name": name}),
        )
    )


# -- 墓开 ------------------------------------------------------------------------------------

_HOLDER_WORD = {_RI: "入日墓", _YUE: "入月墓", _DONG: "入动墓", _BIAN: "化墓"}


# The 墓 of each branch's element (by index), by school.
_TOMBS = {school: tuple(tomb(b.element, school) for b in BRANCHES) for school in EarthSchool}


def mukai(chart: Chart, use: Use | None = None, scope: Scope | None = None) -> tuple[Finding, ...]:
    """墓开 on each target: its 墓 standing as 日, 月, a moving line or its own 变爻, tested against
    the sources acting on that 墓: 刑 → 墓开 (轻), 刑而兼冲 → 墓开 (重), 冲 → 冲开, neither → 墓闭."""
    sc = scope if scope is not None else Scope(chart, use)
    out: list[Finding] = []
    tombs = _TOMBS[chart.school]
    for tm, relative, hits, notes, head in sc.per_target:
        mu = tombs[tm[0].index]
        # the 墓 among the sources acting on the target (日, 月, other moving lines, own 变爻)
        holders = hits.get(mu)
        if holders is not None:
            for h in holders:
                out.append(_mu(tm, relative, head, h, mu, sc, notes))
    return tuple(out)


_AS_MU = as_role("墓")
_MU_XING, _MU_CHONG = reason("{source}{branch}刑墓"), reason("{source}{branch}冲墓")


def _mu(tm: Member, relative: Relative, head: _Head, h: Act, mu: Branch, sc: Scope, notes: tuple[str, ...]) -> Finding:
    # What may open the 墓: 日, 月 and the moving lines (not the 墓 itself, not the target line),
    # and the 墓's own 变爻 when the 墓 is a moving line — a 变爻 acts on its own line only.
    b, source, position, _role = tm
    own = position if source is not _FU else 0  # only moving lines carry a position in `base`
    mi = mu.index
    xb, ob = _XING_BY[mi], _OPPOSITE[mi]
    base_hits = sc.base_hits
    # loops, not comprehensions (a comprehension is a frame); with the lines as bits on the way
    hp = h[2]
    mask = 1 << position | (1 << hp if hp is not None else 0)
    xing_by: list[Act] = []
    chong_by: list[Act] = []
    for branch, acts in ((xb, xing_by), (ob, chong_by)):  # in this frame, not a helper's
        by = base_hits.get(branch)
        if by is not None:
            for a in by:
                p = a[2]
                if a != h and p != own:
                    acts.append(a)
                    if p is not None:
                        mask |= 1 << p
    if h[1] is _DONG:
        ch = sc.changes[hp]
        if ch is not None:
            if ch[0] is xb:
                xing_by.append(ch)
                mask |= 1 << hp
            if ch[0] is ob:
                chong_by.append(ch)
                mask |= 1 << hp
    text: tuple[Quote, ...]
    word = _HOLDER_WORD[h[1]]
    if xing_by or chong_by:
        if xing_by:
            if chong_by:
                kind, weight, text = "墓开", "重", _TEXT_MU_BOTH
            else:
                kind, weight, text = "墓开", "轻", _TEXT_MU_XING
        else:
            kind, weight, text = "冲开", "重", _TEXT_MU_CHONG
        holds = True
        if xb is ob:  # 未 both 刑 and 冲 the 丑: the same sources, once, as 刑冲
            members = (tm, _AS_MU(h), *map(_AS_XINGCHONG, xing_by))
        else:
            members = (tm, _AS_MU(h), *map(_AS_XING, xing_by), *map(_AS_CHONG, chong_by))
        reasons = (word, *map(_MU_XING, xing_by), *map(_MU_CHONG, chong_by), *notes)
    else:  # 墓闭, half of them: nothing to map
        kind, holds, weight, text = "墓闭", False, None, _TEXT_MU_SHUT
        members = (tm, _AS_MU(h))
        reasons = (word, "无刑冲", *notes)
    # the details by the 墓, its holder and the weight, kept with the target's head (see _Head)
    memo = head.memo
    dkey = (mi, word, weight)
    details = memo.get(dkey)
    if details is None:
        details = memo[dkey] = {**head, "tomb": _BV[mi], "holder": word, "weight": weight}
    return new_finding(
        (  # rule, holds, kind, element, relative, lines, members, reasons, text, details
            RULE_MU,
            holds,
            kind,
            b.element,
            relative,
            lines_in(mask),
            members,
            reasons,
            text,
            details,
        )
    )


def _memo(head: _Head, key: str, extra: dict[str, Any]) -> dict[str, Any]:
    """The details of a rare finding on the target of `head` (a near miss, 三刑全): `extra`
    after the head, kept by `key` (see _Head)."""
    memo = head.memo
    details = memo.get(key)
    if details is None:
        details = memo[key] = {**head, **extra}
    return details


_TEXT_MU_BOTH = (Q_MU, Q_MU_KEY, Q_MU_LIGHT)
_TEXT_MU_XING = (Q_MU, Q_MU_LIGHT)
_TEXT_MU_CHONG = (Q_MU_KEY,)
_TEXT_MU_SHUT = (Q_MU, Q_MU_KEY)


__all__ = ["RULE", "RULE_MU", "READINGS", "Act", "Scope", "Target", "mukai", "sanxing", "targets"]
