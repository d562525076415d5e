"""三刑, 真刑, 三刑全, 刑冲并见, and 墓开 (docs/rules.md §3), judged on the 用神 and the 世.

"乘则刑之，上下相对，循环相加，此三刑之立法也。" (6.08) — the directed table is
`ganzhi.XING_TARGET`: X 刑 Y when XING_TARGET[X] is Y.
"三刑六害，当别用爻，非以卦象云尔。" (6.12) — so 刑 and 害 are judged per target line, never on
the hexagram as a whole.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from yimao.analysis.by_topic import Q_TARGETS, XING, listed, xing_reading
from yimao.analysis.context import _BIAN, _DONG, _FU, _RI, _ROLES, _YUE, BIT, NAMED_ROLES, RuleContext, _Head, as_role, lines_of, reason
from yimao.analysis.finding import Finding, Member, lines_in, new_finding
from yimao.chart import Actor, Chart, ChartLine, Use
from yimao.ganzhi import BRANCHES, XING_TARGET, Branch, EarthSchool, tomb
from yimao.hexagram import Hexagram, Relative
from yimao.texts import Quote, quote

RULE = "三刑"
RULE_MU = "墓开"

_BV = tuple(b.value for b in BRANCHES)


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
Q_MU = quote("三刑之法，墓亦赖之，刑则墓开，刑而兼冲，其力更大。", "三刑之法，入墓之爻也要靠它：一刑，墓门就开；若刑而又兼冲，力量更大。")
Q_MU_KEY = quote("夫墓得刑冲，犹锁得钥，故曰墓开", "入墓之爻得刑得冲，好比锁配上了钥匙，所以叫「墓开」")
Q_MU_LIGHT = quote("然不及冲，故刑而不冲者轻，刑而兼冲者重", "不过刑的力量不如冲，所以只刑不冲的轻，刑而兼冲的重")


# The book's readings by topic (6.10), listed with every 三刑; with a topic, that topic's reading.
READINGS: tuple[dict[str, str], ...] = listed(XING)
_SEVERITY = (Q_IMAGE.to_dict(), Q_WEIGHT.to_dict())

# Names the book gives (6.09): 寅巳申 and 丑戌未 (孟/季), 子卯 无礼之刑, 辰午酉亥 自刑.
_TRIPLES = (
    (Branch.YIN, Branch.SI, Branch.SHEN),
    (Branch.CHOU, Branch.XU, Branch.WEI),
)
_TRIPLE_OF: list[tuple[Branch, Branch, Branch] | None] = [next((tr for tr in _TRIPLES if b in tr), None) for b in BRANCHES]
_TRIPLE_OTHERS: list[tuple[Branch, ...] | None] = [None if tr is None else tuple(o for o in tr if o is not b) for b, tr in zip(BRANCHES, _TRIPLE_OF)]
_TRIPLE_NAME = {tr: "".join(b.value for b in tr) for tr in _TRIPLES}
_READINGS = [*READINGS, {"topic": "谁遇", **Q_TARGETS.to_dict()}]
_SHI_XING = Q_SHI_XING.to_dict()


def _name(x: Branch, y: Branch) -> str:
    if x is y:
        return "自刑"
    if {x, y} == {Branch.ZI, Branch.MAO}:
        return "无礼之刑"
    return "寅巳申" if x in _TRIPLES[0] else "丑戌未"


# Per branch (by index), so that a target's checks compare branches by identity. XING_TARGET is
# a permutation of the branches (each branch is 刑'd by exactly one), so "who 刑 me" is one branch.
_XING_OF = tuple(XING_TARGET[b] for b in BRANCHES)  # the branch b 刑
if len(set(_XING_OF)) != len(BRANCHES):
    raise AssertionError("XING_TARGET must be a permutation of the branches")
_XING_BY = tuple(next(x for x in BRANCHES if XING_TARGET[x] is b) for b in BRANCHES)  # the branch that 刑 b
_OPPOSITE = tuple(b.opposite for b in BRANCHES)  # the branch that 冲 b
_NAME_BY = tuple(_name(_XING_BY[b.index], b) for b in BRANCHES)  # the name of the 刑 on b
_NAME_OF = tuple(_name(b, _XING_OF[b.index]) for b in BRANCHES)  # the name of the 刑 b does


# -- 三刑 ------------------------------------------------------------------------------------

_TEXT_REV = (Q_LAW, Q_USE)
_TEXT_ZHEN = (Q_LAW, Q_JIANCHONG, Q_ZHEN)
_TEXT_JIANCHONG = (Q_LAW, Q_JIANCHONG)
_TEXT_XING = (Q_LAW, Q_NOT_THREE)
_TEXT_FULL = (Q_NAMES, Q_LAW)


def sanxing(chart: Chart, use: Use | None = None, scope: RuleContext | None = None) -> tuple[Finding, ...]:
    """三刑 on each target: 真刑 / 刑冲并见 / 刑 (holding), 我刑彼 (a near miss), and 三刑全."""
    sc = scope if scope is not None else RuleContext(chart, use)
    out: list[Finding] = []
    for tm, relative, hits, notes, head in sc.per_target:
        bi = tm[0].index
        # most targets meet no 刑 at all: look before calling
        if _XING_BY[bi] in hits or _XING_OF[bi] in hits:
            out.append(_xing_on(sc, tm, relative, head, hits, notes, bi))
        others = _TRIPLE_OTHERS[bi]
        if others is not None and others[0] in hits and others[1] in hits:
            out.append(_full(tm, relative, head, hits, notes, sc.topic))
    return tuple(out)


_AS_XING, _AS_CHONG, _AS_XINGCHONG, _AS_SHOUXING = as_role("刑"), as_role("冲"), as_role("刑冲"), as_role("受刑")
_XING_REASON: dict[str | None, Callable[[Actor], str]] = {
    role: reason("{source}{branch}刑" + role) for role in (*_ROLES, *NAMED_ROLES)
}  # by the target's role


def _xing_on(
    sc: RuleContext, tm: Member, relative: Relative, head: _Head, hits: dict[Branch, tuple[Actor, ...]], notes: tuple[str, ...], bi: int
) -> Finding:
    b, _source, position, role = tm
    xb = _XING_BY[bi]
    xing_by = hits.get(xb)
    if xing_by is None:
        # The 用 刑 its source but is not 刑'd by it (寅 化 巳): reported, does not count.
        rev = hits[_XING_OF[bi]]
        return new_finding(
            (  # rule, holds, kind, element, relative, lines, members, reasons, text, details
                RULE,
                False,
                "刑",
                b.element,
                relative,
                lines_of(position, rev),
                (tm, *map(_AS_SHOUXING, rev)),
                ("我刑彼", *notes),
                _TEXT_REV,
                _memo(head, "我刑彼", {"name": _NAME_OF[bi]}),
            )
        )
    reasons = (*map(_XING_REASON[role], xing_by),)
    mask = BIT[position]  # the finding's lines (lines_of inlined)
    for a in xing_by:
        mask |= BIT[a[2]]
    ob = _OPPOSITE[bi]
    if xb is ob:  # one source both 刑 and 冲 (申→寅, 未→丑): 真刑
        text: tuple[Quote, ...]
        kind, text, weight = "真刑", _TEXT_ZHEN, "重"
        members = (tm, *map(_AS_XINGCHONG, xing_by))
        reasons += ("刑而兼冲",)
        lines = lines_in(mask)
    else:
        chong_by = hits.get(ob)
        if chong_by is not None:
            kind, text, weight = "刑冲并见", _TEXT_JIANCHONG, "中"
            members = (tm, *map(_AS_XING, xing_by), *map(_AS_CHONG, chong_by))
            reasons += ("刑冲异源",)
            for a in chong_by:
                mask |= BIT[a[2]]
            lines = lines_in(mask)
        else:
            kind, text, weight = "刑", _TEXT_XING, "轻"
            members = (tm, *map(_AS_XING, xing_by))
            lines = lines_in(mask)
    # the details by the kind, and on the 世 by the hexagram too (see _Head)
    memo = head.memo
    topic = sc.topic
    dkey = (kind, topic) if role not in _SHI_ROLES else (kind, topic, sc.chart.cast.hexagram)
    details = memo.get(dkey)
    if details is None:
        details = memo[dkey] = {
            **head,
            "name": _NAME_BY[bi],
            "weight": weight,
            "severity": [*_SEVERITY],
            "readings": [*_READINGS],
            "topic_reading": _topic_reading(topic),
        }
        if role in _SHI_ROLES:
            grave = _shi_danger_in(sc.chart.cast.hexagram)
            if grave:
                details["grave"] = [*grave]
    return new_finding(
        (  # rule, holds, kind, element, relative, lines, members, reasons, text, details
            RULE,
            True,
            kind,
            b.element,
            relative,
            lines,
            members,
            (*reasons, *notes),
            text,
            details,
        )
    )


_SHI_ROLES = ("世", "用/世", "财/世", "官/世")  # the targets that are the 世 (官克世…若世刑而大凶)


def _topic_reading(topic: str | None) -> dict[str, Any] | None:
    """身命遇之…婚姻遇之…宦忧内丧，病防带疾 (6.10): the reading of the matter asked, if the book gives one."""
    r = xing_reading(topic)
    return r.to_dict() if r is not None else None


def _shi_danger(chart: Chart, shi: ChartLine) -> list[dict[str, str]]:
    """官克世而问讼，五克世而问疏，若世刑而大凶 (6.10): which of the two this chart has."""
    return list(_shi_danger_in(chart.cast.hexagram))


@cache
def _shi_danger_in(h: Hexagram) -> tuple[dict[str, str], ...]:
    """`_shi_danger` by hexagram: the 世 and the lines, 六亲 and elements, are the hexagram's."""
    shi = h.lines[h.generation.shi - 1]
    out = []
    if shi.relative is Relative.XIONGDI and any(ln.relative is Relative.GUANGUI for ln in h.lines):
        out.append({"topic": "讼", "reading": "官克世而世刑，大凶", **_SHI_XING})
    five = h.lines[4]
    if five is not shi and five.branch.element.overcomes is shi.branch.element:
        out.append({"topic": "疏", "reading": "五克世而世刑，大凶", **_SHI_XING})
    return tuple(out)


def _full(
    tm: Member, relative: Relative, head: _Head, hits: dict[Branch, tuple[Actor, ...]], notes: tuple[str, ...], topic: str | None = None
) -> Finding:
    """三刑全: the target and the other two of 寅巳申 (or 丑戌未) among the sources acting on it."""
    b = tm[0]
    bi = b.index
    triple, others = _TRIPLE_OF[bi], _TRIPLE_OTHERS[bi]
    assert triple is not None and others is not None  # called for a branch of 寅巳申 or 丑戌未 only
    o1, o2 = others
    found = hits[o1] + hits[o2]
    name = _TRIPLE_NAME[triple]
    return new_finding(
        (  # rule, holds, kind, element, relative, lines, members, reasons, text, details
            RULE,
            True,
            "三刑全",
            b.element,
            relative,
            lines_of(tm[2], found),
            (tm, *map(_AS_XING, found)),
            (name + "全", *notes),
            _TEXT_FULL,
            _memo(head, ("全", topic), {"name": name, "topic_reading": _topic_reading(topic)}),
        )
    )


# -- 墓开 ------------------------------------------------------------------------------------

_HOLDER_WORD = {_RI: "入日墓", _YUE: "入月墓", _DONG: "入动墓", _BIAN: "化墓"}


# The 墓 of each branch's element (by index), by school.
_TOMBS = {school: tuple(tomb(b.element, school) for b in BRANCHES) for school in EarthSchool}


def mukai(chart: Chart, use: Use | None = None, scope: RuleContext | None = None) -> tuple[Finding, ...]:
    """墓开 on each target: its 墓 standing as 日, 月, a moving line or its own 变爻, tested against
    the sources acting on that 墓: 刑 → 墓开 (轻), 刑而兼冲 → 墓开 (重), 冲 → 冲开, neither → 墓闭."""
    sc = scope if scope is not None else RuleContext(chart, use)
    out: list[Finding] = []
    tombs = _TOMBS[chart.school]
    for tm, relative, hits, notes, head in sc.per_target:
        mu = tombs[tm[0].index]
        # the 墓 among the sources acting on the target (日, 月, other moving lines, own 变爻)
        holders = hits.get(mu)
        if holders is not None:
            for h in holders:
                out.append(_mu(tm, relative, head, h, mu, sc, notes))
    return tuple(out)


_AS_MU = as_role("墓")
_MU_XING, _MU_CHONG = reason("{source}{branch}刑墓"), reason("{source}{branch}冲墓")


def _mu(tm: Member, relative: Relative, head: _Head, h: Actor, mu: Branch, sc: RuleContext, notes: tuple[str, ...]) -> Finding:
    # What may open the 墓: 日, 月 and the moving lines (not the 墓 itself, not the target line),
    # and the 墓's own 变爻 when the 墓 is a moving line — a 变爻 acts on its own line only.
    b, source, position, _role = tm
    own = position if source is not _FU else 0  # only moving lines carry a position in `base`
    mi = mu.index
    xb, ob = _XING_BY[mi], _OPPOSITE[mi]
    base_hits = sc.base_hits
    # loops, not comprehensions (a comprehension is a frame); with the lines as bits on the way
    hp = h[2]
    mask = BIT[position] | BIT[hp]
    xing_by: list[Actor] = []
    chong_by: list[Actor] = []
    for branch, acts in ((xb, xing_by), (ob, chong_by)):  # in this frame, not a helper's
        by = base_hits.get(branch)
        if by is not None:
            for a in by:
                p = a[2]
                if a != h and p != own:
                    acts.append(a)
                    if p is not None:
                        mask |= 1 << p
    if h[1] is _DONG and hp is not None:
        ch = sc.changes[hp]
        if ch is not None:
            if ch[0] is xb:
                xing_by.append(ch)
                mask |= BIT[hp]
            if ch[0] is ob:
                chong_by.append(ch)
                mask |= BIT[hp]
    text: tuple[Quote, ...]
    word = _HOLDER_WORD[h[1]]
    if xing_by or chong_by:
        if xing_by:
            if chong_by:
                kind, weight, text = "墓开", "重", _TEXT_MU_BOTH
            else:
                kind, weight, text = "墓开", "轻", _TEXT_MU_XING
        else:
            kind, weight, text = "冲开", "重", _TEXT_MU_CHONG
        holds = True
        if xb is ob:  # 未 both 刑 and 冲 the 丑: the same sources, once, as 刑冲
            members = (tm, _AS_MU(h), *map(_AS_XINGCHONG, xing_by))
        else:
            members = (tm, _AS_MU(h), *map(_AS_XING, xing_by), *map(_AS_CHONG, chong_by))
        reasons = (word, *map(_MU_XING, xing_by), *map(_MU_CHONG, chong_by), *notes)
    else:  # 墓闭, half of them: nothing to map
        kind, holds, weight, text = "墓闭", False, None, _TEXT_MU_SHUT
        members = (tm, _AS_MU(h))
        reasons = (word, "无刑冲", *notes)
    # the details by the 墓, its holder and the weight, kept with the target's head (see _Head)
    memo = head.memo
    dkey = (mi, word, weight)
    details = memo.get(dkey)
    if details is None:
        details = memo[dkey] = {**head, "tomb": _BV[mi], "holder": word, "weight": weight}
    return new_finding(
        (  # rule, holds, kind, element, relative, lines, members, reasons, text, details
            RULE_MU,
            holds,
            kind,
            b.element,
            relative,
            lines_in(mask),
            members,
            reasons,
            text,
            details,
        )
    )


def _memo(head: _Head, key: Any, extra: dict[str, Any]) -> dict[str, Any]:
    """The details of a rare finding on the target of `head` (a near miss, 三刑全): `extra`
    after the head, kept by `key` (see _Head)."""
    memo = head.memo
    details = memo.get(key)
    if details is None:
        details = memo[key] = {**head, **extra}
    return details


_TEXT_MU_BOTH = (Q_MU, Q_MU_KEY, Q_MU_LIGHT)
_TEXT_MU_XING = (Q_MU, Q_MU_LIGHT)
_TEXT_MU_CHONG = (Q_MU_KEY,)
_TEXT_MU_SHUT = (Q_MU, Q_MU_KEY)


__all__ = ["READINGS", "RULE", "RULE_MU", "mukai", "sanxing"]
