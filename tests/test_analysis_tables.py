"""The shortcuts of the volume-6 rules — shared members and dicts, per-hexagram and per-局
tables — against the straightforward computations they replace, over all 4096 casts.

Each test would fail if a table or a cache gave a wrong answer: the references below walk the
chart line by line, as the rules once did, and build every value afresh.
"""

from __future__ import annotations

import pytest

from yimao.analysis import juhui as juhui_module
from yimao.analysis.context import RuleContext, targets
from yimao.analysis.finding import MEMBER_DICTS, MEMBERS, TEXT_DICTS, Member
from yimao.analysis.hai import liuhai_findings
from yimao.analysis.juhui import ROLES, juhui
from yimao.analysis.run import analyse
from yimao.analysis.xing import mukai, sanxing
from yimao.analysis.zhugui import zhugui
from yimao.chart import Source, build_chart, resolve_use
from yimao.ganzhi import BRANCHES, CYCLE, SANHE, EarthSchool, Element, changsheng, element_relation, vigour
from yimao.hexagram import HEXAGRAMS, Relative, all_casts
from yimao.pillars import FourPillars
from yimao.texts import QUOTE_DICTS, Quote, quote

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


# -- shared members and dicts ---------------------------------------------------------------


def test_members_are_the_values_they_stand_for():
    roles = (None, *ROLES, "用", "世", "用/世", "应", "刑", "受刑", "刑冲", "冲", "墓", "害", "日", "鬼", "长生")
    for b in BRANCHES:
        for source in Source:
            for position in (None, 1, 2, 3, 4, 5, 6):
                for role in roles:
                    key = (b, source, position, role)
                    m = MEMBERS[key]
                    assert type(m) is Member and m == Member(*key) and MEMBERS[key] is m
                    assert MEMBER_DICTS[m] == Member(*key).to_dict()


def test_a_member_built_elsewhere_gets_a_fresh_dict_not_kept():
    m = Member(BRANCHES[0], Source.RI, None, "a role no rule uses")
    n = len(MEMBER_DICTS)
    assert MEMBER_DICTS[m] == m.to_dict() and MEMBER_DICTS[m] is not MEMBER_DICTS[m]
    assert len(MEMBER_DICTS) == n


def test_quote_dicts():
    q = quote("中神主也，失其主则不能会，伤其中则不能局。")
    assert QUOTE_DICTS[q] == q.to_dict() and QUOTE_DICTS[q] is QUOTE_DICTS[q]
    stranger = Quote("6.99", "not a quote", "")
    n = len(QUOTE_DICTS)
    assert QUOTE_DICTS[stranger] == stranger.to_dict() and len(QUOTE_DICTS) == n
    assert all(QUOTE_DICTS[k] == k.to_dict() for k in QUOTE_DICTS)


def _to_dict(f) -> dict:
    """Finding.to_dict the long way: every dict built afresh."""
    return {
        "rule": f.rule,
        "holds": f.holds,
        "kind": f.kind,
        "element": f.element.value if f.element is not None else None,
        "relative": f.relative.value if f.relative is not None else None,
        "lines": list(f.lines),
        "members": [m.to_dict() for m in f.members],
        "reasons": list(f.reasons),
        "text": [q.to_dict() for q in f.text],
        "details": f.details,
    }


def test_finding_to_dict_matches_a_fresh_build():
    for chart, use in _charts():
        for f in analyse(chart, use):
            d = f.to_dict()
            assert d == _to_dict(f)
            assert type(d["lines"]) is list and type(d["members"]) is list and type(d["text"]) is list
    assert all(v == tuple(q.to_dict() for q in k) for k, v in TEXT_DICTS.items())


# -- 局会 ------------------------------------------------------------------------------------


def _juhui_reference(chart, use):
    """Which 局 yield a finding, and from what: every entry of every branch in chart order
    (日, 月, then per line: the line, its 变爻, its lifted 伏神), with the type of its source and
    whether it is sound, 空, 破 — the walk juhui once made for every chart."""
    p = chart.pillars
    entries: dict = {}
    if p.day_branch is not None:
        entries.setdefault(p.day_branch, []).append((Source.RI, None, True, False, False))
    if p.month_branch is not None:
        entries.setdefault(p.month_branch, []).append((Source.YUE, None, True, False, False))
    for cl in chart.lines:
        k = cl.day is not None and cl.day.kong is True
        b = cl.month is not None and cl.month.po is True
        src = Source.DONGYAO if cl.moving else Source.JINGYAO
        entries.setdefault(cl.branch, []).append((src, cl.position, not (k or b), k, b))
        if cl.changed is not None:
            k, b = cl.change.kong is True, cl.change.po is True
            entries.setdefault(cl.changed.branch, []).append((Source.BIANYAO, cl.position, not (k or b), k, b))
        h = cl.hidden
        if h is not None and h.lifted:
            k = h.day is not None and h.day.kong is True
            b = h.month is not None and h.month.po is True
            entries.setdefault(h.line.branch, []).append((Source.FUSHEN, cl.position, not (k or b), k, b))
    active = {Source.DONGYAO, Source.BIANYAO, Source.FUSHEN}
    riyue = {p.day_branch, p.month_branch} - {None}
    out = {}
    for e in (Element.MU, Element.HUO, Element.JIN, Element.SHUI):
        trio = SANHE[e]
        present = [b in entries for b in trio]
        n_active = sum(any(x[0] in active for x in entries.get(b, ())) for b in trio)
        hung = any(b in riyue for b in trio)
        if sum(present) < 2 or (hung and (n_active == 0 or (n_active < 2 and sum(present) < 3))) or (not hung and n_active < 3):
            continue
        kinds = []
        for b in trio:
            srcs = {x[0] for x in entries.get(b, ())}
            best = next((s for s in (Source.DONGYAO, Source.BIANYAO, Source.FUSHEN) if s in srcs), None)
            kinds.append(best)
        kind = "变会" if Source.BIANYAO in kinds else "伏会" if Source.FUSHEN in kinds else "动会"
        members = [(b, x[0], x[1], role) for b, role in zip(trio, ROLES) for x in entries.get(b, ())]
        sound = {role: any(x[2] for x in entries.get(b, ())) for b, role in zip(trio, ROLES)}
        zhen = any(
            cl.hidden is not None
            and cl.hidden.lifted
            and cl.hidden.line.branch in trio
            and cl.branch is changsheng(cl.hidden.line.branch.element, chart.school)
            for cl in chart.lines
        )
        lines = sorted({m[2] for m in members if m[2] is not None})
        damage = []
        for b, role in zip(trio, ROLES):
            if sound[role]:
                continue
            es = entries.get(b, ())
            if not es:
                damage.append(f"{role}神{b.value}不现")
            else:
                kong = "旬空" if any(x[3] for x in es) else ""
                po = "月破" if any(x[4] for x in es) else ""
                damage.append(f"{role}神{b.value}{kong}{po}")
        out[e] = (kind, members, dict(zip(ROLES, present)), sound, zhen, lines, damage)
    return out


def test_juhui_against_the_line_by_line_walk():
    seen = set()
    for chart, use in _charts():
        found = {f.element: f for f in juhui(chart, use)}
        expected = _juhui_reference(chart, use)
        assert set(found) == set(expected), chart.cast.spec()
        for e, (kind, members, present, sound, zhen, lines, damage) in expected.items():
            f = found[e]
            assert f.kind == kind
            assert [tuple(m) for m in f.members] == members
            assert f.details["present"] == present and f.details["sound"] == sound
            assert f.details.get("zhen", False) is zhen
            assert list(f.lines) == lines
            assert [r for r in f.reasons if r.endswith(("不现", "旬空", "月破", "旬空月破"))] == damage
            # what the finding takes from the pillars, the palace and the 用神 (tables by each)
            trio = SANHE[e]
            day, month = chart.pillars.day_branch, chart.pillars.month_branch
            ri = ROLES[trio.index(day)] if day in trio else None
            yue = ROLES[trio.index(month)] if month in trio else None
            assert (f.details["ri"], f.details["yue"]) == (ri, yue)
            hung = [role for b, role in zip(trio, ROLES) if b in (day, month)]
            xuan = "悬始" if "始" in hung else "悬终" if "终" in hung else "悬中" if "中" in hung else None
            assert f.details["xuan"] == xuan
            assert f.relative is Relative.of(e, chart.hexagram.palace_element)
            assert f.details["vigour"] == (vigour(e, month).value if month is not None else None)
            ue = None
            if use is not None and use.positions:
                ue = chart.lines[use.positions[0] - 1].element
            elif use is not None and use.hidden_positions:
                ue = chart.lines[use.hidden_positions[0] - 1].hidden.line.element
            elif use is not None and use.relative is not None:
                ue = use.relative.element_in(chart.hexagram.palace_element)
            if ue is None:
                assert "use_element" not in f.details
            else:
                assert (f.details["use_element"], f.details["is_use"]) == (ue.value, ue is e)
                assert f.details["to_use"] == element_relation(e, ue)
            if f.holds:
                why = [f"{w}{b.value}在{role}" for b, role in zip(trio, ROLES) for w, x in (("日", day), ("月", month)) if b is x]
                assert list(f.reasons[: len(why)]) == why
            seen.add((kind, f.holds, zhen))
    assert len(seen) >= 8  # the sweep meets every type, formed and not, 伏得生 or not


def test_role_tables():
    # every branch has one role bit, in its own 局's block
    bits = juhui_module._P
    assert sorted(bits) == [1 << (9 * j + r) for j in range(4) for r in range(3)]
    # a trigram's part: its lines present whichever move, their positions by 局; nothing static is active
    no_changes = (None,) * 7
    for h in HEXAGRAMS:
        for first in (1, 4):
            x, dong, bian, fu, _zs, _zh, per_ju = juhui_module._trigram_part(h, no_changes, first, 0)
            assert dong == bian == fu == 0
            trigram = h.lines[first - 1 : first + 2]
            for b in BRANCHES:
                assert bool(x & bits[b.index]) == any(ln.branch is b for ln in trigram)
                assert not x & bits[b.index] << 3
            assert sum(m for *_e, m in per_ju) == sum(1 << ln.position for ln in trigram)


# -- the targets of 三刑, 墓开, 六害; 助鬼伤身 -----------------------------------------------------


def test_targets_and_sources_against_the_lines():
    for chart, use in _charts():
        sc = RuleContext(chart, use)
        # the moving lines and their 变爻, which RuleContext takes by trigram (see context._trigram_moves)
        assert sc.moving == sum(1 << cl.position for cl in chart.lines if cl.moving)
        changes = [None] + [(cl.changed.branch, Source.BIANYAO, cl.position) if cl.moving else None for cl in chart.lines]
        assert list(sc.changes) == changes
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
        for t, acts, (tm, relative, hits, _notes, head) in zip(sc.targets, sc.acts, sc.per_target):
            if t.source is Source.DONGYAO:
                own = chart.lines[t.position - 1]
                expect = [a for a in base if a[2] != t.position] + [(own.changed.branch, Source.BIANYAO, t.position)]
            else:
                expect = base
            assert list(acts) == expect
            by_branch: dict = {}
            for a in expect:
                by_branch.setdefault(a[0], []).append(a)
            assert hits == {b: tuple(v) for b, v in by_branch.items()}
            assert tuple(tm) == (t.branch, t.source, t.position, t.role) and relative is t.relative
            assert head == {"target": t.role, "hidden": t.hidden, "position": t.position, "branch": t.branch.value}


@pytest.mark.parametrize("h", HEXAGRAMS)
def test_shi_danger_by_hexagram(h):
    from yimao.analysis.xing import _shi_danger

    chart = build_chart(next(c for c in CASTS if c.hexagram is h))
    shi = chart.shi_line
    topics = []
    if shi.relative is Relative.XIONGDI and any(cl.relative is Relative.GUANGUI for cl in chart.lines):
        topics.append("讼")
    five = chart.lines[4]
    if not five.shi and five.element.overcomes is shi.element:
        topics.append("疏")
    assert [d["topic"] for d in _shi_danger(chart, shi)] == topics


def test_analyse_is_the_rules_in_the_books_order():
    # analyse walks the targets once for 三刑, 墓开 and 六害; each rule's function is the reference
    for chart, use in _charts():
        sc = RuleContext(chart, use)
        expected = (
            *zhugui(chart, use, sc),
            *juhui(chart, use, sc),
            *sanxing(chart, use, sc),
            *mukai(chart, use, sc),
            *liuhai_findings(chart, use, sc),
        )
        assert analyse(chart, use) == expected
