"""The game state of the Medarot OCG: zones, board, lasting effects and the control agenda.

The state is plain data. Control flow is an *agenda*: a stack of small tasks
(``[name, *int_args]``) that the rules pop and run until one of them sets a decision
point (``dp``). Because the agenda is data, any position, even one in the middle of an
attack, can be cloned, written to JSON and read back exactly.
"""

from __future__ import annotations

import random
from typing import Any

from deckgym.envs.core.events import known_to
from deckgym.envs.core.state import CardGameState, Record, rng_to_json
from deckgym.envs.medarot_ocg.actions import DP
from deckgym.envs.medarot_ocg.cards import CardDef, CardPool
from deckgym.envs.medarot_ocg.config import RulesConfig


class Stack:
    """A Medarot on the board: base card, optional MedaChange card on top, and its flags."""

    __slots__ = ("acted", "base", "change", "face_up", "owner", "placed", "uid")

    def __init__(
        self,
        uid: int,
        owner: int,
        base: str,
        change: str | None = None,
        face_up: bool = False,
        acted: bool = False,
        placed: bool = True,
    ) -> None:
        self.uid = uid
        self.owner = owner
        self.base = base
        self.change = change
        self.face_up = face_up
        self.acted = acted
        self.placed = placed

    def copy(self) -> Stack:
        """An independent copy."""
        return Stack(self.uid, self.owner, self.base, self.change, self.face_up, self.acted, self.placed)

    def top(self) -> str:
        """Id of the card whose values are used (the MedaChange card when transformed, R51)."""
        return self.change or self.base

    def to_list(self) -> list[Any]:
        """JSON form."""
        return [self.uid, self.owner, self.base, self.change, self.face_up, self.acted, self.placed]


class Slot:
    """A stock slot or the master slot holding one Medaroter card.

    ``eff`` is the index of the effect in use (-1 when not in use) and ``trash`` its trash
    timing; ``charge`` counts stored NEGATE charges (P4).
    """

    __slots__ = ("card", "charge", "eff", "face_up", "trash")

    def __init__(
        self, card: str, face_up: bool = False, eff: int = -1, trash: str = "", charge: int = 0
    ) -> None:
        self.card = card
        self.face_up = face_up
        self.eff = eff
        self.trash = trash
        self.charge = charge

    def copy(self) -> Slot:
        """An independent copy."""
        return Slot(self.card, self.face_up, self.eff, self.trash, self.charge)

    def to_list(self) -> list[Any]:
        """JSON form."""
        return [self.card, self.face_up, self.eff, self.trash, self.charge]


class Eff:
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

    __slots__ = ("amount", "flt", "op", "owner", "scope", "src_slot", "src_uid", "targets", "trash")

    def __init__(
        self,
        op: str,
        amount: int,
        flt: str,
        owner: int,
        src_uid: int,
        src_slot: int,
        targets: list[int] | None,
        scope: int,
        trash: str,
    ) -> None:
        self.op = op
        self.amount = amount
        self.flt = flt
        self.owner = owner
        self.src_uid = src_uid
        self.src_slot = src_slot
        self.targets = targets
        self.scope = scope
        self.trash = trash

    def copy(self) -> Eff:
        """An independent copy."""
        t = None if self.targets is None else list(self.targets)
        return Eff(
            self.op, self.amount, self.flt, self.owner, self.src_uid, self.src_slot, t, self.scope, self.trash
        )

    def to_list(self) -> list[Any]:
        """JSON form."""
        t = None if self.targets is None else list(self.targets)
        return [
            self.op,
            self.amount,
            self.flt,
            self.owner,
            self.src_uid,
            self.src_slot,
            t,
            self.scope,
            self.trash,
        ]


class Act(Record):
    """Context of the action under way (steps A1-A11) and of its attack."""

    __slots__ = (
        "action_used",
        "cancel_penalty",
        "changed",
        "defence_used",
        "disabled",
        "ended",
        "far",
        "free_far",
        "moved",
        "negated",
        "owner",
        "redirected",
        "substituted",
        "target",
        "uid",
    )

    def __init__(self, uid: int, owner: int) -> None:
        self.uid = uid
        self.owner = owner
        self.moved = False
        self.changed = False
        self.action_used = False
        self.defence_used = False
        self.cancel_penalty = False
        self.free_far = False
        self.target = -1
        self.far = False
        self.negated = False
        self.redirected = False
        self.ended = False
        self.disabled = False
        self.substituted = False


class GameState(CardGameState):
    """A Medarot OCG position. See ``envs.medarot_ocg.rules`` for the rules that move it.

    Public methods follow the engine protocol of ``envs.core.protocol``.
    """

    RULES = "deckgym.envs.medarot_ocg.rules"
    DECISIONS = DP
    num_players = 2

    cards: dict[str, CardDef]

    def __init__(self, config: RulesConfig, pool: CardPool, decks: list[list[str]], seed: int) -> None:
        super().__init__(config, pool, [list(d) for d in decks], seed)
        self.turn = 0
        self.first = 0
        self.hp = [config.start_hp, config.start_hp]
        self.deck: list[list[str]] = [[], []]
        self.hand: list[list[str]] = [[], []]
        self.stock: list[list[Slot | None]] = [[None, None, None], [None, None, None]]
        self.master: list[Slot | None] = [None, None]
        self.master_used = [False, False]
        self.trash: list[list[str]] = [[], []]
        self.reserve: list[list[str]] = [[], []]
        self.board: list[Stack | None] = [None] * 15
        self.effects: list[Eff] = []
        self.agenda: list[list[Any]] = []
        self.dp: tuple[int, int, tuple[int, ...]] | None = None
        self.act: Act | None = None
        self.use: list[int] | None = None  # [player, slot, window, eff, from_hand]
        self.limbo: list[list[Any] | None] = [None, None]  # [card, public] between two decisions
        self.failed_draw = [False, False]
        self.draw_mark = [0, 0]  # hand index where the cards of the current draw event start
        self.mulligans = [0, 0]
        self.next_uid = 1
        #: bumped whenever the board or the lasting effects change (a cache key for encoders)
        self.board_version = 0
        self.steps = 0
        self.done = False
        self.truncated = False
        self.winner = -1  # -1 none, 0/1 the winner, 2 draw
        self.reason = ""
        self.events: list[str] = []
        self.records: list[dict[str, Any]] = []
        self._legal: list[Any] | None = None

    # ----------------------------------------------------------------- copies
    def clone(self) -> GameState:
        """An independent copy sharing only the immutable config and card pool."""
        s = self._copy_shared()
        s.turn = self.turn
        s.first = self.first
        s.hp = list(self.hp)
        s.deck = [list(self.deck[0]), list(self.deck[1])]
        s.hand = [list(self.hand[0]), list(self.hand[1])]
        s.stock = [[x.copy() if x else None for x in row] for row in self.stock]
        s.master = [x.copy() if x else None for x in self.master]
        s.master_used = list(self.master_used)
        s.trash = [list(self.trash[0]), list(self.trash[1])]
        s.reserve = [list(self.reserve[0]), list(self.reserve[1])]
        s.board = [x.copy() if x else None for x in self.board]
        s.effects = [e.copy() for e in self.effects]
        s.agenda = [list(t) for t in self.agenda]
        s.dp = self.dp
        s.act = self.act.copy() if self.act else None
        s.use = list(self.use) if self.use else None
        s.limbo = [list(x) if x else None for x in self.limbo]
        s.failed_draw = list(self.failed_draw)
        s.draw_mark = list(self.draw_mark)
        s.mulligans = list(self.mulligans)
        s.next_uid = self.next_uid
        s.board_version = self.board_version
        s.steps = self.steps
        self._copy_outcome(s)
        return s

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe description; ``GameState.from_dict`` reads it back exactly."""
        return {
            "ruleset": "medarot_ocg",
            "config": self.config.to_dict(),
            "pool": self.pool.spec(),
            "decks": [list(d) for d in self.decks],
            "seed": self.seed,
            "rng": rng_to_json(self.rng),
            "turn": self.turn,
            "first": self.first,
            "hp": list(self.hp),
            "deck": [list(z) for z in self.deck],
            "hand": [list(z) for z in self.hand],
            "stock": [[x.to_list() if x else None for x in row] for row in self.stock],
            "master": [x.to_list() if x else None for x in self.master],
            "master_used": list(self.master_used),
            "trash": [list(z) for z in self.trash],
            "reserve": [list(z) for z in self.reserve],
            "board": [x.to_list() if x else None for x in self.board],
            "effects": [e.to_list() for e in self.effects],
            "agenda": [list(t) for t in self.agenda],
            "dp": None if self.dp is None else [self.dp[0], self.dp[1], list(self.dp[2])],
            "act": self.act.to_list() if self.act else None,
            "use": None if self.use is None else list(self.use),
            "limbo": [None if x is None else list(x) for x in self.limbo],
            "failed_draw": list(self.failed_draw),
            "draw_mark": list(self.draw_mark),
            "mulligans": list(self.mulligans),
            "next_uid": self.next_uid,
            "steps": self.steps,
            **self._outcome_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state written by ``to_dict`` (a deep copy: the dict is not kept)."""
        from deckgym.envs.medarot_ocg.cards import load_pool

        def fill(s: GameState, d: dict[str, Any]) -> None:
            for key in (
                "turn",
                "first",
                "hp",
                "deck",
                "hand",
                "master_used",
                "trash",
                "reserve",
                "agenda",
                "use",
                "limbo",
                "failed_draw",
                "draw_mark",
                "mulligans",
                "next_uid",
                "steps",
                *cls.OUTCOME_KEYS,
            ):
                setattr(s, key, d[key])
            s.stock = [[Slot(*x) if x else None for x in row] for row in d["stock"]]
            s.master = [Slot(*x) if x else None for x in d["master"]]
            s.board = [Stack(*x) if x else None for x in d["board"]]
            s.effects = [Eff(*x) for x in d["effects"]]
            s.dp = None if d["dp"] is None else (d["dp"][0], d["dp"][1], tuple(d["dp"][2]))
            s.act = Act.from_list(d["act"]) if d["act"] else None

        return cls._from_dict_with(data, "medarot_ocg", RulesConfig, load_pool, fill)

    def resample_hidden(self, seat: int, rng: random.Random) -> GameState:
        """A state equally likely from ``seat``'s view: hidden cards of the others and deck orders redrawn.

        Public facts are kept: card counts per zone, and the kind a hidden place must hold
        (a face-down Medarot is a Medarot card, a face-down stock card or master a Medaroter).
        """
        from deckgym.envs.medarot_ocg.cards import MEDAROT, MEDAROTER

        s = self.clone()
        s.rng = random.Random(rng.getrandbits(64))
        s._legal = None
        rng.shuffle(s.deck[seat])
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
            nh = len(s.hand[o])
            s.hand[o] = pool_cards[:nh]
            s.deck[o] = pool_cards[nh:]
        s.records = known_to(s.records, seat)  # the other seat's private events go too
        return s

    def __repr__(self) -> str:
        return (
            f"GameState(mode={self.config.mode}, turn={self.turn}, hp={self.hp}, dp={self.decision}, "
            f"player={self.current_player}, done={self.done})"
        )
