"""Every command's --json output validates against `yimao schema` (JSON Schema draft 2020-12)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import jsonschema
import pytest

from yimao.hexagram import all_casts
from yimao.pipeline import CastRequest, document, read

ENV = {**os.environ, "TZ": "Asia/Shanghai"}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=ENV, timeout=120)


@pytest.fixture(scope="module")
def schema():
    r = run("schema")
    assert r.returncode == 0
    s = json.loads(r.stdout)
    jsonschema.Draft202012Validator.check_schema(s)
    return s


def validator(schema, name):
    return jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{name}", "anyOf": [{}]})


CLI_CASES = [
    ("cast", ("cast", "--date", "2026-12-02T10:00+08:00", "--hex", "离之乾")),
    ("cast", ("cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父")),
    ("cast", ("cast", "--hex", "困之兑", "--month", "酉", "--day", "庚申", "--use", "财", "--topic", "婚姻")),
    ("cast", ("cast", "--hex", "离", "--day", "申")),
    ("cast", ("cast", "--hex", "乾")),
    ("pillars_doc", ("pillars", "--date", "2024-02-04T16:30+08:00")),
    ("pillars_doc", ("pillars",)),
    ("hex", ("hex", "大畜")),
    ("hex", ("hex", "离之乾")),
    ("star_table_doc", ("star", "天医")),
    ("star_table_doc", ("star", "破军")),
    ("star_table_doc", ("star", "鹤神")),
    ("star_positions_doc", ("star", "天医", "--month", "3")),
    ("star_positions_doc", ("star", "破军", "--month", "寅", "--hour", "午")),
    ("star_positions_doc", ("star", "鹤神", "--day", "庚子")),
    ("fixed_name_doc", ("star", "黄泉杀")),
    ("fixed_name_doc", ("star", "帝座", "--month", "3")),
    ("star_list_doc", ("star", "--list")),
    ("stars_doc", ("stars", "--month", "卯", "--day", "戊寅")),
    ("stars_doc", ("stars", "--date", "2026-12-02T10:00+08:00")),
    ("text_doc", ("text",)),
    ("text_doc", ("text", "天医")),
    ("examples_doc", ("examples",)),
]


@pytest.mark.parametrize("name, args", CLI_CASES, ids=[" ".join(a) for _, a in CLI_CASES])
def test_command_output_validates(schema, name, args):
    r = run(*args, "--json")
    assert r.returncode == 0, r.stderr.decode()
    doc = json.loads(r.stdout)
    validator(schema, name).validate(doc)
    jsonschema.Draft202012Validator(schema).validate(doc)  # and the top-level anyOf


def test_many_casts_validate(schema):
    v = validator(schema, "cast")
    rng = random.Random(6)
    casts = list(all_casts())
    months = list("寅卯辰巳午未申酉戌亥子丑")
    from yimao.ganzhi import CYCLE

    for _ in range(150):
        c = rng.choice(casts)
        req = CastRequest(
            hex=c.coins(),
            month=rng.choice(months),
            day=str(rng.choice(CYCLE)),
            hour=rng.choice(months),
            use=rng.choice(["官", "财", "父", "兄", "子", "世", "应", None]),
        )
        v.validate(json.loads(json.dumps(document(read(req)), ensure_ascii=False)))
    for _ in range(50):
        c = rng.choice(casts)
        y, mo, d, h = rng.randint(1901, 2049), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23)
        req = CastRequest(hex=c.coins(), date=f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{rng.randint(0, 59):02d}+08:00")
        v.validate(json.loads(json.dumps(document(read(req)), ensure_ascii=False)))


def test_batch_lines_validate(schema):
    lines = (
        "\n".join(
            [
                '{"hex": "离之乾", "date": "2026-12-02T10:00+08:00"}',
                '{"hex": "xyz"}',
                "not json",
                '{"hex": "大畜之离", "month": "卯", "day": "戊寅", "use": "父"}',
            ]
        ).encode()
        + b"\n"
    )
    r = subprocess.run([sys.executable, "-m", "yimao", "batch"], input=lines, capture_output=True, env=ENV, timeout=60)
    v = jsonschema.Draft202012Validator(schema)
    out = [json.loads(line) for line in r.stdout.decode().splitlines()]
    assert len(out) == 4
    for doc in out:
        v.validate(doc)
