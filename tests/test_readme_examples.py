"""The README's example outputs are what yimao prints: each generated block (tools/readme_examples.py)
equals a fresh run of its command. When an output changes on purpose, run
`python tools/readme_examples.py` and read the diff of README.md."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_TOOL = Path(__file__).resolve().parent.parent / "tools" / "readme_examples.py"
_spec = importlib.util.spec_from_file_location("readme_examples", _TOOL)
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)

SHOWN = tool.examples(tool.README.read_text(encoding="utf-8"))


def test_the_readme_has_generated_examples():
    assert {"yimao hex 大", "yimao star 月煞", "yimao pillars --date 2024-02-04T16:30+08:00"} <= set(SHOWN)
    assert any(c.startswith("yimao cast ") for c in SHOWN) and any(c.endswith("| yimao batch") for c in SHOWN)


@pytest.mark.parametrize("command", sorted(SHOWN))
def test_an_example_shows_what_its_command_prints(command):
    text = tool.README.read_text(encoding="utf-8")
    m = next(m for m in tool.BLOCK.finditer(text) if m["command"] == command)
    assert tool.shape(tool.run(command), tool._options(m["options"])) == m["output"], "run tools/readme_examples.py"


def test_shape_cuts_masks_and_ends_with_an_ellipsis():
    out = "a 12 charts/s\n" + "x" * 13 + "\nthird\nfourth\n"
    assert tool.shape(out, {"mask": r"\d+(?= charts/s)", "cut": "12", "lines": "3"}) == "a … charts/s\n" + "x" * 11 + "…\nthird\n…\n"
    assert tool.shape(out, {}) == out
