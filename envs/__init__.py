"""deckgym environments: ``envs.make(name, **kwargs)`` and ``envs.names()``.

Importing this package also registers every ruleset in PettingZoo's own registry, so
``pettingzoo.make("aec", "deckgym/medarot_ocg-v1", mode="advance")`` works too.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

_REGISTRY = {
    "medarot_ocg_v1": "deckgym.envs.medarot_ocg_v1",
    "medarot_parts_v1": "deckgym.envs.medarot_parts_v1",
    "mow_v1": "deckgym.envs.mow_v1",
    "amalogs_v2": "deckgym.envs.amalogs_v2",
}


#: Ids that a newer version replaced: old id -> (new id, what changed).
RENAMED = {
    "medarot_ocg_v0": (
        "medarot_ocg_v1",
        "its starter decks were rebalanced and its observation grew from 4,761 to 4,813 entries",
    ),
    "medarot_parts_v0": ("medarot_parts_v1", "its three starter decks were rebalanced"),
    "amalogs_v1": (
        "amalogs_v2",
        (
            "its cross-game duels were calibrated (spec D43): new nominal lives, stand-in and base units, and"
            " a defended base in a duel loses 1 life (a siege)"
        ),
    ),
    "mow_v0": (
        "mow_v1",
        "its four starter decks were rebalanced and a countered summon now resolves its on-entry effect (D28)",
    ),
}


def names() -> list[str]:
    """Registered environment names."""
    return sorted(_REGISTRY)


def _module(name: str) -> Any:
    """The module of registered environment ``name``; ``KeyError`` naming a renamed or unknown one."""
    if name in RENAMED:
        new, why = RENAMED[name]
        raise KeyError(f"environment {name!r} is now {new!r}: {why}")
    if name not in _REGISTRY:
        raise KeyError(f"unknown environment {name!r}; known: {', '.join(names())}")
    return importlib.import_module(_REGISTRY[name])


def make(name: str, **kwargs: Any) -> Any:
    """Create environment ``name`` (e.g. ``"medarot_ocg_v1"``) with its keyword arguments."""
    return _module(name).env(**kwargs)


#: Options of the env alone (how it renders, what an illegal action does): no part of the rules.
ENV_ONLY_OPTIONS = ("render_mode", "illegal_action")


def ruleset(name: str, **kwargs: Any) -> Any:
    """The rules of environment ``name`` with these options, without building an env.

    The same object ``make(name, **kwargs).unwrapped.ruleset`` is (one per configuration); the
    options of the env alone (``ENV_ONLY_OPTIONS``) are accepted and play no part.
    """
    rules = {k: v for k, v in kwargs.items() if k not in ENV_ONLY_OPTIONS}
    return _module(name).ruleset(**rules)


def family(name: str) -> str:
    """The env's family without its version: ``"amalogs_v2"`` -> ``"amalogs"``."""
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


def _gym_ids() -> dict[str, tuple[str, dict[str, Any]]]:
    """Gymnasium id -> (env name, options), one per variant; the id's version is the env's."""
    variants: list[tuple[str, str, dict[str, Any]]] = [
        *(("MedarotOCG-" + m, "medarot_ocg_v1", {"mode": m}) for m in ("beginner", "normal", "advance")),
        ("MedarotParts", "medarot_parts_v1", {}),
        ("MasterOfTheWorld", "mow_v1", {}),
        *((f"Amalogs-{n}v{n}", "amalogs_v2", {"team_sizes": (n, n)}) for n in (1, 2, 3)),
    ]
    return {f"deckgym/{title}-v{name.rpartition('_v')[2]}": (name, kw) for title, name, kw in variants}


#: Gymnasium ids of the single-agent envs (the learner against the heuristic), one per variant.
GYM_IDS = _gym_ids()


def _register_with_gymnasium() -> None:
    """``gymnasium.make("deckgym/MedarotOCG-beginner-v1")`` and the others of ``GYM_IDS``.

    Each is ``deckgym.agents.training.selfplay_env.gym_env``: one learner against an agent
    (``opponent="heuristic"`` by default; ``gymnasium.make(id, opponent="random")``).
    """
    import gymnasium

    for env_id, (name, kwargs) in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="deckgym.agents.training.selfplay_env:gym_env",
                kwargs={"env_name": name, **kwargs},
            )


_register_with_pettingzoo()
_register_with_gymnasium()
