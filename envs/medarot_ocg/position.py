"""Build any Medarot OCG position from readable arguments and run it to its first decision.

``position(...)`` is the public position builder of the Medarot Official Card Game (spec
``docs/rules/medarot_ocg.md``): puzzles, endgame studies and regression cases are set up
square by square and zone by zone, checked against the rules, and returned as a ``GameState``
whose automatic steps have already run, so ``state.legal_actions()`` is ready and any agent
can be asked what it would do there. Unlike ``GameState.from_dict`` it needs none of the
engine's internals (agenda task names, the decision tuple ``dp``, the action record ``act``,
card uids); unlike a fresh game (``rules.new_game``) it skips the opening.

Example::

    from deckgym import agents
    from deckgym.envs.medarot_ocg.position import position

    st = position(
        "beginner",
        board={2: "MD05", 7: ("MD13", 1), 12: {"card": "MD20", "acted": True}},
        hands=(["MD01", "MR01"], ["MD03"]),
        decks=(["MD04", "MD06"], ["MD09"]),  # top card first
        hp=(6, 4),
        turn=5,
        effects=[{"square": 12, "targets": [12]}],  # P1's Bulwarkin guards itself
    )
    assert st.decision == "ACTION_START" and st.current_player == 1  # Rivetclaw, speed 10
    agent = agents.make("heuristic", "medarot_ocg_v1", mode="beginner")
    move = agent.choose(st, st.current_player)  # also agents.make("search:2", ...)
    st.apply(move)

Board squares are absolute (spec 4.2), ``s = 5 * row + column`` with the columns as P0
sees them::

    row 2  P1's own row   10 11 12 13 14   (P1 faces down the board)
    row 1  neutral row     5  6  7  8  9
    row 0  P0's own row    0  1  2  3  4   (P0 faces up the board)

A Medarot on row 0 belongs to seat 0 and one on row 2 to seat 1 unless told otherwise; one
in the neutral row needs its owner (``("MD13", 1)``). Every per-seat argument is a pair
``(seat 0's, seat 1's)``.

What a position can say (the mid-turn situations it expresses):

- the turn number, the first player (D39), each seat's HP, deck (top first), hand (in order),
  trash, MedaForce reserve (advance), stock slots and master;
- each Medarot's square, owner, card, MedaChange card on top (advance), face up or down,
  "placed this turn" (it cannot act this turn, R13, D14) and "already acted this turn"
  (it is not selected again, D15);
- "the master was used this turn" (``master_used``, R17), a master still face down before
  its first reveal (start phase of turn 1 only, D36), a stored NEGATE charge (P4);
- lasting effects in play (``effects``): a Medarot's ON_ACTIVATE / ON_HIT effect, which lasts
  until its source acts again (D37), and a Medaroter's END_OF_TURN effect from a stock slot or
  the master (D26); statuses (DISABLE, ROOT, GUARD), power / armor / speed modifiers, TRAP and
  DOT are all lasting effects. Medarots keep no damage: an attack destroys or does not
  (R39-R42);
- where play resumes (``start``): ``"select"`` (A0: the fastest eligible Medarot is selected,
  with the rules' tie-breaks, D15, D16; when none is eligible the end phase runs), a square
  (that Medarot's action begins at A1, ``begin_action``: "it is this Medarot's action",
  whatever the speed order), or ``"start_phase"`` (S1 of turn ``turn``: reveal, clear the
  flags, draws). ``None`` builds the zones only and runs nothing: there is no decision and
  ``legal_actions()`` is empty (for encoder and view tests).

What it cannot say, because the builder only starts at the three points above:

- a point inside an action after A1: a Medarot that has moved this action, a card used in
  this action's support window (AFTER_USE / AFTER_DEFENCE cards in effect), an attack under
  way (target, far attack, negation, guard redirect), a defence window, a weak discard or a
  destroyed procedure in progress;
- a pending decision other than the first one the rules reach (e.g. a hand-limit discard
  after a draw, a tie-break already chosen, a card waiting in limbo, a DRAW effect's count);
- the opening (master choice, opening stock, first placement: use ``rules.new_game``), a
  start phase half done (one seat has drawn, the other not) or an end phase half done;
- history: the event log, the mulligan count, earlier coin flips, which copy of a card is
  which.

The builder checks what it is given and raises ``envs.core.errors.PositionError`` (a
``StateError`` and ``ValueError``) naming the seat, the square or zone and the rule: unknown
card ids (naming the pool), a card of the wrong kind in a zone, a square given twice or off
the board, a Medarot in its opponent's row, more than 3 Medarots of a seat on the board, a
stock beyond its 3 slots, a hand beyond the hand limit, more copies of a card across a seat's
zones than a deck may hold (``deck_rules``), HP, turn or first player out of range, an
unknown start, and lasting effects that the rules could not have left in play. Last, the built
and run state goes through ``rules.check`` (every invariant of section 10 one position shows,
with the builder's ``deck_rules`` and ``limits``); its refusal names the spec item first, e.g.
``I7 acting: ...``. A seat's deck list (``state.decks``) is every card the seat holds.

The returned state may already be over: automatic steps can end the game (e.g. a seat that
cannot draw at the start phase loses, L2). ``state.to_dict()`` / ``GameState.from_dict`` round
trip it exactly, and ``state.clone()`` copies it.

Agents are then asked with ``choose(state, seat)`` for the seat to move
(``state.current_player``): ``agents.make("heuristic", "medarot_ocg_v1", mode=...)`` (the
rule-of-thumb player) or ``agents.make("search:N", "medarot_ocg_v1", mode=...)`` (look-ahead
over ``N`` redrawn worlds; it resamples the cards the seat cannot see with
``state.resample_hidden``). Both read only what that seat may know.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.core.targets import PLAYER_TARGETS, Target
from deckgym.envs.medarot_ocg.cards import (
    MEDACHANGE,
    MEDAROT,
    MEDAROTER,
    CardDef,
    CardPool,
    Effect,
    load_pool,
)
from deckgym.envs.medarot_ocg.config import RulesConfig, make_config
from deckgym.envs.medarot_ocg.rules import check as check_rules
from deckgym.envs.medarot_ocg.rules import flow
from deckgym.envs.medarot_ocg.rules.action import begin_action
from deckgym.envs.medarot_ocg.rules.board import MOVABLE, NEUTRAL_ROW
from deckgym.envs.medarot_ocg.rules.phases import HAND_LIMIT, MAX_UNITS
from deckgym.envs.medarot_ocg.state import Eff, GameState, Slot, Stack

__all__ = ["LASTING_OPS", "STARTS", "position"]

#: The named starts; a square (int 0-14) starts that Medarot's action, ``None`` runs nothing.
STARTS = ("select", "start_phase")
#: Primitives that stay in play as lasting effects (spec 4.4); the rest happen at once.
LASTING_OPS = ("MOD_POWER", "MOD_ARMOR", "MOD_SPEED", "GUARD", "TRAP", "DOT", "DISABLE", "ROOT")
_MOD_OPS = ("MOD_POWER", "MOD_ARMOR", "MOD_SPEED")
_MASTER_SLOT = 3
_STOCK_SLOTS = 3
_UNIT_KEYS = ("card", "owner", "face_up", "placed", "acted", "change")
_SLOT_KEYS = ("card", "face_up", "effect", "charge")
_EFFECT_KEYS = ("square", "stock", "master", "effect", "targets")
_ALLY_TARGETS = (Target.SELF, Target.ACTING, Target.ONE_ALLY, Target.ALL_ALLIES)
_ENEMY_TARGETS = (Target.ONE_ENEMY, Target.ALL_ENEMIES)
_ONE_TARGET = (
    Target.SELF,
    Target.ACTING,
    Target.ATTACKED,
    Target.ATTACKER,
    Target.ONE_ALLY,
    Target.ONE_ENEMY,
)


def position(
    mode: str = "beginner",
    *,
    pool: Any = None,
    board: Mapping[int, Any] | Iterable[tuple[int, Any]] | None = None,
    masters: Sequence[Any] | None = None,
    stocks: Sequence[Any] | None = None,
    hands: Sequence[Any] | None = None,
    decks: Sequence[Any] | None = None,
    trash: Sequence[Any] | None = None,
    reserve: Sequence[Any] | None = None,
    hp: Sequence[int] | None = None,
    turn: int = 1,
    first: int = 0,
    master_used: Sequence[bool] | None = None,
    effects: Iterable[Mapping[str, Any]] = (),
    start: str | int | None = "select",
    seed: int = 0,
    rng: random.Random | None = None,
    deck_rules: bool = True,
    limits: bool = True,
    **rules: Any,
) -> GameState:
    """Build a checked position and run its automatic steps to the first decision.

    Args:
        mode: rules preset, ``"beginner"``, ``"normal"`` or ``"advance"``.
        pool: the card pool: a ``CardPool``, anything ``load_pool`` reads (files, TOML text,
            card mappings), or None for the packaged pool.
        board: absolute square (0-14, spec 4.2) -> Medarot, as a mapping or as a list of
            ``(square, Medarot)`` pairs. A Medarot is a card id (owner from the row), a pair
            ``(card id, owner)``, or a mapping with ``card``, ``owner``, ``face_up`` (True),
            ``placed`` (placed this turn; default: not ``face_up``), ``acted`` (acted this
            turn; False) and ``change`` (a MedaChange card id on top, advance).
        masters: per seat None (no master), a card id (face up, not in use) or a mapping with
            ``card``, ``face_up`` (True), ``effect`` (index of the effect in use) and
            ``charge`` (stored NEGATE charges). Normal and advance only.
        stocks: per seat up to 3 slots, in slot order: None (empty), a card id (set face
            down) or a mapping with ``card``, ``face_up`` (a face-up card is in use),
            ``effect`` and ``charge`` as for the master.
        hands: per seat the hand in order (HAND(0) first).
        decks: per seat the deck, TOP CARD FIRST (the engine stores it the other way round).
        trash: per seat the trash, oldest first.
        reserve: per seat the MedaForce reserve (advance), oldest first.
        hp: per seat HP (default: the mode's starting HP). Face-up masters' modifiers are
            taken as already applied; a face-down master's applies at its reveal.
        turn: the turn number, 1 to ``max_turns``.
        first: the first player (D39), 0 or 1.
        master_used: per seat whether the master was used this turn (R17).
        effects: lasting effects in play. Each names its source with exactly one of
            ``square`` (the Medarot there: its card's ON_ACTIVATE / ON_HIT effect),
            ``stock`` (``(seat, slot)``) or ``master`` (a seat), optionally ``effect`` (which
            effect of a two-effect Medaroter), and ``targets``: the squares of the Medarots
            it applies to (omit for TRAP and DOT, which apply to a player). A Medaroter's
            END_OF_TURN power / armor / speed modifier covers every matching Medarot of the
            targets' seat (D45). A Medaroter source is turned face up and in use.
        start: ``"select"``, a square (that Medarot begins its action), ``"start_phase"``, or
            None (build the zones only, run nothing).
        seed: the seed of the state's generator (coin flips, shuffles).
        rng: a generator to use instead of ``random.Random(seed)``.
        deck_rules: check each seat's cards, all zones together, against the deck regulation
            of the mode (R1, R2, D42): at most 3 copies per (name, kind), no more cards than a
            deck holds, MedaChange cards only in advance. Turn it off for made-up studies.
        limits: check the field cap (3 Medarots per seat, D9) and the hand limit (7 cards,
            R26). Turn it off for studies beyond them (the spec's own Ex8 fields 4 Medarots of
            one seat); a hand never exceeds the action encoding's ``hand_cap`` slots.
        **rules: ``RulesConfig`` fields that differ from the preset, as for ``make_config``
            (``max_turns``, ``max_steps``, ``vacant_seat``...).

    Returns:
        The state at its first decision point (``legal_actions()`` is non-empty) unless the
        automatic steps ended the game (``state.done``) or ``start`` is None.

    Raises:
        PositionError: the position breaks a rule; the message names the seat, the square or
            zone and the rule.
    """
    try:
        config = make_config(mode, **rules)
    except StateError as exc:
        raise PositionError(f"rules: {exc}") from exc
    b = _Builder(config, _pool(pool), start, turn)
    b.numbers(hp, turn, first)
    for p, cards in enumerate(_pair(hands, "hands")):
        b.hand[p] = b.zone(p, "hand", cards)
        b.check_hand(p, limits)
    for p, cards in enumerate(_pair(decks, "decks")):
        b.deck[p] = b.zone(p, "deck", cards)
    for p, cards in enumerate(_pair(trash, "trash")):
        b.trash[p] = b.zone(p, "trash", cards)
    for p, cards in enumerate(_pair(reserve, "reserve")):
        b.reserve[p] = b.reserve_zone(p, cards)
    for p, row in enumerate(_pair(stocks, "stocks")):
        b.stock_row(p, row)
    for p, m in enumerate(_pair(masters, "masters")):
        b.master_slot(p, m)
    b.place_all(board, limits)
    b.lasting(effects)
    b.master_flags(master_used)
    b.check_slots_in_use()
    b.check_seats(deck_rules)
    st = b.build(seed, rng)
    try:
        check_rules(st, deck_rules=deck_rules, limits=limits, at_rest=start is not None)
    except StateError as exc:
        raise PositionError(str(exc)) from exc
    return st


def _pool(value: Any) -> CardPool:
    if value is None:
        return load_pool()
    if isinstance(value, CardPool):
        return value
    return load_pool(value)


def _pair(value: Any, what: str) -> list[Any]:
    """A per-seat argument as a list of two entries (None: two empty entries)."""
    if value is None:
        return [None, None]
    if isinstance(value, (str, Mapping)) or not isinstance(value, Sequence) or len(value) != 2:
        raise PositionError(f"{what}: give one entry per seat, as (seat 0's, seat 1's); got {value!r}")
    return list(value)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _keys(spec: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
    bad = [k for k in spec if k not in known]
    if bad:
        raise PositionError(f"{where}: unknown key(s) {', '.join(map(repr, bad))}; use {', '.join(known)}")


class _Builder:
    """The checked pieces of one position, filled zone by zone, then turned into a state."""

    def __init__(self, config: RulesConfig, pool: CardPool, start: Any, turn: Any) -> None:
        self.config = config
        self.pool = pool
        self.start = start
        self.turn = turn
        self.hp = [config.start_hp, config.start_hp]
        self.first = 0
        self.deck: list[list[str]] = [[], []]
        self.hand: list[list[str]] = [[], []]
        self.trash: list[list[str]] = [[], []]
        self.reserve: list[list[str]] = [[], []]
        self.stock: list[list[Slot | None]] = [[None] * _STOCK_SLOTS, [None] * _STOCK_SLOTS]
        self.master: list[Slot | None] = [None, None]
        self.master_used = [False, False]
        self.board: list[Stack | None] = [None] * 15
        self.effects: list[Eff] = []
        self.next_uid = 1
        self.sources: set[tuple[str, int, int]] = set()

    # ------------------------------------------------------------------ cards and zones
    def card(self, cid: Any, where: str) -> CardDef:
        """The definition of ``cid``, or a PositionError naming the place and the pool."""
        if not isinstance(cid, str) or cid not in self.pool:
            raise PositionError(
                f"{where}: unknown card id {cid!r} (not in the pool {', '.join(self.pool.files)})"
            )
        return self.pool[cid]

    def zone(self, p: int, name: str, cards: Any) -> list[str]:
        """A list of card ids for seat ``p``'s ``name`` zone (each id checked)."""
        if cards is None:
            return []
        if isinstance(cards, (str, Mapping)) or not isinstance(cards, Iterable):
            raise PositionError(f"seat {p}, {name}: give a list of card ids, got {cards!r}")
        out = list(cards)
        for i, cid in enumerate(out):
            self.card(cid, f"seat {p}, {name}[{i}]")
        return out

    def check_hand(self, p: int, limits: bool) -> None:
        """The hand limit after every draw event (R26, D35), and the encoding's hand slots."""
        n, cap = len(self.hand[p]), self.config.hand_cap
        if n > cap:
            raise PositionError(
                f"seat {p}, hand: {n} cards; the action encoding has {cap} hand slots (hand_cap)"
            )
        if limits and n > HAND_LIMIT:
            raise PositionError(
                f"seat {p}, hand: {n} cards; the hand limit is {HAND_LIMIT} after every draw event (R26, D35)"
            )

    def reserve_zone(self, p: int, cards: Any) -> list[str]:
        """The MedaForce reserve: advance only, and only destroyed Medarots' cards (R54, D31)."""
        out = self.zone(p, "reserve", cards)
        if out and not self.config.medaforce:
            raise PositionError(
                f"seat {p}, reserve: the MedaForce reserve exists only in advance mode, not "
                f"{self.config.mode} (R54, D28)"
            )
        for i, cid in enumerate(out):
            c = self.pool[cid]
            if c.kind == MEDAROTER:
                raise PositionError(
                    f"seat {p}, reserve[{i}]: {cid} is a Medaroter; only destroyed Medarots' cards go "
                    "to the reserve (R54, D31)"
                )
        return out

    # ------------------------------------------------------------------ numbers
    def numbers(self, hp: Any, turn: Any, first: Any) -> None:
        """HP, the turn and the first player, checked."""
        if hp is not None:
            for p, v in enumerate(_pair(hp, "hp")):
                if not _int(v) or v < 0:
                    raise PositionError(
                        f"seat {p}, HP: {v!r} is out of range; HP is a whole number of medals >= 0 "
                        "(spec 4.1, D27)"
                    )
                self.hp[p] = v
        cap = self.config.max_turns
        if not _int(turn) or not 1 <= turn <= cap:
            raise PositionError(
                f"turn: {turn!r} is out of range; turns run from 1 to max_turns {cap} (4.1, L5)"
            )
        if not _int(first) or first not in (0, 1):
            raise PositionError(f"first: {first!r} is not a seat; the first player is 0 or 1 (D39)")
        if self.config.vacant_seat and first != 0:
            raise PositionError("first: with a vacant seat 1, seat 0 is the first player")
        self.first = first
        s = self.start
        if not (s is None or s in STARTS or (_int(s) and 0 <= s < 15)):
            raise PositionError(
                f"start: {s!r} is not a start; use 'select' (A0), a square 0-14 (that Medarot's "
                "action, A1), 'start_phase' (S1) or None (run nothing)"
            )

    # ------------------------------------------------------------------ stock and master
    def slot(self, p: int, spec: Any, where: str, stock: bool) -> Slot | None:
        """A stock or master slot from None, a card id or a mapping (a Medaroter, R12, R18).

        A stock card is set face down unless told otherwise, and a face-up stock card is in
        use (4.1); a master is face up unless told otherwise, and in use only with ``effect``.
        """
        if spec is None:
            return None
        if isinstance(spec, str):
            spec = {"card": spec}
        if not isinstance(spec, Mapping) or "card" not in spec:
            raise PositionError(f"{where}: give None, a card id or a mapping with 'card', got {spec!r}")
        _keys(spec, _SLOT_KEYS, where)
        c = self.card(spec["card"], where)
        if c.kind != MEDAROTER:
            raise PositionError(
                f"{where}: {c.id} is a {c.kind} card; only Medaroters are set in the stock or the master "
                "slot (R11, R12, R18)"
            )
        face_up = spec.get("face_up", not stock)
        if not isinstance(face_up, bool):
            raise PositionError(f"{where}: face_up must be True or False, got {face_up!r}")
        s = Slot(c.id, face_up)
        eff = spec.get("effect")
        if eff is not None and not face_up:
            raise PositionError(f"{where}: a card in use is face up (D26); drop 'effect' or set face_up")
        if eff is not None or (stock and face_up):
            self.use_slot(s, c, eff, where)
        charge = spec.get("charge", 0)
        if not _int(charge) or charge < 0:
            raise PositionError(f"{where}: charge {charge!r} must be a whole number >= 0")
        if charge:
            e = c.effects[s.eff] if s.eff >= 0 else None
            if e is None or e.op != "NEGATE" or e.timing != "ACTION" or charge > 1:
                raise PositionError(
                    f"{where}: a stored NEGATE charge needs the card's ACTION NEGATE effect in use, and a "
                    f"card used once stores 1 charge (P4), got charge {charge} on {c.id}"
                )
            s.charge = charge
        return s

    def use_slot(self, s: Slot, c: CardDef, eff: Any, where: str) -> None:
        """Mark slot ``s`` in use with effect ``eff`` (default: the card's only effect)."""
        if eff is None:
            if len(c.effects) != 1:
                raise PositionError(
                    f"{where}: {c.id} has {len(c.effects)} effects; say which is in use ('effect')"
                )
            eff = 0
        if not _int(eff) or not 0 <= eff < len(c.effects):
            raise PositionError(f"{where}: {c.id} has no effect {eff!r} (it has {len(c.effects)})")
        e = c.effects[eff]
        if self.start == "start_phase":
            raise PositionError(
                f"{where}: no Medaroter is in use at the start phase: END_OF_TURN cards were trashed at "
                "E2 and the others at the end of their action or judgement (D26, D38)"
            )
        if e.trash != "END_OF_TURN":
            raise PositionError(
                f"{where}: {c.id}'s effect {eff} has trash timing {e.trash}; outside an action only an "
                "END_OF_TURN card can still be in use (D26, D45)"
            )
        s.face_up, s.eff, s.trash = True, eff, e.trash

    def stock_row(self, p: int, row: Any) -> None:
        """Seat ``p``'s stock: at most 3 slots (R12, R18)."""
        if row is None:
            return
        if isinstance(row, (str, Mapping)) or not isinstance(row, Sequence):
            raise PositionError(f"seat {p}, stock: give a list of up to 3 slots, got {row!r}")
        if len(row) > _STOCK_SLOTS:
            raise PositionError(
                f"seat {p}, stock: {len(row)} slots given; the stock holds at most {_STOCK_SLOTS} cards "
                "(R12, R18, D25)"
            )
        for j, spec in enumerate(row):
            self.stock[p][j] = self.slot(p, spec, f"seat {p}, stock[{j}]", stock=True)

    def master_slot(self, p: int, spec: Any) -> None:
        """Seat ``p``'s master (normal and advance, R11); face down only before turn 1's S1 (D36)."""
        if spec is None:
            return
        where = f"seat {p}, master"
        if not self.config.master:
            raise PositionError(f"{where}: {self.config.mode} mode has no master card (R11, D4)")
        m = self.slot(p, spec, where, stock=False)
        assert m is not None
        if not m.face_up and (self.start != "start_phase" or self.turn != 1):
            raise PositionError(
                f"{where}: a master is face down only until its reveal at the start phase of turn 1 "
                "(D36): use start='start_phase', turn=1, or a face-up master"
            )
        if m.eff >= 0:
            self.master_used[p] = True
        self.master[p] = m

    def master_flags(self, used: Any) -> None:
        """``master_used``: only a face-up master can have been used this turn (R17)."""
        if used is None:
            return
        for p, v in enumerate(_pair(used, "master_used")):
            if not isinstance(v, bool):
                raise PositionError(f"seat {p}, master_used: {v!r} must be True or False")
            m = self.master[p]
            if v and (m is None or not m.face_up):
                raise PositionError(f"seat {p}, master_used: there is no face-up master to have used (R17)")
            if not v and m is not None and m.eff >= 0:
                raise PositionError(
                    f"seat {p}, master_used: the master's effect is in use, so it was used (R17)"
                )
            self.master_used[p] = v

    # ------------------------------------------------------------------ board
    def place_all(self, board: Any, limits: bool) -> None:
        """Every Medarot of ``board`` on its square, in the order given (uids follow it)."""
        if board is None:
            return
        items = board.items() if isinstance(board, Mapping) else board
        counts = [0, 0]
        for item in items:
            if not isinstance(item, tuple | list) or len(item) != 2:
                raise PositionError(f"board: give square -> Medarot or (square, Medarot) pairs, got {item!r}")
            square, spec = item
            if not _int(square) or not 0 <= square < 15:
                raise PositionError(
                    f"square {square!r} is off the board: squares are 0-14, s = 5 * row + column (spec 4.2)"
                )
            if self.board[square] is not None:
                raise PositionError(f"square {square}: given twice; a square holds one Medarot (D8)")
            x = self.stack(square, spec)
            counts[x.owner] += 1
            if limits and counts[x.owner] > MAX_UNITS:
                raise PositionError(
                    f"seat {x.owner}, square {square}: more than {MAX_UNITS} Medarots of one seat on the "
                    "board (D9)"
                )
            self.board[square] = x

    def stack(self, square: int, spec: Any) -> Stack:
        """One Medarot: card, owner, flags and MedaChange checked (D8, R47, D18)."""
        if isinstance(spec, str):
            spec = {"card": spec}
        elif isinstance(spec, tuple) and len(spec) == 2:
            spec = {"card": spec[0], "owner": spec[1]}
        if not isinstance(spec, Mapping) or "card" not in spec:
            raise PositionError(
                f"square {square}: give a card id, (card id, owner) or a mapping with 'card', got {spec!r}"
            )
        _keys(spec, _UNIT_KEYS, f"square {square}")
        row = square // 5
        owner = spec.get("owner")
        if owner is None:
            if row == NEUTRAL_ROW:
                raise PositionError(
                    f"square {square} is in the neutral row: give its owner, e.g. ('{spec['card']}', 0)"
                )
            owner = 0 if row == 0 else 1
        if owner not in (0, 1) or isinstance(owner, bool):
            raise PositionError(f"square {square}: owner {owner!r} is not a seat (0 or 1)")
        where = f"seat {owner}, square {square}"
        if square not in MOVABLE[owner]:
            raise PositionError(f"{where}: a Medarot never stands in its opponent's row (D8)")
        c = self.card(spec["card"], where)
        if c.kind != MEDAROT:
            hint = (
                " (a MedaChange card goes on top of its Medarot with 'change')"
                if c.kind == MEDACHANGE
                else ""
            )
            raise PositionError(
                f"{where}: {c.id} is a {c.kind} card; only Medarot cards stand on the board{hint}"
            )
        change = spec.get("change")
        if change is not None:
            self.check_change(where, c, change)
        flags = {}
        for k, default in (("face_up", True), ("acted", False)):
            flags[k] = spec.get(k, default)
        flags["placed"] = spec.get("placed", not flags["face_up"])
        for k, v in flags.items():
            if not isinstance(v, bool):
                raise PositionError(f"{where}: {k} must be True or False, got {v!r}")
        x = Stack(self.next_uid, owner, c.id, change, flags["face_up"], flags["acted"], flags["placed"])
        self.next_uid += 1
        return x

    def check_change(self, where: str, base: CardDef, change: Any) -> None:
        """A MedaChange on top: advance only, a MedaChange card of the same name (R47, D18)."""
        m = self.card(change, f"{where}, change")
        if not self.config.medachange:
            raise PositionError(
                f"{where}: MedaChange is an advance-mode rule, not {self.config.mode} (R47, D1)"
            )
        if m.kind != MEDACHANGE or m.name != base.name:
            raise PositionError(
                f"{where}: change {m.id} must be a MedaChange card named {base.name!r}, like its Medarot "
                f"(R47, D18); it is the {m.kind} {m.name!r}"
            )

    # ------------------------------------------------------------------ lasting effects
    def lasting(self, effects: Iterable[Mapping[str, Any]]) -> None:
        """Each lasting effect in play, from its source (D26, D37, D45, D47)."""
        if isinstance(effects, Mapping):
            effects = [effects]
        for n, spec in enumerate(effects):
            where = f"effects[{n}]"
            if not isinstance(spec, Mapping):
                raise PositionError(f"{where}: give a mapping with a source and targets, got {spec!r}")
            _keys(spec, _EFFECT_KEYS, where)
            given = [k for k in ("square", "stock", "master") if k in spec]
            if len(given) != 1:
                raise PositionError(f"{where}: name exactly one source: 'square', 'stock' or 'master'")
            kind = given[0]
            if kind == "square":
                self.medarot_effect(where, spec)
            else:
                self.medaroter_effect(where, spec, kind)

    def medarot_effect(self, where: str, spec: Mapping[str, Any]) -> None:
        """A Medarot's ON_ACTIVATE / ON_HIT effect, until its source acts again (D37)."""
        square = spec["square"]
        x = self.board[square] if _int(square) and 0 <= square < 15 else None
        if x is None:
            raise PositionError(f"{where}: source square {square!r} holds no Medarot")
        where = f"{where} (seat {x.owner}, square {square})"
        c = self.pool[x.top()]
        if not c.effects:
            raise PositionError(f"{where}: {c.id} has no effect")
        if not x.face_up:
            raise PositionError(f"{where}: a face-down Medarot has not acted since it was placed (D14, D37)")
        if "effect" in spec and spec["effect"] != 0:
            raise PositionError(f"{where}: a Medarot has one effect (index 0)")
        self.claim(where, ("square", x.uid, 0))
        self.add_effect(where, c.effects[0], x.owner, x.uid, -1, spec.get("targets"), square)

    def medaroter_effect(self, where: str, spec: Mapping[str, Any], kind: str) -> None:
        """A Medaroter's END_OF_TURN effect from a stock slot or the master (D26, D36)."""
        if kind == "stock":
            ref = spec["stock"]
            if not isinstance(ref, Sequence) or len(ref) != 2 or ref[0] not in (0, 1):
                raise PositionError(f"{where}: 'stock' is (seat, slot), got {ref!r}")
            p, j = ref
            if not _int(j) or not 0 <= j < _STOCK_SLOTS:
                raise PositionError(f"{where}: stock slot {j!r} does not exist (slots 0-2)")
            s, label = self.stock[p][j], f"seat {p}, stock[{j}]"
        else:
            p = spec["master"]
            if p not in (0, 1) or isinstance(p, bool):
                raise PositionError(f"{where}: 'master' is a seat (0 or 1), got {p!r}")
            j, s, label = _MASTER_SLOT, self.master[p], f"seat {p}, master"
        if s is None:
            raise PositionError(f"{where}: {label} is empty")
        where = f"{where} ({label})"
        c = self.pool[s.card]
        eff = spec.get("effect", s.eff if s.eff >= 0 else None)
        if eff is None:
            lasting = [i for i, e in enumerate(c.effects) if e.op in LASTING_OPS]
            eff = lasting[0] if len(lasting) == 1 else None
        if s.eff >= 0 and eff != s.eff:
            raise PositionError(f"{where}: the card is in use with effect {s.eff}, not {eff!r}")
        if kind == "master" and not s.face_up:
            raise PositionError(f"{where}: a face-down master has not been used (D36)")
        self.use_slot(s, c, eff, where)
        if kind == "master":
            self.master_used[p] = True
        self.claim(where, (kind, p, j))
        self.add_effect(where, c.effects[s.eff], p, -1, 4 * p + j, spec.get("targets"), -1)

    def claim(self, where: str, key: tuple[str, int, int]) -> None:
        """One lasting effect per source: a card is used once, a Medarot's effect lasts to its next action."""
        if key in self.sources:
            raise PositionError(f"{where}: this source already has a lasting effect in play")
        self.sources.add(key)

    def add_effect(
        self, where: str, e: Effect, user: int, src_uid: int, src_slot: int, targets: Any, src_square: int
    ) -> None:
        """The ``Eff`` record the rules would have left for effect ``e`` (effects.py ``_lasting``)."""
        if e.op not in LASTING_OPS:
            raise PositionError(
                f"{where}: {e.op} is not a lasting effect ({', '.join(LASTING_OPS)} are, spec 4.4); "
                "an instant effect leaves nothing in play"
            )
        if e.target in PLAYER_TARGETS:
            if targets:
                raise PositionError(f"{where}: {e.op} applies to a player; give no targets")
            self.effects.append(Eff(e.op, e.amount, "ANY", user, src_uid, src_slot, None, user, e.trash))
            return
        units = self.targets(where, e, user, targets, src_square)
        if src_uid < 0 and e.op in _MOD_OPS and e.trash == "END_OF_TURN":
            owners = {x.owner for x in units}
            if len(owners) != 1:
                raise PositionError(f"{where}: an END_OF_TURN modifier covers one seat's Medarots (D45)")
            self.effects.append(
                Eff(e.op, e.amount, e.type_filter, user, -1, src_slot, None, owners.pop(), e.trash)
            )
            return
        uids = [x.uid for x in units]
        self.effects.append(Eff(e.op, e.amount, e.type_filter, user, src_uid, src_slot, uids, -1, e.trash))

    def targets(self, where: str, e: Effect, user: int, targets: Any, src_square: int) -> list[Stack]:
        """The Medarots on ``targets``, checked against the effect's selector and type filter."""
        if isinstance(targets, int) or not isinstance(targets, Sequence) or not targets:
            raise PositionError(f"{where}: give 'targets', the squares of the Medarots {e.op} applies to")
        out = []
        t = e.target
        for s in targets:
            x = self.board[s] if _int(s) and 0 <= s < 15 else None
            if x is None:
                raise PositionError(f"{where}: target square {s!r} holds no Medarot")
            if t in _ALLY_TARGETS and x.owner != user:
                raise PositionError(f"{where}: target square {s} is not seat {user}'s; {t.name} picks allies")
            if t in _ENEMY_TARGETS and x.owner == user:
                raise PositionError(
                    f"{where}: target square {s} is seat {user}'s own; {t.name} picks enemies"
                )
            kind = self.pool[x.top()].type
            if e.type_filter != "ANY" and kind != e.type_filter:
                raise PositionError(
                    f"{where}: target square {s} is {kind}; the effect is for {e.type_filter}"
                )
            if x in out:
                raise PositionError(f"{where}: target square {s} is given twice")
            out.append(x)
        if t in _ONE_TARGET and len(out) != 1:
            raise PositionError(f"{where}: {t.name} applies to one Medarot, got {len(out)} targets")
        if src_square >= 0 and t in (Target.SELF, Target.ACTING) and targets[0] != src_square:
            raise PositionError(f"{where}: {t.name} is the source itself, square {src_square}")
        return out

    def check_slots_in_use(self) -> None:
        """A card in use whose effect stays while it is in use needs that effect in ``effects``.

        That is a TRAP or DOT (on a player) and an END_OF_TURN modifier (on a seat's Medarots,
        D45). A DISABLE, ROOT or GUARD may have ended with its targets leaving the board.
        """
        for p in (0, 1):
            for j, s in enumerate([*self.stock[p], self.master[p]]):
                if s is None or s.eff < 0:
                    continue
                kind = "master" if j == _MASTER_SLOT else "stock"
                e = self.pool[s.card].effects[s.eff]
                stays = e.target in PLAYER_TARGETS or e.op in _MOD_OPS
                if e.op in LASTING_OPS and stays and (kind, p, j) not in self.sources:
                    label = "master" if j == _MASTER_SLOT else f"stock[{j}]"
                    raise PositionError(
                        f"seat {p}, {label}: {s.card} is in use with a lasting effect; give it in effects, "
                        f"e.g. {{'{kind}': {p if j == _MASTER_SLOT else (p, j)}, 'targets': [...]}}"
                    )

    # ------------------------------------------------------------------ whole seats
    def seat_cards(self, p: int) -> list[tuple[str, str]]:
        """(card id, zone) of every card seat ``p`` holds."""
        out = [(c, z) for z, zone in (("deck", self.deck), ("hand", self.hand)) for c in zone[p]]
        out += [(c, "trash") for c in self.trash[p]] + [(c, "reserve") for c in self.reserve[p]]
        out += [(s.card, "stock") for s in self.stock[p] if s is not None]
        m = self.master[p]
        out += [(m.card, "master")] if m is not None else []
        for x in self.board:
            if x is not None and x.owner == p:
                out += [(x.base, "board")] + ([(x.change, "board")] if x.change else [])
        return out

    def check_seats(self, deck_rules: bool) -> None:
        """The vacant seat holds nothing; with ``deck_rules``, each seat's cards fit one deck (R1, R2, D42)."""
        cfg = self.config
        if cfg.vacant_seat and self.seat_cards(1):
            raise PositionError("seat 1 is a vacant seat (vacant_seat=True): it holds no cards")
        if not deck_rules:
            return
        for p in (0, 1):
            cards = self.seat_cards(p)
            if len(cards) > cfg.deck_size:
                raise PositionError(
                    f"seat {p}: {len(cards)} cards across its zones; a {cfg.mode} deck has exactly "
                    f"{cfg.deck_size} (R1, R2, D42)"
                )
            per: dict[tuple[str, str], list[str]] = {}
            for cid, zone in cards:
                c = self.pool[cid]
                if c.kind == MEDACHANGE and not cfg.medachange:
                    raise PositionError(
                        f"seat {p}, {zone}: {cid} is a MedaChange card; MedaChange cards are only legal in "
                        f"advance mode, not {cfg.mode} (D42)"
                    )
                per.setdefault((c.name, c.kind), []).append(zone)
            for (name, kind), zones in per.items():
                if len(zones) > 3:
                    where = ", ".join(f"{z} {zones.count(z)}" for z in dict.fromkeys(zones))
                    raise PositionError(
                        f"seat {p}: {len(zones)} copies of {kind} {name!r} across its zones ({where}); a deck "
                        "holds at most 3 (R1, R2, D42)"
                    )

    # ------------------------------------------------------------------ the state
    def build(self, seed: int, rng: random.Random | None) -> GameState:
        """The ``GameState``, run from ``start`` to its first decision point."""
        deck = [list(reversed(d)) for d in self.deck]  # the engine draws from the end
        decklists = [sorted(c for c, _ in self.seat_cards(p)) for p in (0, 1)]  # every card a seat holds
        st = GameState(self.config, self.pool, decklists, seed)
        if rng is not None:
            st.rng = rng
        st.turn = self.turn
        st.first = self.first
        st.hp = list(self.hp)
        st.deck = deck
        st.hand = [list(z) for z in self.hand]
        st.trash = [list(z) for z in self.trash]
        st.reserve = [list(z) for z in self.reserve]
        st.stock = [list(row) for row in self.stock]
        st.master = list(self.master)
        st.master_used = list(self.master_used)
        st.board = list(self.board)
        st.effects = list(self.effects)
        st.next_uid = self.next_uid
        start = self.start
        if start is None:
            return st
        if start == "start_phase":
            st.turn -= 1  # S1 counts the turn up
            st.agenda = [["start_phase"]]
        else:
            st.agenda = [["select"]]
            if _int(start):
                self.check_actor(start)
                begin_action(st, start)
        flow.run(st)
        return st

    def check_actor(self, square: int) -> None:
        """``start=square``: the Medarot there may act now (D15)."""
        x = self.board[square]
        if x is None:
            raise PositionError(f"start: square {square} holds no Medarot to begin its action")
        why = (
            "it is face down"
            if not x.face_up
            else "it was placed this turn"
            if x.placed
            else "it has already acted this turn"
            if x.acted
            else ""
        )
        if why:
            raise PositionError(
                f"start: seat {x.owner}'s Medarot on square {square} cannot act now: {why} (D14, D15)"
            )
