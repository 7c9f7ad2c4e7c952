"""deckgym environments: ``envs.make(name, **kwargs)`` and ``envs.names()``.

Importing this package also registers every ruleset in PettingZoo's own registry, so
``pettingzoo.make("aec", "deckgym/medarot_ocg-v0", mode="advance")`` works too.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

_REGISTRY = {
    "medarot_ocg_v0": "envs.medarot_ocg_v0",
    "medarot_parts_v0": "envs.medarot_parts_v0",
    "mow_v0": "envs.mow_v0",
    "amalogs_v1": "envs.amalogs_v1",
}


def names() -> list[str]:
    """Registered environment names."""
    return sorted(_REGISTRY)


def make(name: str, **kwargs: Any) -> Any:
    """Create environment ``name`` (e.g. ``"medarot_ocg_v0"``) with its keyword arguments."""
    if name not in _REGISTRY:
        raise KeyError(f"unknown environment {name!r}; known: {', '.join(names())}")
    return importlib.import_module(_REGISTRY[name]).env(**kwargs)


def family(name: str) -> str:
    """The env's family without its version: ``"amalogs_v1"`` -> ``"amalogs"``."""
    base, sep, version = name.rpartition("_v")
    return base if sep and version.isdigit() else name


def _pettingzoo_id(name: str) -> str:
    base, _, version = name.rpartition("_v")
    return f"deckgym/{base}-v{version}"


def _register_with_pettingzoo() -> None:
    try:
        from pettingzoo import aec_registry, register
    except ImportError:  # an older PettingZoo without a registry
        return
    for name, module in _REGISTRY.items():
        env_id = _pettingzoo_id(name)
        if env_id not in aec_registry:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                register("aec", env_id, entry_point=f"{module}:env")


_register_with_pettingzoo()
