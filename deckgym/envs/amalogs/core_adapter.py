"""The core-game adapter contract (spec D31, A1-A10) that every ruleset used in AMALOGS provides.

A *side* is one player's persistent half of a two-player core game (D19); a *table* is one
turn of the host's ruleset with the host at seat 0 and, at seat 1, the champion, a proxy (a
life counter standing in for the defender or the enemy base, D37, D40) or a vacant seat
(D20, D21). Both are opaque to the meta engine: it only calls these methods. Every
method is pure Python and deterministic; all randomness comes from the ``rng`` handed in,
which is the meta state's one RNG. Observation and action-index encoding of a core game live
in ``envs.amalogs.encode`` (``CoreEncoding``), outside the engine; the adapter names the
ruleset's encoder (``encoding``) and the rest of what AMALOGS shows of the ruleset: its env
name, its name for people and on the map, its card names and its modules (``describe``, ``view``).
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any, ClassVar, NamedTuple, Protocol

from deckgym.envs.core import proxy as proxy_kinds
from deckgym.envs.core.proxy import NO_PROXY, Proxy
from deckgym.envs.games import Game


class CoreSummary(NamedTuple):
    """A8: the public summary of a side (the active-turn count is kept by the meta engine)."""

    life: int
    hand: int
    deck: int
    units: int


class CoreAdapter(Protocol):
    """What AMALOGS needs from a core ruleset (D31)."""

    slot: int
    #: the slot's name (``config.RULESETS``)
    name: str
    #: the ruleset's env name (its ``GAME.name``): the boards draw its tables under that name
    env: str
    #: its name for people (the event lines, the sentences of moves, the boards)
    title: str
    #: a few letters that fit on an avatar's square of the map
    short: str

    def ruleset_module(self, leaf: str) -> ModuleType | None:
        """The ruleset's module ``<package>.<leaf>`` (``describe``, ``view``), or None if it has none."""
        ...

    def encoding(self) -> Any:
        """A4: the ruleset's own encoder over the card pool of its sides (an ``encode.CoreEncoding``)."""
        ...

    def card_names(self) -> dict[str, str]:
        """Card id -> card name over the pool of the ruleset's sides."""
        ...

    def default_deck(self) -> list[str]:
        """D28: the ruleset's first ready-made deck (card ids)."""
        ...

    def resolve_deck(self, value: Any, label: str) -> list[str]:
        """A deck option (name, path, mapping or list) as validated card ids; raises on a bad deck."""
        ...

    def new_side(self, deck: list[str], rng: random.Random) -> Any:
        """A1: a new side from a deck list."""
        ...

    def solo_table(self, side: Any, rng: random.Random, turn: int) -> Any:
        """A2, D30: the opening and first-player first turn of ``side`` with a vacant seat 1, started."""
        ...

    def compose(
        self, host: Any, champion: Any | None, rng: random.Random, turn: int, proxy: Proxy = NO_PROXY
    ) -> Any:
        """A3: a table of core turn ``turn``, not started.

        Host at seat 0; at seat 1 the champion, or with ``champion=None`` a proxy of kind
        ``proxy.kind`` (``envs.core.proxy.GUEST`` or ``BASE``) and life ``proxy.life`` (D37), or a
        vacant seat.
        """
        ...

    def proxy_life(self, table: Any) -> int:
        """D37: the life P of the proxy at seat 1 of a running or finished proxy table."""
        ...

    def proxy_damage(self, table: Any, composed: int) -> int:
        """A10: the proxy damage d of a table, P at composition (``composed``) − P now, in host units."""
        ...

    def nominal_life(self, side: Any) -> int:
        """A8, D38: the side's nominal life L0 (the unit its core life is converted by)."""
        ...

    def begin(self, table: Any) -> None:
        """Run a composed table up to its first decision."""
        ...

    def to_act(self, table: Any) -> int:
        """A4: the seat that decides now, or -1 once the table is over."""
        ...

    def legal_actions(self, table: Any) -> list[Any]:
        """A4: the seat's options (the core engine's own actions)."""
        ...

    def step(self, table: Any, action: Any) -> None:
        """A4: play one core action (the core engine raises ``IllegalActionError`` on a bad one)."""
        ...

    def auto_action(self, table: Any) -> Any:
        """A9, D32: the pass/end option if legal, else the lowest-index legal action."""
        ...

    def loss_flags(self, table: Any) -> tuple[bool, bool]:
        """A5: per seat, whether that side met its loss condition."""
        ...

    def split(self, table: Any) -> tuple[Any, Any | None]:
        """A6: the two updated sides (``None`` for a vacant seat)."""
        ...

    def lose_core_life(self, side: Any, n: int) -> bool:
        """A7: lose ``n`` core life without decisions; True if the side met its loss condition."""
        ...

    def summary(self, side: Any) -> CoreSummary:
        """A8: the public summary of a side."""
        ...

    def table_summary(self, table: Any, seat: int) -> CoreSummary:
        """A8 for the side at ``seat`` of a running table."""
        ...

    def counts(self, side: Any) -> tuple[int, int, int, int]:
        """``summary(side)`` as a plain tuple (life, hand, deck, units): the encoder's cheap form."""
        ...

    def table_counts(self, table: Any, seat: int) -> tuple[int, int, int, int]:
        """``table_summary(table, seat)`` as a plain tuple."""
        ...

    def side_cards(self, side: Any) -> list[str]:
        """Every card id the side holds, in any zone (I9)."""
        ...

    def clone_side(self, side: Any) -> Any:
        """An independent copy of a side."""
        ...

    def clone_table(self, table: Any, rng: random.Random) -> Any:
        """An independent copy of a table that draws from ``rng``."""
        ...

    def side_to_dict(self, side: Any) -> dict[str, Any]:
        """JSON-safe form of a side."""
        ...

    def side_from_dict(self, data: dict[str, Any]) -> Any:
        """Inverse of ``side_to_dict``."""
        ...

    def table_to_dict(self, table: Any) -> dict[str, Any]:
        """JSON-safe form of a table."""
        ...

    def table_from_dict(self, data: dict[str, Any], rng: random.Random) -> Any:
        """Inverse of ``table_to_dict``; the table draws from ``rng``."""
        ...

    def resample_side(self, side: Any, rng: random.Random, keep_private: bool) -> Any:
        """The side with its deck order (and, unless ``keep_private``, its hidden cards) redrawn."""
        ...

    def resample_table(self, table: Any, keep_seat: int, rng: random.Random) -> Any:
        """The table with everything ``keep_seat`` (-1: nobody) may not see redrawn."""
        ...

    def render_table(self, table: Any, viewer: int | None) -> str:
        """The table as text for humans (``viewer`` a seat, or None for everything)."""
        ...


def _is_int(value: Any) -> bool:
    """Whether ``value`` is an int and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


class SidesCore:
    """The body that every adapter shares, over a ruleset's own ``envs.<ruleset>.sides`` module.

    That module splits the ruleset's ``GameState`` into sides and composes tables from them;
    what is the same for every ruleset is written here once, and the module provides only what
    differs (its hooks):

    * ``Side``: the side class (``from_dict``, ``to_dict``, ``clone``, ``cards``, ``units``);
    * ``solo_table(side, rng, turn)`` (A2), ``compose(host, champion, rng, turn, proxy)`` (A3;
      called with arguments this class has checked) and ``run(table)``
      (the engine's loop, which plays a table to its next decision or its end);
    * ``side_of(table, seat)``: the side at ``seat`` of a table, back in the side's own frame,
      keeping only what outlasts the table in that ruleset (A6);
    * ``stored_proxy_life(table)``: the proxy's life P as the table stores it (D37, D40);
    * ``lose_core_life``, ``summary``, ``nominal_life`` (A7, A8, D38);
    * ``pool()``: the card pool of its sides (read by the encoder and for the card names).

    A subclass sets ``sides`` (that module), ``state_type`` (the ruleset's ``GameState``) and
    ``game`` (the ruleset's declaration, ``envs.<ruleset>.GAME``: its env name, and its package,
    whose ``env.encoder_for``, ``render``, ``describe`` and ``view`` modules are the ruleset's),
    passes its name for people and its short name to this constructor, and writes what differs
    by ruleset: ``default_deck``, ``resolve_deck``, ``new_side``, ``auto_action`` and
    ``table_counts``. The table-level methods depend only on the ruleset, so they are class
    methods too (``MowCore.split(table)``).
    """

    sides: ClassVar[ModuleType]
    state_type: ClassVar[Any]
    game: ClassVar[Game]

    def __init__(self, slot: int, title: str, short: str) -> None:
        from deckgym.envs.amalogs.config import RULESETS

        self.slot = slot
        self.name = RULESETS[slot].name
        self.env = self.game.name
        self.title = title
        self.short = short
        #: the ruleset's package (``deckgym.envs.mow``)
        self.package = self.game.package

    def ruleset_module(self, leaf: str) -> ModuleType | None:
        """The ruleset's module ``<package>.<leaf>`` (``describe``, ``view``), or None if it has none."""
        module = f"{self.package}.{leaf}"
        try:
            return importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            return None

    def encoding(self) -> Any:
        """A4: the ruleset's encoder (``<package>.env.encoder_for``) over the pool of its sides."""
        return importlib.import_module(f"{self.package}.env").encoder_for(self.sides.pool())

    def card_names(self) -> dict[str, str]:
        """Card id -> card name over the pool of the ruleset's sides."""
        return {cid: str(card.name) for cid, card in self.sides.pool().cards.items()}

    def solo_table(self, side: Any, rng: random.Random, turn: int) -> Any:
        """A2: the side's solo first turn with seat 1 vacant."""
        return self.sides.solo_table(side, rng, turn)

    @classmethod
    def compose(
        cls, host: Any, champion: Any | None, rng: random.Random, turn: int, proxy: Proxy = NO_PROXY
    ) -> Any:
        """A3: one turn of this ruleset, host at seat 0; the champion, a proxy (D37) or a vacant seat at seat 1.

        With ``proxy.kind`` GUEST or BASE (``envs.core.proxy``; D36, D37, D40) ``champion`` must
        be None and seat 1 holds a proxy of life ``proxy.life`` (an int >= 1); without a proxy
        ``proxy.life`` is not used.

        Raises:
            ValueError: an unknown proxy kind, a proxy with a champion, or a proxy life below 1.
        """
        kind, life = proxy
        if not _is_int(kind) or kind not in (proxy_kinds.NONE, proxy_kinds.GUEST, proxy_kinds.BASE):
            raise ValueError(f"compose: the proxy kind must be NONE, GUEST or BASE (0, 1, 2), got {kind!r}")
        if kind == proxy_kinds.NONE:
            return cls.sides.compose(host, champion, rng, turn)
        if champion is not None:
            raise ValueError("compose: a proxy sits at seat 1 only when there is no champion (D36, D37)")
        if not _is_int(life) or life < 1:
            raise ValueError(f"compose: a proxy's life must be an int >= 1, got {life!r}")
        return cls.sides.compose(host, champion, rng, turn, proxy)

    @classmethod
    def proxy_life(cls, table: Any) -> int:
        """D37, D40: the proxy's life P now.

        Raises:
            ValueError: the table has no proxy.
        """
        if table.config.proxy == proxy_kinds.NONE:
            raise ValueError("proxy_life: the table has no proxy at seat 1")
        return int(cls.sides.stored_proxy_life(table))

    def proxy_damage(self, table: Any, composed: int) -> int:
        """A10: d = P at composition (``composed``) − P now, in the host's units (D37)."""
        return composed - self.proxy_life(table)

    def nominal_life(self, side: Any) -> int:
        """A8, D38: the side's nominal life L0."""
        return int(self.sides.nominal_life(side))

    @classmethod
    def begin(cls, table: Any) -> None:
        """Run a composed table up to its first decision (or to its end)."""
        cls.sides.run(table)

    def to_act(self, table: Any) -> int:
        """A4: the seat to act."""
        return int(table.current_player)

    def legal_actions(self, table: Any) -> list[Any]:
        """A4: the legal options."""
        return list(table.legal_actions())

    def step(self, table: Any, action: Any) -> None:
        """A4: play an option."""
        table.apply(action)

    @classmethod
    def loss_flags(cls, table: Any) -> tuple[bool, bool]:
        """A5: per seat, whether that side met its loss condition (a finished turn is no loss).

        On a proxy table the second flag says whether the proxy's life P reached 0 (D37, D40).
        """
        if table.config.proxy != proxy_kinds.NONE:
            host_lost = table.done and not table.truncated and table.winner in (1, 2)
            return (host_lost, cls.sides.stored_proxy_life(table) <= 0)
        if not table.done or table.truncated:
            return (False, False)
        return (table.winner in (1, 2), table.winner in (0, 2))

    @classmethod
    def split(cls, table: Any) -> tuple[Any, Any | None]:
        """A6: the two updated sides (``None`` for a vacant seat or a proxy)."""
        host = cls.sides.side_of(table, 0)
        champion = None if table.config.vacant_seat else cls.sides.side_of(table, 1)
        return host, champion

    def lose_core_life(self, side: Any, n: int) -> bool:
        """A7, as the ruleset's ``sides.lose_core_life`` defines it; True if the side has now lost."""
        return bool(self.sides.lose_core_life(side, n))

    def summary(self, side: Any) -> CoreSummary:
        """A8: the public summary of a side."""
        return CoreSummary(*self.counts(side))

    def counts(self, side: Any) -> tuple[int, int, int, int]:
        """A8 of a side as a plain tuple (building the named tuple costs more than reading the side)."""
        values: tuple[int, int, int, int] = self.sides.summary(side)
        return values

    def table_summary(self, table: Any, seat: int) -> CoreSummary:
        """A8 of a seat of a running table."""
        return CoreSummary(*self.table_counts(table, seat))

    def table_counts(self, table: Any, seat: int) -> tuple[int, int, int, int]:
        """A8 of a seat of a running table as a plain tuple (each ruleset writes its own)."""
        raise NotImplementedError

    def side_cards(self, side: Any) -> list[str]:
        """I9: every card of the side."""
        return list(side.cards())

    def clone_side(self, side: Any) -> Any:
        """A copy of a side."""
        return side.clone()

    def clone_table(self, table: Any, rng: random.Random) -> Any:
        """A copy of a table that draws from ``rng``."""
        t = table.clone()
        t.rng = rng
        return t

    def side_to_dict(self, side: Any) -> dict[str, Any]:
        """JSON form of a side."""
        return side.to_dict()

    def side_from_dict(self, data: dict[str, Any]) -> Any:
        """Inverse of ``side_to_dict``."""
        return self.sides.Side.from_dict(data)

    def table_to_dict(self, table: Any) -> dict[str, Any]:
        """JSON form of a table."""
        return table.to_dict()

    def table_from_dict(self, data: dict[str, Any], rng: random.Random) -> Any:
        """Inverse of ``table_to_dict``; the table draws from ``rng``."""
        t = self.state_type.from_dict(data)
        t.rng = rng
        return t

    def resample_side(self, side: Any, rng: random.Random, keep_private: bool) -> Any:
        """Deck order (and, unless ``keep_private``, the side's private cards) redrawn.

        The side sits alone at a table, whose hidden cards are redrawn for a viewer at seat 0
        (``keep_private``: the deck order only) or at seat 1 (the hand and every other card
        the side keeps private too).
        """
        table = self.sides.compose(side, None, rng, 1)
        table = table.resample_hidden(0 if keep_private else 1, rng)
        return self.sides.side_of(table, 0)

    def resample_table(self, table: Any, keep_seat: int, rng: random.Random) -> Any:
        """Everything ``keep_seat`` may not see redrawn (both seats' when -1)."""
        own_rng = table.rng
        if keep_seat >= 0:
            t = table.resample_hidden(keep_seat, rng)
        else:
            t = table.resample_hidden(0, rng).resample_hidden(1, rng)
        t.rng = own_rng
        return t

    def render_table(self, table: Any, viewer: int | None) -> str:
        """The table as text (the ruleset's ``render.render_text``)."""
        return str(importlib.import_module(f"{self.package}.render").render_text(table, viewer))
