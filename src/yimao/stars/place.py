"""Stars on a chart: where each star stands for the chart's pillars, and the lines it falls on.

"地支之星以月为凭，天干之星以日为主" (the table's basis says which pillar); "各伺其动，不动则
不伺" (a star on a static line is dormant); "多视其类，非类则弗亲" (`topic` keeps the stars of
that kind of question); "必以用神为主而星辅之" (stars on the 用神 or the 世 are shown first).

A branch position falls on 本卦 lines, 变爻 and 伏神 of that branch; a stem position on those
whose 纳甲 stem matches (寅建丁亥子孙发动，以丁为天德); a direction on the branches of its
palace; a whole 干支 (天赦) is in force when the day is that 干支, and falls on no line.

`find_stars` finds the stars of one chart once (`ChartStars`): groups of stars that fall
alike, each with where it falls. Its `placements` are the same stars one by one (the API and
the renderer); `serialize` writes the document's `stars` and each line's star ids from it.
A chart's stars come in the order of their weight (`chart_order`: 唯日月之用尊焉, month and day
stars first), and each star's conditions (罡魁临鬼动 …) are judged on the chart
(`ChartStars.conditions`, `stars.conditions`).
"""

from __future__ import annotations

from functools import cache
from operator import or_
from typing import Any, NamedTuple

from yimao.chart import Chart, Use
from yimao.ganzhi import Branch
from yimao.stars.catalogue import WEIGHTS, Star, basis_values, catalogue, star_entry
from yimao.stars.conditions import ConditionResult, judged, kin_of, readings_of

PARTS = ("本爻", "变爻", "伏神")


class Hit(NamedTuple):
    position: int
    part: str  # 本爻 | 变爻 | 伏神
    moving: bool  # the moving 本爻, its 变爻, or a lifted 伏神


class PositionedStar:
    """A star with its positions (and each variant's) for a chart's pillars: the same for every
    chart of those pillars, so built once per star and basis key, and hashed by identity."""

    __slots__ = ("index", "star", "positions", "variants")

    def __init__(self, index: int, star: Star, positions: tuple[str, ...], variants: tuple[tuple[str, tuple[str, ...] | None], ...]) -> None:
        self.index = index  # in the catalogue's order
        self.star = star
        self.positions = positions
        self.variants = variants  # each variant's reading, and its positions (None when the chart lacks its basis)

    def __repr__(self) -> str:
        return f"PositionedStar({self.index}, {self.star.id}, {self.positions}, {self.variants})"


class StarHits:
    """Where the stars covering one set of branches and stems fall on a chart: built once per
    set of the chart's parts (and whether one is the 用神 or the 世), and hashed by identity."""

    __slots__ = ("hits", "lines", "moving", "on_use")

    def __init__(self, hits: tuple[Hit, ...], lines: tuple[int, ...], moving: bool, on_use: bool) -> None:
        self.hits = hits  # in line order
        self.lines = lines
        self.moving = moving  # one of the hits moves
        self.on_use = on_use  # one of the lines is the 用神 or the 世

    def __repr__(self) -> str:
        return f"StarHits({self.hits}, {self.lines}, {self.moving}, {self.on_use})"


class Placement(NamedTuple):
    """A star standing on a chart (an immutable tuple: charts make many of these)."""

    star: Star
    positions: tuple[str, ...] | None  # None when the chart lacks the basis (e.g. no hour given)
    hits: tuple[Hit, ...]
    line_positions: tuple[int, ...]
    moving: bool  # on a moving line, its 变爻, or a lifted 伏神
    day_match: bool  # a 干支 star whose 干支 is the day's
    on_use: bool  # falls on the 用神 or the 世
    variants: tuple[tuple[str, tuple[str, ...] | None], ...]
    conditions: tuple[ConditionResult, ...] = ()  # each condition the text attaches, judged on the chart

    @property
    def active(self) -> bool:
        """各伺其动: on a moving line (or its 变爻, or a lifted 伏神), or a 干支 star on its day."""
        return self.moving or self.day_match

    def where_text(self) -> str:
        if self.day_match:
            return "值日"
        return " ".join(f"{h.position}{'' if h.part == '本爻' else h.part[0]}{'动' if h.moving else ''}" for h in self.hits)


# --- what a chart offers: its parts -----------------------------------------------------------


class _Parts(NamedTuple):
    """The parts of a chart that stars fall on (本爻, 变爻 and 伏神 of each line), as bits of
    `_HITS`: bit 6(p-1) + 2k + m is the part k (本爻, 变爻, 伏神) of line p, moving or not (m).
    Ascending bits are line order, 初爻 first, so a set of parts reads in the document's order,
    and the same set means the same hits whatever the cast."""

    by_bit: tuple[int, ...]  # for bit b of a star mask (branch b, or stem b - 12): the parts carrying it
    present: int  # the star-mask bits of the branches and stems the chart carries


_HITS = tuple(Hit(p, part, bool(m)) for p in range(1, 7) for part in PARTS for m in (0, 1))
_LINES = {m: tuple(p for p in range(1, 7) if m >> p & 1) for m in range(0, 128, 2)}  # bit p: line p
_PARTS: dict[Any, _Parts] = {}  # by cast: at most 4096
# Where a set of parts falls, by the set: its StarHits off the 用神 and 世 and on them, and its lines
# as bits (to test against a chart's). About 2,500 sets occur over 10,000 random charts; bounded
# all the same. (Keyed by the set and the chart's 用神 and 世 instead, it met five times as many
# keys for the first time.)
_STAR_HITS: dict[int, tuple[StarHits, StarHits, int]] = {}
_STAR_HITS_MAX = 1 << 15


def _parts(chart: Chart) -> _Parts:
    """A chart's parts. They depend on its cast alone (a 伏神 is lifted exactly when its line
    moves; the pillars and the earth school change no branch or stem), so they are built once
    per cast, from its two halves' (lines 1-3 and 4-6): a half depends on the hexagram and its
    own three moving lines, so the 4,096 casts have 1,024 halves, and a run meets most of them
    long before it has met most casts."""
    found = _PARTS.get(chart.cast)
    if found is None:
        h, moving = chart.cast
        k = 0
        for p in moving:
            k |= 1 << (p - 1)
        key = h.code | (k & 7) << 6
        lo = _HALF_PARTS.get(key) or _half_parts(chart.lines[:3], key)
        key = h.code | (k >> 3) << 6 | 1 << 9
        hi = _HALF_PARTS.get(key) or _half_parts(chart.lines[3:], key)
        found = _PARTS[chart.cast] = tuple.__new__(_Parts, (tuple(map(or_, lo[0], hi[0])), lo[1] | hi[1]))  # no Python-level __new__
    return found


_HALF_PARTS: dict[int, tuple[tuple[int, ...], int]] = {}  # by hexagram code, the half's moving lines, which half


def _half_parts(lines: Any, key: int) -> tuple[tuple[int, ...], int]:
    """`_Parts` of three chart lines (as by_bit and present)."""
    by_bit = [0] * 22
    for cl in lines:
        line, mv, hidden, changed = cl.line, cl.moving, cl.hidden, cl.changed
        base = 6 * (line.position - 1)
        for part, bit in (
            (line, 1 << (base + mv)),
            (changed, 1 << (base + 3)),  # a 变爻 moves
            (hidden.line if hidden is not None else None, 1 << (base + 4 + mv)),  # lifted when its line moves
        ):
            if part is not None:
                by_bit[part.branch.index] |= bit
                by_bit[12 + part.stem.index] |= bit
    present = 0
    for b, on in enumerate(by_bit):
        if on:
            present |= 1 << b
    half = _HALF_PARTS[key] = tuple(by_bit), present
    return half


def _star_hits(on: int) -> tuple[StarHits, StarHits, int]:
    """Where a set of parts falls (`_STAR_HITS`): its hits in line order, their lines, whether one
    moves; off the 用神 and 世 and on them."""
    hits = []
    lines = 0
    moving = False
    rest = on
    while rest:  # over the set bits: a few parts
        low = rest & -rest
        h = _HITS[low.bit_length() - 1]
        hits.append(h)
        lines |= 1 << h[0]
        moving = moving or h[2]
        rest ^= low
    where = StarHits(tuple(hits), _LINES[lines], moving, False), StarHits(tuple(hits), _LINES[lines], moving, True), lines
    if len(_STAR_HITS) < _STAR_HITS_MAX:
        _STAR_HITS[on] = where
    return where


# --- the stars of one basis key, grouped by what they touch -------------------------------------


class _Group(NamedTuple):
    """Stars of one basis key covering the same branches, stems and 干支: on any chart they fall
    on the same parts, so a chart tests the group once."""

    mask: int  # the branches (bit = branch index) and stems (bit = 12 + stem index) covered
    ganzhi: frozenset[str]  # whole 干支 (in force on that day)
    members: tuple[PositionedStar, ...]
    indices: tuple[int, ...]  # the members' catalogue indices


# The pillar each basis is read from (地支之星以月为凭，天干之星以日为主). Stars of bases read from
# the same pillar are grouped together, across bases: a chart tests fewer groups.
_SOURCES = {
    "month": ("month", "season", "month_sanhe"),
    "day": ("day_stem", "day_ganzhi"),
    "year": ("year_branch",),
    "month_hour": ("month_hour",),
    "year_month": ("year_month",),
}


@cache
def _key_groups(topic: str | None, source: str, key: Any) -> tuple[_Group, ...]:
    """The stars read from one pillar (or pair of pillars) that have a place for its value `key`,
    in groups. Cached: a source has at most 144 keys."""
    if topic is not None:  # the groups of all stars, each kept to the topic's: a fraction of the cost
        return _of_topic(_key_groups(None, source, key), _topic_indices(topic))
    return _groups(None, source, key)


def _groups(topic: str | None, source: str, key: Any) -> tuple[_Group, ...]:
    """`_key_groups(topic, source, key)` built from the catalogue."""
    groups: dict[tuple[int, frozenset[str]], list[PositionedStar]] = {}
    stem = key[0] if key is not None else None  # a day's stem, for the stars of the day's stem
    for i, star in _on_charts(topic):
        if star.basis not in _SOURCES[source]:
            continue
        k = stem if star.basis == "day_stem" else key
        entry = star_entry(star, k)  # `star.entry` without its call
        if entry is not None:
            positions, bmask, smask, ganzhi = entry
            member = PositionedStar(i, star, positions, _variant_positions(star, k) if star.variants else ())
            groups.setdefault((bmask | smask << 12, ganzhi), []).append(member)
    return tuple(_Group(mask, ganzhi, tuple(members), tuple(m.index for m in members)) for (mask, ganzhi), members in groups.items())


def _of_topic(groups: tuple[_Group, ...], keep: frozenset[int]) -> tuple[_Group, ...]:
    """`groups` with only the members in `keep`, in the order `_groups` builds them in (by
    first member): what `_groups` gives for a topic (a test checks every topic and key)."""
    out = []
    for g in groups:
        if keep.issuperset(g.indices):  # most groups: all of them in the topic, or none
            out.append(g)
        elif not keep.isdisjoint(g.indices):
            members = tuple(m for m in g.members if m.index in keep)
            out.append(_Group(g.mask, g.ganzhi, members, tuple(m.index for m in members)))
    out.sort(key=lambda g: g.indices[0])  # a group that lost its first member may now come later
    return tuple(out)


@cache
def _topic_indices(topic: str) -> frozenset[int]:
    return frozenset(i for i, _ in _on_charts(topic))


def _variant_positions(star: Star, key: Any) -> tuple[tuple[str, tuple[str, ...] | None], ...]:
    out = []
    for v in star.variants:
        if isinstance(key, tuple):
            inner = v.table.get(key[0]) if key[0] is not None else None
            pos = inner.get(key[1]) if inner is not None and key[1] is not None else None
        else:
            pos = v.table.get(key) if key is not None else None
        out.append((v.reading, pos))
    return tuple(out)


@cache
def chart_order() -> tuple[Star, ...]:
    """Every star of the catalogue in the order a chart lists them: heavy (month and day stars)
    before light (year and hour stars), each in the catalogue's order. 「地支之星以月为凭，天干之星
    以日为主，年星虽列，远而较轻，时星间陈，叟而易逝，唯日月之用尊焉」 (6.56). A star's index on a
    chart (`PositionedStar.index`) is its place here."""
    stars = catalogue().stars
    return tuple(s for w in WEIGHTS for s in stars if s.weight == w)


def _of_kind(star: Star, topic: str | None) -> bool:
    """多视其类: a star for the topic (or 通用, or with no kind stated), or any without a topic."""
    return topic is None or not star.topics or topic in star.topics or "通用" in star.topics


@cache
def _on_charts(topic: str | None) -> tuple[tuple[int, Star], ...]:
    """The stars placed on charts by a rule (for a topic), with their index in `chart_order`."""
    return tuple((i, s) for i, s in enumerate(chart_order()) if s.placed and s.on_charts and _of_kind(s, topic))


@cache
def _on_hexagram_lines(topic: str | None) -> dict[int, tuple[tuple[int, tuple[PositionedStar]], ...]]:
    """By the King Wen number of a 本卦: the stars the book sets on one of its lines (乾之上九降参，
    又降镇星), each with its line, as placed stars whose position is what stands there (参宿)."""
    out: dict[int, list[tuple[int, tuple[PositionedStar]]]] = {}
    for i, s in enumerate(chart_order()):
        for h in s.hexagram_lines:
            if _of_kind(s, topic):
                out.setdefault(h.king_wen, []).append((h.line, (PositionedStar(i, s, (h.name,), ()),)))
    return {k: tuple(v) for k, v in out.items()}


def topic_filter(topic: str | None) -> str | None:
    """Validate a --topic against the catalogue's vocabulary."""
    if topic is None:
        return None
    t = topic.strip()
    return t if t in catalogue().topics else catalogue().topic(topic)  # the usual topic by a lookup; the rest there


# --- the stars of one chart -----------------------------------------------------------------------


class ChartStars(NamedTuple):
    """The stars standing on one chart, in groups that fall alike: each group's `StarHits`,
    whether it is in force by its day (its 干支 is the day's), and its stars; with the chart and
    the topic their conditions are judged by."""

    groups: tuple[tuple[StarHits, bool, tuple[PositionedStar, ...]], ...]
    chart: Any = None
    topic: str | None = None

    def conditions(self, *, of_the_chart: bool = False) -> dict[int, tuple[ConditionResult, ...]]:
        """By star index (`chart_order`): the conditions of each star on the chart that has any,
        judged (`stars.conditions`); with `of_the_chart`, only the stars one of whose conditions
        reads the chart (the others' answers depend on the topic alone). Built on request: most
        stars have none."""
        out = {}
        topic, kin = self.topic, None
        for w, _, members in self.groups:
            conditioned = _CONDITIONED.get(members)
            if conditioned is None:
                conditioned = _CONDITIONED[members] = tuple(
                    (m.index, m.star.conditions, readings_of(m.star.conditions)) for m in members if m.star.conditions
                )
            for i, conditions, readings in conditioned:
                if readings is not None:
                    kin = kin or kin_of(self.chart)
                    out[i] = judged(conditions, readings, kin, w.hits, topic)
                elif not of_the_chart:
                    out[i] = judged(conditions, None, None, (), topic)
        return out

    @property
    def placements(self) -> tuple[Placement, ...]:
        """The stars one by one, in `chart_order` (heavy first)."""
        slots: list[Placement | None] = [None] * len(catalogue().stars)
        conditions = self.conditions()
        for w, day_match, members in self.groups:
            for s in members:
                slots[s.index] = Placement(
                    s.star, s.positions, w.hits, w.lines, w.moving, day_match, w.on_use, s.variants, conditions.get(s.index, ())
                )
        return tuple(filter(None, slots))


_NOWHERE = StarHits((), (), False, False)
# By a group's members (the tuples `_key_groups` keeps): the index, conditions and readings of the
# chart (None: the topic only) of those with any.
_CONDITIONED: dict[tuple[PositionedStar, ...], tuple[tuple[int, Any, Any], ...]] = {}


def find_stars(chart: Chart, *, use: Use | None = None, topic: str | None = None) -> ChartStars:
    """The stars of the catalogue that stand on the chart: those falling on a line (本爻, 变爻 or
    伏神) and 干支 stars on their day. Stars the book names without a rule have no place. With
    `topic`, only stars of that kind of question, or with no stated kind, are kept."""
    t = topic_filter(topic)
    cast, p = chart[0], chart[1]  # fields read directly: Chart.hexagram, Hexagram.shi and
    m = p.month  # FourPillars.month_branch are Python-level properties
    month, day, year, hour = basis_values(m if m is None or isinstance(m, Branch) else m.branch, p.day, p.year, p.hour)
    by_bit, present = _parts(chart)
    focus = 1 << cast[0].generation.shi
    if use is not None:
        for q in use.positions or use.hidden_positions:
            focus |= 1 << q
    groups = []
    found: dict[int, StarHits] = {0: _NOWHERE}  # groups touching the same bits share where they fall
    for source, key in (("month", month), ("day", day), ("year", year), ("month_hour", (month, hour)), ("year_month", (year, month))):
        for mask, ganzhi, members, _ in _key_groups(t, source, key):
            bits = mask & present
            day_match = day in ganzhi if ganzhi else False
            if bits or day_match:
                f = found.get(bits)
                if f is None:
                    if bits & (bits - 1):  # several branches or stems
                        f = _falls(by_bit, bits, focus)
                    else:  # one, as for most stars: `_falls` inlined (a call is dear, ten a chart)
                        on = by_bit[bits.bit_length() - 1]
                        fs = _STAR_HITS.get(on) or _star_hits(on)
                        f = fs[1] if fs[2] & focus else fs[0]
                    found[bits] = f
                groups.append((f, day_match, members))
    on_lines = _on_hexagram_lines(t).get(cast[0].king_wen)
    if on_lines is not None:  # 乾之上九降参: a star on one line of this 本卦
        for line, members in on_lines:
            bit = 1 << (6 * (line - 1) + (line in cast[1]))  # the line's 本爻, moving or not (`_Parts`)
            fs = _STAR_HITS.get(bit) or _star_hits(bit)
            groups.append((fs[1] if fs[2] & focus else fs[0], False, members))
    return tuple.__new__(ChartStars, (tuple(groups), chart, t))  # without the Python-level __new__


def _falls(by_bit: tuple[int, ...], bits: int, focus: int) -> StarHits:
    """Where the stars touching the several branches or stems `bits` fall (a chart's
    `_Parts.by_bit`; `find_stars` does the case of one itself): the parts carrying any of them,
    in line order; their lines; whether one moves; whether one is the 用神 or the 世 (a line of
    `focus`)."""
    on = 0
    while bits:
        low = bits & -bits
        on |= by_bit[low.bit_length() - 1]
        bits ^= low
    where = _STAR_HITS.get(on) or _star_hits(on)
    return where[1] if where[2] & focus else where[0]


def place_stars(chart: Chart, *, use: Use | None = None, topic: str | None = None) -> tuple[Placement, ...]:
    """The stars standing on the chart (see `find_stars`), one by one in the catalogue's order."""
    return find_stars(chart, use=use, topic=topic).placements


BASIS_NEEDS = {
    "month": ("month",),
    "season": ("month",),
    "month_sanhe": ("month",),
    "day_stem": ("day",),
    "day_ganzhi": ("day",),
    "year_branch": ("year",),
    "month_hour": ("month", "hour"),
    "year_month": ("year", "month"),
    "none": (),
}


def positions_for(
    star: Star, month: str | None, day: str | None, year: str | None, hour: str | None
) -> tuple[tuple[str, ...] | None, tuple[tuple[str, tuple[str, ...] | None], ...]]:
    """A star's positions (and each variant's) for basis strings; an error naming what is missing."""
    from yimao.errors import NotationError

    if not star.placed:
        raise NotationError(f"{star.name} ({star.id}) is named by the book without a rule: it has no positions", star.name)
    given = {"month": month, "day": day, "year": year, "hour": hour}
    if star.basis == "day_ganzhi" and day is not None and len(day) != 2:
        raise NotationError(f"{star.name} is read from the day's 干支: give --day as a 干支 like 甲子", day, ("甲子", "己酉"))
    missing = [k for k in BASIS_NEEDS[star.basis] if not given[k]]
    if missing:
        raise NotationError(
            f"{star.name} ({star.id}) is read from the {' and '.join(missing)} ({star.basis}): give --{' --'.join(missing)} or --date",
            star.name,
            tuple(f"--{m}" for m in missing),
        )
    pos = star.lookup(star.table, month, day, year, hour)
    variants = tuple((v.reading, star.lookup(v.table, month, day, year, hour)) for v in star.variants)
    return pos, variants


def stars_at(
    month: str | None, day: str | None, year: str | None, hour: str | None
) -> list[tuple[Star, tuple[str, ...] | None, tuple[tuple[str, tuple[str, ...] | None], ...]]]:
    """Every star with a rule, with its positions (and each variant's) for basis strings; None
    where the basis lacks what the star is read from (`yimao stars`)."""
    rows = []
    for s in catalogue().stars:
        if s.placed:
            variants = tuple((v.reading, s.lookup(v.table, month, day, year, hour)) for v in s.variants)
            rows.append((s, s.lookup(s.table, month, day, year, hour), variants))
    return rows
