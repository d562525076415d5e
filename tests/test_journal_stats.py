"""`journal stats`: for each rule and star that held in judged cases, the cases by 应, 不应 and
部分, their number and the share of 应, sorted by evidence; `--json` with `counts`, `judged` and
`share`. docs/design.md §8."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from conftest import ok

PILLARS = ("--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父")


@pytest.fixture
def yimao(yimao):
    """Run `yimao ARGS` in this process: its stdout, the run having succeeded."""
    return lambda *args: ok(yimao(*args))


# 申日之离, 亥日之泰: 助鬼伤身 holds (the book's own examples); 巳日之巽: 三刑 holds.
JUDGED = [
    (("--hex", "离", "--month", "子", "--day", "申"), "应"),
    (("--hex", "离", "--month", "丑", "--day", "申"), "应"),
    (("--hex", "泰", "--month", "子", "--day", "亥"), "不应"),
    (("--hex", "离之乾", "--month", "子", "--day", "申"), "部分"),
    (("--hex", "巽", "--month", "子", "--day", "巳"), "应"),
    (("--hex", "泰", "--month", "子", "--day", "亥"), None),
]


def test_stats_give_the_share_of_ying_sorted_by_evidence(journal, yimao):
    for n, (args, verdict) in enumerate(JUDGED, 1):
        yimao("cast", *args, "--save", "--question", f"第{n}问")
        if verdict:
            yimao("journal", "outcome", str(n), "--verdict", verdict)
    stats = json.loads(yimao("journal", "stats", "--json"))
    assert (stats["cases"], stats["judged"], stats["share"], stats["unjudged"]) == ({"应": 3, "不应": 1, "部分": 1}, 5, 0.6, 1)
    findings = {f["name"]: f for f in stats["findings"]}
    zhugui = findings["助鬼伤身"]
    assert zhugui["counts"] == {"应": 2, "不应": 1, "部分": 1} and zhugui["judged"] == 4 and zhugui["share"] == 0.5
    for kind in ("findings", "stars"):
        got = stats[kind]
        assert all(r["judged"] == sum(r["counts"].values()) and r["share"] == round(r["counts"]["应"] / r["judged"], 4) for r in got)
        assert [(-r["judged"], -r["share"]) for r in got] == sorted((-r["judged"], -r["share"]) for r in got)  # by evidence, then share
    assert stats["findings"][0]["name"] == "助鬼伤身"
    table = yimao("journal", "stats").decode()
    assert "已判卦例 5: 应 3  不应 1  部分 1  应率 60%  (未判 1)" in table
    assert re.search(r"助鬼伤身 +2 +1 +1 +4 +50%", table), table
    assert "成立之断" in table and "发动之神煞" in table and "已判" in table and "应率" in table


def test_stats_count_a_star_by_its_id_whatever_its_label(journal, yimao):
    """A star is counted by its id: a case saved when its label read otherwise (schema 1 had only
    the name) counts with the others, shown by the label of the latest."""
    import zlib

    for n in (1, 2):
        yimao("cast", *JUDGED[3][0], "--save", "--question", str(n))
        yimao("journal", "outcome", str(n), "--verdict", "应")
    with sqlite3.connect(journal) as db:
        doc = json.loads(zlib.decompress(db.execute("SELECT document FROM cases WHERE id = 1").fetchone()[0]))
        star = next(s for s in doc["stars"] if s["active"])
        star["label"] = "旧名"
        db.execute("UPDATE cases SET document = ? WHERE id = 1", (zlib.compress(json.dumps(doc).encode()),))
    rows = [r for r in json.loads(yimao("journal", "stats", "--json"))["stars"] if r["id"] == star["id"]]
    assert len(rows) == 1 and rows[0]["judged"] == 2 and rows[0]["name"] != "旧名"


def test_stats_of_no_judged_case(journal, yimao):
    yimao("cast", *PILLARS, "--save")
    stats = json.loads(yimao("journal", "stats", "--json"))
    assert (stats["judged"], stats["share"], stats["unjudged"], stats["findings"], stats["stars"]) == (0, None, 1, [], [])
    assert "尚无卦例记应验 (未判 1)" in yimao("journal", "stats").decode()
