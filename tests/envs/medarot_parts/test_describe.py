"""Moves, prompts, card texts and log lines of the parts game in plain English (``envs.medarot_parts.describe``)."""

from __future__ import annotations

import random
import re

from deckgym import envs
from deckgym.envs.core.describe import place_key
from deckgym.envs.core.events import line_for
from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import ALL_ACTIONS, DP
from deckgym.envs.medarot_parts.cards import HEAD, LEGS, RIGHT_ARM, load_pool
from deckgym.envs.medarot_parts.describe import card_names, decision_text, describe_action, resolving_text
from deckgym.envs.medarot_parts.view import view
from tests.envs.medarot_parts import fixtures as fx

CODE = re.compile(r"[A-Z]{2,}_[A-Z]+")
RA = RIGHT_ARM


def index(action: A.Action) -> int:
    return ALL_ACTIONS.index(action)


def told(st, seat: int) -> dict[A.Action, dict]:
    """Every legal action of ``st`` as ``seat`` reads it."""
    return {a: describe_action(st, seat, index(a)) for a in st.legal_actions()}


def glass_ward_battle():
    """A1 attacks B1 (head Glass Ward: protect, charge 3, power 4, armor 4) for 5; B holds 3 defense energy."""
    a1 = ("MA3", "HEAD", "HIT5", "ARM_L", "LEGS5")
    b1 = ("MA0", "GLASS", "ARM_R", "ARM_L", "LEGS5")
    st = fx.make_state((a1, fx.PLAIN), (b1, fx.PLAIN), stocks=((), ("E_D",) * 3), hands=((), ("EVD",)))
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    assert st.decision == "RESPONSE" and st.current_player == 1
    return st


def random_states(games: int = 3):
    for g in range(games):
        env = envs.make("medarot_parts_v1")
        env.reset(seed=40 + g)
        st = env.unwrapped.game
        rng = random.Random(g)
        while not st.is_terminal():
            yield st
            st.apply(rng.choice(st.legal_actions()))
        yield st


def test_every_move_of_a_decision_reads_differently_and_in_words():
    pool_ids = set(card_names(next(random_states(1))))
    checked = 0
    for st in random_states():
        if st.is_terminal():
            assert decision_text(st, 0) == "The game is over"
            continue
        for seat in (0, 1):
            texts = [d["text"] for d in told(st, seat).values()]
            if seat == st.current_player:
                assert len(set(texts)) == len(texts), (st.decision, texts)
            for t in [*texts, decision_text(st, seat)]:
                assert not CODE.search(t) and not set(re.findall(r"[A-Za-z0-9_]+", t)) & pool_ids, t
                assert t[:1].isupper(), t
                checked += 1
    assert checked > 500


def test_an_attack_says_its_part_cost_power_and_defender():
    st = fx.make_state(
        (("MA0", "HEAD", "RIFLE", "ARM_L", "LEGS5"), fx.PLAIN),
        (("MA1", "HEAD", "ARM_R", "ARM_L", "LEGS5"), fx.PLAIN),
        stocks=(("E_S", "E_S"), ()),
    )
    d = describe_action(st, 0, index(A.USE_PART[RA]))
    assert d["text"] == (
        "Attack with Rifle (right arm): shoot, power 5; charge 2 (4 EP); the opponent's Medal One medarot defends"
    )
    assert [place_key(p) for p in d["places"]] == ["part/0/1", "medarot/1/0"]
    assert [p["role"] for p in d["places"]] == ["card", "target"]
    # The other seat reads the same move about the attacker, without orders.
    other = describe_action(st, 1, index(A.USE_PART[RA]))["text"]
    assert other.startswith("Attacks with Rifle (right arm)") and other.endswith(
        "your Medal One medarot defends"
    )
    assert describe_action(st, 0, index(A.PASS))["text"].startswith("Pass the turn to act")
    assert decision_text(st, 0).startswith("Your turn to act with your Medal Zero medarot")
    assert decision_text(st, 1) == "The opponent has the turn to act with its Medal Zero medarot"


def test_payment_names_the_energy_its_points_and_what_is_left():
    st = fx.make_state(
        (("MA0", "HEAD", "RIFLE", "ARM_L", "LEGS5"), fx.PLAIN), stocks=(("E_M", "E_S", "E_D"), ())
    )
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    assert st.decision == "PAYMENT"
    texts = {a: d["text"] for a, d in told(st, 0).items()}
    assert texts[A.ENERGY[0]] == "Tap a Shooting Energy for 2 EP: 2 of 4 EP paid"
    assert texts[A.ENERGY[1]] == "Tap a Melee Energy for 1 EP: 1 of 4 EP paid"
    assert place_key(describe_action(st, 0, index(A.ENERGY[1]))["places"][0]) == "energy/0/1"
    assert decision_text(st, 0) == "Pay 4 more EP (0 of 4 paid): tap energy cards or a medal"
    assert decision_text(st, 1) == "The opponent is paying (0 of 4 EP paid)"
    assert resolving_text(st, 1) == (
        "Battle: Rifle (right arm of the opponent's Medal Zero medarot) attacks; The opponent is paying: 0 of 4 EP"
    )


def test_the_response_tells_evade_protect_and_block_shock():
    st = glass_ward_battle()
    texts = {a: d["text"] for a, d in told(st, 1).items()}
    assert texts[A.PASS] == "Take the 5 damage without a response"
    assert texts[A.EVADE] == "Evade with Test Evade: discard it and tap the legs; the damage becomes 0"
    assert texts[A.PROTECT[HEAD]] == (
        "Protect with Glass Ward (head, charge 3, power 4): pay up to 3 charge, each point cuts 1 damage and the"
        " full charge cuts 4; block shock then puts 1 counter on it"
    )
    # The attacker reads them without the evade card's name.
    theirs = describe_action(st, 0, index(A.EVADE))["text"]
    assert "Test Evade" not in theirs and theirs.startswith("Evades with an evade card")
    assert decision_text(st, 1) == "Your Medal Zero medarot takes 5 damage: evade, protect, or take it"
    fx.do(st, A.PROTECT[HEAD], DP.RESPONSE, 1)
    amounts = {a: d["text"] for a, d in told(st, 1).items()}
    assert amounts[A.AMOUNT[0]] == (
        "Pay nothing for Glass Ward: the damage drops from 5 to 5, then block shock puts 1 counter on Glass Ward;"
        " 4 left to place"
    )
    assert amounts[A.AMOUNT[3]] == (
        "Pay 3 of the charge 3 (6 EP) for Glass Ward: the damage drops from 5 to 1, then block shock puts 1 counter"
        " on Glass Ward; 0 left to place"
    )


def test_allocation_says_what_the_damage_does_to_each_part():
    st = glass_ward_battle()
    fx.do(st, A.PASS, DP.RESPONSE, 1)
    texts = {a: d["text"] for a, d in told(st, 1).items()}
    assert texts[A.PART[HEAD]] == (
        "Put all 5 damage on Glass Ward (head of your Medal Zero medarot): destroys it and stops the medarot"
    )
    assert texts[A.PART[LEGS]].endswith(": destroys it") or "counters of armor" in texts[A.PART[LEGS]]
    assert place_key(describe_action(st, 1, index(A.PART[LEGS]))["places"][0]) == "part/1/3"


def test_the_other_hand_is_never_named_and_reads_alike_after_a_redraw():
    rng = random.Random(3)
    compared = 0
    for st in random_states(2):
        if st.is_terminal():
            continue
        for seat in (0, 1):
            mine = told(st, seat)
            hidden = {st.cards[c].name for c in st.hand[1 - seat]} - {st.cards[c].name for c in st.hand[seat]}
            for d in mine.values():
                assert not any(name in d["text"] for name in hidden if _hidden_everywhere(st, name)), d
            other = st.resample_hidden(seat, rng)
            for a in set(other.legal_actions()) & set(mine):
                assert describe_action(other, seat, index(a)) == mine[a]
                compared += 1
            assert decision_text(other, seat) == decision_text(st, seat)
    assert compared > 100


def _hidden_everywhere(st, name: str) -> bool:
    """Whether no open zone shows a card called ``name`` (then no sentence may name it)."""
    open_cards = [c for p in (0, 1) for c in st.trash[p] + st.play[p] + [row[0] for row in st.stock[p]]]
    open_cards += [x.card for p in (0, 1) for med in st.field[p] for x in med.parts]
    open_cards += [med.medal for p in (0, 1) for med in st.field[p]]
    return name not in {st.cards[c].name for c in open_cards}


def test_forced_moves_and_every_event_line_read_as_words():
    for st in random_states(2):
        if not st.is_terminal():
            continue
        names = card_names(st)
        auto = [t for r, t in zip(st.records, st.events, strict=True) if r["kind"] == "auto"]
        assert auto and all(t.endswith("(forced: the only option)") for t in auto)
        for r, t in zip(st.records, st.events, strict=True):
            line = line_for(r, t, 0, names)
            assert not CODE.search(line) and " medarot 0" not in line, line
            if r["kind"] == "attack":
                assert st.cards[r["card"]].name in t and "P" + str(r["player"]) in t


def test_card_texts_are_sentences_without_codes_or_ids():
    pool = load_pool()
    ids = set(pool.ids())
    for cid in pool.ids():
        text = pool[cid].describe()
        assert text.startswith(pool[cid].name + ": ")
        assert not CODE.search(text) and not set(re.findall(r"[A-Za-z0-9_]+", text)) & ids, text
    assert (
        pool["R01"]
        .describe()
        .endswith(
            "Melee effect part. With an effect card attached: gives -2 power to the right arm of an opposing medarot."
        )
    )
    assert pool["C05"].describe() == (
        "Barrier Pulse: medaroter card, played by the defender before it responds, cost 1."
        " It reduces the battle's damage by 2."
    )


def test_the_view_says_what_is_resolving_and_card_effects_in_words():
    st = glass_ward_battle()
    v = view(st, 0)
    assert v["board"]["resolving"].startswith(
        "Battle: Hitter Five (right arm of your Medal Three medarot 1) attacks"
    )
    assert view(fx.make_state(), 0)["board"]["resolving"] is None
    env = envs.make("medarot_parts_v1")
    env.reset(seed=1)
    g = env.unwrapped.game
    seat = g.current_player
    d = env.unwrapped.describe_action(seat, index(g.legal_actions()[0]))
    assert d["text"] and isinstance(d["places"], list)
    for c in view(g, seat)["players"][seat]["hand"]:
        for words in c.get("abilities", []) + c.get("effects", []):
            assert not CODE.search(words), words
