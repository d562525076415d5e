"""Rich tables and panels for the terminal. The only module that imports rich.

Lines are drawn from 上爻 down to 初爻, as books draw them. Yang ▅▅▅▅▅, yin ▅▅ ▅▅; a moving
line carries ○ (老阳) or × (老阴).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from yimao.chart import Chart, ChartLine
from yimao.hexagram import Hexagram
from yimao.pillars import FourPillars
from yimao.script import to_traditional

YANG = "▅▅▅▅▅"
YIN = "▅▅ ▅▅"
_ELEMENT_STYLE = {"木": "green", "火": "red", "土": "yellow", "金": "bright_white", "水": "cyan"}


# The width of the tables: COLUMNS when it is a whole number, else the terminal's, else (a pipe or
# a file) PIPE_WIDTH, which fits a chart where Rich's 80 cuts its cells; always within
# MIN_WIDTH..MAX_WIDTH. Narrower than 80 the panels fall apart (COLUMNS=1 gave fragments, 0 nothing
# at all); wider than 250 only pads every line (COLUMNS=100000 made a 15 MB chart). Rich is given
# the width and height itself: it would read COLUMNS and LINES with int(), which fails on a
# number of more than 4,300 digits.
MIN_WIDTH = 80
PIPE_WIDTH = 120
MAX_WIDTH = 250


def make_console(file=None, width: int | None = None, *, stderr: bool = False, min_width: int = MIN_WIDTH) -> Console:
    import os

    terminal = None
    con = Console(file=file, stderr=stderr, highlight=False, soft_wrap=False, width=MIN_WIDTH, height=25)
    if con.is_terminal:
        try:
            terminal = os.get_terminal_size(con.file.fileno())
        except (AttributeError, OSError, ValueError):  # FORCE_COLOR on a pipe: is_terminal, with no size
            pass
    if width is None:
        width = _env_size("COLUMNS") or (terminal.columns if terminal else PIPE_WIDTH) or 80  # (a pseudo-terminal may say 0 by 0)
    height = _env_size("LINES") or (terminal.lines if terminal else 0) or 25
    con.size = (min(max(width, min_width), MAX_WIDTH), min(height, 10_000))
    return con


def _env_size(name: str) -> int | None:
    """A variable such as COLUMNS as a positive whole number (a long one as 99999), or None: unset,
    empty, 0, negative or not a number is as if unset."""
    import os

    text = os.environ.get(name, "").strip()
    if not (text.isascii() and text.isdigit()):
        return None
    text = text.lstrip("0")
    return None if not text else 99_999 if len(text) > 5 else int(text)


class _Script:
    def __init__(self, traditional: bool) -> None:
        self.traditional = traditional

    def __call__(self, s: str) -> str:
        return to_traditional(s) if self.traditional else s


def glyph(yang: bool, moving: bool) -> Text:
    t = Text(YANG if yang else YIN, style="bold" if moving else "")
    if moving:
        t.append(" ○" if yang else " ×", style="bold magenta")
    else:
        t.append("  ")
    return t


def _element(s: str) -> str:
    return _ELEMENT_STYLE.get(s, "")


# --- pillars --------------------------------------------------------------------------------


def pillars_panel(p: FourPillars, tr: Callable[[str], str]) -> Panel:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    pillars = Text()
    for (_name, value), label in zip(p.items(), ("年", "月", "日", "时")):
        pillars.append(tr(str(value)) if value is not None else "—", style="bold")
        pillars.append(tr(label) + "  ", style="dim")
    grid.add_row(tr("四柱"), pillars)
    xk = p.xunkong
    grid.add_row(tr("旬空"), "".join(b.value for b in xk) if xk else Text("— (日干未知)", style="dim"))
    grid.add_row(tr("月破"), p.yuepo.value if p.yuepo else Text("—", style="dim"))
    ctx = p.context
    title = tr("时间")
    if ctx is not None:
        grid.add_row(tr("农历"), tr(str(ctx.lunar)) if ctx.lunar else Text("—", style="dim"))
        j, nj = ctx.jie, ctx.next_jie
        tz = ctx.moment.tzinfo
        grid.add_row(
            tr("节"),
            f"{tr(j.name)} {j.instant.astimezone(tz):%Y-%m-%d %H:%M:%S}  →  {tr(nj.name)} {nj.instant.astimezone(tz):%Y-%m-%d %H:%M:%S}",
        )
        near = ctx.near_jie
        if near is not None:
            grid.add_row("", Text(f"⚠ {tr(near[0].name)} {near[1]:+.0f} s: the month pillar depends on seconds", style="bold yellow"))
        grid.add_row(
            tr("约定"),
            Text(
                f"{ctx.moment.isoformat(timespec='minutes')}  zone {ctx.tz_name} ({ctx.tz_source})  "
                f"day starts {ctx.day_start:02d}:00{' (子初换日)' if ctx.day_start == 23 else ' (晚子时)'}",
                style="dim",
            ),
        )
    else:
        title = tr("四柱 (given)")
    return Panel(grid, title=title, title_align="left", box=box.ROUNDED, expand=False)


def render_pillars(p: FourPillars, console: Console, traditional: bool = False) -> None:
    console.print(pillars_panel(p, _Script(traditional)))


# --- hexagram ---------------------------------------------------------------------------------


def _hex_title(h: Hexagram, tr: Callable[[str], str]) -> str:
    return f"{h.unicode} {tr(h.name)}  {tr(h.palace.value)}{tr('宫')}{tr(h.generation.value)}"


def render_chart_table(chart: Chart, console: Console, traditional: bool = False) -> None:
    """The 纳甲 chart of a cast without a date (`yimao hex`): the table and the line of facts
    that `cast` shows, without pillars, findings or stars."""
    tr = _Script(traditional)
    console.print(Group(chart_table(chart, tr), chart_notes(chart, tr)))


# --- the chart --------------------------------------------------------------------------------


def chart_table(chart: Chart, tr: Callable[[str], str], line_stars: Mapping[int, Sequence[str]] | None = None) -> Table:
    h = chart.hexagram
    ch = chart.changed_hexagram
    title = _hex_title(h, tr)
    if ch is not None:
        title += f"   {tr('之')}   {_hex_title(ch, tr)}"
    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", pad_edge=False)
    table.add_column(tr("六神"))
    table.add_column(tr("伏神"), style="dim")
    table.add_column(tr("本卦"))
    table.add_column("")
    table.add_column(tr("世应"))
    table.add_column(tr("变卦"))
    table.add_column(tr("爻象"), overflow="fold")
    if line_stars:
        table.add_column(tr("神煞"), overflow="fold")
    for cl in reversed(chart.lines):
        row = _line_row(cl, tr)
        if line_stars:
            row.append(Text(" ".join(tr(s) for s in line_stars.get(cl.position, ())), style="dim"))
        table.add_row(*row)
    return table


def _line_row(cl: ChartLine, tr: Callable[[str], str]) -> list[Any]:
    line = cl.line
    hidden = ""
    if cl.hidden is not None:
        hl = cl.hidden.line
        hidden = tr(f"{hl.relative.value}{hl.stem.value}{hl.branch.value}{hl.element.value}")
    changed: Any = ""
    if cl.changed is not None:
        c = cl.changed
        changed = Text.assemble(
            glyph(c.yang, False)[:5],
            " ",
            (tr(f"{c.relative.value}{c.stem.value}{c.branch.value}{c.element.value}"), _element(c.element.value)),
        )
    mark = "世" if cl.shi else "应" if cl.ying else ""
    return [
        tr(cl.spirit.value) if cl.spirit else "",
        hidden,
        Text(tr(f"{line.relative.value}{line.stem.value}{line.branch.value}{line.element.value}"), style=_element(line.element.value)),
        glyph(line.yang, cl.moving),
        Text(tr(mark), style="bold"),
        changed,
        Text(" ".join(tr(t) for t in cl.tags()), style="dim"),
    ]


def render_cast(
    chart: Chart,
    console: Console,
    *,
    traditional: bool = False,
    explain: bool = False,
    use_note: str | None = None,
    sections: Sequence[Any] = (),
    line_stars: Mapping[int, Sequence[str]] | None = None,
) -> None:
    tr = _Script(traditional)
    parts: list[Any] = [pillars_panel(chart.pillars, tr), chart_table(chart, tr, line_stars), chart_notes(chart, tr, use_note)]
    parts.extend(sections)
    console.print(Group(*parts))


def chart_notes(chart: Chart, tr: Callable[[str], str], use_note: str | None = None) -> Text:
    """The line under the chart: what holds of the hexagram with no date (六冲/六合, 伏吟/反吟,
    卦身), the coins, and the 用神 when one is named."""
    notes = []
    if chart.features:
        notes.append(" ".join(tr(f) for f in chart.features))
    notes.append(f"{tr('卦身')} {chart.hexagram.guashen.value}   coins {chart.cast.coins()}")
    if use_note:
        notes.append(tr(use_note))
    return Text("   ".join(notes), style="dim")


# --- a full reading: chart, findings, stars ------------------------------------------------

RULE_ORDER = ("助鬼伤身", "局会", "三刑", "墓开", "六害")


def _quote_lines(text: Sequence[Any], tr: Callable[[str], str], explain: bool, dim: bool) -> list[Text]:
    out = []
    for q in text:
        line = Text("    「", style="dim", overflow="fold")
        line.append(tr(q.original), style="dim italic" if dim else "italic")
        line.append(f"」 {q.passage}", style="dim")
        out.append(line)
        if explain:
            out.append(Text(f"      {tr(q.vernacular)}", style="dim", overflow="fold"))
    return out


def _member_text(m: Any, tr: Callable[[str], str]) -> str:
    where = f"{m.source.value}{m.position}" if m.position else m.source.value
    role = f"{m.role}:" if m.role else ""
    return tr(f"{role}{m.branch.value}({where})")


def findings_sections(findings: Sequence[Any], tr: Callable[[str], str], explain: bool) -> list[Any]:
    """A panel per rule, in the book's order (rules not in it after): what holds first, then near misses."""
    parts: list[Any] = []
    rules = list(dict.fromkeys([*RULE_ORDER, *(f.rule for f in findings)]))
    for rule in rules:
        group = [f for f in findings if f.rule == rule]
        if not group:
            continue
        group.sort(key=lambda f: not f.holds)  # what holds first, then near misses
        body: list[Any] = []
        for f in group:
            body.extend(_finding_lines(f, rule, tr, explain))
        parts.append(Panel(Group(*body), title=tr(rule), title_align="left", box=box.ROUNDED))
    return parts


def _finding_lines(f: Any, rule: str, tr: Callable[[str], str], explain: bool) -> list[Any]:
    """One finding: its head line (mark, label, lines, members), its reasons and its quotes."""
    dim = "" if f.holds else "dim"
    head = Text.assemble(Text("✔ " if f.holds else "✘ ", style="bold green" if f.holds else "dim"))
    head.append(tr(_finding_label(f, rule) or rule), style="bold" if f.holds else "dim")
    if f.lines:
        head.append(f"  爻 {','.join(map(str, f.lines))}", style=dim)
    if f.members:
        head.append("  " + " ".join(_member_text(m, tr) for m in f.members), style="cyan" if f.holds else "dim")
    lines: list[Any] = [head]
    lines.extend(Text(f"    {tr(r)}", style=dim, overflow="fold") for r in f.reasons)
    lines.extend(_quote_lines(f.text, tr, explain, dim=not f.holds))
    return lines


def _finding_label(f: Any, rule: str) -> str:
    """Kind, element (a 局 under 局会) and 六亲 of a finding, those it has."""
    element = None
    if f.element:
        element = f"{f.element.value}局" if rule == "局会" else f.element.value
    return " ".join(x for x in (f.kind, element, f.relative.value if f.relative else None) if x)


def stars_section(stars: Sequence[Any], tr: Callable[[str], str], explain: bool) -> list[Any]:
    if not stars:
        return []
    active = [s for s in stars if s.active or s.on_use]
    dormant = [s for s in stars if not (s.active or s.on_use)]
    body: list[Any] = []
    shown: set[str] = set()
    for s in active:
        head = Text("★ ", style="bold yellow")
        head.append(tr(s.star.label), style="bold")
        head.append(f" {tr(s.star.nature)}  ", style="")
        head.append(tr(" ".join(s.positions)) + "  ", style="cyan")
        head.append(tr(s.where_text()), style="")
        if s.star.topics:
            head.append("  " + tr("/".join(s.star.topics)), style="dim")
        body.append(head)
        q = s.star.quote
        if q is not None and q.original in shown:
            body.append(Text(f"    「…」 {q.passage} {tr('同上')}", style="dim"))
        elif q is not None:
            shown.add(q.original)
            body.extend(_quote_lines([q], tr, explain, dim=not s.active))
    if dormant:
        t = Text("静 ", style="dim")
        t.append(tr("  ".join(f"{s.star.label}({s.where_text()})" for s in dormant)), style="dim")
        body.append(t)
    return [Panel(Group(*body), title=tr("神煞 (各伺其动)"), title_align="left", box=box.ROUNDED)]


def render_reading(reading: Any, console: Console, *, traditional: bool = False, explain: bool = False) -> None:
    from yimao.pipeline import use_note

    tr = _Script(traditional)
    chart = reading.chart
    # the chart's column shows the stars that act (各伺其动): on a moving line, its 变爻 or a lifted 伏神
    line_stars: dict[int, list[str]] = {}
    for s in reading.stars.placements:
        for pos in sorted({h.position for h in s.hits if h.moving}):
            line_stars.setdefault(pos, []).append(s.star.label)
    sections = findings_sections(reading.findings, tr, explain) + stars_section(reading.stars.placements, tr, explain)
    render_cast(
        chart,
        console,
        traditional=traditional,
        explain=explain,
        use_note=use_note(reading.use),
        sections=sections,
        line_stars=line_stars or None,
    )


# --- the book ------------------------------------------------------------------------------


def render_passage_list(passages: Sequence[Any], console: Console, traditional: bool = False) -> None:
    tr = _Script(traditional)
    table = Table(box=box.SIMPLE_HEAD, title=tr("《易冒》卷六"), title_justify="left", pad_edge=False)
    table.add_column("id", style="bold")
    table.add_column(tr("起句"))
    for p in passages:
        table.add_row(p.id, tr(p.first_words) + "…")
    console.print(table)


def render_passages(passages: Sequence[Any], console: Console, query: str, traditional: bool = False) -> None:
    tr = _Script(traditional)
    for p in passages:
        table = Table(box=box.ROUNDED, show_header=True, expand=True, title=f"{p.id}", title_justify="left")
        table.add_column(tr("原文"), ratio=1, overflow="fold")
        table.add_column(tr("白话"), ratio=1, style="dim", overflow="fold")
        table.add_row(_highlight(tr(p.original), tr(query)), _highlight(tr(p.vernacular), tr(query)))
        console.print(table)


def _highlight(text: str, query: str) -> Text:
    t = Text(text)
    if query:
        t.highlight_words([query], style="bold yellow")
    return t


# --- stars --------------------------------------------------------------------------------------


def _star_head(star: Any, tr: Callable[[str], str]) -> Text:
    t = Text()
    t.append(tr(star.label), style="bold")
    if star.aliases:
        t.append(f" ({tr('、'.join(star.aliases))})", style="dim")
    t.append(f"  {star.id}  {tr(star.group)}  {tr(star.nature)}  basis {star.basis}", style="dim")
    if star.topics:
        t.append("  " + tr("/".join(star.topics)), style="cyan")
    return t


def _table_grid(table: dict[str, Any], tr: Callable[[str], str], title: str) -> Table:
    grid = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", pad_edge=False)
    keys = list(table)
    nested = keys and isinstance(table[keys[0]], dict)
    if nested:
        inner = list(table[keys[0]])
        grid.add_column("")
        for k in inner:
            grid.add_column(tr(k))
        for k in keys:
            grid.add_row(tr(k), *[tr("".join(table[k][i])) or "—" for i in inner])
        return grid
    for chunk in range(0, len(keys), 12):
        part = keys[chunk : chunk + 12]
        for k in part:
            grid.add_column(tr(k), overflow="fold")
        grid.add_row(*[tr(" ".join(table[k])) or "—" for k in part])
        break
    if len(keys) > 12:  # the 60-cycle: one row per 旬
        grid = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", pad_edge=False)
        grid.add_column("")
        for i in range(10):
            grid.add_column(str(i + 1))
        for r in range(0, len(keys), 10):
            grid.add_row(tr(keys[r]) + "旬", *[tr(" ".join(table[k])) or "—" for k in keys[r : r + 10]])
    return grid


def render_star(
    star: Any, console: Console, *, traditional: bool = False, positions=None, variants=None, basis_text: str = "", explain: bool = True
) -> None:
    tr = _Script(traditional)
    parts: list[Any] = [_star_head(star, tr), Text(tr(star.rule))]
    if positions is not None:
        t = Text(f"{tr(basis_text)} → ", style="bold")
        t.append(tr(" ".join(positions)) or "—", style="bold yellow")
        parts.append(t)
        for reading, pos in variants or ():
            parts.append(Text(f"  {tr('异读')} {tr(reading)}: {tr(' '.join(pos or ())) or '—'}", style="dim"))
    elif star.placed:
        parts.append(_table_grid(star.table, tr, tr("本读")))
        for v in star.variants:
            parts.append(_table_grid(v.table, tr, f"{tr('异读')}: {tr(v.reading)} — {tr(v.reason)}"))
    else:
        parts.append(Text(tr("书中只列其名，未给起例，故无位置。"), style="dim"))
    parts.extend(_quote_lines(star.quotes, tr, explain=False, dim=False))
    for n in star.notes:
        parts.append(Text(f"  · {tr(n)}", style="dim", overflow="fold"))
    console.print(Panel(Group(*parts), box=box.ROUNDED, title=tr(star.label), title_align="left"))


def render_fixed_name(fixed: Any, console: Console, *, traditional: bool = False) -> None:
    """A name the text gives to a fixed branch (帝座, 黄泉杀 …): its branch and sentences."""
    tr = _Script(traditional)
    head = Text()
    head.append(tr(fixed.name), style="bold")
    if fixed.aliases:
        head.append(f" ({tr('、'.join(fixed.aliases))})", style="dim")
    head.append(f"  {tr(fixed.group)}", style="dim")
    where = Text(f"{tr(fixed.rule)} → ", style="bold")
    where.append(tr(fixed.position), style="bold yellow")
    parts: list[Any] = [head, where, Text(tr("宫名，非星：不随年月日移动，无起例，不落卦爻。"), style="dim")]
    parts.extend(_quote_lines(fixed.quotes, tr, explain=False, dim=False))
    for n in fixed.notes:
        parts.append(Text(f"  · {tr(n)}", style="dim", overflow="fold"))
    console.print(Panel(Group(*parts), box=box.ROUNDED, title=tr(fixed.name), title_align="left"))


def render_star_list(stars: Sequence[Any], console: Console, traditional: bool = False) -> None:
    tr = _Script(traditional)
    table = Table(box=box.SIMPLE_HEAD, title=tr("《易冒》卷六 神煞"), title_justify="left", pad_edge=False)
    table.add_column(tr("组"), style="bold")
    table.add_column(tr("星"), overflow="fold")
    groups: dict[str, list[Any]] = {}
    for s in stars:
        groups.setdefault(s.group, []).append(s)
    for g, members in groups.items():
        table.add_row(tr(g), "  ".join(tr(s.label) + ("" if s.placed else "°") for s in members))
    console.print(table)
    console.print(Text(f"{len(stars)} entries; ° named by the book without a rule", style="dim"))


def render_stars_for(rows: Sequence[tuple[Any, Any, Any]], pillars: FourPillars, console: Console, traditional: bool = False) -> None:
    tr = _Script(traditional)
    console.print(pillars_panel(pillars, tr))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("组", "星", "位", "吉凶", "异读"):
        table.add_column(tr(col), overflow="fold")
    for star, pos, variants in rows:
        alt = "; ".join(f"{r}: {' '.join(p or ())}" for r, p in variants if p is not None and p != pos)
        table.add_row(
            tr(star.group),
            tr(star.label),
            tr(" ".join(pos)) if pos is not None else Text("—", style="dim"),
            tr(star.nature),
            Text(tr(alt), style="dim"),
        )
    console.print(table)


def line_progress(total: int | None = None, position: Callable[[], int] | None = None):
    """The progress of `yimao batch` on stderr (a terminal): a bar over the input's `total`
    bytes when it is a file (`position` says how far it has been read), else a spinner; with the
    lines answered and the time. Updated every 64 lines: redrawing costs more than a chart."""
    from rich.progress import BarColumn, Progress, SpinnerColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    columns: list[Any] = [SpinnerColumn()]
    if total:
        columns += [BarColumn(), TaskProgressColumn(), TimeRemainingColumn()]
    columns += [TextColumn("{task.fields[lines]:,} lines"), TimeElapsedColumn()]
    progress = Progress(*columns, console=make_console(stderr=True, min_width=20), transient=True)
    task = progress.add_task("batch", total=total or None, lines=0)
    progress.start()

    def on_line(n: int) -> None:
        if n & 63 == 0:
            progress.update(task, completed=position() if position is not None else n, lines=n)

    return progress, on_line


def render_examples(results: Sequence[dict[str, Any]], console: Console, *, traditional: bool = False, explain: bool = False) -> None:
    tr = _Script(traditional)
    table = Table(box=box.SIMPLE_HEAD, title=tr("《易冒》卷六 书中例证"), title_justify="left", pad_edge=False, show_lines=False)
    table.add_column("", no_wrap=True)
    table.add_column(tr("例"), overflow="fold", ratio=2)
    table.add_column(tr("书云"), overflow="fold", ratio=2)
    table.add_column(tr("算得"), overflow="fold", ratio=2)

    def show(d: dict[str, Any]) -> str:
        return "  ".join(f"{k}={v if not isinstance(v, (list, dict)) else _compact(v)}" for k, v in d.items())

    for r in results:
        q = r["quote"]
        cell = Text(f"{r['rule']} {r['id']}\n", style="bold")
        cell.append(f"「{tr(q['original'])}」 {q['passage']}", style="italic")
        if explain:
            cell.append(f"\n{tr(q['vernacular'])}", style="dim")
        computed = {k: v for k, v in r["computed"].items() if k in r["expected"] or k == "reasons"}
        table.add_row(
            Text("✔", style="bold green") if r["agrees"] else Text("✘", style="bold red"),
            cell,
            tr(show(r["expected"])),
            Text(tr(show(computed)), style="dim" if r["agrees"] else "bold red"),
        )
    console.print(table)
    bad = sum(not r["agrees"] for r in results)
    console.print(Text(f"{len(results) - bad} of {len(results)} agree", style="bold green" if not bad else "bold red"))


def _compact(v: Any) -> str:
    if isinstance(v, dict):
        return " ".join(f"{k}:{x}" for k, x in v.items())
    return "、".join(map(str, v))
