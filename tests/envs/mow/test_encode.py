"""Action and observation encoding of spec sections 6 and 7 (D48)."""

from __future__ import annotations

import numpy as np

from deckgym.envs.mow import actions as A
from deckgym.envs.mow.actions import ACTION_SIZE, OFFSET, Kind
from deckgym.envs.mow.encode import LAYOUT, MowEncoder
from tests.envs.mow import fixtures as fx
from tests.envs.mow.fixtures import do, make_state

ENC = MowEncoder(fx.POOL)


def test_action_blocks_of_section_6():
    assert ACTION_SIZE == 294
    assert [OFFSET[k] for k in Kind] == [0, 1, 65, 129, 193, 194, 208, 214, 230]
    assert ENC.action_to_index(A.ABILITY[2 * 6 + 1], None) == 207
    assert ENC.action_to_index(A.TARGET[8 + 7], None) == 229
    assert ENC.index_to_action(293, None) == A.CARD_TYPE[63]


def test_observation_layout_of_section_7():
    assert LAYOUT.size == 2314
    sizes = {n: p.size for n, p in LAYOUT.pieces.items()}
    assert sizes["decision"] + sizes["phase"] + sizes["scalars"] == 26
    per_player = sum(
        sizes[n]
        for n in (
            "master_id",
            "master",
            "weapon",
            "spell_slot",
            "monsters",
            "discard",
            "experience",
            "turn_uses",
        )
    )
    assert per_player == 2 * 753
    assert sizes["hand"] + sizes["deck"] == 128 and sizes["chain"] == 576 and sizes["pending"] == 78
    start, rows, width = ENC.card_region
    assert (rows, width) == (10, 70) and LAYOUT["monsters"].start == start


def test_observation_values_self_first_and_D44_opponent_spell_hidden():
    st = make_state(
        exp=(4, 2),
        life=(17, 20),
        monsters=(["BRUTE"], [("GRUNT", 1, 1)]),
        weapons=("SWORD", None),
        spells=(("FIREBALL", 2), ("SHATTER", 2)),
        hands=(["OGRE", "OGRE"], ["WALL"]),
    )
    o0 = LAYOUT.split(ENC.observe(st, 0))
    o1 = LAYOUT.split(ENC.observe(st, 1))
    assert o0["decision"][A.DP.MAIN] == 1 and o1["decision"][0] == 1
    assert o0["master"][0][0] == np.float32(17 / 20) and o0["master"][0][3] == np.float32(0.3)
    assert o0["weapon"][0][1 + fx.K["SWORD"]] == 1
    assert o0["spell_slot"][0][2 + fx.K["FIREBALL"]] == 1 and o0["spell_slot"][1][2:].sum() == 0
    assert o0["spell_slot"][1][:2].tolist() == [1, 1]
    assert o0["hand"][fx.K["OGRE"]] == 0.5 and o0["hand"][fx.K["WALL"]] == 0
    mon = o1["monsters"][0]  # seat 1's own Grunt, damage 1
    assert mon[0] == 1 and mon[1 + fx.K["GRUNT"]] == 1
    assert np.allclose(mon[-5:], [0.2, 1 / 12, 2 / 12, 0, 0])


def test_chain_hides_the_opponents_cast_and_pending_shows_the_effect():
    st = make_state(exp=(2, 2), hands=(["FIREBALL", "QBOLT"], []), monsters=([], ["GRUNT"]))
    do(st, fx.use("FIREBALL"), A.DP.MAIN, 0)
    mine = LAYOUT.split(ENC.observe(st, 0))["chain"][0]
    theirs = LAYOUT.split(ENC.observe(st, 1))["chain"][0]
    assert mine[2 + A.Use.CAST] == 1 and mine[7 + fx.K["FIREBALL"]] == 1
    assert theirs[2 + A.Use.CAST] == 1 and theirs[7:-1].sum() == 0 and theirs[1] == 0
    do(st, A.PASS, A.DP.COUNTER_WINDOW, 1)
    do(st, fx.fast("QBOLT"), A.DP.MAIN, 0)
    do(st, A.PASS, A.DP.COUNTER_WINDOW, 1)
    assert st.decision == "EFFECT_TARGET"
    pend = LAYOUT.split(ENC.observe(st, 1))["pending"]
    assert pend[fx.K["QBOLT"]] == 1 and pend[64] == 1 and np.isclose(pend[-1], 0.2)


def test_action_labels_name_cards():
    st = make_state(exp=(2, 2), hands=(["GRUNT"], []), monsters=([], ["WALL"]))
    assert ENC.action_label(ENC.action_to_index(fx.use("GRUNT"), st), st) == "USE Grunt"
    assert "Wall" in ENC.action_label(ENC.action_to_index(A.TARGET[9], st), st)
    assert ENC.action_label(0, st) == "PASS"
