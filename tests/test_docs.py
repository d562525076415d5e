"""The documents stand on their own: every document a file names is in the repository (none
outside it is cited), every section it cites exists, every sentence quoted as the book's is the book's, and the README is a
user's page of a readable size."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("src", "tests", "tools", "benchmarks", "docs", ".ci")
SUFFIXES = {".py", ".md", ".toml", ".sh", ".txt", ".json", ".cfg", ""}
SKIP = {"vol6.txt", "stars.json", "calendar.json", "schema.json"}  # data: the book and generated tables


def _files() -> list[Path]:
    out = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and path.name not in SKIP
                and "__pycache__" not in path.parts
                and "golden" not in path.parts
            ):
                out.append(path)
    return out


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


# `docs/rules.md`, optionally followed by a section: `docs/rules.md §2`
DOC_REF = re.compile(r"docs/([\w.-]+\.md)(?:\s*§\s*(\d+))?")
# a relative link inside a document of docs/: `[rules.md](rules.md)`, `(rules.md) §0` is not a link
MD_LINK = re.compile(r"\]\(([^)#\s:]+)(?:#[^)]*)?\)")
# a section cited by file name alone inside docs/ or a docstring: `rules.md §1`
BARE_REF = re.compile(r"(?<![\w/])(design|rules|conventions|stars|performance)\.md\s*§\s*(\d+)")


def _sections(doc: Path) -> set[str]:
    return set(re.findall(r"(?m)^#+ §(\d+)\b", _text(doc)))


def test_named_documents_exist():
    missing = []
    for path in _files():
        text = _text(path)
        for name, section in DOC_REF.findall(text):
            doc = ROOT / "docs" / name
            if not doc.is_file():
                missing.append(f"{path.relative_to(ROOT)}: docs/{name}")
            elif section and section not in _sections(doc):
                missing.append(f"{path.relative_to(ROOT)}: docs/{name} §{section}")
        for name, section in BARE_REF.findall(text):
            doc = ROOT / "docs" / f"{name}.md"
            if section not in _sections(doc):
                missing.append(f"{path.relative_to(ROOT)}: {name}.md §{section}")
    assert missing == []


# the design and rule documents the project was first written against, outside the repository:
# cited as "DESIGN §2", "RULES §1", by file name, or by a path out of the repository
OUTSIDE = re.compile(r"\b(?:DESIGN|RULES)\s*§|\b(?:DESIGN|RULES)\.md\b|TEXT-NOTE[S]|\.\./shared/|\bshared/(?:DESIGN|RULES|seed)")


def test_no_reference_to_documents_outside_the_repository():
    here = Path(__file__).resolve()  # names them, to look for them
    found = [f"{p.relative_to(ROOT)}: {m}" for p in _files() if p != here for m in OUTSIDE.findall(_text(p))]
    assert found == []


def test_links_between_documents_resolve():
    broken = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in MD_LINK.findall(_text(path)):
            if not (path.parent / target).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert broken == []


def test_the_check_finds_what_it_looks_for():
    """The patterns above match the forms they are meant to catch (else the tests pass vacuously)."""
    assert DOC_REF.findall("see docs/rules.md §1 and docs/design.md") == [("rules.md", "1"), ("design.md", "")]
    assert BARE_REF.findall("(rules.md §3)") == [("rules", "3")]
    outside = ("see DESIGN §4", "RULES §1.2", "the RULES.md checklist", "TEXT-NOTE" + "S", "../" + "shared/seed/x.txt")
    assert all(OUTSIDE.search(t) for t in outside)
    assert not any(OUTSIDE.search(t) for t in ("RULES = (", "docs/rules.md §1", "RULES.index(rule)"))
    assert MD_LINK.findall("[rules](rules.md) [x](https://example.org) [s](stars.md#fields)") == ["rules.md", "stars.md"]
    assert _sections(ROOT / "docs" / "rules.md") >= {"0", "1", "2", "3", "4", "5"}
    assert _sections(ROOT / "docs" / "design.md") >= {"1", "2", "3", "4", "5", "6", "7"}


def test_rules_page_quotes_the_book_verbatim():
    """docs/rules.md: every 「…」 is a verbatim piece of one passage of the classical text."""
    from yimao.texts import passages

    originals = [p.original for p in passages()]
    quoted = [re.sub(r"\s+", "", q) for q in re.findall(r"「([^」]*)」", _text(ROOT / "docs" / "rules.md"))]
    assert len(quoted) > 30
    assert [q for q in quoted if not any(q in o for o in originals)] == []


def test_documents_describe_the_software():
    """How the work was organised belongs to no document of the software."""
    words = re.compile(r"(?i)\b(?:sessions?|helpers?|peer review\w*|issue \d+|the judge|agents?)\b")
    pages = [ROOT / "README.md", *(ROOT / "docs" / f"{name}.md" for name in ("design", "rules", "performance"))]
    assert [(p.name, w) for p in pages for w in words.findall(_text(p))] == []


def test_readme_is_a_users_page():
    readme = ROOT / "README.md"
    assert readme.stat().st_size < 20_000
    text = _text(readme)
    # the quick start is two commands: one installs and casts, one installs and runs the tests
    quick = text.split("## Quick start", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0].strip().splitlines()
    assert len(quick) == 2 and "yimao cast" in quick[0] and "pytest" in quick[1]
    # and the second is what CI runs, type and style checks included
    assert quick[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert all(check in quick[1] for check in ("mypy src", "ruff check", "ruff format --check"))
