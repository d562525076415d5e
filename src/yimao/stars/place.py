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
        d = dict(_static_dict(self.star))
        d["positions"] = list(self.positions) if self.positions is not None else None
        d["lines"] = list(self.line_positions)
        d["hits"] = [{"position": h.position, "part": h.part, "moving": h.moving} for h in self.hits]
        d["moving"] = self.moving
        d["active"] = self.active
        d["day_match"] = self.day_match
        d["on_use"] = self.on_use
        d["variants"] = [{"reading": r, "positions": list(p) if p is not None else None} for r, p in self.variants]
        return d


@cache
def _static_dict(s: Star) -> dict[str, Any]:
    """The part of a star's JSON that no chart changes."""
    q = s.quote
    return {
        "id": s.id,
        "name": s.name,
        "aliases": list(s.aliases),
        "basis": s.basis,
        "nature": s.nature,
        "topics": list(s.topics),
        # the defining sentence; its modern rendering is in `yimao text <passage>`
        "text": {"passage": q.passage, "original": q.original} if q else None,
    }


@cache
def _standing(topic: str | None, basis: str, key: Any) -> tuple[tuple[Any, ...], ...]:
    """The stars of one basis that have a place for one key: (star, positions, branch mask, stem
    mask, 干支, variants' positions). Cached: a basis has at most 144 keys, so every chart after
    the first few is a handful of lookups."""
    out = []
    for star in _on_charts(topic):
        if star.basis == basis:
            entry = star.entry(key)
            if entry is not None:
                out.append((star.order, star, *entry, _variant_positions(star, key)))
    return tuple(out)


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
def _on_charts(topic: str | None) -> tuple[Star, ...]:
    return tuple(
        s
        for s in catalogue().stars
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
    # what each line offers: (position, part, moving, stem index, branch index)
    parts = []
    for cl in chart.lines:
        parts.append((cl.position, "本爻", cl.moving, cl.line.stem.index, cl.line.branch.index))
        if cl.changed is not None:
            parts.append((cl.position, "变爻", True, cl.changed.stem.index, cl.changed.branch.index))
        if cl.hidden is not None:
            hl = cl.hidden.line
            parts.append((cl.position, "伏神", cl.hidden.lifted, hl.stem.index, hl.branch.index))
    chart_b = chart_s = 0
    for _, _, _, si, bi in parts:
        chart_b |= 1 << bi
        chart_s |= 1 << si
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
    # stars sharing the branches and stems they touch share their hits: compute each once
    touched: dict[tuple[int, int], tuple[tuple[Hit, ...], tuple[int, ...], bool, bool]] = {}
    if stars is None:
        candidates = [c for b in _PLACED_BASES for c in _standing(t, b, keys[b])]
    else:
        candidates = [
            (st.order, st, *e, _variant_positions(st, keys.get(st.basis)))
            for st in stars
            if (e := st.entry(keys.get(st.basis))) is not None
        ]
    candidates.sort()  # by the catalogue's (the book's) order; orders are unique, so no star is compared
    out = []
    new = tuple.__new__  # a NamedTuple built without its Python-level __new__: charts make many
    for _, star, positions, bmask, smask, ganzhi, variants in candidates:
        day_match = day_gz in ganzhi if ganzhi else False
        key = (bmask & chart_b, smask & chart_s)
        if not (key[0] or key[1] or day_match):
            continue  # the star stands nowhere on this chart
        found = touched.get(key)
        if found is None:
            bm, sm = key
            hits = tuple(new(Hit, part[:3]) for part in parts if bm >> part[4] & 1 or sm >> part[3] & 1)
            lines = tuple(sorted({h[0] for h in hits}))
            found = touched[key] = (hits, lines, any(h[2] for h in hits), not focus.isdisjoint(lines))
        hits, lines, moving, on_use = found
        out.append(new(Placement, (star, positions, hits, lines, moving, day_match, on_use, variants)))
    return tuple(out)


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
