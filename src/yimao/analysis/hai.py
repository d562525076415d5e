"""六害 (docs/rules.md §4): 世应相害, and the 害 on the 用神 (or the 世).

"是故冲吾之合，则犹夺吾之好，吾故恶之，而与相害也。" (6.11) — the pairs 子未 丑午 寅巳 卯辰 申亥
酉戌 (`ganzhi.liuhai`). "然有生害、有克害" (6.12): 子未 (未克子) and 卯辰 (卯克辰) are 克害, the
other four 生害.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from yimao.analysis.context import BIT, NAMED_ROLES, RuleContext, as_role, reason
from yimao.analysis.finding import MEMBERS as _M
from yimao.analysis.finding import Finding, Member, lines_in, new_finding
from yimao.analysis.relations import around_hai
from yimao.chart import Actor, Chart, ChartLine, Source, Use
from yimao.ganzhi import BRANCHES, Branch, element_relation
from yimao.hexagram import Relative
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

_WEIGHT = (Q_WEIGHT.to_dict(), Q_LIGHT.to_dict())


def kind_of(a: Branch, b: Branch) -> str:
    """生害 or 克害 of a 害 pair: 克害 when one 克 the other (子未, 卯辰)."""
    ea, eb = a.element, b.element
    return "克害" if ea.overcomes is eb or eb.overcomes is ea else "生害"


_DIRECTION = {"克": "彼克我", "被克": "我克彼", "生": "彼生我", "被生": "我生彼"}


def _direction(other: Branch, me: Branch) -> str:
    """How the other branch stands to me: 彼克我 / 我克彼 / 彼生我 / 我生彼 (比和 never forms a 害)."""
    return _DIRECTION[element_relation(other.element, me.element)]


_DIRECTION_TEXT = {"彼克我": Q_BI_KE, "我克彼": Q_WO_KE, "彼生我": Q_SHENG, "我生彼": Q_SHENG}


def liuhai_findings(chart: Chart, use: Use | None = None, scope: RuleContext | None = None) -> tuple[Finding, ...]:
    """世应相害 (always), then the 害 on each target (the 用神, else its 伏神; and the 世)."""
    out: list[Finding] = []
    sc = scope if scope is not None else RuleContext(chart, use)
    shi, ying = sc.shi, sc.ying
    f = _shi_ying(shi, ying, sc.day, sc.month)  # only 姤, 恒, 小畜, 益
    if f is not None:
        out.append(f)
    for tm, relative, hits, notes, head in sc.per_target:
        bi = tm[0].index
        by = hits.get(_HAI[bi])  # a branch has exactly one 害 partner
        if by is not None:
            out.append(_on(tm, relative, head, by, notes, bi, sc.day, sc.month))
    return tuple(out)


def _line_member(cl: ChartLine, role: str) -> Member:
    return _M[(cl.line.branch, Source.DONGYAO if cl.moving else Source.JINGYAO, cl.line.position, role)]


def shi_ying(chart: Chart) -> Finding | None:
    """世 and 应 a 害 pair: only 姤, 恒 (生害) and 小畜, 益 (克害, 应克世) — a prompt, not a verdict."""
    ctx = RuleContext(chart, None)
    return _shi_ying(chart.shi_line, chart.ying_line, ctx.day, ctx.month)


def _shi_ying(shi: ChartLine, ying: ChartLine, day: Branch | None, month: Branch | None) -> Finding | None:
    if _HAI[shi.line.branch.index] is not ying.line.branch:
        return None
    kind = kind_of(shi.branch, ying.branch)
    d = _direction(ying.branch, shi.branch)  # the 应 against the 世
    relation = {"彼克我": "应克世", "我克彼": "世克应", "彼生我": "应生世", "我生彼": "世生应"}[d]
    shi_m, ying_m = _line_member(shi, "世"), _line_member(ying, "应")
    return new_finding(
        (  # rule, holds, kind, element, relative, lines, members, reasons, text, details
            RULE,
            True,
            kind,
            shi.element,
            shi.relative,
            (min(shi.position, ying.position), max(shi.position, ying.position)),
            (shi_m, ying_m),
            ("世应相害", relation),
            (Q_LAW, _DIRECTION_TEXT[d], Q_PROMPT),
            {
                "target": "世应",
                "direction": relation,
                "weight": "重" if relation == "应克世" else "轻" if kind == "生害" else "中",
                "severity": [*_WEIGHT],
                "relations": [*around_hai(shi_m, ying_m, day, month)],  # 然亦必兼合冲生克而考之
            },
        )
    )


# Per branch (by index): its 害 partner (the indices sum to 7), and how that partner stands to it.
_HAI = tuple(BRANCHES[(7 - b.index) % 12] for b in BRANCHES)
_HAI_KIND = tuple(kind_of(_HAI[b.index], b) for b in BRANCHES)
_HAI_DIRECTION = tuple(_direction(_HAI[b.index], b) for b in BRANCHES)


def _on(
    tm: Member, relative: Relative, head: Any, by: tuple[Actor, ...], notes: tuple[str, ...], bi: int, day: Branch | None, month: Branch | None
) -> Finding:
    """The 害 on a target (`tm`) by the sources `by` of its partner branch."""
    b, _source, position, role = tm
    kind = _HAI_KIND[bi]
    d = _HAI_DIRECTION[bi]
    mask = BIT[position]  # the finding's lines (lines_of inlined)
    for a in by:
        mask |= BIT[a[2]]
    # the details are the same for every 害 on the target (its partner is one branch): built once
    # and kept with its head (see context._Head)
    memo = head.memo
    shared = memo.get("害")
    if shared is None:
        shared = memo["害"] = {
            **head,  # target, hidden, position, branch
            "direction": d,
            # 六害重克害，克害重用爻世爻: every target here is a 用 or the 世 (or the 用 a topic names)
            "weight": "重" if kind == "克害" else "轻",
            "severity": [*_WEIGHT],
        }
    members = tuple(map(_AS_HAI, by))
    relations: list[dict[str, Any]] = []  # 然亦必兼合冲生克而考之: round each source of the 害, with the 日 and the 月
    for m in members:
        relations += around_hai(tm, m, day, month)
    return new_finding(
        (  # rule, holds, kind, element, relative, lines, members, reasons, text, details
            RULE,
            True,
            kind,
            b.element,
            relative,
            lines_in(mask),
            (tm, *members),
            (*map(_HAI_REASON[role], by), d, *notes),
            _ON_TEXT[d],
            {**shared, "relations": relations},
        )
    )


_ON_TEXT = {d: (Q_LAW, q, Q_USE) for d, q in _DIRECTION_TEXT.items()}
_AS_HAI = as_role("害")
_HAI_REASON: dict[str | None, Callable[[Actor], str]] = {
    role: reason("{source}{branch}害" + role) for role in ("用", "世", "用/世", *NAMED_ROLES)
}  # by the target's role


__all__ = ["RULE", "kind_of", "liuhai_findings", "shi_ying"]
