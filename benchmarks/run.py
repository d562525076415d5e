"""yimao benchmarks: `python benchmarks/run.py` (add --quick for a short run).

Every figure is reported beside a baseline measured in the same run, as a ratio, so that the
numbers travel between machines; each is given in wall time and in CPU time (the process's own
user + system time, which other work on a shared machine disturbs much less):

- in process, one core: full charts (pillars from a date string, 排盘, line relations, every
  rule, every star), the same with the JSON line `yimao batch` writes, and the bare 排盘, each
  over requests it has not seen (random casts and moments, after a warm-up on others, as in a
  long batch); the baseline is a fixed pure-Python calibration loop;
- batch: 10,000 lines end to end through `yimao batch` (a new process, output to a file, then
  discarded), the first 3,000 of them alone, and 3,000 mixed requests (names and coins, dates in
  five zones and stated pillars, topics, 1 in 20 lines bad: charts per second count the lines
  answered with a chart), with peak memory, beside the floor of reading the same JSON Lines in
  Python; the short runs are run five times, with their spread and the figure each run's own
  summary line gives (without the start of the process);
- cold start: `yimao cast … --json`, `yimao --help` and `yimao batch` on empty input, each
  beside `python -c "import typer, rich"` (the framework floor); the commands are run in turn,
  round after round, and each figure is a median (yimao's modules byte-compiled first, as an
  installed package's are);
- with `--peer-python PY` (a Python with PyPI's `najia` installed), that peer beside yimao: its
  chart and text in process over casts and moments drawn as `in_process` draws them, beside the
  calibration loop run in its own Python, and its command's cold start among the others.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta, timezone

from yimao.chart import build_chart
from yimao.hexagram import Cast, all_casts
from yimao.pillars import parse_moment, pillars_at
from yimao.pipeline import CastRequest, document_json, read

SEED = 20261202
USES = ("官", "财", "父", "兄", "子", "世", "应", None)
WARM = 1000  # requests that warm the caches before any timing (a long batch has warmed them)


def workload(n: int, seed: int = SEED) -> list[CastRequest]:
    """n requests: a random cast of the 4096, a random minute of 1950–2050 (UTC+8), a random 用神."""
    rng = random.Random(seed)
    casts = list(all_casts())
    start = datetime(1950, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    out = []
    for _ in range(n):
        c = rng.choice(casts)
        moment = start + timedelta(minutes=rng.randrange(100 * 365 * 24 * 60))
        out.append(CastRequest(hex=c.coins(), date=moment.isoformat(), use=rng.choice(USES)))
    return out


MALFORMED = ('{"hex": "xyz"}', '{"hex": "离", "month": "13"}', "not json", '{"hex": "离之乾", "date": "2026-02-30"}', "[]", '{"hex": null}')


def mixed_lines(n: int, seed: int = SEED + 2) -> list[bytes]:
    """n request lines as a study might send them: casts as coins (3 in 5) or names, with or
    without 之; moments over 1901-2100 in five zones, a tenth with the day starting at 0:00, or
    pillars as the book states them (1 in 5); 用神 and topics; 1 in 20 malformed or bad."""
    from yimao.ganzhi import BRANCHES, CYCLE
    from yimao.hexagram import HEXAGRAMS

    rng = random.Random(seed)
    names = [h.short_name for h in HEXAGRAMS]
    start = datetime(1901, 1, 1, tzinfo=UTC)
    out = []
    for _ in range(n):
        if rng.random() < 0.05:
            out.append(rng.choice(MALFORMED).encode() + b"\n")
            continue
        if rng.random() < 0.6:
            cast = "".join(rng.choice("6789") for _ in range(6))
        else:
            cast = rng.choice(names) + ("之" + rng.choice(names) if rng.random() < 0.5 else "")
        req: dict = {"hex": cast}
        if rng.random() < 0.2:
            req["month"] = rng.choice([b.value for b in BRANCHES] + [str(m) for m in range(1, 13)])
            req["day"] = str(rng.choice(CYCLE))
        else:
            moment = start + timedelta(minutes=rng.randrange(199 * 365 * 24 * 60))
            req["date"] = moment.strftime("%Y-%m-%dT%H:%M") + rng.choice(["+08:00", "Z", "-05:00", "+05:30", "+09:00"])
            if rng.random() < 0.1:
                req["day_start"] = 0
        use = rng.choice(USES + ("3",))
        if use:
            req["use"] = use
        topic = rng.choice((None,) * 6 + ("疾病", "婚姻", "求财"))
        if topic:
            req["topic"] = topic
        out.append(json.dumps(req, ensure_ascii=False).encode() + b"\n")
    return out


def calibrate(repeat: int = 5) -> tuple[float, float]:
    """Wall and CPU seconds for a fixed pure-Python loop (the in-process baseline), best of `repeat`."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        acc = 0
        for i in range(100_000):
            acc += i * i % 7
        wall, cpu = min(wall, time.perf_counter() - t), min(cpu, time.process_time() - c)
    return wall, cpu


def once(fn, items) -> tuple[float, float]:
    """Wall and CPU seconds per item for one pass over `items`."""
    t, c = time.perf_counter(), time.process_time()
    for x in items:
        fn(x)
    return (time.perf_counter() - t) / len(items), (time.process_time() - c) / len(items)


def in_process(n: int) -> list[tuple[str, str, str]]:
    reqs = workload(WARM + 3 * n)
    for r in reqs[:WARM]:  # warm the caches (节 per year, stars per key, a layout's hits …)
        document_json(read(r))
    base_wall, base_cpu = calibrate()
    # each pass over requests it has not seen: a chart in a batch is rarely one already cast
    full = once(read, reqs[WARM : WARM + n])
    line = once(lambda r: document_json(read(r)), reqs[WARM + n : WARM + 2 * n])
    moments = [(Cast.parse(r.hex), parse_moment(r.date, None)[0]) for r in reqs[WARM + 2 * n :]]
    bare = once(lambda cm: build_chart(cm[0], pillars_at(cm[1])), moments)

    def row(name, wc):
        w, c = wc
        return (name, f"{w * 1e6:.0f} µs wall, {c * 1e6:.0f} µs CPU  ({1 / w:,.0f}/s)", f"{w / base_wall:.4f} / {c / base_cpu:.4f}")

    return [
        ("calibration loop (100k iterations)", f"{base_wall * 1e3:.2f} ms wall, {base_cpu * 1e3:.2f} ms CPU", "1 / 1"),
        row("full chart (no JSON)", full),
        row("full chart + its batch JSON line", line),
        row("bare 排盘 (pillars + chart)", bare),
    ]


# A peer for comparison (`--peer-python PY`, a Python with PyPI's `najia` installed: MIT, a 纳甲
# chart (卦, 六亲, 六神, 世应, 旬空) as text, and no rules, stars or JSON). Run in PY, with the
# calibration loop beside it, over casts and moments drawn as `in_process` draws them.
_PEER_SCRIPT = """
import json, sys, time
from najia import Najia
exec(sys.argv[1])  # calibrate()
items = json.load(sys.stdin)
for params, date in items[:50]:
    Najia(0).compile(params=params, date=date).render()
base = calibrate()
t, c = time.perf_counter(), time.process_time()
for params, date in items[50:]:
    Najia(0).compile(params=params, date=date).render()
n = len(items) - 50
print(json.dumps([base, [(time.perf_counter() - t) / n, (time.process_time() - c) / n]]))
"""
_NAJIA_PARAMS = {"7": 1, "8": 2, "9": 3, "6": 4}  # najia: odd yang, even yin, 3 and 4 moving


def peer(py: str, n: int) -> list[tuple[str, str, str]]:
    import inspect

    items = []
    for r in workload(50 + n, seed=SEED + 3):
        moment = datetime.fromisoformat(r.date)
        items.append([[_NAJIA_PARAMS[c] for c in r.hex], moment.strftime("%Y-%m-%d %H:%M")])
    out = subprocess.run([py, "-c", _PEER_SCRIPT, inspect.getsource(calibrate)], input=json.dumps(items).encode(), capture_output=True)
    if out.returncode:
        raise SystemExit(f"--peer-python {py}: the peer did not run (is najia installed there?)\n{out.stderr.decode()[-600:]}")
    (bw, bc), (w, c) = json.loads(out.stdout)
    return [
        ("calibration loop, in the peer's Python", f"{bw * 1e3:.2f} ms wall, {bc * 1e3:.2f} ms CPU", "1 / 1"),
        ("najia: chart + its text, in process", f"{w * 1e6:.0f} µs wall, {c * 1e6:.0f} µs CPU  ({1 / w:,.0f}/s)", f"{w / bw:.4f} / {c / bc:.4f}"),
    ]


def _child(cmd: list[str], stdin: bytes | None = None, stdout=subprocess.DEVNULL) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one run of `cmd` in a new process."""
    wall, cpu, _ = _child_err(cmd, stdin, stdout)
    return wall, cpu


def _child_err(cmd: list[str], stdin: bytes | None = None, stdout=subprocess.DEVNULL) -> tuple[float, float, bytes]:
    """`_child`, and what the process wrote on stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, input=stdin, stdout=stdout, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stderr


SHORT_RUNS = 5  # runs of the short batches: a figure of this VM moves by a quarter from minute to minute


def _short_runs(path: str, out_path: str) -> tuple[float, float, list[float], list[float]]:
    """SHORT_RUNS runs of `yimao batch path` to a file: the median wall and CPU seconds, each
    run's wall seconds, and each run's own charts per second (its summary line: from the
    first line read to the last written, without the start of the process)."""
    walls, cpus, rates = [], [], []
    for _ in range(SHORT_RUNS):
        with open(out_path, "wb") as out:
            wall, cpu, err = _child_err([sys.executable, "-m", "yimao", "batch", path], stdout=out)
        walls.append(wall)
        cpus.append(cpu)
        said = re.search(rb"([\d,]+) charts/s", err)
        rates.append(float(said.group(1).replace(b",", b"")) if said else float("nan"))
    return statistics.median(walls), statistics.median(cpus), walls, rates


def _spread(n: int, walls: list[float], rates: list[float]) -> str:
    """The runs' charts per second, lowest to highest, by the process's wall time and by its summary line."""
    by_wall = sorted(n / w for w in walls)
    return (
        f"runs {by_wall[0]:,.0f}–{by_wall[-1]:,.0f}/s; summary line: median {statistics.median(rates):,.0f}/s ({min(rates):,.0f}–{max(rates):,.0f})"
    )


def batch(lines: int, short: int) -> list[tuple[str, str, str]]:
    reqs = workload(lines, seed=SEED + 1)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "in.jsonl")
        with open(path, "wb") as f:
            for r in reqs:
                f.write(json.dumps({"hex": r.hex, "date": r.date, **({"use": r.use} if r.use else {})}, ensure_ascii=False).encode() + b"\n")
        floor_cmd = [sys.executable, "-c", "import sys,json\nfor l in open(sys.argv[1],'rb'): json.loads(l)", path]
        floor = min((_child(floor_cmd) for _ in range(3)), key=lambda wc: wc[0])
        with open(os.path.join(tmp, "out.jsonl"), "wb") as out:
            wall, cpu = _child([sys.executable, "-m", "yimao", "batch", path], stdout=out)
            size = out.tell()
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the largest child so far: this one
        # the same with the output discarded: the charts alone, without the kernel's writing
        null_wall, null_cpu = _child([sys.executable, "-m", "yimao", "batch", path])
        # a run of a few thousand lines, as a script sends: start-up and first meetings weigh more
        short_path = os.path.join(tmp, "short.jsonl")
        with open(path, "rb") as f, open(short_path, "wb") as g:
            g.writelines(f.readlines()[:short])
        short_wall, short_cpu, short_walls, short_rates = _short_runs(short_path, os.path.join(tmp, "out.jsonl"))
        # the same number of mixed requests, as the issue judges batch: charts are the lines answered with one
        mixed_path = os.path.join(tmp, "mixed.jsonl")
        with open(mixed_path, "wb") as g:
            g.writelines(mixed_lines(short))
        mixed_wall, mixed_cpu, mixed_walls, mixed_rates = _short_runs(mixed_path, os.path.join(tmp, "out.jsonl"))
        with open(os.path.join(tmp, "out.jsonl"), "rb") as out:
            charts = sum(1 for line in out if line.startswith(b'{"schema_version"'))
    return [
        (f"read {lines:,} JSON lines in Python (floor)", f"{floor[0]:.2f} s wall, {floor[1]:.2f} s CPU", "1 / 1"),
        (
            f"yimao batch, {lines:,} lines → {size / 2**20:.0f} MiB",
            f"{wall:.2f} s wall, {cpu:.2f} s CPU  ({lines / wall:,.0f} charts/s; {lines / cpu:,.0f}/CPU-s)",
            f"{wall / floor[0]:.1f} / {cpu / floor[1]:.1f}",
        ),
        (
            "yimao batch, the same, output discarded",
            f"{null_wall:.2f} s wall, {null_cpu:.2f} s CPU  ({lines / null_wall:,.0f} charts/s; {lines / null_cpu:,.0f}/CPU-s)",
            f"{null_wall / floor[0]:.1f} / {null_cpu / floor[1]:.1f}",
        ),
        (
            f"yimao batch, first {short:,} lines (median of {SHORT_RUNS})",
            f"{short_wall:.2f} s wall, {short_cpu:.2f} s CPU  ({short / short_wall:,.0f} charts/s; {short / short_cpu:,.0f}/CPU-s)",
            f"{short_wall / floor[0]:.1f} / {short_cpu / floor[1]:.1f}",
        ),
        ("", _spread(short, short_walls, short_rates), ""),
        (
            f"yimao batch, {short:,} mixed requests (median of {SHORT_RUNS})",
            f"{mixed_wall:.2f} s wall, {mixed_cpu:.2f} s CPU  ({charts / mixed_wall:,.0f} charts/s; {charts / mixed_cpu:,.0f}/CPU-s)",
            f"{mixed_wall / floor[0]:.1f} / {mixed_cpu / floor[1]:.1f}",
        ),
        ("", _spread(charts, mixed_walls, mixed_rates), ""),
        ("yimao batch peak memory (max RSS)", f"{peak / 1024:.0f} MiB", ""),
    ]


def cold_start(rounds: int, peer_py: str | None = None) -> list[tuple[str, str, str]]:
    py = sys.executable
    # Byte-compile yimao first, as `pip install` does for an installed package (and as typer and
    # rich, the floor, already are): an editable checkout under PYTHONDONTWRITEBYTECODE=1 would
    # otherwise recompile every module on every run, ~100 ms that no installed yimao pays.
    import compileall

    import yimao

    compileall.compile_dir(os.path.dirname(yimao.__file__), quiet=1)
    commands = {
        'python -c "pass"': [py, "-c", "pass"],
        'python -c "import typer, rich" (floor)': [py, "-c", "import typer, rich"],
        "yimao cast 离之乾 --date … --json": [py, "-m", "yimao", "cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--json"],
        "yimao --help": [py, "-m", "yimao", "--help"],
        "yimao batch (empty input)": [py, "-m", "yimao", "batch", os.devnull],
    }
    if peer_py:  # the same cast and moment, its chart as text
        commands["najia -p 1,4,1,1,4,1 -d … (peer)"] = [peer_py, "-m", "najia", "-p", "1,4,1,1,4,1", "-d", "2026-12-02 10:00"]
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
    for _ in range(rounds):  # in turn, so that a change in the machine's load touches all alike
        for name, cmd in commands.items():
            times[name].append(_child(cmd))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in times.items()}
    fw, fc = med['python -c "import typer, rich" (floor)']
    return [(k, f"{w * 1e3:.0f} ms wall, {c * 1e3:.0f} ms CPU", f"{w / fw:.2f} / {c / fc:.2f}") for k, (w, c) in med.items()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a smaller workload")
    ap.add_argument("--peer-python", metavar="PY", help="a Python with PyPI's najia installed, to measure it beside yimao")
    args = ap.parse_args()
    n = 500 if args.quick else 2000
    lines = 2000 if args.quick else 10_000
    short = 1000 if args.quick else 3000  # a run of "a few thousand lines", as a script sends
    rounds = 5 if args.quick else 11
    sections = [
        ("in process, one core (fresh requests after a warm-up)", in_process(n), "ratio wall / CPU"),
        ("batch", batch(lines, short), "ratio wall / CPU"),
        (f"cold start (medians of {rounds})", cold_start(rounds, args.peer_python), "ratio wall / CPU"),
    ]
    if args.peer_python:
        sections.insert(1, ("peer, in process (fresh requests after a warm-up)", peer(args.peer_python, n), "ratio wall / CPU"))
    width = max(len(r[0]) for _, rows, _ in sections for r in rows) + 2
    for title, rows, ratio_name in sections:
        print(f"\n{title}")
        print(f"  {'':{width}}{'figure':<58}{ratio_name}")
        for name, figure, ratio in rows:
            print(f"  {name:{width}}{figure:<58}{ratio}")


if __name__ == "__main__":
    main()
