"""The star catalogue (src/yimao/data/stars.toml) checked against 《易冒》 volume 6.

The catalogue is loaded with tomllib straight from its path (the yimao package is not imported).
Every expectation below was read from the text and typed here by hand — a table as a string of
twelve branches for 正月 … 十二月 (寅月 … 丑月), a dict for stems and years — never recomputed
from the catalogue's own rules. Each test quotes the sentence it checks.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from yimao.solar_terms import TERM_NAMES

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "src" / "yimao" / "data" / "stars.toml"
TEXT = ROOT / "src" / "yimao" / "data" / "vol6.txt"

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
MONTHS = "寅卯辰巳午未申酉戌亥子丑"  # 正月 … 十二月
STEMS = "甲乙丙丁戊己庚辛壬癸"
GANZHI = [STEMS[i % 10] + BRANCHES[i % 12] for i in range(60)]
# the eight palaces, 中宫, and 鹤神's stations in heaven (第四十五日上天而居于房北 … 迁南 … 迁西 … 迁东)
DIRECTIONS = {"坎", "艮", "震", "巽", "离", "坤", "兑", "乾", "中宫", "房北", "房中", "南", "西", "东"}
BASES = {"month", "season", "month_sanhe", "day_stem", "day_ganzhi", "year_branch", "month_hour", "year_month", "none"}
KINDS = {"branch", "stem", "direction", "ganzhi", "none"}
NATURES = {"吉", "凶", "吉凶", "未详"}
TOPICS = {
    "通用",
    "岁时",
    "身命",
    "婚姻",
    "才貌",
    "坟茔",
    "家宅",
    "造化",
    "刑狱",
    "防非",
    "禄食",
    "求财",
    "功名",
    "行人",
    "出行",
    "疾病",
    "丧事",
    "产育",
    "小儿",
    "音信",
    "渔猎",
    "畜牧",
    "捕盗",
    "失物",
    "词讼",
    "针灸",
}
REQUIRED = {
    "id": str,
    "name": str,
    "traditional": str,
    "aliases": list,
    "group": str,
    "order": int,
    "basis": str,
    "kind": str,
    "nature": str,
    "topics": list,
    "rule": str,
    "quotes": list,
    "notes": list,
}


def _load():
    with CATALOGUE.open("rb") as f:
        return tomllib.load(f)["star"]


STARS = _load()
BY_ID = {s["id"]: s for s in STARS}
_paras = [p.strip() for p in TEXT.read_text(encoding="utf-8").split("\n\n") if p.strip()][1:]
CLASSICAL = _paras[0::2]
MODERN = _paras[1::2]
STAR_SECTION_START = next(i for i, p in enumerate(CLASSICAL) if p.startswith("神宿之法"))


# ------------------------------------------------------------------ helpers


def star(sid):
    return BY_ID[sid]


def table(sid, positions=None):
    """A month-based star as a 12-character string (正月 … 十二月), one position per month."""
    pos = positions if positions is not None else star(sid)["positions"]
    assert all(len(pos[m]) == 1 for m in MONTHS), (sid, pos)
    return "".join(pos[m][0] for m in MONTHS)


def sets(sid, positions=None):
    pos = positions if positions is not None else star(sid)["positions"]
    return {k: set(v) for k, v in pos.items()}


def variant(sid, contains):
    found = [v for v in star(sid).get("variants", []) if contains in v["reading"]]
    assert len(found) == 1, (sid, contains, [v["reading"] for v in star(sid).get("variants", [])])
    return found[0]


def by_season(spring, summer, autumn, winter):
    return spring * 3 + summer * 3 + autumn * 3 + winter * 3


def stem_sets(d):
    out = {}
    for k, v in d.items():
        for s in k:
            out[s] = set(v)
    assert set(out) == set(STEMS)
    return out


def keys_for(basis):
    return {
        "month": list(MONTHS),
        "season": list(MONTHS),
        "month_sanhe": list(MONTHS),
        "day_stem": list(STEMS),
        "day_ganzhi": GANZHI,
        "year_branch": list(BRANCHES),
        "month_hour": list(MONTHS),
        "year_month": list(BRANCHES),
    }[basis]


def valid_string(s):
    return (len(s) == 1 and (s in BRANCHES or s in STEMS)) or s in DIRECTIONS or s in GANZHI


def string_kind(s):
    if s in DIRECTIONS:
        return "direction"
    if s in GANZHI:
        return "ganzhi"
    return "branch" if s in BRANCHES else "stem"


# Primary tables that mix kinds because the book does (天干天德 verse: 二申 五亥 八寅 子巳).
MIXED_PRIMARY = {"tiande_gan": {"stem", "branch"}}


def check_table(s, pos, where, primary):
    basis = s["basis"]
    want = keys_for(basis)
    assert list(pos) == want or set(pos) == set(want), f"{s['id']} {where}: keys {list(pos)}"
    cells = []
    if basis in ("month_hour", "year_month"):
        inner = list(BRANCHES) if basis == "month_hour" else list(MONTHS)
        for k, row in pos.items():
            assert isinstance(row, dict) and set(row) == set(inner), f"{s['id']} {where} {k}"
            cells.extend(row.values())
    else:
        cells = list(pos.values())
    for cell in cells:
        assert isinstance(cell, list), f"{s['id']} {where}"
        assert len(cell) == len(set(cell)), f"{s['id']} {where}: duplicate in {cell}"
        for x in cell:
            assert isinstance(x, str) and valid_string(x), f"{s['id']} {where}: bad position {x!r}"
            if primary:
                allowed = MIXED_PRIMARY.get(s["id"], {s["kind"]})
                assert string_kind(x) in allowed, f"{s['id']}: {x!r} is not a {s['kind']}"
    assert any(cells), f"{s['id']} {where}: empty table"


# ------------------------------------------------------------------ schema


def test_catalogue_is_not_empty_and_ids_are_unique_ascii():
    ids = [s["id"] for s in STARS]
    assert len(ids) == len(set(ids))
    assert len(STARS) >= 130
    for i in ids:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", i), i


@pytest.mark.parametrize("s", STARS, ids=lambda s: s["id"])
def test_schema(s):
    for key, typ in REQUIRED.items():
        assert key in s, key
        assert isinstance(s[key], typ), key
    assert s["basis"] in BASES and s["kind"] in KINDS and s["nature"] in NATURES
    assert s["name"] and s["traditional"] and s["rule"] and s["quotes"]
    assert set(s["topics"]) <= TOPICS, s["topics"]
    assert all(isinstance(a, str) and a for a in s["aliases"])
    assert all(isinstance(n, str) and n for n in s["notes"])
    if s["basis"] == "none":
        assert s["kind"] == "none"
        assert "positions" not in s and not s.get("variants")
    else:
        assert s["kind"] != "none"
        check_table(s, s["positions"], "positions", primary=True)
        for v in s.get("variants", []):
            assert set(v) <= {"reading", "reason", "quotes", "positions", "days"}
            assert v["reading"] and v["reason"]
            assert set(v.get("days", ())) <= set(TERM_NAMES)
            check_table(s, v["positions"], f"variant {v['reading']}", primary=False)
            assert v["positions"] != s["positions"], f"{s['id']}: variant {v['reading']} equals the primary"


def test_orders_are_the_text_order_and_groups_are_contiguous():
    orders = [s["order"] for s in STARS]
    assert orders == list(range(1, len(STARS) + 1))
    seen = []
    for s in STARS:
        if not seen or seen[-1] != s["group"]:
            assert s["group"] not in seen, f"group {s['group']} is split"
            seen.append(s["group"])
    assert seen[:4] == ["经星五纬", "九曜", "三垣", "天德月德"]
    assert seen[-3:] == ["五符十二神", "罡魁十二将", "太岁十二神"]


# ------------------------------------------------------------------ quotes


def _all_quotes():
    for s in STARS:
        for q in s["quotes"]:
            yield s["id"], q
        for v in s.get("variants", []):
            for q in v.get("quotes", []):
                yield s["id"], q


@pytest.mark.parametrize("sid,q", list(_all_quotes()))
def test_quote_is_verbatim_in_a_classical_paragraph_of_the_star_section(sid, q):
    hits = [i for i, p in enumerate(CLASSICAL) if q in p]
    assert hits, f"{sid}: not verbatim in the classical text: {q}"
    assert min(hits) >= STAR_SECTION_START, f"{sid}: quote outside the star section"


def test_text_layout_classical_and_modern_alternate():
    # The quote test relies on this layout: the modern renderings carry 「」 quotation or 注：.
    assert CLASSICAL[STAR_SECTION_START].startswith("神宿之法")
    assert MODERN[STAR_SECTION_START].startswith("神煞星宿")
    assert len(CLASSICAL) == len(MODERN) == 56


# ------------------------------------------------------------------ names, reuses, named-only


def test_reused_names_have_one_entry_per_use():
    names = {}
    for s in STARS:
        names.setdefault(s["name"], []).append(s["id"])
    for name, ids in {
        "月煞": {"yuesha_jiangxing", "yuesha_yuekong"},
        "天贼": {"tianzei_manpokai", "tianzei_wufu"},
        "天狗": {"tiangou_suizei", "tiangou_diaoke"},
        "丧门": {"sangmen_yue", "sangmen_sui"},
        "吊客": {"diaoke_yue", "diaoke_sui"},
        "五鬼": {"wugui_sui", "wugui_yue"},
        "飞廉": {"feilian_sui", "feilian_yue"},
        "文昌": {"wenchang_jiuyao", "wenchang_ri"},
    }.items():
        assert set(names[name]) == ids, name
    # 官符 in four stars, 天罡 twice, 亡人 twice, 太阴 twice (月解 is 太阴)
    assert {"siqi_guanfu", "chuimen_guanfu", "tianguanfu", "guanfu_sui"} <= set(BY_ID)
    assert star("tiangang_sha")["name"] == "天罡煞" and star("tiangang_gangkui")["name"] == "天罡"
    assert star("wangren_jiangxing")["name"] == "亡人煞" and star("wangren_sangche")["name"] == "亡人"
    assert star("taiyin_sui")["name"] == "太阴" and "太阴" in star("yuejie")["aliases"]


def test_aliases_the_book_gives():
    assert "红纱" in star("anjin")["aliases"]  # 亦名红纱
    assert "陀罗星" in star("tianzei_wufu")["aliases"]  # 又名陀罗星
    assert "勾陈煞" in star("datengshe")["aliases"]  # 大腾蛇之别号曰勾陈煞
    assert "桃花" in star("xianchi")["aliases"]  # 别名桃花
    assert "摧尸煞" in star("yupen")["aliases"]  # 盖以摧尸煞同
    assert "游神" in star("heshen")["aliases"]  # 鹤神，即游神也
    assert "天符" in star("wufu")["aliases"]  # 五符者，即天符也
    assert "金舆" in star("wufu")["aliases"]  # 故天符为金舆 (and 天符 is 五符)
    assert "玉辇" in star("difu")["aliases"]  # 地符为玉辇
    assert "部曲" in star("tiancao")["aliases"]  # 部曲即天曹也
    assert "驾马" in star("yima")["aliases"]  # 驾巳马 … 驿马亦从将星而推也
    assert "乾马" in star("tianma")["aliases"]  # 天马，即乾马也
    assert "食神星" in star("fuxing")["aliases"]  # 福星贵人，即食神星也


def test_named_only_stars_have_no_positions():
    """九曜 六曜只列名；“余十将不司卦内吉凶，故不详注”；经星五纬只举一例。"""
    for sid in [
        "tanlang",
        "jumen",
        "lucun",
        "wenchang_jiuyao",
        "lianzhen",
        "wuqu",
        "taiyi",
        "shengguang",
        "xiaoji",
        "chuansong",
        "congkui",
        "dengming",
        "shenhou",
        "daji",
        "gongcao",
        "taichong",
        "jingxing",
        "wuwei",
    ]:
        assert star(sid)["basis"] == "none", sid


def test_every_star_the_text_names_is_present():
    names = {s["name"] for s in STARS} | {a for s in STARS for a in s["aliases"]}
    for n in (
        "贪狼 巨门 禄存 文昌 廉贞 武曲 破军 左辅 右弼 紫微垣 天市垣 太微垣 天德 天干天德 月德 天干月德 天乙贵人 阳贵 阴贵 "
        "福星 天厨 天元禄 天财 地财 将星 攀鞍 驿马 六害 华盖 劫煞 灾煞 天煞 地煞 年煞 月煞 亡人煞 天马 天喜 喜神 天赦 天解 "
        "月解 喝散 天医 活曜 雷火 网罗 旌旗 天耳 天目 天罡煞 天犬 天猪 天鼠 天牛 大腾蛇 暗金 破碎 大耗 小耗 荒芜 月空 天贼 "
        "天狗 地贼 天烛 天火 天官符 生气 死气 死气官符 锤门官符 天狱 地狱 血刃 血忌 羊刃 阴煞 折煞 浴盆 咸池 天哭 丧门 吊客 "
        "亡人 丧车 五墓 三坵 孤 寡 关锁 往亡 归忌 绝路空 覆舟 白浪 鹤神 五符 天曹 地符 风伯 雷公 雨师 风云 堂符 国印 天关 "
        "地匣 天罡 太乙 胜光 小吉 传送 从魁 河魁 登明 神后 大吉 功曹 太冲 太岁 太阳 太阴 官符 死符 岁破 龙德 白虎 福德 "
        "病符 飞廉 五鬼 栏杆"
    ).split():
        assert n in names, n


# ------------------------------------------------------------------ misprints recorded


@pytest.mark.parametrize(
    "sid,misprint",
    [
        ("tianyi_guiren", "配为地网"),
        ("tianyi_guiren_yang", "配为地网"),
        ("tianyi_guiren", "乙猴巳鼠头"),
        ("tianyi_guiren_yin", "乙鼠巳猴乡"),
        ("yima", "申子辰成居寅"),
        ("tianjie", "水绝于申"),
        ("hesan", "秋多生巳"),
        ("chuimen_guanfu", "正七虑行村"),
        ("zhesha", "看煞"),
        ("xianchi", "求曰"),
        ("posui", "四轮复灵"),
        ("sanqiu", "数丑日第三"),
        ("heshen", "巳酉艮局"),
        ("fuzhou", "震仰孟"),
        ("xueren", "针炙"),
        ("xueji", "针炙"),
    ],
)
def test_misprint_is_recorded_in_notes(sid, misprint):
    assert any(misprint in n for n in star(sid)["notes"]), (sid, misprint)


# ------------------------------------------------------------------ 九曜


def test_pojun_zuofu_youbi_worked_example():
    """如寅建午时占，以戌加寅起至午时在戌，以戌上为破军，亥是左辅，子是右弼也。"""
    assert star("pojun")["positions"]["寅"]["午"] == ["戌"]
    assert star("zuofu")["positions"]["寅"]["午"] == ["亥"]
    assert star("youbi")["positions"]["寅"]["午"] == ["子"]


def test_pojun_verse():
    """月月常加戌，时时起破军，破军前两位，世俗少知闻。两位，即左辅右弼也。"""
    # 以戌加月建: at the 戌 hour 破军 points at the month itself, every month.
    for m in MONTHS:
        assert star("pojun")["positions"][m]["戌"] == [m]
    # 寅建 counted on from 戌时: 戌寅 亥卯 子辰 丑巳 寅午 卯未 辰申 巳酉 午戌
    assert "".join(star("pojun")["positions"]["寅"][h][0] for h in "戌亥子丑寅卯辰巳午") == "寅卯辰巳午未申酉戌"
    for m in MONTHS:
        for h in BRANCHES:
            p = star("pojun")["positions"][m][h][0]
            assert star("zuofu")["positions"][m][h][0] == BRANCHES[(BRANCHES.index(p) + 1) % 12]
            assert star("youbi")["positions"][m][h][0] == BRANCHES[(BRANCHES.index(p) + 2) % 12]


# ------------------------------------------------------------------ 三垣


def test_sanyuan():
    """紫微垣…起子也，天市垣…起寅也，太微垣…起巳也 …（三垣皆以正月起顺行。）"""
    assert table("ziweiyuan") == "子丑寅卯辰巳午未申酉戌亥"
    assert table("tianshiyuan") == "寅卯辰巳午未申酉戌亥子丑"
    assert table("taiweiyuan") == "巳午未申酉戌亥子丑寅卯辰"


# ------------------------------------------------------------------ 天德 月德


def test_tiande():
    """天德之星，正月起亥而顺行 …（天德正月起亥顺行）"""
    assert table("tiande") == "亥子丑寅卯辰巳午未申酉戌"
    assert star("tiande")["positions"]["寅"] == ["亥"]


def test_tiande_gan_verse_and_body():
    """天干天德寅建在丁，卯建在申 … 干德法曰：正丁二申宫，三壬四辛同，五亥六甲上，七癸八寅从，九丙十居乙，子巳丑庚逢。"""
    assert table("tiande_gan") == "丁申壬辛亥甲癸寅丙乙巳庚"
    assert star("tiande_gan")["kind"] == "stem"


def test_tiande_gan_example():
    """如寅建丁亥子孙发动，以丁为天德也"""
    assert star("tiande_gan")["positions"]["寅"] == ["丁"]


def test_tiande_gan_note_readings():
    """历日所载，坤乾艮巽，即申亥寅巳尔，其土德周遍，故不列天德也 … 卯内人元癸，天与阳贵坤中壬水助之 … 午内乙，天与阳贵乾中甲木助之"""
    none = variant("tiande_gan", "不列天德")["positions"]
    assert {m: none[m] for m in "卯午酉子"} == {"卯": [], "午": [], "酉": [], "子": []}
    assert "".join(none[m][0] for m in "寅辰巳未申戌亥丑") == "丁壬辛甲癸丙乙庚"
    help_ = variant("tiande_gan", "阳干")["positions"]
    assert help_["卯"] == ["壬"] and help_["午"] == ["甲"]
    assert help_["酉"] == ["丙"] and help_["子"] == ["庚"]  # 余六位仿此: 艮中丙, 巽中庚


def test_yuede():
    """月德自未而顺行"""
    assert table("yuede") == "未申酉戌亥子丑寅卯辰巳午"


def test_yuede_gan():
    """天干月德寅午戌建而举丙，亥卯未建而举甲，巳酉丑月德在庚，申子辰月德在壬"""
    assert table("yuede_gan") == "丙甲壬庚丙甲壬庚丙甲壬庚"


# ------------------------------------------------------------------ 贵人

YANG = {"甲": "未", "乙": "申", "丙": "酉", "丁": "亥", "戊": "丑", "己": "子", "庚": "丑", "辛": "寅", "壬": "卯", "癸": "巳"}


def test_yanggui_body():
    """甲合己而在子，己以子为阳贵；乙合庚而在丑，庚以丑为阳贵；丙合辛而在寅，辛以寅为阳贵；丁合壬而在卯，壬以卯为阳贵；
    戊合癸而在巳，癸以巳为阳贵；己合甲而在未，甲以未为阳贵；庚合乙而在申，乙以申为阳贵；辛合丙而在酉，丙以酉为阳贵；
    壬合丁而在亥，丁以亥为阳贵；癸合戊而在丑，戊以丑为阳贵"""
    assert sets("tianyi_guiren_yang") == {k: {v} for k, v in YANG.items()}


def test_yanggui_verse():
    """甲羊戊庚牛，乙猴巳(己)鼠头，丙鸡丁猪走，壬兔癸蛇游，六辛骑猛虎，阳贵用斯求。"""
    assert sets("tianyi_guiren_yang") == stem_sets(
        {"甲": "未", "戊庚": "丑", "乙": "申", "己": "子", "丙": "酉", "丁": "亥", "壬": "卯", "癸": "巳", "辛": "寅"}
    )


def test_yingui_verse():
    """甲牛戊庚羊，乙鼠巳(己)猴乡，丙鸡丁猪位，壬蛇癸兔藏，六辛乘骏马，阴贵用心详。"""
    as_printed = {"甲": "丑", "戊庚": "未", "乙": "子", "己": "申", "丙": "酉", "丁": "亥", "壬": "巳", "癸": "卯", "辛": "午"}
    assert sets("tianyi_guiren_yin", variant("tianyi_guiren_yin", "照印本")["positions"]) == stem_sets(as_printed)
    # Primary: 阴贵亦然 — the mirror of the 阳 placement; the verse's 丙丁 line repeats the 阳 line.
    primary = dict(as_printed, 丙="亥", 丁="酉")
    assert sets("tianyi_guiren_yin") == stem_sets(primary)


def test_tianyi_union_yishi_bufen_yinyang():
    """易筮不分阴阳。"""
    yin = {"甲": "丑", "乙": "子", "丙": "亥", "丁": "酉", "戊": "未", "己": "申", "庚": "未", "辛": "午", "壬": "巳", "癸": "卯"}
    assert sets("tianyi_guiren") == {s: {YANG[s], yin[s]} for s in STEMS}
    printed = sets("tianyi_guiren", variant("tianyi_guiren", "印本")["positions"])
    assert printed["丙"] == {"酉"} and printed["丁"] == {"亥"}


# ------------------------------------------------------------------ 禄食


def test_fuxing():
    """甲之五遁，丙为食神，故寅为福；乙之五遁，丁为食神，丑亥为福星也。
    法曰：甲虎乙猪牛，丙同犬鼠游，丁鸡戊猴走，己羊庚马头，辛蛇癸逐兔，壬日占龙楼。"""
    assert sets("fuxing") == stem_sets(
        {"甲": "寅", "乙": "亥丑", "丙": "戌子", "丁": "酉", "戊": "申", "己": "未", "庚": "午", "辛": "巳", "癸": "卯", "壬": "辰"}
    )


def test_tianchu():
    """故甲以巳为天厨 … 故癸以亥为天厨也。
    法曰：甲丁蛇位号天厨，丙鼠壬鸡癸伴猪，乙戊辛干皆向马，己猴庚虎福神殊。"""
    assert star("tianchu")["positions"]["甲"] == ["巳"] and star("tianchu")["positions"]["癸"] == ["亥"]
    assert sets("tianchu") == stem_sets({"甲丁": "巳", "丙": "子", "壬": "酉", "癸": "亥", "乙戊辛": "午", "己": "申", "庚": "寅"})


def test_tianyuanlu():
    """甲木生亥，临官于寅，乙木生午，临官于卯，丙戊生于寅，临官于巳，丁己生于酉，临官在午，阴阳顺逆，各以类推。"""
    assert sets("tianyuanlu") == stem_sets({"甲": "寅", "乙": "卯", "丙戊": "巳", "丁己": "午", "庚": "申", "辛": "酉", "壬": "亥", "癸": "子"})


def test_tiancai_dicai():
    """正月以辰为天财，巳为地财 … 法曰：正七起龙蛇，二八马羊家，三九循申酉，四十犬豕牙，子午鼠牛索，丑未寅卯查"""
    assert table("tiancai") == "辰午申戌子寅辰午申戌子寅"
    assert table("dicai") == "巳未酉亥丑卯巳未酉亥丑卯"
    assert table("tiancai", variant("tiancai", "逐月")["positions"]) == "辰巳午未申酉戌亥子丑寅卯"


def test_wenchang():
    """甲禄在寅，逾三位而巳是也。… 是以辛以戌为文昌也。
    法曰：甲蛇乙马号文昌，丁己寻鸡辛犬方，庚猪癸兔壬从虎，丙戊扬猴最吉祥。"""
    assert star("wenchang_ri")["positions"]["辛"] == ["戌"]
    assert sets("wenchang_ri") == stem_sets({"甲": "巳", "乙": "午", "丁己": "酉", "辛": "戌", "庚": "亥", "癸": "卯", "壬": "寅", "丙戊": "申"})


# ------------------------------------------------------------------ 将星十二神


def test_jiangxing_series_for_haimaowei():
    """故亥卯未，将星在卯，辰为攀鞍，巳为驾马，马前为六害午也，害前为华盖未也，将后为七煞，自申至寅七位是也。"""
    series = [
        "jiangxing",
        "panan",
        "yima",
        "liuhai_jiangxing",
        "huagai",
        "jiesha",
        "zaisha",
        "tiansha",
        "disha",
        "niansha",
        "yuesha_jiangxing",
        "wangren_jiangxing",
    ]
    for m in "亥卯未":
        assert "".join(star(s)["positions"][m][0] for s in series) == "卯辰巳午未申酉戌亥子丑寅"


def test_jiangxing_for_yinwuxu():
    """如寅午戌，将星在午，则以未为攀鞍，申为驾马矣"""
    for m in "寅午戌":
        assert star("jiangxing")["positions"][m] == ["午"]
        assert star("panan")["positions"][m] == ["未"]
        assert star("yima")["positions"][m] == ["申"]


def test_jiangxing_is_the_centre():
    """将星法起中神，子午卯酉，正中位也"""
    assert table("jiangxing") == "午卯子酉午卯子酉午卯子酉"


def test_yima_verse():
    """驿马法曰：寅午戌马居申，亥卯未马在巳，申子辰成(马)居寅，巳酉丑马在亥。"""
    assert table("yima") == "申巳寅亥申巳寅亥申巳寅亥"


# ------------------------------------------------------------------ 天马 天喜 喜神


def test_tianma():
    """正月用乾四爻为天马，二月五爻申 … 法曰：正七还骑马，二八向猴申，三九须从犬，四十鼠相侵，五十一当寅上，六十二定归辰。"""
    assert table("tianma") == "午申戌子寅辰午申戌子寅辰"


def test_tianxi_body():
    """孟春建寅，则喜在戌，仲春建卯，则喜在亥，季春建辰，则喜在子"""
    assert star("tianxi")["positions"]["寅"] == ["戌"]
    assert star("tianxi")["positions"]["卯"] == ["亥"]
    assert star("tianxi")["positions"]["辰"] == ["子"]


def test_tianxi_verse():
    """法曰：春戌夏丑为天喜，秋辰冬未三三指。 (each season starts there and counts three)"""
    assert table("tianxi") == "戌亥子丑寅卯辰巳午未申酉"
    assert table("tianxi", variant("tianxi", "按季")["positions"]) == by_season("戌", "丑", "辰", "未")


def test_xishen_body():
    """故甲己五遁得丙寅，则喜神在寅也，乙庚五遁得丙戌，则喜神在戌矣 — the primary: one branch, not the palace."""
    branch = sets("xishen")
    assert branch["甲"] == branch["己"] == {"寅"}
    assert branch["乙"] == branch["庚"] == {"戌"}
    # the same rule for the three pairs the body leaves out: where 丙 falls in the 五虎遁
    # (丙辛 庚寅 … 丙申, 丁壬 壬寅 … 丙午, 戊癸 甲寅 乙卯 丙辰)
    assert branch == stem_sets({"甲己": ["寅"], "乙庚": ["戌"], "丙辛": ["申"], "丁壬": ["午"], "戊癸": ["辰"]})
    assert star("xishen")["kind"] == "branch"


def test_xishen_verse_is_the_variant():
    """喜神法曰：甲己东北乙庚乾，丙辛独位向坤言，丁壬二日离宫上，戊癸东南喜事连。"""
    palace = sets("xishen", variant("xishen", "歌诀")["positions"])
    assert palace == stem_sets({"甲己": ["艮"], "乙庚": ["乾"], "丙辛": ["坤"], "丁壬": ["离"], "戊癸": ["巽"]})
    # each primary branch lies in its verse palace (艮 丑寅, 乾 戌亥, 坤 未申, 离 午, 巽 辰巳)
    cover = {"艮": "丑寅", "乾": "戌亥", "坤": "未申", "离": "午", "巽": "辰巳"}
    for s in STEMS:
        assert star("xishen")["positions"][s][0] in cover[palace[s].pop()]


# ------------------------------------------------------------------ 天赦 天解 月解 喝散


def test_tianshe():
    """故冬至甲子为天赦；春首戊寅，夏至甲午，秋首戊申"""
    pos = star("tianshe")["positions"]
    assert [pos[m] for m in MONTHS] == [["戊寅"]] * 3 + [["甲午"]] * 3 + [["戊申"]] * 3 + [["甲子"]] * 3
    assert star("tianshe")["kind"] == "ganzhi"


def test_tianshe_the_four_days():
    """先王以二至及春秋首日，大赦天下，故后世以是日为天赦 — 二至 冬至 夏至 (子月 午月), 春秋首日 立春 立秋
    (they open 寅月 and 申月): not the equinoxes (卯月 酉月)."""
    four = variant("tianshe", "二至")["positions"]
    assert {m: v for m, v in four.items() if v} == {"寅": ["戊寅"], "午": ["甲午"], "申": ["戊申"], "子": ["甲子"]}
    assert four["卯"] == four["酉"] == []


def test_tianjie():
    """天解春以寅，夏以巳，秋以申，冬以亥。"""
    assert table("tianjie") == by_season("寅", "巳", "申", "亥")


def test_yuejie():
    """月解法，九十月午，子丑月未，正二月申，三四月酉，五六月戌，七八月亥。"""
    assert table("yuejie") == "申申酉酉戌戌亥亥午午未未"


def test_hesan():
    """喝散，春木根萌在亥，巳能刈之 … 法曰：春巳夏居申，秋猪冬到寅是也。"""
    assert table("hesan") == by_season("巳", "申", "亥", "寅")


# ------------------------------------------------------------------ 天医 活曜


def test_tianyi_note_examples():
    """故正月以丁卯为天医 … 三月丙遁得丁酉，乃弗居而易丑，故三月则以丁丑为天医。"""
    assert star("tianyi")["positions"]["寅"] == ["卯"]
    assert star("tianyi")["positions"]["辰"] == ["丑"]


def test_tianyi_verse():
    """法曰：天医正卯二猪临，三月随牛四未寻，五蛇六兔七居亥，八丑九羊十巳存，十一再来寻卯上，十二亥上作医人。"""
    assert table("tianyi") == "卯亥丑未巳卯亥丑未巳卯亥"


def test_tianyi_note_month_by_month():
    """二月乙遁得丁亥 … 四月丁遁得丁未，五月戊遁得丁巳，六月己遁复得丁卯，余丁丑，七月庚遁复得丁亥，八月辛遁复得丁酉，
    违酉从丑，九月壬遁复得丁未，十月癸遁复得丁巳，十一月甲遁复得丁卯，十二月乙遁复得丁亥终焉"""
    ganzhi = variant("tianyi", "整干支")["positions"]
    assert "".join(ganzhi[m][0] for m in MONTHS) == "丁卯丁亥丁丑丁未丁巳丁卯丁亥丁丑丁未丁巳丁卯丁亥"
    also = variant("tianyi", "兼取丁丑")["positions"]
    assert set(also["寅"]) == {"卯", "丑"} and set(also["未"]) == {"卯", "丑"}


def test_huoyao():
    """活曜法，正月从卯顺行。"""
    assert table("huoyao") == "卯辰巳午未申酉戌亥子丑寅"


# ------------------------------------------------------------------ 雷火 旌旗 网罗


def test_leihuo():
    """寅午戌月起于寅，申子辰月起于申 … 其法正寅二亥，三申四巳，循环三复是焉。"""
    assert table("leihuo") == "寅亥申巳寅亥申巳寅亥申巳"


def test_wangluo_same_as_leihuo():
    """然网罗同之。"""
    assert table("wangluo") == "寅亥申巳寅亥申巳寅亥申巳"


def test_jingqi():
    """震为旌旗煞，故起卯，逆征四圉是谓旌旗。（… 旌旗春卯夏子秋酉冬子。）"""
    assert table("jingqi") == by_season("卯", "子", "酉", "午")  # 逆征四圉 from 卯: 卯 子 酉 午
    assert table("jingqi", variant("jingqi", "冬子")["positions"]) == by_season("卯", "子", "酉", "子")
    assert table("jingqi", variant("jingqi", "逐月")["positions"]) == "卯子酉午卯子酉午卯子酉午"


# ------------------------------------------------------------------ 天耳 天目


def test_tianer_tianmu():
    """以四季行四位，春巳夏寅秋亥冬申天耳也，春亥夏申秋巳冬寅天目也。"""
    assert table("tianer") == by_season("巳", "寅", "亥", "申")
    assert table("tianmu") == by_season("亥", "申", "巳", "寅")


def test_tianer_tianmu_order_of_the_body():
    """目视上，故始天门，从亥申巳寅为次。耳听下，故始地户，从巳寅亥申为次。"""
    assert "".join(star("tianmu")["positions"][m][0] for m in "寅巳申亥") == "亥申巳寅"
    assert "".join(star("tianer")["positions"][m][0] for m in "寅巳申亥") == "巳寅亥申"


# ------------------------------------------------------------------ 渔猎 畜牧


def test_tiangang_sha():
    """天罡煞，寅卯辰巳之谓也 … 二卯三辰四巳 … 复寅而三重之"""
    assert table("tiangang_sha") == "寅卯辰巳寅卯辰巳寅卯辰巳"


def test_tianquan():
    """天犬正月从戌顺行"""
    assert table("tianquan") == "戌亥子丑寅卯辰巳午未申酉"


def test_tianzhu_tianshu_tianniu():
    """猪鼠牛正月从亥子丑逆行也"""
    assert table("tianzhu_xumu") == "亥戌酉申未午巳辰卯寅丑子"
    assert table("tianshu") == "子亥戌酉申未午巳辰卯寅丑"
    assert table("tianniu") == "丑子亥戌酉申未午巳辰卯寅"


# ------------------------------------------------------------------ 腾蛇 暗金 破碎


def test_datengshe():
    """正月自辰起逆行，专务惊滞"""
    assert table("datengshe") == "辰卯寅丑子亥戌酉申未午巳"


def test_anjin():
    """暗金以巳酉丑，自正月四轮复数是也，亦名红纱"""
    assert table("anjin") == "巳酉丑巳酉丑巳酉丑巳酉丑"


def test_posui():
    """破碎以丑酉巳，自丑月起 … 法曰：辰戌丑未月在丑，寅申巳亥月在酉，子午卯酉月在蛇"""
    assert table("posui") == "酉巳丑酉巳丑酉巳丑酉巳丑"
    assert star("posui")["positions"]["丑"] == ["丑"]


# ------------------------------------------------------------------ 耗 废


def test_dahao_xiaohao():
    """正月起申顺行为大耗，起未顺行为小耗"""
    assert table("dahao") == "申酉戌亥子丑寅卯辰巳午未"
    assert table("xiaohao") == "未申酉戌亥子丑寅卯辰巳午"


def test_huangwu():
    """荒芜之法，春巳酉丑，夏辰申子，秋卯未亥，冬寅午戌。"""
    got = sets("huangwu")
    for ms, want in (("寅卯辰", "巳酉丑"), ("巳午未", "辰申子"), ("申酉戌", "卯未亥"), ("亥子丑", "寅午戌")):
        for m in ms:
            assert got[m] == set(want)


def test_yuekong():
    """月空之法，寅午戌月壬废为月空。… 亥卯未月庚废 … 申子辰月丙废 … 巳酉丑月甲废"""
    assert table("yuekong") == "壬庚丙甲壬庚丙甲壬庚丙甲"
    assert star("yuekong")["kind"] == "stem"


def test_yuesha_yuekong():
    """壬水衰于丑，故丑为月煞，亥卯未月庚废戌煞，申子辰月丙废未煞，巳酉丑月甲废辰煞"""
    assert table("yuesha_yuekong") == "丑戌未辰丑戌未辰丑戌未辰"


# ------------------------------------------------------------------ 贼 火


def test_tianzei_verse():
    """法曰：正龙二鸡三虎乡，四羊五鼠六蛇藏，七犬八兔九猴位，十牛子马丑猪忙，是天贼也。"""
    assert table("tianzei_manpokai") == "辰酉寅未子巳戌卯申丑午亥"


def test_tianzei_body():
    """春之天贼，辰满酉破寅开也，秋之天贼，戌满卯破申开也。"""
    assert "".join(star("tianzei_manpokai")["positions"][m][0] for m in "寅卯辰") == "辰酉寅"
    assert "".join(star("tianzei_manpokai")["positions"][m][0] for m in "申酉戌") == "戌卯申"


def test_tiangou_suizei_readings():
    """随贼而吠，天狗也，其义欲除之、执之、收之。… 天狗随之冲击也。"""
    # 除 执 收 of 孟 仲 季: 寅除卯, 卯执申, 辰收丑 …
    assert table("tiangou_suizei") == "卯申丑午亥辰酉寅未子巳戌"
    assert table("tiangou_suizei", variant("tiangou_suizei", "冲")["positions"]) == "戌卯申丑午亥辰酉寅未子巳"
    assert table("tiangou_suizei", variant("tiangou_suizei", "同位")["positions"]) == "辰酉寅未子巳戌卯申丑午亥"


def test_dizei():
    """故地贼出丑而逆行焉。"""
    assert table("dizei") == "丑子亥戌酉申未午巳辰卯寅"


def test_tianzhu_huozai():
    """法曰：天烛正月起蛇宫，荡荡顺行数至龙"""
    assert table("tianzhu_huozai") == "巳午未申酉戌亥子丑寅卯辰"


def test_tianhuo():
    """天火，以寅午戌月火局胎于子。四域，子午卯酉四正也，五九月又起子，故一岁三复。 火神顺鉴四域"""
    assert table("tianhuo") == "子卯午酉子卯午酉子卯午酉"
    assert table("tianhuo", variant("tianhuo", "胎")["positions"]) == "子酉午卯子酉午卯子酉午卯"


# ------------------------------------------------------------------ 天官符 生死气 锤门


def _palaces(year):
    return "".join(star("tianguanfu")["positions"][year][m][0] for m in MONTHS)


def test_tianguanfu_zi_year_example():
    """如子年乃水局临官于亥入中宫，即十月在中宫顺行，即十一月在乾，十二月在兑，进三复退，即是本年，正月入中宫，二月乾，
    三月兑，四月艮，五月离，六坎，七坤，八震，九巽，乃终。设如七月占，若鬼动坤宫，为天官符也"""
    pos = star("tianguanfu")["positions"]["子"]
    want = {
        "亥": "中宫",
        "子": "乾",
        "丑": "兑",
        "寅": "中宫",
        "卯": "乾",
        "辰": "兑",
        "巳": "艮",
        "午": "离",
        "未": "坎",
        "申": "坤",
        "酉": "震",
        "戌": "巽",
    }
    assert {m: pos[m] for m in MONTHS} == {m: [want[m]] for m in MONTHS}


def test_tianguanfu_other_years_by_the_rule():
    """以年局临官于中宫起寅巳申亥，进三位而复退起中宫，顺行九宫"""
    pos = star("tianguanfu")["positions"]
    # 申子辰 years: 水局 临官 亥 — same as 子
    for y in "申辰":
        assert pos[y] == pos["子"]
    # 亥卯未 years: 木局 临官 寅 → 寅中宫 卯乾 辰兑, 巳中宫 午乾 未兑 申艮 酉离 戌坎 亥坤 子震 丑巽
    want_mao = {
        "寅": "中宫",
        "卯": "乾",
        "辰": "兑",
        "巳": "中宫",
        "午": "乾",
        "未": "兑",
        "申": "艮",
        "酉": "离",
        "戌": "坎",
        "亥": "坤",
        "子": "震",
        "丑": "巽",
    }
    # 寅午戌 years: 火局 临官 巳 → 巳中宫 午乾 未兑, 申中宫 酉乾 戌兑 亥艮 子离 丑坎 寅坤 卯震 辰巽
    want_wu = {
        "巳": "中宫",
        "午": "乾",
        "未": "兑",
        "申": "中宫",
        "酉": "乾",
        "戌": "兑",
        "亥": "艮",
        "子": "离",
        "丑": "坎",
        "寅": "坤",
        "卯": "震",
        "辰": "巽",
    }
    # 巳酉丑 years: 金局 临官 申 → 申中宫 酉乾 戌兑, 亥中宫 子乾 丑兑 寅艮 卯离 辰坎 巳坤 午震 未巽
    want_you = {
        "申": "中宫",
        "酉": "乾",
        "戌": "兑",
        "亥": "中宫",
        "子": "乾",
        "丑": "兑",
        "寅": "艮",
        "卯": "离",
        "辰": "坎",
        "巳": "坤",
        "午": "震",
        "未": "巽",
    }
    for years, want in (("亥卯未", want_mao), ("寅午戌", want_wu), ("巳酉丑", want_you)):
        for y in years:
            assert {m: pos[y][m] for m in MONTHS} == {m: [want[m]] for m in MONTHS}, y
    fixed = variant("tianguanfu", "正月恒入中宫")["positions"]
    assert all(fixed[y] == pos["子"] for y in BRANCHES)


_NINE = ("中宫", "乾", "兑", "艮", "离", "坎", "坤", "震", "巽")
_LINGGUAN = {"水": "亥", "木": "寅", "火": "巳", "金": "申"}
_GROUPS = {"水": "申子辰", "金": "巳酉丑", "火": "寅午戌", "木": "亥卯未"}


def test_tianguanfu_continuous_variant():
    """The other reading flies on from the 临官 month without stepping back: (month - 临官) mod 9."""
    flown = variant("tianguanfu", "连续顺行")["positions"]
    for element, years in _GROUPS.items():
        start = MONTHS.index(_LINGGUAN[element])
        for y in years:
            assert {m: flown[y][m] for m in MONTHS} == {m: [_NINE[(MONTHS.index(m) - start) % 9]] for m in MONTHS}, y
    # the book's only example (子 year) holds under both readings
    assert flown["子"] == star("tianguanfu")["positions"]["子"]


def test_tianguanfu_readings_agreement():
    """Year-month cells where the two readings put 天官符 in the same palace (docs/stars.md)."""
    pos = star("tianguanfu")["positions"]
    flown = variant("tianguanfu", "连续顺行")["positions"]
    agree = {element: sum(pos[y][m] == flown[y][m] for y in years for m in MONTHS) for element, years in _GROUPS.items()}
    assert agree == {"水": 36, "金": 27, "火": 18, "木": 9}  # each of 36 (3 years x 12 months)


def test_shengqi_siqi_guanfu():
    """生气正月从子顺行，死气及官符从午顺行"""
    assert table("shengqi") == "子丑寅卯辰巳午未申酉戌亥"
    assert table("siqi") == "午未申酉戌亥子丑寅卯辰巳"
    assert table("siqi_guanfu") == "午未申酉戌亥子丑寅卯辰巳"


def test_chuimen_guanfu():
    """用艮卦自上而下，法曰：正七虑(虎)行村，二八鼠当门，三九居戌位，四十弄猴狲，五十一骑马走，六十二跳龙门。"""
    assert table("chuimen_guanfu") == "寅子戌申午辰寅子戌申午辰"


# ------------------------------------------------------------------ 狱 刃


def test_tianyu():
    """寅午戌月绝于亥，巳酉丑月绝于寅 … 如申子辰水局绝巳 … 法曰：正月逢亥二月申，三月随蛇四月寅，五月循环绝于亥"""
    assert table("tianyu") == "亥申巳寅亥申巳寅亥申巳寅"


def test_diyu():
    """戌为地网，故地狱自正月起戌逆行，法曰：正牛二未三寅虎，四猴五兔六鸡灾，七辰八戌九月巳，十猪子马丑鼠来。"""
    assert table("diyu") == "戌酉申未午巳辰卯寅丑子亥"
    assert table("diyu", variant("diyu", "歌诀")["positions"]) == "丑未寅申卯酉辰戌巳亥午子"


def test_xueren_xueji():
    """故正三五七九鼠月，以丑寅卯辰巳午为血刃，刃相对，偶袭奇，复名血忌，血因忌上，故二四六八十腊月，以未申酉戌亥子为血忌。"""
    xr, xj = star("xueren")["positions"], star("xueji")["positions"]
    assert "".join(xr[m][0] for m in "寅辰午申戌子") == "丑寅卯辰巳午"
    assert "".join(xj[m][0] for m in "卯巳未酉亥丑") == "未申酉戌亥子"
    assert all(xr[m] == [] for m in "卯巳未酉亥丑") and all(xj[m] == [] for m in "寅辰午申戌子")
    # 血忌之星同血刃: one sequence of twelve
    both = "丑未寅申卯酉辰戌巳亥午子"
    assert table("xueren", variant("xueren", "同一星")["positions"]) == both
    assert table("xueji", variant("xueji", "同一星")["positions"]) == both


def test_yangren():
    """甲禄在寅，则右顺卯为羊刃，乙禄到卯，则左逆寅为羊刃，丙戊禄巳，则右顺午为羊刃，丁己禄午，则左逆巳为羊刃。
    法曰：乙逢寅动当为刃，辛见申摇岂不凶，丁己忌巳癸忧亥"""
    assert sets("yangren") == stem_sets({"甲": "卯", "乙": "寅", "丙戊": "午", "丁己": "巳", "庚": "酉", "辛": "申", "壬": "子", "癸": "亥"})


def test_yangren_jinshi_rejected():
    """近世不分阴阳顺逆，概以禄前一位为刃，至有误认乙禄到卯，辰为羊刃之说，特为正之。"""
    v = variant("yangren", "近世")
    assert "驳" in v["reading"] and v["positions"]["乙"] == ["辰"]


# ------------------------------------------------------------------ 阴煞 折煞 浴盆 咸池


def test_yinsha():
    """法以正七寅、二八辰、三九午、四十申、五十一戌、六十二子，即习重坎之象也。"""
    assert table("yinsha") == "寅辰午申戌子寅辰午申戌子"


def test_zhesha():
    """故寅午戌以酉为折，申子辰以卯为折也。… 如二六十月午为折煞，巳酉丑月子为看(折)煞"""
    assert table("zhesha") == "酉午卯子酉午卯子酉午卯子"


def test_yupen():
    """春木养戌，而辰折之 … 如火养在丑，为未暴折是也。法曰：春辰夏未秋逢戌，冬季推来在丑神"""
    assert table("yupen") == by_season("辰", "未", "戌", "丑")


def test_xianchi():
    """求(法)曰：寅午戌，兔从卯里出，亥卯未，鼠子当头忌，申子辰，鸡叫乱人偷，巳酉丑，跃马南方来。"""
    assert table("xianchi") == "卯子酉午卯子酉午卯子酉午"


# ------------------------------------------------------------------ 丧 墓


def test_tianku():
    """故正未二申三酉四戌，五复未而再三，因名天哭。"""
    assert table("tianku") == "未申酉戌未申酉戌未申酉戌"
    assert table("tianku", variant("tianku", "衰")["positions"]) == "未辰丑戌未辰丑戌未辰丑戌"


def test_sangmen_diaoke_by_month():
    """以寅午戌月墓戌，亥卯未月墓未，申子辰月墓辰，巳酉丑月墓丑，如正月戌为丧门，则辰为吊客。"""
    assert table("sangmen_yue") == "戌未辰丑戌未辰丑戌未辰丑"
    assert table("diaoke_yue") == "辰丑戌未辰丑戌未辰丑戌未"


def test_sangche_and_wangren():
    """盖冬水以巳绝，乘午为丧车。… 法曰：丧车春鸡夏鼠来，秋卯冬午好安排"""
    assert table("sangche") == by_season("酉", "子", "卯", "午")
    assert star("wangren_sangche")["positions"]["子"] == ["巳"]
    assert table("wangren_sangche") == by_season("申", "亥", "寅", "巳")


def test_wumu_sanqiu():
    """故春木墓未，夏火墓戌。… 故春以丑为坵 … 法曰：丑辰未戌三坵煞，羊犬牛龙五墓寻。"""
    assert table("wumu") == by_season("未", "戌", "丑", "辰")
    assert table("sanqiu") == by_season("丑", "辰", "未", "戌")


# ------------------------------------------------------------------ 孤寡 关锁


def test_gu_gua():
    """法曰：寅卯辰，巳孤丑寡，巳午未，申孤辰寡，申酉戌，亥孤未寡，亥子丑，寅孤戌寡"""
    assert table("gu") == by_season("巳", "申", "亥", "寅")
    assert table("gua") == by_season("丑", "辰", "未", "戌")


def test_guansuo():
    """申酉戌月，亥关锁也。… 法曰：春关牛与蛇，夏锁龙猴嗟，秋忌羊猪位，冬犬虎交加。"""
    got = sets("guansuo")
    for ms, want in (("寅卯辰", "丑巳"), ("巳午未", "辰申"), ("申酉戌", "未亥"), ("亥子丑", "戌寅")):
        for m in ms:
            assert got[m] == set(want)
    assert "亥" in got["申"]
    assert table("guansuo", variant("guansuo", "前位")["positions"]) == by_season("巳", "申", "亥", "寅")


# ------------------------------------------------------------------ 行路


def test_wangwang():
    """往亡法曰：正寅二巳三申位，四猪五兔六马悲，七鸡八鼠九辰忌，十羊子犬丑牛危。"""
    assert table("wangwang") == "寅巳申亥卯午酉子辰未戌丑"


def test_guiji():
    """盖子月当子而反孟寅，丑月当丑而反仲子，寅月当寅而反季丑 … 法曰：寅申巳亥牛相犯，子午卯酉虎相攻，辰戌丑未须防鼠"""
    assert table("guiji") == "丑寅子丑寅子丑寅子丑寅子"


def test_juelukong():
    """绝路空法曰：甲己申酉最为愁，乙庚午未不须筹，丙辛辰巳何劳问，丁壬寅卯一场忧，戊癸子丑高堂坐"""
    assert sets("juelukong") == stem_sets({"甲己": "申酉", "乙庚": "午未", "丙辛": "辰巳", "丁壬": "寅卯", "戊癸": "子丑"})
    assert set(variant("juelukong", "戌亥")["positions"]["戊"]) == set("子丑戌亥")


def test_fuzhou_bailang():
    """木绝申为覆舟，正月从申顺行，寅冲申为白浪，正月从寅顺行。"""
    assert table("fuzhou") == "申酉戌亥子丑寅卯辰巳午未"
    assert table("bailang") == "寅卯辰巳午未申酉戌亥子丑"


# ------------------------------------------------------------------ 鹤神

HESHEN = {
    "艮": "己酉 庚戌 辛亥 壬子 癸丑 甲寅",
    "震": "乙卯 丙辰 丁巳 戊午 己未",
    "巽": "庚申 辛酉 壬戌 癸亥 甲子 乙丑",
    "离": "丙寅 丁卯 戊辰 己巳 庚午",
    "坤": "辛未 壬申 癸酉 甲戌 乙亥 丙子",
    "兑": "丁丑 戊寅 己卯 庚辰 辛巳",
    "乾": "壬午 癸未 甲申 乙酉 丙戌 丁亥",
    "坎": "戊子 己丑 庚寅 辛卯 壬辰",
    # 第四十五日上天而居于房北，复五日而入房中 … 复二日迁南 … 复三日而迁西 … 复一日而迁东 … 复四日而迁中宫 … 戊申居中
    "房北": "癸巳 甲午 乙未 丙申 丁酉",
    "房中": "戊戌 己亥",
    "南": "庚子 辛丑 壬寅",
    "西": "癸卯",
    "东": "甲辰 乙巳 丙午 丁未",
    "中宫": "戊申",
}
HEAVEN = ("房北", "房中", "南", "西", "东", "中宫")


def test_heshen():
    """鹤神自天而降，始践于艮 … 因从巳酉(己酉)下地，循环八方，四维六日而更，四正五日而迁，第四十五日上天 … 戊申居中"""
    pos = star("heshen")["positions"]
    assert pos["己酉"] == ["艮"] and pos["戊申"] == ["中宫"]
    want = {g: [d] for d, days in HESHEN.items() for g in days.split()}
    assert len(want) == 60
    assert pos == want
    on_earth = [g for g in GANZHI if pos[g][0] not in HEAVEN]
    assert len(on_earth) == 44  # the 45th day from 己酉, 癸巳, it goes up


def test_heshen_heaven_counts():
    """第四十五日上天而居于房北，复五日而入房中 … 复二日迁南 … 复三日而迁西 … 复一日而迁东 … 复四日而迁中宫 … 戊申居中"""
    # 癸巳 + 5 = 戊戌, + 2 = 庚子, + 3 = 癸卯, + 1 = 甲辰, + 4 = 戊申
    i = GANZHI.index("癸巳")
    for n, want in ((5, "戊戌"), (7, "庚子"), (10, "癸卯"), (11, "甲辰"), (15, "戊申")):
        assert GANZHI[i + n] == want
    ccw = variant("heshen", "逆行")["positions"]
    assert ccw["己酉"] == ["艮"] and ccw["乙卯"] == ["坎"] and ccw["戊子"] == ["震"]
    assert all(ccw[g] == star("heshen")["positions"][g] for g in GANZHI[i : i + 16])  # the same stations in heaven
    # the other count: each number is the days at the new station (房北 1, 房中 5, 南 2, 西 3, 东 1, 中宫 4)
    stay = variant("heshen", "新居")["positions"]
    want = "房北 房中 房中 房中 房中 房中 南 南 西 西 西 东 中宫 中宫 中宫 中宫".split()
    assert [stay[g][0] for g in GANZHI[i : i + 16]] == want
    assert [stay[g][0] for g in GANZHI[i : i + 16]].count("中宫") == 4  # 复四日而迁中宫，合太阴之数 … 戊申居中
    assert stay["己酉"] == ["艮"]


def test_heshen_names_a_station_every_day_in_heaven():
    """The stations, not one label 天上: no table of 鹤神 says 天上."""
    tables = [star("heshen")["positions"], *(v["positions"] for v in star("heshen")["variants"])]
    for pos in tables:
        assert all(pos[g][0] in HEAVEN for g in GANZHI[GANZHI.index("癸巳") :][:16])
        assert all(v != ["天上"] for v in pos.values())


# ------------------------------------------------------------------ 五符十二神

WUFU_SERIES = ["wufu", "tiancao", "difu", "fengbo", "leigong", "yushi", "fengyun", "tangfu", "guoyin", "tianguan", "dixia", "tianzei_wufu"]


def test_wufu_jia_example():
    """盖以甲禄在寅为法，寅乃五符 … 亥为天关，子为地匣 … 故终天贼"""
    assert star("wufu")["positions"]["甲"] == ["寅"]
    assert star("tianguan")["positions"]["甲"] == ["亥"]
    assert star("dixia")["positions"]["甲"] == ["子"]
    assert "".join(star(s)["positions"]["甲"][0] for s in WUFU_SERIES) == "寅卯辰巳午未申酉戌亥子丑"


def test_wufu_fengbo_in_xun():
    """风伯乃巽位"""
    assert star("fengbo")["positions"]["甲"] == ["巳"]  # 巽 = 辰巳


def test_wufu_yin_stems_go_backward():
    """以阴阳禄起五符，阳顺阴逆，周行十二位 … 此从日起。"""
    assert "".join(star(s)["positions"]["乙"][0] for s in WUFU_SERIES) == "卯寅丑子亥戌酉申未午巳辰"
    assert "".join(star(s)["positions"]["庚"][0] for s in WUFU_SERIES) == "申酉戌亥子丑寅卯辰巳午未"
    assert "".join(star(s)["positions"]["癸"][0] for s in WUFU_SERIES) == "子亥戌酉申未午巳辰卯寅丑"
    assert star("wufu")["basis"] == "day_stem"


# ------------------------------------------------------------------ 罡魁


def test_tiangang_hekui():
    """天罡正月起巳顺行，河魁正月起亥顺行"""
    assert table("tiangang_gangkui") == "巳午未申酉戌亥子丑寅卯辰"
    assert table("hekui") == "亥子丑寅卯辰巳午未申酉戌"


# ------------------------------------------------------------------ 太岁十二神

TAISUI_SERIES = ["taisui", "taiyang", "sangmen_sui", "taiyin_sui", "guanfu_sui", "sifu", "suipo", "longde", "baihu", "fude", "diaoke_sui", "bingfu"]


def test_taisui_zi_year():
    """四利三元法：一太岁，二太阳，三丧门，四太阴，五官符，六死符，七岁破，八龙德，九白虎，十福德，十一吊客，十二病符 —
    寅为鬼路，故十二年丧门以寅为始 … 白虎以申为始 … 以辰起官符 … 巳始死符，亥始病符 … 以丑起太阳，卯起太阴，未起龙德，酉起福德"""
    assert "".join(star(s)["positions"]["子"][0] for s in TAISUI_SERIES) == "子丑寅卯辰巳午未申酉戌亥"


def test_taisui_moves_with_the_year():
    """顺行为法也 … 此从年起也。"""
    assert "".join(star(s)["positions"]["午"][0] for s in TAISUI_SERIES) == "午未申酉戌亥子丑寅卯辰巳"
    assert "".join(star("suipo")["positions"][y][0] for y in BRANCHES) == "午未申酉戌亥子丑寅卯辰巳"  # 岁之冲曰岁破


def test_taisui_attached_four():
    """白虎…飞廉附之 … 官符…五鬼附之 … 岁破，栏杆附之 … 吊客，天狗附之"""
    for att, host in (("feilian_sui", "baihu"), ("wugui_sui", "guanfu_sui"), ("langan", "suipo"), ("tiangou_diaoke", "diaoke_sui")):
        assert star(att)["positions"] == star(host)["positions"]
    assert star("feilian_sui")["positions"]["子"] == ["申"]
    assert star("wugui_sui")["positions"]["子"] == ["辰"]
    assert star("langan")["positions"]["子"] == ["午"]
    assert star("tiangou_diaoke")["positions"]["子"] == ["戌"]


def test_four_benefic_year_stars():
    """四利谓四吉星，太阳、太阴、龙德、福德也。"""
    assert {s for s in TAISUI_SERIES if star(s)["nature"] == "吉"} == {"taiyang", "taiyin_sui", "longde", "fude"}


def test_yueshang_feilian_wugui():
    """又有月上飞廉，正月从申逆行，月上五鬼，正月从寅逆行之法"""
    assert table("feilian_yue") == "申未午巳辰卯寅丑子亥戌酉"
    assert table("wugui_yue") == "寅丑子亥戌酉申未午巳辰卯"


# ------------------------------------------------------------------ topics the book assigns


@pytest.mark.parametrize(
    "sid,topic,sentence",
    [
        ("pojun", "婚姻", "唯婚姻才貌坟茔屋宅之占用之"),
        ("ziweiyuan", "造化", "唯造化之占用之"),
        ("jingxing", "身命", "唯岁时身命之占用之"),
        ("fuxing", "禄食", "右二星主禄食"),
        ("tiancai", "求财", "问利自当沙"),
        ("yima", "行人", "行人要星也"),
        ("tianma", "功名", "此星惟利升迁之卜"),
        ("xishen", "出行", "出行顺利"),
        ("tianshe", "刑狱", "刑罪之占"),
        ("tianyi", "疾病", "救疗之神也"),
        ("huoyao", "产育", "为胎育子息之占"),
        ("leihuo", "功名", "大利功名"),
        ("wangluo", "捕盗", "独捕叛用之"),
        ("tianer", "音信", "动而音信当至"),
        ("tiangang_sha", "渔猎", "亦渔猎之吉神也"),
        ("tianniu", "畜牧", "牧养忌之"),
        ("anjin", "产育", "产妇之忌"),
        ("tianguanfu", "词讼", "则成词讼之凶"),
        ("tianyu", "刑狱", "则忧禁怕天狱"),
        ("xueren", "针灸", "针炙占之定不偕"),
        ("yupen", "小儿", "小儿忌之"),
        ("sangche", "疾病", "二法皆忌疾病"),
        ("wangwang", "出行", "行者之戒也"),
        ("guiji", "出行", "爻逢归忌路途凶"),
        ("juelukong", "出行", "如犯空亡莫远游"),
        ("heshen", "出行", "若鬼摇是宫出行是戒"),
        ("tiangang_gangkui", "词讼", "罡主讼"),
        ("hekui", "捕盗", "魁主盗也"),
        ("tiande_gan", "防非", "利用防非"),
    ],
)
def test_topic_assigned_by_the_book(sid, topic, sentence):
    assert topic in star(sid)["topics"]
    assert any(sentence in p for p in CLASSICAL)


def test_natures_stated_by_the_book():
    """耳目本吉宿；天犬吉；天猪天鼠天牛，凶；天马…丧病者嗔；四德俱主福荫"""
    for sid in ("tianer", "tianmu", "tianquan", "tiande", "tiande_gan", "yuede", "yuede_gan", "leihuo"):
        assert star(sid)["nature"] == "吉", sid
    for sid in ("tianzhu_xumu", "tianshu", "tianniu", "tianguanfu", "tiangang_gangkui", "hekui"):
        assert star(sid)["nature"] == "凶", sid
    assert star("tianma")["nature"] == "吉凶"


# ------------------------------------------------------------------ 经星 五纬 on one line


def test_jingxing_wuwei_on_the_top_line_of_qian():
    """如经星入易，乾之上九降参，又降镇星 — the one mapping the book gives, and no table."""
    assert star("jingxing")["hexagram_line"] == [{"hexagram": "乾", "line": 6, "name": "参宿"}]
    assert star("wuwei")["hexagram_line"] == [{"hexagram": "乾", "line": 6, "name": "镇星"}]
    assert [s["id"] for s in STARS if "hexagram_line" in s] == ["jingxing", "wuwei"]


# ------------------------------------------------------------------ names of fixed branches

NAMES = {n["name"]: n for n in tomllib.loads(CATALOGUE.read_text(encoding="utf-8")).get("name", [])}

# 古法以子为帝座，午为端门，卯为雷门，酉为佛境，亥为天门，巳为地户，申为神门，寅为鬼路，辰为天罗，戌为地网，丑为黄泉杀，未为广寒宫也
GUFA = {
    "帝座": "子",
    "端门": "午",
    "雷门": "卯",
    "佛境": "酉",
    "天门": "亥",
    "地户": "巳",
    "神门": "申",
    "鬼路": "寅",
    "天罗": "辰",
    "地网": "戌",
    "黄泉杀": "丑",
    "广寒宫": "未",
}
# 巳为双女宫; 盖火墓在戌 … 故曰文库; 金墓于丑 … 故曰武库也; 丑为刃库; 丑为金库
OTHER_NAMES = {"双女宫": "巳", "文库": "戌", "武库": "丑", "刃库": "丑", "金库": "丑"}


def test_gufa_names_each_name_its_branch():
    assert {n: v["position"] for n, v in NAMES.items() if v["group"] == "古法宫名"} == GUFA
    assert {n: v["position"] for n, v in NAMES.items() if v["group"] == "宫名"} == OTHER_NAMES
    note = next(p for p in CLASSICAL if "古法以子为帝座" in p)
    for name, branch in GUFA.items():
        assert f"{branch}为{name}" in note, name
        assert NAMES[name]["quotes"][0].startswith("古法以子为帝座") and f"{branch}为{name}" in NAMES[name]["quotes"][0]


def test_huangquan_spellings():
    """丑为黄泉杀 — the book writes 杀; 黄泉煞 is the usual spelling."""
    assert {"黄泉煞", "黄泉"} <= set(NAMES["黄泉杀"]["aliases"])


@pytest.mark.parametrize("name", list(NAMES))
def test_fixed_name_quotes_are_verbatim_and_name_it(name):
    n = NAMES[name]
    assert n["quotes"] and n["rule"] and n["notes"]
    for q in n["quotes"]:
        hits = [i for i, p in enumerate(CLASSICAL) if q in p]
        assert hits and min(hits) >= STAR_SECTION_START, q
    assert name in n["quotes"][0] or any(a in n["quotes"][0] for a in n.get("aliases", []))


def test_fixed_names_are_no_star():
    taken = {s["name"] for s in STARS} | {a for s in STARS for a in s["aliases"]} | {s["id"] for s in STARS}
    spellings = [x for n in NAMES.values() for x in (n["name"], *n.get("aliases", []))]
    assert not taken & set(spellings) and len(spellings) == len(set(spellings))
