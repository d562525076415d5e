"""Volume 6 of 《易冒》 as numbered passages: each classical paragraph with its modern rendering.

The shipped text (`data/vol6.txt`) alternates a classical paragraph and its modern Chinese
rendering after a title line. Passage ids are "6.01" … "6.56" in text order; they stay stable
because the text is fixed. Every quote yimao prints is checked to be a verbatim substring of
its passage (`quote`), so a misquotation fails at once, in the tests.
"""

# No `from __future__ import annotations` here: typing.NamedTuple compiles each string field
# annotation at class creation, a cost every start of the program would pay.
import re
from functools import cache
from typing import NamedTuple

from yimao.errors import UnknownNameError

VOLUME = 6


class Passage(NamedTuple):
    id: str
    number: int
    original: str
    vernacular: str

    @property
    def notes(self) -> tuple[str, ...]:
        """The parenthesised notes of the original, kept distinct from its body."""
        return tuple(re.findall(r"（[^（）]*）?", self.original))

    @property
    def first_words(self) -> str:
        return self.original[:24]


class Quote(NamedTuple):
    """A sentence of the book: passage id, the original words, and the matching modern words."""

    passage: str
    original: str
    vernacular: str

    def to_dict(self) -> dict[str, str]:
        return {"passage": self.passage, "original": self.original, "vernacular": self.vernacular}


@cache
def raw_text() -> str:
    from yimao.data import read_text

    return read_text("vol6.txt")


@cache
def passages() -> tuple[Passage, ...]:
    paras = [p.strip() for p in raw_text().split("\n\n") if p.strip()]
    body = paras[1:]  # paras[0] is the title
    if len(body) % 2:
        raise AssertionError("volume 6 should alternate original and rendering")
    return tuple(Passage(f"{VOLUME}.{i // 2 + 1:02d}", i // 2 + 1, body[i], body[i + 1]) for i in range(0, len(body), 2))


@cache
def _by_id() -> dict[str, Passage]:
    out = {}
    for p in passages():
        out[p.id] = out[str(p.number)] = out[f"{p.number:02d}"] = p
    return out


def passage(pid: str) -> Passage:
    """A passage by id: "6.07", "7" or "07"."""
    found = _by_id().get(pid.strip().removeprefix(f"{VOLUME}.")) or _by_id().get(pid.strip())
    if found is not None:
        return found
    raise UnknownNameError(f"no passage {pid!r} in volume {VOLUME}", pid, (passages()[0].id, passages()[-1].id))


@cache
def quote(original: str, vernacular: str | None = None) -> Quote:
    """The passage holding `original` verbatim; `vernacular` (if given) must be in its rendering.

    Without `vernacular`, the whole modern paragraph stands beside the quote.
    """
    for p in passages():
        if original in p.original:
            if vernacular is not None and vernacular not in p.vernacular:
                raise AssertionError(f"not in the rendering of {p.id}: {vernacular!r}")
            return Quote(p.id, original, vernacular if vernacular is not None else p.vernacular)
    raise AssertionError(f"not a verbatim quote of volume {VOLUME}: {original!r}")


# The rules of the first half, by the passages that state them.
RULE_PASSAGES = {
    "助鬼伤身": ("6.01", "6.02", "6.03", "6.04"),
    "局会": ("6.05", "6.06", "6.07"),
    "三刑": ("6.08", "6.09", "6.10"),
    "墓开": ("6.10",),
    "六害": ("6.11", "6.12"),
    "神煞": tuple(f"6.{n:02d}" for n in range(13, 57)),
}


def search(query: str) -> tuple[Passage, ...]:
    """Passages by id ("6.07", "6.7", "07" or "7"), by rule name (局会, 三刑 …), or containing the phrase in the
    original or the rendering (traditional characters are accepted)."""
    q = query.strip()
    if not q:
        return ()
    by_id = _by_id().get(q.removeprefix(f"{VOLUME}.")) or _by_id().get(q)  # 6.07, 6.7, 07, 7
    if by_id is not None:
        return (by_id,)
    found = _search(q)
    if found or q.isascii():
        return found
    from yimao.hanzi import to_simplified

    return _search(to_simplified(q))  # 長生 is 长生


def _search(q: str) -> tuple[Passage, ...]:
    """Passages by rule name or containing the phrase."""
    if q in RULE_PASSAGES:
        ids = RULE_PASSAGES[q]
        return tuple(p for p in passages() if p.id in ids)
    return tuple(p for p in passages() if q in p.original or q in p.vernacular)
