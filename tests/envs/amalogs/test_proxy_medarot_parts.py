"""The Medarot parts game as the host of an AMALOGS proxy table (amalogs D37, D38, D40, D42).

A proxy table seats at seat 1 a stand-in medarot with only a head of armor P0 = P (a guest proxy
for the defender, a base proxy for the enemy base); the host attacks it with its ordinary
USE_PART attacks. These tests drive ``envs.medarot_parts.sides`` directly: a host side is built
with ``sides.new_side``, given energy and a 7-card hand (so the draw phase draws nothing), then
``compose(..., Proxy(GUEST/BASE, P))``, ``begin`` and the host's actions.

The host is mostly Fang Brawler: its round-1 action medarot is the Fang medarot (mobility 6;
Fang Medal attribute 1, efficient 1, so it pays 2 EP for its attribute-1 parts) with the right
arm Rust Bloom (punch, charge 2, power 3; its effect binds to an opposing slot) and the left arm
Shock Hammer (punch, charge 2, power 3; its effect is +2 power on itself); its round-2 action
medarot is the Aegis medarot (mobility 4) with the right arm Frenzy Claw (reckless, charge 1,
power 5). Overdrive Chip (C01) is a POWER card of cost 1 giving the attack part +2 power.
"""

from __future__ import annotations

import json
import random

import pytest

from deckgym.envs.amalogs.cores.medarot_parts import PartsCore
from deckgym.envs.core import proxy
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.proxy import Proxy
from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts import sides
from deckgym.envs.medarot_parts.actions import DP, Action
from deckgym.envs.medarot_parts.cards import HEAD, deck_names, resolve_deck
from deckgym.envs.medarot_parts.config import RulesConfig, make_config
from deckgym.envs.medarot_parts.describe import describe_action, resolving_text
from deckgym.envs.medarot_parts.encode import PartsEncoder
from deckgym.envs.medarot_parts.render import render_text
from deckgym.envs.medarot_parts.rules.values import power
from deckgym.envs.medarot_parts.sides import Side
from deckgym.envs.medarot_parts.state import STAT_POWER, UNTIL_CARD, GameState
from deckgym.envs.medarot_parts.view import view

GUEST, BASE = proxy.GUEST, proxy.BASE
FANG, BLAZE, CHORUS = "fang_brawler", "blaze_striker", "chorus_support"
MELEE, SUPPORT = 1, 3
RA, LA = 1, 2
#: Seat 1's decisions in an ordinary battle; a proxy never reaches any of them (D37).
DEFENDER_DECISIONS = {DP.DEFENDER_CHOICE, DP.DEFENSE_WINDOW, DP.RESPONSE, DP.PROTECT_AMOUNT, DP.ALLOCATE}
#: Fillers for a 7-card hand that offer nothing in these turns (DEFENSE cards, evade cards).
FILLER = ("C12", "C12", "EV", "EV", "EV", "EF", "EF")


def decklist(name: str) -> list[list[str]]:
    return resolve_deck(name, sides.pool(), RulesConfig(), name).to_list()


def host_side(name: str = FANG, hand: tuple[str, ...] = (), stock: tuple[str, ...] = ()) -> Side:
    """A new side with ``stock`` untapped in its energy stock and ``hand`` topped up to 7 with fillers.

    Cards of the deck move from it (card conservation); others (not in this deck) are added.
    """
    side = sides.new_side(decklist(name))
    full = list(hand) + list(FILLER[: 7 - len(hand)])
    for cid in full + list(stock):
        if cid in side.deck:
            side.deck.remove(cid)
    side.hand = sorted(full)
    side.stock = [[cid, False] for cid in stock]
    return side


def table(side: Side, kind: int, life: int, turn: int = 3) -> GameState:
    st = sides.compose(side, None, random.Random(turn), turn, Proxy(kind, life))
    PartsCore.begin(st)
    return st


def do(st: GameState, action: Action, dp: DP | None = None) -> None:
    """Play ``action`` for seat 0 (checking the decision point), which must be legal."""
    assert st.current_player == 0, "seat 1 (the proxy) never decides"
    if dp is not None:
        assert st.decision_point is not None and st.decision_point[0] == dp, (st.decision, dp)
    assert action in st.legal_actions(), (action, st.legal_actions())
    st.apply(action)


def hand(st: GameState, cid: str) -> Action:
    return A.HAND[st.hand[0].index(cid)]


def pay(st: GameState, medal: bool = False) -> None:
    """Answer every pending payment with melee energy (the medal first if ``medal``)."""
    while not st.done and st.decision_point is not None and st.decision_point[0] == DP.PAYMENT:
        if medal and A.PAY_MEDAL in st.legal_actions():
            do(st, A.PAY_MEDAL)
        else:
            do(st, A.ENERGY[MELEE])


def attack(st: GameState, slot: int, medal: bool = False, cards: tuple[str, ...] = ()) -> None:
    """USE_PART(slot), its payment, then the host's power window (``cards`` played, then PASS)."""
    do(st, A.USE_PART[slot], DP.ACTION)
    pay(st, medal)
    for cid in cards:
        do(st, hand(st, cid), DP.POWER_WINDOW)
        pay(st)
    if not st.done and st.decision_point is not None and st.decision_point[0] == DP.POWER_WINDOW:
        do(st, A.PASS)


def hits(st: GameState) -> list[tuple[int, int]]:
    """(hit, life after) of each ``proxy_hit`` event."""
    return [(r["hit"], r["life"]) for r in st.records if r["kind"] == "proxy_hit"]


def seat_1_decided(st: GameState) -> bool:
    return any(r["kind"] == "auto" and r["player"] == 1 for r in st.records)


# ----------------------------------------------------------------------------- D37 guest
def test_D37_guest_worked_example_two_hits_take_P_7_to_0_and_end_the_table_at_once() -> None:
    """D37 guest proxy, P0 = P = 7 (e.g. a parts defender of L0 7 with core life 7 before a parts host).

    Round 1, the Fang medarot acts. Rust Bloom (power 3, paid with 2 melee energy) hits the
    stand-in's head: 3 counters, P 7 -> 4; Rust Bloom's effect would bind to an opposing slot,
    so no effect card is offered although one is in hand. Shock Hammer (paid with the medal and
    1 melee energy) with Overdrive Chip (+2, paid with 2 melee energy) hits for 5: P 4 -> 0 (1
    lost). The table is terminal at once: seat 1 lost, loss_flags (False, True), split (host,
    None); the rest of the turn is abandoned (no effect step, no round 2, no end phase).
    """
    side = host_side(hand=("C01",), stock=("EN_MELEE",) * 6)
    st = table(side, GUEST, 7)
    assert st.action_medarot == [0, -1] and st.round == 1 and PartsCore.proxy_life(st) == 7
    assert {A.USE_PART[RA], A.USE_PART[LA]} <= set(st.legal_actions())
    attack(st, RA)
    assert hits(st) == [(3, 4)] and PartsCore.proxy_life(st) == 4
    assert (
        not st.done and st.decision_point is not None and st.decision_point[0] == DP.ACTION
    )  # no EFFECT_ATTACH for Rust Bloom
    assert PartsCore.loss_flags(st) == (False, False)
    attack(st, LA, medal=True, cards=("C01",))
    assert hits(st) == [(3, 4), (5, 0)] and PartsCore.proxy_life(st) == 0
    assert st.done and not st.truncated and st.winner == 0 and st.current_player == -1
    assert st.legal_actions() == []
    assert PartsCore.loss_flags(st) == (False, True)
    assert st.round == 1 and "EF" in st.hand[0]  # no effect step, no round 2 for the Aegis medarot
    assert sum(1 for row in st.stock[0] if row[1]) == 5 and st.field[0][0].medal_tapped
    host, other = PartsCore.split(st)
    assert other is None
    assert "C01" in host.trash and host.field[0].parts[LA].tapped and not host.field[1].parts[RA].tapped
    assert sorted(host.cards()) == sorted(side.cards())
    assert not seat_1_decided(st)


def test_D37_P_never_drops_below_0_and_damage_beyond_it_is_lost() -> None:
    """Guest P = 2: Rust Bloom hits for 3; P 2 -> 0, not -1 (1 damage lost); the table ends."""
    st = table(host_side(stock=("EN_MELEE",) * 2), GUEST, 2)
    attack(st, RA)
    assert hits(st) == [(3, 0)] and PartsCore.proxy_life(st) == 0 and st.proxy_armor == 2
    assert PartsCore.loss_flags(st) == (False, True) and sides.table_summary(st, 1) == (0, 0, 0, 0)


def test_D37_an_aimed_attack_designates_no_defender_the_proxy_always_defends() -> None:
    """R8 (b)/(c) would let the attacker designate; the stand-in is always the defending medarot.

    Blaze Striker: the Ember medarot (Ember Medal attribute 0, efficient 2) acts with its head
    Crest Scope (aimed, charge 2, power 3, attribute 0): the medal pays all 4 EP; no
    DEFENDER_CHOICE is asked and the hit takes a guest P 6 -> 3.
    """
    side = host_side(BLAZE, stock=("EN_SHOOT",) * 2)
    st = table(side, GUEST, 6)
    assert st.action_medarot == [0, -1]
    do(st, A.USE_PART[HEAD], DP.ACTION)
    do(st, A.PAY_MEDAL, DP.PAYMENT)
    if st.decision_point is not None and st.decision_point[0] == DP.POWER_WINDOW:
        do(st, A.PASS)
    assert hits(st) == [(3, 3)] and st.decision_point is not None and st.decision_point[0] == DP.ACTION
    assert not seat_1_decided(st)


# ----------------------------------------------------------------------------- D40 base
def test_D40_base_worked_example_each_successful_attack_costs_exactly_1() -> None:
    """D40 base proxy, P = base life 3.

    Round 1 (Fang): Rust Bloom hits for 3: P 3 -> 2; Shock Hammer with Overdrive Chip hits for 5:
    P 2 -> 1 (1 each, whatever the hit). Round 2 (Aegis, 2 melee energy): Frenzy Claw hits for 5:
    P 1 -> 0 and the table ends at once: loss_flags (False, True).
    """
    st = table(host_side(hand=("C01",), stock=("EN_MELEE",) * 7), BASE, 3)
    attack(st, RA)
    assert hits(st) == [(3, 2)]
    attack(st, LA, medal=True, cards=("C01",))
    assert hits(st) == [(3, 2), (5, 1)] and not st.done
    do(st, A.PASS, DP.EFFECT_ATTACH)  # a successful attack on the base dealt 1: Shock Hammer may take one
    # the Fang medarot can only pass now (forced) and seat 1 passes by itself: round 2
    assert (
        st.round == 2
        and st.action_medarot == [1, -1]
        and st.decision_point is not None
        and st.decision_point[0] == DP.ACTION
    )
    attack(st, RA)
    assert hits(st) == [(3, 2), (5, 1), (5, 0)] and PartsCore.proxy_life(st) == 0
    assert st.done and st.winner == 0 and PartsCore.loss_flags(st) == (False, True)
    assert PartsCore.split(st)[1] is None and not seat_1_decided(st)


@pytest.mark.parametrize("kind", [GUEST, BASE])
def test_D37_D40_an_attack_of_damage_0_is_no_hit(kind: int) -> None:
    """Rust Bloom at power 3 - 3 = 0 (a lasting -3 power modifier): R7 ends the battle, P stays 5."""
    side = host_side(stock=("EN_MELEE",) * 4)
    rust = side.field[0].parts[RA]
    side.mods.append([STAT_POWER, -3, rust.uid, -1, -1, 0, UNTIL_CARD, rust.uid])
    st = table(side, kind, 5)
    assert power(st, 0, 0, RA) == 0
    attack(st, RA)
    assert hits(st) == [] and PartsCore.proxy_life(st) == 5 and not st.done
    assert (
        st.field[0][0].parts[RA].tapped
        and st.decision_point is not None
        and st.decision_point[0] == DP.ACTION
    )


# ----------------------------------------------------------------------------- D37 legality
def test_D37_the_proxy_is_never_an_OPP_SLOT_target() -> None:
    """Cards, support parts and effect bindings aimed at an opposing slot are not legal at a proxy table.

    Fang hand: Rust Spray (C09, ACTION, +1 charge to an opposing slot), Battle Hymn (C08, ACTION,
    +1 power to an own medarot) and Hex Lantern (R08, a support part whose ON_USE aims at opposing
    slots); stock 4 support energy. Rust Spray is not playable (it is against a champion), Battle
    Hymn is; Hex Lantern can be exchanged in but not used, while Shock Hammer still attacks.
    """
    side = host_side(hand=("C08", "C09", "R08"), stock=("EN_SUPPORT",) * 4 + ("EN_MELEE",) * 2)
    st = table(side, GUEST, 9)
    legal = st.legal_actions()
    assert hand(st, "C09") not in legal and hand(st, "C08") in legal and hand(st, "R08") in legal
    champion = sides.compose(side, host_side(CHORUS), random.Random(3), 3)
    PartsCore.begin(champion)
    while (
        champion.current_player != 0
        or champion.decision_point is None
        or champion.decision_point[0] != DP.ACTION
    ):
        champion.apply(champion.legal_actions()[0])
    assert hand(champion, "C09") in champion.legal_actions()  # the control: a real opponent is a target
    do(st, hand(st, "R08"), DP.ACTION)  # exchange: Hex Lantern replaces Rust Bloom, legs stay untapped
    assert st.cards[st.field[0][0].parts[RA].card].name == "Hex Lantern"
    legal = st.legal_actions()
    assert A.USE_PART[RA] not in legal and A.USE_PART[LA] in legal
    assert PartsCore.proxy_life(st) == 9 and not seat_1_decided(st)


def test_D37_effect_cards_attach_only_to_effects_on_the_part_itself() -> None:
    """R24 after a hit on the stand-in: Shock Hammer (+2 power on itself) may take the effect card.

    Guest P = 9: Shock Hammer hits for 3 (P 9 -> 6); EFFECT_ATTACH is offered; attached, its
    power becomes 3 + 2 = 5. (Rust Bloom, bound to an opposing slot, is never offered: the first
    test.)
    """
    st = table(host_side(stock=("EN_MELEE",) * 2), GUEST, 9)
    attack(st, LA, medal=True)
    assert hits(st) == [(3, 6)]
    assert (
        st.decision_point is not None and st.decision_point[0] == DP.EFFECT_ATTACH and st.current_player == 0
    )
    assert st.battle is not None and st.battle.defender == 0 and st.battle.dealt == 3
    do(st, A.ATTACH_EFFECT)
    assert st.field[0][0].parts[LA].effect == "EF" and power(st, 0, 0, LA) == 5
    assert (
        st.decision_point is not None and st.decision_point[0] == DP.ACTION and PartsCore.proxy_life(st) == 6
    )


def test_D37_no_effect_of_the_parts_game_lowers_P_only_attacks_do() -> None:
    """Guest proxy: no primitive of the pool damages the opponent outside a battle (DAMAGE is a
    DEFENSE-timing reduction of the current battle's damage), so no effect lowers P. Battle Hymn
    (cost 2, paid with 2 support energy; +1 power to the Fang medarot's head and arms) leaves P 10;
    Rust Bloom then hits for 3 + 1 = 4: P 10 -> 6.
    """
    for cid in sides.pool().ids():
        for ab in sides.pool()[cid].abilities:
            if ab.op == "DAMAGE":
                assert ab.source == "DEFENSE" and ab.amount < 0, cid
    st = table(host_side(hand=("C08",), stock=("EN_SUPPORT",) * 2 + ("EN_MELEE",) * 2), GUEST, 10)
    do(st, hand(st, "C08"), DP.ACTION)
    while st.decision_point is not None and st.decision_point[0] in (DP.PAYMENT, DP.TARGET):
        do(st, A.ENERGY[SUPPORT] if st.decision_point[0] == DP.PAYMENT else A.MEDAROT[0])
    assert PartsCore.proxy_life(st) == 10 and hits(st) == [] and power(st, 0, 0, RA) == 4
    attack(st, RA)
    assert hits(st) == [(4, 6)]


def test_D37_D40_random_proxy_tables_seat_1_never_decides_and_P_follows_the_hits() -> None:
    """Random host play on proxy tables of every starter deck and both kinds.

    Seat 1 never decides (no decision point is its, no forced move is played for it, no defender
    window is reached); P never rises nor drops below 0; a guest loses min(hit, P), a base 1 per
    hit; the table is terminal exactly when P is 0 or the turn is over, and loss_flags says so.
    """
    ended = hit = 0
    for seed in range(36):
        rng = random.Random(seed)
        kind = GUEST if seed % 2 else BASE
        name = deck_names()[seed % 3]
        side = sides.new_side(decklist(name))
        side.stock = [[c, False] for c in ("EN_SHOOT", "EN_MELEE", "EN_DEFENSE", "EN_SUPPORT") * 3]
        life = 1 + seed % 9
        st = sides.compose(side, None, rng, 2 + seed % 4, Proxy(kind, life))
        PartsCore.begin(st)
        last = life
        while st.current_player >= 0:
            assert st.current_player == 0 and st.decision_point is not None and st.decision_point[1] == 0
            assert DP(st.decision_point[0]) not in DEFENDER_DECISIONS
            st.apply(rng.choice(st.legal_actions()))
            now = PartsCore.proxy_life(st)
            assert 0 <= now <= last
            last = now
        before = life
        for h, after in hits(st):
            assert after == (max(0, before - h) if kind == GUEST else before - 1)
            before = after
        assert before == PartsCore.proxy_life(st) and not seat_1_decided(st)
        assert st.done and (st.truncated != (PartsCore.proxy_life(st) == 0))
        assert PartsCore.loss_flags(st) == (False, PartsCore.proxy_life(st) == 0)
        assert PartsCore.split(st)[1] is None and st.field[1] == [] and st.hand[1] == []
        ended += PartsCore.proxy_life(st) == 0
        hit += bool(hits(st))
    assert ended >= 3 and hit >= 10  # the sweep did reach hits and ended tables


def test_D37_the_host_losing_by_deck_out_is_its_own_loss_and_P_stays() -> None:
    """A host that cannot draw up to 7 loses (D8); the stand-in keeps P: loss_flags (True, False)."""
    side = sides.new_side(decklist(FANG))
    side.deck = side.deck[:3]
    st = table(side, GUEST, 5)
    assert st.done and PartsCore.loss_flags(st) == (True, False) and PartsCore.proxy_life(st) == 5


# ----------------------------------------------------------------------------- contract
def test_compose_contract_errors_config_and_cache() -> None:
    """compose refuses a proxy with a champion or a life below 1; proxy_life needs a proxy table."""
    side, other = host_side(), host_side(CHORUS)
    rng = random.Random(0)
    with pytest.raises(ValueError, match="champion"):
        PartsCore.compose(side, other, rng, 2, Proxy(GUEST, 3))
    for bad in (0, -2, True, 2.0):
        with pytest.raises(ValueError, match="life"):
            PartsCore.compose(side, None, rng, 2, Proxy(BASE, bad))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="proxy"):
        PartsCore.compose(side, None, rng, 2, Proxy(3, 3))
    plain = sides.compose(side, None, rng, 2)
    with pytest.raises(ValueError, match="no proxy"):
        PartsCore.proxy_life(plain)
    st = sides.compose(side, None, rng, 2, Proxy(BASE, 4))
    assert st.config.proxy == BASE and st.config.vacant_seat and plain.config.proxy == 0
    assert sides.table_config(2, True, BASE) is st.config is not sides.table_config(2, True)
    assert sides.table_summary(st, 1) == (4, 0, 0, 1)
    assert sides.table_summary(st, 0) == sides.summary(side)
    with pytest.raises(StateError):
        make_config(proxy=3)
    with pytest.raises(StateError):
        RulesConfig(proxy=GUEST)  # a proxy sits at a vacant seat


def test_serialization_round_trip_of_a_proxy_table_mid_turn() -> None:
    """to_dict / from_dict (through JSON) and clone keep the config's proxy, P0 and P exactly.

    Mid-battle after a guest hit (P 7 -> 4, at the EFFECT_ATTACH of Shock Hammer), the copies go
    on alike: ATTACH_EFFECT, PASS, then the turn runs out the same way.
    """
    st = table(host_side(stock=("EN_MELEE",) * 4), GUEST, 7)
    attack(st, LA, medal=True)
    assert (
        st.decision_point is not None
        and st.decision_point[0] == DP.EFFECT_ATTACH
        and PartsCore.proxy_life(st) == 4
    )
    data = st.to_dict()
    assert data["config"]["proxy"] == GUEST and (data["proxy_armor"], data["proxy_life"]) == (7, 4)
    back = GameState.from_dict(json.loads(json.dumps(data)))
    copy = st.clone()
    assert back.to_dict() == data == copy.to_dict()
    assert PartsCore.proxy_life(back) == PartsCore.proxy_life(copy) == 4
    hidden = st.resample_hidden(0, random.Random(1))
    assert PartsCore.proxy_life(hidden) == 4 and hidden.proxy_armor == 7
    for s in (st, back, copy):
        s.apply(A.ATTACH_EFFECT)
        while not s.done:
            legal = s.legal_actions()
            s.apply(A.PASS if A.PASS in legal else legal[0])
    assert st.to_dict() == back.to_dict() == copy.to_dict()
    assert st.truncated and PartsCore.proxy_life(st) == 4 and PartsCore.loss_flags(st) == (False, False)
    plain = sides.compose(host_side(), None, random.Random(0), 2).to_dict()
    assert (plain["proxy_armor"], plain["proxy_life"]) == (0, 0)  # no proxy at this table
    del plain["proxy_armor"], plain["proxy_life"]  # dicts written before proxies load as such
    assert GameState.from_dict(plain).to_dict()["proxy_life"] == 0


# ----------------------------------------------------------------------------- D38
def test_D38_nominal_life_is_the_starter_heads_armor_fixed_for_the_side() -> None:
    """L0: Blaze Striker 3 + 4 = 7, Chorus Support 3 + 3 = 6, Fang Brawler 4 + 5 = 9.

    It is kept by to_dict / from_dict and clone, computed from the starter heads for a dict
    written without it, and stays fixed when the side loses core life (A7) or plays a proxy table.
    """
    want = {BLAZE: 7, CHORUS: 6, FANG: 9}
    for name, l0 in want.items():
        side = sides.new_side(decklist(name))
        assert sides.nominal_life(side) == l0 == side.life()
        data = side.to_dict()
        assert data["nominal"] == l0
        assert sides.nominal_life(Side.from_dict(json.loads(json.dumps(data)))) == l0
        del data["nominal"]
        assert sides.nominal_life(Side.from_dict(data)) == l0
        assert sides.nominal_life(side.clone()) == l0
    side = sides.new_side(decklist(FANG))
    assert not sides.lose_core_life(side, 5)  # 5 >= 4: the Fang head is destroyed, life 5
    assert side.life() == 5 and sides.nominal_life(side) == 9
    st = table(host_side(stock=("EN_MELEE",) * 2), BASE, 2)
    attack(st, RA)
    host, _ = PartsCore.split(st)
    assert sides.nominal_life(host) == 9
    assert sides.nominal_life(PartsCore(2).resample_side(side, random.Random(0), keep_private=False)) == 9


# ----------------------------------------------------------------------------- D42 view, render, encoder
@pytest.mark.parametrize(("kind", "word"), [(GUEST, "the defender's stand-in"), (BASE, "the enemy base")])
def test_D42_view_render_and_encoder_show_the_stand_in_with_its_head(kind: int, word: str) -> None:
    """Seat 1 is the stand-in medarot with only its head of armor P0 = 5 (D42).

    Shock Hammer hits for 3: a guest's head then holds 3 counters (P 5 -> 2), a base's 1 (P 5 -> 4).
    At its effect step the stand-in is the defending medarot. Seen from seat 0 it is the
    opponent's medarot 0; from seat 1, its own medarot 0; its other rows are empty.
    """
    st = table(host_side(stock=("EN_MELEE",) * 4), kind, 5)
    text = describe_action(st, 0, PartsEncoder(sides.pool()).action_to_index(A.USE_PART[RA], st))["text"]
    assert word in text and "5 life" in text
    attack(st, LA, medal=True)
    life = 2 if kind == GUEST else 4
    assert PartsCore.proxy_life(st) == life
    v = view(st, 0)
    assert v["board"]["proxy"]["kind"] == proxy.KINDS[kind] and v["board"]["proxy"]["name"] == word
    assert (v["board"]["proxy"]["life"], v["board"]["proxy"]["armor"]) == (life, 5)
    assert word in v["board"]["proxy"]["text"]
    (med,) = v["board"]["sides"][1]["medarots"]
    (head,) = med["parts"]
    assert med["proxy"] == proxy.KINDS[kind] and med["medal"]["id"] is None and not med["stopped"]
    assert head["slot"] == "HEAD" and head["card"]["armor"] == 5 and head["card"]["id"] is None
    assert (head["counters"], head["armor_left"], head["destroyed"]) == (5 - life, life, False)
    assert (
        st.battle is not None and st.decision_point is not None and st.decision_point[0] == DP.EFFECT_ATTACH
    )
    assert med["defending"] and "stand-in medarot" in (resolving_text(st, 0) or "")
    assert view(st, 1)["board"]["sides"][1]["medarots"] == v["board"]["sides"][1]["medarots"]
    assert view(sides.compose(host_side(), None, random.Random(0), 2), 0)["board"]["proxy"] is None
    board = render_text(st, 0)
    assert f"{word}: life {life}" in board and f"{5 - life}/5 dmg" in board
    enc = PartsEncoder(sides.pool())
    for seat, m in ((0, 2), (1, 0)):  # the stand-in is the opponent's medarot 0, or seat 1's own
        obs = enc.layout.split(enc.observe(st, seat))
        meds = obs["medarots"].reshape(4, -1)
        parts = obs["parts"].reshape(16, -1)
        assert meds[m][6] == 0.0  # not stopped
        assert parts[4 * m][2] == pytest.approx((5 - life) / 9)  # counters / 9
        assert parts[4 * m][3] == pytest.approx(life / 9)  # remaining armor / 9 = P / 9
        assert not parts[4 * m + 1 : 4 * m + 4].any() and not meds[m + 1 if m == 0 else 3].any()
    assert enc.observe(st, 0).shape == (enc.obs_size,)


def test_D42_a_destroyed_stand_in_is_shown_stopped() -> None:
    """Guest P 3, Rust Bloom hits for 3: its head is destroyed, the stand-in stopped, life 0."""
    st = table(host_side(stock=("EN_MELEE",) * 2), GUEST, 3)
    attack(st, RA)
    assert st.done
    (med,) = view(st, 0)["board"]["sides"][1]["medarots"]
    assert med["stopped"] and med["parts"][0]["destroyed"] and med["parts"][0]["armor_left"] == 0
    assert med["parts"][0]["counters"] == 0  # R22: a destroyed part holds no counters
    enc = PartsEncoder(sides.pool())
    obs = enc.layout.split(enc.observe(st, 0))
    assert obs["medarots"].reshape(4, -1)[2][6] == 1.0 and obs["parts"].reshape(16, -1)[8][1] == 1.0
    assert "has no life left" in st.reason
