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
``LLR <= log(beta / (1 - alpha))`` accepts H0 ("not stronger"), each moved inward by the
expected overshoot as fishtest does it (``Overshoot``); the error rates are then about
``alpha`` (calling a deck of strength ``elo0`` stronger) and ``beta`` (missing one of
strength ``elo1``). Without the correction the LLR jumps past a bound by the size of its last
step, which Wald's bounds ignore, and at wide bounds (few pairs, large steps) the error rates
fell to 2-4%, the tests running longer than they need. ``compare`` plays the pairs, and its record carries the estimates of
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
    "simulate",
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


class Overshoot:
    """How far an LLR path is expected to jump past each bound, estimated from the path so far.

    The LLR's new highs rise by steps ``h_k`` (its ladder heights). By renewal theory the
    overshoot ``R`` past a distant upper bound has ``E[exp(-R)] = sum (1 - exp(-h_k)) / sum h_k``
    (Siegmund, Sequential Analysis, ch. 8, read on the observed ladder heights, as fishtest
    does), and Wald's error rate at a bound ``b`` is in truth ``exp(-b) E[exp(-R)]``; so the test
    stops at ``b - log(1 / E[exp(-R)])`` to keep its nominal rate. For small steps that shift
    is ``sum h_k^2 / (2 sum h_k)``, fishtest's expected overshoot; for large ones it is less.
    The lower bound likewise, from the path's new lows. Works on one path (floats) or on many
    at once (numpy arrays).
    """

    def __init__(self, paths: int | None = None) -> None:
        def zero() -> Any:
            return 0.0 if paths is None else np.zeros(paths)

        #: the highest and lowest LLR so far, and the sums of ``1 - exp(-h)`` over their rises
        self.top, self.top_exp, self.bottom, self.bottom_exp = zero(), zero(), zero(), zero()

    def update(self, llr: Any, rows: Any = None) -> None:
        """Read the LLR after one more pair (per path; of the paths ``rows`` only, when given)."""
        if np.ndim(self.top) == 0:  # one path, as floats
            rise, fall = max(float(llr) - self.top, 0.0), max(self.bottom - float(llr), 0.0)
            self.top_exp += -math.expm1(-rise)
            self.bottom_exp += -math.expm1(-fall)
            self.top, self.bottom = max(self.top, float(llr)), min(self.bottom, float(llr))
            return
        at = slice(None) if rows is None else rows
        top, bottom = self.top[at], self.bottom[at]
        self.top_exp[at] += -np.expm1(-np.maximum(llr - top, 0.0))
        self.bottom_exp[at] += -np.expm1(-np.maximum(bottom - llr, 0.0))
        self.top[at], self.bottom[at] = np.maximum(top, llr), np.minimum(bottom, llr)

    def amounts(self, rows: Any = None) -> tuple[Any, Any]:
        """(at the lower bound, at the upper bound): how far each bound moves in; 0 before any new extreme."""
        if np.ndim(self.top) == 0:
            down = -math.log(self.bottom_exp / -self.bottom) if self.bottom < 0 else 0.0
            return down, (-math.log(self.top_exp / self.top) if self.top > 0 else 0.0)
        at = slice(None) if rows is None else rows
        top, top_exp, bottom, bottom_exp = (
            self.top[at],
            self.top_exp[at],
            self.bottom[at],
            self.bottom_exp[at],
        )
        with np.errstate(divide="ignore", invalid="ignore"):
            down = np.where(bottom < 0, -np.log(bottom_exp / -np.minimum(bottom, -1e-300)), 0.0)
            up = np.where(top > 0, -np.log(top_exp / np.maximum(top, 1e-300)), 0.0)
        return down, up


def verdicts(llr: Any, lo: float, hi: float, overshoot: Overshoot, rows: Any = None) -> Any:
    """+1 (H1, "stronger"), -1 (H0, "not stronger") or 0 (undecided) per path, at the corrected bounds."""
    down, up = overshoot.amounts(rows)
    return np.where(llr >= hi - up, 1, np.where(llr <= lo + down, -1, 0))


def simulate(
    p: Sequence[float],
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    tests: int = 10_000,
    seed: int = 0,
    max_pairs: int = 10**7,
) -> tuple[np.ndarray, np.ndarray]:
    """``tests`` SPRTs whose pairs follow the pentanomial distribution ``p``, each run to its verdict.

    The stopping rule is the one ``PentanomialSPRT`` applies pair by pair (the exact LLR, the
    overshoot-corrected bounds). Returns each test's final counts, shape ``(tests, 5)``, and
    verdict (+1 "stronger", -1 "not stronger", 0 undecided after ``max_pairs``): the error rates
    and the average length of a choice of bounds, for a distribution of the user's choosing.
    """
    rng = np.random.default_rng(seed)
    test = PentanomialSPRT(elo0, elo1, alpha, beta)  # checks the settings
    lo, hi = test.bounds
    s0, s1 = logistic(elo0), logistic(elo1)
    counts, verdict = np.zeros((tests, 5)), np.zeros(tests, dtype=int)
    overshoot = Overshoot(tests)
    running = np.arange(tests)
    for _ in range(max_pairs):
        if not running.size:
            break
        counts[running, rng.choice(5, size=running.size, p=np.asarray(p))] += 1
        llr = exact_llr(counts[running], s0, s1)
        overshoot.update(llr, running)
        decided = verdicts(llr, lo, hi, overshoot, running)
        verdict[running] = decided
        running = running[decided == 0]
    return counts, verdict


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
    overshoot: Overshoot = field(default_factory=Overshoot)
    #: each pair's index in ``counts``, in the order read (the record keeps it as a string of digits)
    outcomes: list[int] = field(default_factory=list)
    #: the LLR of the counts it was computed on (``add`` and ``status`` read it for the same pair)
    _llr: tuple[tuple[int, ...], float] | None = field(default=None, init=False, repr=False, compare=False)

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
        self.outcomes.append(round(2 * (a + b)))
        for x in (a, b):
            self.games[0 if x == 1 else 1 if x == 0.5 else 2] += 1
        self.overshoot.update(self.llr)

    def replay(self, outcomes: Sequence[int]) -> None:
        """Rebuild the overshoot estimate from the pair outcomes in the order read (a resumed or merged run).

        The counts and games are the record's own; the LLR after each pair comes from the
        counts so far, all at once.
        """
        self.outcomes = list(outcomes)
        self.overshoot = Overshoot()
        if not outcomes:
            return
        steps = np.zeros((len(outcomes), 5))
        steps[np.arange(len(outcomes)), outcomes] = 1
        for llr in exact_llr(np.cumsum(steps, axis=0), logistic(self.elo0), logistic(self.elo1)):
            self.overshoot.update(float(llr))

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
        key = tuple(self.counts)
        if self._llr is None or self._llr[0] != key:
            value = float(exact_llr(key, logistic(self.elo0), logistic(self.elo1))[0]) if any(key) else 0.0
            self._llr = (key, value)
        return self._llr[1]

    @property
    def corrected_bounds(self) -> tuple[float, float]:
        """The bounds the test stops at: Wald's, each moved inward by its expected overshoot."""
        down, up = self.overshoot.amounts()
        lo, hi = self.bounds
        return lo + float(down), hi - float(up)

    @property
    def status(self) -> str:
        """``"stronger"`` (H1 accepted), ``"not stronger"`` (H0 accepted) or ``"undecided"``."""
        verdict = int(verdicts(self.llr, *self.bounds, self.overshoot))
        return {1: "stronger", -1: "not stronger", 0: "undecided"}[verdict]


#: The settings a resumed or merged run must share with the runs it continues, in the order checked.
SETTINGS = ("env", "options", "pilot", "deck_a_cards", "deck_b_cards", "elo0", "elo1", "alpha", "beta")


def deck_cards(env_name: str, deck: Deck, **env_kwargs: Any) -> dict[str, int]:
    """A deck value's cards, ``{card id: count}`` sorted by id (``DeckError`` when it is not legal)."""
    from deckgym import envs

    ruleset = envs.ruleset(env_name, **env_kwargs)
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
        test.replay(_outcomes(resume))
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
    out = {
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
        "corrected_bounds": list(test.corrected_bounds),
        "outcomes": "".join(map(str, test.outcomes)),
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
    if sum(1 for c in counts if c) < 2:  # every pair scored alike: the spread is the regularization's
        out.update(nelo=None, nelo_ci95=None, fixed_games_same_power=None)
    return out


def _outcomes(record: dict[str, Any]) -> list[int]:
    """A record's pair outcomes in seed order ([] for a record without them, from before 0.2.1).

    Raises:
        ValueError: the outcomes do not match the record's counts.
    """
    text = record.get("outcomes", "")
    if not text:
        return []
    if not isinstance(text, str) or not set(text) <= set("01234"):
        raise ValueError("the record's outcomes must be a string of the digits 0 to 4")
    outcomes = [int(c) for c in text]
    if [outcomes.count(k) for k in range(5)] != list(record["pairs"]):
        raise ValueError("the record's outcomes do not add up to its pairs")
    return outcomes


def merge(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One record of runs on the same decks, pilot and settings over disjoint seeds.

    The counts add up; the verdict, the LLR and the estimates are those of the merged counts (a
    merged record reads as one test that played all those pairs, in seed order: the overshoot
    estimate is that of the pairs read in that order). ``max_games`` is the sum.

    Raises:
        ValueError: fewer than one record, a setting that differs (named), or a seed two runs share.
    """
    if not records:
        raise ValueError("merge needs at least one record")
    first = records[0]
    settings = {k: first.get(k) for k in (*SETTINGS, "deck_a", "deck_b")}
    test = PentanomialSPRT(first["elo0"], first["elo1"], first["alpha"], first["beta"])
    ranges: list[list[int]] = []
    by_seed: list[tuple[int, int]] = []  # (seed, outcome) of every pair of every record
    for i, r in enumerate(records):
        _check_same(settings, r, f"record {i + 1}")
        try:
            outcomes = _outcomes(r)
        except ValueError as exc:
            raise ValueError(f"record {i + 1}: {exc}") from None
        seeds = [k for lo, hi in r["seeds"] for k in range(lo, hi)]
        if outcomes and len(seeds) == len(outcomes):
            by_seed += zip(seeds, outcomes, strict=True)
        for lo, hi in r["seeds"]:
            for a, b in ranges:
                if lo < b and a < hi:
                    raise ValueError(
                        f"record {i + 1} shares seeds {max(lo, a)} to {min(hi, b) - 1} with an earlier record"
                    )
            ranges = _add_range(ranges, [lo, hi])
        test.counts = [x + y for x, y in zip(test.counts, r["pairs"], strict=True)]
        test.games = [x + r[k] for x, k in zip(test.games, ("wins", "draws", "losses"), strict=True)]
    if len(by_seed) == test.pairs:  # every record has its outcomes: replay them in seed order
        test.replay([o for _, o in sorted(by_seed)])
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
