"""All the rules of volume 6 on one chart, in the book's order: 助鬼伤身, 局会, 三刑, 墓开, 六害.

The order is fixed and so is the order within each family, so the same chart always yields the
same findings; putting the holding findings first is the renderer's choice, not ours.
"""

from __future__ import annotations

from yimao.analysis.context import rule_context
from yimao.analysis.finding import Finding
from yimao.analysis.hai import liuhai_findings
from yimao.analysis.juhui import juhui
from yimao.analysis.mukai import mukai
from yimao.analysis.xing import sanxing
from yimao.analysis.zhugui import zhugui
from yimao.chart import Chart, Use

RULES = ("助鬼伤身", "局会", "三刑", "墓开", "六害")


def analyse(chart: Chart, use: Use | None = None, topic: str | None = None) -> tuple[Finding, ...]:
    """Every finding of volume 6 on `chart`, holding ones and informative near misses.

    `use` (from `chart.resolve_use`) puts 三刑, 墓开 and 六害 on the 用神 (or its 伏神) besides
    the 世, flags the 局 of the 用神's element, and sets the reading of 助鬼伤身. `topic` (one of
    the vocabulary, docs/rules.md §6) adds the book's reading of that matter to 助鬼伤身 and 三刑,
    and for 男娶, 女嫁 (and 婚姻) puts 三刑, 墓开 and 六害 on the 妻财 or the 官鬼 instead.
    """
    ctx = rule_context(chart, use, topic)  # what the rules share: pillars, 世, targets and what acts on them
    return (
        *zhugui(chart, use, ctx),
        *juhui(chart, use, ctx),
        *sanxing(chart, use, ctx),
        *mukai(chart, use, ctx),
        *liuhai_findings(chart, use, ctx),
    )


__all__ = ["RULES", "analyse"]
