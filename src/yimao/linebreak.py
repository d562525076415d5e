"""Breaking Chinese lines: widths in cells, and lines broken where the usual rule of Chinese and
Japanese typesetting lets them break. Pure: the terminal (render) and the pictures lay text out by it."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

# Marks a line may not start with (closing punctuation) or end with (opening punctuation): the
# usual rule of Chinese and Japanese typesetting (禁则), applied to the quotes and lists this
# module wraps itself. Rich's own folding breaks anywhere, so text that may wrap is broken here.
NO_LINE_START = frozenset("，。、；：？！」』）》〉】”’…·")
NO_LINE_END = frozenset("「『（《〈【“‘")


def cells(s: str) -> int:
    """The terminal width of `s`: two cells for a wide (East Asian) character, one otherwise."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def tokens(s: str) -> list[str]:
    """`s` as the pieces a line may break between: each wide character alone, a run of narrow
    ones (6.10, --explain) together, and each space alone."""
    out: list[str] = []
    for c in s:
        wide = unicodedata.east_asian_width(c) in "WF"
        if out and not wide and c != " " and out[-1][-1] != " " and unicodedata.east_asian_width(out[-1][-1]) not in "WF":
            out[-1] += c
        else:
            out.append(c)
    return out


def break_lines(pieces: Sequence[str], width: float, *, indent: str = "", measure: Callable[[str], float] = cells) -> list[str]:
    """Lay `pieces` (words that are never split: characters, names) into lines of at most `width`
    cells, each line after the first starting with `indent`. A line never starts with a closing
    mark nor ends with an opening one: the piece before is carried over with it, or where the
    line holds nothing else to carry, the mark hangs past the width (as typesetters let
    punctuation hang). A single piece wider than a line is put on a line of its own. Widths are
    `measure`d: cells in a terminal, pixels in a picture."""
    lines: list[list[str]] = [[]]
    used = 0.0
    for piece in pieces:
        w = measure(piece)
        room = width - (measure(indent) if len(lines) > 1 else 0)
        if lines[-1] and used + w > room and piece != " ":
            carried = _carried(lines[-1], piece)
            if carried is not None:
                lines.append(carried)
            used = sum(measure(p) for p in lines[-1])
        if piece == " " and not lines[-1]:
            continue
        lines[-1].append(piece)
        used += w
    text = ["".join(line).rstrip() for line in lines]
    return [text[0], *(indent + t for t in text[1:])] if text else []


def _carried(line: list[str], piece: str) -> list[str] | None:
    """Where `line` is full and `piece` comes next: the pieces taken off its end to start the next
    line, so that the next line does not start with a closing mark nor this one end with an
    opening mark (often none); None when the line holds nothing else to take, and the mark
    hangs. Spaces are looked through (a line's end is its last piece that is not a space) and
    dropped at the break."""

    def after(k: int) -> str:
        return next((p for p in line[k:] if p != " "), piece)

    def last(k: int) -> str:
        return next((p for p in reversed(line[:k]) if p != " "), "")

    while len(line) > 1 and line[-1] == " ":
        line.pop()
    k = len(line)
    while k > 1 and (after(k) in NO_LINE_START or last(k) in NO_LINE_END):
        k -= 1
    if after(k) in NO_LINE_START:
        return None
    carried = line[k:]
    del line[k:]
    while line and line[-1] == " ":
        line.pop()
    while carried and carried[0] == " ":
        carried.pop(0)
    return carried


def wrap_text(s: str, width: float, *, indent: str = "", measure: Callable[[str], float] = cells) -> list[str]:
    """`s` broken into lines of at most `width` cells (or what `measure` counts), by `break_lines`."""
    return break_lines(tokens(s), width, indent=indent, measure=measure)
