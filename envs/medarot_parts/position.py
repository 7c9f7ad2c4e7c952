"""Position builder of the Medarot parts game: set up any position and ask an agent about it.

``position(...)`` takes a position described zone by zone (spec ``docs/rules/medarot_parts.md``
section 4.1), checks it against the rules, builds the ``GameState``, then runs the automatic
steps (the rules' tasks and the forced decisions, D37) up to the first decision, so that
``state.legal_actions()`` is ready. A position the rules cannot hold raises
``envs.core.errors.PositionError`` (a ``StateError``, so a ``ValueError``) whose message names
the seat, the zone or slot and the rule.

Example: seat 0 at its turn-to-act in round 1, its right arm already used this round::

    from deckgym.envs.medarot_parts.position import position

    st = position(
        field=(
            (
                ("M0", "H02", {"card": "R02", "tapped": True}, "L01", "G02"),
                ("M2", "H01", "R06", "L02", "G01"),
            ),
            (
                ("M1", {"card": "H04", "counters": 3}, "R01", "L06", "G05"),
                ("M2", "H06", "R04", {"card": "L05", "destroyed": True}, "G03"),
            ),
        ),
        hands=(("EV", "C06"), ("EV",)),
        decks=(("EN_SHOOT",) * 10, ("EN_MELEE",) * 10),  # top card first
        stocks=(("EN_SHOOT", ("EN_SHOOT", True)), ("EN_MELEE",)),
        turn=3,
        start="action",
        action_medarots=(0, 0),
        first=0,
    )
    st.legal_actions()  # [PASS, USE_PART(head), USE_PART(left arm)]

    from deckgym import agents

    agents.make("heuristic", "medarot_parts_v1").choose(st, st.current_player)
    agents.make("search:8", "medarot_parts_v1", seed=1).choose(st, st.current_player)

An agent's ``choose(state, seat)`` reads the engine state and needs no env; ask it for the seat
to move (``state.current_player``). The search agent samples the hidden cards (the opponent's
hand and both deck orders, ``GameState.resample_hidden``) and plays rollouts to the end of the
game, so give the position enough deck cards for the turns you care about.

Describing a position:

* ``field[seat]`` is the seat's 2 medarots (D1). A medarot is ``(medal, head, right arm, left
  arm, legs)`` or a mapping with keys ``medal``, ``head``, ``right_arm``, ``left_arm``,
  ``legs``. A medal is a card id or ``{"card": id, "tapped": bool}``. A part is a card id or a
  mapping with ``card`` and optionally ``tapped``, ``destroyed``, ``counters`` (damage
  counters), ``effect`` (the effect card on a melee effect part), ``effect_target`` (the
  opposing medarot its OPP_SLOT effect is bound to, D28) and ``attached`` (ATTACHED medaroter
  cards, D31). A destroyed part is tapped and holds no counters or cards (R22); a medarot whose
  head is destroyed is stopped (D33).
* ``hands``, ``decks`` (top card first), ``trash`` and ``play`` (the play area) are per seat
  lists of card ids; ``stocks`` (the energy stocks) hold card ids (untapped) or ``(id, tapped)``
  pairs. Hands are kept in the canonical order (sorted, D40).
* ``start`` is the step the position starts at (``START_STEPS``); ``turn``, ``round``,
  ``priority`` (the seat with priority this turn, D5), ``action_medarots``, ``first`` (the
  round's first player, D9), ``to_act`` (the turn-to-act holder, D12) and ``passes`` (passes in
  a row so far) place it in the turn.
* ``modifiers`` are lasting modifiers, one mapping each: ``stat`` (``"power"`` or
  ``"charge"``), ``amount``, and either ``part=(seat, medarot, slot)`` (it follows that part)
  or ``seat``, ``medarot`` and ``slots`` (bound to those slots, D42: it also applies to a part
  exchanged in). They last until the next reset phase (TURN duration), as the modifiers of
  support parts (D30) and of TURN medaroter cards do. The modifiers of effect cards (D28) and
  of ATTACHED medaroter cards are not given here: the builder adds them from the cards on the
  parts.
* any other keyword is a ``RulesConfig`` option (``envs.medarot_parts.config.make_config``
  keys, e.g. ``max_turns=4``); with ``vacant_seat=True`` seat 1 holds nothing and seat 0 has
  priority.

Part uids are assigned in field order: seat 0 medarot 0 head, right arm, left arm, legs (1-4),
seat 0 medarot 1 (5-8), then seat 1 (9-16).

Mid-turn situations it can express:

* a part, medal or energy card is tapped (it was used this turn), a part is destroyed, a
  medarot is stopped, parts hold damage counters;
* a medarot already acted this round or an earlier round (its legs are tapped, D15, R28); the
  action medarots of the round, its first player, who holds the turn-to-act and whether the
  other player has just passed (``passes=1``); round 1 or 2 of a turn;
* an effect card is attached (its binding is active), ATTACHED medaroter cards on a part (their
  modifiers are active), TURN medaroter cards in play, TURN modifiers on slots or parts;
* any hand, deck order, trash, energy stock and assets; the start of a turn, its draw phase, a
  new round (the rules then determine the action medarots and ask a tie, DP1), the energy
  step, the action step, the end phase (discards, DP16).

It cannot express (be explicit about these when you set up a study):

* anything inside a battle (steps B1-B9: power and defence windows, the response, the protect
  amount, the allocation, the effect step), a payment under way (DP4), a medaroter card or
  support part being resolved (targets, DP15), or a repair being resolved; start at the
  action step before the attack and play the decisions with ``state.apply`` instead;
* BATTLE-duration modifiers and cards (they exist only during a battle), a decision part-way
  through a step (e.g. the second discard of the end phase), setup (use
  ``envs.medarot_parts.rules.new_game``), a finished game, and the event log of past play;
* the players' original deck lists: ``GameState.decks`` records each seat's field medarots as
  its starters and every other card the seat holds as its deck list; the card total of a seat
  (50, invariant 1) is only bounded, not required, so a study may leave cards out.

What it checks: card ids (against the pool), card types per zone and slot, 2 medarots per seat
(D1), counters below armor (R18) and the other part states (R22, R23, D33), copies of a card
across a seat's zones (D2: ``max_copies`` in the deck plus up to 2 starter copies of a part;
``deck_rules=False`` lifts this and the card-total bound), hand size (D36), assets, turn, round
and seat values, the start step and what it implies (the energy step's action medarots and
first player follow D9; round 2 follows round 1, D15; the end phase needs every legs tapped,
D16; the draw phase follows the reset, D7), modifiers, and that the game is not already over
(D34). It does not re-derive a given first player or turn-to-act at the action step (any seat
may hold it), nor check that a TURN card in play has its modifiers. Last, the built and run
state goes through ``rules.check`` (every invariant of section 10 one position shows); a
refusal names the spec item it applies first, e.g. ``D3 seat 0 assets: ...``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.medarot_parts.cards import (
    ATTACHED,
    EFFECT,
    ENERGY,
    LEGS,
    MEDAL,
    MEDAROTER,
    PART,
    SLOTS,
    TURN,
    CardDef,
    CardPool,
    Target,
    load_pool,
)
from deckgym.envs.medarot_parts.config import RulesConfig, make_config
from deckgym.envs.medarot_parts.rules import check as check_rules
from deckgym.envs.medarot_parts.rules import flow, phases
from deckgym.envs.medarot_parts.rules.values import mobility
from deckgym.envs.medarot_parts.state import (
    STAT_CHARGE,
    STAT_POWER,
    UNTIL_CARD,
    UNTIL_TURN,
    GameState,
    Medarot,
    Part,
)

__all__ = ["START_STEPS", "position"]

#: The steps a position can start at, and what runs from there.
START_STEPS: dict[str, str] = {
    "turn": "the start of turn `turn`: reset phase (D7), draw phase (D8), then the main phase",
    "draw": "the draw phase (D8) of turn `turn`, its reset phase over",
    "round": "a new round `round` of the main phase: action medarot determination (D9, DP1), energy "
    "step, action step",
    "energy": "the energy step (D11, DP2) of round `round`: `to_act` (default `first`) places energy first",
    "action": "the action step (D12, DP3) of round `round`: `to_act` (default `first`) holds the turn-to-act",
    "end": "the end phase (D17, DP16) of turn `turn`",
}
#: Slot names of a medarot mapping, in slot order.
SLOT_KEYS = ("head", "right_arm", "left_arm", "legs")
_SLOT_WORDS = ("head", "right arm", "left arm", "legs")
_MEDAROT_KEYS = frozenset({"medal", *SLOT_KEYS})
_MEDAL_KEYS = frozenset({"card", "tapped"})
_PART_KEYS = frozenset({"card", "tapped", "destroyed", "counters", "effect", "effect_target", "attached"})
_MOD_KEYS = frozenset({"stat", "amount", "part", "seat", "medarot", "slots", "until"})
_ROUND_STARTS = frozenset({"round", "energy", "action"})
_SET_ROUND = frozenset({"energy", "action"})  # the starts whose action medarots and players are given
_STARTER_PART_COPIES = 2  # a starter set holds one part per slot per medarot (D2)


def _fail(where: str, detail: str, item: str = "") -> NoReturn:
    """Refuse the position: ``item`` is the spec item the refusal applies when ``detail`` names none."""
    raise PositionError(f"{item} {where}: {detail}" if item else f"{where}: {detail}")


def _is_seq(v: Any) -> bool:
    return isinstance(v, Sequence) and not isinstance(v, str)


def _int(v: Any, where: str, what: str, lo: int, hi: int, item: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _fail(where, f"{what} must be a whole number in {lo}..{hi}, got {v!r}", item)
    return v


def _flag(v: Any, where: str, what: str) -> bool:
    if not isinstance(v, bool):
        _fail(where, f"{what} must be True or False, got {v!r}", "4.2")
    return v


def _per_seat(value: Any, name: str, item: str = "4.1") -> list[Any]:
    if not _is_seq(value) or len(value) != 2:
        _fail(name, f"give one entry per seat (2), got {value!r}", item)
    return list(value)


def _seat_where(p: int, zone: str) -> str:
    return f"seat {p} {zone}"


def _slot_index(v: Any, where: str) -> int:
    """A slot given as 0..3 or a name (``"right_arm"``, ``"right arm"``, ``"RIGHT_ARM"``)."""
    if isinstance(v, str):
        key = v.strip().lower().replace(" ", "_")
        if key in SLOT_KEYS:
            return SLOT_KEYS.index(key)
    elif isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 4:
        return v
    _fail(where, f"unknown slot {v!r}; slots are 0..3 or {', '.join(SLOT_KEYS)}", "4.2")


# ----------------------------------------------------------------------------- cards
class _Reader:
    """Reads cards against the pool and keeps each seat's cards for the copy limits."""

    def __init__(self, pool: CardPool) -> None:
        self.pool = pool
        self.held: list[list[tuple[str, str]]] = [[], []]  # per seat: (card id, zone)

    def card(self, cid: Any, where: str, seat: int) -> CardDef:
        if not isinstance(cid, str):
            _fail(where, f"a card is given by its id (a string), got {cid!r}", "4.2")
        if cid not in self.pool:
            _fail(where, f"unknown card id {cid!r} (pool {', '.join(self.pool.files)})", "4.2")
        self.held[seat].append((cid, where))
        return self.pool[cid]

    def zone(
        self, cards: Any, where: str, seat: int, allowed: Sequence[str], rule: str, item: str = ""
    ) -> list[str]:
        """Card ids of a zone, each of a type in ``allowed`` (``item``: the rule when ``rule`` names none)."""
        if not _is_seq(cards):
            _fail(where, f"a zone is a list of card ids, got {cards!r}", "4.1")
        out = []
        for i, cid in enumerate(cards):
            card = self.card(cid, f"{where} (card {i})", seat)
            if card.type not in allowed:
                _fail(where, f"{cid!r} is a {card.type} card; this zone holds {rule}", item)
            out.append(cid)
        return out


# ----------------------------------------------------------------------------- field
def _medarot(
    rd: _Reader, raw: Any, p: int, m: int, uid: int, targets: dict[tuple[int, int, int], int]
) -> Medarot:
    where = f"seat {p} medarot {m}"
    if isinstance(raw, Mapping):
        unknown = set(raw) - _MEDAROT_KEYS
        missing = _MEDAROT_KEYS - set(raw)
        if unknown or missing:
            _fail(where, f"a medarot mapping has exactly the keys {', '.join(['medal', *SLOT_KEYS])}", "D1")
        medal_raw, entries = raw["medal"], [raw[k] for k in SLOT_KEYS]
    elif _is_seq(raw) and len(raw) == 5:
        medal_raw, entries = raw[0], list(raw[1:])
    else:
        _fail(where, f"a medarot is 5 cards: medal, head, right arm, left arm, legs (D1), got {raw!r}")
    medal, medal_tapped = _medal(rd, medal_raw, f"{where} medal", p)
    parts = [_part(rd, e, f"{where} {_SLOT_WORDS[s]}", p, s, uid + s) for s, e in enumerate(entries)]
    for s, (_, target) in enumerate(parts):
        if target is not None:
            targets[(p, m, s)] = target
    med = Medarot(medal, [x[0] for x in parts], medal_tapped)
    if med.stopped:
        for s, part in enumerate(med.parts):
            if part.effect is not None or part.attached:
                _fail(
                    f"{where} {_SLOT_WORDS[s]}",
                    "the medarot is stopped (head destroyed): its attached cards are trashed (D33)",
                )
    return med


def _medal(rd: _Reader, raw: Any, where: str, p: int) -> tuple[str, bool]:
    tapped = False
    if isinstance(raw, Mapping):
        if set(raw) - _MEDAL_KEYS or "card" not in raw:
            _fail(where, "a medal mapping has the keys card and optionally tapped", "4.2")
        tapped = _flag(raw.get("tapped", False), where, "tapped")
        raw = raw["card"]
    card = rd.card(raw, where, p)
    if card.type != MEDAL:
        _fail(where, f"{raw!r} is a {card.type} card, not a medal: a medarot is 1 medal + 4 parts (D1)")
    return raw, tapped


def _part(rd: _Reader, raw: Any, where: str, p: int, s: int, uid: int) -> tuple[Part, int | None]:
    """The part in slot ``s`` and the opposing medarot its OPP_SLOT effect is bound to (or None)."""
    spec: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {"card": raw}
    unknown = set(spec) - _PART_KEYS
    if unknown or "card" not in spec:
        _fail(
            where,
            f"a part mapping has the key card and optionally {', '.join(sorted(_PART_KEYS - {'card'}))}",
            "4.2",
        )
    cid = spec["card"]
    card = rd.card(cid, where, p)
    if card.type != PART or card.slot != s:
        what = f"a {SLOTS[card.slot]} part" if card.type == PART else f"a {card.type} card"
        _fail(where, f"{cid!r} ({card.name}) is {what}; this slot takes a {SLOTS[s]} part (D1)")
    destroyed = _flag(spec.get("destroyed", False), where, "destroyed")
    tapped = _flag(spec.get("tapped", destroyed), where, "tapped")
    counters = _int(spec.get("counters", 0), where, "counters", 0, 99, "R16")
    if destroyed and not tapped:
        _fail(where, "a destroyed part is tapped (R22)")
    if destroyed and counters:
        _fail(where, "a destroyed part holds no counters: they are removed when it is destroyed (R22)")
    if counters >= card.armor:
        _fail(
            where,
            f"{counters} counters on armor {card.armor}: a part with counters >= armor is destroyed "
            f"(R18); at most {card.armor - 1}",
        )
    effect, target = _effect(rd, spec, card, where, p, destroyed)
    attached = rd.zone(
        spec.get("attached", ()), f"{where} attached cards", p, (MEDAROTER,), "ATTACHED cards", "D31"
    )
    for cid2 in attached:
        if rd.pool[cid2].duration != ATTACHED:
            _fail(where, f"{cid2!r} is not an ATTACHED medaroter card; only those stay on a part (D31)")
    if attached and destroyed:
        _fail(where, "a destroyed part has no attached cards: they are trashed (R22)")
    return Part(uid, cid, tapped, destroyed, counters, effect, list(attached)), target


def _effect(
    rd: _Reader, spec: Mapping[str, Any], card: CardDef, where: str, p: int, destroyed: bool
) -> tuple[str | None, int | None]:
    effect = spec.get("effect")
    target = spec.get("effect_target")
    if effect is None:
        if target is not None:
            _fail(where, "effect_target needs an effect card on the part", "D28")
        return None, None
    ecard = rd.card(effect, f"{where} effect card", p)
    if ecard.type != EFFECT:
        _fail(
            where, f"{effect!r} is a {ecard.type} card; only an effect card is attached as the effect (R24)"
        )
    if not card.effect_part:
        _fail(where, f"{card.id!r} is not a melee effect part; only those take an effect card (R23, R24)")
    if destroyed:
        _fail(where, "a destroyed part has no effect card: it is trashed (R22)")
    ab = next(a for a in card.abilities if a.source == "EFFECT")
    if ab.target == Target.OPP_SLOT:
        if target is None:
            _fail(where, "give effect_target: the opposing medarot the effect is bound to (R26, D28)")
        return effect, _int(target, where, "effect_target", 0, 1, "D28")
    if target is not None:
        _fail(where, f"the effect of {card.id!r} applies to the part itself (SELF): no effect_target", "D28")
    return effect, None


def _effect_mods(st: GameState, targets: dict[tuple[int, int, int], int]) -> list[list[int]]:
    """The modifiers of the effect cards and ATTACHED cards on the parts (D28, D42), in field order."""
    out = []
    for p, row in enumerate(st.field):
        for m, med in enumerate(row):
            for s, part in enumerate(med.parts):
                if part.effect is not None:
                    ab = next(a for a in st.cards[part.card].abilities if a.source == "EFFECT")
                    stat = STAT_POWER if ab.op == "POWER" else STAT_CHARGE
                    if ab.target == Target.OPP_SLOT:
                        ti = targets[(p, m, s)]
                        if ti >= len(st.field[1 - p]):
                            _fail(
                                f"seat {p} medarot {m} {_SLOT_WORDS[s]}",
                                f"seat {1 - p} has no medarot {ti}",
                                "D28",
                            )
                        out.append([stat, ab.amount, -1, 1 - p, ti, 1 << ab.slot, UNTIL_CARD, part.uid])
                    else:
                        out.append([stat, ab.amount, part.uid, -1, -1, 0, UNTIL_CARD, part.uid])
                for cid in part.attached:
                    for ab in st.cards[cid].abilities:
                        stat = STAT_POWER if ab.op == "POWER" else STAT_CHARGE
                        out.append([stat, ab.amount, part.uid, -1, -1, 0, UNTIL_CARD, part.uid])
    return out


# ----------------------------------------------------------------------------- zones
def _stock(rd: _Reader, raw: Any, p: int) -> list[list[Any]]:
    where = _seat_where(p, "energy stock")
    if not _is_seq(raw):
        _fail(where, f"a stock is a list of card ids or (id, tapped) pairs, got {raw!r}", "4.1")
    out: list[list[Any]] = []
    for i, entry in enumerate(raw):
        if isinstance(entry, str):
            cid, tapped = entry, False
        elif _is_seq(entry) and len(entry) == 2:
            cid, tapped = entry[0], _flag(entry[1], where, "tapped")
        else:
            _fail(where, f"card {i}: give a card id or an (id, tapped) pair, got {entry!r}", "4.1")
        card = rd.card(cid, f"{where} (card {i})", p)
        if card.type != ENERGY:
            _fail(where, f"{cid!r} is a {card.type} card; the energy stock holds energy cards (D11)")
        out.append([cid, tapped])
    return out


def _zones(rd: _Reader, st: GameState, p: int, kw: dict[str, Any]) -> None:
    """Hand, deck (top first), trash and play area of seat ``p``."""
    no_medal = ("PART", "ENERGY", "MEDAROTER", "EVADE", "EFFECT")
    rule = "no medal: medals stay on the field (D2)"
    hand = rd.zone(kw["hands"][p], _seat_where(p, "hand"), p, no_medal, rule)
    if len(hand) > st.config.hand_cap:
        _fail(_seat_where(p, "hand"), f"{len(hand)} cards; a hand holds at most {st.config.hand_cap} (D36)")
    deck = rd.zone(kw["decks"][p], _seat_where(p, "deck"), p, no_medal, rule)
    trash = rd.zone(kw["trash"][p], _seat_where(p, "trash"), p, no_medal, rule)
    play = rd.zone(kw["play"][p], _seat_where(p, "play area"), p, (MEDAROTER,), "medaroter cards", "D31")
    for cid in play:
        if rd.pool[cid].duration != TURN:
            _fail(
                _seat_where(p, "play area"),
                f"{cid!r} is not a TURN medaroter card: outside a battle and a card's resolution the play "
                "area holds TURN cards only (D31)",
            )
    st.hand[p] = sorted(hand)
    st.deck[p] = deck[::-1]  # the engine keeps the top card last
    st.trash[p] = trash
    st.play[p] = play
    st.stock[p] = _stock(rd, kw["stocks"][p], p)


def _copies(rd: _Reader, p: int, config: RulesConfig) -> None:
    """D2: copies of each non-energy card name across the seat's zones; the seat's card total."""
    counts: dict[str, int] = {}
    for cid, _ in rd.held[p]:
        card = rd.pool[cid]
        if card.type not in (ENERGY, MEDAL):
            counts[cid] = counts.get(cid, 0) + 1
    for cid, n in counts.items():
        card = rd.pool[cid]
        limit = config.max_copies + (_STARTER_PART_COPIES if card.type == PART else 0)
        if n > limit:
            extra = f" plus {_STARTER_PART_COPIES} in the starter set" if card.type == PART else ""
            _fail(
                f"seat {p}",
                f"{n} copies of {card.name!r} ({cid}) across its zones; at most {limit} "
                f"({config.max_copies} in the deck{extra}, D2)",
            )
    total = len(rd.held[p])
    most = config.deck_size + 10
    if total > most:
        _fail(f"seat {p}", f"{total} cards across its zones; a seat has {most} (deck + starter set, D2)")


# ----------------------------------------------------------------------------- modifiers
def _address(st: GameState, raw: Any, where: str) -> tuple[int, int, int]:
    if not _is_seq(raw) or len(raw) != 3:
        _fail(where, f"part is (seat, medarot, slot), got {raw!r}", "D42")
    p = _int(raw[0], where, "seat", 0, 1, "D42")
    m = _int(raw[1], where, "medarot", 0, max(0, len(st.field[p]) - 1), "D42")
    if not st.field[p]:
        _fail(where, f"seat {p} has no medarot", "D42")
    return p, m, _slot_index(raw[2], where)


def _modifier(st: GameState, raw: Any, i: int) -> list[int]:
    where = f"modifier {i}"
    if not isinstance(raw, Mapping) or set(raw) - _MOD_KEYS:
        _fail(where, f"a modifier is a mapping with keys among {', '.join(sorted(_MOD_KEYS))}", "D42")
    stat_name = str(raw.get("stat", "")).upper()
    if stat_name not in ("POWER", "CHARGE"):
        _fail(where, f"stat must be 'power' or 'charge', got {raw.get('stat')!r}", "4.3")
    top = 3 if stat_name == "POWER" else 2
    amount = _int(raw.get("amount"), where, "amount", -top, top, "4.3")
    if amount == 0:
        _fail(where, "amount must not be 0 (4.3)")
    until = str(raw.get("until", "turn")).lower()
    if until == "battle":
        _fail(
            where, "a BATTLE modifier lasts only during a battle, which a built position cannot hold", "D31"
        )
    if until == "card":
        _fail(
            where,
            "card modifiers come from the effect and ATTACHED cards on the parts: put those cards there",
            "D42",
        )
    if until != "turn":
        _fail(where, f"until must be 'turn', got {raw.get('until')!r}", "D42")
    stat = STAT_POWER if stat_name == "POWER" else STAT_CHARGE
    if "part" in raw:
        if {"seat", "medarot", "slots"} & set(raw):
            _fail(where, "give either part=(seat, medarot, slot) or seat, medarot and slots, not both", "D42")
        p, m, s = _address(st, raw["part"], where)
        if s == LEGS:
            _fail(where, "legs have no power or charge to modify (D39)")
        return [stat, amount, st.field[p][m].parts[s].uid, -1, -1, 0, UNTIL_TURN, -1]
    p, m, _ = _address(st, (raw.get("seat"), raw.get("medarot"), 0), where)
    slots = raw.get("slots")
    if not _is_seq(slots) or not slots:
        _fail(where, "give slots: the head and arm slots the modifier is bound to (D42)")
    mask = 0
    for v in slots:
        s = _slot_index(v, where)
        if s == LEGS:
            _fail(where, "legs have no power or charge to modify (D39)")
        mask |= 1 << s
    return [stat, amount, -1, p, m, mask, UNTIL_TURN, -1]


# ----------------------------------------------------------------------------- start step
def _round_checks(st: GameState, start: str, round_no: int) -> None:
    """Round 2 follows round 1 (D15); the energy step follows D9; the end phase follows D16."""
    for p in phases.seated(st):
        field = st.field[p]
        ready = [i for i, med in enumerate(field) if not med.stopped and not med.parts[LEGS].tapped]
        if start == "end" and ready:
            _fail(
                f"seat {p} medarot {ready[0]} legs",
                "untapped: the main phase ends only when no medarot can act (D16); tap the legs",
            )
        if start in _ROUND_STARTS and round_no == 2:
            others = [i for i in ready if i != st.action_medarot[p]] if start != "round" else ready[1:]
            if others:
                _fail(
                    f"seat {p} medarot {others[0]} legs",
                    "untapped in round 2: round 1 tapped the legs of each seat's action medarot (D15), "
                    "so a seat has at most one medarot left to act",
                )
        if start == "energy":
            cands = phases.candidates(st, p)
            m = st.action_medarot[p]
            if m < 0 and cands:
                _fail(f"seat {p} action medarot", f"none, but medarot {cands[0]} is a candidate (D9)")
            if m >= 0:
                best = max((mobility(st, p, i) for i in cands), default=-1)
                if m not in cands or mobility(st, p, m) != best:
                    _fail(
                        f"seat {p} action medarot",
                        f"medarot {m} is not a fastest candidate (non-stopped, legs untapped, D9)",
                    )


def _d9_action_medarot(st: GameState, p: int) -> int:
    cands = phases.candidates(st, p)
    if not cands:
        return -1
    best = max(mobility(st, p, i) for i in cands)
    return next(i for i in cands if mobility(st, p, i) == best)


def _d9_first(st: GameState) -> int:
    a0, a1 = st.action_medarot
    if a0 < 0 and a1 < 0:
        return st.priority
    if a0 < 0 or a1 < 0:
        return 0 if a0 >= 0 else 1
    m0, m1 = mobility(st, 0, a0), mobility(st, 1, a1)
    return st.priority if m0 == m1 else (0 if m0 > m1 else 1)


def _action_medarots(st: GameState, value: Any) -> list[int]:
    if value is None:
        return [_d9_action_medarot(st, p) if p in phases.seated(st) else -1 for p in (0, 1)]
    out = []
    for p, m in enumerate(_per_seat(value, "action_medarots", "D9")):
        where = f"seat {p} action medarot"
        m = -1 if m is None else _int(m, where, "action medarot", -1, len(st.field[p]) - 1, "D9")
        if m >= 0 and st.field[p][m].stopped:
            _fail(where, f"medarot {m} is stopped (head destroyed): it is never an action medarot (D33)")
        out.append(m)
    return out


def _place_in_turn(st: GameState, start: str, opts: dict[str, Any]) -> None:
    """Set the turn, round and player fields of ``start`` and the agenda that runs from it."""
    turn, round_no = opts["turn"], opts["round"]
    if start not in _SET_ROUND:
        for key in ("action_medarots", "first", "to_act"):
            if opts[key] is not None:
                _fail(
                    key,
                    f"set by the rules at start step {start!r}; give it only at 'energy' or 'action'",
                    "D9",
                )
    if start != "action" and opts["passes"]:
        _fail("passes", "passes in a row count only at the action step (start='action', D12)")
    st.turn = turn
    st.round = round_no
    if start == "turn":
        st.turn, st.round = turn - 1, 0
        st.agenda = [["turn_start"]]
    elif start == "draw":
        flow.push(st, ["draw_phase"], ["recycle_step"])
    elif start == "round":
        st.round = round_no - 1
        st.agenda = [["recycle_step"]]
    elif start == "end":
        st.agenda = [["end_phase"]]
    else:
        st.action_medarot = _action_medarots(st, opts["action_medarots"])
        if st.config.vacant_seat and st.action_medarot[1] >= 0:
            _fail("seat 1 action medarot", "a vacant seat has no medarot", "D9")
        first = (
            _d9_first(st)
            if opts["first"] is None
            else _int(opts["first"], "first", "first player", 0, 1, "D9")
        )
        to_act = (
            first if opts["to_act"] is None else _int(opts["to_act"], "to_act", "turn-to-act", 0, 1, "D12")
        )
        if start == "energy" and opts["first"] is not None and first != _d9_first(st):
            _fail(
                "first", f"seat {first} is not the first player of this round by D9 (seat {_d9_first(st)} is)"
            )
        if start == "energy" and st.action_medarot == [-1, -1]:
            _fail("action_medarots", "none on either side: no round starts when no medarot can act (D16)")
        st.first, st.to_act = first, to_act
        st.passes = _int(opts["passes"], "passes", "passes", 0, 1, "D12")
        if start == "action":
            st.agenda = [["action_turn"]]
        else:
            steps = (
                [["energy_step", first], ["energy_step", 1 - first]]
                if to_act == first
                else [["energy_step", to_act]]
            )
            flow.push(st, *steps, ["action_turn"])
    _round_checks(st, start, round_no)


def _turn_and_round(start: Any, turn: Any, round_no: Any, config: RulesConfig) -> tuple[str, int, int]:
    if start not in START_STEPS:
        _fail("start", f"unknown start step {start!r}; known: {', '.join(START_STEPS)}", "5")
    turn = _int(turn, "turn", "turn", 1, config.max_turns, "D35")
    if start in _ROUND_STARTS:
        round_no = _int(1 if round_no is None else round_no, "round", "round", 1, 2, "D15")
    elif start == "end":
        round_no = _int(2 if round_no is None else round_no, "round", "rounds played", 0, 2, "D15")
    elif round_no not in (None, 0):
        _fail("round", f"start step {start!r} begins before the first round: no round to give", "D6")
    else:
        round_no = 0
    return start, turn, round_no


def _reset_done(st: GameState) -> None:
    """The draw phase follows the reset phase (D7): nothing is tapped but destroyed parts, no TURN effects."""
    for p in (0, 1):
        for m, med in enumerate(st.field[p]):
            if med.medal_tapped:
                _fail(
                    f"seat {p} medarot {m} medal",
                    "tapped at the draw phase: the reset phase untapped it (D7)",
                )
            for s, part in enumerate(med.parts):
                if part.tapped and not part.destroyed:
                    _fail(
                        f"seat {p} medarot {m} {_SLOT_WORDS[s]}",
                        "tapped at the draw phase: the reset phase untapped it (D7)",
                    )
        if any(t for _, t in st.stock[p]):
            _fail(
                _seat_where(p, "energy stock"), "a tapped card at the draw phase: the reset untapped it (D7)"
            )
        if st.play[p]:
            _fail(_seat_where(p, "play area"), "TURN cards at the draw phase: the reset trashed them (D7)")
    if any(m[6] == UNTIL_TURN for m in st.mods):
        _fail("modifiers", "TURN modifiers at the draw phase: the reset phase ended them (D7)")


# ----------------------------------------------------------------------------- the builder
def position(
    *,
    field: Sequence[Sequence[Any]],
    pool: CardPool | Any = None,
    hands: Sequence[Iterable[str]] = ((), ()),
    decks: Sequence[Iterable[str]] = ((), ()),
    stocks: Sequence[Iterable[Any]] = ((), ()),
    play: Sequence[Iterable[str]] = ((), ()),
    trash: Sequence[Iterable[str]] = ((), ()),
    assets: Sequence[int] | None = None,
    start: str = "action",
    turn: int = 1,
    round: int | None = None,
    priority: int = 0,
    action_medarots: Sequence[int | None] | None = None,
    first: int | None = None,
    to_act: int | None = None,
    passes: int = 0,
    modifiers: Iterable[Mapping[str, Any]] = (),
    seed: int = 0,
    deck_rules: bool = True,
    **rules: Any,
) -> GameState:
    """Build a checked Medarot parts position and run it to its first decision.

    See the module docstring for the forms of each argument and for what a position can and
    cannot express.

    Args:
        field: per seat, its 2 medarots (medal, head, right arm, left arm, legs); ``()`` for a
            vacant seat 1.
        pool: the card pool (a ``CardPool``, or what ``load_pool`` takes); default the packaged one.
        hands: per seat, its hand (sorted into the canonical order, D40).
        decks: per seat, its deck, top card first.
        stocks: per seat, its energy stock: card ids (untapped) or ``(id, tapped)`` pairs.
        play: per seat, the TURN medaroter cards in its play area.
        trash: per seat, its trash, oldest first.
        assets: per seat, its assets in G; default 10000 G minus the price of its field parts
            (D3, ``start_assets``).
        start: the step to start at, one of ``START_STEPS``.
        turn: the turn number (1..``max_turns``).
        round: the round (1 or 2) at ``"round"``, ``"energy"`` and ``"action"``; the rounds
            played (0..2, default 2) at ``"end"``; not given before the main phase.
        priority: the seat with priority this turn (D5).
        action_medarots: per seat, its action medarot (0, 1, or None / -1 for none) at the
            energy and action steps; default by D9 (the fastest candidate, a tie to the lower index).
        first: the round's first player; default by D9.
        to_act: at ``"action"`` the turn-to-act holder, at ``"energy"`` the seat placing energy
            now (the first player, or the second once the first has placed); default ``first``.
        passes: at ``"action"``, passes in a row just made (0 or 1, D12).
        modifiers: lasting TURN modifiers (mappings, see the module docstring).
        seed: the state's seed (recorded; the rules draw no randomness after setup).
        deck_rules: check the copy limits and the card total of D2 (default True).
        **rules: ``RulesConfig`` options (``max_turns``, ``hand_cap``, ``vacant_seat``...).

    Returns:
        The ``GameState`` at its first decision (``state.legal_actions()`` ready), or finished
        if the automatic steps end the game (a deck-out in the draw phase).

    Raises:
        PositionError: the position breaks a rule; the message names the seat, zone or slot.
    """
    config = _config(rules)
    card_pool = _pool(pool)
    start, turn, round_no = _turn_and_round(start, turn, round, config)
    priority = _int(priority, "priority", "priority seat", 0, 1, "D5")
    if config.vacant_seat and priority != 0:
        _fail("priority", "with a vacant seat 1, seat 0 has priority (rules vacant_seat)", "D5")
    kw = {
        "hands": _per_seat(hands, "hands"),
        "decks": _per_seat(decks, "decks"),
        "stocks": _per_seat(stocks, "stocks"),
        "play": _per_seat(play, "play"),
        "trash": _per_seat(trash, "trash"),
    }
    seats = _per_seat(field, "field", "D1")
    seated = (0,) if config.vacant_seat else (0, 1)
    rd = _Reader(card_pool)
    st = GameState(config, card_pool, [[], []], seed)
    targets: dict[tuple[int, int, int], int] = {}
    for p in (0, 1):
        _seat(rd, st, p, seats[p], p in seated, kw, targets)
    st.next_uid = 1 + 4 * sum(len(row) for row in st.field)
    st.decks = [_starters(st, p) if p in seated else [] for p in (0, 1)]
    st.assets = _assets(st, assets, seated)
    if deck_rules:
        for p in seated:
            _copies(rd, p, config)
    st.mods = _effect_mods(st, targets) + [_modifier(st, raw, i) for i, raw in enumerate(modifiers)]
    st.odd_turn_priority = priority if turn % 2 else 1 - priority
    st.priority = priority
    _place_in_turn(
        st,
        start,
        {
            "turn": turn,
            "round": round_no,
            "action_medarots": action_medarots,
            "first": first,
            "to_act": to_act,
            "passes": passes,
        },
    )
    if start == "draw":
        _reset_done(st)
    for p in seated:
        if all(med.stopped for med in st.field[p]):
            _fail(f"seat {p}", "every medarot is stopped: the game is already over (D34)")
    try:
        flow.run(st)
    except PositionError:
        raise
    except StateError as exc:
        raise PositionError(f"the rules cannot run from this position: {exc}") from exc
    try:
        check_rules(st, deck_rules=deck_rules)
    except StateError as exc:
        raise PositionError(str(exc)) from exc
    return st


def _seat(
    rd: _Reader,
    st: GameState,
    p: int,
    medarots: Any,
    seated: bool,
    kw: dict[str, Any],
    targets: dict[tuple[int, int, int], int],
) -> None:
    if not _is_seq(medarots):
        _fail(f"seat {p} field", f"a seat's field is a list of 2 medarots, got {medarots!r}", "D1")
    if not seated:
        if medarots or any(kw[z][p] for z in kw):
            _fail(f"seat {p}", "a vacant seat (rules vacant_seat) holds no cards", "4.1")
        return
    if len(medarots) != 2:
        many = "too many" if len(medarots) > 2 else "too few"
        _fail(f"seat {p} field", f"{len(medarots)} medarots ({many}); each player fields exactly 2 (D1)")
    base = 1 + 4 * sum(len(row) for row in st.field)
    for m, raw in enumerate(medarots):
        st.field[p].append(_medarot(rd, raw, p, m, base + 4 * m, targets))
    _zones(rd, st, p, kw)


def _starters(st: GameState, p: int) -> list[list[str]]:
    """``GameState.decks[p]``: the field medarots as the starters, and the seat's other cards as its deck list."""
    field = st.field[p]
    rest = [*st.deck[p], *st.hand[p], *st.trash[p], *st.play[p], *(cid for cid, _ in st.stock[p])]
    rest += [c for m in field for x in m.parts for c in ([x.effect] if x.effect else []) + x.attached]
    return [*([m.medal, *(x.card for x in m.parts)] for m in field), sorted(rest)]


def _assets(st: GameState, assets: Any, seated: Sequence[int]) -> list[int]:
    if assets is None:
        out = [0, 0]
        for p in seated:
            price = sum(st.cards[x.card].price for med in st.field[p] for x in med.parts)
            out[p] = st.config.start_assets - price
            if out[p] < 0:
                _fail(
                    f"seat {p} assets",
                    f"the field parts cost {price} G, more than {st.config.start_assets} G (D3): give assets",
                )
        return out
    return [
        _int(a, f"seat {p} assets", "assets (G)", 0, 10**9, "D3")
        for p, a in enumerate(_per_seat(assets, "assets", "D3"))
    ]


def _config(rules: dict[str, Any]) -> RulesConfig:
    """``make_config(**rules)``, with the boolean ``vacant_seat`` set apart (make_config takes numbers)."""
    opts = dict(rules)
    vacant = opts.pop("vacant_seat", False)
    if not isinstance(vacant, bool):
        _fail("rules", f"vacant_seat must be True or False, got {vacant!r}")
    try:
        config = make_config(**opts)
    except StateError as exc:
        raise PositionError(f"rules: {exc}") from exc
    return dataclasses.replace(config, vacant_seat=True) if vacant else config


def _pool(pool: Any) -> CardPool:
    if isinstance(pool, CardPool):
        return pool
    return load_pool(pool)
