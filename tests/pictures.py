"""The charts the picture tests draw: static and moving, six moving lines, a 伏神 as 用神, pillars
only, traditional scripts, a case from the journal with long and hostile text, and a seeded
sample of casts at dates across the years."""

from __future__ import annotations

import os
import random
import shutil
import sys
from pathlib import Path

from yimao.hexagram import HEXAGRAMS
from yimao.launch import run

# The system's Chromium, started as this machine lets it run (as root, with no network to reach)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch(playwright):
    """Headless Chromium from the OS packages, driven by Playwright."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)


DATE = "2026-12-02T10:00+08:00"
HOSTILE = "问\x1b]0;pwned\x07 [red]财[/red] <script>alert(1)</script> &amp; \u202eevil\x01\ufffe 『终』"
LONG = "今年可得财否？" * 400  # 2,800 characters

CHARTS: list[tuple[str, list[str]]] = [
    ("readme", ["--date", DATE, "--hex", "离之乾"]),
    ("hidden-use", ["--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父"]),
    ("static", ["--date", "2025-06-15T08:30+08:00", "--hex", "乾"]),
    ("six-moving", ["--date", "2024-02-04T16:30+08:00", "--hex", "乾之坤"]),
    ("gou", ["--hex", "姤之遁", "--month", "卯", "--day", "戊寅"]),
    ("pillars-only", ["--hex", "坤", "--month", "3", "--day", "甲子"]),
    ("traditional", ["--date", DATE, "--hex", "离之乾", "--traditional"]),
    ("taiwan", ["--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父", "--script", "tw"]),
    ("topic", ["--date", DATE, "--hex", "泰之需", "--topic", "女嫁"]),
    ("no-hour", ["--hex", "损", "--month", "申", "--day", "辛亥", "--use", "官"]),
]


def _sample(n: int = 10, seed: int = 20261207) -> list[tuple[str, list[str]]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        h = rng.choice(HEXAGRAMS)
        moving = sorted(rng.sample(range(1, 7), rng.randint(0, 4)))
        date = f"{rng.randint(1950, 2060)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.choice((0, 30)):02d}+08:00"
        args = ["--date", date, "--hex", h.short_name, *(["--moving", ",".join(map(str, moving))] if moving else [])]
        out.append((f"sample-{i}", [*args, *(["--use", rng.choice(("父", "官", "财", "兄", "孙", "世"))] if i % 2 else [])]))
    return out


CHARTS += _sample()


def yimao(*args: str) -> int:
    sys.argv = ["yimao", *args]
    return run(list(args))


def draw_all(where: Path, kinds: tuple[str, ...] = ("svg", "html")) -> dict[str, dict[str, Path]]:
    """Every chart of CHARTS, and two journal cases, drawn into `where`: {name: {kind: path}}."""
    out: dict[str, dict[str, Path]] = {}
    for name, args in CHARTS:
        paths = {k: where / f"{name}.{k}" for k in kinds}
        assert yimao("cast", *args, *(x for k, p in paths.items() for x in (f"--{k}", str(p)))) == 0, name
        out[name] = paths
    journal = where / "journal.sqlite3"
    old = os.environ.get("YIMAO_JOURNAL")
    os.environ["YIMAO_JOURNAL"] = str(journal)
    try:
        for name, question, note in (("case-hostile", HOSTILE, HOSTILE * 3), ("case-long", LONG, "应期在秋" * 300)):
            assert yimao("cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父", "--save", "-q", question, "--json") == 0
            number = "1" if name == "case-hostile" else "2"
            for _ in range(3):
                assert yimao("journal", "note", number, note) == 0
            assert yimao("journal", "outcome", number, "--verdict", "应", "--note", note[:200]) == 0
            paths = {k: where / f"{name}.{k}" for k in kinds}
            assert yimao("journal", "show", number, *(x for k, p in paths.items() for x in (f"--{k}", str(p)))) == 0, name
            out[name] = paths
    finally:
        if old is None:
            del os.environ["YIMAO_JOURNAL"]
        else:
            os.environ["YIMAO_JOURNAL"] = old
    return out
