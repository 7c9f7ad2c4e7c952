"""Agent specs inside the batched env: ``agents.vector(name, num_envs, opponent="heuristic")``.

``envs.vector`` (``envs.batch.BatchEnv``) steps many games with their opponents inside, but
the envs layer imports no agent; this module builds the opponents from specs
(``agents.make``) and hands them down. A frozen policy (``ppo:PATH``) keeps nothing between
calls, so every game of a process shares one loaded copy; every other spec builds one agent
per game, seeded with the game's index.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def spec_maker(spec: str, env_name: str, options: dict[str, Any]) -> Callable[[int], Any]:
    """A function of the game index that returns the agent of ``spec`` for that game."""
    from deckgym.agents import make

    make(spec, env_name, seed=0, **options)  # a bad spec fails here, once, with make's own error
    if spec.startswith("ppo:"):
        shared: dict[str, Any] = {}

        def frozen(_index: int) -> Any:
            if "agent" not in shared:
                shared["agent"] = make(spec, env_name, seed=0, **options)
            return shared["agent"]

        return frozen
    return lambda index: make(spec, env_name, seed=index, **options)


def vector(env_name: str, num_envs: int = 64, opponent: Any = "heuristic", **kwargs: Any) -> Any:
    """``envs.vector`` whose opponents may be agent specs (``"heuristic"``, ``"search:4"``, ``"ppo:PATH"``).

    ``opponent`` may also be a list of specs (a pool, with ``weights=``); the other keywords
    are ``envs.vector``'s (``workers``, ``learner_seat``, ``shaping``...) and the env's options.
    """
    from deckgym.envs.batch import vector as batched

    return batched(env_name, num_envs, opponent, specs=spec_maker, **kwargs)
