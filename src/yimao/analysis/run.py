"""All the rules of volume 6 on one chart, in the book's order: 助鬼伤身, 局会, 三刑 (with 墓开), 六害.

The order is fixed and so is the order within each family, so the same chart always yields the
same findings; putting the holding findings first is the renderer's choice, not ours.
"""

from __future__ import annotations

from yimao.analysis.finding import Finding
from yimao.analysis.hai import liuhai_findings
from yimao.analysis.juhui import juhui
from yimao.analysis.xing import Scope, mukai, sanxing
from yimao.analysis.zhugui import zhugui
from yimao.chart import Chart, Use

RULES = ("助鬼伤身", "局会", "三刑", "墓开", "六害")


def analyse(chart: Chart, use: Use | None = None) -> tuple[Finding, ...]:
    """Every finding of volume 6 on `chart`, holding ones and informative near misses.

    `use` (from `chart.resolve_use`) puts 三刑, 墓开 and 六害 on the 用神 (or its 伏神) besides
    the 世, flags the 局 of the 用神's element, and sets the reading of 助鬼伤身.
    """
    scope = Scope(chart, use)  # what the rules share: pillars, 世, targets and the sources acting on them
    return (
        *zhugui(chart, use, scope),
        *juhui(chart, use, scope),
        *sanxing(chart, use, scope),
        *mukai(chart, use, scope),
        *liuhai_findings(chart, use, scope),
    )


__all__ = ["RULES", "analyse"]
