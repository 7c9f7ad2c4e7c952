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


def test_the_environment_reference_tables_every_env_piece_and_action_kind():
    """docs/envs.md is written at build time (docs/_hooks/env_tables.py) from the envs themselves."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("env_tables", DOCS / "_hooks" / "env_tables.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    page = (DOCS / "envs.md").read_text()
    assert hook.MARKER in page
    text = hook.on_page_markdown(page, None, None, None)
    from deckgym import envs

    for name in envs.names():
        raw = envs.make(name).unwrapped
        assert f"## `{name}`" in text and f"### Observation pieces ({raw.encoder.obs_size:,} entries)" in text
        for piece, where in raw.encoder.observation_layout().items():
            assert f"| `{piece}` | {where.start}..{where.stop - 1} |" in text
        assert f"### Action indices ({raw.encoder.action_size})" in text
    assert "| 0 | `PASS` | 1 | `PASS` |" in text and "ABILITY\\[p]\\[i]" in text  # brackets in prose escaped
