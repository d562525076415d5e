"""Instruction counts per chart, by stage: `benchmarks/count.sh STAGE [N]`.

Runs STAGE over N requests of the benchmark's fixed workload after the same warm-up; count.sh
runs it under valgrind callgrind with N and with 0 and prints the difference per item, which is
the same on every run whatever else the machine does (wall clocks on a shared machine are not).
Stages: cast, pillars, chart, analysis, stars, read (the full chart), document, dumps, full
(chart + document + JSON), bfull (the same as `yimao batch` writes it), bdoc,
doc_cal, doc_lines, doc_lineids, doc_starsjson, doc_findings.
"""
import sys, gc, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import workload
from yimao.pipeline import read, document, document_json, resolve_pillars
from yimao.hexagram import Cast
from yimao.chart import build_chart, resolve_use
from yimao.serialize import chart_to_dict, dumps
from yimao.analysis.run import analyse
from yimao.stars.place import stand
stage, n = sys.argv[1], int(sys.argv[2])
reqs = workload(400)
for r in reqs[:400]: dumps(document(read(r)))  # warm all caches identically
allrs = [read(r) for r in reqs]
alldocs = [document(x) for x in allrs]
reqs = reqs[:n]
if os.environ.get("NOGC"): gc.disable()
gc.collect(); gc.freeze()  # the setup heap is not traversed by the collections the stage triggers
rs = allrs[:n]
if stage == "read":
    for r in reqs: read(r)
elif stage == "bfull":
    for r in reqs: document_json(read(r))
elif stage == "full":
    for r in reqs: dumps(document(read(r)), compact=True)
else:
    if stage == "document":
        for x in rs: document(x)
    elif stage == "bdoc":
        for x in rs: document_json(x)
    elif stage == "doc_starsjson":
        from yimao.stars.place import stars_json
        for x in rs: stars_json(x.standing)
    elif stage == "doc_cal":
        from yimao.serialize import calendar_to_dict
        for x in rs: calendar_to_dict(x.chart.pillars)
    elif stage == "doc_lines":
        from yimao.serialize import line_to_dict
        for x in rs:
            for cl in x.chart.lines: line_to_dict(cl)
    elif stage == "doc_lineids":
        from yimao.stars.place import line_ids
        for x in rs: line_ids(x.standing)
    elif stage == "doc_findings":
        for x in rs: [f.to_dict() for f in x.findings]
    elif stage == "analysis":
        for x in rs: analyse(x.chart, x.use)
    elif stage == "stars":
        for x in rs: stand(x.chart, use=x.use)
    elif stage == "chart":
        for x in rs: build_chart(x.chart.cast, x.chart.pillars)
    elif stage == "pillars":
        for r in reqs: resolve_pillars(r.date, r.tz, r.day_start, r.year, r.month, r.day, r.hour)
    elif stage == "cast":
        for r in reqs: Cast.parse(r.hex, r.moving)
    elif stage == "dumps":
        for d in alldocs[:n]: dumps(d, compact=True)
