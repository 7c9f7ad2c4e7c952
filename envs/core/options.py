"""Checks of the rules options a ruleset's ``make_config`` receives (standard library only)."""

from __future__ import annotations

import dataclasses
from typing import Any

from deckgym.envs.core.errors import StateError


def check_known(config_class: Any, overrides: dict[str, Any]) -> None:
    """Refuse options that are not fields of the dataclass ``config_class``, naming the known ones."""
    fields = {f.name for f in dataclasses.fields(config_class)}
    unknown = sorted(set(overrides) - fields)
    if unknown:
        raise StateError(f"unknown rules option(s) {', '.join(unknown)}; known: {', '.join(sorted(fields))}")


def check_int(key: str, value: Any, least: int) -> None:
    """Refuse a ``value`` of option ``key`` that is not an integer (bools excluded) of at least ``least`` (0 or 1)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        kind = "positive" if least == 1 else "non-negative"
        raise StateError(f"{key} must be a {kind} integer, got {value!r}")
