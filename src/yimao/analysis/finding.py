"""The value every rule of volume 6 returns: a `Finding`, holding or a near miss, with its words."""

# No `from __future__ import annotations` here: typing.NamedTuple would turn each string
# annotation into a ForwardRef, compiling it, which makes defining these classes at import
# (cold start) half again as costly.

from typing import Any, NamedTuple

from yimao.chart import Source
from yimao.ganzhi import Branch, Element
from yimao.hexagram import Relative
from yimao.texts import QUOTE_DICTS, Quote

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


class _Members(dict):
    """Members by their four fields, each built on first use and then shared: MEMBERS[(branch,
    source, position, role)]. A chart's findings hold a dozen members, and building a tuple
    subclass costs about twice a lookup; members are immutable values, so sharing them changes
    nothing but the cost. The keys are bounded by construction: 12 branches, 6 sources, None or
    1-6, and the rules' few role words (始 中 终, 用 世, 刑 冲 害 墓 …)."""

    __slots__ = ()

    def __missing__(self, key: tuple[Branch, Source, int | None, str | None]) -> Member:
        m = self[key] = tuple.__new__(Member, key)
        b, source, position, role = key
        MEMBER_DICTS[m] = {"branch": b._value_, "source": source._value_, "position": position, "role": role}
        return m


class _MemberDicts(dict):
    """`Member.to_dict` of every member MEMBERS holds, built with it, for read-only documents
    (see serialize): MEMBER_DICTS[m]. Any other member gets a fresh dict, not kept."""

    __slots__ = ()

    def __missing__(self, m: Member) -> dict[str, Any]:
        return m.to_dict()


MEMBERS = _Members()
MEMBER_DICTS = _MemberDicts()


class _TextDicts(dict):
    """The quote dicts of a finding's `text`, by the tuple of its quotes: the rules cite a few
    dozen fixed tuples of sentences (module constants, or cached by their reasons), so the key
    set is bounded by construction, and one lookup replaces one per quote."""

    __slots__ = ()

    def __missing__(self, text: tuple[Quote, ...]) -> tuple[dict[str, str], ...]:
        qd = QUOTE_DICTS
        dicts = self[text] = tuple([qd[q] for q in text])
        return dicts


TEXT_DICTS = _TextDicts()
_member_dict = MEMBER_DICTS.__getitem__


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
        rule, holds, kind, e, r, lines, members, reasons, text, details = self
        # The dicts of members and quotes are shared between documents, which are read-only
        # (see serialize): each is built once, not once a finding; the lists are the finding's.
        return {
            "rule": rule,
            "holds": holds,
            "kind": kind,
            "element": e._value_ if e is not None else None,
            "relative": r._value_ if r is not None else None,
            "lines": [*lines],
            "members": [*map(_member_dict, members)],
            "reasons": [*reasons],
            "text": [*TEXT_DICTS[text]],
            "details": details,
        }
