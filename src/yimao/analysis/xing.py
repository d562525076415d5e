"""三刑, 真刑, 三刑全, 刑冲并见, and 墓开 (RULES §3), judged on the 用神 and the 世.

"乘则刑之，上下相对，循环相加，此三刑之立法也。" (6.08) — the directed table is
`ganzhi.XING_TARGET`: X 刑 Y when XING_TARGET[X] is Y.
"三刑六害，当别用爻，非以卦象云尔。" (6.12) — so 刑 and 害 are judged per target line, never on
the hexagram as a whole.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from yimao.analysis.finding import Finding, Member, reading
from yimao.chart import Chart, ChartLine, Source, Use
from yimao.ganzhi import BRANCHES, XING_TARGET, Branch, Element, tomb
from yimao.hexagram import Relative
from yimao.texts import Quote, quote

RULE = "三刑"
RULE_MU = "墓开"

# -- targets and the sources acting on them (shared with 六害) -------------------------------

USE_HIDDEN = "用神不上卦，取伏神"
USE_ABSENT = "用神不现，仅论世爻"
NO_DAY = "未给日辰，日辰不参"
NO_MONTH = "未给月建，月建不参"

# A source acting on a line, as a plain tuple for speed: (branch, source, position or None).
Act = tuple[Branch, Source, "int | None"]


class Target(NamedTuple):
    """A line a 刑 or 害 is judged on: a 用 line, the 用's 伏神 when it is absent, or the 世."""

    branch: Branch
    source: Source  # 动爻 | 静爻 | 伏神
    position: int
    role: str  # "用" | "世" | "用/世"
    relative: Relative
    changed: Branch | None  # its own 变爻 (a moving visible line only)

    @property
    def element(self) -> Element:
        return self.branch.element

    @property
    def hidden(self) -> bool:
        return self.source is Source.FUSHEN

    def member(self) -> Member:
        return member(self.branch, self.source, self.position, self.role)


_MEMBERS: dict[tuple, Member] = {}


def member(branch: Branch, source: Source, position: int | None, role: str) -> Member:
    """A shared `Member` value (they are immutable; building one costs more than finding it).

    Keyed by the members' identities: enum members are singletons, and `Enum.__hash__` is slow.
    """
    key = (id(branch), id(source), position, role)
    m = _MEMBERS.get(key)
    if m is None:
        m = _MEMBERS[key] = Member(branch, source, position, role)
    return m


def act_member(a: Act, role: str) -> Member:
    return member(a[0], a[1], a[2], role)


class Scope:
    """What 三刑, 墓开 and 六害 share for one chart and 用神: the targets, the sources acting on
    each (RULES §0: 日, 月, the other moving lines, the line's own 变爻), and the notes."""

    __slots__ = ("chart", "targets", "acts", "notes", "base", "changes")

    def __init__(self, chart: Chart, use: Use | None) -> None:
        self.chart = chart
        shi = chart.shi_line
        ts: list[Target] = []
        use_notes: list[str] = []
        if use is not None:
            if use.positions:
                for p in use.positions:
                    cl = chart.lines[p - 1]
                    ts.append(_visible(cl, "用/世" if cl.shi else "用"))
            elif use.hidden_positions:
                use_notes.append(USE_HIDDEN)
                for p in use.hidden_positions:
                    h = chart.lines[p - 1].hidden
                    if h is not None:
                        ts.append(Target(h.line.branch, Source.FUSHEN, p, "用", h.line.relative, None))
            else:
                use_notes.append(USE_ABSENT)
        # the 世 as well: "身命，谓世及用爻遇之", "克害重用爻世爻"
        if not any(t.source is not Source.FUSHEN and t.position == shi.position for t in ts):
            ts.append(_visible(shi, "世"))
        pl = chart.pillars
        day, month = pl.day_branch, pl.month_branch
        base: list[Act] = []
        pnotes: list[str] = []
        if day is not None:
            base.append((day, Source.RI, None))
        else:
            pnotes.append(NO_DAY)
        if month is not None:
            base.append((month, Source.YUE, None))
        else:
            pnotes.append(NO_MONTH)
        changes: list[Act | None] = [None] * 7  # by position: the 变爻 of each moving line
        for cl in chart.lines:
            if cl.moving:
                base.append((cl.line.branch, Source.DONGYAO, cl.line.position))
                if cl.changed is not None:
                    changes[cl.line.position] = (cl.changed.branch, Source.BIANYAO, cl.line.position)
        acts = []
        notes = []
        for t in ts:
            if t.source is Source.FUSHEN:
                acts.append(tuple(base))
                notes.append((*use_notes, *pnotes))
            else:
                a = [x for x in base if not (x[2] == t.position and x[1] is Source.DONGYAO)]
                if t.changed is not None:
                    a.append((t.changed, Source.BIANYAO, t.position))
                acts.append(tuple(a))
                notes.append((*(n for n in use_notes if n != USE_HIDDEN), *pnotes))
        self.targets: tuple[Target, ...] = tuple(ts)
        self.acts: tuple[tuple[Act, ...], ...] = tuple(acts)
        self.notes: tuple[tuple[str, ...], ...] = tuple(notes)
        self.base: tuple[Act, ...] = tuple(base)  # 日, 月, the moving lines
        self.changes: tuple[Act | None, ...] = tuple(changes)


def _visible(cl: ChartLine, role: str) -> Target:
    return Target(
        cl.line.branch,
        Source.DONGYAO if cl.moving else Source.JINGYAO,
        cl.line.position,
        role,
        cl.line.relative,
        cl.changed.branch if cl.changed is not None else None,
    )


def targets(chart: Chart, use: Use | None) -> tuple[Target, ...]:
    """The lines 三刑, 墓开 and 六害 are judged on: the 用神's lines, else its 伏神; and the 世."""
    return Scope(chart, use).targets


def _lines(t: Target, acts) -> tuple[int, ...]:
    return tuple(sorted({t.position, *(a[2] for a in acts if a[2] is not None)}))


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
Q_WHOM = quote("身命，谓世及用爻遇之，男娶谓财、女嫁谓官遇之", "所谓身命遇刑，指世爻及用爻逢刑；男子娶妻则指妻财逢刑，女子出嫁则指官鬼逢刑")
Q_SHI_XING = quote("官克世而问讼，五克世而问疏，若世刑而大凶也", "官鬼克世而问讼事、第五爻克世而问上疏，此时世爻若又逢刑，就是大凶")
Q_MU = quote("三刑之法，墓亦赖之，刑则墓开，刑而兼冲，其力更大。", "三刑之法，入墓之爻也要靠它：一刑，墓门就开；若刑而又兼冲，力量更大。")
Q_MU_KEY = quote("夫墓得刑冲，犹锁得钥，故曰墓开", "入墓之爻得刑得冲，好比锁配上了钥匙，所以叫「墓开」")
Q_MU_LIGHT = quote("然不及冲，故刑而不冲者轻，刑而兼冲者重", "不过刑的力量不如冲，所以只刑不冲的轻，刑而兼冲的重")


READINGS: tuple[dict[str, str], ...] = (
    reading("身命", "身命遇之，恐骨肉之相残", "占身命遇刑，恐怕骨肉相残"),
    reading("婚姻", "婚姻遇之，惧门第之相压", "占婚姻遇刑，怕两家门第互相倾轧"),
    reading("宦", "宦忧内丧", "做官的忧家中有丧"),
    reading("病", "病防带疾", "病人须防落下残疾"),
)
_SEVERITY = (Q_IMAGE.to_dict(), Q_WEIGHT.to_dict())

# Names the book gives (6.09): 寅巳申 and 丑戌未 (孟/季), 子卯 无礼之刑, 辰午酉亥 自刑.
_TRIPLES = (
    (Branch.YIN, Branch.SI, Branch.SHEN),
    (Branch.CHOU, Branch.XU, Branch.WEI),
)
_TRIPLE_OF = [next((tr for tr in _TRIPLES if b in tr), None) for b in BRANCHES]
_XT = tuple(XING_TARGET[b].index for b in BRANCHES)  # X 刑 Y  ⇔  _XT[X.index] == Y.index
_READINGS = [*READINGS, {"topic": "谁遇", **Q_WHOM.to_dict()}]
_SHI_XING = Q_SHI_XING.to_dict()


def _name(x: Branch, y: Branch) -> str:
    if x is y:
        return "自刑"
    if {x, y} == {Branch.ZI, Branch.MAO}:
        return "无礼之刑"
    return "寅巳申" if x in _TRIPLES[0] else "丑戌未"


def _target_details(t: Target) -> dict[str, Any]:
    return {"target": t.role, "hidden": t.source is Source.FUSHEN, "position": t.position, "branch": _BV[t.branch.index]}


# -- 三刑 ------------------------------------------------------------------------------------


def sanxing(chart: Chart, use: Use | None = None, scope: Scope | None = None) -> tuple[Finding, ...]:
    """三刑 on each target: 真刑 / 刑冲并见 / 刑 (holding), 我刑彼 (a near miss), and 三刑全."""
    sc = scope if scope is not None else Scope(chart, use)
    out: list[Finding] = []
    for t, acts, notes in zip(sc.targets, sc.acts, sc.notes):
        f = _xing_on(chart, t, acts, notes)
        if f is not None:
            out.append(f)
        if _TRIPLE_OF[t.branch.index] is not None:
            full = _full(t, acts, notes)
            if full is not None:
                out.append(full)
    return tuple(out)


def _xing_on(chart: Chart, t: Target, acts: tuple[Act, ...], notes: tuple[str, ...]) -> Finding | None:
    b = t.branch
    bi = b.index
    xing_by = [a for a in acts if _XT[a[0].index] == bi]
    if not xing_by:
        # The 用 刑 its source but is not 刑'd by it (寅 化 巳): reported, does not count.
        ti = _XT[bi]
        rev = [a for a in acts if a[0].index == ti]
        if not rev:
            return None
        return Finding(
            rule=RULE,
            holds=False,
            kind="刑",
            element=b.element,
            relative=t.relative,
            lines=_lines(t, rev),
            members=(t.member(), *(act_member(a, "受刑") for a in rev)),
            reasons=("我刑彼", *notes),
            text=(Q_LAW, Q_USE),
            details={**_target_details(t), "name": _name(b, rev[0][0])},
        )
    oi = (bi + 6) % 12
    chong_by = [a for a in acts if a[0].index == oi]
    true_by = [a for a in xing_by if a[0].index == oi]  # one source both 刑 and 冲 (申→寅, 未→丑)
    if true_by:
        kind, text, weight = "真刑", (Q_LAW, Q_JIANCHONG, Q_ZHEN), "重"
    elif chong_by:
        kind, text, weight = "刑冲并见", (Q_LAW, Q_JIANCHONG), "中"
    else:
        kind, text, weight = "刑", (Q_LAW, Q_NOT_THREE), "轻"
    members = [t.member()]
    members.extend(act_member(a, "刑冲" if a in true_by else "刑") for a in xing_by)
    members.extend(act_member(a, "冲") for a in chong_by if a not in true_by)
    reasons = [f"{a[1]._value_}{_BV[a[0].index]}刑{t.role}" for a in xing_by]
    if true_by:
        reasons.append("刑而兼冲")
    elif chong_by:
        reasons.append("刑冲异源")
    details: dict[str, Any] = {
        **_target_details(t),
        "name": _name(xing_by[0][0], b),
        "weight": weight,
        "severity": list(_SEVERITY),
        "readings": list(_READINGS),
    }
    if t.role != "用":
        grave = _shi_danger(chart)
        if grave:
            details["grave"] = grave
    return Finding(
        rule=RULE,
        holds=True,
        kind=kind,
        element=b.element,
        relative=t.relative,
        lines=_lines(t, xing_by + chong_by),
        members=tuple(members),
        reasons=(*reasons, *notes),
        text=text,
        details=details,
    )


def _shi_danger(chart: Chart) -> list[dict[str, str]]:
    """官克世而问讼，五克世而问疏，若世刑而大凶 (6.10): which of the two this chart has."""
    shi = chart.shi_line
    out = []
    if shi.relative is Relative.XIONGDI and any(cl.relative is Relative.GUANGUI for cl in chart.lines):
        out.append({"topic": "讼", "reading": "官克世而世刑，大凶", **_SHI_XING})
    five = chart.lines[4]
    if not five.shi and five.element.overcomes is shi.element:
        out.append({"topic": "疏", "reading": "五克世而世刑，大凶", **_SHI_XING})
    return out


def _full(t: Target, acts: tuple[Act, ...], notes: tuple[str, ...]) -> Finding | None:
    """三刑全: the target and the other two of 寅巳申 (or 丑戌未) among the sources acting on it."""
    triple = _TRIPLE_OF[t.branch.index]
    found: list[Act] = []
    for other in triple:
        if other is t.branch:
            continue
        hit = [a for a in acts if a[0] is other]
        if not hit:
            return None
        found.extend(hit)
    name = "".join(_BV[x.index] for x in triple)
    return Finding(
        rule=RULE,
        holds=True,
        kind="三刑全",
        element=t.branch.element,
        relative=t.relative,
        lines=_lines(t, found),
        members=(t.member(), *(act_member(a, "刑") for a in found)),
        reasons=(name + "全", *notes),
        text=(Q_NAMES, Q_LAW),
        details={**_target_details(t), "name": name},
    )


# -- 墓开 ------------------------------------------------------------------------------------

_HOLDER_WORD = {Source.RI: "入日墓", Source.YUE: "入月墓", Source.DONGYAO: "入动墓", Source.BIANYAO: "化墓"}


def mukai(chart: Chart, use: Use | None = None, scope: Scope | None = None) -> tuple[Finding, ...]:
    """墓开 on each target: its 墓 standing as 日, 月, a moving line or its own 变爻, tested against
    the sources acting on that 墓: 刑 → 墓开 (轻), 刑而兼冲 → 墓开 (重), 冲 → 冲开, neither → 墓闭."""
    sc = scope if scope is not None else Scope(chart, use)
    out: list[Finding] = []
    school = chart.school
    for t, acts, notes in zip(sc.targets, sc.acts, sc.notes):
        mu = tomb(t.branch.element, school)
        # the 墓 among the sources acting on the target (日, 月, other moving lines, own 变爻)
        for h in acts:
            if h[0] is mu:
                out.append(_mu(t, h, mu, sc, notes))
    return tuple(out)


def _mu(t: Target, h: Act, mu: Branch, sc: Scope, notes: tuple[str, ...]) -> Finding:
    # What may open the 墓: 日, 月 and the moving lines (not the 墓 itself, not the target line),
    # and the 墓's own 变爻 when the 墓 is a moving line — a 变爻 acts on its own line only.
    own = t.source is not Source.FUSHEN
    openers = [a for a in sc.base if a != h and not (own and a[2] == t.position and a[1] is Source.DONGYAO)]
    if h[1] is Source.DONGYAO:
        ch = sc.changes[h[2]]
        if ch is not None:
            openers.append(ch)
    mi = mu.index
    oi = (mi + 6) % 12
    xing_by = [a for a in openers if _XT[a[0].index] == mi]
    chong_by = [a for a in openers if a[0].index == oi]
    members = [t.member(), act_member(h, "墓")]
    members.extend(act_member(a, "刑冲" if a in chong_by else "刑") for a in xing_by)
    members.extend(act_member(a, "冲") for a in chong_by if a not in xing_by)
    text: tuple[Quote, ...]
    if xing_by and chong_by:
        kind, holds, weight, text = "墓开", True, "重", (Q_MU, Q_MU_KEY, Q_MU_LIGHT)
    elif xing_by:
        kind, holds, weight, text = "墓开", True, "轻", (Q_MU, Q_MU_LIGHT)
    elif chong_by:
        kind, holds, weight, text = "冲开", True, "重", (Q_MU_KEY,)
    else:
        kind, holds, weight, text = "墓闭", False, None, (Q_MU, Q_MU_KEY)
    word = _HOLDER_WORD[h[1]]
    reasons = [word]
    reasons.extend(f"{a[1]._value_}{_BV[a[0].index]}刑墓" for a in xing_by)
    reasons.extend(f"{a[1]._value_}{_BV[a[0].index]}冲墓" for a in chong_by)
    if not holds:
        reasons.append("无刑冲")
    details = _target_details(t)
    details["tomb"] = _BV[mi]
    details["holder"] = word
    details["weight"] = weight
    return Finding(
        rule=RULE_MU,
        holds=holds,
        kind=kind,
        element=t.branch.element,
        relative=t.relative,
        lines=_lines(t, [h, *xing_by, *chong_by]),
        members=tuple(members),
        reasons=(*reasons, *notes),
        text=text,
        details=details,
    )


__all__ = ["RULE", "RULE_MU", "READINGS", "Act", "Scope", "Target", "act_member", "member", "mukai", "sanxing", "targets"]
