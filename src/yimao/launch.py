"""The program's entry point, and the edges of a run that need no Typer: messages on stderr,
exit codes, the `batch` command, and `cast … --json`.

`yimao batch [FILE|-]` takes one argument, which needs no parser; importing Typer and click and
building the command would be about a third of its start-up (≈90M of ≈295M instructions), paid
again by every script that streams a few hundred lines. A `yimao cast … --json` whose options are
each given once as `--name value` needs none either, and there Typer and click are two thirds of
the run (≈240M of ≈370M instructions: Typer imports much of Rich). So `main` runs those forms
here and hands everything else (--help, the tables, misspellings, shell completion) to `cli`,
whose commands call the same `run_batch` and `read_cast`.

Exit codes: 0 success; 2 bad input (message on stderr, nothing on stdout); 1 yimao's own
failure or an output that cannot be written; 130 interrupted; 141 the reader went away.
"""

from __future__ import annotations

import errno
import gc
import os
import stat
import sys
from typing import Any, BinaryIO

from yimao.errors import NotationError, YimaoError

EXIT_USAGE = 2
EXIT_INTERNAL = 1

# The output's own failures (a full disk, a closed standard output): said as such, exit 1.
_OUTPUT_ERRNOS = frozenset((errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF))


def err(message: str) -> None:
    sys.stderr.write(f"yimao: {message}\n")
    sys.stderr.flush()


def stdout() -> BinaryIO:
    """Standard output as bytes; an OSError when it is closed (`yimao … >&-`)."""
    if sys.stdout is None:
        raise OSError(errno.EBADF, "standard output is closed")
    return sys.stdout.buffer


def exit_code(e: BaseException) -> int:
    """Say on stderr what stopped a command and give its exit code: the core's error family is
    bad input (2), anything unexpected a defect of yimao (1), never a traceback (but with
    YIMAO_DEBUG set). Re-raises what is not an error (SystemExit)."""
    if isinstance(e, YimaoError):
        err(f"error: {e}")
        return EXIT_USAGE
    if isinstance(e, KeyboardInterrupt):
        err("interrupted")
        return 130
    if isinstance(e, BrokenPipeError):  # the reader went away (yimao … | head): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    if not isinstance(e, Exception):
        raise e
    if isinstance(e, OSError) and e.errno in _OUTPUT_ERRNOS:  # not a defect: the output failed
        err(f"error: cannot write the output: {e.strerror}")
        return EXIT_INTERNAL
    if isinstance(e, UnicodeEncodeError) and _is_stdout_codec(e.encoding):  # the tables are Chinese
        err(
            f"error: cannot write the output: standard output's encoding ({e.encoding}) has no {e.object[e.start : e.end]!r}; "
            "use a UTF-8 locale or PYTHONIOENCODING=utf-8, or --json (always UTF-8)"
        )
        return EXIT_INTERNAL
    if os.environ.get("YIMAO_DEBUG"):
        raise e
    err(f"internal error ({type(e).__name__}: {e}); set YIMAO_DEBUG=1 for a traceback and please report it")
    return EXIT_INTERNAL


def _is_stdout_codec(name: str) -> bool:
    import codecs

    try:
        return codecs.lookup(name).name == codecs.lookup(sys.stdout.encoding).name
    except (LookupError, AttributeError, TypeError):
        return False


def write_json(doc: dict, traditional: bool = False) -> None:
    """A JSON document on stdout (DESIGN §4: indented, UTF-8, a final newline)."""
    from yimao.serialize import dumps
    from yimao.serialize import traditional as to_trad

    if traditional:
        doc = to_trad(doc)
    stdout().write(dumps(doc))
    sys.stdout.flush()


def warn_moment(p: Any) -> None:
    """The warnings of a moment's reading on stderr: how its wall time or zone was read, and a 节
    within minutes."""
    ctx = p.context
    if ctx is None:
        return
    for note in ctx.notes:
        err(f"warning: {note}")
    if ctx.near_jie is not None:
        j, seconds = ctx.near_jie
        err(f"warning: {seconds:+.0f} s from {j.name} ({j.instant:%Y-%m-%d %H:%M:%S} UTC): the month pillar depends on seconds")


def read_cast(
    hex: str | None = None,
    moving: str | None = None,
    date: str | None = None,
    tz: str | None = None,
    day_start: int = 23,
    year: str | None = None,
    month: str | None = None,
    day: str | None = None,
    hour: str | None = None,
    use: str | None = None,
    topic: str | None = None,
    earth: str = "shui",
) -> Any:
    """`yimao cast`'s reading of its options (a `pipeline.Reading`), with the warning of a
    moment seconds from a 节 on stderr."""
    from yimao import pipeline

    if hex is None:
        raise NotationError("missing --hex: the cast to read", None, ("--hex 离之乾", "--hex 798788", "--hex 101101 --moving 2,5"))
    reading = pipeline.read(pipeline.CastRequest(hex, moving, date, tz, day_start, year, month, day, hour, use, topic, earth))
    warn_moment(reading.chart.pillars)
    return reading


# `yimao cast … --json` with each option given once, as `--name value`, `--name=value` or a flag:
# nothing for a parser to do. Typer and click would be two thirds of its start-up. Anything else
# (--help, a short option run together with its value, a misspelling, a value that looks like an
# option, a repeated option, a --day-start that is not a number) goes to the Typer app, which
# reads the same options (a test runs both on the same argument lists) and says what is wrong.
_CAST_VALUES = {
    "--hex": "hex", "-x": "hex", "--moving": "moving", "-m": "moving", "--date": "date", "-d": "date", "--tz": "tz",
    "--day-start": "day_start", "--year": "year", "--month": "month", "--day": "day", "--hour": "hour",
    "--use": "use", "-u": "use", "--topic": "topic", "--earth": "earth",
}  # fmt: skip
_CAST_FLAGS = {"--json": "json", "--traditional": "traditional", "-t": "traditional", "--explain": "explain"}


def _plain_cast(args: list[str]) -> dict[str, Any] | None:
    """The options of a plain `cast … --json` (see above), or None."""
    if not args or args[0] != "cast" or "--json" not in args or "_YIMAO_COMPLETE" in os.environ:
        return None
    opts: dict[str, Any] = {}
    rest = iter(args[1:])
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
    day_start = opts.get("day_start", "23")
    if not (day_start.isascii() and day_start.isdigit()):
        return None
    opts["day_start"] = int(day_start)
    return opts


def run_cast(opts: dict[str, Any]) -> int:
    """A plain `cast … --json` (`_plain_cast`'s options): the document on stdout; the exit code."""
    try:
        from yimao.pipeline import document

        traditional = opts.pop("traditional", False)
        opts.pop("json")
        opts.pop("explain", None)  # the modern renderings are for the tables
        write_json(document(read_cast(**opts)), traditional)
    except BaseException as e:
        return exit_code(e)
    return 0


def run_batch(file: str) -> int:
    """`yimao batch FILE` (or - for standard input): the lines answered on stdout, the summary on
    stderr (a progress bar too when stderr is a terminal); the exit code."""
    try:
        from yimao import batch

        if file == "-":
            stream = sys.stdin.buffer
        else:
            try:
                stream = open(file, "rb")
            except OSError as e:
                raise NotationError(f"cannot read {file!r}: {e.strerror}", file) from None
        progress = None
        on_line = None
        if sys.stderr.isatty():
            from yimao.render import line_progress

            size = _regular_file_size(stream)  # a bar over the input's bytes, else a spinner
            progress, on_line = line_progress(size, stream.tell if size else None)
        try:
            summary = batch.run(stream, stdout(), on_line=on_line)
        finally:
            if progress is not None:
                progress.stop()
            if stream is not sys.stdin.buffer:
                stream.close()
        err(summary.line())
    except BaseException as e:
        return exit_code(e)
    return 130 if summary.interrupted else EXIT_INTERNAL if summary.defects else EXIT_USAGE if summary.errors else 0


def _regular_file_size(stream: BinaryIO) -> int | None:
    try:
        st = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) and st.st_size > 0 else None


def _plain_batch(args: list[str]) -> bool:
    """`batch`, `batch FILE` or `batch -`: nothing for a parser to do."""
    return (
        bool(args)
        and args[0] == "batch"
        and len(args) <= 2
        and all(a == "-" or not a.startswith("-") for a in args[1:])
        and "_YIMAO_COMPLETE" not in os.environ
    )


def main() -> None:
    args = sys.argv[1:]
    if _plain_batch(args):
        gc.freeze()  # what start-up made lives as long as the process (see cli.main)
        sys.exit(run_batch(args[1] if len(args) > 1 else "-"))
    opts = _plain_cast(args)
    if opts is not None:
        gc.freeze()
        sys.exit(run_cast(opts))
    from yimao.cli import main as cli_main

    cli_main()
