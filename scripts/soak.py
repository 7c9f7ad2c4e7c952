"""Soak test: many random legal games on every ruleset variant, with a report per variant.

Each variant plays random legal games on the bare engine (``legal_actions`` / ``apply``) until
it has taken its share of the decisions. The report gives, per variant, the games and
decisions played, the longest game, and the most automatic steps that one ``apply`` ran
(tasks and forced decisions, the count that ``envs.core.flow.MAX_AUTO_STEPS`` bounds), so
one can see how far real games stay from that cap. Any exception stops the run with the
variant, the seed and the decision number, and exit status 1.

    python scripts/soak.py                          # 10^6 decisions over every variant
    python scripts/soak.py --decisions 10000000 --workers 2 --json
    python scripts/soak.py --envs mow_v0 medarot_ocg_v0:advance --decisions 200000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import VARIANTS, label_of


def soak_variant(job: tuple[str, dict[str, Any], int, int]) -> dict[str, Any]:
    """Random games of one variant until ``decisions`` are taken; the variant's report row."""
    name, kwargs, decisions, seed0 = job
    import envs
    from envs.core import flow

    ruleset = envs.make(name, **kwargs).unwrapped.ruleset
    rng = random.Random(seed0)
    flow.most_auto_steps(reset=True)
    done = games = longest = 0
    t0 = time.perf_counter()
    while done < decisions:
        seed = seed0 + games
        st = ruleset.new_state(seed)
        n = 0
        try:
            while not st.is_terminal():
                legal = st.legal_actions()
                st.apply(legal[rng.randrange(len(legal))])
                n += 1
        except Exception as exc:  # noqa: BLE001 - any failure is the finding: report where, then stop
            return {
                "label": label_of(name, kwargs),
                "error": f"{type(exc).__name__}: {exc}",
                "seed": seed,
                "decision": n,
                "traceback": traceback.format_exc(),
            }
        done += n
        games += 1
        longest = max(longest, n)
    return {
        "label": label_of(name, kwargs),
        "games": games,
        "decisions": done,
        "longest_game": longest,
        "most_auto_steps_per_apply": flow.most_auto_steps(),
        "auto_step_cap": flow.MAX_AUTO_STEPS,
        "seconds": time.perf_counter() - t0,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the soak, print a table (or JSON); exit status 1 on any failure."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--decisions", type=int, default=1_000_000, help="decisions in all, split over the variants"
    )
    ap.add_argument(
        "--envs", nargs="*", default=None, help="ENV or ENV:MODE entries (default: every variant)"
    )
    ap.add_argument("--workers", type=int, default=1, help="processes (one variant per process at a time)")
    ap.add_argument("--seed", type=int, default=0, help="first game seed")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = ap.parse_args(argv)
    if args.decisions < 1 or args.workers < 1:
        ap.error("--decisions and --workers must be at least 1")
    jobs = [
        (name, kw)
        for name, variants in VARIANTS.items()
        for kw in variants
        if args.envs is None or name in args.envs or label_of(name, kw) in args.envs
    ]
    if not jobs:
        ap.error(
            f"no variant matches {args.envs}; known: {[label_of(n, k) for n, v in VARIANTS.items() for k in v]}"
        )
    share = -(-args.decisions // len(jobs))
    work = [(name, kw, share, args.seed) for name, kw in jobs]
    if args.workers == 1:
        rows = [soak_variant(w) for w in work]
    else:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            rows = list(pool.map(soak_variant, work))
    failed = [r for r in rows if "error" in r]
    if args.json:
        print(json.dumps({"variants": rows, "failures": len(failed)}, indent=2))
    else:
        head = (
            f"{'variant':<28}{'games':>8}{'decisions':>12}{'longest':>9}{'auto steps':>12}{'cap':>9}{'s':>8}"
        )
        print(head)
        print("-" * len(head))
        for r in rows:
            if "error" in r:
                print(f"{r['label']:<28} FAILED at seed {r['seed']}, decision {r['decision']}: {r['error']}")
                continue
            print(
                f"{r['label']:<28}{r['games']:>8,}{r['decisions']:>12,}{r['longest_game']:>9,}"
                f"{r['most_auto_steps_per_apply']:>12,}{r['auto_step_cap']:>9,}{r['seconds']:>8.0f}"
            )
    for r in failed:
        print(r["traceback"], file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
