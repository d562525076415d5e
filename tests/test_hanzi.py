"""Traditional output through OpenCC: every string a command prints, the terms of art guarded,
OpenCC loaded only when asked for."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import opencc
import pytest

from yimao.hanzi import PROTECTED, SCRIPTS, convert, script_of, to_simplified

ENV = {**os.environ, "COLUMNS": "120", "TZ": "Asia/Shanghai", "PYTHONIOENCODING": "utf-8"}
DATE = "2026-12-02T10:00+08:00"

# A spread of commands: every one that prints Chinese, tables and JSON.
COMMANDS = [
    ("cast", "--date", DATE, "--hex", "离之乾"),
    ("cast", "--date", DATE, "--hex", "离之乾", "--explain", "--use", "官"),
    ("cast", "--date", DATE, "--hex", "离之乾", "--json"),
    ("cast", "--date", DATE, "--hex", "离之乾", "--svg", "-"),
    ("cast", "--date", DATE, "--hex", "离之乾", "--html", "-"),
    ("cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父", "--explain"),
    ("hex", "大畜"),
    ("hex", "乾之震", "--json"),
    ("pillars", "--date", DATE),
    ("pillars", "--date", DATE, "--json"),
    ("star", "天医"),
    ("star", "太冲", "--json"),
    ("star", "黄泉杀"),
    ("stars", "--date", DATE),
    ("stars", "--date", DATE, "--json"),
    ("text", "6.02"),
    ("text", "长生", "--json"),
    ("examples",),
    ("examples", "--json"),
]


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=ENV, timeout=120, input=stdin)


def unguarded(text: str) -> str:
    """The text with the guarded terms (in their printed form) cut out, each a line break, which
    no conversion changes and no phrase runs across."""
    for printed in sorted(set(PROTECTED.values()), key=len, reverse=True):
        text = text.replace(printed, "\n")
    return text


def assert_fixed_point(text: str, script: str) -> None:
    rest = unguarded(text)
    again = opencc.OpenCC(SCRIPTS[script]).convert(rest)
    diffs = [(i, a, b) for i, (a, b) in enumerate(zip(rest, again)) if a != b]
    assert not diffs and len(again) == len(rest), [rest[max(0, i - 8) : i + 8] + f" {a}→{b}" for i, a, b in diffs[:10]]


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_traditional_output_is_a_fixed_point_of_opencc(args):
    """What `-t` prints is what OpenCC's s2t would print for it, but the guarded terms: no string
    was left in simplified characters. The plain output was simplified to begin with (it changes)."""
    plain = run(*args)
    r = run(*args, "-t")
    assert r.returncode == plain.returncode == 0, r.stderr.decode()
    out = r.stdout.decode("utf-8")
    assert out != plain.stdout.decode("utf-8")
    if "--json" in args:  # every value converted; the keys, the schema's, as they are (始 中 终 of a 局)
        doc, plain_doc = json.loads(out), json.loads(plain.stdout)
        assert keys(doc) == keys(plain_doc)
        out = "\n".join(values(doc))
    assert_fixed_point(out, "t")


def keys(doc) -> list:
    if isinstance(doc, dict):
        return [(k, keys(v)) for k, v in doc.items()]
    return [keys(v) for v in doc] if isinstance(doc, list) else []


def values(doc):
    if isinstance(doc, dict):
        doc = list(doc.values())
    if isinstance(doc, list):
        for v in doc:
            yield from values(v)
    elif isinstance(doc, str):
        yield doc


@pytest.mark.parametrize("script", ["tw", "hk"])
@pytest.mark.parametrize("args", [COMMANDS[1], COMMANDS[2], COMMANDS[8]], ids=" ".join)
def test_regional_scripts_are_fixed_points_of_their_conversion(args, script):
    r = run(*args, "--script", script)
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode("utf-8")
    assert_fixed_point("\n".join(values(json.loads(out))) if "--json" in args else out, script)


def test_the_terms_of_art_are_guarded():
    """Where OpenCC alone mistakes them: the branch 丑 (醜), the stem 干 (幹, 乾), 占 (佔), 凶 (兇)."""
    assert opencc.OpenCC("s2t").convert("丑土 阴干禄 占讼 吉凶") != "丑土 陰干祿 占訟 吉凶"
    assert convert("丑土 阴干禄 占讼 吉凶") == "丑土 陰干祿 占訟 吉凶"
    assert convert("六冲 相冲 太冲 十一吊客 神后 咸池 斗柄") == "六沖 相沖 太衝 十一弔客 神后 咸池 斗柄"
    assert convert("虽曰长生，临于岁月动变之位者则非") == "雖曰長生，臨于歲月動變之位者則非"
    out = run("cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父", "--explain", "-t").stdout.decode()
    assert "丑" in out and "干" in out
    for wrong in "醜幹佔兇於":
        assert wrong not in out, wrong


def test_hexagram_and_relative_names_in_each_script():
    """The names practitioners read: the 64 hexagrams (乾 stays 乾, 坤 stays 坤), 六亲 and 六神."""
    from yimao.hexagram import HEXAGRAMS

    names = [convert(h.name) for h in HEXAGRAMS]
    assert names[:2] == ["乾爲天", "坤爲地"] and "水火既濟" in names and "山風蠱" in names and "雷火豐" in names
    assert [convert(h.name, "tw") for h in HEXAGRAMS[:2]] == ["乾為天", "坤為地"]
    assert convert("父母 兄弟 官鬼 妻财 子孙") == "父母 兄弟 官鬼 妻財 子孫"
    assert convert("青龙 朱雀 勾陈 螣蛇 白虎 玄武") == "青龍 朱雀 勾陳 螣蛇 白虎 玄武"
    for h in HEXAGRAMS:  # and each is read back
        for script in ("t", "tw", "hk"):
            assert to_simplified(convert(h.name, script)) == h.name, (h.name, script)


def test_script_names():
    assert [script_of(v) for v in (None, False, True, "t", "TW", " hk ", "s")] == ["s", "s", "t", "t", "tw", "hk", "s"]
    r = run("cast", "--hex", "离", "--script", "cn")
    assert r.returncode == 2 and r.stdout == b"" and b"not a script" in r.stderr
    r = run("cast", "--hex", "离", "--script", "s", "-t", "--json")
    assert r.returncode == 2 and r.stdout == b""


def test_batch_traditional_by_option_and_by_line():
    lines = [
        {"hex": "离之乾", "date": DATE},
        {"hex": "离之乾", "date": DATE, "traditional": True},
        {"hex": "离之乾", "date": DATE, "traditional": "tw"},
        {"hex": "离之乾", "date": DATE, "traditional": False},
        {"hex": "离之乾", "date": DATE, "traditional": 1},
    ]
    data = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines).encode()
    for option, first in ((), "离为火"), (("--traditional",), "離爲火"), (("--script", "hk"), "離為火"):
        r = run("batch", "-", *option, stdin=data)
        assert r.returncode == 2, r.stderr.decode()
        out = [json.loads(x) for x in r.stdout.decode().splitlines()]
        names = [d["hexagram"]["name"] for d in out[:4]]
        assert names == [first, "離爲火", "離為火", "离为火"]
        assert out[4]["line"] == 5 and "traditional" in out[4]["error"]["message"]
        assert_fixed_point("\n".join(values(out[1])), "t")


PROBE = """
import sys
from yimao.launch import run
code = run(sys.argv[1:])
sys.stdout.flush()
print("OPENCC" if "opencc" in sys.modules else "none", file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args, loads",
    [
        (("cast", "--hex", "离之乾", "--date", DATE, "--json"), False),
        (("cast", "--hex", "离之乾", "--date", DATE, "--topic", "婚姻", "--use", "妻财"), False),
        (("hex", "水火既济"), False),
        (("star", "天医", "--json"), False),
        (("text", "长生", "--json"), False),
        (("cast", "--hex", "離之乾", "--date", DATE, "--json"), True),  # traditional input: looked up again
        (("cast", "--hex", "离之乾", "--date", DATE, "--json", "-t"), True),
    ],
)
def test_opencc_is_loaded_only_when_a_conversion_is_asked(args, loads):
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, env=ENV, timeout=60)
    assert r.stderr.decode().splitlines()[-1] == ("OPENCC" if loads else "none")


def test_stderr_notes_in_the_script_asked_for():
    # the 节 warning names the 节 (惊蛰 → 驚蟄) and the topic note the topic, as stdout does
    for args in (("cast", "--hex", "离之乾", "--date", "2024-03-05T10:22+08:00", "--json"), ("pillars", "--date", "2024-03-05T10:22+08:00")):
        simplified, traditional = run(*args), run(*args, "-t")
        assert simplified.returncode == traditional.returncode == 0
        assert "惊蛰" in simplified.stderr.decode() and "驚蟄" in traditional.stderr.decode()
    note = run("cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅", "--topic", "诉讼", "--json", "-t")
    assert note.returncode == 0 and "note: --topic 訴訟: read as volume 6's topic 詞訟" in note.stderr.decode()


def test_one_form_of_ke_and_the_particle_le():
    """克 is printed one way in an output (OpenCC left alone gives 巳剋日申 beside 月酉克寅), and the
    particle 了 is not 瞭 (破了然后才开)."""
    assert convert("破了然后才开") == "破了然後纔開"
    assert convert("巳克日申 月酉克寅 回头克 生克") == "巳克日申 月酉克寅 回頭克 生克"
    r = run("cast", "--hex", "困之兑", "--month", "酉", "--day", "庚申", "--use", "财", "--explain", "-t")
    out = r.stdout.decode()
    assert r.returncode == 0 and "克" in out and "剋" not in out and "瞭" not in out


def _each_converted(value, script: str):
    """The document with each string converted by a call of its own: what `in_script`, which
    converts each string once per run and many in one call, must give."""
    if isinstance(value, str):
        return convert(value, script)
    if isinstance(value, dict):
        return {k: _each_converted(v, script) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_each_converted(v, script) for v in value]
    return value


@pytest.mark.parametrize("most", [1 << 16, 7])
def test_a_document_in_traditional_is_each_value_converted_and_the_document_kept(monkeypatch, most):
    """`output.in_script` over documents that share parts, in two scripts, with the cache of
    conversions as large as it is and so small it is forgotten at every document: each value is
    what converting it alone gives (a value with a line break too), the keys are as they were,
    and the documents given are not changed (their parts are other documents' too)."""
    from yimao import output
    from yimao.pipeline import CastRequest, document, read

    monkeypatch.setattr(output, "MOST_CONVERTED", most)
    monkeypatch.setattr(output, "_CONVERTED", {})
    docs = [document(read(CastRequest(h, date=DATE, use=u))) for h, u in (("离之乾", "官"), ("大畜之离", "父"), ("离之乾", None))]
    docs.append({"question": "问婚姻\n后事如何", "notes": [{"text": "应在丑年\n记之"}], "tuple": ("离为火", 3), "n": None})
    before = json.dumps(docs, ensure_ascii=False)
    for _ in range(2):  # the second time, from what the first kept
        for script in ("t", "hk"):
            for doc in docs:
                got = output.in_script(doc, script)
                assert got == _each_converted(doc, script)
                assert keys(json.loads(json.dumps(got))) == keys(json.loads(json.dumps(doc)))  # a tuple is an array as a list is
                own = {v for v in values(doc) if not v.isascii()}
                assert len(output._CONVERTED[script]) <= max(most, len(own))  # bounded: a document's own at most
    assert json.dumps(docs, ensure_ascii=False) == before
    assert output.in_script(docs[0], "s") is docs[0]
