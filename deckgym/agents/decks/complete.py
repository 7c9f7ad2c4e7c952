"""Complete a partial deck: every legal completion from candidate cards, raced against a field.

The partial deck is a deck file with fewer cards than a deck needs; the candidates are the
cards that may fill it, each with the most copies that may be added. Every multiset of
candidate copies that brings the deck to its size and that the ruleset's deck check accepts is
a *completion*.

The completions race against the field (successive elimination): a round plays every
completion still in the race against every field deck on the same new pair seeds (seeds
``seed, seed + 1, ...``), scoring each seed by the mean over the field. After each round the
best completion is the one with the highest mean so far; a completion whose 95% upper bound
of the paired difference to the best (over the same seeds) is below 0 is dropped, once it
has played ``MIN_SEEDS`` seeds. The race ends when one completion is left or the game budget
is spent.

The winners (the ``recheck`` best still in the race) are then played again on fresh seeds,
``seed + HOLDOUT_OFFSET, ...``, never used by the race, so the choice of the winner does not
inflate the score that is reported.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any

from deckgym.agents.arena import Z95, check_most_games, pair_interval
from deckgym.agents.decks.matches import field_matches, field_seed_scores, run_record, unique_labels

#: A deck as card counts ({id: count}).
Counts = dict[str, int]
#: The first held-out seed is this far from the race's first seed.
HOLDOUT_OFFSET = 1_000_000_000
#: Pair seeds per race round.
ROUND_SEEDS = 4
#: Seeds a completion plays before the race may drop it.
MIN_SEEDS = 16


@dataclass
class RaceSettings:
    """The settings of ``complete``'s race.

    ``budget`` games race, then the ``recheck`` best are re-checked with ``holdout`` games per
    field deck; more than ``max_completions`` completions are refused.
    """

    budget: int = 2000
    recheck: int = 3
    holdout: int = 200
    max_completions: int = 200


def read_candidates(path: str | Path, pool: Any) -> list[tuple[str, int | None]]:
    """Candidate cards from a text file: one ``ID`` or ``ID COUNT`` (most copies to add) a line.

    ``#`` starts a comment. Raises ``ValueError`` naming the line for an unknown id or a bad count.
    """
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"--candidates: no file {path}")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"--candidates {path}: not UTF-8 text (byte {exc.start})") from None
    out: dict[str, int | None] = {}
    for no, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        cid, count = words[0], words[1:]
        if cid not in pool:
            raise ValueError(f"--candidates {path} line {no}: unknown card id {cid!r}")
        if len(count) > 1 or (count and not (count[0].isdigit() and int(count[0]) > 0)):
            raise ValueError(f"--candidates {path} line {no}: write ID or ID COUNT (a positive whole number)")
        out[cid] = int(count[0]) if count else None
    if not out:
        raise ValueError(f"--candidates {path} names no card")
    return list(out.items())


def count_multisets(limits: Sequence[int], size: int) -> int:
    """How many ways to take ``size`` copies with at most ``limits[i]`` of card ``i``."""
    ways = [1] + [0] * size
    for lim in limits:
        new = [0] * (size + 1)
        for total in range(size + 1):
            new[total] = sum(ways[total - k] for k in range(min(lim, total) + 1))
        ways = new
    return ways[size]


def multisets(cards: Sequence[str], limits: Sequence[int], size: int) -> list[Counts]:
    """Every way to take ``size`` copies of ``cards``, at most ``limits[i]`` of card ``i``."""
    out: list[Counts] = []

    def walk(i: int, left: int, taken: Counts) -> None:
        if left == 0:
            out.append(dict(taken))
            return
        if i == len(cards) or left > sum(limits[i:]):
            return
        for k in range(min(limits[i], left), -1, -1):
            if k:
                taken[cards[i]] = k
            walk(i + 1, left - k, taken)
            taken.pop(cards[i], None)

    walk(0, size, {})
    return out


def completions(
    partial: Counts,
    candidates: Sequence[tuple[str, int | None]],
    need: int,
    legal: Callable[[Counts], str | None],
    cap: int,
) -> list[Counts]:
    """Every legal deck: ``partial`` plus ``need`` candidate copies. ``legal`` returns None or the problem.

    Raises:
        ValueError: more than ``cap`` ways to add the cards (checked before any is built), or
            none of them legal (the message gives a problem of the first).
    """
    cards = [c for c, _ in candidates]
    limits = [need if n is None else min(n, need) for _, n in candidates]
    ways = count_multisets(limits, need)
    way_s = f"{ways} way{'' if ways == 1 else 's'}"
    if ways > cap:
        raise ValueError(
            f"{way_s} to add {need} cards from the {len(cards)} candidates; at most --max-completions "
            f"{cap} (raise it, or name fewer candidates or fewer copies)"
        )
    decks, first = [], None
    for added in multisets(cards, limits, need):
        deck = dict(partial)
        for c, n in added.items():
            deck[c] = deck.get(c, 0) + n
        problem = legal(deck)
        if problem is None:
            decks.append(deck)
        elif first is None:
            first = problem
    if not decks:
        why = f"; the first breaks the deck rules: {first}" if first else ""
        raise ValueError(f"no legal completion: {way_s} to add {need} cards from the candidates{why}")
    return decks


def _diff_upper(a: Sequence[float], b: Sequence[float]) -> float:
    """Upper 95% bound of the mean paired difference a - b (same seeds)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    mu = sum(d) / n
    var = sum((x - mu) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    return mu + Z95 * math.sqrt(var / n) if var > 0 else math.inf


def race(
    count: int,
    evaluate: Callable[[int, list[int]], list[float]],
    budget: int,
    games_per_seed: int,
    seed: int = 0,
    round_seeds: int = ROUND_SEEDS,
    min_seeds: int = MIN_SEEDS,
) -> dict[str, Any]:
    """Successive elimination of ``count`` entries; ``evaluate(i, seeds)``: entry i's per-seed scores.

    No entry is dropped before ``min_seeds`` seeds (the normal interval needs a few), nor on
    differences without spread (every seed the same).

    Returns ``scores`` (each entry's per-seed scores), ``dropped`` (entry: round dropped in),
    ``rounds`` and ``games``.
    """
    scores: list[list[float]] = [[] for _ in range(count)]
    alive = list(range(count))
    dropped: dict[int, int] = {}
    used = rounds = 0
    next_seed = seed
    while len(alive) > 1 and used + len(alive) * round_seeds * games_per_seed <= budget:
        seeds = list(range(next_seed, next_seed + round_seeds))
        next_seed += round_seeds
        rounds += 1
        for i in alive:
            scores[i] += evaluate(i, seeds)
            used += round_seeds * games_per_seed
        best = max(alive, key=lambda i: sum(scores[i]))
        for i in list(alive):
            if i != best and len(scores[i]) >= min_seeds and _diff_upper(scores[i], scores[best]) < 0:
                alive.remove(i)
                dropped[i] = rounds
    return {"scores": scores, "dropped": dropped, "alive": alive, "rounds": rounds, "games": used}


def _check_settings(
    against: Sequence[Any], budget: int, recheck: int, holdout: int, max_completions: int
) -> None:
    """Check the field and the race settings, raising ValueError for the first one out of range."""
    if not against:
        raise ValueError("--against needs at least one deck")
    if recheck < 1 or holdout < 2 or max_completions < 1:
        raise ValueError(
            f"--recheck and --max-completions must be at least 1 and --holdout at least 2; got "
            f"{recheck}, {max_completions} and {holdout}"
        )
    check_most_games(budget, "--budget")
    check_most_games(holdout, "--holdout")


def _deck_problem(ruleset: Any, wrap: Callable[[Counts], Any]) -> Callable[[Counts], str | None]:
    """A check of a completed deck against the deck rules: None, or the problem it breaks them with."""
    from deckgym.envs.core.errors import DeckError

    def legal(counts: Counts) -> str | None:
        try:
            ruleset.deck_list(wrap(counts))
        except DeckError as exc:
            return exc.detail
        return None

    return legal


def _check_race_budget(budget: int, completed: int, fielded: int) -> None:
    """Check that the budget pays for one round of every completion against every field deck."""
    per_seed_games = 2 * fielded
    if budget < ROUND_SEEDS * completed * per_seed_games:
        raise ValueError(
            f"--budget must be at least {ROUND_SEEDS * completed * per_seed_games} games for {completed} "
            f"completions and {fielded} field decks (one round: {ROUND_SEEDS} seeds each)"
        )


@dataclass(frozen=True)
class _CompletionPlay:
    """How ``complete`` plays its completions (``wrap`` makes one a deck) against the field."""

    env_name: str
    against: Sequence[Any]
    pilot: str
    workers: int | None
    progress: Callable[[int], None] | None
    env_kwargs: dict[str, Any]
    wrap: Callable[[Counts], Any]
    decks: list[Counts]

    def evaluate(self, i: int, seeds: list[int]) -> list[float]:
        """Per seed, completion i's mean points over the field (a pair of games against each field deck)."""
        per_seed = field_seed_scores(
            self.env_name,
            self.wrap(self.decks[i]),
            self.against,
            self.pilot,
            seeds,
            self.workers,
            **self.env_kwargs,
        )
        if self.progress is not None:
            self.progress(2 * len(self.against) * len(seeds))
        return per_seed

    def holdout(self, i: int, games: int, fresh: int) -> list[Any]:
        """Completion i's matches against each field deck on fresh seeds."""
        return field_matches(
            self.env_name,
            self.wrap(self.decks[i]),
            self.against,
            self.pilot,
            games,
            fresh,
            self.workers,
            self.progress,
            **self.env_kwargs,
        )


def _ranking(
    raced: dict[str, Any], decks: list[Counts], partial: Counts
) -> tuple[list[int], list[dict[str, Any]]]:
    """The completions from best to worst (those still in the race first), and each one's race record."""
    order = sorted(
        range(len(decks)),
        key=lambda i: (i in raced["dropped"], -sum(raced["scores"][i]) / max(1, len(raced["scores"][i]))),
    )
    ranking = []
    for i in order:
        s = raced["scores"][i]
        ranking.append(
            {
                "added": {
                    c: decks[i][c] - partial.get(c, 0)
                    for c in sorted(decks[i])
                    if decks[i][c] > partial.get(c, 0)
                },
                "score": sum(s) / len(s) if s else None,
                "score_ci95": list(pair_interval(s)) if s else None,
                "seeds": len(s),
                "dropped_in_round": raced["dropped"].get(i),
            }
        )
    return order, ranking


def _recheck_record(rank: int, added: Counts, hold: list[Any], labels: list[str]) -> dict[str, Any]:
    """One re-checked winner's record: its rank, the cards added and its score on the fresh seeds."""
    per_seed = [
        sum(m.pairs[k][0] + m.pairs[k][1] for m in hold) / (2 * len(hold)) for k in range(len(hold[0].pairs))
    ]
    return {
        "rank": rank + 1,
        "added": added,
        "score": sum(per_seed) / len(per_seed),
        "score_ci95": list(pair_interval(per_seed)),
        "games": sum(m.games for m in hold),
        "vs": {lab: m.score for lab, m in zip(labels, hold, strict=True)},
    }


def _recheck(
    play: _CompletionPlay,
    raced: dict[str, Any],
    order: list[int],
    ranking: list[dict[str, Any]],
    recheck: int,
    holdout: int,
    fresh: int,
    labels: list[str],
) -> list[dict[str, Any]]:
    """The final re-check: the ``recheck`` best completions still in the race, ``holdout`` games each."""
    rechecked = []
    for rank, i in enumerate(order[:recheck]):
        if i in raced["dropped"]:
            break
        hold = play.holdout(i, holdout, fresh)
        rechecked.append(_recheck_record(rank, ranking[rank]["added"], hold, labels))
    return rechecked


def complete(
    env_name: str,
    partial_path: str | Path,
    candidates_path: str | Path,
    against: Sequence[Any],
    pilot: str = "heuristic",
    settings: RaceSettings | None = None,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    **env_kwargs: Any,
) -> dict[str, Any]:
    """Race every legal completion of a partial deck against ``against``; re-check the winners.

    ``settings``: the race's game budget, how many winners are re-checked and with how many
    games, and the most completions (``RaceSettings``'s defaults when None).

    Raises:
        ValueError: no field deck, settings out of range, a bad candidates file, too many or no
            legal completions.
        DeckError: the partial file or a field deck is not a legal deck file / deck.
    """
    from deckgym import envs

    budget, recheck, holdout, max_completions = astuple(settings or RaceSettings())
    _check_settings(against, budget, recheck, holdout, max_completions)
    ruleset = envs.ruleset(env_name, **env_kwargs)
    for f in against:
        ruleset.deck_list(f)
    partial, wrap, size = ruleset.partial_deck(partial_path)
    cands = read_candidates(candidates_path, ruleset.pool)
    have = sum(partial.values())
    if have > size:
        raise ValueError(f"the partial deck has {have} cards; a complete deck has {size}")
    decks = completions(partial, cands, size - have, _deck_problem(ruleset, wrap), max_completions)
    _check_race_budget(budget, len(decks), len(against))
    play = _CompletionPlay(env_name, against, pilot, workers, progress, env_kwargs, wrap, decks)
    raced = race(len(decks), play.evaluate, budget, 2 * len(against), seed)
    order, ranking = _ranking(raced, decks, partial)
    fresh = seed + HOLDOUT_OFFSET
    labels = unique_labels(list(against))
    rechecked = _recheck(play, raced, order, ranking, recheck, holdout, fresh, labels)
    return {
        **run_record(env_name, env_kwargs, pilot, seed),
        "partial": str(partial_path),
        "against": labels,
        "completions": len(decks),
        "race_games": raced["games"],
        "race_rounds": raced["rounds"],
        "ranking": ranking,
        "holdout_seed": fresh,
        "recheck": rechecked,
    }


def format_complete(result: dict[str, Any]) -> str:
    """The race's ranking and the re-check as text."""
    from deckgym.agents.decks.matches import options_text

    def added(cards: Counts) -> str:
        return ", ".join(f"{n}x {c}" for c, n in cards.items()) or "nothing"

    setting = f"{result['env']} {options_text(result['options'])}, pilot {result['pilot']}"
    rounds = result["race_rounds"]
    raced = f"{result['race_games']} games in {rounds} round{'' if rounds == 1 else 's'}"
    lines = [
        f"{result['completions']} legal completions of {result['partial']} raced against "
        + f"{', '.join(result['against'])} ({setting}): {raced}",
        "rank  score [95% interval]     seeds  status          added",
    ]
    for rank, r in enumerate(result["ranking"], 1):
        lo, hi = r["score_ci95"] or (0.0, 1.0)
        score = "-" if r["score"] is None else f"{r['score']:.3f} [{lo:.3f}, {hi:.3f}]"
        status = "in the race" if r["dropped_in_round"] is None else f"out, round {r['dropped_in_round']}"
        lines.append(f"{rank:>4}  {score:<24}{r['seeds']:>6}  {status:<16}{added(r['added'])}")
    lines.append(f"re-checked on fresh seeds (from {result['holdout_seed']}):")
    for r in result["recheck"]:
        lo, hi = r["score_ci95"]
        vs = ", ".join(f"{k} {v:.3f}" for k, v in r["vs"].items())
        lines.append(
            f"  rank {r['rank']}: {r['score']:.3f} [{lo:.3f}, {hi:.3f}] over {r['games']} games ({vs}); "
            f"added {added(r['added'])}"
        )
    return "\n".join(lines)
