"""What a ruleset's ``rules.check`` reports about a broken state (shared by the invariant tests)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from deckgym.envs.core.errors import StateError


def item_lines(check: Callable[[Any], None], st: Any, item: str, words: str) -> list[str]:
    """The lines of item ``item`` in the ``StateError`` that ``check(st)`` must raise; one must
    contain ``words``."""
    with pytest.raises(StateError) as info:
        check(st)
    lines = [line for line in str(info.value).splitlines() if line.split(" ", 1)[0] == item]
    assert lines, f"no {item} line in:\n{info.value}"
    assert any(words in line for line in lines), f"{words!r} not in:\n" + "\n".join(lines)
    return lines
