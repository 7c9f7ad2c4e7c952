"""The core rulesets' heuristics on an AMALOGS proxy table (amalogs D37, D40): they attack the proxy.

Seat 1 of a proxy table holds a life counter P that only the host (seat 0) attacks: a guest
proxy loses each hit, a base proxy exactly 1 per attack whose hit is at least 1, and P at 0 ends
the table. The heuristic plays the host's whole turn here (``envs.<ruleset>.sides``: compose the
host's side with a proxy, begin, play to the end of the table).

* Constructed positions: the heuristic makes as many successful attacks on a base proxy as any
  sequence of the host's legal actions could (a search over all of them on copies of the table),
  takes P to 0 when its hits can, and pays HP for a far melee attack in the OCG only when that
  ends the table or leaves HP to spare.
* Random tables (sides played a few turns, then a proxy table): whenever an attack on the proxy
  that a good player takes was legal (a hit of at least 1; in the OCG not a far melee attack at
  low HP) P dropped, and the heuristic takes more from P on average than the same heuristic
  that never attacks and than the lowest-index legal action.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

from deckgym.agents.heuristic import medarot_ocg as ocg_heuristic
from deckgym.agents.heuristic import medarot_parts as parts_heuristic
from deckgym.agents.heuristic import mow as mow_heuristic
from deckgym.envs.amalogs.core_adapter import SidesCore
from deckgym.envs.amalogs.cores.medarot_ocg import MedarotCore
from deckgym.envs.amalogs.cores.medarot_parts import PartsCore
from deckgym.envs.amalogs.cores.mow import MowCore
from deckgym.envs.core.proxy import BASE, GUEST, Proxy
from deckgym.envs.medarot_ocg import actions as ocg_actions
from deckgym.envs.medarot_ocg import sides as ocg_sides
from deckgym.envs.medarot_ocg.cards import resolve_deck as ocg_resolve_deck
from deckgym.envs.medarot_ocg.cards import starter_decks
from deckgym.envs.medarot_ocg.encode import MedarotEncoder
from deckgym.envs.medarot_ocg.rules.action import acting_square
from deckgym.envs.medarot_ocg.rules.board import eff_power, proxy_targets
from deckgym.envs.medarot_ocg.state import GameState as OcgState
from deckgym.envs.medarot_ocg.state import Stack
from deckgym.envs.medarot_parts import actions as parts_actions
from deckgym.envs.medarot_parts import sides as parts_sides
from deckgym.envs.medarot_parts.cards import ATTACK_ACTIONS
from deckgym.envs.medarot_parts.cards import deck_names as parts_deck_names
from deckgym.envs.medarot_parts.cards import resolve_deck as parts_resolve_deck
from deckgym.envs.medarot_parts.config import RulesConfig as PartsRules
from deckgym.envs.medarot_parts.encode import PartsEncoder
from deckgym.envs.medarot_parts.rules.values import power as part_power
from deckgym.envs.mow import actions as mow_actions
from deckgym.envs.mow import sides as mow_sides
from deckgym.envs.mow.cards import deck_names as mow_deck_names
from deckgym.envs.mow.cards import resolve_deck as mow_resolve_deck
from deckgym.envs.mow.encode import MowEncoder
from deckgym.envs.mow.rules.combat import combat_damage
from deckgym.envs.mow.rules.field import ref_at
from tests.envs.amalogs.test_proxy_mow import host as mow_host
from tests.envs.amalogs.test_proxy_mow import table as mow_proxy_table

KINDS = {"guest": GUEST, "base": BASE}


# ----------------------------------------------------------------------------- the rulesets
@dataclass(frozen=True)
class Ruleset:
    """A core ruleset's modules as a host."""

    sides: ModuleType  # new_side, solo_table, compose
    adapter: type[SidesCore]  # the AMALOGS adapter of the ruleset (begin, split)
    heuristic: ModuleType  # choose(state, seat)
    actions: ModuleType  # PASS
    encoder: Any


OCG = Ruleset(ocg_sides, MedarotCore, ocg_heuristic, ocg_actions, MedarotEncoder(ocg_sides.pool()))
MOW = Ruleset(mow_sides, MowCore, mow_heuristic, mow_actions, MowEncoder(mow_sides.pool()))
PARTS = Ruleset(parts_sides, PartsCore, parts_heuristic, parts_actions, PartsEncoder(parts_sides.pool()))


@dataclass(frozen=True)
class Core:
    """What the tests need of one core ruleset (an OCG mode, MoW or the parts game) as a host."""

    name: str
    ruleset: Ruleset
    new_side: Callable[[int], Any]  # a fresh side, its deck picked by a seed
    life: Callable[[Any], int]  # P
    is_attack: Callable[[Any, Any], bool]  # whether an action (at the current decision) attacks the proxy
    hit_open: Callable[[Any], bool]  # whether an attack a good player takes is legal now

    def choose(self, st: Any, seat: int) -> Any:
        return self.ruleset.heuristic.choose(st, seat)


def _ocg_is_attack(st: OcgState, a: Any) -> bool:
    return st.decision == "DECLARE" and a.kind == ocg_actions.Kind.SQUARE and a.arg in range(10, 15)


def _ocg_hit_open(st: OcgState) -> bool:
    """DECLARE with an open-row square legal for a hit of at least 1: free, or far with HP to spare."""
    if st.decision != "DECLARE":
        return False
    s = acting_square(st)
    x = st.board[s]
    assert x is not None
    if eff_power(st, x) < 10:
        return False
    legal = st.legal_actions()
    spare = st.hp[0] - 1 > st.config.start_hp // 4
    return any(ocg_actions.SQUARE[t] in legal and (not far or spare) for t, far in proxy_targets(st, s))


def _ocg(mode: str) -> Core:
    decks = starter_decks(mode)
    config = ocg_sides.mode_config(mode)

    def new_side(seed: int) -> Any:
        deck = ocg_resolve_deck(decks[seed % len(decks)], ocg_sides.pool(), config, "deck").expand()
        return ocg_sides.new_side(mode, deck)

    return Core(f"ocg-{mode}", OCG, new_side, lambda st: st.hp[1], _ocg_is_attack, _ocg_hit_open)


def _mow_is_attack(st: Any, a: Any) -> bool:
    return st.decision == "ATTACK_DECLARE" and a.kind == mow_actions.Kind.ATTACKER


def _mow_ref(st: Any, a: Any) -> int:
    return -1 if a.arg == 0 else st.monsters[0][a.arg - 1].uid


def _mow_hit_open(st: Any) -> bool:
    if st.decision != "ATTACK_DECLARE":
        return False
    target = ref_at(st, 0, 8)
    return any(
        combat_damage(st, 0, _mow_ref(st, a), 1, target) >= 1
        for a in st.legal_actions()
        if _mow_is_attack(st, a)
    )


def _mow() -> Core:
    names = mow_deck_names()

    def new_side(seed: int) -> Any:
        return mow_sides.new_side(
            mow_resolve_deck(names[seed % len(names)], mow_sides.pool(), 0, "deck").expand()
        )

    return Core("mow", MOW, new_side, lambda st: st.life[1], _mow_is_attack, _mow_hit_open)


def _parts_is_attack(st: Any, a: Any) -> bool:
    if st.decision != "ACTION" or a.kind != parts_actions.Kind.USE_PART:
        return False
    m = st.action_medarot[0]
    return st.cards[st.field[0][m].parts[a.arg].card].action in ATTACK_ACTIONS


def _parts_hit_open(st: Any) -> bool:
    return any(
        _parts_is_attack(st, a) and part_power(st, 0, st.action_medarot[0], a.arg) >= 1
        for a in st.legal_actions()
    )


def _parts() -> Core:
    names = parts_deck_names()

    def new_side(seed: int) -> Any:
        name = names[seed % len(names)]
        return parts_sides.new_side(
            parts_resolve_deck(name, parts_sides.pool(), PartsRules(), name).to_list()
        )

    return Core("parts", PARTS, new_side, lambda st: st.proxy_life, _parts_is_attack, _parts_hit_open)


CORES = {c.name: c for c in (_ocg("beginner"), _ocg("normal"), _ocg("advance"), _mow(), _parts())}


# ----------------------------------------------------------------------------- playing a table
def play(st: Any, policy: Callable[[Any], Any]) -> None:
    """Seat 0's choices by ``policy`` to the end of the table (seat 1, the proxy, never decides)."""
    for _ in range(10_000):
        if st.done:
            return
        assert st.current_player == 0, "only the host decides on a proxy table"
        st.apply(policy(st))
    raise AssertionError("the table did not end")


def heuristic(core: Core) -> Callable[[Any], Any]:
    return lambda st: core.choose(st, 0)


def never_attack(core: Core) -> Callable[[Any], Any]:
    """The heuristic, except that it passes where it would attack the proxy."""

    def policy(st: Any) -> Any:
        a = core.choose(st, 0)
        return core.ruleset.actions.PASS if core.is_attack(st, a) else a

    return policy


def lowest_index(core: Core) -> Callable[[Any], Any]:
    """The legal action with the lowest action index of the ruleset's encoder."""
    return lambda st: min(st.legal_actions(), key=lambda a: core.ruleset.encoder.action_to_index(a, st))


def best_damage(st: Any, life: Callable[[Any], int], budget: int = 200_000) -> int:
    """The most any sequence of the host's legal actions takes from P this table (all of them tried).

    A search on copies of the table, positions met twice counted once; the parts game's end-phase
    discards, which cannot change P, are not searched.
    """
    memo: dict[str, int] = {}
    left = [budget]

    def key(s: Any) -> str:
        d = s.to_dict()
        return json.dumps(
            {k: v for k, v in d.items() if k not in ("events", "records", "steps")}, sort_keys=True
        )

    def most(s: Any) -> int:
        if s.done or s.decision == "DISCARD" and hasattr(s, "proxy_life"):
            return 0
        k = key(s)
        if k not in memo:
            left[0] -= 1
            assert left[0] > 0, "the search is too large for a test"
            best = 0
            for a in s.legal_actions():
                c = s.clone()
                c.apply(a)
                best = max(best, life(s) - life(c) + most(c))
            memo[k] = best
        return memo[k]

    return most(st)


def damage(st: Any, core: Core, policy: Callable[[Any], Any]) -> int:
    """What ``policy`` takes from P on a copy of the table."""
    c = st.clone()
    before = core.life(c)
    play(c, policy)
    return before - core.life(c)


# ----------------------------------------------------------------------------- random tables
TABLES = 30
LIVES = (3, 8, 20)


def random_player(rng: random.Random) -> Callable[[Any], Any]:
    return lambda st: rng.choice(st.legal_actions())


def random_tables(core: Core, kind: int) -> Iterator[tuple[int, Any]]:
    """(seed, begun proxy table): a side played 1-4 turns alone (by the heuristic or at random), then a proxy table."""
    sides, adapter = core.ruleset.sides, core.ruleset.adapter
    for seed in range(TABLES):
        rng = random.Random(seed)
        pre = heuristic(core) if seed % 2 == 0 else random_player(rng)
        side = core.new_side(seed)
        turns = 1 + seed % 4
        st = sides.solo_table(side, rng, 1)
        play(st, pre)
        side, _ = adapter.split(st)
        for turn in range(2, turns + 1):
            st = sides.compose(side, None, rng, turn)
            adapter.begin(st)
            play(st, pre)
            side, _ = adapter.split(st)
        st = sides.compose(side, None, rng, turns + 1, Proxy(kind, LIVES[seed % len(LIVES)]))
        adapter.begin(st)
        yield seed, st


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("name", sorted(CORES))
def test_random_tables_the_heuristic_attacks_and_takes_more_than_the_baselines(name: str, kind: str) -> None:
    core = CORES[name]
    totals = {"heuristic": 0, "never attack": 0, "lowest index": 0}
    open_tables = 0
    for seed, st in random_tables(core, KINDS[kind]):
        table = st.clone()
        before = core.life(table)
        was_open = False
        while not table.done:
            was_open = was_open or core.hit_open(table)
            table.apply(core.choose(table, 0))
        taken = before - core.life(table)
        if was_open:
            open_tables += 1
            assert taken >= 1, (
                f"{name} {kind} table {seed}: an attack on the proxy was legal, P stayed {before}"
            )
        totals["heuristic"] += taken
        totals["never attack"] += damage(st, core, never_attack(core))
        totals["lowest index"] += damage(st, core, lowest_index(core))
    print(f"{name} {kind}: P taken per table", {k: round(v / TABLES, 2) for k, v in totals.items()})
    assert open_tables >= TABLES // 3, "too few tables where an attack was legal: the check says little"
    assert totals["heuristic"] > totals["never attack"]
    assert totals["heuristic"] > totals["lowest index"]


# ----------------------------------------------------------------------------- the OCG
OCG_DECK = ["MD13"] * 8  # Rivetclaws: one drawn is placed and cannot act this turn


def ocg_table(mode: str, units: dict[int, str], kind: int, life: int, hp: int | None = None) -> OcgState:
    """A begun OCG proxy table: the host's face-up Medarots on ``units`` (square -> card id)."""
    side = ocg_sides.new_side(mode, OCG_DECK)
    for uid, (square, card) in enumerate(sorted(units.items()), 1):
        side.board[square] = Stack(uid, 0, card, face_up=True, acted=False, placed=False)
    if hp is not None:
        side.hp = hp
    st = ocg_sides.compose(side, None, random.Random(0), 3, Proxy(kind, life))
    MedarotCore.begin(st)
    return st


BLOCKER = {8: "MD18", 9: "MD04", 2: "MD15"}
#: (mode, Medarots, fewest successful attacks the position allows): each needs a move or a choice.
OCG_POSITIONS = [
    # Tidewarden (neutral 8) hits 13 from where it is; moving after it may go to 7, which blocks
    # the far attack of Stonetusk (square 2, forward arrow only), or back to 3.
    ("advance", BLOCKER, 2),
    # The same with Bulwarkin (a special) on 3: the only move blocks, so Tidewarden stays (1 HP).
    ("normal", {**BLOCKER, 3: "MD20"}, 2),
    # Hailgunner (neutral 7) must step back to shoot; Ironmaw and Rivetclaw step forward.
    ("beginner", {7: "MD06", 1: "MD11", 3: "MD13"}, 3),
    # Quillshot (neutral 6, forward arrow only) cannot attack and blocks Ironmaw (square 1), which
    # moves sideways for a far attack; Tidewarden (3) steps forward to hit for free.
    ("normal", {6: "MD01", 1: "MD11", 3: "MD18"}, 2),
]


@pytest.mark.parametrize(("mode", "units", "least"), OCG_POSITIONS)
def test_ocg_base_proxy_gets_the_most_successful_attacks(
    mode: str, units: dict[int, str], least: int
) -> None:
    st = ocg_table(mode, units, BASE, 20)
    core = CORES[f"ocg-{mode}"]
    most = best_damage(st, core.life)
    assert most >= least
    assert damage(st, core, heuristic(core)) == most
    assert damage(st, core, never_attack(core)) == 0


@pytest.mark.parametrize(("mode", "units", "least"), OCG_POSITIONS)
def test_ocg_guest_proxy_loses_the_most_damage(mode: str, units: dict[int, str], least: int) -> None:
    st = ocg_table(mode, units, GUEST, 40)
    core = CORES[f"ocg-{mode}"]
    assert damage(st, core, heuristic(core)) == best_damage(st, core.life) > least


@pytest.mark.parametrize(
    ("mode", "units", "moves", "choice"),
    [
        ("advance", BLOCKER, [4, 6], ocg_actions.MOVE[4]),
        ("normal", {**BLOCKER, 3: "MD20"}, [6], ocg_actions.PASS),
    ],
)
def test_ocg_no_move_spoils_a_later_attack(
    mode: str, units: dict[int, str], moves: list[int], choice: Any
) -> None:
    """Tidewarden, after its attack, does not move to 7 (the neutral row, which heals): Stonetusk would lose its attack."""
    st = ocg_table(mode, units, BASE, 20)
    c = st.clone()
    while c.decision != "MOVE_AFTER":
        c.apply(ocg_heuristic.choose(c, 0))
    assert c.legal_actions() == [ocg_actions.PASS, *(ocg_actions.MOVE[d] for d in moves)]
    assert ocg_heuristic.choose(c, 0) == choice
    c.apply(ocg_actions.MOVE[6])
    play(c, heuristic(CORES[f"ocg-{mode}"]))
    assert c.hp[1] == 19, "Stonetusk, blocked, could not attack"
    c = st.clone()
    play(c, heuristic(CORES[f"ocg-{mode}"]))
    assert c.hp[1] == 18


#: Razorwheel (melee, power 20, no forward arrow) on 2 can reach the open row only over 7, for
#: 1 HP: the neutral squares it could step to (6, 8) hold specials that act after it.
FAR_ONLY = {2: "MD16", 6: "MD26", 8: "MD20"}


@pytest.mark.parametrize(
    ("kind", "life", "hp", "after"),
    [
        (GUEST, 2, 2, 0),  # the hit of 2 ends the table: worth the last HP but one
        (GUEST, 3, 2, 3),  # it would not: 2 HP is no HP to spare (normal mode starts at 20)
        (GUEST, 3, 20, 1),  # with HP to spare it is paid
        (BASE, 1, 2, 0),  # the base's last life
        (BASE, 5, 2, 5),
        (BASE, 5, 20, 4),
    ],
)
def test_ocg_far_attack_only_when_it_ends_the_table_or_HP_is_to_spare(
    kind: int, life: int, hp: int, after: int
) -> None:
    st = ocg_table("normal", FAR_ONLY, kind, life, hp=hp)
    play(st, heuristic(CORES["ocg-normal"]))
    assert st.hp[1] == after
    if after == 0:
        assert st.done and not st.truncated and st.winner == 0
        assert st.hp[0] == hp - 1, "the far attack cost 1 HP and ended the table at once"


@pytest.mark.parametrize("mode", ["beginner", "advance"])
@pytest.mark.parametrize("kind", [GUEST, BASE])
def test_ocg_small_P_ends_the_table(mode: str, kind: int) -> None:
    st = ocg_table(mode, {7: "MD06", 1: "MD11", 3: "MD13"}, kind, 2)
    play(st, heuristic(CORES[f"ocg-{mode}"]))
    assert st.hp[1] == 0 and st.done and not st.truncated and st.winner == 0


# ----------------------------------------------------------------------------- Master of the World
#: The tables are laid out by the MoW proxy tests' ``host`` and ``table`` (their deck, turn 6):
#: MS01 Ashen Regent (attack 1/2/3 at levels 1/2/3, from 2/4/8 experience; at level 3 its monsters
#: get +1 attack), then Wild Boar 3/1, Pike Soldier 2/2, Stone Sentinel 0/6, Moss Sprite 1/1.
def mow_table(field: tuple[str, ...], exp: int, hand: tuple[str, ...], kind: int, life: int) -> Any:
    """A begun MoW proxy table at turn 6: ``field`` monsters ready, ``exp`` Moss Sprites as experience."""
    return mow_proxy_table(mow_host(field, exp, hand), kind, life)


@pytest.mark.parametrize(("kind", "taken"), [(BASE, 2), (GUEST, 5)])
def test_mow_every_ready_attacker_that_hits_attacks(kind: int, taken: int) -> None:
    """Boar 3 and the level-2 master 2 hit; Stone Sentinel (attack 0) would take nothing."""
    st = mow_table(("MN17", "MN03"), 4, (), kind, 20)
    core = CORES["mow"]
    assert damage(st, core, heuristic(core)) == best_damage(st, core.life) == taken
    assert damage(st, core, never_attack(core)) == 0


def test_mow_guest_strongest_hit_first() -> None:
    """Level 3 (monsters +1): Moss Sprite 2, Wild Boar 4, Pike Soldier 3, the master 3."""
    st = mow_table(("MN01", "MN17", "MN02"), 8, (), GUEST, 20)
    while st.decision != "ATTACK_DECLARE":
        st.apply(mow_heuristic.choose(st, 0))
    order = []
    while st.decision in ("ATTACK_DECLARE", "ATTACK_TARGET"):
        a = mow_heuristic.choose(st, 0)
        if st.decision == "ATTACK_DECLARE":
            if a == mow_actions.PASS:
                break
            order.append(a.arg)
        st.apply(a)
    assert order == [2, 0, 3, 1], (
        "Boar, then the master before Pike (the lower index on a tie), then Moss Sprite"
    )
    assert st.life[1] == 20 - 4 - 3 - 3 - 2


@pytest.mark.parametrize(("life", "charged"), [(7, 2), (8, 0)])
def test_mow_charges_to_the_level_that_ends_the_table(life: int, charged: int) -> None:
    """Level 2 (6 experience), a ready Wild Boar and 2 cards in hand: the usual rule would not charge.

    Two charges make level 3: master attack 3 and Boar 3 + 1, 7 in all: P 7 goes to 0. Against
    P 8 no charge ends the table, and the hand is kept (5 taken).
    """
    st = mow_table(("MN17",), 6, ("MN01", "MN01"), GUEST, life)
    play(st, heuristic(CORES["mow"]))
    assert len(st.exp[0]) == 6 + charged
    if charged:
        assert st.life[1] == 0 and st.done and not st.truncated and st.winner == 0
    else:
        assert st.life[1] == life - 5


# ----------------------------------------------------------------------------- the parts game
PARTS_FILLER = ("C12", "C12", "EV", "EV", "EV", "EF", "EF")  # nothing to play in these turns
ENERGY = {"S": "EN_SHOOT", "M": "EN_MELEE", "D": "EN_DEFENSE", "U": "EN_SUPPORT"}


def parts_table(deck: str, stock: str, hand: tuple[str, ...], kind: int, life: int) -> Any:
    """A begun parts proxy table: ``stock`` (letters of ``ENERGY``) untapped, ``hand`` topped up to 7."""
    side = parts_sides.new_side(parts_resolve_deck(deck, parts_sides.pool(), PartsRules(), deck).to_list())
    full = list(hand) + list(PARTS_FILLER[: 7 - len(hand)])
    cards = [ENERGY[c] for c in stock]
    for cid in full + cards:
        if cid in side.deck:
            side.deck.remove(cid)
    side.hand = sorted(full)
    side.stock = [[cid, False] for cid in cards]
    st = parts_sides.compose(side, None, random.Random(3), 3, Proxy(kind, life))
    PartsCore.begin(st)
    return st


#: chorus_support: round 1 the Ember medarot (Crest Scope aimed 2 charge, Long Needle aimed 3,
#: Jam Beam shoot 1; the Ember Medal pays 4 EP for the first two), round 2 the Chorus medarot
#: (Rust Brand punch 2, its medal pays 2 EP; Rally Flag, support 1, untaps 2 energy). Which part
#: pays with what, and what untaps energy when, decide how many attacks the turn holds.
PARTS_POSITIONS = [
    ("MM", ()),
    ("SU", ()),  # Rally Flag paid with support energy, its medal kept for Rust Brand
    ("SD", ("C11",)),  # Energy Relay (untap 2) at the right moment
    ("SS", ("C04",)),  # Quick Recharge (untap 1) in a power window
    ("MD", ("C04", "C04")),
]


@pytest.mark.parametrize(("stock", "hand"), PARTS_POSITIONS)
def test_parts_base_proxy_gets_the_most_successful_attacks(stock: str, hand: tuple[str, ...]) -> None:
    st = parts_table("chorus_support", stock, hand, BASE, 20)
    core = CORES["parts"]
    most = best_damage(st, core.life)
    assert most >= 2
    assert damage(st, core, heuristic(core)) == most


@pytest.mark.parametrize(("stock", "hand"), PARTS_POSITIONS)
def test_parts_guest_proxy_loses_the_most_damage(stock: str, hand: tuple[str, ...]) -> None:
    st = parts_table("chorus_support", stock, hand, GUEST, 40)
    core = CORES["parts"]
    assert damage(st, core, heuristic(core)) == best_damage(st, core.life)


@pytest.mark.parametrize(("kind", "life"), [(GUEST, 7), (BASE, 2)])
def test_parts_small_P_ends_the_table(kind: int, life: int) -> None:
    """fang_brawler, 6 melee energy and Overdrive Chip (+2): Rust Bloom 3, then Shock Hammer 3 + 2."""
    st = parts_table("fang_brawler", "MMMMMM", ("C01",), kind, life)
    play(st, heuristic(CORES["parts"]))
    assert st.proxy_life == 0 and st.done and not st.truncated and st.winner == 0
