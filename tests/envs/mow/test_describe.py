"""Moves, decisions, card text and event lines of Master of the World in plain English.

``envs.mow.describe`` tells each action as a sentence with its board places; the card text
(``CardDef.describe``) and the event lines are English with no op codes, no card ids and no
Japanese. A move of the other seat never names a card the reader cannot see.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from deckgym import envs
from deckgym.envs.core.describe import ROLES, place_key
from deckgym.envs.mow import actions as A
from deckgym.envs.mow.actions import DP, OFFSET, Kind
from deckgym.envs.mow.card_defs import Effect
from deckgym.envs.mow.cards import load_pool
from deckgym.envs.mow.describe import ZONES, card_names, decision_text, describe_action
from deckgym.envs.mow.encode import MowEncoder
from deckgym.envs.mow.state import GameState
from deckgym.envs.mow.view import view
from tests.envs.mow import fixtures as fx

CODE = re.compile(r"[A-Z]{2,}_[A-Z]+")
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
CORE = load_pool()
IDS = re.compile(r"\b(" + "|".join(re.escape(c) for c in CORE.cards) + r")\b")
CK = {c.id: c.index for c in CORE.main}


def plain(text: str) -> None:
    """``text`` reads as English for people: no op codes, no Japanese, no card ids."""
    assert not CODE.search(text), text
    assert not CJK.search(text), text
    assert not IDS.search(text), text


def core_state(**kw) -> GameState:
    """A position over the packaged pool (fillers are Moss Sprites)."""
    return fx.make_state(pool=CORE, masters=kw.pop("masters", ("MS01", "MS02")), filler="MN01", **kw)


def idx(action: A.Action) -> int:
    return OFFSET[action.kind] + action.arg


def say(st: GameState, action: A.Action, seat: int | None = None) -> str:
    return describe_action(st, st.current_player if seat is None else seat, idx(action))["text"]


def play(seeds: range, decks=None):
    """Random games: yield every state before a move (the live game's state)."""
    for seed in seeds:
        env = envs.make("mow_v1", decks=decks)
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.agents:
            st = env.unwrapped.game
            if st.is_terminal():
                break
            yield env, st
            env.step(rng.choice(env.unwrapped.encoder.legal_indices(st)))


# ----------------------------------------------------------------------------- sentences
def test_charge_summon_cast_and_pass_read_as_sentences():
    st = core_state(hands=(["MN01", "MN02", "SP01", "WP01"], []), start="charge_phase")
    assert say(st, A.HAND[CK["MN01"]]) == "Charge Moss Sprite as experience"
    assert say(st, A.PASS) == "Stop charging and go on to the main phase"
    fx.do(st, A.PASS, DP.CHARGE, 0)
    assert say(st, A.USE[CK["MN02"]]) == "Summon Pike Soldier"
    assert say(st, A.USE[CK["SP01"]]) == "Cast Fire Bolt face down into your spell slot"
    assert say(st, A.USE[CK["WP01"]]) == "Equip Rusted Blade"
    assert say(st, A.PASS) == "End the main phase and go on to attacks"


def test_the_opponent_is_told_no_card_from_a_hidden_hand():
    st = core_state(hands=(["MN02", "SP01"], []), exp=(2, 0))
    assert st.decision == "MAIN" and st.current_player == 0
    assert say(st, A.USE[CK["MN02"]], seat=1) == "The opponent summons a monster from hand"
    assert say(st, A.USE[CK["SP01"]], seat=1) == "The opponent casts a spell face down"
    fx.do(st, A.USE[CK["SP01"]], DP.MAIN, 0)
    # the caster's own view of its face-down cast names the card; the opponent's does not
    assert decision_text(st, 1) == "Counter the opponent's face-down spell cast, or let it resolve"
    assert "Fire Bolt" in decision_text(st, 0)


def test_summon_goes_to_the_next_free_slot_and_names_every_copy_in_hand():
    st = core_state(hands=(["MN02", "MN01", "MN02"], []), exp=(4, 0), monsters=(["MN03"], []))
    d = describe_action(st, 0, idx(A.USE[CK["MN02"]]))
    keys = {place_key(p): p["role"] for p in d["places"]}
    assert keys == {"hand/0/0": "card", "hand/0/2": "card", "monster/0/1": "to"}


def test_attacks_name_the_attacker_and_the_target_with_their_slots():
    st = core_state(monsters=(["MN02"], ["MN01", "MN01"]), exp=(4, 4), start="attack_phase")
    assert st.decision == "ATTACK_DECLARE"
    assert say(st, A.ATTACKER[1]) == "Attack with your Pike Soldier (slot 1)"
    assert say(st, A.ATTACKER[0]) == "Attack with your master Ashen Regent"
    assert say(st, A.ATTACKER[1], seat=1) == "The opponent attacks with its Pike Soldier (slot 1)"
    fx.do(st, A.ATTACKER[1], DP.ATTACK_DECLARE, 0)
    texts = [say(st, a) for a in st.legal_actions()]
    assert texts == [
        "Your Pike Soldier (slot 1) attacks the opponent's Moss Sprite (slot 1)",
        "Your Pike Soldier (slot 1) attacks the opponent's Moss Sprite (slot 2)",
    ]
    d = describe_action(st, 0, idx(st.legal_actions()[1]))
    assert [(p["role"], place_key(p)) for p in d["places"]] == [
        ("from", "monster/0/0"),
        ("target", "monster/1/1"),
    ]
    assert decision_text(st, 0) == "Choose what your Pike Soldier (slot 1) attacks"
    assert decision_text(st, 1) == "The opponent is choosing what its Pike Soldier (slot 1) attacks"


def test_abilities_and_effect_targets_say_what_they_do():
    st = core_state(exp=(2, 2), monsters=([], ["MN02"]))
    assert say(st, A.ABILITY[0]) == (
        "Use your master Ashen Regent's activated ability: deal 2 damage to a chosen opposing monster"
    )
    fx.do(st, A.ABILITY[0], DP.MAIN, 0)
    assert st.decision == "EFFECT_TARGET"
    assert say(st, A.TARGET[9]) == "Ashen Regent: deal 2 damage to the opponent's Pike Soldier (slot 1)"
    assert say(st, A.TARGET[9], seat=1) == (
        "Ashen Regent: the opponent chooses to deal 2 damage to your Pike Soldier (slot 1)"
    )
    assert decision_text(st, 1) == "The opponent is choosing the target of Ashen Regent"


def test_counter_window_options_name_what_they_answer():
    st = core_state(hands=(["MN02"], ["SP06"]), exp=(2, 0), spells=(None, ("SP05", 1)))
    fx.do(st, A.USE[CK["MN02"]], DP.MAIN, 0)
    assert st.decision == "COUNTER_WINDOW" and st.current_player == 1
    texts = {say(st, a) for a in st.legal_actions()}
    assert texts == {
        "Do not counter the opponent's summon of Pike Soldier",
        "Counter the opponent's summon of Pike Soldier with Null Ward from your hand (fast)",
        "Counter the opponent's summon of Pike Soldier with your face-down Crushing Denial",
    }
    for a in st.legal_actions():
        told = say(st, a, seat=0)
        assert "Null Ward" not in told and "Crushing Denial" not in told, told


def test_search_and_recover_choices():
    st = core_state(spells=(("SP13", 1), None), decks=(["MN02", "MN03", "MN02"], 20))
    fx.do(st, A.SLOT_SPELL, DP.MAIN, 0)
    fx.do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.decision == "SEARCH_CHOICE"
    texts = [say(st, a) for a in st.legal_actions()]
    assert "Take Pike Soldier from your deck into your hand" in texts
    assert all(say(st, a, seat=1) == "The opponent takes a card from its deck" for a in st.legal_actions())
    assert decision_text(st, 0) == "Seek the Path: choose a card to take from your deck"


def test_describing_changes_nothing_and_the_env_method_agrees():
    env = envs.make("mow_v1")
    env.reset(seed=3)
    st = env.unwrapped.game
    before = json.dumps(st.to_dict(), sort_keys=True)
    for i in env.unwrapped.encoder.legal_indices(st):
        for seat in (0, 1):
            assert env.unwrapped.describe_action(seat, i) == describe_action(st, seat, i)
            assert env.unwrapped.describe_action(f"player_{seat}", i) == describe_action(st, seat, i)
    assert json.dumps(st.to_dict(), sort_keys=True) == before


def test_card_names_cover_the_pool():
    st = core_state()
    names = card_names(st)
    assert names["MN01"] == "Moss Sprite" and names["MS01"] == "Ashen Regent"
    assert set(names) == set(CORE.cards)


# ----------------------------------------------------------------------------- random games
@pytest.mark.parametrize("decks", [None, ["tide_control", "iron_bulwark"]])
def test_every_option_of_random_games_is_a_distinct_plain_sentence_with_board_places(decks):
    decisions = set()
    for env, st in play(range(6), decks):
        legal = env.unwrapped.encoder.legal_indices(st)
        p = st.current_player
        for seat in (0, 1):
            plain(decision_text(st, seat))
            told = [describe_action(st, seat, i) for i in legal]
            for d in told:
                plain(d["text"])
                assert d["text"][:1].isupper()
                for pl in d["places"]:
                    assert pl["zone"] in ZONES and pl["role"] in ROLES, pl
            if seat == p:
                texts = [d["text"] for d in told]
                assert len(set(texts)) == len(texts), (st.decision, texts)
        decisions.add(st.decision)
    assert {"CHARGE", "MAIN", "ATTACK_DECLARE", "ATTACK_TARGET", "COUNTER_WINDOW"} <= decisions


def _secret_names(st: GameState, reader: int, v: dict) -> set[str]:
    """Names of the other seat's hidden cards (hand, deck, face-down spell) that the reader's view lacks."""
    o = 1 - reader
    ids = [*st.hand[o], *st.deck[o]] + ([st.spell[o][0]] if st.spell[o] else [])  # type: ignore[index]
    shown = json.dumps(v)
    return {st.name(c) for c in ids} - {n for n in {st.name(c) for c in ids} if n in shown}


def test_the_other_seats_moves_never_name_its_hidden_cards():
    checked = 0
    for env, st in play(range(8)):
        p = st.current_player
        reader = 1 - p
        secret = _secret_names(st, reader, view(st, reader))
        texts = [decision_text(st, reader)]
        texts += [describe_action(st, reader, i)["text"] for i in env.unwrapped.encoder.legal_indices(st)]
        for t in texts:
            for name in secret:
                checked += 1
                assert name not in t, (name, t, st.decision)
    assert checked > 1000


def test_event_lines_and_card_text_in_views_are_plain_english():
    lines = 0
    for env, st in play(range(5)):
        for seat in (0, 1):
            v = env.unwrapped.view(seat)
            for side in v["board"]["sides"]:
                for m in side.get("monsters", []):
                    plain(m["card"]["text"])
            for card in v["players"][seat].get("hand", []):
                plain(card["text"])
            pending = v["board"]["pending"]
            if pending and pending["kind"] == "effect":
                plain(pending["effect"])
        for line in st.events[-3:]:
            plain(line)
            lines += 1
    assert lines > 100


# ----------------------------------------------------------------------------- card text
def test_every_card_of_the_pool_reads_as_english():
    for c in CORE.cards.values():
        text = c.describe()
        plain(text)
        assert text.startswith(f"{c.name}: ")
    assert CORE["SP05"].describe() == (
        "Crushing Denial: counter spell. Answers a summon. Effect: Destroy the card it answers."
    )
    assert CORE["MN13"].describe() == (
        "Storm Drake: monster, attack 5, toughness 6. Needs level 3 or more. "
        "On entry: Deal 1 damage to all opposing monsters."
    )
    assert CORE["MS02"].abilities[0].describe() == (
        "Counter (answers a summon; once per turn; from level 2; cost: pay 1 experience card): "
        "Deal 2 damage to the card it answers."
    )


@pytest.mark.parametrize(
    ("effect", "words", "code"),
    [
        (Effect("DESTROY", target="TRIGGER_CARD"), "destroy the card it answers", "DESTROY(TRIGGER_CARD)"),
        (
            Effect("DAMAGE", amount=-1, target="OPP_MASTER"),
            "deal damage equal to your level to the opposing master",
            "DAMAGE(OPP_MASTER, OWN_LEVEL)",
        ),
        (
            Effect("DISCARD", amount=2, player="OPP", mode="CHOSEN"),
            "the opponent discards 2 cards of their choice",
            "DISCARD(OPP, 2, CHOSEN)",
        ),
        (
            Effect("MILL", amount=1, player="SELF"),
            "put the top card of your deck into your discard pile",
            "MILL(SELF, 1)",
        ),
        (
            Effect("BOUNCE", target="ALL", side="ANY", kinds=("MONSTER",)),
            "return all monsters to their owners' hands",
            "BOUNCE(ALL(ANY, MONSTER))",
        ),
        (
            Effect("BUFF", target="OWN_MASTER", d_atk=0, d_def=2, duration="PERMANENT"),
            "give your master +2 guard for good",
            "BUFF(OWN_MASTER, +0/+2, PERMANENT)",
        ),
        (
            Effect("SEARCH", filter="ANY", same_name=True),
            "search your deck for a copy of this card and put it into your hand",
            "SEARCH(ANY, same name)",
        ),
        (
            Effect("EXP_LOSE", amount=2, player="SELF"),
            "move your top 2 experience cards to your discard pile",
            "EXP_LOSE(SELF, 2)",
        ),
    ],
)
def test_effect_templates(effect, words, code):
    assert effect.describe() == words
    assert effect.code() == code


def test_the_label_of_an_action_is_still_the_compact_code_for_tools():
    st = core_state(hands=(["MN01"], []), start="charge_phase")
    enc = MowEncoder(CORE)
    assert enc.action_label(idx(A.HAND[CK["MN01"]]), st) == "HAND Moss Sprite"
    assert A.Action(Kind.PASS, 0) == A.PASS
