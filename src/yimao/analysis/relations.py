"""The 合, 冲, 生 and 克 around a 六害, so that the weighing the book asks for can be done.

「然亦不及六冲之甚也，然亦必兼合冲生克而考之。」 (6.12): a 害 is weighed together with the 合, 冲, 生
and 克 of the same branches. For the two parties of a 害 (the target and the branch that 害 it),
`around_hai` lists what holds between them, and between each of them and the 日 and the 月.
"""

from __future__ import annotations

from functools import cache, lru_cache

from yimao.analysis.finding import Member, Relation
from yimao.chart import Source
from yimao.ganzhi import Branch, chong, liuhe

RELATIONS = ("合", "冲", "生", "克")


@cache  # by two members: bounded as they are (12 branches, 6 sources, 7 positions, a few roles)
def between(a: Member, b: Member) -> tuple[Relation, ...]:
    """What holds between two parties: 合 and 冲 (from `a` to `b`: both ways alike), then 生 and 克
    in the direction they go. 比和 (the same element) is none of the four, and is not listed."""
    out = []
    x, y = a.branch, b.branch
    if liuhe(x, y):
        out.append(Relation("合", a, b))
    if chong(x, y):
        out.append(Relation("冲", a, b))
    ex, ey = x.element, y.element
    if ex.generates is ey:
        out.append(Relation("生", a, b))
    elif ey.generates is ex:
        out.append(Relation("生", b, a))
    elif ex.overcomes is ey:
        out.append(Relation("克", a, b))
    elif ey.overcomes is ex:
        out.append(Relation("克", b, a))
    return tuple(out)


@lru_cache(maxsize=8192)  # a batch meets the same few targets, sources and pillars again and again
def around_hai(target: Member, by: Member, day: Branch | None, month: Branch | None) -> tuple[Relation, ...]:
    """The 合冲生克 between the target of a 害 and the branch that 害 it (`by`), then between each
    of them and the 日, then the 月. A pillar not given is skipped; when the 害 is the pillar itself,
    what it has with the target is the pair's, listed once."""
    out = [*between(target, by)]
    for pillar, source in ((day, Source.RI), (month, Source.YUE)):
        if pillar is None or by.source is source:
            continue
        p = Member(pillar, source, None, source.value)
        out += between(target, p)
        out += between(by, p)
    return tuple(out)


__all__ = ["RELATIONS", "around_hai", "between"]
