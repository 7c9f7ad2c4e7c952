"""``envs.ruleset(name, **options)``: the rules of a configuration without building an env."""

from __future__ import annotations

import pytest

from deckgym import envs

CASES = [
    ("medarot_ocg_v1", {"mode": "advance"}),
    ("medarot_parts_v1", {}),
    ("mow_v1", {"max_turns": 50}),
    ("amalogs_v2", {"team_sizes": (1, 1)}),
]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[n for n, _ in CASES])
def test_it_is_the_ruleset_the_env_of_those_options_plays(name, options):
    rules = envs.ruleset(name, **options)
    assert rules is envs.make(name, **options).unwrapped.ruleset
    # the env's own options play no part in the rules
    assert envs.ruleset(name, render_mode="ansi", illegal_action="raise", **options) is rules
    assert rules.name == envs.make(name, **options).unwrapped.ruleset.name


def test_an_other_configuration_is_an_other_ruleset():
    assert envs.ruleset("medarot_ocg_v1", mode="normal") is not envs.ruleset("medarot_ocg_v1", mode="advance")


def test_unknown_renamed_and_bad_options_are_the_errors_of_make():
    with pytest.raises(KeyError, match="unknown environment 'nope'; known: amalogs_v2"):
        envs.ruleset("nope")
    with pytest.raises(KeyError, match="'mow_v0' is now 'mow_v1'"):
        envs.ruleset("mow_v0")
    for call in (envs.ruleset, envs.make):
        with pytest.raises(Exception, match="unknown rules option\\(s\\) bogus"):
            call("mow_v1", bogus=1)
        with pytest.raises(Exception, match="unknown mode 'expert'"):
            call("medarot_ocg_v1", mode="expert")
