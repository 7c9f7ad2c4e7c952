"""Soak test: random legal games through the AEC env on every variant, checked as they go.

Each variant plays random legal games through ``env.last()`` / ``env.step()`` until it has
taken its share of the decisions, in chunks of games with fixed seeds (so the same command
gives the same games whatever ``--workers`` is). At every decision it checks that the mask is
not empty, that it equals the engine's ``legal_indices`` and that every masked index decodes
to a legal engine action. Every ``--check-every``-th decision it also checks

- that nothing hidden reaches a seat: for every seat, resampling what that seat cannot see
  (``resample_hidden``) leaves its observation, and for the seat to move its mask, unchanged;
- the exact ``to_dict`` / ``from_dict`` round trip: the same dict, observation and mask.

At the end it plays every chunk again in a fresh process with another ``PYTHONHASHSEED`` and
compares the hashes of the trajectories (the actions taken, the observations at the checked
decisions and the returns). The report gives, per variant, games, decisions, the longest game,
the most automatic steps that one ``apply`` ran (the count ``envs.core.flow.MAX_AUTO_STEPS``
bounds) and the throughput; each failure names its variant, options, seed and decision, so it
can be replayed, and makes the exit status 1.

    python scripts/soak.py                          # 10^6 decisions over every variant
    python scripts/soak.py --decisions 10000000 --workers 2 --json
    python scripts/soak.py --envs mow_v1 medarot_ocg_v1:advance --decisions 200000
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import random
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from deckgym.envs.games import label as label_of
from deckgym.envs.games import variants

#: Chunks per variant: the unit of work of a worker and of the progress bar.
CHUNKS = 16
#: Seeds of chunk ``c`` start at ``seed + c * CHUNK_SEEDS``.
CHUNK_SEEDS = 1_000_000


class SoakFailure(Exception):
    """A check that failed (the message says which)."""


def _check(st: Any, ruleset: Any, enc: Any, rng: random.Random, h: Any) -> None:
    """The leak and round-trip checks at one decision; the observations go into the hash ``h``."""
    import numpy as np

    me = st.current_player
    for seat in range(ruleset.num_players):
        obs = enc.observe(st, seat)
        h.update(obs.tobytes())
        for _ in range(2):
            world = st.resample_hidden(seat, random.Random(rng.getrandbits(32)))
            if not np.array_equal(enc.observe(world, seat), obs):
                raise SoakFailure(f"leak: resampling what seat {seat} cannot see changed its observation")
            if seat == me and enc.legal_indices(world) != enc.legal_indices(st):
                raise SoakFailure(f"leak: resampling what seat {seat} cannot see changed its legal actions")
    data = st.to_dict()
    back = ruleset.state_from_dict(data)
    if back.to_dict() != data:
        raise SoakFailure("round trip: from_dict(to_dict(s)).to_dict() differs from to_dict(s)")
    if me >= 0 and (
        not np.array_equal(enc.observe(back, me), enc.observe(st, me))
        or enc.legal_indices(back) != enc.legal_indices(st)
    ):
        raise SoakFailure("round trip: the observation or the mask differs after from_dict(to_dict(s))")


class _Cursor:
    """Where a chunk stands: the current game's seed and the decisions taken in it so far."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.decision = 0


def _check_mask(st: Any, enc: Any, legal: Any) -> None:
    """Check that the mask is not empty, equals ``legal_indices`` and decodes to legal actions."""
    if len(legal) == 0:
        raise SoakFailure("empty action mask at a decision")
    if sorted(enc.legal_indices(st)) != legal.tolist():
        raise SoakFailure("the action mask differs from the engine's legal_indices")
    actions = st.legal_actions()
    if any(enc.index_to_action(int(i), st) not in actions for i in legal):
        raise SoakFailure("a masked index decodes to an action the engine does not allow")


def _hash_unchecked(st: Any, ruleset: Any, enc: Any, rng: random.Random, h: Any) -> None:
    """Hash the observations ``_check`` would hash and draw the same random numbers, checking nothing."""
    for seat in range(ruleset.num_players):
        h.update(enc.observe(st, seat).tobytes())
    for _ in range(2 * ruleset.num_players):
        rng.getrandbits(32)


def _play_game(
    env: Any, seed: int, first: int, check_every: int, checks: bool, rng: random.Random, h: Any, at: _Cursor
) -> None:
    """Play one random legal game from ``seed``; ``first`` is the chunk's decisions before it."""
    import numpy as np

    u = env.unwrapped
    env.reset(seed=seed)
    ruleset, enc = u.ruleset, u.encoder
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        if checks:
            _check_mask(u.game, enc, legal)
        if (first + at.decision) % check_every == 0:
            if checks:
                _check(u.game, ruleset, enc, rng, h)
            else:  # the replay hashes the same observations without checking
                _hash_unchecked(u.game, ruleset, enc, rng, h)
        action = int(legal[rng.randrange(len(legal))])
        h.update(action.to_bytes(2, "little"))
        env.step(action)
        at.decision += 1
    h.update(json.dumps(u.game.returns()).encode())


def _play_chunk(
    env: Any,
    decisions: int,
    seed0: int,
    check_every: int,
    checks: bool,
    rng: random.Random,
    h: Any,
    at: _Cursor,
) -> tuple[int, int, int]:
    """Play games from seed ``seed0`` until ``decisions`` are taken; (games, decisions, longest game)."""
    done = games = longest = 0
    while done < decisions:
        at.seed = seed0 + games
        at.decision = 0
        _play_game(env, at.seed, done, check_every, checks, rng, h, at)
        done += at.decision
        games += 1
        longest = max(longest, at.decision)
    return games, done, longest


def soak_chunk(
    job: tuple[str, dict[str, Any], int, int, int, bool], prepare: Callable[[Any], None] | None = None
) -> dict[str, Any]:
    """Random games of one variant from seed ``seed0`` until ``decisions`` are taken; the chunk's report.

    ``prepare(env)``, when given, sees the env before its first game (a test plants a fault there).
    """
    name, kwargs, decisions, seed0, check_every, checks = job
    from deckgym import envs
    from deckgym.envs.core import flow

    env = envs.make(name, **kwargs)
    if prepare is not None:
        prepare(env)
    rng = random.Random(seed0)
    flow.most_auto_steps(reset=True)
    h = hashlib.sha256()
    t0 = time.perf_counter()
    at = _Cursor(seed0)
    try:
        games, done, longest = _play_chunk(env, decisions, seed0, check_every, checks, rng, h, at)
    except Exception as exc:  # noqa: BLE001 - any failure is the finding: report where, then stop
        return {
            "label": label_of(name, kwargs),
            "env": name,
            "options": kwargs,
            "error": f"{type(exc).__name__}: {exc}",
            "seed": at.seed,
            "decision": at.decision,
            "traceback": traceback.format_exc(),
        }
    return {
        "label": label_of(name, kwargs),
        "games": games,
        "decisions": done,
        "longest_game": longest,
        "most_auto_steps_per_apply": flow.most_auto_steps(),
        "auto_step_cap": flow.MAX_AUTO_STEPS,
        "seconds": time.perf_counter() - t0,
        "hash": h.hexdigest(),
    }


def _merge(label: str, chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """One report row of a variant from its chunks (the first failure, if any, stands for it)."""
    failed = [c for c in chunks if "error" in c]
    if failed:
        return failed[0]
    secs = sum(c["seconds"] for c in chunks)
    decisions = sum(c["decisions"] for c in chunks)
    return {
        "label": label,
        "games": sum(c["games"] for c in chunks),
        "decisions": decisions,
        "longest_game": max(c["longest_game"] for c in chunks),
        "most_auto_steps_per_apply": max(c["most_auto_steps_per_apply"] for c in chunks),
        "auto_step_cap": chunks[0]["auto_step_cap"],
        "seconds": secs,
        "decisions_per_s": decisions / secs if secs else 0.0,
    }


def _run(
    work: list[tuple[Any, ...]], workers: int, show: bool, prepare: Callable[[Any], None] | None = None
) -> list[dict[str, Any]]:
    """Run the chunks, in order, with a progress bar of the decisions done (``prepare``: ``soak_chunk``'s)."""
    bar = None
    if show:
        try:
            from tqdm import tqdm

            bar = tqdm(total=sum(w[2] for w in work), unit="dec", unit_scale=True, file=sys.stderr)
            bar.set_description("soak (decisions; whole games run past the share)")
        except ImportError:
            bar = None
    out: list[dict[str, Any]] = []
    run = functools.partial(soak_chunk, prepare=prepare)
    if workers == 1:
        results: Any = map(run, work)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=workers)
        results = pool.map(run, work)
    try:
        for w, r in zip(work, results, strict=True):
            out.append(r)
            if bar is not None:
                bar.update(r.get("decisions", w[2]))
                if "error" in r:
                    bar.set_postfix_str(f"FAILED {r['label']} seed {r['seed']}")
    finally:
        if pool is not None:
            pool.shutdown()
        if bar is not None:
            bar.close()
    return out


def _replay_hashes(work: list[tuple[Any, ...]], workers: int) -> list[str | None]:
    """The chunks' hashes computed again in a fresh process with another ``PYTHONHASHSEED``."""
    plain = [[w[0], w[1], w[2], w[3], w[4]] for w in work]
    seed = os.environ.get("PYTHONHASHSEED", "")
    other = "1" if not seed.isdigit() else str((int(seed) + 1) % 4294967296)
    proc = subprocess.run(
        [sys.executable, __file__, "--replay", json.dumps(plain), "--workers", str(workers)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONHASHSEED": other},
    )
    if proc.returncode != 0:
        raise SoakFailure(f"the replay process failed: {proc.stderr.strip()[-500:]}")
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def _parser() -> argparse.ArgumentParser:
    """Build the command-line parser of the soak."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--decisions", type=int, default=1_000_000, help="decisions in all, split over the variants"
    )
    ap.add_argument(
        "--envs", nargs="*", default=None, help="ENV or ENV:MODE entries (default: every variant)"
    )
    ap.add_argument("--workers", type=int, default=1, help="processes")
    ap.add_argument("--seed", type=int, default=0, help="first game seed")
    ap.add_argument(
        "--check-every", type=int, default=13, help="leak and round-trip checks every k-th decision"
    )
    ap.add_argument("--no-replay", action="store_true", help="skip the replay in a fresh process")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar (it is drawn on stderr)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    ap.add_argument("--replay", help=argparse.SUPPRESS)  # the fresh process: chunks as JSON, prints hashes
    return ap


def _replay_only(replay: str, workers: int) -> int:
    """Play the chunks given as JSON without checks and print their hashes (the fresh process's job)."""
    jobs = [(n, kw, d, s0, k, False) for n, kw, d, s0, k in json.loads(replay)]
    print(json.dumps([r.get("hash") for r in _run(jobs, workers, False)]))
    return 0


def _select_variants(
    ap: argparse.ArgumentParser, names: list[str] | None
) -> list[tuple[str, dict[str, Any]]]:
    """Pick the variants that ``--envs`` names (every variant without it); a usage error if none."""
    chosen = [
        (name, kw) for name, kw in variants() if names is None or name in names or label_of(name, kw) in names
    ]
    if not chosen:
        ap.error(f"no variant matches {names}; known: {[label_of(n, k) for n, k in variants()]}")
    return chosen


def _plan_chunks(
    variants: list[tuple[str, dict[str, Any]]], decisions: int, seed: int, check_every: int
) -> tuple[list[tuple[Any, ...]], int]:
    """Split the decisions over the variants' chunks; the chunk jobs and the number of chunks per variant."""
    share = -(-decisions // len(variants))
    chunks = max(1, min(CHUNKS, share // 500))
    per = -(-share // chunks)
    work = [
        (name, kw, per, seed + c * CHUNK_SEEDS, check_every, True)
        for name, kw in variants
        for c in range(chunks)
    ]
    return work, chunks


def _replay_check(work: list[tuple[Any, ...]], results: list[dict[str, Any]], workers: int) -> dict[str, Any]:
    """Replay the chunks in a fresh process and name those whose hashes came out different."""
    again = _replay_hashes(work, workers)
    differ = [
        f"{label_of(w[0], w[1])} seeds from {w[3]}"
        for w, r, h in zip(work, results, again, strict=True)
        if r["hash"] != h
    ]
    return {"checked": True, "chunks": len(work), "different": differ}


def _print_table(
    rows: list[dict[str, Any]], replay: dict[str, Any], report: dict[str, Any], wall: float
) -> None:
    """Print the report as a table, one line per variant, then the replay and the totals."""
    head = (
        f"{'variant':<28}{'games':>8}{'decisions':>12}{'longest':>9}{'auto steps':>12}{'cap':>9}{'dec/s':>9}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        if "error" in r:
            print(
                f"{r['label']:<28} FAILED at seed {r['seed']}, decision {r['decision']} "
                f"(env {r['env']}, options {r['options']}): {r['error']}"
            )
            continue
        print(
            f"{r['label']:<28}{r['games']:>8,}{r['decisions']:>12,}{r['longest_game']:>9,}"
            f"{r['most_auto_steps_per_apply']:>12,}{r['auto_step_cap']:>9,}{r['decisions_per_s']:>9,.0f}"
        )
    if replay["checked"]:
        state = "the same" if not replay["different"] else f"DIFFERENT in {', '.join(replay['different'])}"
        print(f"replay in a fresh process with another PYTHONHASHSEED: {replay['chunks']} chunks, {state}")
    print(
        f"{report['decisions']:,} decisions, {report['games']:,} games, {report['failures']} failures "
        f"in {wall:.0f} s ({report['decisions'] / wall:,.0f} decisions/s)"
    )


def main(argv: list[str] | None = None, prepare: Callable[[Any], None] | None = None) -> int:
    """Run the soak, print a table (or JSON); exit status 1 on any failure.

    ``prepare(env)`` is called on each env before its games (it must pickle with ``--workers`` > 1);
    the replay in a fresh process does not call it.
    """
    ap = _parser()
    args = ap.parse_args(argv)
    if args.replay is not None:
        return _replay_only(args.replay, args.workers)
    if args.decisions < 1 or args.workers < 1 or args.check_every < 1:
        ap.error("--decisions, --workers and --check-every must be at least 1")
    variants = _select_variants(ap, args.envs)
    work, chunks = _plan_chunks(variants, args.decisions, args.seed, args.check_every)
    t0 = time.perf_counter()
    results = _run(
        work, args.workers, not args.no_progress, prepare
    )  # the bar is on stderr, beside --json too
    rows = [
        _merge(label_of(n, kw), results[i * chunks : (i + 1) * chunks]) for i, (n, kw) in enumerate(variants)
    ]
    failed = [r for r in rows if "error" in r]
    replay: dict[str, Any] = {"checked": False}
    if not failed and not args.no_replay:
        replay = _replay_check(work, results, args.workers)
    wall = time.perf_counter() - t0
    report = {
        "variants": rows,
        "failures": len(failed) + len(replay.get("different", [])),
        "decisions": sum(r.get("decisions", 0) for r in rows),
        "games": sum(r.get("games", 0) for r in rows),
        "seconds": wall,
        "check_every": args.check_every,
        "replay": replay,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_table(rows, replay, report, wall)
    for r in failed:
        print(r["traceback"], file=sys.stderr)
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
