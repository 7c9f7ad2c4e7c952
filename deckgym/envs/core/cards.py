"""Card-pool and deck file loading with validation at load time.

A ruleset declares its record schema with :class:`Field` entries; :func:`check_record`
then rejects unknown keys, missing keys and out-of-range values with a
:class:`~envs.core.errors.CardDataError` that names the file, the card and the rule.

Deck files share :data:`DECK_KEYS` (``name``, ``description``, ``[cards] ID = count``); a
ruleset declares the keys and tables its decks add (a mode, a master, a starter set) as a
schema of its own, which :func:`load_deck_file` validates with the same errors.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import sys
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Generic, Protocol, TypeVar

from deckgym.envs.core.errors import CardDataError, DeckError


class Card(Protocol):
    """What a pool needs of a ruleset's card definition."""

    @property
    def id(self) -> str:
        """The card id."""
        ...

    @property
    def name(self) -> str:
        """The card name."""
        ...


C = TypeVar("C", bound=Card)


class CardPool(Generic[C]):
    """An immutable, validated set of card definitions, looked up by id or by index 1..n (0: none).

    Args:
        cards: the definitions, in pool order.
        files: where they were read from, as named in errors (a path, ``<toml text>`` or
            ``<card mappings>`` per source).
        sources: the sources themselves (default: the files, as paths); ``spec`` writes them out.
    """

    def __init__(self, cards: Sequence[C], files: Sequence[str], sources: Sequence[PoolSource] = ()) -> None:
        self.cards: dict[str, C] = {c.id: c for c in cards}
        self.by_index: list[C | None] = [None, *cards]
        self.files = tuple(files)
        self.sources = tuple(sources) or tuple(PoolSource("file", f) for f in self.files)

    def listed(
        self, entries: Iterable[tuple[str, int]], deck: str, problems: list[DeckError]
    ) -> Iterator[tuple[str, int, C]]:
        """Each ``(id, copies)`` entry of a deck list with its definition, in order.

        An id not in the pool is a problem of ``deck``, added to ``problems`` (a deck check
        lists every problem).
        """
        for cid, n in entries:
            card = self.cards.get(cid)
            if card is None:
                problems.append(
                    DeckError(deck, cid, f"unknown card id (not in the pool {', '.join(self.files)})")
                )
            else:
                yield cid, n, card

    def spec(self) -> Any:
        """The pool as ``load_pool`` takes it back, JSON-safe: file paths, or the text and mappings.

        A pool read only from files gives its list of paths; a pool with a source that was
        never a file gives a list whose entries are paths, ``{"toml": text}`` or
        ``{"cards": [mappings]}``, so a state saved with it reloads without any file.
        """
        if all(src.kind == "file" for src in self.sources):
            return [src.data for src in self.sources]
        return [src.spec() for src in self.sources]

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, cid: object) -> bool:
        return cid in self.cards

    def __getitem__(self, cid: str) -> C:
        try:
            return self.cards[cid]
        except KeyError:
            raise KeyError(f"unknown card id {cid!r} (pool {', '.join(self.files)})") from None

    def ids(self) -> list[str]:
        """Card ids in pool order."""
        return list(self.cards)


class PoolBuilder(Generic[C]):
    """The cards of a pool being read, in pool order; each card id once, each name once.

    Args:
        kind_of: with it, a name is unique only among the cards of one kind (the text it
            gives, which also names the kind in the error); without it, in the whole pool.
    """

    def __init__(self, kind_of: Callable[[C], str] | None = None) -> None:
        self.cards: list[C] = []
        #: The source label each card id was read from.
        self.file_of: dict[str, str] = {}
        self._names: dict[tuple[str, str], str] = {}
        self._kind_of = kind_of

    def add(self, file: str, card: C) -> None:
        """Append ``card``, read from ``file``.

        Raises:
            CardDataError: its id, or its name (within its kind with ``kind_of``), was read before.
        """
        if card.id in self.file_of:
            raise CardDataError(
                file, card.id, f"duplicate card id (first defined in {self.file_of[card.id]})"
            )
        kind = "card" if self._kind_of is None else self._kind_of(card)
        key = (card.name, kind)
        if key in self._names:
            raise CardDataError(
                file, card.id, f"duplicate {kind} name {card.name!r} (also {self._names[key]})"
            )
        self.file_of[card.id] = file
        self._names[key] = card.id
        self.cards.append(card)

    def read(self, sources: Iterable[PoolSource], parse: Callable[[Any, int, str], C]) -> None:
        """Add every record of ``sources``, as ``parse(record, index 1..n in the pool, source label)``."""
        for source in sources:
            for raw in source.records():
                self.add(source.label, parse(raw, len(self.cards) + 1, source.label))


P = TypeVar("P")


class PoolLoader(Generic[P]):
    """A ruleset's ``load_pool``: its sources read by ``pool_sources``, each set built once.

    Args:
        cards_dir: the ruleset's packaged ``cards`` folder (the default pool).
        build: builds and validates the pool of a tuple of sources.
        cache_size: how many pools are kept.
    """

    def __init__(
        self, cards_dir: Path, build: Callable[[tuple[PoolSource, ...]], P], cache_size: int = 8
    ) -> None:
        self.cards_dir = cards_dir
        self._build = functools.lru_cache(maxsize=cache_size)(build)

    def __call__(self, files: Any = None) -> P:
        """Load and validate a card pool (default: every ``cards/*.toml`` of the package).

        ``files`` is a list of card files, TOML text, a list of card mappings, or what
        ``CardPool.spec`` wrote (``pool_sources``); every form is validated alike.
        """
        return self._build(pool_sources(self.cards_dir, files))


#: How a pool source that is not a file is named in errors.
TEXT_LABEL: Final = "<toml text>"
CARDS_LABEL: Final = "<card mappings>"


def package_dir(module: str) -> Path:
    """The folder of the package that holds ``module`` (call it with ``__name__``): its data files.

    A compiled module's ``__file__`` does not name its folder, so the data files are found
    through the package, which is imported before its modules.
    """
    package = sys.modules[module.rpartition(".")[0]]
    return Path(package.__path__[0])


@dataclass(frozen=True)
class PoolSource:
    """One source of card records: a file, TOML text, or card mappings (kept as canonical JSON).

    Hashable, so a pool loaded from the same sources is loaded once.
    """

    kind: str  # "file", "toml" or "cards"
    data: str  # the path, the TOML text, or the mappings as JSON with sorted keys

    @property
    def label(self) -> str:
        """The name errors give this source."""
        return self.data if self.kind == "file" else TEXT_LABEL if self.kind == "toml" else CARDS_LABEL

    def records(self) -> list[Any]:
        """The source's card records (``[[card]]`` tables).

        Raises:
            CardDataError: the text is not TOML, holds other top-level keys, or the mappings are not a list.
        """
        if self.kind == "file":
            return read_pool_file(self.data)  # type: ignore[no-any-return]
        if self.kind == "cards":
            return json.loads(self.data)  # type: ignore[no-any-return]
        try:
            data = tomllib.loads(self.data)
        except tomllib.TOMLDecodeError as exc:
            raise CardDataError(TEXT_LABEL, None, f"not valid TOML: {exc}") from None
        tables: list[Any] = _card_tables(TEXT_LABEL, data)
        return tables

    def spec(self) -> Any:
        """The JSON-safe form ``pool_sources`` reads back."""
        if self.kind == "file":
            return self.data
        if self.kind == "toml":
            return {"toml": self.data}
        return {"cards": json.loads(self.data)}


def pool_sources(cards_dir: Path, source: Any = None) -> tuple[PoolSource, ...]:
    """The sources of a pool: by default every ``*.toml`` file in ``cards_dir`` (sorted).

    ``source`` is a path, TOML text (a string with a newline or starting with ``[[``), a list
    of card mappings, or a list mixing paths, TOML texts, ``{"toml": text}`` and
    ``{"cards": [mappings]}`` entries (what ``CardPool.spec`` writes).

    Raises:
        CardDataError: an entry is none of these, or a mapping list holds something else.
    """
    if source is None:
        return tuple(PoolSource("file", p) for p in card_files(cards_dir))
    items = [source] if isinstance(source, (str, Path, Mapping)) else list(source)
    out: list[PoolSource] = []
    cards: list[Any] = []  # consecutive card mappings form one source

    def flush() -> None:
        if cards:
            out.append(PoolSource("cards", _canonical(list(cards))))
            cards.clear()

    for item in items:
        if isinstance(item, Mapping) and set(item) == {"toml"} and isinstance(item["toml"], str):
            flush()
            out.append(PoolSource("toml", item["toml"]))
        elif isinstance(item, Mapping) and set(item) == {"cards"}:
            flush()
            if not isinstance(item["cards"], list) or not all(isinstance(c, Mapping) for c in item["cards"]):
                raise CardDataError(CARDS_LABEL, None, "'cards' must be a list of card mappings")
            out.append(PoolSource("cards", _canonical(list(item["cards"]))))
        elif isinstance(item, Mapping):
            cards.append(item)
        elif isinstance(item, str) and ("\n" in item or item.lstrip().startswith("[[")):
            flush()
            out.append(PoolSource("toml", item))
        elif isinstance(item, (str, Path)):
            flush()
            out.append(PoolSource("file", str(Path(item))))
        else:
            raise CardDataError(
                CARDS_LABEL,
                None,
                f"a pool source must be a file path, TOML text or card mappings, got {type(item).__name__}",
            )
    flush()
    return tuple(out)


def _canonical(records: list[Any]) -> str:
    try:
        return json.dumps(records, sort_keys=True)
    except TypeError as exc:
        raise CardDataError(CARDS_LABEL, None, f"card mappings must hold plain data: {exc}") from None


def card_files(cards_dir: Path, files: Iterable[str | Path] | None = None) -> tuple[str, ...]:
    """The card files to load: ``files``, or by default every ``*.toml`` in ``cards_dir`` (sorted)."""
    paths = sorted(cards_dir.glob("*.toml")) if files is None else [Path(f) for f in files]
    return tuple(str(p) for p in paths)


def read_pool_file(path: str) -> Any:
    """The ``[[card]]`` tables of a card pool file.

    Raises:
        CardDataError: the file holds other top-level keys.
    """
    return _card_tables(path, read_toml(path))


def _card_tables(label: str, data: dict[str, Any]) -> Any:
    unknown = [k for k in data if k != "card"]
    if unknown:
        raise CardDataError(
            label, None, f"unknown top-level key(s) {unknown}; a pool file holds [[card]] tables"
        )
    return data.get("card", [])


@dataclass(frozen=True)
class Field:
    """One key of a data record: its type, whether it is required and its allowed values.

    Attributes:
        kind: the allowed type or types (``bool`` only where listed).
        required: whether the key must be present.
        choices: the allowed values, if restricted.
        lo: the smallest allowed value, if bounded.
        hi: the largest allowed value, if bounded.
        check: a further rule: returns a problem description, or None when the value is fine.
        schema: for a table, the schema of its own keys (checked like the record itself).
    """

    kind: type | tuple[type, ...]
    required: bool = True
    choices: Sequence[Any] | None = None
    lo: int | None = None
    hi: int | None = None
    check: Callable[[Any], str | None] | None = None
    schema: Mapping[str, Field] | None = None


#: Parsed TOML files by the digest of their bytes: building an env reads the same deck and
#: variant files again and again, and parsing them was most of its cost.
_PARSED: Final[dict[bytes, dict[str, Any]]] = {}


def _read(p: Path) -> tuple[bytes, bytes]:
    """A file's bytes and their digest; ``CardDataError`` when it is missing."""
    try:
        raw = p.read_bytes()
    except FileNotFoundError as exc:
        raise CardDataError(str(p), None, "file not found") from exc
    return raw, hashlib.blake2b(raw, digest_size=16).digest()


def _parsed(p: Path, raw: bytes, digest: bytes) -> dict[str, Any]:
    """The parsed TOML of ``raw`` (shared: callers copy before changing it)."""
    data = _PARSED.get(digest)
    if data is None:
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise CardDataError(
                str(p), None, f"not UTF-8 text (byte {exc.start}): not a TOML deck file"
            ) from exc
        except tomllib.TOMLDecodeError as exc:
            raise CardDataError(str(p), None, f"not valid TOML ({exc})") from exc
        if len(_PARSED) >= 512:
            _PARSED.clear()
        _PARSED[digest] = data
    return data


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file, turning syntax errors into ``CardDataError`` naming the file.

    Each caller gets its own copy; a file whose bytes changed is parsed again.
    """
    p = Path(path)
    return copy.deepcopy(_parsed(p, *_read(p)))


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
        if spec.schema is not None:
            check_record(record[key], spec.schema, file, card, what=f"{key} {what}")


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _type_name(kind: type | tuple[type, ...]) -> str:
    return " or ".join(k.__name__ for k in _as_tuple(kind))


@dataclass(frozen=True)
class DeckList:
    """A deck: its name, card counts by id and the ruleset's own deck fields.

    Attributes:
        name: the deck's name.
        cards: ``(card id, count)`` pairs in file order.
        description: a line for humans.
        source: the file it was read from ("" for a deck given as a value).
        extra: the values of the ruleset's own deck keys (see :func:`load_deck_file`).
    """

    name: str
    cards: tuple[tuple[str, int], ...]
    description: str = ""
    source: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def expand(self) -> list[str]:
        """The deck as a flat list of card ids, in file order."""
        return [cid for cid, n in self.cards for _ in range(n)]


#: Keys of every deck file.
DECK_KEYS: Final[Mapping[str, Field]] = {
    "name": Field(str),
    "description": Field(str, required=False),
    "cards": Field(dict),
}


def packaged_decks(decks_dir: Path) -> list[str]:
    """Names (file stems) of the deck files in ``decks_dir``, sorted."""
    return sorted(p.stem for p in decks_dir.glob("*.toml"))


def deck_path(value: str | Path, decks_dir: Path, what: str = "starter deck") -> Path:
    """The file of a deck given as a file path (it has a suffix) or as the name of a deck in ``decks_dir``.

    Raises:
        DeckError: no deck in ``decks_dir`` has that name (the message lists the known ones).
    """
    path = Path(value)
    if path.suffix:
        return path
    path = decks_dir / f"{value}.toml"
    if not path.exists():
        known = ", ".join(packaged_decks(decks_dir))
        raise DeckError(str(value), None, f"no {what} of that name (known: {known})")
    return path


def load_deck_file(path: str | Path, extra: Mapping[str, Field] | None = None) -> DeckList:
    """Read and check a deck file: the keys of ``DECK_KEYS`` plus the ruleset's own.

    Args:
        path: the deck file (TOML).
        extra: the schema of the keys and tables the ruleset's decks add to ``DECK_KEYS``
            (e.g. ``{"master": Field(str)}``, or ``{"starter": Field(dict, schema=...)}`` for a
            table); their values end up in ``DeckList.extra``.

    Returns:
        The deck, with ``source`` set to the file.

    Raises:
        DeckError: the file is missing, not TOML, has an unknown or missing key, a value of
            the wrong type or out of range, or a count that is not a positive integer; the
            message names the file, the card where there is one, and the rule.
    """
    p = Path(path)
    try:
        raw, digest = _read(p)
        key = (str(p), digest, tuple(sorted(extra or {})))
        deck = _DECKS.get(key)
        if deck is None:  # a new file, or new bytes: parse and check it
            deck = _check_deck(p, _parsed(p, raw, digest), extra)
            if len(_DECKS) >= 512:
                _DECKS.clear()
            _DECKS[key] = deck
    except CardDataError as exc:
        raise DeckError(str(p), None, exc.detail) from exc
    return replace(deck, extra=copy.deepcopy(deck.extra))  # each caller gets its own extra fields


#: Checked deck files by (path, digest of the bytes, the ruleset's extra keys).
_DECKS: Final[dict[tuple[str, bytes, tuple[str, ...]], DeckList]] = {}


def _check_deck(p: Path, data: dict[str, Any], extra: Mapping[str, Field] | None) -> DeckList:
    schema = {**DECK_KEYS, **(extra or {})}
    check_record(data, schema, str(p), None, what="key")
    cards = []
    for cid, n in data["cards"].items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise DeckError(str(p), cid, f"count must be a positive integer, got {n!r}")
        cards.append((cid, n))
    extras = {key: data[key] for key in extra or {} if key in data}
    return DeckList(data["name"], tuple(cards), data.get("description", ""), str(p), extras)


def deck_from_value(value: DeckList | Mapping[str, int] | Sequence[str], name: str = "custom") -> DeckList:
    """Accept a ``DeckList``, a ``{id: count}`` mapping or a flat list of ids."""
    if isinstance(value, DeckList):
        return value
    if isinstance(value, Mapping):
        return DeckList(name, tuple((str(k), int(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        counts: dict[str, int] = {}
        for cid in value:
            counts[str(cid)] = counts.get(str(cid), 0) + 1
        return DeckList(name, tuple(counts.items()))
    raise DeckError(
        name, None, f"a deck must be a deck name, a file, a mapping or a list, got {type(value).__name__}"
    )
