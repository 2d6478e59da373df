"""Every rule citation resolves inside the repository.

The code cites the rules by section of ``docs/rules.md`` (``docs/rules.md §2.7``,
``docs/rules.md §3.5, §3.6``); each section number must be a heading of that page, so
that someone with only the repository can follow it. The project's working notes
outside the repository are never cited.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
#: the folders whose files may cite the rules
CITING = ("taverna", "tests", "docs")
#: files that are not text
BINARY = {".so", ".pyc", ".png", ".jpg", ".ico", ".woff", ".woff2", ".gz", ".db", ".sqlite"}

#: the name of the rules text kept outside the repository (spelled apart, so that this
#: file does not cite it)
OUTSIDE = "RULES" + ".md"
#: a heading of docs/rules.md and its number: ``## 3. Mus``, ``#### 3.6.2 Answering a bet``
HEADING = re.compile(r"^#{2,6} (\d+(?:\.\d+)*)\.? ", re.MULTILINE)
#: a citation: ``docs/rules.md`` and its section numbers, ``§1.5`` or ``§3.5, §3.6``
CITATION = re.compile(r"docs/rules\.md\s+(§\d+(?:\.\d+)*(?:(?:,\s*|\s+and\s+)§\d+(?:\.\d+)*)*)")
#: a bare section number
NUMBER = re.compile(r"§(\d+(?:\.\d+)*)")
#: a link to a heading inside docs/rules.md: ``[§4.2](#42-deals)``
LINK = re.compile(r"\]\(#([^)\s]+)\)")


def sections() -> set[str]:
    return set(HEADING.findall(RULES.read_text(encoding="utf-8")))


def anchor(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) makes of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def citing_files() -> list[Path]:
    files = []
    for top in CITING:
        for path in sorted((ROOT / top).rglob("*")):
            skipped = set(path.relative_to(ROOT).parts) & {"__pycache__", "node_modules"}
            if path.is_file() and path.suffix not in BINARY and not skipped:
                files.append(path)
    return files


def read(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return ""
    return text.replace("\\u00a7", "§")  # JSON files may escape the section sign


def citations(text: str) -> list[tuple[int, str]]:
    """``(line, section)`` for every section number cited in ``text``."""
    found = []
    for m in CITATION.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        found += [(line, n) for n in NUMBER.findall(m.group(1))]
    return found


def test_the_rules_are_numbered() -> None:
    numbers = sections()
    assert {"1", "2", "3", "4"} <= numbers
    for n in numbers:  # every subsection sits under a section of the page
        assert n.rpartition(".")[0] in numbers | {""}, n


def test_the_rules_link_to_their_own_headings() -> None:
    text = RULES.read_text(encoding="utf-8")
    anchors = {anchor(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.MULTILINE)}
    assert set(LINK.findall(text)) <= anchors
    assert set(NUMBER.findall(text)) <= sections()  # its own references to its sections


def test_no_file_cites_the_rules_outside_the_repository() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
        for path in citing_files()
        for text in [read(path)]
        for m in re.finditer(re.escape(OUTSIDE), text)
    ]
    assert not offenders, f"cite docs/rules.md instead of {OUTSIDE}: {offenders}"


def test_every_citation_is_a_heading() -> None:
    known = sections()
    cited = 0
    bad = []
    for path in citing_files():
        for line, n in citations(read(path)):
            cited += 1
            if n not in known:
                bad.append(f"{path.relative_to(ROOT)}:{line}: §{n}")
    assert not bad, f"sections that docs/rules.md does not have: {bad}"
    assert cited > 100  # the engines, bots and tests do cite the rules


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("(docs/rules.md §2.7): the scorer", ["2.7"]),
        ("# docs/rules.md §3.5, §3.6.4: the pair", ["3.5", "3.6.4"]),
        ('"docs/rules.md \\u00a71.3"', ["1.3"]),
        ("docs/rules.md\n  §3.8.2);", ["3.8.2"]),
        ("see docs/rules.md for the rules", []),
    ],
)
def test_citations_are_found(text: str, cited: list[str]) -> None:
    assert [n for _, n in citations(text.replace("\\u00a7", "§"))] == cited


def test_a_wrong_citation_would_fail() -> None:
    wrong = "docs/rules.md " + "§9.9"  # spelled apart, so that this file does not cite it
    assert "9.9" not in sections()
    assert [n for _, n in citations(wrong)] == ["9.9"]
