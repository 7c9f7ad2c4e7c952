"""The per-seat view of Master of the World (``envs.mow.view``): named, faithful and honest.

Positions come from the fixture builders (``tests.envs.mow.fixtures``) and from seeded games of
``envs.make("mow_v1")``; the generic checks every ruleset passes are in ``tests/envs/test_views.py``.
"""

from __future__ import annotations

import json
import random

from deckgym import envs
from deckgym.envs.mow import actions as A
from deckgym.envs.mow.actions import DP
from deckgym.envs.mow.rules.values import master_attack, master_guard, max_toughness, monster_attack
from deckgym.envs.mow.state import TURN, GameState
from deckgym.envs.mow.view import view
from tests.envs.mow.fixtures import POOL, do, make_state, use


def text(v: dict) -> str:
    return json.dumps(v, ensure_ascii=False)


def test_the_own_hand_is_named_and_the_opponents_only_counted():
    st = make_state(hands=(["FIREBALL", "GRUNT"], ["SHATTER", "DENIAL", "SIFT"]))
    v = view(st, 0)
    me, opp = v["players"]
    assert [c["name"] for c in me["hand"]] == ["Fireball", "Grunt"]
    grunt = me["hand"][1]
    assert (grunt["id"], grunt["kind"], grunt["attack"], grunt["toughness"]) == ("GRUNT", "monster", 2, 2)
    assert grunt["text"] == POOL["GRUNT"].describe()
    assert me["hand_count"] == 2
    assert "hand" not in opp and "deck_contents" not in opp and opp["hand_count"] == 3
    for hidden in ("SHATTER", "Shatter", "DENIAL", "Denial", "SIFT", "Sift"):
        assert hidden not in text(v)
    # the other seat sees it the other way round
    w = view(st, 1)
    assert [c["name"] for c in w["players"][1]["hand"]] == ["Shatter", "Denial", "Sift"]
    assert "hand" not in w["players"][0] and "Fireball" not in text(w)


def test_the_own_deck_is_counted_by_card_but_its_order_is_not_shown():
    st = make_state(decks=(["GRUNT", "PEBBLE", "GRUNT", "SWORD"], 5))
    own = view(st, 0)["players"][0]["deck_contents"]
    assert own == [
        {"id": "GRUNT", "name": "Grunt", "count": 2},
        {"id": "PEBBLE", "name": "Pebble", "count": 1},
        {"id": "SWORD", "name": "Sword", "count": 1},
    ]
    st.deck[0].reverse()
    assert view(st, 0)["players"][0]["deck_contents"] == own
    assert view(st, 1)["players"][0]["deck"] == 4 and "deck_contents" not in view(st, 1)["players"][0]


def test_an_opponents_face_down_spell_shows_no_name():
    st = make_state(turn=3, spells=(("QBOLT", 2), ("INSIGHT", 3)))
    v = view(st, 0)
    mine, theirs = v["board"]["sides"][0]["spell"], v["board"]["sides"][1]["spell"]
    assert mine["card"]["name"] == "Quick Bolt" and mine["ready"] is True and mine["cast_turn"] == 2
    assert theirs["card"] == {"hidden": True} and theirs["ready"] is False and theirs["cast_turn"] == 3
    assert "INSIGHT" not in text(v) and "Insight" not in text(v)
    w = view(st, 1)
    assert w["board"]["sides"][1]["spell"]["card"]["name"] == "Insight"
    assert w["board"]["sides"][0]["spell"]["card"] == {"hidden": True}
    assert "Quick Bolt" not in text(w)


def test_the_numbers_equal_the_states():
    st = make_state(
        turn=5,
        exp=(4, 2),
        life=(13, 7),
        decks=(11, 9),
        hands=(["PEBBLE"], ["PEBBLE", "PEBBLE"]),
        monsters=([("BRUTE", 3, 1), "GRUNT"], [("OGRE", 5, 0)]),
        weapons=("SWORD", None),
        discards=(["WALL"], ["SCOUT", "FIREBALL"]),
    )
    st.monsters[0][1].mods.append([2, 1, TURN])
    v = view(st, 0)
    assert v["turn"] == st.turn == 5 and v["board"]["active"] == st.active and v["board"]["phase"] == "main"
    for p in (0, 1):
        pl, side = v["players"][p], v["board"]["sides"][p]
        assert pl["life"] == st.life[p] and pl["level"] == st.level[p]
        assert pl["experience"] == pl["master"]["experience"] == len(st.exp[p])
        assert pl["deck"] == len(st.deck[p]) and pl["hand_count"] == len(st.hand[p])
        assert pl["discard_count"] == len(st.discard[p])
        assert pl["master"]["name"] == POOL[st.masters[p]].name
        assert pl["master"]["attack"] == master_attack(st, p)
        assert pl["master"]["guard"] == master_guard(st, p)
        assert [c["id"] for c in side["discard"]] == st.discard[p]
        assert len(side["experience"]) == len(st.exp[p])
        assert [m["card"]["id"] for m in side["monsters"]] == [m.card for m in st.monsters[p]]
        for row, m in zip(side["monsters"], st.monsters[p], strict=True):
            mt = max_toughness(st, p, m)
            assert row["uid"] == m.uid and row["damage"] == m.damage and row["entered"] == m.entered
            assert (row["attack"], row["toughness"], row["max_toughness"]) == (
                monster_attack(st, p, m),
                mt - m.damage,
                mt,
            )
    assert v["players"][0]["level"] == 2 and v["players"][1]["level"] == 1
    brute, grunt = v["board"]["sides"][0]["monsters"]
    assert (brute["toughness"], brute["damage"], brute["sick"]) == (brute["max_toughness"] - 1, 1, False)
    assert (grunt["attack"], grunt["max_toughness"]) == (4, 3)  # Grunt 2/2 with +2/+1 this turn
    assert v["board"]["sides"][1]["monsters"][0]["sick"] is True  # Ogre entered this turn
    assert v["board"]["sides"][0]["weapon"]["card"]["name"] == "Sword"
    assert v["board"]["sides"][1]["weapon"] is None


def test_the_decision_follows_the_state_and_an_opponents_cast_stays_hidden_on_the_chain():
    st = make_state(turn=4, exp=(2, 2), hands=(["FIREBALL"], ["DENIAL"]))
    v = view(st, 1)
    assert v["decision"] == st.decision == "MAIN" and v["to_move"] == 0 == st.current_player
    do(st, use("FIREBALL"), DP.MAIN, 0)
    assert st.decision == "COUNTER_WINDOW"
    for seat in (0, 1):
        v = view(st, seat)
        assert v["decision"] == "COUNTER_WINDOW" and v["to_move"] == 1
        (entry,) = v["board"]["chain"]
        assert entry["user"] == 0 and entry["use"] == "cast" and entry["negated"] is False
    assert view(st, 0)["board"]["chain"][0]["card"]["name"] == "Fireball"
    theirs = view(st, 1)
    assert theirs["board"]["chain"][0]["card"] == {"hidden": True}
    assert theirs["board"]["sides"][0]["spell"]["card"] == {"hidden": True}
    assert "Fireball" not in text(theirs) and "FIREBALL" not in text(theirs)
    rng = random.Random(1)
    for _ in range(5):
        assert view(st.resample_hidden(1, rng), 1) == theirs


def test_an_effect_decision_names_the_effect_being_resolved():
    st = make_state(turn=4, exp=(2, 2), spells=(("FIREBALL", 2), None), monsters=([], ["GRUNT"]))
    do(st, A.SLOT_SPELL, DP.MAIN, 0)
    assert view(st, 0)["board"]["chain"][0]["use"] == "activate"
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.decision == "EFFECT_TARGET"
    for seat in (0, 1):
        v = view(st, seat)
        assert v["decision"] == "EFFECT_TARGET" and v["to_move"] == 0
        pend = v["board"]["pending"]
        assert pend["kind"] == "effect" and pend["controller"] == 0
        assert pend["source"]["name"] == "Fireball" and pend["op"] == "DAMAGE" and pend["left"] == 3
    assert view(make_state(), 0)["board"]["pending"] is None


def test_a_finished_game_has_done_and_result():
    st = make_state(exp=(2, 0), life=(20, 1), start="attack_phase")
    assert view(st, 0)["done"] is False and view(st, 0)["result"] is None
    do(st, A.ATTACKER[0], DP.ATTACK_DECLARE, 0)
    do(st, A.TARGET[8], DP.ATTACK_TARGET, 0)
    assert st.is_terminal()
    for seat in (0, 1):
        v = view(st, seat)
        assert v["done"] is True and v["to_move"] == -1 and v["decision"] is None
        assert v["result"]["returns"] == st.returns() == [1.0, -1.0]
        assert v["result"]["reason"] == st.reason and v["result"]["truncated"] is False
        assert v["players"][1]["life"] <= 0
        assert json.loads(json.dumps(v)) == v


def _public_text(st: GameState, seat: int) -> str:
    """Every card text and event the seat may see (the hidden-card check skips names found here)."""
    o = 1 - seat
    ids = [*st.hand[seat], *st.deck[seat], *st.masters]
    for p in (0, 1):
        ids += [*st.discard[p], *st.exp[p], *(m.card for m in st.monsters[p])]
        ids += [x for x in (st.setaside[p],) if x]
        if st.weapon[p]:
            ids.append(st.weapon[p][0])  # type: ignore[index]
    if st.spell[seat]:
        ids.append(st.spell[seat][0])  # type: ignore[index]
    ids += [e[2] for e in st.chain if not (e[0] == o and e[1] == 2)]
    return "\n".join([*(st.cards[c].describe() for c in ids), *st.events])


def test_no_hidden_card_of_the_opponent_appears_in_a_seeded_games_views():
    checked = 0
    for seed, decks in ((7, ["ashen_aggro", "tide_control"]), (8, ["iron_bulwark", "star_ascent"])):
        env = envs.make("mow_v1", decks=decks)
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.agents:
            st = env.unwrapped.game
            for seat in (0, 1):
                o = 1 - seat
                public = _public_text(st, seat)
                secret = list(st.hand[o]) + ([st.spell[o][0]] if st.spell[o] else [])  # type: ignore[index]
                v = text(env.unwrapped.view(seat))
                assert v == text(view(st, seat))
                for cid in secret:
                    name = st.cards[cid].name
                    if cid in public or name in public:
                        continue  # the same card is public elsewhere: its name may show
                    checked += 1
                    assert cid not in v and name not in v, (seed, seat, cid, st.turn, st.decision)
            if st.is_terminal():
                break
            obs = env.observe(env.agent_selection)
            env.step(rng.choice([i for i, m in enumerate(obs["action_mask"]) if m]))
    assert checked > 50
