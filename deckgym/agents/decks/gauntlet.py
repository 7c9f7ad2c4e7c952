"""One deck against a field of decks: per-opponent scores, counts and an optional sequential test.

``gauntlet`` plays the deck against every opponent with ``deck_match`` (the same pilot on both
sides, seat-swapped pairs), every opponent on the same pair seeds ``seed, seed + 1, ...``.
Per opponent it reports the score with its 95% interval over pairs, wins / draws / losses, the
draw share and the five pair-outcome counts (the deck's points in a pair: 0, 1/2, 1, 3/2, 2).

The field total is the weighted mean of the opponents' scores. Its interval counts the
covariance between opponents: they share seeds, so a seed on which the deck draws well helps
it against every opponent at once. With ``sprt = (elo0, elo1)`` each opponent is played in
batches until the pentanomial SPRT (``sprt.PentanomialSPRT``) decides or ``games`` are played;
the test reads the pairs in seed order and stops at the first deciding pair.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deckgym.agents.arena import Z95, check_most_games, wilson
from deckgym.agents.decks.matches import (
    Deck,
    DeckMatch,
    deck_match,
    pentanomial,
    run_record,
    unique_labels,
)


def field_total(
    pairs: Sequence[Sequence[tuple[float, float]]], weights: Sequence[float]
) -> tuple[float, tuple[float, float]]:
    """The weighted mean of per-opponent scores and its 95% interval.

    ``pairs[i]``: the pairs against opponent ``i``, pair ``k`` on the ``k``-th shared seed. The
    variance is ``sum_ij w_i w_j cov(m_i, m_j)``, each covariance estimated on the seeds both
    opponents played: ``c_ij n_ij / (n_i n_j)``. With a single pair against an opponent there is
    no spread to estimate and the interval is (0, 1); where every pair scored alike, the Wilson
    interval of the fewest pairs against an opponent.
    """
    total = sum(weights)
    if total <= 0:
        raise ValueError("the weights must add up to more than 0")
    w = [x / total for x in weights]
    xs = [[(a + b) / 2 for a, b in p] for p in pairs]
    means = [sum(x) / len(x) for x in xs]
    score = sum(wi * m for wi, m in zip(w, means, strict=True))
    var = 0.0
    for i, xi in enumerate(xs):
        for j, xj in enumerate(xs):
            n = min(len(xi), len(xj))
            if not (w[i] and w[j]) or n < 2:
                continue
            mi, mj = sum(xi[:n]) / n, sum(xj[:n]) / n
            cov = sum((a - mi) * (b - mj) for a, b in zip(xi[:n], xj[:n], strict=True)) / (n - 1)
            var += w[i] * w[j] * cov * n / (len(xi) * len(xj))
    fewest = min(len(x) for x, wi in zip(xs, w, strict=True) if wi)
    if fewest < 2:  # one pair against an opponent: no spread to estimate, as ``pair_interval`` says
        return score, (0.0, 1.0)
    if var <= 0:  # every pair alike: the Wilson interval of the fewest pairs, as ``pair_interval`` does
        return score, wilson(score * fewest, fewest)
    half = Z95 * math.sqrt(var)
    return score, (max(0.0, score - half), min(1.0, score + half))


def _ticks(progress: Callable[[int], None] | None) -> Callable[[list[tuple[float, float]]], None] | None:
    """A batch callback that passes ``progress`` the games each batch read."""
    if progress is None:
        return None
    done = [0]

    def tick(pairs: list[tuple[float, float]]) -> None:
        progress(2 * (len(pairs) - done[0]))
        done[0] = len(pairs)

    return tick


def _row(m: DeckMatch, test: Any) -> dict[str, Any]:
    """One opponent's row: the score with its interval, the counts, and the SPRT's verdict if one ran."""
    w, d, lo = m.counts()
    row: dict[str, Any] = {"deck": m.deck_b}
    if test is not None:
        row["sprt"] = {
            "verdict": test.status,
            "llr": test.llr,
            "bounds": list(test.bounds),
            "corrected_bounds": list(test.corrected_bounds),
        }
    row.update(
        games=m.games,
        score=m.score,
        score_ci95=list(m.score_ci95),
        wins=w,
        draws=d,
        losses=lo,
        draw_share=m.draw_share,
        pentanomial=pentanomial(m.pairs),
    )
    return row


def gauntlet(
    env_name: str,
    deck: Deck,
    against: Sequence[Deck],
    pilot: str = "heuristic",
    games: int = 400,
    seed: int = 0,
    workers: int | None = None,
    weights: Mapping[str, float] | None = None,
    sprt: tuple[float, float] | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    progress: Callable[[int], None] | None = None,
    **env_kwargs: Any,
) -> dict[str, Any]:
    """``deck`` against every deck of ``against``: ``games`` games each (the most, with ``sprt``).

    ``weights``: the opponents' shares in the field total, by label (default: equal; an
    opponent left out weighs 0). Returns the per-opponent rows and the field total as JSON.

    Raises:
        ValueError: no opponent, fewer than 2 games, a weight for an unknown label or a
            negative one, or SPRT settings out of range.
        DeckError: a deck breaks the ruleset's deck rules (checked before any game runs).
    """
    from deckgym import envs
    from deckgym.agents.decks.sprt import PentanomialSPRT, play_until_decided

    if not against:
        raise ValueError("--against needs at least one deck")
    if games < 2:
        raise ValueError(f"--games must be at least 2 (one seat-swapped pair), got {games}")
    check_most_games(games, "--games")
    labels = unique_labels([deck, *against])
    name, opponents = labels[0], labels[1:]
    shares = [1.0] * len(against)
    if weights is not None:
        unknown = sorted(set(weights) - set(opponents))
        if unknown:
            raise ValueError(
                f"--weights names decks not in the field: {', '.join(unknown)}; the field: {', '.join(opponents)}"
            )
        if any(v < 0 for v in weights.values()):
            raise ValueError("--weights must not be negative")
        shares = [float(weights.get(o, 0.0)) for o in opponents]
    if sprt is not None:
        PentanomialSPRT(sprt[0], sprt[1], alpha, beta)  # checks the settings before any game
    for opp in against:
        envs.make(env_name, **{**env_kwargs, "decks": [deck, opp]})  # every deck is legal
    rows: list[dict[str, Any]] = []
    all_pairs: list[list[tuple[float, float]]] = []
    for label, opp in zip(opponents, against, strict=True):
        if sprt is None:
            pairs = deck_match(env_name, deck, opp, pilot, games, seed, workers, progress, **env_kwargs).pairs
            test = None
        else:
            test = PentanomialSPRT(sprt[0], sprt[1], alpha, beta)
            limit = (games + 1) // 2
            pairs = play_until_decided(
                test, env_name, deck, opp, pilot, seed, limit, workers, env_kwargs, _ticks(progress)
            )
        rows.append(_row(DeckMatch(name, label, env_name, pilot, seed, pairs, dict(env_kwargs)), test))
        all_pairs.append(pairs)
    score, ci = field_total(all_pairs, shares)
    return {
        **run_record(env_name, env_kwargs, pilot, seed),
        "deck": name,
        "against": rows,
        "weights": dict(zip(opponents, shares, strict=True)),
        "sprt": None if sprt is None else {"elo0": sprt[0], "elo1": sprt[1], "alpha": alpha, "beta": beta},
        "games": sum(r["games"] for r in rows),
        "field_score": score,
        "field_ci95": list(ci),
    }


def format_gauntlet(result: dict[str, Any]) -> str:
    """The per-opponent table and the field total as text."""
    from deckgym.agents.decks.matches import options_text

    rows = result["against"]
    w = max(12, *(len(r["deck"]) for r in rows)) + 2
    head = (
        f"{result['deck']} against {len(rows)} decks ({result['env']} {options_text(result['options'])}, "
        f"pilot {result['pilot']}, {result['games']} games)"
    )
    lines = [
        head,
        f"{'opponent':<{w}}{'games':>6}  {'score [95% interval]':<22}{'W/D/L':>14}{'draws':>7}  pairs 0|1/2|1|3/2|2",
    ]
    for r in rows:
        lo, hi = r["score_ci95"]
        wdl = f"{r['wins']}/{r['draws']}/{r['losses']}"
        score = f"{r['score']:.3f} [{lo:.3f}, {hi:.3f}]"
        line = (
            f"{r['deck']:<{w}}{r['games']:>6}  {score:<22}{wdl:>14}"
            f"{r['draw_share']:>7.1%}  {'|'.join(map(str, r['pentanomial']))}"
        )
        if "sprt" in r:
            line += f"  SPRT {r['sprt']['verdict']} (LLR {r['sprt']['llr']:+.2f})"
        lines.append(line)
    lo, hi = result["field_ci95"]
    weights = result["weights"]
    shares = (
        "equal weights"
        if len(set(weights.values())) == 1
        else "weights " + ", ".join(f"{k} {v:g}" for k, v in weights.items())
    )
    lines.append(f"field ({shares}): {result['field_score']:.3f} [{lo:.3f}, {hi:.3f}]")
    if result["sprt"] is not None:
        s = result["sprt"]
        lines.append(
            f"SPRT per opponent: H0 {s['elo0']:+g} Elo, H1 {s['elo1']:+g} Elo, alpha {s['alpha']:g}, beta {s['beta']:g}"
        )
    return "\n".join(lines)
