"""六害 (docs/rules.md §4): 世应相害, and the 害 on the 用神 (or the 世).

"是故冲吾之合，则犹夺吾之好，吾故恶之，而与相害也。" (6.11) — the pairs 子未 丑午 寅巳 卯辰 申亥
酉戌 (`ganzhi.liuhai`). "然有生害、有克害" (6.12): 子未 (未克子) and 卯辰 (卯克辰) are 克害, the
other four 生害.
"""

from __future__ import annotations

from yimao.analysis.context import RuleContext, Target, as_member, lines_of, rule_context
from yimao.analysis.finding import Finding, HaiDetails, Member, Relation, ShiyingHaiDetails
from yimao.analysis.relations import around_hai
from yimao.chart import Actor, Chart, ChartLine, Source, Use
from yimao.ganzhi import BRANCHES, Branch, element_relation
from yimao.texts import quote

RULE = "六害"

Q_LAW = quote("是故冲吾之合，则犹夺吾之好，吾故恶之，而与相害也。", "凡冲掉我的合神，就等于夺走我的所好，我因此厌恶它，与它相害。")
Q_SHENG = quote("心恶而面好，外悦而内仇，此相生之害也。", "心里厌恶而面上友好，外表喜悦而内里仇视——这是相生之害。")
Q_WO_KE = quote("我克彼者，我强而彼弱，志相恶尔", "若是我克对方，那是我强他弱，只在意志上互相厌恶")
Q_BI_KE = quote("彼克我者，彼刚而我柔，力被制尔", "若是对方克我，那是他刚我柔，力量上被他制住")
Q_LIGHT = quote("然亦不及六冲之甚也，然亦必兼合冲生克而考之。", "不过害的分量仍不及六冲厉害，而且必须兼看合、冲、生、克一并考察。")
Q_USE = quote("三刑六害，当别用爻，非以卦象云尔。", "三刑与六害，要分辨落在哪个用爻上，不是就整个卦象说的。")
Q_WEIGHT = quote("大抵六害重克害，克害重用爻世爻，及应克世", "大体说来，六害之中以克害为重；克害之中又以落在用爻、世爻上以及应爻克世爻的为重")
Q_PROMPT = quote("若姤恒小畜益卦，虽存六害之名，当察其用而权之", "像《姤》《恒》《小畜》《益》这些卦，虽有六害之名，仍应察看用神而加以斟酌")

_WEIGHT = (Q_WEIGHT, Q_LIGHT)


def kind_of(a: Branch, b: Branch) -> str:
    """生害 or 克害 of a 害 pair: 克害 when one 克 the other (子未, 卯辰)."""
    ea, eb = a.element, b.element
    return "克害" if ea.overcomes is eb or eb.overcomes is ea else "生害"


_DIRECTION = {"克": "彼克我", "被克": "我克彼", "生": "彼生我", "被生": "我生彼"}


def _direction(other: Branch, me: Branch) -> str:
    """How the other branch stands to me: 彼克我 / 我克彼 / 彼生我 / 我生彼 (比和 never forms a 害)."""
    return _DIRECTION[element_relation(other.element, me.element)]


_DIRECTION_TEXT = {"彼克我": Q_BI_KE, "我克彼": Q_WO_KE, "彼生我": Q_SHENG, "我生彼": Q_SHENG}


def liuhai_findings(chart: Chart, use: Use | None = None, ctx: RuleContext | None = None) -> tuple[Finding, ...]:
    """世应相害 (always), then the 害 on each target (the 用神, else its 伏神; and the 世)."""
    ctx = ctx if ctx is not None else rule_context(chart, use)
    out = []
    f = _shi_ying(ctx.shi, ctx.ying, ctx.day, ctx.month, chart)  # only 姤, 恒, 小畜, 益
    if f is not None:
        out.append(f)
    for t in ctx.targets:
        f = hai_on(ctx, t)
        if f is not None:
            out.append(f)
    return tuple(out)


def _line_member(cl: ChartLine, role: str) -> Member:
    return Member(cl.line.branch, Source.DONGYAO if cl.moving else Source.JINGYAO, cl.line.position, role)


def shi_ying(chart: Chart) -> Finding | None:
    """世 and 应 a 害 pair: only 姤, 恒 (生害) and 小畜, 益 (克害, 应克世) — a prompt, not a verdict."""
    ctx = rule_context(chart)
    return _shi_ying(ctx.shi, ctx.ying, ctx.day, ctx.month, chart)


def _chong_on_pair(chart: Chart, lines: tuple[ChartLine, ...], day: Branch | None, month: Branch | None) -> tuple[Member, ...]:
    """The 冲 on the 世 or the 应 — by the month (月破), the day (日冲), a moving line or a 变爻 —
    each as a member whose role names the line it strikes (冲世, 冲应)."""
    found: list[Member] = []
    for cl, who in zip(lines, ("世", "应")):
        target = cl.line.branch.opposite
        if month is target:
            found.append(Member(target, Source.YUE, None, f"冲{who}"))
        if day is target:
            found.append(Member(target, Source.RI, None, f"冲{who}"))
        for other in chart.lines:
            if other.moving and other.line.branch is target:
                found.append(Member(target, Source.DONGYAO, other.position, f"冲{who}"))
            if other.changed is not None and other.changed.branch is target:
                found.append(Member(target, Source.BIANYAO, other.position, f"冲{who}"))
    return tuple(found)


def _chong_reason(m: Member) -> str:
    where = {Source.YUE: "月破", Source.RI: "日冲"}.get(m.source, f"{m.source.value}{m.branch.value}冲")
    return f"{where}{(m.role or '')[-1:]}，害不及冲"  # 月破世, 日冲应: its role is 冲世 or 冲应


def _shi_ying(shi: ChartLine, ying: ChartLine, day: Branch | None, month: Branch | None, chart: Chart) -> Finding | None:
    if partner(shi.line.branch) is not ying.line.branch:
        return None
    kind = kind_of(shi.branch, ying.branch)
    d = _direction(ying.branch, shi.branch)  # the 应 against the 世
    relation = {"彼克我": "应克世", "我克彼": "世克应", "彼生我": "应生世", "我生彼": "世生应"}[d]
    shi_m, ying_m = _line_member(shi, "世"), _line_member(ying, "应")
    # 然亦不及六冲之甚也: a 冲 on the 世 or the 应 outweighs the 害 between them
    chong = _chong_on_pair(chart, (shi, ying), day, month)
    return Finding(
        RULE,
        True,
        kind,
        shi.element,
        shi.relative,
        (min(shi.position, ying.position), max(shi.position, ying.position)),
        (shi_m, ying_m),
        ("世应相害", relation, *[_chong_reason(m) for m in chong]),
        (Q_LAW, _DIRECTION_TEXT[d], Q_PROMPT, *((Q_LIGHT,) if chong else ())),
        ShiyingHaiDetails(
            "世应",
            relation,
            "轻" if chong or kind == "生害" else "重" if relation == "应克世" else "中",
            _WEIGHT,
            around_hai(shi_m, ying_m, day, month),  # 然亦必兼合冲生克而考之
            chong,
        ),
    )


def partner(b: Branch) -> Branch:
    """The branch that 害 `b`: the one that 冲 its 合 (子未 丑午 寅巳 卯辰 申亥 酉戌)."""
    he = BRANCHES[(1 - b.index) % 12]  # its 六合 (`ganzhi.liuhe`)
    return he.opposite


def hai_on(ctx: RuleContext, t: Target) -> Finding | None:
    """The 害 on target `t` by the sources of its partner branch acting on it (a branch has one)."""
    by = t.by(partner(t.branch))
    if not by:
        return None
    kind = kind_of(by[0].branch, t.branch)
    d = _direction(by[0].branch, t.branch)
    me = t.member()
    members = [as_member(a, "害") for a in by]
    relations: tuple[Relation, ...] = ()  # 然亦必兼合冲生克而考之: round each source of the 害, with the 日 and the 月
    for m in members:
        relations += around_hai(me, m, ctx.day, ctx.month)
    # 然亦不及六冲之甚也: a 冲 on the same target (月破, 日冲, a moving line or a 变爻) outweighs the 害
    chong = t.by(t.branch.opposite)
    outweighed = tuple([as_member(a, "冲") for a in chong])
    return Finding(
        RULE,
        True,
        kind,
        t.element,
        t.relative,
        lines_of(t.position, *[a.position for a in by]),
        (me, *members),
        (*[f"{a.source.value}{a.branch.value}害{t.role}" for a in by], d, *[f"{_chong_label(a)}，害不及冲" for a in chong], *t.notes),
        (Q_LAW, _DIRECTION_TEXT[d], Q_USE, *((Q_LIGHT,) if chong else ())),
        # 六害重克害，克害重用爻世爻: every target here is a 用 or the 世 (or the 用 a topic names);
        # a 害 the 冲 outweighs is never 重
        HaiDetails(t.ref(), d, "重" if kind == "克害" and not chong else "轻", _WEIGHT, relations, outweighed),
    )


def _chong_label(a: Actor) -> str:
    """月破, 日冲, or the moving line or 变爻 that 冲 the target."""
    if a.source is Source.YUE:
        return "月破"
    if a.source is Source.RI:
        return "日冲"
    return f"{a.source.value}{a.branch.value}冲"


__all__ = ["RULE", "hai_on", "kind_of", "liuhai_findings", "partner", "shi_ying"]
