"""`journal stats`: over the cases with an outcome (judged), how often each finding that held and
each active star went with 应, 不应 or 部分, and the share of 应. Counts, not verdicts: a student
reads which of the book's readings bore out in their own cases, and on how many.

Each case is read as it was saved (its stored document): the outcome judges what was read then.
A case counts once for a family, however many of its findings or lines belong to it. The rows
are sorted by evidence: the number of judged cases, then the share of 应, then the name.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from yimao.journal.case import VERDICTS, Case


class Row(NamedTuple):
    kind: str  # "finding" | "star"
    name: str  # 助鬼伤身, 局会 动会, 三刑 真刑 … or a star's label
    key: str  # the rule and kind, or the star's id
    counts: tuple[int, ...]  # cases by verdict, in the order of VERDICTS

    @property
    def judged(self) -> int:
        return sum(self.counts)

    @property
    def share(self) -> float | None:
        """The share of 应 among the judged cases (部分 is not 应); None without any."""
        return share(self.counts)


def share(counts: tuple[int, ...]) -> float | None:
    judged = sum(counts)
    return counts[0] / judged if judged else None


class Totals(NamedTuple):
    counts: tuple[int, ...]  # the judged cases by verdict
    unjudged: int  # the cases without an outcome, not counted


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
    label tells apart the stars that share a name, 月煞（耗废）; a document of schema 1 may have
    only the name)."""
    return {(s["id"], s.get("label") or s["name"]) for s in doc.get("stars") or () if s.get("active")}


def tally(cases: Iterable[Case]) -> tuple[Totals, list[Row]]:
    """The cases by verdict, and a row per family met in the judged ones (findings first, then
    stars; each by evidence). A star is counted by its id, shown by the label it had in the last
    case that had it."""
    totals = dict.fromkeys(VERDICTS, 0)
    unjudged = 0
    counts: dict[tuple[str, str], dict[str, int]] = {}
    names: dict[tuple[str, str], str] = {}
    for case in cases:
        if case.outcome is None:
            unjudged += 1
            continue
        verdict = case.outcome.verdict
        totals[verdict] += 1
        doc = case.saved_document()
        for kind, families in (("finding", finding_families(doc)), ("star", star_families(doc))):
            for key, name in families:
                counts.setdefault((kind, key), dict.fromkeys(VERDICTS, 0))[verdict] += 1
                names[kind, key] = name
    rows = [Row(kind, names[kind, key], key, tuple(c[v] for v in VERDICTS)) for (kind, key), c in counts.items()]
    rows.sort(key=lambda r: (r.kind != "finding", -r.judged, -(r.share or 0.0), r.name, r.key))
    return Totals(tuple(totals[v] for v in VERDICTS), unjudged), rows


def _share_value(s: float | None) -> float | None:
    return None if s is None else round(s, 4)


def _row(r: Row) -> dict[str, Any]:
    return {"counts": dict(zip(VERDICTS, r.counts)), "judged": r.judged, "share": _share_value(r.share)}


def stats_document(totals: Totals, rows: list[Row]) -> dict[str, Any]:
    from yimao.serialize import document

    return document(
        verdicts=list(VERDICTS),
        cases=dict(zip(VERDICTS, totals.counts)),
        judged=sum(totals.counts),
        share=_share_value(share(totals.counts)),
        unjudged=totals.unjudged,
        findings=[{"name": r.name, **_row(r)} for r in rows if r.kind == "finding"],
        stars=[{"id": r.key, "name": r.name, **_row(r)} for r in rows if r.kind == "star"],
    )
