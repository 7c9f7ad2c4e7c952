"""Elo estimates of a sequential test that stopped: median-unbiased, with intervals for the stop.

A test that stops at the first crossing of a bound over-reports the difference it found (the
streams that happened to run lucky stop first). The estimates here read the outcome as the end
of a Brownian motion stopped at the bounds (the LLR's drift and variance per pair in the normal
approximation of the generalized SPRT, as fishtest's ``sprt_elo``): the outcome's place in the
order "failed sooner < failed later < still running, lower < still running, higher < passed
later < passed sooner" has a probability under each true Elo; the estimate is the Elo at which
it is 1/2 (median-unbiased) and the interval's ends are where it is 2.5% and 97.5%.
"""

from __future__ import annotations

import math
from collections.abc import Callable

#: The normalized Elo of one standard deviation of the per-game score away from 1/2
#: (``nElo = NELO_PER_T * (score - 1/2) / sd``, as fishtest defines it).
NELO_PER_T = 800 / math.log(10)


def logistic(elo: float) -> float:
    """Expected score of an Elo difference."""
    return 1 / (1 + 10 ** (-elo / 400))


def _phi(z: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-z / math.sqrt(2))


def _exp_phi(c: float, z: float) -> float:
    """``exp(c) * phi(z)``, with the tail expansion of ``phi`` where ``exp(c)`` alone would overflow."""
    if z < -8:
        return -math.exp(c - z * z / 2) / math.sqrt(2 * math.pi) * (1 / z - 1 / z**3)
    return math.exp(min(c, 700.0)) * _phi(z)


def _below(a: float, b: float, mu: float, var: float, t: float, y: float) -> float:
    """The chance of an outcome worse than ending at ``(t, y)``.

    For a Brownian motion from 0 (drift ``mu``, variance ``var`` per unit time) that is stopped
    at ``a < 0`` or ``b > 0``: the chance that it has reached ``a`` by time ``t`` or is still
    running at ``t`` below ``y``.
    """
    width = b - a
    gamma = mu / var
    if var * t / width**2 < 1e-2 or abs(gamma * width) > 15:
        return min(1.0, max(0.0, _below_images(a, b, mu, var, t, y)))
    x, y = -a, y - a  # measured from the lower bound
    # Ever absorbed at the lower bound ...
    if abs(gamma * width) < 1e-8:
        ever = (width - x) / width
    else:
        ever = (1 - math.exp(2 * gamma * (width - x))) / (1 - math.exp(2 * gamma * width))
    # ... minus the absorptions after t, plus the running mass below y at t: one sine series.
    total, n = 0.0, 1
    lam1 = ((math.pi / width) ** 2 * var + gamma * mu) / 2
    while True:
        k = n * math.pi / width
        lam = (k * k * var + gamma * mu) / 2
        v = (gamma * math.sin(k * y) - k * math.cos(k * y)) / (gamma * gamma + k * k)
        term = math.exp(-(lam - lam1) * t) * v
        total += term * math.sin(k * x)
        if abs(math.exp(-lam1 * t) * term) < 1e-12 or n > 10_000:  # (not the sine: it may be 0)
            break
        n += 1
    return min(1.0, max(0.0, ever + 2 / width * math.exp(gamma * (y - x) - lam1 * t) * total))


def _below_images(a: float, b: float, mu: float, var: float, t: float, y: float) -> float:
    """``_below`` by the method of images, one image per bound (Siegmund's approximation).

    For short times and strong drifts, where the sine series converges slowly.
    """
    sd = math.sqrt(var * t)
    gamma = mu / var
    drift = mu * t
    return (
        _phi((y - drift) / sd)
        + _exp_phi(2 * gamma * a, (2 * a - y + drift) / sd)
        - _exp_phi(2 * gamma * b, (y - drift - 2 * b) / sd)
    )


def _root(f: Callable[[float], float], lo: float, hi: float) -> float:
    """The ``x`` in ``[lo, hi]`` where the decreasing ``f`` crosses 0 (an end when it does not)."""
    if f(lo) <= 0:
        return lo
    if f(hi) >= 0:
        return hi
    for _ in range(60):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def stopped_estimates(
    counts: list[float],
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    stop: int,
) -> dict[str, float | list[float]]:
    """Elo, its 95% interval, LOS, and the same in normalized Elo, of a test's pair counts.

    ``counts`` are the (regularized, all positive) pentanomial counts; ``stop`` is +1 where the
    test stopped at its upper bound, -1 at its lower bound, 0 where it was still running. The LOS is the chance of an outcome worse than this one if the
    decks were equal. Elo values are clipped to [-1000, 1000].
    """
    n = sum(counts)
    m = sum(c * i / 4 for i, c in enumerate(counts)) / n
    v = sum(c * (i / 4 - m) ** 2 for i, c in enumerate(counts)) / n
    s0, s1 = logistic(elo0), logistic(elo1)
    lo, hi = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    slope = (m - (s0 + s1) / 2) * (s1 - s0) / v  # the LLR's drift per pair at the observed score
    var = (s1 - s0) ** 2 / v
    t, y = float(n), n * slope
    if stop == 0 and not lo < y < hi:  # past a bound in this approximation: a stop there
        stop = 1 if y >= hi else -1
    if stop != 0:  # a stop: read it on its bound, at the observed slope where that leads there
        y = hi if stop > 0 else lo
        t = y / slope if y * slope > 0 else t

    def worse(elo: float) -> float:
        drift = (logistic(elo) - (s0 + s1) / 2) * (s1 - s0) / v
        return _below(lo, hi, drift, var, t, y)

    def at(p: float) -> float:
        return _root(lambda e: worse(e) - p, -1000.0, 1000.0)

    elo, ci = at(0.5), [at(0.975), at(0.025)]
    sd = math.sqrt(2 * v)  # the per-game standard deviation of a pair's games

    def nelo(e: float) -> float:
        return NELO_PER_T * (logistic(e) - 0.5) / sd

    return {
        "elo": elo,
        "elo_ci95": ci,
        "los": worse(0.0),
        "nelo": nelo(elo),
        "nelo_ci95": [nelo(ci[0]), nelo(ci[1])],
    }
