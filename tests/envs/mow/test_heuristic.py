"""The MoW heuristic's rules of thumb (legality, honesty and strength: tests/agents/test_heuristic.py)."""

from __future__ import annotations

from deckgym.agents.heuristic.mow import choose
from deckgym.envs.mow.actions import ATTACKER, PASS
from tests.envs.mow import fixtures as fx


# ----------------------------------------------------------------------------- the deck clock
def test_a_drawing_summon_waits_while_the_deck_clock_is_not_ahead():
    st = fx.make_state(exp=(2, 0), hands=(["SCOUT", "PEBBLE"], []), decks=(10, 10))
    assert choose(st, 0) != fx.use("SCOUT")
    st = fx.make_state(exp=(2, 0), hands=(["SCOUT", "PEBBLE"], []), decks=(25, 10))
    assert choose(st, 0) == fx.use("SCOUT")


def test_a_level_that_draws_is_charged_only_when_the_clock_allows():
    hand = ["PEBBLE"] * 4
    st = fx.make_state(
        masters=("SAGE", "TM"), exp=(3, 0), hands=(hand, []), decks=(10, 10), start="charge_phase"
    )
    assert choose(st, 0) == PASS
    st = fx.make_state(
        masters=("SAGE", "TM"), exp=(3, 0), hands=(hand, []), decks=(25, 10), start="charge_phase"
    )
    assert choose(st, 0) == fx.hand("PEBBLE")


def test_the_master_does_not_attack_into_a_hit_back_it_cannot_afford():
    kw = {"exp": (8, 8), "weapons": ("AXE", "AXE"), "start": "attack_phase"}
    assert choose(fx.make_state(life=(20, 20), **kw), 0) == ATTACKER[0]
    assert choose(fx.make_state(life=(5, 20), **kw), 0) == PASS
