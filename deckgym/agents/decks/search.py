"""Deck search: a legal deck that scores best against a field, found by racing hill climbing.

Each step proposes a few *mutants* of the incumbent deck: one copy of a card swapped for
another card of the pool, kept only if the ruleset's deck rules accept it. Every candidate
plays the field on the same seeds as the incumbent (common random numbers), a round of games
at a time; a candidate whose 95% upper bound falls below the incumbent's score on the same
seeds is dropped at once (racing), so hopeless mutants cost few games. The best survivor
replaces the incumbent when its lower bound on the paired difference is above 0. The search
stops when the game budget is spent.

With a ``target`` score the search balances instead of maximising: a deck below the target
is made stronger, one above it weaker, a mutant is kept only if it moves the score closer to
the target, and the search stops once the target lies inside the 95% interval of the
incumbent's scores on every seed since it took over (at least four steps' worth).
This is how a designer tunes a deck to be even against a field. ``keep_theme`` swaps a card
only for a card of the same class (the same kind, and for Medarots the same type; a MoW
master is never swapped), so a tuned deck keeps its theme. ``keep_master`` only keeps a MoW
deck's master (a parts deck's starter set never changes): cards move freely between kinds,
for a deck whose theme is its master and which swaps within kinds cannot bring to even.

The score that is reported comes from **fresh seeds never used in the search** (``holdout``),
so the choice of the best candidate does not inflate it.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from deckgym.agents.arena import Z95, check_most_games, pair_interval

#: A deck as card counts ({id: count}); the ruleset turns it into a validated deck.
Counts = dict[str, int]
#: Plays a deck against the field on pair seeds: per seed, the deck's mean points over the field.
Evaluate = Callable[[Counts, Sequence[int]], list[float]]
#: A legal mutant of a deck (or None when none was found).
Mutate = Callable[[Counts, random.Random], Counts | None]


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _bound(xs: Sequence[float], d: int) -> float:
    """The 95% bound of the mean on the side the search moves to (upper for d = +1, lower for -1)."""
    lo, hi = pair_interval(list(xs))
    return hi if d > 0 else lo


def _direction(inc: float, target: float | None) -> int:
    """+1 to move the score up (no target, or below it), -1 to move it down."""
    return 1 if target is None or inc < target else -1


def _diff_lower(a: Sequence[float], b: Sequence[float]) -> float:
    """Lower 95% bound of the mean paired difference a - b (same seeds)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    if n < 2:
        return -1.0
    mu = _mean(d)
    var = sum((x - mu) ** 2 for x in d) / (n - 1)
    return mu - Z95 * math.sqrt(var / n) if var > 0 else mu


def race_search(
    start: Counts,
    mutate: Mutate,
    evaluate: Evaluate,
    budget: int,
    seed: int = 0,
    proposals: int = 4,
    round_seeds: int = 8,
    rounds: int = 4,
    games_per_seed: int = 1,
    progress: Callable[[int, float], None] | None = None,
    target: float | None = None,
    settle: int = 4,
) -> dict[str, Any]:
    """The racing hill climb over an ``evaluate`` function (games counted as ``games_per_seed`` per seed).

    ``target``: move the score toward this value instead of up, and stop once it lies inside
    the 95% interval of the incumbent's scores since it took over (at least ``settle`` steps'
    seeds). Returns ``best`` (counts), ``games_used``, ``curve`` (games
    used, incumbent score) and ``converged`` (a target was reached).
    """
    rng = random.Random(seed)
    next_seed = seed * 1_000_003
    incumbent = dict(start)
    used = 0
    converged = False
    history: list[float] = []
    curve: list[tuple[int, float]] = []
    while used < budget:
        base: list[float] = []
        alive: list[tuple[Counts, list[float]]] = []
        for _ in range(proposals):
            m = mutate(incumbent, rng)
            if m is not None and m != incumbent and all(m != c for c, _ in alive):
                alive.append((m, []))
        if not alive:
            break
        for _r in range(rounds):
            batch = list(range(next_seed, next_seed + round_seeds))
            next_seed += round_seeds
            base += evaluate(incumbent, batch)
            used += games_per_seed * len(batch)
            for _c, scores in alive:
                scores += evaluate(_c, batch)
                used += games_per_seed * len(batch)
            inc = _mean(base)
            d = _direction(inc, target)
            alive = [(c, s) for c, s in alive if d * _bound(s, d) >= d * inc]  # drop the hopeless ones
            if not alive or used >= budget:
                break
        inc = _mean(base)
        curve.append((used, inc))
        if progress is not None:
            progress(used, inc)
        history += base  # the incumbent's scores on every seed since it became the incumbent
        if target is not None and len(history) >= settle * rounds * round_seeds:
            lo, hi = pair_interval(history)
            if lo <= target <= hi:
                converged = True
                break
        d = _direction(inc, target)
        if alive:
            best, scores = max(alive, key=lambda cs: d * _mean(cs[1]))
            closer = target is None or abs(_mean(scores) - target) < abs(inc - target)
            if closer and _diff_lower([d * x for x in scores], [d * x for x in base]) > 0:
                incumbent, history = best, []  # its scores so far are biased by the choice
                curve.append((used, _mean(scores)))
                if progress is not None:  # the bar shows the accepted deck's score, not the old one's
                    progress(used, _mean(scores))
    return {"best": incumbent, "games_used": used, "curve": curve, "converged": converged}


def swap_mutator(
    pool_cards: Sequence[str],
    legal: Callable[[Counts], bool],
    tries: int = 30,
    card_class: Callable[[str], Any] | None = None,
    swaps: int = 1,
) -> Mutate:
    """Mutants that swap one copy of a deck card for one copy of a pool card, kept if ``legal``.

    With ``card_class`` a card is swapped only for a card of the same class, and cards whose
    class is None are never swapped. ``swaps`` > 1 makes each mutant that many swaps in a row
    (bigger steps, for a deck far from its target).
    """

    def mutate(deck: Counts, rng: random.Random) -> Counts | None:
        out: Counts | None = deck
        for _ in range(swaps):
            out = one_swap(out, rng)
            if out is None:
                return None
        return out

    def one_swap(deck: Counts, rng: random.Random) -> Counts | None:
        for _ in range(tries):
            out_card = rng.choice(sorted(deck))
            in_card = rng.choice(pool_cards)
            if in_card == out_card:
                continue
            if card_class is not None and (
                card_class(out_card) is None or card_class(in_card) != card_class(out_card)
            ):
                continue
            m = dict(deck)
            m[out_card] -= 1
            if m[out_card] == 0:
                del m[out_card]
            m[in_card] = m.get(in_card, 0) + 1
            if legal(m):
                return m
        return None

    return mutate


def searchable() -> list[str]:
    """The deck rulesets (``Game.decks``), whose decks are plain card counts the search can mutate."""
    from deckgym.envs.games import games

    return [g.name for g in games() if g.decks]


def card_class(card: Any) -> tuple[str, str] | None:
    """A card's class for ``keep_theme``; None for a card that is never swapped (a MoW master).

    The OCG and MoW: the card's kind, and for a Medarot or a MedaChange its type too. The parts game (whose
    ``type`` is the category): the category, and for a part its slot.
    """
    if card.kind == "MASTER":
        return None
    if isinstance(card.kind, int):  # the parts game: kind is an energy kind, type the category
        return (card.type, str(card.slot) if card.type == "PART" else "")
    return (card.kind, getattr(card, "type", "") if card.kind in ("MEDAROT", "MEDACHANGE") else "")


def master_only_class(card: Any, banned: frozenset[str] = frozenset()) -> str | None:
    """A card's class for ``keep_master``: one class for every card, None (never swapped in or out) for a MoW master.

    ``banned``: the classes the deck's master may not use (D17), whose cards are never swapped in.
    """
    return None if card.kind == "MASTER" or getattr(card, "cls", "") in banned else "card"


def orphan_medachanges(pool: Any, counts: Counts) -> list[str]:
    """The OCG MedaChange cards of a deck without a Medarot of their name in it (none elsewhere).

    Such a card is legal but can never be played; a tuned starter deck (``keep_theme``,
    ``keep_master``) has none.
    """
    cards = [pool[c] for c in counts]
    names = {c.name for c in cards if c.kind == "MEDAROT"}
    return sorted(c.id for c in cards if c.kind == "MEDACHANGE" and c.name not in names)


def _banned(pool: Any, counts: Counts) -> frozenset[str]:
    """The classes the deck's master may not use (D17; none outside MoW)."""
    for c in counts:
        if pool[c].kind == "MASTER":
            return frozenset(getattr(pool[c], "restrictions", ()))
    return frozenset()


def deck_toml(
    env_name: str,
    counts: Counts,
    ruleset: Any,
    name: str,
    description: str,
    starter: Sequence[Sequence[str]] | None = None,
) -> str:
    """The deck as a deck file of its ruleset (``decks check`` accepts it); ``starter``: the parts game's set."""
    pool = ruleset.pool
    head = [f"name = {json.dumps(name)}", f"description = {json.dumps(description)}"]  # TOML basic strings
    cards = dict(counts)
    if env_name == "medarot_ocg_v1":
        head.insert(1, f'mode = "{ruleset.config.mode}"')
    elif starter is not None:  # the parts game: the starter set, then the 40-card deck
        head += ["", "[starter]", "# medal, head, right arm, left arm, legs"]
        head += [f"medarot{i + 1} = {json.dumps(list(m))}" for i, m in enumerate(starter)]
    else:  # mow: the master is named apart from the main deck
        master = next(c for c in cards if pool[c].kind == "MASTER")
        del cards[master]
        head.insert(1, f'master = "{master}"  # {pool[master].name}')
    body = [f"{cid} = {n}  # {pool[cid].name}" for cid, n in sorted(cards.items())]
    return "\n".join([*head, "", "[cards]", *body]) + "\n"


def _check_search_args(
    env_name: str, field: Sequence[Any], budget: int, swaps: int, target: float | None
) -> None:
    """Check the search's arguments, raising ValueError for the first one out of range."""
    if env_name not in searchable():
        raise ValueError(f"deck search works on {', '.join(searchable())}; got {env_name}")
    if not field:
        raise ValueError("--field needs at least one deck")
    if budget < 16 * len(field):
        raise ValueError(f"--budget must be at least {16 * len(field)} games for a field of {len(field)}")
    check_most_games(budget, "--budget")
    if swaps < 1:
        raise ValueError(f"--swaps must be at least 1, got {swaps}")
    if target is not None and not 0 < target < 1:
        raise ValueError(f"--target must be a score strictly between 0 and 1, got {target}")


def _start_counts(env_name: str, ruleset: Any, start: Any) -> tuple[Counts, list[list[str]] | None]:
    """The start deck's card counts, and the parts game's starter set (None for the other rulesets)."""
    if env_name == "medarot_parts_v1":  # the search changes the 40-card deck; the starter set stays
        from deckgym.envs.medarot_parts.cards import resolve_deck

        first = resolve_deck(start, ruleset.pool, ruleset.config)
        return dict(first.deck.cards), [list(m) for m in first.starter.medarots]
    return dict(ruleset.deck_list(start).cards), None


@dataclass(frozen=True)
class _FieldPlay:
    """How the search checks a deck and plays it against the field (the parts game keeps ``starter``)."""

    env_name: str
    field: Sequence[Any]
    pilot: str
    workers: int | None
    env_kwargs: dict[str, Any]
    ruleset: Any
    starter: list[list[str]] | None
    tuning: bool  # a starter being tuned stays playable as one

    def value(self, counts: Counts) -> Any:
        """The deck as the ruleset reads it: the counts, with the starter set in the parts game."""
        return counts if self.starter is None else {"starter": self.starter, "cards": counts}

    def legal(self, counts: Counts) -> bool:
        """Whether the deck rules accept the deck (and a tuned starter has no orphan MedaChange)."""
        from deckgym.envs.core.errors import DeckError

        try:
            self.ruleset.deck_list(self.value(counts))
        except DeckError:
            return False
        return not (self.tuning and orphan_medachanges(self.ruleset.pool, counts))

    def evaluate(self, counts: Counts, seeds: Sequence[int]) -> list[float]:
        """Per seed, the deck's mean points over the field (a pair of games against each field deck)."""
        from deckgym.agents.decks.matches import field_seed_scores

        return field_seed_scores(
            self.env_name, self.value(counts), self.field, self.pilot, seeds, self.workers, **self.env_kwargs
        )

    def holdout(self, best: Counts, games: int, fresh: int) -> list[Any]:
        """The final re-check: the best deck's matches against each field deck on fresh seeds."""
        from deckgym.agents.decks.matches import field_matches

        return field_matches(
            self.env_name,
            self.value(best),
            self.field,
            self.pilot,
            games,
            fresh,
            self.workers,
            **self.env_kwargs,
        )


def _swap_class(
    pool: Any, keep_theme: bool, keep_master: bool, banned: frozenset[str]
) -> Callable[[str], Any] | None:
    """The class a card id may be swapped within (``keep_theme``, ``keep_master``), or None for any card."""
    if keep_theme:
        return lambda c: card_class(pool[c])
    if keep_master:
        return lambda c: master_only_class(pool[c], banned)
    return None


def _search_result(
    play: _FieldPlay,
    seed: int,
    start: Any,
    found: dict[str, Any],
    fresh: int,
    hold: list[Any],
    options: dict[str, Any],
) -> dict[str, Any]:
    """Assemble the JSON result: the run, the best deck and its deck file, the search and the holdout."""
    from deckgym.agents.decks.matches import deck_label, run_record

    best = found["best"]
    pairs = [p for m in hold for p in m.pairs]
    score = sum(a + b for a, b in pairs) / (2 * len(pairs))
    return {
        **run_record(play.env_name, play.env_kwargs, play.pilot, seed),
        "field": [deck_label(f) for f in play.field],
        "start": deck_label(start),
        "best": best,
        "starter": play.starter,
        "best_toml": deck_toml(
            play.env_name,
            best,
            play.ruleset,
            "Searched deck",
            f"found by deckgym decks search, seed {seed}",
            play.starter,
        ),
        "games_used": found["games_used"],
        "curve": found["curve"],
        "target": options["target"],
        "converged": found["converged"],
        "keep_theme": options["keep_theme"],
        "keep_master": options["keep_master"],
        "swaps": options["swaps"],
        "holdout_seed": fresh,
        "holdout_games": sum(m.games for m in hold),
        "holdout_score": score,
        "holdout_ci95": list(pair_interval([(a + b) / 2 for a, b in pairs])),
        "holdout_vs": {m.deck_b: m.score for m in hold},
    }


def deck_search(
    env_name: str,
    field: Sequence[Any],
    budget: int,
    start: Any = None,
    pilot: str = "heuristic",
    seed: int = 0,
    workers: int | None = None,
    holdout_games: int = 400,
    progress: Callable[[int, float], None] | None = None,
    target: float | None = None,
    keep_theme: bool = False,
    swaps: int = 1,
    keep_master: bool = False,
    **env_kwargs: Any,
) -> dict[str, Any]:
    """Search a deck that scores best against ``field`` (or nearest ``target``), then score it on fresh seeds.

    ``budget`` counts the search's games; the holdout plays ``holdout_games`` more against
    each field deck on seeds the search never used. ``keep_theme`` swaps cards only within
    their class (``card_class``), ``keep_master`` only never swaps a MoW master; ``swaps`` is
    the number of one-card swaps per mutant.

    Raises:
        ValueError: the ruleset is not searchable, the field is empty, the budget too small or
            the target outside (0, 1).
        DeckError: a field or start deck breaks the deck rules.
    """
    from deckgym import envs

    _check_search_args(env_name, field, budget, swaps, target)
    ruleset = envs.ruleset(env_name, **env_kwargs)
    for f in field:
        ruleset.deck_list(f)
    if start is None:
        start = field[0]
    start_counts, starter = _start_counts(env_name, ruleset, start)
    play = _FieldPlay(
        env_name, field, pilot, workers, env_kwargs, ruleset, starter, keep_theme or keep_master
    )
    pool = ruleset.pool
    banned = _banned(pool, start_counts)  # the master's restricted classes (D17), worked out once
    found = race_search(
        start_counts,
        swap_mutator(
            sorted(pool.cards),
            play.legal,
            card_class=_swap_class(pool, keep_theme, keep_master, banned),
            swaps=swaps,
        ),
        play.evaluate,
        budget,
        seed,
        games_per_seed=2 * len(field),
        progress=progress,
        target=target,
    )
    fresh = 900_000_000 + seed * 100_003  # far from every seed the search used
    hold = play.holdout(found["best"], holdout_games, fresh)
    options = {"target": target, "keep_theme": keep_theme, "keep_master": keep_master, "swaps": swaps}
    return _search_result(play, seed, start, found, fresh, hold, options)
