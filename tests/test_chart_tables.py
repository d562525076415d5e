"""build_chart reads its relations from tables (chart.py, "building a chart"): every entry of
every table against the relation function it stands for, and whole charts against the direct
computation (one relation call per line, as RULES §0 states them) over every cast and every
combination of month, day and earth school."""

from __future__ import annotations

import itertools
import random

import pytest

from yimao import chart as C
from yimao.chart import (
    Chart,
    ChartLine,
    Hidden,
    build_chart,
    change_relation,
    day_relation,
    fei_fu,
    hexagram_features,
    month_relation,
    spirits_for,
)
from yimao.ganzhi import BRANCHES, CYCLE, EarthSchool, GanZhi, Vigour, chong, liuhe
from yimao.hexagram import HEXAGRAMS, Cast, Relative, all_casts
from yimao.pillars import FourPillars, branch_of

PILLARS = (*BRANCHES, *CYCLE)  # a month or day pillar: a bare branch, or a 干支
SCHOOLS = tuple(EarthSchool)
_FANYIN = {frozenset(p) for p in (("乾", "巽"), ("坎", "离"), ("艮", "坤"), ("震", "兑"))}


def reference_features(h, changed):
    """hexagram_features as first written: one hexagram pair at a time."""
    out = []
    if all(chong(h.lines[i].branch, h.lines[i + 3].branch) for i in range(3)):
        out.append("六冲卦")
    if all(liuhe(h.lines[i].branch, h.lines[i + 3].branch) for i in range(3)):
        out.append("六合卦")
    if h.generation.value in ("游魂", "归魂"):
        out.append(f"{h.generation.value}卦")
    if changed is not None:
        if all(chong(changed.lines[i].branch, changed.lines[i + 3].branch) for i in range(3)):
            out.append("变六冲")
        if all(liuhe(changed.lines[i].branch, changed.lines[i + 3].branch) for i in range(3)):
            out.append("变六合")
        for part, before, after in (("内卦", h.lower, changed.lower), ("外卦", h.upper, changed.upper)):
            if before is after:
                continue
            lo = 0 if part == "内卦" else 3
            b1 = [h.lines[lo + i].branch for i in range(3)]
            b2 = [changed.lines[lo + i].branch for i in range(3)]
            if b1 == b2:
                out.append(f"{part}伏吟")
            elif frozenset({before.value, after.value}) in _FANYIN or all(chong(x, y) for x, y in zip(b1, b2)):
                out.append(f"{part}反吟")
    return tuple(out)


def reference_chart(cast, pillars=None, school=EarthSchool.SHUI):
    """build_chart as first written: the relation functions called line by line."""
    pillars = pillars or FourPillars()
    h = cast.hexagram
    changed_h = cast.changed
    palace = h.palace.element
    month = branch_of(pillars.month)
    if isinstance(pillars.day, GanZhi):
        day, xk, spirits = pillars.day.branch, pillars.day.xunkong, spirits_for(pillars.day.stem)
    else:
        day, xk, spirits = pillars.day, None, None
    under = {hl.position: hl for hl in h.hidden}
    lines = []
    for line in h.lines:
        p = line.position
        moving = p in cast.moving
        element = line.branch.element
        mrel = month_relation(element, line.branch, month) if month is not None else None
        drel = day_relation(element, line.branch, day, xk, mrel.vigour if mrel else None, moving, school) if day is not None else None
        changed = crel = None
        if moving:
            cl = changed_h.lines[p - 1]
            changed = C.ChangedLine(p, cl.yang, cl.stem, cl.branch, Relative.of(cl.branch.element, palace))
            crel = change_relation(line.branch, changed.branch, xk, month, school)
        hidden = None
        hl = under.get(p)
        if hl is not None:
            he = hl.branch.element
            hm = month_relation(he, hl.branch, month) if month is not None else None
            hd = day_relation(he, hl.branch, day, xk, hm.vigour if hm else None, False, school) if day is not None else None
            hidden = Hidden(hl, fei_fu(element, he), hm, hd, moving)
        value = (9 if line.yang else 6) if moving else (7 if line.yang else 8)
        spirit = spirits[p - 1] if spirits else None
        lines.append(ChartLine(line, moving, value, spirit, p == h.shi, p == h.ying, hidden, changed, mrel, drel, crel))
    return Chart(cast, pillars, tuple(lines), reference_features(h, changed_h), school)


def assert_same_chart(a, b):
    assert a == b
    assert type(a) is type(b) and all(type(x) is type(y) for x, y in zip(a.lines, b.lines))
    for x, y in zip(a.lines, b.lines):
        for field, u, v in zip(ChartLine._fields, x, y):
            assert type(u) is type(v), field


def test_month_table_entries():
    for m in PILLARS:
        rels, strong, po = C._month_table(m)
        mb = branch_of(m)
        for b in BRANCHES:
            assert rels[b.index] == month_relation(b.element, b, mb)
            assert strong[b.index] == (rels[b.index].vigour in (Vigour.WANG, Vigour.XIANG))
            assert po[b.index] == chong(b, mb)


def test_day_table_entries():
    for d, school in itertools.product(PILLARS, SCHOOLS):
        rels, kong, spirits = C._day_table(d, school)
        db = branch_of(d)
        xk = d.xunkong if isinstance(d, GanZhi) else None
        assert spirits == (spirits_for(d.stem) if isinstance(d, GanZhi) else (None,) * 6)
        for b in BRANCHES:
            weak, strong, moving = rels[b.index]
            for vigour in Vigour:
                static = day_relation(b.element, b, db, xk, vigour, False, school)
                assert static == (strong if vigour in (Vigour.WANG, Vigour.XIANG) else weak)
                assert day_relation(b.element, b, db, xk, vigour, True, school) == moving
            assert day_relation(b.element, b, db, xk, None, False, school) == weak
            assert kong[b.index] == (2 if xk is None else int(b in xk))


def test_change_table_entries():
    for b, cb, school in itertools.product(BRANCHES, BRANCHES, SCHOOLS):
        table = C._change_rels(b, cb, school)
        for ki, kong in enumerate((False, True, None)):
            for pi, po in enumerate((False, True, None)):
                xk = {False: (), True: (cb, cb), None: None}[kong]
                month = {False: cb, True: cb.opposite, None: None}[po]
                assert table[ki * 3 + pi] == change_relation(b, cb, xk, month, school)


def test_features_of_every_cast():
    for cast in all_casts():
        assert hexagram_features(cast.hexagram, cast.changed) == reference_features(cast.hexagram, cast.changed)


def test_cast_table_of_every_hexagram():
    for h in HEXAGRAMS:
        table = C._cast_table(h)
        assert len(table) == 64
        for moving, (changed_h, features, moves) in table.items():
            assert changed_h is Cast(h, moving).changed
            assert features == reference_features(h, changed_h)
            for line, move in zip(h.lines, moves):
                assert (move is None) == (line.position not in moving)


def test_every_cast_against_the_direct_computation():
    rng = random.Random(20)
    for cast in all_casts():
        p = FourPillars(None, rng.choice((None, *PILLARS)), rng.choice((None, *PILLARS)), None)
        school = rng.choice(SCHOOLS)
        assert_same_chart(build_chart(cast, p, school), reference_chart(cast, p, school))
    for cast in list(all_casts())[::97]:
        assert_same_chart(build_chart(cast), reference_chart(cast))


def test_every_month_day_and_school_against_the_direct_computation():
    rng = random.Random(21)
    casts = list(all_casts())
    for m, d, school in itertools.product((None, *PILLARS), (None, *PILLARS), SCHOOLS):
        cast = rng.choice(casts)
        p = FourPillars(None, m, d, None)
        assert_same_chart(build_chart(cast, p, school), reference_chart(cast, p, school))


def test_moving_lines_in_another_collection():
    h = HEXAGRAMS[29]
    for moving in ((2, 5), [2, 5], {2, 5}):
        cast = Cast(h, moving)  # not a frozenset: the table is bypassed
        p = FourPillars(None, CYCLE[3], CYCLE[40], None)
        assert build_chart(cast, p).lines == reference_chart(Cast(h, frozenset(moving)), p).lines


@pytest.mark.parametrize("spirits_day", [CYCLE[0], BRANCHES[4], None])
def test_spirits(spirits_day):
    c = build_chart(Cast.parse("离"), FourPillars(day=spirits_day))
    expected = spirits_for(spirits_day.stem) if isinstance(spirits_day, GanZhi) else (None,) * 6
    assert tuple(cl.spirit for cl in c.lines) == expected
