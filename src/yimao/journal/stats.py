"""`journal stats`: over the cases with an outcome, how often each finding that held and each
active star went with 应, 不应 or 部分. Counts, not verdicts: a student reads which of the
book's readings bore out in their own cases.

Each case is read as it was saved (its stored document): the outcome judges what was read then.
A case counts once for a family, however many of its findings or lines belong to it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from yimao.journal.case import VERDICTS, Case


class Row(NamedTuple):
    kind: str  # "finding" | "star"
    name: str  # 助鬼伤身, 局会 动会, 三刑 真刑 … or a star's name
    key: str  # the rule and kind, or the star's id
    counts: tuple[int, ...]  # cases by verdict, in the order of VERDICTS

    @property
    def cases(self) -> int:
        return sum(self.counts)


def finding_families(doc: dict[str, Any]) -> set[tuple[str, str]]:
    """The (key, name) of each finding that holds: its rule, and its kind when the rule has kinds
    (局会 动会, 三刑 真刑, 六害 生害 …)."""
    found = set()
    for f in doc.get("findings") or ():
        if f.get("holds"):
            rule, kind = f["rule"], f.get("kind")
            name = f"{rule} {kind}" if kind and kind != rule else rule
            found.add((name, name))
    return found


def star_families(doc: dict[str, Any]) -> set[tuple[str, str]]:
    """The (id, label) of each star active on the chart (its variants count as the star; the
    label tells apart the stars that share a name, 月煞（耗废）)."""
    return {(s["id"], s.get("label") or s["name"]) for s in doc.get("stars") or () if s.get("active")}


def tally(cases: Iterable[Case]) -> tuple[tuple[int, ...], list[Row]]:
    """The cases with an outcome by verdict, and a row per family met in them (findings first,
    then stars; each by how many cases it was met in, then by name)."""
    totals = dict.fromkeys(VERDICTS, 0)
    counts: dict[tuple[str, str, str], dict[str, int]] = {}
    for case in cases:
        if case.outcome is None:
            continue
        verdict = case.outcome.verdict
        totals[verdict] += 1
        doc = case.saved_document()
        for kind, families in (("finding", finding_families(doc)), ("star", star_families(doc))):
            for key, name in families:
                counts.setdefault((kind, key, name), dict.fromkeys(VERDICTS, 0))[verdict] += 1
    rows = [Row(kind, name, key, tuple(c[v] for v in VERDICTS)) for (kind, key, name), c in counts.items()]
    rows.sort(key=lambda r: (r.kind != "finding", -r.cases, r.name))
    return tuple(totals[v] for v in VERDICTS), rows


def stats_document(totals: tuple[int, ...], rows: list[Row]) -> dict[str, Any]:
    from yimao.serialize import document

    return document(
        verdicts=list(VERDICTS),
        cases=dict(zip(VERDICTS, totals)),
        findings=[{"name": r.name, "counts": dict(zip(VERDICTS, r.counts))} for r in rows if r.kind == "finding"],
        stars=[{"id": r.key, "name": r.name, "counts": dict(zip(VERDICTS, r.counts))} for r in rows if r.kind == "star"],
    )
