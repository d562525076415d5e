"""The command line. The only module that imports typer: it declares each command's options,
parses them into core values, and hands the result to `serialize` (the JSON documents) or
`render` (Rich), writing through `output`.

Exit codes (`output.exit_code`): 0 success; 2 bad input (message on stderr, nothing on stdout);
1 yimao's own failure or an output that cannot be written; 141 the reader went away.
`launch.main` runs this app and maps every end of a run; `yimao batch FILE` and a plain
`cast … --json` start there, without Typer.
"""

# No `from __future__ import annotations` here: Typer reads the options from the annotations, and
# it would eval every string annotation anew at each start (some 5 ms).
import copy
import gc
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any

import typer
import typer.main

from yimao.errors import CommandLineError, NotationError, closest, shown, small_int
from yimao.output import EXIT_INTERNAL, exit_code
from yimao.output import err as _err
from yimao.output import stdout as _stdout
from yimao.output import warn_moment as _warn_moment
from yimao.output import write_json as _write_json
from yimao.output import write_text as _write_text
from yimao.usertext import checked

app = typer.Typer(
    name="yimao",
    help="六爻 (纳甲筮法) calculator faithful to 《易冒》 volume 6.\n\n\b\nExample:\n  yimao cast --date 2026-12-02T10:00+08:00 --hex 离之乾",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class _Command(typer.core.TyperCommand):
    """A command whose options are each given once: click keeps the last of a repeated option
    silently (`--month 3 --month 4` would cast for month 4), which is more often a slip than a
    wish; a flag given twice (`--json --json`) is said the same way, so that the rule has no
    exception to remember."""

    def parse_args(self, ctx, args):
        if ctx.resilient_parsing:  # shell completion: a half-typed line is no error
            return super().parse_args(ctx, args)
        _, _, order = self.make_parser(ctx).parse_args(args=list(args))  # each option as often as given
        seen = set()
        for param in order:
            if isinstance(param, typer.core.TyperOption) and not (param.multiple or param.count):
                if param.name in seen:
                    raise typer.BadParameter("given more than once; give it once", ctx=ctx, param=param)
                seen.add(param.name)
        return super().parse_args(ctx, args)


@contextmanager
def _guard() -> Iterator[None]:
    """Map the core's error family to exit code 2 and anything unexpected to 1, never a traceback
    (`output.exit_code`)."""
    try:
        yield
    except typer.Exit:
        raise
    except BaseException as e:
        raise typer.Exit(exit_code(e)) from None


# --- dynamic completion of values ---------------------------------------------------------------


def _complete_hex(incomplete: str) -> list[str]:
    from yimao.hexagram import HEXAGRAMS

    left, sep, right = incomplete.partition("之")
    names = [h.short_name for h in HEXAGRAMS] + [h.name for h in HEXAGRAMS]
    if sep:
        return [f"{left}之{n}" for n in names if n.startswith(right)]
    return [n for n in names if n.startswith(incomplete)]


def _complete_use(incomplete: str) -> list[str]:
    return [c for c in ("官鬼", "妻财", "父母", "兄弟", "子孙", "世", "应", "1", "2", "3", "4", "5", "6") if c.startswith(incomplete)]


def _complete_month(incomplete: str) -> list[str]:
    return [c for c in ("寅", "卯", "辰", "巳", "午", "未", "申", "酉", "戌", "亥", "子", "丑", *map(str, range(1, 13))) if c.startswith(incomplete)]


def _complete_branch(incomplete: str) -> list[str]:
    return [c for c in "子丑寅卯辰巳午未申酉戌亥" if c.startswith(incomplete)]


def _complete_ganzhi(incomplete: str) -> list[str]:
    from yimao.ganzhi import CYCLE

    return [str(g) for g in CYCLE if str(g).startswith(incomplete)] + [
        c for c in "子丑寅卯辰巳午未申酉戌亥" if c.startswith(incomplete) and incomplete
    ]


def _complete_star(incomplete: str) -> list[str]:
    from yimao.stars.catalogue import catalogue

    names: list[str] = []
    for star in catalogue().stars:
        names += (star.name, star.label, *star.aliases)
    for fixed in catalogue().names:
        names.append(fixed.name)
        names.extend(fixed.aliases)
    return sorted({n for n in names if n.startswith(incomplete)})


def _complete_topic(incomplete: str) -> list[str]:
    from yimao.stars.catalogue import catalogue

    return sorted(t for t in catalogue().topics if t.startswith(incomplete))


SHELLS = ("bash", "zsh", "fish", "powershell")


def completion_script(shell: str) -> str:
    """The completion script of a shell, generated from this app by Typer."""
    from typer.completion import get_completion_script

    if shell not in SHELLS:
        raise NotationError(f"unknown shell {shell!r}", shell, SHELLS)
    return get_completion_script(prog_name="yimao", complete_var="_YIMAO_COMPLETE", shell=shell) + "\n"


# --- shared options -----------------------------------------------------------------------------

DateOpt = Annotated[
    str | None,
    typer.Option("--date", "-d", help="The moment, ISO 8601: 2026-12-02T10:00+08:00 (an offset wins over --tz). Default: now."),
]
TzOpt = Annotated[
    str | None, typer.Option("--tz", help="Time zone when --date has no offset: an IANA name (Asia/Shanghai) or ±HH:MM. Default: the system zone.")
]


def _script(traditional: bool, script: str | None) -> Any:
    """The script -t and --script ask for: False for simplified, else "t", "tw" or "hk"."""
    from yimao.hanzi import script_of

    chosen = script_of(script if script is not None else traditional)
    if traditional and chosen == "s":
        raise NotationError("-t asks for traditional characters and --script s for simplified: give one", script, ("t", "tw", "hk"))
    return False if chosen == "s" else chosen


def _day_start(text: str | int) -> int:
    """--day-start as a number: 23 or 0, checked for length before converting (a value of
    thousands of digits is refused, not converted, and not echoed whole)."""
    if isinstance(text, int):  # the default
        return text
    value = small_int(text.strip(), 2)
    if value is None:
        raise typer.BadParameter(f"must be 23 or 0, got {shown(text)}")
    return value


DayStartOpt = Annotated[
    int,
    typer.Option(
        "--day-start",
        parser=_day_start,
        metavar="23|0",
        help="23 (default): the day changes at 23:00 (子初换日). 0: 晚子时, the day changes at midnight (the 子 hour's stem still comes from the next day).",
    ),
]
YearOpt = Annotated[str | None, typer.Option("--year", autocompletion=_complete_ganzhi, help="Year pillar instead of a date: 丙午 or 午.")]
MonthOpt = Annotated[
    str | None,
    typer.Option(
        "--month",
        autocompletion=_complete_month,
        help="Month (月建) instead of a date: 1-12 (1 = 寅 正月), 卯, 卯月, 二月, or 己卯. Example: --month 卯",
    ),
]
DayOpt = Annotated[
    str | None,
    typer.Option(
        "--day", autocompletion=_complete_ganzhi, help="Day pillar instead of a date: 戊寅, 戊寅日, or a bare branch 申 as the book gives it."
    ),
]
HourOpt = Annotated[str | None, typer.Option("--hour", autocompletion=_complete_branch, help="Hour instead of a date: 午 or 庚午.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the JSON document (schema_version 2) instead of tables.")]
TradOpt = Annotated[bool, typer.Option("--traditional", "-t", help="Traditional characters (繁體, OpenCC's standard forms) in the output.")]
ScriptOpt = Annotated[
    str | None,
    typer.Option(
        "--script",
        autocompletion=lambda: ["s", "t", "tw", "hk"],
        help="The output's script: t 繁體 (as -t), tw 臺灣正體, hk 香港繁體, s 简体 (the default).",
    ),
]
EarthOpt = Annotated[str, typer.Option("--earth", help="Where 土 has its 长生: 'shui' (申, 水土同宫, default) or 'huo' (寅, 火土同宫).")]
JournalOpt = Annotated[
    str | None,
    typer.Option("--journal", metavar="PATH", help="The journal file. Default: YIMAO_JOURNAL, else journal.sqlite3 in the user's data directory."),
]


ChangedOpt = Annotated[
    str,
    typer.Option(
        "--changed",
        metavar="auto|moving|full",
        help="The 变卦 column: 'full' all six lines of the 之卦 (六亲 against the original palace), 'moving' the 变爻 only; "
        "'auto' (default) full from 100 columns.",
    ),
]
WidthOpt = Annotated[
    int | None,
    typer.Option(
        "--width",
        min=60,
        max=250,
        help="The width of the tables in columns (60-250). Default: COLUMNS, else the terminal's, else 120. Pictures are drawn at their own width.",
    ),
]


def _changed_option(value: str) -> bool | None:
    """--changed: True for the whole 之卦, False for its 变爻, None to choose by the width."""
    v = value.strip().lower()
    if v in ("auto", "自动"):
        return None
    if v in ("moving", "变爻"):
        return False
    if v in ("full", "all", "全"):
        return True
    raise NotationError(f"unknown --changed {shown(value)}", value, ("auto", "moving", "full"))


def _pictures(svg: str | None, html: str | None, png: str | None, json: bool) -> list[tuple[str, str]]:
    """The pictures asked for, as (format, path): checked before the chart is read."""
    pictures = [(kind, path) for kind, path in (("svg", svg), ("html", html), ("png", png)) if path is not None]
    if pictures and json:
        raise NotationError("--svg, --html and --png draw the chart: give them without --json", "--json", ("--svg chart.svg", "--json"))
    if [path for _, path in pictures].count("-") > 1:
        raise NotationError("only one picture can go to stdout (-)", "-", ("--svg - --html chart.html",))
    for kind, path in pictures:
        if not path.strip():
            raise NotationError(f"--{kind} needs a file name (or - for stdout)", path, (f"--{kind} chart.{kind}", f"--{kind} -"))
    if png is not None:
        from yimao.picture.png import require

        require()
        if png == "-" and sys.stdout is not None and sys.stdout.isatty():  # a PNG's bytes would garble the terminal
            raise NotationError(
                "--png - writes the picture's bytes to stdout, which is a terminal: give a file, or redirect", "-", ("--png chart.png",)
            )
    return pictures


def _write_pictures(result, pictures: list[tuple[str, str]], traditional: bool | str, case=None) -> None:
    """Draw each picture of the chart (and of its case) from its view, then write it: a file,
    whole or not at all, or stdout for -. A path that is no file's (no such directory, a
    directory) is bad input (exit 2), said before anything is written; a file that cannot be
    written is an output that failed (exit 1)."""
    from pathlib import Path

    from yimao.hanzi import script_of
    from yimao.output import stdout, write_file
    from yimao.picture import draw
    from yimao.view import chart_view

    for kind, path in pictures:
        if path != "-":
            parent = Path(path).expanduser().resolve().parent
            if not parent.is_dir():
                raise NotationError(f"cannot write --{kind} {shown(path)}: no directory {shown(str(parent))}", path)
            if Path(path).is_dir():
                raise NotationError(f"cannot write --{kind} {shown(path)}: it is a directory", path)
    view = chart_view(result, script_of(traditional), case)
    for kind, path in pictures:
        data = draw(view, kind)
        if path == "-":
            stdout().write(data)
            sys.stdout.flush()
        else:
            named = repr(path) if len(path) <= 1024 else shown(path)  # the whole name of a file, as a file's can be long
            write_file(path, data, f"--{kind} {named}")  # whole, or the old file left as it was


# --- commands ------------------------------------------------------------------------------------


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version  # the installed package's, as pip reports it

        _write_text(f"yimao {version('yimao')}\n")
        raise typer.Exit()


@app.callback()
def _yimao(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_print_version, help="Print yimao's version and exit.")] = False,
) -> None:
    pass


@app.command(cls=_Command)
def cast(
    hex: Annotated[
        str | None,
        typer.Option(
            "--hex",
            "-x",
            autocompletion=_complete_hex,
            help="The cast: 离之乾, 798788 (coins 6-9, bottom first), 101101 --moving 2,5, or a name 离/離/离为火/䷝. "
            "Without it, on a terminal, cast asks for the six throws.",
        ),
    ] = None,
    moving: Annotated[str | None, typer.Option("--moving", "-m", help="Moving lines 1-6 (bottom = 1) for a name or bits: 2,5")] = None,
    toss: Annotated[
        bool, typer.Option("--toss", help="Throw three coins six times with the system's randomness (secrets), each throw shown on stderr.")
    ] = False,
    date: DateOpt = None,
    tz: TzOpt = None,
    day_start: DayStartOpt = 23,
    year: YearOpt = None,
    month: MonthOpt = None,
    day: DayOpt = None,
    hour: HourOpt = None,
    use: Annotated[
        str | None,
        typer.Option(
            "--use", "-u", autocompletion=_complete_use, help="用神: 官鬼/官, 妻财/财, 父母/父, 兄弟/兄, 子孙/子/孙, 世, 应, or a line 1-6."
        ),
    ] = None,
    topic: Annotated[
        str | None,
        typer.Option("--topic", autocompletion=_complete_topic, help="The kind of question (婚姻, 出行, 投军 …): its stars and readings."),
    ] = None,
    explain: Annotated[
        bool,
        typer.Option("--explain", help="The whole account: every quote with its modern rendering, every near miss with its reasons, every star."),
    ] = False,
    stars: Annotated[
        bool, typer.Option("--stars", help="The stars alone, each with its sentence (with --explain, its modern rendering too).")
    ] = False,
    earth: EarthOpt = "shui",
    changed: ChangedOpt = "auto",
    width: WidthOpt = None,
    svg: Annotated[
        str | None, typer.Option("--svg", metavar="FILE", help="Write the chart as an SVG picture to FILE (- for stdout), nothing else.")
    ] = None,
    html: Annotated[
        str | None, typer.Option("--html", metavar="FILE", help="Write the chart as an HTML page to FILE (- for stdout), nothing else.")
    ] = None,
    png: Annotated[
        str | None,
        typer.Option("--png", metavar="FILE", help="Write the chart as a PNG picture to FILE (- for stdout), nothing else; needs yimao[image]."),
    ] = None,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
    json: JsonOpt = False,
    save: Annotated[bool, typer.Option("--save", help="Record the case in the journal (says `已存为卦例 N` on stderr).")] = False,
    question: Annotated[str | None, typer.Option("--question", "-q", help="The question asked, kept with --save: 问：今年可得财否")] = None,
    journal: JournalOpt = None,
) -> None:
    """Cast a chart: pillars, 纳甲 chart, and the analysis of volume 6. One screen by default;
    --explain for the whole account.

    \b
    Examples:
      yimao cast --date 2026-12-02T10:00+08:00 --hex 离之乾
      yimao cast --hex 大畜之离 --month 卯 --day 戊寅 --use 父
      yimao cast --toss --month 卯 --day 戊寅
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao.pipeline import CastRequest, document, read, topic_note, topic_use_note

        changed_full = _changed_option(changed)
        pictures = _pictures(svg, html, png, json)
        if question is not None:
            question = checked(question, "--question")
        req = CastRequest(hex or "", moving, date, tz, day_start, year, month, day, hour, use, topic, earth)
        pillars = None
        if hex is None or toss:
            req, pillars = _obtain(req, hex, toss, traditional)
        result = read(req, pillars)
        _warn_moment(result.chart.pillars, traditional)
        if (note := topic_note(req)) is not None:
            _err(f"note: {note}", traditional)
        if (note := topic_use_note(req)) is not None:
            _err(f"note: {note}", traditional)
        if save:
            _save_case(req, result, question, journal, traditional)
        elif question is not None or journal is not None:
            raise NotationError("--question and --journal go with --save", question or journal, ("--save --question 问：今年可得财否",))
        if json:
            _write_json(document(result), traditional)
            return
        if pictures:
            _write_pictures(result, pictures, traditional)
            return
        from yimao.render import make_console, render_reading

        render_reading(result, make_console(width=width), traditional=traditional, explain=explain, changed_full=changed_full, stars_only=stars)


def _obtain(req, hex: str | None, toss: bool, traditional: bool | str):
    """A cast without --hex, thrown (--toss) or typed on a terminal: the request that reads it
    (its coins, how it was obtained, its throws) and the pillars, resolved before the throws."""
    from yimao.pipeline import pillars_ahead
    from yimao.toss import cast_of, print_throws

    if hex is not None:
        raise NotationError("--toss throws the cast: give it without --hex", hex)
    if req.moving is not None:
        raise NotationError("--moving goes with --hex: throws say themselves which lines move", req.moving, ("--hex 101101 --moving 2,5",))
    if not toss and (sys.stdin is None or not sys.stdin.isatty()):
        raise NotationError(
            "missing --hex: the cast to read (or --toss to throw the coins; on a terminal, cast asks for the throws)",
            None,
            ("--hex 离之乾", "--hex 798788", "--toss"),
        )
    pillars = pillars_ahead(req)  # a bad --date or --use is said before the throws
    throws = _toss(traditional) if toss else _enter_throws(traditional)
    return req._replace(hex=cast_of(throws).coins(), obtained="tossed" if toss else "entered", throws=print_throws(throws)), pillars


def _toss(traditional: bool | str) -> tuple:
    """Six lines of three coins from the operating system's randomness, 初爻 first, each said on
    stderr as it falls."""
    import secrets

    from yimao.output import say
    from yimao.toss import row, toss

    throws = []
    for position in range(1, 7):
        throws.append(toss(secrets.randbelow))  # looked up at each call: a test can stand in for it
        say(row(position, throws[-1]) + "\n", traditional)
    return tuple(throws)


_ENTRY_HINT = (
    "enter the six throws from 初爻 up, one or more a line: 6 7 8 9, three coins as 背字字 (字 2, 背 3; 正 is 字, 反 is 背), "
    "老阴 少阳 少阴 老阳, or 交 单 拆 重; u takes back the last throw; Ctrl-D stops"
)


def _enter_throws(traditional: bool | str) -> tuple:
    """The six throws typed on the terminal, 初爻 first, the figure drawn again (top line first)
    at each change; the last throw can still be taken back before the cast is read. Prompts go
    to stderr: stdout keeps to the chart or the document."""
    from yimao.errors import YimaoError
    from yimao.output import say
    from yimao.toss import LINE_NAMES, cast_of, entry_step, figure

    say(f"yimao: {_ENTRY_HINT}\n", traditional)
    throws: tuple = ()
    while True:
        done = len(throws) == 6
        prompt = f"{cast_of(throws).spec()}: Enter reads it, u takes back the last throw: " if done else f"{LINE_NAMES[len(throws)]}: "
        text = _ask(prompt, traditional)
        if done and not text.strip():
            return throws
        try:
            after = entry_step(throws, text)
        except YimaoError as e:
            _err(str(e), traditional)  # and the same line is asked again
            continue
        if after != throws:
            throws = after
            say("".join(f"  {line}\n" for line in figure(throws)), traditional)


def _ask(prompt: str, traditional: bool | str) -> str:
    """One line typed after `prompt`; the end of input (Ctrl-D) is no cast entered (exit 2), an
    interrupt (Ctrl-C) ends the run (130), each after a line break that keeps the message apart."""
    from yimao.output import say

    say(prompt, traditional)
    try:
        stream = getattr(sys.stdin, "buffer", sys.stdin)
        line = stream.readline()
    except KeyboardInterrupt:
        say("\n")
        raise
    if not line:
        say("\n")
        raise NotationError("no cast entered: the input ended before the six throws were read", None, ("--hex 798788", "--toss"))
    return line.decode(sys.stdin.encoding or "utf-8", errors="replace") if isinstance(line, bytes) else line


@app.command(cls=_Command)
def pillars(
    date: DateOpt = None,
    tz: TzOpt = None,
    day_start: DayStartOpt = 23,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
    json: JsonOpt = False,
) -> None:
    """The four pillars of a moment, with 旬空, 月破, the lunar date and the 节.

    \b
    Example:
      yimao pillars --date 2024-02-04T16:30+08:00
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao.pipeline import resolve_pillars

        p = resolve_pillars(date, tz, day_start, None, None, None, None)
        _warn_moment(p, traditional)
        if json:
            from yimao.serialize import pillars_document

            _write_json(pillars_document(p), traditional)
            return
        from yimao.render import make_console, render_pillars

        render_pillars(p, make_console(), traditional)


@app.command("hex", cls=_Command)
def hex_(
    spec: Annotated[str, typer.Argument(autocompletion=_complete_hex, help="A hexagram or cast: 既济, 水火既济, 既濟, ䷾, 101010, 离之乾, 798788.")],
    moving: Annotated[str | None, typer.Option("--moving", "-m", help="Moving lines 1-6 (bottom = 1): 2,5")] = None,
    changed: ChangedOpt = "auto",
    width: WidthOpt = None,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
    json: JsonOpt = False,
) -> None:
    """A hexagram (and its 之卦) without a date: the chart of `cast` with what holds of it
    without a month or day (palace, 世应, 纳甲, 六亲, 伏神, 变爻, 卦身, 六冲/六合, 伏吟/反吟).

    \b
    Examples:
      yimao hex 大畜
      yimao hex 乾之震
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao.chart import build_chart
        from yimao.hexagram import Cast

        changed_full = _changed_option(changed)
        c = Cast.parse(spec, moving)
        if json:
            from yimao.serialize import hexagram_document

            _write_json(hexagram_document(build_chart(c)), traditional)
            return
        from yimao.render import make_console, render_chart_table

        render_chart_table(build_chart(c), make_console(width=width), traditional, changed_full=changed_full)


def _basis_strings(date, tz, day_start, year, month, day, hour, traditional: bool | str = False):
    """Basis values for the star tables: from a date, or as given (a bare stem is allowed for --day)."""
    from yimao.ganzhi import STEMS
    from yimao.pipeline import resolve_pillars
    from yimao.stars.catalogue import basis_values

    day_stem = None
    if day is not None and day.strip().rstrip("日") in {s.value for s in STEMS}:
        day_stem, day = day.strip().rstrip("日"), None
    p = resolve_pillars(date, tz, day_start, year, month, day, hour, default_now=False)
    _warn_moment(p, traditional)
    m, d, y, h = basis_values(p.month_branch, p.day, p.year, p.hour)
    return p, m, (d or day_stem), y, h


@app.command(cls=_Command)
def star(
    name: Annotated[
        str | None,
        typer.Argument(autocompletion=_complete_star, help="A star: 天医, 天乙贵人, an alias or an id (tianyi). Simplified or traditional."),
    ] = None,
    list_: Annotated[bool, typer.Option("--list", help="List the whole catalogue, grouped as the book groups it.")] = False,
    date: DateOpt = None,
    tz: TzOpt = None,
    day_start: DayStartOpt = 23,
    year: YearOpt = None,
    month: MonthOpt = None,
    day: Annotated[
        str | None, typer.Option("--day", autocompletion=_complete_ganzhi, help="Day: 甲子 (or a stem 甲 for stars read from the day stem).")
    ] = None,
    hour: HourOpt = None,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
    json: JsonOpt = False,
) -> None:
    """Where a star of volume 6 stands: its rule, its whole table, variants and the book's words.

    \b
    Examples:
      yimao star 天医 --month 3
      yimao star 丧门（岁）
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao.stars.catalogue import catalogue

        cat = catalogue()
        given = [v for v in (date, year, month, day, hour) if v is not None]
        if list_:
            if name is not None or given:  # it lists the catalogue, not where a star stands
                raise NotationError(
                    "--list lists the whole catalogue: give it no star name, date or pillars",
                    name if name is not None else given[0],
                    ("yimao star --list", "yimao star 天医 --month 3"),
                )
            _star_list(cat, json, traditional)
        elif name is None:
            raise NotationError("give a star name, or --list", None, ("天医", "驿马", "--list"))
        elif (fixed := _fixed_name_of(cat, name)) is not None:
            _fixed_name(fixed, (date, tz, day_start, year, month, day, hour) if given else None, tz, day_start, json, traditional)
        elif given:
            _star_at(cat.get(name), _basis_strings(date, tz, day_start, year, month, day, hour, traditional), json, traditional)
        else:  # the whole table
            from yimao.pillars import check_unused

            s = cat.get(name)
            check_unused(tz, day_start)
            _star_table(s, json, traditional)


def _fixed_name_of(cat, name: str):
    """The fixed branch's name (帝座, 黄泉杀 …) `name` means, when it names no star."""
    return None if cat.find(name) else cat.fixed_name(name)


def _fixed_name(fixed, basis_options, tz, day_start, json: bool, traditional: bool | str) -> None:
    """`star NAME` for a name of a fixed branch: its branch and sentences, the same for every
    date (a date or pillars given are still checked, and refused when bad)."""
    if basis_options is not None:
        date, tz_, day_start_, year, month, day, hour = basis_options
        _basis_strings(date, tz_, day_start_, year, month, day, hour, traditional)
    else:
        from yimao.pillars import check_unused

        check_unused(tz, day_start)
    if json:
        from yimao.serialize import fixed_name_document

        _write_json(fixed_name_document(fixed), traditional)
        return
    from yimao.render import make_console, render_fixed_name

    render_fixed_name(fixed, make_console(), traditional=traditional)


def _star_list(cat, json: bool, traditional: bool | str) -> None:
    """`star --list`: the catalogue, grouped as the book groups it."""
    if json:
        from yimao.serialize import star_list_document

        _write_json(star_list_document(cat.stars), traditional)
        return
    from yimao.render import make_console, render_star_list

    render_star_list(cat.stars, make_console(), traditional)


def _star_at(s, basis_strings, json: bool, traditional: bool | str) -> None:
    """`star NAME` with a date or pillars: where the star stands for them."""
    from yimao.stars.place import positions_for

    p, m, d, y, h = basis_strings
    pos, variants = positions_for(s, m, d, y, h, p.context)
    if json:
        from yimao.serialize import star_positions_document

        _write_json(star_positions_document(s, {"year": y, "month": m, "day": d, "hour": h}, pos, variants), traditional)
        return
    from yimao.render import make_console, render_star

    render_star(
        s,
        make_console(),
        traditional=traditional,
        positions=pos,
        variants=variants,
        basis_text=" ".join(v for v in (y and y + "年", m and m + "月", d and d + "日", h and h + "时") if v),
    )


def _star_table(s, json: bool, traditional: bool | str) -> None:
    """`star NAME` alone: the star's whole table and its variants."""
    if json:
        from yimao.serialize import star_table_document

        _write_json(star_table_document(s), traditional)
        return
    from yimao.render import make_console, render_star

    render_star(s, make_console(), traditional=traditional)


@app.command(cls=_Command)
def stars(
    date: DateOpt = None,
    tz: TzOpt = None,
    day_start: DayStartOpt = 23,
    year: YearOpt = None,
    month: MonthOpt = None,
    day: DayOpt = None,
    hour: HourOpt = None,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
    json: JsonOpt = False,
) -> None:
    """Every star of volume 6 for a date (default: now) or for given pillars.

    \b
    Example:
      yimao stars --month 卯 --day 戊寅
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao.pipeline import resolve_pillars
        from yimao.stars.catalogue import basis_values
        from yimao.stars.place import stars_at

        p = resolve_pillars(date, tz, day_start, year, month, day, hour)
        _warn_moment(p, traditional)
        rows = stars_at(*basis_values(p.month_branch, p.day, p.year, p.hour), p.context)
        if json:
            from yimao.serialize import stars_document

            _write_json(stars_document(p, rows), traditional)
            return
        from yimao.render import make_console, render_stars_for

        render_stars_for(rows, p, make_console(), traditional)


@app.command(cls=_Command)
def batch(
    file: Annotated[str, typer.Argument(help="A JSON Lines file of requests, or - for standard input.")] = "-",
    traditional: TradOpt = False,
    script: ScriptOpt = None,
) -> None:
    """Cast many charts: JSON Lines in (one request per line), JSON Lines out, in input order.

    Each request takes the options of cast: {"hex": "离之乾", "date": "2026-12-02T10:00+08:00"}
    or pillars instead of a date ({"hex": "大畜之离", "month": "卯", "day": "戊寅", "use": "父"}).
    A bad line gives {"line": n, "error": {...}} and the run goes on. Exit 0 when every line
    succeeded, 2 when some failed (1 when yimao itself failed on one). A line's own
    "traditional": true (or "tw", "hk", false) sets the script of its result.

    \b
    Example:
      yimao batch requests.jsonl > charts.jsonl
    """
    from yimao.batch import run_file

    with _guard():
        chosen = _script(traditional, script)
    code = run_file(file, chosen)
    if code:
        raise typer.Exit(code)


@app.command(cls=_Command)
def text(
    query: Annotated[
        str | None, typer.Argument(help="A passage id (6.07), a rule (局会, 三刑), a star (天医) or a phrase. None: list all passages.")
    ] = None,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
    json: JsonOpt = False,
) -> None:
    """The text of 《易冒》 volume 6: original and modern rendering, side by side.

    \b
    Example:
      yimao text 天医
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao import texts

        if query is None:
            ps = texts.passages()
            if json:
                from yimao.serialize import passage_list_document

                _write_json(passage_list_document(ps), traditional)
                return
            from yimao.render import make_console, render_passage_list

            render_passage_list(ps, make_console(), traditional)
            return
        found = texts.search(query)
        if not found:
            from yimao.errors import UnknownNameError

            raise UnknownNameError(f"no passage of volume 6 matches {query!r}", query, tuple(texts.RULE_PASSAGES) + ("6.01", "天医"))
        if json:
            from yimao.serialize import passages_document

            _write_json(passages_document(query, found), traditional)
            return
        from yimao.render import make_console, render_passages

        render_passages(found, make_console(), query, traditional)


@app.command(cls=_Command)
def examples(
    explain: Annotated[bool, typer.Option("--explain", help="Add the modern rendering of each sentence.")] = False,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
    json: JsonOpt = False,
) -> None:
    """Recompute every worked example of volume 6 and compare with what the book says.

    Exits 1 if any example disagrees.

    \b
    Example:
      yimao examples --explain
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao.examples import run_all

        results = run_all()
        if json:
            from yimao.serialize import examples_document

            _write_json(examples_document(results), traditional)
        else:
            from yimao.render import make_console, render_examples

            render_examples(results, make_console(), traditional=traditional, explain=explain)
        if not all(r["agrees"] for r in results):
            raise typer.Exit(EXIT_INTERNAL)


@app.command(cls=_Command)
def schema() -> None:
    """Print the JSON Schema (draft 2020-12) of every --json document, schema_version 2.

    \b
    Example:
      yimao schema > yimao.schema.json
    """
    with _guard():
        from yimao.data import read_bytes

        _stdout().write(read_bytes("schema.json"))
        sys.stdout.flush()


@app.command(cls=_Command)
def completion(
    shell: Annotated[str, typer.Argument(help="bash, zsh, fish or powershell.")],
) -> None:
    """Print the shell completion script (completes commands, options, hexagram and star names).

    \b
    Example:
      yimao completion bash > ~/.local/share/bash-completion/completions/yimao
    """
    with _guard():
        _write_text(completion_script(shell.strip().lower()))


# --- the journal ---------------------------------------------------------------------------------

journal_app = typer.Typer(
    name="journal",
    help="The journal of casts (卦例): cases saved with `cast --save`, re-read, noted, judged and counted.\n\n\b\nExamples:\n  yimao journal list\n  yimao journal stats",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(journal_app, name="journal")
MAX_CASE = 2**63 - 1  # SQLite's largest integer: no case number is greater


def _case_number(text: str | int) -> int:
    """A case's number as given (12 or #12), checked for size before converting: a number SQLite
    cannot hold is no case's, said as such rather than failing in the driver."""
    if isinstance(text, int):
        return text
    value = small_int(text.strip().removeprefix("#"), 19)
    if value is None or not 1 <= value <= MAX_CASE:
        raise typer.BadParameter(f"a case number is a whole number from 1 to {MAX_CASE} (journal list shows them), got {shown(text)}")
    return value


CaseArg = Annotated[int, typer.Argument(metavar="ID", parser=_case_number, help="The case's number (journal list shows them).")]


def _note_number(text: str | int) -> int:
    """A note's number as `journal show` lists them: 1, 2 …"""
    if isinstance(text, int):
        return text
    value = small_int(text.strip(), 9)
    if value is None or value < 1:
        raise typer.BadParameter(f"a note's number is a whole number from 1 (journal show lists them), got {shown(text)}")
    return value


def _save_case(req, result, question: str | None, journal: str | None, traditional: bool | str) -> None:
    from yimao.journal.case import new_case
    from yimao.journal.records import save
    from yimao.journal.store import opened

    with opened(journal, create=True) as db:
        assert db is not None
        saved = save(db, new_case(req, result, question))
    _err(f"已存为卦例 {saved.number}" if saved.new else f"卦例 {saved.number} 已存此卦此问，不再存", traditional)


def _confirm(prompt: str, traditional: bool | str) -> bool:
    """Yes or no to `prompt` on the terminal (stderr), in the script asked for; an ended input is no."""
    from yimao.hanzi import convert, script_of

    if traditional:
        prompt = convert(prompt, script_of(traditional))
    try:
        return bool(typer.confirm(prompt, default=False, err=True))
    except typer.Abort:  # the input ended (Ctrl-D): no
        return False


def _no_terminal(what: str, command: str) -> NotationError:
    return NotationError(f"no terminal to confirm the deletion of {what} on: give --yes", what, (f"{command} --yes",))


def _has_terminal() -> bool:
    return sys.stdin is not None and sys.stdin.isatty()


@journal_app.command("list", cls=_Command)
def journal_list(
    topic: Annotated[str | None, typer.Option("--topic", autocompletion=_complete_topic, help="Only cases of this topic.")] = None,
    hex: Annotated[
        str | None, typer.Option("--hex", autocompletion=_complete_hex, help="Only cases with this 本卦 or 之卦, or this pair: 离之乾.")
    ] = None,
    since: Annotated[
        str | None,
        typer.Option("--since", help="Only cases cast for this date or later: 2026-01-01. A case cast from pillars has no date: left out."),
    ] = None,
    until: Annotated[str | None, typer.Option("--until", help="Only cases cast for this date or earlier (pillars alone: left out).")] = None,
    verdict: Annotated[
        str | None, typer.Option("--verdict", metavar="应|不应|部分|无", help="Only cases with this outcome; 无: no outcome yet.")
    ] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Only cases with this tag; given again, with every tag given.")] = None,
    search: Annotated[str | None, typer.Option("--search", help="Only cases whose question, notes or outcome contain this text.")] = None,
    last: Annotated[int | None, typer.Option("--last", metavar="N", min=1, help="Only the last N of those cases (the highest numbers).")] = None,
    journal: JournalOpt = None,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
    json: Annotated[bool, typer.Option("--json", help="JSON Lines: one case a line.")] = False,
) -> None:
    """The cases of the journal: number, moment (据四柱 for a case cast from pillars), 四柱,
    hexagram, 用神, topic, outcome, question.

    \b
    Example:
      yimao journal list --topic 求财 --since 2026-01-01
      yimao journal list --verdict 无 --tag 张先生
      yimao journal list --last 20
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao.journal.case import list_entry
        from yimao.journal.records import cases, make_filter
        from yimao.journal.store import opened

        if search is not None:
            search = checked(search, "--search")
        kept = make_filter(topic, hex, since, until, search, verdict, tag or ())
        with opened(journal, create=False) as db:
            entries = [list_entry(c) for c in cases(db, kept, last)]
        if json:
            from yimao.output import in_script
            from yimao.serialize import dumps

            _stdout().write(b"".join(dumps(in_script(e, traditional), compact=True) for e in entries))
            sys.stdout.flush()
            return
        from yimao.render import make_console, render_journal_list

        render_journal_list(entries, make_console(), traditional, filtered=kept != make_filter())


@journal_app.command("show", cls=_Command)
def journal_show(
    case: CaseArg,
    explain: Annotated[bool, typer.Option("--explain", help="The whole account, as cast --explain gives it.")] = False,
    as_saved: Annotated[bool, typer.Option("--as-saved", help="With --json: the document as it read when saved, not read again.")] = False,
    changed: ChangedOpt = "auto",
    width: WidthOpt = None,
    svg: Annotated[str | None, typer.Option("--svg", metavar="FILE", help="Write the case as an SVG picture to FILE (- for stdout).")] = None,
    html: Annotated[str | None, typer.Option("--html", metavar="FILE", help="Write the case as an HTML page to FILE (- for stdout).")] = None,
    png: Annotated[
        str | None, typer.Option("--png", metavar="FILE", help="Write the case as a PNG picture to FILE (- for stdout); needs yimao[image].")
    ] = None,
    journal: JournalOpt = None,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
    json: Annotated[bool, typer.Option("--json", help="The cast's JSON document, with the case's own keys around it.")] = False,
) -> None:
    """A case read again from its inputs: the chart and findings of `cast`, with the question,
    notes and outcome. Says so when this yimao reads it otherwise than when it was saved.

    \b
    Example:
      yimao journal show 12 --explain
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao import __version__
        from yimao.journal.case import differences, journal_fields, reading
        from yimao.journal.records import get
        from yimao.journal.store import opened
        from yimao.output import err
        from yimao.pipeline import document

        changed_full = _changed_option(changed)
        pictures = _pictures(svg, html, png, json)
        if as_saved and not json:
            raise NotationError("--as-saved gives the stored document: give --json", "--as-saved", ("--as-saved --json",))
        with opened(journal, create=False) as db:
            c = get(db, case)
            then = c.saved_document()  # (here: a damaged one is said as a corrupt journal, naming it)
        result = None if as_saved else reading(c)
        now = then if result is None else document(result)
        changes = differences(then, now)
        if changes:
            paths = ", ".join(d["path"] for d in changes)
            err(f"注意: yimao {__version__} 读卦例 {case}，与存时 yimao {c.yimao_version} 所读不同: {paths}", traditional)
        fields = journal_fields(c, changes)
        if result is None or json:
            _write_json({**now, **fields}, traditional)
            return
        if pictures:
            _write_pictures(result, pictures, traditional, fields)
            return
        from yimao.render import make_console, render_case, render_reading

        console = make_console(width=width)
        render_reading(result, console, traditional=traditional, explain=explain, changed_full=changed_full)
        render_case(fields, console, traditional)


@journal_app.command("note", cls=_Command)
def journal_note(
    case: CaseArg,
    text: Annotated[str | None, typer.Argument(metavar="TEXT", help="The note: what was asked, what happened, what you saw.")] = None,
    edit: Annotated[
        int | None, typer.Option("--edit", metavar="N", parser=_note_number, help="Replace note N's text (N as journal show numbers them).")
    ] = None,
    delete: Annotated[
        int | None, typer.Option("--delete", metavar="N", parser=_note_number, help="Delete note N. Asks first on a terminal; --yes in scripts.")
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="With --delete: do not ask (scripts).")] = False,
    journal: JournalOpt = None,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
) -> None:
    """Add a note to a case; or replace or delete one, by its number in journal show.

    \b
    Examples:
      yimao journal note 12 "财在五爻，待午月"
      yimao journal note 12 --edit 1 "财在五爻，待午月应"
      yimao journal note 12 --delete 2
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao.journal import records
        from yimao.journal.store import opened

        _note_options(case, text, edit, delete, yes)
        if delete is not None:
            _delete_note(case, delete, yes, journal, traditional)
            return
        assert text is not None
        text = checked(text, "the note")
        with opened(journal, create=False) as db:
            if edit is None:
                records.add_note(db, case, text)
            else:
                records.edit_note(db, case, edit, text)


def _note_options(case: int, text: str | None, edit: int | None, delete: int | None, yes: bool) -> None:
    """What `journal note` was asked: a text to add, --edit N with a text, or --delete N alone."""
    if edit is not None and delete is not None:
        raise NotationError("give --edit N or --delete N, not both", None, (f"yimao journal note {case} --delete {delete}",))
    if delete is not None and text is not None:
        raise NotationError("--delete N takes no text: the note goes whole", text, (f"yimao journal note {case} --delete {delete}",))
    if delete is None and text is None:
        raise NotationError("missing the note's text", None, (f"yimao journal note {case} 财在五爻",))
    if yes and delete is None:
        raise NotationError("--yes goes with --delete", "--yes", (f"yimao journal note {case} --delete 1 --yes",))


def _delete_note(case: int, n: int, yes: bool, journal: str | None, traditional: bool | str) -> None:
    from yimao.journal.records import delete_note, note_at
    from yimao.journal.store import opened
    from yimao.usertext import visible

    with opened(journal, create=False) as db:
        note = note_at(db, case, n)
        if not yes:
            if not _has_terminal():
                raise _no_terminal(f"note {n} of case {case}", f"yimao journal note {case} --delete {n}")
            text = " ".join(note.text.split("\n"))  # one line, at most 40 characters: the prompt names the note, the note is in show
            text = text if len(text) <= 40 else text[:39] + "…"
            if not _confirm(f"删除卦例 {case} 笔记 {n}（{visible(note.written_at[:10])}：{visible(text)}）？", traditional):
                _err(f"卦例 {case} 笔记 {n} 未删", traditional)
                return
        delete_note(db, case, n, note)
    _err(f"已删卦例 {case} 笔记 {n}", traditional)


@journal_app.command("question", cls=_Command)
def journal_question(
    case: CaseArg,
    text: Annotated[str, typer.Argument(help="The question as it should read.")],
    journal: JournalOpt = None,
) -> None:
    """Replace a case's question. The case stays the one saved (its export imports as the same
    case), and keeps the question as saved: journal show gives both.

    \b
    Example:
      yimao journal question 12 "问：今年可得财否"
    """
    with _guard():
        from yimao.journal.records import set_question
        from yimao.journal.store import opened

        text = checked(text, "the question")
        with opened(journal, create=False) as db:
            set_question(db, case, text)


@journal_app.command("tag", cls=_Command)
def journal_tag(
    case: CaseArg,
    tags: Annotated[list[str], typer.Argument(metavar="TAG…", help="Tags: words to find cases by (journal list --tag).")],
    remove: Annotated[bool, typer.Option("--remove", help="Take these tags off the case.")] = False,
    journal: JournalOpt = None,
) -> None:
    """Tag a case, or take tags off it. A tag is a line of at most 32 characters, kept as typed;
    Ab and ab are one tag.

    \b
    Examples:
      yimao journal tag 12 求财 张先生
      yimao journal tag 12 张先生 --remove
    """
    with _guard():
        from yimao.journal.case import tag_of
        from yimao.journal.records import add_tags, remove_tags
        from yimao.journal.store import opened

        given = [tag_of(t) for t in tags]
        with opened(journal, create=False) as db:
            (remove_tags if remove else add_tags)(db, case, given)


@journal_app.command("outcome", cls=_Command)
def journal_outcome(
    case: CaseArg,
    verdict: Annotated[str, typer.Option("--verdict", help="What happened: 应 (it held), 不应 (it did not), 部分 (in part).")],
    note: Annotated[str | None, typer.Option("--note", help="What happened, in words.")] = None,
    date: Annotated[str | None, typer.Option("--date", help="When the matter resolved: 2027-03-01.")] = None,
    journal: JournalOpt = None,
) -> None:
    """Record what happened (应验): the verdict, a note and a date. Recorded again, it replaces.

    \b
    Example:
      yimao journal outcome 12 --verdict 应 --date 2027-03-01
    """
    with _guard():
        from yimao.journal.records import parse_day, set_outcome
        from yimao.journal.store import opened

        day = parse_day(date, "--date")
        if note is not None:
            note = checked(note, "--note")
        with opened(journal, create=False) as db:
            set_outcome(db, case, verdict, note, day)


@journal_app.command("delete", cls=_Command)
def journal_delete(
    case: CaseArg,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask (scripts).")] = False,
    journal: JournalOpt = None,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
) -> None:
    """Delete a case with its notes, tags and outcome. Asks first on a terminal; --yes in scripts.

    \b
    Example:
      yimao journal delete 12
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao.journal.records import delete, get
        from yimao.journal.store import opened
        from yimao.usertext import visible

        with opened(journal, create=False) as db:
            c = get(db, case)
            if not yes:
                if not _has_terminal():
                    raise _no_terminal(f"case {case}", f"yimao journal delete {case}")
                asked = visible(c.question) if c.question else "无问"  # as typed, but nothing a terminal would act on
                if not _confirm(f"删除卦例 {case}（{c.spec}：{asked}）？", traditional):
                    _err(f"卦例 {case} 未删", traditional)
                    return
            delete(db, case)
        _err(f"已删卦例 {case}", traditional)


@journal_app.command("stats", cls=_Command)
def journal_stats(
    journal: JournalOpt = None,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
    json: JsonOpt = False,
) -> None:
    """For the cases with an outcome: how often each finding that held and each active star went
    with 应, 不应 or 部分, and the share of 应, most judged first. Counts, not verdicts.

    \b
    Example:
      yimao journal stats
    """
    with _guard():
        traditional = _script(traditional, script)
        from yimao.journal.case import VERDICTS
        from yimao.journal.records import cases
        from yimao.journal.stats import stats_document, tally
        from yimao.journal.store import opened

        with opened(journal, create=False) as db:
            totals, rows = tally(cases(db))
        if json:
            _write_json(stats_document(totals, rows), traditional)
            return
        from yimao.render import make_console, render_journal_stats

        render_journal_stats(VERDICTS, totals.counts, totals.unjudged, rows, make_console(), traditional)


@journal_app.command("export", cls=_Command)
def journal_export(
    journal: JournalOpt = None,
    json: Annotated[bool, typer.Option("--json", help="JSON Lines (the only form: accepted for symmetry).")] = False,
) -> None:
    """Every case as JSON Lines: the cast's fields (a request `yimao batch` reads), and under
    "journal" the question, moment, notes, outcome and the document as it read when saved.

    \b
    Example:
      yimao journal export > cases.jsonl
    """
    with _guard():
        from yimao.journal.case import export_line
        from yimao.journal.records import cases
        from yimao.journal.store import opened
        from yimao.serialize import dumps

        out = _stdout()
        with opened(journal, create=False) as db:
            for c in cases(db):
                out.write(dumps(export_line(c), compact=True))
        sys.stdout.flush()


@journal_app.command("import", cls=_Command)
def journal_import(
    file: Annotated[str, typer.Argument(help="The lines of `journal export`, or - for standard input.")],
    journal: JournalOpt = None,
    traditional: TradOpt = False,
    script: ScriptOpt = None,
) -> None:
    """Add the cases of `journal export` lines. A case already present (by its content hash) is
    not added again; it gains the notes and tags it lacks, the outcome when it has none, and the
    later edit of its question and notes. All lines or none.

    \b
    Example:
      yimao journal import cases.jsonl
    """
    with _guard():
        traditional = _script(traditional, script)
        from itertools import chain

        from yimao.journal.records import export_input, import_cases, read_export
        from yimao.journal.store import opened

        with export_input(file) as stream:
            incoming = read_export(stream, file)  # read line by line, inside the import's one transaction
            first = next(incoming, None)  # (a file whose first line is bad creates no journal)
            with opened(journal, create=True) as db:
                assert db is not None
                done = import_cases(db, chain([] if first is None else [first], incoming))
        _err(
            f"已导入新卦例 {done.added} 个，已有 {done.present} 个"
            f"（为之添笔记 {done.notes} 条、应验 {done.outcomes} 个、标签 {done.tags} 个，取其后改 {done.edits} 处）",
            traditional,
        )


def _command_name(c: typer.models.CommandInfo) -> str | None:
    if c.name:
        return c.name
    return typer.main.get_command_name(c.callback.__name__) if c.callback else None


def click_command(args: Sequence[str]) -> typer.core.TyperGroup:
    """The click command that runs `args`. Typer turns every command of the app into a click
    command (inspecting each signature) before it parses anything, though a run needs only the
    one it names: when `args` start with a command's name, the group is built with that command
    alone, for a third of the work. Anything else (--help, a misspelt name, shell completion) gets
    the whole app, so listings and suggestions stay whole."""
    if args and "_YIMAO_COMPLETE" not in os.environ:
        named = [c for c in app.registered_commands if _command_name(c) == args[0]]
        groups = [g for g in app.registered_groups if g.name == args[0]]
        if named or groups:
            one = copy.copy(app)
            one.registered_commands = named
            one.registered_groups = groups
            return typer.main.get_group(one)  # a group, as for the whole app, even of one command
    return typer.main.get_group(app)  # what get_command makes of an app of several commands without --install-completion


def main() -> None:
    # Everything imported so far (Typer, click, this app) lives as long as the process: freezing
    # it spares each garbage collection of a run, and the one at exit, from walking it again
    # (about a tenth of a command's start-up work). Garbage made from here on is still collected.
    gc.freeze()
    args = sys.argv[1:]
    if "_YIMAO_COMPLETE" in os.environ:  # (launch.main keeps it only when it names a completion instruction)
        from typer.completion import completion_init

        completion_init()  # Typer's shell classes, PowerShell included
        click_command(args)(prog_name="yimao")
        return
    if args and not args[0].startswith("-"):
        _check_command(args[0])
    # Not click's standalone mode, whose usage errors print click's own "Usage: … Error: …":
    # they are said as every other bad input is (`_usage_error`).
    errors = sys.modules[typer.BadParameter.__module__]  # click's exceptions, wherever Typer takes click from
    try:
        code = click_command(args).main(args, prog_name="yimao", standalone_mode=False)
    except errors.NoArgsIsHelpError as e:  # `yimao` alone: the help, on stderr, exit 2
        e.show()
        sys.exit(e.exit_code)
    except errors.UsageError as e:
        raise _usage_error(e, errors, args) from None
    except typer.Abort:  # (an end of input where a prompt waited: `journal delete` takes it for no)
        sys.exit(EXIT_INTERNAL)
    sys.exit(code if isinstance(code, int) else 0)


def _commands() -> list[str]:
    return [n for c in app.registered_commands if (n := _command_name(c))] + [g.name for g in app.registered_groups if g.name]


def _check_command(name: str) -> None:
    """An error naming the closest commands when `name` is none of yimao's."""
    commands = _commands()
    if name not in commands:
        near = closest(name.lower(), commands, 3, 0.5)
        raise CommandLineError(f"no such command: {shown(name)}" + ("" if near else f"; the commands are {', '.join(commands)}"), name, near)


def _no_such_option(e, command, where: str, see: str) -> CommandLineError:
    """An unknown option, with the closest of the command's options (click's guesses first)."""
    options = sorted({o for p in (command.params if command else ()) for o in (*p.opts, *p.secondary_opts) if o.startswith("--")})
    near = [o for o in sorted(e.possibilities or ()) if o != "--help"] or closest(e.option_name, options, 3, 0.5)
    rest = "" if near else f"; the options are {' '.join(options)}" if options else f"; see '{see}'"
    return CommandLineError(f"{where}no such option: {e.option_name}{rest}", e.option_name, near)


def _usage_error(e, errors, args: Sequence[str]) -> CommandLineError:
    """click's usage error as yimao says bad input: what was wrong, the closest valid choices,
    and where the command's options are listed."""
    named = args[0] if args and args[0] in _commands() else None  # the command being read, if any
    command = click_command(args).commands.get(named) if named else None
    inner = getattr(command, "commands", {})  # a group's commands: `journal list`
    if len(args) > 1 and args[1] in inner:
        command, named = inner[args[1]], f"{named} {args[1]}"
    elif len(args) > 1 and inner and not args[1].startswith("-"):  # `journal lst`: said as `yimao cats` is
        near = closest(args[1].lower(), sorted(inner), 3, 0.5)
        rest = "" if near else f"; the commands are {', '.join(sorted(inner))}"
        return CommandLineError(f"{named}: no such command: {shown(args[1])}{rest}", args[1], near)
    where, see = (f"{named}: ", f"yimao {named} -h") if named else ("", "yimao -h")
    if isinstance(e, errors.NoSuchOption):
        return _no_such_option(e, command, where, see)
    message = e.format_message().rstrip(".")
    message = message[:1].lower() + message[1:]  # click's "Missing argument …" as yimao's messages are written
    message = message.replace("is not a valid int range", "is not a whole number")  # click's words for an IntRange's type
    return CommandLineError(f"{where}{message}; see '{see}'", None)
