"""三刑 (docs/rules.md §3): 刑, 真刑, 刑冲并见 and 三刑全, judged on the 用神 and the 世.

「乘则刑之，上下相对，循环相加，此三刑之立法也。」 (6.08) — the directed table is
`ganzhi.XING_TARGET`: X 刑 Y when XING_TARGET[X] is Y. Each branch is 刑'd by exactly one
branch, so "who 刑 this line" is one branch, looked up among the sources acting on the line.
「三刑六害，当别用爻，非以卦象云尔。」 (6.12) — so 刑 is judged per target line (analysis.context),
never on the hexagram as a whole.
"""

from __future__ import annotations

from functools import cache

from yimao.analysis.by_topic import Q_TARGETS, XING, TopicText, listed, xing_reading
from yimao.analysis.context import RuleContext, Target, as_member, lines_of, rule_context
from yimao.analysis.finding import Finding, Grave, SanxingDetails, WoxingDetails, XingDetails
from yimao.chart import Chart, Use
from yimao.ganzhi import BRANCHES, XING_TARGET, Branch
from yimao.hexagram import Hexagram, Relative
from yimao.texts import Quote, quote

RULE = "三刑"


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
Q_SHI_XING = quote("官克世而问讼，五克世而问疏，若世刑而大凶也", "官鬼克世而问讼事、第五爻克世而问上疏，此时世爻若又逢刑，就是大凶")


# The book's readings by topic (6.10), listed with every 三刑; with a topic, that topic's reading.
READINGS: tuple[TopicText, ...] = listed(XING)
_READINGS = (*READINGS, TopicText("谁遇", Q_TARGETS))
_SEVERITY = (Q_IMAGE, Q_WEIGHT)

# 「孟党孟刑，仲党仲刑，季党季刑」 (6.09): the triples 寅巳申 (孟) and 丑戌未 (季); 子卯 and
# 卯子 (仲) 刑 each other, 辰午酉亥 each itself.
TRIPLES = ((Branch.YIN, Branch.SI, Branch.SHEN), (Branch.CHOU, Branch.XU, Branch.WEI))
TRIPLE_OF = {b: triple for triple in TRIPLES for b in triple}
XING_BY = {XING_TARGET[x]: x for x in BRANCHES}  # the branch that 刑 each branch
if len(XING_BY) != len(BRANCHES):
    raise AssertionError("XING_TARGET must be a permutation of the branches")


def name(x: Branch, y: Branch) -> str:
    """The name the book gives the 刑 of x on y."""
    if x is y:
        return "自刑"
    if {x, y} == {Branch.ZI, Branch.MAO}:
        return "无礼之刑"
    return "寅巳申" if x in TRIPLES[0] else "丑戌未"


def sanxing(chart: Chart, use: Use | None = None, ctx: RuleContext | None = None) -> tuple[Finding, ...]:
    """三刑 on each target: 真刑 / 刑冲并见 / 刑 (holding), 我刑彼 (a near miss), and 三刑全."""
    ctx = ctx if ctx is not None else rule_context(chart, use)
    out = []
    for t in ctx.targets:
        f = xing_on(ctx, t)
        if f is not None:
            out.append(f)
        f = full(ctx, t)
        if f is not None:
            out.append(f)
    return tuple(out)


def xing_on(ctx: RuleContext, t: Target) -> Finding | None:
    """The 刑 on target `t`: by a source that both 刑 and 冲 it, 真刑 (重); by one source while
    another 冲 it, 刑冲并见 (中, 「刑而兼冲，其力更大」); else 刑 (轻). When only the target 刑 a
    source (寅 化 巳), a near miss: 我刑彼."""
    xb = XING_BY[t.branch]
    xing_by = t.by(xb)
    if not xing_by:
        victims = t.by(XING_TARGET[t.branch])
        if not victims:
            return None  # most targets meet no 刑 at all
        return Finding(
            RULE,
            False,
            "刑",
            t.element,
            t.relative,
            lines_of(t.position, *[a.position for a in victims]),
            (t.member(), *[as_member(a, "受刑") for a in victims]),
            ("我刑彼", *t.notes),
            (Q_LAW, Q_USE),
            WoxingDetails(t.ref(), name(t.branch, XING_TARGET[t.branch])),
        )
    reasons = [f"{a.source.value}{a.branch.value}刑{t.role}" for a in xing_by]
    text: tuple[Quote, ...]
    chong_by = t.by(t.branch.opposite)
    if xb is t.branch.opposite:  # one source both 刑 and 冲 (申→寅, 未→丑): 真刑
        kind, weight, text = "真刑", "重", (Q_LAW, Q_JIANCHONG, Q_ZHEN)
        members = [as_member(a, "刑冲") for a in xing_by]
        reasons.append("刑而兼冲")
    elif chong_by:
        kind, weight, text = "刑冲并见", "中", (Q_LAW, Q_JIANCHONG)
        members = [as_member(a, "刑") for a in xing_by] + [as_member(a, "冲") for a in chong_by]
        reasons.append("刑冲异源")
    else:
        kind, weight, text = "刑", "轻", (Q_LAW, Q_NOT_THREE)
        members = [as_member(a, "刑") for a in xing_by]
    # 官克世而问讼，五克世而问疏，若世刑而大凶也
    grave = shi_danger(ctx.chart.cast.hexagram) if t.is_shi else ()
    details = XingDetails(t.ref(), name(xb, t.branch), weight, _SEVERITY, _READINGS, xing_reading(ctx.topic), grave)
    return Finding(
        RULE,
        True,
        kind,
        t.element,
        t.relative,
        lines_of(t.position, *[m.position for m in members]),
        (t.member(), *members),
        (*reasons, *t.notes),
        text,
        details,
    )


def full(ctx: RuleContext, t: Target) -> Finding | None:
    """三刑全: the target and the other two of 寅巳申 (or 丑戌未) among the sources acting on it."""
    triple = TRIPLE_OF.get(t.branch)
    if triple is None:
        return None
    o1, o2 = [b for b in triple if b is not t.branch]
    by1, by2 = t.by(o1), t.by(o2)
    if not by1 or not by2:
        return None
    found = by1 + by2
    triple_name = "".join(b.value for b in triple)
    return Finding(
        RULE,
        True,
        "三刑全",
        t.element,
        t.relative,
        lines_of(t.position, *[a.position for a in found]),
        (t.member(), *[as_member(a, "刑") for a in found]),
        (triple_name + "全", *t.notes),
        (Q_NAMES, Q_LAW),
        # 身命遇之…婚姻遇之…宦忧内丧，病防带疾 (6.10): the reading of the matter asked
        SanxingDetails(t.ref(), triple_name, xing_reading(ctx.topic)),
    )


@cache  # by hexagram: the 世 and the lines, 六亲 and elements, are the hexagram's
def shi_danger(h: Hexagram) -> tuple[Grave, ...]:
    """官克世而问讼，五克世而问疏，若世刑而大凶 (6.10): which of the two the hexagram has."""
    shi = h.lines[h.generation.shi - 1]
    out = []
    if shi.relative is Relative.XIONGDI and any(ln.relative is Relative.GUANGUI for ln in h.lines):
        out.append(Grave("讼", "官克世而世刑，大凶", Q_SHI_XING))
    five = h.lines[4]
    if five is not shi and five.branch.element.overcomes is shi.branch.element:
        out.append(Grave("疏", "五克世而世刑，大凶", Q_SHI_XING))
    return tuple(out)


__all__ = ["READINGS", "RULE", "TRIPLES", "XING_BY", "full", "name", "sanxing", "xing_on"]
