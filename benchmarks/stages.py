"""Instructions per chart, by stage: `benchmarks/count.sh STAGE [N] [W]`.

Warms the caches with W lines of the benchmark's workload through `yimao batch`'s loop (as a
long run has warmed them), prepares the inputs of STAGE for the next N lines — requests it has
not seen — and, when the last argument is 1, runs STAGE over them. count.sh runs this under
valgrind callgrind with 1 and with 0 and prints the difference per item: the same figure on
every run, whatever else the machine does (wall clocks on a shared machine are not).

Stages: batch (whole lines: parse, read, encode), read (the reading: cast, pillars, chart, 用神,
rules, stars), cast, pillars, chart, analysis (the rules of volume 6), stars (finding those on the
chart, as a reading does), placements (the stars one by one with their conditions and variants
judged, as the screen shows them),
document (the encoded line, from a reading), dict (the dict path of `cast --json`), write
(orjson writing a reading's document, its dicts built beforehand: what no shape of dicts saves).
"""

import gc
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import workload  # noqa: E402

from yimao import batch  # noqa: E402
from yimao.chart import build_chart, resolve_use  # noqa: E402
from yimao.hexagram import Cast  # noqa: E402
from yimao.pipeline import CastRequest, document, read, resolve_pillars  # noqa: E402
from yimao.serialize import dumps  # noqa: E402

stage, W, N, RUN = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
reqs = workload(W + N)
lines = [json.dumps(r, ensure_ascii=False).encode() for r in reqs]
batch.run(lines[:W], io.BytesIO())
fresh, lines = [CastRequest(**r) for r in reqs[W:]], lines[W:]
gc.disable()  # as in `yimao batch`


def over(items, fn):
    if RUN:
        for x in items:
            fn(x)


if stage == "batch":
    if RUN:
        batch.run(lines, io.BytesIO())
elif stage == "read":
    over(fresh, read)
elif stage == "cast":
    over(fresh, lambda r: Cast.parse(r.hex, r.moving))
elif stage == "pillars":
    over(fresh, lambda r: resolve_pillars(r.date, r.tz, r.day_start, r.year, r.month, r.day, r.hour))
else:
    casts = [Cast.parse(r.hex, r.moving) for r in fresh]
    pillars = [resolve_pillars(r.date, r.tz, r.day_start, r.year, r.month, r.day, r.hour) for r in fresh]
    if stage == "chart":
        over(list(zip(casts, pillars)), lambda cp: build_chart(*cp))
    elif stage in ("analysis", "stars", "placements"):
        charts = [build_chart(c, p) for c, p in zip(casts, pillars)]
        pairs = [(c, resolve_use(c, r.use) if r.use else None) for c, r in zip(charts, fresh)]
        if stage == "analysis":
            from yimao.analysis.run import analyse

            over(pairs, lambda cu: analyse(*cu))
        else:
            from yimao.stars.place import find_stars, place_stars

            place = find_stars if stage == "stars" else place_stars
            over(pairs, lambda cu: place(cu[0], use=cu[1]))
    elif stage in ("document", "dict"):
        from yimao.pipeline import document_json

        readings = [read(r) for r in fresh]
        over(readings, document_json if stage == "document" else lambda x: dumps(document(x)))
    elif stage == "write":
        docs = [document(read(r)) for r in fresh]
        over(docs, lambda d: dumps(d, compact=True))
    else:
        raise SystemExit(f"unknown stage {stage!r}; see the docstring")
