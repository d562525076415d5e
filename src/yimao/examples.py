"""The worked examples of volume 6, recomputed: each with its sentence, what the book says, what
yimao computes, and whether they agree. `yimao examples` shows them; the tests require them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from yimao.hexagram import HEXAGRAMS
from yimao.pipeline import CastRequest, read
from yimao.stars.catalogue import DIRECTION_BRANCHES, catalogue, position_kind
from yimao.texts import Quote, quote


@dataclass(frozen=True)
class Example:
    id: str
    rule: str
    quote: Quote
    expected: dict[str, Any]
    compute: Callable[[], dict[str, Any]]

    def run(self) -> dict[str, Any]:
        computed = self.compute()
        return {
            "id": self.id,
            "rule": self.rule,
            "quote": self.quote.to_dict(),
            "expected": self.expected,
            "computed": computed,
            "agrees": agrees(self.expected, computed),
        }


def agrees(expected: dict[str, Any], computed: dict[str, Any]) -> bool:
    """Every expected key equals the computed one; an expected `reason` must be among `reasons`."""
    for k, v in expected.items():
        if k == "reason":
            if v not in computed.get("reasons", ()):
                return False
        elif computed.get(k) != v:
            return False
    return True


# --- the rules -----------------------------------------------------------------------------


def _rule(
    hex_: str, rule: str, *, month: str | None = None, day: str | None = None, use: str | None = None, pick: Callable[[Any], bool] = lambda f: True
) -> Callable[[], dict[str, Any]]:
    def compute() -> dict[str, Any]:
        r = read(CastRequest(hex=hex_, month=month, day=day, use=use))
        found = [f for f in r.findings if f.rule == rule and pick(f)]
        if not found:
            return {"holds": False, "reasons": ["no candidate"]}
        f = next((f for f in found if f.holds), found[0])
        return {
            "holds": f.holds,
            "kind": f.kind,
            "element": f.element.value if f.element else None,
            "relative": f.relative.value if f.relative else None,
            "reasons": list(f.reasons),
            "members": [f"{m.branch.value}({m.source.value}{m.position or ''})" for m in f.members],
        }

    return compute


def _element(e: str) -> Callable[[Any], bool]:
    return lambda f: f.element is not None and f.element.value == e


def _shiying_hai() -> dict[str, Any]:
    out = {}
    for h in HEXAGRAMS:
        r = read(CastRequest(hex=h.short_name))
        for f in r.findings:
            if f.rule == "六害" and f.holds and "世应相害" in f.reasons:
                out[h.short_name] = f.kind
    return {"hexagrams": out}


# --- the stars --------------------------------------------------------------------------------


def _positions(star_id: str, cases: dict[str, tuple[str | None, str | None, str | None, str | None]]) -> Callable[[], dict[str, Any]]:
    """Positions of a star for several bases, keyed as the book names them; a direction is shown
    with the branches it covers so that "喜神在寅" can be compared with the palace 艮."""

    def compute() -> dict[str, Any]:
        s = catalogue().by_id[star_id]
        out = {}
        for label, (m, d, y, h) in cases.items():
            pos = s.lookup(s.table, m, d, y, h) or ()
            out[label] = " ".join(pos)
        return out

    return compute


def _stars_at(
    names: dict[str, str], month: str | None = None, day: str | None = None, year: str | None = None, hour: str | None = None
) -> Callable[[], dict[str, Any]]:
    """Positions of several stars (label → star id) for one basis."""

    def compute() -> dict[str, Any]:
        cat = catalogue()
        return {label: " ".join(cat.by_id[i].lookup(cat.by_id[i].table, month, day, year, hour) or ()) for label, i in names.items()}

    return compute


def _covers(star_id: str, cases: dict[str, str], branch_of_case: dict[str, str]) -> Callable[[], dict[str, Any]]:
    def compute() -> dict[str, Any]:
        s = catalogue().by_id[star_id]
        out = {}
        for label, stem in cases.items():
            pos = s.lookup(s.table, None, stem, None, None) or ()
            branches = set()
            for p in pos:
                if position_kind(p) == "direction":
                    branches |= {b.value for b in DIRECTION_BRANCHES[p]}
                elif position_kind(p) == "branch":
                    branches.add(p)
            out[label] = branch_of_case[label] if branch_of_case[label] in branches else " ".join(pos)
        return out

    return compute


def _tiande_on_ding_line() -> dict[str, Any]:
    r = read(CastRequest(hex="兑", moving="4", month="寅", day="甲子"))
    p = next((p for p in r.stars.placements if p.star.id == "tiande_gan"), None)
    line4 = r.chart.lines[3]
    return {
        "line": f"{line4.line.stem.value}{line4.branch.value}{line4.relative.value}",
        "star": p.star.name if p else None,
        "positions": " ".join(p.positions) if p else None,
        "on_moving_line": bool(p and any(h.position == 4 and h.moving for h in p.hits)),
    }


def _zid(day: str, hexagram: str) -> str:
    """An ASCII id: zhugui-shen-kw30 for 申日之离."""
    from yimao.ganzhi import BRANCH_BY_CHAR
    from yimao.hexagram import Hexagram

    return f"zhugui-{BRANCH_BY_CHAR[day].pinyin}-kw{Hexagram.parse(hexagram).king_wen}"


M = {n: b for n, b in zip(("正", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"), "寅卯辰巳午未申酉戌亥子丑")}

EXAMPLES: tuple[Example, ...] = (
    # 助鬼伤身
    *(
        Example(
            _zid(day, h),
            "助鬼伤身",
            quote("是以前贤举申日之离，寅日之咸，亥日之泰者为法。"),
            {"holds": True, "relative": "官鬼"},
            _rule(h, "助鬼伤身", day=day),
        )
        for day, h in (("申", "离"), ("寅", "咸"), ("亥", "泰"))
    ),
    *(
        Example(
            _zid(day, h),
            "助鬼伤身",
            quote("虽长生于日，而巳日之巽，申日之革则非"),
            {"holds": False, "reason": "非真生"},
            _rule(h, "助鬼伤身", day=day),
        )
        for day, h in (("巳", "巽"), ("申", "革"))
    ),
    *(
        Example(
            _zid(day, h),
            "助鬼伤身",
            quote("虽曰助鬼，而午日之坎，酉日之离则非"),
            {"holds": False, "reason": "日生而非长生"},
            _rule(h, "助鬼伤身", day=day),
        )
        for day, h in (("午", "坎"), ("酉", "离"))
    ),
    # 局会
    Example(
        "juhui-qian-jiji",
        "局会",
        quote("如寅建戊戌日，用官得乾之既济是也"),
        {"holds": True, "kind": "动会", "element": "火", "relative": "官鬼"},
        _rule("乾之既济", "局会", month="寅", day="戊戌", use="官", pick=_element("火")),
    ),
    Example(
        "juhui-dun-qian",
        "局会",
        quote("变会如戌建甲寅日，用官得遁之乾是也"),
        {"holds": True, "kind": "变会", "element": "火"},
        _rule("遁之乾", "局会", month="戌", day="甲寅", use="官", pick=_element("火")),
    ),
    Example(
        "juhui-dachu-li",
        "局会",
        quote("伏会如卯建戊寅日，用父得大畜之离是也"),
        {"holds": True, "kind": "伏会", "element": "火", "relative": "父母", "reason": "伏得生"},
        _rule("大畜之离", "局会", month="卯", day="戊寅", use="父", pick=_element("火")),
    ),
    Example(
        "juhui-qian-tai-shishi",
        "局会",
        quote("然寅值空，乃失其始"),
        {"holds": False, "element": "火", "reason": "变失始"},
        _rule("谦之泰", "局会", month="戌", day="己酉", use="官", pick=_element("火")),
    ),
    Example(
        "juhui-qian-tai-xuanzhong",
        "局会",
        quote("戌月悬午，是墓非生，则此火局休囚，不成会矣"),
        {"holds": False, "element": "火", "reason": "悬终"},
        _rule("谦之泰", "局会", month="戌", day="己酉", use="官", pick=_element("火")),
    ),
    Example(
        "juhui-lv-kui",
        "局会",
        quote("如申建甲辰日，用财得履之睽，子伏申下，财乃长生，申为月建，谓之悬始，则水局旺相，故成会尔"),
        {"holds": True, "kind": "伏会", "element": "水", "relative": "妻财", "reason": "悬始"},
        _rule("履之睽", "局会", month="申", day="甲辰", use="财", pick=_element("水")),
    ),
    # 三刑
    Example(
        "xing-kun-dui",
        "三刑",
        quote("酉建庚申日，用财得困之兑是谓真刑"),
        {"holds": True, "kind": "真刑", "relative": "妻财"},
        _rule("困之兑", "三刑", month="酉", day="庚申", use="财", pick=lambda f: f.kind == "真刑"),
    ),
    # 六害
    Example(
        "hai-shiying",
        "六害",
        quote("若姤恒小畜益卦，虽存六害之名，当察其用而权之"),
        {"hexagrams": {"姤": "生害", "恒": "生害", "小畜": "克害", "益": "克害"}},
        _shiying_hai,
    ),
    # stars
    Example(
        "star-pojun",
        "九曜",
        quote("如寅建午时占，以戌加寅起至午时在戌，以戌上为破军，亥是左辅，子是右弼也。"),
        {"破军": "戌", "左辅": "亥", "右弼": "子"},
        _stars_at({"破军": "pojun", "左辅": "zuofu", "右弼": "youbi"}, month="寅", hour="午"),
    ),
    Example(
        "star-wufu-jia",
        "五符",
        quote("盖以甲禄在寅为法，寅乃五符"),
        {"五符": "寅", "天关": "亥", "地匣": "子"},
        _stars_at({"五符": "wufu", "天关": "tianguan", "地匣": "dixia"}, day="甲"),
    ),
    Example(
        "star-tianguanfu-zi",
        "天官符",
        quote(
            "如子年乃水局临官于亥入中宫，即十月在中宫顺行，即十一月在乾，十二月在兑，进三复退，即是本年，正月入中宫，二月乾，三月兑，四月艮，五月离，六坎，七坤，八震，九巽，乃终。"
        ),
        {
            "十月": "中宫",
            "十一月": "乾",
            "十二月": "兑",
            "正月": "中宫",
            "二月": "乾",
            "三月": "兑",
            "四月": "艮",
            "五月": "离",
            "六月": "坎",
            "七月": "坤",
            "八月": "震",
            "九月": "巽",
        },
        _positions(
            "tianguanfu", {f"{n}月": (M[n], None, "子", None) for n in ("十", "十一", "十二", "正", "二", "三", "四", "五", "六", "七", "八", "九")}
        ),
    ),
    Example(
        "star-tianchu",
        "天厨",
        quote("故甲以巳为天厨"),
        {"甲": "巳", "癸": "亥"},
        _positions("tianchu", {"甲": (None, "甲", None, None), "癸": (None, "癸", None, None)}),
    ),
    Example("star-fuxing", "福星", quote("甲之五遁，丙为食神，故寅为福"), {"甲": "寅"}, _positions("fuxing", {"甲": (None, "甲", None, None)})),
    Example(
        "star-xishen",
        "喜神",
        quote("故甲己五遁得丙寅，则喜神在寅也，乙庚五遁得丙戌，则喜神在戌矣"),
        {"甲": "寅", "己": "寅", "乙": "戌", "庚": "戌"},
        _covers("xishen", {"甲": "甲", "己": "己", "乙": "乙", "庚": "庚"}, {"甲": "寅", "己": "寅", "乙": "戌", "庚": "戌"}),
    ),
    Example(
        "star-tianxi",
        "天喜",
        quote("孟春建寅，则喜在戌，仲春建卯，则喜在亥，季春建辰，则喜在子"),
        {"寅月": "戌", "卯月": "亥", "辰月": "子"},
        _positions("tianxi", {"寅月": ("寅", None, None, None), "卯月": ("卯", None, None, None), "辰月": ("辰", None, None, None)}),
    ),
    Example(
        "star-tianyi",
        "天医",
        quote("故正月以丁卯为天医"),
        {"正月": "卯", "三月": "丑"},
        _positions("tianyi", {"正月": ("寅", None, None, None), "三月": ("辰", None, None, None)}),
    ),
    Example(
        "star-heshen",
        "鹤神",
        quote("戊申居中，然后甲子周矣"),
        {"己酉": "艮", "戊申": "中宫"},
        _positions("heshen", {"己酉": (None, "己酉", None, None), "戊申": (None, "戊申", None, None)}),
    ),
    Example(
        "star-jiangxing",
        "将星",
        quote("故亥卯未，将星在卯，辰为攀鞍，巳为驾马，马前为六害午也，害前为华盖未也，将后为七煞，自申至寅七位是也"),
        {
            "将星": "卯",
            "攀鞍": "辰",
            "驿马": "巳",
            "六害": "午",
            "华盖": "未",
            "劫煞": "申",
            "灾煞": "酉",
            "天煞": "戌",
            "地煞": "亥",
            "年煞": "子",
            "月煞": "丑",
            "亡神": "寅",
        },
        _stars_at(
            {
                "将星": "jiangxing",
                "攀鞍": "panan",
                "驿马": "yima",
                "六害": "liuhai_jiangxing",
                "华盖": "huagai",
                "劫煞": "jiesha",
                "灾煞": "zaisha",
                "天煞": "tiansha",
                "地煞": "disha",
                "年煞": "niansha",
                "月煞": "yuesha_jiangxing",
                "亡神": "wangren_jiangxing",
            },
            month="卯",
        ),
    ),
    Example(
        "star-yima",
        "驿马",
        quote("如寅午戌，将星在午，则以未为攀鞍，申为驾马矣"),
        {"寅月": "申", "午月": "申", "戌月": "申"},
        _positions("yima", {"寅月": ("寅", None, None, None), "午月": ("午", None, None, None), "戌月": ("戌", None, None, None)}),
    ),
    Example(
        "star-taisui-zi",
        "太岁",
        quote("一太岁，二太阳，三丧门，四太阴，五官符，六死符，七岁破，八龙德，九白虎，十福德，十一吊客，十二病符，此从年起也。"),
        {
            "太岁": "子",
            "太阳": "丑",
            "丧门": "寅",
            "太阴": "卯",
            "官符": "辰",
            "死符": "巳",
            "岁破": "午",
            "龙德": "未",
            "白虎": "申",
            "福德": "酉",
            "吊客": "戌",
            "病符": "亥",
        },
        _stars_at(
            {
                "太岁": "taisui",
                "太阳": "taiyang",
                "丧门": "sangmen_sui",
                "太阴": "taiyin_sui",
                "官符": "guanfu_sui",
                "死符": "sifu",
                "岁破": "suipo",
                "龙德": "longde",
                "白虎": "baihu",
                "福德": "fude",
                "吊客": "diaoke_sui",
                "病符": "bingfu",
            },
            year="子",
        ),
    ),
    Example(
        "star-tiande",
        "天德",
        quote("天德之星，正月起亥而顺行"),
        {"正月": "亥", "二月": "子"},
        _positions("tiande", {"正月": ("寅", None, None, None), "二月": ("卯", None, None, None)}),
    ),
    Example(
        "star-tiande-ding",
        "天德",
        quote("如寅建丁亥子孙发动，以丁为天德也"),
        {"line": "丁亥子孙", "star": "天干天德", "positions": "丁", "on_moving_line": True},
        _tiande_on_ding_line,
    ),
)


def run_all() -> list[dict[str, Any]]:
    return [e.run() for e in EXAMPLES]


__all__ = ["EXAMPLES", "agrees", "run_all"]
