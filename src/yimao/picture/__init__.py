"""The pictures of a chart: an SVG, a standalone HTML page and a PNG, each drawn from the view
of the chart (`yimao.view`) that the terminal table shows."""

from __future__ import annotations

from yimao.view import ChartView

KINDS = ("svg", "html", "png")


def draw(view: ChartView, kind: str) -> bytes:
    """The picture of `kind` (KINDS), whole, as the bytes of its file."""
    if kind == "svg":
        from yimao.picture.svg import draw_svg

        return draw_svg(view).encode("utf-8")
    if kind == "html":
        from yimao.picture.html import draw_html

        return draw_html(view).encode("utf-8")
    from yimao.picture.png import draw_png

    return draw_png(view)
