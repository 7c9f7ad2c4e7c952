"""Agents that play deckgym environments: ``agents.make(spec, env_name)``.

Specs: ``"random"``, ``"heuristic"`` (the ruleset's rule-of-thumb player), ``"search"`` or
``"search:WORLDS"`` (the heuristic improved by determinized Monte Carlo look-ahead, 4 worlds
by default; see ``agents.search``), ``"search:WORLDS:ppo:PATH"`` or
``"search:WORLDS:ppo:pretrained"`` (the same look-ahead over a trained policy's likeliest
actions: ``agents.search.PolicySearchAgent``), ``"ppo:PATH"`` (a trained MaskablePPO model, greedy) and
``"ppo:pretrained"`` (the model shipped for the env and mode, ``agents.pretrained``; in AMALOGS
the composite below), and in AMALOGS ``"composite"`` or ``"composite:SLOTS"`` (the heuristic on
the map, the shipped card models at the tables: ``agents.composite``). Every agent offers
``act(observation, action_mask) -> int`` and ``reset(seed)``; agents that read the engine
(the heuristics) are attached to an env with ``agents.base.bind(agent, env)``.
"""

from __future__ import annotations

import importlib
from typing import Any

#: The most worlds ``search:WORLDS`` samples per decision (each costs a rollout of every legal
#: move; the strongest level uses 16).
MAX_WORLDS = 256


def vector(env_name: str, num_envs: int = 64, opponent: Any = "heuristic", **kwargs: Any) -> Any:
    """``envs.vector`` whose opponents may be agent specs (``"heuristic"``, ``"search:4"``, ``"ppo:PATH"``).

    ``num_envs`` games stepped in one call (``envs.batch.BatchEnv``): the envs layer imports no
    agent, so the agents of ``opponent`` (a spec, or a list of them with ``weights=``) are built
    here (``spec_maker``) and handed down. The other keywords are ``envs.vector``'s
    (``workers``, ``learner_seat``, ``shaping``...) and the env's options.
    """
    from deckgym.envs.batch import vector as batched

    return batched(env_name, num_envs, opponent, specs=spec_maker, **kwargs)


def spec_maker(spec: str, env_name: str, options: dict[str, Any]) -> Any:
    """A function of a game's index that returns the agent of ``spec`` for that game of a batch.

    A frozen policy (``ppo:PATH``) keeps nothing between calls, so every game of a process
    shares one loaded copy; every other spec builds one agent per game, seeded with its index.
    A bad spec fails here, once, with ``make``'s own error (the agent made to find out is the
    frozen policy's shared copy).
    """
    first = make(spec, env_name, seed=0, **options)
    if spec.startswith("ppo:"):
        return lambda _index: first
    return lambda index: make(spec, env_name, seed=index, **options)


def make(spec: str, env_name: str, seed: int | None = None, **env_kwargs: Any) -> Any:
    """Create the agent named by ``spec`` for environment ``env_name``."""
    if spec == "random":
        from deckgym.agents.random_agent import RandomAgent

        return RandomAgent(seed=seed)
    if spec == "heuristic":
        return _heuristic(env_name, seed)
    if spec == "search" or spec.startswith("search:"):
        return _search(spec, env_name, seed, env_kwargs)
    if (
        spec == "composite"
        or spec.startswith("composite:")
        or (spec == "ppo:pretrained" and env_name in _composite_envs())
    ):
        return _composite(spec, env_name, seed, env_kwargs)
    if spec == "ppo:pretrained":
        from deckgym.agents.ppo import PPOAgent
        from deckgym.agents.pretrained import SPEC, model_path

        agent = PPOAgent(model_path(env_name, env_kwargs))
        agent.name = SPEC
        return agent
    if spec.startswith("ppo:"):
        from deckgym.agents.ppo import PPOAgent

        agent = PPOAgent(spec[4:])
        # a map policy (agents.training.team_env) plays inside the composite
        if env_name in _composite_envs() and _reads_map_view(agent, env_name, env_kwargs):
            from deckgym.agents.composite import DEFAULT_SLOTS, CompositeAgent

            team = CompositeAgent(seed=seed, slots=DEFAULT_SLOTS, map_model=agent)
            team.name = agent.name
            return team
        return agent
    raise ValueError(
        f"unknown agent spec {spec!r}; use 'random', 'heuristic', 'search[:WORLDS]', "
        "'search:WORLDS:ppo:PATH', 'ppo:PATH' or (AMALOGS) 'composite[:SLOTS]'"
    )


def _search(spec: str, env_name: str, seed: int | None, env_kwargs: dict[str, Any]) -> Any:
    """``search[:WORLDS[:ppo:PATH]]``: the look-ahead over the heuristic, with a policy prior if named."""
    from deckgym.agents.search import PolicySearchAgent, SearchAgent

    worlds, _, prior = spec.partition(":")[2].partition(":")
    if worlds and not (worlds.isdigit() and len(worlds) <= 6 and int(worlds) <= MAX_WORLDS):
        raise ValueError(
            f"agent spec {spec[:40]!r}: the number of worlds must be a whole number up to "
            f"{MAX_WORLDS}, as in 'search:8'"
        )
    rollout = make("heuristic", env_name, seed=seed)
    if not prior:
        return SearchAgent(rollout, int(worlds or 4), seed=seed)
    if not prior.startswith("ppo:"):  # "search:WORLDS:ppo:PATH": the policy proposes the candidates
        raise ValueError(
            f"agent spec {spec!r}: the prior after the worlds must be a policy, "
            "as in 'search:4:ppo:pretrained' or 'search:4:ppo:PATH'"
        )
    return PolicySearchAgent(
        rollout, make(prior, env_name, seed=seed, **env_kwargs), int(worlds or 4), seed=seed
    )


def _composite(spec: str, env_name: str, seed: int | None, env_kwargs: dict[str, Any]) -> Any:
    """The composite agent of AMALOGS; ``ppo:pretrained`` puts the shipped map policy in it."""
    if env_name not in _composite_envs():
        raise ValueError(f"the composite agent plays {', '.join(_composite_envs())} only, not {env_name!r}")
    from deckgym.agents.composite import CompositeAgent, slots_for

    agent = CompositeAgent(seed=seed, slots=slots_for(spec))
    if spec == "ppo:pretrained":  # with the shipped map policy, where one is shipped
        from deckgym.agents.pretrained import MODELS

        path = MODELS / f"{env_name}.zip"
        if path.is_file():
            from deckgym.agents.ppo import PPOAgent

            policy = PPOAgent(path)
            if not _reads_map_view(policy, env_name, env_kwargs):
                raise ValueError(f"{path.name} does not read the map view of {env_name}: retrain it")
            agent.map_model = policy
        agent.name = spec
    return agent


def _heuristic(env_name: str, seed: int | None) -> Any:
    """The rule-of-thumb agent that ``env_name``'s declaration names (``envs.games.Game.heuristic``)."""
    from deckgym.envs.games import game, games

    path = game(env_name).heuristic
    if path is None:
        with_one = ", ".join(g.name for g in games() if g.heuristic)
        raise KeyError(f"no heuristic agent for {env_name!r}; rulesets with one: {with_one}")
    module, _, cls = path.partition(":")
    return getattr(importlib.import_module(module), cls)(seed=seed)


def _composite_envs() -> tuple[str, ...]:
    """The envs the composite agent plays (``agents.composite.ENVS``)."""
    from deckgym.agents.composite import ENVS

    return ENVS


def _reads_map_view(policy: Any, env_name: str, env_kwargs: dict[str, Any]) -> bool:
    """Whether a ``PPOAgent`` reads the map view of ``env_name`` (a map policy, not a whole-game one)."""
    from deckgym import envs
    from deckgym.agents.composite import map_size

    return bool(policy._size == map_size(envs.make(env_name, **env_kwargs)))
