"""`yimao examples`: every worked example of volume 6 agrees with what yimao computes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from yimao.examples import EXAMPLES, agrees, run_all
from yimao.texts import raw_text


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_each_example_agrees(example):
    r = example.run()
    assert r["agrees"], (r["expected"], r["computed"])
    assert example.quote.original in raw_text()


def test_ids_are_unique_ascii():
    ids = [e.id for e in EXAMPLES]
    assert len(ids) == len(set(ids)) and all(i.isascii() for i in ids)


def test_agreement_can_fail():
    assert not agrees({"holds": True}, {"holds": False})
    assert not agrees({"reason": "非真生"}, {"reasons": ["日生而非长生"]})
    assert agrees({"reason": "非真生", "holds": False}, {"reasons": ["非真生"], "holds": False, "kind": None})


def test_command():
    r = subprocess.run([sys.executable, "-m", "yimao", "examples", "--json"], capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["disagree"] == 0 and doc["agree"] == len(EXAMPLES) == len(doc["examples"])
    assert all({"id", "quote", "expected", "computed", "agrees"} <= set(e) for e in doc["examples"])
    assert len(run_all()) == len(EXAMPLES)
