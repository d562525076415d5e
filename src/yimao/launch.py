"""The program's entry point, and the edges of a run that need no Typer: messages on stderr,
exit codes, and the `batch` command.

`yimao batch [FILE|-]` takes one argument, which needs no parser; importing Typer and click and
building the command would be about a third of its start-up (≈90M of ≈295M instructions), paid
again by every script that streams a few hundred lines. So `main` runs that exact form here and
hands everything else (options, --help, misspellings, shell completion) to `cli`, which runs
`batch` through the same `run_batch`.

Exit codes: 0 success; 2 bad input (message on stderr, nothing on stdout); 1 yimao's own
failure or an output that cannot be written; 130 interrupted; 141 the reader went away.
"""

from __future__ import annotations

import errno
import gc
import os
import stat
import sys
from typing import BinaryIO

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
    if os.environ.get("YIMAO_DEBUG"):
        raise e
    err(f"internal error ({type(e).__name__}: {e}); set YIMAO_DEBUG=1 for a traceback and please report it")
    return EXIT_INTERNAL


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
    return 130 if summary.interrupted else EXIT_USAGE if summary.errors else 0


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
    from yimao.cli import main as cli_main

    cli_main()
