"""Speed benchmark: random legal games through the AEC API and through the bare engine.

Every figure is measured in the same run as PettingZoo's ``connect_four_v3`` and
``texas_holdem_no_limit_v6`` (the references), and reported as a ratio to them, so the
numbers compare across machines. Every env first plays untimed games (a warm-up); then, in
each of the rounds, each row is timed between two halves of each reference's time, and the row's
ratio is the median over the rounds of its rate over the rate of the references around it, so a
machine whose speed drifts moves both sides of a ratio alike.

    python scripts/bench.py                 # table
    python scripts/bench.py --json          # one JSON object
    python scripts/bench.py --seconds 2 --envs medarot_ocg_v1:beginner

The PPO-training rows time ``deckgym train``'s loop (default settings, no imitation, no
evaluations) as learner steps per second, and give it as a ratio to the env's own AEC
decisions per second in the same run.

The AI-latency rows time the opponent of ``deckgym play`` / ``serve`` (its default level)
per decision, p50 and p95, beside the heuristic's time on the same decisions.

The construction and agent rows (``scripts/bench_rows.py``) time ``env()`` plus ``reset()``
and the game loop with a new env per game (ratios to connect_four's own), and heuristic and
search decisions per second (ratios to connect_four's random AEC decisions per second);
``--against DIR`` times the same rows of another copy of the code (e.g. a checkout of the
previous release) in the same run, for a before/after speed-up.

The batched-env rows (``scripts/bench_vector.py``) time learner steps per second of the
single-learner env, Gymnasium's ``SyncVectorEnv`` of ``--vector-envs`` of them, ``envs.vector``
of that many games, and the same over ``--workers`` processes, in alternating rounds, on
``--vector-env`` (OCG beginner) with the random opponent, and give their ratios.

The deck-tournament rows time a deck match with heuristic pilots on both sides against
random-vs-random games of the same variant, over the same worker processes (``--workers``).

For a game inside a game (AMALOGS), whose decision names read ``OUTER/INNER`` while a core
game runs, the AEC row also splits the decisions into meta and core decisions per second (the
share of core decisions is counted in untimed games: reading each decision's name is the
bench's work, not the env's).

Where a compiled build exists (``make compile``), one run measures both builds side by side
(``--builds pure compiled``, the default there): the builds take turns round by round, each
round a process (``DECKGYM_PURE``) that times its own references, and the table ends with each
row's ratio in both builds and the compiled build's speed-up (medians over the rounds).
``--builds pure`` (or ``compiled``) runs one.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_rows import aec_loop  # beside this script (the path above)

from deckgym.envs import games


def variants() -> dict[str, list[dict[str, Any]]]:
    """Environments and variants measured by default: every registered game's (``envs.games``)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, options in games.variants():
        out.setdefault(name, []).append(options)
    return out


def nested_games() -> frozenset[str]:
    """Rulesets whose games contain core games: their AEC rows split meta and core decisions."""
    return frozenset(g.name for g in games.games() if g.nested)


#: Row label: ``env``, ``env:mode`` or ``env:key=value`` (tuples joined by ``x``).
label_of = games.label


def warm_up(makes: list[Callable[[], Any]], seconds: float) -> None:
    """Untimed games of each env first (its first game fills the caches that every later game reuses)."""
    for make in makes:
        aec_loop(make, seconds, 10**6)


def engine_loop(make: Callable[[], Any], seconds: float, seed0: int) -> tuple[int, int, float]:
    """Random legal games on the bare engine (``legal_actions`` / ``apply``)."""
    ruleset = make().unwrapped.ruleset
    rng = random.Random(seed0)
    decisions = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        st = ruleset.new_state(seed0 + games)
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        games += 1
    return decisions, games, time.perf_counter() - t0


#: Deck rulesets whose deck tournaments are timed (``tournament_rates``).
DECK_RULESETS = frozenset({"medarot_ocg_v1", "medarot_parts_v1", "mow_v1"})


def tournament_rates(name: str, kwargs: dict[str, Any], games: int, workers: int) -> dict[str, float]:
    """Games per second of a deck match with heuristic pilots, and of random-vs-random games.

    Both run the same number of seat-swapped games over the same worker processes, in the same
    run, so their ratio compares across machines. The first two starter decks of the variant play.
    """
    from deckgym import envs
    from deckgym.agents.arena import match
    from deckgym.agents.decks.matches import deck_match

    starters = envs.ruleset(name, **kwargs).starter_names
    t0 = time.perf_counter()
    deck_match(name, starters[0], starters[1], "heuristic", games, seed=0, workers=workers, **kwargs)
    heuristic = games / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    match("random", "random", name, games=games, seed=0, workers=workers, **kwargs)
    rand = games / (time.perf_counter() - t0)
    return {"heuristic_games_per_s": heuristic, "random_games_per_s": rand, "ratio": heuristic / rand}


def ai_latency(
    name: str, kwargs: dict[str, Any], level: str, decisions: int, seed: int = 0
) -> dict[str, float]:
    """How long the AI at ``level`` takes per decision, as a person's opponent meets it.

    Seat 0 plays at random, as a person might; the AI holds every other seat. Only decisions
    with two or more options are timed (a forced move takes no thought); the heuristic's time
    on the same decisions is measured beside it, so the ratio compares across machines.
    """
    from deckgym import agents, envs
    from deckgym.agents.base import bind

    times: list[float] = []
    base: list[float] = []
    game = 0
    while len(times) < decisions:
        env = envs.make(name, **kwargs)
        env.reset(seed=seed + game)
        ai = bind(agents.make(level, name, seed=seed + game), env)
        ref = bind(agents.make("heuristic", name, seed=seed + game), env)
        ai.reset(seed=seed + game)
        rng = random.Random(seed + game)
        game += 1
        for agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask)
            if agent == "player_0":
                env.step(int(rng.choice(legal)))
                continue
            t0 = time.perf_counter()
            ref.act(obs["observation"], mask)
            t1 = time.perf_counter()
            action = ai.act(obs["observation"], mask)
            t2 = time.perf_counter()
            if len(legal) >= 2 and len(times) < decisions:
                base.append(t1 - t0)
                times.append(t2 - t1)
            env.step(int(action))
    q = statistics.quantiles(times, n=20, method="inclusive")
    return {
        "level": level,  # type: ignore[dict-item]
        "decisions": len(times),
        "p50_s": statistics.median(times),
        "p95_s": q[18],
        "max_s": max(times),
        "heuristic_p50_s": statistics.median(base),
        "ratio_p50": statistics.median(times) / max(1e-9, statistics.median(base)),
    }


def training_rate(name: str, kwargs: dict[str, Any], steps: int, **settings: Any) -> dict[str, float]:
    """PPO training steps per second (inside the PPO loop, and over the whole run) on ``name``.

    A run of ``steps`` learner steps with the default settings but no imitation and no
    evaluations during training; ``settings`` override ``TrainConfig`` fields (e.g. ``n_envs``).
    """
    import tempfile

    from deckgym.agents.training import TrainConfig, train

    with tempfile.TemporaryDirectory() as out:
        cfg = TrainConfig(
            env=name,
            env_kwargs=dict(kwargs),
            timesteps=steps,
            pretrain_games=0,
            eval_every=0,
            eval_games=2,
            checkpoint_every=0,
            progress_bar=False,
            out=out,
            **settings,
        )
        summary = train(cfg, log=lambda _line: None)
    return {
        "steps": float(summary["timesteps"]),
        "ppo_steps_per_s": summary["ppo_steps_per_second"],
        "run_steps_per_s": summary["steps_per_second"],
    }


def _references() -> dict[str, Callable[[], Any]]:
    refs: dict[str, Callable[[], Any]] = {}
    try:
        from pettingzoo.classic import connect_four_v3

        refs["connect_four_v3"] = connect_four_v3.env
    except ImportError as exc:  # pygame missing
        print(f"warning: connect_four_v3 unavailable ({exc})", file=sys.stderr)
    try:
        from pettingzoo.classic import texas_holdem_no_limit_v6

        refs["texas_holdem_no_limit_v6"] = texas_holdem_no_limit_v6.env
    except ImportError as exc:  # rlcard missing
        print(f"warning: texas_holdem_no_limit_v6 unavailable ({exc})", file=sys.stderr)
    return refs


def _extra_rows(
    args: argparse.Namespace, jobs: list[tuple[str, str, Callable[[], Any]]], result: dict[str, Any]
) -> None:
    """The deck-tournament, PPO-training and AI-latency rows (each skipped when its count is 0)."""
    if args.tournament_games > 0:
        result["tournaments"] = {}
        for label, name, _make in jobs:
            if name in DECK_RULESETS:
                print(f"deck tournament: {label}", file=sys.stderr)
                kw = next(k for k in variants()[name] if label_of(name, k) == label)
                result["tournaments"][label] = tournament_rates(name, kw, args.tournament_games, args.workers)
    if args.train_steps > 0:
        result["training"] = {}
        for label, name, _make in jobs:
            if label in args.train_on or name in args.train_on:
                print(f"training: {label}", file=sys.stderr)
                kw = next(k for k in variants()[name] if label_of(name, k) == label)
                row = training_rate(name, kw, args.train_steps)
                row["ratio_to_aec"] = (
                    row["ppo_steps_per_s"] / result["rulesets"][label]["aec"]["decisions_per_s"]
                )
                result["training"][label] = row
    if args.latency_decisions > 0:
        from deckgym.agents.play.session import DEFAULT_LEVEL, spec_for

        result["latency"] = {}
        for label, name, _make in jobs:
            print(f"AI latency: {label}", file=sys.stderr)
            kw = next(k for k in variants()[name] if label_of(name, k) == label)
            result["latency"][label] = ai_latency(
                name, kw, spec_for(args.level or DEFAULT_LEVEL), args.latency_decisions
            )


def _rows_option(ap: argparse.ArgumentParser, flag: str, kind: type, default: float, what: str) -> None:
    """An option that sizes one kind of rows of the table, which 0 leaves out."""
    ap.add_argument(flag, type=kind, default=default, help=f"{what} (0: skip)")


def _parser() -> argparse.ArgumentParser:
    """The command line of the benchmark."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=6.0, help="time per measurement, split over the rounds")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds per measurement (median kept)")
    ap.add_argument(
        "--envs",
        nargs="*",
        default=None,
        help="ENV or ENV:MODE entries (default: every variant of every registered game)",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    tournament = "games of the deck-tournament rows, heuristic pilots vs random-vs-random"
    _rows_option(ap, "--tournament-games", int, 100, tournament)
    ap.add_argument("--workers", type=int, default=2, help="processes of the deck-tournament rows")
    _rows_option(ap, "--latency-decisions", int, 100, "AI decisions timed per variant for the latency rows")
    _rows_option(ap, "--train-steps", int, 8192, "PPO steps of the training rows")
    ap.add_argument(
        "--train-on",
        nargs="*",
        default=["medarot_ocg_v1:beginner"],
        help="variants of the training rows (ENV or ENV:MODE labels)",
    )
    ap.add_argument(
        "--level", default=None, help="opponent level of the latency rows (default: play's default)"
    )
    _rows_option(ap, "--agent-seconds", float, 6.0, "time per construction/agent row, over the rounds")
    _rows_option(
        ap,
        "--vector-seconds",
        float,
        24.0,
        "time of the batched-env rows (scripts/bench_vector.py), over the rounds",
    )
    ap.add_argument("--vector-envs", type=int, default=64, help="games of the batched-env rows")
    ap.add_argument(
        "--vector-env", default="medarot_ocg_v1:beginner", help="ENV or ENV:MODE of the batched-env rows"
    )
    ap.add_argument("--worlds", type=int, default=4, help="worlds of the search rows")
    ap.add_argument(
        "--against", type=Path, default=None, help="also time those rows of the code in this folder"
    )
    ap.add_argument(
        "--builds",
        nargs="+",
        choices=BUILDS,
        default=None,
        help="the builds to measure, each in its own process (default: both where a compiled build exists)",
    )
    return ap


def _jobs(wanted: list[str] | None) -> list[tuple[str, str, Callable[[], Any]]]:
    """(label, env name, env factory) of every variant, or of those ``wanted`` names."""
    from deckgym import envs

    jobs: list[tuple[str, str, Callable[[], Any]]] = []
    for name, options_list in variants().items():
        for kw in options_list:
            label = label_of(name, kw)
            if wanted is None or label in wanted or name in wanted:
                jobs.append((label, name, lambda name=name, kw=kw: envs.make(name, **kw)))
    return jobs


def _measure(
    jobs: list[tuple[str, str, Callable[[], Any]]], refs: dict[str, Any], args: Any
) -> tuple[Any, ...]:
    """The interleaved rounds: (samples, ratios to each reference, the references' rates beside each row, core shares)."""
    per = args.seconds / max(1, args.rounds)
    warm_up(list(refs.values()) + [make for _label, _name, make in jobs], min(0.5, per / 4))
    samples: dict[tuple[str, str], list[tuple[int, int, float]]] = {}
    ratios: dict[tuple[str, str, str], list[float]] = {}  # (row, via, reference) -> ratio per round
    beside: dict[tuple[str, str], list[float]] = {}  # (row, reference) -> its rate around the row, per round
    core: dict[str, list[float]] = {}  # label -> share of decisions inside core games, per round
    for r in range(args.rounds):
        for label, name, make in jobs:
            print(f"round {r + 1}/{args.rounds}: {label}", file=sys.stderr)
            # each reference runs half its time just before the row and half just after, so
            # that the row's ratio compares rates of the same minute (the machine's speed drifts)
            before = {ref: aec_loop(ref_make, per / 2, 1000 * r) for ref, ref_make in refs.items()}
            run = aec_loop(make, per, 1000 * r)
            samples.setdefault((label, "aec"), []).append(run)
            engine = engine_loop(make, per, 1000 * r)
            samples.setdefault((label, "engine"), []).append(engine)
            for ref, ref_make in refs.items():
                after = aec_loop(ref_make, per / 2, 1000 * r + 500)
                samples.setdefault((ref, "aec"), []).extend((before[ref], after))
                ref_rate = (before[ref][0] + after[0]) / (before[ref][2] + after[2])
                beside.setdefault((label, ref), []).append(ref_rate)
                for via, (d, _g, t) in (("aec", run), ("engine", engine)):
                    ratios.setdefault((label, via, ref), []).append(d / t / ref_rate)
            if (
                name in nested_games()
            ):  # the share of core decisions, counted in untimed games of the same seeds
                nested = [0]
                shared = aec_loop(make, per / 4, 1000 * r, nested)
                core.setdefault(label, []).append(nested[0] / max(1, shared[0]))

    return samples, ratios, beside, core


def _rulesets(
    jobs: list[tuple[str, str, Callable[[], Any]]], refs: dict[str, Any], measured: tuple[Any, ...]
) -> dict[str, Any]:
    """The result object of the timed rows: the machine, the references' rates and each ruleset's row."""
    samples, ratios, beside, core = measured

    def rate(key: tuple[str, str]) -> tuple[float, float]:
        xs = samples[key]
        return (statistics.median(d / t for d, _g, t in xs), statistics.median(g / t for _d, g, t in xs))

    result: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "processor": platform.machine(),
            "build": _running_build(),
        },
        "references": {
            ref: {"decisions_per_s": rate((ref, "aec"))[0], "games_per_s": rate((ref, "aec"))[1]}
            for ref in refs
            if (ref, "aec") in samples
        },
        "rulesets": {},
    }
    for label, _name, _make in jobs:
        row: dict[str, Any] = {}
        for via in ("aec", "engine"):
            dps, gps = rate((label, via))
            row[via] = {
                "decisions_per_s": dps,
                "games_per_s": gps,
                "ratio": {ref: statistics.median(ratios[label, via, ref]) for ref in refs},
                "reference_decisions_per_s": {ref: statistics.median(beside[label, ref]) for ref in refs},
            }
            if via == "aec" and label in core:
                share = statistics.median(core[label])
                row[via]["core_decisions_per_s"] = dps * share
                row[via]["meta_decisions_per_s"] = dps * (1 - share)
        result["rulesets"][label] = row
    return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark and print a table (or JSON); return the result object."""
    args = _parser().parse_args(argv)
    builds = args.builds or _available_builds()
    if len(builds) > 1 or builds[0] != _running_build():
        return _side_by_side(argv or sys.argv[1:], builds, args)
    jobs = _jobs(args.envs)
    refs = _references()
    result = _rulesets(jobs, refs, _measure(jobs, refs, args))
    _extra_rows(args, jobs, result)
    if args.agent_seconds > 0 and "connect_four_v3" in refs:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_rows import section

        rows = [
            (label, name, next(k for k in variants()[name] if label_of(name, k) == label))
            for label, name, _m in jobs
        ]
        result["agents"] = section(
            rows,
            args.agent_seconds,
            args.rounds,
            args.worlds,
            result["references"]["connect_four_v3"]["decisions_per_s"],
            args.against,
        )
    if args.vector_seconds > 0:
        from bench_vector import section as vector_section

        result["vector"] = vector_section(
            args.vector_env, args.vector_envs, args.workers, args.vector_seconds, args.rounds
        )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(table(result))
    return result


#: The two builds of the engines: the pure-Python source and the compiled modules (mypyc).
BUILDS = ("pure", "compiled")


def _running_build() -> str:
    import deckgym

    return "compiled" if deckgym.compiled else "pure"


def _available_builds() -> list[str]:
    """Both builds where a compiled build can load here (unless ``DECKGYM_PURE`` asks for one)."""
    if os.environ.get("DECKGYM_PURE", "") not in ("", "0"):
        return ["pure"]
    return ["pure", "compiled"] if _running_build() == "compiled" else ["pure"]


def _without_builds(argv: list[str]) -> list[str]:
    """``argv`` less ``--builds`` and its values, and less ``--json``."""
    out, skipping = [], False
    for a in argv:
        if a == "--builds":
            skipping = True
            continue
        if skipping and not a.startswith("--"):
            continue
        skipping = False
        if a != "--json":
            out.append(a)
    return out


def _side_by_side(argv: list[str], builds: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """The bench of each build in its own processes; both tables, then the ratios side by side.

    The builds take turns, round by round (``--rounds``; the first build alternates), each
    round a process of one round with its share of ``--seconds`` and ``--agent-seconds``, so
    that a machine whose speed drifts slows both builds alike. The tournament, latency and
    training rows (and the batched-env rows) run in the first round only. Each figure is the median over the rounds, and
    each speed-up the median of the rounds' speed-ups (the two builds' rounds side by side).
    """
    rounds = max(1, args.rounds)
    runs: dict[str, list[dict[str, Any]]] = {build: [] for build in builds}
    for r in range(rounds):
        for build in builds if r % 2 == 0 else builds[::-1]:
            print(f"--- the {build} build, round {r + 1}/{rounds} ---", file=sys.stderr)
            env = {**os.environ, "DECKGYM_PURE": "1" if build == "pure" else "0"}
            share = ["--rounds", "1", "--seconds", str(args.seconds / rounds)]
            share += ["--agent-seconds", str(args.agent_seconds / rounds)]
            if r:
                share += ["--tournament-games", "0", "--latency-decisions", "0", "--train-steps", "0"]
                share += ["--vector-seconds", "0"]
            command = [sys.executable, __file__, *_without_builds(argv), *share, "--builds", build, "--json"]
            done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, check=False)
            if done.returncode != 0:
                raise SystemExit(f"bench: the {build} build's run failed (exit {done.returncode})")
            result = json.loads(done.stdout)
            if result["machine"].get("build") != build:
                raise SystemExit(f"bench: the {build} build could not be loaded here (make compile)")
            runs[build].append(result)
    results = {build: median_result(runs[build]) for build in builds}
    speedup: dict[str, Any] = {}
    if set(builds) == set(BUILDS):
        speedup = median_result([speedups({b: runs[b][r] for b in builds}) for r in range(rounds)])
    out: dict[str, Any] = {"builds": results, "speedup": speedup, "rounds": rounds}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(side_by_side_table(out))
    return out


def median_result(results: list[Any]) -> Any:
    """The results of several runs as one: the median of each number, the first run's other values.

    A key that a later run lacks (a row only the first round times) is the median of the runs
    that have it.
    """
    first = results[0]
    if isinstance(first, dict):
        return {k: median_result([r[k] for r in results if isinstance(r, dict) and k in r]) for k in first}
    if isinstance(first, (int, float)) and not isinstance(first, bool):
        numbers = [r for r in results if isinstance(r, (int, float)) and not isinstance(r, bool)]
        return statistics.median(numbers)
    return first


def speedups(results: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Row -> the compiled build's rate over the pure build's (each timed beside its own references)."""
    if set(results) != set(BUILDS):
        return {}
    pure, compiled = results["pure"], results["compiled"]
    out: dict[str, dict[str, float]] = {}
    for label, row in compiled["rulesets"].items():
        if label in pure["rulesets"]:
            out[label] = {
                via: v["decisions_per_s"] / pure["rulesets"][label][via]["decisions_per_s"]
                for via, v in row.items()
            }
    for label, row in (compiled.get("agents") or {}).items():
        base = (pure.get("agents") or {}).get(label)
        if label == "reference" or base is None:
            continue
        out.setdefault(label, {}).update(
            {
                key.removesuffix("_per_s"): row[key] / base[key]
                for key in (
                    "fresh_env_decisions_per_s",
                    "heuristic_decisions_per_s",
                    "search_decisions_per_s",
                )
                if base.get(key)
            }
        )
    for label, row in (compiled.get("training") or {}).items():
        base = (pure.get("training") or {}).get(label)
        if base:
            out.setdefault(label, {})["training"] = row["run_steps_per_s"] / base["run_steps_per_s"]
    return out


def side_by_side_table(out: dict[str, Any]) -> str:
    """Each build's table, then every row's ratio to connect_four in both builds and the speed-up."""
    lines = []
    for build, result in out["builds"].items():
        lines += [f"The {build} build", "=" * len(f"The {build} build"), table(result), ""]
    if set(out["builds"]) != set(BUILDS):
        return "\n".join(lines)
    pure, compiled = out["builds"]["pure"], out["builds"]["compiled"]
    head = f"{'side by side':<26}{'via':<10}{'pure x c4':>11}{'compiled x c4':>15}{'speed-up':>10}"
    lines += [head, "-" * len(head)]
    for label, row in compiled["rulesets"].items():
        for via, v in row.items():
            before = pure["rulesets"].get(label, {}).get(via)
            if before is None:
                continue
            lines.append(
                f"{label:<26}{via:<10}{before['ratio']['connect_four_v3']:>11.2f}"
                f"{v['ratio']['connect_four_v3']:>15.2f}{out['speedup'][label][via]:>10.2f}"
            )
    for label, row in (compiled.get("agents") or {}).items():
        base = (pure.get("agents") or {}).get(label)
        if label == "reference" or base is None:
            continue
        for key, name in (("fresh_env", "fresh env"), ("heuristic", "heuristic"), ("search", "search")):
            if key in row["ratio"] and key in base["ratio"]:
                lines.append(
                    f"{label:<26}{name:<10}{base['ratio'][key]:>#11.3g}{row['ratio'][key]:>#15.3g}"
                    f"{out['speedup'][label].get(key + '_decisions', float('nan')):>10.2f}"
                )
    for label, row in (compiled.get("training") or {}).items():
        if label in (pure.get("training") or {}):
            lines.append(
                f"{label:<26}{'PPO':<10}{pure['training'][label]['ratio_to_aec']:>#11.3g}"
                f"{row['ratio_to_aec']:>#15.3g}{out['speedup'][label]['training']:>10.2f}"
            )
    lines.append(
        "(x c4: decisions per second over connect_four_v3's in the same build's run; PPO: over the env's)"
    )
    return "\n".join(lines)


def _block(head: str, entries: dict[str, Any] | None, row: Callable[[str, Any], str]) -> list[str]:
    """A table section after a blank line: its heading, a rule and ``row(label, entry)`` of each entry."""
    rows = [row(label, entry) for label, entry in (entries or {}).items()]
    return ["", head, "-" * len(head), *rows] if rows else []


def table(result: dict[str, Any]) -> str:
    """A fixed-width table of the result."""
    refs = list(result["references"])
    short = {r: "x " + r.split("_v")[0].replace("_no_limit", "") for r in refs}
    head = f"{'env':<26}{'via':<8}{'decisions/s':>13}{'games/s':>10}" + "".join(
        f"{short[r]:>22}" for r in refs
    )
    lines = [head, "-" * len(head)]
    for ref, v in result["references"].items():
        lines.append(
            f"{ref:<26}{'aec':<8}{v['decisions_per_s']:>13,.0f}{v['games_per_s']:>10,.1f}"
            + "".join(f"{'':>22}" for _ in refs)
        )
    for label, row in result["rulesets"].items():
        for via, v in row.items():
            lines.append(
                f"{label:<26}{via:<8}{v['decisions_per_s']:>13,.0f}{v['games_per_s']:>10,.1f}"
                + "".join(f"{v['ratio'][r]:>22.2f}" for r in refs)
            )
            if "core_decisions_per_s" in v:
                lines.append(
                    f"{'':<4}of which meta {v['meta_decisions_per_s']:,.0f}/s, core {v['core_decisions_per_s']:,.0f}/s"
                )
    lines += _block(
        f"{'deck tournament':<26}{'heuristic games/s':>19}{'random games/s':>16}{'ratio':>8}",
        result.get("tournaments"),
        lambda label, t: (
            f"{label:<26}{t['heuristic_games_per_s']:>19,.1f}{t['random_games_per_s']:>16,.1f}{t['ratio']:>8.2f}"
        ),
    )
    lines += _block(
        f"{'PPO training':<26}{'steps':>8}{'PPO loop steps/s':>18}{'whole run steps/s':>19}{'x aec decisions/s':>19}",
        result.get("training"),
        lambda label, t: (
            f"{label:<26}{t['steps']:>8,.0f}{t['ppo_steps_per_s']:>18,.0f}{t['run_steps_per_s']:>19,.0f}"
            f"{t['ratio_to_aec']:>#19.3g}"
        ),
    )
    if result.get("agents"):
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_rows import table as agent_table

        lines.append("")
        lines += agent_table(result["agents"])
    if result.get("vector"):
        from bench_vector import table as vector_table

        lines += ["", vector_table(result["vector"])]
    lines += _block(
        f"{'AI latency':<26}{'level':>10}{'decisions':>11}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'x heuristic':>13}",
        result.get("latency"),
        lambda label, t: (
            f"{label:<26}{t['level']:>10}{t['decisions']:>11}{1e3 * t['p50_s']:>9.0f}{1e3 * t['p95_s']:>9.0f}"
            f"{1e3 * t['max_s']:>9.0f}{t['ratio_p50']:>13,.0f}"
        ),
    )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
