"""The state of an AMALOGS match: the MAP, the avatars with their core sides, the bases and the duel.

The state is plain data; ``envs.amalogs.rules`` moves it. Core games are held as opaque
sides and tables of their ruleset's adapter (``envs.amalogs.cores``). One ``random.Random``
owns every random draw of the match, the core games' included: a running table draws from
the same object.
"""

from __future__ import annotations

import random
from typing import Any

from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.config import RULESETS, AmalogsConfig
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.proxy import KINDS as PROXY_KINDS
from deckgym.envs.core.proxy import NONE as NO_PROXY
from deckgym.envs.core.state import EngineState, copy_rng, rng_from_json, rng_to_json


class Avatar:
    """One player: its avatar on the MAP and the core side it holds (4.1)."""

    __slots__ = (
        "ap",
        "core_turns",
        "dueled",
        "ended",
        "exited",
        "guarding",
        "last_turn",
        "nominal",
        "ruleset",
        "side",
        "slot",
        "square",
        "team",
    )

    def __init__(self, team: int, slot: int) -> None:
        self.team = team
        self.slot = slot
        self.square = -1
        self.ap = 0
        self.dueled = False
        self.guarding = False
        self.ended = False
        self.exited = False
        self.ruleset = -1
        self.side: Any = None
        self.core_turns = 0
        self.last_turn = 0
        #: D38: the nominal life L0 of the core game it holds (0 without one), read when the side is created
        self.nominal = 0

    @property
    def on_map(self) -> bool:
        """Whether the avatar stands on the MAP."""
        return self.square >= 0

    @property
    def we(self) -> int:
        """WE of the core game it holds (D14)."""
        return RULESETS[self.ruleset].we if self.ruleset >= 0 else 0

    @property
    def range(self) -> int:
        """Duel range of the core game it holds (D14)."""
        return RULESETS[self.ruleset].range if self.ruleset >= 0 else 0

    def copy(self) -> Avatar:
        """A copy (the side is cloned through its adapter)."""
        a = Avatar.__new__(Avatar)
        for k in Avatar.__slots__:
            setattr(a, k, getattr(self, k))
        if self.side is not None:
            a.side = adapter(self.ruleset).clone_side(self.side)
        return a

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        d = {k: getattr(self, k) for k in Avatar.__slots__ if k != "side"}
        d["side"] = None if self.side is None else adapter(self.ruleset).side_to_dict(self.side)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Avatar:
        """Inverse of ``to_dict``."""
        a = cls(d["team"], d["slot"])
        for k in Avatar.__slots__:
            if k != "side":
                setattr(a, k, d[k])
        a.side = None if d["side"] is None else adapter(a.ruleset).side_from_dict(d["side"])
        return a


class Duel:
    """The duel under way (4.1): roles, who sits at seat 1, strike value and outcome.

    Seat 1 holds the champion (D21), else a proxy (D36, D37): the defender's stand-in (``proxy``
    ``GUEST``, ``defender`` its player) or the enemy base (``BASE``, D40), else nobody (vacant).
    """

    __slots__ = (
        "bases",
        "casts",
        "champion",
        "defender",
        "guests",
        "host",
        "lost",
        "proxy",
        "proxy_life",
        "proxy_start",
        "strike",
        "struck",
    )

    def __init__(
        self,
        host: int,
        casts: list[int],
        guests: list[int],
        bases: list[int],
        champion: int,
        defender: int = -1,
        proxy: int = NO_PROXY,
    ) -> None:
        self.host = host
        self.casts = casts
        self.guests = guests
        self.bases = bases
        self.champion = champion
        #: D36: the guest whose proxy sits at seat 1 (-1: none)
        self.defender = defender
        #: D37, D40: the kind of proxy at seat 1 (``envs.core.proxy``: NONE, GUEST or BASE)
        self.proxy = proxy
        #: D37: the proxy's life P at composition, and P as last seen (a base proxy's hits are counted by it)
        self.proxy_start = 0
        self.proxy_life = 0
        self.strike = 0
        #: per player index: the core game met its loss condition in this duel
        self.lost: list[int] = []
        #: players whose core life a strike has reduced
        self.struck: list[int] = []

    def declared(self) -> dict[str, Any]:
        """The public fields of the duel's ``duel`` event (``envs.amalogs.events``)."""
        return {
            "host": self.host,
            "guests": list(self.guests),
            "casts": list(self.casts),
            "bases": list(self.bases),
            "champion": self.champion,
            "defender": None if self.defender < 0 else self.defender,
            "proxy": None if self.proxy == NO_PROXY else PROXY_KINDS[self.proxy],
            "strike": self.strike,
        }

    def participants(self) -> list[int]:
        """Participating avatars: host, casts and guests."""
        return [self.host, *self.casts, *self.guests]

    def copy(self) -> Duel:
        """A copy."""
        return Duel.from_dict(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            k: (list(v) if isinstance(v, list) else v) for k in Duel.__slots__ for v in [getattr(self, k)]
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Duel:
        """Inverse of ``to_dict``."""
        x = cls(
            d["host"],
            list(d["casts"]),
            list(d["guests"]),
            list(d["bases"]),
            d["champion"],
            d["defender"],
            d["proxy"],
        )
        x.proxy_start = d["proxy_start"]
        x.proxy_life = d["proxy_life"]
        x.strike = d["strike"]
        x.lost = list(d["lost"])
        x.struck = list(d["struck"])
        return x


class AmalogsState(EngineState):
    """An AMALOGS position. Public methods follow the engine protocol of ``envs.core.protocol``.

    Attributes:
        life: base life of team A and team B.
        team_turn: the team-turn counter (0 during the start-up).
        first_team / acting: the first team (-1 until drawn) and the team holding the turn.
        phase: the current ``Phase``; ``actor`` the player who decides now.
        control: the holder of control in the meta-field phase (D6).
        commanded: the holder declared a command since it last received control (D6 a).
        phase_moved: a command or HAND_OVER was made in this meta-field phase (D6 b).
        queue: players still to go through the current start-up or respawn step.
        move_allowance: allowance m of the pending MOVE (D17).
        dice: the last two d6 rolled.
        core_turn: the match-wide core turn counter (A3).
        table: the running core table (a duel or a solo first turn), or None.
        table_ruleset / table_owner: its ruleset slot and, for a solo turn, its player.
        table_steps: core decisions taken on the running table (D32).
        duel: the duel under way, or None.
    """

    RULES = "deckgym.envs.amalogs.rules"
    EVENT_CAP = 400

    def __init__(self, config: AmalogsConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.rng = random.Random(seed)
        self.avatars = [Avatar(config.team_of(i), config.slot_of(i)) for i in range(config.num_players)]
        self.life = [config.start_life, config.start_life]
        self.team_turn = 0
        self.first_team = -1
        self.acting = -1
        self.phase = Phase.STARTUP_RULESET
        self.actor = -1
        self.control = -1
        self.commanded = False
        self.phase_moved = False
        self.queue: list[int] = []
        self.move_allowance = 0
        self.dice = [0, 0]
        self.core_turn = 0
        self.table: Any = None
        self.table_ruleset = -1
        self.table_owner = -1
        self.table_steps = 0
        self.duel: Duel | None = None
        self.done = False
        self.truncated = False
        self.winner = -1  # -1 none, 0 team A, 1 team B, 2 draw
        self.reason = ""
        self.events: list[str] = []
        self.records: list[dict[str, Any]] = []
        self._legal: list[Any] | None = None

    # ----------------------------------------------------------------- protocol
    @property
    def num_players(self) -> int:
        """Number of players (agents)."""
        return self.config.num_players

    @property
    def current_player(self) -> int:
        """The player who decides now, or -1 once the game is over."""
        return -1 if self.done else self.actor

    def returns(self) -> list[float]:
        """D35: +1 for every player of the winning team, -1 for the losing team, 0 on a draw."""
        if self.winner not in (0, 1):
            return [0.0] * self.num_players
        return [1.0 if a.team == self.winner else -1.0 for a in self.avatars]

    @property
    def decision(self) -> str:
        """Name of the current decision point (the phase, with the core decision inside a table)."""
        if self.done:
            return "GAME_OVER"
        name = Phase(self.phase).name
        if self.table is not None and self.phase in (Phase.STARTUP_CORE, Phase.RESPAWN_CORE, Phase.DUEL_CORE):
            name += f"/{getattr(self.table, 'decision', '')}"
        return name

    def seat_of(self, player: int) -> int:
        """The seat ``player`` holds at the running table (-1 if none)."""
        if self.table is None:
            return -1
        if self.duel is None:
            return 0 if player == self.table_owner else -1
        if player == self.duel.host:
            return 0
        if player == self.duel.champion:
            return 1
        return -1

    def player_at(self, seat: int) -> int:
        """The player holding ``seat`` of the running table."""
        if self.duel is None:
            return self.table_owner if seat == 0 else -1
        return self.duel.host if seat == 0 else self.duel.champion

    # ----------------------------------------------------------------- copies
    def clone(self) -> AmalogsState:
        """An independent copy (sides and table cloned through their adapters)."""
        s = AmalogsState.__new__(AmalogsState)
        s.__dict__.update(self.__dict__)
        s.__dict__.pop("emit", None)  # a clone of a muted state logs again (``mute``)
        s.rng = copy_rng(self.rng)
        s.avatars = [a.copy() for a in self.avatars]
        s.life = list(self.life)
        s.queue = list(self.queue)
        s.dice = list(self.dice)
        if self.table is not None:
            s.table = adapter(self.table_ruleset).clone_table(self.table, s.rng)
        s.duel = self.duel.copy() if self.duel else None
        s.events = list(self.events)
        s.records = list(self.records)
        return s

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe description; ``AmalogsState.from_dict`` reads it back exactly."""
        table = None if self.table is None else adapter(self.table_ruleset).table_to_dict(self.table)
        return {
            "ruleset": "amalogs",
            "config": self.config.to_dict(),
            "seed": self.seed,
            "rng": rng_to_json(self.rng),
            "avatars": [a.to_dict() for a in self.avatars],
            "life": list(self.life),
            "team_turn": self.team_turn,
            "first_team": self.first_team,
            "acting": self.acting,
            "phase": int(self.phase),
            "actor": self.actor,
            "control": self.control,
            "commanded": self.commanded,
            "phase_moved": self.phase_moved,
            "queue": list(self.queue),
            "move_allowance": self.move_allowance,
            "dice": list(self.dice),
            "core_turn": self.core_turn,
            "table": table,
            "table_ruleset": self.table_ruleset,
            "table_owner": self.table_owner,
            "table_steps": self.table_steps,
            "duel": None if self.duel is None else self.duel.to_dict(),
            **self._outcome_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AmalogsState:
        """Rebuild a state written by ``to_dict`` (the dict is not kept)."""
        if not isinstance(data, dict) or data.get("ruleset") != "amalogs":
            raise StateError("not an amalogs state dict (missing or wrong 'ruleset')")
        try:
            s = cls(AmalogsConfig.from_dict(data["config"]), data["seed"])
            s.rng = rng_from_json(data["rng"])
            s.avatars = [Avatar.from_dict(a) for a in data["avatars"]]
            for key in (
                "team_turn",
                "first_team",
                "acting",
                "actor",
                "control",
                "commanded",
                "phase_moved",
                "move_allowance",
                "core_turn",
                "table_ruleset",
                "table_owner",
                "table_steps",
                "done",
                "truncated",
                "winner",
                "reason",
            ):
                setattr(s, key, data[key])
            s.life = list(data["life"])
            s.queue = list(data["queue"])
            s.dice = list(data["dice"])
            s.events = list(data["events"])
            s.records = list(data["records"])
            s.phase = Phase(data["phase"])
            if data["table"] is not None:
                s.table = adapter(s.table_ruleset).table_from_dict(data["table"], s.rng)
            s.duel = None if data["duel"] is None else Duel.from_dict(data["duel"])
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"malformed amalogs state dict: {exc!r}") from exc
        return s

    def resample_hidden(self, seat: int, rng: random.Random) -> AmalogsState:
        """A state equally likely from ``seat``'s view (I12).

        Every other player's private core information (teammates' included), every deck order
        and the RNG state are redrawn; ``seat``'s own private cards and all public facts stay.
        """
        s = self.clone()
        s.rng = random.Random(rng.getrandbits(64))
        for i, a in enumerate(s.avatars):
            if a.side is not None:
                a.side = adapter(a.ruleset).resample_side(a.side, rng, keep_private=i == seat)
        if s.table is not None:
            s.table = adapter(s.table_ruleset).resample_table(s.table, self.seat_of(seat), rng)
            s.table.rng = s.rng
        s._legal = None
        return s

    def __repr__(self) -> str:
        return (
            f"AmalogsState(turn={self.team_turn}, life={self.life}, phase={Phase(self.phase).name}, "
            f"actor={self.actor}, done={self.done})"
        )
