"""Agents that play deckgym environments: ``agents.make(spec, env_name)``.

Specs: ``"random"``, ``"heuristic"`` (the ruleset's rule-of-thumb player) and
``"ppo:PATH"`` (a trained MaskablePPO model, greedy). Every agent offers
``act(observation, action_mask) -> int`` and ``reset(seed)``; agents that read the engine
(the heuristics) are attached to an env with ``agents.base.bind(agent, env)``.
"""

from __future__ import annotations

import importlib
from typing import Any

HEURISTICS = {
    "medarot_ocg_v0": "agents.heuristic.medarot_ocg:MedarotHeuristic",
    "medarot_parts_v0": "agents.heuristic.medarot_parts:PartsHeuristic",
    "mow_v0": "agents.heuristic.mow:MowHeuristic",
    "amalogs_v0": "agents.heuristic.amalogs:AmalogsHeuristic",
}


def make(spec: str, env_name: str, seed: int | None = None, **env_kwargs: Any) -> Any:
    """Create the agent named by ``spec`` for environment ``env_name``."""
    if spec == "random":
        from agents.random_agent import RandomAgent

        return RandomAgent(seed=seed)
    if spec == "heuristic":
        if env_name not in HEURISTICS:
            raise KeyError(f"no heuristic agent for {env_name!r}; known: {', '.join(HEURISTICS)}")
        module, _, cls = HEURISTICS[env_name].partition(":")
        return getattr(importlib.import_module(module), cls)(seed=seed)
    if spec.startswith("ppo:"):
        from agents.ppo import PPOAgent

        return PPOAgent(spec[4:])
    raise ValueError(f"unknown agent spec {spec!r}; use 'random', 'heuristic' or 'ppo:PATH'")
