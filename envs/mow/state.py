"""The game state of Master of the World: zones, masters, the chain and the control agenda.

The state is plain data. Control flow is an *agenda*: a stack of small tasks
(``[name, *args]`` with JSON-safe, never-mutated arguments) that the rules pop and run
until one of them sets a decision point (``dp``). Because the agenda is data, any
position, even one in the middle of a counter chain, can be cloned, written to JSON and
read back exactly.

Card references: zones hold card ids. Cards on the field (monsters, weapons, face-down
spells) carry a ``uid``; an effect's target is a uid, or ``-1 - p`` for player p's master.
"""

from __future__ import annotations

import random
from typing import Any

from deckgym.envs.core.events import known_to
from deckgym.envs.core.state import CardGameState, EngineState, rng_to_json
from deckgym.envs.mow.actions import DP
from deckgym.envs.mow.cards import SPELL, CardDef, CardPool
from deckgym.envs.mow.config import LIFE_START, RulesConfig

#: Modifier durations (BUFF, 4.7).
TURN, PERMANENT = 0, 1

#: The proxy at seat 1 of an AMALOGS table in words, by kind (``RulesConfig.proxy``: 1 guest, 2 base).
STAND_IN = {1: "the defender's stand-in", 2: "the enemy base"}


def master_ref(p: int) -> int:
    """Target reference of player ``p``'s master."""
    return -1 - p


class Monster:
    """A monster on the field (4.3): damage, modifiers ``[d_atk, d_tough, duration]``, entry turn."""

    __slots__ = ("attacked", "card", "damage", "entered", "mods", "uid")

    def __init__(
        self,
        uid: int,
        card: str,
        entered: int,
        damage: int = 0,
        mods: list[list[int]] | None = None,
        attacked: bool = False,
    ) -> None:
        self.uid = uid
        self.card = card
        self.entered = entered
        self.damage = damage
        self.mods = mods if mods is not None else []
        self.attacked = attacked

    def copy(self) -> Monster:
        """An independent copy."""
        return Monster(
            self.uid, self.card, self.entered, self.damage, [list(m) for m in self.mods], self.attacked
        )

    def to_list(self) -> list[Any]:
        """JSON form."""
        return [self.uid, self.card, self.entered, self.damage, [list(m) for m in self.mods], self.attacked]


class GameState(CardGameState):
    """A Master of the World position. See ``envs.mow.rules`` for the rules that move it.

    Public methods follow the engine protocol of ``envs.core.protocol``. Per-player lists
    are indexed by seat. ``weapon[p]`` is ``[card, uid]`` or None; ``spell[p]`` is
    ``[card, cast_turn, uid]`` or None; a chain entry is
    ``[user, use_kind, card, uid, negated, in_chain_area, ability]``.
    """

    RULES = "deckgym.envs.mow.rules"
    DECISIONS = DP
    EVENT_CAP = 300
    num_players = 2

    cards: dict[str, CardDef]

    def __init__(self, config: RulesConfig, pool: CardPool, decks: list[list[str]], seed: int) -> None:
        super().__init__(config, pool, [list(d) for d in decks], seed)
        self.t = 0
        self.active = 0
        self.first = 0
        self.phase = 0
        self.masters = ["", ""]
        self.life = [LIFE_START, LIFE_START]
        self.level = [0, 0]
        self.deck: list[list[str]] = [[], []]
        self.hand: list[list[str]] = [[], []]
        self.exp: list[list[str]] = [[], []]
        self.discard: list[list[str]] = [[], []]
        self.monsters: list[list[Monster]] = [[], []]
        self.weapon: list[list[Any] | None] = [None, None]
        self.spell: list[list[Any] | None] = [None, None]
        self.setaside: list[str | None] = [None, None]
        self.master_mods: list[list[list[int]]] = [[], []]
        self.master_attacked = [False, False]
        self.fast_used = [False, False]
        self.charges = 0
        self.turn_uses: list[dict[str, int]] = [{}, {}]
        self.chain: list[list[Any]] = []
        self.triggers: list[list[Any]] = []
        self.agenda: list[list[Any]] = []
        self.dp: tuple[int, int] | None = None
        self.pending: list[Any] | None = None
        self.decisions = 0
        self.next_uid = 1
        self.done = False
        self.truncated = False
        self.winner = -1  # -1 none, 0/1 the winner, 2 draw
        self.reason = ""
        self.events: list[str] = []
        self.records: list[dict[str, Any]] = []
        self._legal: list[Any] | None = None

    # ----------------------------------------------------------------- lookups
    def seats(self) -> tuple[int, ...]:
        """The seats that hold a player (a vacant seat 1 holds no cards, no master)."""
        return (0,) if self.config.vacant_seat else (0, 1)

    def is_proxy(self, p: int) -> bool:
        """Whether seat ``p`` holds the proxy of an AMALOGS table (seat 1 with ``config.proxy``).

        The proxy is a master with life ``life[1]`` (P), attack and guard 0, and no card, level,
        experience or zones; seat 1 is otherwise vacant (``seats()`` leaves it out).
        """
        return p == 1 and self.config.proxy != 0

    def stand_in(self) -> str:
        """The proxy in words: the defender's stand-in (guest) or the enemy base (base)."""
        return STAND_IN[self.config.proxy]

    def name(self, cid: str) -> str:
        """Printed name of a card id."""
        return self.cards[cid].name

    # ----------------------------------------------------------------- copies
    def clone(self) -> GameState:
        """An independent copy sharing only the immutable config, pool and agenda tasks."""
        s = self._copy_shared()
        s.t = self.t
        s.active = self.active
        s.first = self.first
        s.phase = self.phase
        s.masters = list(self.masters)
        s.life = list(self.life)
        s.level = list(self.level)
        s.deck = [list(self.deck[0]), list(self.deck[1])]
        s.hand = [list(self.hand[0]), list(self.hand[1])]
        s.exp = [list(self.exp[0]), list(self.exp[1])]
        s.discard = [list(self.discard[0]), list(self.discard[1])]
        s.monsters = [[m.copy() for m in ms] for ms in self.monsters]
        s.weapon = [list(w) if w else None for w in self.weapon]
        s.spell = [list(x) if x else None for x in self.spell]
        s.setaside = list(self.setaside)
        s.master_mods = [[list(m) for m in mm] for mm in self.master_mods]
        s.master_attacked = list(self.master_attacked)
        s.fast_used = list(self.fast_used)
        s.charges = self.charges
        s.turn_uses = [dict(self.turn_uses[0]), dict(self.turn_uses[1])]
        s.chain = [list(e) for e in self.chain]
        s.triggers = [list(x) for x in self.triggers]
        s.agenda = list(self.agenda)
        s.dp = self.dp
        s.pending = self.pending
        s.decisions = self.decisions
        s.next_uid = self.next_uid
        self._copy_outcome(s)
        return s

    _PLAIN = (
        "t",
        "active",
        "first",
        "phase",
        "masters",
        "life",
        "level",
        "deck",
        "hand",
        "exp",
        "discard",
        "weapon",
        "spell",
        "setaside",
        "master_mods",
        "master_attacked",
        "fast_used",
        "charges",
        "turn_uses",
        "chain",
        "triggers",
        "agenda",
        "pending",
        "decisions",
        "next_uid",
        *EngineState.OUTCOME_KEYS,
    )

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe description; ``GameState.from_dict`` reads it back exactly."""
        import json

        d: dict[str, Any] = {
            "ruleset": "mow",
            "config": self.config.to_dict(),
            "pool": self.pool.spec(),
            "decks": [list(x) for x in self.decks],
            "seed": self.seed,
            "rng": rng_to_json(self.rng),
            "monsters": [[m.to_list() for m in ms] for ms in self.monsters],
            "dp": None if self.dp is None else list(self.dp),
        }
        for key in self._PLAIN:
            d[key] = getattr(self, key)
        # one JSON pass gives a deep, JSON-normal copy (tuples inside tasks become lists)
        return json.loads(json.dumps(d))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state written by ``to_dict`` (a copy through JSON: the dict is not kept)."""
        import json

        from deckgym.envs.mow.cards import load_pool

        def fill(s: GameState, d: dict[str, Any]) -> None:
            for key in cls._PLAIN:
                setattr(s, key, d[key])
            s.monsters = [[Monster(*m) for m in ms] for ms in d["monsters"]]
            s.dp = None if d["dp"] is None else (d["dp"][0], d["dp"][1])

        return cls._from_dict_with(
            data, "mow", RulesConfig, load_pool, fill, copier=lambda x: json.loads(json.dumps(x))
        )

    def resample_hidden(self, seat: int, rng: random.Random) -> GameState:
        """A state equally likely from ``seat``'s view: what ``seat`` cannot see is redrawn.

        ``seat``'s own deck is reshuffled; the opponent's hand, deck and face-down spell
        (and its cast entry on the chain) are redealt from the same multiset, keeping every
        count and the public fact that the slot holds a spell its master may cast. The
        future random stream is reseeded.
        """
        s = self.clone()
        s.rng = random.Random(rng.getrandbits(64))
        s._legal = None
        rng.shuffle(s.deck[seat])
        o = 1 - seat
        hidden = s.deck[o] + s.hand[o]
        slot = s.spell[o]
        if slot is not None:
            hidden.append(slot[0])
        rng.shuffle(hidden)
        if slot is not None:
            banned = self.cards[s.masters[o]].restrictions
            i = next(
                i
                for i, c in enumerate(hidden)
                if self.cards[c].kind == SPELL and self.cards[c].cls not in banned
            )
            card = hidden.pop(i)
            s.spell[o] = [card, slot[1], slot[2]]
            for e in s.chain:
                if e[3] == slot[2]:
                    e[2] = card
        nh = len(s.hand[o])
        s.hand[o] = hidden[:nh]
        s.deck[o] = hidden[nh:]
        s.records = known_to(s.records, seat)  # the other seat's private events go too
        return s

    def __repr__(self) -> str:
        return (
            f"GameState(t={self.t}, life={self.life}, level={self.level}, dp={self.decision}, "
            f"player={self.current_player}, done={self.done})"
        )
