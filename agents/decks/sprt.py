"""A sequential probability ratio test over game pairs (the pentanomial model of engine testing).

Is deck A stronger than deck B by ``elo1`` rather than ``elo0``? Each seat-swapped pair of games
gives A 0, 1/2, 1, 3/2 or 2 points: five outcomes, the *pentanomial* model, whose pair
scores carry the pairing's correlation (a pair's two games share a seed) that a per-game
model would ignore.

The test is the generalized SPRT of fishtest, computed exactly: under each hypothesis the
pair outcomes follow the five-outcome distribution of greatest likelihood whose mean score
per game is ``s0`` (resp. ``s1``), ``s = 1 / (1 + 10^(-elo / 400))``, and the log-likelihood
ratio is the difference of the two maximized log-likelihoods,

    LLR = N (max_x sum_i f_i log(1 + x (a_i - s0)) - max_x sum_i f_i log(1 + x (a_i - s1))),

with ``a_i`` the five pair scores, ``f_i`` their observed frequencies and ``N`` the pairs (the
maximum over the Lagrange multiplier ``x`` is a one-dimensional concave problem). An outcome
not seen yet counts ``EPSILON`` pairs instead of 0, as in fishtest: the hypotheses can then
always be fitted, and a first run of equal pairs moves the LLR by about
``log(s1 / s0)`` (or ``log((1 - s1) / (1 - s0))``) a pair, the likelihood ratio of that run.

Wald's bounds stop the test: ``LLR >= log((1 - beta) / alpha)`` accepts H1 ("stronger"),
``LLR <= log(beta / (1 - alpha))`` accepts H0 ("not stronger"); the error rates are then
about ``alpha`` (calling a deck of strength ``elo0`` stronger) and ``beta`` (missing one of
strength ``elo1``). ``compare`` plays the pairs, and its record carries the estimates of
:mod:`deckgym.agents.decks.stopped`, corrected for the stop.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from deckgym.agents.arena import check_most_games, chunked, pair_interval, run_chunks, worker_count
from deckgym.agents.decks.matches import Deck, _play_deck_chunk, deck_label, run_record
from deckgym.agents.decks.stopped import logistic, stopped_estimates

#: The five pair scores (A's points in a pair of games, per game), from A's worst pair to its best.
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
_SCORES = np.array(PAIR_SCORES)
#: The count an outcome not seen yet is given (fishtest's regularization).
EPSILON = 1e-3

__all__ = [
    "PAIR_SCORES",
    "PentanomialSPRT",
    "compare",
    "exact_llr",
    "logistic",
    "merge",
    "play_until_decided",
]


def regularized(counts: Sequence[float]) -> list[float]:
    """The pair counts with ``EPSILON`` in place of each 0."""
    return [c if c > 0 else EPSILON for c in counts]


def _profile(freq: np.ndarray, s: float) -> np.ndarray:
    """Per row of frequencies (all positive, summing to 1): ``max_x sum_i f_i log(1 + x (a_i - s))``.

    That is minus the log-likelihood per pair of the best five-outcome distribution of mean
    ``s``, relative to the observed one. Safeguarded Newton steps on the concave function,
    bisection where a step leaves the bracket ``1 + x (a_i - s) > 0``.
    """
    d = _SCORES - s
    rows = freq.shape[0]
    lo, hi = np.full(rows, -1 / (1 - s)), np.full(rows, 1 / s)
    x = np.zeros(rows)
    for _ in range(200):
        t = 1 + x[:, None] * d
        g = (freq * d / t).sum(axis=1)  # the derivative, decreasing in x
        h = (freq * d * d / (t * t)).sum(axis=1)
        lo = np.where(g > 0, x, lo)
        hi = np.where(g > 0, hi, x)
        step = x + g / h
        done = np.abs(step - x) <= 1e-13 * (1 + np.abs(x))
        x = np.where(done | ((step > lo) & (step < hi)), step, (lo + hi) / 2)
        if done.all():
            break
    return (freq * np.log1p(x[:, None] * d)).sum(axis=1)


def exact_llr(counts: Any, s0: float, s1: float) -> np.ndarray:
    """The exact generalized LLR of H1 (mean score ``s1``) against H0 (``s0``) per row of counts.

    ``counts``: pentanomial counts, shape ``(rows, 5)`` or one row of 5; ``EPSILON`` for each 0.
    """
    c = np.atleast_2d(np.asarray(counts, dtype=float))
    c = np.where(c > 0, c, EPSILON)
    n = c.sum(axis=1)
    freq = c / n[:, None]
    return n * (_profile(freq, s0) - _profile(freq, s1))


@dataclass
class PentanomialSPRT:
    """The running test: feed pair results with ``add``; ``status`` is the verdict so far.

    Attributes:
        counts: pairs by A's points, from its worst pair (two losses) to its best (two wins).
        games: A's wins, draws and losses over the games of those pairs.
    """

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05
    counts: list[int] = field(default_factory=lambda: [0] * 5)
    games: list[int] = field(default_factory=lambda: [0] * 3)

    def __post_init__(self) -> None:
        if not self.elo1 > self.elo0:
            raise ValueError(f"elo1 must be above elo0, got elo0={self.elo0}, elo1={self.elo1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError(f"alpha and beta must lie in (0, 0.5), got {self.alpha}, {self.beta}")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 at or below the first, H1 at or above the second."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def add(self, a: float, b: float) -> None:
        """One pair: deck A's points in its two games (1, 0.5 or 0 each)."""
        self.counts[round(2 * (a + b))] += 1
        for x in (a, b):
            self.games[0 if x == 1 else 1 if x == 0.5 else 2] += 1

    @property
    def pairs(self) -> int:
        """Pairs seen."""
        return sum(self.counts)

    def mean_var(self) -> tuple[float, float]:
        """Mean per-game score and the variance of the per-pair score (``EPSILON`` for each 0)."""
        counts = regularized(self.counts)
        n = sum(counts)
        m = sum(c * s for c, s in zip(counts, PAIR_SCORES, strict=True)) / n
        v = sum(c * (s - m) ** 2 for c, s in zip(counts, PAIR_SCORES, strict=True)) / n
        return m, v

    @property
    def llr(self) -> float:
        """The exact log-likelihood ratio (0 before the first pair)."""
        if self.pairs == 0:
            return 0.0
        return float(exact_llr(self.counts, logistic(self.elo0), logistic(self.elo1))[0])

    @property
    def status(self) -> str:
        """``"stronger"`` (H1 accepted), ``"not stronger"`` (H0 accepted) or ``"undecided"``."""
        lo, hi = self.bounds
        llr = self.llr
        return "stronger" if llr >= hi else "not stronger" if llr <= lo else "undecided"


#: The settings a resumed or merged run must share with the runs it continues, in the order checked.
SETTINGS = ("env", "options", "pilot", "deck_a_cards", "deck_b_cards", "elo0", "elo1", "alpha", "beta")


def deck_cards(env_name: str, deck: Deck, **env_kwargs: Any) -> dict[str, int]:
    """A deck value's cards, ``{card id: count}`` sorted by id (``DeckError`` when it is not legal)."""
    from deckgym import envs

    ruleset = envs.make(env_name, **env_kwargs).unwrapped.ruleset
    cards: dict[str, int] = {}
    for cid, n in ruleset.deck_list(deck).cards:
        cards[cid] = cards.get(cid, 0) + n
    return dict(sorted(cards.items()))


def compare(
    env_name: str,
    deck_a: Deck,
    deck_b: Deck,
    pilot: str = "heuristic",
    elo0: float = 0.0,
    elo1: float = 20.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_games: int = 20_000,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int, float], None] | None = None,
    resume: dict[str, Any] | None = None,
    **env_kwargs: Any,
) -> dict[str, Any]:
    """Play pairs of deck A against deck B until the SPRT decides or ``max_games`` are played.

    Pairs run in batches over the workers but are read in seed order and the test stops at the
    first deciding pair, so the result never depends on ``workers``. ``progress(games, llr)``
    is called after each batch. ``resume``, a record this function returned for the same decks,
    pilot and settings, is continued at its next seed: the record is the one a single run
    would give. Pair ``k`` uses seed ``seed + k``.

    Raises:
        DeckError: a deck breaks the ruleset's deck rules (checked before any game runs).
        ValueError: a setting is out of range, or ``resume`` differs in a setting (named).
    """
    from deckgym import envs

    test = PentanomialSPRT(elo0, elo1, alpha, beta)  # checks the settings first
    if max_games < 2:
        raise ValueError(f"max_games must be at least 2 (one seat-swapped pair), got {max_games}")
    check_most_games(max_games, "max_games")
    envs.make(env_name, **{**env_kwargs, "decks": [deck_a, deck_b]})  # the decks are legal
    settings = {
        "env": env_name,
        "options": dict(env_kwargs),
        "pilot": pilot,
        "deck_a": deck_label(deck_a),
        "deck_b": deck_label(deck_b),
        "deck_a_cards": deck_cards(env_name, deck_a, **env_kwargs),
        "deck_b_cards": deck_cards(env_name, deck_b, **env_kwargs),
        "elo0": elo0,
        "elo1": elo1,
        "alpha": alpha,
        "beta": beta,
    }
    start = seed
    if resume is not None:
        _check_same(settings, resume, "the resumed run")
        if resume.get("seed") != seed:
            raise ValueError(f"the resumed run differs in seed: {resume.get('seed')!r}, not {seed!r}")
        test.counts, test.games = list(resume["pairs"]), [resume[k] for k in ("wins", "draws", "losses")]
        start = resume["seeds"][-1][1] if resume["seeds"] else seed
    limit = max_games // 2 - test.pairs  # pairs still to play
    after = None if progress is None else (lambda _pairs: progress(2 * test.pairs, test.llr))
    played = len(
        play_until_decided(test, env_name, deck_a, deck_b, pilot, start, limit, workers, env_kwargs, after)
    )
    ranges = [list(r) for r in resume["seeds"]] if resume is not None else []
    if played:
        ranges = _add_range(ranges, [start, start + played])
    return record(settings, test, seed, ranges, max_games)


def play_until_decided(
    test: PentanomialSPRT,
    env_name: str,
    deck_a: Deck,
    deck_b: Deck,
    pilot: str,
    start: int,
    limit: int,
    workers: int | None,
    env_kwargs: dict[str, Any],
    after_batch: Callable[[list[tuple[float, float]]], None] | None = None,
) -> list[tuple[float, float]]:
    """Pairs on seeds ``start, start + 1, ...`` read into ``test`` until it decides or ``limit`` pairs are read.

    The pairs run in batches over the workers but are read in seed order, and the test stops
    at its first deciding pair, so the pairs read never depend on ``workers``.
    ``after_batch(pairs)`` is called after each batch with the pairs read so far.
    """
    w = worker_count(workers, max(1, limit))
    batch = 8 * w
    pairs: list[tuple[float, float]] = []
    next_seed = start
    while test.status == "undecided" and next_seed - start < limit:
        seeds = list(range(next_seed, min(next_seed + batch, start + limit)))
        next_seed += len(seeds)
        jobs = [(env_name, deck_a, deck_b, pilot, env_kwargs, c) for c in chunked(seeds, w)]
        for chunk in run_chunks(_play_deck_chunk, jobs, w):
            for p in chunk:
                if test.status != "undecided":
                    break
                test.add(*p)
                pairs.append(p)
        if after_batch is not None:
            after_batch(pairs)
    return pairs


def _add_range(ranges: list[list[int]], new: list[int]) -> list[list[int]]:
    """Seed ranges ``[start, stop)`` sorted, with touching ranges joined."""
    out: list[list[int]] = []
    for lo, hi in sorted([*ranges, new]):
        if out and out[-1][1] == lo:
            out[-1][1] = hi
        else:
            out.append([lo, hi])
    return out


def _check_same(settings: dict[str, Any], other: dict[str, Any], what: str) -> None:
    """``ValueError`` naming the first setting in which ``other`` differs."""
    for key in SETTINGS:
        if key not in other:
            raise ValueError(f"{what} has no {key!r}: not a record of decks compare")
        if other[key] != settings[key]:
            name = key.removesuffix("_cards")
            if key.endswith("_cards"):
                raise ValueError(f"{what} differs in {name}: other cards than {settings[name]}")
            raise ValueError(f"{what} differs in {name}: {other[key]!r}, not {settings[key]!r}")


def record(
    settings: dict[str, Any], test: PentanomialSPRT, seed: int, seeds: list[list[int]], max_games: int
) -> dict[str, Any]:
    """The JSON record of a test: settings, verdict, counts, and the estimates corrected for the stop."""
    counts, (wins, draws, losses) = list(test.counts), test.games
    n = test.pairs
    means = [i / 4 for i, c in enumerate(counts) for _ in range(c)]
    stop = {"stronger": 1, "not stronger": -1}.get(test.status, 0)
    estimates = stopped_estimates(regularized(counts), test.elo0, test.elo1, test.alpha, test.beta, stop)
    games = 2 * n
    return {
        **run_record(settings["env"], settings["options"], settings["pilot"], seed),
        **{k: settings[k] for k in ("deck_a", "deck_b", "deck_a_cards", "deck_b_cards")},
        "elo0": test.elo0,
        "elo1": test.elo1,
        "alpha": test.alpha,
        "beta": test.beta,
        "max_games": max_games,
        "seeds": seeds,
        "verdict": test.status,
        "llr": test.llr,
        "bounds": list(test.bounds),
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "draw_share": draws / games if games else 0.0,
        "pairs": counts,
        "pentanomial": counts,
        "score": sum(means) / n if n else 0.5,
        "score_ci95": list(pair_interval(means)),
        **estimates,
        "fixed_games_same_power": fixed_games_for_power(
            test.elo0, test.elo1, test.alpha, test.beta, math.sqrt(test.mean_var()[1])
        ),
    }


def merge(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One record of runs on the same decks, pilot and settings over disjoint seeds.

    The counts add up; the verdict, the LLR and the estimates are those of the merged counts (a
    merged record reads as one test that played all those pairs). ``max_games`` is the sum.

    Raises:
        ValueError: fewer than one record, a setting that differs (named), or a seed two runs share.
    """
    if not records:
        raise ValueError("merge needs at least one record")
    first = records[0]
    settings = {k: first.get(k) for k in (*SETTINGS, "deck_a", "deck_b")}
    test = PentanomialSPRT(first["elo0"], first["elo1"], first["alpha"], first["beta"])
    ranges: list[list[int]] = []
    for i, r in enumerate(records):
        _check_same(settings, r, f"record {i + 1}")
        for lo, hi in r["seeds"]:
            for a, b in ranges:
                if lo < b and a < hi:
                    raise ValueError(
                        f"record {i + 1} shares seeds {max(lo, a)} to {min(hi, b) - 1} with an earlier record"
                    )
            ranges = _add_range(ranges, [lo, hi])
        test.counts = [x + y for x, y in zip(test.counts, r["pairs"], strict=True)]
        test.games = [x + r[k] for x, k in zip(test.games, ("wins", "draws", "losses"), strict=True)]
    seed = min(r["seed"] for r in records)
    return record(settings, test, seed, ranges, sum(r["max_games"] for r in records))


def fixed_games_for_power(elo0: float, elo1: float, alpha: float, beta: float, sd: float) -> int:
    """Games a fixed-size one-sided z-test needs for the same error rates (per-pair sd ``sd``).

    The reference the SPRT's average games are compared with: pairs
    ``((z_a + z_b) sd / (s1 - s0))^2``, two games each.
    """
    from statistics import NormalDist

    z = NormalDist().inv_cdf
    s0, s1 = logistic(elo0), logistic(elo1)
    pairs = ((z(1 - alpha) + z(1 - beta)) * sd / (s1 - s0)) ** 2
    return 2 * math.ceil(pairs)
