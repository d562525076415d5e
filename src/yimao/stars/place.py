"""Stars on a chart: where each star stands for the chart's pillars, and the lines it falls on.

「地支之星以月为凭，天干之星以日为主」 (6.56: the table's basis says which pillar); 「各伺其动，不动
则不伺」 (a star on a static line is dormant); 「多视其类，非类则弗亲」 (`topic` keeps the stars of
that kind of question); 「必以用神为主而星辅之」 (whether a star falls on the 用神 or the 世).

A star stands where its branch or its stem is carried by a part of the chart: a line's 本爻,
its 变爻 (a moving line's change) or the 伏神 under it. A branch position falls on the parts of
that branch; a stem position on those whose 纳甲 stem matches (「寅建丁亥子孙发动，以丁为天德」);
a direction on the branches of its palace; a whole 干支 (天赦) is in force when the day is that
干支, and falls on no line. A star's hits are those parts, in line order.

`find_stars` finds the stars of one chart once (`ChartStars`): groups of stars that fall
alike, each with where it falls. Its `placements` are the same stars one by one (the API and
the renderer); `serialize` writes the document's `stars` and each line's star ids from it.
A chart's stars come in the order of their weight (`chart_order`: 唯日月之用尊焉, month and day
stars first), and each star's conditions (罡魁临鬼动 …) are judged on the chart
(`ChartStars.conditions`, `stars.conditions`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple

from yimao.chart import Chart, Use
from yimao.ganzhi import Branch, GanZhi, Stem
from yimao.hexagram import Cast, HiddenLine, Line
from yimao.solar_terms import on_term_day
from yimao.stars.catalogue import WEIGHTS, Condition, Covered, Star, basis_values, catalogue, covered
from yimao.stars.conditions import ConditionResult, judged, kin_of, readings_of

PARTS = ("本爻", "变爻", "伏神")


class Hit(NamedTuple):
    position: int
    part: str  # 本爻 | 变爻 | 伏神
    moving: bool  # the moving 本爻, its 变爻, or a lifted 伏神


class PositionedStar:
    """A star with its positions (and each variant's) for a chart's pillars: the same for every
    chart of those pillars, so built once per star, positions and variants (`_positioned`), and
    hashed by identity."""

    __slots__ = ("index", "star", "positions", "variants", "otherwise", "variant_covers")

    def __init__(self, index: int, star: Star, positions: tuple[str, ...], variants: tuple[tuple[str, tuple[str, ...] | None], ...]) -> None:
        self.index = index  # in the catalogue's order
        self.star = star
        self.positions = positions
        self.variants = variants  # each variant's reading, and its positions (None when the chart lacks its basis)
        # the variants placing it otherwise, with what their positions cover and its `slot`
        # (None when the chart lacks their basis): a chart looks up where they fall by slot
        self.otherwise = tuple([(reading, p, *(cover_of(p) if p is not None else (None, -1))) for reading, p in variants if p != positions])
        # those a chart can put on a line (not one of some 节气 days only, which the chart's day
        # decides: `dated`): a chart where only such a variant puts the star on a line lists it
        self.variant_covers = tuple(cover_of(p) for v, (_, p) in zip(star.variants, variants) if p and p != positions and not v.days)

    def __repr__(self) -> str:
        return f"PositionedStar({self.index}, {self.star.id}, {self.positions}, {self.variants})"


class StarHits:
    """Where stars fall on a chart: their hits, the lines of those, whether one moves, and whether
    one of the lines is the 用神 or the 世. One value per set of hits (`star_hits`), shared by the
    charts that meet it, and hashed by identity."""

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
    # each variant reading that places the star elsewhere on this chart, with the star's conditions
    # judged where that reading puts it: (the variant's reading, its judged conditions)
    variant_conditions: tuple[tuple[str, tuple[ConditionResult, ...]], ...] = ()
    # where the variant readings put a star that the reading taken puts on no line (in line order)
    elsewhere: tuple[Hit, ...] = ()

    @property
    def active(self) -> bool:
        """各伺其动: on a moving line (or its 变爻, or a lifted 伏神), or a 干支 star on its day."""
        return self.moving or self.day_match

    def where_text(self) -> str:
        if self.day_match:
            return "值日"
        if not self.hits and self.elsewhere:  # on the chart by another reading alone: where that puts it
            return "异读" + _hits_text(self.elsewhere)
        return _hits_text(self.hits)


def _hits_text(hits: tuple[Hit, ...]) -> str:
    """Hits as a reader writes them: 2 3变动 5伏 (the line, the part when not its 本爻, 动)."""
    return " ".join(f"{h.position}{'' if h.part == '本爻' else h.part[0]}{'动' if h.moving else ''}" for h in hits)


# --- what a chart offers: its parts -----------------------------------------------------------


class Part(NamedTuple):
    """A part of a chart a star may stand on, with the branch and the stem (its 纳甲) it carries."""

    hit: Hit  # its line, which part of the line it is, and whether it moves
    branch: Branch
    stem: Stem


class ChartParts(NamedTuple):
    """The parts of a chart in line order (初爻 first; on each line its 本爻, 变爻, 伏神), and where
    stars standing on one branch, on one stem or on neither fall (`slot`): most stars, which a
    chart finds by index. Each of those holds the hits of the parts carrying its branch or stem."""

    parts: tuple[Part, ...]
    falls_at: tuple[tuple[StarHits, StarHits], ...]  # by slot: the `_star_hits` of the parts carrying it

    def falls(self, cover: Covered, slot: int) -> tuple[StarHits, StarHits]:
        """Where stars covering `cover` fall (`_star_hits`), off the 用神 and the 世 and on them;
        `slot` is the cover's (`slot`), by which most covers are found without hashing."""
        return self.falls_at[slot] if slot >= 0 else _star_hits(self.carrying(cover))

    def carrying(self, cover: Covered) -> tuple[Hit, ...]:
        """The hits of the parts carrying one of the branches or stems of `cover`, in line order."""
        at = self.falls_at
        found = {h for b in cover.branches for h in at[b.index][0].hits} | {h for s in cover.stems for h in at[12 + s.index][0].hits}
        return tuple(sorted(found, key=LINE_ORDER.__getitem__))


# 初爻 first; on a line its 本爻, 变爻, 伏神
LINE_ORDER = {hit: i for i, hit in enumerate(Hit(p, part, moving) for p in range(1, 7) for part in PARTS for moving in (False, True))}


@lru_cache(maxsize=4096)  # the 4096 casts: the pillars and the school of 土 change no branch or stem
def chart_parts(cast: Cast) -> ChartParts:
    """The parts of the chart of `cast`: each line's 本爻, moving or not; a moving line's 变爻 (the
    line of the changed hexagram there), which moves; the 伏神 under a line, lifted when its line
    moves (发动飞爻而相挈)."""
    h, moving = cast
    changed = cast.changed
    hidden = {hl.position: hl for hl in h.hidden}
    parts = []
    for line in h.lines:
        p = line.position
        moves = p in moving
        parts.append(_part(p, "本爻", moves, line))
        if moves and changed is not None:
            parts.append(_part(p, "变爻", True, changed.lines[p - 1]))
        under = hidden.get(p)
        if under is not None:
            parts.append(_part(p, "伏神", moves, under))
    by_slot: list[list[Hit]] = [[] for _ in range(23)]
    for part in parts:
        by_slot[part.branch.index].append(part.hit)
        by_slot[12 + part.stem.index].append(part.hit)
    return ChartParts(tuple(parts), tuple([_star_hits(tuple(hits)) for hits in by_slot]))


@cache  # by a variant's positions: a few hundred
def cover_of(positions: tuple[str, ...]) -> tuple[Covered, int]:
    """What positions cover, and its `slot`."""
    cover = covered(positions)
    return cover, slot(cover)


def slot(cover: Covered) -> int:
    """Where a chart keeps the falls of stars covering `cover` (`ChartParts.falls_at`): one branch
    (0-11), one stem (12-21) or nothing (22, a 干支 star in force by its day alone); -1 for more."""
    branches, stems = cover.branches, cover.stems
    if len(branches) + len(stems) > 1:
        return -1
    if branches:
        return next(iter(branches)).index
    if stems:
        return 12 + next(iter(stems)).index
    return 22


@cache  # 36 hits × the lines of the 64 hexagrams and their 伏神: a few thousand
def _part(position: int, part: str, moving: bool, line: Line | HiddenLine) -> Part:
    """The part of line `position` that `line` (its 本爻, its 变爻 or its 伏神) is."""
    return Part(Hit(position, part, moving), line.branch, line.stem)


def star_hits(hits: tuple[Hit, ...], focus: frozenset[int]) -> StarHits:
    """Where stars standing on `hits` fall, `focus` being the lines of the 用神 and the 世."""
    off, on = _star_hits(hits)
    return off if focus.isdisjoint(off.lines) else on


@lru_cache(maxsize=1 << 15)  # about 2,500 sets of hits occur over 10,000 random charts
def _star_hits(hits: tuple[Hit, ...]) -> tuple[StarHits, StarHits]:
    """The `StarHits` of `hits` off the 用神 and the 世, and on them."""
    lines = tuple(sorted({h.position for h in hits}))
    moving = any(h.moving for h in hits)
    return StarHits(hits, lines, moving, False), StarHits(hits, lines, moving, True)


@cache  # 6 places of the 世 × the 用神's lines
def focus_lines(shi: int, use: tuple[int, ...]) -> frozenset[int]:
    """The 世's line and the 用神's (its 伏神's, when it is not on the chart's lines)."""
    return frozenset((shi, *use))


# --- the stars of one pillar's value, grouped by what they cover -------------------------------


class StarGroup(NamedTuple):
    """Stars read from one pillar that cover the same branches, stems and 干支: on any chart they
    stand on the same parts, so a chart looks the group up once."""

    cover: Covered
    slot: int  # the cover's `slot`
    members: tuple[PositionedStar, ...]
    varied: tuple[PositionedStar, ...]  # the members a variant reading may put on a line elsewhere


# The pillar each basis is read from (地支之星以月为凭，天干之星以日为主). Stars of bases read from
# the same pillar are grouped together, across bases: a chart looks up fewer groups.
_SOURCES = {
    "month": ("month", "season", "month_sanhe"),
    "day": ("day_stem", "day_ganzhi"),
    "year": ("year_branch",),
    "month_hour": ("month_hour",),
    "year_month": ("year_month",),
}


@cache  # a source has at most 144 keys, for each topic
def star_groups(topic: str | None, source: str, key: Any) -> tuple[StarGroup, ...]:
    """The stars (of `topic`) read from one pillar, or pair of pillars, that have a place for its
    value `key`, grouped by what they cover; the groups in the order of their first stars."""
    groups: dict[Covered, list[PositionedStar]] = {}
    for i, star in _read_from(topic, source):
        k = key[0] if star.basis == "day_stem" and key is not None else key  # the day's stem
        positions = _at(star.table, k)
        variants = tuple([(v.reading, _at(v.table, k)) for v in star.variants])
        if positions or (positions is not None and any(p for _, p in variants)):  # placed by the table taken, or by another reading
            groups.setdefault(covered(positions), []).append(_positioned(i, positions, variants))
    return tuple(StarGroup(cover, slot(cover), tuple(members), tuple([m for m in members if m.variant_covers])) for cover, members in groups.items())


@cache
def _read_from(topic: str | None, source: str) -> tuple[tuple[int, Star], ...]:
    """The stars (of `topic`) read from one pillar, or pair of pillars, with their index in `chart_order`."""
    return tuple([(i, star) for i, star in _on_charts(topic) if star.basis in _SOURCES[source]])


def _at(table: Mapping[str, Any], key: Any) -> tuple[str, ...] | None:
    """A table's positions for a basis key (a pair of keys for two-key bases); None when a key is
    missing."""
    if isinstance(key, tuple):
        inner = table.get(key[0]) if key[0] is not None else None
        return inner.get(key[1]) if inner is not None and key[1] is not None else None
    return table.get(key) if key is not None else None


@cache  # a star's places: a few dozen at most
def _positioned(index: int, positions: tuple[str, ...], variants: tuple[tuple[str, tuple[str, ...] | None], ...]) -> PositionedStar:
    """The one `PositionedStar` of a star with these positions and variants: many keys put a star
    in the same place (a month star's table repeats by season), and what is made of a placed
    star (its entry in a document) is then made once for all of them."""
    return PositionedStar(index, chart_order()[index], positions, variants)


@cache
def chart_order() -> tuple[Star, ...]:
    """Every star of the catalogue in the order a chart lists them: heavy (month and day stars)
    before light (year and hour stars), each in the catalogue's order. 「地支之星以月为凭，天干之星
    以日为主，年星虽列，远而较轻，时星间陈，叟而易逝，唯日月之用尊焉」 (6.56). A star's index on a
    chart (`PositionedStar.index`) is its place here."""
    stars = catalogue().stars
    return tuple(s for w in WEIGHTS for s in stars if s.weight == w)


@cache
def dated_stars() -> frozenset[Star]:
    """The stars with a variant of some 节气 days only (天赦 须逢节气本日)."""
    return frozenset(s for s in catalogue().stars if any(v.days for v in s.variants))


def dated(star: Star, variants: tuple[tuple[str, tuple[str, ...] | None], ...], context: Any) -> tuple[tuple[str, tuple[str, ...] | None], ...]:
    """A star's variants' positions as the moment (a `pillars.DateContext`) makes them: a variant
    of some 节气 days only (`Variant.days`) keeps its table's positions on such a day and has none
    on another (`solar_terms.on_term_day`); without a moment (pillars given) it is not known (None)."""
    if star not in dated_stars():
        return variants
    out = []
    for v, (reading, positions) in zip(star.variants, variants):
        if v.days and positions is not None:
            positions = None if context is None else positions if on_term_day(context.moment, v.days, context.day_start) else ()
        out.append((reading, positions))
    return tuple(out)


def _of_kind(star: Star, topic: str | None) -> bool:
    """多视其类: a star for the topic (or 通用, or with no kind stated), or any without a topic."""
    return topic is None or not star.topics or topic in star.topics or "通用" in star.topics


@cache
def _on_charts(topic: str | None) -> tuple[tuple[int, Star], ...]:
    """The stars placed on charts by a rule (for a topic), with their index in `chart_order`."""
    return tuple((i, s) for i, s in enumerate(chart_order()) if s.placed and s.on_charts and _of_kind(s, topic))


@cache
def _on_hexagram_lines(topic: str | None) -> Mapping[int, tuple[tuple[int, tuple[PositionedStar]], ...]]:
    """By the King Wen number of a 本卦: the stars the book sets on one of its lines (乾之上九降参，
    又降镇星), each with its line, as placed stars whose position is what stands there (参宿)."""
    out: dict[int, list[tuple[int, tuple[PositionedStar]]]] = {}
    for i, s in enumerate(chart_order()):
        for h in s.hexagram_lines:
            if _of_kind(s, topic):
                out.setdefault(h.king_wen, []).append((h.line, (_positioned(i, (h.name,), ()),)))
    return MappingProxyType({k: tuple(v) for k, v in out.items()})


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
    parts: ChartParts | None = None  # the chart's cast's (`chart_parts`), where its variants fall

    def conditions(self, *, of_the_chart: bool = False) -> dict[int, tuple[ConditionResult, ...]]:
        """By star index (`chart_order`): the conditions of each star on the chart that has any,
        judged (`stars.conditions`); with `of_the_chart`, only the stars one of whose conditions
        reads the chart (the others' answers depend on the topic alone). Built on request: most
        stars have none."""
        out = {}
        topic, kin, stem = self.topic, None, self.day_stem
        for w, _, members in self.groups:
            for i, conditions, readings in _conditioned(members):
                if readings is not None:
                    kin = kin or kin_of(self.chart)
                    out[i] = judged(conditions, readings, kin, w.hits, topic, stem)
                elif not of_the_chart:
                    out[i] = judged(conditions, None, None, (), topic)
        return out

    @property
    def day_stem(self) -> str | None:
        """The day's stem, which a reading of some days only asks (羊刃's 偶 as the yin stems)."""
        day = self.chart.pillars.day if self.chart is not None else None
        return day.stem._value_ if isinstance(day, GanZhi) else None  # a bare branch has no stem

    def variants_of(self, s: PositionedStar) -> tuple[tuple[str, tuple[str, ...] | None], ...]:
        """A star's variants and their positions on this chart (`dated`: some hold on a 节气's day only)."""
        if s.star not in dated_stars():
            return s.variants
        return dated(s.star, s.variants, self.chart.pillars.context if self.chart is not None else None)

    def variant_falls(self, s: PositionedStar) -> tuple[tuple[str, tuple[str, ...] | None, tuple[int, ...] | None], ...]:
        """Each variant reading that places the star otherwise on this chart: the reading, its
        positions and the lines on whose 本爻, 变爻 or 伏神 they fall (None when the chart cannot
        say where it stands)."""
        parts = self.parts or chart_parts(self.chart.cast)
        if s.star in dated_stars():  # the day decides some of its variants' positions
            return tuple(
                [(reading, p, None if p is None else parts.falls(*cover_of(p))[0].lines) for reading, p in self.variants_of(s) if p != s.positions]
            )
        return tuple([(reading, p, None if cover is None else parts.falls(cover, at)[0].lines) for reading, p, cover, at in s.otherwise])

    def variant_conditions(self, s: PositionedStar) -> tuple[tuple[str, tuple[ConditionResult, ...]], ...]:
        """A star's conditions judged where each variant reading places it otherwise (喜神 by its
        palace's direction, 天官符 flying on): a condition's lines are the star's, and a reading
        that moves the star moves them. A condition of the question's topic alone says the same
        wherever the star stands: the document and the screen give the others (`reads_the_chart`)."""
        if not s.variants:
            return ()
        readings = readings_of(s.star.conditions)
        if readings is None:
            return ()
        parts, kin = self.parts or chart_parts(self.chart.cast), kin_of(self.chart)
        out = []
        for reading, positions in self.variants_of(s):
            if positions is not None and positions != s.positions:
                out.append((reading, judged(s.star.conditions, readings, kin, parts.falls(*cover_of(positions))[0].hits, self.topic, self.day_stem)))
        return tuple(out)

    @property
    def placements(self) -> tuple[Placement, ...]:
        """The stars one by one, in `chart_order` (heavy first)."""
        slots: list[Placement | None] = [None] * len(catalogue().stars)
        conditions = self.conditions()
        for w, day_match, members in self.groups:
            for s in members:
                slots[s.index] = Placement(
                    s.star,
                    s.positions,
                    w.hits,
                    w.lines,
                    w.moving,
                    day_match,
                    w.on_use,
                    self.variants_of(s),
                    conditions.get(s.index, ()),
                    self.variant_conditions(s) if s.variants and s.star.conditions else (),
                    () if w.hits or day_match else self._elsewhere(s),
                )
        return tuple(filter(None, slots))

    def _elsewhere(self, s: PositionedStar) -> tuple[Hit, ...]:
        """Where the variant readings put a star (those a chart can place: `variant_covers`)."""
        parts = self.parts or chart_parts(self.chart.cast)
        found = {h for c, at in s.variant_covers for h in parts.falls(c, at)[0].hits}
        return tuple(sorted(found, key=LINE_ORDER.__getitem__))


@cache  # by a group's stars (the tuples `star_groups` keeps)
def _conditioned(members: tuple[PositionedStar, ...]) -> tuple[tuple[int, tuple[Condition, ...], Any], ...]:
    """The stars of a group that have conditions: each one's index, its conditions, and their
    readings of the chart (`readings_of`; None when they read the topic only)."""
    return tuple([(m.index, m.star.conditions, readings_of(m.star.conditions)) for m in members if m.star.conditions])


def find_stars(chart: Chart, *, use: Use | None = None, topic: str | None = None) -> ChartStars:
    """The stars of the catalogue that stand on the chart: those falling on a line (本爻, 变爻 or
    伏神), 干支 stars on their day, and those that only a variant reading puts on a line (a
    disagreement shown: on no line by the reading taken, on its own by the variant's). Stars the
    book names without a rule have no place. With `topic`, only stars of that kind of question,
    or with no stated kind, are kept."""
    t = topic_filter(topic)
    cast, pillars = chart.cast, chart.pillars
    month, day, year, hour = basis_values(pillars.month_branch, pillars.day, pillars.year, pillars.hour)
    parts = chart_parts(cast)
    focus = focus_lines(cast.hexagram.shi, (use.positions or use.hidden_positions) if use is not None else ())
    groups = []
    for source, key in (("month", month), ("day", day), ("year", year), ("month_hour", (month, hour)), ("year_month", (year, month))):
        for cover, at, members, varied in star_groups(t, source, key):
            off_use, on_use = parts.falls(cover, at)
            day_match = day in cover.ganzhi
            if off_use.hits or day_match:
                groups.append((off_use if focus.isdisjoint(off_use.lines) else on_use, day_match, members))
            elif varied:  # on no line by the reading taken: those another reading puts on one are listed all the same
                elsewhere = tuple([m for m in varied if any(parts.falls(c, c_slot)[0].hits for c, c_slot in m.variant_covers)])
                if elsewhere:
                    groups.append((off_use, False, elsewhere))
    for line, members in _on_hexagram_lines(t).get(cast.hexagram.king_wen, ()):  # 乾之上九降参: on one line of this 本卦
        groups.append((star_hits((Hit(line, "本爻", line in cast.moving),), focus), False, members))
    return ChartStars(tuple(groups), chart, t, parts)


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
    star: Star, month: str | None, day: str | None, year: str | None, hour: str | None, context: Any = None
) -> tuple[tuple[str, ...] | None, tuple[tuple[str, tuple[str, ...] | None], ...]]:
    """A star's positions (and each variant's) for basis strings, and the moment (`DateContext`)
    when they come from a date (`dated`); an error naming what is missing."""
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
    return pos, dated(star, variants, context)


def stars_at(
    month: str | None, day: str | None, year: str | None, hour: str | None, context: Any = None
) -> list[tuple[Star, tuple[str, ...] | None, tuple[tuple[str, tuple[str, ...] | None], ...]]]:
    """Every star with a rule, with its positions (and each variant's) for basis strings and the
    moment they come from, if any; None where the basis lacks what the star is read from (`yimao stars`)."""
    rows = []
    for s in catalogue().stars:
        if s.placed:
            variants = tuple((v.reading, s.lookup(v.table, month, day, year, hour)) for v in s.variants)
            rows.append((s, s.lookup(s.table, month, day, year, hour), dated(s, variants, context)))
    return rows
