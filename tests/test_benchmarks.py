"""benchmarks/run.py and measure.py work: no figure is checked, only that the tools run and compute."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def _run_module():
    spec = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_help():
    done = subprocess.run([sys.executable, str(BENCH / "run.py"), "--help"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "--baseline REF" in done.stdout and "--peer-python PY" in done.stdout


def test_ratio_and_table():
    run = _run_module()
    # throughput from seconds per item: 2 ms against 1 ms is half the baseline's throughput
    assert run.ratio(2e-3, 1e-3, throughput=True) == 0.5
    # a time: 60 ms against 50 ms is 1.2 times the baseline's
    assert abs(run.ratio(0.060, 0.050, throughput=False) - 1.2) < 1e-12
    trees = [run.Tree("new", "py"), run.Tree("old", "py")]
    full = run.Row("in process: full reading + JSON line", True, {"new": run.Figure([(2e-4, 2e-4)] * 3), "old": run.Figure([(1e-4, 1e-4)] * 3)})
    floor = run.Row("floor", False, {"new": run.Figure([(0.05, 0.04)]), "old": run.Figure([(0.05, 0.04)])})
    cold = run.Row("cast", False, {"new": run.Figure([(0.06, 0.05)]), "old": run.Figure([(0.05, 0.04)])}, floor="floor")
    lines = run.table(trees, [full, floor, cold]).splitlines()
    assert lines[1].split()[-3:] == ["0.50", "/", "0.50"] and "5,000/s" in lines[1] and "10,000/s" in lines[1]
    assert "1.20× floor" in lines[3] and lines[3].split()[-3:] == ["1.20", "/", "1.25"]


def test_median_and_spread():
    run = _run_module()
    f = run.Figure([(3.0, 1.0), (1.0, 2.0), (2.0, 9.0)])
    assert (f.wall, f.cpu) == (2.0, 2.0)
    assert f.spread() == 0.5  # (3 - 1) / 2 / 2


def test_workloads_are_the_same_every_run():
    run = _run_module()
    assert run.workload(50) == run.workload(50)
    assert run.mixed_lines(200) == run.mixed_lines(200) and len(run.mixed_lines(200)) == 200
    assert len(run.COINS) == 4096 and len(run.HEXAGRAM_NAMES) == 64 and len(set(run.CYCLE)) == 60


def test_measure_finds_this_trees_entry_points(tmp_path):
    """measure.py reads and encodes through this tree's own functions (found by name): a rename
    needs its new name added there, or `run.py --baseline` cannot measure this tree."""
    run = _run_module()
    requests = tmp_path / "requests.jsonl"
    requests.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in run.workload(3)), encoding="utf-8")
    done = subprocess.run([sys.executable, str(BENCH / "measure.py"), str(requests), "1"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["n"] == 2 and got["wall"] > 0 and got["cpu"] >= 0 and got["entry"]
