"""局会 (RULES §2): the 三合局 as 动会, 变会 or 伏会, hung on the 日 or 月.

"中神主也，失其主则不能会，伤其中则不能局。" (6.05)
"局会有三：一曰动会，二曰变会，三曰伏会，则必由日月而悬之也。" (6.06)
"变失始者其局假，伏得生者其局真。" (6.07)

Each 局 has three roles, 始 (长生), 中 (帝旺), 终 (墓). A role is filled by the 日, the 月, a
moving line, a 变爻, a lifted 伏神 (its 飞神 moves) or a static line; the first two are always
sound, the others when neither 旬空 nor 月破.
"""

from __future__ import annotations

from typing import Any

from yimao.analysis.finding import Finding
from yimao.analysis.xing import member
from yimao.chart import Chart, Source, Use
from yimao.ganzhi import BRANCHES, SANHE, Branch, Element, changsheng, element_relation, vigour
from yimao.hexagram import Relative
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

# a member: (source, position, sound, 空, 破)
_Entry = tuple[Source, "int | None", bool, bool, bool]
_JU = tuple((e, SANHE[e], tuple(b.index for b in SANHE[e])) for e in (Element.MU, Element.HUO, Element.JIN, Element.SHUI))


_RI, _YUE, _DONG, _JING, _BIAN, _FU = Source.RI, Source.YUE, Source.DONGYAO, Source.JINGYAO, Source.BIANYAO, Source.FUSHEN


class _Pool:
    """Per branch (by index): its entries, best active rank, soundness, and whether 日/月 is it."""

    __slots__ = ("entries", "best", "sound", "riyue", "fu")

    def __init__(self, chart: Chart) -> None:
        entries: list[list[_Entry] | None] = [None] * 12
        best = [0] * 12
        sound = [False] * 12
        riyue = [False] * 12
        fu = False

        # rank: 1 动爻, 2 变爻, 3 伏神 (the best active source of a role decides the type), 0 inactive
        def add(b: Branch, e: _Entry, r: int) -> None:
            i = b.index
            es = entries[i]
            if es is None:
                entries[i] = [e]
            else:
                es.append(e)
            if e[2]:
                sound[i] = True
            if r and (best[i] == 0 or r < best[i]):
                best[i] = r

        p = chart.pillars
        day, month = p.day_branch, p.month_branch
        if day is not None:
            add(day, (_RI, None, True, False, False), 0)
            riyue[day.index] = True
        if month is not None:
            add(month, (_YUE, None, True, False, False), 0)
            riyue[month.index] = True
        for cl in chart.lines:
            d, m = cl.day, cl.month
            kong = bool(d is not None and d.kong)
            po = bool(m is not None and m.po)
            pos = cl.line.position
            if cl.moving:
                add(cl.line.branch, (_DONG, pos, not (kong or po), kong, po), 1)
            else:
                add(cl.line.branch, (_JING, pos, not (kong or po), kong, po), 0)
            ch = cl.change
            if ch is not None and cl.changed is not None:
                k, b = bool(ch.kong), bool(ch.po)
                add(cl.changed.branch, (_BIAN, pos, not (k or b), k, b), 2)
            h = cl.hidden
            if h is not None and h.lifted:
                fu = True
                k = bool(h.day is not None and h.day.kong)
                b = bool(h.month is not None and h.month.po)
                add(h.line.branch, (_FU, pos, not (k or b), k, b), 3)
        self.entries, self.best, self.sound, self.riyue, self.fu = entries, best, sound, riyue, fu


def juhui(chart: Chart, use: Use | None = None) -> tuple[Finding, ...]:
    """Every 局 that forms, and every informative near miss, in the order 木 火 金 水."""
    if not chart.cast.moving:
        return ()  # nothing moves: no 局 can form and none came near
    pool = _Pool(chart)
    out = []
    for element, branches, idx in _JU:
        f = _ju(chart, element, branches, idx, pool, use)
        if f is not None:
            out.append(f)
    return tuple(out)


def _ju(
    chart: Chart, element: Element, branches: tuple[Branch, Branch, Branch], idx: tuple[int, int, int], pool: _Pool, use: Use | None
) -> Finding | None:
    ents = pool.entries
    i0, i1, i2 = idx
    present = [ents[i0] is not None, ents[i1] is not None, ents[i2] is not None]
    n_present = present[0] + present[1] + present[2]
    if n_present < 2:
        return None
    best = pool.best
    ranks = [best[i0], best[i1], best[i2]]
    n_active = (ranks[0] > 0) + (ranks[1] > 0) + (ranks[2] > 0)
    ry = pool.riyue
    riyue = [ry[i0], ry[i1], ry[i2]]
    # Informative near misses only. Hung on the 日/月: two roles present, and two active or all
    # three present. Not hung: the lines alone make all three roles active (周流六虚而皆会).
    if riyue[0] or riyue[1] or riyue[2]:
        if n_active == 0 or (n_active < 2 and n_present < 3):
            return None
    elif n_active < 3:
        return None
    filled = [ents[i] or () for i in idx]
    sound = [pool.sound[i] for i in idx]
    p = chart.pillars
    day, month = p.day_branch, p.month_branch

    # the type, from the best active source of each role: any 变爻 → 变会, any 伏神 → 伏会
    kind = "变会" if 2 in ranks else "伏会" if 3 in ranks else "动会"
    hung = riyue[0] or riyue[1] or riyue[2]
    reasons: list[str] = []
    if n_active < 2:
        reasons.append(R_FEW)
    if day is None and month is None:
        reasons.append(R_NO_PILLAR)
    elif not hung:
        reasons.append(R_RIYUE)
    if not present[1]:
        reasons.append(R_SHIZHU)
    elif not sound[1]:
        reasons.append(R_SHANGZHONG)
        es = filled[1]
        if any(e[3] for e in es):
            reasons.append("中神空")
        if any(e[4] for e in es):
            reasons.append("中神破")
    if kind == "变会" and not sound[0]:
        reasons.append(R_JIA)
    if not sound[0] and riyue[2] and not riyue[0] and not riyue[1]:
        reasons.append(R_XUANZHONG)  # 戌月悬午，是墓非生，则此火局休囚，不成会

    palace = chart.hexagram.palace_element
    members = tuple(member(branches[i], e[0], e[1], ROLES[i]) for i in range(3) for e in filled[i])
    lines = tuple(sorted({e[1] for es in filled for e in es if e[1] is not None}))
    xuan = "悬始" if riyue[0] else "悬终" if riyue[2] else "悬中" if riyue[1] else None
    damage = _damage(branches, filled, sound)
    bv = _BV
    details: dict[str, Any] = {
        "roles": {"始": bv[idx[0]], "中": bv[idx[1]], "终": bv[idx[2]]},
        "present": {"始": present[0], "中": present[1], "终": present[2]},
        "sound": {"始": sound[0], "中": sound[1], "终": sound[2]},
        "ri": _role_of(idx, day),
        "yue": _role_of(idx, month),
        "xuan": xuan,
        "vigour": _VIGOUR[month.index][element.index] if month is not None else None,
    }
    ue = _use_element(chart, use) if use is not None else None
    if ue is not None:
        details["use_element"] = ue.value
        details["is_use"] = ue is element
        details["to_use"] = element_relation(element, ue)
    zhen = pool.fu and _zhen(chart, filled)
    if zhen:
        details["zhen"] = True
    notes = _notes(chart)
    if reasons:
        text: list[Quote] = []
        for r in reasons:
            for q in _REASON_TEXT.get(r, ()):
                if q not in text:
                    text.append(q)
        return Finding(
            rule=RULE,
            holds=False,
            kind=kind,
            element=element,
            relative=Relative.of(element, palace),
            lines=lines,
            members=members,
            reasons=(*reasons, *damage, *notes),
            text=tuple(text),
            details=details,
        )
    strength = "力小" if not sound[0] else "力存" if not sound[2] else "力大"
    details["strength"] = strength
    details["xuan_reading"] = "吉" if xuan == "悬始" else "凶" if xuan == "悬终" else None
    why = []
    for i in range(3):
        if riyue[i]:
            if day is not None and day.index == idx[i]:
                why.append(f"日{bv[idx[i]]}在{ROLES[i]}")
            if month is not None and month.index == idx[i]:
                why.append(f"月{bv[idx[i]]}在{ROLES[i]}")
    why.append(f"中神{bv[idx[1]]}不伤")
    if xuan is not None:
        why.append(xuan)
    if zhen:
        why.append("伏得生")
    why.append(strength)
    return Finding(
        rule=RULE,
        holds=True,
        kind=kind,
        element=element,
        relative=Relative.of(element, palace),
        lines=lines,
        members=members,
        reasons=(*why, *damage, *notes),
        text=_TEXT[(kind, zhen, xuan in ("悬始", "悬终"))],
        details=details,
    )


_BV = tuple(b.value for b in BRANCHES)
# 旺相休囚死 of each element (by index) in each month (by index)
_VIGOUR = tuple(tuple(vigour(e, m).value for e in Element) for m in BRANCHES)
# the sentences of a formed 局, by (type, 伏得生, 悬始/悬终)
_TEXT = {
    (k, z, x): (Q_THREE, Q_KIND[k], Q_ZHONG, Q_STRENGTH, *((Q_ZHEN,) if z else ()), *((Q_XUAN,) if x else ()), Q_NATURE)
    for k in Q_KIND
    for z in (False, True)
    for x in (False, True)
}


def _use_element(chart: Chart, use: Use) -> Element | None:
    """The element of the 用神: of its line, of its 伏神, or of its 六亲 in the palace."""
    if use.positions:
        return chart.lines[use.positions[0] - 1].element
    for p in use.hidden_positions:
        h = chart.lines[p - 1].hidden
        if h is not None:
            return h.line.element
    return use.relative.element_in(chart.hexagram.palace_element) if use.relative is not None else None


def _role_of(idx: tuple[int, int, int], b: Branch | None) -> str | None:
    if b is None:
        return None
    i = b.index
    return ROLES[idx.index(i)] if i in idx else None


def _damage(branches, filled, sound) -> tuple[str, ...]:
    """Which roles are lost, and how: "始神寅旬空", "终神戌不现" …"""
    out = []
    for i, es in enumerate(filled):
        if sound[i]:
            continue
        if not es:
            out.append(f"{ROLES[i]}神{branches[i].value}不现")
        else:
            how = "旬空" if any(e[3] for e in es) else ""
            if any(e[4] for e in es):
                how += "月破"
            out.append(f"{ROLES[i]}神{branches[i].value}{how}")
    return tuple(out)


def _zhen(chart: Chart, filled) -> bool:
    """伏得生: a 伏神 member hidden under the 长生 of its own element (午伏寅下, 子伏申下)."""
    for es in filled:
        for e in es:
            if e[0] is Source.FUSHEN:
                fei = chart.lines[e[1] - 1]
                h = fei.hidden
                if h is not None and fei.branch is changsheng(h.line.element, chart.school):
                    return True
    return False


def _notes(chart: Chart) -> tuple[str, ...]:
    p = chart.pillars
    out = []
    if p.day_branch is not None and p.xunkong is None:
        out.append("未给日干，旬空未判")
    if p.month_branch is None:
        out.append("未给月建，月破未判")
    return tuple(out)


__all__ = ["RULE", "ROLES", "juhui"]
