"""Invariants of spec section 10 checked at every step of random Medarot OCG games.

``rules.check`` (``envs/medarot_ocg/rules/invariants.py``) checks every invariant one position
shows (I1-I10 and the position rules); the ``Checker`` below runs it at every step and adds the
transition invariants, which need the positions before: a failed payment is recorded (I2), the
master slot never empties (I4), beginner pays no Medaroter cost (I6), each Medarot acts at most
once per turn (I7), an effect ends at its source's next action or with its card (I10), turns
never go back and decks shrink (I12). I8's masks and I11's observations are the environment's
(``test_env.py``).

* ``test_I*`` tests run a small sample of games per mode (fast); the same sample covers every
  deck pair of every mode (``test_rules_check_holds_at_every_step_of_every_deck_pair``).
* ``test_invariants_every_step_300_random_games`` is the big sweep (``slow``): 300 games per
  mode with mixed starter decks, every invariant at every step, and every game ends.
* ``test_invariants_hypothesis`` draws seeds, decks and action choices for shorter games.

A failure message gives a reproduction: mode, seed, deck pair, policy and step. Replay it
with ``play_game(mode, seed)`` from this module.
"""

from __future__ import annotations

import functools
import os
import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckgym.envs.core.errors import StateError
from deckgym.envs.medarot_ocg import rules
from deckgym.envs.medarot_ocg.actions import Action, Kind
from deckgym.envs.medarot_ocg.cards import MEDAROT, MEDAROTER, load_pool, resolve_deck, starter_decks
from deckgym.envs.medarot_ocg.config import MODES, make_config
from deckgym.envs.medarot_ocg.rules import new_game
from deckgym.envs.medarot_ocg.state import Eff, GameState, Slot
from tests.envs.check_report import item_lines

HAND_LIMIT = 7
#: DPs at which a hand may exceed 7 (I5), besides any sub-step of a draw-event chain.
OVER_LIMIT_DPS = frozenset(d.name for d in rules.invariants.OVER_LIMIT_DPS)
#: Voluntary HP payments that exist in beginner mode (I6: no Medaroter cost is ever paid there).
BEGINNER_SPENDS = frozenset({"the optional draw", "a 2-square melee attack"})
_SPEND_RE = re.compile(r"^P(\d) spends (\d+) HP on (.*) \(HP -?\d+\)$")
_CANNOT_PAY_RE = re.compile(r"^P(\d) cannot pay (\d+) HP for (.*) \(HP (-?\d+)\) and loses$")
#: The item a line of ``rules.check``'s message applies: its first word (``I1``, ``D26``, ``5``).
_ITEM_RE = re.compile(r"^(\S+) ")
INVARIANTS = ("I1", "I2", "I3", "I4", "I5", "I6", "I7", "I8", "I9", "I10", "I12", "END")

POOL = load_pool()


# ----------------------------------------------------------------------------- games
@functools.cache
def deck_pairs(mode: str) -> tuple[tuple[str, str], ...]:
    """Every ordered pair of the mode's starter decks (mirror matches included)."""
    names = starter_decks(mode)
    return tuple((a, b) for a in names for b in names)


@functools.cache
def expanded(mode: str, name: str) -> tuple[str, ...]:
    return tuple(resolve_deck(name, POOL, make_config(mode)).expand())


def start(mode: str, seed: int, pair: tuple[str, str] | None = None, **overrides: Any) -> GameState:
    """A new game of ``mode``; the deck pair defaults to one chosen by ``seed``."""
    pairs = deck_pairs(mode)
    a, b = pair or pairs[seed % len(pairs)]
    cfg = make_config(mode, **overrides)
    return new_game(cfg, POOL, [list(expanded(mode, a)), list(expanded(mode, b))], seed)


def policy(seed: int) -> Callable[[list[Action]], Action]:
    """Uniform random choice for even seeds; for odd seeds PASS is avoided 80% of the time.

    The second policy uses more cards, MedaChanges and effects than the uniform one.
    """
    rng = random.Random(seed * 7919 + 17)
    eager = seed % 2 == 1

    def choose(legal: list[Action]) -> Action:
        if eager and len(legal) > 1 and rng.random() < 0.8:
            busy = [a for a in legal if a.kind != Kind.PASS]
            if busy:
                return rng.choice(busy)
        return rng.choice(legal)

    return choose


# ----------------------------------------------------------------------------- the checker
def check_problems(gs: GameState) -> list[tuple[str, str]]:
    """``rules.check`` as (item, message) pairs: one per line of its ``StateError``."""
    try:
        rules.check(gs)
    except StateError as exc:
        out = []
        for line in str(exc).splitlines():
            m = _ITEM_RE.match(line)
            out.append((m[1] if m and not line.startswith("...") else "CHECK", line))
        return out
    return []


def _stack_square(gs: GameState, uid: int) -> int:
    for s, x in enumerate(gs.board):
        if x is not None and x.uid == uid:
            return s
    return -1


class Checker:
    """Checks one game step after step: ``rules.check`` on each position, and the transitions."""

    def __init__(self, gs: GameState) -> None:
        self.mode = gs.config.mode
        self.prev_turn = gs.turn
        self.prev_deck = [len(gs.deck[0]), len(gs.deck[1])]
        self.prev_master: list[str | None] = [None, None]
        self.prev_acted: dict[int, tuple[int, bool]] = {}
        self.actions_seen: set[tuple[int, int]] = set()
        self.last_act: Any = None
        self.eff_born: dict[int, tuple[Any, int, Any]] = {}  # id(eff) -> (eff, turn, source holder)
        self.ev_len = 0
        self.ev_last: Any = None

    # -- helpers
    def _new_events(self, gs: GameState) -> list[str]:
        ev = gs.events
        if 0 < self.ev_len <= len(ev) and ev[self.ev_len - 1] is self.ev_last:
            new = ev[self.ev_len :]
        else:
            new = list(ev)  # the log was cut: look at all of it again
        self.ev_len = len(ev)
        self.ev_last = ev[-1] if ev else None
        return new

    def check(self, gs: GameState) -> list[tuple[str, str]]:
        """All violations in ``gs`` as (invariant or item, message)."""
        out = check_problems(gs)
        events = self._new_events(gs)
        for fn in (self.i2, self.i4, self.i6, self.i7, self.i10, self.i12):
            for msg in fn(gs, events):
                out.append((fn.__name__.upper(), msg))
        return out

    # -- I2 a failed payment ends the game and is recorded, HP unchanged
    def i2(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        for e in events:
            m = _CANNOT_PAY_RE.match(e)
            if m:
                p, amount, hp = int(m[1]), int(m[2]), int(m[4])
                if not gs.done or gs.winner != 1 - p:
                    out.append(f"failed payment of P{p} did not end the game with P{1 - p} winning: {e!r}")
                if amount <= hp:
                    out.append(f"payment failed although it was affordable: {e!r}")
                if gs.hp[p] != hp:
                    out.append(f"HP of P{p} changed by the failed payment ({hp} -> {gs.hp[p]})")
                if f"P{p} could not pay {amount}" not in gs.reason:
                    out.append(f"the failed payment is not recorded in the reason {gs.reason!r}")
        return out

    # -- I4 the master slot never empties once filled
    def i4(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        for p in (0, 1):
            m = gs.master[p]
            prev = self.prev_master[p]
            if prev is not None and (m is None or m.card != prev):
                out.append(f"P{p} master slot changed from {prev} to {None if m is None else m.card}")
            self.prev_master[p] = None if m is None else m.card
        return out

    # -- I6 beginner pays no Medaroter cost
    def i6(self, gs: GameState, events: list[str]) -> list[str]:
        if gs.config.mode != "beginner":
            return []
        out = []
        for e in events:
            m = _SPEND_RE.match(e)
            if m and m[3] not in BEGINNER_SPENDS:
                out.append(f"beginner payment that is not allowed: {e!r}")
        return out

    # -- I7 each Medarot acts at most once per turn
    def i7(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        turn = gs.turn
        for s, x in enumerate(gs.board):
            if x is None:
                continue
            prev = self.prev_acted.get(x.uid)
            if prev is not None and prev[0] == turn and prev[1] and not x.acted:
                out.append(f"square {s}: uid {x.uid} 'acted' was cleared in the middle of turn {turn}")
            self.prev_acted[x.uid] = (turn, x.acted)
        act = gs.act
        if act is not None and act is not self.last_act:
            key = (turn, act.uid)
            if key in self.actions_seen:
                out.append(f"uid {act.uid} acts a second time in turn {turn}")
            self.actions_seen.add(key)
        self.last_act = act
        return out

    # -- I10 an effect ends at its source's next action, or with its card
    def i10(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        uids = {x.uid: x for x in gs.board if x is not None}
        live = set()
        for e in gs.effects:
            live.add(id(e))
            born = self.eff_born.get(id(e))
            if e.src_uid >= 0:
                src = uids.get(e.src_uid)
                if src is None:
                    continue  # rules.check names it
                if born is None:
                    turn = gs.turn
                    if not src.acted:
                        # made in the last action of the previous turn (the start phase cleared 'acted')
                        if gs.turn != self.prev_turn + 1:
                            out.append(
                                f"effect {e.op} of uid {e.src_uid} appeared while its source had not acted"
                            )
                        turn -= 1
                    self.eff_born[id(e)] = (e, turn, None)
                elif gs.turn > born[1] and src.acted:
                    out.append(
                        f"effect {e.op} of uid {e.src_uid} (turn {born[1]}) survived its source's "
                        f"next action in turn {gs.turn}"
                    )
            elif 0 <= e.src_slot < 8:
                p, j = divmod(e.src_slot, 4)
                holder = gs.master[p] if j == 3 else gs.stock[p][j]
                if holder is None:
                    continue  # rules.check names it
                if born is None:
                    self.eff_born[id(e)] = (e, gs.turn, holder)
                elif born[2] is not holder:
                    out.append(f"effect {e.op} from P{p} slot {j} survived its card (the slot holds another)")
        for k in list(self.eff_born):
            if k not in live:
                del self.eff_born[k]
        return out

    # -- I12 turns and decks
    def i12(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        if gs.turn < self.prev_turn:
            out.append(f"turn went back from {self.prev_turn} to {gs.turn}")
        if gs.turn > self.prev_turn + 1:
            out.append(f"turn jumped from {self.prev_turn} to {gs.turn} in one step")
        size = gs.config.deck_size
        for p in (0, 1):
            n = len(gs.deck[p])
            if n > self.prev_deck[p]:
                out.append(f"P{p} deck grew from {self.prev_deck[p]} to {n}")
            if gs.turn >= 1 and n > size - HAND_LIMIT - (gs.turn - 1):
                out.append(f"P{p} deck has {n} cards in turn {gs.turn}: fewer than one draw per turn")
            self.prev_deck[p] = n
        if gs.turn > size + 1:
            out.append(f"turn {gs.turn} > deck size + 1")
        self.prev_turn = gs.turn
        return out


def check_end(gs: GameState) -> list[str]:
    """Every game ends: decided (winner 0, 1 or 2 for a draw) or truncated, with matching returns."""
    out = []
    if not gs.done:
        return [f"game not over after {gs.steps} steps ({gs!r})"]
    if gs.truncated:
        if gs.winner != -1 or gs.returns() != [0.0, 0.0]:
            out.append(f"truncated game has winner {gs.winner}, returns {gs.returns()}")
    elif gs.winner not in (0, 1, 2):
        out.append(f"game over with winner {gs.winner} ({gs.reason!r})")
    else:
        want = {0: [1.0, -1.0], 1: [-1.0, 1.0], 2: [0.0, 0.0]}[gs.winner]
        if gs.returns() != want:
            out.append(f"winner {gs.winner} but returns {gs.returns()}")
    if gs.legal_actions() or gs.current_player != -1:
        out.append("a finished game still offers actions")
    return out


# ----------------------------------------------------------------------------- driving games
def play_checked(
    gs: GameState, choose: Callable[[list[Action]], Action], max_steps: int | None = None
) -> tuple[list[tuple[int, str, str, str]], GameState]:
    """Play ``gs`` with ``choose``, checking at every step; returns (step, dp, invariant, message) list."""
    checker = Checker(gs)
    found: list[tuple[int, str, str, str]] = []
    seen: set[tuple[str, str]] = set()

    def note(step: int, dp: str, items: list[tuple[str, str]]) -> None:
        for inv, msg in items:
            if (inv, msg) not in seen:
                seen.add((inv, msg))
                found.append((step, dp, inv, msg))

    note(0, gs.decision, checker.check(gs))
    cap = (gs.config.max_steps + 10) if max_steps is None else max_steps
    step = 0
    while not gs.done and step < cap:
        legal = gs.legal_actions()
        if not legal or gs.current_player not in (0, 1):
            note(step, gs.decision, [("END", f"live state with no options ({gs!r})")])
            break
        a = choose(legal)
        dp = gs.decision
        gs.apply(a)
        step += 1
        note(step, f"{dp} -> {a}", checker.check(gs))
        if len(found) > 20:
            break
    if max_steps is None:
        note(step, gs.decision, [("END", m) for m in check_end(gs)])
    return found, gs


def play_game(mode: str, seed: int) -> tuple[list[tuple[int, str, str, str]], GameState]:
    """Replay one game of the sweep (seed picks the deck pair and the policy)."""
    return play_checked(start(mode, seed), policy(seed))


@functools.cache
def sweep(mode: str, n_games: int) -> dict[str, list[str]]:
    """Play ``n_games`` games of ``mode``; violations by invariant or item, each with its reproduction."""
    result: dict[str, list[str]] = {k: [] for k in INVARIANTS}
    pairs = deck_pairs(mode)
    for seed in range(n_games):
        found, _ = play_game(mode, seed)
        for step, dp, inv, msg in found:
            if len(result.setdefault(inv, [])) < 5:
                result[inv].append(
                    f"{msg}  [repro: mode={mode} seed={seed} decks={pairs[seed % len(pairs)]} "
                    f"policy=policy({seed}) step={step} at {dp}]"
                )
    return result


def _assert_clean(mode: str, n: int, inv: str) -> None:
    bad = sweep(mode, n).get(inv, [])
    assert not bad, f"{inv} violated:\n" + "\n".join(bad)


FAST = 24


# ----------------------------------------------------------------------------- named tests (fast sample)
@pytest.mark.parametrize("mode", MODES)
def test_I1_card_conservation_every_step(mode: str) -> None:
    _assert_clean(mode, FAST, "I1")


@pytest.mark.parametrize("mode", MODES)
def test_I2_hp_nonnegative_and_failed_payment_recorded(mode: str) -> None:
    _assert_clean(mode, FAST, "I2")


@pytest.mark.parametrize("mode", MODES)
def test_I3_board_occupancy_rows_cap_and_stacks(mode: str) -> None:
    _assert_clean(mode, FAST, "I3")


@pytest.mark.parametrize("mode", MODES)
def test_I4_stock_and_master_slots(mode: str) -> None:
    _assert_clean(mode, FAST, "I4")


@pytest.mark.parametrize("mode", MODES)
def test_I5_hand_limit_outside_draw_chains(mode: str) -> None:
    _assert_clean(mode, FAST, "I5")


@pytest.mark.parametrize("mode", MODES)
def test_I6_mode_restrictions_reserve_medachange_master_costs(mode: str) -> None:
    _assert_clean(mode, FAST, "I6")


@pytest.mark.parametrize("mode", MODES)
def test_I7_each_medarot_acts_at_most_once_per_turn(mode: str) -> None:
    _assert_clean(mode, FAST, "I7")


@pytest.mark.parametrize("mode", MODES)
def test_I8_a_live_game_waits_at_one_decision_with_options(mode: str) -> None:
    _assert_clean(mode, FAST, "I8")


@pytest.mark.parametrize("mode", MODES)
def test_I9_voluntary_payment_options_affordable(mode: str) -> None:
    _assert_clean(mode, FAST, "I9")


@pytest.mark.parametrize("mode", MODES)
def test_I10_no_effect_outlives_its_source(mode: str) -> None:
    _assert_clean(mode, FAST, "I10")


@pytest.mark.parametrize("mode", MODES)
def test_I12_turns_non_decreasing_and_decks_shrink(mode: str) -> None:
    _assert_clean(mode, FAST, "I12")


@pytest.mark.parametrize("mode", MODES)
def test_L5_every_game_ends(mode: str) -> None:
    _assert_clean(mode, FAST, "END")


@pytest.mark.parametrize("mode", MODES)
def test_rules_check_holds_at_every_step_of_every_deck_pair(mode: str) -> None:
    """``rules.check`` accepts every position of the sample, whose games cover every deck pair."""
    pairs = deck_pairs(mode)
    assert {pairs[seed % len(pairs)] for seed in range(FAST)} == set(pairs)
    result = sweep(mode, FAST)
    bad = [m for inv, msgs in result.items() for m in msgs]
    assert not bad, "rules.check or a transition invariant failed:\n" + "\n".join(bad)


def test_sample_covers_the_interesting_decision_points() -> None:
    """The random policies reach the decision points whose invariants are checked."""
    dps: Counter[str] = Counter()
    for mode in MODES:
        for seed in range(FAST):
            gs = start(mode, seed)
            choose = policy(seed)
            while not gs.done:
                dps[f"{mode}:{gs.decision}"] += 1
                gs.apply(choose(gs.legal_actions()))
    for key in (
        "advance:PAY_SPLIT",
        "advance:WEAK_DISCARD",
        "normal:SUB_CARD",
        "beginner:HAND_LIMIT",
        "advance:EFFECT_CHOICE",
        "normal:EFFECT_TARGET",
        "advance:DESTROY_DRAW",
        "beginner:DEFENCE",
    ):
        assert dps[key] > 0, f"{key} never reached in the sample"


@functools.cache
def _live_position() -> GameState:
    """An advance game in turn 2, outside a draw-event chain (never changed: the broken states are clones)."""
    gs = start("advance", 3)
    choose = policy(3)
    while (gs.turn < 2 or gs.decision in OVER_LIMIT_DPS) and not gs.done:
        gs.apply(choose(gs.legal_actions()))
    assert not gs.done
    return gs


def _steal(g: GameState) -> None:
    g.deck[0].pop()


def _neg_hp(g: GameState) -> None:
    g.hp[1] = -1


def _enemy_row(g: GameState) -> None:
    s = next(s for s, x in enumerate(g.board) if x is not None and x.owner == 0)
    g.board[10 + s % 5], g.board[s] = g.board[s], None


def _medarot_in_stock(g: GameState) -> None:
    i = next(i for i, c in enumerate(g.deck[0]) if g.cards[c].kind == MEDAROT)
    old, g.stock[0][0] = g.stock[0][0], Slot(g.deck[0].pop(i))
    if old is not None:
        g.deck[0].append(old.card)


def _big_hand(g: GameState) -> None:
    while len(g.hand[0]) <= HAND_LIMIT:
        g.hand[0].append(g.deck[0].pop())


def _medaroter_in_reserve(g: GameState) -> None:
    i = next(i for i, c in enumerate(g.deck[1]) if g.cards[c].kind == MEDAROTER)
    g.reserve[1].append(g.deck[1].pop(i))


def _placed_and_acted(g: GameState) -> None:
    x = next(x for x in g.board if x is not None)
    x.placed = x.acted = True


def _unknown_decision(g: GameState) -> None:
    g.decision_point = (99, 0, ())


def _orphan_effect(g: GameState) -> None:
    g.effects.append(Eff("MOD_POWER", 10, "ANY", 0, 999, -1, [999], -1, ""))


def _master_face_down(g: GameState) -> None:
    m = g.master[0] or g.master[1]
    assert m is not None
    m.face_up = False


def _unknown_task(g: GameState) -> None:
    g.agenda.append(["teleport", 0])


def _unknown_card(g: GameState) -> None:
    g.hand[1].append("NOPE")


#: Broken states: the corruption, the item ``rules.check`` names, and words of its line.
BROKEN: list[tuple[Callable[[GameState], None], str, str]] = [
    (_steal, "I1", "I1 card conservation: player 0 holds 29 cards in all, not 30 (its deck list)"),
    (_neg_hp, "I2", "player 1 has -1 HP; HP is never below 0"),
    (_enemy_row, "I3", "stands in its opponent's row (D8)"),
    (_medarot_in_stock, "I4", "holds a MEDAROT card, not a Medaroter"),
    (_big_hand, "I5", "outside a draw-event chain (R26, D35)"),
    (_medaroter_in_reserve, "I6", "only destroyed Medarots go there (R54)"),
    (_placed_and_acted, "I7", "was placed this turn and has acted"),
    (_unknown_decision, "I8", "decision kind 99 is not a decision point of section 5"),
    (_orphan_effect, "I10", "outlives its source Medarot (uid 999 is not on the board, D37)"),
    (_master_face_down, "D36", "face down after the opening"),
    (_unknown_task, "5", "agenda task"),
    (_unknown_card, "4.3", "holds 'NOPE', which is not a card of the pool"),
]


@pytest.mark.parametrize(("mutate", "item", "words"), BROKEN, ids=[b[1] for b in BROKEN])
def test_checker_detects_broken_states(mutate: Callable[[GameState], None], item: str, words: str) -> None:
    """Each check can fail: corrupt a live state and see ``rules.check`` name the matching item."""
    gs = _live_position()
    rules.check(gs)
    assert Checker(gs).check(gs) == []
    g = gs.clone()
    g.decks = [list(d) for d in g.decks]  # the clone shares the deck lists
    mutate(g)
    lines = item_lines(rules.check, g, item, words)
    assert all(line.startswith(item + " ") for line in lines)


def test_I9_an_unaffordable_or_wrong_payment_option_is_caught() -> None:
    """I9 reads the options: a PAY_SPLIT asking a cost the card in use does not have is caught."""
    for seed in range(40):
        gs = start("advance", seed)
        choose = policy(seed)
        while not gs.done and gs.decision != "PAY_SPLIT":
            gs.apply(choose(gs.legal_actions()))
        if not gs.done:
            break
    assert gs.decision == "PAY_SPLIT"
    rules.check(gs)
    kind, p, (q, cost) = gs.decision_point  # type: ignore[misc]
    gs.decision_point = (kind, p, (q, cost + 1))
    with pytest.raises(StateError, match=rf"^I9 affordable options: PAY_SPLIT asks for cost {cost + 1}; "):
        rules.check(gs)


# ----------------------------------------------------------------------------- the big sweep
@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_invariants_every_step_of_random_games(mode: str) -> None:
    """300 games per mode by default; DECKGYM_SWEEP_GAMES=1000 runs the longer sweep."""
    result = sweep(mode, int(os.environ.get("DECKGYM_SWEEP_GAMES", "300")))
    bad = [msg for inv, msgs in result.items() for msg in (f"{inv}: {m}" for m in msgs)]
    assert not bad, "invariants violated:\n" + "\n".join(bad)


# ----------------------------------------------------------------------------- hypothesis
@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
    pair=st.integers(min_value=0, max_value=8),
    max_turns=st.integers(min_value=1, max_value=6),
    choices=st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=400),
)
def test_invariants_hypothesis(mode: str, seed: int, pair: int, max_turns: int, choices: list[int]) -> None:
    pairs = deck_pairs(mode)
    gs = start(mode, seed, pairs[pair % len(pairs)], max_turns=max_turns)
    it = iter(choices)

    def choose(legal: list[Action]) -> Action:
        return legal[next(it, 0) % len(legal)]

    found, gs = play_checked(gs, choose, max_steps=None)
    assert not found, "\n".join(f"{inv} at step {step} ({dp}): {msg}" for step, dp, inv, msg in found)
    if gs.truncated:
        assert gs.turn == max_turns
