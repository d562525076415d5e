"""The conditions the book attaches to a star, judged on a chart.

Many sentences of the star section say when a star acts, not only where it stands: 「罡魁临鬼动，
祸患暴作」, 「若喜神位值子孙动者，出行顺利」, 「唯造化之占用之」. The catalogue keeps each one as
data (`catalogue.Condition`: the sentence, the reading it supports, the other readings); this
module says, for a star standing on a chart, whether each reading holds and on which lines.

A reading looks at one of (`catalogue.CONDITION_ON`):
- star_line: a 本卦 line the star stands on, of the 六亲 named (any, if none), moving if asked;
- changed: a 变爻 the star stands on, of the 六亲 named (a 变爻 is the change of a moving line);
- together: the star stands on a moving part, and a 本卦 line of the 六亲 moves (同发);
- anywhere: the star stands on the chart, and a 本卦 line of the 六亲 moves anywhere;
- topic: the question's topic (--topic) is one the sentence names.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from yimao.stars.catalogue import Condition, ConditionReading


class ReadingResult(NamedTuple):
    reading: ConditionReading
    holds: bool
    lines: tuple[int, ...]  # the lines that make it hold, in line order; () when it does not


class ConditionResult(NamedTuple):
    """A star's condition on one chart: the primary reading's result, and each variant's."""

    condition: Condition
    result: ReadingResult
    variants: tuple[ReadingResult, ...]

    @property
    def holds(self) -> bool:
        return self.result.holds

    @property
    def lines(self) -> tuple[int, ...]:
        return self.result.lines


def judged(
    conditions: tuple[Condition, ...],
    readings: tuple[ConditionReading, ...] | None,
    kin: Any,
    hits: tuple[Any, ...],
    topic: str | None,
    day_stem: str | None = None,
) -> tuple[ConditionResult, ...]:
    """Each of a star's conditions on a chart, the star standing on `hits` (`place.Hit`s, in line
    order), interned: one tuple per star's conditions, topic and outcome (the lines each reading
    holds on), so that a chart builds no new values once its outcomes have been met. `readings`
    are the conditions' readings (`readings_of`), None when they read the topic only; `kin` the
    chart's (`kin_of`); `day_stem` the day's stem, for a reading of some days only. The outcomes
    are few: a reading's lines are a subset of six, and most stars' conditions read the topic only."""
    if readings is None:
        key: tuple[Any, ...] = (id(conditions), topic)
    else:
        outcome: list[Any] = [id(conditions), topic]
        for r in readings:  # a loop, not a comprehension: no frame of its own, and charts judge often
            outcome.append(() if r.on == "topic" else _lines(r, kin, hits, day_stem))
        key = tuple(outcome)
    found = _JUDGED.get(key)
    if found is None:
        found = _JUDGED[key] = tuple(
            ConditionResult(c, _reading(c.reading, kin, hits, topic, day_stem), tuple(_reading(v, kin, hits, topic, day_stem) for v in c.variants))
            for c in conditions
        )
    return found


# Keyed by the id of a star's conditions: the catalogue's, which live as long as the program.
_JUDGED: dict[tuple[Any, ...], tuple[ConditionResult, ...]] = {}  # never emptied: ids of its values are keys elsewhere


def reads_the_chart(c: Condition) -> bool:
    """Whether one of a condition's readings reads the chart (not the question's topic alone)."""
    return c.reading.on != "topic" or any(v.on != "topic" for v in c.variants)


def reads_chart(conditions: tuple[Condition, ...]) -> bool:
    """Whether one of a star's conditions reads the chart (else they read the question's topic only)."""
    return readings_of(conditions) is not None


def readings_of(conditions: tuple[Condition, ...]) -> tuple[ConditionReading, ...] | None:
    """Every reading of a star's conditions, primary and variants, in order; None when they all
    read the question's topic only."""
    readings = tuple(r for c in conditions for r in (c.reading, *c.variants))
    return readings if any(r.on != "topic" for r in readings) else None


def _reading(r: ConditionReading, kin: _Kin | None, hits: tuple[Any, ...], topic: str | None, day_stem: str | None) -> ReadingResult:
    if r.on == "topic" or kin is None:
        return ReadingResult(r, topic is not None and topic in r.topics, ())
    lines = _lines(r, kin, hits, day_stem)
    return ReadingResult(r, bool(lines), lines)


class _Kin(NamedTuple):
    """What a cast says of its lines' 六亲: each 本爻's, 变爻's (None for a line that does not
    move) and lifted 伏神's (None where no 伏神 is lifted), by position 1-6 (index 0 unused); the
    moving 本爻 of each 六亲, and the lines whose lifted 伏神 is of each 六亲."""

    line: tuple[str | None, ...]
    changed: tuple[str | None, ...]
    moving: Mapping[str | None, tuple[int, ...]]  # None: any 六亲
    lifted: tuple[str | None, ...]
    lifted_by: Mapping[str, tuple[int, ...]]


_KIN: dict[Any, _Kin] = {}  # by cast: at most 4,096 (the 六亲 do not depend on the pillars)


def kin_of(chart: Any) -> _Kin:
    """The 六亲 of a chart's lines and 变爻, and its moving lines by 六亲 (once per cast)."""
    found = _KIN.get(chart[0])
    if found is None:
        lines = chart.lines
        moving: dict[str | None, list[int]] = {None: []}
        lifted: dict[str, list[int]] = {}
        for cl in lines:
            if cl.moving:
                moving[None].append(cl.line.position)
                moving.setdefault(cl.line.relative._value_, []).append(cl.line.position)
                if cl.hidden is not None:  # 发动飞爻而相挈: a moving line lifts its 伏神
                    lifted.setdefault(cl.hidden.line.relative._value_, []).append(cl.line.position)
        found = _KIN[chart[0]] = _Kin(
            (None, *(cl.line.relative._value_ for cl in lines)),
            (None, *(cl.changed.relative._value_ if cl.changed is not None else None for cl in lines)),
            MappingProxyType({k: tuple(v) for k, v in moving.items()}),
            (None, *(cl.hidden.line.relative._value_ if cl.moving and cl.hidden is not None else None for cl in lines)),
            MappingProxyType({k: tuple(v) for k, v in lifted.items()}),
        )
    return found


def _lines(r: ConditionReading, kin: _Kin, hits: tuple[Any, ...], day_stem: str | None) -> tuple[int, ...]:
    """The lines that make a chart reading hold, in line order; () when it does not. `hits` are in
    line order, so a reading on the star's own parts keeps it. With `hidden`, a lifted 伏神 of the
    六亲 is one of its moving lines; with `day_stems`, the reading holds on those days only."""
    if r.day_stems and day_stem not in r.day_stems:
        return ()
    rel, on = r.relative, r.on
    found = []
    if on == "star_line":
        moving, of_line, hidden = r.moving, kin.line, r.hidden
        for position, part, moves in hits:
            if part == "本爻" and (moves or not moving) and (rel is None or of_line[position] == rel):
                found.append(position)
            elif hidden and part == "伏神" and moves and kin.lifted[position] == rel:
                found.append(position)
    elif on == "changed":
        for position, part, _ in hits:
            if part == "变爻" and (rel is None or kin.changed[position] == rel):
                found.append(position)
    else:
        moving_kin = kin.moving.get(rel, ())
        if r.hidden and rel is not None and rel in kin.lifted_by:
            moving_kin = tuple(sorted({*moving_kin, *kin.lifted_by[rel]}))
        if not (hits and moving_kin):
            return ()
        if on == "anywhere":
            return moving_kin
        star_moving = {position for position, _, moves in hits if moves}  # together
        return tuple(sorted(star_moving.union(moving_kin))) if star_moving else ()
    return tuple(found)
