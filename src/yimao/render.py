"""Rich tables and panels for the terminal. The only module that imports rich.

Lines are drawn from 上爻 down to 初爻, as books draw them. Yang ▅▅▅▅▅, yin ▅▅ ▅▅; a moving
line carries ○ (老阳) or × (老阴).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import IO, TYPE_CHECKING, Any, NamedTuple, cast

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from yimao.chart import Chart, ChartLine, changed_line
from yimao.ganzhi import Stage, stage
from yimao.hanzi import convert, script_of
from yimao.hexagram import Hexagram
from yimao.linebreak import cells, wrap_text
from yimao.pillars import FourPillars
from yimao.usertext import visible
from yimao.view import (
    ELEMENT_TONE,
    MOST_NAMES,
    NATURE_TONE,
    NATURES,
    Tone,
    changed_state,
    deciding_quote,
    family_counts,
    finding_label,
    hidden_state,
    line_cell,
    line_marks,
    member_text,
    otherwise_on_moving_lines,
    pick_stars,
    rules,
    star_label,
    stars_on_moving_lines,
)
from yimao.view import (
    facts as chart_facts_of,
)

if TYPE_CHECKING:
    from yimao.analysis.finding import Finding, Member

YANG = "▅▅▅▅▅"
YIN = "▅▅ ▅▅"

# Each tone of the view (`view.Tone`) as the terminal draws it. 金 in the terminal's own
# foreground: bright white vanished on a light background.
_TONE_STYLE = {
    Tone.PLAIN: "",
    Tone.QUIET: "dim",
    Tone.STRONG: "bold",
    Tone.MU: "green",
    Tone.HUO: "red",
    Tone.TU: "yellow",
    Tone.JIN: "default",
    Tone.SHUI: "cyan",
    Tone.JI: "green",
    Tone.XIONG: "red",
    Tone.MIXED: "yellow",
    Tone.MOVING: "bold magenta",
    Tone.HELD: "bold green",
}


# The width of the tables: COLUMNS when it is a whole number, else the terminal's, else (a pipe or
# a file) PIPE_WIDTH; always within MIN_WIDTH..MAX_WIDTH. From MIN_WIDTH up the cells of a chart's
# lines are whole (chart_table gives way elsewhere); narrower, cells and panels fall apart
# (COLUMNS=1 gave fragments, 0 nothing at all); wider than 250 only pads every line
# (COLUMNS=100000 made a 15 MB chart). Rich is given the width and height itself: it would read
# COLUMNS and LINES with int(), which fails on a number of more than 4,300 digits.
MIN_WIDTH = 60
PIPE_WIDTH = 120
MAX_WIDTH = 250


# Every console reads strings as text: no Rich markup ([red], [link=…]) and no emoji codes
# (:smile:) are read in anything printed, so a question or a note is shown as typed (and what
# yimao prints itself is Text and styles, never markup).
def make_console(file=None, width: int | None = None, *, stderr: bool = False, min_width: int = MIN_WIDTH) -> Console:
    import os

    terminal = None
    con = Console(file=file, stderr=stderr, highlight=False, markup=False, emoji=False, soft_wrap=False, width=MIN_WIDTH, height=25)
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
    """Strings in the script asked for (`hanzi.SCRIPTS`: False or "s" simplified, True or "t"
    traditional, "tw", "hk"). Given the console, it also converts whatever else is printed on it,
    so that no string escapes conversion; what `tr` converted first is left as it is (a fixed point)."""

    def __init__(self, traditional: bool | str, console: Console | None = None) -> None:
        self.script = script_of(traditional)
        self.traditional = self.script != "s"
        if self.traditional and console is not None and not isinstance(console.file, _Converting):
            console.file = cast(IO[str], _Converting(console.file, self.script))

    def __call__(self, s: str) -> str:
        return convert(s, self.script) if self.traditional else s


class _Converting:
    """A text stream that writes what it is given in another script."""

    def __init__(self, file: Any, script: str) -> None:
        self._file = file
        self.script = script

    def write(self, text: str) -> int:
        return self._file.write(convert(text, self.script))

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, flush, encoding: the stream's own
        return getattr(self._file, name)


def glyph(yang: bool, moving: bool) -> Text:
    t = Text(YANG if yang else YIN, style="bold" if moving else "")
    if moving:
        t.append(" ○" if yang else " ×", style="bold magenta")
    else:
        t.append("  ")
    return t


def _element(element: Any) -> str:
    return _TONE_STYLE[ELEMENT_TONE[element]]


def _wrapped(s: str, width: int, style: str = "", indent: str = "") -> list[Text]:
    return [Text(line, style=style, no_wrap=True, overflow="ignore") for line in wrap_text(s, width, indent=indent)]


def _indented(s: str, width: int, style: str = "", first: str = "    ", rest: str | None = None) -> list[Text]:
    """`s` wrapped within `width` cells, its first line after `first` and the others after `rest`
    (the same by default)."""
    rest = first if rest is None else rest
    lines = wrap_text(s, width - cells(rest), indent="")
    if lines and cells(first) > cells(rest):  # the first line has less room: lay it out again
        lines = wrap_text(s, width - cells(first), indent="")
    return [Text((first if i == 0 else rest) + line, style=style, no_wrap=True, overflow="ignore") for i, line in enumerate(lines)]


# --- pillars --------------------------------------------------------------------------------

_TZ_SOURCE = {"offset": "取自日期", "--tz": "取自 --tz", "system": "本机"}


def _day_start_label(day_start: int) -> str:
    return "子初换日 (23:00)" if day_start == 23 else "晚子时 (0:00 换日)"


def pillars_panel(p: FourPillars, tr: Callable[[str], str]) -> Panel:
    """The moment in full (`--explain`, `yimao pillars`): pillars, 旬空, 月破, 农历, the 节 and the conventions."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column(overflow="fold")  # at spaces; a date or a zone is one word
    grid.add_row(tr("四柱"), _pillar_text(p, tr))
    xk = p.xunkong
    grid.add_row(tr("旬空"), "".join(b.value for b in xk) if xk else Text(tr("— (日干未知)"), style="dim"))
    grid.add_row(tr("月破"), p.yuepo.value if p.yuepo else Text("—", style="dim"))
    ctx = p.context
    title = tr("时间")
    if ctx is not None:
        grid.add_row(tr("农历"), tr(str(ctx.lunar)) if ctx.lunar else Text("—", style="dim"))
        grid.add_row(tr("节"), _jie_text(ctx, tr, seconds=True))
        grid.add_row(tr("时刻"), Text(tr(_zone_text(ctx)), style="dim"))
    else:
        title = tr("据四柱")
    return Panel(grid, title=title, title_align="left", box=box.ROUNDED, expand=False)


def _pillar_text(p: FourPillars, tr: Callable[[str], str]) -> Text:
    pillars = Text()
    for (_name, value), label in zip(p.items(), ("年", "月", "日", "时")):
        if value is None and label != "日":
            continue  # a pillar not given is not shown, but the day says it is missing
        pillars.append(tr(str(value)) if value is not None else "—", style="bold")
        pillars.append(tr(label) + " ", style="dim")
    pillars.rstrip()
    return pillars


def _jie_text(ctx: Any, tr: Callable[[str], str], *, seconds: bool) -> str:
    j, nj = ctx.jie, ctx.next_jie
    tz = ctx.moment.tzinfo
    form = "%Y-%m-%d %H:%M:%S" if seconds else "%m-%d %H:%M"
    return f"{tr(j.name)} {j.instant.astimezone(tz):{form}} → {tr(nj.name)} {nj.instant.astimezone(tz):{form}}"


def _zone_text(ctx: Any) -> str:
    """The moment as read: wall time, zone (and where it came from), the day's start."""
    return f"{ctx.moment:%Y-%m-%d %H:%M}  时区 {ctx.tz_name} ({_TZ_SOURCE.get(ctx.tz_source, ctx.tz_source)})  {_day_start_label(ctx.day_start)}"


def pillars_lines(p: FourPillars, tr: Callable[[str], str], width: int) -> list[Text]:
    """The moment in two or three lines (the default `cast`): the pillars with 旬空 and 月破; the
    moment, zone and day start with the 农历; the 节 on either side."""
    head = Text()
    head.append(tr("据四柱" if p.context is None else "四柱") + "  ", style="bold")
    head.append_text(_pillar_text(p, tr))
    xk = p.xunkong
    head.append(f"  {tr('旬空')} ", style="dim")
    head.append("".join(b.value for b in xk) if xk else "—")
    head.append(f"  {tr('月破')} ", style="dim")
    head.append(p.yuepo.value if p.yuepo else "—")
    out = [head]
    ctx = p.context
    if ctx is not None:
        lunar = f"  {tr('农历')}{tr(str(ctx.lunar))}" if ctx.lunar else ""
        out.extend(_wrapped(tr(f"{_zone_text(ctx)}") + lunar, width, "dim", "  "))
        out.extend(_wrapped(f"{tr('节')}  {_jie_text(ctx, tr, seconds=False)}", width, "dim", "  "))
    return out


def render_pillars(p: FourPillars, console: Console, traditional: bool | str = False) -> None:
    console.print(pillars_panel(p, _Script(traditional, console)))


# --- the chart --------------------------------------------------------------------------------

# The table is the hexagram as one figure: at any width from MIN_WIDTH each of the six lines is
# one row at ONE_ROW_WIDTH columns and more, at most two below, and the cells of the lines (六神,
# 伏神, 本卦, the line, its marks, the 变卦) are never wrapped. Stars are never a column of it: the
# stars acting on each line are listed under the chart (`stars_by_line`). What yields to the
# width, in order: the 变卦's drawn line (its yin or yang is the moving line's opposite), the gap
# between columns, and the 爻象 column, which stays in the table only while every line's 爻象
# fits its row budget, else becomes a list under the table, a line each.
ONE_ROW_WIDTH = 100
TAGS_MIN = 14


def _hex_title(h: Hexagram, tr: Callable[[str], str]) -> str:
    return f"{h.unicode} {tr(h.name)}  {tr(h.palace.value)}{tr('宫')}{tr(h.generation.value)}"


class LineStar(NamedTuple):
    """A star on a line of the table: its label and its nature (吉, 凶, 吉凶, 未详)."""

    label: str
    nature: str


GROUP_SEP = ("·", "dim")  # a piece between groups of pieces: never at the start or end of a line


def stars_by_nature(stars: Sequence[LineStar], tr: Callable[[str], str]) -> list[tuple[str, str]]:
    """A line's stars as pieces to lay out, grouped by nature (吉 first, then 凶, 吉凶, 未详),
    each group led by its nature: [(piece, style)]. A name is one piece, never split."""
    out: list[tuple[str, str]] = []
    for nature in NATURES:
        names = [tr(s.label) for s in stars if s.nature == nature]
        if names:
            if out:
                out.append(GROUP_SEP)
            style = _TONE_STYLE[NATURE_TONE[nature]]
            out.append((tr(nature), f"bold {style}"))
            out.extend((n, style if nature != "未详" else "") for n in names)
    return out


def _pieces_text(pieces: Sequence[tuple[str, str]], width: int, indent: str = "", sep: str = " ") -> list[Text]:
    """Styled pieces (names, never split) in lines of at most `width` cells, `sep` between two on
    a line, each line after the first after `indent`."""
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0
    for piece in pieces:
        w = cells(piece[0])
        if lines[-1] and used + cells(sep) + w > width:
            lines.append([])
            used = cells(indent)
        elif lines[-1]:
            used += cells(sep)
        lines[-1].append(piece)
        used += w
    out = []
    for i, line in enumerate(_without_edge_separators(lines)):
        t = Text(indent if i else "", no_wrap=True, overflow="ignore")
        for j, (text, style) in enumerate(line):
            if j:
                t.append(sep, style="dim")
            t.append(text, style=style)
        out.append(t)
    return out


def _without_edge_separators(lines: list[list[tuple[str, str]]]) -> list[list[tuple[str, str]]]:
    """The lines without a group separator where a line breaks (it separates nothing there)."""
    out = []
    for line in lines:
        while line and line[0] == GROUP_SEP:
            line = line[1:]
        while line and line[-1] == GROUP_SEP:
            line = line[:-1]
        if line:
            out.append(line)
    return out or [[]]


class _Column(NamedTuple):
    header: str
    cells: list[Any]
    width: int  # its content's widest cell (or header)


def chart_table(
    chart: Chart,
    tr: Callable[[str], str],
    width: int,
    *,
    marks: Mapping[int, str] | None = None,
    changed_full: bool | None = None,
) -> list[Any]:
    """The chart's table, and under it what of the 爻象 did not fit in it (a list, a line each).
    Lines from 上爻 down. Columns are two cells apart, or one when the lines' cells would not fit
    otherwise. The 变卦 column holds the whole 之卦 with `changed_full`, its 变爻 alone without;
    None (the default) chooses by the width: the whole 之卦 from ONE_ROW_WIDTH columns."""
    rows = list(reversed(chart.lines))
    marks = marks if marks is not None else line_marks(chart)
    own = [[(tr(t), "dim") for t in cl.tags()] for cl in rows]
    hidden = [_hidden_state(cl, tr) for cl in rows]
    changed = [_changed_state(cl, tr, chart) for cl in rows]
    whole = [_joined(o, h, c) for o, h, c in zip(own, hidden, changed)]
    # a 伏神 that is the 用神 keeps its state on its row; the others' may go under the table
    kept = ["伏用" in marks.get(cl.position, "") for cl in rows]
    own = [_joined(o, h) if k else o for o, h, k in zip(own, hidden, kept)]
    hidden = [[] if k else h for h, k in zip(hidden, kept)]
    most_rows = 1 if width >= ONE_ROW_WIDTH else 2
    # auto: the whole 之卦 where the width allows it, else the 变爻 alone; the 爻象 in the table
    # whole, else the line's own there and its 伏神's and 变爻's under the table, else all under
    choices = (changed_full,) if changed_full is not None else (True, False) if width >= ONE_ROW_WIDTH else (False,)
    title = _chart_title(chart, tr)
    for in_table, split in ((whole, False), (own, True)):
        for full in choices:
            columns = _line_columns(chart, rows, tr, marks, full, width)
            for gap in (2, 1):  # the box's space, and one of padding where it fits
                column = _pieces_column(tr("爻象"), in_table, width - sum(c.width + gap for c in columns), TAGS_MIN, most_rows)
                if column is not None:
                    under = [*_states_under(rows, hidden, tr("伏神"), width, tr), *_states_under(rows, changed, tr("变爻"), width, tr)]
                    return [_table(title, [*columns, column], gap, width), *(under if split else [])]
    columns = _line_columns(chart, rows, tr, marks, choices[0], width)
    gap = 2 if sum(c.width + 2 for c in columns) - 2 <= width else 1
    return [_table(title, columns, gap, width), *(_under_lines(rows, whole, width, tr) if any(whole) else [])]


def _joined(*parts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Groups of pieces in one row, a dot between two that are not empty."""
    out: list[tuple[str, str]] = []
    for p in parts:
        if p:
            out += [*([GROUP_SEP] if out else []), *p]
    return out


def _hidden_state(cl: ChartLine, tr: Callable[[str], str]) -> list[tuple[str, str]]:
    """A line's 伏神 as the 爻象 says it (伏): the 飞神 against it (飞生伏, 飞克伏, 伏生飞, 伏克飞,
    比和), its 旺衰 in the month and stage at the day, 旬空, 月破, and 相挈 when its 飞神 moves."""
    state = hidden_state(cl)
    return [(tr("伏"), "bold"), *((tr(t), "dim") for t in state)] if state else []


def _changed_state(cl: ChartLine, tr: Callable[[str], str], chart: Chart) -> list[tuple[str, str]]:
    """A line's 变爻 as the 爻象 says it (变): its own 旺衰 in the month and stage at the day."""
    state = changed_state(cl, chart)
    return [(tr("变"), "bold"), *((tr(t), "dim") for t in state)] if state else []


def _states_under(rows: Sequence[ChartLine], states: Sequence[list[tuple[str, str]]], label: str, width: int, tr: Callable[[str], str]) -> list[Text]:
    """The 伏神 (or 变爻) of every line on one line under the table, when the 爻象 column holds only
    the lines' own: `伏神 爻3 伏生飞 月休 日冠带 相挈 · 爻2 …`, 上爻 first."""
    pieces: list[tuple[str, str]] = []
    for cl, state in zip(rows, states):
        if state:
            pieces += [*([GROUP_SEP] if pieces else []), (f"{tr('爻')}{cl.position}", "dim"), *state[1:]]
    if not pieces:
        return []
    head = f"{label} "
    return _pieces_text([(head, "bold"), *pieces], width, indent=" " * cells(head))


@cache
def _hidden_quotes() -> dict[str, Any]:
    """The sentences the book gives for a 伏神's state, both of the 伏会: lifted by its moving 飞神
    (相挈, 6.06), and hidden under its own 长生 (伏得生: 午伏寅, 6.07)."""
    from yimao.texts import quote

    return {"相挈": quote("伏会者，发动飞爻而相挈也"), "伏得生": quote("伏得生者其局真")}


def hidden_account(chart: Chart, tr: Callable[[str], str], width: int, marks: Mapping[int, str], told: set[str] | None = None) -> list[Text]:
    """`--explain`: each 伏神, 上爻 first, with its state, and the book's sentence for what of it
    the book speaks of (相挈, 伏得生), with its rendering."""
    out: list[Text] = []
    for cl in reversed(chart.lines):
        h = cl.hidden
        if h is None:
            continue
        used = "（用神）" if "伏用" in marks.get(cl.position, "") else ""
        head = [(f"{tr('爻')}{cl.position}", "dim"), (tr(line_cell(h.line.relative, h.line.stem, h.line.branch)) + tr(used), "bold")]
        born = stage(h.line.branch.element, cl.branch, chart.school) is Stage.CHANGSHENG  # its 飞神 is its 长生
        state = [*_hidden_state(cl, tr)[1:], *([(tr("伏得生"), "dim")] if born else [])]
        out.extend(_pieces_text([*head, *state], width, indent="    "))
        said = [q for key, q in _hidden_quotes().items() if (key == "相挈" and h.lifted) or (key == "伏得生" and born)]
        out.extend(_quote_lines(said, tr, True, False, width, told))
    return [Text(tr("伏神"), style="bold"), *out] if out else []


def _chart_title(chart: Chart, tr: Callable[[str], str]) -> str:
    """本卦, 之卦 and the 互卦 of the 本卦 (its lines 2-4 and 3-5)."""
    title = _hex_title(chart.hexagram, tr)
    ch = chart.changed_hexagram
    if ch is not None:
        title = f"{title}   {tr('之')}   {_hex_title(ch, tr)}"
    return f"{title}   {tr('互卦')}：{tr(chart.hexagram.nuclear.name)}"


def _line_columns(
    chart: Chart, rows: Sequence[ChartLine], tr: Callable[[str], str], marks: Mapping[int, str], changed_full: bool, width: int
) -> list[_Column]:
    """The columns whose cells are never cut: 六神 (with a day), 伏神 (when there is one), 本卦, the
    drawn line, 世应, and the 变卦 (its drawn line left out when the columns would not fit)."""
    columns = [
        _column(tr("六神"), [tr(cl.spirit.value) if cl.spirit else "" for cl in rows]),
        _column(tr("伏神"), [_hidden_cell(cl, tr, marks) for cl in rows]),
        _column(tr("本卦"), [Text(tr(line_cell(cl.relative, cl.line.stem, cl.branch)), style=_element(cl.element)) for cl in rows]),
        _column("", [glyph(cl.line.yang, cl.moving) for cl in rows]),
        _column(tr("世应"), [Text(tr(marks.get(cl.position, "")), style="bold") for cl in rows]),
    ]
    columns = [c for i, c in enumerate(columns) if i >= 2 or any(cells(_plain(x)) for x in c.cells)]
    changed = _changed_cells(chart, tr, changed_full)
    if changed is not None:
        drawn = _column(tr("变卦"), [_changed_text(c, tr, drawn=True) for c in changed])
        if sum(c.width + 2 for c in columns) + drawn.width > width:
            drawn = _column(tr("变卦"), [_changed_text(c, tr, drawn=False) for c in changed])
        columns.append(drawn)
    return columns


def _pieces_column(header: str, rows: Sequence[Sequence[tuple[str, str]]], room: int, least: int, most_rows: int) -> _Column | None:
    """A column of each row's pieces (tags, names) wrapped whole within `room` cells, as wide as
    its widest row needs; None when it has nothing, when `room` is narrower than its widest piece,
    its header or `least` cells (less when its widest row needs less), or when a row would take
    more than `most_rows` lines."""
    widest = max((cells(p) for row in rows for p, _ in row), default=0)
    natural = max((cells(" ".join(p for p, _ in row)) for row in rows), default=0)
    w = min(natural, room)
    if not widest or w < max(widest, cells(header), min(natural, least)):
        return None
    laid = [_pieces_text(row, w) for row in rows]
    if any(len(lines) > most_rows for lines in laid):
        return None
    return _Column(header, [Text("\n").join(lines) for lines in laid], w)


def _table(title: str, columns: Sequence[_Column], gap: int, width: int) -> Table:
    table = Table(
        box=box.SIMPLE_HEAD,
        title=title,
        title_justify="left",
        show_edge=False,
        padding=(0, gap - 1, 0, 0),
        pad_edge=False,
        min_width=min(cells(title), width),  # the title on one line where the width allows
    )
    for c in columns:
        table.add_column(c.header, no_wrap=True, min_width=c.width, max_width=c.width, overflow="ignore")
    for i in range(len(columns[0].cells)):
        table.add_row(*(c.cells[i] for c in columns))
    return table


def _plain(x: Any) -> str:
    return x.plain if isinstance(x, Text) else str(x)


def _column(header: str, cells_: list[Any]) -> _Column:
    return _Column(header, cells_, max([cells(header), *(cells(_plain(x)) for x in cells_)]))


def _hidden_cell(cl: ChartLine, tr: Callable[[str], str], marks: Mapping[int, str]) -> Any:
    if cl.hidden is None:
        return ""
    hl = cl.hidden.line
    used = "伏用" in marks.get(cl.position, "")
    return Text(tr(line_cell(hl.relative, hl.stem, hl.branch)), style=f"bold {_element(hl.branch.element)}" if used else "dim")


def _changed_cells(chart: Chart, tr: Callable[[str], str], full: bool) -> list[tuple[Any, bool]] | None:
    """The 变卦 column from 上爻 down, as (line, moved): the 变爻 only, or with `full` every line of
    the 之卦 with its 六亲 against the original palace (as the 变爻 are). None when nothing moves."""
    ch = chart.changed_hexagram
    if ch is None:
        return None
    if not full:
        return [(cl.changed, True) for cl in reversed(chart.lines)]
    palace = chart.hexagram.palace_element
    return [(changed_line(line, palace), cl.moving) for line, cl in zip(reversed(ch.lines), reversed(chart.lines))]


def _changed_text(c: tuple[Any, bool], tr: Callable[[str], str], *, drawn: bool) -> Any:
    line, moved = c
    if line is None:
        return ""
    t = Text()
    if drawn:
        t.append(YANG if line.yang else YIN, style="" if moved else "dim")
        t.append(" ")
    t.append(tr(line_cell(line.relative, line.stem, line.branch)), style=_element(line.branch.element) if moved else "dim")
    return t


def _under_lines(
    rows: Sequence[ChartLine], pieces: Sequence[Sequence[tuple[str, str]]], width: int, tr: Callable[[str], str], header: str = ""
) -> list[Text]:
    """What left the table, a line each, 上爻 first: `爻5  …`, wrapped with the names whole."""
    out: list[Text] = []
    if header and any(pieces):
        out.append(Text(header, style="bold"))
    for cl, p in zip(rows, pieces):
        if not p:
            continue
        head = f"{tr('爻')}{cl.position} "
        lines = _pieces_text([(head, "dim"), *p], width, indent=" " * cells(head))
        out.extend(lines)
    return out


def render_chart_table(chart: Chart, console: Console, traditional: bool | str = False, *, changed_full: bool | None = None) -> None:
    """The 纳甲 chart of a cast with its 变爻 and 伏神, without pillars or findings (`yimao hex`)."""
    tr = _Script(traditional, console)
    table = chart_table(chart, tr, console.width, changed_full=changed_full)
    console.print(Group(*table, chart_facts(chart, tr, console.width)))


def chart_facts(chart: Chart, tr: Callable[[str], str], width: int, use: Any = None) -> Text:
    """The line under the chart (`view.facts`)."""
    facts = [tr(f) for f in chart_facts_of(chart, use)]
    return Text("\n").join(_pieces_text([(f, "dim") for f in facts], width, indent="  ", sep=" · "))


# --- a reading: chart, findings, stars ------------------------------------------------------


def _quote_lines(text: Sequence[Any], tr: Callable[[str], str], explain: bool, dim: bool, width: int, told: set[str] | None = None) -> list[Text]:
    """Quotes, each wrapped under its 「」 with its passage; with `explain` the modern rendering
    under it, once a reading (`told` holds those already given: a passage's rendering is its
    paragraph's, the same for every sentence of it)."""
    out: list[Text] = []
    for q in text:
        out.extend(_indented(f"「{tr(q.original)}」 {q.passage}", width, "dim italic" if dim else "italic", "    ", "     "))
        if explain and (told is None or q.vernacular not in told):
            out.extend(_indented(tr(q.vernacular), width, "dim", "      "))
            if told is not None:
                told.add(q.vernacular)
        elif explain:
            out.append(Text(f"      {tr('(白话同上)')}", style="dim"))
    return out


def _finding_head(f: Any, rule: str, tr: Callable[[str], str], width: int, reasons: bool) -> list[Text]:
    """A finding's head: its mark, label, lines and members (and reasons), wrapped."""
    pieces = [("✔" if f.holds else "✘", "bold green" if f.holds else "dim"), (tr(finding_label(f, rule) or rule), "bold" if f.holds else "dim")]
    if f.lines:
        pieces.append((f"{tr('爻')}{','.join(map(str, f.lines))}", "" if f.holds else "dim"))
    pieces.extend((tr(member_text(m)), "cyan" if f.holds else "dim") for m in f.members)
    if reasons:
        pieces.extend((tr(r), "dim") for r in f.reasons)
    return _pieces_text(pieces, width, indent="    ")


def _party(m: Member) -> str:
    """A party of a relation as a table names it: a line by its branch, the 日 and 月 as 日申, 月酉."""
    return m.branch.value if m.position is not None else m.source.value + m.branch.value


def _finding_notes(f: Finding, tr: Callable[[str], str], width: int, dim: bool, explain: bool) -> list[Text]:
    """What a finding carries under its head besides its quotes: the reading of the topic asked
    (docs/rules.md §6), and with `explain`, round a 六害, the 合冲生克 to weigh it by
    (「然亦必兼合冲生克而考之」)."""
    from yimao.analysis.finding import relations_of, topic_reading_of, topic_why_of  # loaded with the findings

    out: list[Text] = []
    reading = topic_reading_of(f.details)
    if reading is not None:
        q = reading.text
        out.extend(_indented(f"{tr(reading.topic)}：「{tr(q.original)}」 {q.passage}", width, "dim italic" if dim else "italic", "    ▸ ", "      "))
    why = topic_why_of(f.details)
    if why is not None:
        out.extend(_indented(tr(why), width, "dim italic", "    ▸ ", "      "))
    relations = relations_of(f.details) if explain else ()
    if relations:
        pieces = [("    " + tr("合冲生克"), "dim")]  # the first line's indent in its first piece
        pieces += [(tr(f"{_party(r.from_)}{r.kind}{_party(r.to)}"), "dim" if dim else "") for r in relations]
        out.extend(_pieces_text(pieces, width, indent="      "))
    return out


def findings_sections(findings: Sequence[Any], tr: Callable[[str], str], explain: bool, width: int = 100) -> list[Any]:
    """A panel per rule, in the book's order (rules not in it after): what holds first, then near
    misses with their reasons (`--explain`)."""
    parts: list[Any] = []
    inner = width - 4
    for rule in rules(findings):
        group = sorted((f for f in findings if f.rule == rule), key=lambda f: not f.holds)
        if not group:
            parts.append(Text(f"{tr(rule)} {tr('无')}", style="dim"))
            continue
        body: list[Any] = []
        for f in group:
            body.extend(_finding_head(f, rule, tr, inner, reasons=False))
            if f.reasons:
                body.extend(_indented(tr(" ".join(f.reasons)), inner, "" if f.holds else "dim"))
            body.extend(_quote_lines(f.text, tr, explain, not f.holds, inner))
            body.extend(_finding_notes(f, tr, inner, not f.holds, explain))
        parts.append(Panel(Group(*body), title=tr(rule), title_align="left", box=box.ROUNDED))
    return parts


def findings_compact(findings: Sequence[Any], tr: Callable[[str], str], width: int) -> list[Text]:
    """What holds, each with its deciding sentence; then one line over every family: ✔ and ✘
    counted, 无 when it was checked and found nothing, and where the near misses are told."""
    out: list[Text] = []
    for rule in rules(findings):
        held = [f for f in findings if f.rule == rule and f.holds]
        for i, f in enumerate(held):
            out.extend(_finding_head(f, rule, tr, width, reasons=True))
            q = deciding_quote(f)
            # findings that rest on the same sentence in a row (墓开 by each of its tombs) share it, said once after them
            if q is not None and (i + 1 == len(held) or deciding_quote(held[i + 1]) != q):
                out.extend(_quote_lines([q], tr, False, False, width))
            out.extend(_finding_notes(f, tr, width, False, False))
    out.extend(_family_counts(findings, tr, width))
    return out


def _family_counts(findings: Sequence[Any], tr: Callable[[str], str], width: int) -> list[Text]:
    """One line over every rule family, in the book's order: 助鬼伤身 ✘1 · 三刑 无 … and, when
    there are near misses, where they are told."""
    pieces = []
    for rule, held, missed in family_counts(findings):
        counts = (f" ✔{held}" if held else "") + (f" ✘{missed}" if missed else "")
        pieces.append((tr(rule) + (counts or f" {tr('无')}"), "" if counts else "dim"))
    if any(not f.holds for f in findings):
        pieces.append((tr("✘ 未成，其理见 --explain"), "dim"))
    return _pieces_text(pieces, width, indent="  ", sep=" · ")


def stars_by_line(placements: Sequence[Any], tr: Callable[[str], str], width: int, *, every: bool = False) -> list[Text]:
    """The stars acting on each line (各伺其动: a moving line, its 变爻, a lifted 伏神), 上爻 first,
    under the chart. By default: those with a condition that holds (✔), then the heavy stars
    (唯日月之用尊焉, 6.56) of known nature, 吉, 凶 and 吉凶 taken in turn in the book's order, as
    many names as fit one line and MOST_NAMES at most; counted after them, the heavy ones not
    named (余), those of unknown nature (未详), the light ones (轻) and those a variant reading
    alone puts on the line (异读). With `every`, all of them by nature, and those of 异读 named."""
    per, otherwise = stars_on_moving_lines(placements), otherwise_on_moving_lines(placements)
    out: list[Text] = []
    label = tr("神煞")
    room = width - cells(label) - 1
    for pos in sorted(per.keys() | otherwise.keys(), reverse=True):
        head = f"{tr('爻')}{pos} "
        stars, others = per.get(pos, ()), otherwise.get(pos, ())
        if every:
            pieces = _all_by_nature(stars, tr)
            if others:  # named, as the stars of the reading taken are
                pieces += [GROUP_SEP, (tr("异读"), "dim"), *((tr(star_label(s.star)), "dim") for s in others)]
        else:  # as many names as fit the line, MOST_NAMES at most: the others are counted
            for most in range(MOST_NAMES, -1, -1):
                pieces = _by_weight(stars, tr, most, len(others))
                if cells(head) + 1 + cells(" ".join(p for p, _ in pieces)) <= room:  # the head, a space, the pieces
                    break
        lead = label if not out else " " * cells(label)  # 神煞 before the first line's, its place kept after
        lines = _pieces_text([(head, "dim"), *pieces], room, indent=" " * (cells(head) + 1))  # a line after the first under its first star
        out.extend(Text.assemble((lead if i == 0 else " " * cells(lead), "bold"), " ", line) for i, line in enumerate(lines))
    return out


def _all_by_nature(stars: Sequence[Any], tr: Callable[[str], str]) -> list[tuple[str, str]]:
    return stars_by_nature([LineStar(star_label(s.star), s.star.nature) for s in stars], tr)


def _by_weight(stars: Sequence[Any], tr: Callable[[str], str], most: int = MOST_NAMES, otherwise: int = 0) -> list[tuple[str, str]]:
    pick = pick_stars(stars, most, otherwise)
    pieces: list[tuple[str, str]] = [(f"✔{tr(n)}", "bold green") for n in pick.held]
    pieces += stars_by_nature([LineStar(n, nature) for nature, names in pick.named for n in names], tr)
    counted = [(f"{tr(label)}{n}", "dim") for label, n in pick.counts]
    if counted and pieces:
        pieces.append(GROUP_SEP)
    return pieces + counted


_WEIGHT = {"heavy": "重", "light": "轻"}  # 唯日月之用尊焉: month and day stars heavy, year and hour stars light


def stars_section(stars: Sequence[Any], tr: Callable[[str], str], explain: bool, width: int = 100) -> list[Any]:
    """Every star on the chart with its sentence (`--explain`), heavy before light: those that act
    (or stand on the 用神 or the 世, or have a condition that holds), each condition that holds on a
    ✔ line with its sentence, then the dormant. A condition that does not hold is not shown, and
    its sentence is cut from the star's own quote."""
    if not stars:
        return []
    inner = width - 4
    active = [s for s in stars if s.active or s.on_use or any(c.holds for c in s.conditions)]
    dormant = [s for s in stars if s not in active]
    body: list[Any] = []
    shown: set[str] = set()  # quotes given once: a star that shares one says 同上
    told: set[str] = set()  # passages whose modern rendering is given
    for s in active:
        body.extend(_active_star(s, tr, explain, inner, shown, told))
    if dormant:
        body.append(Text(tr("静 (不动则不伺)"), style="dim"))
        body.extend(_pieces_text([(tr(f"{star_label(s.star)}({s.where_text()})"), "dim") for s in dormant], inner, indent="  "))
    return [Panel(Group(*body), title=tr("神煞 (各伺其动；重：月日之星，轻：年时之星)"), title_align="left", box=box.ROUNDED)]


def _active_star(s: Any, tr: Callable[[str], str], explain: bool, inner: int, shown: set[str], told: set[str]) -> list[Any]:
    """One star that acts: its line of name, nature, weight, places and topics; its quote (or 同上
    where an earlier star gave it) without its conditions' sentences; each condition that holds."""
    pieces = [
        ("★", "bold yellow"),
        (tr(star_label(s.star)), "bold"),
        (tr(s.star.nature), ""),
        (tr(_WEIGHT[s.star.weight]), ""),
        (tr(" ".join(s.positions or ())), "cyan"),
        (tr(s.where_text()), ""),
    ]
    if s.star.topics:
        pieces.append((tr("/".join(s.star.topics)), "dim"))
    out: list[Any] = _pieces_text([p for p in pieces if p[0]], inner, indent="    ")
    q = _without_conditions(s.star.quote, s.conditions)
    if q is not None and q.original in shown:
        out.append(Text(f"    「…」 {q.passage} {tr('同上')}", style="dim"))
    elif q is not None:
        shown.add(q.original)
        out.extend(_quote_lines([q], tr, explain, not s.active, inner, told))
    for c in s.conditions:
        if c.holds:
            out.extend(_condition_lines(c, tr, explain, inner, told))
    out.extend(_variant_condition_lines(s, tr, explain, inner, told))
    return out


def _variant_condition_lines(s: Any, tr: Callable[[str], str], explain: bool, width: int, told: set[str] | None = None, star: str = "") -> list[Text]:
    """The conditions that hold where a variant reading places the star otherwise, each under
    that reading's name: a disagreement of readings shown, not hidden."""
    from yimao.stars.conditions import reads_the_chart  # loaded with the stars: `yimao pillars` never needs it

    out: list[Text] = []
    for reading, results in s.variant_conditions:
        held = [c for c in results if c.holds and reads_the_chart(c.condition)]
        if held:
            out.extend(_indented(f"{tr('异读')} {tr(reading)}{tr('：')}", width, "dim", "", "  "))
            for c in held:
                out.extend(_condition_lines(c, tr, explain, width, told, star=star))
    return out


def _condition_lines(c: Any, tr: Callable[[str], str], explain: bool, width: int, told: set[str] | None = None, star: str = "") -> list[Text]:
    """A star's condition that holds: ✔, the star (when named), what follows, the lines, and its
    sentence — on the same line when the whole fits the width (the default screen), else under."""
    pieces = [("✔", "bold green"), (tr(star), "bold"), (tr(c.condition.effect), "bold")]
    if c.lines:
        pieces.append((f"{tr('爻')}{','.join(map(str, c.lines))}", ""))
    pieces = [p for p in pieces if p[0]]
    q = c.condition.quote
    quoted = f"「{tr(q.original)}」 {q.passage}"
    if not explain and cells(" ".join(p for p, _ in pieces)) + 1 + cells(quoted) <= width:
        return _pieces_text([*pieces, (quoted, "italic")], width)
    return _pieces_text(pieces, width, indent="      ") + _quote_lines([q], tr, explain, False, width, told)


def _without_conditions(q: Any, conditions: Sequence[Any]) -> Any:
    """A star's quote with the sentences of its conditions cut out (…): a condition is shown on
    its own line when it holds, and its words never stand as if they applied when it does not."""
    if q is None:
        return None
    text = q.original
    for c in conditions:
        text = text.replace(c.condition.quote.original, "…")
    return q if text == q.original else q._replace(original=text)


def stars_compact(stars: Sequence[Any], tr: Callable[[str], str], width: int) -> list[Text]:
    """After the table: the conditions of stars that hold (✔, with their sentence), the stars in
    force on the day (值日) and the count of dormant ones."""
    out: list[Text] = []
    for s in stars:
        for c in s.conditions:
            if c.holds:
                out.extend(_condition_lines(c, tr, False, width, star=star_label(s.star)))
        out.extend(_variant_condition_lines(s, tr, False, width, star=star_label(s.star)))
    day = [s for s in stars if s.day_match]
    if day:
        out.extend(_pieces_text([(tr("值日"), "bold"), *((tr(star_label(s.star)), "") for s in day)], width, indent="  "))
    dormant = sum(not s.active for s in stars)
    if dormant:
        out.append(Text(tr(f"神煞静 {dormant} (不动则不伺，见 --explain)"), style="dim"))
    return out


def render_reading(
    reading: Any,
    console: Console,
    *,
    traditional: bool | str = False,
    explain: bool = False,
    changed_full: bool | None = None,
    stars_only: bool = False,
) -> None:
    """A cast read in full: by default one screen (the moment, the chart with the stars that act,
    the facts, what holds with its sentence, every family counted); with `explain` every quote
    with its modern rendering, every near miss with its reasons, and every star. With `stars_only`
    the stars alone, each with its sentence (and its rendering with `explain`)."""
    tr = _Script(traditional, console)
    chart = reading.chart
    width = console.width
    if stars_only:
        section = stars_section(reading.stars.placements, tr, explain, width)
        console.print(Group(*section) if section else Text(tr("卦中无神煞"), style="dim"))
        return
    marks = line_marks(chart, reading.use)
    parts: list[Any] = [pillars_panel(chart.pillars, tr)] if explain else pillars_lines(chart.pillars, tr, width)
    parts.extend(chart_table(chart, tr, width, marks=marks, changed_full=changed_full))
    parts.append(chart_facts(chart, tr, width, reading.use))
    by_line = stars_by_line(reading.stars.placements, tr, width, every=explain)
    if explain:
        parts.extend(hidden_account(chart, tr, width, marks))
        parts.extend(by_line)
        parts.extend(findings_sections(reading.findings, tr, True, width))
        parts.extend(stars_section(reading.stars.placements, tr, True, width))
    else:
        parts.extend(findings_compact(reading.findings, tr, width))
        parts.extend(by_line)
        parts.extend(stars_compact(reading.stars.placements, tr, width))
    console.print(Group(*parts))


# --- the book ------------------------------------------------------------------------------


def render_passage_list(passages: Sequence[Any], console: Console, traditional: bool | str = False) -> None:
    tr = _Script(traditional, console)
    table = Table(box=box.SIMPLE_HEAD, title=tr("《易冒》卷六"), title_justify="left", pad_edge=False)
    table.add_column("id", style="bold")
    table.add_column(tr("起句"))
    for p in passages:
        table.add_row(p.id, tr(p.first_words) + "…")
    console.print(table)


def render_passages(passages: Sequence[Any], console: Console, query: str, traditional: bool | str = False) -> None:
    tr = _Script(traditional, console)
    for p in passages:
        w = (console.width - 7) // 2  # two columns in a box: three rules and a cell of padding each side
        table = Table(box=box.ROUNDED, show_header=True, title=f"{p.id}", title_justify="left")
        table.add_column(tr("原文"), width=w, no_wrap=True, overflow="ignore")
        table.add_column(tr("白话"), width=w, style="dim", no_wrap=True, overflow="ignore")
        table.add_row(
            _highlight("\n".join(wrap_text(tr(p.original), w)), tr(query)), _highlight("\n".join(wrap_text(tr(p.vernacular), w)), tr(query))
        )
        console.print(table)


def _highlight(text: str, query: str) -> Text:
    t = Text(text)
    if query:
        t.highlight_words([query], style="bold yellow")
    return t


# --- stars --------------------------------------------------------------------------------------


# What a star's place is read from (its catalogue `basis`), as the tables say it.
_BASIS = {
    "month": "依月",
    "month_sanhe": "依月三合",
    "season": "依季",
    "day_stem": "依日干",
    "day_ganzhi": "依日干支",
    "year_branch": "依年支",
    "year_month": "依年月",
    "month_hour": "依月时",
    "none": "无起例",
}


def _star_head(star: Any, tr: Callable[[str], str]) -> Text:
    t = Text()
    t.append(tr(star.label), style="bold")
    if star.aliases:
        t.append(f" ({tr('、'.join(star.aliases))})", style="dim")
    t.append(f"  {star.id}  {tr(star.group)}  {tr(star.nature)}  {tr(_BASIS.get(star.basis, star.basis))}", style="dim")
    if star.topics:
        t.append("  " + tr("/".join(star.topics)), style="cyan")
    return t


def _table_grid(table: Mapping[str, Any], tr: Callable[[str], str], title: str) -> Table:
    grid = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", pad_edge=False)
    keys = list(table)
    nested = keys and isinstance(table[keys[0]], Mapping)
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
    star: Any, console: Console, *, traditional: bool | str = False, positions=None, variants=None, basis_text: str = "", explain: bool = True
) -> None:
    tr = _Script(traditional, console)
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
    parts.extend(_quote_lines(star.quotes, tr, explain=False, dim=False, width=console.width - 4))
    for n in star.notes:
        parts.extend(_indented(tr(n), console.width - 4, "dim", "  · ", "    "))
    console.print(Panel(Group(*parts), box=box.ROUNDED, title=tr(star.label), title_align="left"))


def render_fixed_name(fixed: Any, console: Console, *, traditional: bool | str = False) -> None:
    """A name the text gives to a fixed branch (帝座, 黄泉杀 …): its branch and sentences."""
    tr = _Script(traditional, console)
    head = Text()
    head.append(tr(fixed.name), style="bold")
    if fixed.aliases:
        head.append(f" ({tr('、'.join(fixed.aliases))})", style="dim")
    head.append(f"  {tr(fixed.group)}", style="dim")
    where = Text(f"{tr(fixed.rule)} → ", style="bold")
    where.append(tr(fixed.position), style="bold yellow")
    parts: list[Any] = [head, where, Text(tr("宫名，非星：不随年月日移动，无起例，不落卦爻。"), style="dim")]
    parts.extend(_quote_lines(fixed.quotes, tr, explain=False, dim=False, width=console.width - 4))
    for n in fixed.notes:
        parts.extend(_indented(tr(n), console.width - 4, "dim", "  · ", "    "))
    console.print(Panel(Group(*parts), box=box.ROUNDED, title=tr(fixed.name), title_align="left"))


def render_star_list(stars: Sequence[Any], console: Console, traditional: bool | str = False) -> None:
    tr = _Script(traditional, console)
    groups: dict[str, list[Any]] = {}
    for s in stars:
        groups.setdefault(s.group, []).append(s)
    first = max(cells(tr(g)) for g in groups)
    w = console.width - first - 2  # the names' column, two cells after the groups'
    table = Table(box=box.SIMPLE_HEAD, title=tr("《易冒》卷六 神煞"), title_justify="left", show_edge=False, padding=(0, 1, 0, 0), pad_edge=False)
    table.add_column(tr("组"), style="bold", no_wrap=True, width=first)
    table.add_column(tr("星"), no_wrap=True, width=w, overflow="ignore")
    for g, members in groups.items():
        names = [(tr(s.label) + ("" if s.placed else "°"), "") for s in members]
        table.add_row(tr(g), Text("\n").join(_pieces_text(names, w, sep="  ")))
    console.print(table)
    console.print(Text(f"{len(stars)} entries; ° named by the book without a rule", style="dim"))


def render_stars_for(rows: Sequence[tuple[Any, Any, Any]], pillars: FourPillars, console: Console, traditional: bool | str = False) -> None:
    tr = _Script(traditional, console)
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


def render_examples(results: Sequence[dict[str, Any]], console: Console, *, traditional: bool | str = False, explain: bool = False) -> None:
    tr = _Script(traditional, console)
    w = max((console.width - 8) // 3, 12)  # three text columns two cells apart, after the mark's
    table = Table(box=box.SIMPLE_HEAD, title=tr("《易冒》卷六 书中例证"), title_justify="left", show_edge=False, padding=(0, 1, 0, 0), pad_edge=False)
    table.add_column("", no_wrap=True, width=2)
    for header in ("例", "书云", "算得"):
        table.add_column(tr(header), no_wrap=True, width=w, overflow="ignore")

    def show(d: dict[str, Any]) -> str:
        return "  ".join(_example_value(k, v) for k, v in d.items())

    def lines(s: str, style: str = "") -> list[Text]:
        return _wrapped(s, w, style)

    for r in results:
        q = r["quote"]
        cell = [*lines(f"{tr(r['rule'])} {r['id']}", "bold"), *lines(f"「{tr(q['original'])}」 {q['passage']}", "italic")]
        if explain:
            cell.extend(lines(tr(q["vernacular"]), "dim"))
        computed = {k: v for k, v in r["computed"].items() if k in r["expected"] or k == "reasons"}
        table.add_row(
            Text("✔", style="bold green") if r["agrees"] else Text("✘", style="bold red"),
            Text("\n").join(cell),
            Text("\n").join(lines(tr(show(r["expected"])))),
            Text("\n").join(lines(tr(show(computed)), "dim" if r["agrees"] else "bold red")),
        )
    console.print(table)
    bad = sum(not r["agrees"] for r in results)
    console.print(Text(tr(f"{len(results) - bad} / {len(results)} 例相符"), style="bold green" if not bad else "bold red"))


# The English keys of an example's expectations (its JSON keys) as the table says them: 成/不成 for
# holds, the values of kind, element, relative and star alone (they are their own names).
_EXAMPLE_KEYS = {"reason": "因", "reasons": "因", "positions": "位", "line": "爻", "members": "成员", "hexagrams": "卦"}


def _example_value(key: str, v: Any) -> str:
    if key == "holds":
        return "成" if v else "不成"
    if key == "on_moving_line":
        return "在动爻" if v else "不在动爻"
    text = _compact(v) if isinstance(v, (list, dict)) else str(v)
    if key in ("kind", "element", "relative", "star"):
        return text
    return f"{_EXAMPLE_KEYS.get(key, key)}:{text}"


def _compact(v: Any) -> str:
    if isinstance(v, dict):
        return " ".join(f"{k}:{x}" for k, x in v.items())
    return "、".join(map(str, v))


# --- the journal ---------------------------------------------------------------------------


def _case_moment(entry: Mapping[str, Any]) -> str:
    """A case's moment, local, to the minute; 据四柱 for a case cast from pillars, which has no date
    (its time of saving is not its date)."""
    moment = entry["moment"]
    return visible(moment[:16].replace("T", " ")) if moment else "据四柱"


_PILLAR_MARKS = (("year", "年"), ("month", "月"), ("day", "日"), ("hour", "时"))


def _case_pillars(pillars: Mapping[str, Any] | None) -> str:
    """The four pillars as written, 丙午 己亥 庚戌 辛巳; when some are absent, those given, each
    with its name (卯月 戊寅日), since their places no longer say which is which."""
    given = [(v, mark) for key, mark in _PILLAR_MARKS if isinstance(v := (pillars or {}).get(key), str)]
    if len(given) == len(_PILLAR_MARKS):
        return visible(" ".join(v for v, _ in given))
    return visible(" ".join(f"{v}{mark}" for v, mark in given))


def render_journal_list(entries: Sequence[Mapping[str, Any]], console: Console, traditional: bool | str = False, filtered: bool = False) -> None:
    """`journal list`: a row a case, the question last, where the room left is."""
    tr = _Script(traditional, console)
    if not entries:
        console.print(tr("无合此条件之卦例" if filtered else "尚无卦例: 以 yimao cast … --save 存之"))
        return
    rows = [
        [
            str(e["case"]),
            _case_moment(e),
            _case_pillars(e["pillars"]),
            *(visible(e[k] or "") for k in ("spec", "use", "topic", "outcome", "question")),
        ]
        for e in entries
    ]
    headers = ("#", "时间", "四柱", "卦", "用神", "事类", "应验", "问")
    natural = [max(cells(h), *(cells(r[i]) for r in rows)) for i, h in enumerate(headers[:-1])]
    moment, pillars = _list_squeeze(natural, console.width)
    table = Table(box=box.SIMPLE_HEAD, title=tr(f"卦例 {len(entries)}"), title_justify="left", show_edge=False, padding=(0, 1, 0, 0))
    table.add_column("#", justify="right", no_wrap=True, min_width=natural[0])
    table.add_column(tr("时间"), width=moment, no_wrap=moment is None)
    table.add_column(tr("四柱"), width=pillars, no_wrap=pillars is None)
    for name, width in zip(headers[3:-1], natural[3:]):
        table.add_column(tr(name), no_wrap=True, min_width=width)
    table.add_column(tr("问"), ratio=1, overflow="fold")
    for r in rows:
        table.add_row(*map(tr, r))
    console.print(table)


def _list_squeeze(natural: Sequence[int], width: int) -> tuple[int | None, int | None]:
    """The widths of the moment and pillars columns of `journal list` (None: as wide as they
    are): where the question would have less than QUESTION_ROOM cells, they take two lines (date
    over time, two pillars over two), then the pillars one each, rather than the question ten."""
    others = sum(natural) - natural[1] - natural[2] + 2 * len(natural)  # (a column and the two cells after it)
    if others + natural[1] + natural[2] + QUESTION_ROOM <= width:
        return None, None
    moment = min(natural[1], 10)
    for pillars in (11, 6):
        if others + moment + pillars + QUESTION_ROOM // 2 <= width:
            break
    return moment, min(natural[2], pillars)


QUESTION_ROOM = 24  # cells the question of `journal list` should have before the other columns give some up


def _day(timestamp: str) -> str:
    return visible(timestamp[:10])


def render_case(fields: Mapping[str, Any], console: Console, traditional: bool | str = False) -> None:
    """A case's own part under its chart: the question (and the one saved, when edited), when it
    was saved, tags, numbered notes, outcome, and what this yimao reads otherwise. What the user
    wrote is shown `visible`."""
    tr = _Script(traditional, console)
    question = fields["question"]
    lines = [Text(tr(f"问: {visible(question)}") if question else tr("问: —"), style="bold")]
    edit = fields.get("question_edited")
    if edit:
        saved_question = visible(edit["saved"]) if edit["saved"] else "—"
        lines.append(Text(tr(f"改于 {_day(edit['at'])}，存时问: {saved_question}"), style="dim"))
    saved = fields["saved_with"]
    lines.append(Text(tr(f"存于 {visible(fields['saved_at'][:19]).replace('T', ' ')} UTC，yimao {visible(saved['yimao_version'])}"), style="dim"))
    if fields.get("tags"):
        lines.append(Text(tr("标签: " + " · ".join(visible(t) for t in fields["tags"]))))
    for i, n in enumerate(fields["notes"], 1):
        edited = f"  (改于 {_day(n['edited_at'])})" if n.get("edited_at") else ""
        lines.append(Text(tr(f"{i}. {_day(n['written_at'])}  {visible(n['text'])}") + tr(edited)))
    o = fields["outcome"]
    if o is not None:
        head = tr(f"应验: {o['verdict']}") + (f"  {visible(o['date'])}" if o["date"] else "") + (f"  {tr(visible(o['note']))}" if o["note"] else "")
        lines.append(Text(head, style="bold"))
    for c in fields["changes"] or ():
        lines.append(Text(tr(f"今读不同: {visible(c['path'])}: {_compact_value(c['then'])} → {_compact_value(c['now'])}"), style="yellow"))
    console.print(Panel(Group(*lines), title=tr(f"卦例 {fields['case']}"), title_align="left", box=box.ROUNDED))


def _compact_value(v: Any) -> str:
    text = visible(v if isinstance(v, str) else repr(v))
    return text if len(text) <= 60 else text[:57] + "…"


def _percent(share: float | None) -> str:
    return "—" if share is None else f"{share:.0%}"


def render_journal_stats(
    verdicts: Sequence[str], totals: Sequence[int], unjudged: int, rows: Sequence[Any], console: Console, traditional: bool | str = False
) -> None:
    """`journal stats`: a table of findings and one of stars, each row its judged cases by
    verdict, their number and the share of 应, most judged first."""
    tr = _Script(traditional, console)
    judged = sum(totals)
    if not judged:
        console.print(tr(f"尚无卦例记应验 (未判 {unjudged}): 以 yimao journal outcome ID --verdict 应|不应|部分 记之"))
        return
    counts = "  ".join(f"{v} {n}" for v, n in zip(verdicts, totals))
    console.print(tr(f"已判卦例 {judged}: {counts}  应率 {_percent(totals[0] / judged)}  (未判 {unjudged})"))
    for kind, title in (("finding", "成立之断"), ("star", "发动之神煞")):
        table = Table(box=box.SIMPLE_HEAD, title=tr(title), title_justify="left", pad_edge=False)
        table.add_column("")
        for header in (*verdicts, "已判", "应率"):
            table.add_column(tr(header), justify="right", no_wrap=True)
        for r in rows:
            if r.kind == kind:  # names from stored documents, which an import brought: shown as text
                table.add_row(tr(visible(r.name)), *map(str, r.counts), str(r.judged), _percent(r.share))
        console.print(table)
