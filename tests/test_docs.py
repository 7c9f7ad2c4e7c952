"""The Python blocks of the docs pages run as they are, in order, each page in its own namespace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted(p for p in DOCS.glob("*.md") if "```python" in p.read_text())


def test_the_positions_page_exists():
    assert DOCS / "positions.md" in PAGES


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_python_block_of_the_page_runs(page, capsys):
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.DOTALL)
    assert blocks
    scope: dict = {"__name__": "__docs__"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"{page.name} block {i + 1}", "exec"), scope)  # noqa: S102 - the page is ours
    out = capsys.readouterr().out
    if page.name == "positions.md":
        assert "plays" in out and "PositionError" not in out  # each ruleset's agents answered
        assert (
            "square" in out.lower() or "occupied" in out.lower() or "twice" in out.lower()
        )  # the bad position's message
        assert "'kind':" in out  # the replies' structured events were printed
    if page.name == "events.md":
        assert "'kind':" in out and "'text':" in out
