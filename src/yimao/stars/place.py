"""Stars on a chart: where each star stands for the chart's pillars, and the lines it falls on.

"地支之星以月为凭，天干之星以日为主" (the table's basis says which pillar); "各伺其动，不动则
不伺" (a star on a static line is dormant); "多视其类，非类则弗亲" (`topic` keeps the stars of
that kind of question); "必以用神为主而星辅之" (stars on the 用神 or the 世 are shown first).

A branch position falls on 本卦 lines, 变爻 and 伏神 of that branch; a stem position on those
whose 纳甲 stem matches (寅建丁亥子孙发动，以丁为天德); a direction on the branches of its
palace; a whole 干支 (天赦) is in force when the day is that 干支, and falls on no line.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, NamedTuple

from yimao.chart import Chart, Use
from yimao.errors import UnknownNameError
from yimao.ganzhi import GanZhi
from yimao.stars.catalogue import Star, basis_values, catalogue

PARTS = ("本爻", "变爻", "伏神")


class Hit(NamedTuple):
    position: int
    part: str  # 本爻 | 变爻 | 伏神
    moving: bool  # the moving 本爻, its 变爻, or a lifted 伏神


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

    @property
    def active(self) -> bool:
        """各伺其动: on a moving line (or its 变爻, or a lifted 伏神), or a 干支 star on its day."""
        return self.moving or self.day_match

    def where_text(self) -> str:
        if self.day_match:
            return "值日"
        return " ".join(
            f"{h.position}{'' if h.part == '本爻' else h.part[0]}{'动' if h.moving else ''}" for h in self.hits
        )

    def to_dict(self) -> dict[str, Any]:
        return placements_to_dicts((self,))[0]


def placements_to_dicts(placements: Iterable[Placement]) -> list[dict[str, Any]]:
    """The JSON of placed stars. A star's own fields and its positions for a key are built once
    (`_head`); the hit fields once per chart for each set of hits (stars touching the same lines
    share one hits tuple). The dicts share those parts: read-only."""
    tails: dict[tuple[int, bool], dict[str, Any]] = {}
    out = []
    for p in placements:
        star, positions, hits, _, _, day_match, _, variants = p  # unpacking beats 4 field reads
        head, var = _head(star, positions, variants)
        key = (id(hits), day_match)  # the placements keep their hits alive meanwhile
        tail = tails.get(key)
        if tail is None:
            tail = tails[key] = _tail(p)
        out.append({**head, **tail, "variants": var})
    return out


def placements_json(placements: Iterable[Placement]) -> bytes:
    """The same array as `placements_to_dicts`, as compact JSON bytes, from the pieces of each
    entry encoded once: byte for byte what orjson writes for the dicts, at a fraction of the
    cost (a chart carries ~80 stars; `yimao batch` writes thousands of charts a second)."""
    import orjson

    tails: dict[tuple[int, bool], bytes] = {}
    out = [b"["]
    for p in placements:
        star, positions, hits, _, _, day_match, _, variants = p
        head, var = _head_json(star, positions, variants)
        key = (id(hits), day_match)
        tail = tails.get(key)
        if tail is None:
            tail = tails[key] = orjson.dumps(_tail(p))[1:-1] + b","  # the fields, no braces
        out += (head, tail, var)
    if len(out) > 1:
        out[1] = out[1][1:]  # the first entry has no comma before it
    out.append(b"]")
    return b"".join(out)


def _tail(p: Placement) -> dict[str, Any]:
    return {
        "lines": list(p.line_positions),
        "hits": [{"position": h.position, "part": h.part, "moving": h.moving} for h in p.hits],
        "moving": p.moving,
        "active": p.active,
        "day_match": p.day_match,
        "on_use": p.on_use,
    }


_Variants = tuple[tuple[str, tuple[str, ...] | None], ...]


@cache
def _head(star: Star, positions: tuple[str, ...] | None, variants: _Variants) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What no chart changes of a star's JSON for one key of its basis: its own fields and
    positions (the head), and its variants' positions (the last field)."""
    q = star.quote
    head = {
        "id": star.id,
        "name": star.name,
        "aliases": list(star.aliases),
        "basis": star.basis,
        "nature": star.nature,
        "topics": list(star.topics),
        # the defining sentence; its modern rendering is in `yimao text <passage>`
        "text": {"passage": q.passage, "original": q.original} if q else None,
        "positions": list(positions) if positions is not None else None,
    }
    return head, [{"reading": r, "positions": list(p) if p is not None else None} for r, p in variants]


@cache
def _head_json(star: Star, positions: tuple[str, ...] | None, variants: _Variants) -> tuple[bytes, bytes]:
    """`_head` encoded: a comma and the head's fields up to its closing brace, and the variants
    field with the entry's closing brace (`placements_json` drops the array's first comma)."""
    import orjson

    head, var = _head(star, positions, variants)
    return b"," + orjson.dumps(head)[:-1] + b",", b'"variants":' + orjson.dumps(var) + b"}"


@cache
def _standing(topic: str | None, basis: str, key: Any) -> tuple[tuple[int, int, frozenset[str], tuple[Any, ...]], ...]:
    """The stars of one basis that have a place for one key, grouped by what they touch:
    (branch mask, stem mask, 干支, members), each member (catalogue index, star, positions,
    variants' positions). Stars of one group fall on the same lines of any chart, so a chart
    tests each group once. Cached: a basis has at most 144 keys."""
    groups: dict[tuple[int, int, frozenset[str]], list[tuple[Any, ...]]] = {}
    for i, star in _on_charts(topic):
        if star.basis == basis:
            entry = star.entry(key)
            if entry is not None:
                positions, bmask, smask, ganzhi = entry
                groups.setdefault((bmask, smask, ganzhi), []).append((i, star, positions, _variant_positions(star, key)))
    return tuple((*k, tuple(members)) for k, members in groups.items())


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


_PLACED_BASES = ("month", "season", "month_sanhe", "day_stem", "day_ganzhi", "year_branch", "month_hour", "year_month")


@cache
def _on_charts(topic: str | None) -> tuple[tuple[int, Star], ...]:
    """The stars placed on charts (for a topic), with their index in the catalogue's order."""
    return tuple(
        (i, s)
        for i, s in enumerate(catalogue().stars)
        if s.placed and s.on_charts and (topic is None or not s.topics or topic in s.topics or "通用" in s.topics)
    )


def topic_filter(topic: str | None) -> str | None:
    """Validate a --topic against the catalogue's vocabulary."""
    if topic is None:
        return None
    t = topic.strip()
    topics = catalogue().topics
    if t not in topics:
        raise UnknownNameError(f"unknown topic {topic!r}", topic, topics)
    return t


def place_stars(chart: Chart, *, use: Use | None = None, topic: str | None = None, stars: Iterable[Star] | None = None) -> tuple[Placement, ...]:
    """The stars of the catalogue (or `stars`) that stand on the chart, in the catalogue's order:
    those falling on a line (本爻, 变爻 or 伏神) and 干支 stars on their day.

    Stars the book names without a rule have no place. With `topic`, only stars of that kind of
    question, or with no stated kind, are kept. `yimao stars` lists every star for the pillars.
    """
    t = topic_filter(topic)
    p = chart.pillars
    month, day, year, hour = basis_values(p.month_branch, p.day, p.year, p.hour)
    day_gz = str(p.day) if isinstance(p.day, GanZhi) else None
    # what the chart offers, in line order (本爻, 变爻, 伏神 of 初爻 first): one Hit per part, and
    # for each branch and each stem the bit set of the parts that carry it
    hit_of: list[Hit] = []
    parts_b = [0] * 12
    parts_s = [0] * 10
    new = tuple.__new__  # NamedTuples built without their Python-level __new__: charts make many
    for cl in chart.lines:
        for part, moving, line in (
            ("本爻", cl.moving, cl.line),
            ("变爻", True, cl.changed),
            ("伏神", cl.hidden.lifted if cl.hidden else False, cl.hidden.line if cl.hidden else None),
        ):
            if line is not None:
                bit = 1 << len(hit_of)
                parts_b[line.branch.index] |= bit
                parts_s[line.stem.index] |= bit
                hit_of.append(new(Hit, (cl.position, part, moving)))
    chart_b = sum(1 << b for b in range(12) if parts_b[b])
    chart_s = sum(1 << s for s in range(10) if parts_s[s])
    focus = {chart.hexagram.shi}
    if use is not None:
        focus |= set(use.positions or use.hidden_positions)
    # the key each basis reads (地支之星以月为凭，天干之星以日为主)
    keys: dict[str, Any] = {
        "month": month,
        "season": month,
        "month_sanhe": month,
        "day_stem": day[0] if day else None,
        "day_ganzhi": day,
        "year_branch": year,
        "month_hour": (month, hour),
        "year_month": (year, month),
    }
    if stars is None:
        groups = [g for b in _PLACED_BASES for g in _standing(t, b, keys[b])]
    else:
        index = {s: i for i, s in enumerate(catalogue().stars)}
        groups = [
            (e[1], e[2], e[3], ((index[st], st, e[0], _variant_positions(st, keys.get(st.basis))),))
            for st in stars
            if (e := st.entry(keys.get(st.basis))) is not None
        ]
    # groups touching the same branches and stems of this chart share their hits: compute each once
    touched: dict[int, tuple[tuple[Hit, ...], tuple[int, ...], bool, bool]] = {}
    slots: list[Placement | None] = [None] * len(catalogue().stars)  # by catalogue index: the book's order
    for bmask, smask, ganzhi, members in groups:
        day_match = day_gz in ganzhi if ganzhi else False
        key = (bmask & chart_b) | (smask & chart_s) << 12  # branches and stems touched, as one int
        if not (key or day_match):
            continue  # these stars stand nowhere on this chart
        found = touched.get(key)
        if found is None:
            found = touched[key] = _hits((key & 0xFFF, key >> 12), parts_b, parts_s, hit_of, focus)
        hits, lines, moving, on_use = found
        for i, star, positions, variants in members:
            slots[i] = new(Placement, (star, positions, hits, lines, moving, day_match, on_use, variants))
    return tuple(filter(None, slots))


def _hits(key: tuple[int, int], parts_b: list[int], parts_s: list[int], hit_of: list[Hit], focus: set[int]) -> tuple[tuple[Hit, ...], tuple[int, ...], bool, bool]:
    """The parts a (branch mask, stem mask) falls on, in line order; their lines; whether any
    moves; whether one is the 用神 or the 世."""
    on = 0
    for mask, parts in ((key[0], parts_b), (key[1], parts_s)):
        while mask:  # over the set bits only: a star covers one to three branches or stems
            low = mask & -mask
            on |= parts[low.bit_length() - 1]
            mask ^= low
    hits = []
    while on:
        low = on & -on
        hits.append(hit_of[low.bit_length() - 1])
        on ^= low
    lines = tuple(dict.fromkeys(h.position for h in hits))
    return tuple(hits), lines, any(h.moving for h in hits), not focus.isdisjoint(lines)


def star_meta(star: Star) -> dict[str, Any]:
    """What `yimao star` and `yimao stars` say of a star besides its positions."""
    return {
        "id": star.id,
        "name": star.name,
        "traditional": star.traditional,
        "aliases": list(star.aliases),
        "group": star.group,
        "basis": star.basis,
        "kind": star.kind,
        "nature": star.nature,
        "topics": list(star.topics),
        "rule": star.rule,
        "notes": list(star.notes),
        "text": [q.to_dict() for q in star.quotes],
    }


def table_to_dict(table: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else table_to_dict(v)) for k, v in table.items()}


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


def positions_for(star: Star, month: str | None, day: str | None, year: str | None, hour: str | None) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
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
