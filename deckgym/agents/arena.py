"""Matches between two agents: seat-swapped pairs of games with shared seeds, Wilson intervals.

Game ``2k`` and ``2k + 1`` use the same seed (so the same decks and shuffles) with the
agents' seats swapped, which cancels most of the luck of the draw. In a team environment
(AMALOGS) each agent plays every seat of one team, and the teams swap within a pair. Games
run over worker processes (or a Ray cluster, see ``pool``); results do not depend on the
number of workers or the backend.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

Z95 = 1.959963984540054

#: The most games one match, rating, deck test or deck search plays: days of play even for the
#: fastest agents, so a mistyped count is refused at once instead of starting work that never ends.
MAX_GAMES = 10_000_000


def count_text(value: int) -> str:
    """A count as typed, or its number of digits when it is too long to print."""
    text = str(value)
    return text if len(text) <= 24 else f"a number of {len(text)} digits"


def check_most_games(games: int, name: str = "games") -> None:
    """``ValueError`` naming ``name`` when ``games`` is above ``MAX_GAMES``."""
    if games > MAX_GAMES:
        raise ValueError(f"{name} must be at most {MAX_GAMES:,}, got {count_text(games)}")


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (default 95%)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def pair_interval(means: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Interval of the mean of per-pair scores (each in 0..1); (0, 1) with fewer than 2 pairs.

    The normal approximation over pairs, the unit of independent evidence; when every pair
    scored the same (no spread to estimate, e.g. a side that won every game), the Wilson
    interval of that many pairs.
    """
    n = len(means)
    if n < 2:
        return (0.0, 1.0)
    mu = sum(means) / n
    var = sum((m - mu) ** 2 for m in means) / (n - 1)
    if var == 0:
        return wilson(mu * n, n, z)
    half = z * math.sqrt(var / n)
    return (max(0.0, mu - half), min(1.0, mu + half))


@dataclass
class MatchResult:
    """Outcome of a match from agent A's point of view."""

    agent: str
    opponent: str
    env: str
    games: int
    wins: int
    draws: int
    losses: int
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    #: Per seat-swapped pair, agent A's points in its two games (1 win, 0.5 draw, 0 loss).
    pairs: list[tuple[float, float]] = field(default_factory=list, repr=False)

    @property
    def win_rate(self) -> float:
        """Wins over games."""
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def score(self) -> float:
        """(wins + draws / 2) / games."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def score_ci95(self) -> tuple[float, float]:
        """95% interval of the score over the seat-swapped pairs."""
        return pair_interval([(a + b) / 2 for a, b in self.pairs])

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe summary with rates and intervals (the score's over pairs, the rates' Wilson)."""
        d = asdict(self)
        del d["pairs"]
        d["score"] = self.score
        d["score_ci95"] = list(self.score_ci95)
        n = self.games
        for key, k in (("win", self.wins), ("draw", self.draws), ("loss", self.losses)):
            lo, hi = wilson(k, n)
            d[f"{key}_rate"] = k / n if n else 0.0
            d[f"{key}_ci95"] = [lo, hi]
        return d

    def line(self) -> str:
        """One readable line."""
        lo, hi = self.score_ci95
        return (
            f"{self.agent} vs {self.opponent}: {self.games} games, score {self.score:.1%} "
            f"[{lo:.1%}, {hi:.1%}], win {self.win_rate:.1%}, draw {self.draws / max(1, self.games):.1%}, "
            f"loss {self.losses / max(1, self.games):.1%}"
        )


def play_game(env: Any, agents: list[Any], seed: int) -> list[float]:
    """One game with ``agents[i]`` in seat i; returns the per-seat returns.

    An agent that does not read its observation (``agents.base.needs_observation``) gets None
    and the legal-action mask alone, so its decisions skip the encoding.
    """
    env.reset(seed=seed)
    return play_on(env, agents, seed)


def play_on(env: Any, agents: list[Any], seed: int) -> list[float]:
    """Play the game that ``env.reset(seed=seed)`` has just set up, as ``play_game`` does.

    For callers that set the new game up further before it is played; the per-seat returns.
    """
    from deckgym.agents.base import bind, needs_observation

    for i, a in enumerate(agents):
        bind(a, env)
        a.reset(seed=seed * 7919 + i)
    raw = env.unwrapped
    seat_of = {name: i for i, name in enumerate(env.possible_agents)}
    reads = [needs_observation(a) for a in agents]
    for name in env.agent_iter():
        seat = seat_of[name]
        if reads[seat]:
            obs, _r, term, trunc, _i = env.last()
        else:
            _o, _r, term, trunc, _i = env.last(observe=False)
        if term or trunc:
            env.step(None)
        elif reads[seat]:
            env.step(agents[seat].act(obs["observation"], obs["action_mask"]))
        else:
            env.step(agents[seat].act(None, raw.encoder.action_mask(raw.game)))
    return list(raw.game.returns())


def plays_policy(spec: str) -> bool:
    """Whether the agent ``spec`` runs a policy on torch: ``ppo:...``, ``search:W:ppo:...``, the AMALOGS composite."""
    return "ppo:" in spec or spec.startswith("composite")


def one_torch_thread(*specs: str) -> None:
    """In a worker process, give torch one thread when a policy plays (workers split the cores).

    A worker forked from a process that ran torch also needs it, or its first operation waits
    forever on the thread pool it inherited. torch is imported only then: a worker of heuristic
    or random agents never pays for it.
    """
    if any(plays_policy(spec) for spec in specs) or "torch" in sys.modules:
        import torch

        torch.set_num_threads(1)


def _play_chunk(args: tuple[str, str, str, dict[str, Any], list[int]]) -> list[tuple[float, float]]:
    spec_a, spec_b, env_name, env_kwargs, pairs = args
    from deckgym import agents as agent_lib
    from deckgym import envs

    one_torch_thread(spec_a, spec_b)
    # an agent that sends an action outside the mask is a bug to see, not a game it loses
    env = envs.make(env_name, **{"illegal_action": "raise", **env_kwargs})
    a = agent_lib.make(spec_a, env_name, seed=1, **env_kwargs)
    b = agent_lib.make(spec_b, env_name, seed=2, **env_kwargs)
    return pair_points(env, a, b, pairs)


def sides(env: Any) -> tuple[list[int], list[int]]:
    """The seats of the two sides: one seat each, or the two teams of a team environment."""
    n = len(env.possible_agents)
    sizes = getattr(getattr(env.unwrapped.ruleset, "config", None), "team_sizes", None)
    first = int(sizes[0]) if sizes else 1  # team A's players come first
    return list(range(first)), list(range(first, n))


def points(r: float) -> float:
    """A game's points from its return: 1 win, 0.5 draw, 0 loss."""
    return 1.0 if r > 0 else 0.0 if r < 0 else 0.5


def pair_points(env: Any, a: Any, b: Any, seeds: Iterable[int]) -> list[tuple[float, float]]:
    """Per seed, ``a``'s points in a pair of games with the sides swapped within the pair.

    ``a`` plays every seat of one side and ``b`` every other seat (teammates share an agent).
    """
    side_a, side_b = sides(env)
    n = len(env.possible_agents)
    out = []
    for seed in seeds:
        pair = []
        for mine in (side_a, side_b):
            seats = [a if i in mine else b for i in range(n)]
            pair.append(points(play_game(env, seats, seed)[mine[0]]))
        out.append((pair[0], pair[1]))
    return out


def tally(pairs: Iterable[tuple[float, float]]) -> tuple[int, int, int]:
    """Wins, draws and losses in pair points."""
    games = [x for p in pairs for x in p]
    return (sum(x == 1.0 for x in games), sum(x == 0.5 for x in games), sum(x == 0.0 for x in games))


def play_pairs(env: Any, a: Any, b: Any, seeds: Iterable[int]) -> tuple[int, int, int]:
    """Wins, draws and losses of ``a`` over pairs of games, one pair per seed (``pair_points``)."""
    return tally(pair_points(env, a, b, seeds))


#: The backends ``pool`` knows.
BACKENDS = ("process", "ray")
_POOLS: list[Any] = []


class RayPool:
    """Runs jobs as Ray tasks, on the cluster of ``ray.init()`` (started locally if none is)."""

    def __init__(self, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ImportError(
                "the ray backend needs Ray: pip install -e '.[distributed]' (or pip install ray)"
            ) from None
        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            # RAY_ADDRESS, when set, makes this join that cluster, whose nodes give the CPUs
            # (Ray refuses num_cpus when it joins); otherwise a local one of ``workers`` CPUs starts
            joining = bool(os.environ.get("RAY_ADDRESS"))
            cpus = {} if joining else {"num_cpus": workers or None}
            ray.init(**cpus, include_dashboard=False, log_to_driver=False)
        self.tasks: dict[Callable[[Any], Any], Any] = {}

    def map(self, work: Callable[[Any], Any], jobs: Iterable[Any]) -> Iterator[Any]:
        """The results of ``work`` over ``jobs``, in order, all submitted at once."""
        task = self.tasks.get(work)
        if task is None:
            task = self.tasks[work] = self.ray.remote(work)
        refs = [task.remote(job) for job in jobs]
        return (self.ray.get(ref) for ref in refs)

    def shutdown(self) -> None:
        """Stop the local Ray runtime if this pool started it."""
        if self.started:
            self.ray.shutdown()


@contextmanager
def pool(backend: str = "process", workers: int | None = None) -> Iterator[Any]:
    """Run every ``run_chunks`` (every match, rating, test and search) inside on one pool.

    ``"process"``: ``workers`` local processes (None or 0: every core), started once and reused
    instead of once per match. ``"ray"``: Ray tasks on the cluster ``ray.init()`` finds (the
    ``distributed`` extra). Both give the same results for the same seeds.

    Raises:
        ValueError: an unknown backend.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    made: Any = (
        RayPool(workers)
        if backend == "ray"
        else ProcessPoolExecutor(max_workers=worker_count(workers, 1 << 30))
    )
    _POOLS.append(made)
    try:
        yield made
    finally:
        _POOLS.pop()
        made.shutdown()


def run_chunks(
    work: Callable[[Any], Any],
    jobs: list[Any],
    workers: int | None = None,
    done: Callable[[Any, Any], None] | None = None,
) -> list[Any]:
    """``[work(job) for job in jobs]`` over worker processes, in order; ``done(job, result)`` as each ends.

    ``work`` must be a module-level function (it is pickled to the workers). Inside ``pool``
    the jobs go to that pool; otherwise a process pool of ``workers`` runs them, and with one
    worker (or one job) everything runs in this process. Results never depend on ``workers``.
    """
    results: Iterable[Any]
    own = None
    n = worker_count(workers, len(jobs))
    if _POOLS:
        results = _POOLS[-1].map(work, jobs)
    elif n == 1:
        results = map(work, jobs)
    else:
        own = ProcessPoolExecutor(max_workers=n)
        results = own.map(work, jobs)
    out = []
    try:
        for job, res in zip(jobs, results, strict=True):
            out.append(res)
            if done is not None:
                done(job, res)
    finally:
        if own is not None:
            own.shutdown()
    return out


def chunked(seeds: list[int], workers: int | None) -> list[list[int]]:
    """Seeds split into about four chunks per worker (for progress and load balance)."""
    return _split(seeds, max(1, min(len(seeds), worker_count(workers, len(seeds)) * 4)))


def worker_count(workers: int | None, jobs: int) -> int:
    """Processes to use: ``workers`` (None or 0: every core), at most one per job, at least one."""
    return max(1, min(workers or os.cpu_count() or 1, jobs))


def match(
    agent: str,
    opponent: str,
    env_name: str,
    games: int = 400,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    **env_kwargs: Any,
) -> MatchResult:
    """Play ``games`` games (rounded up to pairs) between two agent specs.

    Raises:
        ValueError: ``games`` is above ``MAX_GAMES``.
    """
    check_most_games(games)
    pairs = [seed + k for k in range((games + 1) // 2)]
    jobs = [(agent, opponent, env_name, env_kwargs, c) for c in chunked(pairs, workers)]
    tick = None if progress is None else (lambda job, _res: progress(2 * len(job[4])))
    played = [p for chunk in run_chunks(_play_chunk, jobs, workers, tick) for p in chunk]
    w, d, lo = tally(played)
    return MatchResult(agent, opponent, env_name, 2 * len(pairs), w, d, lo, dict(env_kwargs), played)


def _split(xs: list[int], k: int) -> list[list[int]]:
    size = math.ceil(len(xs) / k)
    return [xs[i : i + size] for i in range(0, len(xs), size)]
