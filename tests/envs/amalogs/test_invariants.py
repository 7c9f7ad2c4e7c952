"""Invariants of spec section 10 (I1-I13) checked at every step of random AMALOGS games.

``rules.check`` (``envs.amalogs.rules.invariants``) checks everything one position shows: I1-I5,
I7, I10 and I11 among the rules it names. ``Checker`` follows one game and adds what needs more
than one position or reads inside the core sides: I6 (one DUEL per avatar per team turn), I8
(base-life conservation, from the exit and base-hit events), I9 (core-card conservation of each
side, through its adapter), I4 and I10 at each point gain (every avatar on the MAP, none of the
acting team Guarding), I7 inside the core tables (the rules check reads no core game's options)
and I13 (a MOVE ends within its allowance).

``test_invariants_every_step_of_random_games`` is the sweep (``slow``): 200 random 2v2 games
by default, ``DECKGYM_SWEEP_GAMES`` scales it; 1v1 and 3v3 games run a smaller sample. I7
(masks) and I12 (observations) are checked through the environment in ``test_env.py``;
here I7 is checked on the engine (one player to act with a non-empty option list).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest

from deckgym.envs.amalogs import rules
from deckgym.envs.amalogs.actions import Kind, Phase
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.rules import new_game
from deckgym.envs.amalogs.rules.geometry import DIST
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.core.errors import StateError
from tests.envs.amalogs.fixtures import config


class Checker:
    """Follows one game and collects invariant violations."""

    def __init__(self, st: AmalogsState) -> None:
        self.st = st
        self.bad: list[str] = []
        self.ledger = [0, 0]
        self.duels: Counter[tuple[int, int]] = Counter()
        self.turn = st.team_turn
        self.events: list[dict[str, object]] = []
        emit = st.emit

        def spy(kind: str, text: str, only: tuple[int, dict[str, Any]] | None = None, **fields: Any) -> None:
            self.events.append({"kind": kind, **fields})
            emit(kind, text, only, **fields)

        st.emit = spy  # type: ignore[method-assign]

    def fail(self, inv: str, msg: str) -> None:
        """Record a violation."""
        self.bad.append(f"{inv}: {msg} (team turn {self.st.team_turn}, phase {self.st.phase!r})")

    def step(self, action: object) -> None:
        """Apply ``action`` and check the invariants."""
        st = self.st
        before = st.avatars[st.control].square if st.phase == Phase.MOVE_DEST else -1
        allowance = st.move_allowance
        if getattr(action, "kind", None) == Kind.DUEL:
            self.duels[(st.team_turn, st.control)] += 1
        st.apply(action)
        if before >= 0 and DIST[before][st.avatars[st.control].square] > allowance:
            self.fail("I13", "MOVE went beyond its allowance")
        for e in self.events:
            if e["kind"] == "exit":
                team = st.config.team_of(int(e["player"]))  # type: ignore[call-overload]
                self.ledger[team] += int(e["per_we"]) * int(e["we"])  # type: ignore[call-overload]
            elif e["kind"] == "strike" and e["base"] is not None:
                self.fail("D41", "a strike hit a base")
            elif e["kind"] in ("base_hit", "siege"):  # D40, D43: 1 base life each
                self.ledger[int(e["team"])] -= 1  # type: ignore[call-overload]
        self.events.clear()
        self.check()

    def check(self) -> None:
        """Every invariant: the rules check of the position, then what needs earlier positions."""
        st = self.st
        try:
            rules.check(st)  # I1-I5, I7, I10, I11 and the position rules
        except StateError as e:
            self.bad.append(f"{e} (team turn {st.team_turn}, phase {st.phase!r})")
        for t in (0, 1):
            if st.life[t] != st.config.start_life + self.ledger[t]:
                self.fail("I8", f"base life {st.life[t]} != 18 + ledger {self.ledger[t]}")
        for i, a in enumerate(st.avatars):
            if a.side is not None and sorted(adapter(a.ruleset).side_cards(a.side)) != sorted(
                st.config.deck(i, a.ruleset)
            ):
                self.fail("I9", f"P{i}'s side lost or gained cards")
        if st.team_turn != self.turn and st.phase == Phase.META_FIELD and not st.done:
            self.turn = st.team_turn
            if not all(a.on_map for a in st.avatars):
                self.fail("I4", "an avatar is off the MAP at the action-point gain")
            if any(a.guarding for a in st.avatars if a.team == st.acting):
                self.fail("I10", "a Guarding avatar right after its team's point gain")
        if any(n > 1 for n in self.duels.values()):
            self.fail("I6", "an avatar dueled twice in one team turn")
        # I7 inside the core tables too (the rules check reads no core game's options)
        if not st.done and not st.legal_actions():
            self.fail("I7", "no legal option")
        if st.done and st.legal_actions():
            self.fail("I7", "options after the end")


def play(team_sizes: tuple[int, int], seed: int) -> list[str]:
    """One random game; the list of violations (empty when every invariant holds)."""
    st = new_game(config(team_sizes), seed)
    rng = random.Random(seed * 7 + 1)
    checker = Checker(st)
    checker.check()
    steps = 0
    while not st.done:
        legal = st.legal_actions()
        checker.step(legal[rng.randrange(len(legal))])
        steps += 1
        if checker.bad:
            return [f"seed {seed} step {steps}: {m}" for m in checker.bad[:5]]
        assert steps < 200_000, "the game did not end"
    return []


def test_I1_to_I13_small_sample_every_team_size() -> None:
    """Every invariant at every step of a few 1v1 and 3v3 games."""
    bad = [m for sizes in ((1, 1), (3, 3)) for seed in range(4) for m in play(sizes, seed)]
    assert not bad, "\n".join(bad)


@pytest.mark.slow
def test_invariants_every_step_of_random_games() -> None:
    """I1-I11, I13 at every step of 200 random 2v2 games (DECKGYM_SWEEP_GAMES scales it)."""
    n = int(os.environ.get("DECKGYM_SWEEP_GAMES", "200"))
    bad = [m for seed in range(1000, 1000 + n) for m in play((2, 2), seed)]
    assert not bad, "\n".join(bad[:20])
