"""The colours of the pictures: one per `Tone`, for a light and a dark page. Every text colour
reads at a WCAG contrast of at least 4.5:1 (AA for body text) on the page and on the tint that
marks the 用神's row, in both schemes (tests/test_picture.py checks the numbers here, and the
browser checks what it draws)."""

from __future__ import annotations

from yimao.view import Tone

LIGHT_PAGE = "#fdfcf9"
DARK_PAGE = "#16181d"
LIGHT_USE = "#fbefc4"  # the 用神's row
DARK_USE = "#3b3418"
LIGHT_RULE = "#d9d4c7"  # hairlines between parts: not text, so not held to 4.5:1
DARK_RULE = "#3a3f4a"

# 木 green, 火 red, 土 ochre, 金 gold, 水 blue: the usual colours of the five elements, darkened
# on the light page and lightened on the dark one until they read.
LIGHT = {
    Tone.PLAIN: "#1f2328",
    Tone.QUIET: "#57606a",
    Tone.STRONG: "#0d1117",
    Tone.MU: "#1a7431",
    Tone.HUO: "#b3261e",
    Tone.TU: "#7f5217",
    Tone.JIN: "#7a6200",
    Tone.SHUI: "#0a5ea8",
    Tone.JI: "#1a7431",
    Tone.XIONG: "#b3261e",
    Tone.MIXED: "#7f5217",
    Tone.MOVING: "#9c1a86",
    Tone.HELD: "#1a7431",
}
DARK = {
    Tone.PLAIN: "#e6e8eb",
    Tone.QUIET: "#a7aeb8",
    Tone.STRONG: "#ffffff",
    Tone.MU: "#63d384",
    Tone.HUO: "#ff8a80",
    Tone.TU: "#dcae6e",
    Tone.JIN: "#e8cc5a",
    Tone.SHUI: "#79bcff",
    Tone.JI: "#63d384",
    Tone.XIONG: "#ff8a80",
    Tone.MIXED: "#dcae6e",
    Tone.MOVING: "#f59ade",
    Tone.HELD: "#63d384",
}


def luminance(colour: str) -> float:
    """The relative luminance of an sRGB colour #rrggbb (WCAG 2.x)."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
