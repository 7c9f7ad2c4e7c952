"""Card-pool and deck file loading with validation at load time.

A ruleset declares its record schema with :class:`Field` entries; :func:`check_record`
then rejects unknown keys, missing keys and out-of-range values with a
:class:`~envs.core.errors.CardDataError` that names the file, the card and the rule.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envs.core.errors import CardDataError, DeckError


@dataclass(frozen=True, slots=True)
class Field:
    """One key of a data record: its type, whether it is required and its allowed values."""

    kind: type | tuple[type, ...]
    required: bool = True
    choices: Sequence[Any] | None = None
    lo: int | None = None
    hi: int | None = None
    check: Callable[[Any], str | None] | None = None


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file, turning syntax errors into ``CardDataError`` naming the file."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise CardDataError(str(p), None, "file not found") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(str(p), None, f"not valid TOML ({exc})") from exc


def check_record(
    record: Mapping[str, Any], schema: Mapping[str, Field], file: str, card: str | None, what: str = "field"
) -> None:
    """Validate ``record`` against ``schema``; raise ``CardDataError`` on the first problem."""
    if not isinstance(record, Mapping):
        raise CardDataError(file, card, f"expected a table, got {type(record).__name__}")
    for key in record:
        if key not in schema:
            raise CardDataError(file, card, f"unknown {what} {key!r} (allowed: {', '.join(schema)})")
    for key, spec in schema.items():
        if key not in record:
            if spec.required:
                raise CardDataError(file, card, f"missing required {what} {key!r}")
            continue
        value: Any = record[key]
        if isinstance(value, bool) and bool not in _as_tuple(spec.kind):
            raise CardDataError(file, card, f"{what} {key!r} must be {_type_name(spec.kind)}, got {value!r}")
        if not isinstance(value, spec.kind):
            raise CardDataError(file, card, f"{what} {key!r} must be {_type_name(spec.kind)}, got {value!r}")
        if spec.choices is not None and value not in spec.choices:
            raise CardDataError(
                file, card, f"{what} {key!r} = {value!r} is not one of {', '.join(map(str, spec.choices))}"
            )
        num: Any = value
        if (spec.lo is not None and num < spec.lo) or (spec.hi is not None and num > spec.hi):
            raise CardDataError(
                file, card, f"{what} {key!r} = {value!r} is out of range {spec.lo}..{spec.hi}"
            )
        if spec.check is not None:
            problem = spec.check(value)
            if problem:
                raise CardDataError(file, card, f"{what} {key!r} = {value!r}: {problem}")


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _type_name(kind: type | tuple[type, ...]) -> str:
    return " or ".join(k.__name__ for k in _as_tuple(kind))


@dataclass(frozen=True, slots=True)
class DeckList:
    """A deck file: its name, the mode it is built for and card counts by id."""

    name: str
    mode: str
    cards: tuple[tuple[str, int], ...]
    description: str = ""
    source: str = ""

    def expand(self) -> list[str]:
        """The deck as a flat list of card ids, in file order."""
        return [cid for cid, n in self.cards for _ in range(n)]


_DECK_SCHEMA = {
    "name": Field(str),
    "mode": Field(str),
    "description": Field(str, required=False),
    "cards": Field(dict),
}


def load_deck_file(path: str | Path) -> DeckList:
    """Read a deck file (``name``, ``mode``, ``[cards] ID = count``); raise ``DeckError`` if malformed."""
    p = Path(path)
    try:
        data = read_toml(p)
        check_record(data, _DECK_SCHEMA, str(p), None, what="key")
    except CardDataError as exc:
        raise DeckError(str(p), None, exc.detail) from exc
    cards = []
    for cid, n in data["cards"].items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise DeckError(str(p), cid, f"count must be a positive integer, got {n!r}")
        cards.append((cid, n))
    return DeckList(data["name"], data["mode"], tuple(cards), data.get("description", ""), str(p))


def deck_from_value(value: DeckList | Mapping[str, int] | Sequence[str], name: str = "custom") -> DeckList:
    """Accept a ``DeckList``, a ``{id: count}`` mapping or a flat list of ids."""
    if isinstance(value, DeckList):
        return value
    if isinstance(value, Mapping):
        return DeckList(name, "", tuple((str(k), int(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        counts: dict[str, int] = {}
        for cid in value:
            counts[str(cid)] = counts.get(str(cid), 0) + 1
        return DeckList(name, "", tuple(counts.items()))
    raise DeckError(
        name, None, f"a deck must be a deck name, a file, a mapping or a list, got {type(value).__name__}"
    )
