"""Invariants of spec section 10 checked at every step of random Master of the World games.

``rules.check`` (``envs.mow.rules.invariants``) checks everything one position shows: I1-I9,
I11, I12, I15 and I17 among the rules it names. ``Tracker`` follows one game and adds the
invariants between positions: I10 (spell activations per turn, from the event lines), I13 (an
attack flag is never reset within a turn), I14 (each deck only shrinks, and shrinks over each of
its owner's turns) and I16 (the observation non-leakage, compared through the encoder every few
steps); I18, determinism, is ``test_determinism.py``.

* ``test_I*`` tests run a small sample of games (fast).
* ``test_invariants_every_step_of_random_games`` is the big sweep (``slow``): 300 games by
  default with every starter-deck pairing, every invariant at every step; the environment
  variable ``DECKGYM_SWEEP_GAMES`` scales it.
* ``test_invariants_hypothesis`` draws seeds, deck pairs, turn caps and action choices.

A failure message gives the seed, the deck pair and the step; ``play(seed)`` replays it.
"""

from __future__ import annotations

import functools
import os
import random
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from deckgym.envs.core.errors import StateError
from deckgym.envs.mow import rules
from deckgym.envs.mow.cards import deck_names, load_pool, resolve_deck
from deckgym.envs.mow.config import make_config
from deckgym.envs.mow.encode import MowEncoder
from deckgym.envs.mow.rules import new_game
from deckgym.envs.mow.state import GameState

POOL = load_pool()
ENC = MowEncoder(POOL)
_FROM_HAND = re.compile(r"^P(\d) activates .* from hand$")
_ACTIVATES = re.compile(r"^P(\d) activates ")


@functools.cache
def decks() -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(resolve_deck(n, POOL).expand()) for n in deck_names())


def start(seed: int, pair: tuple[int, int] | None = None, **cfg) -> GameState:
    ds = decks()
    a, b = pair if pair is not None else (seed % len(ds), (seed // len(ds)) % len(ds))
    return new_game(make_config(**cfg), POOL, [list(ds[a]), list(ds[b])], seed)


class Tracker:
    """Follows one game: what the invariants between positions need from earlier steps."""

    def __init__(self, st: GameState) -> None:
        self.deck_sizes = [len(st.deck[0]), len(st.deck[1])]
        self.turn = st.turn
        self.own_turn_deck: list[int | None] = [None, None]
        self.own_turn_deck[st.active] = len(st.deck[st.active])
        self.attacked: set[tuple[int, int]] = set()
        self.events_seen = len(st.events)
        self.hand_acts = [0, 0]
        self.acts = [0, 0]

    def check(self, st: GameState, leak_rng: random.Random | None = None) -> list[str]:
        bad: list[str] = []
        try:
            rules.check(st)  # I1-I9, I11, I12, I15, I17 and the position rules
        except StateError as e:
            bad.append(str(e))
        self._events(st, bad)
        for p in (0, 1):
            if len(st.deck[p]) > self.deck_sizes[p]:
                bad.append(f"I14 P{p}'s deck grew from {self.deck_sizes[p]} to {len(st.deck[p])}")
            self.deck_sizes[p] = len(st.deck[p])
        self._turns(st, bad)
        if not st.done and leak_rng is not None:
            bad += leaks(st, leak_rng)
        return bad

    def _events(self, st: GameState, bad: list[str]) -> None:
        new = st.events[self.events_seen :] if len(st.events) >= self.events_seen else st.events
        self.events_seen = len(st.events)
        for e in new:
            if e.startswith("-- turn"):
                self.hand_acts = [0, 0]
                self.acts = [0, 0]
            m = _ACTIVATES.match(e)
            if m:
                p = int(m.group(1))
                self.acts[p] += 1
                self.hand_acts[p] += bool(_FROM_HAND.match(e))
        if max(self.hand_acts) > 1 or max(self.acts) > 2:
            bad.append(f"I10 spell activations this turn: from hand {self.hand_acts}, total {self.acts}")

    def _turns(self, st: GameState, bad: list[str]) -> None:
        a = st.active
        if st.turn != self.turn:
            before = self.own_turn_deck[a]
            if before is not None and len(st.deck[a]) >= before:
                bad.append(f"I14 P{a}'s deck did not shrink from its previous turn to turn {st.turn}")
            self.own_turn_deck[a] = len(st.deck[a])
            self.turn = st.turn
            self.attacked.clear()
        for m in st.monsters[a]:
            if m.attacked:
                self.attacked.add((a, m.uid))
            elif (a, m.uid) in self.attacked:
                bad.append(f"I13 {m.card}'s attack flag was reset within turn {st.turn}")
        if st.master_attacked[a]:
            self.attacked.add((a, 0))
        elif (a, 0) in self.attacked:
            bad.append(f"I13 the master's attack flag was reset within turn {st.turn}")


def leaks(st: GameState, rng: random.Random) -> list[str]:
    """I16: each seat's observation is unchanged when what it cannot see is redrawn."""
    out = []
    for seat in (0, 1):
        alt = st.resample_hidden(seat, random.Random(rng.random()))
        if not np.array_equal(ENC.observe(alt, seat), ENC.observe(st, seat)):
            out.append(f"I16 seat {seat}'s observation changes with hidden information")
    return out


def play(
    seed: int, pair: tuple[int, int] | None = None, leak_every: int = 0, choices=None, **cfg
) -> GameState:
    """One random game with every invariant checked at every step; raises on a violation."""
    st = start(seed, pair, **cfg)
    rng = random.Random(seed)
    leak_rng = random.Random(seed + 1)
    tr = Tracker(st)
    step = 0
    while True:
        bad = tr.check(st, leak_rng if leak_every and step % leak_every == 0 else None)
        assert not bad, f"seed {seed} pair {pair} step {step} at {st.decision}: {bad}"
        if st.done:
            return st
        legal = st.legal_actions()
        pick = choices[step % len(choices)] if choices else rng.randrange(len(legal))
        st.apply(legal[pick % len(legal)])
        step += 1
        assert step < 30_000, "I15 the game does not end"


SAMPLE = range(12)


def test_I1_card_conservation_every_step():
    for s in SAMPLE:
        play(s)


def test_I16_observation_non_leakage_sampled_steps():
    for s in range(6):
        play(100 + s, leak_every=3)


def test_I15_every_game_ends_within_the_turn_cap():
    for s in SAMPLE:
        st = play(200 + s, max_turns=20)
        assert st.done and st.turn <= 20
        assert st.truncated == (st.winner == -1)


def test_I9_legal_actions_never_empty_and_sample_reaches_rare_decisions():
    seen = set()
    for s in range(40):
        st = start(s)
        rng = random.Random(s)
        while not st.done:
            seen.add(st.decision)
            legal = st.legal_actions()
            assert legal
            st.apply(legal[rng.randrange(len(legal))])
    assert {"CHARGE", "MAIN", "COUNTER_WINDOW", "ATTACK_DECLARE", "ATTACK_TARGET", "EFFECT_TARGET"} <= seen
    assert {"COST_DISCARD", "SEARCH_CHOICE", "EXP_FROM_HAND", "RECOVER_CHOICE"} <= seen


def test_checker_detects_broken_states():
    st = start(3)
    tr = Tracker(st)
    assert tr.check(st) == []
    st.hand[0].append("MN01")
    st.life[1] = 25
    st.level[0] = 3
    bad = " ".join(tr.check(st))
    for item in ("I1", "I2", "I3"):
        assert item in bad


@pytest.mark.slow
def test_invariants_every_step_of_random_games():
    """300 games by default (every deck pairing); DECKGYM_SWEEP_GAMES=1000 runs a longer sweep."""
    n = int(os.environ.get("DECKGYM_SWEEP_GAMES", "300"))
    ends = {"win": 0, "draw": 0, "truncated": 0}
    for s in range(n):
        st = play(10_000 + s, leak_every=9)
        ends["truncated" if st.truncated else "draw" if st.winner == 2 else "win"] += 1
    assert sum(ends.values()) == n and ends["win"] > n // 2


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st_.integers(0, 2**31 - 1),
    pair=st_.tuples(st_.integers(0, 3), st_.integers(0, 3)),
    max_turns=st_.integers(1, 40),
    choices=st_.lists(st_.integers(0, 50), min_size=1, max_size=40),
)
def test_invariants_hypothesis(seed, pair, max_turns, choices):
    st = play(seed, pair, choices=choices, max_turns=max_turns, first_player=seed % 2)
    assert st.done and st.turn <= max_turns
