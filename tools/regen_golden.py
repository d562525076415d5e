"""Regenerate the golden documents in tests/golden/ from the installed yimao.

Each case is one command a user runs; its stdout is stored as it is printed. A change in the
JSON contract then shows as a diff of these files, to be read in review before it is committed.

    python tools/regen_golden.py          # rewrite every file
    python tools/regen_golden.py --check  # exit 1 naming the files that differ
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"

# The environment every case runs in: a fixed zone, so a date without an offset is read the same
# everywhere, and no terminal.
ENV = {"TZ": "Asia/Shanghai", "COLUMNS": "100", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}

BATCH_LINES = "\n".join(
    (
        '{"hex": "离之乾", "date": "2026-12-02T10:00+08:00"}',
        '{"hex": "大畜之离", "month": "卯", "day": "戊寅", "use": "父"}',
        '{"hex": "798788", "date": "1999-12-31T23:30+08:00", "day_start": 0, "use": "世"}',
        '{"hex": "101101", "moving": [2, 5], "date": "2026-12-02T10:00", "tz": "Asia/Shanghai"}',
        '{"hex": "困之兑", "month": 8, "day": "庚申", "use": "财", "topic": "婚姻"}',
        '{"hex": "大", "month": 3}',
        '{"hex": "乾", "month": 13}',
        '{"hex": "乾", "date": "2026-02-30T10:00+08:00"}',
        "not json",
        "",
        '{"hex": "履之睽", "month": "申", "day": "甲辰", "use": "财"}',
        '{"hex": "798788", "obtained": "entered", "throws": "背字字 9 背背字 少阳 拆 8", "month": "卯", "day": "戊寅"}',
        '{"hex": "乾", "obtained": "tossed", "throws": "7 7 7 7 7 7", "month": "卯", "day": "戊寅"}',
    )
)

# name -> (argv after `yimao`, standard input)
CASES: dict[str, tuple[tuple[str, ...], str | None]] = {
    "cast_date.json": (("cast", "--date", "2026-12-02T10:00+08:00", "--hex", "离之乾", "--json"), None),
    "cast_pillars.json": (("cast", "--hex", "困之兑", "--month", "酉", "--day", "庚申", "--use", "财", "--topic", "婚姻", "--json"), None),
    "cast_traditional.json": (("cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父", "--traditional", "--json"), None),
    "hex.json": (("hex", "大畜之离", "--json"), None),
    "pillars.json": (("pillars", "--date", "2024-02-04T16:30+08:00", "--json"), None),
    "star_month.json": (("star", "天医", "--month", "3", "--json"), None),
    "star_table.json": (("star", "天医", "--json"), None),
    "stars.json": (("stars", "--month", "卯", "--day", "戊寅", "--json"), None),
    "text.json": (("text", "局会", "--json"), None),
    "examples.json": (("examples", "--json"), None),
    "batch.jsonl": (("batch", "-"), BATCH_LINES + "\n"),
}


def run(argv: tuple[str, ...], stdin: str | None) -> bytes:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "SYSTEMROOT")} | ENV
    done = subprocess.run(
        [sys.executable, "-m", "yimao", *argv], input=(stdin or "").encode(), capture_output=True, env=env, timeout=120, check=False
    )
    if done.returncode not in (0, 2) or not done.stdout:  # batch with bad lines exits 2 and still answers every line
        raise SystemExit(f"yimao {' '.join(argv)}: exit {done.returncode}\n{done.stderr.decode(errors='replace')}")
    return done.stdout


def main(check: bool) -> int:
    differ = []
    for name, (argv, stdin) in CASES.items():
        path = GOLDEN / name
        out = run(argv, stdin)
        if check:
            if not path.exists() or path.read_bytes() != out:
                differ.append(name)
        else:
            path.write_bytes(out)
    for name in differ:
        print(f"differs: tests/golden/{name}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv[1:]))
