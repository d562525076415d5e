"""墓开 (docs/rules.md §3): a target in its 墓, and whether a 刑 or a 冲 opens it.

「三刑之法，墓亦赖之，刑则墓开，刑而兼冲，其力更大。」「夫墓得刑冲，犹锁得钥，故曰墓开」
「然不及冲，故刑而不冲者轻，刑而兼冲者重」 (6.10). A target's 墓 is the 墓 of its element
(`ganzhi.tomb`, by the school of 土); it holds the target when it stands among the sources acting
on the target (日, 月, another moving line, the target's own 变爻).
"""

from __future__ import annotations

from yimao.analysis.context import RuleContext, Target, as_member, lines_of, rule_context
from yimao.analysis.finding import Finding, MukaiDetails
from yimao.analysis.xing import XING_BY
from yimao.chart import Actor, Chart, Source, Use
from yimao.ganzhi import Branch, tomb
from yimao.texts import Quote, quote

RULE = "墓开"

Q_MU = quote("三刑之法，墓亦赖之，刑则墓开，刑而兼冲，其力更大。", "三刑之法，入墓之爻也要靠它：一刑，墓门就开；若刑而又兼冲，力量更大。")
Q_MU_KEY = quote("夫墓得刑冲，犹锁得钥，故曰墓开", "入墓之爻得刑得冲，好比锁配上了钥匙，所以叫「墓开」")
Q_MU_LIGHT = quote("然不及冲，故刑而不冲者轻，刑而兼冲者重", "不过刑的力量不如冲，所以只刑不冲的轻，刑而兼冲的重")

# How the 墓 holds the target, by where the 墓 stands.
HOLDER_WORD = {Source.RI: "入日墓", Source.YUE: "入月墓", Source.DONGYAO: "入动墓", Source.BIANYAO: "化墓"}


def mukai(chart: Chart, use: Use | None = None, ctx: RuleContext | None = None) -> tuple[Finding, ...]:
    """墓开 on each target: its 墓 standing as 日, 月, a moving line or its own 变爻, tested against
    the sources acting on that 墓: 刑 → 墓开 (轻), 刑而兼冲 → 墓开 (重), 冲 → 冲开, neither → 墓闭."""
    ctx = ctx if ctx is not None else rule_context(chart, use)
    out = []
    for t in ctx.targets:
        mu = tomb(t.element, ctx.chart.school)
        for holder in t.by(mu):
            out.append(opened(ctx, t, holder, mu))
    return tuple(out)


def opened(ctx: RuleContext, t: Target, holder: Actor, mu: Branch) -> Finding:
    """The 墓 `mu`, standing as `holder`, holds the target `t`: what 刑 or 冲 the 墓 opens it."""
    xb, ob = XING_BY[mu], mu.opposite
    xing_by, chong_by = _openers(ctx, t, holder, xb), _openers(ctx, t, holder, ob)
    word = HOLDER_WORD[holder.source]
    text: tuple[Quote, ...]
    if xing_by or chong_by:
        holds = True
        if xing_by and chong_by:
            kind, weight, text = "墓开", "重", (Q_MU, Q_MU_KEY, Q_MU_LIGHT)  # 刑而兼冲者重
        elif xing_by:
            kind, weight, text = "墓开", "轻", (Q_MU, Q_MU_LIGHT)  # 刑而不冲者轻
        else:
            kind, weight, text = "冲开", "重", (Q_MU_KEY,)
        if xb is ob:  # 未 both 刑 and 冲 the 丑: the same sources, once, as 刑冲
            openers = [as_member(a, "刑冲") for a in xing_by]
        else:
            openers = [as_member(a, "刑") for a in xing_by] + [as_member(a, "冲") for a in chong_by]
        why = [f"{a.source.value}{a.branch.value}刑墓" for a in xing_by] + [f"{a.source.value}{a.branch.value}冲墓" for a in chong_by]
        reasons = (word, *why, *t.notes)
    else:
        holds, kind, weight, text = False, "墓闭", None, (Q_MU, Q_MU_KEY)
        openers = []
        reasons = (word, "无刑冲", *t.notes)
    return Finding(
        RULE,
        holds,
        kind,
        t.element,
        t.relative,
        lines_of(t.position, holder.position, *[a.position for a in (*xing_by, *chong_by)]),
        (t.member(), as_member(holder, "墓"), *openers),
        reasons,
        text,
        MukaiDetails(t.ref(), mu, word, weight),
    )


def _openers(ctx: RuleContext, t: Target, holder: Actor, branch: Branch) -> list[Actor]:
    """The sources of `branch` acting on the 墓 `holder`: the 日, the 月 and the moving lines but
    the 墓 itself and the target's line; and the 墓's own 变爻 when the 墓 is a moving line (a
    变爻 acts on its own line only)."""
    own = t.position if not t.hidden else None  # a 伏神 is no moving line
    out = [a for a in ctx.base if a.branch is branch and a != holder and (a.position is None or a.position != own)]
    if holder.source is Source.DONGYAO and holder.position is not None:
        change = ctx.changes.get(holder.position)
        if change is not None and change.branch is branch:
            out.append(change)
    return out


__all__ = ["HOLDER_WORD", "RULE", "mukai", "opened"]
