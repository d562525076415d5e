"""Findings as the JSON contract writes them (serialize): each family's details with its keys in
their order, and the parts shared between documents (members, sentences, 合冲生克, readings)
against the values they stand for, over all 4096 casts and every topic that changes a reading."""

from __future__ import annotations

from test_analysis_context import _charts

from yimao.analysis import finding as fd
from yimao.analysis.by_topic import XING, ZHUGUI
from yimao.analysis.juhui import ROLES
from yimao.analysis.run import analyse
from yimao.chart import Source
from yimao.ganzhi import BRANCHES
from yimao.serialize import (
    _GRAVE,
    _MEMBER,
    _QUOTES,
    _RELATION,
    _TOPIC_READING,
    _TOPIC_TEXTS,
    _member_dict,
    _relation,
    _topic_reading,
    details_to_dict,
    finding_to_dict,
)

TOPICS = (None, *dict.fromkeys([*ZHUGUI, *XING, "婚姻"]))
TARGET = ("target", "hidden", "position", "branch")
ZHUGUI_HEAD = ("changsheng", "true_changsheng", "ghosts", "shi")
ZHUGUI_HARM = ("use", "verdict", "verdict_text", "severity", "readings", "topic_reading", "ghost_role")
JUHUI_HEAD = ("roles", "present", "sound", "ri", "yue", "xuan", "vigour")
HAI = ("direction", "weight", "severity", "relations")

# The keys of each family's details, in their order: every shape a finding may take.
SHAPES = {
    fd.ZhuguiDetails: {
        ZHUGUI_HEAD,
        *(ZHUGUI_HEAD + ZHUGUI_HARM + why + spirits for why in ((), ("topic_why",)) for spirits in ((), ("spirits", "spirit_text"))),
    },
    fd.JuhuiDetails: {
        JUHUI_HEAD + use + zhen + formed
        for use in ((), ("use_element", "is_use", "to_use"))
        for zhen in ((), ("zhen",))
        for formed in ((), ("strength", "xuan_reading"))
    },
    fd.XingDetails: {TARGET + ("name", "weight", "severity", "readings", "topic_reading") + grave for grave in ((), ("grave",))},
    fd.SanxingDetails: {TARGET + ("name", "topic_reading")},
    fd.WoxingDetails: {TARGET + ("name",)},
    fd.MukaiDetails: {TARGET + ("tomb", "holder", "weight")},
    fd.HaiDetails: {TARGET + HAI + ("outweighed_by",)},
    fd.ShiyingHaiDetails: {("target", *HAI, "outweighed_by")},
}


def _findings():
    for i, (chart, use) in enumerate(_charts()):
        yield from analyse(chart, use, TOPICS[i % len(TOPICS)])


def test_each_family_writes_its_keys_in_order():
    met: dict[type, set[tuple[str, ...]]] = {}
    for f in _findings():
        keys = tuple(details_to_dict(f.details))
        assert keys in SHAPES[type(f.details)], (f, keys)
        met.setdefault(type(f.details), set()).add(keys)
        d = finding_to_dict(f)
        assert tuple(d) == ("rule", "holds", "kind", "element", "relative", "lines", "members", "reasons", "text", "details")
        assert type(d["lines"]) is list and type(d["members"]) is list and type(d["text"]) is list
    assert set(met) == set(SHAPES)  # the sweep meets every family


def test_a_hai_and_its_relations():
    shi = fd.Member(BRANCHES[0], Source.JINGYAO, 1, "世")
    ying = fd.Member(BRANCHES[7], Source.JINGYAO, 4, "应")
    rel = fd.Relation("克", ying, shi)
    d = details_to_dict(fd.ShiyingHaiDetails("世应", "应克世", "重", (), (rel,)))
    assert d == {
        "target": "世应",
        "direction": "应克世",
        "weight": "重",
        "severity": [],
        "relations": [
            {
                "relation": "克",
                "from": {"branch": "未", "source": "静爻", "position": 4, "role": "应"},
                "to": {"branch": "子", "source": "静爻", "position": 1, "role": "世"},
            }
        ],
        "outweighed_by": [],
    }


def test_a_topic_reading():
    r = ZHUGUI["女嫁"]
    assert _topic_reading(r) == {
        "topic": "女嫁",
        "matter": "女占夫",
        "reading": "遇之反吉也",
        "text": {"passage": r.text.passage, "original": "若女占夫而官星为用者，遇之反吉也", "vernacular": r.text.vernacular},
    }


def test_shared_parts_are_the_values_they_stand_for():
    roles = (None, *ROLES, "用", "世", "用/世", "应", "刑", "受刑", "刑冲", "冲", "墓", "害", "日", "鬼", "长生")
    for b in BRANCHES:
        for source in Source:
            for position in (None, 1, 2, 3, 4, 5, 6):
                for role in roles:
                    m = fd.Member(b, source, position, role)
                    assert _MEMBER[m] == {"branch": b.value, "source": source.value, "position": position, "role": role}
                    assert _MEMBER[m] is _MEMBER[m]
    for f in _findings():  # fills the memos as documents do
        finding_to_dict(f)
    assert all(v == _member_dict(k) for k, v in _MEMBER.items())
    assert all(v == tuple(q.to_dict() for q in k) for k, v in _QUOTES.items())
    assert all(v == tuple({"topic": r.topic, **r.text.to_dict()} for r in k) for k, v in _TOPIC_TEXTS.items())
    assert all(v == _relation(k) for k, v in _RELATION.items())
    assert all(v == _topic_reading(k) for k, v in _TOPIC_READING.items())
    assert all(v == {"topic": k.topic, "reading": k.reading, **k.text.to_dict()} for k, v in _GRAVE.items())
