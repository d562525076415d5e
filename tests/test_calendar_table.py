"""The precomputed calendar (data/calendar.json) is exactly what tyme4py computes, year by year."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from yimao.pillars import _lunar_months, _lunar_months_tyme
from yimao.solar_terms import _jies_tyme, _search_entry, jies, precomputed

ROOT = Path(__file__).resolve().parents[1]


def test_every_year_of_the_table_matches_tyme4py():
    table = precomputed()
    assert table is not None and (table["first"], table["last"]) == (1900, 2100)
    for y in range(table["first"], table["last"] + 1):
        assert jies(y) == _jies_tyme(y), y
        assert _lunar_months(y) == _lunar_months_tyme(y), y


def test_outside_the_table_tyme4py_is_used():
    assert jies(2150) == _jies_tyme(2150) and len(jies(1850)) == 12


def test_table_file_is_current():
    spec = importlib.util.spec_from_file_location("build_calendar_table", ROOT / "tools" / "build_calendar_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert (ROOT / "src" / "yimao" / "data" / "calendar.json").read_text(encoding="utf-8") == mod.render()


def test_an_entry_searched_in_the_text_is_the_entry_of_the_parsed_table():
    """precomputed_entry searches the text for a command's few years, and looks a batch's up in
    the whole table parsed: the same entries either way, and None outside the table."""
    table = precomputed()
    for section in ("jie", "lunar"):
        for y in range(1890, 2111):
            assert _search_entry(section, y) == table[section].get(str(y)), (section, y)
