"""The rules check of the Medarot OCG: every invariant one position can show (spec section 10).

``check(state)`` raises ``StateError`` when ``state`` breaks an invariant of section 10 (I1-I10)
or a position rule the position builder enforces; each line of the message starts with the
spec item it applies (``I1 card conservation: ...``, ``D36 master: ...``). It reads the state
in three stages and stops after the first stage that finds a problem:

1. shapes: per-seat lists have 2 entries, the stock 3 slots, the board 15 squares, card ids are
   in the pool, records hold values of the right types, indices are in range;
2. the invariants and position rules on the zones, the board, the lasting effects, the action
   under way, the card in use, the agenda and the decision point;
3. the decision's options: a live game offers at least one (I8), and every voluntary payment
   offered is affordable (I9).

Any state whose attributes hold values of the right types, whatever their contents, either
passes or raises ``StateError``: the check never indexes before the index is known to be in
range. Transition invariants (the turn never goes back, decks shrink, the master slot never
empties once filled, each Medarot acts once per turn across positions, I11 observations)
need two positions or the environment and are checked by the tests.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, Final

from deckgym.envs.core.checks import Problems, counted, is_bool, is_int, is_pair, is_seat
from deckgym.envs.core.targets import PLAYER_TARGETS, Target
from deckgym.envs.medarot_ocg.actions import DP, Action, Kind
from deckgym.envs.medarot_ocg.cards import (
    MEDACHANGE,
    MEDAROT,
    MEDAROTER,
    TRASH_TIMINGS,
    TYPE_FILTERS,
    CardDef,
    Effect,
)
from deckgym.envs.medarot_ocg.ops import MOD_OPS
from deckgym.envs.medarot_ocg.rules.board import MOVABLE
from deckgym.envs.medarot_ocg.rules.effects import needs_choice
from deckgym.envs.medarot_ocg.rules.flow import AGENDA
from deckgym.envs.medarot_ocg.rules.phases import HAND_LIMIT, MAX_UNITS
from deckgym.envs.medarot_ocg.state import Act, Eff, GameState, Slot, Stack

__all__ = ["LASTING_OPS", "check"]

#: Primitives that stay in play as lasting effects (spec 4.4); the others happen at once.
LASTING_OPS: Final = frozenset(
    {"MOD_POWER", "MOD_ARMOR", "MOD_SPEED", "GUARD", "TRAP", "DOT", "DISABLE", "ROOT"}
)
#: The most cards a hand holds at a decision: 7, the start phase's draw and 3 optional cards (section 6).
MOST_HAND: Final = HAND_LIMIT + 1 + 3
#: The most problems one message lists.
SQUARES: Final = 15
STOCK_SLOTS: Final = 3
MASTER_SLOT: Final = 3
SEATS: Final[tuple[int, ...]] = (0, 1)
FROM_HAND, FROM_STOCK, FROM_MASTER = 0, 1, 2
#: Decision points at which the deciding player's hand may hold more than 7 cards (I5).
OVER_LIMIT_DPS: Final = frozenset(
    {
        DP.OPT_DRAW,
        DP.HAND_LIMIT,
        DP.WEAK_DISCARD,
        DP.EFFECT_DISCARD,
        DP.LATE_MASTER,
        DP.PLACE_CARD,
        DP.PLACE_SQUARE,
        DP.DRAW_STOCK,
    }
)
#: Decision points whose context is ``(player,)``.
_SEAT_CTX: Final = frozenset(
    {
        DP.MASTER_SELECT,
        DP.OPENING_STOCK,
        DP.PLACE_CARD,
        DP.PLACE_SQUARE,
        DP.OPT_DRAW,
        DP.HAND_LIMIT,
        DP.STOCK_TRASH,
        DP.SUB_CARD,
        DP.SUB_SQUARE,
        DP.DEFENCE,
        DP.DESTROY_DRAW,
        DP.DRAW_STOCK,
        DP.EFFECT_TARGET,
    }
)
#: Decision points whose context is empty (the acting Medarot's own steps).
_NO_CTX: Final = frozenset({DP.ACTION_START, DP.MOVE_BEFORE, DP.MOVE_AFTER, DP.SUPPORT, DP.DECLARE})
#: Decision points whose context is ``(player, count)`` with a count of at least 1.
_COUNT_CTX: Final = frozenset({DP.WEAK_DISCARD, DP.EFFECT_DISCARD, DP.EFFECT_DRAW, DP.PAY_SPLIT})
#: Decision points inside an action (steps A1-A11): ``state.act`` is set.
_IN_ACTION: Final = frozenset(
    {
        DP.ACTION_START,
        DP.SUB_CARD,
        DP.SUB_SQUARE,
        DP.MOVE_BEFORE,
        DP.MOVE_AFTER,
        DP.SUPPORT,
        DP.DECLARE,
        DP.DEFENCE,
        DP.WEAK_DISCARD,
        DP.DESTROY_DRAW,
        DP.EFFECT_DRAW,
        DP.EFFECT_DISCARD,
        DP.EFFECT_CHOICE,
        DP.PAY_SPLIT,
    }
)
#: Decision points outside any action.
_OUTSIDE_ACTION: Final = frozenset({DP.MASTER_SELECT, DP.OPENING_STOCK, DP.OPT_DRAW, DP.TIE_BREAK})
#: Decision points of the acting Medarot's owner that need the Medarot on the board.
_ACTOR_ON_BOARD: Final = frozenset(
    {DP.ACTION_START, DP.SUB_CARD, DP.MOVE_BEFORE, DP.MOVE_AFTER, DP.SUPPORT, DP.DECLARE}
)
#: Decision points of the acting Medarot's owner.
_ACTOR_DECIDES: Final = _ACTOR_ON_BOARD | {DP.SUB_SQUARE}
#: Decision points where a card waits in limbo, and the kind of that card.
_LIMBO_DPS: Final = {DP.PLACE_SQUARE: MEDAROT, DP.SUB_SQUARE: MEDAROT, DP.STOCK_TRASH: MEDAROTER}
_LIMBO_ITEMS: Final = {
    DP.PLACE_SQUARE: "D10 refill",
    DP.SUB_SQUARE: "D19 substitution",
    DP.STOCK_TRASH: "D25 full stock",
}
#: Decision points of a Medaroter use under way (``state.use`` is set).
_USE_DPS: Final = frozenset({DP.STOCK_TRASH, DP.EFFECT_CHOICE, DP.PAY_SPLIT, DP.EFFECT_TARGET})
#: Agenda tasks that read the action under way, and those that read the card in use.
_ACT_TASKS: Final = frozenset(
    {
        "action_start",
        "move_before",
        "support",
        "declare",
        "move_after",
        "penalty",
        "cleanup",
        "defence",
        "judge",
        "on_hit",
        "use_slot",
        "use_choose",
        "use_pay",
        "use_target",
    }
)
_USE_TASKS: Final = frozenset({"use_slot", "use_choose", "use_pay", "use_target"})
#: Agenda tasks waiting while the start phase is under way or next (E2 has trashed every card in use).
_START_TASKS: Final[tuple[str, ...]] = ("start_phase", "start_check")
#: The tasks a live game's agenda always leads back to: the next selection or the next start phase.
_AGENDA_ROOTS: Final[tuple[str, ...]] = ("select", "start_phase")
#: Task arguments by name: (what the argument is, lowest value, highest value or None).
_TASK_ARGS: Final = {
    "p": ("a player", 0, 1),
    "q": ("a player", 0, 1),
    "square": ("a square", 0, SQUARES - 1),
    "weak": ("a flag", 0, 1),
    "s2": ("a flag", 0, 1),
    "n": ("a count", 1, None),
    "amount": ("an amount", 1, None),
}
#: Selectors whose targets are the user's own Medarots, or the enemy's.
_ALLY_TARGETS: Final = frozenset({Target.SELF, Target.ACTING, Target.ONE_ALLY, Target.ALL_ALLIES})
_ENEMY_TARGETS: Final = frozenset({Target.ONE_ENEMY, Target.ALL_ENEMIES})
_ONE_TARGET: Final = frozenset(
    {Target.SELF, Target.ACTING, Target.ATTACKED, Target.ATTACKER, Target.ONE_ALLY, Target.ONE_ENEMY}
)


def check(state: GameState, *, deck_rules: bool = True, limits: bool = True, at_rest: bool = True) -> None:
    """Raise ``StateError`` if ``state`` breaks an invariant of section 10 or a position rule.

    Args:
        state: the position to check.
        deck_rules: also check each seat's cards against the deck regulation of its mode
            (R1, R2, D42: at most a deck's size, at most 3 copies per name and kind). The
            position builder's ``deck_rules=False`` turns it off for made-up studies.
        limits: also check the field cap (3 Medarots per seat, D9) and the hand limit (7 cards
            outside a draw-event chain, R26, D35, I5). The builder's ``limits=False`` turns
            it off; the hand never exceeds the action encoding's ``hand_cap`` slots either way.
        at_rest: the state waits at a decision point or is over, as every state between two
            actions does. False for a position built to run nothing (``start=None``).

    Raises:
        StateError: one line per problem, each starting with the spec item it applies.
    """
    c = _Checker(state, deck_rules, limits, at_rest)
    for stage in (c.shapes, c.rules, c.options):
        stage()
        c.raise_if_any()


class _Checker(Problems[GameState, CardDef]):
    """One check of one state: the problems found so far, stage by stage."""

    def __init__(self, st: GameState, deck_rules: bool, limits: bool, at_rest: bool) -> None:
        super().__init__(st, st.cards)
        self.cfg = st.config
        self.deck_rules = deck_rules
        self.limits = limits
        self.at_rest = at_rest
        self.vacant = bool(self.cfg.vacant_seat)
        self.opening = False

    # ------------------------------------------------------------------ helpers
    def known(self, cid: Any, item: str, where: str) -> bool:
        if isinstance(cid, str) and cid in self.cards:
            return True
        self.bad(item, f"{where} holds {cid!r}, which is not a card of the pool")
        return False

    def kind(self, cid: str) -> str:
        return self.cards[cid].kind

    def slot_of(self, p: int, j: int) -> Slot | None:
        """Stock slot ``j`` (0-2) or the master (3) of ``p``."""
        return self.st.master[p] if j == MASTER_SLOT else self.st.stock[p][j]

    def slot_words(self, p: int, j: int) -> str:
        return f"player {p}'s master" if j == MASTER_SLOT else f"player {p}'s stock slot {j}"

    def stack_of(self, uid: int) -> tuple[int, Stack] | None:
        for s, x in enumerate(self.st.board):
            if x is not None and x.uid == uid:
                return s, x
        return None

    def unit_words(self, s: int, x: Stack) -> str:
        return f"player {x.owner}'s {self.name(x.change or x.base)} on square {s}"

    def seat_cards(self, p: int) -> list[str]:
        """Every card player ``p`` holds, in any zone."""
        st = self.st
        out = [*st.deck[p], *st.hand[p], *st.trash[p], *st.reserve[p]]
        out += [x.card for x in st.stock[p] if x is not None]
        m = st.master[p]
        if m is not None:
            out.append(m.card)
        for x in st.board:
            if x is not None and x.owner == p:
                out.append(x.base)
                if x.change is not None:
                    out.append(x.change)
        lim = st.limbo[p]
        if lim is not None:
            out.append(lim[0])
        return out

    # ------------------------------------------------------------------ stage 1: shapes
    def shapes(self) -> None:
        st = self.st
        self.int_field("turn", 0, "L5 turns")
        self.int_field("next_uid", 1, "I3 board")
        self.int_field("steps", 0, "L5 step cap")
        self.int_field("first", None, "D39 first player")
        self.int_field("winner", None, "8 end of game")
        self.end_shape("8 end of game")
        decks: Any = st.decks
        if not is_pair(decks) or not all(isinstance(d, list) for d in decks):
            self.bad("I1 card conservation", "the deck lists are not one list of cards per player")
        else:
            for p, d in enumerate(decks):
                for cid in d:
                    self.known(cid, "I1 card conservation", f"player {p}'s deck list")
        self.seat_ints("hp", "I2 HP")
        self.seat_ints("draw_mark", "D35 draw-event chain")
        self.seat_ints("mulligans", "D40 mulligan")
        self.seat_bools("master_used", "D36 master")
        self.seat_bools("failed_draw", "L2 failed draw")
        for key, item in (("deck", "I1"), ("hand", "I5"), ("trash", "I1"), ("reserve", "I6")):
            self.seat_zone(key, item)
        self.stock_shape()
        self.board_shape()
        self.effects_shape()
        self.limbo_shape()
        self.act_shape()
        self.use_shape()
        self.dp_shape()
        self.check_agenda(AGENDA.tasks, _TASK_ARGS)

    def seat_zone(self, key: str, item: str) -> None:
        v: Any = getattr(self.st, key)
        title = {"I1": "I1 card conservation", "I5": "I5 hand limit", "I6": "I6 mode rules"}[item]
        if not is_pair(v) or not all(isinstance(z, list) for z in v):
            self.bad(title, f"the {key} zones are not one list of cards per player")
            return
        for p, zone in enumerate(v):
            for i, cid in enumerate(zone):
                self.known(cid, "4.3 cards", f"player {p}'s {key}[{i}]")

    def slot_shape(self, s: Any, where: str) -> None:
        if s is None:
            return
        if not isinstance(s, Slot):
            self.bad("I4 stock and master", f"{where} holds {s!r}, not a Medaroter slot")
            return
        self.known(s.card, "4.3 cards", where)
        if (
            not is_bool(s.face_up)
            or not is_int(s.eff)
            or not is_int(s.charge)
            or not isinstance(s.trash, str)
        ):
            self.bad("I4 stock and master", f"{where} has fields of the wrong types: {s.to_list()!r}")

    def stock_shape(self) -> None:
        st = self.st
        if not is_pair(st.stock) or not all(isinstance(r, list) for r in st.stock):
            self.bad("I4 stock and master", "the stock is not one row of slots per player")
        else:
            for p, row in enumerate(st.stock):
                if len(row) != STOCK_SLOTS:
                    self.bad(
                        "I4 stock and master", f"player {p}'s stock has {len(row)} slots, not {STOCK_SLOTS}"
                    )
                    continue
                for j, s in enumerate(row):
                    self.slot_shape(s, f"player {p}'s stock slot {j}")
        if not is_pair(st.master):
            self.bad("I4 stock and master", "the master slots are not one slot per player")
        else:
            for p, m in enumerate(st.master):
                self.slot_shape(m, f"player {p}'s master")

    def board_shape(self) -> None:
        st = self.st
        if not isinstance(st.board, list) or len(st.board) != SQUARES:
            n = len(st.board) if isinstance(st.board, list) else st.board
            self.bad("I3 board", f"the board has {n!r} squares, not {SQUARES}")
            return
        for s, x in enumerate(st.board):
            if x is None:
                continue
            where = f"square {s}"
            if not isinstance(x, Stack):
                self.bad("I3 board", f"{where} holds {x!r}, not a Medarot")
                continue
            if not (is_int(x.uid) and is_seat(x.owner)):
                self.bad(
                    "I3 board", f"{where}: uid {x.uid!r} and owner {x.owner!r} must be a number and a player"
                )
            if not all(is_bool(v) for v in (x.face_up, x.acted, x.placed)):
                self.bad("I3 board", f"{where}: its face-up, acted and placed flags must be True or False")
            self.known(x.base, "4.3 cards", where)
            if x.change is not None:
                self.known(x.change, "4.3 cards", f"{where} (MedaChange)")

    def effects_shape(self) -> None:
        st = self.st
        if not isinstance(st.effects, list):
            self.bad("I10 lasting effects", f"the lasting effects are {st.effects!r}, not a list")
            return
        for i, e in enumerate(st.effects):
            where = f"lasting effect {i}"
            if not isinstance(e, Eff):
                self.bad("I10 lasting effects", f"{where} is {e!r}, not an effect record")
                continue
            ints = (e.amount, e.owner, e.src_uid, e.src_slot, e.scope)
            texts = (e.op, e.flt, e.trash)
            targets_ok = e.targets is None or (
                isinstance(e.targets, list) and all(is_int(u) for u in e.targets)
            )
            if (
                not all(is_int(v) for v in ints)
                or not all(isinstance(v, str) for v in texts)
                or not targets_ok
            ):
                self.bad("I10 lasting effects", f"{where} has fields of the wrong types: {e.to_list()!r}")

    def limbo_shape(self) -> None:
        st = self.st
        if not is_pair(st.limbo):
            self.bad("5 decision points", f"limbo is {st.limbo!r}, not one entry per player")
            return
        for p, lim in enumerate(st.limbo):
            if lim is None:
                continue
            if not isinstance(lim, list) or len(lim) != 2 or not is_bool(lim[1]):
                self.bad("5 decision points", f"player {p}'s card in limbo is {lim!r}, not [card, public]")
            else:
                self.known(lim[0], "4.3 cards", f"player {p}'s limbo")

    def act_shape(self) -> None:
        a = self.st.act
        if a is None:
            return
        if not isinstance(a, Act):
            self.bad("5.3 action", f"the action under way is {a!r}, not an action record")
            return
        flags = [
            getattr(a, k, None)
            for k in (f.name for f in dataclasses.fields(Act))
            if k not in ("uid", "owner", "target")
        ]
        if not (is_int(a.uid) and is_seat(a.owner) and is_int(a.target)) or not all(
            is_bool(v) for v in flags
        ):
            self.bad("5.3 action", f"the action under way has fields of the wrong types: {a.to_list()!r}")

    def use_shape(self) -> None:
        u = self.st.use
        if u is None:
            return
        ok = isinstance(u, list) and len(u) == 5 and all(is_int(v) for v in u)
        if not ok or not (
            u[0] in SEATS
            and -1 <= u[1] <= MASTER_SLOT
            and u[2] in (0, 1)
            and -1 <= u[3] <= 1
            and 0 <= u[4] <= 2
        ):
            self.bad(
                "D24 card use",
                f"the card in use is {u!r}, not [player 0-1, slot -1..3, window 0-1, effect -1..1, source 0-2]",
            )

    def dp_shape(self) -> None:
        point = self.st.decision_point
        if point is None:
            return
        ok = isinstance(point, tuple) and len(point) == 3 and is_int(point[0]) and is_int(point[1])
        if not ok or not isinstance(point[2], tuple) or not all(is_int(v) for v in point[2]):
            self.bad(
                "I8 decision point", f"the decision point is {point!r}, not (kind, player, (numbers...))"
            )
            return
        if point[0] not in DP._value2member_map_:
            self.bad("I8 decision point", f"decision kind {point[0]} is not a decision point of section 5")
        if not is_seat(point[1]):
            self.bad("I8 decision point", f"the deciding player is {point[1]}, not 0 or 1")

    # ------------------------------------------------------------------ stage 2: the rules
    def rules(self) -> None:
        # The opening is under way while turn 1's start phase waits on the agenda (5.1: O3-O5).
        self.opening = self.st.turn == 0 and any(t[0] == "start_phase" for t in self.st.agenda)
        self.numbers()
        self.conservation()
        if self.deck_rules:
            self.regulation()
        self.board_rules()
        self.slot_rules()
        self.hand_rules()
        self.mode_rules()
        self.effect_rules()
        self.decision_rules()
        self.agenda_rules()

    def numbers(self) -> None:
        st, cfg = self.st, self.cfg
        for p in SEATS:
            if st.hp[p] < 0:
                who = "the proxy at seat 1" if p == 1 and cfg.proxy else f"player {p}"
                self.bad(
                    "I2 HP", f"{who} has {st.hp[p]} HP; HP is never below 0 (a failed payment ends the game)"
                )
            if st.draw_mark[p] < 0:
                self.bad("D35 draw-event chain", f"player {p}'s draw mark is {st.draw_mark[p]}, below 0")
            if st.mulligans[p] < 0:
                self.bad("D40 mulligan", f"player {p} has {st.mulligans[p]} mulligans, below 0")
            if st.failed_draw[p] and st.deck[p]:
                self.bad(
                    "L2 failed draw", f"player {p} could not draw but its deck holds {len(st.deck[p])} cards"
                )
        if st.turn > cfg.max_turns:
            self.bad("L5 turns", f"turn {st.turn} is past the turn cap {cfg.max_turns}")
        if not st.done and st.steps >= cfg.max_steps:
            self.bad(
                "L5 step cap", f"{st.steps} decisions reach the step cap {cfg.max_steps} and the game goes on"
            )
        if st.first not in SEATS or (self.vacant and st.first != 0):
            allowed = "0 (seat 1 is vacant)" if self.vacant else "0 or 1"
            self.bad("D39 first player", f"the first player is {st.first}, not {allowed}")

    def conservation(self) -> None:
        st = self.st
        for p in SEATS:
            held = self.seat_cards(p)
            if self.vacant and p == 1 and held:
                self.bad("I1 card conservation", f"seat 1 is vacant but holds {len(held)} cards")
                continue
            listed = st.decks[p]
            if len(held) != len(listed):
                self.bad(
                    "I1 card conservation",
                    f"player {p} holds {len(held)} cards in all, not {len(listed)} (its deck list)",
                )
                continue
            more = Counter(held) - Counter(listed)
            fewer = Counter(listed) - Counter(held)
            if more or fewer:
                self.bad(
                    "I1 card conservation",
                    f"player {p} holds {counted(more, self.name)} beyond its deck list and lacks "
                    f"{counted(fewer, self.name)}",
                )

    def regulation(self) -> None:
        cfg = self.cfg
        for p in SEATS:
            held = self.seat_cards(p)
            if len(held) > cfg.deck_size:
                self.bad(
                    "D42 deck regulation",
                    f"player {p} holds {len(held)} cards; a {cfg.mode} deck has {cfg.deck_size} (R1, R2)",
                )
            per = Counter((self.cards[c].name, self.kind(c)) for c in held)
            for (name, kind), n in sorted(per.items()):
                if n > 3:
                    self.bad(
                        "D42 deck regulation",
                        f"player {p} holds {n} copies of the {kind} {name!r}; a deck holds at most 3 (R1, R2)",
                    )

    def board_rules(self) -> None:
        st, cfg = self.st, self.cfg
        per = [0, 0]
        seen: dict[int, int] = {}
        for s, x in enumerate(st.board):
            if x is None:
                continue
            where = self.unit_words(s, x)
            per[x.owner] += 1
            if x.uid in seen:
                self.bad("I3 board", f"squares {seen[x.uid]} and {s} hold the same Medarot (uid {x.uid})")
            seen[x.uid] = s
            if not 1 <= x.uid < st.next_uid:
                self.bad(
                    "I3 board",
                    f"{where} has uid {x.uid}, not in 1..{st.next_uid - 1} (next uid {st.next_uid})",
                )
            if s not in MOVABLE[x.owner]:
                self.bad("I3 board", f"{where} stands in its opponent's row (D8)")
            if self.kind(x.base) != MEDAROT:
                self.bad("I3 board", f"{where}: its base card is a {self.kind(x.base)} card, not a Medarot")
            if x.change is not None:
                ch = self.cards[x.change]
                if not cfg.medachange:
                    self.bad(
                        "I3 board", f"{where} is MedaChanged in {cfg.mode} mode; MedaChange is advance only"
                    )
                if ch.kind != MEDACHANGE or ch.name != self.cards[x.base].name:
                    self.bad(
                        "I3 board",
                        f"{where}: its top card {self.name(x.change)} is not a MedaChange card named "
                        f"{self.cards[x.base].name!r} (R47, D18)",
                    )
            if x.placed and x.acted:
                self.bad("I7 acting", f"{where} was placed this turn and has acted")
            if not x.face_up and x.acted:
                self.bad("I7 acting", f"{where} is face down and has acted")
            if not x.face_up and not x.placed and not self.opening:
                self.bad("I7 acting", f"{where} is face down but was not placed this turn (turn {st.turn})")
        for p in SEATS:
            if self.limits and per[p] > MAX_UNITS:
                self.bad(
                    "I3 board", f"player {p} has {per[p]} Medarots on the board, more than {MAX_UNITS} (D9)"
                )
            if self.vacant and p == 1 and per[p]:
                self.bad("I3 board", "seat 1 is vacant but has Medarots on the board")

    def slot_rules(self) -> None:
        st, cfg = self.st, self.cfg
        use = st.use
        start_phase = any(isinstance(t, list) and t and t[0] in _START_TASKS for t in st.agenda)
        for p in SEATS:
            m = st.master[p]
            if m is not None:
                if not cfg.master:
                    self.bad(
                        "I4 stock and master", f"player {p} has a master in {cfg.mode} mode (N and A only)"
                    )
                if not m.face_up and not self.opening:
                    self.bad(
                        "D36 master",
                        f"player {p}'s master is face down after the opening; S1 of turn 1 reveals it",
                    )
                if m.eff >= 0 and not st.master_used[p]:
                    self.bad(
                        "D36 master", f"player {p}'s master is in use but not marked used this turn (R17)"
                    )
            if st.master_used[p] and (m is None or not m.face_up):
                self.bad(
                    "D36 master", f"player {p} used its master this turn but has no face-up master (R17)"
                )
            for j in (0, 1, 2, MASTER_SLOT):
                s = self.slot_of(p, j)
                if s is None:
                    continue
                where = f"{self.slot_words(p, j)} ({self.name(s.card)})"
                card = self.cards[s.card]
                if card.kind != MEDAROTER:
                    self.bad("I4 stock and master", f"{where} holds a {card.kind} card, not a Medaroter")
                    continue
                self.one_slot(p, j, s, card, where, use, start_phase)

    def one_slot(
        self, p: int, j: int, s: Slot, card: CardDef, where: str, use: Any, start_phase: bool
    ) -> None:
        st = self.st
        in_use_now = use is not None and use[0] == p and use[1] == j
        if not s.face_up and (s.eff != -1 or s.trash or s.charge):
            self.bad("D26 card life", f"{where} is face down, so no effect of it is in use")
            return
        if s.eff >= 0:
            if s.eff >= len(card.effects):
                self.bad("D26 card life", f"{where} has no effect {s.eff} to be in use")
                return
            e = card.effects[s.eff]
            if s.trash != e.trash:
                self.bad(
                    "D26 card life", f"{where}: effect {s.eff} is trashed {e.trash}, not {s.trash or 'never'}"
                )
            if st.act is None and e.trash in ("AFTER_USE", "AFTER_DEFENCE"):
                self.bad(
                    "D26 card life", f"{where} is in use with trash timing {e.trash} outside an action (D45)"
                )
            if start_phase:
                self.bad("D26 card life", f"{where} is in use at the start phase; E2 trashed it (D38)")
            if s.charge and (e.op != "NEGATE" or e.timing != "ACTION" or s.charge > 1):
                self.bad(
                    "P4 negate", f"{where} stores {s.charge} charges; one use of an ACTION NEGATE stores 1"
                )
            if not in_use_now and self.stays(e) and not any(f.src_slot == 4 * p + j for f in st.effects):
                self.bad(
                    "I10 lasting effects",
                    f"{where} is in use with {e.op}, but the effect is not in play (D26)",
                )
        else:
            if s.eff != -1 or s.trash or s.charge:
                self.bad(
                    "D26 card life",
                    f"{where} is not in use, yet has effect {s.eff}, trash {s.trash!r}, charge {s.charge}",
                )
            if j != MASTER_SLOT and s.face_up and not in_use_now:
                self.bad(
                    "D26 card life",
                    f"{where} is face up but not in use; a stock card turns face up when used",
                )

    def stays(self, e: Effect) -> bool:
        """Whether a used effect stays in play as long as its card (TRAP, DOT, END_OF_TURN modifiers, D45)."""
        if e.op not in LASTING_OPS:
            return False
        return e.target in PLAYER_TARGETS or (e.op in MOD_OPS and e.trash == "END_OF_TURN")

    def hand_rules(self) -> None:
        st, cfg = self.st, self.cfg
        point = st.decision_point
        kind = DP(point[0]) if point is not None else None
        for p in SEATS:
            n = len(st.hand[p])
            if n > cfg.hand_cap:
                self.bad(
                    "I5 hand limit",
                    f"player {p} holds {n} cards; a hand has {cfg.hand_cap} slots (section 6)",
                )
            if not self.limits or n <= HAND_LIMIT:
                continue
            if n > MOST_HAND:
                self.bad(
                    "I5 hand limit",
                    f"player {p} holds {n} cards, more than {MOST_HAND} (7 + 1 + 3, section 6)",
                )
            if st.done:
                if (
                    not st.truncated
                    and not st.reason.startswith(f"P{p} could not")
                    and not st.reason.startswith(f"P{1 - p} could not")
                ):
                    self.bad(
                        "I5 hand limit", f"player {p} holds {n} cards at the end of the game ({st.reason})"
                    )
                continue
            in_chain = any(t == ["hand_limit", p] for t in st.agenda)
            if point is None or point[1] != p or not (kind in OVER_LIMIT_DPS or in_chain):
                where = (
                    "no decision" if point is None or kind is None else f"{kind.name} of player {point[1]}"
                )
                self.bad(
                    "I5 hand limit",
                    f"player {p} holds {n} cards at {where}, outside a draw-event chain (R26, D35)",
                )
            elif kind == DP.OPT_DRAW and n > HAND_LIMIT + 1:
                self.bad(
                    "I5 hand limit",
                    f"player {p} holds {n} cards at OPT_DRAW; at most 8 after the start phase's draw",
                )

    def mode_rules(self) -> None:
        st, cfg = self.st, self.cfg
        for p in SEATS:
            if st.reserve[p] and not cfg.medaforce:
                self.bad(
                    "I6 mode rules",
                    f"player {p}'s MedaForce reserve holds {len(st.reserve[p])} cards in {cfg.mode} mode",
                )
            for cid in st.reserve[p]:
                if self.kind(cid) == MEDAROTER:
                    self.bad(
                        "I6 mode rules",
                        f"player {p}'s reserve holds the Medaroter {self.name(cid)}; only destroyed Medarots go there (R54)",
                    )
            if not cfg.medachange and self.deck_rules:
                changes = sorted({c for c in self.seat_cards(p) if self.kind(c) == MEDACHANGE})
                if changes:
                    self.bad(
                        "I6 mode rules",
                        f"player {p} holds the MedaChange cards {', '.join(map(self.name, changes))} in {cfg.mode} mode",
                    )

    def effect_rules(self) -> None:
        st = self.st
        per_source: Counter[tuple[str, int]] = Counter()
        for i, e in enumerate(st.effects):
            where = f"lasting effect {i} ({e.op})"
            if e.op not in LASTING_OPS:
                self.bad(
                    "I10 lasting effects",
                    f"{where}: {e.op!r} is not a lasting primitive ({', '.join(sorted(LASTING_OPS))})",
                )
                continue
            if (
                e.flt not in TYPE_FILTERS
                or (e.trash != "" and e.trash not in TRASH_TIMINGS)
                or e.owner not in SEATS
            ):
                self.bad(
                    "I10 lasting effects",
                    f"{where} has type filter {e.flt!r}, trash {e.trash!r}, user {e.owner}",
                )
                continue
            if (e.src_uid >= 0) == (e.src_slot >= 0):
                self.bad(
                    "I10 lasting effects",
                    f"{where} names source uid {e.src_uid} and slot {e.src_slot}; it needs exactly one",
                )
                continue
            rec = self.medarot_source(where, e) if e.src_uid >= 0 else self.medaroter_source(where, e)
            if rec is None:
                continue
            per_source["uid" if e.src_uid >= 0 else "slot", max(e.src_uid, e.src_slot)] += 1
            self.effect_matches(where, e, rec)
        for (kind, key), n in per_source.items():
            if n > 1:
                self.bad(
                    "I10 lasting effects",
                    f"{n} lasting effects come from one source ({kind} {key}); a source gives one",
                )

    def medarot_source(self, where: str, e: Eff) -> Effect | None:
        found = self.stack_of(e.src_uid)
        if found is None:
            self.bad(
                "I10 lasting effects",
                f"{where} outlives its source Medarot (uid {e.src_uid} is not on the board, D37)",
            )
            return None
        s, x = found
        src = self.unit_words(s, x)
        if not x.face_up:
            self.bad(
                "I10 lasting effects", f"{where} comes from {src}, which is face down and has not acted (D37)"
            )
        if x.owner != e.owner:
            self.bad(
                "I10 lasting effects", f"{where} comes from {src} but names player {e.owner} as its user"
            )
        card = self.cards[x.change or x.base]
        if not card.effects:
            self.bad("I10 lasting effects", f"{where} comes from {src}, whose card has no effect")
            return None
        return card.effects[0]

    def medaroter_source(self, where: str, e: Eff) -> Effect | None:
        if not 0 <= e.src_slot < 8:
            self.bad(
                "I10 lasting effects", f"{where} names source slot {e.src_slot}, not 0..7 (4 * player + slot)"
            )
            return None
        p, j = divmod(e.src_slot, 4)
        h = self.slot_of(p, j)
        label = self.slot_words(p, j)
        if h is None or not h.face_up or h.eff < 0:
            state = "empty" if h is None else "face down" if not h.face_up else "not in use"
            self.bad("I10 lasting effects", f"{where} outlives its Medaroter: {label} is {state}")
            return None
        if e.owner != p:
            self.bad(
                "I10 lasting effects", f"{where} comes from {label} but names player {e.owner} as its user"
            )
        card = self.cards[h.card]
        if h.eff >= len(card.effects):
            return None  # reported by the slot rules
        return card.effects[h.eff]

    def effect_matches(self, where: str, e: Eff, rec: Effect) -> None:
        """The record left in play agrees with the card's effect and its selector (D45, D47)."""
        if (e.op, e.amount, e.trash) != (rec.op, rec.amount, rec.trash):
            self.bad(
                "I10 lasting effects",
                f"{where} is {e.op} {e.amount:+d} (trash {e.trash or 'none'}); its source's effect is "
                f"{rec.op} {rec.amount:+d} (trash {rec.trash or 'none'})",
            )
            return
        player_level = rec.target in PLAYER_TARGETS
        if e.flt != ("ANY" if player_level else rec.type_filter):
            self.bad("I10 lasting effects", f"{where} filters {e.flt}, its source's effect {rec.type_filter}")
        if e.targets is None:
            dynamic = e.src_slot >= 0 and rec.op in MOD_OPS and rec.trash == "END_OF_TURN"
            if player_level:
                if e.scope != e.owner:
                    self.bad(
                        "I10 lasting effects", f"{where} applies to player {e.scope}, not its user {e.owner}"
                    )
            elif not dynamic:
                self.bad(
                    "I10 lasting effects",
                    f"{where} names no Medarots; only TRAP, DOT and END_OF_TURN modifiers cover a whole side (D45)",
                )
            elif e.scope not in SEATS:
                self.bad(
                    "I10 lasting effects",
                    f"{where} covers the Medarots of player {e.scope}, not 0 or 1 (D45)",
                )
            return
        if player_level:
            self.bad("I10 lasting effects", f"{where} applies to a player but names Medarots {e.targets}")
            return
        if e.scope != -1:
            self.bad(
                "I10 lasting effects", f"{where} names its Medarots and a whole side ({e.scope}) at once"
            )
        if not e.targets or len(set(e.targets)) != len(e.targets):
            self.bad(
                "I10 lasting effects",
                f"{where} applies to {e.targets}: an effect with no Medarot left ends (D47)",
            )
            return
        for u in e.targets:
            found = self.stack_of(u)
            if found is None:
                self.bad(
                    "I10 lasting effects", f"{where} still applies to uid {u}, which left the board (D47)"
                )
                continue
            x = found[1]
            if rec.target in _ALLY_TARGETS and x.owner != e.owner:
                self.bad(
                    "I10 lasting effects",
                    f"{where} ({rec.target.name}) applies to player {x.owner}'s Medarot, not its user's",
                )
            if rec.target in _ENEMY_TARGETS and x.owner == e.owner:
                self.bad(
                    "I10 lasting effects", f"{where} ({rec.target.name}) applies to its user's own Medarot"
                )
        if rec.target in _ONE_TARGET and len(e.targets) != 1:
            self.bad(
                "I10 lasting effects",
                f"{where} ({rec.target.name}) applies to {len(e.targets)} Medarots, not 1",
            )
        if e.src_uid >= 0 and rec.target in (Target.SELF, Target.ACTING) and e.targets != [e.src_uid]:
            self.bad(
                "I10 lasting effects",
                f"{where} ({rec.target.name}) applies to uids {e.targets}, not its source {e.src_uid}",
            )

    # ------------------------------------------------------------------ the decision point
    def decision_rules(self) -> None:
        st = self.st
        if st.done:
            self.outcome()
            return
        if st.winner != -1 or st.truncated:
            self.bad("8 end of game", f"a live game has winner {st.winner} and truncated {st.truncated}")
        point = st.decision_point
        if point is None:
            if self.at_rest:
                self.bad("I8 decision point", "the game is live but waits at no decision point")
        else:
            self.decision(DP(point[0]), point[1], point[2])
        if self.at_rest:
            self.limbo_and_use(point)

    def outcome(self) -> None:
        st = self.st
        if st.decision_point is not None or st.agenda:
            self.bad("8 end of game", "the game is over but a decision point or agenda task is still pending")
        if st.truncated:
            if st.winner != -1:
                self.bad(
                    "8 end of game", f"a truncated game has winner {st.winner}; truncation has none (L5)"
                )
        elif st.winner not in (0, 1, 2):
            self.bad("8 end of game", f"the game is over with winner {st.winner}, not 0, 1 or 2 (a draw)")
        if not st.reason:
            self.bad("8 end of game", "the game is over but records no reason")

    def decision(self, kind: DP, player: int, ctx: tuple[int, ...]) -> None:
        st = self.st
        name = kind.name
        item = "I8 decision point"
        if self.vacant and player == 1:
            self.bad(item, f"{name} asks seat 1, which is vacant")
        if kind in _SEAT_CTX and ctx != (player,):
            self.bad(item, f"{name} of player {player} has context {ctx}, not ({player},)")
            return
        if kind in _NO_CTX and ctx:
            self.bad(item, f"{name} has context {ctx}; it takes none")
            return
        if kind in _COUNT_CTX and (len(ctx) != 2 or ctx[0] != player or ctx[1] < 1):
            self.bad(
                item, f"{name} of player {player} has context {ctx}, not ({player}, a count of at least 1)"
            )
            return
        if kind == DP.PAY_SPLIT and not self.cfg.medaforce:
            self.bad("I6 mode rules", f"PAY_SPLIT is asked in {self.cfg.mode} mode, which has no MedaForce")
        act = st.act
        if kind in _IN_ACTION and act is None:
            self.bad(item, f"{name} is a step of an action, but no action is under way")
            return
        if kind in _OUTSIDE_ACTION and act is not None:
            self.bad(item, f"{name} is asked in the middle of an action")
            return
        if kind == DP.TIE_BREAK:
            self.tie_break(player, ctx)
        elif kind == DP.LATE_MASTER:
            self.late_master(player, ctx)
        elif kind == DP.EFFECT_CHOICE:
            self.effect_choice(player, ctx)
        elif kind == DP.EFFECT_TARGET:
            self.effect_target(player)
        if act is not None:
            self.acting(kind, player, act)

    def acting(self, kind: DP, player: int, act: Act) -> None:
        """A decision inside an action: its player and step agree with the action under way (5.3)."""
        item = "I8 decision point"
        name = kind.name
        actor = self.stack_of(act.uid)
        if kind in _ACTOR_ON_BOARD and actor is None:
            self.bad(item, f"{name}: the acting Medarot (uid {act.uid}) is not on the board")
        if kind in _ACTOR_DECIDES and player != act.owner:
            self.bad(item, f"{name} asks player {player}, but the acting Medarot is player {act.owner}'s")
        if kind == DP.DEFENCE:
            target = self.stack_of(act.target)
            if player == act.owner or target is None or target[1].owner != player:
                self.bad(item, f"DEFENCE asks player {player}, who is not the owner of an attacked Medarot")
        if kind in (DP.ACTION_START, DP.MOVE_BEFORE, DP.SUPPORT, DP.DECLARE) and act.ended:
            self.bad(item, f"{name} is asked after the action ended (substitution)")
        if kind in (DP.MOVE_BEFORE, DP.MOVE_AFTER) and act.moved:
            self.bad(item, f"{name} is asked after the acting Medarot moved (one move per action, R30)")
        if actor is not None:
            s, x = actor
            if x.owner != act.owner or not x.acted or not x.face_up or x.placed:
                self.bad(
                    "I7 acting",
                    f"the acting {self.unit_words(s, x)} is not a face-up Medarot of player {act.owner} marked acted",
                )

    def tie_break(self, player: int, ctx: tuple[int, ...]) -> None:
        st = self.st
        if len(ctx) < 2 or len(set(ctx)) != len(ctx):
            self.bad("D16 tie-break", f"TIE_BREAK offers squares {ctx}, not two or more different squares")
            return
        for s in ctx:
            x = st.board[s] if 0 <= s < SQUARES else None
            if x is None or x.owner != player or not x.face_up or x.acted or x.placed:
                self.bad(
                    "D16 tie-break",
                    f"TIE_BREAK offers square {s}, which holds no Medarot of player {player} that may act (D15)",
                )

    def late_master(self, player: int, ctx: tuple[int, ...]) -> None:
        st = self.st
        idx = ctx[1:]
        hand = st.hand[player]
        ok = len(ctx) >= 3 and ctx[0] == player and len(set(idx)) == len(idx)
        if not ok or not all(0 <= i < len(hand) and self.kind(hand[i]) == MEDAROTER for i in idx):
            self.bad(
                "D35 late master",
                f"LATE_MASTER of player {player} offers {ctx}, not two or more Medaroters in its hand",
            )
        elif st.master[player] is not None:
            self.bad("D35 late master", f"LATE_MASTER asks player {player}, who already has a master")

    def effect_choice(self, player: int, ctx: tuple[int, ...]) -> None:
        u = self.st.use
        if u is None:
            self.bad("D24 card use", "EFFECT_CHOICE is asked with no card in use")
            return
        h = self.slot_of(u[0], u[1]) if u[1] >= 0 else None
        n = len(self.cards[h.card].effects) if h is not None else 0
        if len(ctx) != 2 or len(set(ctx)) != 2 or not all(0 <= e < n for e in ctx):
            self.bad("D24 card use", f"EFFECT_CHOICE offers effects {ctx} of a card with {n} effects")

    def effect_target(self, player: int) -> None:
        st = self.st
        if st.use is not None:
            return  # checked with the card in use
        act = st.act
        found = self.stack_of(act.uid) if act is not None else None
        if found is None:
            self.bad(
                "I8 decision point",
                "EFFECT_TARGET is asked with no card in use and no acting Medarot on the board",
            )
            return
        s, x = found
        card = self.cards[x.change or x.base]
        if x.owner != player or not card.effects or not needs_choice(card.effects[0]):
            self.bad(
                "I8 decision point",
                f"EFFECT_TARGET asks player {player}, but {self.unit_words(s, x)} has no effect to aim",
            )

    def limbo_and_use(self, point: Any) -> None:
        """A card waits in limbo, and a card is in use, exactly at the decisions that handle them."""
        st = self.st
        if st.done:
            return
        kind = DP(point[0]) if point is not None else None
        player = point[1] if point is not None else -1
        at = "no decision" if kind is None else kind.name
        for p in SEATS:
            lim = st.limbo[p]
            if kind is not None and kind in _LIMBO_DPS and player == p:
                item, want = _LIMBO_ITEMS[kind], _LIMBO_DPS[kind]
                if lim is None:
                    self.bad(item, f"{at} of player {p} has no card waiting for its place")
                elif self.kind(lim[0]) != want:
                    got = self.kind(lim[0])
                    self.bad(item, f"player {p}'s card waiting at {at} is a {got} card, not a {want}")
            elif lim is not None:
                self.bad(
                    "5 decision points",
                    f"player {p}'s card {self.name(lim[0])} waits in limbo at {at}, not at PLACE_SQUARE, "
                    "SUB_SQUARE or STOCK_TRASH",
                )
        u = st.use
        if u is None:
            if kind in (DP.EFFECT_CHOICE, DP.PAY_SPLIT):
                self.bad("D24 card use", f"{at} is asked with no card in use")
            return
        p, j, window, eff, source = u
        if kind not in _USE_DPS or player != p:
            self.bad(
                "D24 card use",
                f"player {p}'s card use is under way at {at}",
            )
            return
        act = st.act
        if act is None:
            self.bad("D24 card use", "a card is in use outside an action")
            return
        if (window == 0) != (p == act.owner):
            self.bad(
                "D24 card use",
                f"player {p} uses a card in the {'support' if window == 0 else 'defence'} window of player {act.owner}'s action",
            )
        if (j == MASTER_SLOT) != (source == FROM_MASTER) or (j == -1 and source != FROM_HAND):
            self.bad("D24 card use", f"the card in use names slot {j} and source {source}, which disagree")
            return
        if j == -1:
            lim = st.limbo[p]
            if kind != DP.STOCK_TRASH or lim is None or not lim[1]:
                self.bad(
                    "D24 card use", "a card used from the hand has no stock slot yet, outside STOCK_TRASH"
                )
            return
        h = self.slot_of(p, j)
        if h is None or not h.face_up:
            self.bad(
                "D24 card use",
                f"the card in use is in {self.slot_words(p, j)}, which is {'empty' if h is None else 'face down'}",
            )
            return
        n = len(self.cards[h.card].effects)
        if kind == DP.EFFECT_CHOICE and eff != -1:
            self.bad("D24 card use", f"EFFECT_CHOICE is asked after effect {eff} was chosen")
        if kind in (DP.PAY_SPLIT, DP.EFFECT_TARGET) and not (0 <= eff < n and h.eff == eff):
            self.bad(
                "D24 card use",
                f"{kind.name} is asked for effect {eff} of a card whose effect in use is {h.eff}",
            )

    def agenda_rules(self) -> None:
        st = self.st
        for t in st.agenda:
            if t[0] in _ACT_TASKS and st.act is None:
                self.bad("5 agenda", f"the step {t[0]!r} is scheduled with no action under way")
            if t[0] in _USE_TASKS and st.use is None:
                self.bad("5 agenda", f"the step {t[0]!r} is scheduled with no card in use")
        if self.at_rest and not st.done and st.agenda and st.agenda[0][0] not in _AGENDA_ROOTS:
            self.bad(
                "5 agenda", f"the agenda ends with {st.agenda[0][0]!r}, not the next selection or start phase"
            )
        if self.at_rest and not st.done and st.decision_point is not None and not st.agenda:
            self.bad("5 agenda", "the agenda is empty: nothing follows the current decision")

    # ------------------------------------------------------------------ stage 3: the options
    def options(self) -> None:
        st = self.st
        if st.done or st.decision_point is None:
            return
        try:
            legal = AGENDA.legal[st.decision_point[0]](st, st.decision_point[2])
        except (AssertionError, IndexError, KeyError, TypeError, ValueError, AttributeError) as exc:
            self.bad("I8 decision point", f"the options of {st.decision} cannot be worked out: {exc!r}")
            return
        if not legal:
            self.bad("I8 decision point", f"{st.decision} of player {st.decision_point[1]} offers no option")
            return
        if len(set(legal)) != len(legal):
            self.bad("I8 decision point", f"{st.decision} offers the same option twice: {legal}")
        self.affordable(DP(st.decision_point[0]), st.decision_point[1], legal)

    def budget(self, p: int) -> int:
        return self.st.hp[p] + (len(self.st.reserve[p]) if self.cfg.medaforce else 0)

    def cost(self, e: Effect) -> int:
        return e.cost if self.cfg.medaroter_costs else 0

    def affordable(self, kind: DP, p: int, legal: list[Action]) -> None:  # noqa: C901
        """I9: every voluntary payment an option implies is within HP (plus MedaForce for costs)."""
        st = self.st
        hp = st.hp[p]
        item = "I9 affordable options"
        if kind == DP.OPT_DRAW:
            for a in legal:
                if a.kind == Kind.COUNT and a.arg > 0 and (hp < 1 or a.arg > len(st.deck[p])):
                    self.bad(
                        item, f"OPT_DRAW offers {a} with HP {hp} and {len(st.deck[p])} cards in the deck"
                    )
        elif kind == DP.PAY_SPLIT:
            c = st.decision_point[2][1]  # type: ignore[index]
            for a in legal:
                k = a.arg
                if a.kind != Kind.MEDAFORCE or k > len(st.reserve[p]) or k > c or c - k > hp:
                    self.bad(
                        item,
                        f"PAY_SPLIT offers {a} for cost {c} with HP {hp} and {len(st.reserve[p])} MedaForce",
                    )
            u = st.use
            if u is not None and u[1] >= 0 and u[3] >= 0:
                h = self.slot_of(u[0], u[1])
                if h is not None and u[3] < len(self.cards[h.card].effects):
                    want = self.cost(self.cards[h.card].effects[u[3]])
                    if c != want:
                        self.bad(item, f"PAY_SPLIT asks for cost {c}; the effect in use costs {want}")
        elif kind == DP.DECLARE and st.act is not None:
            found = self.stack_of(st.act.uid)
            if found is None:
                return
            s, x = found
            melee = self.cards[x.change or x.base].type == "MELEE"
            far_cost = 0 if st.act.free_far else 1
            for a in legal:
                if melee and a.kind == Kind.SQUARE and abs(a.arg // 5 - s // 5) == 2 and hp < far_cost:
                    self.bad(item, f"DECLARE offers the 2-square attack {a} with HP {hp}")
        elif kind == DP.ACTION_START and st.act is not None:
            found = self.stack_of(st.act.uid)
            if found is None:
                return
            x = found[1]
            top = self.cards[x.change or x.base]
            for a in legal:
                if a.kind == Kind.PASS and top.power_form and hp < 1:
                    self.bad(item, f"ACTION_START offers PASS in a power form with HP {hp} (D18)")
                if a.kind == Kind.HAND:
                    c = self.cards[st.hand[p][a.arg]]
                    if c.kind != MEDACHANGE:
                        self.bad(item, f"ACTION_START offers {a} = {self.name(c.id)}, not a MedaChange card")
                    elif c.power_form and hp < 1:
                        self.bad(
                            item, f"ACTION_START offers the power form {self.name(c.id)} with HP {hp} (D18)"
                        )
        elif kind in (DP.SUPPORT, DP.DEFENCE):
            self.window_costs(kind, p, legal)
        elif kind == DP.EFFECT_CHOICE and st.use is not None and st.use[1] >= 0:
            h = self.slot_of(st.use[0], st.use[1])
            if h is None:
                return
            card = self.cards[h.card]
            for a in legal:
                if self.cost(card.effects[a.arg]) > self.budget(p):
                    self.bad(
                        item,
                        f"EFFECT_CHOICE offers {a} of {self.name(card.id)} beyond HP and MedaForce {self.budget(p)}",
                    )

    def window_costs(self, kind: DP, p: int, legal: list[Action]) -> None:
        st = self.st
        timing = "ACTION" if kind == DP.SUPPORT else "DEFENCE"
        budget = self.budget(p)
        for a in legal:
            if a.kind == Kind.HAND:
                card, from_stock = self.cards[st.hand[p][a.arg]], False
            elif a.kind == Kind.STOCK:
                slot = st.stock[p][a.arg]
                if slot is None:
                    continue
                if slot.face_up:
                    if kind != DP.DEFENCE or slot.charge <= 0:
                        self.bad(
                            "I9 affordable options",
                            f"{kind.name} offers the face-up stock card {a} without a stored charge",
                        )
                    continue
                card, from_stock = self.cards[slot.card], True
            elif a.kind == Kind.MASTER:
                m = st.master[p]
                if m is None or (kind == DP.DEFENCE and m.charge > 0):
                    continue
                card, from_stock = self.cards[m.card], False
            else:
                continue
            costs = [
                self.cost(e)
                for e in card.effects
                if e.timing == timing or (from_stock and e.timing == "TRIGGER")
            ]
            if not costs:
                self.bad(
                    "I9 affordable options",
                    f"{kind.name} offers {a} ({self.name(card.id)}), which has no effect for this window",
                )
            elif min(costs) > budget:
                self.bad(
                    "I9 affordable options",
                    f"{kind.name} offers {a} ({self.name(card.id)}, cost {min(costs)}) with HP and MedaForce {budget}",
                )
