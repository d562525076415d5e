"""Property tests: random moments × random casts give documents obeying the chart invariants and the schema."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from pathlib import Path

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yimao.ganzhi import Branch
from yimao.hexagram import HEXAGRAMS, Cast
from yimao.pipeline import CastRequest, document, document_json, read
from yimao.serialize import dumps

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "src" / "yimao" / "data" / "schema.json").read_text(encoding="utf-8"))


@cache
def validator():
    return jsonschema.Draft202012Validator({**SCHEMA, "$ref": "#/$defs/cast", "anyOf": [{}]})


casts = st.builds(lambda h, m: Cast(h, frozenset(i + 1 for i in range(6) if m >> i & 1)), st.sampled_from(HEXAGRAMS), st.integers(0, 63))
zones = st.sampled_from([UTC, timezone(timedelta(hours=8)), timezone(timedelta(hours=-7)), timezone(timedelta(hours=5, minutes=30))])
moments = st.datetimes(min_value=datetime(1901, 1, 1), max_value=datetime(2099, 12, 31), timezones=zones)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(casts, moments, st.sampled_from([23, 0]), st.sampled_from(["官", "财", "父", "兄", "子", "世", "应", "3", None]))
def test_documents_obey_the_invariants(cast, moment, day_start, use):
    reading = read(CastRequest(hex=cast.coins(), date=moment.isoformat(), day_start=day_start, use=use))
    doc = json.loads(json.dumps(document(reading), ensure_ascii=False))
    validator().validate(doc)
    lines = doc["hexagram"]["lines"]
    assert [l["position"] for l in lines] == [1, 2, 3, 4, 5, 6]
    assert sum(l["shi"] for l in lines) == 1 and sum(l["ying"] for l in lines) == 1
    assert abs(doc["hexagram"]["shi"] - doc["hexagram"]["ying"]) == 3
    assert len({l["spirit"] for l in lines}) == 6
    for l in lines:
        assert (l["changed"] is not None) == l["moving"] == (l["value"] in (6, 9))
        assert (l["relations"]["change"] is not None) == l["moving"]
    xk = [Branch(b) for b in doc["xunkong"]]
    assert xk[1].index == (xk[0].index + 1) % 12
    assert Branch(doc["yuepo"]) is Branch(doc["pillars"]["month"][1]).opposite
    # every star on a line is listed on that line, and the other way round
    on_lines = {(p, s["id"]) for s in doc["stars"] for p in s["lines"]}
    assert on_lines == {(l["position"], sid) for l in lines for sid in l["stars"]}
    # holding 局 always has the 日 or the 月 among its members (凡局必得日月有一在局)
    for f in doc["findings"]:
        if f["rule"] == "局会" and f["holds"]:
            assert any(m["source"] in ("日", "月") for m in f["members"])
        if f["rule"] == "助鬼伤身" and f["holds"]:
            shi = next(l for l in lines if l["shi"])
            assert shi["relative"] == "兄弟"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(casts, moments, st.sampled_from([None, "婚姻", "疾病", "家宅"]), st.sampled_from(["官", "财", "世", None]))
def test_batch_encoding_is_the_document_byte_for_byte(cast, moment, topic, use):
    """`yimao batch` encodes a document from encoded parts; it must be exactly what the dicts give."""
    reading = read(CastRequest(hex=cast.coins(), date=moment.isoformat(), use=use, topic=topic))
    plain = dumps(document(reading), compact=True)
    assert document_json(reading) == plain
    assert dumps(document(reading), compact=True) == plain  # shared cached parts are left untouched
