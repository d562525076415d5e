"""The star catalogue: `data/stars.toml` validated at load into frozen values.

Most stars are declarative tables over their basis (month, season, the month's 三合, day stem,
day 干支, year branch, month×hour, year×month). Each carries its verbatim quotes from volume 6
(checked at load against the shipped text) and its variant readings. Beside the stars, the
names the text gives to fixed branches (古法以子为帝座 … 丑为黄泉杀): no star, no table, but a
name a reader looks up. The file's header documents the format; docs/stars.md documents each
derivation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from itertools import starmap
from types import MappingProxyType
from typing import Any, NamedTuple
from unicodedata import east_asian_width

from yimao.errors import CatalogueError, UnknownNameError, closest, name_too_long, shown, too_long_to_be_a_name
from yimao.ganzhi import BRANCHES, CYCLE, STEMS, Branch, GanZhi, Stem
from yimao.hanzi import to_simplified, to_traditional
from yimao.stars.topics import RULE_TOPICS, TOPIC_WORDS
from yimao.texts import Quote, quote

BASES = ("month", "season", "month_sanhe", "day_stem", "day_ganzhi", "year_branch", "month_hour", "year_month", "none")
KINDS = ("branch", "stem", "direction", "ganzhi", "none")

# 坎子, 艮丑寅, 震卯, 巽辰巳, 离午, 坤未申, 兑酉, 乾戌亥; 中宫 and 鹤神's stations in heaven
# (房北 房中 南 西 东) cover no branch: a star there is on no line.
DIRECTION_BRANCHES: dict[str, tuple[Branch, ...]] = {
    "坎": (Branch.ZI,),
    "艮": (Branch.CHOU, Branch.YIN),
    "震": (Branch.MAO,),
    "巽": (Branch.CHEN, Branch.SI),
    "离": (Branch.WU,),
    "坤": (Branch.WEI, Branch.SHEN),
    "兑": (Branch.YOU,),
    "乾": (Branch.XU, Branch.HAI),
    "中宫": (),
    "房北": (),
    "房中": (),
    "南": (),
    "西": (),
    "东": (),
}

_BRANCH_KEYS = tuple(b.value for b in BRANCHES)
_MONTH_KEYS = tuple(Branch.from_month_number(n).value for n in range(1, 13))
_STEM_KEYS = tuple(s.value for s in STEMS)
_GZ_KEYS = tuple(str(g) for g in CYCLE)


def basis_keys(basis: str) -> tuple[str, ...]:
    return {
        "month": _MONTH_KEYS,
        "season": _MONTH_KEYS,
        "month_sanhe": _MONTH_KEYS,
        "month_hour": _MONTH_KEYS,
        "day_stem": _STEM_KEYS,
        "day_ganzhi": _GZ_KEYS,
        "year_branch": _BRANCH_KEYS,
        "year_month": _BRANCH_KEYS,
        "none": (),
    }[basis]


_KIND_OF = {
    **{b: "branch" for b in _BRANCH_KEYS},
    **{s: "stem" for s in _STEM_KEYS},
    **{d: "direction" for d in DIRECTION_BRANCHES},
    **{g: "ganzhi" for g in _GZ_KEYS},
}


def position_kind(s: str) -> str:
    """branch, stem, direction or ganzhi: the four sets of position strings are disjoint."""
    try:
        return _KIND_OF[s]
    except KeyError:
        raise CatalogueError(f"not a position: {s!r}", s) from None


Table = Mapping[str, Any]  # key → tuple[str, ...], or key → {key → tuple[str, ...]} for two-key bases


# NamedTuples rather than dataclasses: a command's cold start pays for defining these classes and
# for building the 143 stars, and a NamedTuple is several times cheaper at both.
class HexagramLine(NamedTuple):
    """A star the book sets on one line of one hexagram, with no rule (乾之上九降参): shown on
    that line of a chart whose 本卦 is that hexagram."""

    hexagram: str  # the hexagram's name (乾为天)
    king_wen: int
    line: int  # 1 (初爻) … 6 (上爻)
    name: str  # what stands there (参宿, 镇星)


class Variant(NamedTuple):
    reading: str
    reason: str
    quotes: tuple[Quote, ...]
    table: Table
    days: tuple[str, ...] = ()  # 节气: the table holds only on the day of one of them (天赦 须逢节气本日)


# What a condition of a star looks at on a chart (the `on` of a reading; see the file's header):
# the star's own 本卦 line, its 变爻, the star's line moving with a line of the 六亲 moving
# elsewhere (同发), a line of the 六亲 moving anywhere on a chart the star stands on, or the
# question's topic.
CONDITION_ON = ("star_line", "changed", "together", "anywhere", "topic")
RELATIVES = ("父母", "兄弟", "官鬼", "妻财", "子孙")


class ConditionReading(NamedTuple):
    """One way of reading a condition's sentence on a chart."""

    on: str  # one of CONDITION_ON
    relative: str | None  # the 六亲 the sentence names (官鬼 for 临鬼动), None for any line
    moving: bool  # the line must move (动, 摇, 发)
    topics: tuple[str, ...]  # for on = "topic": the kinds of question it holds for
    reason: str
    hidden: bool = False  # a lifted 伏神 of the 六亲 counts as a moving line of it (伏 鬼动)
    day_stems: tuple[str, ...] = ()  # holds only on a day of one of these stems; () any day


class Condition(NamedTuple):
    """A sentence that says under which condition a star acts (罡魁临鬼动，祸患暴作): its
    reading (the one the sentence supports) and the other defensible readings."""

    quote: Quote
    effect: str  # what follows when it holds, in the book's words
    reading: ConditionReading
    variants: tuple[ConditionReading, ...]


# 大凡吉星之行多顺 … 地支之星以月为凭，天干之星以日为主，年星虽列，远而较轻，时星间陈，叟而易逝，
# 唯日月之用尊焉: a star read from the month or the day alone weighs heavy; one that needs the
# year or the hour (天官符 by year and month, 破军 by month and hour), or that no pillar places
# (经星 and 五纬 on a line of 乾), light.
HEAVY_BASES = frozenset(("month", "season", "month_sanhe", "day_stem", "day_ganzhi"))
WEIGHTS = ("heavy", "light")


class _StarFields(NamedTuple):
    id: str
    name: str
    traditional: str
    aliases: tuple[str, ...]
    group: str
    order: int
    basis: str
    kind: str
    nature: str
    topics: tuple[str, ...]
    rule: str
    quotes: tuple[Quote, ...]
    notes: tuple[str, ...]
    table: Table
    variants: tuple[Variant, ...]
    on_charts: bool = True  # False: a table for reference only (the 阳/阴 halves of 天乙贵人)
    hexagram_lines: tuple[HexagramLine, ...] = ()  # 经星, 五纬: 乾之上九降参，又降镇星
    label: str = ""  # the name shown, unique in the catalogue (`labels`): 丧门（岁）, 月煞（耗废）
    conditions: tuple[Condition, ...] = ()  # the sentences naming when it acts (罡魁临鬼动 …)


class Star(_StarFields):
    """A star of the catalogue: its names, group, basis, nature, topics, rule, sentences, table
    and variant readings."""

    __slots__ = ()

    # A star is its identity (the catalogue holds one of each): it keys caches, so it hashes
    # without walking its tables, as the dataclass with eq=False did.
    __hash__ = object.__hash__
    __eq__ = object.__eq__
    __ne__ = object.__ne__

    @property
    def weight(self) -> str:
        """heavy (a month or day star) or light (a year or hour star): 唯日月之用尊焉."""
        return "heavy" if self.basis in HEAVY_BASES else "light"

    @property
    def quote(self) -> Quote | None:
        """The defining sentence: the first quote naming the star, else the first quote."""
        for q in self.quotes:
            if self.name in q.original or any(a in q.original for a in self.aliases):
                return q
        return self.quotes[0] if self.quotes else None

    @property
    def placed(self) -> bool:
        """False for stars the book names without a rule (no positions)."""
        return self.basis != "none"

    def lookup(self, table: Table, month: str | None, day: str | None, year: str | None, hour: str | None) -> tuple[str, ...] | None:
        """Positions for the given basis values (strings), or None when the basis is not known."""
        b = self.basis
        if b in ("month", "season", "month_sanhe"):
            return table[month] if month else None
        if b == "day_stem":
            return table[day[0]] if day and day[0] in _STEM_KEYS else None
        if b == "day_ganzhi":
            return table[day] if day and len(day) == 2 else None
        if b == "year_branch":
            return table[year] if year else None
        if b == "month_hour":
            return table[month][hour] if month and hour else None
        if b == "year_month":
            return table[year][month] if year and month else None
        return None

    def __repr__(self) -> str:
        return f"<Star {self.id} {self.name}>"


class FixedName(NamedTuple):
    """A name the text gives to a fixed branch (古法以子为帝座 … 丑为黄泉杀): no star and no
    table; `yimao star` answers with its branch and sentence, and no chart places it."""

    name: str
    traditional: str
    aliases: tuple[str, ...]
    group: str  # 古法宫名 | 宫名
    position: str  # the branch
    rule: str
    quotes: tuple[Quote, ...]
    notes: tuple[str, ...]


class Catalogue(NamedTuple):
    stars: tuple[Star, ...]
    by_id: Mapping[str, Star]
    topics: tuple[str, ...]
    names: tuple[FixedName, ...] = ()
    version: str = ""  # of the shipped catalogue: the first 12 hex digits of the SHA-256 of its content (tools/build_stars_json.py)

    @property
    def by_name(self) -> Mapping[str, tuple[Star, ...]]:
        """Stars by simplified name and alias (indexed on first use: a chart never asks)."""
        return _by_name(self.stars)

    def find(self, name: str) -> tuple[Star, ...]:
        """Every star a name (id, simplified or traditional name, alias) may mean; () if none."""
        n = name.strip().translate(_FULL_WIDTH_PARENS)
        if n in self.by_id:
            return (self.by_id[n],)
        return self.by_name.get(n) or self.by_name.get(to_simplified(n), ())  # 天醫 is 天医

    def fixed_name(self, name: str) -> FixedName | None:
        """The fixed name (帝座, 黄泉杀 …) a text means, in simplified or traditional characters
        or another spelling (黄泉煞); None if it is none."""
        n = name.strip()
        return _fixed_names(self.names).get(n) or _fixed_names(self.names).get(to_simplified(n))

    def get(self, name: str) -> Star:
        """The one star a name means; an error listing the candidates or the closest names otherwise."""
        found = self.find(name)
        if len(found) == 1:
            return found[0]
        if found:
            w = 2 + max(_width(s.label) for s in found)
            raise UnknownNameError(
                f"{name!r} names {len(found)} stars in volume 6; choose one by its label or id",
                name,
                tuple(f"{s.label}{' ' * (w - _width(s.label))}{s.id:<18} {s.group}: {s.rule}" for s in found),
                ambiguous=True,
            )
        if too_long_to_be_a_name(name.strip()):
            raise UnknownNameError(name_too_long("star", name), name)
        raise UnknownNameError(f"unknown star: {shown(name)}", name, self.closest(name))

    def closest(self, name: str) -> tuple[str, ...]:
        n = to_simplified(name.strip())
        hits = _near(n, {**self.by_name, **_fixed_names(self.names)}, 6, 0.4)
        hits += closest(n.lower(), self.by_id, 3, 0.6)
        return tuple(dict.fromkeys(hits))[:8] or ("天医", "天德", "驿马")

    def topic(self, text: str) -> str:
        """A topic (the kind of question stars are kept for and rules read by), in simplified or traditional
        characters, or an everyday word for one (官司 → 词讼, `topics.TOPIC_WORDS`); an error with
        the nearest topics (`财` → 求财), or naming them all when none is near."""
        t = text.strip()
        if t not in self.topics and t not in TOPIC_WORDS:
            t = to_simplified(t)  # 求財 is 求财, 訴訟 is 诉讼
        if t in self.topics:
            return t
        if t in TOPIC_WORDS:  # 官司 is 词讼 (`topics`)
            return TOPIC_WORDS[t].topic
        if too_long_to_be_a_name(t):
            raise UnknownNameError(f"{name_too_long('topic', text)}; the topics of volume 6 are {'、'.join(self.topics)}", text)
        words = [TOPIC_WORDS[w].topic for w in _near(t, TOPIC_WORDS, 3, 0.6)]  # 感情问题 → 婚姻
        near = tuple(dict.fromkeys(_near(t, self.topics, 4, 0.5) + words))[:6]
        if near:
            raise UnknownNameError(f"unknown topic {shown(text)}", text, near)
        raise UnknownNameError(f"unknown topic {shown(text)}; the topics of volume 6 are {'、'.join(self.topics)}", text)


def _near(text: str, names: Any, n: int, cutoff: float) -> list[str]:
    """The names containing `text` or contained in it, then difflib's `n` nearest (`errors.closest`:
    none for a text too long to be a name)."""
    if too_long_to_be_a_name(text):
        return []
    hits = [k for k in names if text and (text in k or k in text)]
    return hits + closest(text, names, n, cutoff)


class Covered(NamedTuple):
    """What a star's positions cover on a chart: the branches (a direction, those of its palace),
    the stems, and whole 干支 (天赦: in force on that day, on no line)."""

    branches: frozenset[Branch]
    stems: frozenset[Stem]
    ganzhi: frozenset[str]


@cache  # a few hundred distinct position tuples recur across stars and keys
def covered(positions: tuple[str, ...]) -> Covered:
    """The branches, stems and 干支 a star's positions cover."""
    branches: set[Branch] = set()
    stems: set[Stem] = set()
    ganzhi: set[str] = set()
    for pos in positions:
        kind = position_kind(pos)
        if kind == "branch":
            branches.add(BRANCHES[_BRANCH_KEYS.index(pos)])
        elif kind == "stem":
            stems.add(STEMS[_STEM_KEYS.index(pos)])
        elif kind == "direction":
            branches.update(DIRECTION_BRANCHES[pos])
        else:
            ganzhi.add(pos)
    return Covered(frozenset(branches), frozenset(stems), frozenset(ganzhi))


def _table(raw: Any, basis: str, where: str) -> dict[str, Any]:
    """A star's table as compiled into stars.json (lists of positions)."""
    keys = basis_keys(basis)
    if not isinstance(raw, dict) or set(raw) != set(keys):
        missing = sorted(set(keys) - set(raw or {}))
        raise CatalogueError(f"{where}: positions must cover the whole basis {basis} (missing {missing})", where)
    out: dict[str, Any] = {}
    for k in keys:
        v = raw[k]
        if basis in ("month_hour", "year_month"):
            inner_keys = _BRANCH_KEYS if basis == "month_hour" else _MONTH_KEYS
            if not isinstance(v, dict) or set(v) != set(inner_keys):
                raise CatalogueError(f"{where}: positions[{k}] must cover all 12 branches", where)
            out[k] = {ik: _positions(v[ik], f"{where}[{k}][{ik}]") for ik in inner_keys}
        else:
            out[k] = _positions(v, f"{where}[{k}]")
    return out


def _positions(v: Any, where: str) -> list[str]:
    if not isinstance(v, list):
        raise CatalogueError(f"{where}: a list of positions expected", where)
    for s in v:
        position_kind(s)
    return list(v)


def _quote_refs(raw: list[str], where: str) -> list[list[str]]:
    try:
        return [[quote(q).passage, q] for q in raw]
    except AssertionError as e:
        raise CatalogueError(f"{where}: {e}", where) from None


def _hexagram_lines(raw: Any, where: str) -> list[dict[str, Any]]:
    from yimao.errors import NotationError
    from yimao.hexagram import Hexagram

    out = []
    for h in raw:
        try:
            hexagram = Hexagram.parse(h["hexagram"])
        except NotationError:
            raise CatalogueError(f"{where}: hexagram_line names no hexagram: {h['hexagram']!r}", where) from None
        if h["line"] not in range(1, 7) or not h.get("name"):
            raise CatalogueError(f"{where}: hexagram_line needs a line 1-6 and a name", where)
        out.append({"hexagram": hexagram.name, "king_wen": hexagram.king_wen, "line": h["line"], "name": h["name"]})
    return out


def _condition_reading(raw: dict[str, Any], base: dict[str, Any] | None, where: str, topics: set[str]) -> dict[str, Any]:
    """A reading of a condition, its unstated keys taken from the primary reading `base`."""
    got = {**(base or {"relative": None, "moving": True, "topics": [], "reason": "", "hidden": False, "day_stems": []}), "reason": "", **raw}
    got["relative"] = got["relative"] or None  # TOML has no null: "" is any line
    if got.get("on") not in CONDITION_ON:
        raise CatalogueError(f"{where}: a condition's on must be one of {CONDITION_ON}", where)
    if got["relative"] is not None and got["relative"] not in RELATIVES:
        raise CatalogueError(f"{where}: not a 六亲: {got['relative']!r}", where)
    if (got["on"] == "topic") != bool(got["topics"]) or not topics.issuperset(got["topics"]):
        raise CatalogueError(f"{where}: a topic reading names topics of the vocabulary, and only it does", where)
    if got["on"] in ("together", "anywhere") and got["relative"] is None:
        raise CatalogueError(f"{where}: {got['on']} needs a 六亲", where)
    if got["hidden"] and (got["relative"] is None or got["on"] in ("changed", "topic")):
        raise CatalogueError(f"{where}: hidden reads a 伏神 of a 六亲 on the 本卦's lines: it needs a 六亲, and on a line", where)
    if not set(got["day_stems"]) <= set(_STEM_KEYS) or (got["day_stems"] and got["on"] == "topic"):
        raise CatalogueError(f"{where}: day_stems are stems (甲 … 癸), of a reading on the chart", where)
    moving = bool(got["moving"]) and got["on"] != "topic"  # a topic reads no line
    return {
        "on": got["on"],
        "relative": got["relative"],
        "moving": moving,
        "topics": list(got["topics"]),
        "reason": got["reason"],
        "hidden": bool(got["hidden"]),
        "day_stems": list(got["day_stems"]),
    }


def _days(days: list[str], where: str) -> list[str]:
    """A variant's 节气 days, each one of the 24."""
    from yimao.solar_terms import TERM_NAMES

    unknown = [d for d in days if d not in TERM_NAMES]
    if unknown:
        raise CatalogueError(f"{where}: not a 节气: {unknown[0]!r}", where)
    return list(days)


def _conditions(raw: Any, where: str, topics: set[str]) -> list[dict[str, Any]]:
    out = []
    for c in raw:
        primary = _condition_reading({k: v for k, v in c.items() if k not in ("text", "effect", "variants")}, None, where, topics)
        out.append(
            {
                "quote": _quote_refs([c["text"]], where)[0],
                "effect": c["effect"],
                "reading": primary,
                "variants": [_condition_reading(v, primary, f"{where} variant", topics) for v in c.get("variants", [])],
            }
        )
    return out


def compile_names(text: str) -> list[dict[str, Any]]:
    """The TOML source's fixed names (`[[name]]`), checked (a branch each, quotes verbatim,
    no name shared with a star) and compiled for `stars.json`."""
    import tomllib

    data = tomllib.loads(text)
    taken = {n for s in data["star"] for n in (s["id"], s["name"], *s.get("aliases", []))}
    out = []
    for raw in data.get("name", []):
        name = raw["name"]
        if position_kind(raw["position"]) != "branch":
            raise CatalogueError(f"{name}: a fixed name's position is a branch", name)
        clash = taken.intersection((name, *raw.get("aliases", [])))
        if clash:
            raise CatalogueError(f"{name}: also the name of a star or of another fixed name: {sorted(clash)}", name)
        taken.update((name, *raw.get("aliases", [])))
        out.append(
            {
                "name": name,
                "traditional": raw.get("traditional") or to_traditional(name),
                "aliases": raw.get("aliases", []),
                "group": raw["group"],
                "position": raw["position"],
                "rule": raw["rule"],
                "quotes": _quote_refs(raw["quotes"], name),
                "notes": raw.get("notes", []),
            }
        )
    return out


def compile_source(text: str) -> list[dict[str, Any]]:
    """Validate the TOML source and compile it to the JSON-ready form shipped as `stars.json`:
    every table checked over its whole basis, every quote checked verbatim and resolved to its
    passage id. `tools/build_stars_json.py` writes it; a test keeps the two in step."""
    import tomllib

    data = tomllib.loads(text)
    vocabulary = {t for raw in data["star"] for t in raw.get("topics", [])}
    out = []
    for raw in data["star"]:
        sid = raw["id"]
        basis = raw["basis"]
        if basis not in BASES or raw["kind"] not in KINDS:
            raise CatalogueError(f"{sid}: bad basis or kind", sid)
        table = _table(raw.get("positions"), basis, sid) if basis != "none" else {}
        out.append(
            {
                "id": sid,
                "name": raw["name"],
                "traditional": raw.get("traditional") or to_traditional(raw["name"]),
                "aliases": raw.get("aliases", []),
                "group": raw["group"],
                "order": raw["order"],
                "basis": basis,
                "kind": raw["kind"],
                "nature": raw["nature"],
                "topics": raw.get("topics", []),
                "rule": raw.get("rule", ""),
                "quotes": _quote_refs(raw["quotes"], sid),
                "notes": raw.get("notes", []),
                "place": raw.get("place", True),
                "hexagram_lines": _hexagram_lines(raw.get("hexagram_line", []), sid),
                "conditions": _conditions(raw.get("conditions", []), sid, vocabulary),
                "table": table,
                "variants": [
                    {
                        "reading": v["reading"],
                        "reason": v.get("reason", ""),
                        "quotes": _quote_refs(v.get("quotes", []), sid),
                        "table": _table(v["positions"], basis, f"{sid} variant"),
                        "days": _days(v.get("days", []), sid),
                    }
                    for v in raw.get("variants", [])
                    if basis != "none"
                ],
            }
        )
    out.sort(key=lambda d: d["order"])
    if len({d["id"] for d in out}) != len(out):
        raise CatalogueError("duplicate star ids", None)
    return out


def source_text() -> str:
    from yimao.data import read_text

    return read_text("stars.toml")


def _tuples(table: dict[str, Any]) -> Table:
    """A compiled table as the catalogue keeps it: tuples of positions, read-only mappings."""
    return MappingProxyType({k: (_tuples(v) if isinstance(v, dict) else tuple(v)) for k, v in table.items()})


@cache
def catalogue() -> Catalogue:
    """The catalogue, from the compiled `stars.json` (a JSON parse is some thirty times faster
    than the TOML one, which matters for a command's cold start; orjson's is faster still)."""
    import orjson

    from yimao.data import read_bytes
    from yimao.texts import passage

    shipped = orjson.loads(read_bytes("stars.json"))
    compiled = shipped["stars"]

    @cache  # stars share half their quotes: one value each
    def shared_quote(pid: str, original: str) -> Quote:
        return Quote(pid, original, passage(pid).vernacular)

    def quotes(refs: list[list[str]]) -> tuple[Quote, ...]:
        return tuple(starmap(shared_quote, refs))

    label = labels(compiled)

    def reading(d: dict[str, Any]) -> ConditionReading:
        return ConditionReading(d["on"], d["relative"], d["moving"], tuple(d["topics"]), d["reason"], d["hidden"], tuple(d["day_stems"]))

    def conditions(raw: list[dict[str, Any]]) -> tuple[Condition, ...]:
        return tuple(Condition(shared_quote(*c["quote"]), c["effect"], reading(c["reading"]), tuple(map(reading, c["variants"]))) for c in raw)

    stars = []
    for d in compiled:
        stars.append(
            Star(
                id=d["id"],
                name=d["name"],
                traditional=d["traditional"],
                aliases=tuple(d["aliases"]),
                group=d["group"],
                order=d["order"],
                basis=d["basis"],
                kind=d["kind"],
                nature=d["nature"],
                topics=tuple(d["topics"]),
                rule=d["rule"],
                quotes=quotes(d["quotes"]),
                notes=tuple(d["notes"]),
                table=_tuples(d["table"]),
                variants=tuple(Variant(v["reading"], v["reason"], quotes(v["quotes"]), _tuples(v["table"]), tuple(v["days"])) for v in d["variants"]),
                on_charts=d["place"],
                hexagram_lines=tuple(HexagramLine(h["hexagram"], h["king_wen"], h["line"], h["name"]) for h in d["hexagram_lines"]),
                label=label[d["id"]],
                conditions=conditions(d["conditions"]),
            )
        )
    topics = tuple(dict.fromkeys(t for s in stars for t in s.topics))
    topics += tuple(t for t in RULE_TOPICS if t not in topics)  # the rules' matters the stars lack
    names = tuple(
        FixedName(d["name"], d["traditional"], tuple(d["aliases"]), d["group"], d["position"], d["rule"], quotes(d["quotes"]), tuple(d["notes"]))
        for d in shipped["names"]
    )
    return Catalogue(tuple(stars), MappingProxyType({s.id: s for s in stars}), topics, names, shipped["version"])


@cache
def _fixed_names(names: tuple[FixedName, ...]) -> Mapping[str, FixedName]:
    """Fixed names by simplified name, traditional name and alias."""
    return MappingProxyType({n: f for f in names for n in dict.fromkeys((f.name, f.traditional, *f.aliases))})


@cache
def _by_name(stars: tuple[Star, ...]) -> Mapping[str, tuple[Star, ...]]:
    by_name: dict[str, list[Star]] = {}
    for s in stars:
        for n in dict.fromkeys((s.name, s.traditional, *s.aliases)):
            by_name.setdefault(n, []).append(s)
    found = {k: tuple(v) for k, v in by_name.items()}
    for s in stars:  # a label names its star alone (`labels`)
        found[s.label] = (s,)
    return MappingProxyType(found)


# The time a star's table is read by, as a label qualifies a shared name: 岁 the year's branch,
# 月 the month (its branch, season or 三合), 日 the day (its stem or 干支); a table over year and
# month, or no table, has none. Full-width parentheses, as Chinese text writes them, which a shell
# also takes unquoted (`yimao star 丧门（岁）`); ASCII ones are read as them.
_TIME_WORD = {"year_branch": "岁", "month": "月", "season": "月", "month_sanhe": "月", "month_hour": "月", "day_stem": "日", "day_ganzhi": "日"}
_FULL_WIDTH_PARENS = str.maketrans("()", "（）")


def _width(text: str) -> int:
    """Columns a text takes in a terminal: two for a wide (CJK) character."""
    return sum(2 if east_asian_width(c) in "WF" else 1 for c in text)


def labels(stars: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Each star's label by id: its name, when no other star has that name or alias; else the
    name qualified by the time its table is read by (丧门（月）, 丧门（岁）) when that sets it apart
    from the other stars the name finds, else by the book's group (月煞（将星十二神）, 月煞（耗废）).
    Documented in docs/stars.md; a test checks every label is unique and finds its star."""
    stars = list(stars)
    finds: dict[str, list[Mapping[str, Any]]] = {}
    for d in stars:
        for n in dict.fromkeys((d["name"], *d["aliases"])):
            finds.setdefault(n, []).append(d)
    out = {}
    for d in stars:
        rivals = finds[d["name"]]
        if len(rivals) == 1:
            out[d["id"]] = d["name"]
            continue
        word = _TIME_WORD.get(d["basis"])
        shared = [r for r in rivals if _TIME_WORD.get(r["basis"]) == word]
        out[d["id"]] = f"{d['name']}（{word if word and len(shared) == 1 else d['group']}）"
    return out


def basis_values(
    month: Branch | None, day: GanZhi | Branch | None, year: GanZhi | Branch | None, hour: GanZhi | Branch | None
) -> tuple[str | None, str | None, str | None, str | None]:
    """The strings a star table is keyed by: month branch, day 干支 (None for a bare branch), year branch, hour branch."""
    return (  # `_value_`, not the Python-level property `value`: every chart asks
        month._value_ if month is not None else None,
        str(day) if isinstance(day, GanZhi) else None,
        None if year is None else year._value_ if isinstance(year, Branch) else year.branch._value_,
        None if hour is None else hour._value_ if isinstance(hour, Branch) else hour.branch._value_,
    )
