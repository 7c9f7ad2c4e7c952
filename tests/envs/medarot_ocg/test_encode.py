"""Encoder details: tactical board features and hidden information in them."""

from __future__ import annotations

import numpy as np
import pytest

from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.actions import DP
from deckgym.envs.medarot_ocg.encode import MedarotEncoder
from deckgym.envs.medarot_ocg.rules.board import to_relative
from tests.envs.medarot_ocg import fixtures as fx

THREAT, REACH, OWN_DESTROYABLE, ENEMY_DESTROYABLE = 17, 18, 19, 20


def board(st, seat):
    enc = MedarotEncoder(st.pool)
    return enc.layout.view(enc.observe(st, seat), "board")


def test_threat_and_reach_follow_the_ranges():
    # P0 Ash (shooting 30/20) on 2 reaches 12; P1 Bolt (melee 30/40) on 7 (neutral) threatens 2, 6 and 8.
    st = fx.make_state("normal", units={2: "ASH", 7: ("BOLT", 1)}, start=None)
    b0 = board(st, 0)
    assert b0[12, REACH] == 0.3 and b0[7, REACH] == 0.0
    assert [s for s in range(15) if b0[s, THREAT]] == [2, 6, 8]
    assert b0[2, THREAT] == np.float32(0.3)
    assert b0[2, OWN_DESTROYABLE] == 1.0  # 30 >= armor 20
    assert b0[7, ENEMY_DESTROYABLE] == 0.0  # Ash cannot reach 7
    b1 = board(st, 1)  # the same facts in P1's own frame
    for s in (2, 6, 8):
        assert b1[to_relative(s, 1), REACH] == np.float32(0.3)
    assert b1[to_relative(12, 1), THREAT] == np.float32(0.3)


def test_far_melee_reach_needs_an_empty_square_between():
    st = fx.make_state("normal", units={2: "BOLT", 12: ("ASH", 1)}, start=None)
    assert board(st, 0)[12, REACH] == np.float32(0.3)  # 7 is empty: 2 ahead is in reach
    blocked = fx.make_state("normal", units={2: "BOLT", 7: ("ASH", 1), 12: ("ASH", 1)}, start=None)
    b = board(blocked, 0)
    assert b[7, REACH] == np.float32(0.3) and b[12, REACH] == 0.0


def test_face_down_enemies_add_no_threat():
    hidden = {"card": "BOLT", "owner": 1, "face_up": False}
    st = fx.make_state("normal", units={2: "ASH", 7: hidden}, start=None)
    assert not board(st, 0)[:, THREAT].any()
    assert board(st, 1)[to_relative(2, 1), REACH] == np.float32(0.3)  # its owner knows it


def test_acting_moves_and_attacks_describe_one_step_tactics():
    # beginner (8 directions). P0 Ash (shooting 30/20) acts from 1; P1 Lark (melee 20/20) stands on 12.
    st = fx.make_state("beginner", units={1: "ASH", 12: ("LARK", 1)}, start=1)
    assert st.act is not None
    enc = MedarotEncoder(st.pool)
    moves = enc.layout.view(enc.observe(st, 0), "acting_moves")
    F, FR, R, L, FL, B = 0, 1, 2, 6, 7, 4
    # acting_moves, then move_tactics: legal, threatened there, destroys from there; neutral row,
    # an enemy in range, best cost/5 of what it destroys, a face-down enemy in range
    moves = np.concatenate([moves, enc.layout.view(enc.observe(st, 0), "move_tactics")], axis=1)
    # to 2: Lark reaches it (20 >= 20), and Ash shoots 12 from there (Lark costs 2)
    assert moves[R].tolist() == pytest.approx([1.0, 1.0, 1.0, 0.0, 1.0, 0.4, 0.0])
    assert moves[FR].tolist() == [1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0]  # to 7: neutral, right in front of Lark
    assert (
        moves[F].tolist() == moves[FL].tolist() == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    )  # to 6 and 5: neutral
    assert moves[L].tolist() == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]  # to 0
    assert moves[B].tolist() == [0.0] * 7  # off the board
    assert not enc.layout.view(enc.observe(st, 0), "acting_attacks").any()  # nothing in range from 1
    st2 = fx.make_state("beginner", units={2: "ASH", 12: ("LARK", 1)}, start=2)
    attacks = enc.layout.view(enc.observe(st2, 0), "acting_attacks")
    assert attacks[12].tolist() == pytest.approx([1.0, 0.4])  # destroyable, cost 2
    assert np.flatnonzero(enc.layout.view(enc.observe(st2, 0), "attack_range")).tolist() == [12]
    opp_view = enc.layout.view(enc.observe(st2, 1), "acting_attacks")
    # public: the opponent sees the same
    assert opp_view[to_relative(12, 1)].tolist() == pytest.approx([1.0, 0.4])


def test_attack_piece_compares_power_with_the_known_armor():
    # P0 Ash (shooting, power 30) acts from 2; P1 Lark (armor 20) stands on 12, in Ash's range.
    st = fx.make_state("beginner", units={2: "ASH", 12: ("LARK", 1)}, start=2)
    enc = MedarotEncoder(st.pool)

    def attack(seat):
        return enc.layout.view(enc.observe(st, seat), "attack").tolist()

    # before the declaration: the weakest known enemy in range needs (20 - 30)/40 more power
    assert attack(0) == pytest.approx([0.3, 0.0, 0.0, 0.0, -0.25])
    while st.decision_point[0] != DP.DECLARE:
        st.apply(A.PASS)
    st.apply(A.SQUARE[12])
    assert st.decision_point[0] == DP.DEFENCE and st.current_player == 1
    # declared: power 30 against armor 20 destroys; both seats know both cards
    assert attack(0) == attack(1) == pytest.approx([0.3, 0.2, 0.25, 1.0, 0.0])


def test_a_face_down_target_is_in_range_but_not_measured():
    hidden = {"card": "LARK", "owner": 1, "face_up": False}
    st = fx.make_state("beginner", units={2: "ASH", 12: hidden}, start=2)
    enc = MedarotEncoder(st.pool)
    obs = enc.observe(st, 0)
    assert enc.layout.view(obs, "attack").tolist() == pytest.approx([0.3, 0, 0, 0, 0])
    # in range now, but neither destroyable nor priced: P0 cannot see the card
    assert not enc.layout.view(obs, "acting_attacks").any()
    assert np.flatnonzero(enc.layout.view(obs, "attack_range")).tolist() == [12]
    # its owner knows the Lark: the margin and the destroyable target show in P1's view
    mine = enc.observe(st, 1)
    assert enc.layout.view(mine, "attack").tolist() == pytest.approx([0.3, 0, 0, 0, -0.25])
    assert enc.layout.view(mine, "acting_attacks")[to_relative(12, 1)].tolist() == pytest.approx([1.0, 0.4])
    # moving from 1 to 2 brings the face-down Lark in range: an enemy, face down, nothing measured
    st = fx.make_state("beginner", units={1: "ASH", 12: hidden}, start=1)
    obs = enc.observe(st, 0)
    assert enc.layout.view(obs, "acting_moves")[2].tolist() == [1.0, 0.0, 0.0]
    assert enc.layout.view(obs, "move_tactics")[2].tolist() == [0.0, 1.0, 0.0, 1.0]
    assert not enc.layout.view(obs, "move_tactics")[:, 2].any()


@pytest.mark.parametrize("mode", ["beginner", "normal", "advance"])
def test_cached_tactical_pieces_equal_a_fresh_computation_at_every_step(mode):
    """The per-state cache of the tactical pieces is keyed by ``board_version``: never stale."""
    import random

    from deckgym.envs import medarot_ocg_v1

    env = medarot_ocg_v1.env(mode=mode)
    enc = env.unwrapped.encoder
    steps = 0
    for g in range(25):
        env.reset(seed=g)
        st = env.unwrapped.game
        rng = random.Random(g)
        while not st.is_terminal():
            for seat in (0, 1):
                cached = enc.observe(st, seat)
                again = enc.observe(st, seat)  # served from the cache
                fresh = enc.observe(st.clone(), seat)  # a clone starts without one
                assert np.array_equal(again, fresh) and np.array_equal(cached, fresh), (mode, g, st.decision)
            st.apply(rng.choice(st.legal_actions()))
            steps += 1
    assert steps > 1000


def test_each_flag_of_the_action_under_way_sets_its_own_scalar():
    from deckgym import envs
    from deckgym.envs.medarot_ocg.encode_layout import ACT_FLAG_NAMES, SCALARS

    env = envs.make("medarot_ocg_v1", mode="advance")
    env.reset(seed=5)
    st, rng = env.unwrapped.game, np.random.default_rng(5)
    while st.act is None:  # play on to an action under way
        legal = st.legal_actions()
        st.apply(legal[int(rng.integers(len(legal)))])
    enc = env.unwrapped.encoder
    first = SCALARS.index("action card used")
    for j, name in enumerate(ACT_FLAG_NAMES):
        s = st.clone()
        for other in ACT_FLAG_NAMES:
            setattr(s.act, other, other == name)
        flags = enc.layout.view(enc.observe(s, s.act.owner), "scalars")[first : first + len(ACT_FLAG_NAMES)]
        assert flags.tolist() == [float(k == j) for k in range(len(ACT_FLAG_NAMES))], name
