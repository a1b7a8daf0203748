"""Every relative link in docs/*.md and docs/notation/*.md leads to a file, and a `#` link to a
heading of it: the docs are read on their own (an auditor follows them without the code), so a
dead link is a hole in them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = sorted([*DOCS.glob("*.md"), *DOCS.glob("notation/*.md")])

_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto: ...


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks, with inline code spans removed."""
    lines, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(_CODE_SPAN.sub("", line))
    return lines


def links(text: str) -> list[str]:
    """Every link target of a Markdown text (images included), code left out."""
    return [m.group(1) for line in prose_lines(text) for m in _LINK.finditer(line)]


def slug(heading: str) -> str:
    """The anchor a heading gets (GitHub's rule): lower case, markup and punctuation dropped,
    spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors of a page's headings; a repeated heading gets -1, -2, ..."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        heading = None if fenced else _HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(page: Path) -> list[str]:
    """The relative links of ``page`` that lead nowhere, each with the reason."""
    problems = []
    text = page.read_text(encoding="utf-8")
    for target in links(text):
        if _EXTERNAL.match(target) or target.startswith("/"):
            continue
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.is_file():
            problems.append(f"{target}: no file {dest}")
            continue
        if anchor and anchor not in anchors(dest.read_text(encoding="utf-8")):
            problems.append(f"{target}: no heading #{anchor} in {dest.name}")
    return problems


def test_the_pages_are_found() -> None:
    names = {p.relative_to(DOCS).as_posix() for p in PAGES}
    assert {"fairness.md", "records.md", "notation/heroes.md", "notation/dwarves.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


def test_the_audited_pages_link_each_other() -> None:
    fairness = links((DOCS / "fairness.md").read_text(encoding="utf-8"))
    for target in ("records.md", "notation/heroes.md", "notation/dice-heroes.md"):
        assert any(t.split("#")[0] == target for t in fairness), target


def test_slugs_follow_the_heading_rule() -> None:
    assert slug("Randomness: the exact order of draws") == "randomness-the-exact-order-of-draws"
    assert slug("Observation (what a seat sees, inside the table's `view`)") == (
        "observation-what-a-seat-sees-inside-the-tables-view"
    )
    assert slug("Scoring, the race and the outcome") == "scoring-the-race-and-the-outcome"
    assert anchors("# A\n## A\n```\n# not a heading\n```\n") == {"a", "a-1"}


def test_a_dead_link_or_anchor_is_reported(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Present heading\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Top\n[ok](other.md#present-heading) [self](#top) [web](https://example.org/x)\n"
        "[gone](missing.md) [no anchor](other.md#absent) [self gone](#nowhere)\n"
        "`[in code](ignored.md)`\n```\n[fenced](ignored.md)\n```\n",
        encoding="utf-8",
    )
    problems = broken_links(page)
    assert [p.split(":")[0] for p in problems] == ["missing.md", "other.md#absent", "#nowhere"]
