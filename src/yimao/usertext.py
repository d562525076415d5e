"""Text a user gave — a question, a note, a search — or that arrived by `journal import`: checked
before it is kept, and made visible before it is shown.

Such text is kept as given. Shown on a terminal, in a table, a prompt or a picture, it is
`visible(text)`: every character that would act rather than be read is replaced by a mark one
can see. That is the C0 and C1 controls (ESC begins the sequences that retitle a window, clear
the screen or print a hyperlink; CR and BS overwrite what was printed), DEL, the bidirectional
overrides and isolates (U+202E shows text backwards), the line and paragraph separators, lone
surrogates and the noncharacters U+FFFE and U+FFFF — which are also every character XML 1.0
cannot hold below U+10000, so a visible text is always valid in an SVG or an HTML page. A line
break stays a line break: it moves no cursor back and a note may have paragraphs.

C0 controls and DEL become their Unicode control pictures (ESC ␛, BEL ␇, CR ␍), the others
`<U+202E>`. Error messages quote bad values with `errors.shown` (Python's repr), which is safe
the same way.
"""

from __future__ import annotations

import re

from yimao.errors import MAX_SHOWN, NotationError

_UNSAFE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f"  # C0 but the line feed, DEL, C1
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks, embeddings, overrides, isolates
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff\ufffe\uffff]"  # lone surrogates (bytes that were not UTF-8), noncharacters
)


def _mark(m: re.Match[str]) -> str:
    c = ord(m.group())
    if c < 0x20:
        return chr(0x2400 + c)  # ␀ … ␟
    if c == 0x7F:
        return "\u2421"  # ␡
    return f"<U+{c:04X}>"


def visible(text: str) -> str:
    """`text` as it may be shown: the characters that would act on a terminal or break a picture
    replaced by visible marks (the module's docstring lists them)."""
    return _UNSAFE.sub(_mark, text)


def is_visible(text: str) -> bool:
    return _UNSAFE.search(text) is None


# What XML 1.0 cannot hold (its Char production), C1 and DEL with it: in a whole picture, markup
# included, a mark with "<" would break the document, so these become U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def xml_safe(document: str) -> str:
    """An SVG or HTML document with every character XML cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", document)


def checked(text: str, what: str) -> str:
    """`text` as it may be kept: refused when it is not UTF-8 (a command line's bytes that are
    not are read as lone surrogates, which no UTF-8 file or SQLite text can hold), naming the
    bytes as a shell would write them."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            raw = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")  # caf\xe9, as typed
        except UnicodeEncodeError:  # a surrogate that stood for no byte
            raw = text.encode("utf-8", "backslashreplace").decode("ascii")
        quoted = raw if len(raw) <= MAX_SHOWN else raw[:MAX_SHOWN] + "…"
        raise NotationError(f"{what} is not UTF-8 text: '{visible(quoted)}'; give it in UTF-8", text) from None
    return text
