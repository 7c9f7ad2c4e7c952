"""Envs of one configuration share their ruleset (pool, encoder, decks) but own their spaces."""

from __future__ import annotations

import numpy as np
import pytest

from deckgym import envs
from deckgym.envs.aec import shared_ruleset


def test_one_configuration_builds_its_ruleset_once():
    a = envs.make("medarot_ocg_v1", mode="advance")
    b = envs.make("medarot_ocg_v1", mode="advance")
    assert a.unwrapped.ruleset is b.unwrapped.ruleset
    assert envs.make("medarot_ocg_v1", mode="normal").unwrapped.ruleset is not a.unwrapped.ruleset
    assert (
        envs.make("medarot_ocg_v1", mode="advance", max_turns=30).unwrapped.ruleset is not a.unwrapped.ruleset
    )


def test_every_env_owns_its_spaces_and_their_random_generators():
    a, b = envs.make("mow_v1"), envs.make("mow_v1")
    sa, sb = a.observation_space("player_0"), b.observation_space("player_0")
    assert sa is not sb and a.action_space("player_0") is not b.action_space("player_0")
    assert a.observation_space("player_0") is a.observation_space("player_1")  # one space per env
    sa.seed(1)
    sb.seed(2)
    x = sa["action_mask"].sample()
    sa.seed(1)
    sb.sample()  # drawing from b leaves a's generator alone
    assert np.array_equal(sa["action_mask"].sample(), x)
    with pytest.raises(ValueError):
        sa["observation"].low[0] = 99.0  # the shared bounds are read-only


def test_a_deck_given_as_a_file_is_read_again_for_every_env(tmp_path):
    """A path may name a file that changed: such a ruleset is never shared."""
    import shutil

    from deckgym.envs.mow.cards import DECKS_DIR

    deck = tmp_path / "mine.toml"
    shutil.copyfile(DECKS_DIR / "tide_control.toml", deck)
    a = envs.make("mow_v1", decks=[str(deck)])
    b = envs.make("mow_v1", decks=[str(deck)])
    assert a.unwrapped.ruleset is not b.unwrapped.ruleset


def test_errors_come_from_every_call_and_nothing_bad_is_cached():
    with pytest.raises(ValueError, match="mode"):
        envs.make("medarot_ocg_v1", mode="expert")
    with pytest.raises(ValueError, match="mode"):
        envs.make("medarot_ocg_v1", mode="expert")

    class Counted:
        built = 0

        def __init__(self, **kw):
            Counted.built += 1

    shared_ruleset(Counted, n=1)
    shared_ruleset(Counted, n=1)
    shared_ruleset(Counted, n=[1, 2])  # lists become keys too
    shared_ruleset(Counted, n=(1, 2))
    shared_ruleset(Counted, n={"a": 1})  # a mapping is not shared
    shared_ruleset(Counted, n={"a": 1})
    assert Counted.built == 4
