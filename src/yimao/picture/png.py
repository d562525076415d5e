"""The chart as a PNG, for the places that take no SVG: the SVG picture rasterised by resvg
(`resvg-py`) with Noto Sans CJK (`noto-cjk-sans-otc`), both from the optional extra
`yimao[image]`. Only the font shipped with the extra is used, never the system's, so that a PNG
is the same on every machine."""

from __future__ import annotations

from yimao.errors import NotationError
from yimao.view import ChartView

INSTALL = "pip install 'yimao[image]'"
ZOOM = 1.5  # 960 px wide SVG → 1440 px: sharp in a chat's preview, legible at 100 %


def available() -> bool:
    """Whether the extra is installed."""
    try:
        import noto_cjk_sans_otc  # noqa: F401
        import resvg_py  # noqa: F401
    except ImportError:
        return False
    return True


def require() -> None:
    """Refuse --png, as bad input, where the extra is not installed: said before anything is read."""
    if not available():
        raise NotationError(f"--png needs the optional extra: {INSTALL}", "--png", (INSTALL, "--svg chart.svg"))


def draw_png(view: ChartView) -> bytes:
    import noto_cjk_sans_otc
    import resvg_py

    from yimao.picture.svg import draw_svg

    font = str(noto_cjk_sans_otc.FONT_PATH)
    family = "Noto Sans CJK SC" if view.script == "s" else "Noto Sans CJK TC"
    svg = draw_svg(view, stroked_bold=True)  # the extra ships the regular face alone
    return bytes(
        resvg_py.svg_to_bytes(svg_string=svg, font_files=[font], skip_system_fonts=True, font_family=family, sans_serif_family=family, zoom=ZOOM)
    )
