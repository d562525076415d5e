"""The shipped stars.json is the compiled form of stars.toml (regenerate with tools/build_stars_json.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from yimao.stars.catalogue import catalogue, compile_source, source_text

ROOT = Path(__file__).resolve().parents[1]


def test_stars_json_is_current():
    spec = importlib.util.spec_from_file_location("build_stars_json", ROOT / "tools" / "build_stars_json.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert (ROOT / "src" / "yimao" / "data" / "stars.json").read_text(encoding="utf-8") == mod.render()


def test_loaded_catalogue_matches_the_source():
    compiled = compile_source(source_text())
    cat = catalogue()
    assert [s.id for s in cat.stars] == [d["id"] for d in compiled]
    for s, d in zip(cat.stars, compiled):
        assert [q.original for q in s.quotes] == [o for _, o in d["quotes"]]
        flat_table = {k: list(v) if isinstance(v, tuple) else {kk: list(vv) for kk, vv in v.items()} for k, v in s.table.items()}
        assert flat_table == d["table"]
