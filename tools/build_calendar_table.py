"""Precompute the calendar tyme4py gives for 1900-2100 into src/yimao/data/calendar.json:
python tools/build_calendar_table.py

- "jie": Gregorian year → the 12 节 instants (小寒 … 大雪) as Unix seconds, UTC;
- "lunar": lunar year → its months as [ordinal of the first day, month, leap, name, days].

A command then starts without importing tyme4py or solving for the Sun and the Moon; outside
these years yimao computes with tyme4py as before. tests/test_calendar_table.py checks the table
against tyme4py, year by year.
"""

from __future__ import annotations

import json
from pathlib import Path

FIRST, LAST = 1900, 2100
OUT = Path(__file__).resolve().parents[1] / "src" / "yimao" / "data" / "calendar.json"


def render() -> str:
    from yimao.pillars import _lunar_months_tyme
    from yimao.solar_terms import _jies_tyme

    doc = {
        "first": FIRST,
        "last": LAST,
        "jie": {str(y): [int(j.instant.timestamp()) for j in _jies_tyme(y)] for y in range(FIRST, LAST + 1)},
        "lunar": {str(y): [list(m) for m in _lunar_months_tyme(y)] for y in range(FIRST, LAST + 1)},
    }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"


def main() -> None:
    OUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
