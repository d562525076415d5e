"""The facts the rules of volume 6 share (analysis.context), against the chart read line by line."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from yimao.analysis.context import rule_context, targets
from yimao.analysis.finding import TargetRef
from yimao.analysis.xing import shi_danger
from yimao.chart import Source, build_chart, resolve_use
from yimao.ganzhi import BRANCHES, CYCLE, EarthSchool
from yimao.hexagram import HEXAGRAMS, Relative, all_casts
from yimao.pillars import FourPillars

CASTS = tuple(all_casts())
USES = (None, "官", "财", "父", "兄", "孙", "世", "应", "2", "5")


def _pillars(i: int) -> FourPillars:
    """Full pillars in rotation over the 12 × 60 (月, 日), and now and then a bare-branch day or a
    missing pillar."""
    k = i % 10
    month = None if k == 7 else BRANCHES[(i * 7) % 12]
    day = None if k == 8 else BRANCHES[(i * 5) % 12] if k == 9 else CYCLE[(i * 13) % 60]
    return FourPillars(month=month, day=day)


def _charts(step: int = 1):
    for i, cast in enumerate(CASTS[::step]):
        school = EarthSchool.HUO if i % 5 == 0 else EarthSchool.SHUI
        chart = build_chart(cast, _pillars(i), school)
        spec = USES[i % len(USES)]
        yield chart, resolve_use(chart, spec) if spec else None


def test_targets_and_sources_against_the_lines():
    for chart, use in _charts():
        ctx = rule_context(chart, use)
        changes = {cl.position: (cl.changed.branch, Source.BIANYAO, cl.position) for cl in chart.lines if cl.moving}
        assert ctx.changes == changes and type(ctx.changes) is MappingProxyType  # shared by the charts of a cast
        shi = chart.shi_line
        want = []
        if use is not None and use.positions:
            want += [(chart.lines[p - 1].branch, "用/世" if chart.lines[p - 1].shi else "用") for p in use.positions]
        elif use is not None:
            want += [(chart.lines[p - 1].hidden.line.branch, "用") for p in use.hidden_positions]
        if use is None or shi.position not in use.positions:
            want.append((shi.branch, "世"))
        assert [(t.branch, t.role) for t in targets(chart, use)] == want
        base = [(chart.pillars.day_branch, Source.RI, None), (chart.pillars.month_branch, Source.YUE, None)]
        base = [a for a in base if a[0] is not None]
        base += [(cl.branch, Source.DONGYAO, cl.position) for cl in chart.lines if cl.moving]
        assert list(ctx.base) == base
        for t in ctx.targets:
            if t.source is Source.DONGYAO:
                own = chart.lines[t.position - 1]
                expect = [a for a in base if a[2] != t.position] + [(own.changed.branch, Source.BIANYAO, t.position)]
            else:
                expect = base
            assert list(t.acts) == expect and t.acting == {a[0] for a in expect}
            for b in BRANCHES:
                assert t.by(b) == tuple(a for a in expect if a[0] is b)
            assert tuple(t.member()) == (t.branch, t.source, t.position, t.role)
            assert t.ref() == TargetRef(t.role, t.source is Source.FUSHEN, t.position, t.branch)


@pytest.mark.parametrize("h", HEXAGRAMS)
def test_shi_danger_by_hexagram(h):
    chart = build_chart(next(c for c in CASTS if c.hexagram is h))
    shi = chart.shi_line
    topics = []
    if shi.relative is Relative.XIONGDI and any(cl.relative is Relative.GUANGUI for cl in chart.lines):
        topics.append("讼")
    five = chart.lines[4]
    if not five.shi and five.element.overcomes is shi.element:
        topics.append("疏")
    assert [g.topic for g in shi_danger(h)] == topics
