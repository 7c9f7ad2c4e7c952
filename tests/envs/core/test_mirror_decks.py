"""``decks="mirror"``: each game draws one starter deck, for both players, from its seed."""

from __future__ import annotations

from typing import Any

import pytest

from deckgym import envs
from deckgym.envs.core.errors import StateError
from tests.envs.variants import MOW, OCG, PARTS

VARIANTS = [OCG[0], PARTS, MOW]


def _drawn(name: str, kwargs: dict[str, Any], seeds: range) -> list[list[Any]]:
    """The decks handed to the rules' ``new_game`` for each seed."""
    ruleset = envs.make(name, **kwargs).unwrapped.ruleset
    start = ruleset.start
    seen: list[list[Any]] = []

    def spy(config: Any, pool: Any, decks: list[Any], seed: int) -> Any:
        seen.append(list(decks))
        return start(config, pool, decks, seed)

    ruleset.start = spy  # on the shared ruleset of this configuration, until ``finally`` restores the class's
    try:
        for seed in seeds:
            ruleset.new_state(seed)
    finally:
        del ruleset.start
    return seen


@pytest.mark.parametrize(("name", "kwargs"), VARIANTS)
def test_mirror_games_give_both_players_one_starter_deck_and_draw_every_starter(
    name: str, kwargs: dict[str, Any]
) -> None:
    drawn = _drawn(name, {**kwargs, "decks": "mirror"}, range(60))
    choices = envs.make(name, **kwargs, decks="mirror").unwrapped.ruleset.deck_choices
    assert all(a is b for a, b in drawn)  # the same deck object on both sides
    used = {next(i for i, c in enumerate(choices) if c is a) for a, _ in drawn}
    assert used == set(range(len(choices)))  # every starter comes up in 60 games


@pytest.mark.parametrize(("name", "kwargs"), VARIANTS)
def test_mirror_draw_is_the_default_draws_first_deck(name: str, kwargs: dict[str, Any]) -> None:
    """Seat 0 gets the deck the default draw gives it on the same seed; the default draw is unchanged."""
    mirror = _drawn(name, {**kwargs, "decks": "mirror"}, range(40))
    default = _drawn(name, kwargs, range(40))
    assert [m[0] for m in mirror] == [d[0] for d in default]
    assert any(d[0] is not d[1] for d in default)  # the default draw still draws two decks


def test_mirror_games_are_seeded() -> None:
    env = envs.make("medarot_ocg_v1", mode="beginner", decks="mirror")
    env.reset(seed=7)
    first = env.unwrapped.game.to_dict()
    env.reset(seed=7)
    assert env.unwrapped.game.to_dict() == first


def test_unknown_deck_word_is_refused_with_the_allowed_values() -> None:
    with pytest.raises(StateError, match="'mirror'.*got 'mirrored'"):
        envs.make("medarot_ocg_v1", mode="beginner", decks="mirrored")
