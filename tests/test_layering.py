"""One direction of dependency (docs/design.md §2), and no import cycle; only render imports rich, only cli imports typer."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "yimao"

# module → yimao modules it may import (by top-level name under yimao)
ALLOWED = {
    "errors": set(),
    "hanzi": {"errors"},
    "usertext": {"errors"},  # text a user gave: checked before it is kept, made visible before it is shown
    "ganzhi": {"errors"},
    "solar_terms": {"errors", "ganzhi", "data"},
    "pillars": {"errors", "ganzhi", "solar_terms"},
    "hexagram": {"errors", "ganzhi", "hanzi"},
    "texts": {"errors", "hanzi", "data"},
    "chart": {"errors", "ganzhi", "pillars", "hexagram", "hanzi"},
    "toss": {"errors", "hexagram"},  # throws of three coins: their notation, and how a cast was obtained
    "analysis": {"errors", "ganzhi", "pillars", "hexagram", "chart", "texts", "hanzi", "analysis"},
    "stars": {"errors", "ganzhi", "pillars", "solar_terms", "hexagram", "chart", "texts", "hanzi", "stars", "data"},
    "serialize": {"errors", "ganzhi", "pillars", "hexagram", "chart", "texts", "hanzi", "analysis", "stars", "solar_terms"},
    "pipeline": {"errors", "ganzhi", "pillars", "hexagram", "chart", "texts", "hanzi", "analysis", "stars", "solar_terms", "serialize", "toss"},
    "render": {
        "errors",
        "ganzhi",
        "pillars",
        "hexagram",
        "chart",
        "texts",
        "hanzi",
        "analysis",
        "stars",
        "solar_terms",
        "serialize",
        "pipeline",
        "usertext",
        "view",
        "linebreak",
    },
    "linebreak": set(),  # widths in cells and where Chinese lines may break
    # what a reader sees of a reading, decided once for the terminal and the pictures
    "view": {"errors", "ganzhi", "pillars", "hexagram", "chart", "texts", "hanzi", "analysis", "stars", "pipeline", "usertext"},
    # the SVG picture, the HTML page and the PNG: drawn from the view, never from rich
    "picture": {"errors", "view", "linebreak", "usertext", "hanzi", "picture"},
    "cli": None,  # may import everything
    "__main__": {"launch"},
    "output": {"errors", "serialize", "hanzi"},  # the streams, messages, exit codes and writers every command shares
    # the entry point: `batch FILE` and `cast … --json` without Typer, the rest to cli
    "launch": {"errors", "output", "batch", "pipeline", "cli", "hanzi"},
    "__init__": set(),
    "data": set(),  # package data and its reader
    "batch": {"errors", "pipeline", "serialize", "output", "render", "hanzi"},  # render: the progress bar on a terminal
    "examples": {"errors", "ganzhi", "hexagram", "pipeline", "stars", "texts"},
    "journal": {
        "errors",
        "ganzhi",
        "pillars",
        "hexagram",
        "pipeline",
        "serialize",
        "stars",
        "usertext",
    },  # the journal of casts: the only importer of sqlite3
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


# --- no import cycle ----------------------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = ("yimao", *path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _yimao_imports(path: Path, modules: set[str]) -> set[str]:
    """The yimao modules a file imports, at any level (a function's body too): `import yimao.x`,
    `from yimao.x import name` and `from yimao import x` (a module of a package)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.level == 0, f"{path}: relative import"
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return {name for name in found if name in modules}


def import_graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in SRC.rglob("*.py")}
    modules = set(paths)
    return {name: _yimao_imports(path, modules) - {name} for name, path in paths.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as the list of its nodes (first = last), or None."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return None
        for target in sorted(graph.get(node, ())):
            cycle = visit(target, path + [node])
            if cycle:
                return cycle
        done.add(node)
        return None

    for start in sorted(graph):
        cycle = visit(start, [])
        if cycle:
            return cycle
    return None


def test_no_import_cycle_among_yimaos_modules():
    graph = import_graph()
    assert "yimao.output" in graph["yimao.cli"] and "yimao.cli" in graph["yimao.launch"]  # the graph sees function-level imports
    assert find_cycle(graph) is None, " → ".join(find_cycle(graph) or ())


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "d"}, "b": set(), "d": {"d2"}, "d2": {"d"}}) == ["d", "d2", "d"]
