"""局会 (RULES §2): the 三合局 as 动会, 变会 or 伏会, hung on the 日 or 月.

"中神主也，失其主则不能会，伤其中则不能局。" (6.05)
"局会有三：一曰动会，二曰变会，三曰伏会，则必由日月而悬之也。" (6.06)
"变失始者其局假，伏得生者其局真。" (6.07)

Each 局 has three roles, 始 (长生), 中 (帝旺), 终 (墓). A role is filled by the 日, the 月, a
moving line, a 变爻, a lifted 伏神 (its 飞神 moves) or a static line; the first two are always
sound, the others when neither 旬空 nor 月破.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from yimao.analysis.finding import Finding, lines_in, new_finding, new_member
from yimao.analysis.xing import Scope
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

# An entry of a role: (source, position, sound, 空, 破); the 日 and the 月 are always sound.
_Entry = tuple[Source, "int | None", bool, bool, bool]
_JU = tuple((e, SANHE[e], tuple(b.index for b in SANHE[e])) for e in (Element.MU, Element.HUO, Element.JIN, Element.SHUI))

_RI, _YUE, _DONG, _JING, _BIAN, _FU = Source.RI, Source.YUE, Source.DONGYAO, Source.JINGYAO, Source.BIANYAO, Source.FUSHEN
_RI_ENTRY: _Entry = (_RI, None, True, False, False)
_YUE_ENTRY: _Entry = (_YUE, None, True, False, False)


def juhui(chart: Chart, use: Use | None = None, scope: Scope | None = None) -> tuple[Finding, ...]:
    """Every 局 that forms, and every informative near miss, in the order 木 火 金 水."""
    if not chart.cast.moving:
        return ()  # nothing moves: no 局 can form and none came near
    sc = scope if scope is not None else Scope(chart, use)
    day, month = sc.day, sc.month
    school = chart.school
    # Per branch (by index): its entries in chart order, whether one is sound, and the rank of
    # its best active source — 1 动爻, 2 变爻, 3 伏神 (it decides the type), 0 when none is active.
    entries: dict[int, list[_Entry]] = {}
    sound = [False] * 12
    rank = [0] * 12
    sheng: set[int] = set()  # the branches of lifted 伏神 hidden under their 长生 (伏得生)
    di = mi = -1  # the indices of the day and month branches (-1: not given)
    if day is not None:
        di = day.index
        entries[di] = [_RI_ENTRY]
        sound[di] = True
    if month is not None:
        mi = month.index
        entries.setdefault(mi, []).append(_YUE_ENTRY)
        sound[mi] = True
    for cl in chart.lines:
        ln = cl.line
        pos = ln.position
        i = ln.branch.index
        d, m = cl.day, cl.month
        # k: 旬空, b: 月破 (a relation is None, and 空 too, when its pillar or the stem is not given)
        k = d is not None and d.kong is True
        b = m is not None and m.po is True
        if cl.moving:
            entries.setdefault(i, []).append((_DONG, pos, not (k or b), k, b))
            rank[i] = 1
        else:
            entries.setdefault(i, []).append((_JING, pos, not (k or b), k, b))
        if not (k or b):
            sound[i] = True
        ch, chl = cl.change, cl.changed
        if ch is not None and chl is not None:
            i = chl.branch.index
            k, b = ch.kong is True, ch.po is True
            entries.setdefault(i, []).append((_BIAN, pos, not (k or b), k, b))
            if not (k or b):
                sound[i] = True
            if rank[i] != 1:
                rank[i] = 2
        h = cl.hidden
        if h is not None and h.lifted:
            hb = h.line.branch
            i = hb.index
            d, m = h.day, h.month
            k = d is not None and d.kong is True
            b = m is not None and m.po is True
            entries.setdefault(i, []).append((_FU, pos, not (k or b), k, b))
            if not (k or b):
                sound[i] = True
            if rank[i] == 0:
                rank[i] = 3
            if ln.branch is changsheng(hb.element, school):
                sheng.add(i)
    riyue = (di, mi)
    out = []
    ctx = None
    for ju in _JU:
        i0, i1, i2 = ju[2]
        n_present = (i0 in entries) + (i1 in entries) + (i2 in entries)
        if n_present < 2:
            continue
        n_active = (rank[i0] > 0) + (rank[i1] > 0) + (rank[i2] > 0)
        # Informative near misses only. Hung on the 日/月: two roles present, and two active or all
        # three present. Not hung: the lines alone make all three roles active (周流六虚而皆会).
        if i0 in riyue or i1 in riyue or i2 in riyue:
            if n_active == 0 or (n_active < 2 and n_present < 3):
                continue
        elif n_active < 3:
            continue
        if ctx is None:  # what every 局 of the chart shares, worked out once
            ctx = (_use_element(chart, use, sc.palace) if use is not None else None, _notes(sc))
        zhen = i0 in sheng or i1 in sheng or i2 in sheng
        out.append(_ju(ju, entries, sound, rank, n_active, zhen, di, mi, sc, *ctx))
    return tuple(out)


def _ju(
    ju: tuple[Element, tuple[Branch, Branch, Branch], tuple[int, int, int]],
    entries: dict[int, list[_Entry]],
    sound: list[bool],
    rank: list[int],
    n_active: int,
    zhen: bool,
    di: int,
    mi: int,
    sc: Scope,
    ue: Element | None,
    notes: tuple[str, ...],
) -> Finding:
    element, branches, idx = ju
    i0, i1, i2 = idx
    filled = (entries.get(i0, ()), entries.get(i1, ()), entries.get(i2, ()))
    s0, s1, s2 = sound[i0], sound[i1], sound[i2]
    day, month = sc.day, sc.month
    ry0, ry1, ry2 = i0 == di or i0 == mi, i1 == di or i1 == mi, i2 == di or i2 == mi
    ranks = (rank[i0], rank[i1], rank[i2])

    # the type, from the best active source of each role: any 变爻 → 变会, any 伏神 → 伏会
    kind = "变会" if 2 in ranks else "伏会" if 3 in ranks else "动会"
    reasons: list[str] = []
    if n_active < 2:
        reasons.append(R_FEW)
    if day is None and month is None:
        reasons.append(R_NO_PILLAR)
    elif not (ry0 or ry1 or ry2):
        reasons.append(R_RIYUE)
    if not filled[1]:
        reasons.append(R_SHIZHU)
    elif not s1:
        reasons.append(R_SHANGZHONG)
        es = filled[1]
        if any(e[3] for e in es):
            reasons.append("中神空")
        if any(e[4] for e in es):
            reasons.append("中神破")
    if not s0:
        if kind == "变会":
            reasons.append(R_JIA)
        if ry2 and not ry0 and not ry1:
            reasons.append(R_XUANZHONG)  # 戌月悬午，是墓非生，则此火局休囚，不成会

    members = tuple([new_member((b, e[0], e[1], role)) for b, es, role in zip(branches, filled, ROLES) for e in es])
    mask = 0  # the positions of the members (日/月 have none)
    for es in filled:
        for e in es:
            if e[1] is not None:
                mask |= 1 << e[1]
    xuan = "悬始" if ry0 else "悬终" if ry2 else "悬中" if ry1 else None
    damage = () if s0 and s1 and s2 else _damage(idx, filled, (s0, s1, s2))
    bv = _BV
    details: dict[str, Any] = {
        "roles": {"始": bv[i0], "中": bv[i1], "终": bv[i2]},
        "present": {"始": i0 in entries, "中": i1 in entries, "终": i2 in entries},
        "sound": {"始": s0, "中": s1, "终": s2},
        "ri": "始" if i0 == di else "中" if i1 == di else "终" if i2 == di else None,
        "yue": "始" if i0 == mi else "中" if i1 == mi else "终" if i2 == mi else None,
        "xuan": xuan,
        "vigour": _vigour(element, month) if month is not None else None,
    }
    if ue is not None:
        details["use_element"] = ue._value_
        details["is_use"] = ue is element
        details["to_use"] = element_relation(element, ue)
    if zhen:
        details["zhen"] = True
    relative = _relative(element, sc.palace)
    if reasons:
        return new_finding((  # rule, holds, kind, element, relative, lines, members, reasons, text, details
            RULE,
            False,
            kind,
            element,
            relative,
            lines_in(mask),
            members,
            (*reasons, *damage, *notes),
            _text_of(tuple(reasons)),
            details,
        ))
    strength = "力小" if not s0 else "力存" if not s2 else "力大"
    details["strength"] = strength
    details["xuan_reading"] = "吉" if xuan == "悬始" else "凶" if xuan == "悬终" else None
    why = []
    for i, role, hung in zip(idx, ROLES, (ry0, ry1, ry2)):
        if hung:
            if i == di:
                why.append(f"日{bv[i]}在{role}")
            if i == mi:
                why.append(f"月{bv[i]}在{role}")
    why.append(f"中神{bv[i1]}不伤")
    if xuan is not None:
        why.append(xuan)
    if zhen:
        why.append("伏得生")
    why.append(strength)
    return new_finding((  # rule, holds, kind, element, relative, lines, members, reasons, text, details
        RULE,
        True,
        kind,
        element,
        relative,
        lines_in(mask),
        members,
        (*why, *damage, *notes),
        _TEXT[(kind, zhen, xuan in ("悬始", "悬终"))],
        details,
    ))


_BV = tuple(b.value for b in BRANCHES)


@cache
def _vigour(element: Element, month: Branch) -> str:
    """旺相休囚死 of the 局's element in the month."""
    return vigour(element, month).value


# the sentences of a formed 局, by (type, 伏得生, 悬始/悬终)
_TEXT = {
    (k, z, x): (Q_THREE, Q_KIND[k], Q_ZHONG, Q_STRENGTH, *((Q_ZHEN,) if z else ()), *((Q_XUAN,) if x else ()), Q_NATURE)
    for k in Q_KIND
    for z in (False, True)
    for x in (False, True)
}


def _use_element(chart: Chart, use: Use, palace: Element) -> Element | None:
    """The element of the 用神: of its line, of its 伏神, or of its 六亲 in the palace."""
    if use.positions:
        return chart.lines[use.positions[0] - 1].line.branch.element
    for p in use.hidden_positions:
        h = chart.lines[p - 1].hidden
        if h is not None:
            return h.line.branch.element
    return use.relative.element_in(palace) if use.relative is not None else None


@cache
def _relative(element: Element, palace: Element) -> Relative:
    return Relative.of(element, palace)


def _damage(idx, filled, sound) -> tuple[str, ...]:
    """Which roles are lost, and how: "始神寅旬空", "终神戌不现" …"""
    out = []
    for role, i, es, ok in zip(ROLES, idx, filled, sound):
        if ok:
            continue
        if not es:
            out.append(f"{role}神{_BV[i]}不现")
        else:
            kong = po = False
            for e in es:
                kong = kong or e[3]
                po = po or e[4]
            out.append(f"{role}神{_BV[i]}{'旬空' if kong else ''}{'月破' if po else ''}")
    return tuple(out)


def _notes(sc: Scope) -> tuple[str, ...]:
    out: tuple[str, ...] = ()
    if sc.stemless:
        out += ("未给日干，旬空未判",)
    if sc.month is None:
        out += ("未给月建，月破未判",)
    return out


@cache
def _text_of(reasons: tuple[str, ...]) -> tuple[Quote, ...]:
    """The sentences that make `reasons` the reasons of a near miss, each once, in order."""
    text: list[Quote] = []
    for r in reasons:
        for q in _REASON_TEXT.get(r, ()):
            if q not in text:
                text.append(q)
    return tuple(text)


__all__ = ["RULE", "ROLES", "juhui"]
