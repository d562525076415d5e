"""Stars on a chart: where each star stands for the chart's pillars, and the lines it falls on.

"地支之星以月为凭，天干之星以日为主" (the table's basis says which pillar); "各伺其动，不动则
不伺" (a star on a static line is dormant); "多视其类，非类则弗亲" (`topic` keeps the stars of
that kind of question); "必以用神为主而星辅之" (stars on the 用神 or the 世 are shown first).

A branch position falls on 本卦 lines, 变爻 and 伏神 of that branch; a stem position on those
whose 纳甲 stem matches (寅建丁亥子孙发动，以丁为天德); a direction on the branches of its
palace; a whole 干支 (天赦) is in force when the day is that 干支, and falls on no line.

`stand` finds the stars of one chart once; `placements`, `stars_json` and `line_ids` read that
one result as Placement values (the API and the renderer), as the document's encoded `stars`
array, and as each line's star ids (`encoded` gives the last two at once, for `yimao batch`),
so they can never disagree.
"""

from __future__ import annotations

from functools import cache
from operator import itemgetter, or_
from typing import Any, NamedTuple

import orjson

from yimao.chart import Chart, Use
from yimao.ganzhi import Branch
from yimao.stars.catalogue import Star, basis_values, catalogue, star_entry

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
_LINES_JSON = {m: orjson.dumps(lines) for m, lines in _LINES.items()}
_PARTS: dict[Any, _Parts] = {}  # by cast: at most 4096
# Where a set of parts falls, by the set: its Found off the 用神 and 世 and on them, and its lines
# as bits (to test against a chart's). About 2,500 sets occur over 10,000 random charts; bounded
# all the same. (Keyed by the set and the chart's 用神 and 世 instead, it met five times as many
# keys for the first time.)
_FOUNDS: dict[int, tuple[Found, Found, int]] = {}
_FOUNDS_MAX = 1 << 15


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
        line, mv, _, _, _, _, hidden, changed = cl[:8]
        base = 6 * (line.position - 1)
        for part, bit in (
            (line, 1 << (base + mv)),
            (changed, 1 << (base + 3)),  # a 变爻 moves
            (hidden[0] if hidden is not None else None, 1 << (base + 4 + mv)),  # lifted when its line moves
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


def _founds(on: int) -> tuple[Found, Found, int]:
    """Where a set of parts falls (`_FOUNDS`): its hits in line order, their lines, whether one
    moves, and the document's fields for them (`"lines":…,"hits":…,` and the flags)."""
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
    json = b'"lines":' + _LINES_JSON[lines] + b',"hits":[' + b",".join(map(_hit_json, hits)) + b"],"
    fixed = tuple(hits), _LINES[lines], moving
    founds = (
        tuple.__new__(Found, (*fixed, False, json, json + _FLAGS[moving, False, False])),
        tuple.__new__(Found, (*fixed, True, json, json + _FLAGS[moving, False, True])),
        lines,
    )
    if len(_FOUNDS) < _FOUNDS_MAX:
        _FOUNDS[on] = founds
    return founds


@cache  # 36 hits in all: each encoded once
def _hit_json(h: Hit) -> bytes:
    return orjson.dumps({"position": h.position, "part": h.part, "moving": h.moving})


# --- the stars of one basis key, grouped by what they touch -------------------------------------


class _Group(NamedTuple):
    """Stars of one basis key covering the same branches, stems and 干支: on any chart they fall
    on the same parts, so a chart tests the group once."""

    mask: int  # the branches (bit = branch index) and stems (bit = 12 + stem index) covered
    ganzhi: frozenset[str]  # whole 干支 (in force on that day)
    members: tuple[tuple[int, Star, tuple[str, ...], tuple[Any, ...]], ...]  # index, star, positions, variants
    entries: tuple[tuple[int, tuple[bytes, bytes]], ...]  # index, and its JSON entry before and after its hits
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
def _standing(topic: str | None, source: str, key: Any) -> tuple[_Group, ...]:
    """The stars read from one pillar (or pair of pillars) that have a place for its value `key`,
    in groups. Cached: a source has at most 144 keys."""
    if topic is not None:  # the groups of all stars, each kept to the topic's: a fraction of the cost
        return _of_topic(_standing(None, source, key), _topic_indices(topic))
    return _groups(None, source, key)


def _groups(topic: str | None, source: str, key: Any) -> tuple[_Group, ...]:
    """`_standing(topic, source, key)` built from the catalogue."""
    groups: dict[tuple[int, frozenset[str]], list[Any]] = {}
    stem = key[0] if key is not None else None  # a day's stem, for the stars of the day's stem
    new = tuple.__new__  # no Python-level NamedTuple __new__: a run builds some 3,000 members
    for i, star, of_stem, head, no_variants in _source_stars(topic, source):
        k = stem if of_stem else key
        entry = star_entry(star, k)  # `star.entry` without its call
        if entry is not None:
            positions, bmask, smask, ganzhi = entry
            if no_variants:
                variants, tail = (), _NO_VARIANTS
            else:
                variants = _variant_positions(star, k)
                tail = _variants_json(variants)
            # the entry in the document but for the fields of the chart's hits: its fields up to
            # `positions`, and `variants` with the closing brace (joined by the hits' fields, one
            # C call makes the entry); what does not depend on the key is encoded once per star
            piece = i, (head + orjson.dumps(positions) + b",", tail)
            group = groups.get((bmask | smask << 12, ganzhi))
            if group is None:
                groups[bmask | smask << 12, ganzhi] = [[(i, star, positions, variants)], [piece], [i]]
            else:
                group[0].append((i, star, positions, variants))
                group[1].append(piece)
                group[2].append(i)
    return tuple(new(_Group, (mask, ganzhi, tuple(g[0]), tuple(g[1]), tuple(g[2]))) for (mask, ganzhi), g in groups.items())


@cache
def _source_stars(topic: str | None, source: str) -> tuple[tuple[int, Star, bool, bytes, bool], ...]:
    """`_on_charts(topic)` read from one source (`_SOURCES`), with what `_groups` asks of each
    star for every key: whether it is read from the day's stem, its entry's head (`_head`), and
    whether it has no variants."""
    bases = _SOURCES[source]
    return tuple((i, star, star.basis == "day_stem", _head(star), not star.variants) for i, star in _on_charts(topic) if star.basis in bases)


def _of_topic(groups: tuple[_Group, ...], keep: frozenset[int]) -> tuple[_Group, ...]:
    """`groups` with only the members in `keep`, in the order `_groups` builds them in (by
    first member): what `_groups` gives for a topic (a test checks every topic and key)."""
    out = []
    whole, none = keep.issuperset, keep.isdisjoint
    cut = False
    for g in groups:
        indices = g[4]
        if whole(indices):  # most groups: all of them in the topic, or (below) none
            out.append(g)
        elif not none(indices):
            kept = [k for k, i in enumerate(indices) if i in keep]
            out.append(tuple.__new__(_Group, (g[0], g[1], *(tuple(map(seq.__getitem__, kept)) for seq in (g[2], g[3], indices)))))
            cut = True
    if cut:  # a group that lost its first member may now come later
        out.sort(key=lambda g: g.indices[0])
    return tuple(out)


@cache
def _topic_indices(topic: str) -> frozenset[int]:
    return frozenset(i for i, _ in _on_charts(topic))


@cache
def _head(star: Star) -> bytes:
    """A star's entry from its `{` to its `"positions":`."""
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
    }
    return orjson.dumps(head)[:-1] + b',"positions":'


_NO_VARIANTS = b'"variants":[]}'


@cache
def _variants_json(variants: tuple[tuple[str, tuple[str, ...] | None], ...]) -> bytes:
    """`"variants":[…]}`, the end of an entry (the same readings and positions recur across keys)."""
    var = [{"reading": r, "positions": list(p) if p is not None else None} for r, p in variants]
    return b'"variants":' + orjson.dumps(var) + b"}"


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
    return t if t in catalogue().topics else catalogue().topic(topic)  # the usual topic by a lookup; the rest there


# --- the stars of one chart -----------------------------------------------------------------------


class Found(NamedTuple):
    """Where the stars touching one set of branches and stems fall on a chart."""

    hits: tuple[Hit, ...]
    lines: tuple[int, ...]
    moving: bool
    on_use: bool
    json: bytes  # the document's fields for these hits: `"lines":…,"hits":…,` (flags excluded)
    fields: bytes  # `json` and the flags after it (`"moving":…,"on_use":…,`) on a day that is no star's 干支


class Standing(NamedTuple):
    """The stars standing on one chart: each group that falls somewhere (or whose 干支 is the
    day's), where it falls, and whether it is in force by its day."""

    touched: tuple[tuple[_Group, Found, bool], ...]


# the flags after the hits, by moving, day_match and on_use: `"moving":…,"on_use":…,`
_FLAGS = {
    (m, d, u): orjson.dumps({"moving": m, "active": m or d, "day_match": d, "on_use": u})[1:-1] + b","
    for m in (False, True)
    for d in (False, True)
    for u in (False, True)
}
_NOWHERE = Found((), (), False, False, b'"lines":[],"hits":[],', b'"lines":[],"hits":[],' + _FLAGS[False, False, False])


def stand(chart: Chart, *, use: Use | None = None, topic: str | None = None) -> Standing:
    """The stars of the catalogue that stand on the chart: those falling on a line (本爻, 变爻 or
    伏神) and 干支 stars on their day. Stars the book names without a rule have no place. With
    `topic`, only stars of that kind of question, or with no stated kind, are kept."""
    t = topic_filter(topic)
    cast, p = chart[0], chart[1]  # fields read directly: Chart.hexagram, Hexagram.shi and
    m = p.month  # FourPillars.month_branch are Python-level properties
    month, day, year, hour = basis_values(m if m is None or m.__class__ is Branch else m.branch, p.day, p.year, p.hour)
    by_bit, present = _parts(chart)
    focus = 1 << cast[0].generation.shi
    if use is not None:
        for q in use.positions or use.hidden_positions:
            focus |= 1 << q
    touched = []
    found: dict[int, Found] = {0: _NOWHERE}  # groups touching the same bits share where they fall
    for source, key in (("month", month), ("day", day), ("year", year), ("month_hour", (month, hour)), ("year_month", (year, month))):
        for g in _standing(t, source, key):
            bits = g[0] & present
            day_match = day in g[1] if g[1] else False
            if bits or day_match:
                f = found.get(bits)
                if f is None:
                    if bits & (bits - 1):  # several branches or stems
                        f = _found(by_bit, bits, focus)
                    else:  # one, as for most stars: `_found` inlined (a call is dear, ten a chart)
                        on = by_bit[bits.bit_length() - 1]
                        fs = _FOUNDS.get(on) or _founds(on)
                        f = fs[1] if fs[2] & focus else fs[0]
                    found[bits] = f
                touched.append((g, f, day_match))
    return tuple.__new__(Standing, (tuple(touched),))  # without the Python-level __new__


def _found(by_bit: tuple[int, ...], bits: int, focus: int) -> Found:
    """Where the stars touching the several branches or stems `bits` fall (a chart's
    `_Parts.by_bit`; `stand` does the case of one itself): the parts carrying any of them, in
    line order; their lines; whether one moves; whether one is the 用神 or the 世 (a line of
    `focus`)."""
    on = 0
    while bits:
        low = bits & -bits
        on |= by_bit[low.bit_length() - 1]
        bits ^= low
    founds = _FOUNDS.get(on) or _founds(on)
    return founds[1] if founds[2] & focus else founds[0]


def place_stars(chart: Chart, *, use: Use | None = None, topic: str | None = None) -> tuple[Placement, ...]:
    """The stars standing on the chart (see `stand`), in the catalogue's order."""
    return placements(stand(chart, use=use, topic=topic))


def placements(standing: Standing) -> tuple[Placement, ...]:
    """A chart's standing stars as Placement values, in the catalogue's order."""
    new = tuple.__new__  # NamedTuples built without their Python-level __new__: charts make many
    slots: list[Placement | None] = [None] * len(catalogue().stars)
    for g, (hits, lines, moving, on_use, _, _), day_match in standing.touched:
        for i, star, positions, variants in g[2]:
            slots[i] = new(Placement, (star, positions, hits, lines, moving, day_match, on_use, variants))
    return tuple(filter(None, slots))


def encoded(standing: Standing) -> tuple[list[bytes], dict[int, bytes]]:
    """The document's `stars` array, compact JSON in the catalogue's order, as pieces to join,
    and each line's star ids as JSON (`line_ids`, encoded), from one pass over the groups
    standing on the chart. Each entry is its star's two pieces for the key (encoded once)
    joined by the fields of its hits and flags (encoded once per chart for each set of hits):
    one `bytes.join` an entry, and one for the array, so that the document has three pieces of
    stars to join, not hundreds."""
    slots: list[bytes | None] = [None] * _size()
    per: list[list[int]] = [[], [], [], [], [], [], []]  # star indices by line position 1-6
    for g, f, day_match in standing.touched:
        join = (f[5] if not day_match else f[4] + _FLAGS[f[2], True, f[3]]).join
        for i, ends in g[3]:
            slots[i] = join(ends)
        for pos in f[1]:
            per[pos] += g[4]
    quoted, alone = _quoted_ids()
    join = b",".join
    lines = {}
    for pos, got in enumerate(per):
        if len(got) > 1:  # the ids' JSON strings picked in one C call (itemgetter), then joined
            got.sort()
            lines[pos] = b"[" + join(itemgetter(*got)(quoted)) + b"]"
        elif got:
            lines[pos] = alone[got[0]]
    return [b"[", b",".join(filter(None, slots)), b"]"], lines


def stars_json(standing: Standing) -> bytes:
    """The document's `stars` array, compact JSON (for the dict path; `encoded` for batch)."""
    return b"".join(encoded(standing)[0])


def line_ids(standing: Standing) -> dict[int, list[str]]:
    """Each line's star ids (on its 本爻, 变爻 or 伏神), in the catalogue's order."""
    per: list[list[int]] = [[], [], [], [], [], [], []]  # by line position 1-6
    for g, f, _ in standing.touched:
        for pos in f[1]:
            per[pos] += g[4]
    ids = _ids().__getitem__
    return {pos: list(map(ids, sorted(got))) for pos, got in enumerate(per) if got}


@cache
def _quoted_ids() -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """Each star's id as a JSON string, and as a JSON array of it alone, by catalogue index."""
    quoted = tuple(orjson.dumps(i) for i in _ids())
    return quoted, tuple(b"[" + q + b"]" for q in quoted)


@cache
def _ids() -> tuple[str, ...]:
    return tuple(s.id for s in catalogue().stars)


@cache
def _size() -> int:
    return len(catalogue().stars)


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


def positions_for(
    star: Star, month: str | None, day: str | None, year: str | None, hour: str | None
) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
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
