"""The chart as one standalone HTML page, from the view (`yimao.view`): the content of the SVG
picture in real markup (a table for the hexagrams, lists for the findings and the stars), its CSS
inline, nothing loaded, no script; light and dark colour schemes, and a print style that puts a
chart on one A4 page."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from yimao.hanzi import convert
from yimao.picture.palette import DARK, DARK_PAGE, DARK_RULE, DARK_USE, LIGHT, LIGHT_PAGE, LIGHT_RULE, LIGHT_USE
from yimao.picture.svg import FONTS
from yimao.usertext import xml_safe
from yimao.view import ChangedView, ChartView, FindingView, LineView, Tone


def _e(text: str) -> str:
    return escape(text, quote=True)


def _span(text: str, tone: Tone, cls: str = "") -> str:
    extra = f" {cls}" if cls else ""
    return f'<span class="t-{tone.value}{extra}">{_e(text)}</span>'


def _css(script: str) -> str:
    def variables(palette: dict[Tone, str], page: str, use: str, rule: str) -> str:
        return f"--page:{page};--use:{use};--rule:{rule};" + "".join(f"--{t.value}:{c};" for t, c in palette.items())

    tones = "\n".join(f".t-{t.value}{{color:var(--{t.value})}}" for t in Tone)
    return f"""
:root {{ {variables(LIGHT, LIGHT_PAGE, LIGHT_USE, LIGHT_RULE)} color-scheme: light dark; }}
@media (prefers-color-scheme: dark) {{ :root {{ {variables(DARK, DARK_PAGE, DARK_USE, DARK_RULE)} }} }}
html {{ background: var(--page); color: var(--plain); }}
body {{ margin: 0; font-family: {FONTS["s" if script == "s" else "t"]}; font-size: 16px; line-height: 1.55; }}
main {{ max-width: 60rem; margin: 0 auto; padding: 1.2rem 1.6rem 1rem; background: var(--page); }}
h1 {{ font-size: 1.4rem; margin: 0 0 .2rem; color: var(--strong); }}
h2 {{ font-size: 1rem; margin: 1.1rem 0 .4rem; padding-top: .6rem; border-top: 1px solid var(--rule); color: var(--strong); }}
p {{ margin: .15rem 0; }}
.small {{ font-size: .82rem; }}
.pillars b {{ color: var(--strong); }}
.scroll {{ overflow-x: auto; }}
table.lines {{ border-collapse: collapse; margin-top: .6rem; }}
table.lines caption {{ text-align: left; font-weight: bold; color: var(--strong); padding-bottom: .3rem; }}
table.lines th {{ font-weight: normal; font-size: .82rem; color: var(--quiet); text-align: left; padding: 0 .7rem .2rem 0; white-space: nowrap; }}
table.lines td {{ padding: .28rem .7rem .28rem 0; vertical-align: middle; white-space: nowrap; background: var(--page); }}
table.lines td.tags {{ white-space: normal; font-size: .82rem; color: var(--quiet); min-width: 12rem; }}
table.lines tr.use td {{ background: var(--use); }}
.bar {{ display: inline-flex; gap: .55rem; width: 4rem; height: .6rem; vertical-align: middle; }}
.bar i {{ flex: 1; background: var(--plain); border-radius: 1px; }}
.bar.quiet i {{ background: var(--quiet); }}
.bar.moving i {{ background: var(--strong); }}
.mark {{ display: inline-block; width: 1.1rem; text-align: center; font-weight: bold; }}
ul {{ list-style: none; margin: 0; padding: 0; }}
li {{ margin: .35rem 0; }}
ol {{ margin: .2rem 0; padding-left: 1.6rem; }}
blockquote {{ margin: .1rem 0 .1rem 1.2rem; }}
cite {{ font-style: normal; font-size: .82rem; color: var(--quiet); margin-left: .4rem; }}
footer {{ margin-top: 1.2rem; text-align: right; font-size: .75rem; color: var(--quiet); }}
{tones}
@media (max-width: 40rem) {{
  body {{ font-size: 15px; }}
  main {{ padding: .8rem .7rem; }}
  table.lines td {{ padding-right: .45rem; }}
}}
@page {{ size: A4; margin: 10mm; }}
@media print {{
  :root {{ {variables(LIGHT, "#ffffff", LIGHT_USE, LIGHT_RULE)} }}
  body {{ font-size: 9.5pt; line-height: 1.4; }}
  main {{ max-width: none; padding: 0; }}
  h2 {{ margin: .6rem 0 .25rem; padding-top: .35rem; }}
  table.lines td {{ padding: .12rem .6rem .12rem 0; }}
  li {{ margin: .15rem 0; }}
  section, table.lines tr {{ break-inside: avoid; }}
}}
"""


def draw_html(view: ChartView) -> str:
    """The page of a chart: a whole HTML5 document."""

    def tr(s: str) -> str:
        return convert(s, view.script)

    lang = "zh-Hans" if view.script == "s" else "zh-Hant"
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{lang}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">',
        f"<title>{_e(view.title)} · yimao</title>",
        f"<style>{_css(view.script)}</style>",
        "</head>",
        "<body>",
        "<main>",
        *_header(view, tr),
        *_chart(view, tr),
        *_findings(view, tr),
        *_stars(view, tr),
        *(_case(view, tr) if view.case is not None else []),
        f"<footer>{_e(view.footer)}</footer>",
        "</main>",
        "</body>",
        "</html>",
        "",
    ]
    return xml_safe("\n".join(parts))


def _header(view: ChartView, tr: Callable[[str], str]) -> list[str]:
    pillars = " ".join(f"<b>{_e(v)}</b>{_span(label, Tone.QUIET, 'small')}" for v, label in view.pillars)
    head = _span(tr("四柱" if view.moment else "据四柱"), Tone.QUIET, "small")
    out = [
        "<header>",
        f"<h1>{_e(view.title)}</h1>",
        f'<p class="pillars">{head} {pillars}　{_span(tr("旬空"), Tone.QUIET, "small")} {_e(view.kong)}　{_span(tr("月破"), Tone.QUIET, "small")} {_e(view.po)}</p>',
    ]
    if view.moment:
        out.append(f'<p class="small t-quiet">{_e(view.moment)}　{_e(tr("节"))} {_e(view.jie)}</p>')
    return [*out, "</header>"]


def _bar(yang: bool, cls: str, tr: Callable[[str], str]) -> str:
    return f'<span class="bar {cls}" role="img" aria-label="{tr("阳" if yang else "阴")}">' + ("<i></i>" if yang else "<i></i><i></i>") + "</span>"


def _chart(view: ChartView, tr: Callable[[str], str]) -> list[str]:
    spirit = any(ln.spirit for ln in view.lines)
    hidden = any(ln.hidden for ln in view.lines)
    changed = {ch.position: ch for ch in view.changed_lines}
    caption = f"{_e(tr('本卦'))} {_e(view.main.name)} {_span(view.main.place, Tone.QUIET, 'small')}"
    if view.changed is not None:
        caption += f"　{_e(tr('之卦'))} {_e(view.changed.name)} {_span(view.changed.place, Tone.QUIET, 'small')}"
    caption += f"　{_span(tr('互卦') + ' ' + view.nuclear, Tone.QUIET, 'small')}"
    heads = [
        *([tr("六神")] if spirit else []),
        *([tr("伏神")] if hidden else []),
        tr("六亲干支"),
        "",
        tr("世应"),
        *([tr("变卦"), ""] if changed else []),
        tr("爻象"),
    ]
    out = ['<section class="chart">', '<div class="scroll">', '<table class="lines">', f"<caption>{caption}</caption>"]
    out.append("<thead><tr>" + "".join(f"<th>{_e(h)}</th>" for h in heads) + "</tr></thead>")
    out.append("<tbody>")
    for ln in view.lines:
        out.append(_row(ln, changed.get(ln.position), spirit, hidden, bool(changed), tr))
    out.append("</tbody></table></div>")  # on a narrow screen the table scrolls, not the page
    out.append('<p class="small t-quiet">' + "　".join(_e(f) for f in view.facts) + "</p>")
    return [*out, "</section>"]


def _row(ln: LineView, ch: ChangedView | None, spirit: bool, hidden: bool, changing: bool, tr: Callable[[str], str]) -> str:
    cells = []
    if spirit:
        cells.append(_span(ln.spirit, Tone.QUIET))
    if hidden:
        used = ln.hidden_use
        cells.append(f"<b>{_span(ln.hidden, ln.hidden_tone)}</b>" if used else _span(ln.hidden, Tone.QUIET))
    text = _span(ln.text, ln.tone)
    cells.append(f"<b>{text}</b>" if ln.use else text)
    mark = _span("○" if ln.yang else "×", Tone.MOVING, "mark") if ln.moving else '<span class="mark"></span>'
    cells.append(_bar(ln.yang, "moving" if ln.moving else "", tr) + " " + mark)
    cells.append(f"<b>{_span(ln.mark, Tone.STRONG)}</b>" if ln.mark else "")
    if changing:
        if ch is not None:
            cells.append(_bar(ch.yang, "" if ch.moved else "quiet", tr))
            cells.append(_span(ch.text, ch.tone if ch.moved else Tone.QUIET))
        else:
            cells += ["", ""]
    tags = [_e(t) for t in ln.tags]
    if ln.hidden_state:
        tags.append(f"<b>{_span(tr('伏'), Tone.PLAIN)}</b> " + " ".join(_e(t) for t in ln.hidden_state))
    if ch is not None and ch.moved and ch.state:
        tags.append(f"<b>{_span(tr('变'), Tone.PLAIN)}</b> " + " ".join(_e(t) for t in ch.state))
    cells.append(" ".join(tags))
    tds = "".join(f'<td class="tags">{c}</td>' if i == len(cells) - 1 else f"<td>{c}</td>" for i, c in enumerate(cells))
    return f'<tr class="use">{tds}</tr>' if ln.use or ln.hidden_use else f"<tr>{tds}</tr>"


def _quote(quote: str, passage: str) -> str:
    return f"<blockquote>「{_e(quote)}」<cite>{_e(passage)}</cite></blockquote>" if quote else ""


def _finding(f: FindingView) -> str:
    head = f"<p>{_span('✓', Tone.HELD)} <b>{_e(f.rule)}</b> {_e(f.head)}</p>"
    reasons = f'<p class="small t-quiet">{_e(f.reasons)}</p>' if f.reasons else ""
    topic = f'<p class="small t-quiet">{_e(f.topic)}</p>' if f.topic else ""
    return f"<li>{head}{reasons}{_quote(f.quote, f.passage)}{topic}</li>"


def _findings(view: ChartView, tr: Callable[[str], str]) -> list[str]:
    out = ['<section class="findings">', f"<h2>{_e(tr('所成之断'))}</h2>"]
    if view.findings:
        out += ["<ul>", *(_finding(f) for f in view.findings), "</ul>"]
    else:
        out.append(f'<p class="t-quiet">{_e(tr("无成立之断"))}</p>')
    counts = []
    for rule, held, missed in view.families:
        said = (f" ✓{held}" if held else "") + (f" ×{missed}" if missed else "")
        counts.append(_e(rule + (said or f" {tr('无')}")))
    out.append('<p class="small t-quiet">' + "　".join(counts) + "</p>")
    return [*out, "</section>"]


def _stars(view: ChartView, tr: Callable[[str], str]) -> list[str]:
    if not (view.stars or view.conditions or view.day_stars):
        return []
    out = ['<section class="stars">', f"<h2>{_e(tr('神煞 · 各伺其动（月日之星为重，先列）'))}</h2>", "<ul>"]
    for s in view.stars:
        items = [_span(f"{tr('爻')}{s.position}", Tone.QUIET, "small")]
        items += [f"<b>{_span('✓' + n, Tone.HELD)}</b>" for n in s.held]
        for nature, tone, names in s.named:
            items.append(f"<b>{_span(nature, tone, 'small')}</b> " + " ".join(_span(n, tone) for n in names))
        if s.counts:
            items.append(_span(s.counts, Tone.QUIET, "small"))
        out.append("<li>" + " ".join(items) + "</li>")
    for c in view.conditions:
        lines = f" {_span(tr('爻') + c.lines, Tone.QUIET, 'small')}" if c.lines else ""
        out.append(f"<li>{_span('✓', Tone.HELD)} <b>{_e(c.star)}</b> {_e(c.effect)}{lines}{_quote(c.quote, c.passage)}</li>")
    if view.day_stars:
        out.append(f"<li>{_span(tr('值日'), Tone.QUIET, 'small')} " + " ".join(_e(n) for n in view.day_stars) + "</li>")
    return [*out, "</ul>", "</section>"]


def _case(view: ChartView, tr: Callable[[str], str]) -> list[str]:
    case = view.case
    assert case is not None
    out = ['<section class="case">', f"<h2>{_e(tr(f'卦例 {case.number}'))}</h2>"]
    out.append(f"<p>{_span(tr('问'), Tone.QUIET, 'small')} <b>{_e(case.question or '—')}</b></p>")
    if case.tags:
        out.append(f"<p>{_span(tr('标签'), Tone.QUIET, 'small')} " + " · ".join(_e(t) for t in case.tags) + "</p>")
    if case.notes:
        out += ["<ol>", *(f"<li>{_e(n)}</li>" for n in case.notes), "</ol>"]
    if case.outcome:
        out.append(f"<p>{_span(tr('应验'), Tone.QUIET, 'small')} <b>{_e(case.outcome)}</b></p>")
    return [*out, "</section>"]
