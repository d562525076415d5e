"""局会 (docs/rules.md §2): the 三合局 as 动会, 变会 or 伏会, hung on the 日 or 月.

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

from yimao.analysis.context import RuleContext
from yimao.analysis.finding import MEMBERS as _M
from yimao.analysis.finding import Finding, Member, lines_in, new_finding
from yimao.chart import Chart, Source, Use
from yimao.ganzhi import BRANCHES, SANHE, Branch, EarthSchool, Element, GanZhi, changsheng, element_relation, vigour
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
_JR = tuple(next((j, idx.index(i)) for j, _e, idx, _s, _r, _w in _JU if i in idx) for i in range(12))  # per branch: (局, role)


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


_FORMS = tuple(int(_forms(k)) for k in range(512))  # 0 or 1, so that four make the bits of a chart's 局
_WANT = tuple(tuple(j for j in range(4) if w >> j & 1) for w in range(16))  # the 局 by those bits
# A 局's 9 bits as its finding reads them: the active roles count only as fewer than two or not
# (see _Verdicts), so that their table has fewer keys to meet (and build) in a batch.
_CANON = tuple(k & 0o707 | (0o30 if _POP[k >> 3 & 7] >= 2 else 0) for k in range(512))


@cache
def _trigram_roles(h: Hexagram) -> tuple[list[Any], list[Any], tuple[Any, ...], tuple[int, int]]:
    """What each trigram of `h` brings to the 局, by the trigram's moving lines (3 bits, bit 0 its
    first line): [lower], [upper], filled as charts come (see _trigram_part); per position (1-6)
    what `_trigram_part` reads of its line and its 伏神 (see _line_roles); and the keys of its
    trigrams' parts among all hexagrams' (see _shared_keys). A 变爻's branch
    depends on its own trigram's moving lines alone (see context._trigram_moves)."""
    hidden = {hl.position: hl for hl in h.hidden}
    return [None] * 8, [None] * 8, (None, *[_line_roles(ln, hidden.get(ln.position)) for ln in h.lines]), _shared_keys(h, hidden)


def _shared_keys(h: Hexagram, hidden: dict[int, Any]) -> tuple[int, int]:
    """A trigram's part depends on the hexagram only through the trigram, its place, and the
    伏神 under its lines: per trigram of `h`, lower and upper, those as an int, to which its
    moving lines (bits 3-5) are added to key `_PARTS` (1,024 parts of the 64 hexagrams are some
    370 distinct ones, met as charts come)."""
    keys = []
    for first, t in ((1, h.lower), (4, h.upper)):
        under = 0
        for p in range(first, first + 3):
            hl = hidden.get(p)
            under = under * 13 + (0 if hl is None else hl.branch.index + 1)
        keys.append(t.code | (first == 4) << 6 | under << 7)
    return keys[0], keys[1]


_PARTS: dict[int, tuple[Any, ...]] = {}


def _shared_part(key: int, h: Hexagram, changes: tuple[Any, ...], first: int, mask: int) -> tuple[Any, ...]:
    """`_trigram_part`, by its key (see _shared_keys)."""
    v = _PARTS.get(key)
    if v is None:
        v = _PARTS[key] = _trigram_part(h, changes, first, mask)
    return v


def _line_roles(ln: Any, hl: Any) -> tuple[Any, ...]:
    """A line's branch index, its 局 and role as a slot (局 * 3 + role), as a member static and
    moving; and its 伏神's (None when it has none): its branch index, slot, member, and 伏得生
    per school (as a 局 bit: the line is the 伏神's 长生)."""
    p, b = ln.position, ln.branch
    j, r = _JR[b.index]
    fu = None
    if hl is not None:
        hb = hl.branch
        hj, hr = _JR[hb.index]
        zs = 1 << hj if b is changsheng(hb.element, EarthSchool.SHUI) else 0
        zh = 1 << hj if b is changsheng(hb.element, EarthSchool.HUO) else 0
        fu = hb.index, hj * 3 + hr, _M[(hb, _FU, p, ROLES[hr])], zs, zh
    return b.index, j * 3 + r, _M[(b, _JING, p, ROLES[r])], _M[(b, _DONG, p, ROLES[r])], fu


_NO_ENTRIES = ((), (), (), 0)  # a 局 the trigram has no entry in


def _trigram_part(h: Hexagram, changes: tuple[Any, ...], first: int, mask: int) -> tuple[Any, ...]:
    """The entries of the trigram of `h` from position `first`, its lines moving as `mask`, with
    their 变爻 (`changes`, by position, from RuleContext): every line (static or moving), the 变爻 of a
    moving one, the 伏神 it lifts (a 伏神 is lifted exactly when its 飞神 moves).

    As role bits (see _P): the roles present (any entry) and active (a moving line, a 变爻, a
    lifted 伏神) — the part of the 9 bits per 局 the lines give; the roles with a moving line,
    with a 变爻, with a lifted 伏神 (which make the type: 动会, 变会, 伏会). Per school (水土,
    火土), the 局 (bits) with a lifted 伏神 under its 长生 (伏得生). And per 局: its entries by
    role, in chart order (by line: the line, its 变爻, its 伏神), as members; and their
    positions (bits).

    The trigrams' entries of a role follow each other in chart order, lower then upper, so a
    chart's are the two parts' joined: the roles' entries of a 局 need no walk over its lines."""
    x = dong = bian = fu = zs = zh = 0
    slots: dict[int, tuple[Member, ...]] = {}  # entries by 局 * 3 + role, as they come
    at = [0] * 4
    roles = _trigram_roles(h)[2]
    for p in range(first, first + 3):
        i, slot, static, moving, hidden = roles[p]
        at[slot // 3] |= 1 << p
        x |= _P[i]
        if not mask >> (p - first) & 1:
            slots[slot] = (*slots.get(slot, ()), static)
            continue
        slots[slot] = (*slots.get(slot, ()), moving)
        x |= _PA[i]
        dong |= _P[i]
        ch = changes[p]
        if ch is not None:
            cb = ch[0]
            i = cb.index
            j, r = _JR[i]
            slot = j * 3 + r
            slots[slot] = (*slots.get(slot, ()), _M[(cb, _BIAN, p, ROLES[r])])
            at[j] |= 1 << p
            x |= _PA[i]
            bian |= _P[i]
        if hidden is not None:
            i, slot, member, s, hz = hidden
            slots[slot] = (*slots.get(slot, ()), member)
            at[slot // 3] |= 1 << p
            x |= _PA[i]
            fu |= _P[i]
            zs |= s
            zh |= hz
    get = slots.get
    a0, a1, a2, a3 = at
    per_ju = (
        (get(0, ()), get(1, ()), get(2, ()), a0) if a0 else _NO_ENTRIES,
        (get(3, ()), get(4, ()), get(5, ()), a1) if a1 else _NO_ENTRIES,
        (get(6, ()), get(7, ()), get(8, ()), a2) if a2 else _NO_ENTRIES,
        (get(9, ()), get(10, ()), get(11, ()), a3) if a3 else _NO_ENTRIES,
    )
    return x, dong, bian, fu, zs, zh, per_ju


class _DayBits(dict):
    """Per day pillar (a 干支, a bare branch, or None; 73 keys): its branch index (_NONE when not
    given), the roles it hangs (see _PH), and the roles whose branch is 旬空 (see _P; none without
    a stem). A line, a 变爻 or a 伏神 is 空 by its branch alone (the branch against the day's 旬),
    so a role's entries are all 空 or none."""

    __slots__ = ()

    def __missing__(self, d: GanZhi | Branch | None) -> tuple[int, int, int]:
        if d is None:
            v = (_NONE, 0, 0)
        elif d.__class__ is GanZhi:
            i = d.branch.index
            v = (i, _PH[i], sum([_P[b.index] for b in d.xunkong]))
        else:
            v = (d.index, _PH[d.index], 0)
        self[d] = v
        return v


class _MonthBits(dict):
    """Per month branch (or None; 13 keys): its index (_NONE when not given), the roles it hangs
    (see _PH), and the role whose branch it 冲 (月破: by the branch alone, as 旬空)."""

    __slots__ = ()

    def __missing__(self, m: Branch | None) -> tuple[int, int, int]:
        v = self[m] = (_NONE, 0, 0) if m is None else (m.index, _PH[m.index], _P[m.opposite.index])
        return v


_DAY_BITS = _DayBits()
_MONTH_BITS = _MonthBits()


def juhui(chart: Chart, use: Use | None = None, scope: RuleContext | None = None) -> tuple[Finding, ...]:
    """Every 局 that forms, and every informative near miss, in the order 木 火 金 水."""
    cast = chart.cast
    if not cast.moving:
        return ()  # nothing moves: no 局 can form and none came near
    sc = scope if scope is not None else RuleContext(chart, use)
    # First the roles alone (see _P): they rule out most 局 of most charts. Only moving lines make
    # a role active: the line itself, its 变爻, the 伏神 it lifts.
    h = cast.hexagram
    mv = sc.moving
    lows, highs, _roles, (lo_key, hi_key) = _trigram_roles(h)
    k = mv >> 1 & 7
    lo = lows[k]
    if lo is None:
        lo = lows[k] = _shared_part(lo_key | k << 3, h, sc.changes, 1, k)
    k = mv >> 4
    hi = highs[k]
    if hi is None:
        hi = highs[k] = _shared_part(hi_key | k << 3, h, sc.changes, 4, k)
    lx, ldong, lbian, lfu, lzs, lzh, lparts = lo
    hx, hdong, hbian, hfu, hzs, hzh, hparts = hi
    di, dh, kong = _DAY_BITS[chart.pillars.day]
    mi, mh, po = _MONTH_BITS[sc.month]
    lines_x = lx | hx
    x = lines_x | dh | mh
    f = _FORMS
    want = f[x & 511] | f[x >> 9 & 511] << 1 | f[x >> 18 & 511] << 2 | f[x >> 27] << 3
    if not want:
        return ()
    # what every 局 of the chart shares, worked out once: the roles of each type (a role's type
    # is that of its best active entry: 动爻, then 变爻, then 伏神), the roles' soundness
    dong = ldong | hdong
    bian = (lbian | hbian) & ~dong
    fu = (lfu | hfu) & ~dong & ~bian
    zhen = lzh | hzh if chart.school is _HUO else lzs | hzs
    bad = kong | po
    relatives = _RELATIVES[sc.palace]
    to_use = _NO_USE
    if use is not None:  # the element of the 用神 (see _use_element), inline for its line
        positions = use.positions
        ue = chart.lines[positions[0] - 1].line.branch.element if positions else _use_element(chart, use, sc.palace)
        if ue is not None:
            to_use = _TO_USE[ue]
    hung_on = _HUNG[di * 13 + mi]
    notes = _NOTES[sc.stemless][mi == _NONE]
    nopillars = 1 << 23 if di == _NONE and mi == _NONE else 0
    out = []
    for j in _WANT[want]:
        s = 9 * j
        key = x >> s & 511
        lp = lines_x >> s & 7  # the roles the lines fill
        snd = key >> 6 | lp & ~(bad >> s)
        lp &= ~snd  # the roles unsound: only theirs are told 空 or 破
        kind = 1 if bian >> s & 7 else 2 if fu >> s & 7 else 0
        holds, core, text, head, tail = _VERDICTS[
            _CANON[key] | snd << 9 | (lp & kong >> s) << 12 | (lp & po >> s) << 15 | kind << 18 | (zhen >> j & 1) << 20 | j << 21 | nopillars
        ]
        ryx, why_hung, p0, p1, p2 = hung_on[j]
        l0, l1, l2, lm = lparts[j]
        h0, h1, h2, hm = hparts[j]
        out.append(
            new_finding(
                (  # rule, holds, kind, element, relative, lines, members, reasons, text, details
                    RULE,
                    holds,
                    _KINDS[kind],
                    _ELEMENTS[j],
                    relatives[j],
                    lines_in(lm | hm),
                    (*p0, *l0, *h0, *p1, *l1, *h1, *p2, *l2, *h2),
                    (*why_hung, *core, *notes) if holds else (*core, *notes),
                    text,
                    {**head, **ryx, **to_use[j], **tail},
                )
            )
        )
    return tuple(out)


_HUO = EarthSchool.HUO
_KINDS = ("动会", "变会", "伏会")
_ELEMENTS = tuple(ju[1] for ju in _JU)


class _Verdicts(dict):
    """What a 局's finding takes from its role bits alone, by their packed key (see juhui): 9 bits
    present/active/hung (see _P; active only as fewer than two or not, see _CANON), then sound,
    空, 破 (3 bits each; 空 and 破 of unsound roles only), the type (2), 伏得生, the 局 (2), and
    whether neither 日 nor 月 is given: whether it holds, its reasons (but the 日/月 a formed 局
    hangs on, and the notes), its sentences, its details before and after what the pillars and
    the 用神 give. About 470 keys come up in 1,000 charts, 710 in 3,000 (bounded by the bits);
    the details parts are shared, read-only (documents are, see serialize)."""

    __slots__ = ()

    def __missing__(self, v: int) -> tuple[bool, tuple[str, ...], tuple[Quote, ...], dict[str, Any], dict[str, Any]]:
        key, snd, kong, po = v & 511, v >> 9 & 7, v >> 12 & 7, v >> 15 & 7
        kind, zhen, j, nopillars = _KINDS[v >> 18 & 3], bool(v >> 20 & 1), v >> 21 & 3, bool(v >> 23 & 1)
        present, hung = key & 7, key >> 6
        _j, _element, _idx, _shift, roles, zhong_ok = _JU[j]
        reasons = _not_formed(_POP[key >> 3 & 7] >= 2, nopillars, present, hung, snd, kong, po, kind)
        xuan = _XUAN[hung]
        damage = () if snd == 7 else _damage(j, present, snd, kong, po)
        head = {"roles": roles, "present": _BY_ROLE[present], "sound": _BY_ROLE[snd]}
        tail: dict[str, Any] = {"zhen": True} if zhen else {}
        if reasons:
            out = (False, (*reasons, *damage), _text_of(tuple(reasons)), head, tail)
        else:
            strength = "力小" if not snd & 1 else "力存" if not snd & 4 else "力大"
            tail["strength"] = strength
            tail["xuan_reading"] = "吉" if xuan == "悬始" else "凶" if xuan == "悬终" else None
            why = [zhong_ok]
            if xuan is not None:
                why.append(xuan)
            if zhen:
                why.append("伏得生")
            why.append(strength)
            out = (True, (*why, *damage), _TEXT[kind][zhen][xuan == "悬始" or xuan == "悬终"], head, tail)
        self[v] = out
        return out


_VERDICTS = _Verdicts()


def _not_formed(two_active: bool, nopillars: bool, present: int, hung: int, snd: int, kong: int, po: int, kind: str) -> list[str]:
    """Why a 局 does not form, in the order of docs/rules.md §2 (role bits 始 中 终 as in _P)."""
    reasons: list[str] = []
    if not two_active:
        reasons.append(R_FEW)
    if nopillars:
        reasons.append(R_NO_PILLAR)
    elif not hung:
        reasons.append(R_RIYUE)  # 凡局必得日月有一在局
    if not present & 2:
        reasons.append(R_SHIZHU)  # 失其主则不能会
    elif not snd & 2:
        reasons.append(R_SHANGZHONG)  # 伤其中则不能局
        if kong & 2:
            reasons.append("中神空")
        if po & 2:
            reasons.append("中神破")
    if not snd & 1:
        if kind == "变会":
            reasons.append(R_JIA)  # 变失始者其局假
        if hung == 4:
            reasons.append(R_XUANZHONG)  # 戌月悬午，是墓非生，则此火局休囚，不成会
    return reasons


# Shared, read-only parts of the details (documents are read-only: see serialize), by the
# three role bits 始 中 终.
_BY_ROLE = tuple({"始": bool(k & 1), "中": bool(k & 2), "终": bool(k & 4)} for k in range(8))
_XUAN = tuple("悬始" if k & 1 else "悬终" if k & 4 else "悬中" if k & 2 else None for k in range(8))


class _Hung(dict):
    """How the 日 and the 月 hang on each 局, by their branch indices as di * 13 + mi (_NONE when
    not given; 169 keys): per 局 (in _JU order) the details it takes from them (ri, yue, xuan:
    the roles they are; vigour: its 旺相休囚死 in the month), the reasons a formed 局 gives for them, and per role (始 中 终) their
    members, which come first among its entries."""

    __slots__ = ()

    def __missing__(self, key: int) -> tuple[tuple[Any, ...], ...]:
        di, mi = divmod(key, 13)
        out = []
        for j, e, idx, _s, _r, _w in _JU:
            if di not in idx and mi not in idx:  # neither hangs on it: its vigour in the month alone
                out.append(_UNHUNG.get((j, mi)) or _unhung(j, e, mi))
                continue
            hung = 0
            why = []
            first: list[tuple[Member, ...]] = []
            for r, (i, role) in enumerate(zip(idx, ROLES)):
                ms = []
                if i == di or i == mi:
                    hung |= 1 << r
                    if i == di:
                        why.append(f"日{_BV[i]}在{role}")
                        ms.append(_M[(BRANCHES[i], _RI, None, role)])
                    if i == mi:
                        why.append(f"月{_BV[i]}在{role}")
                        ms.append(_M[(BRANCHES[i], _YUE, None, role)])
                first.append(tuple(ms))
            ri = ROLES[idx.index(di)] if di in idx else None
            yue = ROLES[idx.index(mi)] if mi in idx else None
            vig = vigour(e, BRANCHES[mi]).value if mi != _NONE else None
            out.append(({"ri": ri, "yue": yue, "xuan": _XUAN[hung], "vigour": vig}, tuple(why), *first))
        v = self[key] = tuple(out)
        return v


_HUNG = _Hung()
_UNHUNG: dict[tuple[int, int], tuple[Any, ...]] = {}  # `_Hung`'s part of a 局 neither 日 nor 月 hangs on, by (局, month)


def _unhung(j: int, e: Element, mi: int) -> tuple[Any, ...]:
    vig = vigour(e, BRANCHES[mi]).value if mi != _NONE else None
    v = _UNHUNG[j, mi] = ({"ri": None, "yue": None, "xuan": None, "vigour": vig}, (), (), (), ())
    return v


class _PerJu(dict):
    """A value per 局 (in _JU order) from one fact of the chart as a whole, made on first use by
    `make(element, fact)`: the 局's 六亲 by palace, the details on how it stands to the 用神 by
    the 用神's element. A handful of keys each."""

    __slots__ = ("make",)

    def __init__(self, make: Any) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, fact: Any) -> tuple[Any, ...]:
        v = self[fact] = tuple([self.make(ju[1], fact) for ju in _JU])
        return v


_RELATIVES = _PerJu(Relative.of)
_TO_USE = _PerJu(lambda element, ue: {"use_element": ue._value_, "is_use": ue is element, "to_use": element_relation(element, ue)})
_NO_USE: tuple[dict[str, Any], ...] = ({},) * 4


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
