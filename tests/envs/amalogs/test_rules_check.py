"""The rules check of one AMALOGS position, ``rules.check`` (spec section 10).

It passes at every step of random matches of every team size, names each broken rule by its
spec item, and raises nothing but ``StateError`` for any state of the right Python types with
arbitrary contents. The Master of the World check passes on every MoW table of a match (solo
first turns, champions, vacant seats, guest and base proxies).
"""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from deckgym.envs.amalogs import rules
from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.position import position
from deckgym.envs.amalogs.rules import invariants, new_game
from deckgym.envs.amalogs.state import AmalogsState, Duel
from deckgym.envs.core.errors import StateError
from deckgym.envs.mow import rules as mow_rules
from tests.envs.amalogs.fixtures import config
from tests.envs.nonsense import mutant
from tests.envs.rules_check import played, refused_swaps, uniform

SIZES = [(a, b) for a in (1, 2, 3) for b in (1, 2, 3)]
MOW = 3


def play(st: AmalogsState, seed: int, every: int = 1) -> list[AmalogsState]:
    """Random legal moves to the end, checking every position; clones of every ``every``-th one."""
    return played(st, uniform(seed), every, rules.check)


def test_rules_check_is_the_invariants_check():
    assert rules.check is invariants.check


@pytest.mark.parametrize("sizes", SIZES, ids=[f"{a}v{b}" for a, b in SIZES])
def test_the_check_passes_at_every_step_of_random_matches_of_every_team_size(sizes):
    for seed in range(2):
        assert play(new_game(config(sizes, max_team_turns=30), seed), seed)[-1].done


def test_the_mow_check_passes_on_every_mow_table_of_a_match():
    seen: Counter[str] = Counter()
    for pools in ([[MOW]] * 4, None):
        for seed in range(6):
            st = new_game(config((2, 2), pools), seed)
            rng = random.Random(seed)
            while not st.done:
                if st.table is not None and st.table_ruleset == MOW:
                    mow_rules.check(st.table)
                    c = st.table.config
                    kind = "champion" if not c.vacant_seat else ("vacant", "guest", "base")[c.proxy]
                    seen["solo" if st.duel is None else kind] += 1
                legal = st.legal_actions()
                st.apply(legal[rng.randrange(len(legal))])
    assert set(seen) == {"solo", "champion", "vacant", "guest", "base"}, seen


# ----------------------------------------------------------------------------- broken positions
def _meta(seed: int = 0) -> AmalogsState:
    """The first meta-field decision of a random 2v2 match."""
    st = new_game(config((2, 2)), seed)
    rng = random.Random(seed)
    while st.phase != Phase.META_FIELD:
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return st


def _break(st: AmalogsState, how: str) -> None:
    a = st.avatars
    if how == "I1":
        st.life[1] = 0
    elif how == "I2":
        a[3].ap = 10
    elif how == "I3":
        a[3].square = a[2].square
    elif how == "I4":
        a[1].side = None
    elif how == "I5":
        st.phase = Phase.STRIKE
        st.duel = Duel(st.control, [], [], [], -1)
        st.actor = st.control
    elif how == "I7":
        st.actor = 1 - st.control if st.control in (0, 1) else 0
    elif how == "I10":
        a[3].exited, a[3].square, a[3].guarding, a[3].side, a[3].ruleset, a[3].nominal = (
            True,
            -1,
            True,
            None,
            -1,
            0,
        )
    elif how == "I11":
        st.team_turn = st.config.max_team_turns + 1
    elif how == "D5":
        a[2].ended = True
    elif how == "D6":
        st.control = 2 if st.acting == 0 else 0
    elif how == "D17":
        st.dice = [7, 1]
    elif how == "D28":
        a[1].ruleset = 7  # a reserved slot, in no pool
    elif how == "D33":
        st.done, st.phase, st.actor, st.control, st.winner = True, Phase.GAME_OVER, -1, -1, 1
    elif how == "5.2":
        st.acting = 1 - st.acting


BROKEN = ["I1", "I2", "I3", "I4", "I5", "I7", "I10", "I11", "D5", "D6", "D17", "D28", "D33", "5.2"]


@pytest.mark.parametrize("how", BROKEN)
def test_a_broken_rule_is_named_by_its_item(how):
    st = _meta()
    rules.check(st)
    _break(st, how)
    with pytest.raises(StateError) as e:
        rules.check(st)
    msg = str(e.value)
    assert msg.startswith(how + " ") or f"; {how} " in msg, msg


def test_shape_problems_come_alone_and_name_the_part_of_the_spec():
    st = _meta()
    st.avatars[0].square = 80
    with pytest.raises(StateError, match=r"^I3 P0 \(a_0\) stands on square 80: off the MAP \(0..76, or -1"):
        rules.check(st)
    st = _meta()
    st.avatars = st.avatars[:3]
    with pytest.raises(StateError, match=r"^D2 the match has 4 players, one avatar each"):
        rules.check(st)


def test_a_side_of_another_ruleset_is_refused_D19():
    st = _meta()
    holders = [a for a in st.avatars if a.side is not None]
    other = next((a for a in holders if a.ruleset != holders[0].ruleset), None)
    if other is None:
        pytest.skip("every avatar holds the same ruleset in this match")
    holders[0].side = other.side
    with pytest.raises(StateError, match=r"^D19 P\d \(.*\)'s core side is not a side of its ruleset"):
        rules.check(st)


def test_a_strike_decision_needs_an_exposed_target_D24():
    """5.3 step 4: the host strikes only when a guest other than the champion is exposed (D24, D26, D41)."""
    st = position(rulesets=(1, 2, MOW, 1), squares=((5, 3), (3, 2), (7, 4), (8, 5)), start="strike")
    assert st.duel.guests == [2, 3] and st.duel.champion == 3
    rules.check(st)
    st.avatars[2].guarding = True
    with pytest.raises(StateError, match=r"^D24 .* no exposed target \(Guarded by P2 \(b_0\) \(D26\)\)"):
        rules.check(st)


# ----------------------------------------------------------------------------- robustness
@functools.cache
def snapshots() -> tuple[AmalogsState, ...]:
    """Positions of random matches of three team sizes, every 4th step, and their ends."""
    out: list[AmalogsState] = []
    for k, sizes in enumerate(((1, 1), (2, 2), (3, 2))):
        out += play(new_game(config(sizes, max_team_turns=12), 40 + k), k, every=4)
    return tuple(out)


@functools.cache
def _opaque() -> tuple[object, ...]:
    by_type: dict[tuple[type, int], object] = {}
    for st in snapshots():
        for a in st.avatars:
            if a.side is not None:
                by_type.setdefault((type(a.side), a.ruleset), a.side)
        if st.table is not None:
            by_type.setdefault((type(st.table), st.table_ruleset), st.table)
    return tuple(by_type.values())


def opaque() -> list[object]:
    """Core sides and tables of the snapshots (kept whole, or swapped in where such an object stands)."""
    return list(_opaque())


TEMPLATES = {
    "avatars": [],
    "life": [],
    "team_turn": [],
    "first_team": [],
    "acting": [],
    "phase": [],
    "actor": [],
    "control": [],
    "commanded": [],
    "phase_moved": [],
    "queue": [[0, 2, 3]],
    "move_allowance": [],
    "dice": [],
    "core_turn": [],
    "table": [],
    "table_ruleset": [],
    "table_owner": [],
    "table_steps": [],
    "duel": [Duel(0, [1], [2, 3], [1], 3, -1, 0)],
    "done": [],
    "truncated": [],
    "winner": [],
    "reason": [],
    "config": [],
}
WORDS = ["", "NOPE", "MD01", "MN01", "MS01", "C01", "guest", "base"]


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st_.data())
def test_any_nonsense_of_the_right_types_raises_only_state_error(data):
    base = data.draw(st_.sampled_from(snapshots()))
    st = mutant(data, base, TEMPLATES, WORDS, opaque())
    try:
        rules.check(st)
    except StateError as e:
        assert str(e)[:1] in "IRD4578", str(e)  # the message starts with a spec item


def test_each_part_swapped_for_nonsense_raises_only_state_error():
    """One position per phase: each part, at any depth, swapped for a value of every JSON type."""
    picks: dict[int, AmalogsState] = {}
    for s in snapshots():
        picks.setdefault(int(s.phase), s)
    assert len(picks) >= 7, sorted(picks)
    assert refused_swaps(list(picks.values()), TEMPLATES, opaque(), rules.check) > 1000
