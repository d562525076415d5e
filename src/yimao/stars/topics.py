"""The words people use for the kind of a question, read as the topics of volume 6.

The book keeps some stars for some kinds of question (多视其类，非类则弗亲) and names those kinds
in its own words: 词讼, 婚姻, 功名 …. A user asks about 官司 or 感情. Each everyday word below
is read as one of the book's topics; the passage and words after it are where the book names
that topic (original or rendering; a test checks they are in that passage of the shipped text).
A word the book has no topic for is read as the nearest one, and marked so: the command says so
on stderr.

The topics are the stars' and, after them, the matters the rules read by that the stars lack
(`RULE_TOPICS`: 助鬼伤身 by matter in 6.03-6.04, who meets a 刑 in 6.10; docs/rules.md §6). The
book's own words for those matters (讼, 师, 女占夫, 昧事 …) are read as their topics too.
"""

from __future__ import annotations

from typing import NamedTuple


class TopicWord(NamedTuple):
    topic: str  # the book's topic
    passage: str  # where the book names it: the passage
    source: str  # and its words there
    nearest: bool = False  # the book has no topic for the word itself


_T = TopicWord
TOPIC_WORDS: dict[str, TopicWord] = {
    # 词讼
    **dict.fromkeys(("官司", "诉讼", "打官司", "讼事", "告状"), _T("词讼", "6.53", "天罡主诉讼")),
    **dict.fromkeys(("纠纷", "官非"), _T("词讼", "6.53", "天罡主诉讼", nearest=True)),
    # 婚姻
    **dict.fromkeys(("结婚", "嫁娶", "姻缘", "婚事"), _T("婚姻", "6.10", "占婚姻遇刑")),
    **dict.fromkeys(("感情", "恋爱", "婚恋", "对象", "桃花"), _T("婚姻", "6.10", "占婚姻遇刑", nearest=True)),
    # 功名: office and rank
    **dict.fromkeys(("升迁", "升职", "官职", "仕途", "当官"), _T("功名", "6.03", "占官职会骤然升迁")),
    **dict.fromkeys(("工作", "求职", "事业", "考试", "职业"), _T("功名", "6.31", "大利功名", nearest=True)),
    # 求财
    **dict.fromkeys(("财运", "钱财", "赚钱", "生意", "投资"), _T("求财", "6.04", "求财有妄求之害")),
    # 疾病
    **dict.fromkeys(("生病", "病情", "健康", "看病"), _T("疾病", "6.04", "占疾病")),
    # 出行
    **dict.fromkeys(("旅行", "旅游", "出门", "远行"), _T("出行", "6.04", "出行有行险之虞")),
    # 行人: one away, awaited
    **dict.fromkeys(("等人", "归期", "来人"), _T("行人", "6.25", "它是占行人的紧要之星")),
    # 产育
    **dict.fromkeys(("怀孕", "生育", "生孩子", "分娩", "生产", "胎孕"), _T("产育", "6.29", "用于占胎孕子息")),
    # 失物
    **dict.fromkeys(("丢失", "丢东西", "找东西", "寻物", "失而复得"), _T("失物", "6.04", "占失物")),
    # 捕盗
    **dict.fromkeys(("盗贼", "失窃", "被盗", "抓贼", "小偷"), _T("捕盗", "6.53", "河魁主盗贼")),
    # 家宅
    **dict.fromkeys(("房屋", "房子", "住宅", "屋宅", "买房", "搬家"), _T("家宅", "6.03", "占家宅")),
    # 坟茔
    **dict.fromkeys(("坟墓", "墓地", "阴宅"), _T("坟茔", "6.14", "唯婚姻才貌坟茔屋宅之占用之")),
    # 音信
    **dict.fromkeys(("消息", "来信", "信息", "音讯"), _T("音信", "6.32", "故动而音信当至")),
    # 刑狱
    **dict.fromkeys(("牢狱", "坐牢", "监狱", "入狱"), _T("刑狱", "6.04", "占监狱")),
    # 丧事
    **dict.fromkeys(("丧葬", "葬礼", "办丧事"), _T("丧事", "6.03", "临白虎便见丧事")),
    # 小儿
    **dict.fromkeys(("孩子", "小孩", "儿童"), _T("小儿", "6.44", "小儿最忌")),
    "子女": _T("小儿", "6.44", "小儿最忌", nearest=True),  # grown children too
    # 身命
    **dict.fromkeys(("命运", "运势", "一生", "终身"), _T("身命", "6.03", "占身命者认祸为福")),
    # 岁时
    **dict.fromkeys(("流年", "年运", "今年"), _T("岁时", "6.14", "唯岁时身命之占用之")),
    # the book's own words for the matters of its rules (6.03, 6.04, 6.10)
    **dict.fromkeys(("国", "国占"), _T("国事", "6.03", "国占")),
    **dict.fromkeys(("师", "师占"), _T("军事", "6.03", "师占")),
    "占家": _T("家宅", "6.03", "占家者"),
    "娶妇": _T("男娶", "6.03", "娶妇则主妇不贤"),
    "娶妻": _T("男娶", "6.10", "男子娶妻"),
    "女占夫": _T("女嫁", "6.03", "若女占夫而官星为用者"),
    **dict.fromkeys(("占官", "宦"), _T("功名", "6.03", "占官骤升")),
    "占武": _T("武职", "6.03", "占武即发"),
    **dict.fromkeys(("讼", "占讼"), _T("词讼", "6.04", "占讼有重责之忧")),
    "占失": _T("失物", "6.04", "占失有再偷之虑"),
    **dict.fromkeys(("昧事", "昧事修方"), _T("修方", "6.04", "昧事修方")),
    **dict.fromkeys(("离尘", "修戒", "离尘修戒"), _T("出家", "6.04", "离尘修戒")),
    **dict.fromkeys(("参房", "公役参房"), _T("公役", "6.04", "公役参房")),
    "占监狱": _T("刑狱", "6.04", "占监狱"),
    "病": _T("疾病", "6.10", "病防带疾"),
    "占怪": _T("怪异", "6.04", "占怪怪真"),
    "占梦": _T("梦兆", "6.04", "占梦梦实"),
}

# The matters of 6.03, 6.04 and 6.10 that the stars' topics lack, with what each is: topics too.
RULE_TOPICS: dict[str, str] = {
    "国事": "国占: the state's affairs",
    "军事": "师占: a campaign, an army",
    "男娶": "娶妇, 男娶: a man taking a wife",
    "女嫁": "女占夫, 女嫁: a woman and her husband",
    "收仆": "收仆: taking a servant",
    "武职": "占武: a military post",
    "投军": "投军: enlisting",
    "脱役": "脱役: escaping conscript service",
    "修方": "昧事修方: building toward a direction",
    "出家": "离尘修戒: leaving the world, taking vows",
    "公役": "公役参房: serving at a yamen",
    "奉神": "奉神: serving a god",
    "安灵": "安灵: laying a spirit to rest",
    "怪异": "占怪: a portent",
    "梦兆": "占梦: a dream",
    "避祸": "避祸: avoiding a disaster",
    "防害": "防害: guarding against harm",
}


def topic_note(text: str, topic: str) -> str | None:
    """What to say when a --topic word was read as the book's `topic`; None when it is the
    book's own word."""
    t = text.strip()
    if t == topic:
        return None
    w = TOPIC_WORDS.get(t)
    if w is None:
        from yimao.hanzi import to_simplified

        w = TOPIC_WORDS.get(to_simplified(t))  # 訴訟 (求財, a topic in traditional characters: none)
        if w is None:
            return None
    if w.nearest:
        return f"--topic {t}: volume 6 has no such topic; read as its nearest, {topic}"
    return f"--topic {t}: read as volume 6's topic {topic}"
