"""Card model, card-pool loading and deck validation (spec sections 4.4-4.8, D6, D45).

Card pools are TOML files (``cards/*.toml``) of ``[[card]]`` tables; every record is checked
when the pool loads, so a bad file fails at once with a ``CardDataError`` naming the file,
the card and the rule. Deck files are the shared ones plus a ``master`` key: 40 main-deck
cards plus exactly one master (R3), validated by ``validate_deck``.

The card model lives in ``card_defs`` (re-exported here), the record schemas in
``card_schema`` and their parsers in ``card_parse``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from deckgym.envs.core import cards as core_cards
from deckgym.envs.core.cards import DeckList, Field, deck_from_value, load_deck_file, package_dir
from deckgym.envs.core.errors import CardDataError, DeckError, raise_deck_problems
from deckgym.envs.mow.card_defs import (
    ACT_TIMINGS,
    ACTIVATED,
    ANCIENT,
    CARD_TIMINGS,
    CLASS_FLAG,
    CLASS_OF_KIND,
    CONDITION_CODES,
    COSTS,
    COUNTER,
    COUNTER_SPELL,
    DISCARD_MODES,
    DURATIONS,
    EXP_SOURCES,
    FILTER_KINDS,
    GIGANT,
    KINDS,
    LEGENDARY,
    MAIN_KINDS,
    MASTER,
    MASTER_TIMINGS,
    MONSTER,
    ON_ATTACK,
    ON_DISCARD,
    ON_ENTER,
    ON_LEVEL_UP,
    OP_KINDS,
    OPS_ORDER,
    OWN_LEVEL,
    PLAYER_OPS,
    PLAYERS,
    PREDICATES,
    SCOPES,
    SELECTORS,
    SIDES,
    SPELL,
    SPELL_EFFECT,
    STATIC,
    STATICS,
    TARGET_OPS,
    USE_KINDS,
    WEAPON,
    Ability,
    CardDef,
    Effect,
    Static,
    Target,
)
from deckgym.envs.mow.card_parse import RecordContext, parse_main, parse_master
from deckgym.envs.mow.config import DECK_SIZE, M_MAX, P_MAX, STARTER_MAX_COPIES

__all__ = [
    "ACTIVATED",
    "ACT_TIMINGS",
    "ANCIENT",
    "CARDS_DIR",
    "CARD_TIMINGS",
    "CLASS_FLAG",
    "CLASS_OF_KIND",
    "CONDITION_CODES",
    "COSTS",
    "COUNTER",
    "COUNTER_SPELL",
    "DECKS_DIR",
    "DISCARD_MODES",
    "DURATIONS",
    "EXP_SOURCES",
    "FILTER_KINDS",
    "GIGANT",
    "KINDS",
    "LEGENDARY",
    "MAIN_KINDS",
    "MASTER",
    "MASTER_TIMINGS",
    "MONSTER",
    "ON_ATTACK",
    "ON_DISCARD",
    "ON_ENTER",
    "ON_LEVEL_UP",
    "OPS_ORDER",
    "OP_KINDS",
    "OWN_LEVEL",
    "PLAYERS",
    "PLAYER_OPS",
    "PREDICATES",
    "SCOPES",
    "SELECTORS",
    "SIDES",
    "SPELL",
    "SPELL_EFFECT",
    "STATIC",
    "STATICS",
    "TARGET_OPS",
    "USE_KINDS",
    "WEAPON",
    "Ability",
    "CardDef",
    "CardPool",
    "Effect",
    "Static",
    "Target",
    "deck_names",
    "load_deck",
    "load_pool",
    "resolve_deck",
    "split_deck",
    "validate_deck",
]

CARDS_DIR: Final = package_dir(__name__) / "cards"
DECKS_DIR: Final = package_dir(__name__) / "decks"


# ----------------------------------------------------------------------------- the pool
class CardPool(core_cards.CardPool[CardDef]):
    """An immutable, validated set of card definitions: main-deck cards 0..63, masters 0..7."""

    def __init__(
        self, cards: Sequence[CardDef], files: Sequence[str], sources: Sequence[core_cards.PoolSource] = ()
    ) -> None:
        super().__init__(cards, files, sources)
        self.main: tuple[CardDef, ...] = tuple(c for c in cards if c.kind != MASTER)
        self.masters: tuple[CardDef, ...] = tuple(c for c in cards if c.kind == MASTER)


def _build_pool(sources: tuple[core_cards.PoolSource, ...]) -> CardPool:
    """The validated pool of ``sources``."""
    pool = core_cards.PoolBuilder[CardDef]()
    n_main = n_master = 0
    for source in sources:
        file = source.label
        for i, raw in enumerate(source.records()):
            cid = raw.get("id") if isinstance(raw, Mapping) else None
            label = cid if isinstance(cid, str) else f"#{i}"
            kind = raw.get("kind") if isinstance(raw, Mapping) else None
            if kind not in KINDS:
                raise CardDataError(file, label, f"field 'kind' = {kind!r} is not one of {', '.join(KINDS)}")
            ctx = RecordContext(file, label, kind)
            if kind == MASTER:
                card = parse_master(raw, ctx, n_master)
                n_master += 1
            else:
                card = parse_main(raw, ctx, n_main)
                n_main += 1
            pool.add(file, card)
    if n_main > P_MAX:
        raise CardDataError(
            ", ".join(src.label for src in sources),
            None,
            f"{n_main} main-deck card types; at most P_MAX = {P_MAX}",
        )
    if n_master > M_MAX:
        raise CardDataError(
            ", ".join(src.label for src in sources), None, f"{n_master} masters; at most M_MAX = {M_MAX}"
        )
    return CardPool(pool.cards, [src.label for src in sources], sources)


load_pool = core_cards.PoolLoader(CARDS_DIR, _build_pool, 16)


# ----------------------------------------------------------------------------- decks
#: Deck-file keys of this ruleset beyond the shared ones: the master, named apart from the
#: 40 main-deck cards of ``[cards]`` (R3).
_DECK_KEYS: Final = {"master": Field(str)}


def deck_names() -> list[str]:
    """Names (file stems) of the starter decks that ship with the package."""
    return core_cards.packaged_decks(DECKS_DIR)


def load_deck(path: str | Path, pool: CardPool) -> DeckList:
    """Read a deck file: ``master = ID`` and the main-deck cards of ``[cards]`` (R3, D6).

    The master joins the deck list as its first card, so the list holds the 41 cards R3
    counts, in the same form as a deck given as ``{id: count}`` or a list of ids.
    """
    deck = load_deck_file(path, _DECK_KEYS)
    master = deck.extra["master"]
    if master in pool and pool[master].kind != MASTER:
        raise DeckError(deck.source, master, f"master names a {pool[master].kind} card, not a master (R3)")
    for cid, _n in deck.cards:
        if cid in pool and pool[cid].kind == MASTER:
            raise DeckError(
                deck.source, cid, "a master is never in the main deck; name it with master = ... (R3, D6)"
            )
    return replace(deck, cards=((master, 1), *deck.cards))


def resolve_deck(value: Any, pool: CardPool, max_copies: int = 0, label: str = "deck") -> DeckList:
    """Turn a deck name, file path, mapping or list into a validated ``DeckList`` (R3, D6).

    Packaged starter decks (given by name) also keep the starter copy limit of 3.
    """
    if isinstance(value, str):
        if not Path(value).suffix:  # a packaged starter deck, by name
            max_copies = max_copies or STARTER_MAX_COPIES
        deck = load_deck(core_cards.deck_path(value, DECKS_DIR), pool)
    else:
        deck = deck_from_value(value, label)
    validate_deck(deck, pool, max_copies)
    return deck


def validate_deck(deck: DeckList, pool: CardPool, max_copies: int = 0) -> None:
    """Check 40 main-deck cards plus exactly one master (R3, D6); raise ``DeckError`` naming the rule.

    The error is the first problem; its ``problems`` list every one.
    """
    name = deck.source or deck.name
    problems: list[DeckError] = []
    total = 0
    masters: list[str] = []
    for cid, n in deck.cards:
        if cid not in pool:
            problems.append(
                DeckError(name, cid, f"unknown card id (not in the pool {', '.join(pool.files)})")
            )
            total += n
            continue
        if pool[cid].kind == MASTER:
            masters += [cid] * n
            continue
        if max_copies and n > max_copies:
            problems.append(
                DeckError(name, cid, f"{n} copies of {pool[cid].name!r}; at most {max_copies} (D6)")
            )
        total += n
    if len(masters) != 1:
        problems.append(
            DeckError(name, None, f"{len(masters)} master cards; a deck has exactly 1 master (R3, D6)")
        )
    if total != DECK_SIZE:
        problems.append(
            DeckError(
                name, None, f"{total} main-deck cards; a deck has exactly {DECK_SIZE} plus 1 master (R3)"
            )
        )
    raise_deck_problems(problems)


def split_deck(cards: Sequence[str], pool: CardPool) -> tuple[str, list[str]]:
    """The master and the main-deck cards of a validated deck list."""
    master = next(c for c in cards if pool[c].kind == MASTER)
    return master, [c for c in cards if pool[c].kind != MASTER]
