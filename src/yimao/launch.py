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
failure or an output that cannot be written; 130 interrupted; 141 the reader went away. `run`
sets them for every form in one place: `main` first settles the standard streams (a closed one
is held on the null device; a closed stdout fails each write), then `run` runs the command,
maps whatever ends it (Typer's, click's and Rich's own exits too: each ends a broken pipe with
exit 1) and flushes stdout last, so that a write that fails anywhere is said as such. Messages
on stderr are best effort (`err`, `best_effort_stderr`): the data on stdout is the product.
"""

from __future__ import annotations

import errno
import gc
import io
import os
import stat
import sys
from typing import Any, BinaryIO

from yimao.errors import NotationError, YimaoError, small_int

EXIT_USAGE = 2
EXIT_INTERNAL = 1
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a writer that the signal ended

# The output's own failures (a full disk, a closed standard output): said as such, exit 1.
_OUTPUT_ERRNOS = frozenset((errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF))


def err(message: str) -> None:
    """A message on stderr, best effort: a closed, full or broken stderr loses the message and
    nothing else (the data on stdout is the product)."""
    try:
        sys.stderr.write(f"yimao: {message}\n")
        sys.stderr.flush()
    except AttributeError:  # closed from the start (None)
        pass
    except (OSError, ValueError):
        sys.stderr = None  # type: ignore[assignment]  # no more tries, and none at exit: its flush would fail again (exit 120)


def stdout() -> BinaryIO:
    """Standard output as bytes; an OSError when it is closed (`yimao … >&-`)."""
    if sys.stdout is None:
        raise OSError(errno.EBADF, "standard output is closed")
    return sys.stdout.buffer


def write_text(text: str) -> None:
    """Text on stdout as UTF-8, flushed (so that a failure to write is raised here)."""
    stdout().write(text.encode("utf-8"))
    sys.stdout.flush()


# --- the standard streams ----------------------------------------------------------------------


def settle_streams() -> None:
    """Standard streams a run can rely on, whatever it was started with.

    A descriptor 0-2 that is closed is held open on the null device, so that no file yimao opens
    takes its number (a batch FILE opened as descriptor 0 was taken for stdin). A closed stdout
    then fails every write as a closed descriptor does (`_closed_stdout`), so that each writer
    (Rich, click's help, the JSON) raises where it writes, and a run with nothing to write
    succeeds: left as None, Rich and click drop their output silently, and the run exits 0. A
    closed stderr writes to the null device. A closed stdin stays None (`yimao batch -` says so).
    An unbuffered stdout gets a buffer (`_buffered`). Only attribute checks in the usual case: no
    system call, nothing built."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):  # in order: the null device then opens as fd
        if getattr(sys, name) is None:
            _hold(fd)
    if sys.stdout is None:
        sys.stdout = _closed_stdout()
    elif isinstance(getattr(sys.stdout, "buffer", None), io.FileIO):
        sys.stdout = _buffered(sys.stdout)
    if sys.stderr is None:  # the null device now: messages are lost (left None, click wrote its usage errors on stdout)
        try:
            sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
        except OSError:
            pass


def _buffered(out: Any) -> Any:
    """Stdout over a buffer (`python -u`, PYTHONUNBUFFERED, writes to the raw file): a raw write may
    write part of what it is given (a reader that goes away mid-way), and neither the text layer
    nor a bare write looks, so the rest was lost with exit 0. A buffered writer writes all or
    raises. Every writer of yimao flushes what it writes, so nothing waits in the buffer."""
    return io.TextIOWrapper(
        io.BufferedWriter(out.buffer), encoding=out.encoding, errors=out.errors, line_buffering=out.line_buffering, write_through=True
    )


def _closed_stdout() -> Any:
    class ClosedOutput(io.RawIOBase):
        def writable(self) -> bool:
            return True

        def write(self, b: Any) -> int:
            raise OSError(errno.EBADF, "standard output is closed")

    return io.TextIOWrapper(io.BufferedWriter(ClosedOutput()), encoding="utf-8")


def best_effort_stderr() -> None:
    """Standard error whose writes never fail: a message that cannot be written (a closed, full or
    broken stderr) is lost, and the run goes on to write its data and exit as the data says.
    `err` is best effort on its own; this is for what the libraries write there (click's usage
    errors, Rich's progress bar). Built only for the runs that use them (the Typer app, the bar):
    a plain `cast … --json` or `batch` need not pay for defining an io class at each start."""
    old = sys.stderr
    if old is None or getattr(getattr(old, "buffer", None), "best_effort", False):
        return

    class Messages(io.FileIO):
        best_effort = True
        lost = False

        def write(self, b: Any) -> int:
            view = memoryview(b).cast("B")
            size = len(view)
            try:
                while view and not self.lost:
                    done = super().write(view)
                    self.lost = not done  # None: it would block; either way, not again
                    view = view[done or 0 :]
            except OSError:
                self.lost = True  # not again: each try could fail the same way
            return size

    try:
        raw = Messages(old.fileno(), "w", closefd=False)
    except (AttributeError, OSError, ValueError):  # no descriptor (an embedding's stream): as it is
        return
    sys.stderr = io.TextIOWrapper(
        raw, encoding=old.encoding or "utf-8", errors=old.errors or "backslashreplace", line_buffering=True, write_through=True
    )


def _hold(fd: int) -> None:
    try:
        os.fstat(fd)
        return  # open after all
    except OSError:
        pass
    try:
        null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
    except OSError:
        return
    if null != fd:
        os.dup2(null, fd)
        os.close(null)


def _drop_stdout() -> None:
    """After stdout failed: what it still buffers goes to the null device, so that Python's own
    flush at exit does not fail again (it would print an "Exception ignored" and exit 120)."""
    try:
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (AttributeError, OSError, ValueError):
        sys.stdout = None  # type: ignore[assignment]
        return
    os.dup2(null, fd)
    os.close(null)


def exit_code(e: BaseException) -> int:
    """Say on stderr what stopped a command and give its exit code: the core's error family is
    bad input (2), anything unexpected a defect of yimao (1), never a traceback (but with
    YIMAO_DEBUG set). Re-raises what is not an error (SystemExit)."""
    if isinstance(e, YimaoError):
        err(f"error: {e}")
        return EXIT_USAGE
    if isinstance(e, KeyboardInterrupt):
        err("interrupted")
        return EXIT_INTERRUPTED
    if isinstance(e, OSError) and e.errno == errno.EPIPE:  # the reader went away (yimao … | head): stop quietly, as Unix tools do
        _drop_stdout()
        return EXIT_BROKEN_PIPE
    if not isinstance(e, Exception):
        raise e
    if isinstance(e, OSError) and e.errno in _OUTPUT_ERRNOS:  # not a defect: the output failed
        _drop_stdout()
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
    """`yimao cast`'s reading of its options (a `pipeline.CastResult`), with the warning of a
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
    day_start = small_int(opts.get("day_start", "23"), 2)  # read as cli._day_start reads it
    if day_start is None or not opts.get("day_start", "23").isascii():  # the parser says what is wrong
        return None
    opts["day_start"] = day_start
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
            stream = _standard_input()
        else:
            try:
                stream = open(file, "rb")
            except OSError as e:
                raise NotationError(f"cannot read {file!r}: {e.strerror}", file) from None
        progress = None
        on_line = None
        if _is_terminal(sys.stderr):
            best_effort_stderr()  # (Rich's bar is drawn there)
            from yimao.render import line_progress

            size = _regular_file_size(stream)  # a bar over the input's bytes, else a spinner
            progress, on_line = line_progress(size, stream.tell if size else None)
        try:
            summary = batch.run(stream, stdout(), on_line=on_line)
        finally:
            if progress is not None:
                progress.stop()
            if file != "-":
                stream.close()
        err(summary.line())
    except BaseException as e:
        return exit_code(e)
    return EXIT_INTERRUPTED if summary.interrupted else EXIT_INTERNAL if summary.defects else EXIT_USAGE if summary.errors else 0


def _standard_input() -> BinaryIO:
    """Standard input to read requests from: bad input (exit 2) when there is none to read (closed,
    or open only for writing), said before anything is written. (A directory as stdin never gets
    here: the interpreter refuses it at start.)"""
    if sys.stdin is None:
        raise NotationError("standard input is closed: give the requests on it, or name a FILE", "-")
    try:
        import fcntl

        writable_only = fcntl.fcntl(sys.stdin.fileno(), fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY
    except (AttributeError, ImportError, OSError, ValueError):  # no descriptor (an embedding's stream), or no fcntl: read it as it is
        writable_only = False
    if writable_only:
        raise NotationError("standard input is open only for writing: give the requests on it, or name a FILE", "-")
    return sys.stdin.buffer


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


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
            code = run_batch(args[1] if len(args) > 1 else "-")
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
