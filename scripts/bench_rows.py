"""The construction and agent rows of ``scripts/bench.py``, also runnable against another copy of the code.

- construction: ``env()`` plus ``reset()`` per second;
- fresh envs: random legal games through the AEC API with a new env for every game;
- heuristic: heuristic-vs-heuristic games per second (and their decisions per second);
- search: decisions per second of ``search:WORLDS`` (seat 0) against the heuristic;
- clone: ``state.clone()`` per second over the positions of random games (the search clones
  constantly), as a ratio to connect_four's random AEC decisions per second.

Each is timed in this process with only the public API (``envs.make``, ``agents.make``), so
the same functions time an older copy of the package: ``--tree DIR`` puts ``DIR`` first on
the import path and prints the rows as JSON. ``bench.py --against DIR`` does this in a
subprocess beside every round of its own, for a before/after table from one run.

    python scripts/bench_rows.py --tree ../old-checkout --envs mow_v1 --seconds 2
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np


def aec_loop(
    make: Callable[[], Any],
    seconds: float,
    seed0: int,
    nested: list[int] | None = None,
    fresh: bool = False,
) -> tuple[int, int, float]:
    """Random legal games through ``env.last()`` / ``env.step()``: (decisions, games, seconds).

    With ``nested`` (a one-element list), the decisions taken inside a core game (decision
    name ``OUTER/INNER``) are counted into ``nested[0]``. With ``fresh``, every game is played
    in a new env (``make()`` and ``reset`` are then part of the time).
    """
    env = make()
    rng = random.Random(seed0)
    decisions = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        if fresh and games:
            env = make()
        env.reset(seed=seed0 + games)
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else _i["action_mask"]
            if nested is not None and "/" in env.unwrapped.game.decision:
                nested[0] += 1
            env.step(int(rng.choice(np.flatnonzero(mask))))
            decisions += 1
        games += 1
    return decisions, games, time.perf_counter() - t0


def construction_rate(make: Callable[[], Any], seconds: float, seed0: int) -> float:
    """``env()`` plus ``reset(seed)`` per second."""
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        make().reset(seed=seed0 + n)
        n += 1
    return n / (time.perf_counter() - t0)


def fresh_env_loop(make: Callable[[], Any], seconds: float, seed0: int) -> float:
    """Decisions per second of random legal games, building a new env for every game."""
    decisions, _games, spent = aec_loop(make, seconds, seed0, fresh=True)
    return decisions / spent


def clone_rate(make: Callable[[], Any], seconds: float, seed0: int, positions: int = 40) -> float:
    """``clone()`` of the engine state per second, over ``positions`` positions of random games."""
    states = []
    g = 0
    while len(states) < positions:
        env = make()
        env.reset(seed=seed0 + g)
        rng = random.Random(seed0 + g)
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            if rng.random() < 0.1:
                states.append(env.unwrapped.game.clone())
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        g += 1
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for st in states:
            st.clone()
        n += len(states)
    return n / (time.perf_counter() - t0)


class _Counted:
    """An agent that counts its decisions; every other attribute is the agent's own."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.calls = 0

    def act(self, observation: Any, action_mask: Any) -> int:
        self.calls += 1
        return int(self.agent.act(observation, action_mask))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)


def agent_games(
    name: str,
    kwargs: dict[str, Any],
    specs: tuple[str, str],
    seconds: float,
    seed0: int,
    count_seat: int | None,
) -> tuple[float, float]:
    """(games, decisions) per second of ``specs[0]`` (seat 0) against ``specs[1]`` (every other seat).

    With ``count_seat``, only that seat's decisions are timed and counted (a search agent's own
    time); otherwise whole games through ``agents.arena.play_game`` (each copy of the code its
    own loop, as its matches play), counting every decision of every seat.
    """
    from deckgym import agents, envs
    from deckgym.agents.base import bind

    decisions = games = 0
    spent = 0.0
    t0 = time.perf_counter()
    if count_seat is None:  # whole games through the package's own game loop, as matches play them
        from deckgym.agents.arena import play_game

        while time.perf_counter() - t0 < seconds:
            seed = seed0 + games
            env = envs.make(name, **kwargs)
            seated = [
                _Counted(agents.make(specs[0] if i == 0 else specs[1], name, seed=seed * 7 + i, **kwargs))
                for i in range(len(env.possible_agents))
            ]
            g0 = time.perf_counter()
            play_game(env, seated, seed)
            spent += time.perf_counter() - g0
            decisions += sum(p.calls for p in seated)
            games += 1
        return games / (time.perf_counter() - t0), decisions / max(1e-9, spent)
    while time.perf_counter() - t0 < seconds:
        seed = seed0 + games
        env = envs.make(name, **kwargs)
        env.reset(seed=seed)
        players = {}
        for i, a in enumerate(env.possible_agents):
            players[a] = bind(
                agents.make(specs[0] if i == 0 else specs[1], name, seed=seed * 7 + i, **kwargs), env
            )
            players[a].reset(seed=seed * 7 + i)
        for agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            if agent == env.possible_agents[count_seat]:
                a0 = time.perf_counter()
                action = players[agent].act(obs["observation"], obs["action_mask"])
                spent += time.perf_counter() - a0
                decisions += 1
            else:
                action = players[agent].act(obs["observation"], obs["action_mask"])
            env.step(int(action))
            if decisions and time.perf_counter() - t0 >= seconds:
                break  # a long game (a search seat in AMALOGS) stops with the time, not at its end
        else:
            games += 1
    return games / (time.perf_counter() - t0), decisions / max(1e-9, spent)


def rows(name: str, kwargs: dict[str, Any], seconds: float, seed0: int, worlds: int) -> dict[str, float]:
    """Every row of one variant; ``seconds`` for each measurement."""
    from deckgym import envs

    def make() -> Any:
        return envs.make(name, **kwargs)

    heur_games, heur_dec = agent_games(name, kwargs, ("heuristic", "heuristic"), seconds, seed0, None)
    _g, search_dec = agent_games(name, kwargs, (f"search:{worlds}", "heuristic"), seconds, seed0, 0)
    return {
        "constructions_per_s": construction_rate(make, seconds, seed0),
        "fresh_env_decisions_per_s": fresh_env_loop(make, seconds, seed0),
        "heuristic_games_per_s": heur_games,
        "heuristic_decisions_per_s": heur_dec,
        "search_decisions_per_s": search_dec,
        "clones_per_s": clone_rate(make, seconds, seed0),
    }


def reference_rows(seconds: float, seed0: int) -> dict[str, float]:
    """connect_four_v3's construction rate and its fresh-env game loop (the same-run reference)."""
    from pettingzoo.classic import connect_four_v3

    return {
        "constructions_per_s": construction_rate(connect_four_v3.env, seconds, seed0),
        "fresh_env_decisions_per_s": fresh_env_loop(connect_four_v3.env, seconds, seed0),
    }


def section(
    variants: list[tuple[str, str, dict[str, Any]]],
    seconds: float,
    rounds: int,
    worlds: int,
    aec_reference: float,
    against: Path | None = None,
) -> dict[str, Any]:
    """The rows of every ``(label, env, options)`` variant, median over ``rounds``, with their ratios.

    Construction and fresh-env rates are ratios to connect_four_v3's own (timed in every round);
    heuristic and search decisions per second are ratios to connect_four's random AEC decisions
    per second (``aec_reference``, from the main bench). With ``against``, the same rows of that
    copy of the code are timed in a subprocess in every round, and each row gets ``before``.
    """
    import statistics
    import subprocess

    per = seconds / max(1, rounds)
    mine: dict[str, list[dict[str, float]]] = {}
    theirs: dict[str, list[dict[str, float]]] = {}
    refs: list[dict[str, float]] = []
    for r in range(rounds):
        refs.append(reference_rows(per, 1000 * r))
        for label, name, kw in variants:
            print(f"agents round {r + 1}/{rounds}: {label}", file=sys.stderr)
            mine.setdefault(label, []).append(rows(name, kw, per, 1000 * r, worlds))
            if against is not None:
                proc = subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        "--tree",
                        str(against),
                        "--variants",
                        json.dumps([[name, kw]]),
                        "--seconds",
                        str(per),
                        "--seed",
                        str(1000 * r),
                        "--worlds",
                        str(worlds),
                    ],
                    capture_output=True,
                    text=True,
                    check=True,
                    cwd=str(against),
                )
                theirs.setdefault(label, []).append(next(iter(json.loads(proc.stdout).values())))

    def med(xs: list[dict[str, float]], key: str) -> float:
        return statistics.median(x[key] for x in xs)

    ref = {k: med(refs, k) for k in refs[0]}
    out: dict[str, Any] = {"reference": {"connect_four_v3": {**ref, "aec_decisions_per_s": aec_reference}}}
    for label, xs in mine.items():
        row = {k: med(xs, k) for k in xs[0]}
        row["ratio"] = {
            "constructions": row["constructions_per_s"] / ref["constructions_per_s"],
            "fresh_env": row["fresh_env_decisions_per_s"] / ref["fresh_env_decisions_per_s"],
            "heuristic": row["heuristic_decisions_per_s"] / aec_reference,
            "search": row["search_decisions_per_s"] / aec_reference,
            "clone": row["clones_per_s"] / aec_reference,
        }
        if label in theirs:
            before = {k: med(theirs[label], k) for k in theirs[label][0]}
            row["before"] = before
            row["speedup"] = {k: row[k] / before[k] for k in before if before[k] > 0}
        out[label] = row
    return out


def table(rows_: dict[str, Any]) -> list[str]:
    """The section's lines for the bench table."""
    ref = rows_["reference"]["connect_four_v3"]
    head = (
        f"{'construction and agents':<26}{'env()+reset/s':>14}{'x c4':>7}{'fresh-env dec/s':>16}{'x c4':>7}"
        f"{'heur games/s':>13}{'heur dec/s':>11}{'x c4':>7}{'search dec/s':>13}{'x c4':>9}"
        f"{'clones/s':>10}{'x c4':>7}"
    )
    lines = [head, "-" * len(head)]
    lines.append(
        f"{'connect_four_v3':<26}{ref['constructions_per_s']:>14,.0f}{'':>7}{ref['fresh_env_decisions_per_s']:>16,.0f}"
    )
    for label, r in rows_.items():
        if label == "reference":
            continue
        x = r["ratio"]
        lines.append(
            f"{label:<26}{r['constructions_per_s']:>14,.0f}{x['constructions']:>7.2f}"
            f"{r['fresh_env_decisions_per_s']:>16,.0f}{x['fresh_env']:>7.2f}{r['heuristic_games_per_s']:>13,.1f}"
            f"{r['heuristic_decisions_per_s']:>11,.0f}{x['heuristic']:>7.2f}{r['search_decisions_per_s']:>13,.1f}"
            f"{x['search']:>#9.3g}{r['clones_per_s']:>10,.0f}{x['clone']:>7.2f}"
        )
        if "speedup" in r:
            sp = r["speedup"]
            lines.append(
                f"{'':<4}x before: construction {sp.get('constructions_per_s', 0):.2f}, fresh env "
                f"{sp.get('fresh_env_decisions_per_s', 0):.2f}, heuristic games {sp.get('heuristic_games_per_s', 0):.2f}, "
                f"search decisions {sp.get('search_decisions_per_s', 0):.2f}, "
                f"clones {sp.get('clones_per_s', 0):.2f}"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    """With ``--tree``: the rows of the package at that folder, as JSON on stdout."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", type=Path, required=True, help="the copy of the package to time")
    ap.add_argument("--variants", required=True, help="JSON list of [env, options] pairs")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--worlds", type=int, default=4)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(args.tree.resolve()))
    out = {
        f"{name}|{json.dumps(kw, sort_keys=True)}": rows(name, kw, args.seconds, args.seed, args.worlds)
        for name, kw in json.loads(args.variants)
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
