"""The chart drawn as an SVG picture, from the view (`yimao.view`): a header with the moment and
the pillars, the 本卦 and the 之卦 side by side with their lines drawn as bars, the findings that
hold with their sentences, the stars acting on the moving lines, the case, a footer.

Every piece of text is its own `<text>` at a place computed here, never a run the renderer
spreads: widths are measured on the generous side (a CJK character one em, a narrow one up to
0.85 em), so no font of the stack can make two pieces meet. No font is fetched and no script
runs: the fonts are the reader's, by a stack of common CJK faces.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import NamedTuple

from yimao.hanzi import convert
from yimao.linebreak import cells, wrap_text
from yimao.picture.palette import DARK, DARK_PAGE, DARK_RULE, DARK_USE, LIGHT, LIGHT_PAGE, LIGHT_RULE, LIGHT_USE
from yimao.usertext import xml_safe
from yimao.view import ChangedView, ChartView, LineView, Tone

WIDTH = 960
MARGIN = 28
SIZE = 16  # the chart's lines and the sentences
SMALL = 13  # labels, states, counts
TITLE = 22
GAP = 14  # between columns
BAR = 64  # a drawn line: yang whole, yin two halves
ROW = 40  # a line's row, at least

FONTS = {
    "s": '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif',
    "t": '"Noto Sans CJK TC", "Source Han Sans TC", "PingFang TC", "Microsoft JhengHei", "Noto Sans CJK SC", sans-serif',
}

_WIDE_NARROW = set("MWmw@%&")


def measure(text: str, size: float) -> float:
    """The width `text` may take at `size` px, on the generous side: a wide character one em,
    a wide narrow letter 0.85 em, any other narrow character 0.62 em."""
    w = 0.0
    for c in text:
        if cells(c) == 2:
            w += size
        else:
            w += size * (0.85 if c in _WIDE_NARROW else 0.62)
    return w


BOLD_STROKE = 0.04  # of the font size: the outline that makes the regular face read as bold


class Piece(NamedTuple):
    text: str
    tone: Tone = Tone.PLAIN
    size: int = SIZE
    bold: bool = False


class Canvas:
    """The elements of the picture as they are placed, and the height used so far. With
    `stroked_bold`, bold text is also outlined in its own colour: a renderer given the regular
    face alone (the PNG's) draws it heavier all the same."""

    def __init__(self, script: str, stroked_bold: bool = False) -> None:
        self.script = script
        self.stroked_bold = stroked_bold
        self.parts: list[str] = []
        self.y = 0.0

    def tr(self, s: str) -> str:
        return convert(s, self.script)

    def text(self, x: float, y: float, p: Piece, anchor: str = "start") -> None:
        attrs = f' x="{x:.1f}" y="{y:.1f}" class="t-{p.tone.value}" font-size="{p.size}"'
        if p.bold:
            attrs += ' font-weight="bold"'
            if self.stroked_bold:  # the light palette's colour, as the PNG is drawn in it
                attrs += f' stroke="{LIGHT[p.tone]}" stroke-width="{p.size * BOLD_STROKE:.2f}" stroke-linejoin="round"'
        if anchor != "start":
            attrs += f' text-anchor="{anchor}"'
        self.parts.append(f"<text{attrs}>{escape(p.text, quote=False)}</text>")

    def rect(self, x: float, y: float, w: float, h: float, cls: str, rx: float = 0) -> None:
        self.parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" class="{cls}"' + (f' rx="{rx}"' if rx else "") + "/>")

    def line(self, x1: float, y1: float, x2: float, y2: float, cls: str, width: float = 1) -> None:
        self.parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" class="{cls}" stroke-width="{width}"/>')

    def flow(self, pieces: Sequence[Piece], x: float, right: float, indent: float = 0, gap: float = 6, leading: float = 1.5) -> int:
        """Pieces laid left to right from `x`, wrapped at `right` (lines after the first from
        `x + indent`), from the current y; a piece too long for a line is broken by
        `linebreak` into lines of its own. The y moves past them; the lines used are returned."""
        if not pieces:
            return 0
        height = max(p.size for p in pieces) * leading
        cx = x
        line = 0
        self.y += height * 0.75
        for p in pieces:
            w = measure(p.text, p.size)
            if cx > x and cx + w > right:
                line += 1
                self.y += height
                cx = x + indent
            if cx + w <= right:
                self.text(cx, self.y, p)
                cx += w + gap
                continue
            if right - cx < 4 * p.size:  # too little left of this line to begin the piece on
                line += 1
                self.y += height
                cx = x + indent

            def width(t: str, size: int = p.size) -> float:
                return measure(t, size)

            first = wrap_text(p.text, right - cx, measure=width)[0]
            rest = p.text[p.text.find(first) + len(first) :].lstrip()
            self.text(cx, self.y, p._replace(text=first))
            if rest:
                for chunk in wrap_text(rest, right - x - indent, measure=width):
                    line += 1
                    self.y += height
                    self.text(x + indent, self.y, p._replace(text=chunk))
                cx = x + indent + measure(chunk, p.size) + gap
            else:
                cx += measure(first, p.size) + gap
        self.y += height * 0.25
        return line + 1

    def heading(self, text: str) -> None:
        self.y += 18
        self.line(MARGIN, self.y, WIDTH - MARGIN, self.y, "rule")
        self.y += 6
        self.flow([Piece(text, Tone.STRONG, SIZE, True)], MARGIN, WIDTH - MARGIN)


def draw_svg(view: ChartView, *, stroked_bold: bool = False) -> str:
    """The picture of a chart: a whole SVG document (`stroked_bold`: see `Canvas`)."""
    c = Canvas(view.script, stroked_bold)
    _header(c, view)
    _chart(c, view)
    _findings(c, view)
    _stars(c, view)
    if view.case is not None:
        _case(c, view)
    c.y += 28
    c.text(WIDTH - MARGIN, c.y, Piece(view.footer, Tone.QUIET, 12), anchor="end")
    height = c.y + 16
    font = FONTS["s" if view.script == "s" else "t"]
    lang = "zh-Hans" if view.script == "s" else "zh-Hant"
    body = "\n".join(c.parts)
    doc = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" width="{WIDTH}" height="{height:.0f}" lang="{lang}" font-family='{font}'>
<title>{escape(view.title, quote=False)}</title>
<style>
{_css()}
</style>
<rect x="0" y="0" width="{WIDTH}" height="{height:.0f}" class="page"/>
{body}
</svg>
"""
    return xml_safe(doc)


def _css() -> str:
    def rules(palette: dict[Tone, str], page: str, use: str, rule: str) -> str:
        tones = " ".join(f".t-{t.value}{{fill:{c}}}" for t, c in palette.items())
        return f".page{{fill:{page}}} .use{{fill:{use}}} .rule{{stroke:{rule}}} .stroke-moving{{stroke:{palette[Tone.MOVING]};fill:none}} {tones}"

    return (
        f"{rules(LIGHT, LIGHT_PAGE, LIGHT_USE, LIGHT_RULE)}\n@media (prefers-color-scheme: dark) {{ {rules(DARK, DARK_PAGE, DARK_USE, DARK_RULE)} }}"
    )


def _header(c: Canvas, view: ChartView) -> None:
    c.y = 14
    c.flow([Piece(view.title, Tone.STRONG, TITLE, True)], MARGIN, WIDTH - MARGIN)
    pieces = [Piece(c.tr("四柱" if view.moment else "据四柱"), Tone.QUIET, SMALL)]
    for value, label in view.pillars:
        pieces += [Piece(value, Tone.STRONG, SIZE, True), Piece(label, Tone.QUIET, SMALL)]
    pieces += [
        Piece(c.tr("旬空"), Tone.QUIET, SMALL),
        Piece(view.kong, Tone.PLAIN),
        Piece(c.tr("月破"), Tone.QUIET, SMALL),
        Piece(view.po, Tone.PLAIN),
    ]
    c.flow(pieces, MARGIN, WIDTH - MARGIN)
    if view.moment:
        c.flow(
            [Piece(view.moment, Tone.QUIET, SMALL), Piece(c.tr("节"), Tone.QUIET, SMALL), Piece(view.jie, Tone.QUIET, SMALL)],
            MARGIN,
            WIDTH - MARGIN,
            gap=10,
        )


class _Columns(NamedTuple):
    spirit: float | None
    hidden: float | None
    text: float
    bar: float
    mark: float
    changed_bar: float | None
    changed_text: float | None
    tags: float


def _columns(view: ChartView) -> _Columns:
    x = float(MARGIN)
    spirit = hidden = changed_bar = changed_text = None
    if any(ln.spirit for ln in view.lines):
        spirit, x = x, x + 2 * SIZE + GAP
    if any(ln.hidden for ln in view.lines):
        hidden, x = x, x + 5 * SIZE + GAP
    text, x = x, x + 5 * SIZE + GAP
    bar, x = x, x + BAR + 26 + GAP
    mark, x = x, x + max(2, *(len(ln.mark) for ln in view.lines)) * SIZE + GAP
    if view.changed_lines:
        changed_bar, x = x, x + BAR + GAP
        changed_text, x = x, x + 5 * SIZE + GAP
    return _Columns(spirit, hidden, text, bar, mark, changed_bar, changed_text, x + 4)


def _chart(c: Canvas, view: ChartView) -> None:
    cols = _columns(view)
    c.y += 14
    c.line(MARGIN, c.y, WIDTH - MARGIN, c.y, "rule")
    c.y += 28
    first = cols.spirit if cols.spirit is not None else cols.hidden if cols.hidden is not None else cols.text
    c.text(first, c.y, Piece(f"{c.tr('本卦')} {view.main.name}  {view.main.place}", Tone.STRONG, SIZE, True))
    if view.changed is not None and cols.changed_bar is not None:
        c.text(cols.changed_bar, c.y, Piece(f"{c.tr('之卦')} {view.changed.name}  {view.changed.place}", Tone.STRONG, SIZE, True))
    c.text(WIDTH - MARGIN, c.y, Piece(f"{c.tr('互卦')} {view.nuclear}", Tone.QUIET, SMALL), anchor="end")
    c.y += 24
    heads = [
        (cols.spirit, "六神"),
        (cols.hidden, "伏神"),
        (cols.text, "六亲干支"),
        (cols.mark, "世应"),
        (cols.changed_bar, "变卦"),
        (cols.tags, "爻象"),
    ]
    for x, label in heads:
        if x is not None:
            c.text(x, c.y, Piece(c.tr(label), Tone.QUIET, SMALL))
    c.y += 8
    changed = {ch.position: ch for ch in view.changed_lines}
    for ln in view.lines:
        _row(c, cols, ln, changed.get(ln.position))
    c.y += 4
    c.flow([Piece(f, Tone.QUIET, SMALL) for f in view.facts], MARGIN, WIDTH - MARGIN, gap=16)


def _row(c: Canvas, cols: _Columns, ln: LineView, ch: ChangedView | None) -> None:
    tag_pieces = [Piece(t, Tone.QUIET, SMALL) for t in ln.tags]
    if ln.hidden_state:
        tag_pieces += [Piece(c.tr("伏"), Tone.PLAIN, SMALL, True), *(Piece(t, Tone.QUIET, SMALL) for t in ln.hidden_state)]
    state = ch.state if ch is not None and ch.moved else ()
    if state:
        tag_pieces += [Piece(c.tr("变"), Tone.PLAIN, SMALL, True), *(Piece(t, Tone.QUIET, SMALL) for t in state)]
    # the tags first, on a scratch canvas: they decide the row's height
    scratch = Canvas(c.script)
    scratch.y = 0
    lines = scratch.flow(tag_pieces, cols.tags, WIDTH - MARGIN, gap=6, leading=1.5) if tag_pieces else 1
    height = max(ROW, 12 + lines * SMALL * 1.5)
    top = c.y
    if ln.use or ln.hidden_use:
        c.rect(MARGIN - 8, top + 2, WIDTH - 2 * MARGIN + 16, height - 4, "use", rx=4)
    base = top + height / 2 + SIZE * 0.36
    if cols.spirit is not None:
        c.text(cols.spirit, base, Piece(ln.spirit, Tone.QUIET))
    if cols.hidden is not None and ln.hidden:
        used = ln.hidden_use
        c.text(cols.hidden, base, Piece(ln.hidden, ln.hidden_tone if used else Tone.QUIET, SIZE, used))
    c.text(cols.text, base, Piece(ln.text, ln.tone, SIZE, ln.use))
    _bar(c, cols.bar, top + height / 2, ln.yang, Tone.STRONG if ln.moving else Tone.PLAIN)
    if ln.moving:
        _moving_mark(c, cols.bar + BAR + 14, top + height / 2, ln.yang)
    if ln.mark:
        c.text(cols.mark, base, Piece(ln.mark, Tone.STRONG, SIZE, True))
    if cols.changed_bar is not None and cols.changed_text is not None and ch is not None:
        _bar(c, cols.changed_bar, top + height / 2, ch.yang, Tone.PLAIN if ch.moved else Tone.QUIET)
        c.text(cols.changed_text, base, Piece(ch.text, ch.tone if ch.moved else Tone.QUIET))
    if tag_pieces:
        c.y = top + (height - lines * SMALL * 1.5) / 2 - 2
        c.flow(tag_pieces, cols.tags, WIDTH - MARGIN, gap=6, leading=1.5)
    c.y = top + height


def _bar(c: Canvas, x: float, mid: float, yang: bool, tone: Tone) -> None:
    h = 10
    if yang:
        c.rect(x, mid - h / 2, BAR, h, f"t-{tone.value}", rx=1)
    else:
        half = (BAR - 12) / 2
        c.rect(x, mid - h / 2, half, h, f"t-{tone.value}", rx=1)
        c.rect(x + BAR - half, mid - h / 2, half, h, f"t-{tone.value}", rx=1)


def _moving_mark(c: Canvas, x: float, mid: float, yang: bool) -> None:
    """○ on a moving yang line (老阳), × on a moving yin line (老阴), drawn rather than set in a font."""
    if yang:
        c.parts.append(f'<circle cx="{x:.1f}" cy="{mid:.1f}" r="6" class="stroke-moving" stroke-width="2"/>')
    else:
        for dx in (-1, 1):
            c.parts.append(
                f'<line x1="{x - 6:.1f}" y1="{mid - 6 * dx:.1f}" x2="{x + 6:.1f}" y2="{mid + 6 * dx:.1f}" class="stroke-moving" stroke-width="2"/>'
            )


def _quote(view_quote: str, passage: str) -> list[Piece]:
    return [Piece(f"「{view_quote}」", Tone.PLAIN, SIZE), Piece(passage, Tone.QUIET, SMALL)] if view_quote else []


def _findings(c: Canvas, view: ChartView) -> None:
    c.heading(c.tr("所成之断"))
    indent = MARGIN + 20
    for f in view.findings:
        c.y += 4
        c.flow(
            [Piece("✓", Tone.HELD, SIZE, True), Piece(f.rule, Tone.STRONG, SIZE, True), Piece(f.head, Tone.PLAIN, SIZE)],
            MARGIN,
            WIDTH - MARGIN,
            indent=20,
        )
        if f.reasons:
            c.flow([Piece(f.reasons, Tone.QUIET, SMALL)], indent, WIDTH - MARGIN)
        c.flow(_quote(f.quote, f.passage), indent, WIDTH - MARGIN)
        if f.topic:
            c.flow([Piece(f.topic, Tone.QUIET, SMALL)], indent, WIDTH - MARGIN)
    if not view.findings:
        c.flow([Piece(c.tr("无成立之断"), Tone.QUIET, SIZE)], MARGIN, WIDTH - MARGIN)
    counts = []
    for rule, held, missed in view.families:
        said = (f" ✓{held}" if held else "") + (f" ×{missed}" if missed else "")
        counts.append(Piece(rule + (said or f" {c.tr('无')}"), Tone.QUIET, SMALL))
    c.y += 4
    c.flow(counts, MARGIN, WIDTH - MARGIN, gap=18)


def _stars(c: Canvas, view: ChartView) -> None:
    if not (view.stars or view.conditions or view.day_stars):
        return
    c.heading(c.tr("神煞 · 各伺其动（月日之星为重，先列）"))
    for s in view.stars:
        pieces = [Piece(f"{c.tr('爻')}{s.position}", Tone.QUIET, SMALL, True)]
        pieces += [Piece(f"✓{n}", Tone.HELD, SIZE, True) for n in s.held]
        for nature, tone, names in s.named:
            pieces += [Piece(nature, tone, SMALL, True), *(Piece(n, tone, SIZE) for n in names)]
        if s.counts:
            pieces.append(Piece(s.counts, Tone.QUIET, SMALL))
        c.flow(pieces, MARGIN, WIDTH - MARGIN, indent=40)
    for cond in view.conditions:
        head = [Piece("✓", Tone.HELD, SIZE, True), Piece(cond.star, Tone.STRONG, SIZE, True), Piece(cond.effect, Tone.PLAIN, SIZE)]
        if cond.lines:
            head.append(Piece(f"{c.tr('爻')}{cond.lines}", Tone.QUIET, SMALL))
        c.flow([*head, *_quote(cond.quote, cond.passage)], MARGIN, WIDTH - MARGIN, indent=20)
    if view.day_stars:
        c.flow([Piece(c.tr("值日"), Tone.QUIET, SMALL, True), *(Piece(n, Tone.PLAIN) for n in view.day_stars)], MARGIN, WIDTH - MARGIN, indent=40)


def _case(c: Canvas, view: ChartView) -> None:
    case = view.case
    assert case is not None
    c.heading(c.tr(f"卦例 {case.number}"))
    c.flow([Piece(c.tr("问"), Tone.QUIET, SMALL, True), Piece(case.question or "—", Tone.STRONG, SIZE, True)], MARGIN, WIDTH - MARGIN, indent=24)
    if case.tags:
        c.flow([Piece(c.tr("标签"), Tone.QUIET, SMALL, True), *(Piece(t, Tone.PLAIN, SMALL) for t in case.tags)], MARGIN, WIDTH - MARGIN, indent=40)
    for i, note in enumerate(case.notes, 1):
        c.flow([Piece(f"{i}.", Tone.QUIET, SMALL), Piece(note, Tone.PLAIN, SIZE)], MARGIN, WIDTH - MARGIN, indent=24)
    if case.outcome:
        c.flow([Piece(c.tr("应验"), Tone.QUIET, SMALL, True), Piece(case.outcome, Tone.STRONG, SIZE, True)], MARGIN, WIDTH - MARGIN, indent=40)
