"""The rules check of one Master of the World position, ``rules.check`` (spec section 10).

It passes at every step of random games (AMALOGS tables with a vacant seat or a proxy
included), names each broken rule by its spec item, and raises nothing but ``StateError`` for
any state of the right Python types with arbitrary contents (a hypothesis test turns fields of
real positions into nonsense).
"""

from __future__ import annotations

import dataclasses
import functools
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from deckgym.envs.amalogs.cores.mow import MowCore
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.proxy import BASE, GUEST, Proxy
from deckgym.envs.mow import rules, sides
from deckgym.envs.mow.actions import DP, Use
from deckgym.envs.mow.cards import COSTS
from deckgym.envs.mow.rules import flow, invariants, state_check
from deckgym.envs.mow.state import GameState, Monster
from tests.envs.mow.test_invariants import POOL, decks, start
from tests.envs.nonsense import mutant
from tests.envs.rules_check import played, refused_swaps, uniform


def play(st: GameState, seed: int, every: int = 1) -> list[GameState]:
    """Random legal moves to the end, checking every position; clones of every ``every``-th one."""
    return played(st, uniform(seed), every, rules.check)


def table_games(seed: int, every: int = 1) -> list[GameState]:
    """An AMALOGS side's solo first turn (vacant seat 1), then a table against a guest and a base proxy."""
    rng = random.Random(seed)
    side = sides.new_side(list(decks()[seed % len(decks())]))
    seen = play(sides.solo_table(side, rng, 1), seed, every)
    side = MowCore.split(seen[-1])[0]
    for turn, kind in ((2, GUEST), (3, BASE)):
        table = sides.compose(side, None, rng, turn, Proxy(kind, 5 + seed % 9))
        MowCore.begin(table)
        seen += play(table, seed + turn, every)
        side = MowCore.split(seen[-1])[0]
    return seen


def test_rules_check_is_the_invariants_check_and_the_state_check_is_a_task():
    assert rules.check is invariants.check
    assert flow.AGENDA.tasks["check"] is state_check.check  # the in-game state check of 5.7


def test_the_task_table_names_every_agenda_task_of_the_rules():
    assert set(invariants.TASKS) == set(flow.AGENDA.tasks)


def test_the_check_passes_at_every_step_of_random_games():
    """48 games: every deck pairing, both first players, short and long turn caps."""
    n = len(decks())
    for seed in range(48):
        pair = (seed % n, (seed // n) % n)
        st = start(seed, pair, first_player=seed % 2, max_turns=100 if seed % 3 else 1 + seed % 7)
        assert play(st, seed)[-1].done


def test_the_check_passes_on_amalogs_tables_with_a_vacant_seat_or_a_proxy():
    for seed in range(8):
        assert table_games(seed)[-1].done


# ----------------------------------------------------------------------------- broken positions
def _at(decision: str, master: str = "MS01") -> GameState:
    """The first position of a random game at ``decision`` of a player whose master is ``master``.

    The default MS01 is Ashen Regent (ashen_aggro), with an activated ability limited to once per turn.
    """
    for s in range(40):
        for st in play(start(s, (0, 0)), s):
            if st.decision == decision and st.masters[st.current_player] == master:
                return st
    raise AssertionError(f"no {decision} decision found")


def _break(st: GameState, how: str) -> None:
    p = st.current_player
    if how == "I1":
        st.hand[p].append(st.hand[p][0] if st.hand[p] else "MN01")
    elif how == "I2":
        st.life[p] = 21
    elif how == "I3":
        st.exp[p] = st.exp[p] + ["MN01"] * 4
    elif how == "I4":
        st.monsters[p] += [Monster(st.next_uid + k, "MN01", 1) for k in range(st.level[p] + 1)]
        st.next_uid += st.level[p] + 1
    elif how == "I5":
        st.monsters[p].append(Monster(st.next_uid, "MN01", 1, damage=-1))
        st.next_uid += 1
    elif how == "I6":
        st.spell[p] = ["SP01", st.turn + 1, st.next_uid]
        st.next_uid += 1
    elif how == "I7":
        st.deck[1 - p].clear()
    elif how == "I7 life":
        st.life[p] = 0
    elif how == "I9":
        st.decision_point = None
    elif how == "I11":
        st.turn_uses[p]["MS01/0"] = 5
    elif how == "I12":
        st.monsters[p].append(Monster(st.next_uid, "MN01", st.turn, attacked=True))
        st.next_uid += 1
    elif how == "I15":
        st.turn = st.config.max_turns + 1
    elif how == "I17":
        st.chain.append([st.active, int(Use.SUMMON), "MN01", 99, False, False, -1])
    elif how == "5.8":
        st.decision_point = (int(DP.EFFECT_TARGET), p, ())
    elif how == "5":
        st.agenda.append(["no_such_task"])


def _refusal(st: GameState, lenient: bool = False) -> str:
    """The message of the ``StateError`` that ``rules.check`` raises for ``st``."""
    with pytest.raises(StateError) as e:
        rules.check(st, lenient=lenient)
    return str(e.value)


#: How each rule is broken at a MAIN decision of a real game, and the item the message names first.
BROKEN = ["I1", "I2", "I3", "I4", "I5", "I6", "I7", "I7 life", "I9", "I11", "I12", "I15", "I17", "5.8", "5"]


@pytest.mark.parametrize("how", BROKEN)
def test_a_broken_rule_is_named_by_its_item(how):
    st = _at("MAIN")
    rules.check(st)
    _break(st, how)
    msg, item = _refusal(st), how.split()[0]
    assert msg.startswith(item + " ") or f"; {item} " in msg, msg


def test_a_restricted_weapon_on_the_field_is_refused_D17():
    st = _at("MAIN")
    p = st.current_player
    master = next(c for c in POOL.masters if "LEGENDARY" in c.restrictions)
    st.masters[p] = master.id
    st.decks[p][st.decks[p].index(next(c for c in st.decks[p] if POOL[c].kind == "MASTER"))] = master.id
    legendary = next(c for c in POOL.main if c.cls == "LEGENDARY")
    st.weapon[p] = [legendary.id, st.next_uid]
    st.next_uid += 1
    msg = _refusal(st, lenient=True)
    assert re.search(rf"D17 P{p}'s weapon {legendary.name} \({legendary.id}\) is of a class", msg), msg


def test_more_copies_of_a_card_than_max_copies_are_refused_D6_even_when_lenient():
    st = _at("MAIN")
    p = st.current_player
    held = Counter(st.deck[p] + st.hand[p] + st.exp[p] + st.discard[p] + [m.card for m in st.monsters[p]])
    cid, most = held.most_common(1)[0]
    st.config = dataclasses.replace(st.config, max_copies=most)
    rules.check(st)
    st.hand[p].append(cid)  # one copy more (lenient leaves out I1's card conservation)
    msg = _refusal(st, lenient=True)
    assert re.search(
        rf"^D6 P{p} holds {most + 1} copies of .* \({cid}\); at most max_copies = {most}$", msg
    ), msg


def test_the_empty_deck_and_the_sick_attacker_messages_name_their_rules():
    st = _at("MAIN")
    p = st.current_player
    st.deck[p].clear()
    st.monsters[p].append(Monster(st.next_uid, "MN02", st.turn, attacked=True))
    st.next_uid += 1
    st.exp[p] += ["MN01"] * 2
    st.level[p] = invariants.values.level_for(POOL[st.masters[p]], len(st.exp[p]))
    msg = _refusal(st, lenient=True)
    assert f"I7 P{p}'s deck is empty in a live game" in msg and "(R2, D40)" in msg
    assert f"I12 P{p}'s Pike Soldier (MN02) attacked on turn {st.turn}, the turn it entered" in msg
    assert "(R24, D33)" in msg


def test_a_finished_game_with_an_empty_deck_passes_and_a_wrong_winner_does_not():
    over = next(
        st for s in range(20) for st in [play(start(s), s)[-1]] if st.winner in (0, 1) and not st.truncated
    )
    rules.check(over)
    over.winner = 1 - over.winner
    with pytest.raises(StateError, match=r"^8 the game is over with winner"):
        rules.check(over)


def test_shape_problems_come_alone_and_name_the_part_of_the_spec():
    st = _at("MAIN")
    st.life = [20]
    with pytest.raises(StateError, match=r"^4\.3 life is not a list of one entry per seat: \[20\]$"):
        rules.check(st)
    st = _at("MAIN")
    st.hand[0] = ["NOPE"]
    with pytest.raises(StateError, match=r"^4\.4 P0 hand: 'NOPE' is not a card id of the pool$"):
        rules.check(st)
    st = _at("MAIN")
    st.agenda = [["cost", 0, "COST_EVERYTHING", 1]]
    with pytest.raises(StateError, match=r"^4\.6 agenda task 0 \(cost\): 'COST_EVERYTHING' is not a cost"):
        rules.check(st)


# ----------------------------------------------------------------------------- robustness
@functools.cache
def snapshots() -> tuple[GameState, ...]:
    """Positions of random games (every 5th step, and the ends) and of AMALOGS tables."""
    out: list[GameState] = []
    for seed in range(5):
        out += play(start(seed, first_player=seed % 2), seed, every=5)
    out += table_games(11, every=3)
    return tuple(out)


FRAME = [0, "MS01", -2, 0, -1, 0, 0, []]
TEMPLATES = {
    "turn": [],
    "active": [],
    "first": [],
    "phase": [],
    "masters": [],
    "life": [],
    "level": [],
    "deck": [],
    "hand": [],
    "exp": [],
    "discard": [],
    "monsters": [[[Monster(1, "MN01", 1, 1, [[1, 0, 0]], True)], []]],
    "weapon": [[["WP01", 3], None]],
    "spell": [[["SP01", 2, 4], None]],
    "setaside": [["MN01", None]],
    "master_mods": [[[[1, 0, 0]], []]],
    "master_attacked": [],
    "fast_used": [],
    "charges": [],
    "turn_uses": [[{"MS01/0": 1}, {"SP05/0": 2}]],
    "chain": [[[0, 0, "MN01", 3, False, False, -1], [1, 3, "SP05", 0, False, True, -1]]],
    "triggers": [[[0, 1, 0, 0, 0, "MS01", -2, -1, 0]]],
    "agenda": [
        [
            ["check"],
            ["effects", FRAME],
            ["unit_step", FRAME, 0, 1],
            ["place", 0, 0],
            ["trigger", 0, "MS01", -2, 1],
        ],
        [
            ["cost", 0, "COST_LIFE", 1],
            ["engage", 0, -1, 3],
            ["window", 1],
            ["counter_ability", 1, "MN05", 2, 0],
        ],
    ],
    "decision_point": [(2, 0, ()), (8, 1, ())],
    "pending": [["attack", -1], ["cost", 0, "COST_DISCARD", 1], ["target", FRAME], ["unit", FRAME, 0, 1]],
    "decisions": [],
    "next_uid": [],
    "done": [],
    "truncated": [],
    "winner": [],
    "reason": [],
    "decks": [],
    "config": [],
}
WORDS = sorted(
    {c.id for c in POOL.main}
    | {c.id for c in POOL.masters}
    | set(invariants.TASKS)
    | set(COSTS)
    | {
        "",
        "NOPE",
        "MS01/0",
        "MS01/1",
        "SP05/0",
        "MN01/0",
        "MN05/x",
        "attack",
        "cost",
        "target",
        "unit",
        "search",
    }
)


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st_.data())
def test_any_nonsense_of_the_right_types_raises_only_state_error(data):
    base = data.draw(st_.sampled_from(snapshots()))
    st = mutant(data, base, TEMPLATES, WORDS, [])
    try:
        rules.check(st)
    except StateError as e:
        assert str(e)[:1] in "IRD4568", str(e)  # the message starts with a spec item


def test_each_part_swapped_for_nonsense_raises_only_state_error():
    """One position per decision kind (and a finished one): each part, at any depth, swapped for
    a value of every JSON type, out of range or unknown."""
    picks: dict[str, GameState] = {}
    for s in snapshots():
        picks.setdefault(s.decision, s)
    assert len(picks) >= 8, sorted(picks)
    assert refused_swaps(list(picks.values()), TEMPLATES, [], rules.check) > 1000
