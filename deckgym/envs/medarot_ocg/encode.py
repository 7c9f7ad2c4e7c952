"""Observation and action encoding of the Medarot OCG (spec sections 6 and 7).

``MedarotEncoder`` is the encoder of one card pool. Its parts live in sibling modules:

- ``encode_actions``: the ``Discrete(78)`` action space (the table of indices), index <->
  action, legal indices and labels;
- ``encode_layout``: the observation pieces, the card feature rows and the scalar names;
- ``encode_tactics``: the reach, threat and lasting-effect summaries of the board;
- ``encode_obs``: the writers of the observation pieces.

This module builds the encoder and hands its buffers to numpy (the action mask and the
observation vector).
"""

from __future__ import annotations

import array

import numpy as np

from deckgym.envs.encoding.codec import FLOAT32, INT8
from deckgym.envs.medarot_ocg.cards import CardPool
from deckgym.envs.medarot_ocg.encode_actions import _INDEX_OF, _REL, ACTION_SIZE, OFFSET
from deckgym.envs.medarot_ocg.encode_layout import (
    _N_CARD_SLOTS,
    _SQ_F,
    ACT_FLAG_NAMES,
    CARD_F,
    COUNT_DPS,
    SCALARS,
    _card_row,
    build_layout,
)
from deckgym.envs.medarot_ocg.encode_obs import _ACTING_DPS, ObservationWriter
from deckgym.envs.medarot_ocg.encode_tactics import _TYPE_INDEX, _effect_summary, _tactics
from deckgym.envs.medarot_ocg.state import GameState

__all__ = [
    "ACTION_SIZE",
    "ACT_FLAG_NAMES",
    "CARD_F",
    "COUNT_DPS",
    "OFFSET",
    "SCALARS",
    "MedarotEncoder",
    "build_layout",
]


class MedarotEncoder(ObservationWriter):
    """Encoder of one card pool (the table of card features is built once)."""

    action_size = ACTION_SIZE

    def __init__(self, pool: CardPool) -> None:
        self.pool = pool
        self.n_cards = len(pool)
        self.layout = build_layout(self.n_cards)
        table = [[0.0] * CARD_F] + [_card_row(c) for c in pool.cards.values()]
        self.table = np.asarray(table, dtype=np.float32)
        self.row = {cid: c.index for cid, c in pool.cards.items()}
        self.deck_types = self.n_cards
        #: card id -> (power, armor, speed, 0 shooting / 1 melee / -1 other, cost)
        self._stats = {
            cid: (c.power, c.armor, c.speed, _TYPE_INDEX.get(c.type, -1), c.cost)
            for cid, c in pool.cards.items()
        }
        self._zero = array.array("f", bytes(4 * self.layout.size))
        self._zero_mask = array.array("b", bytes(ACTION_SIZE))
        L = self.layout
        self._dec = L["decision"].start
        self._sc = L["scalars"].start
        self._board = L["board"].start
        self._board_end = self._board + L["board"].size
        self._flags = L["masters"].start
        self._moves = L["acting_moves"].start
        self._attacks = L["acting_attacks"].start
        self._attacks_end = self._attacks + L["acting_attacks"].size
        assert self._attacks == self._moves + L["acting_moves"].size  # one contiguous block
        self._more = L["move_tactics"].start
        self._range = L["attack_range"].start
        self._more_end = self._range + L["attack_range"].size
        self._attack = L["attack"].start
        assert self._more_end == self._attack  # move_tactics, attack_range and attack: one block at the end
        self._cards = L["board_cards"].start
        self._trash = L["trash"].start
        self._reserve_end = L["reserve"].start + L["reserve"].size
        assert L["reserve"].start == self._trash + L["trash"].size  # one contiguous block
        self.card_region = (self._cards, _N_CARD_SLOTS, CARD_F)
        self._board_cards_end = self._cards + 15 * CARD_F
        self._square_rows = tuple(tuple(r * _SQ_F for r in rel) for rel in _REL)
        self._board_zero = array.array("f", bytes(4 * L["board"].size))
        self._reserve = L["reserve"].start
        #: card id -> its feature row as an ``array.array`` (copied into an observation by slice)
        self._card_rows = {
            cid: array.array("f", self.table[c.index].tobytes()) for cid, c in pool.cards.items()
        }
        self._hands = {}
        self._last_hands = [None, None]

    def deck_type(self, card: str) -> int:
        """The global state's deck column of a card: its pool row minus one."""
        return self.row[card] - 1

    def action_mask(self, state: GameState, seat: int | None = None) -> np.ndarray:
        """int8 mask of shape ``(78,)``; all zeros for a seat that is not to move."""
        buf = self._zero_mask[:]
        p = state.current_player
        if p >= 0 and (seat is None or seat == p):
            index = _INDEX_OF[p]
            for a in state.legal_actions():
                buf[index[a]] = 1
        return np.frombuffer(buf, INT8)

    # ------------------------------------------------------------------ observations
    def observe(self, st: GameState, seat: int) -> np.ndarray:
        """The observation of ``seat`` (spec section 7): public state plus its own private cards.

        The vector is written into a zeroed ``array.array`` (cheap element writes, and card
        rows copied in by slice) and handed to numpy without a copy: every call returns a new
        array that the env never writes to again.
        """
        buf = self._zero[:]
        point = st.decision_point
        if point is not None and not st.done:
            buf[self._dec + point[0]] = 1.0
        # The board and tactical pieces (and the effect totals of the scalars) depend only on the
        # board and the lasting effects: they are kept on the state, one memo per seat, until
        # ``board_version`` changes (clones start with no cache).
        cache = st._tactics_cache
        if cache is None or cache[0] != st.board_version:
            cache = st._tactics_cache = (st.board_version, ({}, {}))
        memo = cache[1][seat]
        bo, be = self._board, self._board_end
        co, ce = self._cards, self._board_cards_end
        view = memo.get("board")
        if view is None:
            statuses, sideways, mods, tot, dyn = _effect_summary(st, seat)
            tactics = _tactics(st, seat, mods, self._stats)
            board = self._write_board(buf, st, seat, statuses, sideways, mods, tactics)
            buf[bo:be] = board
            memo["board"] = (mods, tot, dyn, tactics, board, buf[co:ce])
        else:
            mods, tot, dyn, tactics, board, board_cards = view
            buf[bo:be] = board
            buf[co:ce] = board_cards
        act = st.act
        if act is not None:  # the markers of the acting Medarot and of its target
            marks_key = ("marks", act.uid, act.target)
            marks = memo.get(marks_key)
            if marks is None:
                marks = memo[marks_key] = self._marks(st, seat, act.uid, act.target)
            for i in marks:
                buf[i] = 1.0
            if point is not None and point[0] in _ACTING_DPS:
                a, b = self._moves, self._attacks_end
                c, d = self._more, self._more_end
                acting_key = ("acting", act.uid)
                blocks = memo.get(acting_key)
                if blocks is None:
                    self._write_acting(buf, st, seat, mods, tactics)
                    memo[acting_key] = (buf[a:b], buf[c:d])
                else:
                    buf[a:b], buf[c:d] = blocks
            attack_key = ("attack", act.uid, act.target)
            block = memo.get(attack_key)
            if block is None:
                self._write_attack(buf, st, seat, mods, tactics)
                memo[attack_key] = buf[self._attack : self._attack + 5]
            else:
                buf[self._attack : self._attack + 5] = block
        self._write_cards(buf, st, seat)
        self._write_piles(buf, st, seat)
        self._write_scalars(buf, st, seat, tot, dyn)
        return np.frombuffer(buf, FLOAT32)
