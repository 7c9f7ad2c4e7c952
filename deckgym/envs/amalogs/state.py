"""The state of an AMALOGS match: the MAP, the avatars with their core sides, the bases and the duel.

The state is plain data; ``envs.amalogs.rules`` moves it. Core games are held as opaque
sides and tables of their ruleset's adapter (``envs.amalogs.cores``). One ``random.Random``
owns every random draw of the match, the core games' included: a running table draws from
the same object.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from deckgym.envs.amalogs.actions import CORE_PHASES, Phase
from deckgym.envs.amalogs.config import RULESETS, AmalogsConfig
from deckgym.envs.amalogs.core_adapter import CoreAdapter
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.core.declare import Record, codec_field, seats, setup
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.proxy import KINDS as PROXY_KINDS
from deckgym.envs.core.proxy import NONE as NO_PROXY
from deckgym.envs.core.state import EngineState


def _loading(slot: int, field: str, what: str) -> CoreAdapter:
    """The adapter that reads a stored side or table of ruleset ``slot`` (``field`` holds it).

    Raises:
        StateError: ``slot`` is no ruleset slot (``what`` says what was being read).
    """
    if not 0 <= slot < len(RULESETS):
        raise StateError(f"{field}: {slot} is not a ruleset slot (0..{len(RULESETS) - 1}){what}")
    return adapter(slot)


class _SideCodec:
    """An avatar's core side, in the form of its ruleset's adapter (the avatar's ``ruleset``)."""

    def copy(self, value: Any, src: Any, dst: Any) -> Any:
        return None if value is None else adapter(src.ruleset).clone_side(value)

    def dump(self, value: Any, owner: Any) -> Any:
        return None if value is None else adapter(owner.ruleset).side_to_dict(value)

    def load(self, data: Any, owner: Any) -> Any:
        if data is None:
            return None
        return _loading(owner.ruleset, "ruleset", " for a side").side_from_dict(data)


class _TableCodec:
    """The running core table, in the form of its ruleset's adapter; it draws from the match's generator."""

    def copy(self, value: Any, src: Any, dst: Any) -> Any:
        return None if value is None else adapter(src.table_ruleset).clone_table(value, dst.rng)

    def dump(self, value: Any, owner: Any) -> Any:
        return None if value is None else adapter(owner.table_ruleset).table_to_dict(value)

    def load(self, data: Any, owner: Any) -> Any:
        if data is None:
            return None
        return _loading(owner.table_ruleset, "table_ruleset", "").table_from_dict(data, owner.rng)


@dataclass
class Avatar(Record):
    """One player: its avatar on the MAP and the core side it holds (4.1)."""

    team: int
    slot: int
    square: int = -1
    ap: int = 0
    dueled: bool = False
    guarding: bool = False
    ended: bool = False
    exited: bool = False
    ruleset: int = -1
    side: Any = codec_field(_SideCodec())
    core_turns: int = 0
    last_turn: int = 0
    #: D38: the nominal life L0 of the core game it holds (0 without one), read when the side is created
    nominal: int = 0

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


Avatar.JSON_FORM = "dict"


@dataclass
class Duel(Record):
    """The duel under way (4.1): roles, who sits at seat 1, strike value and outcome.

    Seat 1 holds the champion (D21), else a proxy (D36, D37): the defender's stand-in (``proxy``
    ``GUEST``, ``defender`` its player) or the enemy base (``BASE``, D40), else nobody (vacant).
    """

    host: int
    casts: list[int]
    guests: list[int]
    bases: list[int]
    champion: int
    #: D36: the guest whose proxy sits at seat 1 (-1: none)
    defender: int = -1
    #: D37, D40: the kind of proxy at seat 1 (``envs.core.proxy``: NONE, GUEST or BASE)
    proxy: int = NO_PROXY
    #: D37: the proxy's life P at composition, and P as last seen (a base proxy's hits are counted by it)
    proxy_start: int = 0
    proxy_life: int = 0
    strike: int = 0
    #: per player index: the core game met its loss condition in this duel
    lost: list[int] = dataclasses.field(default_factory=list)
    #: players whose core life a strike has reduced
    struck: list[int] = dataclasses.field(default_factory=list)

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


Duel.JSON_FORM = "dict"


@dataclass(eq=False, init=False, repr=False)
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
        table_ruleset / table_owner: the running table's ruleset slot and, for a solo turn, its player.
        table: the running core table (a duel or a solo first turn), or None.
        table_steps: core decisions taken on the running table (D32).
        duel: the duel under way, or None.
    """

    avatars: list[Avatar] = dataclasses.field(default_factory=list)
    life: list[int] = seats(0)
    team_turn: int = 0
    first_team: int = -1
    acting: int = -1
    phase: Phase = Phase.STARTUP_RULESET
    actor: int = -1
    control: int = -1
    commanded: bool = False
    phase_moved: bool = False
    queue: list[int] = dataclasses.field(default_factory=list)
    move_allowance: int = 0
    dice: list[int] = seats(0)
    core_turn: int = 0
    table_ruleset: int = -1
    table_owner: int = -1
    table: Any = codec_field(_TableCodec())
    table_steps: int = 0
    duel: Duel | None = None

    #: The encoder's memo (``encode.py``): per player, the core view of its side alone, with the
    #: ruleset, the turn and a copy of the side it was made from. A copy starts without it.
    _side_views: dict[int, tuple[int, int, Any, Any]] | None = setup("memo")

    def __init__(self, config: AmalogsConfig | None = None, seed: int = 0) -> None:
        """A new game's state (a blank one without a config, which ``clone`` and ``from_dict`` fill in)."""
        if config is None:
            return
        self.config = config
        self.seed = seed
        self.rng = random.Random(seed)
        self._init_declared()
        self.avatars = [Avatar(config.team_of(i), config.slot_of(i)) for i in range(config.num_players)]
        self.life = [config.start_life, config.start_life]

    @classmethod
    def _from_setup(cls, d: dict[str, Any]) -> AmalogsState:
        if not isinstance(d["seed"], int) or isinstance(d["seed"], bool):
            raise StateError(f"seed: expected an integer, got {d['seed']!r}")
        return cls(AmalogsConfig.from_dict(d["config"]), d["seed"])

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
        if self.table is not None and self.phase in CORE_PHASES:
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

    def mute(self) -> AmalogsState:
        """Log no more events, here or at a core table: the running one and each one started later.

        As ``EngineState.mute``, for a search's rollouts; a ``clone`` logs again.
        """
        self._muted = True
        if self.table is not None:
            self.table.mute()
        return self

    def seat_table(self, table: Any) -> None:
        """Make ``table`` the running core table (muted when this state is: ``mute``)."""
        if self._muted:
            table.mute()
        self.table = table

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


AmalogsState.RULES = "deckgym.envs.amalogs.rules"
AmalogsState.RULESET = "amalogs"
AmalogsState.EVENT_CAP = 400
