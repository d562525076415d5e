#!/usr/bin/env python3
"""Re-derive the 京房 八宫 纳甲 chart of the 64 hexagrams from first principles and
compare it, field by field, with the hand-transcribed tests/data/najia_reference.json.

Run by hand:  python tools/build_najia_reference.py [path/to/najia_reference.json]
Exit status 0 when every field agrees, 1 on any mismatch (each one is printed).

Deliberately self-contained: it does not import the yimao package, and it does not read
the transcription to build anything -- the JSON is only the thing compared against.

What is derived, and from what
------------------------------
* Trigrams: 邵雍's 加一倍法 -- 先天 order 乾兑离震巽坎艮坤 is the binary count down
  from 111 with the bottom line as the most significant digit.
* Family: a trigram with a single yang (yin) line is a son (daughter); the position of
  that line gives 长 (1) 中 (2) 少 (3).
* 纳甲 stems: 乾 甲/壬, 坤 乙/癸; 少/中/长 sons take 丙/戊/庚, daughters 丁/己/辛.
* 纳支: 乾 and 长男震 start at 子, each younger son two branches later (坎寅, 艮辰);
  坤 starts at 未, the daughters at 丑, 卯, 巳 (巽, 离, 兑).  Yang trigrams step
  forward by two branches (阳顺), yin trigrams backward (阴逆); the outer trigram starts
  at the branch opposite (对冲, +6) its inner start.
* Branch 五行 from the seasons (寅卯辰 spring ... the last month of each season 土).
* 六亲 from 生克 against the palace element (cycle 木火土金水).
* Palaces: start from the 八纯卦, change line 1, 2, 3, 4, 5 cumulatively (一世..五世),
  change line 4 back (游魂), then restore the inner trigram (归魂).
* Independently, 寻世诀 (天同二世天变五，地同四世地变初，本宫六世三世异，人同游魂人变归)
  and 认宫诀 (一二三六外卦宫，四五游魂内变更，归魂内卦是本宫) read the generation and
  palace off the six lines alone; the two routes must agree.
* 伏神: for each 六亲 absent from the six lines, every line of the palace's pure
  hexagram that carries it, at the same position.
* Names: a King Wen table of (upper, lower) trigrams plus short names; the full name is
  upper image + lower image + short name (X为Y for the doubled ones).  The King Wen table
  is checked against the Unicode character names of U+4DC0..U+4DFF.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
ELEMENT_CYCLE = "木火土金水"  # each generates the next; each overcomes the one two ahead

# ---------------------------------------------------------------- trigrams
XIANTIAN_ORDER = "乾兑离震巽坎艮坤"
IMAGES = dict(zip(XIANTIAN_ORDER, "天泽火雷风水山地"))
# 后天 element of each trigram (乾兑 west 金, 离 south 火, 震巽 east 木, 坎 north 水, 艮坤 土)
TRIGRAM_ELEMENT = {"乾": "金", "兑": "金", "离": "火", "震": "木", "巽": "木", "坎": "水", "艮": "土", "坤": "土"}


def trigram_bits(name: str) -> str:
    """Bottom line first, 1 = yang; 加一倍法 with the bottom line most significant."""
    n = 7 - XIANTIAN_ORDER.index(name)
    return format(n, "03b")  # MSB first == bottom line first


TRIGRAM_BY_BITS = {trigram_bits(t): t for t in XIANTIAN_ORDER}


def family(trigram: str) -> tuple[str, int]:
    """('father'|'mother'|'son'|'daughter', rank 1=长 2=中 3=少)."""
    b = trigram_bits(trigram)
    if b == "111":
        return "father", 0
    if b == "000":
        return "mother", 0
    if b.count("1") == 1:
        return "son", b.index("1") + 1
    return "daughter", b.index("0") + 1


def najia(trigram: str, outer: bool) -> list[tuple[str, str]]:
    """The three (stem, branch) pairs of a trigram, bottom first."""
    kind, rank = family(trigram)
    if kind == "father":
        stem = "壬" if outer else "甲"
    elif kind == "mother":
        stem = "癸" if outer else "乙"
    else:
        # 少 -> 丙/丁, 中 -> 戊/己, 长 -> 庚/辛 (yang stem for sons, yin for daughters)
        stem = STEMS[2 + 2 * (3 - rank) + (kind == "daughter")]
    if kind in ("father", "son"):
        start = BRANCHES.index("子") + 2 * max(rank - 1, 0)
        step = 2  # 阳顺
    else:
        start = BRANCHES.index("未") if kind == "mother" else BRANCHES.index("丑") + 2 * (rank - 1)
        step = -2  # 阴逆
    if outer:
        start += 6
    return [(stem, BRANCHES[(start + step * k) % 12]) for k in range(3)]


def branch_element(branch: str) -> str:
    i = (BRANCHES.index(branch) - BRANCHES.index("寅")) % 12  # 寅 = first month
    season, month = divmod(i, 3)
    return "土" if month == 2 else "木火金水"[season]


def relative(palace_element: str, element: str) -> str:
    d = (ELEMENT_CYCLE.index(element) - ELEMENT_CYCLE.index(palace_element)) % 5
    return {0: "兄弟", 1: "子孙", 2: "妻财", 3: "官鬼", 4: "父母"}[d]


# ---------------------------------------------------------------- hexagrams
def flip(bits: str, *positions: int) -> str:
    b = list(bits)
    for p in positions:
        b[p - 1] = "1" if b[p - 1] == "0" else "0"
    return "".join(b)


GENERATIONS = ["本宫", "一世", "二世", "三世", "四世", "五世", "游魂", "归魂"]
SHI = dict(zip(GENERATIONS, [6, 1, 2, 3, 4, 5, 4, 3]))
PALACE_ORDER = "乾坎艮震巽离坤兑"


def palace_members(palace: str) -> list[str]:
    pure = trigram_bits(palace) * 2
    seq = [pure]
    cur = pure
    for line in range(1, 6):
        cur = flip(cur, line)
        seq.append(cur)
    youhun = flip(cur, 4)
    guihun = trigram_bits(palace) + youhun[3:]
    return seq + [youhun, guihun]


def xunshi(bits: str) -> tuple[str, str]:
    """寻世诀 + 认宫诀: (generation, palace) read from the lines alone."""
    lower, upper = bits[:3], bits[3:]
    same = [lower[k] == upper[k] for k in range(3)]  # 地, 人, 天
    di, ren, tian = same
    table = {
        (True, True, True): "本宫",
        (False, False, False): "三世",
        (False, False, True): "二世",  # 天同
        (True, True, False): "五世",  # 天变
        (True, False, False): "四世",  # 地同
        (False, True, True): "一世",  # 地变
        (False, True, False): "游魂",  # 人同
        (True, False, True): "归魂",  # 人变
    }
    gen = table[(di, ren, tian)]
    if gen in ("本宫", "一世", "二世", "三世"):
        palace = TRIGRAM_BY_BITS[upper]
    elif gen in ("四世", "五世", "游魂"):
        palace = TRIGRAM_BY_BITS[flip(lower, 1, 2, 3)]
    else:
        palace = TRIGRAM_BY_BITS[lower]
    return gen, palace


def chart_lines(bits: str, palace_element: str) -> list[dict]:
    lower, upper = TRIGRAM_BY_BITS[bits[:3]], TRIGRAM_BY_BITS[bits[3:]]
    pairs = najia(lower, outer=False) + najia(upper, outer=True)
    out = []
    for pos, (stem, branch) in enumerate(pairs, 1):
        el = branch_element(branch)
        out.append({"position": pos, "stem": stem, "branch": branch, "element": el, "relative": relative(palace_element, el)})
    return out


# ---------------------------------------------------------------- King Wen / names
KING_WEN = [  # (short name, upper, lower)
    ("乾", "乾", "乾"),
    ("坤", "坤", "坤"),
    ("屯", "坎", "震"),
    ("蒙", "艮", "坎"),
    ("需", "坎", "乾"),
    ("讼", "乾", "坎"),
    ("师", "坤", "坎"),
    ("比", "坎", "坤"),
    ("小畜", "巽", "乾"),
    ("履", "乾", "兑"),
    ("泰", "坤", "乾"),
    ("否", "乾", "坤"),
    ("同人", "乾", "离"),
    ("大有", "离", "乾"),
    ("谦", "坤", "艮"),
    ("豫", "震", "坤"),
    ("随", "兑", "震"),
    ("蛊", "艮", "巽"),
    ("临", "坤", "兑"),
    ("观", "巽", "坤"),
    ("噬嗑", "离", "震"),
    ("贲", "艮", "离"),
    ("剥", "艮", "坤"),
    ("复", "坤", "震"),
    ("无妄", "乾", "震"),
    ("大畜", "艮", "乾"),
    ("颐", "艮", "震"),
    ("大过", "兑", "巽"),
    ("坎", "坎", "坎"),
    ("离", "离", "离"),
    ("咸", "兑", "艮"),
    ("恒", "震", "巽"),
    ("遁", "乾", "艮"),
    ("大壮", "震", "乾"),
    ("晋", "离", "坤"),
    ("明夷", "坤", "离"),
    ("家人", "巽", "离"),
    ("睽", "离", "兑"),
    ("蹇", "坎", "艮"),
    ("解", "震", "坎"),
    ("损", "艮", "兑"),
    ("益", "巽", "震"),
    ("夬", "兑", "乾"),
    ("姤", "乾", "巽"),
    ("萃", "兑", "坤"),
    ("升", "坤", "巽"),
    ("困", "兑", "坎"),
    ("井", "坎", "巽"),
    ("革", "兑", "离"),
    ("鼎", "离", "巽"),
    ("震", "震", "震"),
    ("艮", "艮", "艮"),
    ("渐", "巽", "艮"),
    ("归妹", "震", "兑"),
    ("丰", "震", "离"),
    ("旅", "离", "艮"),
    ("巽", "巽", "巽"),
    ("兑", "兑", "兑"),
    ("涣", "巽", "坎"),
    ("节", "坎", "兑"),
    ("中孚", "巽", "兑"),
    ("小过", "震", "艮"),
    ("既济", "坎", "离"),
    ("未济", "离", "坎"),
]

# A word of each hexagram's Unicode character name (Wilhelm's renderings), to tie the
# King Wen table above to an outside source.
UNICODE_WORD = {
    "乾": "CREATIVE",
    "坤": "RECEPTIVE",
    "屯": "DIFFICULTY",
    "蒙": "FOLLY",
    "需": "WAITING",
    "讼": "CONFLICT",
    "师": "ARMY",
    "比": "HOLDING",
    "小畜": "SMALL TAMING",
    "履": "TREADING",
    "泰": "PEACE",
    "否": "STANDSTILL",
    "同人": "FELLOWSHIP",
    "大有": "POSSESSION",
    "谦": "MODESTY",
    "豫": "ENTHUSIASM",
    "随": "FOLLOWING",
    "蛊": "DECAYED",
    "临": "APPROACH",
    "观": "CONTEMPLATION",
    "噬嗑": "BITING",
    "贲": "GRACE",
    "剥": "SPLITTING",
    "复": "RETURN",
    "无妄": "INNOCENCE",
    "大畜": "GREAT TAMING",
    "颐": "MOUTH",
    "大过": "GREAT PREPONDERANCE",
    "坎": "ABYSMAL",
    "离": "CLINGING",
    "咸": "INFLUENCE",
    "恒": "DURATION",
    "遁": "RETREAT",
    "大壮": "GREAT POWER",
    "晋": "PROGRESS",
    "明夷": "DARKENING",
    "家人": "FAMILY",
    "睽": "OPPOSITION",
    "蹇": "OBSTRUCTION",
    "解": "DELIVERANCE",
    "损": "DECREASE",
    "益": "INCREASE",
    "夬": "BREAKTHROUGH",
    "姤": "COMING TO MEET",
    "萃": "GATHERING",
    "升": "PUSHING",
    "困": "OPPRESSION",
    "井": "WELL",
    "革": "REVOLUTION",
    "鼎": "CAULDRON",
    "震": "AROUSING",
    "艮": "KEEPING STILL",
    "渐": "DEVELOPMENT",
    "归妹": "MARRYING",
    "丰": "ABUNDANCE",
    "旅": "WANDERER",
    "巽": "GENTLE",
    "兑": "JOYOUS",
    "涣": "DISPERSION",
    "节": "LIMITATION",
    "中孚": "INNER TRUTH",
    "小过": "SMALL PREPONDERANCE",
    "既济": "AFTER COMPLETION",
    "未济": "BEFORE COMPLETION",
}

# Simplified -> traditional, character by character.  Two choices of variant: 遯 (the
# classical text's form of 遁) and 恆 (the Taiwan/HK standard form of 恒).
TRAD = dict(zip("为风泽观剥晋遁节济丰师贲损渐恒过随无颐蛊离涣讼复临壮兑谦归", "為風澤觀剝晉遯節濟豐師賁損漸恆過隨無頤蠱離渙訟復臨壯兌謙歸"))


def full_name(short: str, upper: str, lower: str) -> str:
    if upper == lower:
        return f"{upper}为{IMAGES[upper]}"
    return IMAGES[upper] + IMAGES[lower] + short


def traditional(name: str) -> str:
    return "".join(TRAD.get(c, c) for c in name)


def check_king_wen(errors: list[str]) -> dict[str, tuple[int, str]]:
    """Return bits -> (king wen number, short name), after sanity checks."""
    by_bits: dict[str, tuple[int, str]] = {}
    for n, (short, up, lo) in enumerate(KING_WEN, 1):
        bits = trigram_bits(lo) + trigram_bits(up)
        if bits in by_bits:
            errors.append(f"King Wen table: {short} repeats {by_bits[bits]}")
        by_bits[bits] = (n, short)
        uname = unicodedata.name(chr(0x4DC0 + n - 1))
        if UNICODE_WORD[short] not in uname:
            errors.append(f"King Wen {n} {short}: Unicode name is {uname!r}")
    if len(by_bits) != 64:
        errors.append(f"King Wen table covers {len(by_bits)} hexagrams, not 64")
    # 序卦: each pair (2k-1, 2k) is the inverse (综) of the other, or the complement (错)
    # when the inverse is itself.
    for k in range(0, 64, 2):
        a = trigram_bits(KING_WEN[k][2]) + trigram_bits(KING_WEN[k][1])
        b = trigram_bits(KING_WEN[k + 1][2]) + trigram_bits(KING_WEN[k + 1][1])
        inv = a[::-1]
        comp = flip(a, 1, 2, 3, 4, 5, 6)
        if not (b == inv if inv != a else b == comp):
            errors.append(f"King Wen pair {k + 1}/{k + 2} is neither 综 nor 错")
    return by_bits


# ---------------------------------------------------------------- derive + compare
def derive(errors: list[str]) -> list[dict]:
    kw = check_king_wen(errors)
    up_lo = {trigram_bits(lo) + trigram_bits(up): (up, lo) for _, up, lo in KING_WEN}
    out = []
    for palace in PALACE_ORDER:
        element = TRIGRAM_ELEMENT[palace]
        pure_lines = chart_lines(trigram_bits(palace) * 2, element)
        for gen, bits in zip(GENERATIONS, palace_members(palace)):
            g2, p2 = xunshi(bits)
            if (g2, p2) != (gen, palace):
                errors.append(f"{bits}: line-changing gives {palace}{gen}, 寻世诀 gives {p2}{g2}")
            number, short = kw[bits]
            up, lo = up_lo[bits]
            name = full_name(short, up, lo)
            lines = chart_lines(bits, element)
            present = {ln["relative"] for ln in lines}
            hidden = [dict(ln) for ln in pure_lines if ln["relative"] not in present]
            shi = SHI[gen]
            out.append(
                {
                    "name": name,
                    "short_name": short,
                    "traditional_name": traditional(name),
                    "king_wen": number,
                    "unicode": chr(0x4DC0 + number - 1),
                    "bits": bits,
                    "palace": palace,
                    "palace_element": element,
                    "generation": gen,
                    "shi": shi,
                    "ying": (shi + 2) % 6 + 1,
                    "lines": lines,
                    "hidden": hidden,
                }
            )
    if len({h["bits"] for h in out}) != 64:
        errors.append("the eight palaces do not partition the 64 hexagrams")
    return out


def compare(derived: list[dict], transcribed: list[dict], errors: list[str]) -> None:
    if len(transcribed) != len(derived):
        errors.append(f"JSON has {len(transcribed)} entries, expected {len(derived)}")
    for i, (d, t) in enumerate(zip(derived, transcribed)):
        label = f"#{i + 1} {d['name']}"
        if set(t) != set(d):
            errors.append(f"{label}: keys {sorted(set(t) ^ set(d))} differ")
        for key in d:
            if key in ("lines", "hidden"):
                dl, tl = d[key], t.get(key, [])
                if len(dl) != len(tl):
                    errors.append(
                        f"{label} {key}: derived {len(dl)} entries, JSON {len(tl)}: derived {[x['stem'] + x['branch'] + x['relative'] for x in dl]}"
                    )
                for dx, tx in zip(dl, tl):
                    for k in dx:
                        if dx[k] != tx.get(k):
                            errors.append(f"{label} {key} pos {dx['position']} {k}: derived {dx[k]!r}, JSON {tx.get(k)!r}")
                    extra = set(tx) - set(dx)
                    if extra:
                        errors.append(f"{label} {key}: unexpected keys {sorted(extra)}")
            elif t.get(key) != d[key]:
                errors.append(f"{label} {key}: derived {d[key]!r}, JSON {t.get(key)!r}")


def main(argv: list[str]) -> int:
    default = Path(__file__).resolve().parent.parent / "tests" / "data" / "najia_reference.json"
    path = Path(argv[1]) if len(argv) > 1 else default
    errors: list[str] = []
    derived = derive(errors)
    transcribed = json.loads(path.read_text(encoding="utf-8"))
    compare(derived, transcribed, errors)

    # Facts worth printing (from the derivation, not the JSON).
    two = [h["short_name"] for h in derived if len({x["relative"] for x in h["hidden"]}) == 2]
    multi = [h["short_name"] for h in derived if len(h["hidden"]) != len({x["relative"] for x in h["hidden"]})]
    dx = next(h for h in derived if h["short_name"] == "大畜")
    print("hexagrams lacking two 六亲:", " ".join(two), f"({len(two)})")
    print("大畜 伏神:", ", ".join(f"line {x['position']} {x['relative']} {x['stem']}{x['branch']}{x['element']}" for x in dx["hidden"]))
    print("hexagrams whose missing 六亲 sits on two lines of the pure hexagram:", " ".join(multi) if multi else "none")
    for p in PALACE_ORDER:
        rels = [x["relative"] for x in chart_lines(trigram_bits(p) * 2, TRIGRAM_ELEMENT[p])]
        dup = {r for r in rels if rels.count(r) > 1}
        print(f"  {p}为{IMAGES[p]} carries {'/'.join(sorted(dup))} twice (its two 土 lines)")

    if errors:
        print(f"\n{len(errors)} MISMATCH(ES) against {path}:")
        for e in errors:
            print("  " + e)
        return 1
    print(f"\nOK: all 64 hexagrams in {path} agree with the derivation.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
