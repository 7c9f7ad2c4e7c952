"""Invariants of spec section 10 checked at every step of random Medarot parts games.

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

from deckgym.envs.medarot_parts.actions import Kind
from deckgym.envs.medarot_parts.cards import deck_names, load_pool, resolve_deck
from deckgym.envs.medarot_parts.config import make_config
from deckgym.envs.medarot_parts.rules import new_game
from deckgym.envs.medarot_parts.rules.values import charge, mobility, power
from deckgym.envs.medarot_parts.state import UNTIL_CARD, GameState

POOL = load_pool()
CFG = make_config()
SWEEP = int(os.environ.get("DECKGYM_SWEEP_GAMES", "300"))


@functools.cache
def decks() -> tuple[list[list[str]], ...]:
    return tuple(resolve_deck(n, POOL, CFG).to_list() for n in deck_names())


def start(seed: int) -> GameState:
    d = decks()
    return new_game(CFG, POOL, [d[seed % len(d)], d[(seed // len(d)) % len(d)]], seed)


def field_cards(st: GameState, p: int) -> int:
    n = 0
    for med in st.field[p]:
        n += 1
        for part in med.parts:
            n += 1 + (part.effect is not None) + len(part.attached)
    return n


def check(st: GameState) -> None:
    """Every invariant of section 10 that one position (and the one before) can show."""
    for p in (0, 1):
        zones = len(st.deck[p]) + len(st.hand[p]) + len(st.trash[p]) + len(st.stock[p]) + len(st.play[p])
        assert zones + field_cards(st, p) == 50, "I1 card conservation"
        assert len(st.field[p]) == 2, "I2"
        for m, med in enumerate(st.field[p]):
            assert len(med.parts) == 4 and [st.cards[x.card].slot for x in med.parts] == [0, 1, 2, 3], "I2"
            assert st.cards[med.medal].type == "MEDAL", "I2"
            for s, part in enumerate(med.parts):
                armor = st.cards[part.card].armor
                if part.destroyed:
                    assert part.counters == 0 and part.tapped and part.effect is None and not part.attached, (
                        "I3"
                    )
                else:
                    assert 0 <= part.counters <= armor - 1, "I3"
                if part.effect is not None:  # I5
                    assert st.cards[part.card].effect_part and not part.destroyed and not med.stopped, "I5"
                if s < 3:
                    assert 0 <= power(st, p, m, s) <= 9 and 0 <= charge(st, p, m, s) <= 9, "I6"
            assert 0 <= mobility(st, p, m) <= 9, "I6"
            assert med.stopped == med.parts[0].destroyed, "I4"
            if med.stopped:
                assert st.am[p] != m, "I4 stopped medarot is no action medarot"
        assert st.assets[p] >= 0 and 0 <= len(st.hand[p]) <= 16, "I6"
    holders = {
        x.uid for row in st.field for med in row for x in med.parts if x.effect is not None or x.attached
    }
    for mod in st.mods:
        if mod[6] == UNTIL_CARD:
            assert mod[7] in holders, "I5 a binding exists only while its card does"
    b = st.battle
    if b is not None and b.defender >= 0:
        assert not st.field[1 - b.attacker][b.defender].stopped or st.done, "I4 defending medarot"
    if st.pay is not None:
        assert st.pay[2] < st.pay[1], "I7 payment stops once paid"
    assert st.round <= 2, "I8 at most 2 rounds per turn"
    assert st.turn <= CFG.max_turns, "I10"
    if not st.done:
        legal = st.legal_actions()
        assert st.dp is not None and len(legal) >= 1, "I9"
        assert len(set(legal)) == len(legal)


def check_payment_start(st: GameState) -> None:
    """I7: a payment is never started unless affordable (every decision keeps it completable)."""
    if st.pay is None:
        return
    payer, need, paid, mp, mi, kind = st.pay
    avail = sum(2 if st.cards[c].kind == kind else 1 for c, t in st.stock[payer] if not t)
    if mp >= 0 and not st.field[mp][mi].medal_tapped:
        avail += 2 * st.cards[st.field[mp][mi].medal].efficient
    assert paid + avail >= need, "I7 payment affordable"


def play(seed: int, choose=None) -> GameState:
    st = start(seed)
    rng = random.Random(seed * 31 + 7)
    step = 0
    eager = seed % 2 == 1
    while not st.is_terminal():
        try:
            check(st)
            check_payment_start(st)
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
