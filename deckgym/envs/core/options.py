"""Checks of the rules options a ruleset's ``make_config`` receives (standard library only)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Final

from deckgym.envs.core.checks import is_bool, is_int
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


_TYPES: Final[dict[str, tuple[str, Callable[[Any], bool]]]] = {
    "int": ("a whole number", is_int),
    "bool": ("True or False", is_bool),
    "str": ("text", lambda v: isinstance(v, str)),
}


def check_types(config_class: Any, values: Mapping[str, Any]) -> None:
    """Refuse a value that is not of its field's type (``int``, ``bool`` or ``str``), naming the option."""
    for f in dataclasses.fields(config_class):
        rule = _TYPES.get(str(f.type))
        if rule is not None and f.name in values and not rule[1](values[f.name]):
            raise StateError(f"{f.name} must be {rule[0]}, got {values[f.name]!r}")


def check_table_seat(values: Mapping[str, Any]) -> None:
    """Refuse bad ``vacant_seat`` and ``proxy`` options of a core game (its table in the AMALOGS meta-game).

    ``vacant_seat`` is True or False; ``proxy`` is 0 (none), 1 (guest) or 2 (base)
    (``envs.core.proxy``), and a proxy needs ``vacant_seat``: it sits at an otherwise vacant
    seat 1. An option not in ``values`` has its default (False, 0).
    """
    vacant = values.get("vacant_seat", False)
    if not isinstance(vacant, bool):
        raise StateError(f"vacant_seat must be True or False, got {vacant!r}")
    kind = values.get("proxy", 0)
    if type(kind) is not int or kind not in (0, 1, 2):
        raise StateError(f"proxy must be 0 (none), 1 (guest) or 2 (base), got {kind!r}")
    if kind and not vacant:
        raise StateError("proxy needs vacant_seat=True: a proxy sits at an otherwise vacant seat 1")
