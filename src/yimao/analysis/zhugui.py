"""助鬼伤身 (docs/rules.md §1): the 世 克 by a 官鬼 that has its true 长生 at the day.

"助鬼伤身，以世爻受鬼克，而鬼长生于日，是为引祸以自害。" (6.01)

A 官鬼 always 克 the palace element, so a 鬼 克世 exactly when the 世 is 兄弟; and only a
真生 counts (木 at 亥, 火 at 寅, 水 at 申), so only 木/火/水 鬼 can qualify.
"""

from __future__ import annotations

from functools import cache

from yimao.analysis.by_topic import ZHUGUI, TopicReading, TopicText, listed, reading_why, zhugui_reading
from yimao.analysis.context import RuleContext, rule_context
from yimao.analysis.finding import Finding, Ghost, Member, ShiVigour, SpiritReading, ZhuguiDetails, ZhuguiHarm
from yimao.chart import Chart, ChartLine, Source, Use
from yimao.ganzhi import Branch, EarthSchool, Element, GanZhi, changsheng, is_true_changsheng
from yimao.hexagram import Hexagram, Relative
from yimao.texts import Quote, quote

RULE = "助鬼伤身"

# -- the sentences each check encodes ------------------------------------------------------
Q_DEF = quote(
    "助鬼伤身，以世爻受鬼克，而鬼长生于日，是为引祸以自害。",
    "所谓「助鬼伤身」，是世爻被官鬼所克，而这官鬼又在日辰上得长生，等于自己引来祸患伤害自己。",
)
Q_GHOST_EXEMPT = quote("然官鬼遇空破者弗能伤", "不过官鬼若逢空、逢破，就伤不了人")
Q_SHI_EXEMPT = quote("世爻逢旺相者弗能伤", "世爻若本身旺相，也伤不动")
Q_POSITION = quote("虽曰长生，临于岁月动变之位者则非", "虽说是长生，若只临在太岁、月建、动爻、变爻的位置上，就不算")
Q_NOT_TRUE = quote("虽长生于日，而巳日之巽，申日之革则非", "虽说长生于日辰，可巳日得《巽》卦之鬼、申日得《革》卦之鬼，也不算")
Q_TRUE_NOTE = quote("五行大生谓之真生，巽鬼革鬼非大生", "五行正例的长生才叫真生；《巽》《革》两卦的官鬼不是正例长生")
Q_ONLY_SHENG = quote("虽曰助鬼，而午日之坎，酉日之离则非", "虽说是助鬼，可午日得《坎》卦、酉日得《离》卦，同样不算")
Q_SHENG_NOTE = quote("坎鬼离鬼非长生", "《坎》《离》两卦的官鬼也算不得长生")
Q_EXAMPLES = quote("是以前贤举申日之离，寅日之咸，亥日之泰者为法。", "所以前贤举申日得《离》、寅日得《咸》、亥日得《泰》这几例作为准式。")
Q_SEVERITY = quote("静迟动速，旺大衰小，惟空破散则吉也", "官鬼静则应得慢，动则应得快；旺则事大，衰则事小；只有逢空、逢破、逢散才吉")
Q_VERDICT = quote("大抵用官吉而用财凶，世爻尤凶也", "大体说来，以官为用则吉，以财为用则凶，尤其伤到世爻最凶")
Q_GUAN_USE = quote("即以官为用者，亦嫌其克世", "即使以官为用神，也嫌它克世爻")
Q_JI = quote("总之以鬼为忌者，助伤固凶", "总之，凡以官鬼为忌神的，助鬼伤身固然凶")
Q_NUFU = quote("若女占夫而官星为用者，遇之反吉也", "但若是女子占丈夫、以官星为用神，遇上它反而吉")


# The book's readings by topic (6.03, 6.04), listed with every holding finding; with a topic,
# that topic's reading (`topic_reading`).
READINGS: tuple[TopicText, ...] = listed(ZHUGUI)

# "鬼临雀起非，临武被劫，临虎见丧，临蛇而惊" (6.03): the 六神 on a holding 鬼.
_SPIRIT_READING = {
    "朱雀": "起非",
    "玄武": "被劫",
    "白虎": "见丧",
    "螣蛇": "而惊",
}
Q_SPIRIT = quote("鬼临雀起非，临武被劫，临虎见丧，临蛇而惊", "官鬼若临朱雀便起是非，临元武便遭抢劫，临白虎便见丧事，临腾蛇便受惊吓")

_NO_DAY = "未给日辰"
_NO_STEM = "未给日干，旬空未判"
_NO_MONTH = "未给月建，月破与世旺相未判"

# reasons → the sentence that makes them a reason
_REASON_TEXT: dict[str, tuple[Quote, ...]] = {
    "鬼不克世": (Q_DEF,),
    "日生而非长生": (Q_ONLY_SHENG, Q_SHENG_NOTE),
    "日非长生": (Q_DEF,),
    "非真生": (Q_NOT_TRUE, Q_TRUE_NOTE),
    "鬼空": (Q_GHOST_EXEMPT,),
    "鬼破": (Q_GHOST_EXEMPT,),
    "世旺相": (Q_SHI_EXEMPT,),
    _NO_DAY: (Q_DEF,),
}
_POSITION_REASONS = ("长生临岁", "长生临月", "长生临动爻", "长生临变爻")


def zhugui(chart: Chart, use: Use | None = None, context: RuleContext | None = None) -> tuple[Finding, ...]:
    """助鬼伤身 on the chart: one finding (holding, or the near miss with every failed condition), or none."""
    ctx = context if context is not None else rule_context(chart, use)
    shi, day = ctx.shi, ctx.day
    positions = candidates(chart.cast.hexagram)
    if not positions:
        return ()
    element, cs, true = palace_ghost(ctx.palace, chart.school)
    # 以世爻受鬼克: a 鬼 克 the 世 exactly when the 世 is 兄弟
    ke = element.overcomes is shi.line.branch.element
    if not ke and not (true and day is cs):
        return ()  # 鬼不克世 is worth a word only when the day is the 鬼's true 长生
    ghosts = [chart.lines[p - 1] for p in positions]

    shared, extra, informative = _shared_checks(chart, ctx, element, ke)
    if shared and not informative:
        return ()  # no 鬼 qualifies, and the near miss is not worth a word

    # Each 鬼's own: 然官鬼遇空破者弗能伤 (not judged without a day)
    own = [_empty_or_broken(g) if day is not None else () for g in ghosts]
    # 世爻逢旺相者弗能伤 (by the month)
    shi_strong = shi.month is not None and shi.month.vigour.strong
    notes = [note for note, missing in ((_NO_STEM, ctx.stemless), (_NO_MONTH, ctx.month is None)) if missing]

    qualifying = [g for g, r in zip(ghosts, own) if not r]
    if not shared and qualifying and day is not None:
        return (_holding(chart, use, shi, qualifying, day, shi_strong, notes, ctx.topic),)

    return (_near_miss(chart, shi, day, element, ghosts, own, shared, shi_strong, extra, notes),)


def _near_miss(
    chart: Chart,
    shi: ChartLine,
    day: Branch | None,
    element: Element,
    ghosts: list[ChartLine],
    own: list[tuple[str, ...]],
    shared: list[str],
    shi_strong: bool,
    extra: list[Member],
    notes: list[str],
) -> Finding:
    """The near miss: every 鬼, with every condition any of them fails, each once."""
    gs = ghosts
    reasons = list(shared)
    for r in own:
        reasons += [x for x in r if x not in reasons]
    if shi_strong and "鬼不克世" not in reasons:
        reasons.append("世旺相")
    return Finding(
        RULE,
        False,
        None,
        element,
        Relative.GUANGUI,
        _lines(gs, shi),
        _members(gs, shi, day) + tuple(extra),
        (*reasons, *notes),
        _text_of(reasons),
        ZhuguiDetails(changsheng(element, chart.school), is_true_changsheng(element, chart.school), _ghosts(gs), _shi(shi), None),
    )


def _shared_checks(chart: Chart, ctx: RuleContext, element: Element, ke: bool) -> tuple[list[str], list[Member], bool]:
    """What every 鬼 passes or fails alike (they share the element), in the text's order: the
    reasons it fails, where its 长生 stands instead of the day (as members), and whether the
    near miss is worth a word."""
    day = ctx.day
    _element, cs, true = palace_ghost(ctx.palace, chart.school)
    shared: list[str] = []
    extra: list[Member] = []
    if not ke:
        shared.append("鬼不克世")
    if day is None:
        shared.append(_NO_DAY)
        return shared, extra, ke
    if day is cs:  # 而鬼长生于日
        if not true:  # 虽长生于日，而巳日之巽，申日之革则非
            shared.append("非真生")
        return shared, extra, ke or true
    # 虽曰助鬼，而午日之坎，酉日之离则非: the day only 生 the 鬼
    sheng = day.element is element.generated_by
    shared.append("日生而非长生" if sheng else "日非长生")
    # 虽曰长生，临于岁月动变之位者则非
    elsewhere = _elsewhere(chart, cs, ctx.month)
    for label, member in elsewhere:
        if label not in shared:
            shared.append(label)
        if member is not None:
            extra.append(member)
    return shared, extra, ke  # a 鬼 that 克 the 世 is always worth a word


@cache  # 64 answers
def candidates(h: Hexagram) -> tuple[int, ...]:
    """The positions of every visible 官鬼 but the 世 (a 鬼 on the 世 does not 克 it)."""
    return tuple([ln.position for ln in h.lines if ln.relative is Relative.GUANGUI and ln.position != h.shi])


@cache  # 5 palace elements × 2 schools
def palace_ghost(palace: Element, school: EarthSchool) -> tuple[Element, Branch, bool]:
    """The 官鬼 of a palace: its element (what 克 the palace), its 长生, and whether that is a 真生."""
    element = palace.overcome_by
    return element, changsheng(element, school), is_true_changsheng(element, school)


def _empty_or_broken(g: ChartLine) -> tuple[str, ...]:
    """官鬼遇空破: a 鬼's own 旬空 and 月破."""
    out = []
    if g.day is not None and g.day.kong:
        out.append("鬼空")
    if g.month is not None and g.month.po:
        out.append("鬼破")
    return tuple(out)


def _elsewhere(chart: Chart, cs: Branch, month: Branch | None) -> list[tuple[str, Member | None]]:
    """Where the 长生 stands other than the day: 岁, 月, a moving line, a 变爻 (临于岁月动变之位者则非)."""
    out: list[tuple[str, Member | None]] = []
    year = chart.pillars.year
    if (year.branch if isinstance(year, GanZhi) else year) is cs:
        out.append(("长生临岁", None))  # the year is no Source of the chart: a reason, not a member
    if month is cs:
        out.append(("长生临月", Member(cs, Source.YUE, None, "长生")))
    for cl in chart.lines:
        if cl.moving and cl.line.branch is cs:
            out.append(("长生临动爻", Member(cs, Source.DONGYAO, cl.line.position, "长生")))
        if cl.changed is not None and cl.changed.branch is cs:
            out.append(("长生临变爻", Member(cs, Source.BIANYAO, cl.line.position, "长生")))
    return out


def _text_of(reasons: list[str]) -> tuple[Quote, ...]:
    """The sentences that make `reasons` the reasons of a near miss, each once, in order."""
    text: list[Quote] = []
    for r in reasons:
        for q in _REASON_TEXT.get(r, (Q_POSITION,) if r in _POSITION_REASONS else ()):
            if q not in text:
                text.append(q)
    return tuple(text)


def _holding(
    chart: Chart,
    use: Use | None,
    shi: ChartLine,
    qualifying: list[ChartLine],
    day: Branch,
    shi_strong: bool,
    notes: list[str],
    topic: str | None = None,
) -> Finding:
    members = _members(qualifying, shi, day)
    lines = _lines(qualifying, shi)
    ghosts, shi_vigour = _ghosts(qualifying), _shi(shi)
    element = qualifying[0].element
    if shi_strong:  # 世爻逢旺相者弗能伤: everything else holds
        details = ZhuguiDetails(day, True, ghosts, shi_vigour, None)
        return Finding(RULE, False, None, element, Relative.GUANGUI, lines, members, ("世旺相", *notes), (Q_DEF, Q_SHI_EXEMPT), details)
    verdict, verdict_text, role = _verdict(chart, use)
    reading = _topic_reading(topic, use)  # the reading of the matter asked (6.03, 6.04; docs/rules.md §6)
    why = None if reading is None else reading_why(reading, use.spec if use else None, _relative(use), verdict)
    spirits = []
    for g in qualifying:  # 鬼临雀起非，临武被劫，临虎见丧，临蛇而惊
        if g.spirit is not None and g.spirit.value in _SPIRIT_READING:
            spirits.append(SpiritReading(g.line.position, g.spirit, _SPIRIT_READING[g.spirit.value]))
    harm = ZhuguiHarm(
        use.spec if use is not None else None,
        verdict,
        verdict_text,
        Q_SEVERITY,
        READINGS,
        None if why is not None else reading,
        tuple(spirits),
        Q_SPIRIT if spirits else None,
        why,
        role,
    )
    return Finding(
        RULE,
        True,
        None,
        element,
        Relative.GUANGUI,
        lines,
        members,
        ("鬼克世", "鬼长生于日", "真生", *notes),
        (Q_DEF, Q_EXAMPLES, Q_SEVERITY),
        ZhuguiDetails(day, True, ghosts, shi_vigour, harm),
    )


def _relative(use: Use | None) -> str | None:
    return use.relative.value if use is not None and use.relative is not None else None


def _topic_reading(topic: str | None, use: Use | None) -> TopicReading | None:
    return zhugui_reading(topic, _relative(use))


# What the 鬼 is to a 用神 of each 六亲: it 克 兄弟 (忌神), 生 父母 (原神), is 生 by 妻财 (泄神
# of the 财), is 克 by 子孙. 「以鬼为忌者，助伤固凶」 is said of the first alone.
_ROLE = {
    Relative.XIONGDI: "忌神",
    Relative.FUMU: "原神",
    Relative.QICAI: "泄神",
    Relative.ZISUN: "用神所克",
    Relative.GUANGUI: "用神",
}


def _verdict(chart: Chart, use: Use | None) -> tuple[str, tuple[Quote, ...], str]:
    """用官吉而用财凶，世爻尤凶 (6.03); with no 用神 the 世 is the asker: 凶. The 世 a 鬼 克 is
    兄弟, so with no 用神, or the 世, the 鬼 is the 忌神; 「以鬼为忌者」 is cited only then and
    for a 兄弟 用神 (for a 父母 the 鬼 is its 原神)."""
    if use is None:
        return "凶", (Q_JI,), "忌神"
    role = _ROLE.get(use.relative, "忌神") if use.relative is not None else "忌神"
    if use.spec == "世" or use.positions == (chart.hexagram.shi,):
        return "尤凶", (Q_VERDICT,), "忌神"
    if use.relative is Relative.GUANGUI:
        return "反吉", (Q_NUFU, Q_VERDICT, Q_GUAN_USE), role
    return "凶", ((Q_VERDICT, Q_JI) if role == "忌神" else (Q_VERDICT,)), role


def _members(ghosts: list[ChartLine], shi: ChartLine, day: Branch | None) -> tuple[Member, ...]:
    out = []
    if day is not None:
        out.append(Member(day, Source.RI, None, "日"))
    for g in (*ghosts, shi):
        ln = g.line
        out.append(Member(ln.branch, Source.DONGYAO if g.moving else Source.JINGYAO, ln.position, "世" if g is shi else "鬼"))
    return tuple(out)


def _lines(ghosts: list[ChartLine], shi: ChartLine) -> tuple[int, ...]:
    """The finding's lines: the 鬼 and the 世, in order."""
    return tuple(sorted([shi.line.position, *[g.line.position for g in ghosts]]))


def _ghosts(ghosts: list[ChartLine]) -> tuple[Ghost, ...]:
    out = []
    for g in ghosts:
        v = g.month.vigour if g.month is not None else None
        out.append(
            Ghost(
                g.line.position,
                g.line.branch,
                g.moving,
                v,
                "动速" if g.moving else "静迟",  # 静迟动速
                None if v is None else ("旺大" if v.strong else "衰小"),  # 旺大衰小
            )
        )
    return tuple(out)


def _shi(shi: ChartLine) -> ShiVigour:
    return ShiVigour(shi.line.position, shi.line.branch, shi.month.vigour if shi.month is not None else None)


__all__ = ["READINGS", "RULE", "zhugui"]
