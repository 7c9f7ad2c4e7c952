"""Deck matches: the same pilot on both sides, only the decks differ.

In each seeded pair of games the decks swap seats (deck A in seat 0, then deck A in seat 1,
both with the same seed), so the seat advantage and most of the shuffle luck cancel. A
pilot is any agent spec (``heuristic``, ``search:8``, ``ppo:PATH``); each seat gets its own
instance. A result keeps the score of every pair, so intervals are computed over pairs, the
unit of independent evidence, and a sequential test can read the pair outcomes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckgym.agents.arena import (
    check_most_games,
    chunked,
    one_torch_thread,
    pair_interval,
    play_game,
    points,
    run_chunks,
    tally,
)

#: Deck values a match accepts: a starter name, a deck file, ``{id: count}`` or a list of ids.
Deck = Any


def run_record(env_name: str, env_kwargs: dict[str, Any], pilot: str, seed: int) -> dict[str, Any]:
    """What every JSON result records so a run can be repeated exactly (with the package version)."""
    from importlib.metadata import version

    return {
        "env": env_name,
        "options": dict(env_kwargs),
        "pilot": pilot,
        "seed": seed,
        "version": version("deckgym"),
    }


def deck_label(deck: Deck) -> str:
    """A short name of a deck value for tables and JSON."""
    if isinstance(deck, str):
        return deck.rsplit("/", 1)[-1].removesuffix(".toml")
    return "custom"


def unique_labels(decks: Sequence[Deck]) -> list[str]:
    """Labels of several decks, each one different.

    A file's label is its stem; files that share a stem are named by their path from the
    folder they have in common (``aggro`` and ``other/aggro``). Decks that are not names or
    files are ``custom``, ``custom 2``, and so on, as is the same deck given twice.
    """
    parts = [deck.removesuffix(".toml").split("/") if isinstance(deck, str) else ["custom"] for deck in decks]
    labels = [p[-1] for p in parts]
    for stem in set(labels):
        group = [i for i, x in enumerate(labels) if x == stem and isinstance(decks[i], str)]
        if len(group) < 2:
            continue
        common = 0
        while all(len(parts[i]) > common + 1 and parts[i][common] == parts[group[0]][common] for i in group):
            common += 1
        for i in group:
            labels[i] = "/".join(parts[i][common:])
    seen: dict[str, int] = {}
    out = []
    for x in labels:
        seen[x] = seen.get(x, 0) + 1
        out.append(x if seen[x] == 1 else f"{x} {seen[x]}")
    return out


def options_text(options: dict[str, Any]) -> str:
    """A ruleset's options as words for titles (``mode beginner``); ``default options`` when none."""
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in options.items()) or "default options"


def pentanomial(pairs: Sequence[tuple[float, float]]) -> list[int]:
    """How many pairs gave deck A 0, 1/2, 1, 3/2 and 2 points: the five pair outcomes."""
    counts = [0] * 5
    for a, b in pairs:
        counts[round(2 * (a + b))] += 1
    return counts


@dataclass
class DeckMatch:
    """Deck A against deck B over seat-swapped pairs, from A's point of view.

    Attributes:
        pairs: per pair, A's points in its two games (1 win, 0.5 draw, 0 loss).
    """

    deck_a: str
    deck_b: str
    env: str
    pilot: str
    seed: int
    pairs: list[tuple[float, float]] = field(default_factory=list)
    env_kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """Games played (two per pair)."""
        return 2 * len(self.pairs)

    @property
    def score(self) -> float:
        """A's score: (wins + draws / 2) / games."""
        return sum(a + b for a, b in self.pairs) / self.games if self.pairs else 0.5

    @property
    def score_ci95(self) -> tuple[float, float]:
        """95% interval of the score over pairs (normal approximation to the pair means)."""
        return pair_interval([(a + b) / 2 for a, b in self.pairs])

    def counts(self) -> tuple[int, int, int]:
        """A's wins, draws and losses over all games."""
        return tally(self.pairs)

    @property
    def draw_share(self) -> float:
        """Drawn games over games played (0 before the first pair)."""
        return self.counts()[1] / self.games if self.pairs else 0.0

    def outcomes(self) -> dict[str, Any]:
        """Games, A's wins, draws and losses, the draw share and the five pair-outcome counts."""
        w, d, lo = self.counts()
        return {
            "games": self.games,
            "wins": w,
            "draws": d,
            "losses": lo,
            "draw_share": self.draw_share,
            "pentanomial": pentanomial(self.pairs),
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe summary."""
        return {
            "deck_a": self.deck_a,
            "deck_b": self.deck_b,
            "env": self.env,
            "options": self.env_kwargs,
            "pilot": self.pilot,
            "seed": self.seed,
            **self.outcomes(),
            "score": self.score,
            "score_ci95": list(self.score_ci95),
        }


def _play_deck_chunk(
    job: tuple[str, Deck, Deck, str, dict[str, Any], list[int]],
) -> list[tuple[float, float]]:
    env_name, deck_a, deck_b, pilot, env_kwargs, seeds = job
    from deckgym import agents as agent_lib
    from deckgym import envs

    one_torch_thread(pilot)
    env_ab = envs.make(env_name, **{**env_kwargs, "decks": [deck_a, deck_b]})
    env_ba = envs.make(env_name, **{**env_kwargs, "decks": [deck_b, deck_a]})
    pilots = [agent_lib.make(pilot, env_name, seed=1 + seat, **env_kwargs) for seat in range(2)]
    out = []
    for seed in seeds:
        first = play_game(env_ab, pilots, seed)[0]  # deck A in seat 0
        second = play_game(env_ba, pilots, seed)[1]  # deck A in seat 1
        out.append((points(first), points(second)))
    return out


def deck_match(
    env_name: str,
    deck_a: Deck,
    deck_b: Deck,
    pilot: str = "heuristic",
    games: int = 400,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    **env_kwargs: Any,
) -> DeckMatch:
    """Play ``games`` games (rounded up to pairs) of deck A against deck B with the same pilot.

    Pair ``k`` uses seed ``seed + k``; results do not depend on ``workers``.

    Raises:
        DeckError: a deck breaks the ruleset's deck rules (checked before any game runs).
        ValueError: ``games`` is below 2.
    """
    if games < 2:
        raise ValueError(f"games must be at least 2 (one seat-swapped pair), got {games}")
    check_most_games(games)
    from deckgym import envs

    envs.make(env_name, **{**env_kwargs, "decks": [deck_a, deck_b]})  # validate both decks now
    seeds = [seed + k for k in range((games + 1) // 2)]
    jobs = [(env_name, deck_a, deck_b, pilot, env_kwargs, c) for c in chunked(seeds, workers)]
    tick = None if progress is None else (lambda job, _res: progress(2 * len(job[5])))
    pairs = [p for chunk in run_chunks(_play_deck_chunk, jobs, workers, tick) for p in chunk]
    return DeckMatch(deck_label(deck_a), deck_label(deck_b), env_name, pilot, seed, pairs, dict(env_kwargs))


def field_seed_scores(
    env_name: str,
    deck: Deck,
    field: Sequence[Deck],
    pilot: str,
    seeds: Sequence[int],
    workers: int | None,
    **env_kwargs: Any,
) -> list[float]:
    """Per seed, ``deck``'s mean points over ``field``: a pair of games against each field deck.

    ``seeds`` are consecutive (the pairs of each field deck run on ``seeds[0]`` onward).
    """
    per_seed = [0.0] * len(seeds)
    for m in field_matches(env_name, deck, field, pilot, 2 * len(seeds), seeds[0], workers, **env_kwargs):
        for i, (a, b) in enumerate(m.pairs):
            per_seed[i] += (a + b) / 2 / len(field)
    return per_seed


def field_matches(
    env_name: str,
    deck: Deck,
    field: Sequence[Deck],
    pilot: str,
    games: int,
    seed: int,
    workers: int | None,
    progress: Callable[[int], None] | None = None,
    **env_kwargs: Any,
) -> list[DeckMatch]:
    """``deck`` against each deck of ``field``: ``games`` games each, on seeds ``seed`` onward."""
    return [deck_match(env_name, deck, f, pilot, games, seed, workers, progress, **env_kwargs) for f in field]
