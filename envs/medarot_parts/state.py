"""The game state of the Medarot parts game: zones, medarots, modifiers and the control agenda.

The state is plain data. Control flow is an *agenda*: a stack of small tasks
(``[name, *int_args]``) that the rules pop and run until one of them sets a decision point
(``dp``). Because the agenda is data, any position, even one in the middle of a battle, can be
cloned, written to JSON and read back exactly.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from deckgym.envs.core.events import known_to
from deckgym.envs.core.state import CardGameState, Record, rng_to_json
from deckgym.envs.medarot_parts.actions import DP
from deckgym.envs.medarot_parts.cards import CardDef, CardPool
from deckgym.envs.medarot_parts.config import RulesConfig

#: Modifier fields (``GameState.mods`` rows): stat 0 power / 1 charge, signed amount, the part uid it
#: follows (-1: bound to slots instead), the bound slots (player, medarot, slot bit mask), how long it
#: lasts and the uid of the part whose card carries it (CARD duration).
STAT_POWER, STAT_CHARGE = 0, 1
UNTIL_BATTLE, UNTIL_TURN, UNTIL_CARD = 0, 1, 2


class Part:
    """A part card on the field and its state (4.2): tapped, destroyed, counters, attached cards."""

    __slots__ = ("attached", "card", "counters", "destroyed", "effect", "tapped", "uid")

    def __init__(
        self,
        uid: int,
        card: str,
        tapped: bool = False,
        destroyed: bool = False,
        counters: int = 0,
        effect: str | None = None,
        attached: list[str] | None = None,
    ) -> None:
        self.uid = uid
        self.card = card
        self.tapped = tapped
        self.destroyed = destroyed
        self.counters = counters
        self.effect = effect
        self.attached = attached if attached is not None else []

    def copy(self) -> Part:
        """An independent copy."""
        return Part(
            self.uid, self.card, self.tapped, self.destroyed, self.counters, self.effect, list(self.attached)
        )

    def to_list(self) -> list[Any]:
        """JSON form."""
        return [
            self.uid,
            self.card,
            self.tapped,
            self.destroyed,
            self.counters,
            self.effect,
            list(self.attached),
        ]


class Medarot:
    """A medal and its four parts (head, right arm, left arm, legs)."""

    __slots__ = ("medal", "medal_tapped", "parts")

    def __init__(self, medal: str, parts: list[Part], medal_tapped: bool = False) -> None:
        self.medal = medal
        self.parts = parts
        self.medal_tapped = medal_tapped

    @property
    def stopped(self) -> bool:
        """A medarot whose head is destroyed is stopped (D33)."""
        return self.parts[0].destroyed

    def copy(self) -> Medarot:
        """An independent copy."""
        return Medarot(self.medal, [p.copy() for p in self.parts], self.medal_tapped)

    def to_list(self) -> list[Any]:
        """JSON form."""
        return [self.medal, [p.to_list() for p in self.parts], self.medal_tapped]

    @classmethod
    def from_list(cls, v: list[Any]) -> Medarot:
        """Inverse of ``to_list``."""
        return cls(v[0], [Part(*p) for p in v[1]], v[2])


class Battle(Record):
    """The battle under way (steps B1-B9).

    Attributes:
        attacker: the attacking player (A).
        medarot: A's action medarot.
        slot: the attack part's slot; ``uid`` its part uid.
        damage: the current damage (B4 onwards).
        defender: the defending medarot of B (-1 before B5).
        response: -1 not chosen, 0 nothing, 1 evade, 2 protect.
        protect: the protect part's slot (-1 none); ``amount`` the charge paid for it.
        no_evade: NO_EVADE applies in this battle.
        dealt: the damage allocated to the defending medarot (block shock excluded).
    """

    __slots__ = (
        "amount",
        "attacker",
        "damage",
        "dealt",
        "defender",
        "medarot",
        "no_evade",
        "protect",
        "response",
        "slot",
        "uid",
    )

    def __init__(self, attacker: int, medarot: int, slot: int, uid: int) -> None:
        self.attacker = attacker
        self.medarot = medarot
        self.slot = slot
        self.uid = uid
        self.damage = 0
        self.defender = -1
        self.response = -1
        self.protect = -1
        self.amount = 0
        self.no_evade = False
        self.dealt = 0


class GameState(CardGameState):
    """A Medarot parts position. See ``envs.medarot_parts.rules`` for the rules that move it.

    Public methods follow the engine protocol of ``envs.core.protocol``. Seat-indexed lists
    hold one entry per player. ``hand[p]`` is kept in canonical order (sorted by card id, D40).
    ``stock[p]`` is the energy stock as ``[card id, tapped]`` rows; ``play[p]`` the play area.

    On an AMALOGS proxy table (``config.proxy``, D37, D40) seat 1's field stays empty: the
    stand-in medarot is ``proxy_armor`` (P0, the armor of its only part, a head) and
    ``proxy_life`` (P = P0 - the counters on that head; 0 once it is destroyed). Both are 0
    on every other table.
    """

    RULES = "deckgym.envs.medarot_parts.rules"
    DECISIONS = DP
    num_players = 2

    cards: dict[str, CardDef]

    def __init__(self, config: RulesConfig, pool: CardPool, decks: list[list[list[str]]], seed: int) -> None:
        super().__init__(config, pool, decks, seed)
        self.turn = 0
        self.round = 0
        self.prio1 = 0  # the player with priority on odd turns (D5)
        self.priority = 0
        self.first = -1
        self.to_act = -1
        self.passes = 0
        self.am = [-1, -1]  # action medarot of each player this round (-1: none)
        self.field: list[list[Medarot]] = [[], []]
        self.deck: list[list[str]] = [[], []]
        self.hand: list[list[str]] = [[], []]
        self.trash: list[list[str]] = [[], []]
        self.stock: list[list[list[Any]]] = [[], []]
        self.play: list[list[str]] = [[], []]
        self.assets = [0, 0]
        self.mods: list[list[int]] = []
        self.battle: Battle | None = None
        self.pay: list[int] | None = (
            None  # [payer, needed EP, paid EP, medal player, medal index, efficient kind]
        )
        self.use: list[Any] | None = None  # [player, card id, source slot (-1 a card), targets [[i, s], ...]]
        self.agenda: list[list[Any]] = []
        self.dp: tuple[int, int, tuple[int, ...]] | None = None
        self.next_uid = 1
        self.steps = 0
        self.proxy_armor = 0
        self.proxy_life = 0
        self.done = False
        self.truncated = False
        self.winner = -1  # -1 none, 0/1 the winner, 2 draw
        self.reason = ""
        self.events: list[str] = []
        self.records: list[dict[str, Any]] = []
        self._legal: list[Any] | None = None

    # ----------------------------------------------------------------- lookups
    def card(self, cid: str) -> CardDef:
        """The definition of card ``cid``."""
        return self.cards[cid]

    # ----------------------------------------------------------------- copies
    def clone(self) -> GameState:
        """An independent copy sharing only the immutable config, card pool and deck lists."""
        s = self._copy_shared()
        for key in (
            "turn", "round", "prio1", "priority", "first", "to_act", "passes", "next_uid", "steps", "proxy_armor",
            "proxy_life",
        ):  # fmt: skip
            setattr(s, key, getattr(self, key))
        s.am = list(self.am)
        s.field = [[m.copy() for m in row] for row in self.field]
        s.deck = [list(z) for z in self.deck]
        s.hand = [list(z) for z in self.hand]
        s.trash = [list(z) for z in self.trash]
        s.stock = [[list(e) for e in z] for z in self.stock]
        s.play = [list(z) for z in self.play]
        s.assets = list(self.assets)
        s.mods = [list(m) for m in self.mods]
        s.battle = self.battle.copy() if self.battle else None
        s.pay = list(self.pay) if self.pay else None
        s.use = copy.deepcopy(self.use) if self.use else None
        s.agenda = [list(t) for t in self.agenda]
        s.dp = self.dp
        self._copy_outcome(s)
        return s

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe description; ``GameState.from_dict`` reads it back exactly."""
        return {
            "ruleset": "medarot_parts",
            "config": self.config.to_dict(),
            "pool": self.pool.spec(),
            "decks": copy.deepcopy(self.decks),
            "seed": self.seed,
            "rng": rng_to_json(self.rng),
            "turn": self.turn,
            "round": self.round,
            "prio1": self.prio1,
            "priority": self.priority,
            "first": self.first,
            "to_act": self.to_act,
            "passes": self.passes,
            "am": list(self.am),
            "field": [[m.to_list() for m in row] for row in self.field],
            "deck": [list(z) for z in self.deck],
            "hand": [list(z) for z in self.hand],
            "trash": [list(z) for z in self.trash],
            "stock": [[list(e) for e in z] for z in self.stock],
            "play": [list(z) for z in self.play],
            "assets": list(self.assets),
            "mods": [list(m) for m in self.mods],
            "battle": self.battle.to_list() if self.battle else None,
            "pay": list(self.pay) if self.pay else None,
            "use": copy.deepcopy(self.use),
            "agenda": [list(t) for t in self.agenda],
            "dp": None if self.dp is None else [self.dp[0], self.dp[1], list(self.dp[2])],
            "next_uid": self.next_uid,
            "steps": self.steps,
            **({"proxy_armor": self.proxy_armor, "proxy_life": self.proxy_life} if self.config.proxy else {}),
            **self._outcome_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state written by ``to_dict`` (a deep copy: the dict is not kept)."""
        from deckgym.envs.medarot_parts.cards import load_pool

        def fill(s: GameState, d: dict[str, Any]) -> None:
            for key in (
                "turn", "round", "prio1", "priority", "first", "to_act", "passes", "am", "deck", "hand",
                "trash", "stock", "play", "assets", "mods", "pay", "use", "agenda", "next_uid", "steps",
                *cls.OUTCOME_KEYS,
            ):  # fmt: skip
                setattr(s, key, d[key])
            s.field = [[Medarot.from_list(m) for m in row] for row in d["field"]]
            s.battle = Battle.from_list(d["battle"]) if d["battle"] else None
            s.dp = None if d["dp"] is None else (d["dp"][0], d["dp"][1], tuple(d["dp"][2]))
            if s.config.proxy:
                s.proxy_armor = d["proxy_armor"]
                s.proxy_life = d["proxy_life"]

        return cls._from_dict_with(data, "medarot_parts", RulesConfig, load_pool, fill)

    def resample_hidden(self, seat: int, rng: random.Random) -> GameState:
        """A state equally likely from ``seat``'s view: the opponent's hand and both deck orders redrawn.

        Public facts are kept: every card on the field, in stocks, play areas and trashes, and
        the size of each hand and deck. ``seat``'s own deck keeps its contents (it knows its list).
        A proxy's life is public and kept.
        """
        s = self.clone()
        s.rng = random.Random(rng.getrandbits(64))
        s._legal = None
        rng.shuffle(s.deck[seat])
        o = 1 - seat
        unseen = s.deck[o] + s.hand[o]
        rng.shuffle(unseen)
        nh = len(s.hand[o])
        s.hand[o] = sorted(unseen[:nh])
        s.deck[o] = unseen[nh:]
        s.records = known_to(s.records, seat)  # the other seat's private events go too
        return s

    def __repr__(self) -> str:
        return (
            f"GameState(turn={self.turn}, round={self.round}, dp={self.decision}, "
            f"player={self.current_player}, done={self.done}, winner={self.winner})"
        )
