"""Core-game adapters by ruleset slot (D15, D31).

Each ruleset used in AMALOGS has one adapter module here; ``adapter(slot)`` builds it on
first use. A ruleset whose engine has no adapter is not offered in any pool.
"""

from __future__ import annotations

import functools
import importlib

from envs.amalogs.core_adapter import CoreAdapter

#: slot -> (module, factory name, factory argument)
_ADAPTERS: dict[int, tuple[str, str, str]] = {
    0: ("envs.amalogs.cores.medarot_ocg", "MedarotCore", "beginner"),
    1: ("envs.amalogs.cores.medarot_ocg", "MedarotCore", "advance"),
    2: ("envs.amalogs.cores.medarot_parts", "PartsCore", ""),
    3: ("envs.amalogs.cores.mow", "MowCore", ""),
    4: ("envs.amalogs.cores.medarot_ocg", "MedarotCore", "normal"),
}

#: Ruleset slots that can be played, in slot order.
IMPLEMENTED: tuple[int, ...] = tuple(sorted(_ADAPTERS))


@functools.cache
def adapter(slot: int) -> CoreAdapter:
    """The adapter of ruleset ``slot``."""
    module, factory, arg = _ADAPTERS[slot]
    return getattr(importlib.import_module(module), factory)(slot, arg)  # type: ignore[no-any-return]
