"""What a reader sees of a reading, decided once: the rows of the chart and their marks, the
findings that hold with the sentence each rests on, the stars acting on the moving lines by
吉/凶, the case a journal keeps — each piece of text with its `Tone` (what it is: an element, a
nature, a quiet word), not a colour. The terminal (render), the SVG picture and the HTML page
(picture) are three ways of drawing it; each maps a tone to its own colours. Pure: no rich.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from yimao.chart import Chart, ChartLine, changed_line, changed_relations
from yimao.ganzhi import Element
from yimao.hanzi import convert
from yimao.usertext import visible

if TYPE_CHECKING:
    from yimao.pipeline import CastResult


class Tone(enum.Enum):
    """What a piece of text is, for the drawers to colour: the five elements (a line's 六亲干支
    is coloured by its element), the natures of stars and findings, and emphasis."""

    PLAIN = "plain"
    QUIET = "quiet"  # labels, states, counts: read second
    STRONG = "strong"
    MU = "mu"  # 木
    HUO = "huo"  # 火
    TU = "tu"  # 土
    JIN = "jin"  # 金
    SHUI = "shui"  # 水
    JI = "ji"  # 吉
    XIONG = "xiong"  # 凶
    MIXED = "mixed"  # 吉凶
    MOVING = "moving"  # ○ and × of a moving line
    HELD = "held"  # ✔: a finding or a star's condition that holds


ELEMENT_TONE = {e: Tone[e.name] for e in Element}
NATURE_TONE = {"吉": Tone.JI, "凶": Tone.XIONG, "吉凶": Tone.MIXED, "未详": Tone.QUIET}
NATURES = ("吉", "凶", "吉凶", "未详")  # the order stars are grouped in


# --- a line -------------------------------------------------------------------------------------


def line_cell(relative: Any, stem: Any, branch: Any) -> str:
    """A line as the tables write it: 六亲 干支 五行, 兄弟己巳火."""
    return f"{relative.value}{stem.value}{branch.value}{branch.element.value}"


def line_marks(chart: Chart, use: Any = None) -> dict[int, str]:
    """The marks of the 世应 column: 世, 应, and with a 用神 用 on its lines (伏用 on the line whose
    伏神 it is), 原 on the lines of the element that 生 it (原神) and 忌 on those of the element
    that 克 it (忌神) — the general convention of 六爻, not a rule of volume 6."""
    marks: dict[int, list[str]] = {cl.position: (["世"] if cl.shi else ["应"] if cl.ying else []) for cl in chart.lines}
    if use is not None:
        for p in use.positions:
            marks[p].append("用")
        if use.is_hidden:
            for p in use.hidden_positions:
                marks[p].append("伏用")
    element = use_element(chart, use)
    if element is not None:
        for cl in chart.lines:
            if "用" in marks[cl.position]:
                continue
            if cl.element.generates is element:
                marks[cl.position].append("原")
            elif cl.element.overcomes is element:
                marks[cl.position].append("忌")
    return {p: "".join(m) for p, m in marks.items()}  # 世伏用: one cell, whole at any width


def use_element(chart: Chart, use: Any) -> Any:
    """The element of the 用神: of its lines, or of its 伏神; None without one, or when it does not appear."""
    if use is None:
        return None
    if use.positions:
        return chart.lines[use.positions[0] - 1].element
    for p in use.hidden_positions if use.is_hidden else ():
        hidden = chart.lines[p - 1].hidden
        if hidden is not None:
            return hidden.line.branch.element
    return None


def generating(element: Element) -> Element:
    return next(e for e in Element if e.generates is element)


def overcoming(element: Element) -> Element:
    return next(e for e in Element if e.overcomes is element)


def hidden_state(cl: ChartLine) -> list[str]:
    """A line's 伏神 as the 爻象 says it: the 飞神 against it (飞生伏, 飞克伏, 伏生飞, 伏克飞, 比和),
    its 旺衰 in the month and stage at the day, 旬空, 月破, and 相挈 when its 飞神 moves."""
    h = cl.hidden
    if h is None:
        return []
    state = [h.fei]
    if h.month is not None:
        state += [f"月{h.month.vigour.value}", *(["月破"] if h.month.po else [])]
    if h.day is not None:
        state += [*(["旬空"] if h.day.kong else []), f"日{h.day.stage.value}"]
    if h.lifted:
        state.append("相挈")
    return state


def changed_state(cl: ChartLine, chart: Chart) -> list[str]:
    """A line's 变爻 as the 爻象 says it: its own 旺衰 in the month and stage at the day."""
    if cl.changed is None:
        return []
    month, day = changed_relations(chart, cl.changed)
    return ([f"月{month.vigour.value}"] if month is not None else []) + ([f"日{day.stage.value}"] if day is not None else [])


# --- findings -------------------------------------------------------------------------------------

RULE_ORDER = ("助鬼伤身", "局会", "三刑", "墓开", "六害")

# The sentence that decides a holding finding, by its kind (or rule): the first of the finding's
# quotes that contains the phrase; else its first quote. A finding cites the general rule first
# and then the sentence that names its case (动会者…, 此相生之害也 …), which is the one to show.
_DECIDING = {
    "动会": "动会者",
    "变会": "变会者",
    "伏会": "伏会者",
    "生害": "相生之害",
    "克害": "克",
    "真刑": "真刑",
    "刑冲并见": "刑而兼冲",
    "三刑全": "孟党孟刑",
    "刑": "三刑之立法",
    "墓开": "刑则墓开",
    "冲开": "墓开",
    "助鬼伤身": "助鬼伤身",
}


def deciding_quote(f: Any) -> Any:
    """The one sentence of the book a holding finding is shown with by default."""
    phrase = _DECIDING.get(f.kind or f.rule) or _DECIDING.get(f.rule)
    if phrase:
        for q in f.text[1:] if f.kind == "克害" else f.text:  # 克害: 彼克我者 / 我克彼者, not the general sentence
            if phrase in q.original:
                return q
    return f.text[0] if f.text else None


def rules(findings: Sequence[Any]) -> list[str]:
    """The rule families in the book's order, those not in it after."""
    return list(dict.fromkeys([*RULE_ORDER, *(f.rule for f in findings)]))


def finding_label(f: Any, rule: str) -> str:
    """Kind, element (a 局 under 局会) and 六亲 of a finding, those it has."""
    element = None
    if f.element:
        element = f"{f.element.value}局" if rule == "局会" else f.element.value
    return " ".join(x for x in (f.kind, element, f.relative.value if f.relative else None) if x)


def member_text(m: Any) -> str:
    """A member of a finding: its role, branch and where it stands, 用:午(动3)."""
    where = f"{m.source.value}{m.position}" if m.position else m.source.value
    role = f"{m.role}:" if m.role else ""
    return f"{role}{m.branch.value}({where})"


def family_counts(findings: Sequence[Any]) -> list[tuple[str, int, int]]:
    """Each rule family in the book's order, with how many of its findings hold and how many are near misses."""
    return [
        (rule, sum(f.holds for f in findings if f.rule == rule), sum(not f.holds for f in findings if f.rule == rule)) for rule in rules(findings)
    ]


# --- stars ----------------------------------------------------------------------------------------


def star_label(star: Any) -> str:
    """The name a star is shown by: its label, unique in the catalogue (丧门（岁）)."""
    return star.label or star.name


MOST_NAMES = 12  # star names a moving line shows by default; the rest are counted
NAMED_NATURES = ("吉", "凶", "吉凶")


class StarPick(NamedTuple):
    """The stars of a moving line as a reader is first shown them: those with a condition that
    holds, then heavy stars of known nature by nature, and the others counted."""

    held: tuple[str, ...]  # labels of the stars with a condition that holds
    named: tuple[tuple[str, tuple[str, ...]], ...]  # (nature, labels), in the order of NATURES
    counts: tuple[tuple[str, int], ...]  # (余 | 未详 | 轻 | 异读, how many), those not zero


def stars_on_moving_lines(placements: Sequence[Any]) -> dict[int, list[Any]]:
    """The stars acting on each line (各伺其动: a moving line, its 变爻, a lifted 伏神), by line."""
    per: dict[int, list[Any]] = {}
    for s in placements:
        for pos in sorted({h.position for h in s.hits if h.moving}):
            per.setdefault(pos, []).append(s)
    return per


def otherwise_on_moving_lines(placements: Sequence[Any]) -> dict[int, list[Any]]:
    """The stars that the reading taken puts on no line and a variant reading puts on a moving
    one (its 本爻, 变爻 or lifted 伏神), by line: acting by that reading, a disagreement shown."""
    per: dict[int, list[Any]] = {}
    for s in placements:
        if not s.hits:
            for pos in sorted({h.position for h in s.elsewhere if h.moving}):
                per.setdefault(pos, []).append(s)
    return per


def pick_stars(stars: Sequence[Any], most: int = MOST_NAMES, otherwise: int = 0) -> StarPick:
    """Of a line's stars: those with a condition that holds, then the heavy stars (唯日月之用尊焉,
    6.56) of known nature, 吉, 凶 and 吉凶 taken in turn in the book's order, `most` names in all;
    counted, the heavy ones not named (余), those of unknown nature (未详), the light ones (轻), and
    the `otherwise` stars that a variant reading alone puts on the line (异读)."""
    held = [s for s in stars if any(c.holds for c in s.conditions)]
    rest = [s for s in stars if s not in held]
    groups = {n: [s for s in rest if s.star.weight == "heavy" and s.star.nature == n] for n in NAMED_NATURES}
    shown: set[int] = set()
    budget = most - len(held)
    for rank in range(max(map(len, groups.values()), default=0)):  # the natures in turn, so that none is left out
        for n in NAMED_NATURES:
            if budget > 0 and rank < len(groups[n]):
                shown.add(id(groups[n][rank]))
                budget -= 1
    named = tuple((n, tuple(star_label(s.star) for s in rest if id(s) in shown and s.star.nature == n)) for n in NATURES)
    counts = (
        ("余", sum(len(g) for g in groups.values()) - len(shown)),
        ("未详", sum(s.star.weight == "heavy" and s.star.nature not in NAMED_NATURES for s in rest)),
        ("轻", sum(s.star.weight != "heavy" for s in rest)),
        ("异读", otherwise),
    )
    return StarPick(tuple(star_label(s.star) for s in held), tuple((n, names) for n, names in named if names), tuple((k, n) for k, n in counts if n))


# --- the view of a reading, for a picture -------------------------------------------------------

# What of a user's text a picture holds: enough for any question or note a person writes, and a
# bound on the picture however much was stored (a 1 MB note makes a picture of a few KB more).
MOST_TEXT = 600  # characters of a question, a note or an outcome's note
MOST_NOTES = 12


class LineView(NamedTuple):
    """One line of the 本卦, as its row shows it."""

    position: int
    yang: bool
    moving: bool
    spirit: str  # 六神, "" without a day
    text: str  # 六亲干支五行
    tone: Tone  # its element's
    mark: str  # 世, 应, 用, 伏用, 原, 忌 (joined)
    use: bool  # the 用神 is this line
    hidden_use: bool  # the 用神 is this line's 伏神
    hidden: str  # the 伏神 under it, "" when none
    hidden_tone: Tone
    hidden_state: tuple[str, ...]
    tags: tuple[str, ...]  # the line's relations: 月旺 日长生 回头生 …


class ChangedView(NamedTuple):
    """One line of the 之卦: the 变爻 of a moving line, or a line that stays (drawn quiet)."""

    position: int
    yang: bool
    moved: bool
    text: str
    tone: Tone
    state: tuple[str, ...]  # a 变爻's own 旺衰: 月相 日长生


class HexagramView(NamedTuple):
    name: str  # 离为火
    place: str  # 离宫八纯


class FindingView(NamedTuple):
    """A finding that holds: its rule and head, and the sentence of the book it rests on."""

    rule: str
    head: str  # kind, element, 六亲 (those that say more than the rule), lines, members
    reasons: str
    quote: str  # 「…」, "" when it has none
    passage: str
    topic: str  # the reading of the question's topic: 女嫁：「…」 6.10, or ""


class StarLineView(NamedTuple):
    """The stars acting on one moving line, by nature, heavy first."""

    position: int
    held: tuple[str, ...]
    named: tuple[tuple[str, Tone, tuple[str, ...]], ...]  # (nature, its tone, labels)
    counts: str  # 余3 轻5


class ConditionView(NamedTuple):
    """A star's condition that holds on the chart, with its sentence."""

    star: str
    effect: str
    lines: str
    quote: str
    passage: str


class CaseView(NamedTuple):
    """What a journal keeps of a case, as a picture shows it (user text `visible`, cut at MOST_TEXT)."""

    number: int
    question: str
    tags: tuple[str, ...]
    notes: tuple[str, ...]
    outcome: str


class ChartView(NamedTuple):
    title: str  # 离之乾 2026-12-02 10:00
    script: str  # hanzi.SCRIPTS: "s" simplified, "t", "tw", "hk" traditional
    pillars: tuple[tuple[str, str], ...]  # (干支, 年|月|日|时); a missing day as —
    kong: str  # 旬空
    po: str  # 月破
    moment: str  # the wall time, zone and 农历; "" for pillars given
    jie: str  # the 节 on either side; "" for pillars given
    main: HexagramView
    changed: HexagramView | None
    nuclear: str  # 互卦
    lines: tuple[LineView, ...]  # 上爻 first
    changed_lines: tuple[ChangedView, ...]  # 上爻 first; empty when nothing moves
    facts: tuple[str, ...]  # 用神, 原神忌神, 卦身, 六冲, 爻值
    findings: tuple[FindingView, ...]
    families: tuple[tuple[str, int, int], ...]  # rule, held, near misses
    stars: tuple[StarLineView, ...]  # 上爻 first
    conditions: tuple[ConditionView, ...]
    day_stars: tuple[str, ...]  # 值日
    case: CaseView | None
    footer: str


def chart_view(result: CastResult, script: str = "s", case: Mapping[str, Any] | None = None) -> ChartView:
    """The view of a reading, every string in `script` (hanzi.SCRIPTS); with `case` (the fields
    `journal show` adds) the case's question, tags, notes and outcome."""
    from yimao import __version__

    def tr(s: str) -> str:
        return convert(s, script)

    chart = result.chart
    p = chart.pillars
    ctx = p.context
    marks = line_marks(chart, result.use)
    spec = chart.cast.spec()
    if ctx is not None:
        when = f"{ctx.moment:%Y-%m-%d %H:%M}"
        moment = f"{ctx.moment:%Y-%m-%d %H:%M} {ctx.tz_name}" + (f"  农历{ctx.lunar}" if ctx.lunar else "")
        j, nj = ctx.jie, ctx.next_jie
        tz = ctx.moment.tzinfo
        jie = f"{j.name} {j.instant.astimezone(tz):%m-%d %H:%M} → {nj.name} {nj.instant.astimezone(tz):%m-%d %H:%M}"
    else:
        when = "".join(f"{v}{label}" for (_, v), label in zip(p.items(), "年月日时") if v is not None)
        moment = jie = ""
    pillars = tuple((str(v) if v is not None else "—", label) for (_, v), label in zip(p.items(), "年月日时") if v is not None or label == "日")
    return ChartView(
        title=tr(f"{spec}  {when}"),
        script=script,
        pillars=tuple((tr(v), tr(label)) for v, label in pillars),
        kong="".join(b.value for b in p.xunkong) if p.xunkong else "—",
        po=p.yuepo.value if p.yuepo else "—",
        moment=tr(moment),
        jie=tr(jie),
        main=_hexagram_view(chart.hexagram, tr),
        changed=_hexagram_view(chart.changed_hexagram, tr) if chart.changed_hexagram is not None else None,
        nuclear=tr(chart.hexagram.nuclear.name),
        lines=tuple(_line_view(cl, tr, marks) for cl in reversed(chart.lines)),
        changed_lines=_changed_views(chart, tr),
        facts=tuple(tr(f) for f in facts(chart, result.use)),
        findings=tuple(_finding_views(result.findings, tr)),
        families=tuple((tr(rule), held, missed) for rule, held, missed in family_counts(result.findings)),
        stars=tuple(_star_views(result.stars.placements, tr)),
        conditions=tuple(
            ConditionView(
                tr(star_label(s.star)), tr(c.condition.effect), ",".join(map(str, c.lines)), tr(c.condition.quote.original), c.condition.quote.passage
            )
            for s in result.stars.placements
            for c in s.conditions
            if c.holds
        ),
        day_stars=tuple(tr(star_label(s.star)) for s in result.stars.placements if s.day_match),
        case=_case_view(case, tr) if case is not None else None,
        footer=tr(f"yimao {__version__} · 《易冒》卷六"),
    )


def _hexagram_view(h: Any, tr: Callable[[str], str]) -> HexagramView:
    return HexagramView(tr(h.name), tr(f"{h.palace.value}宫{h.generation.value}"))


def _line_view(cl: ChartLine, tr: Callable[[str], str], marks: Mapping[int, str]) -> LineView:
    h = cl.hidden
    mark = marks.get(cl.position, "")
    hidden = tr(line_cell(h.line.relative, h.line.stem, h.line.branch)) if h is not None else ""
    return LineView(
        position=cl.position,
        yang=cl.line.yang,
        moving=cl.moving,
        spirit=tr(cl.spirit.value) if cl.spirit else "",
        text=tr(line_cell(cl.relative, cl.line.stem, cl.branch)),
        tone=ELEMENT_TONE[cl.element],
        mark=tr(mark),
        use="用" in mark.replace("伏用", ""),
        hidden_use="伏用" in mark,
        hidden=hidden,
        hidden_tone=ELEMENT_TONE[h.line.branch.element] if h is not None else Tone.QUIET,
        hidden_state=tuple(tr(t) for t in hidden_state(cl)),
        tags=tuple(tr(t) for t in cl.tags()),
    )


def _changed_views(chart: Chart, tr: Callable[[str], str]) -> tuple[ChangedView, ...]:
    """The whole 之卦, 上爻 first, each line's 六亲 against the original palace (as the 变爻 are)."""
    ch = chart.changed_hexagram
    if ch is None:
        return ()
    palace = chart.hexagram.palace_element
    out = []
    for line, cl in zip(reversed(ch.lines), reversed(chart.lines)):
        c = changed_line(line, palace)
        out.append(
            ChangedView(
                cl.position,
                c.yang,
                cl.moving,
                tr(line_cell(c.relative, c.stem, c.branch)),
                ELEMENT_TONE[c.branch.element],
                tuple(tr(t) for t in changed_state(cl, chart)),
            )
        )
    return tuple(out)


def facts(chart: Chart, use: Any = None) -> list[str]:
    """The line under the chart: the 用神 when one is named with its 原神 and 忌神, the 卦身,
    六冲/六合, 游魂/归魂, 伏吟/反吟, and the coins (爻值)."""
    out = []
    if use is not None:
        from yimao.pipeline import use_note

        out.append(use_note(use) or "")
        element = use_element(chart, use)
        if element is not None:
            out.append(f"原神{generating(element).value} 忌神{overcoming(element).value}")
    out.append(f"卦身 {chart.hexagram.guashen.value}")
    out.append(" ".join(chart.features))
    out.append(f"爻值 {chart.cast.coins()}")
    return [f for f in out if f]


def _finding_views(findings: Sequence[Any], tr: Callable[[str], str]) -> list[FindingView]:
    from yimao.analysis.finding import topic_reading_of  # loaded with the findings

    out = []
    for rule in rules(findings):
        for f in findings:
            if f.rule != rule or not f.holds:
                continue
            label = finding_label(f, rule).removeprefix(rule).strip()  # 墓开's kind is its rule: said once
            where = f"爻{','.join(map(str, f.lines))}" if f.lines else ""
            head = " ".join(x for x in (label, where, *map(member_text, f.members)) if x)
            q = deciding_quote(f)
            reading = topic_reading_of(f.details)
            topic = f"{reading.topic}：「{reading.text.original}」 {reading.text.passage}" if reading is not None else ""
            out.append(FindingView(tr(rule), tr(head), tr(" ".join(f.reasons)), tr(q.original) if q else "", q.passage if q else "", tr(topic)))
    return out


def _star_views(placements: Sequence[Any], tr: Callable[[str], str]) -> list[StarLineView]:
    per, otherwise = stars_on_moving_lines(placements), otherwise_on_moving_lines(placements)
    out = []
    for pos in sorted(per.keys() | otherwise.keys(), reverse=True):
        pick = pick_stars(per.get(pos, ()), otherwise=len(otherwise.get(pos, ())))
        out.append(
            StarLineView(
                pos,
                tuple(tr(n) for n in pick.held),
                tuple((tr(n), NATURE_TONE[n], tuple(tr(x) for x in names)) for n, names in pick.named),
                tr(" ".join(f"{k}{n}" for k, n in pick.counts)),
            )
        )
    return out


def cut(text: str, most: int = MOST_TEXT) -> str:
    """A user's text as a picture holds it: `visible`, and cut after `most` characters with the count of the rest."""
    text = visible(text)
    return text if len(text) <= most else f"{text[:most]}…（余 {len(text) - most} 字）"


def _case_view(fields: Mapping[str, Any], tr: Callable[[str], str]) -> CaseView:
    notes = [cut(n["text"]) for n in fields["notes"]]
    if len(notes) > MOST_NOTES:
        notes = [*notes[:MOST_NOTES], f"…（余 {len(notes) - MOST_NOTES} 条，见 yimao journal show {fields['case']}）"]
    o = fields["outcome"]
    outcome = ""
    if o is not None:
        outcome = " ".join(x for x in (o["verdict"], visible(o["date"]) if o["date"] else "", cut(o["note"]) if o["note"] else "") if x)
    return CaseView(
        fields["case"],
        tr(cut(fields["question"])) if fields["question"] else "",
        tuple(tr(cut(t, 40)) for t in fields.get("tags") or ())[:MOST_NOTES],
        tuple(tr(n) for n in notes),
        tr(outcome),
    )
