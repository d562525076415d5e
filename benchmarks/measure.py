"""One tree's in-process full reading, measured in that tree's own Python.

    PY benchmarks/measure.py REQUESTS WARM [line|reading|writing]

REQUESTS is a file of JSON Lines, each a request object as `yimao batch` reads it (`hex`, `date`,
`use` …). The first WARM requests warm the caches (节 of each year, the stars of each key …), as
a long batch has warmed them; each of the others is then read once — pillars, chart, every rule,
every star — and encoded as the JSON line `yimao batch` writes (or, as asked, only read, or only
its document written: `measure`). Prints one JSON object: `wall` and `cpu` seconds per request,
`n`, `bytes` (the median length of those lines, newline included; 0 when only read), and
`entry`, the functions that were called.

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


def entry() -> tuple[Callable[[dict[str, Any]], Any], Callable[[Any], Any], Callable[[Any], bytes], str]:
    """(make a request from its mapping, read it, its reading's JSON line, the names used)."""
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

    return make, read, encode, f"{request_name}, {read_name}, {encode_name}"


def measure(path: str, warm: int, stage: str = "line") -> dict[str, Any]:
    """Times `stage` over the requests after the first `warm`: `line`, the reading and its JSON
    line; `reading`, the reading alone; `writing`, the JSON encoder writing each reading's
    document, its readings and dicts made beforehand (what no shape of those dicts saves)."""
    make, read, encode, names = entry()
    with open(path, encoding="utf-8") as f:
        reqs = [make(json.loads(line)) for line in f if line.strip()]
    for r in reqs[:warm]:
        encode(read(r))
    timed = reqs[warm:]
    sizes = [0] * len(timed)
    if stage == "writing":
        document, _ = _need(DOCUMENT, "document function")
        dumps, _ = _need(DUMPS, "JSON encoder")
        docs = [document(read(r)) for r in timed]
        t, c = time.perf_counter(), time.process_time()
        for i, d in enumerate(docs):
            sizes[i] = len(dumps(d, compact=True))
    elif stage == "reading":
        t, c = time.perf_counter(), time.process_time()
        for r in timed:
            read(r)
    else:
        t, c = time.perf_counter(), time.process_time()
        for i, r in enumerate(timed):
            sizes[i] = len(encode(read(r)))
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return {"wall": wall / len(timed), "cpu": cpu / len(timed), "n": len(timed), "bytes": statistics.median(sizes), "entry": names}


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], int(sys.argv[2]), *sys.argv[3:4])))
