"""Round-robin deck ratings: a score matrix with intervals, and Bradley-Terry ratings on the Elo scale.

``rate`` plays every pairing of the decks with ``deck_match`` (same pilot, seat-swapped pairs).

* **Matrix.** ``matrix[i][j]`` is deck i's score against deck j (wins + draws / 2, over games);
  ``matrix[j][i] = 1 - matrix[i][j]`` by construction, since both come from the same games.
* **Ratings.** A Bradley-Terry model, P(i beats j) = p_i / (p_i + p_j), fitted by Hunter's MM
  algorithm to the points (a draw is half a win for each side). One virtual drawn game per
  pairing (``prior``) keeps a deck that won every game finite. Ratings are
  ``400 log10 p_i`` with mean 0, the Elo scale. Their 95% intervals come from a bootstrap over
  game pairs: each pairing's pairs are resampled with replacement and the model refitted.
* **Field.** ``field_scores`` gives each deck's expected score against a field of meta shares
  (a deck meets its own copies at 0.5).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deckgym.agents.decks.matches import Deck, DeckMatch, deck_label, deck_match, run_record


def bradley_terry(
    points: Sequence[Sequence[float]], games: Sequence[Sequence[float]], prior: float = 1.0, iters: int = 2000
) -> list[float]:
    """Bradley-Terry strengths (geometric mean 1) from ``points[i][j]`` that i scored in ``games[i][j]``.

    ``prior`` virtual games per pairing, drawn, are added to every pairing that was played.
    """
    n = len(points)
    w = [[points[i][j] + (prior / 2 if games[i][j] else 0.0) for j in range(n)] for i in range(n)]
    g = [[games[i][j] + (prior if games[i][j] else 0.0) for j in range(n)] for i in range(n)]
    p = [1.0] * n
    for _ in range(iters):
        new = []
        for i in range(n):
            denom = sum(g[i][j] / (p[i] + p[j]) for j in range(n) if j != i and g[i][j])
            total = sum(w[i][j] for j in range(n) if j != i)
            new.append(total / denom if denom > 0 and total > 0 else p[i])
        mean_log = sum(math.log(x) for x in new) / n
        new = [x / math.exp(mean_log) for x in new]
        delta = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, p, strict=True))
        p = new
        if delta < 1e-10:
            break
    return p


def elo(strengths: Sequence[float]) -> list[float]:
    """Bradley-Terry strengths on the Elo scale (400 log10), shifted to mean 0."""
    e = [400 * math.log10(x) for x in strengths]
    mean = sum(e) / len(e)
    return [x - mean for x in e]


def expected_score(elo_a: float, elo_b: float) -> float:
    """The Elo (logistic) expected score of a against b."""
    return 1 / (1 + 10 ** ((elo_b - elo_a) / 400))


def _tables(
    n: int, matches: Mapping[tuple[int, int], list[tuple[float, float]]]
) -> tuple[list[list[float]], list[list[float]]]:
    points = [[0.0] * n for _ in range(n)]
    games = [[0.0] * n for _ in range(n)]
    for (i, j), pairs in matches.items():
        s = sum(a + b for a, b in pairs)
        points[i][j] += s
        points[j][i] += 2 * len(pairs) - s
        games[i][j] += 2 * len(pairs)
        games[j][i] += 2 * len(pairs)
    return points, games


def fit_elo(
    n: int, matches: Mapping[tuple[int, int], list[tuple[float, float]]], prior: float = 1.0
) -> list[float]:
    """Elo ratings of ``n`` decks from pair results ``{(i, j): [(i's points, i's points), ...]}``."""
    points, games = _tables(n, matches)
    return elo(bradley_terry(points, games, prior))


def bootstrap_elo(
    n: int,
    matches: Mapping[tuple[int, int], list[tuple[float, float]]],
    samples: int = 200,
    seed: int = 0,
    prior: float = 1.0,
) -> list[tuple[float, float]]:
    """95% percentile intervals of each deck's Elo, resampling the pairs of every pairing."""
    rng = random.Random(seed)
    draws: list[list[float]] = [[] for _ in range(n)]
    for _ in range(samples):
        resampled = {k: [rng.choice(v) for _ in v] for k, v in matches.items() if v}
        for i, e in enumerate(fit_elo(n, resampled, prior)):
            draws[i].append(e)
    out = []
    for xs in draws:
        xs.sort()
        lo = xs[int(0.025 * (len(xs) - 1))]
        hi = xs[math.ceil(0.975 * (len(xs) - 1))]
        out.append((lo, hi))
    return out


def field_scores(matrix: Sequence[Sequence[float]], shares: Sequence[float]) -> list[float]:
    """Each deck's expected score against a field where deck j has share ``shares[j]``."""
    total = sum(shares)
    if total <= 0:
        raise ValueError("the field's shares must add up to more than 0")
    return [sum(s * row[j] for j, s in enumerate(shares)) / total for row in matrix]


def kendall_tau(a: Sequence[float], b: Sequence[float]) -> float:
    """Kendall's tau-a between two ratings of the same decks (1: the same order, -1: reversed)."""
    n = len(a)
    if n < 2:
        raise ValueError("Kendall's tau needs at least two decks")
    s = 0
    for i in range(n):
        for j in range(i + 1, n):
            s += 1 if (a[i] - a[j]) * (b[i] - b[j]) > 0 else -1 if (a[i] - a[j]) * (b[i] - b[j]) < 0 else 0
    return s / (n * (n - 1) / 2)


def pilot_agreement(by_pilot: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """Rank agreement of the same decks rated by several pilots.

    Kendall's tau per pair of pilots, and the deck pairs whose order flips between two pilots.
    """
    pilots = list(by_pilot)
    names = by_pilot[pilots[0]]["decks"]
    elo = {p: [r["elo"] for r in by_pilot[p]["ratings"]] for p in pilots}
    out: dict[str, Any] = {"pilots": pilots, "kendall_tau": {}, "flips": []}
    for x in range(len(pilots)):
        for y in range(x + 1, len(pilots)):
            p, q = pilots[x], pilots[y]
            out["kendall_tau"][f"{p} | {q}"] = kendall_tau(elo[p], elo[q])
            for i in range(len(names)):
                for j in range(i + 1, len(names)):
                    if (elo[p][i] - elo[p][j]) * (elo[q][i] - elo[q][j]) < 0:
                        out["flips"].append({"decks": [names[i], names[j]], "pilots": [p, q]})
    return out


def rate(
    env_name: str,
    decks: Sequence[Deck],
    pilot: str = "heuristic",
    games: int = 400,
    seed: int = 0,
    workers: int | None = None,
    field: Mapping[str, float] | None = None,
    bootstrap: int = 200,
    progress: Callable[[int], None] | None = None,
    **env_kwargs: Any,
) -> dict[str, Any]:
    """Round robin of ``games`` games per pairing; the matrix, ratings and field scores as JSON.

    Raises:
        ValueError: fewer than two decks, a repeated deck, or a field naming a deck not rated.
        DeckError: a deck breaks the ruleset's deck rules.
    """
    names = [deck_label(d) for d in decks]
    if len(decks) < 2:
        raise ValueError(f"rating needs at least two decks, got {len(decks)}")
    if len(set(names)) != len(names):
        raise ValueError(f"each deck may be rated once; got {', '.join(names)}")
    n = len(decks)
    shares = [1.0] * n
    if field:
        unknown = sorted(set(field) - set(names))
        if unknown:
            raise ValueError(
                f"--field names decks that are not rated: {', '.join(unknown)}; rated: {', '.join(names)}"
            )
        shares = [float(field.get(name, 0.0)) for name in names]
    results: dict[tuple[int, int], DeckMatch] = {}
    for i in range(n):
        for j in range(i + 1, n):
            results[(i, j)] = deck_match(
                env_name, decks[i], decks[j], pilot, games, seed, workers, progress, **env_kwargs
            )
    matrix = [[0.5] * n for _ in range(n)]
    ci = [[[0.5, 0.5] for _ in range(n)] for _ in range(n)]
    for (i, j), m in results.items():
        lo, hi = m.score_ci95
        matrix[i][j], matrix[j][i] = m.score, 1 - m.score
        ci[i][j], ci[j][i] = [lo, hi], [1 - hi, 1 - lo]
    pairs = {k: m.pairs for k, m in results.items()}
    ratings = fit_elo(n, pairs)
    intervals = bootstrap_elo(n, pairs, bootstrap, seed)
    vs_field = field_scores(matrix, shares)
    return {
        **run_record(env_name, env_kwargs, pilot, seed),
        "decks": names,
        "games": results[(0, 1)].games,
        "matrix": matrix,
        "matrix_ci95": ci,
        "field": dict(zip(names, shares, strict=True)),
        "ratings": [
            {
                "deck": names[i],
                "elo": ratings[i],
                "elo_ci95": list(intervals[i]),
                "score_vs_field": vs_field[i],
            }
            for i in range(n)
        ],
    }
