"""Stars on charts and the star commands (the catalogue itself: tests/test_star_catalogue.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from yimao.chart import build_chart
from yimao.errors import UnknownNameError
from yimao.hexagram import Cast
from yimao.pillars import pillars_given
from yimao.stars.catalogue import catalogue
from yimao.stars.place import place_stars, positions_for

ENV = {**os.environ, "COLUMNS": "140", "TZ": "Asia/Shanghai"}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yimao", *args], capture_output=True, env=ENV, timeout=60)


def by_id(placements, sid):
    return next((p for p in placements if p.star.id == sid), None)


def test_stem_star_falls_on_the_line_whose_najia_stem_matches():
    """寅建丁亥子孙发动，以丁为天德 — 兑's line 4 is 丁亥 (子孙 in 兑宫, 金生水)."""
    chart = build_chart(Cast.parse("兑", [4]), pillars_given(month="寅", day="甲子"))
    assert str(chart.lines[3].line.stem) + str(chart.lines[3].branch) == "丁亥"
    assert chart.lines[3].relative.value == "子孙"
    p = by_id(place_stars(chart), "tiande_gan")
    assert p.positions == ("丁",)
    assert {h.position for h in p.hits} == set(range(1, 7))  # every line of 兑 carries 丁
    assert p.moving and p.active and p.star.kind == "stem"


def test_branch_star_on_changed_and_hidden_lines():
    # 卯建戊寅日 大畜之离: 天医 of 卯月 (二月) is 亥
    chart = build_chart(Cast.parse("大畜之离"), pillars_given(month="卯", day="戊寅"))
    placements = place_stars(chart)
    tianyi = by_id(placements, "tianyi")
    assert tianyi is None or all(chart.lines[h.position - 1] for h in tianyi.hits)
    # every hit is a real branch of that line part
    for p in placements:
        for h in p.hits:
            cl = chart.lines[h.position - 1]
            part = {
                "本爻": (cl.line.stem, cl.line.branch),
                "变爻": (cl.changed.stem, cl.changed.branch) if cl.changed else None,
                "伏神": (cl.hidden.line.stem, cl.hidden.line.branch) if cl.hidden else None,
            }[h.part]
            assert part is not None
            assert h.moving == {"本爻": cl.moving, "变爻": True, "伏神": cl.hidden.lifted if cl.hidden else False}[h.part]


def test_static_lines_leave_stars_dormant():
    chart = build_chart(Cast.parse("乾"), pillars_given(month="寅", day="甲子"))
    assert all(not p.moving for p in place_stars(chart))


def test_topic_filter():
    chart = build_chart(Cast.parse("离之乾"), pillars_given(month="卯", day="戊寅", hour="午"))
    every = place_stars(chart)
    marriage = place_stars(chart, topic="婚姻")
    assert len(marriage) < len(every)
    assert all(not p.star.topics or "婚姻" in p.star.topics or "通用" in p.star.topics for p in marriage)
    with pytest.raises(UnknownNameError):
        place_stars(chart, topic="赌博")


@pytest.mark.parametrize("typed, meant", [("财", "求财"), ("疾病x", "疾病"), ("婚", "婚姻"), ("小孩子", "小儿")])
def test_a_misspelt_topic_is_answered_with_the_nearest(typed, meant):
    chart = build_chart(Cast.parse("离之乾"), pillars_given(month="卯", day="戊寅"))
    with pytest.raises(UnknownNameError) as e:
        place_stars(chart, topic=typed)
    assert e.value.candidates[0] == meant and len(e.value.candidates) <= 6


def test_a_topic_near_none_names_them_all():
    chart = build_chart(Cast.parse("离之乾"), pillars_given(month="卯", day="戊寅"))
    with pytest.raises(UnknownNameError) as e:
        place_stars(chart, topic="xyz")
    assert e.value.candidates == () and all(t in str(e.value) for t in catalogue().topics)


def test_a_topic_in_traditional_characters_is_its_simplified_form():
    chart = build_chart(Cast.parse("离之乾"), pillars_given(month="卯", day="戊寅"))
    assert place_stars(chart, topic="求財") == place_stars(chart, topic="求财")


def test_missing_basis_means_no_position():
    chart = build_chart(Cast.parse("离之乾"), pillars_given(month="寅"))
    assert by_id(place_stars(chart), "pojun") is None  # 破军 needs the hour


def test_tianyi_month_3_is_chou():
    """三月丙遁得丁酉，乃弗居而易丑，故三月则以丁丑为天医."""
    s = catalogue().get("天医")
    pos, _ = positions_for(s, "辰", None, None, None)
    assert pos == ("丑",)


def test_star_command_month_3():
    r = run("star", "天医", "--month", "3", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["positions"] == ["丑"] and doc["star"]["id"] == "tianyi" and doc["basis"]["month"] == "辰"
    r = run("star", "天医", "--month", "辰")
    assert r.returncode == 0 and "丑" in r.stdout.decode()


def test_star_command_by_date_and_traditional_name():
    r = run("star", "天醫", "--date", "2026-04-10T12:00+08:00", "--json")  # 辰月
    assert r.returncode == 0 and json.loads(r.stdout)["positions"] == ["丑"]


def test_star_without_basis_shows_the_whole_table():
    doc = json.loads(run("star", "天医", "--json").stdout)
    assert doc["table"]["寅"] == ["卯"] and len(doc["table"]) == 12


def test_reused_and_unknown_names():
    r = run("star", "月煞")
    assert r.returncode == 2 and r.stdout == b""
    err = r.stderr.decode()
    assert "yuesha_jiangxing" in err and "yuesha_yuekong" in err
    r = run("star", "天医生")
    assert r.returncode == 2 and "天医" in r.stderr.decode()
    r = run("star", "天医", "--day", "甲子")  # a month star asked by day
    assert r.returncode == 2 and "month" in r.stderr.decode()


def test_star_by_id_and_day_stem():
    r = run("star", "wufu", "--day", "甲", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["positions"] == ["寅"]  # 甲禄在寅为法，寅乃五符


def test_star_list():
    doc = json.loads(run("star", "--list", "--json").stdout)
    ids = [sid for g in doc["groups"] for sid in g["stars"]]
    assert len(ids) == len(catalogue().stars) and len(set(ids)) == len(ids)
    assert list(doc["stars"]) == [s.id for s in catalogue().stars] and doc["catalogue_version"] == catalogue().version
    for s in catalogue().stars:  # what a chart does not repeat is here, once
        entry = doc["stars"][s.id]
        assert (entry["name"], entry["aliases"], entry["topics"], entry["basis"]) == (s.name, list(s.aliases), list(s.topics), s.basis)
        assert [c["text"]["original"] for c in entry["conditions"]] == [c.quote.original for c in s.conditions]
        assert [c["effect"] for c in entry["conditions"]] == [c.effect for c in s.conditions]
    r = run("star", "--list")
    assert r.returncode == 0 and "天医" in r.stdout.decode()


def test_stars_command():
    doc = json.loads(run("stars", "--month", "卯", "--day", "戊寅", "--json").stdout)
    assert doc["basis"]["month"] == "卯"
    tianyi = next(s for s in doc["stars"] if s["id"] == "tianyi")
    assert tianyi["positions"] == ["亥"]  # 二月 亥
    pojun = next(s for s in doc["stars"] if s["id"] == "pojun")
    assert pojun["positions"] is None  # no hour given


def test_cast_json_carries_stars_on_lines():
    doc = json.loads(run("cast", "--hex", "兑", "--moving", "4", "--month", "寅", "--day", "甲子", "--json").stdout)
    tiande = next(s for s in doc["stars"] if s["id"] == "tiande_gan")
    assert tiande["positions"] == ["丁"] and 4 in tiande["lines"] and tiande["moving"]
    assert "tiande_gan" in doc["hexagram"]["lines"][3]["stars"]
    for s in doc["stars"]:
        assert list(s) == ENTRY_KEYS  # every key in every entry
    assert doc["catalogue_version"] == catalogue().version


def test_traditional_names_round_trip():
    from yimao.hanzi import to_simplified, to_traditional

    cat = catalogue()
    for s in cat.stars:
        assert to_traditional(s.name) == s.traditional, s.id
        assert to_simplified(s.traditional) == s.name, s.id
        assert s in cat.find(s.traditional)


# --- the placement engine against a direct reading of the catalogue ---------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from yimao.chart import resolve_use  # noqa: E402
from yimao.ganzhi import CYCLE, Branch, GanZhi, Stem  # noqa: E402
from yimao.hexagram import HEXAGRAMS  # noqa: E402
from yimao.serialize import star_ids_by_line, stars_to_list  # noqa: E402
from yimao.stars.catalogue import DIRECTION_BRANCHES, basis_values, position_kind  # noqa: E402
from yimao.stars.place import find_stars  # noqa: E402

ENTRY_KEYS = [
    "id",
    "label",
    "nature",
    "weight",
    "positions",
    "lines",
    "hits",
    "moving",
    "active",
    "day_match",
    "on_use",
    "text",
    "conditions",
    "variants",
]

MONTH_OR_DAY = {"month", "season", "month_sanhe", "day_stem", "day_ganzhi"}  # 唯日月之用尊焉


def direct_conditions(star, chart, hits, topic):
    """A star's conditions read line by line: which lines make each reading hold."""
    out = []
    for i, c in enumerate(star.conditions):
        first, *rest = (direct_condition_reading(r, chart, hits, topic) for r in (c.reading, *c.variants))
        if not (first["holds"] or any(r["holds"] for r in rest)):
            continue  # held by no reading: the catalogue says it, not the chart
        out.append({
            "index": i, "holds": first["holds"], "lines": first["lines"], "reading": first["reading"], "relative": first["relative"],
            "moving": first["moving"], "topics": first["topics"], "hidden": first["hidden"], "day_stems": first["day_stems"], "effect": c.effect,
            "text": {"passage": c.quote.passage, "original": c.quote.original}, "variants": rest,
        })  # fmt: skip
    return out


def direct_condition_reading(r, chart, hits, topic):
    def kin(line):
        return r.relative is None or line.relative.value == r.relative

    def lifted_kin(cl):  # 伏 鬼动: a lifted 伏神 of the 六亲 (its 飞神 moves), with `hidden`
        return r.hidden and cl.moving and cl.hidden is not None and kin(cl.hidden.line)

    day = chart.pillars.day
    off_day = bool(r.day_stems) and not (isinstance(day, GanZhi) and day.stem.value in r.day_stems)
    if r.on == "topic":
        lines, holds = [], topic in r.topics
    elif off_day:
        lines, holds = [], False
    else:
        if r.on == "star_line":
            lines = [
                h["position"]
                for h in hits
                if (h["part"] == "本爻" and (h["moving"] or not r.moving) and kin(chart.lines[h["position"] - 1].line))
                or (h["part"] == "伏神" and h["moving"] and lifted_kin(chart.lines[h["position"] - 1]))
            ]
        elif r.on == "changed":
            lines = [h["position"] for h in hits if h["part"] == "变爻" and kin(chart.lines[h["position"] - 1].changed)]
        else:
            moving_kin = [cl.position for cl in chart.lines if (cl.moving and kin(cl.line)) or lifted_kin(cl)]
            star_moving = [h["position"] for h in hits if h["moving"]]
            if r.on == "together":
                lines = star_moving + moving_kin if star_moving and moving_kin else []
            else:
                lines = moving_kin if hits else []
        lines = sorted(set(lines))
        holds = bool(lines)
    return {
        "reading": r.on, "relative": r.relative, "moving": r.moving, "topics": list(r.topics), "hidden": r.hidden,
        "day_stems": list(r.day_stems), "holds": holds, "lines": lines,
    }  # fmt: skip


def direct_reading(chart, use, topic):
    """The stars on a chart read straight from the catalogue, star by star and line by line: the
    independent expectation for `find_stars`, which looks up groups of stars on a chart's parts."""
    p = chart.pillars
    month, day, year, hour = basis_values(p.month_branch, p.day, p.year, p.hour)
    focus = {chart.hexagram.shi} | set((use.positions or use.hidden_positions) if use else ())
    out = []
    heavy_first = sorted(catalogue().stars, key=lambda s: s.basis not in MONTH_OR_DAY)  # stable: the catalogue's order within
    for star in heavy_first:
        if topic is not None and star.topics and topic not in star.topics and "通用" not in star.topics:
            continue
        on_line = [h for h in star.hexagram_lines if h.king_wen == chart.hexagram.king_wen]  # 乾之上九降参
        if on_line:
            (h,) = on_line
            cl = chart.lines[h.line - 1]
            hits = [{"position": h.line, "part": "本爻", "moving": cl.moving}]
            out.append(entry(star, [h.name], hits, False, focus, [], direct_conditions(star, chart, hits, topic)))
            continue
        if not (star.placed and star.on_charts):
            continue
        positions = star.lookup(star.table, month, day, year, hour)
        if positions is None:
            continue  # the chart lacks the star's basis
        hits, ganzhi = hits_of(chart, positions)
        day_match = day in ganzhi
        variants = []
        on_a_line_otherwise = False  # a variant reading puts the star on a line of this chart
        for v in star.variants:
            vp = star.lookup(v.table, month, day, year, hour)
            if v.days and vp is not None:
                vp = None  # a reading of some 节气 days only: pillars given say no day
            if vp == positions:
                continue  # only a variant placing it otherwise
            held = []
            if vp:  # the conditions on the chart, judged where the variant puts the star
                on_a_line_otherwise = on_a_line_otherwise or bool(hits_of(chart, vp)[0])
                chart_conditions = direct_conditions(star, chart, hits_of(chart, vp)[0], topic)
                held = [
                    c
                    for c in chart_conditions
                    if any(r.on != "topic" for r in (star.conditions[c["index"]].reading, *star.conditions[c["index"]].variants))
                ]
            vlines = None if vp is None else sorted({h["position"] for h in hits_of(chart, vp)[0]})
            variants.append({"reading": v.reading, "positions": None if vp is None else list(vp), "lines": vlines, "conditions": held})
        if not (hits or day_match or on_a_line_otherwise):
            continue  # on no line and not its day, by any reading
        out.append(entry(star, list(positions), hits, day_match, focus, variants, direct_conditions(star, chart, hits, topic)))
    return out


def hits_of(chart, positions):
    """Where positions fall on a chart, read line by line: the hits, and the 干支 they name."""
    branches, stems, ganzhi = set(), set(), set()
    for pos in positions:
        kind = position_kind(pos)
        if kind == "branch":
            branches.add(Branch(pos))
        elif kind == "stem":
            stems.add(Stem(pos))
        elif kind == "direction":
            branches.update(DIRECTION_BRANCHES[pos])
        else:
            ganzhi.add(pos)
    hits = []
    for cl in chart.lines:
        parts = [("本爻", cl.moving, cl.line), ("变爻", True, cl.changed)]
        if cl.hidden is not None:
            parts.append(("伏神", cl.hidden.lifted, cl.hidden.line))
        for part, moving, line in parts:
            if line is not None and (line.branch in branches or line.stem in stems):
                hits.append({"position": cl.position, "part": part, "moving": moving})
    return hits, ganzhi


def entry(star, positions, hits, day_match, focus, variants, conditions):
    lines = sorted({h["position"] for h in hits})
    moving = any(h["moving"] for h in hits)
    active = moving or day_match
    q = star.quote
    return {
        "id": star.id, "label": star.label, "nature": star.nature, "weight": "heavy" if star.basis in MONTH_OR_DAY else "light",
        "positions": positions, "lines": lines, "hits": hits, "moving": moving,
        "active": active, "day_match": day_match, "on_use": bool(focus & set(lines)),
        "text": {"passage": q.passage, "original": q.original if active else None} if q else None,  # the sentence when it acts
        "conditions": conditions, "variants": variants,
    }  # fmt: skip


casts = st.builds(lambda h, m: Cast(h, frozenset(i + 1 for i in range(6) if m >> i & 1)), st.sampled_from(HEXAGRAMS), st.integers(0, 63))
branch_or_none = st.one_of(st.none(), st.sampled_from([b.value for b in Branch]))
day_spec = st.one_of(st.none(), st.sampled_from([str(g) for g in CYCLE]), st.sampled_from([b.value for b in Branch]))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    casts,
    branch_or_none,
    day_spec,
    branch_or_none,
    branch_or_none,
    st.sampled_from([None, "婚姻", "疾病", "家宅", "出行", "畜牧", "岁时"]),
    st.sampled_from([None, "官", "财", "父", "世", "应", "5"]),
)
def test_engine_agrees_with_a_direct_reading(cast, month, day, year, hour, topic, use_spec):
    chart = build_chart(cast, pillars_given(year=year, month=month, day=day, hour=None if hour is None or day is None or len(day) != 2 else hour))
    use = resolve_use(chart, use_spec) if use_spec else None
    stars = find_stars(chart, use=use, topic=topic)
    expected = direct_reading(chart, use, topic)
    entries = stars_to_list(stars)
    assert entries == expected
    assert all(list(e) == ENTRY_KEYS for e in entries)  # the documented field order, for byte-stable output
    # the Placement values (what the renderer reads) say the same
    assert [(p.star.id, p.line_positions, [h._asdict() for h in p.hits], p.moving, p.active, p.day_match, p.on_use) for p in stars.placements] == [
        (e["id"], tuple(e["lines"]), e["hits"], e["moving"], e["active"], e["day_match"], e["on_use"]) for e in entries
    ]
    # and each line's ids are the entries on it, heavy first (`chart_order`)
    per_line = star_ids_by_line(stars)
    for pos in range(1, 7):
        assert per_line.get(pos, []) == [e["id"] for e in entries if pos in e["lines"]]


def test_a_casts_parts_are_its_charts_lines_their_changes_and_hidden_lines():
    """Over all 4096 casts: the parts stars stand on are each line's 本爻 (moving as the line),
    a moving line's 变爻 (moving) and the 伏神 under a line (lifted when the line moves), with
    their 纳甲 branch and stem, in line order; and a cover's hits are the parts carrying it."""
    from yimao.hexagram import all_casts
    from yimao.stars.catalogue import covered
    from yimao.stars.place import chart_parts

    for cast in all_casts():
        chart = build_chart(cast)
        expected = []
        for cl in chart.lines:
            expected.append((cl.position, "本爻", cl.moving, cl.line.branch, cl.line.stem))
            if cl.changed is not None:
                expected.append((cl.position, "变爻", True, cl.changed.branch, cl.changed.stem))
            if cl.hidden is not None:
                expected.append((cl.position, "伏神", cl.hidden.lifted, cl.hidden.line.branch, cl.hidden.line.stem))
        parts = chart_parts(cast)
        assert [(*p.hit, p.branch, p.stem) for p in parts.parts] == expected
        for positions in (("子",), ("甲",), ("巳", "酉", "丑"), ("坤",), ("甲", "寅"), ("甲子",)):
            cover = covered(positions)
            carried = [(pos, part, moving) for pos, part, moving, b, s in expected if b in cover.branches or s in cover.stems]
            assert list(parts.carrying(cover)) == carried, (cast.spec(), positions)
