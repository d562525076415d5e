"""The edges of a run that every command shares, with or without Typer: the standard streams,
messages on stderr, stdout as bytes, writing a document or a text, and exit codes.

Exit codes: 0 success; 2 bad input (message on stderr, nothing on stdout); 1 yimao's own
failure or an output that cannot be written; 130 interrupted; 141 the reader went away
(`exit_code` maps an error to its code and says it). Messages on stderr are best effort (`err`,
`best_effort_stderr`): the data on stdout is the product. `settle_streams` makes the standard
streams ones a run can rely on, whatever it was started with.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from typing import Any, BinaryIO

from yimao.errors import YimaoError

EXIT_USAGE = 2
EXIT_INTERNAL = 1
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a writer that the signal ended

# The output's own failures (a full disk, a closed standard output): said as such, exit 1.
_OUTPUT_ERRNOS = frozenset((errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF))


class OutputError(Exception):
    """An output file that cannot be written (a full disk, no permission), said naming the file:
    exit 1, as for standard output."""


def err(message: str, traditional: bool | str = False) -> None:
    """A message on stderr, in the script asked for (`hanzi.script_of`), best effort: a closed,
    full or broken stderr loses the message and nothing else (the data on stdout is the product)."""
    say(f"yimao: {message}\n", traditional)


def say(text: str, traditional: bool | str = False) -> None:
    """Text on stderr as it stands (a prompt, a throw), otherwise as `err`."""
    if traditional:
        from yimao.hanzi import convert, script_of

        text = convert(text, script_of(traditional))
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except AttributeError:  # closed from the start (None)
        pass
    except (OSError, ValueError):
        sys.stderr = None  # no more tries, and none at exit: its flush would fail again (exit 120)


def stdout() -> BinaryIO:
    """Standard output as bytes; an OSError when it is closed (`yimao … >&-`)."""
    if sys.stdout is None:
        raise OSError(errno.EBADF, "standard output is closed")
    return sys.stdout.buffer


def write_text(text: str) -> None:
    """Text on stdout as UTF-8, flushed (so that a failure to write is raised here)."""
    stdout().write(text.encode("utf-8"))
    sys.stdout.flush()


def write_file(path: str, data: bytes, what: str) -> None:
    """`data` as the file at `path`, whole or not at all: written beside it under another name,
    then renamed into place, so that a failure (a full disk) leaves the file that was there as it
    was. The new file has the permissions a new file gets (the umask's), and replaces a symlink
    rather than writing through it. An `OutputError` names `what` failed (`--svg 'chart.svg'`)."""
    import secrets

    target = os.path.abspath(os.path.expanduser(path))
    part = os.path.join(os.path.dirname(target), f".{os.path.basename(target)}.{secrets.token_hex(4)}.part")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with open(fd, "wb", closefd=True) as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(part, target)
        except BaseException:
            try:
                os.unlink(part)
            except OSError:
                pass
            raise
    except OSError as e:
        raise OutputError(f"cannot write {what}: {e.strerror or e}") from None


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
        sys.stdout = None
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
    if isinstance(e, OutputError):
        err(f"error: {e}")
        return EXIT_INTERNAL
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


def write_json(doc: dict, traditional: bool | str = False) -> None:
    """A JSON document on stdout (docs/design.md §4: indented, UTF-8, a final newline), in the
    script asked for (`hanzi.script_of`): every string value converted, keys (ASCII) as they are."""
    from yimao.serialize import dumps

    stdout().write(dumps(in_script(doc, traditional)))
    sys.stdout.flush()


def in_script(doc: Any, traditional: bool | str) -> Any:
    """A document in the script asked for: a copy with every string value converted, the keys as
    they are (a few are Chinese, the roles 始 中 终 of a 局: the schema does not change with the
    script). The document itself is not changed: its parts are shared with other documents."""
    from yimao.hanzi import convert, script_of

    script = script_of(traditional)
    if script == "s":
        return doc
    known = _CONVERTED.setdefault(script, {})
    new: list[tuple[Any, Any, str]] = []  # (container, key, string) of each string not met before
    out = _converted({"": doc}, known, new)  # held in a dict, so that a document that is a string or a list is walked alike
    if new:
        texts = list(dict.fromkeys(t for _, _, t in new))
        if len(known) + len(texts) > MOST_CONVERTED:
            known.clear()
        # One call of OpenCC for the values not met before, a line each (OpenCC's phrases hold
        # no line break); a value holding one is converted alone. A call per string cost a
        # chart's document 8.5 ms, one call 4 ms, most of it OpenCC's own.
        lines = [t for t in texts if "\n" not in t]
        if lines:
            known.update(zip(lines, convert("\n".join(lines), script).split("\n"), strict=True))
        known.update((t, convert(t, script)) for t in texts if "\n" in t)
        for container, key, text in new:
            container[key] = known[text]
    return out[""]


# A document's values recur (names, sentences, relations): each string is converted once per
# script, and kept with its conversion while fewer than MOST_CONVERTED are (then forgotten
# together, so that a long batch of questions never grows it past that).
MOST_CONVERTED = 1 << 16
_CONVERTED: dict[str, dict[str, str]] = {}


def _converted(value: Any, known: dict[str, str], new: list[tuple[Any, Any, str]]) -> Any:
    """A copy of a dict or list, each string in it converted (`known`, an ASCII one as it is);
    where one is not known yet it stays as it is, and its place goes into `new`. One walk: the
    strings, most of a document, are handled in the loop rather than by a call each."""
    out: Any
    if isinstance(value, dict):
        out = {}
        items: Any = value.items()
    elif isinstance(value, (list, tuple)):
        out = [None] * len(value)
        items = enumerate(value)
    else:
        return value
    for k, v in items:
        if type(v) is str:  # a document holds plain str (serialize writes enums by value)
            found = known.get(v)
            if found is None:
                found = v
                if not v.isascii():
                    new.append((out, k, v))
            out[k] = found
        else:
            out[k] = _converted(v, known, new)
    return out


def warn_moment(p: Any, traditional: bool | str = False) -> None:
    """The warnings of a moment's reading on stderr, in the script asked for: how its wall time or
    zone was read, and a 节 within minutes."""
    ctx = p.context
    if ctx is None:
        return
    for note in ctx.notes:
        err(f"warning: {note}", traditional)
    if ctx.near_jie is not None:
        j, seconds = ctx.near_jie
        local = j.instant.astimezone(ctx.moment.tzinfo)  # in the moment's own zone, as the tables write the 节
        err(f"warning: {seconds:+.0f} s from {j.name} ({local:%Y-%m-%d %H:%M:%S%z}): the month pillar depends on seconds", traditional)
