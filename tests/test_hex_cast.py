"""`yimao hex` and `yimao cast` agree: one chart layout, one line shape in JSON, and every fact
that needs no date (卦身, 六冲/六合, 伏吟/反吟, 变爻, 伏神) the same in both."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from yimao.chart import build_chart
from yimao.hexagram import HEXAGRAMS, Cast
from yimao.pipeline import CastRequest, document, read
from yimao.serialize import hexagram_document

runner = CliRunner()
ENV = {"TZ": "Asia/Shanghai", "COLUMNS": "120"}

# The line facts that hold whatever the date (the rest — 六神, relations to the month and day,
# stars — need one).
DATE_FREE = ("position", "yang", "moving", "value", "stem", "branch", "element", "relative", "shi", "ying", "changed")

# 六冲卦 and 六合卦 as the manuals list them (the eight pure hexagrams with 无妄 and 大壮; 否 泰
# 复 豫 节 贲 困 旅), written out here rather than derived.
LIUCHONG = {"乾为天", "坤为地", "震为雷", "巽为风", "坎为水", "离为火", "艮为山", "兑为泽", "天雷无妄", "雷天大壮"}
LIUHE = {"天地否", "地天泰", "地雷复", "雷地豫", "水泽节", "山火贲", "泽水困", "火山旅"}


def cli(*args: str):
    from yimao.cli import app

    return runner.invoke(app, list(args), env=ENV)


@pytest.mark.parametrize("moving", [frozenset(), frozenset({1}), frozenset({2, 5}), frozenset(range(1, 7))])
def test_hex_and_cast_give_the_same_lines_and_features(moving):
    for h in HEXAGRAMS:
        cast = Cast(h, moving)
        hex_doc = hexagram_document(build_chart(cast))
        cast_doc = document(read(CastRequest(hex=cast.spec(), date="2026-12-02T10:00+08:00")))
        for part in ("hexagram", "changed_hexagram"):
            a, b = hex_doc[part], cast_doc[part]
            if a is None:
                assert b is None
                continue
            assert [list(x) for x in a["lines"]] == [list(x) for x in b["lines"]]  # the same keys, in order
            assert [[x[k] for k in DATE_FREE if k in x] for x in a["lines"]] == [[x[k] for k in DATE_FREE if k in x] for x in b["lines"]]
            assert {k: v for k, v in a.items() if k != "lines"} == {k: v for k, v in b.items() if k != "lines"}
        own = hex_doc["hexagram"]["features"]
        assert ("六冲卦" in own) == (h.name in LIUCHONG) and ("六合卦" in own) == (h.name in LIUHE), h.name


def test_hex_json_says_what_cast_says_of_the_hexagram():
    doc = json.loads(cli("hex", "乾", "--json").stdout)
    assert doc["hexagram"]["features"] == ["六冲卦"] and doc["hexagram"]["guashen"] == "巳"
    line = doc["hexagram"]["lines"][0]
    assert line["moving"] is False and line["changed"] is None and line["spirit"] is None
    doc = json.loads(cli("hex", "乾之震", "--json").stdout)
    assert doc["hexagram"]["features"] == ["六冲卦", "变六冲", "内卦伏吟", "外卦伏吟"]  # 震's 纳甲 repeats 乾's branches
    assert [x["moving"] for x in doc["hexagram"]["lines"]] == [False, True, True, False, True, True]
    assert doc["hexagram"]["lines"][2]["changed"]["branch"] == "辰" and "化墓" in doc["hexagram"]["lines"][2]["tags"]


def _chart_part(text: str) -> list[str]:
    """The chart's lines of a table output: its title, header and six rows, and the line of facts
    under it (up to the 卦身)."""
    lines = [x.rstrip() for x in text.splitlines()]
    start = next(i for i, x in enumerate(lines) if x.startswith("䷀") or re.match(r"^[\u4dc0-\u4dff] ", x))
    end = next(i for i, x in enumerate(lines) if "卦身" in x)
    return lines[start : end + 1]


@pytest.mark.parametrize("spec", ["乾", "大畜", "乾之震", "大畜之离"])
def test_hex_draws_the_chart_of_cast(spec):
    hex_out = cli("hex", spec).stdout
    cast_out = cli("cast", "--hex", spec, "--year", "子").stdout  # a year: no 六神, no relation to a month or day
    assert "卦身" in hex_out and "爻值" in hex_out
    assert _chart_part(hex_out)[-1] == _chart_part(cast_out)[-1]  # the same facts under the chart
    hex_rows = [x.split() for x in _chart_part(hex_out) if "▅" in x]
    cast_rows = [x.split() for x in _chart_part(cast_out) if "▅" in x]
    assert len(hex_rows) == len(cast_rows) == 6
    for h, c in zip(hex_rows, cast_rows):
        assert c[: len(h)] == h  # the cells of hex, then the stars the year places
