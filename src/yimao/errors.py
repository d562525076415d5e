"""The one error family of yimao.

Every error the core raises for bad input is a `YimaoError` (a `ValueError`), carrying
the offending value and the closest valid choices, so that the command line can print a
helpful message and exit with status 2. Messages are lowercase English with the value
shown, in the manner of python-chess.
"""

from __future__ import annotations

from collections.abc import Iterable


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


class UnsupportedDateError(YimaoError):
    """A moment outside the range the calendar supports, or a naive datetime."""


class CatalogueError(YimaoError):
    """The shipped star catalogue is malformed (a defect of yimao, not of the input)."""
