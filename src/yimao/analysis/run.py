"""All the rules of volume 6 on one chart, in the book's order: 助鬼伤身, 局会, 三刑 (with 墓开), 六害.

The order is fixed and so is the order within each family, so the same chart always yields the
same findings; putting the holding findings first is the renderer's choice, not ours.
"""

from __future__ import annotations

from yimao.analysis.context import RuleContext
from yimao.analysis.finding import Finding
from yimao.analysis.hai import _HAI, _on, _shi_ying
from yimao.analysis.juhui import juhui
from yimao.analysis.xing import _TOMBS, _TRIPLE_OTHERS, _XING_BY, _XING_OF, _full, _mu, _xing_on
from yimao.analysis.zhugui import zhugui
from yimao.chart import Chart, Use
from yimao.ganzhi import BRANCHES
from yimao.hexagram import HEXAGRAMS

RULES = ("助鬼伤身", "局会", "三刑", "墓开", "六害")

# Per branch (by index), what the per-target rules look up in a target's sources: the branch that
# 刑 it, the branch it 刑, the other two of its 三刑 (or None), its 害 partner.
_SHI_YING_HAI = {h: _HAI[h.lines[h.shi - 1].branch.index] is h.lines[h.ying - 1].branch for h in HEXAGRAMS}  # 世 and 应 a 害 pair
_LOOKUPS = tuple((_XING_BY[i], _XING_OF[i], _TRIPLE_OTHERS[i], _HAI[i]) for i in range(len(BRANCHES)))


def analyse(chart: Chart, use: Use | None = None, topic: str | None = None) -> tuple[Finding, ...]:
    """Every finding of volume 6 on `chart`, holding ones and informative near misses.

    `use` (from `chart.resolve_use`) puts 三刑, 墓开 and 六害 on the 用神 (or its 伏神) besides
    the 世, flags the 局 of the 用神's element, and sets the reading of 助鬼伤身. `topic` (one of
    the vocabulary, docs/rules.md §6) adds the book's reading of that matter to 助鬼伤身 and 三刑,
    and for 男娶, 女嫁 (and 婚姻) puts 三刑, 墓开 and 六害 on the 妻财 or the 官鬼 instead.
    """
    sc = RuleContext(chart, use, topic)  # what the rules share: pillars, 世, targets and the sources acting on them
    # 三刑, 墓开 and 六害 in one walk over the targets (each rule's own function walks them once
    # more, and the calls and walks cost as much as most charts' findings): the same tests in the
    # same order as xing.sanxing, xing.mukai and hai.liuhai_findings, each family's findings kept
    # apart and joined in the book's order
    xing: list[Finding] = []
    mu: list[Finding] = []
    hai: list[Finding] = []
    if _SHI_YING_HAI[chart.cast.hexagram]:  # 世应相害: only 姤, 恒, 小畜, 益
        f = _shi_ying(sc.shi, sc.ying, sc.day, sc.month)
        if f is not None:
            hai.append(f)
    tombs = _TOMBS[chart.school]  # the 墓 of each branch's element
    for tm, relative, hits, notes, head in sc.per_target:
        bi = tm[0].index
        xing_by, xing_of, others, hai_by = _LOOKUPS[bi]
        if xing_by in hits or xing_of in hits:  # most targets meet no 刑 at all
            xing.append(_xing_on(sc, tm, relative, head, hits, notes, bi))
        if others is not None and others[0] in hits and others[1] in hits:
            xing.append(_full(tm, relative, head, hits, notes, sc.topic))
        t = tombs[bi]
        holders = hits.get(t)
        if holders is not None:
            for h in holders:
                mu.append(_mu(tm, relative, head, h, t, sc, notes))
        by = hits.get(hai_by)
        if by is not None:
            hai.append(_on(tm, relative, head, by, notes, bi, sc.day, sc.month))
    return (*zhugui(chart, use, sc), *juhui(chart, use, sc), *xing, *mu, *hai)


__all__ = ["RULES", "analyse"]
