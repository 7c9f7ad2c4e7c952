"""Matches between teams of agents for team environments (AMALOGS): one agent spec per team.

Every player of a team gets its own instance of the team's agent spec. Games ``2k`` and
``2k + 1`` share a seed with the teams swapped (the agent under test plays team A, then team
B), as ``agents.arena`` does for two seats; results carry Wilson intervals.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from agents.arena import MatchResult, _split, play_game


def team_seats(env: Any) -> tuple[list[int], list[int]]:
    """Seats of team A and team B (team A's players come first)."""
    na, _ = env.unwrapped.ruleset.config.team_sizes
    n = len(env.possible_agents)
    return list(range(na)), list(range(na, n))


def play_team_pairs(
    env: Any, spec_a: str, spec_b: str, env_name: str, seeds: Iterable[int]
) -> tuple[int, int, int]:
    """Wins, draws and losses of team ``spec_a`` over pairs of games (teams swapped within a pair)."""
    import agents as agent_lib

    team_a, team_b = team_seats(env)
    n = len(env.possible_agents)
    w = d = lo = 0
    for seed in seeds:
        for seats_of_a in (team_a, team_b):
            players = [
                agent_lib.make(spec_a if i in seats_of_a else spec_b, env_name, seed=seed * 31 + i)
                for i in range(n)
            ]
            r = play_game(env, players, seed)[seats_of_a[0]]
            w += r > 0
            lo += r < 0
            d += r == 0
    return w, d, lo


def _play_chunk(args: tuple[str, str, str, dict[str, Any], list[int]]) -> tuple[int, int, int]:
    spec_a, spec_b, env_name, env_kwargs, seeds = args
    import envs

    env = envs.make(env_name, **env_kwargs)
    return play_team_pairs(env, spec_a, spec_b, env_name, seeds)


def team_match(
    agent: str,
    opponent: str,
    env_name: str = "amalogs_v0",
    games: int = 400,
    seed: int = 0,
    workers: int | None = None,
    **env_kwargs: Any,
) -> MatchResult:
    """Play ``games`` games (rounded up to pairs) between a team of ``agent`` and a team of ``opponent``."""
    pairs = [seed + k for k in range((games + 1) // 2)]
    workers = max(1, min(workers or os.cpu_count() or 1, len(pairs)))
    jobs = [
        (agent, opponent, env_name, env_kwargs, c)
        for c in _split(pairs, max(1, min(len(pairs), workers * 4)))
    ]
    totals = [0, 0, 0]
    if workers == 1:
        results = list(map(_play_chunk, jobs))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_play_chunk, jobs))
    for res in results:
        for i in range(3):
            totals[i] += res[i]
    return MatchResult(agent, opponent, env_name, 2 * len(pairs), *totals, dict(env_kwargs))
