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

from yimao.analysis.finding import MEMBERS as _M
from yimao.analysis.finding import Finding, Member, lines_in, new_finding
from yimao.analysis.xing import Scope
from yimao.chart import Chart, Source, Use
from yimao.ganzhi import BRANCHES, SANHE, Branch, Element, changsheng, element_relation, vigour
from yimao.hexagram import Hexagram, Relative
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

_RI, _YUE, _DONG, _JING, _BIAN, _FU = Source.RI, Source.YUE, Source.DONGYAO, Source.JINGYAO, Source.BIANYAO, Source.FUSHEN
_BV = tuple(b.value for b in BRANCHES)

# The four 局 in the order of their findings: (index, element, its branches' indices 始 中 终,
# its bit shift (see _P), its roles as the details show them, the reason 中神…不伤).
_JU = tuple(
    (j, e, tuple(b.index for b in SANHE[e]), 9 * j, dict(zip(ROLES, [b.value for b in SANHE[e]])), f"中神{SANHE[e][1].value}不伤")
    for j, e in enumerate((Element.MU, Element.HUO, Element.JIN, Element.SHUI))
)
_NONE = 12  # the index of a day or month not given
# Per branch (by index): its role in its 局, and its members as the 日 and as the 月.
_ROLE = tuple(next(ROLES[idx.index(b.index)] for _j, _e, idx, _s, _r, _w in _JU if b.index in idx) for b in BRANCHES)
_RI_MEMBERS = tuple(_M[(b, _RI, None, _ROLE[b.index])] for b in BRANCHES)
_YUE_MEMBERS = tuple(_M[(b, _YUE, None, _ROLE[b.index])] for b in BRANCHES)
_BIAN_MEMBERS = ((), *(tuple(_M[(b, _BIAN, p, _ROLE[b.index])] for b in BRANCHES) for p in range(1, 7)))  # [position][branch]


# Every branch is one role of one 局, so a chart's standing towards all four 局 fits in one int:
# 9 bits per 局 — its roles present (bits 0-2, 始 中 终), active (3-5: a moving line, a 变爻 or a
# lifted 伏神 fills it) and hung (6-8: the 日 or the 月 is it). `_FORMS` then answers, for each
# 局's 9 bits, whether it is worth a finding, before a single entry is gathered.
def _role_bits() -> tuple[int, ...]:
    bits = [0] * 12
    for _j, _e, idx, shift, _roles, _why in _JU:
        for r, i in enumerate(idx):
            bits[i] = 1 << (shift + r)
    return tuple(bits)


_P = _role_bits()  # per branch (by index): present
_PA = tuple(b | b << 3 for b in _P)  # present and active
_PH = tuple(b | b << 6 for b in _P)  # present and hung
_POP = (0, 1, 1, 2, 1, 2, 2, 3)
_POSITION_OF = {1 << p: p for p in range(1, 7)}  # a position by its bit


def _forms(key: int) -> bool:
    """Whether a 局 whose roles are present/active/hung as in `key` (9 bits) yields a finding.
    Informative near misses only: hung on the 日/月, two roles present, and two active or all
    three present; not hung, the lines alone make all three roles active (周流六虚而皆会)."""
    present, active, hung = _POP[key & 7], _POP[key >> 3 & 7], key >> 6
    if present < 2:
        return False
    if hung:
        return active >= 2 or (active == 1 and present == 3)
    return active == 3


_FORMS = tuple(_forms(k) for k in range(512))


@cache
def _hexagram_roles(h: Hexagram) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[Any, ...]]:
    """What a hexagram's lines bring to the 局, whichever lines move: the roles its six lines fill
    (present: every line is an entry); per branch (by index) the positions of its lines and of its
    伏神, as bits; per position, the roles that line and its 伏神 make active when it moves (a 伏神
    is lifted exactly when its 飞神 moves), and the members its line makes moving or static, and
    its 伏神 lifted."""
    x = 0
    line_at = [0] * 12
    hidden_at = [0] * 12
    active = [0] * 7
    members: list[Any] = [None] * 7
    for ln in h.lines:
        b = ln.branch
        i = b.index
        p = ln.position
        x |= _P[i]
        line_at[i] |= 1 << p
        active[p] |= _PA[i]
        members[p] = (_M[(b, _DONG, p, _ROLE[i])], _M[(b, _JING, p, _ROLE[i])], None)
    for hl in h.hidden:
        b = hl.branch
        i = b.index
        p = hl.position
        hidden_at[i] |= 1 << p
        active[p] |= _PA[i]
        members[p] = (*members[p][:2], _M[(b, _FU, p, _ROLE[i])])
    return x, tuple(line_at), tuple(hidden_at), tuple(active), tuple(members)


@cache
def _trigram_roles(h: Hexagram) -> tuple[list[Any], list[Any]]:
    """What the moving lines of each trigram of `h` bring to the 局, by the trigram's moving lines
    (3 bits, bit 0 its first line): [lower], [upper], filled as charts come (see _trigram_active).
    A 变爻's branch depends on its own trigram's moving lines alone (see xing._trigram_moves)."""
    return [None] * 8, [None] * 8


def _trigram_active(active: tuple[int, ...], changes: tuple[Any, ...], first: int, mask: int) -> tuple[int, tuple[int, ...]]:
    """The roles the moving lines of the trigram from position `first` (moving as `mask`) make
    active, with their 变爻 (`changes`, by position, from Scope); and per branch (by index) the
    positions of those 变爻, as bits."""
    x = 0
    changed_at = [0] * 12
    for p in range(first, first + 3):
        if mask >> (p - first) & 1:
            x |= active[p]
            ch = changes[p]
            if ch is not None:
                i = ch[0].index
                x |= _PA[i]
                changed_at[i] |= 1 << p
    return x, tuple(changed_at)


def juhui(chart: Chart, use: Use | None = None, scope: Scope | None = None) -> tuple[Finding, ...]:
    """Every 局 that forms, and every informative near miss, in the order 木 火 金 水."""
    cast = chart.cast
    moving = cast.moving
    if not moving:
        return ()  # nothing moves: no 局 can form and none came near
    sc = scope if scope is not None else Scope(chart, use)
    day, month = sc.day, sc.month
    lines = chart.lines
    # First the roles alone (see _P): they rule out most 局 of most charts. Only moving lines make
    # a role active: the line itself, its 变爻, the 伏神 it lifts.
    h = cast.hexagram
    x, line_at, hidden_at, active, templates = _hexagram_roles(h)
    mv = sc.moving
    lows, highs = _trigram_roles(h)
    k = mv >> 1 & 7
    lo = lows[k]
    if lo is None:
        lo = lows[k] = _trigram_active(active, sc.changes, 1, k)
    k = mv >> 4
    hi = highs[k]
    if hi is None:
        hi = highs[k] = _trigram_active(active, sc.changes, 4, k)
    x |= lo[0] | hi[0]
    changed_at = (lo[1], hi[1])  # by trigram, per branch (by index): the positions of its 变爻, as bits
    di = mi = _NONE
    if day is not None:
        di = day.index
        x |= _PH[di]
    if month is not None:
        mi = month.index
        x |= _PH[mi]
    want = [ju for ju in _JU if _FORMS[x >> ju[3] & 511]]
    if not want:
        return ()
    # what every 局 of the chart shares, worked out once
    scan = (h, lines, mv, line_at, hidden_at, changed_at, templates, chart.school, day, month, di, mi, _HUNG[di * 13 + mi])
    ue = _use_element(chart, use, sc.palace) if use is not None else None
    ctx = (_RELATIVES[sc.palace], _VIGOURS[month] if month is not None else _NO_FACT, _TO_USE[ue] if ue is not None else _NO_FACT)
    notes = _NOTES[sc.stemless][month is None]
    return tuple([_ju(ju, x >> ju[3], scan, ctx, notes) for ju in want])


def _gather(idx: tuple[int, int, int], scan: tuple[Any, ...]) -> tuple[tuple[Member, ...], int, int, int, int, str, bool]:
    """The entries of a 局's three roles (始 中 终, the branches of indices `idx`), each role's in
    chart order — the 日, the 月, then by line: the line, its 变爻, its lifted 伏神 — as members;
    with the positions they stand at (bits); which roles are sound (an entry neither 旬空 nor 月破;
    the 日 and the 月 always are), which are 空, which 破 (role bits); the type, from the best
    active source of each role (动爻, then 变爻, then 伏神): any 变爻 → 变会, any 伏神 → 伏会; and
    whether a lifted 伏神 lies under its 长生 (伏得生).

    An entry's 旬空 and 月破 are its branch's (the branch against the day's 旬 and the month),
    so the chart's relations are read once a role, on its first entry from the lines."""
    h, lines, mv, line_at, hidden_at, changed_at, templates, school, day, month, di, mi, _hung_on = scan
    out: list[Member] = []
    mask = snd = kong = po = 0
    bian = fu = zhen = False
    for i, rb in zip(idx, (1, 2, 4)):
        if i == di:
            out.append(_RI_MEMBERS[i])
            snd |= rb
        if i == mi:
            out.append(_YUE_MEMBERS[i])
            snd |= rb
        lm = line_at[i]
        cm = changed_at[0][i] | changed_at[1][i]
        hm = hidden_at[i] & mv
        at = lm | cm | hm
        if not at:
            continue
        mask |= at
        if at & (at - 1):  # entries at more than one position: in chart order
            rank = 0  # 1 动爻, 2 变爻, 3 伏神
            at = lines_in(at)
            for p in at:
                bit = 1 << p
                if lm & bit:
                    if mv & bit:
                        out.append(templates[p][0])
                        rank = 1
                    else:
                        out.append(templates[p][1])
                if cm & bit:
                    out.append(_BIAN_MEMBERS[p][i])
                    if rank != 1:
                        rank = 2
                if hm & bit:
                    out.append(templates[p][2])
                    if rank == 0:
                        rank = 3
                    if h.lines[p - 1].branch is changsheng(BRANCHES[i].element, school):
                        zhen = True
            p = at[0]
            bit = 1 << p
        else:  # one position (most roles): its line, its 变爻, its 伏神
            p = _POSITION_OF[at]
            bit = at
            rank = 0
            if lm:
                if mv & bit:
                    out.append(templates[p][0])
                    rank = 1
                else:
                    out.append(templates[p][1])
            if cm:
                out.append(_BIAN_MEMBERS[p][i])
                if rank != 1:
                    rank = 2
            if hm:
                out.append(templates[p][2])
                if rank == 0:
                    rank = 3
                if h.lines[p - 1].branch is changsheng(BRANCHES[i].element, school):
                    zhen = True
        if rank == 2:
            bian = True
        elif rank == 3:
            fu = True
        cl = lines[p - 1]
        # a relation is None, and 空 too, when its pillar or the stem is not given
        if lm & bit:
            d, m = cl.day, cl.month
            k = d is not None and d.kong
            b = m is not None and m.po
        elif cm & bit:
            ch = cl.change
            k, b = ch.kong, ch.po
        else:
            hd = cl.hidden
            d, m = hd.day, hd.month
            k = d is not None and d.kong
            b = m is not None and m.po
        if k:
            kong |= rb
        if b:
            po |= rb
        if not (k or b):
            snd |= rb
    return tuple(out), mask, snd, kong, po, "变会" if bian else "伏会" if fu else "动会", zhen


# Shared, read-only parts of the details (documents are read-only: see serialize), by the
# three role bits 始 中 终.
_BY_ROLE = tuple({"始": bool(k & 1), "中": bool(k & 2), "终": bool(k & 4)} for k in range(8))
_XUAN = tuple("悬始" if k & 1 else "悬终" if k & 4 else "悬中" if k & 2 else None for k in range(8))


class _Hung(dict):
    """How the 日 and the 月 hang on each 局, by their branch indices as di * 13 + mi (_NONE when
    not given; 169 keys): per 局 (in _JU order) the roles they are (bits), the role of each (the
    details' ri and yue), and the reasons a formed 局 gives for it, by role."""

    __slots__ = ()

    def __missing__(self, key: int) -> tuple[tuple[int, str | None, str | None, tuple[str, ...]], ...]:
        di, mi = divmod(key, 13)
        out = []
        for _j, _e, idx, _s, _r, _w in _JU:
            hung = 0
            why = []
            for r, (i, role) in enumerate(zip(idx, ROLES)):
                if i == di or i == mi:
                    hung |= 1 << r
                    if i == di:
                        why.append(f"日{_BV[i]}在{role}")
                    if i == mi:
                        why.append(f"月{_BV[i]}在{role}")
            ri = ROLES[idx.index(di)] if di in idx else None
            yue = ROLES[idx.index(mi)] if mi in idx else None
            out.append((hung, ri, yue, tuple(why)))
        v = self[key] = tuple(out)
        return v


_HUNG = _Hung()


class _PerJu(dict):
    """A value per 局 (in _JU order) from one fact of the chart as a whole, made on first use by
    `make(element, fact)`: the 局's 六亲 by palace, its 旺相休囚死 by month, how it stands to
    the 用神 by the 用神's element. A handful of keys each."""

    __slots__ = ("make",)

    def __init__(self, make: Any) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, fact: Any) -> tuple[Any, ...]:
        v = self[fact] = tuple([self.make(ju[1], fact) for ju in _JU])
        return v


_RELATIVES = _PerJu(Relative.of)
_VIGOURS = _PerJu(lambda element, month: vigour(element, month).value)
_TO_USE = _PerJu(lambda element, ue: (ue._value_, ue is element, element_relation(element, ue)))
_NO_FACT = (None, None, None, None)


def _ju(ju: tuple[Any, ...], key: int, scan: tuple[Any, ...], ctx: tuple[Any, ...], notes: tuple[str, ...]) -> Finding:
    """The finding of one 局, from its 9 role bits (`key`, see _P) and the chart's lines."""
    j, element, idx, _shift, roles, zhong_ok = ju
    members, mask, snd, kong, po, kind, zhen = _gather(idx, scan)
    day, month, _di, _mi, hung_on = scan[8:]
    hung, ri, yue, why_hung = hung_on[j]
    present = key & 7
    relative, vig, to_use = ctx[0][j], ctx[1][j], ctx[2][j]

    reasons: list[str] = []
    if _POP[key >> 3 & 7] < 2:
        reasons.append(R_FEW)
    if day is None and month is None:
        reasons.append(R_NO_PILLAR)
    elif not hung:
        reasons.append(R_RIYUE)
    if not present & 2:
        reasons.append(R_SHIZHU)
    elif not snd & 2:
        reasons.append(R_SHANGZHONG)
        if kong & 2:
            reasons.append("中神空")
        if po & 2:
            reasons.append("中神破")
    if not snd & 1:
        if kind == "变会":
            reasons.append(R_JIA)
        if hung == 4:
            reasons.append(R_XUANZHONG)  # 戌月悬午，是墓非生，则此火局休囚，不成会

    xuan = _XUAN[hung]
    damage = () if snd == 7 else _damage(j, present, snd, kong, po)
    details: dict[str, Any] = {
        "roles": roles,
        "present": _BY_ROLE[present],
        "sound": _BY_ROLE[snd],
        "ri": ri,
        "yue": yue,
        "xuan": xuan,
        "vigour": vig,
    }
    if to_use is not None:
        details["use_element"], details["is_use"], details["to_use"] = to_use
    if zhen:
        details["zhen"] = True
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
    strength = "力小" if not snd & 1 else "力存" if not snd & 4 else "力大"
    details["strength"] = strength
    details["xuan_reading"] = "吉" if xuan == "悬始" else "凶" if xuan == "悬终" else None
    why = [*why_hung, zhong_ok]
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
        _TEXT[kind][zhen][xuan == "悬始" or xuan == "悬终"],
        details,
    ))


# the sentences of a formed 局, by type, 伏得生, and 悬始/悬终
_TEXT = {
    k: tuple(
        tuple((Q_THREE, Q_KIND[k], Q_ZHONG, Q_STRENGTH, *((Q_ZHEN,) if z else ()), *((Q_XUAN,) if x else ()), Q_NATURE) for x in (False, True))
        for z in (False, True)
    )
    for k in Q_KIND
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
def _damage(j: int, present: int, sound: int, kong: int, po: int) -> tuple[str, ...]:
    """Which roles of the 局 `j` are lost, and how (role bits): "始神寅旬空", "终神戌不现" …"""
    out = []
    for r, (role, i) in enumerate(zip(ROLES, _JU[j][2])):
        if sound >> r & 1:
            continue
        if not present >> r & 1:
            out.append(f"{role}神{_BV[i]}不现")
        else:
            out.append(f"{role}神{_BV[i]}{'旬空' if kong >> r & 1 else ''}{'月破' if po >> r & 1 else ''}")
    return tuple(out)


# The notes of every 局 of a chart, by [no day stem][no month].
_NOTES = (
    ((), ("未给月建，月破未判",)),
    (("未给日干，旬空未判",), ("未给日干，旬空未判", "未给月建，月破未判")),
)


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
