"""Simplified and traditional characters (简繁), through OpenCC.

yimao keeps its text in simplified characters, as the shipped volume is, and prints it that way
by default. On request every string a command prints is converted by OpenCC: the standard
traditional form ("t", OpenCC's s2t), or the forms of Taiwan ("tw", s2tw) or Hong Kong ("hk",
s2hk). Input is accepted in either script: a name not found as typed is looked up again in its
simplified form (OpenCC's t2s).

A general converter reads the terms of art as everyday words: alone, the branch 丑 becomes 醜
(ugly), the stem 干 becomes 幹 or 乾, 占 (to divine) becomes 佔 (to occupy), 吉凶's 凶 becomes
兇. The terms in PROTECTED are therefore taken out of the text before it is converted and put
back in the form the books print (docs/conventions.md lists them, with the reason for each).

OpenCC is loaded on the first conversion only: a command that prints simplified text never
imports it (docs/performance.md).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

# The scripts output can be asked in, by the name the option takes, and OpenCC's configuration
# for each. "s" is the text as kept.
SCRIPTS = {"s": "", "t": "s2t", "tw": "s2tw", "hk": "s2hk"}
SCRIPT_NAMES = {"s": "简体", "t": "繁體", "tw": "臺灣正體", "hk": "香港繁體"}

# simplified → as printed in traditional output, whatever the region. Each is a term of art that
# OpenCC, reading it as an everyday word, converts wrongly or inconsistently (figures from the
# whole of yimao's text: docs/conventions.md).
PROTECTED: dict[str, str] = {
    "丑": "丑",  # the branch: OpenCC gives 醜 alone and in 186 of 225 places (丑土, 黄泉煞 at 丑)
    "干": "干",  # the stem (天干, 日干, 阴干): OpenCC gives 幹 or, in 阴干禄, 乾
    "于": "于",  # the text's 于, kept: simplification merged 於 into 于, and which the edition printed cannot be told
    "占": "占",  # to divine (占讼, 来占): OpenCC gives 佔 in 59 of 69 places
    "凶": "凶",  # 吉凶: OpenCC gives 兇 in 36 of 57 places
    "冲": "沖",  # 六冲, 相冲, 冲散, as the 六爻 books print it: OpenCC gives 衝 or 沖 by the word around it
    "合": "合",  # 三合, 六合: OpenCC gives 閤 in 三合中位
    "咸": "咸",  # the hexagram 泽山咸 and 咸池: OpenCC gives 鹹 (salty)
    "斗": "斗",  # the Dipper (斗柄): OpenCC gives 鬥 alone
    "征": "征",  # to march against (以征不仁, 逆征四圉), every 征 of the text: OpenCC gives 徵 (a sign)
    "吊客": "弔客",  # the star, as its tables print it: OpenCC gives 吊客 after a number (十一吊客)
    "太冲": "太衝",  # the 六壬 general of 卯, whose name is not the 冲 of branches
    "神后": "神后",  # the 六壬 general of 子: OpenCC gives 神後 alone
    "克": "克",  # 生克, 日克, 回头克: OpenCC keeps 克 in the text (34 of 34) but gives 剋 in some of yimao's words (巳剋日申): one form
    "了": "了",  # the particle (破了然后才开): OpenCC gives 瞭 in 2 of the text's 22
}
# traditional (as typed) → simplified, where OpenCC's t2s mistakes a term: 乾 the hexagram and
# trigram is never 干 (t2s gives 干为天 for 乾爲天), and 遯 is the hexagram 遁.
PROTECTED_INPUT: dict[str, str] = {"乾": "乾", "遯": "遁"}


@cache  # compiled on the first conversion: a simplified command does without
def _alternation(terms: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(sorted(map(re.escape, terms), key=len, reverse=True)))


def script_of(value: Any) -> str:
    """The script an option or a request asks for: False/None/"s" simplified, True/"t" traditional,
    "tw", "hk" (any case)."""
    if value is None or value is False:
        return "s"
    if value is True:
        return "t"
    if isinstance(value, str) and value.strip().lower() in SCRIPTS:
        return value.strip().lower()
    from yimao.errors import NotationError, shown

    raise NotationError(f"not a script: {shown(value)}", value, tuple(SCRIPTS))


@cache
def _converter(config: str) -> Any:
    import opencc  # loaded here: a simplified command never pays for it

    return opencc.OpenCC(config)


def convert(text: str, script: str = "t") -> str:
    """`text` (simplified) in `script`, the terms of PROTECTED in their printed form."""
    if script == "s" or text.isascii():
        return text
    return _around(text, PROTECTED, SCRIPTS[script])


def to_traditional(text: str) -> str:
    return convert(text, "t")


def to_simplified(text: str) -> str:
    """Input in traditional (or mixed) characters, in simplified ones. Callers look a name up as
    typed first, so that simplified input never loads OpenCC."""
    if text.isascii():
        return text
    return _around(text, PROTECTED_INPUT, "t2s")


def _around(text: str, terms: dict[str, str], config: str) -> str:
    """`text` converted by OpenCC's `config`, but the keys of `terms` in it, which become their
    values. (A lone surrogate, which no conversion knows, leaves the text as it is.)"""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text
    convert_part = _converter(config).convert
    parts: list[str] = []
    at = 0
    for m in _alternation(tuple(terms)).finditer(text):
        if m.start() > at:
            parts.append(convert_part(text[at : m.start()]))
        parts.append(terms[m.group()])
        at = m.end()
    if at < len(text):
        parts.append(convert_part(text[at:]))
    return "".join(parts)
