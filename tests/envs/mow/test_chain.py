"""The counter window's options and the chain's effect frames (spec 5.4, K5, D23-D25, 4.8)."""

from __future__ import annotations

from deckgym.envs.mow import actions as A
from deckgym.envs.mow.actions import DP
from deckgym.envs.mow.rules.values import monster_attack
from tests.envs.mow import fixtures as fx
from tests.envs.mow.fixtures import do, fast, make_state, use


def test_K5_only_fast_counters_matching_the_use_are_offered_from_hand_once_each_in_type_order():
    """Quick Bolt (fast, no counter), Shatter (counter, not fast) and Hush (a fast counter of
    activations only) are not offered against a summon; Price and two Denials are, once each,
    in card-type order."""
    st = make_state(
        turn=4, exp=(2, 2), hands=(["GRUNT"], ["QBOLT", "SHATTER", "HUSH", "DENIAL", "PRICE", "DENIAL"])
    )
    do(st, use("GRUNT"), DP.MAIN, 0)
    assert st.decision == "COUNTER_WINDOW" and st.current_player == 1
    assert st.legal_actions() == [A.PASS, fast("DENIAL"), fast("PRICE")]
    assert fx.K["DENIAL"] < fx.K["PRICE"]


def test_K5_a_hand_counter_with_a_discard_cost_needs_one_other_card_in_hand():
    """Price costs one discard (COST_DISCARD 1): with only itself in hand it is not offered."""
    alone = make_state(turn=4, exp=(2, 2), hands=(["GRUNT"], ["PRICE"]))
    do(alone, use("GRUNT"), DP.MAIN, 0)
    assert alone.legal_actions() == [A.PASS]
    paid = make_state(turn=4, exp=(2, 2), hands=(["GRUNT"], ["PRICE", "PEBBLE"]))
    do(paid, use("GRUNT"), DP.MAIN, 0)
    assert paid.legal_actions() == [A.PASS, fast("PRICE")]


def test_K5_a_ready_slot_counter_pays_its_discard_from_the_hand():
    """Price face down since turn 3: one card in hand pays its cost; an empty hand cannot."""
    for hand, offered in (([], False), (["PEBBLE"], True)):
        st = make_state(turn=4, exp=(2, 2), hands=(["GRUNT"], hand), spells=(None, ("PRICE", 3)))
        do(st, use("GRUNT"), DP.MAIN, 0)
        assert (A.SLOT_SPELL in st.legal_actions()) is offered, hand


def test_K5_a_counter_ability_is_offered_only_against_the_uses_it_answers():
    st = make_state(turn=4, exp=(2, 2), hands=(["GRUNT", "SWORD"], []), monsters=([], ["WARDEN"]))
    do(st, use("SWORD"), DP.MAIN, 0)  # an equip: Warden answers summons only
    assert st.legal_actions() == [A.PASS]
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    do(st, use("GRUNT"), DP.MAIN, 0)
    assert st.legal_actions() == [A.PASS, A.ABILITY[2]]


def test_R40_a_counter_ability_resolves_for_its_controller_on_its_own_card():
    """Warden's 対抗 ability: its controller (B) draws, and Warden itself (SELF) gets +2 attack."""
    st = make_state(turn=4, exp=(2, 2), hands=(["GRUNT"], []), decks=(20, 20), monsters=([], ["WARDEN"]))
    do(st, use("GRUNT"), DP.MAIN, 0)
    do(st, A.ABILITY[2], DP.COUNTER_WINDOW, 1)
    assert (len(st.hand[0]), len(st.hand[1]), len(st.deck[0]), len(st.deck[1])) == (0, 1, 20, 19)
    warden = st.monsters[1][0]
    assert warden.card == "WARDEN" and monster_attack(st, 1, warden) == 3
    assert [m.card for m in st.monsters[0]] == ["GRUNT"]


def test_D28_4_8_a_counter_to_an_activation_finds_no_trigger_card_on_the_field():
    """Snuff (DESTROY TRIGGER_CARD) answers Fireball's activation: the activated spell is in the
    chain area, not on the field, so nothing is destroyed (not the first card on the field either);
    Fireball then resolves."""
    st = make_state(
        turn=7,
        exp=(2, 2),
        hands=([], []),
        monsters=(["GRUNT"], ["BRUTE"]),
        spells=(("FIREBALL", 5), ("SNUFF", 6)),
    )
    assert st.monsters[0][0].uid == 1  # the card a wrong trigger reference would find
    do(st, A.SLOT_SPELL, DP.MAIN, 0)
    do(st, A.SLOT_SPELL, DP.COUNTER_WINDOW, 1)
    do(st, A.PASS, DP.COUNTER_WINDOW, 0)
    assert [m.card for m in st.monsters[0]] == ["GRUNT"] and [m.card for m in st.monsters[1]] == ["BRUTE"]
    assert st.decision == "EFFECT_TARGET"  # Fireball still resolves: its controller picks a target
    assert st.discard[1] == ["SNUFF"]
