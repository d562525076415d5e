"""`yimao batch`: JSON Lines in, JSON Lines out — one result per input line, in order.

Each line is a request with the options of `yimao cast` ({"hex": "离之乾", "date": "…"} or
pillars instead of a date, "use", "day_start", "tz", "topic", "moving", "earth", and
"traditional": true, or "tw" or "hk", for that line's document in traditional characters; false
for simplified whatever `--traditional` says). Each result is the document `yimao cast --json`
gives, on one line. A malformed line or a bad request gives
{"line": n, "error": {"message", "value"}} for that line and the run goes on. Blank lines are
skipped and counted. Output is written line by line as it is produced, so memory stays flat.
"""

from __future__ import annotations

import gc
import os
import stat
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from queue import SimpleQueue
from typing import IO, Any, BinaryIO, NamedTuple

import orjson

from yimao.errors import NotationError, YimaoError, brief
from yimao.output import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_USAGE, best_effort_stderr, err, exit_code, in_script, stdout
from yimao.pipeline import CastRequest, document, document_json, json_type, read
from yimao.serialize import dumps

MAX_LINE_BYTES = 1 << 20  # a request is tiny; a megabyte is hostile
SKIP_BYTES = 1 << 16  # the chunks a line too long is read past in
MAX_NUMBER_DIGITS = 40  # a request's numbers are a few digits (day_start, a month, a moving line)
BOM = b"\xef\xbb\xbf"  # a byte order mark, as some Windows editors open a file
FREEZE_EVERY = 1024  # lines between moves of what the charts have kept (the warmed caches) out of the collector's sight
COLLECT_EVERY = 16 * FREEZE_EVERY  # lines between full collections of everything: the safety net


class Summary:
    """What a run did: lines answered with a chart or an error, blank lines skipped, seconds taken.
    (A plain class: a dataclass execs each method it generates, at every start.)"""

    __slots__ = ("ok", "errors", "defects", "blank", "seconds", "interrupted")

    def __init__(self) -> None:
        self.ok = self.errors = self.defects = self.blank = 0  # defects: lines yimao failed (among errors)
        self.seconds = 0.0
        self.interrupted = False

    @property
    def rate(self) -> float:
        """Charts per second: the lines answered with a chart (an error line is quicker, and
        counting it would flatter a run with many)."""
        return self.ok / self.seconds if self.seconds > 0 else 0.0

    def line(self) -> str:
        tail = " (interrupted)" if self.interrupted else ""
        defects = f" ({self.defects} internal: please report)" if self.defects else ""
        return (
            f"batch: {self.ok} ok, {self.errors} error{'s' if self.errors != 1 else ''}{defects}, "
            f"{self.blank} blank skipped, {self.rate:,.0f} charts/s{tail}"
        )


def _clean(s: str) -> str:
    """A string that can be written as UTF-8 (lone surrogates from hostile input are escaped)."""
    return s.encode("utf-8", "backslashreplace").decode("utf-8")


def error_object(n: int, message: str, value: Any) -> dict[str, Any]:
    """The answer to a bad line: its number, what is wrong, and the value at fault, bounded in
    depth and size (`errors.brief`: a request nested 500 deep or a megabyte long is summarised)."""
    return {"line": n, "error": {"message": _clean(message), "value": brief(value)}}


def read_lines(stream: IO[bytes], limit: int = MAX_LINE_BYTES) -> Iterator[bytes | int]:
    """The lines of `stream`, in order: each line whole (with its line end) when it fits in
    `limit` bytes and its line end, else its length in bytes (an int), the line read past in
    chunks without being kept. Memory stays bounded whatever arrives: a line of 50 MB costs
    `limit` bytes, and one that never ends (/dev/zero) is read past for ever in constant memory.
    Each line is given as soon as its end arrives (readline returns there), so a client talking
    to `batch -` line by line gets each answer before it sends the next request."""
    readline = stream.readline
    while True:
        line = readline(limit + 2)  # room for a line of `limit` bytes and its "\r\n"
        if len(line) < limit + 2 or line.endswith(b"\n"):  # whole, or the last line, or none
            if not line:
                return
            yield line
            continue
        size = len(line)
        while line and not line.endswith(b"\n"):
            line = readline(SKIP_BYTES)
            size += len(line)
        yield size - (2 if line.endswith(b"\r\n") else 1 if line.endswith(b"\n") else 0)


def answer(n: int, raw: bytes, script: bool | str = False) -> bytes | dict[str, Any]:
    """The result for one non-blank input line: the line of its chart (the document of `yimao
    cast --json`, compact, with its newline, in `script` unless the line asks for another), or an
    error object. Never raises for bad input."""
    if len(raw) > MAX_LINE_BYTES:
        return too_long(n, len(raw))
    try:
        obj = orjson.loads(raw)  # strict RFC 8259 UTF-8 JSON: every well-formed request
    except orjson.JSONDecodeError:
        obj = _lenient(n, raw)  # the standard library's reading, and its messages, for the rest
        if isinstance(obj, _Error):
            return obj.result
    if not isinstance(obj, dict):
        return error_object(n, f"a JSON object expected, got {json_type(obj)}", raw.decode()[:80])
    try:
        if "traditional" in obj:  # this line's script: true, false, "t", "tw", "hk" or "s"
            obj = dict(obj)
            script = _line_script(obj.pop("traditional"))
        result = read(CastRequest.from_mapping(obj))
        return dumps(in_script(document(result), script), compact=True) if script else document_json(result)
    except YimaoError as e:
        return error_object(n, str(e), e.value)
    except RecursionError:
        return error_object(n, "request nested too deeply", None)


def _line_script(v: Any) -> bool | str:
    """A request's "traditional": a boolean or a script's name (`hanzi.SCRIPTS`)."""
    from yimao.hanzi import script_of

    if not isinstance(v, (bool, str)):
        raise NotationError(f'traditional must be true, false or a script ("tw", "hk"), got {json_type(v)}', v, ("true", "false", '"tw"', '"hk"'))
    script = script_of(v)
    return False if script == "s" else script


def too_long(n: int, size: int) -> dict[str, Any]:
    return error_object(n, f"line too long ({size:,} bytes; at most {MAX_LINE_BYTES:,})", None)


class Writer:
    """Writes whole lines to `out` in order, on a thread of its own.

    The kernel's copying of a document into a file or pipe (~47 KB a chart; on a fresh machine
    over a second of system time per 10,000 lines, since every page written is a page the
    hypervisor must first hand over) then runs on the other core, beside the next charts, not
    between them. A bounded number of lines wait (memory stays flat when the reader is slower
    than the charts); the writer takes all that wait at each turn and writes them in one system
    call, since a thread gets the interpreter back only every few milliseconds while the charts
    keep it busy. A line is written whole or not at all; `close` waits until every line put is
    out, and an error of the output (a reader gone away) is raised in the caller at its next
    `put` or at `close`.
    """

    DEPTH = 256  # lines in flight at most: ~12 MB of documents

    def __init__(self, out: IO[bytes]) -> None:
        self.error: BaseException | None = None
        self._out = out
        self._fd = _fd_of(out)
        self._queue: SimpleQueue[bytes | None] = SimpleQueue()  # its put is one C call: atomic under Ctrl-C
        # Lines put and lines written, each counted by one thread (plain ints: a line costs no
        # lock; threading.Semaphore is Python code, some 8K instructions a line), and the
        # writer's signal that it has written some.
        self._put = self._written = 0
        self._room = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="yimao-batch-writer", daemon=True)
        self._thread.start()

    def put(self, line: bytes) -> None:
        if self.error is not None:
            raise self.error
        if self._put - self._written >= self.DEPTH:
            self._wait_for_room()  # an interrupt here puts nothing
        self._queue.put(line)
        self._put += 1

    def _wait_for_room(self) -> None:
        """Wait while DEPTH lines are unwritten (the reader is slower than the charts)."""
        room = self._room
        while True:
            room.clear()  # before looking: a write after this sets it, and the wait sees it
            if self._put - self._written < self.DEPTH:
                return
            if self.error is not None:
                raise self.error
            room.wait(1.0)

    def close(self) -> None:
        self._queue.put(None)  # the end
        self._thread.join()
        if self.error is not None:
            raise self.error

    def _loop(self) -> None:
        queue = self._queue
        while True:
            chunk = [queue.get()]
            chunk += [queue.get() for _ in range(queue.qsize())]  # every line that waits, in one call
            end = chunk[-1] is None
            if end:
                chunk.pop()
            count = len(chunk)
            if count:
                if self.error is None:
                    try:
                        self._write(chunk)  # type: ignore[arg-type]  # lines only: the end (None) was popped
                    except BaseException as e:  # the output failed: the caller stops at its next put
                        self.error = e
                self._written += count
                self._room.set()
            if end:
                return

    def _write(self, chunk: list[bytes]) -> None:
        if self._fd is None:
            self._out.write(b"".join(chunk))
            self._out.flush()
            return
        rest = deque(chunk)
        while rest:  # writev may write less than asked (a pipe): go on from where it stopped
            done = os.writev(self._fd, list(islice(rest, 1024)))  # at most IOV_MAX buffers
            while rest and done >= len(rest[0]):
                done -= len(rest.popleft())
            if done:
                rest[0] = rest[0][done:]


def _fd_of(out: IO[bytes]) -> int | None:
    """The file descriptor to write to directly (with what `out` buffered flushed first), or None
    to write through `out` (an in-memory stream, or a system without writev)."""
    if not hasattr(os, "writev"):
        return None
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    out.flush()
    return fd


class _Error(NamedTuple):
    result: dict[str, Any]


def _lenient(n: int, raw: bytes) -> Any:
    """A line orjson refuses, read as the standard library reads it: it accepts what orjson does
    not (NaN, integers beyond 64 bits, lone surrogate escapes), and its messages say where a
    line goes wrong. An `_Error` for a line that is not UTF-8 or not JSON."""
    import json  # only for the rare line orjson refuses

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return _Error(error_object(n, f"not UTF-8 ({e.reason} at byte {e.start})", raw[max(0, e.start - 8) : e.start + 8].hex()))
    try:
        return json.loads(text, parse_int=_json_int)
    except RecursionError:
        return _Error(error_object(n, "JSON nested too deeply", None))
    except _LongNumber as e:
        return _Error(error_object(n, str(e), e.digits))
    except ValueError as e:
        return _Error(error_object(n, f"not JSON: {e}", text[:80]))


class _LongNumber(ValueError):
    def __init__(self, digits: str) -> None:
        count = len(digits.lstrip("-"))
        super().__init__(f"a number of {count:,} digits: a request's numbers are a few digits (day_start 23 or 0, month 1-12, moving lines 1-6)")
        self.digits = digits


def _json_int(digits: str) -> int:
    """A JSON integer, refused when longer than any number of a request could be: before it is
    converted (int() refuses more than 4,300 digits, and takes time quadratic in their number)."""
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _LongNumber(digits)
    return int(digits)


def run(
    lines: Iterable[bytes] | IO[bytes],
    out: IO[bytes],
    *,
    on_line: Callable[[int], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    script: bool | str = False,
) -> Summary:
    """Answer every line of `lines` on `out`, in order; Ctrl-C stops after the last whole line."""
    summary = Summary()
    start = clock()
    n = 0
    # A chart makes thousands of short-lived containers and no reference cycles (a test checks),
    # so the collector, which the allocator triggers every few hundred of them, would walk them
    # and the growing caches for nothing. It is off for the run. Every FREEZE_EVERY lines what has
    # survived (the caches the charts warmed) is frozen, which costs nothing and spares the
    # collection at exit from walking it; every COLLECT_EVERY lines a full collection of
    # everything reclaims whatever cycles there are anyway, so memory stays flat. (A full
    # collection every thousand lines instead walked each thousand lines' new cache entries:
    # ~3 % of a run of a few thousand lines.)
    collecting = gc.isenabled()
    gc.disable()
    writer = Writer(out)
    try:
        items: Iterable[bytes | int] = lines
        if hasattr(lines, "readline"):  # a stream: read line by line, in bounded memory
            items = read_lines(lines)  # type: ignore[arg-type]
        for n, raw in enumerate(items, 1):
            if isinstance(raw, int):  # a line too long, read past (`read_lines`)
                result: bytes | dict[str, Any] = too_long(n, raw)
            else:
                if n == 1 and raw.startswith(BOM):  # read past, as the editor meant no character
                    raw = raw[3:]
                body = raw.strip()
                if not body:
                    summary.blank += 1
                    continue
                try:
                    result = answer(n, body, script)
                except Exception as e:  # a defect of yimao, not bad input: said on its line, and the run goes on
                    if os.environ.get("YIMAO_DEBUG"):
                        raise
                    result = error_object(n, f"internal error ({type(e).__name__}: {e}); please report it", None)
                    summary.defects += 1
            if isinstance(result, bytes):
                writer.put(result)
                summary.ok += 1
            else:
                try:
                    data = dumps(result, compact=True)
                except (TypeError, ValueError) as e:  # cannot happen: error objects are made JSON-safe
                    data = dumps(error_object(n, f"cannot write the result: {e}", None), compact=True)
                writer.put(data)
                summary.errors += 1
            if n % FREEZE_EVERY == 0:
                if n % COLLECT_EVERY == 0:  # (a multiple of FREEZE_EVERY)
                    gc.unfreeze()
                    gc.collect()
                gc.freeze()
            if on_line is not None:
                on_line(n)
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        try:
            writer.close()  # the lines answered are written, whole, before the summary
        finally:
            if collecting:
                gc.enable()
    summary.seconds = clock() - start
    return summary


# --- the command: a file or standard input, the summary on stderr, the exit code -------------------


def run_file(file: str, script: bool | str = False) -> int:
    """`yimao batch FILE` (or - for standard input): the lines answered on stdout (in `script`,
    as `--traditional` asks), the summary on stderr (a progress bar too when stderr is a
    terminal); the exit code."""
    try:
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
            summary = run(stream, stdout(), on_line=on_line, script=script)
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
