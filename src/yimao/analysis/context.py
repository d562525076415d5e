"""What the rules of volume 6 share for one chart and 用神 (docs/rules.md §0), worked out once.

What acts on a line: the 日, the 月, the moving lines of the 本卦, and a moving line's own 变爻,
which acts on that line only; each is a chart `Actor` (branch, source, position). 三刑, 墓开 and
六害 are judged on targets: the 用神's lines, or its 伏神 when it is not among the lines, and the
世 (「三刑六害，当别用爻，非以卦象云尔」, 6.12; 「身命，谓世及用爻遇之」, 6.10).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, NamedTuple

from yimao.analysis.by_topic import Targets, topic_targets
from yimao.analysis.finding import MEMBERS as _M
from yimao.analysis.finding import Member, lines_in
from yimao.chart import Actor, Chart, ChartLine, Source, Use, resolve_use
from yimao.ganzhi import BRANCHES, Branch, Element, GanZhi
from yimao.hexagram import Hexagram, Relative

USE_HIDDEN = "用神不上卦，取伏神"
USE_ABSENT = "用神不现，仅论世爻"
NO_DAY = "未给日辰，日辰不参"
NO_MONTH = "未给月建，月建不参"

_RI, _YUE, _DONG, _JING, _BIAN, _FU = Source.RI, Source.YUE, Source.DONGYAO, Source.JINGYAO, Source.BIANYAO, Source.FUSHEN


class ByAct(dict):
    """A value made from each act (branch, source, position) by `make`, made once, then shared.

    The rules turn a finding's acts into members and reasons with `map(BY_ACT.__getitem__,
    acts)`: a loop in C over one lookup each, where a comprehension costs a Python frame and a
    tuple or an f-string per act. Bounded by construction: 12 branches × 6 sources × 7 positions.
    """

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Actor], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, a: Actor) -> Any:
        v = self[a] = self.make(a)
        return v


def as_role(role: str) -> Callable[[Actor], Member]:
    """act → its member in `role` (interned, see MEMBERS)."""
    return ByAct(lambda a: _M[(*a, role)]).__getitem__


def reason(template: str) -> Callable[[Actor], str]:
    """act → `template` filled with its source and branch ({source}{branch}刑世 …)."""
    return ByAct(lambda a: template.format(source=a[1]._value_, branch=a[0]._value_)).__getitem__


class Target(NamedTuple):
    """A line a 刑 or 害 is judged on: a 用 line, the 用's 伏神 when it is absent, or the 世."""

    branch: Branch
    source: Source  # 动爻 | 静爻 | 伏神
    position: int
    role: str  # "用" | "世" | "用/世" | "财", "官" (男娶, 女嫁) | "财/世", "官/世"
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


class RuleContext:
    """What the rules share for one chart, 用神 and topic, worked out once (`analyse`): the pillars,
    the palace, the 世 and 应 lines; and for 三刑, 墓开 and 六害 the targets, the sources acting on
    each (docs/rules.md §0: 日, 月, the other moving lines, the line's own 变爻), and the notes."""

    __slots__ = (
        "chart", "day", "month", "stemless", "palace", "shi", "ying",
        "moving", "per_target", "base_hits", "changes", "topic",
    )  # fmt: skip

    per_target: tuple[tuple[Member, Relative, dict[Branch, tuple[Actor, ...]], tuple[str, ...], _Head], ...]

    def __init__(self, chart: Chart, use: Use | None, topic: str | None = None) -> None:
        self.chart = chart
        self.topic = topic
        cast, pl, lines, _features, _school = chart  # unpacked: a NamedTuple field read costs twice a local
        _year, m, d, _hour, _context = pl
        self.day, self.stemless, no_day = day, _stemless, no_day = _DAYS[d]
        self.month = month = m.branch if isinstance(m, GanZhi) else m
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
        if topic is not None:
            named = topic_targets(topic, use.relative.value if use is not None and use.relative is not None else None)
            if named.relative is not None:  # 「男娶谓财、女嫁谓官遇之」 (6.10): that 六亲, not the 世 nor the 用
                self.per_target = _named_targets(chart, named, facts, mv, base_hits, changes, _NOTES[no_day][no_month])
                return
        self.per_target = _use_targets(lines, use, facts, mv, base_hits, changes, shi_at + 1, no_day, no_month)

    @property
    def base(self) -> tuple[Actor, ...]:
        """日, 月 and the moving lines, in chart order: what acts on every target (but a moving
        line on itself)."""
        out: list[Actor] = []
        if self.day is not None:
            out.append(Actor(self.day, _RI, None))
        if self.month is not None:
            out.append(Actor(self.month, _YUE, None))
        out.extend([Actor(cl.line.branch, _DONG, cl.line.position) for cl in self.chart.lines if cl.moving])
        return tuple(out)

    @property
    def targets(self) -> tuple[Target, ...]:
        """The lines 三刑, 墓开 and 六害 are judged on (see `targets`)."""
        out = []
        for tm, relative, _hits, _notes, _head in self.per_target:
            b, source, position, role = tm
            assert position is not None and role is not None  # a target is always a line in a role
            ch = self.changes[position] if source is _DONG else None
            out.append(Target(b, source, position, role, relative, ch[0] if ch is not None else None))
        return tuple(out)

    @property
    def acts(self) -> tuple[tuple[Actor, ...], ...]:
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


def _use_targets(
    lines: tuple[ChartLine, ...],
    use: Use | None,
    facts: tuple[Any, ...],
    mv: int,
    base_hits: dict[Branch, tuple[Actor, ...]],
    changes: tuple[Actor | None, ...],
    shi_p: int,
    no_day: bool,
    no_month: bool,
) -> tuple[tuple[Member, Relative, dict[Branch, tuple[Actor, ...]], tuple[str, ...], _Head], ...]:
    """The targets of 三刑, 墓开 and 六害 by the 用神: its lines, else its 伏神; and the 世 (see
    RuleContext)."""
    notes = _NOTES[no_day][no_month]  # the notes of the visible targets
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
    return tuple(per_target)


_ROLES = ("用", "世", "用/世")
NAMED_ROLES = ("财", "官", "财/世", "官/世")  # the targets a topic names (男娶谓财、女嫁谓官), as such or the 世


def _named_targets(
    chart: Chart,
    named: Targets,
    facts: tuple[Any, ...],
    moving: int,
    base_hits: dict[Branch, tuple[Actor, ...]],
    changes: tuple[Actor | None, ...],
    pillar_notes: tuple[str, ...],
) -> tuple[tuple[Member, Relative, dict[Branch, tuple[Actor, ...]], tuple[str, ...], _Head], ...]:
    """The targets a topic names (docs/rules.md §6): the lines of its 六亲 in its role (财, 官),
    or, when none is among the lines, its 伏神; each with the sources acting on it, as for a 用."""
    assert named.relative is not None and named.role is not None and named.note is not None
    kin = resolve_use(chart, named.relative)
    shi = chart.cast.hexagram.shi
    out = []
    if kin.positions:
        notes = (named.note, *pillar_notes)
        for p in kin.positions:
            act, relative, _parts = facts[p]
            role = named.role + "/世" if p == shi else named.role  # as 用/世: the 世's readings stay
            if moving >> p & 1:
                tm, head = _TARGET_PARTS[(act[0], _DONG, p, role)]
                out.append((tm, relative, _moving_hits(base_hits, act, changes[p]), notes, head))
            else:
                tm, head = _TARGET_PARTS[(act[0], _JING, p, role)]
                out.append((tm, relative, base_hits, notes, head))
    else:  # every 六亲 absent from the lines is among the 伏神
        notes = (named.note, f"{named.role}不上卦，取伏神", *pillar_notes)
        for p in kin.hidden_positions:
            hd = chart.lines[p - 1].hidden
            if hd is not None:
                tm, head = _TARGET_PARTS[(hd.line.branch, _FU, p, named.role)]
                out.append((tm, hd.line.relative, base_hits, notes, head))
    return tuple(out)


@cache
def _hexagram_facts(h: Hexagram) -> tuple[Any, ...]:
    """What Scope takes from the hexagram alone: the palace element, the indices of the 世 and 应
    lines, per position (1-6) its line as a moving source (branch, 动爻, position), its 六亲,
    and its parts as a target (see _TARGET_PARTS) by role — 用, 世, 用/世 static, then moving —
    filled as targets come (a hexagram's lines are the 世 or a 用 in a few ways only); and what
    the moving lines of each trigram bring (see _trigram_moves), one cache lookup for both."""
    facts: list[Any] = [None]
    for ln in h.lines:
        facts.append((Actor(ln.branch, _DONG, ln.position), ln.relative, [None] * 6))
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
        v: tuple[Branch | None, bool, bool]
        if isinstance(d, GanZhi):
            v = (d.branch, False, False)
        else:
            v = (d, d is not None, d is None)
        self[d] = v
        return v


_DAYS = _Days()


def _notes_table(first: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], ...], ...]:
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
    memo: dict[Any, dict[str, Any]]


class _TargetParts(dict):
    """Per target (its branch, source, position, role): the target as a member and the head of
    every finding's details on it (see _Head), both built on first use and shared (never
    changed). Bounded by construction: 12 branches, 3 sources, 6 positions, 7 roles."""

    __slots__ = ()

    def __missing__(self, key: tuple[Branch, Source, int, str]) -> tuple[Member, _Head]:
        b, source, p, role = key
        head = _Head({"target": role, "hidden": source is _FU, "position": p, "branch": b._value_})
        head.memo = {}
        parts = self[key] = (_M[key], head)
        return parts


_TARGET_PARTS = _TargetParts()


def _moving_hits(base_hits: dict[Branch, tuple[Actor, ...]], own: Actor, ch: Actor | None) -> dict[Branch, tuple[Actor, ...]]:
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
_RI_ACTS = tuple(Actor(b, _RI, None) for b in BRANCHES)
_YUE_ACTS = tuple(Actor(b, _YUE, None) for b in BRANCHES)
_RI_ONLY = tuple((a,) for a in _RI_ACTS)  # the 日 or the 月 as a branch's only source
_YUE_ONLY = tuple((a,) for a in _YUE_ACTS)
_BIAN_ACTS = tuple(tuple(Actor(b, _BIAN, p) for b in BRANCHES) for p in range(7))


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
) -> tuple[dict[Branch, tuple[Actor, ...]], tuple[Actor | None, ...]]:
    """The lines of the trigram from position `first` that move (`mask`) as sources, by branch in
    chart order; and by position (its three) the 变爻 of each, or None."""
    sources: dict[Branch, tuple[Actor, ...]] = {}
    changes: list[Actor | None] = []
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


_MOVING_PARTS: dict[int, tuple[dict[Branch, tuple[Actor, ...]], tuple[Actor | None, ...]]] = {}


def _shared_moving(key: int, lines: tuple[ChartLine, ...], facts: tuple[Any, ...], first: int, mask: int) -> tuple[Any, Any]:
    """`_trigram_moving`, shared by the hexagrams with the same trigram there: a part depends on
    the trigram, its place (`key` bit 6: upper) and its moving lines (bits 3-5) alone (128 keys)."""
    v = _MOVING_PARTS.get(key)
    if v is None:
        v = _MOVING_PARTS[key] = _trigram_moving(lines, facts, first, mask)
    return v


def targets(chart: Chart, use: Use | None, topic: str | None = None) -> tuple[Target, ...]:
    """The lines 三刑, 墓开 and 六害 are judged on: the 用神's lines, else its 伏神; and the 世
    (or the lines the topic names: docs/rules.md §6)."""
    return RuleContext(chart, use, topic).targets


def lines_of(position: int | None, acts: Iterable[Actor]) -> tuple[int, ...]:
    """The lines of a finding on the target at `position` with the sources `acts` (日/月 have none)."""
    mask = BIT[position]
    for a in acts:
        mask |= BIT[a[2]]
    return lines_in(mask)


BIT: dict[int | None, int] = {None: 0, **{p: 1 << p for p in range(1, 7)}}  # a source's line as a bit, by its position (日/月: none)


__all__ = [
    "BIT",
    "NAMED_ROLES",
    "NO_DAY",
    "NO_MONTH",
    "USE_ABSENT",
    "USE_HIDDEN",
    "RuleContext",
    "Target",
    "as_role",
    "lines_of",
    "reason",
    "targets",
]
