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


def judge(conditions: tuple[Condition, ...], chart: Any, hits: tuple[Any, ...], topic: str | None) -> tuple[ConditionResult, ...]:
    """Each of a star's conditions on a chart, the star standing on `hits` (`place.Hit`s)."""
    return tuple(
        ConditionResult(c, _reading(c.reading, chart, hits, topic), tuple(_reading(v, chart, hits, topic) for v in c.variants)) for c in conditions
    )


def _reading(r: ConditionReading, chart: Any, hits: tuple[Any, ...], topic: str | None) -> ReadingResult:
    if r.on == "topic":
        return ReadingResult(r, topic is not None and topic in r.topics, ())
    lines = chart.lines
    if r.on == "star_line":
        found = {h.position for h in hits if h.part == "本爻" and (h.moving or not r.moving) and _is(lines[h.position - 1].line, r.relative)}
    elif r.on == "changed":
        found = {h.position for h in hits if h.part == "变爻" and _is(lines[h.position - 1].changed, r.relative)}
    else:
        moving_kin = {cl.line.position for cl in lines if cl.moving and _is(cl.line, r.relative)}
        if r.on == "together":
            star_moving = {h.position for h in hits if h.moving}
            found = star_moving | moving_kin if star_moving and moving_kin else set()
        else:  # anywhere
            found = moving_kin if hits else set()
    return ReadingResult(r, bool(found), tuple(sorted(found)))


def _is(line: Any, relative: str | None) -> bool:
    """The line (a 本卦 line or a 变爻) is of the 六亲 named, or any when none is."""
    return relative is None or line.relative._value_ == relative
