"""Action and observation encoding of medarot_parts_v1 (spec sections 6 and 7)."""

from __future__ import annotations

import numpy as np

from deckgym.envs import medarot_parts_v1
from deckgym.envs.medarot_parts.actions import ACTION_SIZE, ALL_ACTIONS, OFFSET, Kind
from deckgym.envs.medarot_parts.encode import CARD_F, card_row
from deckgym.envs.medarot_parts.rules.values import power
from tests.envs.medarot_parts import fixtures as fx


def test_action_blocks_match_the_spec_table():
    assert ACTION_SIZE == 46
    assert [OFFSET[k] for k in Kind] == [0, 1, 4, 20, 24, 25, 27, 31, 32, 35, 45]
    assert [ALL_ACTIONS[i].kind for i in (0, 3, 19, 23, 24, 26, 30, 31, 34, 44, 45)] == [
        Kind.PASS, Kind.USE_PART, Kind.HAND, Kind.ENERGY, Kind.PAY_MEDAL, Kind.MEDAROT,
        Kind.PART, Kind.EVADE, Kind.PROTECT, Kind.AMOUNT, Kind.ATTACH_EFFECT,
    ]  # fmt: skip


def test_observation_pieces_show_power_counters_and_own_hand_only():
    env = medarot_parts_v1.env()
    enc = env.unwrapped.encoder
    st = fx.make_state(
        (("MA3", "HEAD", "HIT5", "ARM_L", "LEGS5"), fx.PLAIN),
        hands=(("WELD",), ("DRAW2",)),
        counters={(1, 0, 3): 2},
    )
    from deckgym.envs.medarot_parts.encode import PartsEncoder

    enc = PartsEncoder(st.pool)
    obs0 = enc.layout.split(enc.observe(st, 0))
    obs1 = enc.layout.split(enc.observe(st, 1))
    assert obs0["parts"][1][6] == power(st, 0, 0, 1) / 9
    assert obs0["parts"][8 + 3][2] == 2 / 9 and obs1["parts"][3][2] == 2 / 9  # own side first
    assert obs0["hand_cards"][0].any() and not obs0["hand_cards"][1].any()
    assert np.array_equal(obs0["hand_cards"][0], enc.table[enc.row["WELD"]])
    assert obs0["scalars"][10] == 1 / 16  # the opponent's hand only as a count
    assert obs0["decision"][st.decision_point[0]] == 1.0


def test_card_rows_have_the_declared_width_and_differ_between_cards():
    env = medarot_parts_v1.env()
    pool = env.unwrapped.ruleset.pool
    rows = {tuple(card_row(c)) for c in pool.cards.values()}
    assert all(len(r) == CARD_F for r in rows) and len(rows) == len(pool)


def test_action_labels_name_the_cards():
    st = fx.make_state((("MA3", "HEAD", "HIT5", "ARM_L", "LEGS5"), fx.PLAIN), hands=(("WELD", "DRAW2"), ()))
    enc = medarot_parts_v1.env().unwrapped.encoder
    from deckgym.envs.medarot_parts.encode import PartsEncoder

    enc = PartsEncoder(st.pool)
    assert enc.action_label(OFFSET[Kind.USE_PART] + 1, st) == "USE_PART(right arm) Hitter Five"
    assert enc.action_label(OFFSET[Kind.HAND] + 0, st) == "HAND(0) Test Draw"
    mask = enc.action_mask(st)
    assert mask.dtype == np.int8 and mask.sum() == len(st.legal_actions())
