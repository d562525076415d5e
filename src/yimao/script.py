"""Simplified and traditional characters.

Output is simplified by default and traditional on request; input accepts both. The table
covers the vocabulary yimao prints (names of hexagrams, 六亲, 六神, relations, stars); a
character not in it is the same in both scripts.
"""

from __future__ import annotations

# simplified → traditional, one pair per character.
_PAIRS = (
    "离離 兑兌 济濟 为為 泽澤 风風 归歸 过過 无無 壮壯 丰豐 节節 颐頤 剥剝 蛊蠱 贲賁 损損 复復 师師 "
    "谦謙 临臨 观觀 涣渙 渐漸 晋晉 随隨 遁遯 讼訟 恒恆 亲親 财財 孙孫 龙龍 陈陳 腾騰 宫宮 游遊 应應 "
    "变變 动動 静靜 冲衝 长長 绝絕 养養 带帶 进進 头頭 贵貴 马馬 丧喪 门門 吊弔 车車 岁歲 时時 "
    "阳陽 阴陰 乌烏 医醫 厨廚 禄祿 耗耗 荒荒 芜蕪 狱獄 刃刃 忌忌 咸咸 哭哭 坵坵 孤孤 寡寡 关關 锁鎖 "
    "亡亡 归歸 舟舟 浪浪 鹤鶴 符符 罡罡 魁魁 廉廉 栏欄 杆杆 狗狗 猪豬 鼠鼠 牛牛 犬犬 蛇蛇 碎碎 "
    "红紅 纱紗 库庫 烛燭 贼賊 气氣 锤錘 门門 盆盆 浴浴 池池 丧喪 车車 墓墓 驿驛 华華 盖蓋 劫劫 灾災 "
    "煞煞 将將 鞍鞍 攀攀 喜喜 赦赦 解解 喝喝 散散 曜曜 雷雷 网網 罗羅 旌旌 旗旗 耳耳 目目 暗暗 "
    "军軍 辅輔 弼弼 垣垣 紫紫 微微 市市 太太 乙乙 德德 福福 文文 昌昌 天天 地地 月月 日日 "
    "阵陣 会會 伤傷 鬼鬼 刑刑 害害 开開 闭閉 真真 假假 悬懸 终終 始始 动動 伏伏 飞飛 现現 "
    "卦卦 爻爻 书書 历曆 农農 历曆 闰閏 节節 气氣 东東 南南 西西 北北 中中 "
    "尽盡 发發 实實 虚虛 对對 类類 头頭 两兩 数數 万萬 与與 并並 处處 问問 讼訟 "
    "婚婚 姻姻 疾疾 词詞 产產 育育 宅宅 茔塋 盗盜 失失 财財 岁歲 丧喪 针針 灸灸 畜畜 渔漁 猎獵 "
    "乐樂 业業 仆僕 们們 样樣 这這 还還 说說 个個 来來 时時 义義 图圖 阶階 级級 亚亞 "
    "战戰 尔爾 问問 阳陽 胜勝 传傳 从從 登登 明明 吉吉 凶凶 龙龍 黄黃 泉泉 广廣 寒寒 "
    "帝帝 座座 端端 门門 雷雷 佛佛 境境 户戶 神神 鬼鬼 路路 罗羅 网網 杀殺 执執 "
    "云雲 国國 纬緯 经經 贞貞 贪貪 舆輿 辇輦 双雙 "
)
S2T: dict[str, str] = {}
for _pair in _PAIRS.split():
    if len(_pair) == 2 and _pair[0] != _pair[1]:
        S2T[_pair[0]] = _pair[1]
T2S: dict[str, str] = {t: s for s, t in S2T.items()}
# traditional variants that readers type for the same simplified character
T2S.update({"剋": "克", "沖": "冲", "螣": "螣", "遯": "遁", "頤": "颐", "爲": "为", "隻": "只"})

_TO_T = str.maketrans(S2T)
_TO_S = str.maketrans(T2S)


def to_traditional(text: str) -> str:
    return text.translate(_TO_T)


def to_simplified(text: str) -> str:
    return text.translate(_TO_S)
