"""DESIGN §2: one direction of dependency; only render imports rich, only cli imports typer."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "yimao"

# module → yimao modules it may import (by top-level name under yimao)
ALLOWED = {
    "errors": set(),
    "script": set(),
    "ganzhi": {"errors"},
    "solar_terms": {"errors", "ganzhi", "data"},
    "pillars": {"errors", "ganzhi", "solar_terms"},
    "hexagram": {"errors", "ganzhi", "script"},
    "texts": {"errors", "script", "data"},
    "chart": {"errors", "ganzhi", "pillars", "hexagram", "script"},
    "analysis": {"errors", "ganzhi", "pillars", "hexagram", "chart", "texts", "script", "analysis"},
    "stars": {"errors", "ganzhi", "pillars", "hexagram", "chart", "texts", "script", "stars", "data"},
    "serialize": {"errors", "ganzhi", "pillars", "hexagram", "chart", "texts", "script", "analysis", "stars", "solar_terms"},
    "pipeline": {"errors", "ganzhi", "pillars", "hexagram", "chart", "texts", "script", "analysis", "stars", "solar_terms", "serialize"},
    "render": {"errors", "ganzhi", "pillars", "hexagram", "chart", "texts", "script", "analysis", "stars", "solar_terms", "serialize", "pipeline"},
    "cli": None,  # may import everything
    "__main__": {"launch"},
    "launch": {
        "errors",
        "batch",
        "pipeline",
        "serialize",
        "render",
        "cli",
    },  # the entry point: `batch FILE` and `cast … --json` here, the rest to cli
    "__init__": set(),
    "data": set(),  # package data and its reader
    "batch": {"errors", "pipeline", "serialize"},
    "examples": {"errors", "ganzhi", "hexagram", "pipeline", "stars", "texts"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _owner(path: Path) -> str:
    rel = path.relative_to(SRC)
    return rel.parts[0].removesuffix(".py")


def test_dependency_direction():
    problems = []
    for path in SRC.rglob("*.py"):
        owner = _owner(path)
        allowed = ALLOWED.get(owner, "unknown")
        assert allowed != "unknown", f"{owner} is not in the layering table"
        for name in _imports(path):
            if name.split(".")[0] in ("rich",) and owner != "render":
                problems.append(f"{path.name} imports rich")
            if name.split(".")[0] == "typer" and owner != "cli":
                problems.append(f"{path.name} imports typer")
            if name.startswith("yimao.") and allowed is not None:
                target = name.split(".")[1]
                if target not in allowed and target != owner:
                    problems.append(f"{path.relative_to(SRC)} imports yimao.{target}")
    assert not problems, problems
