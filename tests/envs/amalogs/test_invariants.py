"""Invariants of spec section 10 (I1-I13) checked at every step of random AMALOGS games.

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

from deckgym.envs.amalogs.actions import Kind, Phase
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.rules import new_game
from deckgym.envs.amalogs.rules.geometry import BASES, DIST, SQUARES
from deckgym.envs.amalogs.state import AmalogsState
from tests.envs.amalogs.fixtures import config

_LIVE = (Phase.META_FIELD, Phase.MOVE_DEST, Phase.DUEL_CORE, Phase.STRIKE)


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
            elif e["kind"] == "base_hit":
                self.ledger[int(e["team"])] -= 1  # type: ignore[call-overload]
        self.events.clear()
        self.check()

    def check(self) -> None:
        """Every invariant that can be read off the state."""
        st = self.st
        live = not st.done
        for t in (0, 1):
            if not isinstance(st.life[t], int) or (live and not 0 < st.life[t] < 2 * st.config.start_life):
                self.fail("I1", f"base life {st.life}")
            if st.life[t] != st.config.start_life + self.ledger[t]:
                self.fail("I8", f"base life {st.life[t]} != 18 + ledger {self.ledger[t]}")
        squares = [a.square for a in st.avatars if a.on_map]
        if len(set(squares)) != len(squares) or any(s in BASES or not 0 <= s < SQUARES for s in squares):
            self.fail("I3", f"squares {squares}")
        self.check_players()
        if st.team_turn != self.turn and st.phase == Phase.META_FIELD and live:
            self.turn = st.team_turn
            if not all(a.on_map for a in st.avatars):
                self.fail("I4", "an avatar is off the MAP at the action-point gain")
            if any(a.guarding for a in st.avatars if a.team == st.acting):
                self.fail("I10", "a Guarding avatar right after its team's point gain")
        if st.duel is not None and live:
            self.check_duel()
        if any(n > 1 for n in self.duels.values()):
            self.fail("I6", "an avatar dueled twice in one team turn")
        if st.team_turn > st.config.max_team_turns:
            self.fail("I11", f"team turn {st.team_turn}")
        if live and (st.current_player < 0 or not st.legal_actions()):
            self.fail("I7", "no player to act or no legal option")
        if not live and st.legal_actions():
            self.fail("I7", "options after the end")

    def check_players(self) -> None:
        """I2, I4, I9, I10 for every player."""
        st = self.st
        live = not st.done
        for i, a in enumerate(st.avatars):
            if not 0 <= a.ap <= 9 or (a.exited and a.ap):
                self.fail("I2", f"P{i} AP {a.ap}")
            if a.exited and a.guarding:
                self.fail("I10", f"exited P{i} guards")
            if st.phase in _LIVE and live:
                seated = st.seat_of(i) >= 0
                holds = a.side is not None or seated
                if not ((a.on_map and holds) or (a.exited and a.side is None and not a.on_map)):
                    self.fail("I4", f"P{i} on_map={a.on_map} exited={a.exited} side={a.side is not None}")
            if a.side is not None and sorted(adapter(a.ruleset).side_cards(a.side)) != sorted(
                st.config.deck(i, a.ruleset)
            ):
                self.fail("I9", f"P{i}'s side lost or gained cards")

    def check_duel(self) -> None:
        """I5: participants, roles and champion."""
        st = self.st
        d = st.duel
        assert d is not None
        host = st.avatars[d.host]
        parts = set(d.participants())
        on = [i for i, a in enumerate(st.avatars) if a.on_map]
        squares = [st.avatars[i].square for i in parts if st.avatars[i].on_map] + [BASES[t] for t in d.bases]
        if not host.on_map:
            return
        for i in on:
            near = DIST[host.square][st.avatars[i].square] <= host.range
            touching = any(DIST[st.avatars[i].square][s] == 1 for s in squares)
            if i not in parts and (near or touching):
                self.fail("I5", f"P{i} should participate")
        if any(st.avatars[c].team != host.team for c in d.casts) or any(
            st.avatars[g].team == host.team for g in d.guests
        ):
            self.fail("I5", "roles of the wrong team")
        same = [g for g in d.guests if st.avatars[g].ruleset == host.ruleset]
        if st.table is not None and same:
            best = min(same, key=lambda g: (DIST[host.square][st.avatars[g].square], g))
            if best != d.champion:
                self.fail("I5", f"champion P{d.champion}, expected P{best}")
        elif st.table is not None and d.guests:
            # I5 (amended), D36: no guest has the host's ruleset: the nearest guest defends
            best = min(d.guests, key=lambda g: (DIST[host.square][st.avatars[g].square], g))
            if d.champion >= 0 or best != d.defender or d.proxy != 1:
                self.fail("I5", f"defender P{d.defender} (proxy {d.proxy}), expected P{best}")
        elif st.table is not None:
            # D36, D40: no guest: the enemy base sits at seat 1 when it participates, else nobody
            want = 2 if 1 - host.team in d.bases else 0
            if d.defender >= 0 or d.proxy != want:
                self.fail("D36", f"seat 1 proxy {d.proxy}, expected {want}")


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
