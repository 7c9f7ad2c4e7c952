"""The error rates and lengths of ``decks compare``'s SPRT, by simulation with a known truth.

Each game is a win, draw or loss with a given draw chance and a seat advantage in expected
score (``+a`` in seat 0, ``-a`` in seat 1); a pair's two games give the pentanomial
distribution of its score, and each simulated test draws pairs from it until the library's
stopping rule (``agents.decks.sprt.simulate``: the exact LLR, the overshoot-corrected bounds)
gives its verdict. At the true Elo ``elo0`` a "stronger" verdict is an error (alpha), at
``elo1`` a "not stronger" one (beta).

    python scripts/sprt_rates.py                       # the table of docs/decks.md
    python scripts/sprt_rates.py --bounds 0,50 --tests 2000 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from deckgym.agents.decks.sprt import logistic, simulate

#: (draw chance, seat advantage) of each row.
CONDITIONS = ((0.0, 0.0), (0.2, 0.05))

#: The bounds of the table: elo0 = 0 and these elo1.
ELO1 = (5.0, 20.0, 50.0, 100.0, 200.0)


def pentanomial(elo: float, draw: float, seat: float) -> np.ndarray:
    """Chances of a pair score 0, 1/4, 1/2, 3/4, 1 for A at ``elo``, its two games in opposite seats."""
    s = logistic(elo)

    def game(score: float) -> np.ndarray:
        return np.array([1 - score - draw / 2, draw, score - draw / 2])  # 0, 1/2, 1 point

    return np.convolve(game(s + seat), game(s - seat))


def rates(elo1: float, draw: float, seat: float, tests: int, seed: int) -> dict[str, float]:
    """alpha, beta and the mean games at elo0 and at elo1 (elo0 = 0), over ``tests`` tests each."""
    out: dict[str, float] = {"elo1": elo1, "draw": draw, "seat": seat, "tests": tests}
    for name, truth in (("elo0", 0.0), ("elo1", elo1)):
        counts, verdict = simulate(pentanomial(truth, draw, seat), 0.0, elo1, tests=tests, seed=seed)
        wrong = (verdict == 1) if name == "elo0" else (verdict == -1)
        out["alpha" if name == "elo0" else "beta"] = float(wrong.mean())
        out[f"games_at_{name}"] = float(2 * counts.sum(axis=1).mean())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bounds", help="elo1 values, comma separated (elo0 is 0); default 5,20,50,100,200")
    ap.add_argument("--tests", type=int, default=10_000, help="simulated tests per cell (default 10,000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print JSON rows")
    args = ap.parse_args(argv)
    if args.tests < 1:
        ap.error("--tests must be at least 1")
    try:
        bounds = tuple(float(x) for x in args.bounds.split(",")) if args.bounds else ELO1
    except ValueError:
        ap.error(f"--bounds takes numbers, comma separated, got {args.bounds!r}")
    if any(b <= 0 for b in bounds):
        ap.error("--bounds: every elo1 must be above elo0 = 0")
    rows = []
    for elo1 in bounds:
        for draw, seat in CONDITIONS:
            t0 = time.perf_counter()
            rows.append(rates(elo1, draw, seat, args.tests, args.seed + int(elo1)))
            print(f"0-{elo1:g} draw {draw} seat {seat}: {time.perf_counter() - t0:.0f}s", file=sys.stderr)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(
        '| bounds (Elo) | draw chance | seat advantage | alpha: "stronger" at elo0 | beta: "not stronger" at elo1 | mean games at elo0 | at elo1 |'
    )
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| 0-{r['elo1']:g} | {r['draw']} | {r['seat']} | {r['alpha']:.2%} | {r['beta']:.2%} "
            f"| {r['games_at_elo0']:,.0f} | {r['games_at_elo1']:,.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
