"""deckgym environments: ``envs.make(name, **kwargs)`` and ``envs.names()``.

Importing this package also registers every ruleset (``envs.games``) in PettingZoo's own
registry, so ``pettingzoo.make("aec", "deckgym/medarot_ocg-v1", mode="advance")`` works too, and
each variant with Gymnasium (``gym_ids()``: ``gymnasium.make("deckgym/MedarotOCG-beginner-v1")``).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from deckgym.envs import games


def names() -> list[str]:
    """Registered environment names (``envs.games``: each ruleset's declaration)."""
    return sorted(g.name for g in games.games())


def _module(name: str) -> Any:
    """The module of registered environment ``name``; ``KeyError`` naming a renamed or unknown one."""
    return importlib.import_module(games.game(name).module)


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
    return games.game(name).ruleset(**rules)


def vector(name: str, num_envs: int = 64, opponent: Any = "random", **kwargs: Any) -> Any:
    """``num_envs`` games of ``name`` stepped in one call: a Gymnasium ``VectorEnv`` (``envs.batch``).

    The learner holds a seat in each game and ``opponent`` (``"random"``, an agent spec such as
    ``"heuristic"``, or a function of the game index returning an agent) plays the others;
    ``workers=K`` splits the games over ``K`` processes. The other keywords are the ruleset's
    options and ``BatchEnv``'s (``learner_seat``, ``skip_forced``, ``illegal_action``, ``copy``).
    """
    from deckgym.envs.batch import vector as batched

    return batched(name, num_envs, opponent, **kwargs)


def family(name: str) -> str:
    """The env's family without its version: ``"amalogs_v2"`` -> ``"amalogs"``."""
    base, sep, version = name.rpartition("_v")
    return base if sep and version.isdigit() else name


def _register_with_pettingzoo(game: games.Game) -> None:
    """``pettingzoo.make("aec", "deckgym/<family>-v<version>")`` for ``game`` (called by ``games.register``)."""
    try:
        from pettingzoo import aec_registry, register
    except ImportError:  # an older PettingZoo without a registry
        return
    env_id = f"deckgym/{game.family}-v{game.version}"
    if env_id not in aec_registry:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            register("aec", env_id, entry_point=f"{game.module}:env")


def gym_ids() -> dict[str, tuple[str, dict[str, Any]]]:
    """Gymnasium id -> (env name, options), one per variant of every game (``Game.gym_id``).

    Importing ``deckgym.envs`` registers each with Gymnasium (entry point ``deckgym.gym_entry:make``,
    named as a string so that the engines import nothing above them): one learner against the heuristic (``gymnasium.make(id, opponent="random")`` for another agent).
    """
    return {g.gym_id(v): (g.name, dict(v.options)) for g in games.games() for v in g.variants}


def _register_with_gymnasium(game: games.Game) -> None:
    """``gymnasium.make("deckgym/MedarotOCG-beginner-v1")`` and the other ids of ``game``'s variants."""
    import gymnasium

    for variant in game.variants:
        env_id = game.gym_id(variant)
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="deckgym.gym_entry:make",
                vector_entry_point="deckgym.gym_entry:make_vector",
                kwargs={"env_name": game.name, **variant.options},
            )


games.on_register(_register_with_pettingzoo)
games.on_register(_register_with_gymnasium)
