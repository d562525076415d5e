"""Invariants of the volume-6 rules over all 4096 casts, many pillars, and every kind of 用神.

One sweep (a module fixture) covers all 4096 casts, each with four full pillar sets chosen so
that every (月, 日) pair of the 12 × 60 occurs, plus the degenerate pillars (none, a month only,
a bare-branch day), and a rotating 用神; hypothesis then samples the whole space at random.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yimao.analysis.finding import JuhuiDetails
from yimao.analysis.run import RULES, analyse
from yimao.chart import USE_CHOICES, Source, build_chart, resolve_use
from yimao.ganzhi import BRANCHES, CYCLE, EarthSchool
from yimao.hexagram import Relative, all_casts
from yimao.pillars import FourPillars
from yimao.serialize import finding_to_dict
from yimao.texts import Quote, passage

CASTS = tuple(all_casts())
USES = (None, "官", "财", "父", "兄", "孙", "世", "应", "3")
KINDS = {
    "助鬼伤身": {None},
    "局会": {"动会", "变会", "伏会"},
    "三刑": {"刑", "真刑", "刑冲并见", "三刑全"},
    "墓开": {"墓开", "冲开", "墓闭"},
    "六害": {"生害", "克害"},
}
_checked_quotes: set[tuple[str, str, str]] = set()


def _quote_ok(passage_id: str, original: str, vernacular: str) -> bool:
    key = (passage_id, original, vernacular)
    if key in _checked_quotes:
        return True
    p = passage(passage_id)
    ok = original in p.original and vernacular in p.vernacular
    if ok:
        _checked_quotes.add(key)
    return ok


def _parts(value):
    """Every value inside a finding's details, depth first (a NamedTuple is a tuple of its fields)."""
    yield value
    if isinstance(value, tuple) and not isinstance(value, Quote):
        for v in value:
            yield from _parts(v)


def _violations(chart, use, findings) -> list[str]:
    """Every invariant a list of findings must satisfy; the names of those it breaks."""
    bad = []
    shi = chart.shi_line
    order = [RULES.index(f.rule) for f in findings]
    if order != sorted(order):
        bad.append("order")
    for f in findings:
        if f.rule not in KINDS or f.kind not in KINDS[f.rule]:
            bad.append("kind")
        if not f.holds and not f.reasons:
            bad.append("near miss without reason")
        if list(f.lines) != sorted(set(f.lines)) or any(not 1 <= p <= 6 for p in f.lines):
            bad.append("lines")
        if not f.text:
            bad.append("no text")
        for q in f.text:
            if not _quote_ok(q.passage, q.original, q.vernacular):
                bad.append("quote")
        for v in _parts(f.details):
            if isinstance(v, Quote) and not _quote_ok(*v):
                bad.append("detail quote")
            if isinstance(v, (dict, list, set)):
                bad.append("mutable detail")
        if f.rule == "局会" and f.holds:
            if not any(m.source in (Source.RI, Source.YUE) for m in f.members):
                bad.append("局 without 日/月")  # 凡局必得日月有一在局
            if not isinstance(f.details, JuhuiDetails) or f.details.roles[1].sound is not True:
                bad.append("局 with a hurt 中神")
        if f.rule == "助鬼伤身" and f.holds:
            if shi.relative is not Relative.XIONGDI:
                bad.append("助鬼伤身 on a non-兄弟 世")
            if chart.pillars.day_branch is None:
                bad.append("助鬼伤身 without a day")
        if f.rule == "三刑" and f.kind == "真刑":
            if not any(m.role == "刑冲" for m in f.members):
                bad.append("真刑 without a source both 刑 and 冲")
        for m in f.members:
            if (m.position is None) != (m.source in (Source.RI, Source.YUE)):
                bad.append("member position")
    try:
        hash(findings)  # immutable through and through: kept and shared by caches
    except TypeError:
        bad.append("unhashable")
    doc = [finding_to_dict(f) for f in findings]
    if json.loads(json.dumps(doc, ensure_ascii=False)) != doc:
        bad.append("not JSON-ready")
    return bad


def _pillar_sets(i: int) -> list[FourPillars]:
    """Four full pillar sets for cast i (so every 月 × 日 pair appears over the 4096 casts), and
    the degenerate ones in rotation."""
    out = [FourPillars(month=BRANCHES[(i // 60 + 5 * k) % 12], day=CYCLE[(i + 17 * k) % 60]) for k in range(4)]
    degenerate = (
        FourPillars(),
        FourPillars(month=BRANCHES[i % 12]),
        FourPillars(day=BRANCHES[(i * 5) % 12]),
        FourPillars(month=BRANCHES[(i * 11) % 12], day=BRANCHES[i % 12]),
    )
    out.append(degenerate[i % 4])
    return out


@pytest.fixture(scope="module")
def sweep():
    problems: dict[str, list[str]] = {}
    seen: dict[tuple[str, bool, str | None], int] = {}
    pairs: set[tuple[int, int]] = set()
    for i, cast in enumerate(CASTS):
        for j, p in enumerate(_pillar_sets(i)):
            if p.month is not None and p.day is not None and j < 4:
                pairs.add((p.month_branch.index, CYCLE.index(p.day)))
            chart = build_chart(cast, p)
            spec = USES[(i + j) % len(USES)]
            use = resolve_use(chart, spec) if spec else None
            try:
                findings = analyse(chart, use)
            except Exception as e:  # never an exception: record which chart
                problems.setdefault("exception", []).append(f"{cast.spec()} {p} {spec}: {e!r}")
                continue
            for b in _violations(chart, use, findings):
                problems.setdefault(b, []).append(f"{cast.spec()} {p} {spec}")
            for f in findings:
                key = (f.rule, f.holds, f.kind)
                seen[key] = seen.get(key, 0) + 1
            if i % 3 == 0 and analyse(chart, use) != findings:
                problems.setdefault("nondeterministic", []).append(f"{cast.spec()} {p} {spec}")
    return problems, seen, pairs


def test_every_month_day_pair_is_covered(sweep):
    assert len(sweep[2]) == 12 * 60


def test_never_an_exception(sweep):
    assert sweep[0].get("exception", []) == []


@pytest.mark.parametrize(
    "invariant",
    [
        "order",
        "kind",
        "near miss without reason",
        "lines",
        "no text",
        "quote",
        "detail quote",
        "局 without 日/月",
        "局 with a hurt 中神",
        "助鬼伤身 on a non-兄弟 世",
        "助鬼伤身 without a day",
        "真刑 without a source both 刑 and 冲",
        "member position",
        "mutable detail",
        "unhashable",
        "not JSON-ready",
        "nondeterministic",
    ],
)
def test_invariant(sweep, invariant):
    assert sweep[0].get(invariant, [])[:5] == []


def test_the_sweep_meets_every_kind(sweep):
    seen = sweep[1]
    for rule, kinds in KINDS.items():
        for kind in kinds:
            assert any(k[0] == rule and k[2] == kind for k in seen), (rule, kind)
    assert any(k == ("助鬼伤身", True, None) for k in seen)
    assert any(k[0] == "局会" and not k[1] for k in seen) and any(k[0] == "局会" and k[1] for k in seen)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    cast=st.sampled_from(CASTS),
    month=st.one_of(st.none(), st.sampled_from(BRANCHES)),
    day=st.one_of(st.none(), st.sampled_from(CYCLE), st.sampled_from(BRANCHES)),
    year=st.one_of(st.none(), st.sampled_from(CYCLE)),
    spec=st.sampled_from((None, *USE_CHOICES)),
    school=st.sampled_from(tuple(EarthSchool)),
)
def test_random_charts(cast, month, day, year, spec, school):
    chart = build_chart(cast, FourPillars(year=year, month=month, day=day), school)
    use = resolve_use(chart, spec) if spec else None
    findings = analyse(chart, use)
    assert _violations(chart, use, findings) == []
    assert analyse(build_chart(cast, FourPillars(year=year, month=month, day=day), school), use) == findings


def test_conventions_page_quotes_the_book_verbatim():
    """docs/conventions.md: every 「…」 is a verbatim piece of the classical text."""
    import re
    from pathlib import Path

    from yimao.texts import passages

    page = (Path(__file__).resolve().parents[1] / "docs" / "conventions.md").read_text(encoding="utf-8")
    section = page.split("## Analysis (volume 6 rules)", 1)[1]
    quoted = re.findall(r"「([^」]*)」", section)
    assert len(quoted) > 40
    originals = [p.original for p in passages()]
    assert [q for q in quoted if not any(q in o for o in originals)] == []
