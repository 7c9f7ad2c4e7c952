"""Base of every ruleset's encoder: a fixed action index space and the observation.

A ruleset encoder subclasses :class:`Encoder` and provides ``action_to_index``,
``index_to_action``, ``observe`` and ``layout``. The base class derives the legal-action
mask from the engine's ``legal_actions`` so legality and encoding cannot drift apart.
"""

from __future__ import annotations

import array
from collections import Counter
from collections.abc import Callable
from typing import Any, Final, TypeVar

import numpy as np
from mypy_extensions import mypyc_attr

from deckgym.envs.encoding.layout import ObsLayout

E = TypeVar("E", bound="Encoder")
#: Cards of each deck written in order (top first) into the global state.
STATE_DECK_TOP: Final = 10
_BY_POOL: Final[dict[tuple[Callable[[Any], Any], tuple[Any, ...]], Any]] = {}
#: dtypes for ``np.frombuffer`` (a dtype object passed by position is the cheapest form to parse);
#: every encoder hands its buffers to numpy with them
INT8: Final = np.dtype(np.int8)
FLOAT32: Final = np.dtype(np.float32)
#: (deck size, copies) -> ``_share``
_SHARES: Final[dict[tuple[int, int], float]] = {}
#: Most decks ``write_deck`` keeps.
DECK_MEMO: Final = 1024
#: (deck_type, rows, types, deck) -> the deck's top rows and shares (``write_deck``)
_DECKS: Final[
    dict[tuple[Callable[[str], int], int, int, tuple[str, ...]], tuple[np.ndarray, np.ndarray]]
] = {}


def encoder_for_pool(encoder: Callable[[Any], E], pool: Any) -> E:
    """The ``encoder(pool)`` of a card pool, built once per encoder class and pool sources."""
    key = (encoder, getattr(pool, "sources", pool.files))
    if key not in _BY_POOL:
        _BY_POOL[key] = encoder(pool)
    enc: E = _BY_POOL[key]
    return enc


def write_deck(top: np.ndarray, share: np.ndarray, deck: list[str], deck_type: Callable[[str], int]) -> None:
    """One deck (top card last) into its ``(top, types)`` one-hot rows and its ``(types,)`` shares.

    Both start zeroed (the global state's own pieces): each is written whole, in one copy. A
    deck changes far less often than the global state is read, so the two blocks of a deck are
    worked out once and kept (at most ``DECK_MEMO`` decks; the memo starts over when full).
    """
    if not deck:
        return
    t, k = top.shape
    key = (deck_type, t, k, tuple(deck))
    blocks = _DECKS.get(key)
    if blocks is None:
        rows = array.array("f", bytes(4 * t * k))
        i = 0
        for card in reversed(deck[-t:]):
            rows[i + deck_type(card)] = 1.0
            i += k
        copies: dict[int, int] = {}
        for card, n in Counter(deck).items():
            col = deck_type(card)
            copies[col] = copies.get(col, 0) + n
        size = len(deck)
        shares = array.array("f", bytes(4 * k))
        for col, n in copies.items():
            shares[col] = _share(size, n)
        if len(_DECKS) >= DECK_MEMO:
            _DECKS.clear()
        blocks = _DECKS[key] = (np.frombuffer(rows, FLOAT32).reshape(t, k), np.frombuffer(shares, FLOAT32))
    top[...] = blocks[0]
    share[...] = blocks[1]


#: Most hands ``write_hand`` keeps per memo (an entry is a hand's rows: about 2 kB for five cards).
HAND_MEMO: Final = 4096


def write_hand(
    buf: array.array,
    start: int,
    hand: list[str],
    card_rows: dict[str, array.array],
    memo: dict[tuple[str, ...], array.array],
    last: list[tuple[list[str], array.array] | None],
    slot: int,
) -> None:
    """The feature rows of the cards of ``hand``, in order, from ``buf[start]`` on.

    A hand is written far more often than it changes, so its rows are kept as one piece,
    copied in by one slice: ``last[slot]`` holds the slot's (a seat's) last hand and piece,
    tried first, and ``memo`` the pieces of other hands (at most ``HAND_MEMO``; the memo starts
    over when full). On a miss the rows are written one by one and the piece is taken from ``buf``.
    """
    seen = last[slot]
    if seen is not None and seen[0] == hand:
        rows = seen[1]
        buf[start : start + len(rows)] = rows
        return
    held = tuple(hand)
    found = memo.get(held)
    if found is None:
        at = start
        for cid in held:
            row = card_rows[cid]
            buf[at : at + len(row)] = row
            at += len(row)
        if len(memo) >= HAND_MEMO:
            memo.clear()
        rows = memo[held] = buf[start:at]
    else:
        rows = found
        buf[start : start + len(rows)] = rows
    last[slot] = (list(hand), rows)


def _share(size: int, copies: int) -> float:
    """A card type's share of a deck of ``size`` cards: ``1 / size`` added once per copy, in float32."""
    key = (size, copies)
    value = _SHARES.get(key)
    if value is None:
        acc = np.zeros(1, dtype=np.float32)
        w = 1.0 / size
        for _ in range(copies):
            acc[0] += w  # rounded to float32 after every copy
        value = _SHARES[key] = float(acc[0])
    return value


# a ruleset outside the package subclasses it, on the compiled build too (it sets the fields below
# on the instance, in its __init__: compiled fields are slots, which a class attribute does not fill)
@mypyc_attr(allow_interpreted_subclasses=True)
class Encoder:
    """State -> observation vectors, and action index <-> engine action, for one ruleset."""

    #: Number of action indices (``Discrete(ACTION_SIZE)``).
    action_size: int = 0
    #: Named observation pieces.
    layout: ObsLayout
    #: ``(start, rows, features)`` of the contiguous block of card-feature rows, if any: a
    #: policy may share one small layer across the rows (an embedding of the cards).
    card_region: tuple[int, int, int] | None = None
    #: ``(low, high)`` bounds of every observation value: the wrapper declares the observation
    #: ``Box`` with them. A ruleset whose scaled values are not clipped declares ``(-inf, inf)``.
    obs_bounds: tuple[float, float] = (-100.0, 100.0)
    #: ``global_layout`` per number of seats, built on first use.
    _global_layouts: dict[int, ObsLayout] | None = None
    #: The all-zero action mask (copied by ``action_mask``), built on first use.
    _blank_mask: array.array | None = None

    @property
    def obs_size(self) -> int:
        """Length of the observation vector."""
        return self.layout.size

    def action_to_index(self, action: Any, state: Any) -> int:
        """Index of an engine action at ``state`` (for the player to move)."""
        raise NotImplementedError

    def index_to_action(self, index: int, state: Any) -> Any:
        """Engine action of an index at ``state`` (inverse of ``action_to_index``)."""
        raise NotImplementedError

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """float32 vector of length ``obs_size`` with only what ``seat`` may know."""
        raise NotImplementedError

    def action_label(self, index: int, state: Any) -> str:
        """Human-readable name of an action index at ``state``."""
        return str(self.index_to_action(index, state))

    def legal_indices(self, state: Any) -> list[int]:
        """Indices of the legal actions of the player to move."""
        a2i = self.action_to_index
        return [a2i(a, state) for a in state.legal_actions()]

    def action_mask(self, state: Any, seat: int | None = None) -> np.ndarray:
        """int8 mask of shape ``(action_size,)``; all zeros for a seat that is not to move.

        The mask is written into a zeroed ``array.array`` and handed to numpy without a copy.
        """
        zero = self._blank_mask
        if zero is None:
            zero = self._blank_mask = array.array("b", bytes(self.action_size))
        buf = zero[:]
        if seat is None or seat == state.current_player:
            for i in self.legal_indices(state):
                buf[i] = 1
        return np.frombuffer(buf, INT8)

    def observation_layout(self) -> dict[str, slice]:
        """Piece name -> slice of the observation vector."""
        return self.layout.slices()

    # ------------------------------------------------------------------ global state
    #: Number of card types a deck holds (the width of the global state's deck pieces).
    deck_types: int = 0

    def deck_type(self, card: str) -> int:
        """The card type ``0..deck_types - 1`` of a deck card (the deck pieces' column)."""
        raise NotImplementedError

    def decks(self, state: Any) -> list[list[str]]:
        """Each seat's deck, top card last (the engine's own order)."""
        return [list(d) for d in state.deck]

    def global_layout(self, num_players: int = 2) -> ObsLayout:
        """Named pieces of ``global_state``: every seat's observation, then ``hidden_pieces``."""
        memo = self._global_layouts
        if memo is None:
            memo = self._global_layouts = {}
        cached = memo.get(num_players)
        if cached is None:
            pieces: list[tuple[str, tuple[int, ...], str]] = [
                (f"seat_{i}", (self.obs_size,), f"seat {i}'s own observation (its private cards included)")
                for i in range(num_players)
            ]
            cached = memo[num_players] = ObsLayout(pieces + self.hidden_pieces(num_players))
        return cached

    def hidden_pieces(self, num_players: int) -> list[tuple[str, tuple[int, ...], str]]:
        """The global state's pieces after the seats' observations: each seat's deck order."""
        n, t, k = num_players, STATE_DECK_TOP, self.deck_types
        return [
            ("deck_top", (n, t, k), f"per seat, its top {t} deck cards in order, one-hot by card type"),
            ("deck_share", (n, k), "per seat, each card type's share of its remaining deck"),
        ]

    def state_layout(self, num_players: int = 2) -> dict[str, slice]:
        """Piece name -> slice of the global state vector (``env.state()``)."""
        return self.global_layout(num_players).slices()

    def global_state(self, state: Any) -> np.ndarray:
        """float32 vector of the whole game (every seat's private cards and the deck orders).

        For centralized critics and oracle training only: no observation is derived from it.
        """
        n = state.num_players
        layout = self.global_layout(n)
        out = np.zeros(layout.size, dtype=np.float32)
        size = self.obs_size  # the seats' pieces come first, in seat order
        for i in range(n):
            out[i * size : (i + 1) * size] = self.observe(state, i)
        self.write_hidden(out, layout, state)
        return out

    def write_hidden(self, out: np.ndarray, layout: ObsLayout, state: Any) -> None:
        """Write the ``hidden_pieces`` of ``state`` into the global vector ``out``."""
        top, share = layout.view(out, "deck_top"), layout.view(out, "deck_share")
        for p, deck in enumerate(self.decks(state)):
            write_deck(top[p], share[p], deck, self.deck_type)
