"""The conditions the book attaches to stars, judged on charts built by hand from the 纳甲 rules.

Each case names a cast whose lines are derived here from 纳甲 (the line's branch and its 六亲
against the palace), the month or day that puts the star there, and whether the sentence holds:
the JSON entry's condition says so, and the table shows the ✔ line with the sentence exactly
when it holds (and the sentence nowhere when it does not)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from yimao.cli import app
from yimao.stars.catalogue import catalogue
from yimao.texts import raw_text

runner = CliRunner()

GANGKUI = "罡魁临鬼动，祸患暴作，罡主讼而魁主盗也"

# (star id, sentence, cast args, holds, lines) — the lines of each hexagram by 纳甲:
# 晋 (乾宫, 金): 2 乙巳 官鬼, 6 己巳 官鬼.  离 (离宫, 火): 3 己亥 官鬼.  震 (震宫, 木): 5 庚申 官鬼, 1 庚子 父母.
# 艮 (艮宫, 土): 6 丙寅 官鬼.  坎 (坎宫, 水): 1 戊寅 子孙, 2 戊辰 官鬼.  巽 (巽宫, 木): 6 辛卯 兄弟.
# 兑 (兑宫, 金): 4 丁亥 子孙.
CASES = [
    # 天罡 正月起巳: 寅 month 巳. 「罡魁临鬼动」: on the moving 官鬼 巳.
    ("tiangang_gangkui", GANGKUI, ("--hex", "晋", "--moving", "2", "--month", "寅"), True, [2]),
    ("tiangang_gangkui", GANGKUI, ("--hex", "晋", "--moving", "6", "--month", "寅"), True, [6]),
    ("tiangang_gangkui", GANGKUI, ("--hex", "晋", "--moving", "2,6", "--month", "寅"), True, [2, 6]),
    ("tiangang_gangkui", GANGKUI, ("--hex", "晋", "--moving", "1", "--month", "寅"), False, []),  # 巳 at rest
    ("tiangang_gangkui", GANGKUI, ("--hex", "晋", "--moving", "3", "--month", "寅"), False, []),
    # 河魁 正月起亥: 寅 month 亥; 离's line 3 is 己亥 官鬼.
    ("hekui", GANGKUI, ("--hex", "离", "--moving", "3", "--month", "寅"), True, [3]),
    ("hekui", GANGKUI, ("--hex", "离", "--moving", "4", "--month", "寅"), False, []),
    # 天猪 正月从亥逆行: 寅 month 亥 — the same 己亥 官鬼. 「嫌值鬼同发」.
    ("tianzhu_xumu", "嫌值鬼同发", ("--hex", "离", "--moving", "3", "--month", "寅"), True, [3]),
    ("tianzhu_xumu", "嫌值鬼同发", ("--hex", "离", "--moving", "1", "--month", "寅"), False, []),
    # 天官符, 子 year: 七月 (申) in 坤 (未申): 「设如七月占，若鬼动坤宫」 — 震's 庚申 官鬼 on line 5.
    ("tianguanfu", "若与鬼动，则成词讼之凶", ("--hex", "震", "--moving", "5", "--year", "子", "--month", "申"), True, [5]),
    ("tianguanfu", "若与鬼动，则成词讼之凶", ("--hex", "震", "--moving", "1", "--year", "子", "--month", "申"), False, []),
    # 鹤神 on 甲子 in 巽 (辰巳): 庚申 … 乙丑 six days in 巽 after 己酉 艮 and 乙卯 震. 晋's 乙巳 官鬼.
    ("heshen", "若鬼摇是宫出行是戒", ("--hex", "晋", "--moving", "2", "--day", "甲子"), True, [2]),
    ("heshen", "若鬼摇是宫出行是戒", ("--hex", "晋", "--moving", "1,2", "--day", "甲子", "--month", "寅"), True, [2]),
    ("heshen", "若鬼摇是宫出行是戒", ("--hex", "晋", "--moving", "4", "--day", "甲子"), False, []),
    # 阴煞 正七寅: 寅 month 寅; 艮's 丙寅 官鬼 on line 6.
    ("yinsha", "若带鬼动，当防害也", ("--hex", "艮", "--moving", "6", "--month", "寅"), True, [6]),
    ("yinsha", "若带鬼动，当防害也", ("--hex", "艮", "--moving", "5", "--month", "寅"), False, []),
    # 喜神 甲 day 寅 (甲己五遁得丙寅); 坎's 戊寅 子孙 on line 1.
    ("xishen", "若喜神位值子孙动者，出行顺利", ("--hex", "坎", "--moving", "1", "--day", "甲子"), True, [1]),
    ("xishen", "若喜神位值子孙动者，出行顺利", ("--hex", "坎", "--moving", "2", "--day", "甲子"), False, []),
    # 羊刃 甲 day 卯 (禄前一位); 巽's 辛卯 兄弟 on line 6.
    ("yangren", "兄弟相加偶必重", ("--hex", "巽", "--moving", "6", "--day", "甲子"), True, [6]),
    ("yangren", "兄弟相加偶必重", ("--hex", "巽", "--moving", "1", "--day", "甲子"), False, []),
    # 天干天德 寅建在丁: 兑's 丁亥 子孙 on line 4 — the book's own example.
    ("tiande_gan", "如寅建丁亥子孙发动，以丁为天德也，利用防非", ("--hex", "兑", "--moving", "4", "--month", "寅"), True, [4]),
    ("tiande_gan", "如寅建丁亥子孙发动，以丁为天德也，利用防非", ("--hex", "兑", "--moving", "5", "--month", "寅"), False, []),
]


def invoke(*args: str) -> tuple[int, str]:
    r = runner.invoke(app, list(args), env={"COLUMNS": "200", "TZ": "Asia/Shanghai"})
    return r.exit_code, r.stdout


def entry(args: tuple[str, ...], sid: str) -> dict:
    code, out = invoke("cast", *args, "--json")
    assert code == 0, out
    (found,) = [s for s in json.loads(out)["stars"] if s["id"] == sid]
    return found


def condition(star: dict, sentence: str) -> dict | None:
    """The star's condition of that sentence, as a chart's document carries it: only when it holds
    by yimao's reading or another (one that holds by none is the catalogue's to say)."""
    found = [c for c in star["conditions"] if c["text"]["original"] == sentence]
    assert len(found) <= 1
    return found[0] if found else None


@pytest.mark.parametrize(("sid", "sentence", "args", "holds", "lines"), CASES)
def test_condition_holds_exactly_when_the_chart_satisfies_it(sid, sentence, args, holds, lines):
    c = condition(entry(args, sid), sentence)
    if holds:
        assert c is not None and (c["holds"], c["lines"]) == (True, lines) and c["reading"] == "star_line"
    else:  # listed only when another reading holds
        assert c is None or (c["holds"], c["lines"]) == (False, []) and any(v["holds"] for v in c["variants"])
    listed = json.loads(invoke("star", sid, "--json")[1])["star"]["conditions"]
    assert sentence in [x["text"]["original"] for x in listed]  # the catalogue has it either way


@pytest.mark.parametrize(("sid", "sentence", "args", "holds", "lines"), CASES)
@pytest.mark.parametrize("view", [(), ("--explain",)])
def test_the_table_shows_the_sentence_only_when_it_holds(sid, sentence, args, holds, lines, view):
    code, out = invoke("cast", *args, *view)
    assert code == 0
    flat = "".join(out.split())  # a long sentence may be wrapped
    assert (sentence in flat) == holds
    if holds:
        effect = next(c.effect for c in catalogue().by_id[sid].conditions if c.quote.original == sentence)
        assert f"{effect}爻{','.join(map(str, lines))}" in flat
        assert f"✔{'' if view else catalogue().by_id[sid].label}{effect}" in flat


def test_gangkui_variant_anywhere():
    """The variant 「鬼动」 anywhere: in a 辰 month 天罡 is 未 (正月起巳顺行), on 晋's 乙未 父母 (1) and
    己未 父母 (5). With lines 1 and 2 (乙巳 官鬼) moving, the primary (the star on the moving 官鬼)
    fails and anywhere holds by line 2; with line 1 alone no 官鬼 moves."""
    gang = entry(("--hex", "晋", "--moving", "1,2", "--month", "辰"), "tiangang_gangkui")
    assert gang["positions"] == ["未"] and gang["lines"] == [1, 5]  # 乙未 (1) and 己未 (5)
    c = condition(gang, GANGKUI)
    assert c is not None and (c["holds"], c["lines"]) == (False, [])  # listed: a variant holds
    variants = {v["reading"]: v for v in c["variants"]}
    assert set(variants) == {"changed", "anywhere", "star_line"}  # star_line: the lifted 伏 官鬼 (hidden)
    assert variants["star_line"]["hidden"] and not variants["star_line"]["holds"]  # no 伏神 under lines 1 and 5
    assert (variants["anywhere"]["holds"], variants["anywhere"]["lines"]) == (True, [2])
    gang = entry(("--hex", "晋", "--moving", "1", "--month", "辰"), "tiangang_gangkui")
    assert condition(gang, GANGKUI) is None  # no 官鬼 moves: no reading holds


def test_topic_condition_holds_for_its_topic_only():
    """天猪 「牧养忌之」: with --topic 畜牧 it holds; with none it does not (the star stays)."""
    args = ("--hex", "离", "--moving", "3", "--month", "寅")
    assert condition(entry(args, "tianzhu_xumu"), "牧养忌之") is None
    held = condition(entry((*args, "--topic", "畜牧"), "tianzhu_xumu"), "牧养忌之")
    assert held is not None and held["holds"] is True


def test_every_condition_sentence_is_verbatim_and_every_reading_is_known():
    text = raw_text()
    conditioned = [s for s in catalogue().stars if s.conditions]
    assert {s.id for s in conditioned} >= {
        "tianguanfu", "tiangang_gangkui", "hekui", "heshen", "yinsha", "tianzhu_xumu", "tianshu", "tianniu", "xishen", "yangren", "tiande_gan",
    }  # fmt: skip
    for s in conditioned:
        for c in s.conditions:
            assert c.quote.original in text
            for r in (c.reading, *c.variants):
                assert r.on in ("star_line", "changed", "together", "anywhere", "topic")
                assert (r.on == "topic") == bool(r.topics)


def test_every_star_entry_carries_weight_heavy_first():
    """唯日月之用尊焉: month and day stars heavy, listed before the light (year, hour) ones."""
    code, out = invoke("cast", "--hex", "乾", "--moving", "6", "--date", "2026-12-02T10:00+08:00", "--json")
    stars = json.loads(out)["stars"]
    weights = [s["weight"] for s in stars]
    assert set(weights) == {"heavy", "light"}
    assert weights == sorted(weights)  # "heavy" < "light"
    for s in stars:
        basis = catalogue().by_id[s["id"]].basis
        assert s["weight"] == ("heavy" if basis in ("month", "season", "month_sanhe", "day_stem", "day_ganzhi") else "light"), s["id"]


def test_jingxing_and_wuwei_stand_on_qian_top_line():
    """乾之上九降参，又降镇星: on a chart whose 本卦 is 乾, 参宿 and 镇星 on line 6, and nowhere else."""
    code, out = invoke("cast", "--hex", "乾", "--moving", "6", "--month", "寅", "--json")
    stars = {s["id"]: s for s in json.loads(out)["stars"]}
    assert stars["jingxing"]["positions"] == ["参宿"] and stars["jingxing"]["lines"] == [6] and stars["jingxing"]["active"]
    assert stars["wuwei"]["positions"] == ["镇星"] and stars["wuwei"]["lines"] == [6]
    code, out = invoke("cast", "--hex", "乾", "--moving", "6", "--month", "寅", "--stars")
    assert "经星" in out and "五纬" in out  # among the stars acting on line 6 (by default counted: their nature is not told)
    code, out = invoke("cast", "--hex", "乾", "--moving", "6", "--month", "寅", "--explain")
    assert "参宿" in out and "镇星" in out
    code, out = invoke("cast", "--hex", "坤", "--moving", "6", "--month", "寅", "--json")
    assert not {"jingxing", "wuwei"} & {s["id"] for s in json.loads(out)["stars"]}
    # 唯岁时身命之占用之: kept for those topics, left out for others
    code, out = invoke("cast", "--hex", "乾", "--month", "寅", "--topic", "婚姻", "--json")
    assert "jingxing" not in {s["id"] for s in json.loads(out)["stars"]}
    code, out = invoke("cast", "--hex", "乾", "--month", "寅", "--topic", "岁时", "--json")
    jx = next(s for s in json.loads(out)["stars"] if s["id"] == "jingxing")
    assert condition(jx, "唯岁时身命之占用之")["holds"] is True


def test_star_and_stars_say_the_weight():
    """`yimao star NAME --json` and `yimao stars --json` carry each star's weight: 天罡 (by month)
    heavy, 太岁 (by year) and 破军 (by month and hour) light."""
    for name, weight in (("天罡", "heavy"), ("太岁", "light"), ("破军", "light"), ("喜神", "heavy")):
        code, out = invoke("star", name, "--json")
        assert code == 0 and json.loads(out)["star"]["weight"] == weight, name
    code, out = invoke("stars", "--month", "寅", "--day", "甲子", "--year", "子", "--hour", "午", "--json")
    stars = json.loads(out)["stars"]
    assert stars and all(s["weight"] in ("heavy", "light") for s in stars)


def test_a_lifted_hidden_guan_is_a_moving_guan_by_its_variant():
    """伏 鬼动 (伏会者，发动飞爻而相挈也): 讼 (离宫游魂) hides 离's 官鬼己亥 under line 3; in a 申 month
    天罡 (正月起巳顺行) is 亥, on that 伏神. With line 3 moving the 伏神 is lifted: yimao's reading (the
    star on a moving 官鬼 of the 本卦) fails, the hidden reading holds on line 3."""
    gang = entry(("--hex", "讼", "--moving", "3", "--month", "申", "--day", "甲子"), "tiangang_gangkui")
    assert gang["positions"] == ["亥"] and {"position": 3, "part": "伏神", "moving": True} in gang["hits"]
    c = condition(gang, GANGKUI)
    assert c is not None and not c["holds"]
    (hidden,) = [v for v in c["variants"] if v["hidden"]]
    assert (hidden["reading"], hidden["holds"], hidden["lines"]) == ("star_line", True, [3])
    still = entry(("--hex", "讼", "--moving", "4", "--month", "申", "--day", "甲子"), "tiangang_gangkui")
    assert condition(still, GANGKUI) is None  # line 3 still: its 伏神 is not lifted, no reading holds


YIN_STEMS = {"乙", "丁", "己", "辛", "癸"}


def test_yangren_ou_as_the_yin_stems_holds_on_yin_stem_days_only():
    """「兄弟相加偶必重」 with 偶 read as the yin stems (the verse names 乙 辛 丁己 癸): over a sample of
    charts, that reading holds exactly where yimao's holds on a day of a yin stem."""
    import random

    from yimao.hexagram import HEXAGRAMS
    from yimao.pipeline import CastRequest, read

    rng = random.Random(31)
    seen = {True: 0, False: 0}
    for _ in range(1500):
        h = rng.choice(HEXAGRAMS)
        day = rng.choice([f"{s}{b}" for s, b in zip("甲乙丙丁戊己庚辛壬癸" * 6, "子丑寅卯辰巳午未申酉戌亥" * 5)])
        result = read(CastRequest(h.short_name, moving=str(rng.randint(1, 6)), month=rng.choice("寅卯辰巳午未申酉戌亥子丑"), day=day))
        for s in result.stars.placements:
            if s.star.id != "yangren":
                continue
            (c,) = [c for c in s.conditions if c.condition.quote.original == "兄弟相加偶必重"]
            (ou,) = [v for v in c.variants if v.reading.day_stems]
            assert ou.holds == (c.holds and day[0] in YIN_STEMS), (h.short_name, day)
            seen[ou.holds] += 1
    assert seen[True] > 5 and seen[False] > 5


def test_a_condition_is_judged_where_each_variant_places_the_star():
    """喜神 on a 甲 day: yimao's reading puts it on 寅 (甲己五遁得丙寅); the verse's reading on the
    palace 艮 (甲己东北), 丑 and 寅. 离 with line 2 (己丑 子孙) moving changes it to 甲寅: the star
    stands on that 变爻 alone, so 「若喜神位值子孙动者」 fails by yimao's reading (no 本爻 under the
    star) and holds by the verse's, on line 2, where 丑 子孙 moves."""
    args = ("--hex", "离", "--moving", "2", "--month", "卯", "--day", "甲子")
    xi = entry(args, "xishen")
    assert xi["positions"] == ["寅"] and xi["hits"] == [{"position": 2, "part": "变爻", "moving": True}]
    assert condition(xi, "若喜神位值子孙动者，出行顺利") is None  # by no reading of the sentence where 寅 puts it
    (verse,) = xi["variants"]
    assert verse["positions"] == ["艮"]
    (held,) = verse["conditions"]
    assert (held["holds"], held["lines"], held["effect"]) == (True, [2], "出行顺利")
    code, out = invoke("cast", *args)
    assert code == 0 and "异读 歌诀：全宫（方位）：" in out and "✔喜神出行顺利爻2" in "".join(out.split())
    assert all(
        v["conditions"] == []
        for s in json.loads(invoke("cast", "--hex", "乾", "--month", "卯", "--day", "甲子", "--json")[1])["stars"]
        for v in s["variants"]
    )
