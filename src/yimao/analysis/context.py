"""What the rules of volume 6 share for one chart, 用神 and topic (docs/rules.md §0), worked out once.

What acts on a line: the 日, the 月, the moving lines of the 本卦, and a moving line's own 变爻,
which acts on that line only. Each is a chart `Actor` (branch, source, position).

三刑, 墓开 and 六害 are judged on targets: the 用神's lines, or its 伏神 when it is not among the
lines, and the 世 (「三刑六害，当别用爻，非以卦象云尔」, 6.12; 「身命，谓世及用爻遇之」, 6.10); for
男娶 and 女嫁 the lines of the 妻财 or the 官鬼 instead (「男娶谓财、女嫁谓官遇之」, 6.10).

A `RuleContext` holds these facts as named fields; every rule reads it and none works them out
again.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from types import MappingProxyType
from typing import NamedTuple

from yimao.analysis.by_topic import topic_targets
from yimao.analysis.finding import Member, TargetRef
from yimao.chart import Actor, Chart, ChartLine, Source, Use, actor, use_in
from yimao.ganzhi import Branch, Element, GanZhi
from yimao.hexagram import Cast, Hexagram, Line, Relative

USE_HIDDEN = "用神不上卦，取伏神"
USE_ABSENT = "用神不现，仅论世爻"
NO_DAY = "未给日辰，日辰不参"
NO_MONTH = "未给月建，月建不参"

NAMED_ROLES = ("财", "官", "财/世", "官/世")  # the targets a topic names (男娶谓财、女嫁谓官), as such or the 世
SHI_ROLES = ("世", "用/世", "财/世", "官/世")  # the targets that are the 世


class Target(NamedTuple):
    """A line a 刑, a 墓 or a 害 is judged on — a 用 line, the 用's 伏神 when it is absent, the 世,
    or a line a topic names — with everything that acts on it."""

    branch: Branch
    source: Source  # 动爻 | 静爻 | 伏神
    position: int
    role: str  # "用" | "世" | "用/世" | "财", "官" (男娶, 女嫁) | "财/世", "官/世"
    relative: Relative
    changed: Branch | None  # its own 变爻 (a moving visible line only)
    acts: tuple[Actor, ...]  # 日, 月, the other moving lines, its own 变爻: in that order
    acting: frozenset[Branch]  # their branches
    notes: tuple[str, ...]  # what every finding on it says besides its reasons

    @property
    def element(self) -> Element:
        return self.branch.element

    @property
    def hidden(self) -> bool:
        return self.source is Source.FUSHEN

    @property
    def is_shi(self) -> bool:
        return self.role in SHI_ROLES

    def member(self) -> Member:
        return Member(self.branch, self.source, self.position, self.role)

    def ref(self) -> TargetRef:
        """This target as the details of a finding on it name it."""
        return TargetRef(self.role, self.hidden, self.position, self.branch)

    def by(self, branch: Branch) -> tuple[Actor, ...]:
        """The sources of `branch` acting on this target, in order."""
        if branch not in self.acting:  # most branches act on no target: the set answers first
            return ()
        return tuple([a for a in self.acts if a.branch is branch])


class RuleContext(NamedTuple):
    """One chart, its 用神 and the topic asked, as the rules read them."""

    chart: Chart
    use: Use | None
    topic: str | None
    day: Branch | None
    month: Branch | None
    stemless: bool  # the day is a bare branch: its 旬空 is unknown
    palace: Element
    shi: ChartLine
    ying: ChartLine
    base: tuple[Actor, ...]  # what acts on every line: 日, 月, the moving lines in chart order
    changes: Mapping[int, Actor]  # each moving line's 变爻, by its position
    targets: tuple[Target, ...]


def rule_context(chart: Chart, use: Use | None = None, topic: str | None = None) -> RuleContext:
    """The facts of `chart` the rules share, for the 用神 `use` (None: the 世 alone) and `topic`."""
    pillars = chart.pillars
    day, month = _branch(pillars.day), _branch(pillars.month)
    moving, changes = moving_lines(chart.cast)
    acts = pillar_actors(day, month) + moving
    pillar_notes = ((NO_DAY,) if day is None else ()) + ((NO_MONTH,) if month is None else ())
    acting = frozenset([a.branch for a in acts])
    targets = []
    for t in _target_lines(chart.cast.hexagram, use, topic):
        notes = (*t.notes, *pillar_notes)
        cl = chart.lines[t.position - 1]
        if t.source is Source.FUSHEN or not cl.moving:
            # a static line or a 伏神 suffers 日, 月 and every moving line
            targets.append(Target(t.branch, t.source, t.position, t.role, t.relative, None, acts, acting, notes))
        else:
            # a moving line every moving line but itself, and its own 变爻 last
            own = changes.get(t.position)
            mine = tuple([a for a in acts if a.position != t.position]) + ((own,) if own is not None else ())
            changed = own.branch if own is not None else None
            targets.append(
                Target(t.branch, Source.DONGYAO, t.position, t.role, t.relative, changed, mine, frozenset([a.branch for a in mine]), notes)
            )
    h = chart.cast.hexagram
    return RuleContext(
        chart,
        use,
        topic,
        day,
        month,
        day is not None and not isinstance(pillars.day, GanZhi),
        h.palace.element,
        chart.lines[h.shi - 1],
        chart.lines[h.ying - 1],
        acts,
        changes,
        tuple(targets),
    )


@cache  # 13 × 13 answers
def pillar_actors(day: Branch | None, month: Branch | None) -> tuple[Actor, ...]:
    """The 日 and the 月 as sources: they act on every line."""
    out = []
    if day is not None:
        out.append(Actor(day, Source.RI, None))
    if month is not None:
        out.append(Actor(month, Source.YUE, None))
    return tuple(out)


@lru_cache(maxsize=4096)  # the 4096 casts
def moving_lines(cast: Cast) -> tuple[tuple[Actor, ...], Mapping[int, Actor]]:
    """The moving lines of `cast` as sources, in chart order, and each one's 变爻 by its position
    (a 变爻 is the line of the changed hexagram there)."""
    h, moving = cast
    changed = cast.changed
    positions = sorted(moving)
    lines = tuple([actor(h.lines[p - 1].branch, Source.DONGYAO, p) for p in positions])
    if changed is None:
        return lines, _NO_CHANGES
    return lines, MappingProxyType({p: actor(changed.lines[p - 1].branch, Source.BIANYAO, p) for p in positions})


_NO_CHANGES: Mapping[int, Actor] = MappingProxyType({})


def _branch(pillar: GanZhi | Branch | None) -> Branch | None:
    return pillar.branch if isinstance(pillar, GanZhi) else pillar


class _TargetLine(NamedTuple):
    """A target as the cast, the 用神 and the topic make it, before the pillars."""

    branch: Branch
    source: Source  # 静爻 or 伏神: whether the line moves is the cast's
    position: int
    role: str
    relative: Relative
    notes: tuple[str, ...]


@lru_cache(maxsize=4096)  # 64 hexagrams × the 用神 and topics asked
def _target_lines(h: Hexagram, use: Use | None, topic: str | None) -> tuple[_TargetLine, ...]:
    """The targets of 三刑, 墓开 and 六害 (see the module's docstring): the cast and the question
    make them, the pillars do not."""
    if topic is not None:
        named = topic_targets(topic, use.relative.value if use is not None and use.relative is not None else None)
        if named.relative is not None:  # 「男娶谓财、女嫁谓官遇之」: that 六亲, not the 世 nor the 用
            assert named.role is not None and named.note is not None
            kin = use_in(h, named.relative)
            if kin.positions:  # as 财/世 (官/世) on the 世: the 世's readings stay
                return tuple(_line(h.lines[p - 1], named.role + "/世" if p == h.shi else named.role, (named.note,)) for p in kin.positions)
            # every 六亲 absent from the lines is among the 伏神
            return _hidden(h, kin.hidden_positions, named.role, (named.note, f"{named.role}不上卦，取伏神"))
    out: tuple[_TargetLine, ...] = ()
    positions: tuple[int, ...] = ()
    shi_notes: tuple[str, ...] = ()
    if use is not None:
        positions = use.positions
        if not positions and use.hidden_positions:  # 用神不上卦，取伏神
            out = _hidden(h, use.hidden_positions, "用", (USE_HIDDEN,))
        elif not positions:
            shi_notes = (USE_ABSENT,)
    # the 用's lines, then the 世 unless it is one of them (「克害重用爻世爻」, 6.12)
    out += tuple(_line(h.lines[p - 1], "用/世" if p == h.shi else "用", ()) for p in positions)
    if h.shi not in positions:
        out += (_line(h.lines[h.shi - 1], "世", shi_notes),)
    return out


def _line(line: Line, role: str, notes: tuple[str, ...]) -> _TargetLine:
    return _TargetLine(line.branch, Source.JINGYAO, line.position, role, line.relative, notes)


def _hidden(h: Hexagram, positions: tuple[int, ...], role: str, notes: tuple[str, ...]) -> tuple[_TargetLine, ...]:
    """The 伏神 at `positions` as targets (a position with none under it is passed over)."""
    under = {hl.position: hl for hl in h.hidden}
    return tuple(_TargetLine(hl.branch, Source.FUSHEN, p, role, hl.relative, notes) for p in positions if (hl := under.get(p)) is not None)


def targets(chart: Chart, use: Use | None, topic: str | None = None) -> tuple[Target, ...]:
    """The lines 三刑, 墓开 and 六害 are judged on (see the module's docstring)."""
    return rule_context(chart, use, topic).targets


def as_member(a: Actor, role: str) -> Member:
    """A source acting on a target, as a member of the finding in `role` (刑, 冲, 墓, 害 …)."""
    return Member(a.branch, a.source, a.position, role)


def lines_of(*positions: int | None) -> tuple[int, ...]:
    """A finding's lines: the positions given, each once, in order (日 and 月 have none)."""
    return tuple(sorted([p for p in set(positions) if p is not None]))


__all__ = [
    "NAMED_ROLES",
    "NO_DAY",
    "NO_MONTH",
    "SHI_ROLES",
    "USE_ABSENT",
    "USE_HIDDEN",
    "RuleContext",
    "Target",
    "as_member",
    "lines_of",
    "rule_context",
    "targets",
]
