"""The game frame, the other actions and the limits (D1-D17, D29-D43), one test per decision."""

from __future__ import annotations

import random

from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP
from deckgym.envs.medarot_parts.cards import deck_names, load_pool, resolve_deck
from deckgym.envs.medarot_parts.config import make_config
from deckgym.envs.medarot_parts.rules import new_game, phases
from deckgym.envs.medarot_parts.rules.values import charge, power
from tests.envs.medarot_parts import fixtures as fx
from tests.envs.medarot_parts.fixtures import HEAD, LA, LEGS, RA

STOP = "DRAW2"
POOL = load_pool()
CFG = make_config()


def real_game(seed: int = 0):
    decks = [resolve_deck(n, POOL, CFG).to_list() for n in deck_names()[:2]]
    return new_game(CFG, POOL, decks, seed), decks


def test_D1_D2_D3_D4_setup_two_medarots_40_card_decks_assets_and_7_cards():
    st, decks = real_game(3)
    for p in (0, 1):
        assert len(st.field[p]) == 2 and all(len(m.parts) == 4 for m in st.field[p])
        price = sum(POOL[c].price for m in decks[p][:2] for c in m[1:])
        assert st.assets[p] == 10000 - price
        assert len(st.hand[p]) + len(st.deck[p]) + len(st.stock[p]) + len(st.trash[p]) <= 40
    assert {new_game(CFG, POOL, decks, s).odd_turn_priority for s in range(20)} == {0, 1}
    st = new_game(CFG, POOL, decks, 5)
    assert [len(h) for h in st.hand] == [7, 7] and st.turn == 1
    assert all(not p.tapped and p.counters == 0 for row in st.field for m in row for p in m.parts)


def test_D5_priority_alternates_between_turns():
    st = fx.make_state(turn=3, odd_turn_priority=1, hands=((STOP,), (STOP,)))
    assert st.priority == 1
    st = fx.make_state(turn=4, odd_turn_priority=1, hands=((STOP,), (STOP,)))
    assert st.priority == 0


def test_D6_D7_reset_untaps_intact_parts_medals_energy_and_ends_turn_cards():
    st = fx.make_state(
        stocks=(("E_S",), ()), tapped=[(0, 0, RA), (0, 1, LEGS)], destroyed=[(0, 0, LA)], hands=((STOP,), ())
    )
    st.stock[0][0][1] = True
    st.field[0][0].medal_tapped = True
    st.play[0].append("HYMN")
    st.mods.append([0, 1, -1, 0, 0, 7, 1, -1])
    phases.reset_phase(st)
    assert (
        not fx.part(st, 0, 0, RA).tapped
        and not fx.part(st, 0, 1, LEGS).tapped
        and fx.part(st, 0, 0, LA).tapped
    )
    assert not st.stock[0][0][1] and not st.field[0][0].medal_tapped
    assert st.play[0] == [] and st.trash[0] == ["HYMN"] and st.mods == []


def test_D8_draw_phase_fills_hands_to_exactly_7():
    st = fx.make_state(hands=(("HEAD",) * 3, ("HEAD",) * 8), assets=(0, 0), start="turn", turn=2)
    assert st.turn == 2 and len(st.hand[0]) == 7 and len(st.hand[1]) == 8


def test_D9_fastest_candidate_acts_and_the_faster_player_is_first():
    a = (("MA3", "HEAD", "HIT3", "ARM_L", "LEGS3"), ("MA3", "HEAD", "HIT3", "ARM_L", "LEGS7"))
    b = (fx.PLAIN, fx.PLAIN)
    st = fx.make_state(
        a,
        b,
        start="turn",
        turn=2,
        odd_turn_priority=0,
        hands=((), ()),
        decks=(("HEAD",) * 10,) * 2,
        assets=(0, 0),
    )
    # B (priority on turn 2) has a tie of two mobility-5 medarots and decides it first.
    fx.do(st, A.MEDAROT[1], DP.ACTION_MEDAROT_TIE, 1)
    assert st.action_medarot == [1, 1] and st.first == 0  # A's mobility 7 beats 5


def test_D11_one_energy_card_per_energy_step():
    st = fx.make_state(start="turn", turn=2, decks=(("E_S",) * 10, ("HEAD",) * 10), assets=(0, 0))
    # B (priority on turn 2) has the tie of its two mobility-5 medarots first.
    fx.do(st, A.MEDAROT[0], DP.ACTION_MEDAROT_TIE, 1)
    fx.do(st, A.MEDAROT[0], DP.ACTION_MEDAROT_TIE, 0)
    assert st.decision == "ENERGY_PLACE" and st.current_player == 0
    assert st.legal_actions() == [A.PASS] + [A.HAND[h] for h in range(7)]
    fx.do(st, A.HAND[0])
    assert len(st.stock[0]) == 1 and sum("energy stock" in e for e in st.events) == 1
    assert st.round == 2  # the rest of round 1 was forced: no second placement in that step


def test_D13_a_player_without_action_medarot_may_only_play_action_cards_or_pass():
    st = fx.make_state(
        (("MA3", "HEAD", "HIT5", "ARM_L", "LEGS5"), fx.PLAIN), am=(-1, 0), hands=((STOP, "HIT3"), ())
    )
    assert st.legal_actions() == [A.PASS, A.HAND[0]]


def test_D15_D16_end_of_action_step_taps_the_action_medarots_and_recycles():
    st = fx.make_state(hands=((STOP,), (STOP,)))
    fx.do(st, A.PASS, DP.ACTION, 0)
    fx.do(st, A.PASS, DP.ACTION, 1)
    assert fx.part(st, 0, 0, LEGS).tapped and fx.part(st, 1, 0, LEGS).tapped
    assert st.round == 2 and st.action_medarot == [1, 1]


def test_D17_end_phase_discards_down_to_7_then_optional():
    st = fx.make_state(hands=(("HEAD",) * 8, ("HEAD",) * 2), assets=(0, 0), turn=1)
    assert st.decision == "DISCARD" and st.current_player == 0 and A.PASS not in st.legal_actions()
    fx.do(st, A.HAND[0])
    assert A.PASS in st.legal_actions()
    fx.do(st, A.HAND[0])  # a further optional discard
    fx.do(st, A.PASS)
    assert len(st.hand[0]) == 6 and st.current_player == 1 and st.decision == "DISCARD"


def test_D29_repair_needs_untapped_legs_a_damaged_part_and_removes_power_counters():
    a1 = ("MA0", "HEAD", "ARM_R", "KIT", "LEGS5")
    st = fx.make_state((a1, fx.PLAIN), stocks=(("E_D", "E_D"), ()), hands=((), (STOP,)))
    assert A.USE_PART[LA] not in st.legal_actions()  # nothing to repair
    st = fx.make_state(
        (a1, fx.PLAIN), stocks=(("E_D", "E_D"), ()), counters={(0, 0, HEAD): 1}, tapped=[(0, 0, LEGS)]
    )
    assert A.USE_PART[LA] not in st.legal_actions()
    st = fx.make_state(
        (a1, fx.PLAIN),
        stocks=(("E_D", "E_D"), ()),
        counters={(0, 0, HEAD): 4, (0, 1, RA): 1},
        hands=((), (STOP,)),
    )
    fx.do(st, A.USE_PART[LA])
    fx.do(st, A.MEDAROT[0], DP.REPAIR_MEDAROT, 0)
    assert fx.part(st, 0, 0, HEAD).counters == 2 and fx.part(st, 0, 0, LEGS).tapped


def test_D30_support_part_pays_resolves_its_effects_and_taps_the_legs():
    a1 = ("MA3", "HEAD", "HIT3", "HORN", "LEGS5")
    st = fx.make_state((a1, fx.PLAIN), hands=((), (STOP,)))
    fx.do(st, A.USE_PART[LA], DP.ACTION, 0)
    fx.do(st, A.MEDAROT[0], DP.TARGET, 0)
    assert power(st, 0, 0, RA) == 4 and fx.part(st, 0, 0, LEGS).tapped and fx.part(st, 0, 0, LA).tapped
    st.turn += 1
    phases.reset_phase(st)
    assert power(st, 0, 0, RA) == 3  # TURN modifiers end at the reset phase


def test_D32_exchange_needs_untapped_legs_and_assets_and_does_not_tap_the_legs():
    st = fx.make_state(hands=(("GATLING",), (STOP,)), assets=(1500, 0))
    assert A.HAND[0] in st.legal_actions()
    st = fx.make_state(hands=(("GATLING",), (STOP,)), assets=(1600, 0), destroyed=[(0, 0, LA)])
    assert fx.forced(st, "P0 ACTION: PASS")  # 1500 + 200 disposal
    st = fx.make_state(hands=(("GATLING",), (STOP,)), assets=(5000, 0), tapped=[(0, 0, LEGS)])
    assert fx.forced(st, "P0 ACTION: PASS")
    st = fx.make_state(hands=(("GATLING",), (STOP,)), assets=(1500, 0))
    fx.do(st, A.HAND[0])
    assert st.assets[0] == 0 and not fx.part(st, 0, 0, LEGS).tapped and st.trash[0] == ["ARM_L"]


def test_D33_D34_head_destroyed_stops_the_medarot_and_all_stopped_loses():
    b1 = ("MA3", "HEAD1", "ARM_R", "ARM_L", "LEGS5")
    st = fx.make_state(
        (("MA3", "HEAD", "HIT3", "ARM_L", "LEGS5"), fx.PLAIN), (b1, fx.PLAIN), hands=((), (STOP,))
    )
    fx.part(st, 1, 0, RA).effect = "EFC"
    fx.do(st, A.USE_PART[RA])
    fx.do(st, A.PART[HEAD], DP.ALLOCATE, 1)
    assert st.field[1][0].stopped and st.action_medarot[1] == -1 and "EFC" in st.trash[1] and not st.done
    assert phases.candidates(st, 1) == [1]
    st = fx.make_state(
        (("MA3", "HEAD", "HIT3", "ARM_L", "LEGS5"), fx.PLAIN), (b1, fx.PLAIN), destroyed=[(1, 1, HEAD)]
    )
    fx.do(st, A.USE_PART[RA])
    fx.do(st, A.PART[HEAD], DP.ALLOCATE, 1)
    assert st.done and st.winner == 0 and st.returns() == [1.0, -1.0] and "no medarot left" in st.reason


def test_D35_turn_cap_truncates_as_a_draw():
    st = fx.make_state(hands=(("HEAD",) * 7, ("HEAD",) * 7), assets=(0, 0), turn=2, max_turns=2)
    fx.do(st, A.PASS, DP.DISCARD, 1)  # priority is player 1 on turn 2
    fx.do(st, A.PASS, DP.DISCARD, 0)
    assert st.done and st.truncated and st.winner == -1 and st.returns() == [0.0, 0.0]


def test_D36_a_draw_never_takes_a_hand_beyond_16():
    st = fx.make_state(hands=(("DRAW2",) + ("HEAD",) * 15, (STOP,)), assets=(0, 0))
    fx.do(st, A.HAND[0], DP.ACTION, 0)
    assert len(st.hand[0]) == 16 and len(st.deck[0]) == 19


def test_D37_single_option_decisions_are_applied_by_the_engine():
    st = fx.make_state(
        (("MA0", "HEAD", "CANNON", "ARM_L", "LEGS5"), fx.PLAIN),
        stocks=(("E_M", "E_M"), ()),
        hands=((), (STOP,)),
    )
    fx.do(st, A.USE_PART[RA])
    assert fx.forced(st, "PAYMENT: ENERGY(melee)") and st.decision == "ALLOCATE"
    assert len(st.legal_actions()) >= 2


def test_D38_D39_attributes_and_current_values_are_clamped_0_to_9():
    st = fx.make_state((("MA0", "HEAD", "TUNED", "ARM_L", "LEGS5"), fx.PLAIN), hands=((STOP,), ()))
    assert power(st, 0, 0, RA) == 3 and charge(st, 0, 0, RA) == 1  # IF_MEDAL_MATCH with medal attribute 0
    st.mods.append([0, 20, fx.part(st, 0, 0, RA).uid, -1, -1, 0, 1, -1])
    st.mods.append([1, -20, fx.part(st, 0, 0, RA).uid, -1, -1, 0, 1, -1])
    assert power(st, 0, 0, RA) == 9 and charge(st, 0, 0, RA) == 0
    st = fx.make_state((("MA1", "HEAD", "TUNED", "ARM_L", "LEGS5"), fx.PLAIN), hands=((STOP,), ()))
    assert power(st, 0, 0, RA) == 2


def test_D40_hand_in_canonical_order_and_energy_kinds_interchangeable():
    st = fx.make_state(hands=(("WELD", "DRAW2", "HEAD", "DRAW2"), ()), assets=(0, 0))
    assert st.hand[0] == sorted(st.hand[0])
    st = fx.make_state(
        (("MA0", "HEAD", "RIFLE", "ARM_L", "LEGS5"), fx.PLAIN),
        stocks=(("E_S", "E_M", "E_S"), ()),
        hands=((), (STOP,)),
    )
    fx.do(st, A.USE_PART[RA])
    fx.do(st, A.ENERGY[0])
    fx.do(st, A.ENERGY[0])
    assert fx.untapped(st, 0, "E_S") == 0 and fx.untapped(st, 0, "E_M") == 1


def test_D41_a_card_needing_a_repair_target_is_not_playable_without_one():
    st = fx.make_state(hands=(("WELD",), (STOP,)), stocks=(("E_U",), ()))
    assert fx.forced(st, "P0 ACTION: PASS")
    st = fx.make_state(hands=(("WELD",), (STOP,)), stocks=(("E_U",), ()), counters={(0, 0, LEGS): 1})
    assert A.HAND[0] in st.legal_actions()


def test_D42_attached_card_follows_its_part_and_turn_card_binds_slots():
    st = fx.make_state((("MA3", "HEAD", "HIT3", "ARM_L", "LEGS5"), fx.PLAIN), hands=(("BOLT",), (STOP,)))
    fx.do(st, A.HAND[0], DP.ACTION, 0)
    fx.do(st, A.MEDAROT[0], DP.TARGET, 0)
    fx.do(st, A.PART[RA], DP.TARGET, 0)
    assert fx.part(st, 0, 0, RA).attached == ["BOLT"] and power(st, 0, 0, RA) == 4 and st.play[0] == []
    st = fx.make_state(hands=(("RUST",), ("HIT3",)), am=(0, 1))
    fx.do(st, A.HAND[0], DP.ACTION, 0)
    fx.do(st, A.MEDAROT[1], DP.TARGET, 0)
    assert st.play[0] == ["RUST"]
    fx.do(st, A.HAND[0], DP.ACTION, 1)  # B exchanges B2's right arm: the slot keeps the modifier
    assert charge(st, 1, 1, RA) == 2


def test_D43_reset_untaps_a_stopped_medarot_which_never_becomes_a_candidate():
    st = fx.make_state(destroyed=[(0, 1, HEAD)], tapped=[(0, 1, RA), (0, 1, LEGS)], hands=((STOP,), ()))
    st.field[0][1].medal_tapped = True
    phases.reset_phase(st)
    assert (
        not fx.part(st, 0, 1, RA).tapped
        and not st.field[0][1].medal_tapped
        and fx.part(st, 0, 1, HEAD).tapped
    )
    assert phases.candidates(st, 0) == [0]


def test_random_games_reach_every_decision_point():
    seen = set()
    for seed in range(40):
        st, _ = real_game(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            seen.add(st.decision)
            st.apply(rng.choice(st.legal_actions()))
    # The starter decks never field two legs of equal mobility; E12 covers that decision.
    assert seen == {d.name for d in DP} - {"ACTION_MEDAROT_TIE"}
