"""The pictures of a chart (SVG, HTML, PNG): what they hold, that they parse whatever a user
wrote, that they load nothing, that their colours read; and, in headless Chromium, that no two
pieces of text meet, nothing leaves the picture, no request leaves the page, nothing errs, and
every text colour reads at 4.5:1 in the light and the dark scheme."""

from __future__ import annotations

import os
import re
import struct
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pictures import CHARTS, CHROMIUM, DATE, draw_all, launch, yimao  # tests/ is on the path (rootdir conftest)

from yimao.picture.palette import DARK, DARK_PAGE, DARK_USE, LIGHT, LIGHT_PAGE, LIGHT_USE, contrast
from yimao.pipeline import CastRequest, read
from yimao.view import Tone

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> dict[str, dict[str, Path]]:
    return draw_all(tmp_path_factory.mktemp("pictures"))


def _svg_text(path: Path) -> str:
    root = ET.parse(path).getroot()  # raises when it is not XML
    assert root.tag == f"{SVG_NS}svg"
    return " ".join(t.text or "" for t in root.iter(f"{SVG_NS}text"))


class _Page(HTMLParser):
    """An HTML page's text, checking that each element opened is closed, in order."""

    VOID = {"meta", "br", "img", "link", "hr", "input"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.text: list[str] = []
        self.doctype = ""

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (self.open[-3:], tag)
        self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] not in ("style", "title"):
            self.text.append(data)


def _html_text(path: Path) -> str:
    p = _Page()
    p.feed(path.read_text(encoding="utf-8"))
    p.close()
    assert p.doctype.lower() == "doctype html" and not p.open
    return " ".join(p.text)


def test_at_least_twenty_charts_are_drawn(drawn):
    assert len(drawn) >= 20


@pytest.mark.parametrize("name", ["readme", "six-moving", "hidden-use", "pillars-only"])
def test_a_picture_holds_the_chart_its_findings_and_its_footer(drawn, name):
    args = dict(CHARTS)[name]
    opts = dict(zip(args[::2], args[1::2]))
    req = CastRequest(opts["--hex"], date=opts.get("--date"), month=opts.get("--month"), day=opts.get("--day"), use=opts.get("--use"))
    result = read(req)
    chart = result.chart
    cells = [f"{cl.relative.value}{cl.line.stem.value}{cl.branch.value}{cl.element.value}" for cl in chart.lines]
    held = [f for f in result.findings if f.holds]
    for text in (_svg_text(drawn[name]["svg"]), _html_text(drawn[name]["html"])):
        for needle in (chart.hexagram.name, *cells, "《易冒》卷六", "yimao"):
            assert needle in text, needle
        if chart.changed_hexagram is not None:
            assert chart.changed_hexagram.name in text
        for f in held:
            assert f.rule in text
        assert "│" not in text and "\x1b" not in text


def test_the_use_is_marked_and_a_hidden_use_drawn_in_its_element(drawn):
    svg = drawn["hidden-use"]["svg"].read_text(encoding="utf-8")
    assert svg.count('class="use"') == 1  # the row of line 2, whose 伏神 父母丙午火 is the 用神
    assert re.search(r'class="t-huo" font-size="16" font-weight="bold">父母丙午火<', svg)
    html = drawn["hidden-use"]["html"].read_text(encoding="utf-8")
    assert html.count('<tr class="use">') == 1


def test_moving_lines_are_marked_and_the_changed_hexagram_is_whole(drawn):
    svg = drawn["six-moving"]["svg"].read_text(encoding="utf-8")
    assert svg.count('class="stroke-moving"') == 6  # 乾之坤: six 老阳, a circle each
    gou = drawn["gou"]["svg"].read_text(encoding="utf-8")
    text = _svg_text(drawn["gou"]["svg"])
    assert "天山遯" in text or "天山遁" in text
    assert gou.count("<circle") == 1  # 姤之遁: line 2 moves


def test_the_jin_lines_are_drawn_in_a_colour_that_reads(drawn):
    """金 was bright white in the terminal capture, so that 姤's 兄弟辛酉金 was blank on a white page."""
    html = drawn["gou"]["html"].read_text(encoding="utf-8")
    assert '<span class="t-jin">兄弟辛酉金</span>' in html
    svg = drawn["gou"]["svg"].read_text(encoding="utf-8")
    assert 'class="t-jin" font-size="16">兄弟辛酉金<' in svg
    assert contrast(LIGHT[Tone.JIN], LIGHT_PAGE) >= 4.5 and contrast(DARK[Tone.JIN], DARK_PAGE) >= 4.5


def test_traditional_pictures_are_in_traditional_characters(drawn):
    text = _svg_text(drawn["traditional"]["svg"])
    assert "離爲火" in text and "兄弟" in text and "變卦" in text and "离为火" not in text
    html = drawn["traditional"]["html"].read_text(encoding="utf-8")
    assert '<html lang="zh-Hant">' in html and "離之乾" in html
    assert '<html lang="zh-Hans">' in drawn["readme"]["html"].read_text(encoding="utf-8")


def test_the_page_is_titled_by_the_hexagram_and_the_date(drawn):
    html = drawn["readme"]["html"].read_text(encoding="utf-8")
    assert "<title>离之乾  2026-12-02 10:00 · yimao</title>" in html
    assert "<title>大畜之离  卯月戊寅日 · yimao</title>" in drawn["hidden-use"]["html"].read_text(encoding="utf-8")


def test_pictures_load_nothing_and_run_nothing(drawn):
    for paths in drawn.values():
        for path in paths.values():
            data = path.read_text(encoding="utf-8").lower()
            assert "@font-face" not in data and "@import" not in data and "url(" not in data
            assert "<script" not in data and "javascript:" not in data and re.search(r"<[^>]*\son\w+\s*=", data) is None
            addresses = set(re.findall(r"(?:https?:)?//[\w.-]+", data))
            assert addresses <= {"http://www.w3.org"}, (path.name, addresses)  # the SVG namespace, and no other


def test_hostile_and_long_text_is_shown_as_text_and_cut(drawn):
    for kind in ("svg", "html"):
        path = drawn["case-hostile"][kind]
        data = path.read_text(encoding="utf-8")
        assert "\x1b" not in data and "\x07" not in data and "\ufffe" not in data and "\u202e" not in data
        assert "<script>" not in data and "&lt;script&gt;" in data  # the user's markup, as text
        text = _svg_text(path) if kind == "svg" else _html_text(path)
        assert "␛]0;pwned␇" in text and "[red]财[/red]" in text and "&amp;" in text
        long = drawn["case-long"][kind]
        assert long.stat().st_size < 60_000  # 2,800 characters of question and 3 notes of 1,200: cut
        text = _svg_text(long) if kind == "svg" else _html_text(long)
        assert "…（余 2200 字）" in text and "…（余 600 字）" in text


def test_a_megabyte_of_notes_makes_a_picture_of_bounded_size(tmp_path, monkeypatch):
    monkeypatch.setenv("YIMAO_JOURNAL", str(tmp_path / "j.sqlite3"))
    assert yimao("cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅", "--save", "-q", "问" * 300_000, "--json") == 0
    for _ in range(20):
        assert yimao("journal", "note", "1", "记" * 50_000) == 0
    svg = tmp_path / "big.svg"
    assert yimao("journal", "show", "1", "--svg", str(svg)) == 0
    assert svg.stat().st_size < 80_000
    text = _svg_text(svg)
    assert "…（余 299400 字）" in text and "余 8 条" in text


def test_the_palette_reads_at_4_5_to_1_in_both_schemes():
    for palette, grounds in ((LIGHT, (LIGHT_PAGE, LIGHT_USE, "#ffffff")), (DARK, (DARK_PAGE, DARK_USE))):
        for tone, colour in palette.items():
            for ground in grounds:
                assert contrast(colour, ground) >= 4.5, (tone, colour, ground)


def test_contrast_is_wcags():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the familiar near miss of AA


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def test_png_is_the_svg_rasterised_at_one_and_a_half(tmp_path):
    svg, png = tmp_path / "c.svg", tmp_path / "c.png"
    assert yimao("cast", "--date", DATE, "--hex", "离之乾", "--svg", str(svg), "--png", str(png)) == 0
    root = ET.parse(svg).getroot()
    w, h = int(root.get("width")), int(root.get("height"))
    assert _png_size(png.read_bytes()) == (w * 3 // 2, -(-h * 3 // 2))  # a half pixel rounded up


def test_png_outlines_bold_text_in_its_own_colour():
    """The extra ships Noto Sans CJK's regular face alone, which resvg draws for bold text too: the
    PNG's SVG outlines each bold text in its own colour (what resvg then draws differs), and only
    bold text; the SVG a browser gets, which has the bold face, is not outlined."""
    resvg_py = pytest.importorskip("resvg_py")
    noto = pytest.importorskip("noto_cjk_sans_otc")
    from yimao.picture.svg import BOLD_STROKE, draw_svg
    from yimao.view import chart_view

    view = chart_view(read(CastRequest("离之乾", month="卯", day="戊寅")))
    classes = {f"t-{t.value}": t for t in Tone}
    stroked = ET.fromstring(draw_svg(view, stroked_bold=True))
    texts = list(stroked.iter("{http://www.w3.org/2000/svg}text"))
    bold = [t for t in texts if t.get("font-weight") == "bold"]
    assert len(bold) >= 5
    for t in texts:
        if t in bold:
            assert t.get("stroke") == LIGHT[classes[t.get("class")]] and float(t.get("stroke-width")) == pytest.approx(
                float(t.get("font-size")) * BOLD_STROKE, abs=0.01
            )
        else:
            assert t.get("stroke") is None
    assert "stroke-linejoin" not in draw_svg(view)

    def png(svg: str) -> bytes:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, font_files=[str(noto.FONT_PATH)], skip_system_fonts=True))

    assert png(draw_svg(view, stroked_bold=True)) != png(draw_svg(view))


def test_png_goes_to_stdout_with_a_dash(capfdbinary):
    assert yimao("cast", "--hex", "乾", "--month", "3", "--day", "甲子", "--png", "-") == 0
    out, err = capfdbinary.readouterr()
    assert _png_size(out)[0] == 1440 and err == b""


def test_png_without_the_extra_is_bad_input_naming_the_install(tmp_path):
    import subprocess

    code = "import sys; sys.modules['resvg_py'] = None; from yimao.launch import main; main()"
    target = tmp_path / "c.png"
    r = subprocess.run(
        [sys.executable, "-c", code, "cast", "--hex", "乾", "--month", "3", "--day", "甲子", "--png", str(target)], capture_output=True
    )
    assert r.returncode == 2 and r.stdout == b"" and not target.exists()
    assert "pip install 'yimao[image]'" in r.stderr.decode() and "Traceback" not in r.stderr.decode()


def test_a_failed_picture_write_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "c.png"
    target.write_bytes(b"old picture")
    import yimao.picture.png as png

    def broken(view):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(png, "draw_png", broken)
    monkeypatch.setattr(sys, "argv", ["yimao"])
    assert yimao("cast", "--hex", "乾", "--month", "3", "--day", "甲子", "--png", str(target)) == 1
    assert target.read_bytes() == b"old picture"


def test_json_and_a_picture_are_refused_together():
    assert yimao("cast", "--hex", "乾", "--month", "3", "--day", "甲子", "--png", "x.png", "--json") == 2


# --- in a real browser ---------------------------------------------------------------------------

needs_browser = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("YIMAO_REQUIRE_BROWSER"),
    reason="no Chromium here (.ci/run installs it, and sets YIMAO_REQUIRE_BROWSER so that CI cannot skip these)",
)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


# Each text element's box, its colour and the colour under it, read off the page as drawn.
_SVG_PROBE = """() => {
  const root = document.documentElement;
  const vb = root.viewBox.baseVal;
  const out = [];
  for (const t of document.querySelectorAll('text')) {
    const b = t.getBBox();
    const r = t.getBoundingClientRect();
    const under = document.elementsFromPoint(r.x + r.width / 2, r.y + r.height / 2).find(e => e.tagName === 'rect');
    out.push({text: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height,
              colour: getComputedStyle(t).fill, ground: under ? getComputedStyle(under).fill : null});
  }
  return {width: vb.width, height: vb.height, texts: out};
}"""

_HTML_PROBE = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const ground = (e) => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
      if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c; }
    return getComputedStyle(document.documentElement).backgroundColor; };
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const range = document.createRange(); range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (r.width === 0 || r.height === 0) continue;
      out.push({text: n.textContent.slice(0, 40), x: r.x + scrollX, y: r.y + scrollY, w: r.width, h: r.height,
                colour: getComputedStyle(n.parentElement).color, ground: ground(n.parentElement)});
    }
  }
  const d = document.documentElement;
  return {width: d.scrollWidth, height: d.scrollHeight, view: d.clientWidth, texts: out};
}"""


def _rgb(css: str) -> str:
    r, g, b = (int(float(x)) for x in re.findall(r"[\d.]+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def _overlaps(texts: list[dict]) -> list[tuple[str, str]]:
    """Pairs of text boxes that share more than a hair (half a pixel each way)."""
    out = []
    boxes = sorted(texts, key=lambda t: t["y"])
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if b["y"] >= a["y"] + a["h"] - 0.5:
                break
            if (
                min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"]) > 0.5
                and min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"]) > 0.5
            ):
                out.append((a["text"], b["text"]))
    return out


def _open(browser, path: Path, scheme: str):
    page = browser.new_page(color_scheme=scheme, viewport={"width": 1000, "height": 900})
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    # the whole picture in the viewport, so that what lies under a text can be asked at its place
    height = page.evaluate("() => Math.ceil(document.documentElement.getBoundingClientRect().height)")
    page.set_viewport_size({"width": 1000, "height": max(900, height + 10)})
    return page, requests, errors


def _probed(browser, path: Path, scheme: str, probe: str, name: str) -> dict:
    """What `probe` reads off the page of `path`, once it is checked that the page asked for
    nothing but itself and logged no error."""
    page, requests, errors = _open(browser, path, scheme)
    found = page.evaluate(probe)
    page.close()
    assert requests == [path.as_uri()] and errors == [], (name, requests, errors)
    return found


@needs_browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_in_chromium_no_text_of_an_svg_meets_another_or_leaves_it_and_all_reads(browser, drawn, scheme):
    for name, paths in drawn.items():
        probe = _probed(browser, paths["svg"], scheme, _SVG_PROBE, name)
        texts = probe["texts"]
        assert len(texts) > 40, name
        for t in texts:
            assert t["x"] >= 0 and t["y"] >= 0 and t["x"] + t["w"] <= probe["width"] and t["y"] + t["h"] <= probe["height"], (name, t)
            assert t["ground"] is not None, (name, t)
            assert contrast(_rgb(t["colour"]), _rgb(t["ground"])) >= 4.5, (name, scheme, t)
        assert _overlaps(texts) == [], (name, _overlaps(texts)[:5])


@needs_browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_in_chromium_an_html_page_keeps_its_text_apart_and_within_and_all_reads(browser, drawn, scheme):
    for name, paths in drawn.items():
        probe = _probed(browser, paths["html"], scheme, _HTML_PROBE, name)
        assert probe["width"] <= probe["view"], name  # nothing runs off the side
        for t in probe["texts"]:
            assert t["x"] >= 0 and t["x"] + t["w"] <= probe["width"] + 0.5, (name, t)
            assert contrast(_rgb(t["colour"]), _rgb(t["ground"])) >= 4.5, (name, scheme, t)
        assert _overlaps(probe["texts"]) == [], (name, _overlaps(probe["texts"])[:5])


@needs_browser
def test_in_chromium_a_page_on_a_phone_scrolls_only_its_table(browser, drawn):
    """At a phone's width (390 px) the page never scrolls sideways: the table of lines does, in its box."""
    for name, paths in drawn.items():
        page = browser.new_page(viewport={"width": 390, "height": 800})
        page.goto(paths["html"].as_uri())
        widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        page.close()
        assert widths[0] <= widths[1], (name, widths)


@needs_browser
def test_in_chromium_a_chart_prints_on_one_a4_page(browser, drawn):
    for name in ("readme", "hidden-use", "six-moving", "traditional", "sample-3"):
        page, _, _ = _open(browser, drawn[name]["html"], "light")
        pdf = page.pdf(format="A4", print_background=True)
        page.close()
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        assert pages == 1, (name, pages)


def test_png_to_a_terminal_is_refused():
    """`--png -` on a terminal would print a PNG's bytes into it: refused, naming a file instead."""
    import pty
    import subprocess

    master, slave = pty.openpty()
    try:
        p = subprocess.Popen(
            [sys.executable, "-m", "yimao", "cast", "--hex", "乾", "--month", "3", "--day", "甲子", "--png", "-"], stdout=slave, stderr=slave
        )
        assert p.wait(timeout=60) == 2
        shown = os.read(master, 4096).decode()
    finally:
        os.close(slave)
        os.close(master)
    assert "stdout, which is a terminal" in shown and "--png chart.png" in shown and "PNG\r\n" not in shown
