"""The game state of the Medarot OCG: zones, board, lasting effects and the control agenda.

The state is plain data. Control flow is an *agenda*: a stack of small tasks
(``[name, *int_args]``) that the rules pop and run until one of them sets a decision
point (``decision_point``). Because the agenda is data, any position, even one in the middle of an
attack, can be cloned, written to JSON and read back exactly.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from deckgym.envs.core.declare import Frozen, Record, Row, seats, setup
from deckgym.envs.core.state import CardGameState, card_game_constants
from deckgym.envs.medarot_ocg.actions import DP
from deckgym.envs.medarot_ocg.cards import load_pool
from deckgym.envs.medarot_ocg.config import make_config


@dataclass
class Stack(Record):
    """A Medarot on the board: base card, optional MedaChange card on top, and its flags."""

    uid: int
    owner: int
    base: str
    change: str | None = None
    face_up: bool = False
    acted: bool = False
    placed: bool = True

    def top(self) -> str:
        """The card on top: the change card, else the base."""
        return self.change or self.base


@dataclass
class Slot(Record):
    """A stock slot or the master slot holding one Medaroter card.

    ``eff`` is the index of the effect in use (-1 when not in use) and ``trash`` its trash
    timing; ``charge`` counts stored NEGATE charges (P4).
    """

    card: str
    face_up: bool = False
    eff: int = -1
    trash: str = ""
    charge: int = 0


@dataclass
class Eff(Record):
    """A lasting effect in play.

    Attributes:
        op: primitive name (MOD_POWER, GUARD, TRAP, DOT, DISABLE, ...).
        amount: signed amount (0 when the primitive takes none).
        flt: type filter (ANY, SHOOTING, MELEE, SPECIAL).
        owner: the player who used it.
        src_uid: uid of the source Medarot (-1 for a Medaroter source).
        src_slot: ``4 * player + slot`` of the source Medaroter (slot 3 = master), or -1.
        targets: uids it applies to, fixed when applied; ``None`` means every Medarot of
            player ``scope`` (END_OF_TURN modifiers, D45) or a player-level effect.
        scope: the player of a dynamic or player-level effect.
        trash: trash timing of a Medaroter source ("" for a Medarot source).
    """

    op: str
    amount: int
    flt: str
    owner: int
    src_uid: int
    src_slot: int
    targets: list[int] | None
    scope: int
    trash: str


@dataclass
class Act(Record):
    """Context of the action under way (steps A1-A11) and of its attack."""

    action_used: bool = False
    cancel_penalty: bool = False
    changed: bool = False
    defence_used: bool = False
    disabled: bool = False
    ended: bool = False
    far: bool = False
    free_far: bool = False
    moved: bool = False
    negated: bool = False
    owner: int = 0
    redirected: bool = False
    substituted: bool = False
    target: int = -1
    uid: int = 0


@dataclass(eq=False, init=False, repr=False)
class GameState(CardGameState):
    """A Medarot OCG position. See ``envs.medarot_ocg.rules`` for the rules that move it.

    Public methods follow the engine protocol of ``envs.core.protocol``.
    """

    turn: int = 0
    first: int = 0
    hp: list[int] = seats(0)
    stock: list[list[Slot | None]] = seats([None, None, None])
    master: list[Slot | None] = seats(None)
    master_used: list[bool] = seats(False)
    trash: list[list[str]] = seats([])
    reserve: list[list[str]] = seats([])
    board: list[Stack | None] = dataclasses.field(default_factory=lambda: [None] * 15)
    effects: list[Eff] = dataclasses.field(default_factory=list)
    agenda: list[list[Frozen]] = dataclasses.field(default_factory=list)
    act: Act | None = None
    #: ``[player, slot, window, eff, from_hand]``
    use: list[int] | None = None
    #: ``[card, public]`` between two decisions
    limbo: list[Row | None] = seats(None)
    failed_draw: list[bool] = seats(False)
    #: hand index where the cards of the current draw event start
    draw_mark: list[int] = seats(0)
    mulligans: list[int] = seats(0)
    next_uid: int = 1
    #: bumped whenever the board or the lasting effects change (a cache key for encoders)
    board_version: int = 0
    steps: int = 0

    #: The encoder's memos (``encode.py``): the board pieces per seat, keyed by
    #: ``board_version``, and the pile pieces, keyed by the pile sizes. A copy starts without them.
    _tactics_cache: tuple[int, tuple[dict[Any, Any], dict[Any, Any]]] | None = setup("memo")
    _piles_cache: tuple[tuple[int, ...], dict[int, Any]] | None = setup("memo")

    def _start(self) -> None:
        self.hp = [self.config.start_hp, self.config.start_hp]

    def resample_hidden(self, seat: int, rng: random.Random) -> GameState:
        """A state equally likely from ``seat``'s view: hidden cards of the others and deck orders redrawn.

        Public facts are kept: card counts per zone, and the kind a hidden place must hold
        (a face-down Medarot is a Medarot card, a face-down stock card or master a Medaroter).
        """
        from deckgym.envs.medarot_ocg.cards import MEDAROT, MEDAROTER

        s = self._resample_start(seat, rng)
        for o in range(self.num_players):
            if o == seat:
                continue
            holders: list[tuple[str, Any, Any]] = []  # (kind, container, key)
            pool_cards = list(s.deck[o]) + list(s.hand[o])
            for slot in s.stock[o]:
                if slot is not None and not slot.face_up:
                    holders.append((MEDAROTER, slot, "card"))
                    pool_cards.append(slot.card)
            m = s.master[o]
            if m is not None and not m.face_up:
                holders.append((MEDAROTER, m, "card"))
                pool_cards.append(m.card)
            for st in s.board:
                if st is not None and st.owner == o and not st.face_up:
                    holders.append((MEDAROT, st, "base"))
                    pool_cards.append(st.base)
            lim = s.limbo[o]
            if lim is not None and not lim[1]:
                holders.append((self.cards[lim[0]].kind, lim, 0))
                pool_cards.append(lim[0])
            rng.shuffle(pool_cards)
            for kind, container, key in holders:
                i = next(i for i, c in enumerate(pool_cards) if self.cards[c].kind == kind)
                card = pool_cards.pop(i)
                if isinstance(container, list):
                    container[key] = card
                else:
                    setattr(container, key, card)
            s._redeal(o, pool_cards)
        return s


card_game_constants(GameState, "medarot_ocg", DP, make_config, load_pool, ("turn", "hp"))
