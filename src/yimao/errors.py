"""The one error family of yimao.

Every error the core raises for bad input is a `YimaoError` (a `ValueError`), carrying
the offending value and the closest valid choices, so that the command line can print a
helpful message and exit with status 2. Messages are lowercase English with the value
shown, in the manner of python-chess.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice


class YimaoError(ValueError):
    """Bad input to yimao: `value` is what was given, `candidates` the closest valid ones."""

    def __init__(self, message: str, value: object = None, candidates: Iterable[str] = (), *, ambiguous: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.value = value
        self.candidates = tuple(candidates)
        self.ambiguous = ambiguous

    def __str__(self) -> str:
        if self.candidates and self.ambiguous:
            return f"{self.message}:\n" + "\n".join(f"  {c}" for c in self.candidates)
        if self.candidates:
            return f"{self.message} (did you mean: {', '.join(self.candidates)}?)"
        return self.message


class NotationError(YimaoError):
    """A string that is not a valid notation (干支, hexagram spec, date, month …)."""


class UnknownNameError(YimaoError):
    """A name that matches nothing, or more than one thing."""


class CommandLineError(YimaoError):
    """A command line the parser cannot read: an unknown command or option, a value missing."""


class UnsupportedDateError(YimaoError):
    """A moment outside the range the calendar supports, or a naive datetime."""


class CatalogueError(YimaoError):
    """The shipped star catalogue is malformed (a defect of yimao, not of the input)."""


# --- bad input, described -------------------------------------------------------------------

MAX_NAME = 64  # characters: many times the longest name yimao knows (a star's alias, an IANA zone)
MAX_SHOWN = 60  # characters of a bad text a message quotes


def shown(value: object) -> str:
    """A bad value as a message quotes it: its repr, cut to MAX_SHOWN characters with its length
    said (a megabyte of input is not echoed back whole), and a nested value summarised (`brief`)."""
    if isinstance(value, str):
        if len(value) <= MAX_SHOWN:
            return repr(value)
        return f"{value[:MAX_SHOWN]!r}… ({len(value):,} characters)"
    return repr(brief(value))


def too_long_to_be_a_name(text: str) -> bool:
    """True for a text longer than any name: it gets no "did you mean" (comparing it with every
    name costs time quadratic in its length: a 900 KB name took 26 s), only `name_too_long`."""
    return len(text) > MAX_NAME


def name_too_long(what: str, text: str) -> str:
    """The message for an unknown `what` (hexagram, star, topic …) too long to be a name."""
    return f"unknown {what}: {shown(text)} is too long to be a name (at most {MAX_NAME} characters)"


def closest(text: str, names: Iterable[str], n: int, cutoff: float) -> list[str]:
    """difflib's `n` names nearest `text` (its ratio at least `cutoff`); none for a text too long
    to be a name, whose comparison would take seconds."""
    if too_long_to_be_a_name(text):
        return []
    import difflib  # only for a misspelt name

    return difflib.get_close_matches(text, list(names), n=n, cutoff=cutoff)


def small_int(text: str, max_digits: int) -> int | None:
    """The integer `text` writes in decimal digits (ASCII or full-width "１２"), or None when it is
    not decimal digits or has more than `max_digits` of them. Every number yimao reads from the
    user is a few digits (a month 1-12, a line 1-6, a King Wen number 1-64); the length is
    checked before converting, since int() refuses more than 4,300 digits and its time grows
    with the square of their number. (Not isdigit(): it takes "¹", which int() refuses.)"""
    if len(text) > max_digits or not text.isdecimal():
        return None
    return int(text)


BRIEF_DEPTH = 3  # levels of arrays and objects an echoed value keeps
BRIEF_ITEMS = 8  # items of each
BRIEF_TEXT = 200  # characters of each string


def brief(value: object) -> object:
    """`value` (decoded JSON) bounded for echoing in an error: strings cut to BRIEF_TEXT
    characters, arrays and objects to BRIEF_ITEMS items and BRIEF_DEPTH levels (deeper ones
    summarised as "[…]" or "{…}"), integers beyond 64 bits as their number of digits, anything
    else as its repr. JSON-safe whatever arrives, and without recursion into a deep value."""
    return _brief(value, BRIEF_DEPTH)


def _brief(v: object, depth: int) -> object:
    if isinstance(v, str):
        s = v if len(v) <= BRIEF_TEXT else v[:BRIEF_TEXT] + "…"
        return s.encode("utf-8", "backslashreplace").decode("utf-8")  # lone surrogates escaped
    if v is None or isinstance(v, (bool, float)):
        return v
    if isinstance(v, int):
        if -(1 << 63) <= v < 1 << 64:
            return v
        return f"a number of about {int(v.bit_length() * 0.30103) + 1:,} digits"  # without str(): it refuses over 4,300
    if isinstance(v, dict):
        if depth == 0:
            return "{…}"
        obj = {_brief(str(k), 0): _brief(x, depth - 1) for k, x in islice(v.items(), BRIEF_ITEMS)}
        if len(v) > BRIEF_ITEMS:
            obj["…"] = f"{len(v):,} keys"
        return obj
    if isinstance(v, (list, tuple)):
        if depth == 0:
            return "[…]"
        seq = [_brief(x, depth - 1) for x in islice(v, BRIEF_ITEMS)]
        if len(v) > BRIEF_ITEMS:
            seq.append(f"… ({len(v):,} items)")
        return seq
    return _brief(repr(v), 0)
