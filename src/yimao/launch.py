"""The program's entry point: it runs `yimao ARGS` and maps every end of a run to an exit code.

Most forms go to the Typer app (`cli`). Two start without Typer, because importing Typer and
click is most of their start-up and scripts call them often (figures in docs/performance.md):

- `yimao batch [FILE|-]`, whose one argument needs no parser (`batch.run_file`);
- `yimao cast … --json` whose options are each given once, as `--name value`, `--name=value` or
  a flag (`_plain_cast`, the one hand-written reader of arguments). Any other form (--help, a
  short option run together with its value, a misspelling, a value that looks like an option, a
  repeated option, a --day-start that is not 23 or 0, --toss or no --hex) goes to the Typer app, which
  reads the same options and says what is wrong; a test runs both on the same argument lists.

`run` maps whatever ends a run (an error, Typer's, click's and Rich's own exits: each ends a
broken pipe with exit 1) and flushes stdout last, so that a write that fails anywhere is said as
such; `main` first settles the standard streams (`output.settle_streams`). Imports go one way:
launch → cli → output, and launch → output.
"""

from __future__ import annotations

import errno
import gc
import os
import sys
from typing import Any

from yimao.errors import small_int
from yimao.output import EXIT_INTERNAL, best_effort_stderr, err, exit_code, settle_streams, warn_moment, write_json

_CAST_VALUES = {
    "--hex": "hex", "-x": "hex", "--moving": "moving", "-m": "moving", "--date": "date", "-d": "date", "--tz": "tz",
    "--day-start": "day_start", "--year": "year", "--month": "month", "--day": "day", "--hour": "hour",
    "--use": "use", "-u": "use", "--topic": "topic", "--earth": "earth", "--script": "script",
}  # fmt: skip
_CAST_FLAGS = {"--json": "json", "--traditional": "traditional", "-t": "traditional", "--explain": "explain"}


def _plain_cast(args: list[str]) -> dict[str, Any] | None:
    """The options of a plain `cast … --json` (see above) by field name, or None."""
    if not args or args[0] != "cast" or "--json" not in args or "_YIMAO_COMPLETE" in os.environ:
        return None
    opts = _options(args[1:])
    return None if opts is None else _checked(opts)


def _options(args: list[str]) -> dict[str, Any] | None:
    """Each option once, flags as True and values as given; None for anything else."""
    opts: dict[str, Any] = {}
    rest = iter(args)
    for arg in rest:
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        field = _CAST_FLAGS.get(name)
        if field is not None:
            if eq:
                return None
            flag: Any = True
        else:
            field = _CAST_VALUES.get(name)
            if field is None:
                return None
            flag = value if eq else next(rest, None)
            if flag is None or (not eq and flag.startswith("-")):
                return None
        if field in opts:
            return None
        opts[field] = flag
    return opts


def _checked(opts: dict[str, Any]) -> dict[str, Any] | None:
    """`opts` with --day-start and --script read as cli's parsers read them; None when one is
    wrong or --hex is missing, so that the app says what is wrong."""
    day_start = small_int(opts.get("day_start", "23"), 2)
    if day_start is None or not opts.get("day_start", "23").isascii() or "hex" not in opts:
        return None
    opts["day_start"] = day_start
    if "script" in opts:
        from yimao.hanzi import SCRIPTS

        script = opts["script"].strip().lower()
        if script not in SCRIPTS or (script == "s" and opts.get("traditional")):
            return None
        opts["script"] = script
    return opts


def run_cast(opts: dict[str, Any]) -> int:
    """A plain `cast … --json` (`_plain_cast`'s options): the document on stdout; the exit code."""
    try:
        from yimao.pipeline import CastRequest, document, read, topic_note, topic_use_note

        traditional = opts.pop("traditional", False)
        script = opts.pop("script", None)
        if script is not None:
            traditional = script != "s" and script
        del opts["json"]
        opts.pop("explain", None)  # the modern renderings are for the tables
        req = CastRequest(**opts)
        result = read(req)
        warn_moment(result.chart.pillars, traditional)
        if (note := topic_note(req)) is not None:
            err(f"note: {note}", traditional)
        if (note := topic_use_note(req)) is not None:
            err(f"note: {note}", traditional)
        write_json(document(result), traditional)
    except BaseException as e:
        return exit_code(e)
    return 0


def _plain_batch(args: list[str]) -> bool:
    """`batch`, `batch FILE` or `batch -`: nothing for a parser to do."""
    return (
        bool(args)
        and args[0] == "batch"
        and len(args) <= 2
        and all(a == "-" or not a.startswith("-") for a in args[1:])
        and "_YIMAO_COMPLETE" not in os.environ
    )


# The values of _YIMAO_COMPLETE that ask for completion: Typer's `{instruction}_{shell}`
# (typer.completion.shell_complete; a test checks them against the installed Typer).
COMPLETION_INSTRUCTIONS = frozenset(f"{i}_{s}" for i in ("complete", "source") for s in ("bash", "zsh", "fish", "powershell", "pwsh"))


def main() -> None:
    settle_streams()
    if os.environ.get("_YIMAO_COMPLETE", "") not in COMPLETION_INSTRUCTIONS:
        os.environ.pop("_YIMAO_COMPLETE", None)  # a stray value is no request for completion: ignored, not "Invalid completion instruction"
    sys.exit(run(sys.argv[1:]))


def run(args: list[str]) -> int:
    """Run `yimao ARGS` and give its exit code: every end of a run (an error, the exits of Typer,
    click and Rich, a write that fails at the last flush) is mapped here."""
    try:
        if _plain_batch(args):
            gc.freeze()  # what start-up made lives as long as the process (see cli.main)
            from yimao.batch import run_file

            code = run_file(args[1] if len(args) > 1 else "-")
        elif (opts := _plain_cast(args)) is not None:
            gc.freeze()
            code = run_cast(opts)
        else:
            best_effort_stderr()
            from yimao.cli import main as cli_main

            cli_main()  # click's standalone mode: it ends by SystemExit
            code = 0
    except SystemExit as e:
        code = _exit_status(e)
    except BaseException as e:
        code = exit_code(e)
    try:
        if sys.stdout is not None:
            sys.stdout.flush()  # what a writer left buffered: its failure is the output's
    except BaseException as e:
        failed = exit_code(e)  # (which also lets Python's own flush at exit pass)
        return code or failed
    return code


def _exit_status(e: SystemExit) -> int:
    cause = e.__context__
    if isinstance(cause, OSError) and cause.errno == errno.EPIPE:  # Typer (help) and Rich (tables) end a broken pipe with exit 1
        return exit_code(cause)
    if e.code is None or isinstance(e.code, int):
        return e.code or 0
    err(str(e.code))
    return EXIT_INTERNAL
