"""``make_config`` refuses an option of the wrong type or range, naming it (found by the from_dict hypothesis test)."""

from __future__ import annotations

import pytest

from deckgym.envs.core.errors import StateError
from deckgym.envs.medarot_ocg.config import make_config


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ({"deck_size": None}, "deck_size must be a whole number, got None"),
        ({"start_hp": "10"}, "start_hp must be a whole number, got '10'"),
        ({"medaforce": 1}, "medaforce must be True or False, got 1"),
        ({"hand_cap": 0}, "hand_cap must be a positive integer, got 0"),
        ({"deck_size": True}, "deck_size must be a whole number, got True"),
    ],
)
def test_a_bad_option_is_refused_by_name(option, message):
    with pytest.raises(StateError, match=f"^{message}$"):
        make_config("normal", **option)


def test_the_presets_load_with_their_deck_sizes():
    assert [make_config(m).deck_size for m in ("beginner", "normal", "advance")] == [15, 30, 30]
