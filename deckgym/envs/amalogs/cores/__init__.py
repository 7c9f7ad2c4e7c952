"""Core-game adapters by ruleset slot (D15, D31).

Each ruleset used in AMALOGS has one adapter module here; ``adapter(slot)`` builds it on
first use. A ruleset whose engine has no adapter is not offered in any pool.

The adapter owns every fact of its ruleset that AMALOGS uses: its env name and package (from
the ruleset's ``GAME``), its name for people and on the map, its encoder, its card names and its
``describe``, ``view`` and ``render`` modules (``core_adapter.SidesCore``); the AMALOGS modules
read them through ``adapter(slot)``. What AMALOGS itself fixes per slot is ``config.RULESETS``
(name, WE, range and the D43 constants) and ``_ADAPTERS`` below: which adapter, in which mode.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

from deckgym.envs.amalogs.config import AmalogsConfig, make_config
from deckgym.envs.amalogs.core_adapter import CoreAdapter

#: slot -> (adapter module, adapter class, its mode: the class's second argument)
_ADAPTERS: dict[int, tuple[str, str, str]] = {
    0: ("deckgym.envs.amalogs.cores.medarot_ocg", "MedarotCore", "beginner"),
    1: ("deckgym.envs.amalogs.cores.medarot_ocg", "MedarotCore", "advance"),
    2: ("deckgym.envs.amalogs.cores.medarot_parts", "PartsCore", ""),
    3: ("deckgym.envs.amalogs.cores.mow", "MowCore", ""),
    4: ("deckgym.envs.amalogs.cores.medarot_ocg", "MedarotCore", "normal"),
}

#: Ruleset slots that can be played, in slot order.
IMPLEMENTED: tuple[int, ...] = tuple(sorted(_ADAPTERS))


@functools.cache
def adapter(slot: int) -> CoreAdapter:
    """The adapter of ruleset ``slot``."""
    module, factory, arg = _ADAPTERS[slot]
    return getattr(importlib.import_module(module), factory)(slot, arg)


def match_config(
    team_sizes: Any, pools: Any, decks: Any, max_team_turns: Any, duel_cap: Any
) -> AmalogsConfig:
    """The match options checked against the implemented rulesets, decks resolved by their adapters.

    Every player without a deck gets its ruleset's default deck, read once per slot (D28).
    ``make_config`` raises ``ValueError`` or ``TypeError`` for a bad option.
    """
    defaults: dict[int, list[str]] = {}

    def default_deck(slot: int) -> list[str]:
        if slot not in defaults:
            defaults[slot] = adapter(slot).default_deck()
        return list(defaults[slot])

    return make_config(
        team_sizes,
        pools,
        decks,
        max_team_turns,
        duel_cap,
        implemented=IMPLEMENTED,
        default_deck=default_deck,
        resolve_deck=lambda slot, value, label: adapter(slot).resolve_deck(value, label),
    )
