"""yimao benchmarks: `python benchmarks/run.py` (add --quick for a short run).

Every figure is reported beside a baseline measured in the same run, as a ratio, so that the
numbers travel between machines:

- in process: full charts per second (pillars from a date string, 排盘, line relations, every rule,
  every star, the JSON document) over a fixed random workload, and the bare 排盘 alone; the
  baseline is a fixed pure-Python calibration loop;
- batch: 10,000 lines end to end through `yimao batch`, with peak memory, beside the floor of
  reading the same JSON Lines in Python;
- cold start: `yimao cast … --json` and `yimao --help`, each beside `python -c "import typer, rich"`
  (yimao's modules byte-compiled first, as an installed package's are).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone

from yimao.chart import build_chart
from yimao.hexagram import all_casts
from yimao.pillars import pillars_at
from yimao.pipeline import CastRequest, document, read
from yimao.serialize import dumps

SEED = 20261202
USES = ("官", "财", "父", "兄", "子", "世", "应", None)


def workload(n: int) -> list[CastRequest]:
    rng = random.Random(SEED)
    casts = list(all_casts())
    start = datetime(1950, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    out = []
    for _ in range(n):
        c = rng.choice(casts)
        moment = start + timedelta(minutes=rng.randrange(100 * 365 * 24 * 60))
        out.append(CastRequest(hex=c.coins(), date=moment.isoformat(), use=rng.choice(USES)))
    return out


def calibrate(repeat: int = 5) -> float:
    """Seconds for a fixed pure-Python loop (the in-process baseline)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        acc = 0
        for i in range(100_000):
            acc += i * i % 7
        best = min(best, time.perf_counter() - t)
    return best


def per_op(fn, items, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for x in items:
            fn(x)
        best = min(best, (time.perf_counter() - t) / len(items))
    return best


def in_process(n: int) -> list[tuple[str, str, str]]:
    reqs = workload(n)
    for r in reqs[:50]:  # warm the caches (节 per year, star masks) as a long run would
        read(r)
    base = calibrate()
    full = per_op(lambda r: read(r), reqs)
    full_json = per_op(lambda r: dumps(document(read(r)), compact=True), reqs)
    rng = random.Random(SEED)
    casts = list(all_casts())
    start = datetime(1950, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    pairs = [(rng.choice(casts), start + timedelta(minutes=rng.randrange(100 * 365 * 24 * 60))) for _ in range(n)]
    bare = per_op(lambda cm: build_chart(cm[0], pillars_at(cm[1])), pairs)
    return [
        ("calibration loop (100k iterations)", f"{base * 1e3:.2f} ms", "1.00"),
        ("full chart, in process (no JSON)", f"{full * 1e6:.0f} µs  ({1 / full:,.0f}/s)", f"{full / base:.3f}"),
        ("full chart + JSON document", f"{full_json * 1e6:.0f} µs  ({1 / full_json:,.0f}/s)", f"{full_json / base:.3f}"),
        ("bare 排盘 (pillars + chart)", f"{bare * 1e6:.0f} µs  ({1 / bare:,.0f}/s)", f"{bare / base:.3f}"),
    ]


def _wall(cmd: list[str], stdin: bytes | None = None, repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def batch(lines: int) -> list[tuple[str, str, str]]:
    import json

    reqs = workload(lines)
    with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as f:
        for r in reqs:
            f.write(json.dumps({"hex": r.hex, "date": r.date, **({"use": r.use} if r.use else {})}, ensure_ascii=False).encode() + b"\n")
        path = f.name
    try:
        floor_cmd = [sys.executable, "-c", "import sys,json\nfor l in open(sys.argv[1],'rb'): json.loads(l)", path]
        floor = _wall(floor_cmd, repeat=3)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "yimao", "batch", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall = time.perf_counter() - t
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    finally:
        os.unlink(path)
    return [
        (f"read {lines:,} JSON lines in Python (floor)", f"{floor:.2f} s", "1.00"),
        (f"yimao batch, {lines:,} lines", f"{wall:.2f} s  ({lines / wall:,.0f} charts/s)", f"{wall / floor:.1f}"),
        ("yimao batch peak memory (max RSS)", f"{max(peak, before) / 1024:.0f} MiB", ""),
    ]


def cold_start() -> list[tuple[str, str, str]]:
    py = sys.executable
    # Byte-compile yimao first, as `pip install` does for an installed package (and as typer and
    # rich, the floor, already are): an editable checkout under PYTHONDONTWRITEBYTECODE=1 would
    # otherwise recompile every module on every run, ~100 ms that no installed yimao pays.
    import compileall

    import yimao

    compileall.compile_dir(os.path.dirname(yimao.__file__), quiet=1)
    floor = _wall([py, "-c", "import typer, rich"])
    bare = _wall([py, "-c", "pass"])
    cast = _wall([py, "-m", "yimao", "cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--json"])
    help_ = _wall([py, "-m", "yimao", "--help"])
    return [
        ('python -c "pass"', f"{bare * 1e3:.0f} ms", f"{bare / floor:.2f}"),
        ('python -c "import typer, rich" (floor)', f"{floor * 1e3:.0f} ms", "1.00"),
        ("yimao cast 离之乾 --date … --json", f"{cast * 1e3:.0f} ms", f"{cast / floor:.2f}"),
        ("yimao --help", f"{help_ * 1e3:.0f} ms", f"{help_ / floor:.2f}"),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a smaller workload")
    args = ap.parse_args()
    n = 500 if args.quick else 3000
    lines = 2000 if args.quick else 10_000
    sections = [
        ("in process (one core)", in_process(n), "ratio to calibration"),
        ("batch", batch(lines), "ratio to floor"),
        ("cold start (median of 7)", cold_start(), "ratio to floor"),
    ]
    width = max(len(r[0]) for _, rows, _ in sections for r in rows) + 2
    for title, rows, ratio_name in sections:
        print(f"\n{title}")
        print(f"  {'':{width}}{'figure':<32}{ratio_name}")
        for name, figure, ratio in rows:
            print(f"  {name:{width}}{figure:<32}{ratio}")


if __name__ == "__main__":
    main()
