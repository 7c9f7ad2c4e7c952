"""The engine protocol methods that every ruleset's ``State`` shares.

A ruleset's state subclasses ``EngineState`` (``CardGameState`` when it plays from a card
pool) and names its rules package (which offers ``legal_actions(state)`` and
``apply(state, action)``) and its enum of decision points; the legal-options cache, control,
outcome and event log then come from here.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import functools
import importlib
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any, ClassVar, Self

from deckgym.envs.core.declare import Frozen, Record, plan_of, renamed, seats, setup
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.events import known_to, make_record

__all__ = ["CardGameState", "EngineState", "Frozen", "Record", "copy_rng", "rng_from_json", "rng_to_json"]


@functools.cache
def _decision_names(decisions: type[enum.IntEnum]) -> dict[int, str]:
    """Value -> name of a ruleset's decision points (``decision`` is read at every agent move)."""
    return {int(d): d.name for d in decisions}


def rng_to_json(rng: random.Random) -> list[Any]:
    """The state of ``rng`` as JSON-safe ``[version, internal, gauss]``."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: list[Any]) -> random.Random:
    """A generator in the state ``rng_to_json`` wrote."""
    version, internal, gauss = data
    if not all(isinstance(w, int) and 0 <= w < 1 << 32 for w in internal):  # setstate would cut or overflow
        raise ValueError("rng: each word of a generator's state is an integer in 0..2**32 - 1")
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    return rng


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state as ``rng``."""
    out = random.Random()
    out.setstate(rng.getstate())
    return out


class EngineClass:
    """What a ruleset's state class says of itself (class constants, no state).

    They live on a plain class rather than in the dataclass that declares the state: a
    compiled dataclass (mypyc) would take a constant in its body for a field. A ruleset sets
    its values after its class (``card_game_constants`` for a card game, or ``AmalogsState.RULES = ...``).
    """

    #: The dotted name of the rules package (imported on first use: it imports the state module).
    RULES: ClassVar[str]
    #: The name the state's dicts carry.
    RULESET: ClassVar[str]
    #: The enum of decision kinds.
    DECISIONS: ClassVar[type[enum.IntEnum]]
    #: The keys of ``to_dict`` that hold the set-up rather than declared fields.
    SETUP_KEYS: ClassVar[tuple[str, ...]] = ("ruleset", "config", "seed", "rng")
    JSON_FORM: ClassVar[str] = "dict"
    #: The event logs keep their last ``EVENT_CAP`` entries (trimmed to half when they overflow).
    EVENT_CAP: ClassVar[int] = 200
    _rules: ClassVar[Any] = None

    __hash__ = None  # type: ignore[assignment]  # mutable: equal states may differ later


@dataclasses.dataclass(eq=False, init=False, repr=False)
class EngineState(EngineClass):
    """Protocol methods of a two-seat engine: legal options, moves, outcome, events and the declared state.

    A ruleset's state is a ``@dataclass(eq=False, init=False, repr=False)`` subclass that
    declares its fields (``envs.core.declare``); the fields declared here, the outcome and the
    event log, come first. From that declaration come ``clone``, ``to_dict``, ``from_dict``
    and ``==``. Subclasses set ``RULES``, ``RULESET`` and ``DECISIONS`` (``EngineClass``).
    Set-up fields (``envs.core.declare.setup``: the config, the pool, the generator) are not
    dumped with the others: ``to_dict`` writes them in its own keys (``SETUP_KEYS``).
    """

    #: The game is over (decided or truncated).
    done: bool = False
    #: It ended by the turn limit.
    truncated: bool = False
    #: -1 none, 0/1 the winner (the winning team in AMALOGS), 2 draw.
    winner: int = -1
    #: Why it ended, in words.
    reason: str = ""
    #: The event log in words, and beside it the same events as records (``envs.core.events``).
    events: list[str] = dataclasses.field(default_factory=list)
    records: list[Frozen] = dataclasses.field(default_factory=list)

    #: The game's own generator, the options cache and whether events are logged (``mute``).
    rng: random.Random = setup("rng")
    _legal: list[Any] | None = setup("cache")
    _muted: bool = setup("fresh")
    #: This game's cap on its event logs (``EVENT_CAP`` unless raised, e.g. to keep a whole game's log).
    event_cap: int = setup()

    #: The rules options and the seed the game was set up with.
    config: Any = setup()
    seed: int = setup()

    def _init_declared(self) -> None:
        """Set every declared field, the options cache and the memos to their defaults (``__init__`` of each ruleset calls it)."""
        plan_of(type(self)).init(self)
        self.event_cap = self.EVENT_CAP

    @classmethod
    def _load_rules(cls) -> ModuleType:
        """The rules package, imported and kept on the class on first use."""
        rules = cls._rules = importlib.import_module(cls.RULES)
        return rules

    def legal_actions(self) -> list[Any]:
        """Options at the current decision point (cached until the next ``apply``)."""
        if self._legal is None:
            self._legal = (self._rules or self._load_rules()).legal_actions(self)
        return self._legal

    def apply(self, action: Any) -> None:
        """Play ``action``, then every automatic step up to the next decision point."""
        (self._rules or self._load_rules()).apply(self, action)

    def is_terminal(self) -> bool:
        """Whether the game is over (decided or truncated)."""
        return self.done

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser; 0 for both on a draw, truncation or unfinished game."""
        if self.winner in (0, 1):
            return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]
        return [0.0, 0.0]

    # ----------------------------------------------------------------- declared
    def clone(self) -> Self:
        """An independent copy; it shares only the set-up (the config, the pool) and the options cache."""
        s: Self = plan_of(type(self)).copy(self)
        return s

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe description; ``from_dict`` reads it back exactly."""
        d = {"ruleset": self.RULESET, **self._setup_dict()}
        d.update(plan_of(type(self)).dump(self))
        return d

    def _setup_dict(self) -> dict[str, Any]:
        """The set-up part of ``to_dict``."""
        return {"config": self.config.to_dict(), "seed": self.seed, "rng": rng_to_json(self.rng)}

    @classmethod
    def _from_setup(cls, d: dict[str, Any]) -> Self:
        """A state built from the set-up part of a dict (its fields at their defaults)."""
        raise NotImplementedError

    @classmethod
    def _upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` in the current form, where an earlier release wrote a field otherwise.

        A ruleset says how; a field that was only renamed needs nothing here (``renamed``).
        """
        return data

    @classmethod
    def from_dict(cls, data: Any, strict: bool = False) -> Self:
        """Rebuild a state written by ``to_dict`` (the dict is not kept).

        Every value is checked against the declaration: a dict that does not fit raises one
        ``StateError`` that names the field. With ``strict`` the position must also pass the
        ruleset's rules check (``rules.check``).
        """
        name = getattr(cls, "RULESET", cls.__name__)
        if not isinstance(data, dict) or data.get("ruleset") != name:
            raise StateError(f"not a {name} state dict (missing or wrong 'ruleset')")
        data = cls._upgrade(data)
        missing = [k for k in cls.SETUP_KEYS if k not in data]
        if missing:
            raise StateError(f"{missing[0]}: missing from the {name} state dict")
        try:
            s = cls._from_setup(data)
            s.rng = rng_from_json(data["rng"])
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateError(
                f"malformed {name} state dict (set-up: config, pool, decks, seed, rng): {exc!r}"
            ) from exc
        fields = {k: v for k, v in data.items() if k not in cls.SETUP_KEYS}
        plan_of(cls).load_into(s, fields, "")
        s._legal = None
        if strict:
            (cls._rules or cls._load_rules()).check(s)
        return s

    def __eq__(self, other: object) -> bool:
        """Two states are equal when their dicts (set-up and every declared field) are."""
        if type(other) is not type(self):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    # ----------------------------------------------------------------- events
    def emit(
        self, kind: str, text: str, only: tuple[int, dict[str, Any]] | None = None, **fields: Any
    ) -> None:
        """Log one event: ``text`` in ``events`` and ``{"kind": kind, **fields}`` in ``records``.

        ``fields`` are public; ``only=(seat, {...})`` holds what only ``seat`` may see (see
        ``envs.core.events``). Both logs keep their last ``event_cap`` entries.
        """
        if self._muted:
            return
        ev = self.events
        recs = self.records
        ev.append(text)
        recs.append(make_record(kind, only, fields))
        if len(ev) > self.event_cap:
            cut = len(ev) - self.event_cap // 2
            del ev[:cut]
            del recs[:cut]

    def mute(self) -> Self:
        """Log no more events on this state, and return it.

        For throwaway copies whose log nobody reads, such as a search's rollouts
        (``state.clone().mute()``): ``emit`` then does nothing, which saves a fifth of a
        rollout in the parts game. The logs keep what they held, play is unchanged, and a
        ``clone`` of a muted state logs again. A muted AMALOGS state mutes its core tables too.
        """
        self._muted = True
        return self


class CardGameClass(EngineState):
    """What a card game's state class says of itself, beside ``EngineClass``'s constants."""

    #: The ruleset's ``make_config`` (which checks every option) and pool loader (for ``from_dict``).
    MAKE_CONFIG: ClassVar[Callable[..., Any]]
    LOAD_POOL: ClassVar[Callable[[Any], Any]]
    #: Two seats in every card game.
    num_players: ClassVar[int] = 2
    #: The fields ``repr`` shows (a ruleset's turn and running score).
    REPR_FIELDS: ClassVar[tuple[str, ...]] = ()


CardGameClass.SETUP_KEYS = ("ruleset", "config", "pool", "decks", "seed", "rng")


@dataclasses.dataclass(eq=False, init=False, repr=False)
class CardGameState(CardGameClass):
    """An engine state that plays from a card pool and a deck list per player.

    Its decision point is ``decision_point = (kind, player, context)`` (``envs.core.flow.ask``);
    every card game has a deck and a hand per player. The base is not generic (a compiled
    dataclass cannot be): a ruleset reads its typed options and cards through its own
    accessors where it needs their types.
    """

    pool: Any = setup()
    cards: dict[str, Any] = setup()
    decks: Any = setup()

    deck: list[list[str]] = seats([])
    hand: list[list[str]] = seats([])
    #: ``(kind, player, context)`` while a player is to decide, else None
    decision_point: tuple[int, int, tuple[int, ...]] | None = renamed("dp", None)

    def __init__(self, config: Any = None, pool: Any = None, decks: Any = None, seed: int = 0) -> None:
        """Hold what every card-game state starts with, and set each declared field to its default.

        The config, the pool and its cards, a copy of the deck lists, the seed and a generator
        seeded with it; then the ruleset's own starting values (``_start``). Without a config
        the state is blank: ``clone`` and ``from_dict`` fill in every field (the compiled
        build makes its copies so).
        """
        if config is None:
            return
        self.config = config
        self.pool = pool
        self.cards = pool.cards
        self.decks = [list(d) for d in decks]
        self.seed = seed
        self.rng = random.Random(seed)
        self._init_declared()
        self._start()

    def _start(self) -> None:
        """Set the fields whose start depends on the options (none unless a ruleset says)."""

    @property
    def current_player(self) -> int:
        """The seat that decides now, or -1 once the game is over."""
        if self.done or self.decision_point is None:
            return -1
        player: int = self.decision_point[1]
        return player

    @property
    def decision(self) -> str:
        """Name of the current decision point ("" when none)."""
        point = self.decision_point
        return "" if point is None else _decision_names(self.DECISIONS)[point[0]]

    def __repr__(self) -> str:
        shown = "".join(f"{name}={getattr(self, name)!r}, " for name in self.REPR_FIELDS)
        return (
            f"GameState({shown}decision={self.decision}, player={self.current_player}, "
            f"done={self.done}, winner={self.winner})"
        )

    def _setup_dict(self) -> dict[str, Any]:
        return {
            "config": self.config.to_dict(),
            "pool": self.pool.spec(),
            "decks": copy.deepcopy(self.decks),
            "seed": self.seed,
            "rng": rng_to_json(self.rng),
        }

    @classmethod
    def _from_setup(cls, d: dict[str, Any]) -> Self:
        if not isinstance(d["config"], dict):
            raise StateError(f"config: expected a mapping of rules options, got {d['config']!r}")
        if not isinstance(d["seed"], int) or isinstance(d["seed"], bool):
            raise StateError(f"seed: expected an integer, got {d['seed']!r}")
        if not isinstance(d["decks"], list):
            raise StateError(f"decks: expected a list of deck lists, got {d['decks']!r}")
        try:
            config = cls.MAKE_CONFIG(**d["config"])
        except (StateError, TypeError) as exc:
            raise StateError(f"config: {exc}") from exc
        return cls(config, cls.LOAD_POOL(d["pool"]), copy.deepcopy(d["decks"]), d["seed"])

    # ----------------------------------------------------------------- hidden information
    def _resample_start(self, seat: int, rng: random.Random) -> Self:
        """The copy that ``resample_hidden`` redraws for ``seat``, with what every ruleset's redraw does.

        The copy draws its future from a new generator seeded from ``rng``, has no options
        cache, holds ``seat``'s own deck reshuffled (``seat`` knows its list, not its order) and
        keeps only the events ``seat`` may know.
        """
        s = self.clone()
        s.rng = random.Random(rng.getrandbits(64))
        s._legal = None
        rng.shuffle(s.deck[seat])
        s.records = known_to(s.records, seat)
        return s

    def _redeal(self, seat: int, cards: list[str]) -> None:
        """Give ``seat`` a hand and a deck from ``cards`` (redrawn): its hand size first, the rest its deck."""
        n = len(self.hand[seat])
        self.hand[seat] = cards[:n]
        self.deck[seat] = cards[n:]


def card_game_constants(
    cls: type[CardGameState],
    package: str,
    decisions: type[enum.IntEnum],
    make_config: Callable[..., Any],
    load_pool: Callable[[Any], Any],
    repr_fields: tuple[str, ...],
    event_cap: int = 0,
) -> None:
    """Set the class constants (``EngineClass``, ``CardGameClass``) of the card game ``package``.

    Called after the class, as a compiled build needs (mypyc reads constants in a dataclass
    body as fields). The rules are ``deckgym.envs.<package>.rules`` and the state's dicts say
    ``"ruleset": package``; ``event_cap`` 0 keeps the default log length.
    """
    cls.RULES = f"deckgym.envs.{package}.rules"
    cls.RULESET = package
    cls.DECISIONS = decisions
    cls.MAKE_CONFIG = staticmethod(make_config)
    cls.LOAD_POOL = staticmethod(load_pool)
    cls.REPR_FIELDS = repr_fields
    if event_cap:
        cls.EVENT_CAP = event_cap
