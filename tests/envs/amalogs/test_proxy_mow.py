"""The proxy seat of a Master of the World table (amalogs section 11: D37, D38, D40; E14-E16 at the table).

A MoW table of the AMALOGS meta-game may seat a *proxy* at seat 1: a master with life P and
nothing else (``envs.mow.sides.compose(..., Proxy(GUEST/BASE, P))``). These tests
drive the sides-level API directly: a host side is laid out by hand, a proxy table is composed
and begun, and the host's own actions are played. The meta-level conversions between nominal
lives are not tested here (they belong to the meta engine); the table's P arithmetic is.
"""

from __future__ import annotations

import json
import random

import pytest

from deckgym.envs.amalogs.cores.mow import MowCore
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.events import check_fields
from deckgym.envs.core.proxy import BASE, GUEST, NONE, Proxy
from deckgym.envs.mow import events, sides
from deckgym.envs.mow.actions import ATTACKER, DP, FAST, HAND, PASS, SLOT_SPELL, TARGET, Kind
from deckgym.envs.mow.card_defs import Effect
from deckgym.envs.mow.config import make_config
from deckgym.envs.mow.describe import describe_action
from deckgym.envs.mow.encode import LAYOUT, MowEncoder
from deckgym.envs.mow.render import render_text
from deckgym.envs.mow.rules.effects import chosen_options, fixed_targets
from deckgym.envs.mow.rules.values import level_for
from deckgym.envs.mow.state import GameState, Monster
from deckgym.envs.mow.view import view

POOL = sides.pool()
#: A deck of MS01 (Ashen Regent: attack 1/2/3 at levels 1/2/3; up時 at level 2: 2 damage to the
#: opposing master) and 40 cards: Wild Boar (3/1, no text), Pike Soldier (2/2), Ember Hound (3/2,
#: 攻撃時 1 damage to the attack target), Stone Sentinel (0/6), Quick Spark (高速: 2 damage to a
#: chosen opposing master or monster), Fire Bolt (3 damage to any chosen master or monster),
#: Moss Sprite (1/1) as filler.
DECK = (
    ["MS01"]
    + ["MN17"] * 4
    + ["MN02"] * 4
    + ["MN04"] * 4
    + ["MN03"] * 4
    + ["SP02"] * 4
    + ["SP01"] * 4
    + ["MN01"] * 16
)
#: The table's core turn (monsters that entered before it are ready).
TURN = 6
ENC = MowEncoder(POOL)


def host(
    field: tuple[str, ...] = (),
    exp: int = 0,
    hand: tuple[str, ...] = (),
    life: int = 20,
    entered: int = TURN - 1,
    spell: str | None = None,
    deck: bool = True,
) -> sides.Side:
    """A MS01 side laid out by hand from ``DECK`` (every card kept: I9): ``field`` monsters that
    entered on ``entered``, ``exp`` Moss Sprites as experience, ``hand``, an optional face-down
    ``spell`` cast on the previous turn (ready), the rest in the deck (or the discard pile)."""
    s = sides.new_side(DECK)
    s.master = "MS01"
    cards = [c for c in DECK if c != "MS01"]

    def take(cid: str) -> str:
        cards.remove(cid)
        return cid

    s.monsters = [Monster(i + 1, take(c), entered) for i, c in enumerate(field)]
    s.hand = [take(c) for c in hand]
    s.exp = [take("MN01") for _ in range(exp)]
    if spell is not None:
        s.spell = [take(spell), TURN - 1, len(field) + 1]
    s.level = level_for(POOL[s.master], len(s.exp))
    assert s.level >= len(s.monsters), "more monsters than summon slots"
    if deck:
        s.deck = cards
    else:
        s.discard = cards
    s.life = life
    assert sorted(s.cards()) == sorted(DECK)
    return s


def table(side: sides.Side, kind: int, p: int) -> GameState:
    """A begun table of ``TURN`` with ``side`` at seat 0 and a proxy of kind ``kind`` and life ``p``."""
    st = sides.compose(side, None, random.Random(0), TURN, Proxy(kind, p))
    st.event_cap = 10**9
    MowCore.begin(st)
    return st


def to(st: GameState, dp: DP) -> None:
    """PASS until decision ``dp`` (seat 0 decides every step on the way)."""
    while st.decision_point is not None and st.decision_point[0] != dp:
        assert st.decision_point[1] == 0
        st.apply(PASS)
    assert st.decision_point is not None and st.decision_point[0] == dp


def attack(st: GameState, who: int) -> None:
    """Attack the proxy with ``who`` (0 the master, i + 1 the monster at position i)."""
    st.apply(ATTACKER[who])
    assert st.decision_point is not None and st.decision_point[0] == DP.ATTACK_TARGET
    assert st.legal_actions() == [TARGET[8]], "the proxy master is the only attack target"
    st.apply(TARGET[8])


def kinds(st: GameState, kind: str) -> list[dict]:
    return [r for r in st.records if r["kind"] == kind]


def finish(st: GameState) -> None:
    """PASS to the end of the table."""
    while st.current_player >= 0:
        assert st.current_player == 0
        st.apply(PASS)


# ----------------------------------------------------------------------------- E14, E16
def test_E14_monster_then_master_attack_the_guest_proxy_24_to_19() -> None:
    """E14 at the MoW table: P=24 (not capped at 20, D37); the level-2 host attacks with its ready
    3-attack monster (24 -> 21), then with its attack-2 master (21 -> 19); the proxy deals 0 back; d = 5."""
    side = host(field=("MN17",), exp=4)
    assert side.level == 2
    st = table(side, GUEST, 24)
    assert MowCore.proxy_life(st) == 24
    to(st, DP.ATTACK_DECLARE)
    assert set(st.legal_actions()) == {PASS, ATTACKER[0], ATTACKER[1]}
    attack(st, 1)
    assert MowCore.proxy_life(st) == 21
    attack(st, 0)
    assert MowCore.proxy_life(st) == 19
    assert st.life[0] == 20 and st.monsters[0][0].damage == 0, "the proxy deals 0 back"
    hits = kinds(st, "proxy_hit")
    assert [(h["player"], h["attacker"], h["proxy"], h["hit"], h["life"]) for h in hits] == [
        (0, "MN17", "guest", 3, 21),
        (0, "MS01", "guest", 2, 19),
    ]
    assert all(check_fields(events.KINDS, events.PRIVATE, h) is None for h in hits)
    finish(st)
    assert st.truncated and MowCore.loss_flags(st) == (False, False)
    assert 24 - MowCore.proxy_life(st) == 5
    back, none = MowCore.split(st)
    assert none is None and back.life == 20 and back.master_attacked and back.monsters[0].attacked


def test_E16_D40_base_proxy_loses_exactly_1_per_successful_attack() -> None:
    """E16 / D40 at the MoW table: base P=18; hits 3 and 2 each cost exactly 1 (18 -> 17 -> 16);
    a hit of 0 (Stone Sentinel, attack 0) is no successful attack and costs nothing."""
    st = table(host(field=("MN17", "MN03"), exp=4), BASE, 18)
    to(st, DP.ATTACK_DECLARE)
    attack(st, 1)
    assert MowCore.proxy_life(st) == 17
    attack(st, 2)
    assert MowCore.proxy_life(st) == 17, "attack 0: not a successful attack"
    attack(st, 0)
    assert MowCore.proxy_life(st) == 16
    assert [(h["hit"], h["life"], h["proxy"]) for h in kinds(st, "proxy_hit")] == [
        (3, 17, "base"),
        (0, 17, "base"),
        (2, 16, "base"),
    ]
    finish(st)
    assert MowCore.loss_flags(st) == (False, False)


def test_E15_D38_nominal_life_of_master_of_the_world_is_20() -> None:
    """D38: L0 of MoW is 20 for every side, whatever its life (E15: a MoW defender with life 3 has L0 20;
    losing 3 through A7 is its loss)."""
    for life in (20, 3, 25):
        assert sides.nominal_life(host(life=life)) == 20
    s = host(life=3)
    assert sides.lose_core_life(s, 3) and s.life == 0


# ----------------------------------------------------------------------------- D37: P, the end of the table
@pytest.mark.parametrize(("kind", "p"), [(GUEST, 2), (BASE, 1)])
def test_D37_P_never_below_0_and_the_table_ends_at_once(kind: int, p: int) -> None:
    """D37, D40: a hit beyond what is left takes P to 0, not below; the table is terminal at once with
    seat 1 the loser: the master's attack still to come is abandoned; split gives (host side, None)."""
    st = table(host(field=("MN17",), exp=4), kind, p)
    to(st, DP.ATTACK_DECLARE)
    attack(st, 1)
    assert MowCore.proxy_life(st) == 0 and st.life[1] == 0
    assert st.done and not st.truncated and st.winner == 0
    assert st.current_player == -1 and st.legal_actions() == []
    assert MowCore.loss_flags(st) == (False, True)
    back, none = MowCore.split(st)
    assert none is None
    assert back.monsters[0].attacked and not back.master_attacked, "the rest of the turn is abandoned"
    assert sorted(back.cards()) == sorted(DECK)


def test_D37_P_reaching_0_abandons_pending_triggers_and_the_engagement() -> None:
    """D37 (MoW: pending triggers and the rest of the turn are abandoned): Ember Hound's 攻撃時 deals 1 to
    a guest proxy of P=1; the table ends there, before the engagement."""
    st = table(host(field=("MN04",), exp=4), GUEST, 1)
    to(st, DP.ATTACK_DECLARE)
    attack(st, 1)
    assert st.done and MowCore.proxy_life(st) == 0
    assert kinds(st, "engage") == [] and kinds(st, "proxy_hit") == []
    dmg = kinds(st, "damage")
    assert [(d["player"], d["card"], d["amount"], d["life"]) for d in dmg] == [(1, None, 1, 0)]
    assert MowCore.loss_flags(st) == (False, True)


def test_D37_host_loss_on_a_proxy_table_is_the_first_flag() -> None:
    """D37, D39: the state checks ignore seat 1's empty deck, but the host's own empty deck still loses."""
    st = table(host(field=("MN17",), exp=4, deck=False), GUEST, 9)
    assert st.done and st.winner == 1
    assert MowCore.loss_flags(st) == (True, False) and MowCore.proxy_life(st) == 9


def test_D37_seat_1s_empty_deck_and_zones_do_not_end_the_table() -> None:
    """D37: the proxy has no deck, hand or field, and that is no loss: a quiet turn ends by the turn cap."""
    for kind in (GUEST, BASE):
        st = table(host(), kind, 5)
        assert st.deck[1] == [] and st.masters[1] == "" and not st.done
        finish(st)
        assert st.truncated and MowCore.loss_flags(st) == (False, False) and MowCore.proxy_life(st) == 5


# ----------------------------------------------------------------------------- D37: legality
def test_D37_summoning_sickness_and_once_per_turn_apply_to_attacks_on_the_proxy() -> None:
    """D37: a monster that entered this turn is no attacker; the master and each monster attack once."""
    st = table(host(field=("MN17", "MN02"), exp=4, entered=TURN - 1), GUEST, 30)
    st.monsters[0][1].entered = TURN  # sick
    to(st, DP.ATTACK_DECLARE)
    assert set(st.legal_actions()) == {PASS, ATTACKER[0], ATTACKER[1]}
    attack(st, 1)
    assert set(st.legal_actions()) == {PASS, ATTACKER[0]}
    attack(st, 0)
    assert st.current_player == -1 or st.decision_point[0] != DP.ATTACK_DECLARE, "no attacker is left"
    assert MowCore.proxy_life(st) == 30 - 3 - 2


def test_D21_without_a_proxy_a_vacant_seat_still_has_no_attack() -> None:
    """D21 unchanged: facing a vacant seat (no proxy) no attacker is eligible and life[1] stays 0."""
    st = sides.compose(host(field=("MN17",), exp=4), None, random.Random(0), TURN)
    MowCore.begin(st)
    while st.current_player >= 0:
        assert st.decision_point is not None and st.decision_point[0] != DP.ATTACK_DECLARE
        st.apply(PASS)
    assert st.life[1] == 0 and MowCore.loss_flags(st) == (False, False)
    with pytest.raises(ValueError):
        MowCore.proxy_life(st)


def test_D37_guest_proxy_is_a_legal_choice_for_damage_effects_only() -> None:
    """D37: for a guest proxy the proxy master is a target of DAMAGE (OPP_MASTER, CHOSEN, ALL); every
    other primitive, and every effect on a base proxy, finds seat 1 absent."""
    guest = table(host(), GUEST, 10)
    base = table(host(), BASE, 10)
    dmg = Effect("DAMAGE", 2, target="OPP_MASTER")
    heal = Effect("HEAL", 2, target="OPP_MASTER")
    buff = Effect("BUFF", target="OPP_MASTER", d_atk=1, duration="TURN")
    chosen = Effect("DAMAGE", 2, target="CHOSEN", side="OPP", kinds=("MASTER", "MONSTER"))
    chosen_heal = Effect("HEAL", 2, target="CHOSEN", side="ANY", kinds=("MASTER",))
    all_masters = Effect("DAMAGE", 1, target="ALL", side="ANY", kinds=("MASTER",))
    frame = [0, "SP01", -1, 0, 0, 0, -2, [-2]]  # ATTACK_TARGET and SAME: the proxy master
    at_target = Effect("DAMAGE", 1, target="ATTACK_TARGET")
    buff_same = Effect("BUFF", target="SAME", d_atk=1, duration="TURN")
    assert fixed_targets(guest, frame, dmg) == [-2]
    assert fixed_targets(guest, frame, at_target) == [-2]
    assert fixed_targets(guest, frame, all_masters) == [-1, -2]
    assert chosen_options(guest, 0, chosen) == [TARGET[8]]
    for st in (guest, base):
        assert fixed_targets(st, frame, heal) == []
        assert fixed_targets(st, frame, buff) == []
        assert fixed_targets(st, frame, buff_same) == []
        assert chosen_options(st, 0, chosen_heal) == [TARGET[0]]
    assert fixed_targets(base, frame, dmg) == []
    assert fixed_targets(base, frame, at_target) == []
    assert fixed_targets(base, frame, all_masters) == [-1]
    assert chosen_options(base, 0, chosen) == []


def test_D37_a_guest_damage_spell_lowers_P_a_base_is_no_choice() -> None:
    """D37/D40: Quick Spark (2 damage to a chosen opposing master or monster) from hand: a guest proxy
    is its only choice and loses 2; at a base the primitive has no target and P stays."""
    for kind, want in ((GUEST, 8), (BASE, 10)):
        st = table(host(hand=("SP02",), exp=2), kind, 10)
        to(st, DP.MAIN)
        st.apply(FAST[POOL["SP02"].index])
        if kind == GUEST:
            assert st.decision_point == (int(DP.EFFECT_TARGET), 0, ())
            assert st.legal_actions() == [TARGET[8]]
            words = describe_action(st, 0, ENC.action_to_index(TARGET[8], st))["text"]
            assert "the defender's stand-in" in words
            st.apply(TARGET[8])
        assert MowCore.proxy_life(st) == want
        assert st.decision_point == (int(DP.MAIN), 0, ()), "the table goes on"
        windows = [r for r in kinds(st, "auto") if r["decision"] == "COUNTER_WINDOW"]
        assert [r["player"] for r in windows] == [1], "seat 1's counter window passes by itself"


def test_D37_fire_bolt_may_aim_at_the_guest_proxy_or_at_the_own_side() -> None:
    """D37: Fire Bolt (3 damage to ANY chosen master or monster) from the face-down slot: the guest proxy
    is one choice among the host's own master and monsters; at a base it is none."""
    for kind in (GUEST, BASE):
        st = table(host(field=("MN02",), exp=2, spell="SP01"), kind, 10)
        to(st, DP.MAIN)
        st.apply(SLOT_SPELL)
        assert st.decision_point == (int(DP.EFFECT_TARGET), 0, ())
        own = [TARGET[0], TARGET[1]]
        assert st.legal_actions() == (own + [TARGET[8]] if kind == GUEST else own)
        if kind == GUEST:
            st.apply(TARGET[8])
            assert MowCore.proxy_life(st) == 7
            d = kinds(st, "damage")[-1]
            assert (d["player"], d["card"], d["zone"], d["amount"], d["life"]) == (1, None, "master", 3, 7)


@pytest.mark.parametrize(("kind", "want"), [(GUEST, 6), (BASE, 8)])
def test_D37_level_up_damage_to_the_opposing_master_lowers_a_guest_proxy(kind: int, want: int) -> None:
    """D37, D40: charging to level 2 sets off Ashen Regent's up時 (2 damage to the opposing master): a
    guest proxy loses 2, a base proxy nothing."""
    st = table(host(hand=("MN01",), exp=3), kind, 8)
    to(st, DP.CHARGE)
    st.apply(HAND[POOL["MN01"].index])
    assert st.level[0] == 2
    to(st, DP.MAIN)
    assert MowCore.proxy_life(st) == want


def test_D37_ember_hound_on_attack_damage_hits_a_guest_not_a_base() -> None:
    """D37, D40: Ember Hound's 攻撃時 (1 damage to the attack target) then its attack 3: a guest proxy
    loses 1 + 3; a base proxy loses exactly 1 (effects never change it)."""
    for kind, want in ((GUEST, 16), (BASE, 19)):
        st = table(host(field=("MN04",), exp=2), kind, 20)
        to(st, DP.ATTACK_DECLARE)
        attack(st, 1)
        assert MowCore.proxy_life(st) == want


# ----------------------------------------------------------------------------- random play
@pytest.mark.parametrize("seed", range(40))
def test_D37_D40_random_proxy_tables_keep_the_proxy_rules(seed: int) -> None:
    """D37, D40 along random host turns: seat 1 never decides; P never rises, never drops below 0, and
    falls exactly as the proxy_hit and damage events say (guest: by the hits and the effect damage;
    base: 1 per hit of at least 1, never by effects); the table ends iff the turn is over, P is 0 or
    the host has lost; split gives (the host side with all its cards, None)."""
    rng = random.Random(seed)
    kind = rng.choice((GUEST, BASE))
    exp = rng.randrange(0, 9)
    level = level_for(POOL["MS01"], exp)
    ready = ("MN17", "MN02", "MN04", "MN03")
    field = tuple(rng.choice(ready) for _ in range(rng.randrange(0, min(level, 2) + 1)))
    hand = tuple(rng.choice(("SP02", "SP01", "MN04", "MN17", "MN01")) for _ in range(rng.randrange(0, 5)))
    side = host(field=field, exp=exp, hand=hand, life=rng.randrange(3, 21), spell=rng.choice((None, "SP01")))
    p0 = rng.randrange(1, 30)
    st = table(side, kind, p0)
    p = p0
    n = len(st.records)
    while True:
        new = st.records[n:]
        n = len(st.records)
        hits = [r["hit"] for r in new if r["kind"] == "proxy_hit"]
        effect = [r["amount"] for r in new if r["kind"] == "damage" and r["player"] == 1]
        if kind == GUEST:
            want = max(0, p - sum(hits) - sum(effect))
        else:
            assert effect == [], "effects never reach a base proxy"
            want = max(0, p - sum(1 for h in hits if h >= 1))
        assert MowCore.proxy_life(st) == want and 0 <= want <= p
        p = want
        if st.current_player < 0:
            break
        assert st.current_player == 0 and st.decision_point is not None and st.decision_point[1] == 0
        st.apply(rng.choice(st.legal_actions()))
    assert st.done
    lost_host, lost_proxy = MowCore.loss_flags(st)
    assert lost_proxy == (p == 0)
    assert st.truncated or lost_host or p == 0
    assert not (st.truncated and (lost_host or lost_proxy))
    back, none = MowCore.split(st)
    assert none is None and sorted(back.cards()) == sorted(DECK)


# ----------------------------------------------------------------------------- contract and serialization
def test_compose_refuses_a_proxy_with_a_champion_or_a_life_below_1() -> None:
    """The sides contract: a proxy sits only at an empty seat 1 and has a life of at least 1."""
    a, b = host(), host()
    rng = random.Random(0)
    with pytest.raises(ValueError):
        MowCore.compose(a, b, rng, TURN, Proxy(GUEST, 5))
    for bad in (0, -3, True, 2.5):
        with pytest.raises(ValueError):
            MowCore.compose(a, None, rng, TURN, Proxy(BASE, bad))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        MowCore.compose(a, None, rng, TURN, Proxy(3, 5))
    st = sides.compose(a, None, rng, TURN, Proxy(BASE, 30))
    assert st.config.vacant_seat and st.config.proxy == BASE and st.life == [20, 30]
    assert sides.compose(a, b, rng, TURN).config.proxy == NONE


def test_table_config_cache_and_rules_options_know_the_proxy() -> None:
    """``table_config`` is keyed on the proxy too; ``make_config`` validates the option."""
    plain = sides.table_config(TURN, True, False)
    guest = sides.table_config(TURN, True, False, GUEST)
    assert plain.proxy == NONE and guest.proxy == GUEST and plain is not guest
    assert sides.table_config(TURN, True, False, GUEST) is guest
    assert make_config(vacant_seat=True, proxy=2).proxy == BASE
    for bad in ({"proxy": 1}, {"vacant_seat": True, "proxy": 3}, {"vacant_seat": True, "proxy": True}):
        with pytest.raises(StateError):
            make_config(**bad)


def test_a_proxy_table_round_trips_mid_turn_and_resampling_keeps_P() -> None:
    """to_dict/from_dict and clone of a proxy table mid-turn are exact (config.proxy and P included) and
    play on alike; resampling the hidden information leaves P alone."""
    st = table(host(field=("MN17", "MN02"), exp=4), GUEST, 24)
    to(st, DP.ATTACK_DECLARE)
    attack(st, 1)
    st.apply(ATTACKER[2])  # mid-attack: at the target decision
    d = st.to_dict()
    assert d["config"]["proxy"] == GUEST and d["life"] == [20, 21]
    back = GameState.from_dict(json.loads(json.dumps(d)))
    twin = st.clone()
    assert back.to_dict() == d and twin.to_dict() == d
    for s in (st, back, twin):
        s.apply(TARGET[8])
        s.apply(ATTACKER[0])
        s.apply(TARGET[8])
        finish(s)
    assert st.to_dict() == back.to_dict() == twin.to_dict()
    assert MowCore.proxy_life(back) == 24 - 3 - 2 - 2
    mid = table(host(field=("MN17",), exp=4, hand=("SP02", "MN01")), BASE, 13)
    for seat in (0, 1):
        r = mid.resample_hidden(seat, random.Random(seat))
        assert r.life[1] == 13 and r.config.proxy == BASE


# ----------------------------------------------------------------------------- D42: view, text, observation
@pytest.mark.parametrize(("kind", "name"), [(GUEST, "the defender's stand-in"), (BASE, "the enemy base")])
def test_D42_the_hosts_view_render_and_observation_show_the_proxy_master(kind: int, name: str) -> None:
    """D42: from seat 0 the proxy is an opponent master with life P and attack and guard 0 and no cards."""
    st = table(host(field=("MN17",), exp=4), kind, 24)
    to(st, DP.ATTACK_DECLARE)
    v = view(st, 0)
    me, them = v["players"]
    assert me["life"] == 20 and "proxy" not in me
    assert them["proxy"] == ("guest" if kind == GUEST else "base") and not them["vacant"]
    assert them["life"] == 24 and them["hand_count"] == 0 and them["deck"] == 0
    m = them["master"]
    assert (m["id"], m["name"], m["attack"], m["guard"], m["level"]) == (None, name, 0, 0, 0)
    assert v["board"]["sides"][1]["monsters"] == [] and v["board"]["sides"][1]["weapon"] is None
    assert json.loads(json.dumps(v)) == v
    assert view(st, 1)["players"][1]["proxy"] is not None
    assert f"P1  {name}: life 24, attack 0, guard 0" in render_text(st, 0)

    master = LAYOUT.pieces["master"].start
    obs = ENC.observe(st, 0)
    assert obs[master + 8] == pytest.approx(24 / 20)
    assert list(obs[master + 9 : master + 16]) == [0.0] * 7, "attack, guard, level... of the proxy are 0"
    ids = LAYOUT.pieces["master_id"].start
    assert not obs[ids + 8 : ids + 16].any(), "the proxy has no master card"
    attack(st, 1)
    obs = ENC.observe(st, 0)
    assert obs[master + 8] == pytest.approx((23 if kind == BASE else 21) / 20)
    assert view(st, 0)["players"][1]["life"] == MowCore.proxy_life(st)
    text = [describe_action(st, 0, i)["text"] for i in ENC.legal_indices(st)]
    assert text and all(text)
    plain = sides.compose(host(), None, random.Random(0), TURN)
    assert not ENC.observe(plain, 0)[master + 8 : master + 16].any(), "a vacant seat's block stays zero"


def test_describe_names_the_proxy_as_the_attack_target() -> None:
    """D42: the words of the attack on the proxy name it (the engine does not know the players' names)."""
    st = table(host(field=("MN17",), exp=4), BASE, 5)
    to(st, DP.ATTACK_DECLARE)
    st.apply(ATTACKER[1])
    idx = ENC.action_to_index(TARGET[8], st)
    assert Kind(st.legal_actions()[0].kind) == Kind.TARGET
    assert describe_action(st, 0, idx)["text"].endswith("attacks the enemy base")
