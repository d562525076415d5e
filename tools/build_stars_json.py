"""Compile src/yimao/data/stars.toml (the source, edited by hand) into stars.json (shipped, fast
to load): python tools/build_stars_json.py. tests/test_star_index.py checks the two agree."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from yimao.stars.catalogue import compile_names, compile_source

DATA = Path(__file__).resolve().parents[1] / "src" / "yimao" / "data"


def render() -> str:
    source = (DATA / "stars.toml").read_text(encoding="utf-8")
    compiled = {"stars": compile_source(source), "names": compile_names(source)}
    body = json.dumps(compiled, ensure_ascii=False, separators=(",", ":"))
    # the catalogue's version, which every document names: its content's, computed here once
    # rather than at every start (hashlib's import alone is some 2 ms of a cold cast)
    version = hashlib.sha256(body.encode("utf-8")).hexdigest()[:12]
    return json.dumps({"version": version, **compiled}, ensure_ascii=False, separators=(",", ":")) + "\n"


def main() -> None:
    (DATA / "stars.json").write_text(render(), encoding="utf-8")
    print(f"wrote {DATA / 'stars.json'}")


if __name__ == "__main__":
    main()
