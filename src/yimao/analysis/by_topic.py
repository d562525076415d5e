"""The kinds of question (`--topic`), and what the rules of volume 6 read differently by them.

The stars name their kinds in the catalogue (「多视其类」, 6.56). The rules name theirs in three
places, encoded here as tables:

- 助鬼伤身 (6.03–6.04) is read by the matter asked: 「占身命者认祸为福…」, 「国占为奸臣聚敛…」 …
  「避祸祸必临，防害害必至」. `ZHUGUI` maps each matter onto the vocabulary, with its sentence.
- 三刑 (6.10): 「身命遇之，恐骨肉之相残；婚姻遇之，惧门第之相压；宦忧内丧，病防带疾」 (`XING`).
- Who meets a 刑 or a 害 (6.10, the note): 「身命，谓世及用爻遇之，男娶谓财、女嫁谓官遇之」 (`TARGETS`).

Every topic here is one `--topic` takes: the stars' topics and, after them, the matters these
passages name that the stars lack (`stars.topics.RULE_TOPICS`). docs/rules.md §6 lists the
mapping and the readings chosen.
"""

# No `from __future__ import annotations` here: typing.NamedTuple compiles each string field
# annotation at class creation, a cost every start of the program would pay.
from typing import NamedTuple

from yimao.texts import Quote, quote


class TopicReading(NamedTuple):
    """What the book says a rule means for one kind of question: the topic (in yimao's
    vocabulary), the book's words naming the matter, the words of the reading, and the sentence
    both are pieces of."""

    topic: str
    matter: str
    reading: str
    text: Quote


class TopicText(NamedTuple):
    """A sentence of the book reading a rule for some kinds of question, as a finding lists it:
    under the first topic it reads."""

    topic: str
    text: Quote


def _reading(topic: str, matter: str, reading: str, original: str, vernacular: str) -> TopicReading:
    if matter not in original or reading not in original:
        raise AssertionError(f"{topic}: the matter and the reading must be words of the sentence {original!r}")
    return TopicReading(topic, matter, reading, quote(original, vernacular))


# -- 助鬼伤身 by the matter asked (6.03, 6.04) -------------------------------------------------
#
# 「占身命者认祸为福，比匪为良，因财丧身，贪色亡命，妻妾不贤而归夫咎，奴仆肆逆而累主殃。…国占为奸臣聚敛，
#   为宦官专恣；师占为将病防刺，及自兵之叛；占家者主人贪利忘害，求益遭损，…；娶妇则主妇不贤；收仆则主仆
#   怀叛。若女占夫而官星为用者，遇之反吉也；占官骤升，占武即发。」 (6.03)
# 「占讼有重责之忧，占失有再偷之虑；投军脱役，鱼为饵钩，昧事修方，步遭荆棘；求财有妄求之害，出行有行险之虞；
#   离尘修戒，障业未除，公役参房，杖笞难免；占监狱囹圄之灾未满，占疾病枕席之患未离；奉神神怒，安灵灵哭，
#   占怪怪真，占梦梦实；避祸祸必临，防害害必至。」 (6.04)
#
# 妻妾不贤而归夫咎 and 奴仆肆逆而累主殃 end the 身命 sentence: they are what 身命 suffers, not
# matters of their own (娶妇 and 收仆 have their own sentences). A four-character matter that
# pairs two deeds (投军脱役) gives both deeds the one reading; 昧事修方, 离尘修戒 and 公役参房
# each name one undertaking and are one topic, their halves accepted as aliases.
_SHENMING = _reading(
    "身命",
    "占身命",
    "认祸为福，比匪为良，因财丧身，贪色亡命，妻妾不贤而归夫咎，奴仆肆逆而累主殃",
    "占身命者认祸为福，比匪为良，因财丧身，贪色亡命，妻妾不贤而归夫咎，奴仆肆逆而累主殃",
    "占身命遇助鬼伤身，会把祸事当成福气、把匪人当作良友，因贪财而丧身，因贪色而亡命；妻妾不贤而连累丈夫获咎，奴仆放肆悖逆而拖累主人遭殃",
)
_QUFU = _reading("男娶", "娶妇", "主妇不贤", "娶妇则主妇不贤", "娶妻主妇人不贤")
_NVJIA = _reading("女嫁", "女占夫", "遇之反吉也", "若女占夫而官星为用者，遇之反吉也", "但若是女子占丈夫、以官星为用神，遇上它反而吉")
_JUNSHI = _reading("投军", "投军", "鱼为饵钩", "投军脱役，鱼为饵钩", "投军或脱免差役，如同鱼咬上了钓饵")
_FANGHAI = _reading("防害", "防害", "害必至", "防害害必至", "想防害，害必到来")

ZHUGUI: dict[str, TopicReading] = {
    r.topic: r
    for r in (
        _SHENMING,
        _reading("国事", "国占", "为奸臣聚敛，为宦官专恣", "国占为奸臣聚敛，为宦官专恣", "占国事，主奸臣聚敛、宦官专权"),
        _reading("军事", "师占", "为将病防刺，及自兵之叛", "师占为将病防刺，及自兵之叛", "占军事，主将领患病、须防行刺，以及自家士兵叛变"),
        _reading("家宅", "占家", "主人贪利忘害，求益遭损", "占家者主人贪利忘害，求益遭损", "占家宅，主家主贪利忘害、求益反受损"),
        _QUFU,
        _NVJIA,
        _reading("收仆", "收仆", "主仆怀叛", "收仆则主仆怀叛", "收仆主仆人怀有反心"),
        _reading("功名", "占官", "骤升", "占官骤升", "占官职会骤然升迁"),
        _reading("武职", "占武", "即发", "占武即发", "占武职会立刻发迹"),
        _reading("词讼", "占讼", "有重责之忧", "占讼有重责之忧", "占词讼，有被重责的忧患"),
        _reading("失物", "占失", "有再偷之虑", "占失有再偷之虑", "占失物，有再遭偷窃之虑"),
        _JUNSHI,
        _JUNSHI._replace(topic="脱役", matter="脱役"),
        _reading("修方", "昧事修方", "步遭荆棘", "昧事修方，步遭荆棘", "昧着良心行事、擅动方位修造，举步就遇荆棘"),
        _reading("求财", "求财", "有妄求之害", "求财有妄求之害", "求财有妄求之害"),
        _reading("出行", "出行", "有行险之虞", "出行有行险之虞", "出行有涉险之虞"),
        _reading("出家", "离尘修戒", "障业未除", "离尘修戒，障业未除", "出家修戒，业障未能除尽"),
        _reading("公役", "公役参房", "杖笞难免", "公役参房，杖笞难免", "充当公役、入衙参见，免不了杖责笞刑"),
        _reading("刑狱", "占监狱", "囹圄之灾未满", "占监狱囹圄之灾未满", "占监狱，牢狱之灾未满"),
        _reading("疾病", "占疾病", "枕席之患未离", "占疾病枕席之患未离", "占疾病，卧床之患未离"),
        _reading("奉神", "奉神", "神怒", "奉神神怒", "奉神则神发怒"),
        _reading("安灵", "安灵", "灵哭", "安灵灵哭", "安灵则灵哭泣"),
        _reading("怪异", "占怪", "怪真", "占怪怪真", "占怪异，怪异是真"),
        _reading("梦兆", "占梦", "梦实", "占梦梦实", "占梦，梦是应验的"),
        _reading("避祸", "避祸", "祸必临", "避祸祸必临", "想避祸，祸必临头"),
        _FANGHAI,
        # the stars' 防非 (「利用防非」, 6.16) is the same undertaking as 防害: guarding against harm
        _FANGHAI._replace(topic="防非"),
    )
}

# 婚姻 names no side: the book reads a man's 娶妇 and a woman's 女占夫 apart, the woman's only
# 「官星为用者」. So 婚姻 is read as 女嫁 when the 用神 is 官鬼 and as 男娶 otherwise (`side`).
MARRIAGE = "婚姻"


# -- 三刑 by the matter asked (6.10) ----------------------------------------------------------
# 「身命遇之，恐骨肉之相残；婚姻遇之，惧门第之相压；宦忧内丧，病防带疾」 (6.10): 宦 is 功名 (the
# office held), 病 is 疾病; 婚姻's reading holds for either side.
_XING_MARRIAGE = ("婚姻遇之，惧门第之相压", "占婚姻遇刑，怕两家门第互相倾轧")
XING: dict[str, TopicReading] = {
    r.topic: r
    for r in (
        _reading("身命", "身命遇之", "恐骨肉之相残", "身命遇之，恐骨肉之相残", "占身命遇刑，恐怕骨肉相残"),
        _reading("婚姻", "婚姻遇之", "惧门第之相压", *_XING_MARRIAGE),
        _reading("男娶", "婚姻遇之", "惧门第之相压", *_XING_MARRIAGE),
        _reading("女嫁", "婚姻遇之", "惧门第之相压", *_XING_MARRIAGE),
        _reading("功名", "宦", "忧内丧", "宦忧内丧", "做官的忧家中有丧"),
        _reading("疾病", "病", "防带疾", "病防带疾", "病人须防落下残疾"),
    )
}


# -- who meets a 刑 or a 害 (6.10) ------------------------------------------------------------
Q_TARGETS = quote("身命，谓世及用爻遇之，男娶谓财、女嫁谓官遇之", "所谓身命遇刑，指世爻及用爻逢刑；男子娶妻则指妻财逢刑，女子出嫁则指官鬼逢刑")


class Targets(NamedTuple):
    """Who a 刑 or a 害 is judged on for a topic: the 用神 and the 世 (`relative` None), or the
    lines of one 六亲 (`relative`: 妻财 for 男娶, 官鬼 for 女嫁), shown in findings as `role`."""

    topic: str | None  # the topic the book names (婚姻 resolved to 男娶 or 女嫁); None: the default
    relative: str | None  # 妻财 | 官鬼 | None
    role: str | None  # 财 | 官 | None
    note: str | None  # the book's words, said with every finding on such a target


DEFAULT_TARGETS = Targets(None, None, None, None)
# The topics the note names. 身命 is the 世 and the 用爻: the default, named.
TARGETS: dict[str, Targets] = {
    "身命": Targets("身命", None, None, None),
    "男娶": Targets("男娶", "妻财", "财", "男娶谓财"),
    "女嫁": Targets("女嫁", "官鬼", "官", "女嫁谓官"),
}


def side(topic: str | None, use_relative: str | None) -> str | None:
    """The topic a reading is looked up by: 婚姻 is 女嫁 with a 官鬼 用神 (「若女占夫而官星为用者」),
    else 男娶 (the book's 婚姻 words, 娶妇, are the man's); any other topic is itself."""
    if topic == MARRIAGE:
        return "女嫁" if use_relative == "官鬼" else "男娶"
    return topic


def zhugui_reading(topic: str | None, use_relative: str | None = None) -> TopicReading | None:
    """The book's reading of 助鬼伤身 for `topic` (None when it names none)."""
    t = side(topic, use_relative)
    r = ZHUGUI.get(t) if t is not None else None
    return r._replace(topic=topic) if r is not None and topic is not None and t != topic else r


def xing_reading(topic: str | None) -> TopicReading | None:
    """The book's reading of 三刑 for `topic` (None when it names none)."""
    return XING.get(topic) if topic is not None else None


def topic_targets(topic: str | None, use_relative: str | None = None) -> Targets:
    """Who a 刑 or a 害 is judged on for `topic`: 「身命，谓世及用爻遇之，男娶谓财、女嫁谓官遇之」
    (6.10). Every topic the note does not name, and no topic, keeps the default: the 用神 (or its
    伏神) and the 世 (「三刑六害，当别用爻」, 「克害重用爻世爻」, 6.12)."""
    t = side(topic, use_relative)
    return TARGETS.get(t, DEFAULT_TARGETS) if t is not None else DEFAULT_TARGETS


# -- the 用神 a topic fixes (docs/rules.md §6) -------------------------------------------------
#
# A topic whose 用神 the book fixes, or, where it does not, the common 六爻 convention (said so):
# the 用神 a cast with that topic and no --use is read by.


class TopicUse(NamedTuple):
    """The 用神 of a topic: a 六亲 (or 世), the sentence of the book behind it, and whether the
    book fixes it (`book`) or the common convention does (the sentence then only bears on it)."""

    topic: str
    use: str  # a --use spec: 官鬼 | 妻财 | 父母 | 子孙 | 世
    text: Quote
    book: bool


_Q_NUFU_USE = quote("若女占夫而官星为用者", "但若是女子占丈夫、以官星为用神")
_Q_GUAN_WU = quote("占官骤升，占武即发。（大抵用官吉而用财凶，世爻尤凶也。）", "占官职会骤然升迁，占武职会立刻发迹。（注：大体说来，以官为用则吉")
_Q_MARRY = quote("男娶谓财、女嫁谓官遇之", "男子娶妻则指妻财逢刑，女子出嫁则指官鬼逢刑")
_Q_PROFIT = quote("以财为利，以鬼为害", "妻财是利，官鬼是害")
_Q_SELF = quote("身命，谓世及用爻遇之", "所谓身命遇刑，指世爻及用爻逢刑")

TOPIC_USE: dict[str, TopicUse] = {
    r.topic: r
    for r in (
        TopicUse("女嫁", "官鬼", _Q_NUFU_USE, True),
        TopicUse("男娶", "妻财", _Q_MARRY, True),
        TopicUse("功名", "官鬼", _Q_GUAN_WU, True),
        TopicUse("武职", "官鬼", _Q_GUAN_WU, True),
        # the convention; the book's note only calls 财 利 and 鬼 害, and 身命 the 世 (6.10)
        TopicUse("求财", "妻财", _Q_PROFIT, False),
        TopicUse("失物", "妻财", _Q_PROFIT, False),
        TopicUse("身命", "世", _Q_SELF, False),
    )
}

# The readings of 助鬼伤身 that are good news: 「遇之反吉也」, 「骤升」, 「即发」; all the others are harm.
GOOD = frozenset(("遇之反吉也", "骤升", "即发"))


def topic_use(topic: str | None) -> TopicUse | None:
    """The 用神 a topic fixes (the book's, or the convention's), None when neither fixes one."""
    return TOPIC_USE.get(topic) if topic is not None else None


def reading_why(reading: TopicReading, use_spec: str | None, use_relative: str | None, verdict: str) -> str | None:
    """Why the reading of 助鬼伤身 for the topic asked does not apply with this 用神 and verdict
    (None: it does). A reading the book ties to a 用神 (`TOPIC_USE`, book rows) needs that 用神;
    a good reading (反吉, 骤升, 即发: 「用官吉」) needs the verdict 反吉, a harm one 凶 or 尤凶."""
    row = TOPIC_USE.get(reading.topic) or TOPIC_USE.get(side(reading.topic, use_relative) or "")
    given = use_spec if use_relative is None or use_spec == use_relative else f"{use_spec}（{use_relative}）"
    if use_spec is not None and row is not None and row.book and use_relative != row.use:
        return f"{reading.topic}之读以{row.use}为用神（「{row.text.original}」），今用神{given}，不取"
    good = reading.reading in GOOD
    if good and verdict != "反吉":
        return f"{reading.topic}之读用官乃吉（「大抵用官吉而用财凶，世爻尤凶也」），今用神{given or '未给，世当之'}，判{verdict}，不取"
    if not good and verdict == "反吉":
        return f"{reading.topic}之读以鬼为害，今以官为用，判反吉（「大抵用官吉」），不取"
    return None


def listed(table: dict[str, TopicReading]) -> tuple[TopicText, ...]:
    """The readings of a table as a finding lists them, each sentence once (under its first topic)."""
    seen: dict[str, TopicText] = {}
    for r in table.values():
        if r.text.original not in seen:
            seen[r.text.original] = TopicText(r.topic, r.text)
    return tuple(seen.values())


__all__ = [
    "DEFAULT_TARGETS",
    "MARRIAGE",
    "Q_TARGETS",
    "TARGETS",
    "XING",
    "ZHUGUI",
    "GOOD",
    "TOPIC_USE",
    "TopicUse",
    "listed",
    "reading_why",
    "topic_use",
    "TopicReading",
    "TopicText",
    "Targets",
    "side",
    "topic_targets",
    "xing_reading",
    "zhugui_reading",
]
