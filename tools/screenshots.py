"""The pictures shown in the README, made again: python tools/screenshots.py. Two are the SVG and
the HTML page as headless Chromium shows them (the system's browser, with its CJK fonts), one is
the PNG yimao writes itself (`yimao[image]`)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from pictures import launch  # noqa: E402  (the browser as the picture tests start it)
from pictures import yimao as run_yimao  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "pictures"


def yimao(*args: str) -> None:
    if run_yimao(*args) != 0:
        raise SystemExit(f"yimao {' '.join(args)} failed")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp())
    os.environ["YIMAO_JOURNAL"] = str(work / "journal.sqlite3")
    yimao("cast", "--date", "2026-12-02T10:00+08:00", "--hex", "离之乾", "--svg", str(work / "a.svg"))
    yimao("cast", "--hex", "大畜之离", "--month", "卯", "--day", "戊寅", "--use", "父", "--html", str(work / "b.html"))
    yimao("cast", "--hex", "困之兑", "--month", "酉", "--day", "庚申", "--use", "财", "--topic", "婚姻", "--save", "-q", "问婚事可成否", "-t")
    yimao("journal", "note", "1", "女方家门第高，父母有阻")
    yimao("journal", "outcome", "1", "--verdict", "应", "--note", "门第相压，事不谐")
    yimao("journal", "show", "1", "-t", "--png", str(OUT / "case-traditional.png"))
    with sync_playwright() as p:
        browser = launch(p)
        for source, target, scheme in ((work / "a.svg", "svg-light.png", "light"), (work / "b.html", "html-dark.png", "dark")):
            page = browser.new_page(color_scheme=scheme, viewport={"width": 960, "height": 600})
            page.goto(source.as_uri())
            height = page.evaluate("() => Math.ceil(document.documentElement.getBoundingClientRect().height)")
            page.set_viewport_size({"width": 960, "height": height})
            page.screenshot(path=str(OUT / target))
            page.close()
        browser.close()
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
