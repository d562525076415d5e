"""Star labels: unique, each found by `yimao star`, shown in tables and JSON; a bare shared name
lists the labels to choose from (docs/stars.md, Labels)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from yimao.hanzi import to_traditional
from yimao.stars.catalogue import catalogue

runner = CliRunner()


def star(*args: str):
    from yimao.cli import app

    return runner.invoke(app, ["star", *args], env={"TZ": "Asia/Shanghai", "COLUMNS": "120"})


def test_labels_are_unique_and_keep_the_name():
    stars = catalogue().stars
    assert len({s.label for s in stars}) == len(stars) == 143
    for s in stars:
        assert s.label == s.name or s.label.startswith(s.name + "（") and s.label.endswith("）")


def test_a_label_qualifies_exactly_the_names_that_find_several_stars():
    cat = catalogue()
    for s in cat.stars:
        assert (s.label != s.name) == (len(cat.by_name[s.name]) > 1), s.id


def test_the_rule_on_the_book_s_shared_names():
    by_id = catalogue().by_id
    expected = {  # by the time a table is read by; by the group where that does not part them
        "sangmen_yue": "丧门（月）",
        "sangmen_sui": "丧门（岁）",
        "tianzei_manpokai": "天贼（月）",
        "tianzei_wufu": "天贼（日）",
        "taiyin_sui": "太阴（岁）",  # 月解's alias is 太阴
        "yuejie": "月解",
        "yuesha_jiangxing": "月煞（将星十二神）",  # both read by the month's 三合
        "yuesha_yuekong": "月煞（耗废）",
        "wenchang_jiuyao": "文昌（九曜）",  # no table: no time
        "wenchang_ri": "文昌（日）",
        "wangren_sangche": "亡人（丧墓）",  # 亡人煞's alias is 亡人, both read by the month
        "wangren_jiangxing": "亡人煞",
    }
    assert {i: by_id[i].label for i in expected} == expected


def test_every_label_finds_its_star_through_the_command():
    for s in catalogue().stars:
        for written in {s.label, to_traditional(s.label), s.label.replace("（", "(").replace("）", ")")}:
            r = star(written, "--json")
            assert r.exit_code == 0, (written, r.stderr)
            got = json.loads(r.stdout)["star"]
            assert (got["id"], got["label"]) == (s.id, s.label), written


def test_a_shared_name_lists_the_labels_to_choose_from():
    r = star("丧门")
    assert r.exit_code == 2 and r.stdout == ""
    assert "丧门（月）" in r.stderr and "丧门（岁）" in r.stderr and "sangmen_yue" in r.stderr
    r = star("太阴")
    assert r.exit_code == 2 and "太阴（岁）" in r.stderr and "月解" in r.stderr


def test_labels_in_the_list_and_on_a_chart():
    from yimao.cli import app

    listed = runner.invoke(app, ["star", "--list", "--json"])
    doc = json.loads(listed.stdout)
    labels = [doc["stars"][sid]["label"] for g in doc["groups"] for sid in g["stars"]]
    assert labels == [s.label for s in catalogue().stars]
    cast = runner.invoke(app, ["cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--json"], env={"TZ": "Asia/Shanghai"})
    entries = json.loads(cast.stdout)["stars"]
    assert len({e["label"] for e in entries}) == len(entries)
    assert {"丧门（月）", "丧门（岁）"} <= {e["label"] for e in entries}
    table = runner.invoke(
        app, ["cast", "--hex", "离之乾", "--date", "2026-12-02T10:00+08:00", "--stars"], env={"TZ": "Asia/Shanghai", "COLUMNS": "140"}
    )
    assert "丧门（月）" in table.stdout and "丧门（岁）" in table.stdout
