"""局会 (docs/rules.md §2): the 三合局 as 动会, 变会 or 伏会, hung on the 日 or 月.

"中神主也，失其主则不能会，伤其中则不能局。" (6.05)
"局会有三：一曰动会，二曰变会，三曰伏会，则必由日月而悬之也。" (6.06)
"变失始者其局假，伏得生者其局真。" (6.07)

Each 局 has three roles, 始 (长生), 中 (帝旺), 终 (墓). A role is filled by the 日, the 月, a
moving line, a 变爻, a lifted 伏神 (its 飞神 moves) or a static line; the first two are always
sound, the others when neither 旬空 nor 月破.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from yimao.analysis.context import RuleContext, lines_of, rule_context
from yimao.analysis.finding import Finding, JuhuiDetails, JuhuiRole, JuhuiUse, Member
from yimao.chart import Chart, Source, Use
from yimao.ganzhi import BRANCHES, SANHE, Branch, Element, changsheng, element_relation, vigour
from yimao.hexagram import Cast, Relative
from yimao.texts import Quote, quote

RULE = "局会"
ROLES = ("始", "中", "终")

# -- the sentences -------------------------------------------------------------------------
Q_ZHONG = quote("中神主也，失其主则不能会，伤其中则不能局。", "三合之中的中神是主：失了主就不能成会，伤了中神就不能成局。")
Q_WU = quote(
    "是以火神局会，以午为要，午不失伤，即寅戌失一而亦局会也。",
    "所以火局以午为紧要，只要午不失位、不受伤，即使寅、戌缺其一，也仍算局会。",
)
Q_STRENGTH = quote(
    "伤其始者，局会之力小，伤其终者，局会之力存，终始不伤。局会之力大矣。",
    "伤了起头那个长生之神，局会的力量就小；伤了末尾那个墓库之神，局会的力量还在；首尾都不伤，局会的力量就大。",
)
Q_NATURE = quote("午会为火，寅戌虽会，而土木本质，则不随火变也。", "午会成火，寅与戌虽然参会，但它们本质是木、是土，并不随火而改变。")
Q_THREE = quote(
    "局会有三：一曰动会，二曰变会，三曰伏会，则必由日月而悬之也。",
    "局会有三种：一是「动会」，二是「变会」，三是「伏会」，而且都必须有日建或月建悬在其中才成立。",
)
Q_RIYUE = quote("凡局必得日月有一在局", "凡三合局必须日、月之中有一个也在局内")
Q_KIND = {
    "动会": quote("动会者，周流六虚而皆会也", "动会，是本卦六爻之间彼此相会"),
    "变会": quote("变会者，交重一爻而相会也", "变会，是某个交重之爻化出的变爻与本卦相会"),
    "伏会": quote("伏会者，发动飞爻而相挈也", "伏会，是飞爻发动而把下面的伏神提挈起来相会"),
}
Q_JIA = quote("变失始者其局假", "变会若缺了起头的长生之神，这个局就是假的")
Q_ZHEN = quote("伏得生者其局真", "伏会若伏神正得长生，这个局就是真的")
Q_XUAN = quote("日月悬之，悬始吉而悬终凶也。", "日月悬在局中，悬在长生之位就吉，悬在墓库之位就凶。")
Q_XUAN_CASE = quote("是故申月悬子则是，戌月悬午则非也。", "所以申月而水局悬在申上就对，戌月而火局悬在戌上就不对。")
Q_XIUQIU = quote("戌月悬午，是墓非生，则此火局休囚，不成会矣", "而戌月所悬的又是火墓而非火生，这个火局便休囚而不成会")
Q_LOSS = quote("故失中乃失主，失始乃失生，失终乃失墓，则轻重昭矣", "失了中神就是失主，失了长生就是失生，失了墓库就是失藏——轻重也就分明了")


# Reasons of a 局 that does not form (the tokens tests and users rely on).
R_FEW = "动变伏不足二支"
R_NO_PILLAR = "未给日月"
R_RIYUE = "日月不在局"
R_SHIZHU = "失主"
R_SHANGZHONG = "伤中"
R_JIA = "变失始"
R_XUANZHONG = "悬终"

_REASON_TEXT: dict[str, tuple[Quote, ...]] = {
    R_FEW: (Q_THREE,),
    R_NO_PILLAR: (Q_THREE, Q_RIYUE),
    R_RIYUE: (Q_THREE, Q_RIYUE),
    R_SHIZHU: (Q_ZHONG, Q_LOSS),
    R_SHANGZHONG: (Q_ZHONG,),
    R_JIA: (Q_JIA, Q_XUAN_CASE),
    R_XUANZHONG: (Q_XUAN, Q_XUAN_CASE, Q_XIUQIU),
}

ORDER = (Element.MU, Element.HUO, Element.JIN, Element.SHUI)  # the order of the findings
ACTIVE = (Source.DONGYAO, Source.BIANYAO, Source.FUSHEN)  # the sources that make a 局 (会), best first
# 旬空 and 月破 are the branch's: every line, 变爻 and 伏神 of a branch is 空 (破) or none is.


class RoleState(NamedTuple):
    """A role of a 局 on one chart, as the verdict reads it."""

    present: bool  # some source fills it
    hung: bool  # the 日 or the 月 is it
    sound: bool  # the 日 or 月, or a line, 变爻 or 伏神 neither 旬空 nor 月破
    kong: bool  # lost to 旬空 (filled by the lines alone)
    po: bool  # lost to 月破


def juhui(chart: Chart, use: Use | None = None, ctx: RuleContext | None = None) -> tuple[Finding, ...]:
    """Every 局 that forms, and every informative near miss, in the order 木 火 金 水."""
    if not chart.cast.moving:
        return ()  # nothing moves: no 局 can form and none came near
    ctx = ctx if ctx is not None else rule_context(chart, use)
    entries, active = line_entries(chart.cast)
    hung = {b for b in (ctx.day, ctx.month) if b is not None}
    use_element = _use_element(chart, use, ctx.palace)
    out = []
    for element in ORDER:
        n_present = n_active = n_hung = 0
        for b in SANHE[element]:
            n_present += bool(entries[b.index]) or b in hung
            n_active += b in active
            n_hung += b in hung
        if _worth_a_finding(n_present, n_active, n_hung > 0):
            out.append(_finding(ctx, entries, element, n_active >= 2, use_element))
    return tuple(out)


# (source, position): the 24 pairs a line can bring, made once and shared by every cast's entries;
# and the sets of moving branches met, each kept once (a few hundred for the 4096 casts).
_SOURCED = {(s, p): (s, p) for s in Source for p in range(1, 7)}
_MOVING_BRANCHES: dict[frozenset[Branch], frozenset[Branch]] = {}


@lru_cache(maxsize=4096)  # the 4096 casts
def line_entries(cast: Cast) -> tuple[tuple[tuple[tuple[Source, int], ...], ...], frozenset[Branch]]:
    """What the lines bring to the 局, by branch (`Branch.index`), in chart order: each line
    (static or moving), the 变爻 of a moving one, and the 伏神 it lifts (「发动飞爻而相挈」), with
    their positions; and the branches that move, which alone make a 局 (会): the moving lines, 变爻
    and lifted 伏神."""
    h, moving = cast
    changed = cast.changed
    under = {hl.position: hl for hl in h.hidden}
    out: dict[Branch, list[tuple[Source, int]]] = {}
    active = set()
    for line in h.lines:
        p = line.position
        if p not in moving:
            out.setdefault(line.branch, []).append(_SOURCED[Source.JINGYAO, p])
            continue
        out.setdefault(line.branch, []).append(_SOURCED[Source.DONGYAO, p])
        active.add(line.branch)
        if changed is not None:
            b = changed.lines[p - 1].branch
            out.setdefault(b, []).append(_SOURCED[Source.BIANYAO, p])
            active.add(b)
        if p in under:  # lifted: its 飞神 moves
            b = under[p].branch
            out.setdefault(b, []).append(_SOURCED[Source.FUSHEN, p])
            active.add(b)
    astir = frozenset(active)
    return tuple([tuple(out.get(b, ())) for b in BRANCHES]), _MOVING_BRANCHES.setdefault(astir, astir)


def _worth_a_finding(n_present: int, n_active: int, hung: bool) -> bool:
    """Formed 局 and informative near misses: hung on the 日/月 with two roles present and either
    two active or all three present; not hung, all three roles active (周流六虚而皆会)."""
    if n_present < 2:
        return False
    if hung:
        return n_active >= 2 or (n_active == 1 and n_present == 3)
    return n_active == 3


def _finding(
    ctx: RuleContext, entries: tuple[tuple[tuple[Source, int], ...], ...], element: Element, two_active: bool, use_element: Element | None
) -> Finding:
    states = []
    members: list[Member] = []
    hung_on: list[str] = []
    best = []  # each role's best active source (动爻, then 变爻, then 伏神), which makes the type
    for name, b in zip(ROLES, SANHE[element]):
        state, role_members, words, rank = _role(ctx, name, b, entries[b.index])
        states.append(state)
        members += role_members
        hung_on += words
        best.append(rank)
    kind = "变会" if 1 in best else "伏会" if 2 in best else "动会"
    no_pillars = ctx.day is None and ctx.month is None
    v = verdict(element, kind, _zhen(ctx.chart, element), no_pillars, two_active, (states[0], states[1], states[2]))
    trio = SANHE[element]
    details = JuhuiDetails(
        v.roles,
        ROLES[trio.index(ctx.day)] if ctx.day in trio else None,
        ROLES[trio.index(ctx.month)] if ctx.month in trio else None,
        v.xuan,
        vigour(element, ctx.month) if ctx.month is not None else None,
        _to_use(element, use_element),
        v.zhen,
        v.strength,
        v.xuan_reading,
    )
    notes = []
    if ctx.stemless:
        notes.append("未给日干，旬空未判")
    if ctx.month is None:
        notes.append("未给月建，月破未判")
    return Finding(
        RULE,
        v.holds,
        kind,
        element,
        Relative.of(element, ctx.palace),  # the 局 acts as its element (午会为火)
        lines_of(*[m.position for m in members]),
        tuple(members),
        (*hung_on, *v.reasons, *notes) if v.holds else (*v.reasons, *notes),
        v.text,
        details,
    )


def _role(ctx: RuleContext, name: str, b: Branch, by_lines: tuple[tuple[Source, int], ...]) -> tuple[RoleState, list[Member], list[str], int]:
    """The role `name` of a 局, its branch `b` filled by the lines as `by_lines`: its state; its
    members, the 日 and 月 first; the words saying the 日 or 月 hangs on it; the rank of its best
    active source in ACTIVE (3: none)."""
    members = []
    words = []
    if b is ctx.day:
        members.append(Member(b, Source.RI, None, name))
        words.append(f"日{b.value}在{name}")
    if b is ctx.month:
        members.append(Member(b, Source.YUE, None, name))
        words.append(f"月{b.value}在{name}")
    rank = 3
    for source, p in by_lines:
        members.append(Member(b, source, p, name))
        if source in ACTIVE:
            rank = min(rank, ACTIVE.index(source))
    hung = b is ctx.day or b is ctx.month
    filled = bool(by_lines)
    kong = filled and b in (ctx.chart.pillars.xunkong or ())
    po = filled and ctx.month is not None and b is ctx.month.opposite
    sound = hung or (filled and not kong and not po)
    return RoleState(filled or hung, hung, sound, kong and not sound, po and not sound), members, words, rank


def _zhen(chart: Chart, element: Element) -> bool:
    """伏得生者其局真: a lifted 伏神 of the 局 under the 长生 of its own element (午伏寅, 子伏申)."""
    for cl in chart.lines:
        h = cl.hidden
        if h is not None and h.lifted and h.line.branch in SANHE[element] and cl.line.branch is changsheng(h.line.branch.element, chart.school):
            return True
    return False


class Verdict(NamedTuple):
    """What a 局's finding takes from the states of its roles: whether it holds, its reasons (but
    the 日/月 it hangs on), its sentences, and the details they decide (`JuhuiDetails`)."""

    holds: bool
    reasons: tuple[str, ...]
    text: tuple[Quote, ...]
    roles: tuple[JuhuiRole, JuhuiRole, JuhuiRole]
    xuan: str | None  # 悬始, 悬终, 悬中: the role the 日 or 月 is
    zhen: bool  # 伏得生者其局真
    strength: str | None  # of a 局 that forms
    xuan_reading: str | None


@lru_cache(maxsize=4096)  # a few hundred states come up
def verdict(element: Element, kind: str, zhen: bool, no_pillars: bool, two_active: bool, roles: tuple[RoleState, RoleState, RoleState]) -> Verdict:
    """The 局 of `element`, its roles in these states, judged in the order of docs/rules.md §2."""
    start, _middle, end = roles
    names = dict(zip(ROLES, SANHE[element]))
    hung = [name for name, r in zip(ROLES, roles) if r.hung]
    # 悬始 when the 日 or 月 is the 始 (it prevails), else 悬终, else 悬中
    xuan = "悬始" if "始" in hung else "悬终" if "终" in hung else "悬中" if hung else None
    reasons = _why_not(kind, no_pillars, two_active, roles, hung)
    damage = _damage(element, roles)
    s, m, e = (JuhuiRole(name, b, r.present, r.sound) for (name, b), r in zip(names.items(), roles))
    if reasons:
        return Verdict(False, (*reasons, *damage), _text_of(reasons), (s, m, e), xuan, zhen, None, None)
    # 伤其始者，局会之力小，伤其终者，局会之力存，终始不伤。局会之力大矣
    strength = "力小" if not start.sound else "力存" if not end.sound else "力大"
    xuan_reading = "吉" if xuan == "悬始" else "凶" if xuan == "悬终" else None
    why = (f"中神{names['中'].value}不伤", *([xuan] if xuan else []), *(["伏得生"] if zhen else []), strength, *damage)
    text = (
        Q_THREE,
        Q_KIND[kind],
        Q_ZHONG,
        Q_STRENGTH,
        *((Q_ZHEN,) if zhen else ()),
        *((Q_XUAN,) if xuan in ("悬始", "悬终") else ()),
        Q_NATURE,
    )
    return Verdict(True, why, text, (s, m, e), xuan, zhen, strength, xuan_reading)


def _why_not(kind: str, no_pillars: bool, two_active: bool, roles: tuple[RoleState, RoleState, RoleState], hung: list[str]) -> list[str]:
    """Why a 局 does not form, in the order of docs/rules.md §2 (none: it forms)."""
    start, middle, _end = roles
    reasons = []
    if not two_active:
        reasons.append(R_FEW)  # 会 is lines meeting lines
    if no_pillars:
        reasons.append(R_NO_PILLAR)
    elif not hung:
        reasons.append(R_RIYUE)  # 凡局必得日月有一在局
    if not middle.present:
        reasons.append(R_SHIZHU)  # 失其主则不能会
    elif not middle.sound:
        reasons.append(R_SHANGZHONG)  # 伤其中则不能局
        if middle.kong:
            reasons.append("中神空")
        if middle.po:
            reasons.append("中神破")
    if not start.sound:
        if kind == "变会":
            reasons.append(R_JIA)  # 变失始者其局假
        if hung == ["终"]:
            reasons.append(R_XUANZHONG)  # 戌月悬午，是墓非生，则此火局休囚，不成会
    return reasons


def _damage(element: Element, roles: tuple[RoleState, RoleState, RoleState]) -> list[str]:
    """How each role that is not sound is lost: "始神寅旬空", "终神戌不现" …"""
    out = []
    for name, b, r in zip(ROLES, SANHE[element], roles):
        if r.sound:
            continue
        if not r.present:
            out.append(f"{name}神{b.value}不现")
        else:
            out.append(f"{name}神{b.value}{'旬空' if r.kong else ''}{'月破' if r.po else ''}")
    return out


def _to_use(element: Element, use_element: Element | None) -> JuhuiUse | None:
    """How the 局 stands to the 用神's element (of its line, its 伏神, or its 六亲 in the palace)."""
    if use_element is None:
        return None
    return JuhuiUse(use_element, use_element is element, element_relation(element, use_element))


def _use_element(chart: Chart, use: Use | None, palace: Element) -> Element | None:
    if use is None:
        return None
    if use.positions:
        return chart.lines[use.positions[0] - 1].line.branch.element
    for p in use.hidden_positions:
        h = chart.lines[p - 1].hidden
        if h is not None:
            return h.line.branch.element
    return use.relative.element_in(palace) if use.relative is not None else None


def _text_of(reasons: list[str]) -> tuple[Quote, ...]:
    """The sentences that make `reasons` the reasons of a near miss, each once, in order."""
    text: list[Quote] = []
    for r in reasons:
        for q in _REASON_TEXT.get(r, ()):
            if q not in text:
                text.append(q)
    return tuple(text)


__all__ = ["ORDER", "ROLES", "RULE", "juhui"]
