"""One tree's in-process full reading, measured in that tree's own Python.

    PY benchmarks/measure.py REQUESTS WARM

REQUESTS is a file of JSON Lines, each a request object as `yimao batch` reads it (`hex`, `date`,
`use` …). The first WARM requests warm the caches (节 of each year, the stars of each key …), as
a long batch has warmed them; each of the others is then read once — pillars, chart, every rule,
every star — and encoded as the JSON line `yimao batch` writes. Prints one JSON object: `wall`
and `cpu` seconds per request, `n`, `bytes` (the median length of those lines, newline
included), and `entry`, the functions that were called.

`benchmarks/run.py` runs this script with the Python of each tree it compares (the current one,
and a baseline revision installed in a venv of its own), so that each is measured by its own
code. It imports nothing from yimao at module level and finds the entry points by name, trying
the names the project has used (`ENTRIES`): a renamed function needs one name added here.
"""

from __future__ import annotations

import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

# (module, attribute) candidates, first found wins
REQUEST = [("yimao.pipeline", "CastRequest"), ("yimao.pipeline", "Request")]
READ = [("yimao.pipeline", "read"), ("yimao.pipeline", "read_request")]
# a reading → the bytes of its batch line; else `dumps(document(reading), compact=True)`
LINE = [("yimao.pipeline", "document_json"), ("yimao.serialize", "document_json"), ("yimao.serialize", "document_line")]
DOCUMENT = [("yimao.pipeline", "document"), ("yimao.serialize", "document")]
DUMPS = [("yimao.serialize", "dumps")]


def _find(candidates: list[tuple[str, str]]) -> tuple[Any, str] | None:
    for module, name in candidates:
        try:
            value = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
        return value, f"{module.removeprefix('yimao.')}.{name}"
    return None


def _need(candidates: list[tuple[str, str]], what: str) -> tuple[Any, str]:
    found = _find(candidates)
    if found is None:
        tried = ", ".join(f"{m}.{n}" for m, n in candidates)
        raise SystemExit(f"measure.py: no {what} in this tree (tried {tried}); add its name to benchmarks/measure.py")
    return found


def entry() -> tuple[Callable[[dict[str, Any]], Any], Callable[[dict[str, Any]], bytes], str]:
    """(make a request from its mapping, one full reading and its JSON line, the names used)."""
    request, request_name = _need(REQUEST, "request type")
    make = getattr(request, "from_mapping", None) or (lambda d: request(**d))
    read, read_name = _need(READ, "read function")
    line = _find(LINE)
    if line is not None:
        encode, encode_name = line
    else:
        document, document_name = _need(DOCUMENT, "document function")
        dumps, dumps_name = _need(DUMPS, "JSON encoder")
        encode_name = f"{dumps_name}({document_name}(…), compact=True)"

        def encode(reading: Any) -> bytes:
            return dumps(document(reading), compact=True)

    def full(req: Any) -> bytes:
        return encode(read(req))

    return make, full, f"{request_name}, {read_name}, {encode_name}"


def measure(path: str, warm: int) -> dict[str, Any]:
    make, full, names = entry()
    with open(path, encoding="utf-8") as f:
        reqs = [make(json.loads(line)) for line in f if line.strip()]
    for r in reqs[:warm]:
        full(r)
    timed = reqs[warm:]
    sizes = [0] * len(timed)
    t, c = time.perf_counter(), time.process_time()
    for i, r in enumerate(timed):
        sizes[i] = len(full(r))
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return {"wall": wall / len(timed), "cpu": cpu / len(timed), "n": len(timed), "bytes": statistics.median(sizes), "entry": names}


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], int(sys.argv[2]))))
