"""Invariants of spec section 10 checked at every step of random Medarot parts games.

``rules.check`` (``envs/medarot_parts/rules/invariants.py``) checks every invariant one position
shows (I1-I10, the spec's items 1-10, and the position rules); ``play`` runs it at every step
and adds the transitions: hands hold 7 after each draw phase and at most 7 after each end phase
(I6), and a finished game has exactly one outcome (I10).

* ``test_I1_...`` plays a few games; ``test_rules_check_holds_at_every_step_of_every_deck_pair``
  two games of every deck pair.
* ``test_invariants_every_step_random_games`` is the big sweep (``slow``): 300 games (scale
  with ``DECKGYM_SWEEP_GAMES``) over every pair of packaged decks, every invariant at every
  step, and every game ends.
* ``test_invariants_hypothesis`` draws seeds, deck pairs and action choices.
* I11 (observations never contain hidden information) is checked in ``test_env.py``.

A failure message gives a reproduction: seed, deck pair and step.
"""

from __future__ import annotations

import functools
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from deckgym.envs.core.errors import StateError
from deckgym.envs.medarot_parts import rules
from deckgym.envs.medarot_parts.actions import Kind
from deckgym.envs.medarot_parts.cards import EFFECT, MEDAL, deck_names, load_pool, resolve_deck
from deckgym.envs.medarot_parts.config import make_config
from deckgym.envs.medarot_parts.rules import new_game
from deckgym.envs.medarot_parts.state import UNTIL_CARD, UNTIL_TURN, GameState
from tests.envs.check_report import item_lines

POOL = load_pool()
CFG = make_config()
SWEEP = int(os.environ.get("DECKGYM_SWEEP_GAMES", "300"))


@functools.cache
def decks() -> tuple[list[list[str]], ...]:
    return tuple(resolve_deck(n, POOL, CFG).to_list() for n in deck_names())


def start(seed: int) -> GameState:
    d = decks()
    return new_game(CFG, POOL, [d[seed % len(d)], d[(seed // len(d)) % len(d)]], seed)


def check(st: GameState) -> None:
    """Every invariant of section 10 one position shows: ``rules.check``, as an assertion."""
    try:
        rules.check(st)
    except StateError as exc:
        raise AssertionError(str(exc)) from None


def play(seed: int, choose=None) -> GameState:
    st = start(seed)
    rng = random.Random(seed * 31 + 7)
    step = 0
    eager = seed % 2 == 1
    while not st.is_terminal():
        try:
            check(st)
        except AssertionError as exc:
            raise AssertionError(f"seed {seed} step {step} {st.decision}: {exc}") from None
        legal = st.legal_actions()
        if choose is not None:
            action = choose(legal)
        elif eager and len(legal) > 1 and rng.random() < 0.8:
            busy = [a for a in legal if a.kind != Kind.PASS]
            action = rng.choice(busy or legal)
        else:
            action = rng.choice(legal)
        before = (st.turn, [len(h) for h in st.hand])
        st.apply(action)
        if st.turn != before[0] and not st.done:  # a draw phase ran during this step
            assert all(len(h) == 7 for h in st.hand), f"seed {seed}: I6 hands after the draw phase"
        step += 1
    check(st)
    assert st.done and (st.winner in (0, 1, 2)) != st.truncated, "I10 exactly one outcome"
    return st


def test_I1_I2_I3_I4_I5_I6_I7_I8_I9_I10_on_a_few_games():
    for seed in range(12):
        play(seed)


def test_rules_check_holds_at_every_step_of_every_deck_pair():
    n = len(decks())
    pairs = {(seed % n, (seed // n) % n) for seed in range(2 * n * n)}
    assert len(pairs) == n * n
    for seed in range(2 * n * n):
        play(seed)


def test_I6_hand_at_most_7_after_each_end_phase():
    for seed in range(8):
        st = start(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            was_end = st.decision == "DISCARD"
            st.apply(rng.choice(st.legal_actions()))
            if was_end and st.decision != "DISCARD" and not st.done:
                assert all(len(h) <= 7 for h in st.hand)


@pytest.mark.slow
def test_invariants_every_step_random_games():
    outcomes = {"win": 0, "draw": 0, "truncated": 0}
    for seed in range(SWEEP):
        st = play(1000 + seed)
        outcomes["truncated" if st.truncated else "draw" if st.winner == 2 else "win"] += 1
    assert sum(outcomes.values()) == SWEEP and outcomes["win"] > 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10**6), picks=hs.lists(hs.integers(0, 1000), min_size=1, max_size=50))
def test_invariants_hypothesis(seed, picks):
    it = iter(picks * 400)

    def choose(legal):
        return legal[next(it, 0) % len(legal)]

    play(seed, choose)


# ----------------------------------------------------------------------------- broken states
@functools.cache
def _live_position():
    """A game in turn 2 (never changed: the broken states below are clones)."""
    st = start(5)
    rng = random.Random(5)
    while st.turn < 2 and not st.done:
        st.apply(rng.choice(st.legal_actions()))
    assert not st.done
    return st


def _steal(g):
    g.deck[0].pop()


def _lose_a_part(g):
    g.field[1][0].parts.pop()


def _destroyed_with_counters(g):
    part = g.field[0][1].parts[2]
    part.destroyed, part.tapped, part.counters = True, True, 1


def _too_many_counters(g):
    part = g.field[0][0].parts[3]
    part.counters = g.cards[part.card].armor


def _stopped_action_medarot(g):
    head = g.field[1][0].parts[0]
    head.destroyed = head.tapped = True
    head.counters = 0
    g.action_medarot[1] = 0


def _effect_card_on_plain_part(g):
    i = next(i for i, c in enumerate(g.deck[0]) if g.cards[c].type == EFFECT)
    part = next(x for x in g.field[0][0].parts if not g.cards[x.card].effect_part)
    part.effect = g.deck[0].pop(i)


def _binding_without_card(g):
    g.mods.append([0, 1, -1, 1, 0, 0b010, UNTIL_CARD, g.field[0][0].parts[1].uid])


def _negative_assets(g):
    g.assets[0] = -100


def _overpaid(g):
    g.pay = [0, 4, 4, -1, -1, 0]


def _third_round(g):
    g.round = 3


def _unknown_decision(g):
    g.decision_point = (99, 0, ())


def _over_the_turn_cap(g):
    g.turn = g.config.max_turns + 1


def _medal_in_hand(g):
    medal = next(c for c in g.cards if g.cards[c].type == MEDAL)
    g.hand[0] = sorted([*g.hand[0], medal])


def _reversed_hand(g):
    g.hand[1] = sorted(g.hand[1], reverse=True)  # 2 or more different cards: not the canonical order


def _turn_modifier_on_legs(g):
    g.mods.append([0, 1, -1, 0, 0, 0b1000, UNTIL_TURN, -1])


#: Broken states: the corruption, the item ``rules.check`` names, and words of its line.
BROKEN = [
    (_steal, "I1", "I1 card conservation: player 0 holds 49 cards in all, not 50"),
    (_lose_a_part, "I2", "has 3 parts, not one per slot"),
    (_destroyed_with_counters, "I3", "is destroyed, so it is tapped and holds no counters"),
    (_too_many_counters, "I3", "a part that is not destroyed holds 0.."),
    (_stopped_action_medarot, "I4", "is stopped (head destroyed, D33)"),
    (_effect_card_on_plain_part, "I5", "is not a melee effect part"),
    (_binding_without_card, "I5", "which holds none"),
    (_negative_assets, "I6", "below 0 (D3)"),
    (_overpaid, "I7", "paid EP stay below the needed EP"),
    (_third_round, "I8", "at most 2 rounds"),
    (_unknown_decision, "I9", "is not a decision point"),
    (_over_the_turn_cap, "I10", "past the turn cap"),
    (_medal_in_hand, "D2", "medals stay on the field"),
    (_reversed_hand, "D40", "not in the canonical order"),
    (_turn_modifier_on_legs, "D42", "not to head and arm slots"),
]


@pytest.mark.parametrize(
    ("mutate", "item", "words"), BROKEN, ids=[f"{b[1]}-{b[0].__name__[1:]}" for b in BROKEN]
)
def test_checker_detects_broken_states(mutate, item, words):
    """Each check can fail: corrupt a live state and see ``rules.check`` name the matching item."""
    st = _live_position()
    rules.check(st)
    assert len(set(st.hand[1])) > 1  # the hand order can be broken
    g = st.clone()
    g.decks = [[list(x) for x in d] for d in g.decks]  # the clone shares the deck lists
    mutate(g)
    item_lines(rules.check, g, item, words)
