"""The README stays a newcomer's page, and no relative link of the README or the docs is broken."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))

#: The README's first lines: the title and the two commands that set everything up.
START = (
    "# deckgym\n"
    "\n"
    "```bash\n"
    "make demo    # set up .venv, train a PPO agent on the Medarot OCG (normal) and evaluate it "
    "against the baselines\n"
    "make test    # set up .venv, then run the whole test suite\n"
    "```\n"
)
#: The README's limit in characters; the long sections live under docs/.
LIMIT = 10_000

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
# [text](target) and ![alt](target), the target up to a space (a title may follow) or ")"
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)]*)?\)")
# [label]: target
DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
EXTERNAL = re.compile(r"^([a-z][a-z0-9+.-]*:|//|#)", re.IGNORECASE)


def relative_links(text: str) -> list[str]:
    """The relative link targets of a Markdown text (no fragment), outside code blocks and spans."""
    text = CODE_SPAN.sub("", FENCE.sub("", text))
    targets = INLINE.findall(text) + DEFINITION.findall(text)
    return [t.split("#", 1)[0] for t in targets if not EXTERNAL.match(t)]


def broken_links(page: Path) -> list[str]:
    """The relative links of ``page`` that name no existing file, resolved from the page's folder."""
    return [t for t in relative_links(page.read_text()) if not (page.parent / t).exists()]


def test_the_readme_is_at_most_10000_characters():
    assert len(README.read_text()) <= LIMIT


def test_the_readme_starts_with_the_title_and_the_two_commands():
    assert README.read_text().startswith(START)


def test_no_relative_link_of_the_readme_is_broken():
    assert relative_links(README.read_text()), "the README links to the docs pages"
    assert broken_links(README) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_no_relative_link_of_a_docs_page_is_broken(page):
    assert broken_links(page) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_docs_pages_link_only_inside_docs(page):
    # the site holds only docs/: a link to a file beside it (the code, the README) is no page there
    outside = [t for t in relative_links(page.read_text()) if DOCS not in (page.parent / t).resolve().parents]
    assert outside == []


def test_the_site_lists_every_page():
    nav = (ROOT / "mkdocs.yml").read_text()
    missing = [str(p.relative_to(DOCS)) for p in PAGES if f" {p.relative_to(DOCS).as_posix()}\n" not in nav]
    assert missing == []


def test_the_link_check_sees_links_and_skips_code(tmp_path):
    (tmp_path / "there.md").write_text("# there\n")
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "a.png").write_bytes(b"")
    page = tmp_path / "page.md"
    page.write_text(
        '[ok](there.md#part) ![fig](img/a.png "a title") [web](https://example.org) [top](#top)\n'
        "[gone](missing.md) and ![lost](img/b.png)\n"
        "`[in code](nowhere.md)`\n"
        "```\n[in a block](nowhere.md)\n```\n"
        "[ref]: also_missing.md\n"
    )
    assert relative_links(page.read_text()) == [
        "there.md",
        "img/a.png",
        "missing.md",
        "img/b.png",
        "also_missing.md",
    ]
    assert broken_links(page) == ["missing.md", "img/b.png", "also_missing.md"]
