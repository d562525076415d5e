"""yimao benchmarks: `python benchmarks/run.py [--quick] [--baseline REF] [--peer-python PY]`.

Measures the tree whose Python runs this script (its yimao byte-compiled first, as `pip install`
leaves an installed package) and, with `--baseline REF`, a git revision of this repository
installed with `pip install .` in a venv of its own in a temporary directory. The two trees are
measured in the same run, whole measurement by whole measurement, alternately (the order
reversed every round, so that a drift of the machine's speed touches both alike), and every
figure is the median of the rounds, reported for each tree and as the ratio of the two:

- in process: the full reading of a request (pillars from a date string, the chart, every rule,
  every star) and its JSON line as `yimao batch` writes it, over random casts and minutes of
  1950-2050 with random 用神, each request met once after a warm-up on others (as in a long
  batch). It runs in each tree's own Python through `measure.py`, which finds the entry points
  by name in the tree it runs in, which also gives the median size of those lines; and, apart,
  the reading alone and orjson writing its document (built beforehand), the two parts of a line
  that no shape of the document's dicts makes cheaper;
- batch: `yimao batch` over mixed requests (casts as coins or names, with or without 之; dates
  over 1901-2100 in five zones, or pillars as the book states them; 用神 and topics; 1 line in 20
  malformed or bad), a new process each run, its output discarded; charts per second count the
  lines answered with a chart, and include the process's start;
- cold start: `yimao cast … --json` and `yimao cast …` (tables, to a pipe), each beside the floor
  `python -c "import typer, rich"` of the same Python, run in turn, round after round;
- with `--peer-python PY` (a Python with PyPI's `najia` installed, no dependency of yimao): its
  chart and text in process over the same casts and moments, and its command's cold start.

Ratios are this tree ÷ the baseline: of throughput for rows in /s (above 1 is faster), of time
for rows in ms (below 1 is faster). Wall time decides; CPU time (the process's own user + system
time, which other work on a shared machine disturbs less) is given beside it.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
MEASURE = os.path.join(HERE, "measure.py")

SEED = 20261202
USES = ("官", "财", "父", "兄", "子", "世", "应", None)
# The workloads are made here, without yimao, so that both trees read the very same requests.
COINS = ["".join(c) for c in itertools.product("6789", repeat=6)]  # the 4096 casts
HEXAGRAM_NAMES = (
    "乾 坤 屯 蒙 需 讼 师 比 小畜 履 泰 否 同人 大有 谦 豫 随 蛊 临 观 噬嗑 贲 剥 复 无妄 大畜 颐 大过 坎 离 咸 恒 "
    "遁 大壮 晋 明夷 家人 睽 蹇 解 损 益 夬 姤 萃 升 困 井 革 鼎 震 艮 渐 归妹 丰 旅 巽 兑 涣 节 中孚 小过 既济 未济"
).split()
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
CYCLE = [("甲乙丙丁戊己庚辛壬癸"[i % 10] + BRANCHES[i % 12]) for i in range(60)]
CAST = ["cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00"]
STAGES = {"reading": "the reading alone", "writing": "orjson writing its document, built before"}


def workload(n: int, seed: int = SEED) -> list[dict[str, str]]:
    """n requests: a random cast of the 4096, a random minute of 1950-2050 (UTC+8), a random 用神."""
    rng = random.Random(seed)
    start = datetime(1950, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    out = []
    for _ in range(n):
        req = {"hex": rng.choice(COINS), "date": (start + timedelta(minutes=rng.randrange(100 * 365 * 24 * 60))).isoformat()}
        use = rng.choice(USES)
        if use:
            req["use"] = use
        out.append(req)
    return out


MALFORMED = ('{"hex": "xyz"}', '{"hex": "离", "month": "13"}', "not json", '{"hex": "离之乾", "date": "2026-02-30"}', "[]", '{"hex": null}')


def mixed_lines(n: int, seed: int = SEED + 2) -> list[bytes]:
    """n request lines as a study might send them: casts as coins (3 in 5) or names, with or
    without 之; moments over 1901-2100 in five zones, a tenth with the day starting at 0:00, or
    pillars as the book states them (1 in 5); 用神 and topics; 1 in 20 malformed or bad."""
    rng = random.Random(seed)
    start = datetime(1901, 1, 1, tzinfo=UTC)
    out = []
    for _ in range(n):
        if rng.random() < 0.05:
            out.append(rng.choice(MALFORMED).encode() + b"\n")
            continue
        if rng.random() < 0.6:
            cast = "".join(rng.choice("6789") for _ in range(6))
        else:
            cast = rng.choice(HEXAGRAM_NAMES) + ("之" + rng.choice(HEXAGRAM_NAMES) if rng.random() < 0.5 else "")
        req: dict = {"hex": cast}
        if rng.random() < 0.2:
            req["month"] = rng.choice(list(BRANCHES) + [str(m) for m in range(1, 13)])
            req["day"] = rng.choice(CYCLE)
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


# --- what is measured ------------------------------------------------------------------------


@dataclass
class Tree:
    label: str
    python: str


@dataclass
class Figure:
    """One measure of one tree over the rounds: (wall, CPU) seconds per run, or per item."""

    runs: list[tuple[float, float]] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return statistics.median(w for w, _ in self.runs)

    @property
    def cpu(self) -> float:
        return statistics.median(c for _, c in self.runs)

    def spread(self) -> float:
        """Half the range of the runs' wall times, as a fraction of their median."""
        walls = [w for w, _ in self.runs]
        return (max(walls) - min(walls)) / 2 / self.wall if self.wall else 0.0


def ratio(new: float, base: float, *, throughput: bool) -> float:
    """This tree ÷ the baseline: of throughput (from seconds per item: base / new) or of time."""
    return base / new if throughput else new / base


def child(cmd: Sequence[str], stdout=subprocess.DEVNULL) -> tuple[float, float, bytes]:
    """Wall and CPU (its own user + system) seconds of one run of `cmd` in a new process, and its stderr."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE, cwd=tempfile.gettempdir())
    assert p.stderr is not None
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    p.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime, err


def in_process(tree: Tree, requests: str, warm: int, stage: str = "line") -> tuple[float, float, str, float]:
    """Seconds per full reading and its JSON line (wall, CPU), or per the `stage` of it asked
    (`measure.measure`), measured by `measure.py` in the tree's Python; the functions it called,
    and the median size of those lines in bytes."""
    done = subprocess.run([tree.python, MEASURE, requests, str(warm), stage], capture_output=True, cwd=tempfile.gettempdir())
    if done.returncode:
        raise SystemExit(f"{tree.label}: measure.py failed\n{done.stderr.decode()[-1500:]}")
    got = json.loads(done.stdout)
    return got["wall"], got["cpu"], got["entry"], got["bytes"]


# A peer for comparison (`--peer-python PY`, a Python with PyPI's `najia` installed: MIT, a 纳甲
# chart (卦, 六亲, 六神, 世应, 旬空) as text, and no rules, stars or JSON), run in PY.
_PEER_SCRIPT = """
import json, sys, time
from najia import Najia
items = json.load(sys.stdin)
for params, date in items[:20]:
    Najia(0).compile(params=params, date=date).render()
t, c = time.perf_counter(), time.process_time()
for params, date in items[20:]:
    Najia(0).compile(params=params, date=date).render()
n = len(items) - 20
print(json.dumps([(time.perf_counter() - t) / n, (time.process_time() - c) / n]))
"""
_NAJIA_PARAMS = {"7": 1, "8": 2, "9": 3, "6": 4}  # najia: odd yang, even yin, 3 and 4 moving


def peer_items(reqs: list[dict[str, str]]) -> bytes:
    """The requests as najia's (params, date): the same casts and the same minutes."""
    return json.dumps([[[_NAJIA_PARAMS[c] for c in r["hex"]], datetime.fromisoformat(r["date"]).strftime("%Y-%m-%d %H:%M")] for r in reqs]).encode()


def peer(py: str, items: bytes) -> tuple[float, float]:
    out = subprocess.run([py, "-c", _PEER_SCRIPT], input=items, capture_output=True)
    if out.returncode:
        raise SystemExit(f"--peer-python {py}: the peer did not run (is najia installed there?)\n{out.stderr.decode()[-600:]}")
    wall, cpu = json.loads(out.stdout)
    return wall, cpu


def batch_check(tree: Tree, path: str, out_path: str, lines: int) -> tuple[int, str]:
    """An untimed run of `yimao batch` (it also warms the OS's caches): the lines answered with
    a chart, and the summary line; the answers must be one a line."""
    with open(out_path, "wb") as out:
        _, _, err = child([tree.python, "-m", "yimao", "batch", path], stdout=out)
    total = charts = 0
    with open(out_path, "rb") as f:
        for line in f:
            total += 1
            charts += b'"schema_version"' in line[:40]
    os.unlink(out_path)
    if total != lines:
        raise SystemExit(f"{tree.label}: yimao batch answered {total} lines of {lines}\n{err.decode()[-1500:]}")
    return charts, err.decode(errors="replace").strip().rpartition("\n")[2]


def install(ref: str, tmp: str) -> Tree:
    """REF of this repository, installed with `pip install .` in a venv under tmp."""
    sha = subprocess.run(["git", "rev-parse", "--verify", f"{ref}^{{commit}}"], cwd=REPO, capture_output=True, text=True)
    if sha.returncode:
        raise SystemExit(f"--baseline {ref}: not a revision of {REPO}\n{sha.stderr}")
    commit = sha.stdout.strip()
    tree = subprocess.run(["git", "archive", "--format=tar", commit], cwd=REPO, capture_output=True, check=True).stdout
    src = os.path.join(tmp, "src")
    with tarfile.open(fileobj=io.BytesIO(tree)) as tar:
        tar.extractall(src, filter="data")
    venv = os.path.join(tmp, "venv")
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    py = os.path.join(venv, "bin", "python")
    done = subprocess.run([py, "-m", "pip", "install", "-q", src], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"--baseline {ref}: pip install failed\n{done.stderr[-1500:]}")
    return Tree(ref if commit.startswith(ref) else f"{ref} ({commit[:7]})", py)


def this_commit() -> str:
    """This tree's commit, and whether its files differ from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    return f"{head or 'no commit'}{' with changes' if dirty else ''}"


def compile_tree(tree: Tree) -> str:
    """Byte-compile the tree's yimao, as `pip install` does for an installed package (and as
    typer and rich, the floor, already are): an editable checkout under PYTHONDONTWRITEBYTECODE=1
    would otherwise compile every module on every run. Returns where its yimao is."""
    where = subprocess.run([tree.python, "-c", "import os, yimao; print(os.path.dirname(yimao.__file__))"], capture_output=True, text=True)
    if where.returncode:
        raise SystemExit(f"{tree.label}: cannot import yimao with {tree.python}\n{where.stderr[-600:]}")
    path = where.stdout.strip()
    subprocess.run([tree.python, "-m", "compileall", "-q", path], check=True)
    return path


# --- the run ---------------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    throughput: bool  # figures are seconds per item (shown as /s) rather than seconds (shown as ms)
    per_tree: dict[str, Figure]
    floor: str | None = None  # the name of the row this one is shown as a multiple of


def rounds(n: int, trees: list[Tree]):
    """The trees in turn, n rounds, the order reversed every other round."""
    for i in range(n):
        yield from trees if i % 2 == 0 else reversed(trees)


def run(args: argparse.Namespace) -> tuple[list[Tree], list[Row], dict[str, str]]:
    quick = args.quick
    repeat = args.repeat or (3 if quick else 5)
    n, warm = (300, 300) if quick else (2000, 1000)
    lines = args.lines or (2000 if quick else 10_000)
    cold_rounds = 3 * repeat
    notes: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="yimao-bench-") as tmp:
        trees = [Tree("this tree", sys.executable)]
        notes["this tree commit"] = this_commit()
        if args.baseline:
            print(f"installing {args.baseline} …", file=sys.stderr)
            trees.append(install(args.baseline, os.path.join(tmp, "baseline")))
        for t in trees:
            notes[t.label] = compile_tree(t)

        reqs = workload(warm + n)
        requests = os.path.join(tmp, "requests.jsonl")
        with open(requests, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in reqs)
        mixed = os.path.join(tmp, "mixed.jsonl")
        with open(mixed, "wb") as f:
            f.writelines(mixed_lines(lines))
        rows: list[Row] = []

        print(f"in process: {repeat} rounds of {n:,} requests after {warm:,} …", file=sys.stderr)
        full = Row("in process: full reading + JSON line", True, {t.label: Figure() for t in trees})
        najia = Row("peer: najia chart + text, in process", True, {"najia": Figure()})
        items = peer_items(reqs[warm - 20 : warm + min(n, 300)])  # 20 to warm it, then up to 300: najia takes ~15 ms each
        for t in rounds(repeat, trees):
            wall, cpu, entry, size = in_process(t, requests, warm)
            full.per_tree[t.label].runs.append((wall, cpu))
            notes[f"{t.label} entry"] = entry
            notes[f"{t.label} size"] = f"{size / 1000:.1f} KB"
            if args.peer_python and t is trees[0]:
                najia.per_tree["najia"].runs.append(peer(args.peer_python, items))
        rows.append(full)
        if args.peer_python:
            rows.append(najia)
        # the two halves of a line no shape of the document's dicts saves: what they leave for the dicts
        halves = {stage: Row(f"in process: {name}", True, {t.label: Figure() for t in trees}) for stage, name in STAGES.items()}
        for t in rounds(repeat, trees):
            for stage, row in halves.items():
                row.per_tree[t.label].runs.append(in_process(t, requests, warm, stage)[:2])
        rows += halves.values()

        print(f"batch: {repeat} rounds of {lines:,} mixed lines …", file=sys.stderr)
        charts = {}
        for t in trees:
            charts[t.label], notes[f"{t.label} summary"] = batch_check(t, mixed, os.path.join(tmp, "out.jsonl"), lines)
        if len(set(charts.values())) > 1:
            notes["charts differ"] = ", ".join(f"{k}: {v:,}" for k, v in charts.items())
        b = Row(f"batch: {lines:,} mixed lines", True, {t.label: Figure() for t in trees})
        for t in rounds(repeat, trees):
            wall, cpu, _ = child([t.python, "-m", "yimao", "batch", mixed])
            c = charts[t.label]
            b.per_tree[t.label].runs.append((wall / c, cpu / c))
        b.name += f" ({charts[trees[0].label]:,} charts)"
        rows.append(b)

        print(f"cold start: {cold_rounds} rounds …", file=sys.stderr)
        cold = {
            'cold start: python -c "import typer, rich"': ("-c", "import typer, rich"),
            "cold start: yimao cast … --json": ("-m", "yimao", *CAST, "--json"),
            "cold start: yimao cast … (tables)": ("-m", "yimao", *CAST),
        }
        floor = next(iter(cold))
        cold_rows = {name: Row(name, False, {t.label: Figure() for t in trees}, floor=None if name == floor else floor) for name in cold}
        peer_cold = Row("peer: najia -p 1,4,1,1,4,1 -d … (cold)", False, {"najia": Figure()}, floor=floor)
        for i, t in enumerate(rounds(cold_rounds, trees)):
            for name, argv in cold.items():
                cold_rows[name].per_tree[t.label].runs.append(child([t.python, *argv])[:2])
            if args.peer_python and i % len(trees) == 0:
                peer_cold.per_tree["najia"].runs.append(child([args.peer_python, "-m", "najia", "-p", "1,4,1,1,4,1", "-d", "2026-12-02 10:00"])[:2])
        rows += cold_rows.values()
        if args.peer_python:
            rows.append(peer_cold)
    return trees, rows, notes


def cell(row: Row, label: str, rows: dict[str, Row]) -> str:
    fig = row.per_tree.get(label)
    if fig is None or not fig.runs:
        return ""
    spread = f" ±{fig.spread() * 100:.0f}%"
    if row.throughput:
        per_s = 1 / fig.wall
        text = f"{per_s:,.0f}/s" if per_s >= 100 else f"{per_s:,.1f}/s"
        return text + spread
    text = f"{fig.wall * 1e3:.0f} ms" + spread
    if row.floor:
        floors = rows[row.floor].per_tree
        base = floors.get(label) or next(iter(floors.values()))  # the peer's: this tree's floor
        text += f"  {fig.wall / base.wall:.2f}× floor"
    return text


def table(trees: list[Tree], rows: list[Row]) -> str:
    labels = [t.label for t in trees]
    by_name = {r.name: r for r in rows}
    head = ["figure", *labels] + (["ratio wall / CPU"] if len(trees) > 1 else [])
    body = []
    for r in rows:
        if "najia" in r.per_tree:
            body.append([r.name, cell(r, "najia", by_name)])
            continue
        line = [r.name, *(cell(r, k, by_name) for k in labels)]
        if len(trees) > 1:
            new, base = r.per_tree[labels[0]], r.per_tree[labels[1]]
            line.append(f"{ratio(new.wall, base.wall, throughput=r.throughput):.2f} / {ratio(new.cpu, base.cpu, throughput=r.throughput):.2f}")
        body.append(line)
    widths = [max(len(x[i]) for x in [head, *body] if i < len(x)) for i in range(len(head))]
    out = []
    for x in [head, *body]:
        out.append("  ".join(v.ljust(w) for v, w in zip(x, widths)).rstrip())
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog="The figures and what they mean: docs/performance.md.")
    ap.add_argument("--baseline", metavar="REF", help="a git revision of this repository to measure beside this tree (installed in a temporary venv)")
    ap.add_argument("--quick", action="store_true", help="a smaller workload: 3 rounds, 2,000 batch lines, 300 requests in process")
    ap.add_argument("--repeat", type=int, metavar="N", help="rounds of each measurement (default 5, or 3 with --quick)")
    ap.add_argument("--lines", type=int, metavar="N", help="mixed lines for batch (default 10,000, or 2,000 with --quick)")
    ap.add_argument("--peer-python", metavar="PY", help="a Python with PyPI's najia installed, to measure it beside yimao")
    args = ap.parse_args(argv)
    started, load = time.time(), os.getloadavg()[0]
    trees, rows, notes = run(args)
    print(
        f"yimao benchmarks: medians of {args.repeat or (3 if args.quick else 5)} rounds, {time.time() - started:.0f} s in all; "
        f"{os.cpu_count()} CPUs, load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"
    )
    for t in trees:
        commit = f" = {notes['this tree commit']}" if t is trees[0] else ""
        print(f"  {t.label}{commit}: {notes[t.label]} ({notes.get(f'{t.label} entry', '')})")
    print()
    print(table(trees, rows))
    for t in trees:
        print(f"  {t.label}, its batch summary: {notes[f'{t.label} summary']}")
    sizes = ", ".join(f"{notes[f'{t.label} size']} ({t.label})" for t in trees)
    print(f"  the compact JSON line of a reading, median over the in-process requests: {sizes}")
    by_name = {r.name: r for r in rows}
    najia = by_name.get("peer: najia chart + text, in process")
    if najia:
        full = by_name["in process: full reading + JSON line"].per_tree
        times = ", ".join(f"{najia.per_tree['najia'].wall / full[t.label].wall:.0f}× ({t.label})" for t in trees)
        print(f"  yimao's full reading with its JSON line is faster than najia's chart and text by {times}")
    if "charts differ" in notes:
        print(f"  the trees answered a different number of lines with a chart: {notes['charts differ']}")


if __name__ == "__main__":
    main()
