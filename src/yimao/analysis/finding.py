"""The values every rule of volume 6 returns: a `Finding`, holding or a near miss, with its
words and its details, each family's details a value of its own.

Every value here is immutable and made of enums, strings, numbers, booleans, None, quotes and
tuples of these, so that what a rule works out once (a verdict, the 合冲生克 of two branches)
can be kept and handed to every chart that meets it. `serialize` alone writes them as JSON.
"""

# No `from __future__ import annotations` here: typing.NamedTuple would turn each string
# annotation into a ForwardRef, compiling it, which makes defining these classes at import
# (cold start) half again as costly.

from typing import NamedTuple

from yimao.analysis.by_topic import TopicReading, TopicText
from yimao.chart import Source, Spirit
from yimao.ganzhi import Branch, Element, Vigour
from yimao.hexagram import Relative
from yimao.texts import Quote

# NamedTuples rather than frozen dataclasses: as immutable, but several times cheaper to define
# at import (cold start) and to build (a chart yields a handful of each).


class Member(NamedTuple):
    """A branch taking part in a finding: where it comes from, and its role (始/中/终, 用, 刑者 …)."""

    branch: Branch
    source: Source
    position: int | None = None
    role: str | None = None


class TargetRef(NamedTuple):
    """The line a 刑, a 墓 or a 害 is judged on, as the details of a finding on it name it."""

    role: str  # 用 | 世 | 用/世 | 财, 官 (男娶, 女嫁) | 财/世, 官/世
    hidden: bool  # a 伏神
    position: int
    branch: Branch


class Relation(NamedTuple):
    """A 合, 冲, 生 or 克 between two parties round a 六害 (「然亦必兼合冲生克而考之」, 6.12): 合 and
    冲 hold both ways alike, 生 and 克 go from `from_` to `to`."""

    kind: str  # 合 | 冲 | 生 | 克
    from_: Member
    to: Member


# -- 助鬼伤身 ------------------------------------------------------------------------------------


class Ghost(NamedTuple):
    """A 官鬼 of a 助鬼伤身, with how soon and how gravely it acts: 静迟动速，旺大衰小 (6.03)."""

    position: int
    branch: Branch
    moving: bool
    vigour: Vigour | None  # by the month; None without one
    speed: str  # 动速 | 静迟
    size: str | None  # 旺大 | 衰小; None without a month


class ShiVigour(NamedTuple):
    """The 世 a 鬼 would harm, and its vigour by the month (世爻逢旺相者弗能伤)."""

    position: int
    branch: Branch
    vigour: Vigour | None


class SpiritReading(NamedTuple):
    """A 六神 on a holding 鬼 and what it brings: 鬼临雀起非，临武被劫，临虎见丧，临蛇而惊 (6.03)."""

    position: int
    spirit: Spirit
    reading: str


class ZhuguiHarm(NamedTuple):
    """What a holding 助鬼伤身 means: the verdict by the 用神 and its sentences, its severity, the
    book's readings by topic and the one of the topic asked, and the 六神 on the 鬼."""

    use: str | None  # the 用神 as asked
    verdict: str  # 凶 | 尤凶 | 反吉
    verdict_text: tuple[Quote, ...]
    severity: Quote
    readings: tuple[TopicText, ...]
    topic_reading: TopicReading | None
    spirits: tuple[SpiritReading, ...]
    spirit_text: Quote | None  # the sentence of the spirits when one stands on a 鬼, else None
    topic_why: str | None = None  # why the topic's reading is not carried (its 用神 or verdict differs)
    ghost_role: str | None = None  # what the 鬼 is to the 用神: 忌神 | 原神 | 泄神 | 用神所克 | 用神


class ZhuguiDetails(NamedTuple):
    """助鬼伤身: the 鬼's 长生 and whether it is a 真生, the 鬼 and the 世; `harm` for one that holds."""

    changsheng: Branch
    true_changsheng: bool
    ghosts: tuple[Ghost, ...]
    shi: ShiVigour
    harm: ZhuguiHarm | None  # None: a near miss, or a 世 旺相 that no 鬼 can harm


# -- 局会 ----------------------------------------------------------------------------------------


class JuhuiRole(NamedTuple):
    """A role of a 局 (始, 中, 终), its branch, whether some source fills it and whether soundly."""

    name: str
    branch: Branch
    present: bool
    sound: bool


class JuhuiUse(NamedTuple):
    """How a 局 stands to the 用神's element."""

    element: Element  # the 用神's
    is_use: bool  # the 局 is of that element
    relation: str  # the 局 to it: 生, 克, 同 … (`ganzhi.element_relation`)


class JuhuiDetails(NamedTuple):
    """局会: its roles, where the 日 and the 月 stand in it, 悬始/悬终/悬中, its vigour by the month;
    for a formed 局 its strength (伤其始者力小 …) and what its 悬 means (悬始吉而悬终凶)."""

    roles: tuple[JuhuiRole, JuhuiRole, JuhuiRole]
    ri: str | None  # the role the 日 is, if any
    yue: str | None  # the role the 月 is, if any
    xuan: str | None  # 悬始 | 悬终 | 悬中
    vigour: Vigour | None  # the 局's element in the month
    use: JuhuiUse | None  # None without a 用神
    zhen: bool  # 伏得生者其局真
    strength: str | None  # 力大 | 力存 | 力小; None: the 局 does not form
    xuan_reading: str | None  # 吉 (悬始) | 凶 (悬终); None for 悬中, or a 局 that does not form


# -- 三刑 ----------------------------------------------------------------------------------------


class Grave(NamedTuple):
    """官克世而问讼，五克世而问疏，若世刑而大凶也 (6.10): the matter, and the reading."""

    topic: str  # 讼 | 疏
    reading: str
    text: Quote


class XingDetails(NamedTuple):
    """A 刑 on the target (刑, 刑冲并见, 真刑): its name, its weight and severity, the book's
    readings by topic and the one of the topic asked, and, on the 世, what makes it 大凶."""

    target: TargetRef
    name: str  # 自刑 | 无礼之刑 | 寅巳申 | 丑戌未
    weight: str  # 重 | 中 | 轻
    severity: tuple[Quote, ...]
    readings: tuple[TopicText, ...]
    topic_reading: TopicReading | None
    grave: tuple[Grave, ...]  # on the 世 only; empty: none


class SanxingDetails(NamedTuple):
    """三刑全: the triple met in full on the target, and the reading of the topic asked."""

    target: TargetRef
    name: str  # 寅巳申 | 丑戌未
    topic_reading: TopicReading | None


class WoxingDetails(NamedTuple):
    """我刑彼: the target 刑 a source and meets no 刑 itself (a near miss)."""

    target: TargetRef
    name: str  # of the 刑 the target makes


# -- 墓开 ----------------------------------------------------------------------------------------


class MukaiDetails(NamedTuple):
    """墓开: the target's 墓, where it stands (入日墓, 化墓 …), and the weight of its opening."""

    target: TargetRef
    tomb: Branch
    holder: str  # 入日墓 | 入月墓 | 入动墓 | 化墓
    weight: str | None  # 重 | 轻; None: the 墓 stays shut


# -- 六害 ----------------------------------------------------------------------------------------


class HaiDetails(NamedTuple):
    """A 害 on the target: who 害 whom (彼克我 …), its weight and severity, and the 合冲生克 to weigh
    it by."""

    target: TargetRef
    direction: str  # 彼克我 | 我克彼 | 彼生我 | 我生彼
    weight: str  # 重 | 轻
    severity: tuple[Quote, ...]
    relations: tuple[Relation, ...]
    outweighed_by: tuple[Member, ...] = ()  # the 冲 on the target (不及六冲之甚): 月破, 日冲, 动爻, 变爻


class ShiyingHaiDetails(NamedTuple):
    """世应相害: the 世 and the 应 a 害 pair (姤, 恒, 小畜, 益), a prompt to weigh."""

    target: str  # 世应
    direction: str  # 应克世 | 世克应 | 应生世 | 世生应
    weight: str  # 重 | 中 | 轻
    severity: tuple[Quote, ...]
    relations: tuple[Relation, ...]
    outweighed_by: tuple[Member, ...] = ()  # the 冲 on the 世 or the 应 (不及六冲之甚)


Details = ZhuguiDetails | JuhuiDetails | XingDetails | SanxingDetails | WoxingDetails | MukaiDetails | HaiDetails | ShiyingHaiDetails


class Finding(NamedTuple):
    """One result of a rule. `holds` is False for a near miss, whose `reasons` say why it fails.

    `details` are the rule's own facts (strength, 悬始/悬终, severity, readings by topic …), a
    value of the rule's family; `text` the sentences of the book the finding rests on.
    """

    rule: str
    holds: bool
    kind: str | None
    element: Element | None
    relative: Relative | None
    lines: tuple[int, ...]
    members: tuple[Member, ...]
    reasons: tuple[str, ...]
    text: tuple[Quote, ...]
    details: Details


def topic_reading_of(d: Details) -> TopicReading | None:
    """The reading of the topic asked a finding carries: on a holding 助鬼伤身, a 刑 and a 三刑全."""
    if isinstance(d, (XingDetails, SanxingDetails)):
        return d.topic_reading
    if isinstance(d, ZhuguiDetails) and d.harm is not None:
        return d.harm.topic_reading
    return None


def topic_why_of(d: Details) -> str | None:
    """Why a holding 助鬼伤身 carries no reading for the topic asked, when one was withheld."""
    return d.harm.topic_why if isinstance(d, ZhuguiDetails) and d.harm is not None else None


def relations_of(d: Details) -> tuple[Relation, ...]:
    """The 合冲生克 a finding carries: round a 六害."""
    return d.relations if isinstance(d, (HaiDetails, ShiyingHaiDetails)) else ()
