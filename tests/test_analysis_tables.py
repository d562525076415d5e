"""The shared values of findings — members, quote dicts — against the values they stand for, and
a finding's dict against one built afresh, over all 4096 casts."""

from __future__ import annotations

from test_analysis_context import _charts

from yimao.analysis.finding import MEMBER_DICTS, MEMBERS, TEXT_DICTS, Member
from yimao.analysis.juhui import ROLES
from yimao.analysis.run import analyse
from yimao.chart import Source
from yimao.ganzhi import BRANCHES
from yimao.texts import QUOTE_DICTS, Quote, quote

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
