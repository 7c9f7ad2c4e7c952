"""Round-robin deck ratings: a score matrix with intervals, and Bradley-Terry ratings on the Elo scale.

``rate`` plays every pairing of the decks with ``deck_match`` (same pilot, seat-swapped pairs).

* **Matrix.** ``matrix[i][j]`` is deck i's score against deck j (wins + draws / 2, over games);
  ``matrix[j][i] = 1 - matrix[i][j]`` by construction, since both come from the same games.
* **Ratings.** A Bradley-Terry model, P(i beats j) = p_i / (p_i + p_j), fitted by Hunter's MM
  algorithm to the points (a draw is half a win for each side). One virtual drawn game per
  pairing (``prior``) keeps a deck that won every game finite. Ratings are
  ``400 log10 p_i`` with mean 0, the Elo scale. Their 95% intervals come from a bootstrap over
  seeds: every pairing is played on the same pair seeds, so the pairings that share a deck
  share its luck on a seed; each replicate draws the seed indices once, with replacement, uses
  the same indices for every pairing, and refits the model.
* **Field.** ``field_scores`` gives each deck's expected score against a field of meta shares
  (a deck meets its own copies at 0.5).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deckgym.agents.decks.matches import Deck, DeckMatch, deck_match, run_record, unique_labels


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


Pairs = Mapping[tuple[int, int], list[tuple[float, float]]]


def seed_resamples(pairs: int, samples: int, seed: int) -> list[list[int]]:
    """``samples`` bootstrap draws of ``pairs`` seed indices (with replacement)."""
    rng = random.Random(seed)
    return [[rng.randrange(pairs) for _ in range(pairs)] for _ in range(samples)]


def _pair_count(matches: Pairs) -> int:
    sizes = {len(v) for v in matches.values()}
    if len(sizes) != 1:
        raise ValueError(
            f"a joint bootstrap needs the same pairs (seeds) in every pairing; got {sorted(sizes)} pairs"
        )
    return sizes.pop()


def percentile_interval(xs: list[float]) -> tuple[float, float]:
    """The 2.5% and 97.5% points of bootstrap replicates."""
    xs = sorted(xs)
    return xs[int(0.025 * (len(xs) - 1))], xs[math.ceil(0.975 * (len(xs) - 1))]


def bootstrap_elo(
    n: int,
    matches: Pairs,
    samples: int = 200,
    seed: int = 0,
    prior: float = 1.0,
    joint: bool = True,
) -> list[tuple[float, float]]:
    """95% percentile intervals of each deck's Elo from a bootstrap over seeds.

    ``joint`` (the default; every pairing must have its pairs on the same seeds, in order):
    each replicate resamples the seed indices once and takes the same indices in every
    pairing, which keeps the correlation between pairings that share a deck. ``joint=False``
    resamples each pairing's pairs on its own (too narrow when pairings correlate).
    """
    played = {k: v for k, v in matches.items() if v}
    draws: list[list[float]] = [[] for _ in range(n)]
    if joint:
        picks = seed_resamples(_pair_count(played), samples, seed)
        replicates = [{k: [v[i] for i in idx] for k, v in played.items()} for idx in picks]
    else:
        rng = random.Random(seed)
        replicates = [{k: [rng.choice(v) for _ in v] for k, v in played.items()} for _ in range(samples)]
    for resampled in replicates:
        for i, e in enumerate(fit_elo(n, resampled, prior)):
            draws[i].append(e)
    return [percentile_interval(xs) for xs in draws]


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


def _pairs_of(result: Mapping[str, Any]) -> dict[tuple[int, int], list[tuple[float, float]]]:
    """The pair results of a ``rate`` result, by pairing of deck indices."""
    return {(p["index"][0], p["index"][1]): [(a, b) for a, b in p["pairs"]] for p in result["pairings"]}


def flip_test(
    first: Mapping[str, Any], second: Mapping[str, Any], i: int, j: int, samples: int = 200, seed: int = 0
) -> dict[str, Any]:
    """Did decks i and j change order between two ratings of the same decks on the same seeds?

    The Elo gap ``elo[i] - elo[j]`` under each pilot, and the change of the gap, with 95%
    intervals from one bootstrap over seeds shared by both ratings (the same seed indices for
    every pairing and both pilots). The flip is ``significant`` when the interval of each
    pilot's gap excludes 0, on opposite sides: each pilot's order holds beyond its interval.
    """
    a, b = _pairs_of(first), _pairs_of(second)
    n = len(first["decks"])
    gaps: list[list[float]] = [[], [], []]
    pairs = _pair_count(a)
    if _pair_count(b) != pairs:
        raise ValueError(f"the two ratings played different seeds ({pairs} and {_pair_count(b)} pairs)")
    for idx in seed_resamples(pairs, samples, seed):
        ea = fit_elo(n, {k: [v[t] for t in idx] for k, v in a.items()})
        eb = fit_elo(n, {k: [v[t] for t in idx] for k, v in b.items()})
        ga, gb = ea[i] - ea[j], eb[i] - eb[j]
        for xs, x in zip(gaps, (ga, gb, gb - ga), strict=True):
            xs.append(x)
    (lo1, hi1), (lo2, hi2), change = (percentile_interval(xs) for xs in gaps)
    return {
        "gap_ci95": [[lo1, hi1], [lo2, hi2]],
        "change_ci95": list(change),
        "significant": (lo1 > 0 and hi2 < 0) or (hi1 < 0 and lo2 > 0),
    }


def pilot_agreement(by_pilot: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """Rank agreement of the same decks rated by several pilots (on the same seeds).

    Kendall's tau per pair of pilots, and the deck pairs whose order flips between two pilots,
    each with ``flip_test``'s gaps, intervals and verdict.
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
                        test = flip_test(by_pilot[p], by_pilot[q], i, j)
                        out["flips"].append({"decks": [names[i], names[j]], "pilots": [p, q], **test})
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
    names = unique_labels(decks)
    if len(decks) < 2:
        raise ValueError(f"rating needs at least two decks, got {len(decks)}")
    if len(set(map(str, decks))) != len(decks):
        raise ValueError(f"each deck may be rated once; got {', '.join(map(str, decks))}")
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
        "pairings": [
            {
                "decks": [names[i], names[j]],
                "index": [i, j],
                **m.outcomes(),
                "pairs": [list(p) for p in m.pairs],
            }
            for (i, j), m in results.items()
        ],
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
