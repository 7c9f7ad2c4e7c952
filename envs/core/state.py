"""The engine protocol methods that every ruleset's ``State`` shares.

A ruleset's state subclasses ``EngineState`` (``CardGameState`` when it plays from a card
pool) and names its rules package (which offers ``legal_actions(state)`` and
``apply(state, action)``) and its enum of decision points; the legal-options cache, control,
outcome and event log then come from here.
"""

from __future__ import annotations

import copy
import enum
import functools
import importlib
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any, ClassVar, Self

from deckgym.envs.core.errors import StateError
from deckgym.envs.core.events import make_record


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
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    return rng


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state as ``rng``."""
    out = random.Random()
    out.setstate(rng.getstate())
    return out


class Record:
    """A flat record of plain values in ``__slots__``, copied and written as a list.

    A subclass lists its fields in ``__slots__``; ``to_list`` writes them in that order.
    """

    __slots__: tuple[str, ...] = ()

    def copy(self) -> Self:
        """An independent copy."""
        cls = type(self)
        r = cls.__new__(cls)
        for k in cls.__slots__:
            setattr(r, k, getattr(self, k))
        return r

    def to_list(self) -> list[Any]:
        """JSON form."""
        return [getattr(self, k) for k in type(self).__slots__]

    @classmethod
    def from_list(cls, values: list[Any]) -> Self:
        """Inverse of ``to_list``."""
        r = cls.__new__(cls)
        for k, v in zip(cls.__slots__, values, strict=True):
            setattr(r, k, v)
        return r


class EngineState:
    """Protocol methods of a two-seat engine whose decision point is ``dp = (kind, player, ...)``.

    Subclasses set ``RULES`` (the dotted name of their rules package, imported on first use
    because it imports the state module) and ``DECISIONS`` (the enum of decision kinds), and
    own the attributes annotated below.
    """

    RULES: ClassVar[str]
    DECISIONS: ClassVar[type[enum.IntEnum]]
    #: The outcome and the event log: copied by ``_copy_outcome``, written by ``_outcome_dict``.
    OUTCOME_KEYS: ClassVar[tuple[str, ...]] = ("done", "truncated", "winner", "reason", "events", "records")
    #: The event logs keep their last ``EVENT_CAP`` entries (trimmed to half when they overflow).
    EVENT_CAP: ClassVar[int] = 200
    _rules: ClassVar[Any] = None

    dp: Any
    done: bool
    truncated: bool
    winner: int
    reason: str
    events: list[str]
    records: list[dict[str, Any]]
    _legal: list[Any] | None

    @classmethod
    def _load_rules(cls) -> ModuleType:
        """The rules package, imported and kept on the class on first use."""
        rules = cls._rules = importlib.import_module(cls.RULES)
        return rules

    @property
    def current_player(self) -> int:
        """The seat that decides now, or -1 once the game is over."""
        if self.done or self.dp is None:
            return -1
        player: int = self.dp[1]
        return player

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

    @property
    def decision(self) -> str:
        """Name of the current decision point ("" when none)."""
        dp = self.dp
        return "" if dp is None else _decision_names(self.DECISIONS)[dp[0]]

    def _copy_outcome(self, s: Self) -> None:
        """Copy the outcome, the event log and the legal-options cache into the clone ``s``."""
        s.done = self.done
        s.truncated = self.truncated
        s.winner = self.winner
        s.reason = self.reason
        s.events = list(self.events)
        s.records = list(self.records)
        s._legal = self._legal

    def _outcome_dict(self) -> dict[str, Any]:
        """The ``OUTCOME_KEYS`` part of ``to_dict``."""
        return {
            "done": self.done,
            "truncated": self.truncated,
            "winner": self.winner,
            "reason": self.reason,
            "events": list(self.events),
            "records": list(self.records),
        }

    def emit(
        self, kind: str, text: str, only: tuple[int, dict[str, Any]] | None = None, **fields: Any
    ) -> None:
        """Log one event: ``text`` in ``events`` and ``{"kind": kind, **fields}`` in ``records``.

        ``fields`` are public; ``only=(seat, {...})`` holds what only ``seat`` may see (see
        ``envs.core.events``). Both logs keep their last ``EVENT_CAP`` entries.
        """
        ev = self.events
        recs = self.records
        ev.append(text)
        recs.append(make_record(kind, only, fields))
        if len(ev) > self.EVENT_CAP:
            cut = len(ev) - self.EVENT_CAP // 2
            del ev[:cut]
            del recs[:cut]

    def mute(self) -> Self:
        """Log no more events on this state, and return it.

        For throwaway copies whose log nobody reads, such as a search's rollouts
        (``state.clone().mute()``): ``emit`` then does nothing, which saves a fifth of a
        rollout in the parts game. The logs keep what they held, play is unchanged, and a
        ``clone`` of a muted state logs again. An AMALOGS core table keeps its own log.
        """
        self.emit = _no_event  # type: ignore[method-assign]  # the instance's own, shadowing the method
        return self


def _no_event(kind: str, text: str, only: Any = None, **fields: Any) -> None:
    """``emit`` of a muted state: nothing is logged."""


class CardGameState(EngineState):
    """An engine state that plays from a card pool and a deck list per player."""

    config: Any
    pool: Any
    cards: dict[str, Any]
    decks: Any
    seed: int
    rng: random.Random

    def __init__(self, config: Any, pool: Any, decks: Any, seed: int) -> None:
        """Hold what every card-game state starts with.

        The config, the pool and its cards, the deck lists, the seed and a generator seeded
        with it.
        """
        self.config = config
        self.pool = pool
        self.cards = pool.cards
        self.decks = decks
        self.seed = seed
        self.rng = random.Random(seed)

    @classmethod
    def _from_dict_with(
        cls,
        data: Any,
        ruleset: str,
        config_class: Any,
        load_pool: Callable[[Any], Any],
        fill: Callable[[Self, dict[str, Any]], None],
        copier: Callable[[Any], Any] = copy.deepcopy,
    ) -> Self:
        """The part of ``from_dict`` every card game shares.

        Checks that ``data`` is a state dict of ``ruleset``, copies it with ``copier`` (the dict
        is not kept), builds the state from its config, pool, decks and seed, restores the
        generator, and lets ``fill(state, d)`` set the rest. A missing or malformed entry is a
        ``StateError`` that names the ruleset.
        """
        if not isinstance(data, dict) or data.get("ruleset") != ruleset:
            raise StateError(f"not a {ruleset} state dict (missing or wrong 'ruleset')")
        try:
            d = copier(data)
            s = cls(config_class(**d["config"]), load_pool(d["pool"]), d["decks"], d["seed"])
            s.rng = rng_from_json(d["rng"])
            fill(s, d)
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"malformed {ruleset} state dict: {exc!r}") from exc
        return s

    def _copy_shared(self) -> Self:
        """A bare state of the same class for ``clone`` to fill in.

        It shares the immutable config, card pool, cards and deck lists and holds a copy of
        the random generator.
        """
        s = type(self).__new__(type(self))
        s.config = self.config
        s.pool = self.pool
        s.cards = self.cards
        s.decks = self.decks
        s.seed = self.seed
        s.rng = copy_rng(self.rng)
        return s
