"""The value every rule of volume 6 returns: a `Finding`, holding or a near miss, with its words."""

# No `from __future__ import annotations` here: typing.NamedTuple would turn each string
# annotation into a ForwardRef, compiling it, which makes defining these classes at import
# (cold start) half again as costly.

from functools import cache, partial
from typing import Any, NamedTuple

from yimao.chart import Source
from yimao.ganzhi import Branch, Element
from yimao.hexagram import Relative
from yimao.texts import Quote, quote

# Member and Finding are NamedTuples rather than frozen dataclasses: as immutable, but several
# times cheaper to define at import (cold start) and to build (a chart yields a handful of each).


class Member(NamedTuple):
    """A branch taking part in a finding: where it comes from, and its role (始/中/终, 用, 刑者 …)."""

    branch: Branch
    source: Source
    position: int | None = None
    role: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "branch": self.branch._value_,
            "source": self.source._value_,
            "position": self.position,
            "role": self.role,
        }


# `Member(...)` runs a Python-level __new__, as every NamedTuple does; the rules build a dozen
# members per chart, so they use this C-level equivalent: new_member((branch, source, position, role)).
new_member = partial(tuple.__new__, Member)


class Finding(NamedTuple):
    """One result of a rule. `holds` is False for a near miss, whose `reasons` say why it fails.

    `details` carries rule-specific facts (strength, 悬始/悬终, severity, readings by topic …)
    as JSON-ready values; `text` the sentences of the book the finding rests on. Every rule
    passes its own `details`; the empty default is shared, so it must never be mutated (nothing
    mutates a finding's details once it is built).
    """

    rule: str
    holds: bool
    kind: str | None = None
    element: Element | None = None
    relative: Relative | None = None
    lines: tuple[int, ...] = ()
    members: tuple[Member, ...] = ()
    reasons: tuple[str, ...] = ()
    text: tuple[Quote, ...] = ()
    details: dict[str, Any] = {}  # noqa: RUF012 (shared, never mutated: see above)

    def to_dict(self) -> dict[str, Any]:
        e, r = self.element, self.relative
        return {
            "rule": self.rule,
            "holds": self.holds,
            "kind": self.kind,
            "element": e._value_ if e is not None else None,
            "relative": r._value_ if r is not None else None,
            "lines": list(self.lines),
            # Member.to_dict inlined: a call per member costs as much as building its dict
            "members": [
                {"branch": branch._value_, "source": source._value_, "position": position, "role": role}
                for branch, source, position, role in self.members
            ],
            "reasons": list(self.reasons),
            "text": [q.to_dict() for q in self.text],
            "details": self.details,
        }


# Likewise for findings, which the rules build from all ten fields in order:
# new_finding((rule, holds, kind, element, relative, lines, members, reasons, text, details)).
new_finding = partial(tuple.__new__, Finding)


@cache
def lines_in(mask: int) -> tuple[int, ...]:
    """The line positions whose bits are set in `mask` (bit p for line p), in order: a finding's
    `lines`. Rules collect positions as bits and read them here, several times cheaper than
    sorting a set of them."""
    return tuple(p for p in range(1, 7) if mask >> p & 1)


def reading(topic: str, original: str, vernacular: str) -> dict[str, str]:
    """One of the book's readings by topic (身命, 婚姻 …) with its sentence, for a finding's details."""
    return {"topic": topic, **quote(original, vernacular).to_dict()}
