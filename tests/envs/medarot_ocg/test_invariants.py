"""Invariants of spec section 10 checked at every step of random Medarot OCG games.

The checker below reads only the engine's state (``GameState`` fields, its event log and
``legal_actions``). It covers the invariants that the engine alone can check: I1-I7, I9,
I10 and I12 (I8 and I11 are about the environment's masks and observations).

* ``test_I*`` tests run a small sample of games per mode (fast).
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

from deckgym.envs.medarot_ocg.actions import Action, Kind
from deckgym.envs.medarot_ocg.cards import (
    MEDACHANGE,
    MEDAROT,
    MEDAROTER,
    load_pool,
    resolve_deck,
    starter_decks,
)
from deckgym.envs.medarot_ocg.config import MODES, make_config
from deckgym.envs.medarot_ocg.rules import new_game
from deckgym.envs.medarot_ocg.state import GameState

HAND_LIMIT = 7
MAX_UNITS = 3
#: DPs at which a hand may exceed 7 (I5), besides any sub-step of a draw-event chain.
OVER_LIMIT_DPS = frozenset(
    {
        "OPT_DRAW",
        "HAND_LIMIT",
        "WEAK_DISCARD",
        "EFFECT_DISCARD",
        "LATE_MASTER",
        "PLACE_CARD",
        "PLACE_SQUARE",
        "DRAW_STOCK",
    }
)
#: Voluntary HP payments that exist in beginner mode (I6: no Medaroter cost is ever paid there).
BEGINNER_SPENDS = frozenset({"the optional draw", "a 2-square melee attack"})
_SPEND_RE = re.compile(r"^P(\d) spends (\d+) HP on (.*) \(HP -?\d+\)$")
_CANNOT_PAY_RE = re.compile(r"^P(\d) cannot pay (\d+) HP for (.*) \(HP (-?\d+)\) and loses$")
INVARIANTS = ("I1", "I2", "I3", "I4", "I5", "I6", "I7", "I9", "I10", "I12", "END")

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
def _budget(gs: GameState, p: int) -> int:
    return gs.hp[p] + (len(gs.reserve[p]) if gs.config.medaforce else 0)


def _cost(gs: GameState, effect: Any) -> int:
    return effect.cost if gs.config.medaroter_costs else 0


def _stack_square(gs: GameState, uid: int) -> int:
    for s, x in enumerate(gs.board):
        if x is not None and x.uid == uid:
            return s
    return -1


class Checker:
    """Checks the invariants on one game, step after step (some need the previous state)."""

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
        """All violations in ``gs`` as (invariant, message)."""
        out: list[tuple[str, str]] = []
        events = self._new_events(gs)
        for fn in (
            self.i1,
            self.i2,
            self.i3,
            self.i4,
            self.i5,
            self.i6,
            self.i7,
            self.i9,
            self.i10,
            self.i12,
        ):
            for msg in fn(gs, events):
                out.append((fn.__name__.upper(), msg))
        return out

    # -- I1 card conservation
    def i1(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        for p in (0, 1):
            cards: list[str] = list(gs.deck[p]) + list(gs.hand[p]) + list(gs.trash[p]) + list(gs.reserve[p])
            cards += [x.card for x in gs.stock[p] if x is not None]
            if gs.master[p] is not None:
                cards.append(gs.master[p].card)
            for x in gs.board:
                if x is not None and x.owner == p:
                    cards.append(x.base)
                    if x.change is not None:
                        cards.append(x.change)
            if gs.limbo[p] is not None:
                cards.append(gs.limbo[p][0])
            if len(cards) != gs.config.deck_size:
                out.append(f"P{p} has {len(cards)} cards in all zones, deck size is {gs.config.deck_size}")
            elif Counter(cards) != Counter(gs.decks[p]):
                diff = (Counter(cards) - Counter(gs.decks[p])) + (Counter(gs.decks[p]) - Counter(cards))
                out.append(f"P{p}'s cards are not its deck list (difference {dict(diff)})")
        return out

    # -- I2 HP
    def i2(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        for p in (0, 1):
            h = gs.hp[p]
            if type(h) is not int or h < 0:
                out.append(f"P{p} HP is {h!r}")
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

    # -- I3 board
    def i3(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        if len(gs.board) != 15:
            return [f"board has {len(gs.board)} squares"]
        per_player = [0, 0]
        uids = set()
        for s, x in enumerate(gs.board):
            if x is None:
                continue
            if x.owner not in (0, 1):
                out.append(f"square {s}: owner {x.owner!r}")
                continue
            per_player[x.owner] += 1
            if x.uid in uids:
                out.append(f"square {s}: uid {x.uid} appears twice")
            uids.add(x.uid)
            enemy_row = 2 if x.owner == 0 else 0
            if s // 5 == enemy_row:
                out.append(f"square {s}: P{x.owner}'s Medarot is in the opponent's row")
            base = gs.cards.get(x.base)
            if base is None or base.kind != MEDAROT:
                out.append(f"square {s}: base card {x.base!r} is not a Medarot card")
            if x.change is not None:
                ch = gs.cards.get(x.change)
                if not gs.config.medachange:
                    out.append(f"square {s}: MedaChange card {x.change} on the board in {self.mode} mode")
                if ch is None or ch.kind != MEDACHANGE:
                    out.append(f"square {s}: top card {x.change!r} is not a MedaChange card")
                elif base is not None and ch.name != base.name:
                    out.append(f"square {s}: MedaChange {ch.name!r} on Medarot {base.name!r}")
        for p in (0, 1):
            if per_player[p] > MAX_UNITS:
                out.append(f"P{p} has {per_player[p]} Medarots on the board")
        return out

    # -- I4 stock and master
    def i4(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        for p in (0, 1):
            row = gs.stock[p]
            if len(row) != 3:
                out.append(f"P{p} stock has {len(row)} slots")
            for j, slot in enumerate(row):
                if slot is not None and gs.cards[slot.card].kind != MEDAROTER:
                    out.append(f"P{p} stock slot {j} holds {slot.card}, not a Medaroter")
            m = gs.master[p]
            if m is not None:
                if not gs.config.master:
                    out.append(f"P{p} has a master in {self.mode} mode")
                if gs.cards[m.card].kind != MEDAROTER:
                    out.append(f"P{p} master {m.card} is not a Medaroter")
            prev = self.prev_master[p]
            if prev is not None and (m is None or m.card != prev):
                out.append(f"P{p} master slot changed from {prev} to {None if m is None else m.card}")
            self.prev_master[p] = None if m is None else m.card
        return out

    # -- I5 hand size
    def i5(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        dp = gs.decision
        for p in (0, 1):
            n = len(gs.hand[p])
            if n > gs.config.hand_cap:
                out.append(f"P{p} hand has {n} cards (> {gs.config.hand_cap})")
            if n > HAND_LIMIT + 1 + 3:
                out.append(f"P{p} hand has {n} cards (> 11, section 6)")
            if n <= HAND_LIMIT or gs.done:
                continue
            in_chain = ["hand_limit", p] in gs.agenda
            mine = gs.current_player == p
            if not mine or not (dp in OVER_LIMIT_DPS or in_chain):
                out.append(f"P{p} hand has {n} cards at DP {dp} of P{gs.current_player} (not a draw chain)")
            elif dp == "OPT_DRAW" and n > HAND_LIMIT + 1:
                out.append(f"P{p} hand has {n} cards at OPT_DRAW (at most 8 after S2)")
        if gs.done:
            for p in (0, 1):
                if len(gs.hand[p]) > HAND_LIMIT and not gs.reason.startswith(
                    ("P0 could not", "P1 could not")
                ):
                    out.append(f"game over with P{p} holding {len(gs.hand[p])} cards ({gs.reason})")
        return out

    # -- I6 mode restrictions
    def i6(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        cfg = gs.config
        if cfg.mode in ("beginner", "normal"):
            for p in (0, 1):
                if gs.reserve[p]:
                    out.append(f"P{p} reserve holds {gs.reserve[p]} in {cfg.mode} mode")
                zones = list(gs.deck[p]) + list(gs.hand[p]) + list(gs.trash[p])
                zones += [x.card for x in gs.stock[p] if x is not None]
                if gs.master[p] is not None:
                    zones.append(gs.master[p].card)
                if gs.limbo[p] is not None:
                    zones.append(gs.limbo[p][0])
                bad = [c for c in zones if gs.cards[c].kind == MEDACHANGE]
                if bad:
                    out.append(f"P{p} holds MedaChange cards {bad} in {cfg.mode} mode")
            for s, x in enumerate(gs.board):
                if x is not None and (x.change is not None or gs.cards[x.base].kind == MEDACHANGE):
                    out.append(f"square {s} holds a MedaChange in {cfg.mode} mode")
            if gs.decision == "PAY_SPLIT":
                out.append(f"PAY_SPLIT offered in {cfg.mode} mode")
        if cfg.mode == "beginner":
            for p in (0, 1):
                if gs.master[p] is not None:
                    out.append(f"P{p} has a master in beginner mode")
            for e in events:
                m = _SPEND_RE.match(e)
                if m and m[3] not in BEGINNER_SPENDS:
                    out.append(f"beginner payment that is not allowed: {e!r}")
        return out

    # -- I7 acting
    def i7(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        turn = gs.turn
        for s, x in enumerate(gs.board):
            if x is None:
                continue
            if x.placed and x.acted:
                out.append(f"square {s}: a Medarot placed this turn has acted")
            if not x.face_up and not x.placed and turn >= 1:
                out.append(f"square {s}: face-down Medarot not placed this turn (turn {turn})")
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
            sq = _stack_square(gs, act.uid)
            if sq >= 0:
                x = gs.board[sq]
                if x.placed:
                    out.append(f"square {sq}: the acting Medarot was placed this turn")
                if not x.acted:
                    out.append(f"square {sq}: the acting Medarot is not marked acted")
        self.last_act = act
        return out

    # -- I9 affordable voluntary payments
    def i9(self, gs: GameState, events: list[str]) -> list[str]:  # noqa: C901
        if gs.done:
            return []
        out = []
        dp = gs.decision
        p = gs.current_player
        legal = gs.legal_actions()
        hp = gs.hp[p]
        if dp == "OPT_DRAW":
            for a in legal:
                if a.kind == Kind.COUNT and a.arg > 0 and (hp < 1 or a.arg > len(gs.deck[p])):
                    out.append(f"OPT_DRAW offers {a} with HP {hp}, deck {len(gs.deck[p])}")
        elif dp == "PAY_SPLIT":
            c = gs.dp[2][1]
            if gs.use is not None:
                q, slot, _, idx, _ = gs.use
                holder = gs.master[q] if slot == 3 else gs.stock[q][slot]
                want = _cost(gs, gs.cards[holder.card].effects[idx])
                if c != want:
                    out.append(f"PAY_SPLIT for cost {c}, the effect costs {want}")
            for a in legal:
                k = a.arg
                if a.kind != Kind.MEDAFORCE or k > len(gs.reserve[p]) or k > c or c - k > hp:
                    out.append(
                        f"PAY_SPLIT offers {a} for cost {c} with HP {hp}, reserve {len(gs.reserve[p])}"
                    )
        elif dp == "DECLARE" and gs.act is not None:
            s = _stack_square(gs, gs.act.uid)
            x = gs.board[s]
            melee = gs.cards[x.change or x.base].type == "MELEE"
            far_cost = 0 if gs.act.free_far else 1
            for a in legal:
                far = melee and a.kind == Kind.SQUARE and abs(a.arg // 5 - s // 5) == 2
                if far and hp < far_cost:
                    out.append(f"DECLARE offers the 2-square attack {a} with HP {hp}")
        elif dp == "ACTION_START" and gs.act is not None:
            x = gs.board[_stack_square(gs, gs.act.uid)]
            top = gs.cards[x.change or x.base]
            for a in legal:
                if a.kind == Kind.PASS and top.power_form and hp < 1:
                    out.append(f"ACTION_START offers PASS in power form with HP {hp}")
                if a.kind == Kind.HAND:
                    c = gs.cards[gs.hand[p][a.arg]]
                    if c.kind != MEDACHANGE:
                        out.append(f"ACTION_START offers {a} = {c.id}, not a MedaChange")
                    elif c.power_form and hp < 1:
                        out.append(f"ACTION_START offers power form {c.id} with HP {hp}")
        elif dp in ("SUPPORT", "DEFENCE"):
            out += self._window_costs(gs, p, dp, legal)
        elif dp == "EFFECT_CHOICE" and gs.use is not None:
            q, slot, _, _, _ = gs.use
            holder = gs.master[q] if slot == 3 else gs.stock[q][slot]
            card = gs.cards[holder.card]
            for a in legal:
                if _cost(gs, card.effects[a.arg]) > _budget(gs, p):
                    out.append(f"EFFECT_CHOICE offers {a} of {card.id} beyond HP {hp}")
        return out

    def _window_costs(self, gs: GameState, p: int, dp: str, legal: list[Action]) -> list[str]:
        out = []
        timing = "ACTION" if dp == "SUPPORT" else "DEFENCE"
        budget = _budget(gs, p)
        for a in legal:
            if a.kind == Kind.HAND:
                card, from_stock = gs.cards[gs.hand[p][a.arg]], False
            elif a.kind == Kind.STOCK:
                slot = gs.stock[p][a.arg]
                if slot.face_up:
                    if dp != "DEFENCE" or slot.charge <= 0:
                        out.append(f"{dp} offers face-up stock card {a} without a stored charge")
                    continue
                card, from_stock = gs.cards[slot.card], True
            elif a.kind == Kind.MASTER:
                m = gs.master[p]
                if dp == "DEFENCE" and m.charge > 0:
                    continue
                card, from_stock = gs.cards[m.card], False
            else:
                continue
            costs = [
                _cost(gs, e)
                for e in card.effects
                if e.timing == timing or (from_stock and e.timing == "TRIGGER")
            ]
            if not costs:
                out.append(f"{dp} offers {a} ({card.id}) with no effect for this window")
            elif min(costs) > budget:
                out.append(f"{dp} offers {a} ({card.id}, cost {min(costs)}) with HP+MedaForce {budget}")
        return out

    # -- I10 effects
    def i10(self, gs: GameState, events: list[str]) -> list[str]:
        out = []
        uids = {x.uid: x for x in gs.board if x is not None}
        live = set()
        for e in gs.effects:
            live.add(id(e))
            born = self.eff_born.get(id(e))
            if e.src_uid >= 0 and e.src_slot >= 0 or e.src_uid < 0 and e.src_slot < 0:
                out.append(f"effect {e.op} has source uid {e.src_uid} and slot {e.src_slot}")
                continue
            if e.targets is not None:
                gone = [u for u in e.targets if u not in uids]
                if gone:
                    out.append(f"effect {e.op} still applies to Medarots {gone} that left the board")
            if e.src_uid >= 0:
                src = uids.get(e.src_uid)
                if src is None:
                    out.append(f"effect {e.op} outlives its source Medarot uid {e.src_uid}")
                    continue
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
            else:
                p, j = divmod(e.src_slot, 4)
                holder = gs.master[p] if j == 3 else gs.stock[p][j]
                if holder is None or not holder.face_up:
                    out.append(
                        f"effect {e.op} outlives its Medaroter (P{p} slot {j} is "
                        f"{'empty' if holder is None else 'face down'})"
                    )
                    continue
                if holder.eff < 0:
                    out.append(f"effect {e.op} from P{p} slot {j} whose card is not in effect")
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
    """Play ``n_games`` games of ``mode``; violations by invariant, each with its reproduction."""
    result: dict[str, list[str]] = {k: [] for k in INVARIANTS}
    pairs = deck_pairs(mode)
    for seed in range(n_games):
        found, _ = play_game(mode, seed)
        for step, dp, inv, msg in found:
            if len(result[inv]) < 5:
                result[inv].append(
                    f"{msg}  [repro: mode={mode} seed={seed} decks={pairs[seed % len(pairs)]} "
                    f"policy=policy({seed}) step={step} at {dp}]"
                )
    return result


def _assert_clean(mode: str, n: int, inv: str) -> None:
    bad = sweep(mode, n)[inv]
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


def test_checker_detects_broken_states() -> None:
    """Each check can fail: corrupt a live state and see the matching invariant fire."""
    gs = start("advance", 3)
    choose = policy(3)
    while gs.turn < 2 and not gs.done:
        gs.apply(choose(gs.legal_actions()))
    assert not gs.done
    assert Checker(gs).check(gs) == []

    def fired(mutate: Callable[[GameState], None]) -> set[str]:
        g = gs.clone()
        mutate(g)
        return {inv for inv, _ in Checker(g).check(g)}

    def steal(g: GameState) -> None:
        g.deck[0].pop()

    def neg_hp(g: GameState) -> None:
        g.hp[1] = -1

    def enemy_row(g: GameState) -> None:
        s = next(s for s, x in enumerate(g.board) if x is not None and x.owner == 0)
        g.board[10 + s % 5], g.board[s] = g.board[s], None

    def big_hand(g: GameState) -> None:
        while len(g.hand[0]) <= HAND_LIMIT:
            g.hand[0].append(g.deck[0].pop())

    def orphan_effect(g: GameState) -> None:
        from deckgym.envs.medarot_ocg.state import Eff

        g.effects.append(Eff("MOD_POWER", 10, "ANY", 0, 999, -1, [999], -1, ""))

    assert "I1" in fired(steal)
    assert "I2" in fired(neg_hp)
    assert "I3" in fired(enemy_row)
    assert "I10" in fired(orphan_effect)
    if gs.decision not in OVER_LIMIT_DPS:
        assert "I5" in fired(big_hand)


# ----------------------------------------------------------------------------- the big sweep
@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_invariants_every_step_of_random_games(mode: str) -> None:
    """300 games per mode by default; DECKGYM_SWEEP_GAMES=1000 runs the longer sweep."""
    result = sweep(mode, int(os.environ.get("DECKGYM_SWEEP_GAMES", "300")))
    bad = [msg for inv in INVARIANTS for msg in (f"{inv}: {m}" for m in result[inv])]
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
