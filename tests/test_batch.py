"""`yimao batch`: every line answered in order, results equal to `yimao cast --json`, hostile input survived."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yimao.batch import MAX_LINE_BYTES, answer, run
from yimao.pipeline import CastRequest, document, read

ENV = {**os.environ, "TZ": "Asia/Shanghai"}

GOOD = [
    {"hex": "离之乾", "date": "2026-12-02T10:00+08:00"},
    {"hex": "大畜之离", "month": "卯", "day": "戊寅", "use": "父"},
    {"hex": "798788", "date": "1999-12-31T23:30+08:00", "day_start": 0, "use": "世"},
    {"hex": "101101", "moving": [2, 5], "date": "2026-12-02T10:00", "tz": "Asia/Shanghai"},
    {"hex": "困之兑", "month": 8, "day": "庚申", "use": "财", "topic": "婚姻"},
]


def lines_of(objs) -> bytes:
    return b"".join(json.dumps(o, ensure_ascii=False).encode() + b"\n" for o in objs)


def run_bytes(data: bytes):
    out = io.BytesIO()
    summary = run(io.BytesIO(data), out)
    return summary, [
        json.loads(line) for line in out.getvalue().split(b"\n")[:-1]
    ]  # not splitlines(): U+0085 and U+2028 are no line ends in JSON Lines


def test_results_equal_single_casts():
    summary, results = run_bytes(lines_of(GOOD))
    assert summary.ok == len(GOOD) and summary.errors == 0
    for req, got in zip(GOOD, results):
        single = subprocess.run([sys.executable, "-m", "yimao", "cast", *_args(req), "--json"], capture_output=True, env=ENV, timeout=60)
        assert single.returncode == 0, single.stderr
        assert json.loads(single.stdout) == got


def _args(req: dict) -> list[str]:
    out = []
    for k, v in req.items():
        if k == "moving":
            v = ",".join(map(str, v))
        out += [f"--{k.replace('_', '-')}", str(v)]
    return out


def test_hostile_lines_are_each_answered_in_order():
    hostile = [
        lines_of([GOOD[0]]),
        b"\n",  # blank: skipped, counted
        b"   \t  \n",
        b"not json\n",
        b"\xff\xfe\xfa invalid utf-8\n",
        b"[" * 100_000 + b"]" * 100_000 + b"\n",  # deeply nested
        b'{"hex": "' + b"x" * (MAX_LINE_BYTES + 10) + b'"}\n',  # huge
        b'{"hex": 7}\n',
        '{"hex": "离", "moving": "9"}\n'.encode(),
        '{"hex": "离", "month": "13"}\n'.encode(),
        '{"hex": "离", "bogus": 1}\n'.encode(),
        b'{"date": "2026-12-02"}\n',
        b'"just a string"\n',
        b'{"hex": "\xe4\xb9\xbe", "day_start": "23"}\n',
        lines_of([GOOD[1]]),
        b'{"hex": "\\u0000\\ud800"}\n',
        b'{"hex": null, "month": "3"}\n',  # was an internal error that ended the run
        b'{"hex": "\xe4\xb9\xbe", "month": 123456789012345678901234567890}\n',
        b"\xef\xbb\xbf" + lines_of([GOOD[1]]),  # a byte order mark: only the first line may have one
    ]
    summary, results = run_bytes(b"".join(hostile))
    assert summary.blank == 2
    assert summary.ok == 2 and summary.errors == 15 and summary.defects == 0
    assert len(results) == 17
    # every error names its input line, in order
    error_lines = [r["line"] for r in results if "error" in r]
    assert error_lines == sorted(error_lines) == [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19]
    assert [r["error"]["message"] for r in results[-3:]][:2] == [
        "hex must be a string, got null (did you mean: 离之乾, 798788?)",
        "month must be a string or a whole number of a few digits, got 1.2345678901234568e+29",  # orjson reads it as a float
    ]
    assert "BOM" in results[-1]["error"]["message"]
    assert results[0]["schema_version"] == 2 and results[12]["schema_version"] == 2  # lines 1 and 15
    for r in results:
        if "error" in r:
            assert r["error"]["message"] and set(r) == {"line", "error"}


def test_command_exit_codes_and_summary():
    ok = subprocess.run([sys.executable, "-m", "yimao", "batch"], input=lines_of(GOOD[:2]), capture_output=True, env=ENV, timeout=60)
    assert ok.returncode == 0 and len(ok.stdout.splitlines()) == 2
    assert b"2 ok, 0 errors" in ok.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "yimao", "batch", "-"], input=lines_of(GOOD[:1]) + b"oops\n", capture_output=True, env=ENV, timeout=60
    )
    assert bad.returncode == 2 and len(bad.stdout.splitlines()) == 2 and b"1 ok, 1 error" in bad.stderr
    missing = subprocess.run([sys.executable, "-m", "yimao", "batch", "/nonexistent.jsonl"], capture_output=True, env=ENV, timeout=60)
    assert missing.returncode == 2 and missing.stdout == b"" and b"/nonexistent.jsonl" in missing.stderr


def test_deterministic_output():
    a = run_bytes(lines_of(GOOD))[1]
    b = run_bytes(lines_of(GOOD))[1]
    assert a == b
    doc = document(read(CastRequest(hex="大畜之离", month="卯", day="戊寅", use="父")))
    assert json.dumps(doc, ensure_ascii=False) == json.dumps(
        document(read(CastRequest(hex="大畜之离", month="卯", day="戊寅", use="父"))), ensure_ascii=False
    )


def test_interrupt_stops_after_a_whole_line():
    def lines():
        yield lines_of([GOOD[0]])
        yield lines_of([GOOD[1]])
        raise KeyboardInterrupt

    out = io.BytesIO()
    summary = run(lines(), out)
    assert summary.interrupted and summary.ok == 2
    text = out.getvalue().decode()
    assert text.endswith("\n") and len(text.splitlines()) == 2


def test_a_reader_that_goes_away_stops_the_batch_quietly():
    """yimao batch … | head: no traceback, no message, the Unix status of a broken pipe."""
    data = lines_of([GOOD[1]] * 400)
    p = subprocess.Popen([sys.executable, "-m", "yimao", "batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    p.stdin.write(data)
    p.stdin.close()
    p.stdout.read(100)
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=60) == 141 and b"Traceback" not in err and b"internal error" not in err


def test_charts_and_errors_make_no_reference_cycles():
    """`run` turns the cyclic collector off (collecting every COLLECT_EVERY lines instead): sound
    because answering a line, good or bad, leaves nothing that only the collector could free."""
    import gc

    hostile = [b"not json", b"\xff\xfe", b'{"hex": "xyz"}', b'{"hex": "\\ud800"}', '{"hex": "离", "month": "13"}'.encode(), b"[" * 5000 + b"]" * 5000]
    requests = [lines_of([g]).strip() for g in GOOD] + hostile
    for raw in requests:  # warm every cache first: what they keep is not garbage
        answer(1, raw)
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(3):
            for n, raw in enumerate(requests, 1):
                answer(n, raw)
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()
    run(io.BytesIO(lines_of(GOOD[:1])), io.BytesIO())
    assert gc.isenabled() == was  # `run` leaves the collector as it found it


def test_a_long_run_still_collects_cycles(monkeypatch):
    """The collector is off during a run, but every COLLECT_EVERY lines a full collection frees
    what only it can free, even what an earlier freeze set aside: memory stays flat should some
    line ever leave cycles behind."""
    import gc
    import weakref

    from yimao import batch

    alive = weakref.WeakSet()

    class Node:
        pass

    def cyclic_answer(n, raw, script=False):
        a, b = Node(), Node()
        a.other, b.other = b, a  # garbage only the collector can free
        alive.add(a)
        return b"{}\n"

    monkeypatch.setattr(batch, "FREEZE_EVERY", 4)
    monkeypatch.setattr(batch, "COLLECT_EVERY", 16)
    monkeypatch.setattr(batch, "answer", cyclic_answer)
    was = gc.isenabled()
    gc.disable()  # no collection but the run's own
    try:
        summary = batch.run([b"{}"] * 40, io.BytesIO())
        assert summary.ok == 40
        assert len(alive) == 40 - 32  # those of lines 1-32 were collected at lines 16 and 32
    finally:
        gc.unfreeze()
        if was:
            gc.enable()


# --- the writer thread ------------------------------------------------------------------------

import threading  # noqa: E402

from yimao.batch import Writer  # noqa: E402


class _Slow(io.BytesIO):
    """An output that takes its time: lines pile up while it writes."""

    def write(self, b):
        threading.Event().wait(0.001)
        return super().write(b)


def test_writer_keeps_every_line_whole_and_in_order():
    lines = [b"%d:" % i + b"x" * (i % 97) + b"\n" for i in range(3 * Writer.DEPTH)]
    out = _Slow()
    w = Writer(out)
    for line in lines:
        w.put(line)
    w.close()
    assert out.getvalue() == b"".join(lines)


def test_writer_holds_at_most_depth_lines():
    """Memory stays flat when the reader is slower than the charts: `put` waits once DEPTH lines
    are unwritten."""
    go = threading.Event()

    class Stuck(io.BytesIO):
        def write(self, b):
            go.wait(30)
            return super().write(b)

    class Small(Writer):
        DEPTH = 4

    out = Stuck()
    w = Small(out)
    for i in range(4):
        w.put(b"%d\n" % i)
    fifth = threading.Thread(target=w.put, args=(b"4\n",))
    fifth.start()
    fifth.join(0.3)
    assert fifth.is_alive()  # a fifth put waits
    go.set()
    fifth.join(30)
    assert not fifth.is_alive()
    w.close()
    assert out.getvalue() == b"0\n1\n2\n3\n4\n"


def test_writer_through_a_pipe_writes_partial_writes_out_whole():
    """On a file descriptor the writer uses writev, which a pipe may satisfy in part."""
    r, wfd = os.pipe()
    got = []
    reader = threading.Thread(target=lambda: got.extend(iter(lambda: os.read(r, 4096), b"")))
    reader.start()
    lines = [bytes([65 + i % 26]) * 100_000 + b"\n" for i in range(40)]
    with os.fdopen(wfd, "wb") as f:
        w = Writer(f)
        for line in lines:
            w.put(line)
        w.close()
    reader.join(30)
    os.close(r)
    assert b"".join(got) == b"".join(lines)


def test_an_output_error_stops_the_run():
    class Gone(io.BytesIO):
        def write(self, b):
            raise BrokenPipeError(32, "Broken pipe")

    try:
        run(io.BytesIO(lines_of(GOOD * 3)), Gone())
    except BrokenPipeError:
        pass
    else:
        raise AssertionError("a broken output must stop the batch")


def test_each_answer_is_out_before_the_next_request_comes():
    """Streaming: a line's answer reaches the reader while yimao waits for the next request
    (a script may talk to `yimao batch` line by line through a pipe)."""
    import select

    p = subprocess.Popen([sys.executable, "-m", "yimao", "batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    try:
        for req in GOOD[:2]:
            p.stdin.write(lines_of([req]))
            p.stdin.flush()
            ready, _, _ = select.select([p.stdout], [], [], 60)
            assert ready, "no answer while the next request is awaited"
            assert json.loads(p.stdout.readline())["schema_version"] == 2
    finally:
        p.stdin.close()
        p.wait(timeout=60)
    assert p.returncode == 0


def test_progress_on_a_terminal_leaves_the_output_alone(tmp_path):
    """On a terminal, stderr shows a bar over the input file's bytes; stdout still gets exactly
    one line per request."""
    import pty

    path = tmp_path / "in.jsonl"
    path.write_bytes(lines_of(GOOD * 30))
    master, slave = pty.openpty()
    try:
        p = subprocess.run(
            [sys.executable, "-m", "yimao", "batch", str(path)], stdout=subprocess.PIPE, stderr=slave, env={**ENV, "COLUMNS": "100"}, timeout=120
        )
        os.close(slave)
        shown = b""
        try:
            while chunk := os.read(master, 65536):
                shown += chunk
        except OSError:  # the terminal's other end is closed: all read
            pass
    finally:
        os.close(master)
    assert p.returncode == 0
    assert len(p.stdout.splitlines()) == len(GOOD) * 30
    assert b"150 ok, 0 errors" in shown and b"%" in shown  # the summary, and the bar's percentage


# --- the entry point: `yimao batch FILE` starts without Typer ----------------------------------


def test_plain_batch_skips_typer_and_nothing_else():
    from yimao.launch import _plain_batch

    assert _plain_batch(["batch"]) and _plain_batch(["batch", "-"]) and _plain_batch(["batch", "in.jsonl"])
    for args in ([], ["cast"], ["batch", "--help"], ["batch", "-h"], ["batch", "a", "b"], ["batch", "--", "a"], ["batc"]):
        assert not _plain_batch(args), args


def test_batch_with_and_without_typer_agree(tmp_path):
    """The same run through `launch` (no Typer) and through the Typer app: same lines, same
    summary, same exit status; an unreadable file is the same error."""
    from typer.testing import CliRunner

    from yimao.cli import app

    path = tmp_path / "in.jsonl"
    path.write_bytes(lines_of(GOOD[:2]) + b"not json\n")
    direct = subprocess.run([sys.executable, "-m", "yimao", "batch", str(path)], capture_output=True, env=ENV, timeout=60)
    via_typer = CliRunner().invoke(app, ["batch", str(path)])
    assert direct.returncode == via_typer.exit_code == 2
    assert direct.stdout.decode() == via_typer.stdout_bytes.decode()
    assert direct.stderr.decode().split(" charts/s")[0].rsplit(", ", 1)[0] == "yimao: batch: 2 ok, 1 error, 0 blank skipped"
    missing = str(tmp_path / "missing.jsonl")
    direct = subprocess.run([sys.executable, "-m", "yimao", "batch", missing], capture_output=True, env=ENV, timeout=60)
    via_typer = CliRunner().invoke(app, ["batch", missing])
    assert direct.returncode == via_typer.exit_code == 2 and direct.stdout == b""
    assert f"cannot read {missing!r}" in direct.stderr.decode()


def test_the_summary_counts_charts_not_error_lines():
    """Charts per second are the lines answered with a chart: a run of errors alone has made none."""
    from yimao.batch import Summary

    s = Summary()
    s.ok, s.errors, s.seconds = 3, 5, 2.0
    assert s.rate == 1.5 and s.line() == "batch: 3 ok, 5 errors, 0 blank skipped, 2 charts/s"
    r = subprocess.run([sys.executable, "-m", "yimao", "batch"], input=b'{"hex": "xyz"}\n' * 3, capture_output=True, env=ENV, timeout=60)
    assert r.returncode == 2 and r.stderr.decode().endswith("0 ok, 3 errors, 0 blank skipped, 0 charts/s\n")


def test_a_misspelt_zone_on_every_line_lists_the_zones_once(monkeypatch):
    """Listing the IANA zones for the suggestions walks the tz database (~10 ms): a batch whose
    every line names the same misspelt zone (or several) lists them once, not once a line."""
    import zoneinfo

    from yimao import pillars

    calls = []
    real = zoneinfo.available_timezones
    monkeypatch.setattr(zoneinfo, "available_timezones", lambda: calls.append(1) or real())
    pillars._zone_names.cache_clear()
    pillars._close_zones.cache_clear()
    requests = [{"hex": "离", "date": "2026-12-02T10:00", "tz": zone} for zone in ("Asia/Shanghia", "Asia/Tokio") * 20]
    summary, results = run_bytes(lines_of(requests))
    assert summary.errors == 40 and calls == [1]
    assert all("did you mean: Asia/Shanghai" in r["error"]["message"] for r in results[::2])
    assert all("Asia/Tokyo" in r["error"]["message"] for r in results[1::2])


def test_a_byte_order_mark_opens_the_first_line():
    summary, results = run_bytes(b"\xef\xbb\xbf" + lines_of(GOOD[:2]))
    assert summary.ok == 2 and results == run_bytes(lines_of(GOOD[:2]))[1]


@pytest.mark.parametrize(
    "opening",
    [b"\xef\xbb\xbf\n", b"\xef\xbb\xbf\r\n", b"\xef\xbb\xbf \t \n", b"\xef\xbb\xbf\r\n\r\n  \n", b"\xef\xbb\xbf\n\n"],
)
def test_a_byte_order_mark_on_a_blank_first_line_is_read_past(opening):
    """The mark is no character the editor meant: what it opens is a blank line, skipped and
    counted (it was answered as 'not JSON', exit 2)."""
    blank = opening.count(b"\n")
    expected = io.BytesIO()
    run(io.BytesIO(lines_of(GOOD[:2])), expected)
    for source in (io.BytesIO, lambda data: data.splitlines(keepends=True)):  # a stream, or any iterable of lines
        out = io.BytesIO()
        summary = run(source(opening + lines_of(GOOD[:2])), out)
        assert summary.ok == 2 and summary.errors == 0 and summary.blank == blank
        assert out.getvalue() == expected.getvalue()
    assert run_bytes(b"\xef\xbb\xbf")[0].blank == 1  # a mark alone: one blank line, no error
    summary, results = run_bytes(b"\n\xef\xbb\xbf\n")  # only the input's first line may open with one
    assert summary.blank == 1 and summary.errors == 1 and results[0]["line"] == 2


def test_a_defect_on_one_line_is_said_there_and_the_run_goes_on(monkeypatch):
    """yimao's own failure on a line (here made on purpose) answers that line with an internal
    error and goes on; the command then exits 1, not 2, and the summary says to report it."""
    import yimao.batch as batch

    real = batch.answer

    def failing(n, raw, script=False):
        if n == 2:
            raise ZeroDivisionError("made for the test")
        return real(n, raw)

    monkeypatch.setattr(batch, "answer", failing)
    monkeypatch.delenv("YIMAO_DEBUG", raising=False)
    summary, results = run_bytes(lines_of(GOOD[:3]))
    assert summary.ok == 2 and summary.errors == summary.defects == 1 and len(results) == 3
    assert results[1] == {"line": 2, "error": {"message": "internal error (ZeroDivisionError: made for the test); please report it", "value": None}}
    assert "(1 internal: please report)" in summary.line()
    monkeypatch.setattr(batch, "stdout", lambda: io.BytesIO())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(lines_of(GOOD[:3]))))
    assert batch.run_file("-") == 1


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["离之乾", "798788", "卯", "戊寅", "2026-12-02T10:00+08:00", "Asia/Shanghai", "官", "疾病", "huo", "23"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=6,
)
REQUEST_KEYS = ("hex", "moving", "date", "tz", "day_start", "year", "month", "day", "hour", "use", "topic", "earth")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(REQUEST_KEYS + ("bogus",)), JSON_VALUES, max_size=6) | JSON_VALUES, min_size=1, max_size=6))
def test_any_json_in_any_field_is_answered_without_a_defect(requests):
    """Any JSON value in any field of a request, or any JSON value for a line: every line is
    answered, in order, with a chart or an error naming it, and none is yimao's own failure."""
    data = b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in requests)
    summary, results = run_bytes(data)
    assert summary.defects == 0, [r for r in results if "internal error" in r.get("error", {}).get("message", "")]
    assert len(results) == len(requests) == summary.ok + summary.errors
    for n, r in enumerate(results, 1):
        assert r.get("line", n) == n and ("error" in r) != ("schema_version" in r)


# --- hostile lines: endless, deep, huge numbers, long names, empty values -----------------------


def test_lines_are_read_whole_up_to_the_limit_and_past_it_by_length():
    from yimao.batch import read_lines

    data = b"".join(
        [
            b"a" * 10 + b"\n",  # exactly the limit
            b"b" * 10 + b"\r\n",  # the limit and a CRLF
            b"c" * 11 + b"\n",  # one over, with its newline within the first read: the answer says too long
            b"d" * 12 + b"\n",  # over: read past
            b"e" * 100_000 + b"\r\n",  # far over
            b"\n",
            b"f" * 3,  # the last line, with no newline
        ]
    )
    got = list(read_lines(io.BytesIO(data), limit=10))
    assert got == [b"a" * 10 + b"\n", b"b" * 10 + b"\r\n", b"c" * 11 + b"\n", 12, 100_000, b"\n", b"fff"]
    assert list(read_lines(io.BytesIO(b"g" * 50), limit=10)) == [50]  # a last line too long, with no newline
    assert list(read_lines(io.BytesIO(b""), limit=10)) == []


class _Endless(io.RawIOBase):
    """A line that never ends (as /dev/zero), `size` bytes of it, then one request: it records the
    longest read asked of it."""

    def __init__(self, size: int, then: bytes) -> None:
        self.left, self.then, self.longest = size, then, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        self.longest = max(self.longest, len(buf))
        if self.left:
            n = min(len(buf), self.left)
            buf[:n] = b"\0" * n
            self.left -= n
            return n
        n = min(len(buf), len(self.then))
        buf[:n], self.then = self.then[:n], self.then[n:]
        return n


def test_a_line_too_long_is_read_past_without_being_kept():
    """Memory stays bounded whatever arrives: no read of a line asks for more than the limit and
    its line end, and what comes after the line is still answered, in order."""
    from yimao.batch import read_lines

    stream = _Endless(20 * MAX_LINE_BYTES, b"\n" + lines_of(GOOD[:1]))
    chunks = read_lines(io.BufferedReader(stream, buffer_size=8192))
    assert next(chunks) == 20 * MAX_LINE_BYTES  # its length, not its bytes
    assert json.loads(next(chunks)) == GOOD[0]
    assert next(chunks, None) is None
    assert stream.longest <= MAX_LINE_BYTES + 2

    out = io.BytesIO()
    summary = run(io.BufferedReader(_Endless(5 * MAX_LINE_BYTES, b"\n" + lines_of(GOOD[:2]))), out)
    results = [json.loads(line) for line in out.getvalue().split(b"\n")[:-1]]
    assert summary.ok == 2 and summary.errors == 1 and [r.get("line") for r in results] == [1, None, None]
    assert results[0]["error"] == {"message": f"line too long ({5 * MAX_LINE_BYTES:,} bytes; at most {MAX_LINE_BYTES:,})", "value": None}


# A process whose only child is the command: its children's peak RSS is the command's alone.
_PEAK = (
    "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE); "
    "sys.stdout.buffer.write(r.stdout); print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)"
)


def _peak_of_batch(feed) -> tuple[int, int, list, bytes]:
    """Run `yimao batch -` fed by `feed(stdin)`: its exit code, its peak RSS in KiB, its answers, its stderr."""
    p = subprocess.Popen(
        [sys.executable, "-c", _PEAK, sys.executable, "-m", "yimao", "batch", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    import threading

    writer = threading.Thread(target=lambda: (feed(p.stdin), p.stdin.close()))
    writer.start()
    out = p.stdout.read()  # the answers are few: stderr waits meanwhile without filling its pipe
    err = p.stderr.read()
    p.wait(timeout=300)
    writer.join()
    code, peak = err.decode().split("\n")[-2].split()
    return int(code), int(peak), [json.loads(line) for line in out.split(b"\n")[:-1]], err


def test_a_50_mb_line_and_an_endless_one_stay_in_bounded_memory():
    """A 50 MB line peaked at 121 MB, and /dev/zero grew without bound until MemoryError: the
    limit is enforced while reading. Measured here: about 20 MB either way."""
    big = b'{"hex": "' + b"x" * 50_000_000 + b'"}\n'

    def fifty(stdin):
        stdin.write(lines_of(GOOD[:1]))
        stdin.write(big)
        stdin.write(lines_of(GOOD[1:2]))

    code, peak, results, err = _peak_of_batch(fifty)
    assert code == 2 and b"2 ok, 1 error" in err and b"Traceback" not in err
    assert [r.get("line") for r in results] == [None, 2, None] and "line too long (50,000,011 bytes" in results[1]["error"]["message"]
    assert peak < 100 * 1024, f"peak RSS {peak} KiB"

    def endless(stdin):  # /dev/zero, cut after 150 MB
        block = b"\0" * (1 << 20)
        for _ in range(150):
            stdin.write(block)

    code, peak, results, err = _peak_of_batch(endless)
    assert code == 2 and len(results) == 1 and results[0]["error"]["message"].startswith("line too long (157,286,400 bytes")
    assert peak < 100 * 1024, f"peak RSS {peak} KiB"


DEEP = [500, 900, 1000, 1023, 1024, 5000]


@pytest.mark.parametrize("key", REQUEST_KEYS)
def test_a_request_nested_deep_in_any_key_is_a_bad_line(key):
    """A value nested 500-1023 deep inside a known key (which orjson reads) was an internal error:
    the message walked the value and hit the recursion limit. Now a bad line, its value echoed
    summarised; deeper ones are refused by the reader."""
    lines = []
    for depth in DEEP:
        for open_, close in ((b"[", b"]"), (b'{"a":', b"}")):
            inner = open_ * depth + (b"1" if open_ != b"[" else b"") + close * depth
            lines.append(b'{"hex": "\xe4\xb9\xbe", "' + key.encode() + b'": ' + inner + b"}\n" if key != "hex" else b'{"hex": ' + inner + b"}\n")
    summary, results = run_bytes(b"".join(lines))
    assert summary.defects == 0 and summary.errors == len(lines) == len(results)
    for n, r in enumerate(results, 1):
        assert r["line"] == n
        assert "nested too deeply" in r["error"]["message"] or f"{key} must be" in r["error"]["message"]
        assert len(json.dumps(r)) < 1000  # the value echoed is a summary


def _depth(v) -> int:
    return 1 + max(map(_depth, v.values() if isinstance(v, dict) else v), default=0) if isinstance(v, (list, dict)) else 0


def test_values_echoed_in_errors_are_bounded():
    from yimao.errors import BRIEF_DEPTH, BRIEF_ITEMS, BRIEF_TEXT

    requests = [
        {"hex": ["x" * 10_000] * 10_000},
        {"hex": "乾", "moving": [[[[[[[1]]]]]]]},
        {"hex": "乾", "moving": list(range(100_000))},
        {"hex": {str(i): i for i in range(10_000)}},
        {"hex": "x" * 500_000},
        {"hex": "乾", "bogus" * 100_000: 1},
    ]
    summary, results = run_bytes(lines_of(requests))
    assert summary.errors == len(requests) and summary.defects == 0
    for r in results:
        value = r["error"]["value"]
        assert _depth(value) <= BRIEF_DEPTH and len(json.dumps(value, ensure_ascii=False)) < BRIEF_ITEMS**2 * BRIEF_TEXT
        assert len(r["error"]["message"]) < 300
    assert results[2]["error"]["value"][-1] == "… (100,000 items)"
    assert results[4]["error"]["value"] == "x" * BRIEF_TEXT + "…"


HUGE = "1" * 4301  # one digit over Python's int-conversion limit


@pytest.mark.parametrize("key", ["month", "year", "hour", "day", "moving", "use", "hex", "topic", "earth"])
def test_a_huge_number_in_any_field_is_a_bad_line(key):
    """As a string, and as a JSON number (orjson refuses over 64 bits; json converted up to
    4,300 digits and raised ValueError over): a bad line, said plainly, never a defect."""
    requests = [{"hex": "乾", key: HUGE}, {"hex": "乾", key: "９" * 5000}, {"hex": "乾", key: "1" * 30}]
    data = lines_of(requests)
    for digits in (30, 60, 4300, 5000):
        data += b'{"hex": "\xe4\xb9\xbe", "' + key.encode() + b'": ' + b"1" * digits + b"}\n"
    data += b'{"hex": "\xe4\xb9\xbe", "day_start": ' + b"2" * 5000 + b"}\n"
    summary, results = run_bytes(data)
    assert summary.defects == 0 and summary.errors == 8 and [r["line"] for r in results] == list(range(1, 9))
    for r in results:
        assert "Exceeds the limit" not in r["error"]["message"] and len(r["error"]["message"]) < 400
    assert results[-1]["error"]["message"].startswith("a number of 5,000 digits")


def test_a_month_as_a_json_number_still_reads():
    summary, results = run_bytes(
        b'{"hex": "\xe4\xb9\xbe", "month": 3}\n{"hex": "\xe4\xb9\xbe", "month": "3"}\n{"hex": "\xe4\xb9\xbe", "month": 3.5}\n'
    )
    assert summary.ok == 2 and results[0] == results[1] and results[0]["pillars"]["month"] == "辰"  # 3 = 辰月 (1 = 寅)
    assert "month must be a string or a whole number" in results[2]["error"]["message"]


@pytest.mark.parametrize("key", ["moving", "date", "tz", "year", "month", "day", "hour", "use", "topic", "earth", "hex"])
def test_an_empty_value_is_bad_and_null_is_not_given(key):
    """An empty string was given, and is wrong, in every field (month "" gave a chart with every
    pillar null); null leaves the field out, as a missing key does."""
    base = {"hex": "乾", "date": "2026-12-02T10:00"} if key in ("date", "tz") else {"hex": "乾", "month": "3", "day": "戊寅"}
    empty = {**base, key: ""}
    blank = {**base, key: " \t"}
    summary, results = run_bytes(lines_of([empty, blank]))
    assert summary.errors == 2 and summary.defects == 0, results
    for r in results:
        message = r["error"]["message"]
        assert "empty" in message or "''" in message or "' \\t'" in message, message
        assert "either --date or pillars" not in message
    if key != "hex":
        absent = {k: v for k, v in empty.items() if k != key}
        got = run_bytes(lines_of([{**empty, key: None}]))[1]
        assert got == run_bytes(lines_of([absent]))[1] and "schema_version" in got[0]


def test_a_long_unknown_name_is_answered_without_comparing_it(monkeypatch):
    """A 900 KB hexagram name took 26 s in difflib: a text longer than a name is compared with none."""
    import difflib

    monkeypatch.setattr(difflib, "get_close_matches", lambda word, *a, **k: pytest.fail(f"difflib on {len(word)} characters"))
    names = {"hex": "a" * 900_000}, {"hex": "乾", "topic": "婚" * 100_000}, {"hex": "乾", "date": "2026-12-02T10:00", "tz": "Asia/" + "x" * 100_000}
    summary, results = run_bytes(lines_of(names))
    assert summary.errors == 3 and summary.defects == 0
    for r in results[:2]:
        assert "is too long to be a name (at most 64 characters)" in r["error"]["message"] and len(r["error"]["message"]) < 800
