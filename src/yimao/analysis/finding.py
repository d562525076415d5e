"""The value every rule of volume 6 returns: a `Finding`, holding or a near miss, with its words."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from yimao.chart import Source
from yimao.ganzhi import Branch, Element
from yimao.hexagram import Relative
from yimao.texts import Quote, quote


@dataclass(frozen=True, slots=True)
class Member:
    """A branch taking part in a finding: where it comes from, and its role (始/中/终, 用, 刑者 …)."""

    branch: Branch
    source: Source
    position: int | None = None
    role: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "branch": self.branch.value,
            "source": self.source.value,
            "position": self.position,
            "role": self.role,
        }


@dataclass(frozen=True, slots=True)
class Finding:
    """One result of a rule. `holds` is False for a near miss, whose `reasons` say why it fails.

    `details` carries rule-specific facts (strength, 悬始/悬终, severity, readings by topic …)
    as JSON-ready values; `text` the sentences of the book the finding rests on.
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
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "holds": self.holds,
            "kind": self.kind,
            "element": self.element.value if self.element else None,
            "relative": self.relative.value if self.relative else None,
            "lines": list(self.lines),
            "members": [m.to_dict() for m in self.members],
            "reasons": list(self.reasons),
            "text": [q.to_dict() for q in self.text],
            "details": self.details,
        }


def reading(topic: str, original: str, vernacular: str) -> dict[str, str]:
    """One of the book's readings by topic (身命, 婚姻 …) with its sentence, for a finding's details."""
    return {"topic": topic, **quote(original, vernacular).to_dict()}
