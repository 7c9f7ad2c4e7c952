"""AMALOGS proxy seats on a Medarot OCG table (spec D37, D38, D40; worked examples E15-E17).

Everything goes through the sides-level API (``envs.medarot_ocg.sides``): a host side is set
up with its Medarots, composed with a guest or base proxy at seat 1, begun, and the host's
turn is played. Seat 1 holds only the life counter P (``st.hp[1]``); the host's Medarots
attack the empty squares of seat 1's row (squares 10-14).
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from deckgym.envs.amalogs.cores.medarot_ocg import MedarotCore
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.proxy import BASE, GUEST, NONE, Proxy
from deckgym.envs.core.targets import Target
from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg import sides
from deckgym.envs.medarot_ocg.cards import Effect
from deckgym.envs.medarot_ocg.config import make_config
from deckgym.envs.medarot_ocg.describe import describe_action
from deckgym.envs.medarot_ocg.encode import MedarotEncoder
from deckgym.envs.medarot_ocg.encode_layout import SCALARS
from deckgym.envs.medarot_ocg.render import render_text
from deckgym.envs.medarot_ocg.rules.effects import SUPPORT, resolve
from deckgym.envs.medarot_ocg.state import Eff, GameState, Stack
from deckgym.envs.medarot_ocg.view import view
from tests.envs.medarot_ocg.fixtures import default_choice

OPEN_ROW = range(10, 15)
#: The deck every test side draws from: Rivetclaws (a drawn one is placed and cannot act this turn).
DECK = ["MD13"] * 8


def host(mode: str, units: dict[int, str], hp: int | None = None) -> sides.Side:
    """A host side of ``mode`` whose Medarots stand face up on ``units`` (square -> card id)."""
    side = sides.new_side(mode, DECK)
    for uid, (square, card) in enumerate(sorted(units.items()), 1):
        side.board[square] = Stack(uid, 0, card, face_up=True, acted=False, placed=False)
    if hp is not None:
        side.hp = hp
    return side


def table(side: sides.Side, kind: int, life: int, turn: int = 3) -> GameState:
    """A begun table of ``side`` against a proxy of ``kind`` with life ``life``."""
    st = sides.compose(side, None, random.Random(0), turn, Proxy(kind, life))
    MedarotCore.begin(st)
    return st


def to_declare(st: GameState) -> int:
    """Default choices up to the next DECLARE; returns the acting Medarot's square (-1 at the end).

    Every decision on the way is seat 0's: seat 1 never decides (D37).
    """
    while not st.done and st.decision != "DECLARE":
        assert st.current_player == 0
        st.apply(default_choice(st))
    if st.done:
        return -1
    assert st.current_player == 0 and st.act is not None
    return next(s for s, x in enumerate(st.board) if x is not None and x.uid == st.act.uid)


def to_end(st: GameState) -> None:
    """Default choices to the end of the table (every declaration passed)."""
    while not st.done:
        assert st.current_player == 0
        st.apply(default_choice(st))


def declare_targets(st: GameState) -> list[int]:
    """The squares the acting Medarot may attack now."""
    return sorted(a.arg for a in st.legal_actions() if a.kind == A.Kind.SQUARE)


def hits(st: GameState) -> list[dict[str, Any]]:
    """The table's ``proxy_hit`` records."""
    return [r for r in st.records if r["kind"] == "proxy_hit"]


# ----------------------------------------------------------------------------- D38, compose
@pytest.mark.parametrize(("mode", "life"), [("beginner", 10), ("normal", 20), ("advance", 20)])
def test_D38_nominal_life_per_mode(mode: str, life: int) -> None:
    """D38: L0 is 10 in beginner, 20 in normal and advance."""
    assert sides.nominal_life(sides.new_side(mode, DECK)) == life


def test_D37_compose_checks_the_proxy_and_stores_P_as_seat_1_HP() -> None:
    """D37: a proxy never comes with a champion and has a life of at least 1; P is seat 1's HP."""
    a, b = host("beginner", {2: "MD04"}), host("beginner", {2: "MD01"})
    with pytest.raises(ValueError, match="champion"):
        MedarotCore.compose(a, b, random.Random(0), 3, Proxy(GUEST, 5))
    for bad in (0, -2):
        with pytest.raises(ValueError, match="life"):
            MedarotCore.compose(a, None, random.Random(0), 3, Proxy(BASE, bad))
    with pytest.raises(ValueError, match="proxy kind"):
        MedarotCore.compose(a, None, random.Random(0), 3, Proxy(3, 5))
    plain = sides.compose(a, None, random.Random(0), 3)
    with pytest.raises(ValueError, match="no proxy"):
        MedarotCore.proxy_life(plain)
    st = sides.compose(a, None, random.Random(0), 3, Proxy(BASE, 12))
    assert st.config.vacant_seat and st.config.proxy == BASE and st.hp == [a.hp, 12]
    assert MedarotCore.proxy_life(st) == 12 and plain.config.proxy == NONE
    assert st.config is sides.table_config("beginner", 3, True, BASE)
    assert plain.config == sides.table_config("beginner", 3, True) != st.config
    assert st.hand[1] == [] and st.deck[1] == [] and all(x is None for x in st.board[10:])


def test_D37_config_proxy_field_is_validated() -> None:
    """The rules option ``proxy`` is 0, 1 or 2, and a proxy needs a vacant seat 1."""
    assert make_config("normal").proxy == NONE
    assert make_config("normal", vacant_seat=True, proxy=GUEST).proxy == GUEST
    with pytest.raises(StateError, match="vacant_seat"):
        make_config("normal", proxy=BASE)
    for bad in (3, -1, True, "guest"):
        with pytest.raises(StateError, match="proxy must be"):
            make_config("normal", vacant_seat=True, proxy=bad)


# ----------------------------------------------------------------------------- D37 targets
def test_D37_shooting_reaches_the_open_row_2_ahead_only_from_the_own_row() -> None:
    """D37 with R34/D11 (normal mode): shooting 2 ahead; from the neutral row 2 ahead is off the board."""
    st = table(host("normal", {1: "MD06", 8: "MD04"}), GUEST, 20)
    # Hailgunner (speed 4, square 1) and Scattergale (speed 5, neutral square 8)
    assert to_declare(st) == 8
    assert declare_targets(st) == []  # side attacks (D13) find no enemy in the neutral row either
    st.apply(A.PASS)
    assert to_declare(st) == 1
    assert declare_targets(st) == [11]
    st.apply(A.SQUARE[11])
    assert MedarotCore.proxy_life(st) == 16 and [(h["hit"], h["proxy_life"]) for h in hits(st)] == [(4, 16)]


def test_D37_melee_1_ahead_from_the_neutral_row_and_side_attacks_never_reach_it() -> None:
    """D37 with R35/R36/D13 (beginner): a neutral melee Medarot hits only the open square in front.

    Its side attacks (D13) aim at neutral squares 6 and 8 only and find no enemy there; the
    diagonal open squares 11 and 13 are never targets.
    """
    st = table(host("beginner", {7: "MD11"}, hp=5), GUEST, 10)
    assert to_declare(st) == 7
    assert declare_targets(st) == [12]
    hp = st.hp[0]
    st.apply(A.SQUARE[12])
    assert st.hp[0] == hp, "a 1-ahead attack costs nothing"
    assert MedarotCore.proxy_life(st) == 6


def test_D37_melee_2_ahead_over_an_empty_square_costs_1_HP() -> None:
    """D37 with D12 (advance): melee from the own row reaches the open row over an empty square, for 1 HP."""
    st = table(host("advance", {1: "MD11", 3: "MD18", 8: "MD13"}), GUEST, 20)
    # Rivetclaw (speed 10) on 8 acts first, then Tidewarden (6) on 3, then Ironmaw (4) on 1.
    assert to_declare(st) == 8
    assert declare_targets(st) == [13]
    st.apply(A.PASS)
    assert to_declare(st) == 3
    assert declare_targets(st) == [], "square 8 in front holds a Medarot: the 2-square path is blocked"
    st.apply(A.PASS)
    assert to_declare(st) == 1
    assert declare_targets(st) == [11]
    hp = st.hp[0]
    st.apply(A.SQUARE[11])
    assert st.hp[0] == hp - 1, "the far melee attack costs 1 HP when declared"
    assert MedarotCore.proxy_life(st) == 16
    spent = [r for r in st.records if r["kind"] == "spend"]
    assert spent[-1]["amount"] == 1 and spent[-1]["why"] == "a 2-square melee attack"


def test_D37_far_melee_needs_the_HP_to_pay() -> None:
    """D12: with 0 HP the 2-square attack on the open row is not legal."""
    st = table(host("beginner", {1: "MD11"}, hp=0), BASE, 4)
    assert to_declare(st) == 1
    assert declare_targets(st) == []


def test_D37_special_Medarots_never_attack_the_proxy() -> None:
    """D37: SPECIAL Medarots never attack; only PASS or the special remain."""
    st = table(host("beginner", {2: "MD31", 7: "MD19"}), GUEST, 5)
    for _ in range(2):
        s = to_declare(st)
        assert s in (2, 7)
        assert declare_targets(st) == []
        st.apply(A.PASS)


def test_D37_no_open_row_without_a_proxy() -> None:
    """A vacant seat without a proxy (D21) is unchanged: its row is no target."""
    side = host("beginner", {2: "MD04", 7: "MD11"})
    st = sides.compose(side, None, random.Random(0), 3)
    MedarotCore.begin(st)
    while to_declare(st) >= 0:
        assert declare_targets(st) == []
        st.apply(A.PASS)
    assert MedarotCore.loss_flags(st) == (False, False)


# ----------------------------------------------------------------------------- worked examples
def test_E15_guest_proxy_reaches_0_and_the_table_is_terminal_at_once() -> None:
    """E15 (advance host, P 3): effective power 30 hits for 3, P 3 -> 0; the rest of the turn is abandoned.

    D37: no move-after, no movement penalty, the slower Medarot never acts and the end phase
    (which would heal for the neutral-row Medarot) never comes; the host keeps that state.
    """
    st = table(host("advance", {2: "MD04", 8: "MD11"}), GUEST, 3)
    assert to_declare(st) == 2
    assert declare_targets(st) == [12]
    hp = st.hp[0]
    st.apply(A.SQUARE[12])
    assert MedarotCore.proxy_life(st) == 0
    assert st.done and not st.truncated and st.winner == 0
    assert st.current_player == -1 and st.legal_actions() == []
    assert MedarotCore.loss_flags(st) == (False, True)
    assert st.hp[0] == hp, "no movement penalty, no end-phase heal"
    assert [(h["player"], h["hit"], h["proxy_life"], h["why"]) for h in hits(st)] == [(0, 3, 0, "attack")]
    assert st.records[-1]["kind"] == "end"
    assert not any(r["kind"] in ("pay", "heal", "turn") for r in st.records[-3:])
    side, other = MedarotCore.split(st)
    assert other is None
    assert side.hp == hp
    assert side.board[2] is not None and side.board[2].base == "MD04" and side.board[2].acted
    assert side.board[8] is not None and side.board[8].base == "MD11" and not side.board[8].acted


def test_E15_P_never_drops_below_0() -> None:
    """D37: damage beyond what is left of P is lost (P 2, hit 4)."""
    st = table(host("beginner", {2: "MD06"}), GUEST, 2)
    to_declare(st)
    st.apply(A.SQUARE[12])
    assert MedarotCore.proxy_life(st) == 0 and hits(st)[-1]["hit"] == 4
    assert MedarotCore.loss_flags(st) == (False, True)


def test_E16_base_proxy_loses_exactly_1_per_successful_attack() -> None:
    """E16 (advance host, base P 18): hits 2 and 4 each cost the base exactly 1: 18 -> 17 -> 16."""
    st = table(host("advance", {1: "MD01", 3: "MD06"}), BASE, 18)
    assert to_declare(st) == 1  # Quillshot, power 20, speed 8
    st.apply(A.SQUARE[11])
    assert MedarotCore.proxy_life(st) == 17
    assert to_declare(st) == 3  # Hailgunner, power 40
    st.apply(A.SQUARE[13])
    assert MedarotCore.proxy_life(st) == 16
    assert [(h["hit"], h["proxy_life"]) for h in hits(st)] == [(2, 17), (4, 16)]
    to_end(st)
    assert st.truncated and MedarotCore.loss_flags(st) == (False, False) and MedarotCore.proxy_life(st) == 16


def test_E16_the_same_hits_on_a_guest_proxy_cost_their_power() -> None:
    """D37 against D40: on a guest proxy the same two hits cost 2 and 4 (18 -> 16 -> 12)."""
    st = table(host("advance", {1: "MD01", 3: "MD06"}), GUEST, 18)
    to_declare(st)
    st.apply(A.SQUARE[11])
    to_declare(st)
    st.apply(A.SQUARE[13])
    assert MedarotCore.proxy_life(st) == 12


def test_D40_an_attack_with_hit_0_is_not_successful() -> None:
    """D40: power below 10 (Copperjay 10 with -10 power) hits 0: the base keeps its life, as a guest would."""
    for kind in (BASE, GUEST):
        side = host("beginner", {2: "MD07"})
        side.effects.append(Eff("MOD_POWER", -10, "ANY", 0, -1, -1, [1], -1, ""))
        st = table(side, kind, 3)
        to_declare(st)
        st.apply(A.SQUARE[12])
        assert MedarotCore.proxy_life(st) == 3
        assert hits(st)[-1]["hit"] == 0 and not st.done


def test_D40_base_proxy_reaching_0_ends_the_table() -> None:
    """D40/R24: the last base life goes at once; the table is terminal with seat 1 the loser."""
    st = table(host("normal", {2: "MD04", 7: "MD11"}), BASE, 1)
    to_declare(st)
    st.apply(A.SQUARE[12])
    assert st.done and MedarotCore.proxy_life(st) == 0 and MedarotCore.loss_flags(st) == (False, True)
    assert MedarotCore.split(st)[1] is None


def test_E17_beginner_host_one_hit_of_power_40() -> None:
    """E17 (beginner host, P 7): one hit of effective power 40: P 7 -> 3; the turn goes on to its end."""
    st = table(host("beginner", {2: "MD06"}), GUEST, 7)
    assert to_declare(st) == 2
    st.apply(A.SQUARE[12])
    assert MedarotCore.proxy_life(st) == 3 and not st.done
    to_end(st)
    assert st.truncated and MedarotCore.loss_flags(st) == (False, False)
    side, other = MedarotCore.split(st)
    assert other is None and MedarotCore.proxy_life(st) == 3
    assert side.hp == st.hp[0]


# ----------------------------------------------------------------------------- effects
def test_D37_ON_HIT_on_the_attacked_Medarot_does_nothing_others_apply() -> None:
    """D37: ROOT / MOD_ARMOR on the attacked Medarot find none; Brassfang's +10 power on itself applies."""
    st = table(host("beginner", {0: "MD05", 1: "MD16", 2: "MD10"}), GUEST, 20)
    order = []
    while (s := to_declare(st)) >= 0:
        order.append(s)
        before = len(st.effects)
        t = declare_targets(st)[0]
        st.apply(A.SQUARE[t])
        added = st.effects[before:]
        if st.board[s] is not None and st.board[s].base == "MD10":
            assert [(e.op, e.amount) for e in added] == [("MOD_POWER", 10)]
        else:
            assert added == []
    # Razorwheel (8, melee far) then Brassfang (7, melee far) then Pinion Sniper (3, shooting)
    assert order == [1, 2, 0]
    assert MedarotCore.proxy_life(st) == 20 - 2 - 3 - 5


def test_D37_guest_proxy_pays_effect_damage_base_does_not() -> None:
    """D37/D40: Anvilback's ON_HIT DAMAGE 1 lowers a guest's P after its hit of 4; a base loses only the 1 of the hit."""
    st = table(host("beginner", {7: "MD17"}), GUEST, 10)
    to_declare(st)
    st.apply(A.SQUARE[12])
    assert MedarotCore.proxy_life(st) == 10 - 4 - 1
    assert [(h["hit"], h["why"]) for h in hits(st)] == [(4, "attack"), (1, "DAMAGE")]
    st = table(host("beginner", {7: "MD17"}), BASE, 10)
    to_declare(st)
    st.apply(A.SQUARE[12])
    assert MedarotCore.proxy_life(st) == 9 and len(hits(st)) == 1


def test_D37_special_damage_and_lasting_attack_end_the_table_in_the_end_phase() -> None:
    """D37: Jolt Pixie's DAMAGE takes 1, Sparkwidow's DOT takes 1 at end phase E1: P 2 -> 1 -> 0.

    The table ends in E1: the E3 heal for the Medarot in the neutral row is abandoned.
    """
    st = table(host("beginner", {2: "MD31", 4: "MD27", 6: "MD11"}), GUEST, 2)
    specials = 0
    while to_declare(st) >= 0:
        if A.SPECIAL in st.legal_actions():
            specials += 1
            st.apply(A.SPECIAL)
        else:
            st.apply(A.PASS)
    assert specials == 2
    assert MedarotCore.proxy_life(st) == 0 and st.done and MedarotCore.loss_flags(st) == (False, True)
    assert [(h["hit"], h["why"], h["proxy_life"]) for h in hits(st)] == [(1, "DAMAGE", 1), (1, "DOT", 0)]
    assert not any(r["kind"] == "heal" for r in st.records)


def test_D40_effects_never_change_a_base_proxy() -> None:
    """D40: the same DAMAGE and DOT leave a base proxy's life alone."""
    st = table(host("beginner", {2: "MD31", 4: "MD27"}), BASE, 2)
    while to_declare(st) >= 0:
        st.apply(A.SPECIAL if A.SPECIAL in st.legal_actions() else A.PASS)
    assert st.truncated and MedarotCore.proxy_life(st) == 2 and hits(st) == []


def test_D37_an_effect_that_heals_the_opponent_never_raises_P() -> None:
    """D37: P never rises, even under an effect giving the opponent HP (none in the pool; made up here)."""
    st = table(host("beginner", {2: "MD06"}), GUEST, 4)
    to_declare(st)
    resolve(st, Effect("ON_ACTIVATE", "GAIN_HP", 2, Target.OPPONENT), 0, -1, -1, SUPPORT)
    assert MedarotCore.proxy_life(st) == 4
    resolve(st, Effect("ON_ACTIVATE", "GAIN_HP", 2, Target.OWNER), 0, -1, -1, SUPPORT)
    assert st.hp[0] == 12


# ----------------------------------------------------------------------------- serialization, views
def test_D37_proxy_table_round_trips_mid_turn() -> None:
    """to_dict/from_dict and clone keep the proxy kind and P exactly, and play on the same."""
    st = table(host("advance", {1: "MD01", 3: "MD06"}), BASE, 5)
    to_declare(st)
    st.apply(A.SQUARE[11])
    to_declare(st)
    d = st.to_dict()
    assert d["config"]["proxy"] == BASE and d["hp"][1] == 4
    copies = [GameState.from_dict(json.loads(json.dumps(d))), st.clone()]
    for c in copies:
        assert c.to_dict() == d and c.config.proxy == BASE and MedarotCore.proxy_life(c) == 4
    for c in (st, *copies):
        c.apply(A.SQUARE[13])
        to_end(c)
    assert copies[0].to_dict() == copies[1].to_dict() == st.to_dict()
    assert MedarotCore.proxy_life(st) == 3


def test_D37_hidden_information_resampling_leaves_P_alone() -> None:
    """The resampled worlds of either seat keep the proxy and its life."""
    st = table(host("normal", {2: "MD04"}), GUEST, 9)
    to_declare(st)
    for seat in (0, 1):
        w = st.resample_hidden(seat, random.Random(seat))
        assert w.config.proxy == GUEST and MedarotCore.proxy_life(w) == 9 and w.hand[1] == [] == w.deck[1]


def test_D42_view_render_encoder_and_description_show_the_proxy() -> None:
    """D42: the host's view shows an opponent with HP P and an empty row, and names the stand-in."""
    st = table(host("beginner", {2: "MD06"}), GUEST, 7)
    to_declare(st)
    v = view(st, 0)
    p1 = v["players"][1]
    assert p1["hp"] == 7 and p1["proxy"] == "guest" and "stand-in" in p1["text"]
    assert p1["hand_count"] == 0 and p1["deck"] == 0
    assert all(v["board"]["squares"][s] is None for s in OPEN_ROW)
    assert "proxy" not in v["players"][0]
    text = render_text(st, 0)
    assert "P1: Seat 1 is the defender's stand-in with 7 life" in text
    enc = MedarotEncoder(st.pool)
    obs = enc.observe(st, 0)
    scalars = enc.layout["scalars"].start
    assert obs[scalars + SCALARS.index("opp hp/20")] == pytest.approx(7 / 20)
    mask = enc.action_mask(st, 0)
    index = [i for i in range(len(mask)) if mask[i]]
    words = [describe_action(st, 0, i)["text"] for i in index]
    assert any("attacks the defender's stand-in on square 12 (hit 4" in w for w in words), words
    st.apply(A.SQUARE[12])
    assert any("The defender's stand-in takes a hit of 4 (power 40 ÷ 10): life 7 → 3" == e for e in st.events)
    base = table(host("beginner", {2: "MD06"}), BASE, 4)
    assert view(base, 0)["players"][1]["proxy"] == "base"
    assert "the enemy base with 4 life" in render_text(base, 0)
    plain = sides.compose(host("beginner", {2: "MD06"}), None, random.Random(0), 3)
    assert "proxy" not in view(plain, 0)["players"][1]


# ----------------------------------------------------------------------------- random play
@pytest.mark.parametrize("mode", ["beginner", "normal", "advance"])
@pytest.mark.parametrize("kind", [GUEST, BASE])
def test_D37_D40_random_turns_keep_the_proxy_rules(mode: str, kind: int) -> None:
    """Random host turns: seat 1 never decides, P never rises, only ``proxy_hit`` moves it, and
    the table ends with seat 1 lost exactly when P is 0."""
    for seed in range(12):
        rng = random.Random(seed)
        units = {2: "MD04", 6: "MD11", 3: "MD17"} if seed % 2 else {1: "MD10", 8: "MD02", 4: "MD31"}
        life = 1 + seed % 6
        st = table(host(mode, units), kind, life)
        seen = 0
        while not st.done:
            assert st.current_player == 0
            before = MedarotCore.proxy_life(st)
            n = len(st.records)
            st.apply(rng.choice(st.legal_actions()))
            after = MedarotCore.proxy_life(st)
            assert 0 <= after <= before
            new_hits = [r for r in st.records[n:] if r["kind"] == "proxy_hit"]
            seen += len(new_hits)
            if kind == BASE:
                assert before - after == sum(1 for h in new_hits if h["why"] == "attack" and h["hit"] >= 1)
            else:
                assert before - after == min(before, sum(h["hit"] for h in new_hits))
        assert MedarotCore.loss_flags(st)[1] is (MedarotCore.proxy_life(st) == 0)
        assert (not st.truncated) is (MedarotCore.proxy_life(st) == 0 or st.winner == 1)
        side, other = MedarotCore.split(st)
        assert other is None and side.hp == st.hp[0]
        assert dataclasses.asdict(st.config)["proxy"] == kind
