"""What a chart's compact document is made of, and how small a document saying the same can be:
`python benchmarks/size.py [N]`.

Reads the last N (default 2,000) of the in-process requests of `run.py` (the same seed, after the
1,000 that warm its caches) and measures each reading's compact JSON line as `yimao batch` writes
it: the median, mean and largest size, the mean of each top-level part, and a star entry's bytes
by field. Then it rewrites the same documents into ever smaller shapes, each keeping what
docs/design.md §4 asks a chart to say (every star on the chart with its id, label, nature, weight,
positions, the parts it falls on, whether it acts and is on the 用神, its passage, the original
sentence of each star that acts, the conditions that hold and the variants placing it otherwise),
and gives each shape's median:

- as written;
- without the keys another key repeats: a star's `lines`, `moving` and `day_match` (its `hits`
  and `active` say them) and each line's star ids (the stars' `lines` say them);
- and every key cut to two characters, where jq's `.stars[].active` becomes `.stars[].a8`;
- and each original sentence written once per document, the stars pointing at it: the smallest
  of these shapes that still says all of it;
- and, beyond what a chart must say, only the stars that act.

The sizes are bytes and counted the same on every run: no baseline is needed beside them.
"""

from __future__ import annotations

import os
import statistics
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import orjson

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import workload  # noqa: E402

from yimao.pipeline import CastRequest, document_json, read  # noqa: E402

WARM = 1000  # as `run.py` warms `measure.py`: these requests are not measured


def size(doc: Any) -> int:
    return len(orjson.dumps(doc)) + 1  # and its newline, as a batch line


def no_repeats(doc: dict[str, Any]) -> dict[str, Any]:
    out = orjson.loads(orjson.dumps(doc))
    for line in out["hexagram"]["lines"]:
        del line["stars"]
    for star in out["stars"]:
        for key in ("lines", "moving", "day_match"):
            del star[key]
    return out


def short_keys(value: Any) -> Any:
    """Every key cut to its first letter and its place among its siblings (`active` → `a8`)."""
    if isinstance(value, dict):
        return {f"{k[0]}{i}": short_keys(v) for i, (k, v) in enumerate(value.items())}
    if isinstance(value, list):
        return [short_keys(v) for v in value]
    return value


def acting_only(doc: dict[str, Any]) -> dict[str, Any]:
    return {**doc, "stars": [s for s in doc["stars"] if s["active"]]}


def originals_once(doc: dict[str, Any]) -> dict[str, Any]:
    """Each distinct original sentence of the stars once, at the document's top, each star's
    `original` its index there."""
    sentences: dict[str, int] = {}
    stars = []
    for s in doc["stars"]:
        text = s["text"]
        if text is not None and text["original"] is not None:
            text = {**text, "original": sentences.setdefault(text["original"], len(sentences))}
        stars.append({**s, "text": text})
    return {**doc, "stars": stars, "sentences": list(sentences)}


SHAPES: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [
    ("as written", lambda d: d),
    ("without the keys another repeats", no_repeats),
    ("… and two-character keys", lambda d: short_keys(no_repeats(d))),
    ("… and each original sentence once", lambda d: short_keys(originals_once(no_repeats(d)))),
    ("… and only the stars that act", lambda d: short_keys(originals_once(acting_only(no_repeats(d))))),
    ("no stars at all", lambda d: {k: v for k, v in d.items() if k != "stars"}),
]


def kb(n: float) -> str:
    return f"{n / 1000:.1f} KB"


def main(n: int) -> None:
    reqs = workload(WARM + n)[WARM:]
    docs = [orjson.loads(document_json(read(CastRequest(**r)))) for r in reqs]
    sizes = [size(d) for d in docs]
    print(f"{len(docs):,} charts: median {kb(statistics.median(sizes))}, mean {kb(statistics.mean(sizes))}, largest {kb(max(sizes))}")
    parts: Counter[str] = Counter()
    fields: Counter[str] = Counter()
    entries = acting = 0
    for d in docs:
        for k, v in d.items():
            parts[k] += size(v)
        for s in d["stars"]:
            entries += 1
            acting += s["active"]
            for k, v in s.items():
                fields[k] += size(v) + len(k) + 3  # "key": and its comma
    print("mean by part: " + ", ".join(f"{k} {kb(v / len(docs))}" for k, v in parts.most_common(6)))
    stars = [len(d["stars"]) for d in docs]
    print(
        f"stars a chart: median {statistics.median(stars):.0f}, of which {acting / len(docs):.0f} act on average; an entry {sum(fields.values()) / entries:.0f} bytes:"
    )
    print("  " + ", ".join(f"{k} {v / entries:.0f}" for k, v in fields.most_common()))
    print("the same documents in smaller shapes, median:")
    for name, shape in SHAPES:
        print(f"  {name:38s} {kb(statistics.median(size(shape(d)) for d in docs))}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
