"""Build any Medarot OCG position from readable arguments and run it to its first decision.

``position(...)`` reads the board square by square and every zone by seat with the shared
reader (``envs.core.position``), checks the result with the rules check (``rules.check``) and
runs the automatic steps, so ``state.legal_actions()`` is ready. Every argument, what a
position can and cannot express and what is refused: ``docs/positions.md``, "Medarot OCG".
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.core.position import Reader, fail, is_int, is_list, seat_name
from deckgym.envs.core.targets import PLAYER_TARGETS
from deckgym.envs.medarot_ocg.cards import MEDACHANGE, MEDAROT, MEDAROTER, CardPool, Effect, load_pool
from deckgym.envs.medarot_ocg.config import RulesConfig, make_config
from deckgym.envs.medarot_ocg.ops import LASTING_OPS, MOD_OPS
from deckgym.envs.medarot_ocg.rules import check, flow
from deckgym.envs.medarot_ocg.rules.action import begin_action
from deckgym.envs.medarot_ocg.rules.board import NEUTRAL_ROW
from deckgym.envs.medarot_ocg.state import Eff, GameState, Slot, Stack

__all__ = ["LASTING_OPS", "STARTS", "position"]

#: The named starts; a square (int 0-14) starts that Medarot's action, ``None`` runs nothing.
STARTS = ("select", "start_phase")
SQUARES = 15
STOCK_SLOTS = 3
MASTER_SLOT = 3
_UNIT_KEYS = ("card", "owner", "face_up", "placed", "acted", "change")
_SLOT_KEYS = ("card", "face_up", "effect", "charge")
_EFFECT_KEYS = ("square", "stock", "master", "effect", "targets")
_ZONES = (("hands", "hand"), ("decks", "deck"), ("trash", "trash"), ("reserve", "reserve"))


def position(
    mode: str = "beginner",
    *,
    pool: Any = None,
    board: Mapping[int, Any] | Sequence[tuple[int, Any]] | None = None,
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
    effects: Any = (),
    start: str | int | None = "select",
    seed: int = 0,
    rng: random.Random | None = None,
    deck_rules: bool = True,
    limits: bool = True,
    **rules: Any,
) -> GameState:
    """Build a checked position and run its automatic steps to the first decision.

    The arguments are described in ``docs/positions.md`` ("Medarot OCG", reference). Raises
    ``PositionError`` naming the seat, the square or zone and the rule.
    """
    try:
        config = make_config(mode, **rules)
    except StateError as exc:
        raise PositionError(f"rules: {exc}") from exc
    square: Any = start if is_int(start) else None
    if not (start is None or start in STARTS or (square is not None and 0 <= square < SQUARES)):
        allowed = "'select' (A0), a square 0-14 (its Medarot's action, A1), 'start_phase' (S1) or None"
        fail("start", f"{start!r} is not a start; use {allowed}")
    b = _Builder(config, pool, seed, rng)
    b.read(hp, turn, first, (hands, decks, trash, reserve), stocks, masters)
    b.place(board)
    b.lasting(effects)
    st = b.st
    used = [m is not None and m.eff >= 0 for m in st.master]
    if master_used is not None:
        seats = b.r.per_seat("master_used", master_used)
        used = [b.r.flag(f"{seat_name(p)} master_used", v, "R17") for p, v in enumerate(seats)]
    st.master_used = used
    st.decks = [sorted(c for c, _ in held) for held in b.r.held]  # every card a seat holds
    if start == "start_phase":
        st.turn -= 1  # S1 counts the turn up
    st.agenda = [] if start is None else [["start_phase" if start == "start_phase" else "select"]]
    _checked(st, deck_rules, limits, at_rest=False)
    if start is None:
        return st
    if square is not None:
        b.check_actor(square)
        begin_action(st, square)
    flow.run(st)
    return _checked(st, deck_rules, limits, at_rest=True)


def _checked(st: GameState, deck_rules: bool, limits: bool, at_rest: bool) -> GameState:
    """``st`` once the rules check passes with the builder's options (its refusal as a ``PositionError``)."""
    return Reader.checked(st, check, deck_rules=deck_rules, limits=limits, at_rest=at_rest)


class _Builder:
    """The state of one position, filled zone by zone from what the reader accepts."""

    def __init__(self, config: RulesConfig, pool: Any, seed: int, rng: random.Random | None) -> None:
        cards = pool if isinstance(pool, CardPool) else load_pool() if pool is None else load_pool(pool)
        self.r = Reader(cards)
        self.st = GameState(config, cards, [[], []], seed)
        if rng is not None:
            self.st.rng = rng

    def read(self, hp: Any, turn: Any, first: Any, zones: tuple[Any, ...], stocks: Any, masters: Any) -> None:
        """The numbers, the card zones (decks given top first), the stocks and the masters."""
        r, st, cfg = self.r, self.st, self.st.config
        st.turn = r.whole("turn", turn, 1, cfg.max_turns, "4.1, L5")
        st.first = r.whole("first", first, 0, 1, "D39")
        if hp is not None:
            hps = enumerate(r.per_seat("hp", hp))
            st.hp = [r.whole(f"{seat_name(p)} HP", v, 0, rule="4.1, I2") for p, v in hps]
        for (arg, name), value in zip(_ZONES, zones, strict=True):
            for p, z in enumerate(r.per_seat(arg, value, None)):
                getattr(st, name)[p] = r.cards(f"{seat_name(p)} {name}", [] if z is None else z, p)
        st.deck = [d[::-1] for d in st.deck]  # the engine draws from the end
        for p, n in enumerate(map(len, st.hand)):
            if n > cfg.hand_cap:
                fail(f"{seat_name(p)} hand", f"{n} cards; the encoding has {cfg.hand_cap} slots (hand_cap)")
        for p, row in enumerate(r.per_seat("stocks", stocks, None)):
            where = f"{seat_name(p)} stock"
            if row is not None and not is_list(row):
                fail(where, f"give a list of up to {STOCK_SLOTS} slots, got {row!r}")
            if row is not None and len(row) > STOCK_SLOTS:
                fail(where, f"{len(row)} slots given; the stock holds at most {STOCK_SLOTS}", "R12, R18, D25")
            for j, spec in enumerate(row or ()):
                st.stock[p][j] = self.slot(f"{where} slot {j}", p, spec, stock=True)
        for p, spec in enumerate(r.per_seat("masters", masters, None)):
            st.master[p] = self.slot(f"{seat_name(p)} master", p, spec, stock=False)

    def slot(self, where: str, p: int, spec: Any, stock: bool) -> Slot | None:
        """A stock or master slot; a face-up stock card is in use (4.1), a master only with ``effect``."""
        if spec is None:
            return None
        r = self.r
        f = r.record(where, spec, _SLOT_KEYS, {"face_up": not stock, "effect": None, "charge": 0}, "card")
        c = r.card(where, f["card"], p, (MEDAROTER,), "R11, R12, R18")
        face_up = r.flag(f"{where} face_up", f["face_up"])
        s = Slot(card=c.id, face_up=face_up, charge=r.whole(f"{where} charge", f["charge"], 0, rule="P4"))
        if f["effect"] is not None and not face_up:
            fail(where, "a card in use is face up; drop 'effect' or set face_up", "D26")
        if f["effect"] is not None or (stock and face_up):
            self.use(where, s, c, f["effect"])
        return s

    def use(self, where: str, s: Slot, c: Any, eff: Any) -> None:
        """Mark slot ``s`` in use with effect ``eff`` (default: the card's only effect)."""
        if eff is None and len(c.effects) != 1:
            fail(where, f"{c.id} has {len(c.effects)} effects; say which is in use ('effect')")
        eff = self.r.whole(f"{where} effect", 0 if eff is None else eff, 0, len(c.effects) - 1)
        s.face_up, s.eff, s.trash = True, eff, c.effects[eff].trash

    def place(self, board: Any) -> None:
        """Every Medarot of ``board`` on its square, in the order given (uids follow it)."""
        if board is None:
            return
        r, st = self.r, self.st
        for item in board.items() if isinstance(board, Mapping) else board:
            if not is_list(item) or len(item) != 2:
                fail("board", f"give square -> Medarot or (square, Medarot) pairs, got {item!r}")
            square = r.whole("board square", item[0], 0, SQUARES - 1, "s = 5 * row + column, 4.2")
            where = f"square {square}"
            if st.board[square] is not None:
                fail(where, "given twice; a square holds one Medarot", "D8")
            defaults = {"owner": None, "face_up": True, "placed": None, "acted": False, "change": None}
            f = r.record(where, item[1], _UNIT_KEYS, defaults, "card")
            owner = f["owner"]
            if owner is None and square // 5 == NEUTRAL_ROW:
                fail(where, f"in the neutral row: give its owner, e.g. ({f['card']!r}, 0)")
            owner = r.whole(f"{where} owner", (square // 5) // 2 if owner is None else owner, 0, 1)
            where = f"{seat_name(owner)} square {square}"
            c = r.card(where, f["card"], owner)
            if c.kind != MEDAROT:
                top = "; a MedaChange card goes on top of its Medarot with 'change'" * (c.kind == MEDACHANGE)
                fail(where, f"{c.id} is a {c.kind} card; only Medarots stand on the board{top}", "D8, R47")
            change = f["change"]
            if change is not None:
                change = r.card(f"{where} change", change, owner, (MEDACHANGE,), "R47").id
            up = r.flag(f"{where} face_up", f["face_up"])
            flags = {
                "face_up": up,
                "acted": f["acted"],
                "placed": not up if f["placed"] is None else f["placed"],
            }
            flags = {k: r.flag(f"{where} {k}", v, "D14, D15") for k, v in flags.items()}
            st.board[square] = Stack(uid=st.next_uid, owner=owner, base=c.id, change=change, **flags)
            st.next_uid += 1

    def lasting(self, effects: Any) -> None:
        """Each lasting effect in play, from the Medarot or the Medaroter that left it (D26, D37, D45)."""
        if isinstance(effects, Mapping):
            effects = [effects]
        if not is_list(effects):
            fail("effects", f"give a list of mappings, each with a source and targets; got {effects!r}")
        r, st = self.r, self.st
        for n, spec in enumerate(effects):
            where = f"effects[{n}]"
            f = r.record(where, spec, _EFFECT_KEYS, dict.fromkeys(_EFFECT_KEYS))
            given = [k for k in ("square", "stock", "master") if f[k] is not None]
            if len(given) != 1:
                fail(where, "name exactly one source: 'square', 'stock' or 'master'")
            if given == ["square"]:
                sq = f["square"]
                x = st.board[sq] if is_int(sq) and 0 <= sq < SQUARES else None
                if x is None:
                    fail(where, f"source square {sq!r} holds no Medarot")
                where = f"{where} ({seat_name(x.owner)} square {sq})"
                c = r.pool[x.change or x.base]
                if not c.effects or f["effect"] not in (None, 0):
                    fail(where, f"{c.id} has {len(c.effects)} effects; a Medarot's effect is effect 0")
                self.add(where, c.effects[0], f["targets"], owner=x.owner, src_uid=x.uid, src_slot=-1)
                continue
            if given == ["stock"]:
                ref = f["stock"]
                if not is_list(ref) or len(ref) != 2:
                    fail(where, f"'stock' is (seat, slot), got {ref!r}")
                p = r.whole(f"{where} stock seat", ref[0], 0, 1)
                j = r.whole(f"{where} stock slot", ref[1], 0, STOCK_SLOTS - 1)
                s, label = st.stock[p][j], f"{seat_name(p)} stock slot {j}"
            else:
                p, j = r.whole(f"{where} master", f["master"], 0, 1), MASTER_SLOT
                s, label = st.master[p], f"{seat_name(p)} master"
            if s is None:
                fail(where, f"{label} is empty")
            where = f"{where} ({label})"
            if j == MASTER_SLOT and not s.face_up:
                fail(where, "a face-down master has not been used", "D36")
            c = r.pool[s.card]
            eff = f["effect"] if f["effect"] is not None else s.eff if s.eff >= 0 else None
            if eff is None:
                only = [i for i, e in enumerate(c.effects) if e.op in LASTING_OPS]
                eff = only[0] if len(only) == 1 else None
            if s.eff >= 0 and eff != s.eff:
                fail(where, f"the card is in use with effect {s.eff}, not {eff!r}")
            self.use(where, s, c, eff)
            self.add(where, c.effects[s.eff], f["targets"], owner=p, src_uid=-1, src_slot=4 * p + j)

    def add(self, where: str, e: Effect, targets: Any, **source: int) -> None:
        """The ``Eff`` record the rules leave for effect ``e`` of ``source`` (its user, source uid and slot)."""
        st = self.st
        uids, scope, flt = None, source["owner"], "ANY"
        if e.op not in LASTING_OPS:  # an instant effect: the rules check refuses the record (I10)
            targets = None
        if e.target in PLAYER_TARGETS:
            if targets:
                fail(where, f"{e.op} applies to a player; give no targets")
        else:
            if not is_list(targets) or not targets:
                fail(where, f"give 'targets', the squares of the Medarots {e.op} applies to")
            units = []
            for s in targets:
                x = st.board[s] if is_int(s) and 0 <= s < SQUARES else None
                if x is None:
                    fail(where, f"target square {s!r} holds no Medarot")
                kind = self.r.pool[x.change or x.base].type
                if e.type_filter not in ("ANY", kind):
                    fail(where, f"target square {s} is {kind}; the effect is for {e.type_filter}", "4.4")
                units.append(x)
            uids, scope, flt = [x.uid for x in units], -1, e.type_filter
            if source["src_uid"] < 0 and e.op in MOD_OPS and e.trash == "END_OF_TURN":
                owners = {x.owner for x in units}
                if len(owners) != 1:
                    fail(where, "an END_OF_TURN modifier covers one seat's Medarots", "D45")
                uids, scope = None, owners.pop()
        record = Eff(op=e.op, amount=e.amount, flt=flt, targets=uids, scope=scope, trash=e.trash, **source)
        st.effects.append(record)

    def check_actor(self, square: int) -> None:
        """``start=square``: the Medarot there may act now (D14, D15)."""
        x = self.st.board[square]
        if x is None:
            fail("start", f"square {square} holds no Medarot to begin its action")
        why = "it is face down" if not x.face_up else "it was placed this turn" if x.placed else ""
        why = why or ("it has already acted this turn" if x.acted else "")
        if why:
            who = f"{seat_name(x.owner)}'s Medarot on square {square}"
            fail("start", f"{who} cannot act now: {why}", "D14, D15")
