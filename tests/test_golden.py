"""The JSON contract as users see it: each command's document equals its golden file.

A difference is either a defect or an intended change of the contract; for the latter, run
`python tools/regen_golden.py` and review the diff of tests/golden/ before committing it.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

_TOOL = Path(__file__).resolve().parent.parent / "tools" / "regen_golden.py"
_spec = importlib.util.spec_from_file_location("regen_golden", _TOOL)
assert _spec is not None and _spec.loader is not None
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)


@pytest.mark.parametrize("name", sorted(regen.CASES))
def test_golden(name):
    argv, stdin = regen.CASES[name]
    got = regen.run(argv, stdin)
    want = (regen.GOLDEN / name).read_bytes()
    if got != want:  # say where, as parsed JSON, before the bytes
        if name.endswith(".jsonl"):
            assert [json.loads(x) for x in got.splitlines()] == [json.loads(x) for x in want.splitlines()]
        else:
            assert json.loads(got) == json.loads(want)
    assert got == want
