"""Position builder of the Medarot parts game: set up any position and ask an agent about it.

``position(...)`` reads a position zone by zone (spec section 4.1) with the shared reader
``envs.core.position``, runs the automatic steps up to the first decision and passes the state
through ``rules.check``. Its arguments, what it checks, and what a position can and cannot
express: ``docs/positions.md``, section "The parts game".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.core.position import Reader, fail, is_int, is_list
from deckgym.envs.medarot_parts import cards, state
from deckgym.envs.medarot_parts.cards import CardDef, CardPool
from deckgym.envs.medarot_parts.config import make_config
from deckgym.envs.medarot_parts.rules import check as check_rules
from deckgym.envs.medarot_parts.rules import flow, phases
from deckgym.envs.medarot_parts.rules.values import mobility
from deckgym.envs.medarot_parts.state import GameState, Medarot, Part

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
_PART_DEFAULTS = {"tapped": None, "destroyed": False, "counters": 0, "effect": None, "effect_target": None}
_PART_FIELDS = ("card", *_PART_DEFAULTS, "attached")
_MOD_DEFAULTS = {"part": None, "seat": None, "medarot": None, "slots": None, "until": "turn"}
_ROUND_STARTS = frozenset({"round", "energy", "action"})
#: A modifier's duration (``until``) and why a built position refuses it; "turn" is taken.
_UNTIL_REFUSED = {
    "turn": "",
    "battle": "a BATTLE modifier lasts only during a battle, which a built position cannot hold",
    "card": "card modifiers come from the effect and ATTACHED cards on the parts: put those cards there",
}


def _kind(card: CardDef) -> str:
    """The kind a zone or slot check compares: ``LEGS part``, ``TURN MEDAROTER``, ``ENERGY``..."""
    if card.type == cards.PART:
        return f"{cards.SLOTS[card.slot]} part"
    return f"{cards.DURATIONS[card.duration]} {card.type}" if card.type == "MEDAROTER" else card.type


def _mod(
    stat: str, amount: int, *, part: int = -1, bound: Sequence[int] = (-1, -1, 0), card: int = -1
) -> list[int]:
    """A ``GameState.mods`` row (fields in the order ``state.py`` declares).

    It follows ``part`` or is ``bound`` to (seat, medarot, slot mask); it lasts while part
    ``card`` holds its card, else until the turn ends.
    """
    stat_no = state.STAT_POWER if stat.upper() == "POWER" else state.STAT_CHARGE
    return [stat_no, amount, part, *bound, state.UNTIL_CARD if card >= 0 else state.UNTIL_TURN, card]


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

    The arguments are described in ``docs/positions.md`` (section "The parts game"); ``**rules``
    are ``RulesConfig`` options. Returns the ``GameState`` at its first decision, or finished if
    the automatic steps end the game. Raises ``PositionError`` naming the seat, zone or slot.
    """
    try:
        config = make_config(**rules)
    except StateError as exc:
        raise PositionError(f"rules: {exc}") from exc
    rd = Reader(pool if isinstance(pool, CardPool) else cards.load_pool(pool), 2, _kind)
    start = rd.choice("start", start, START_STEPS, "5")
    turn = rd.whole("turn", turn, 1, config.max_turns, "D35")
    if start in _ROUND_STARTS:
        round = rd.whole("round", 1 if round is None else round, 1, 2, "D15")
    elif start == "end":
        round = rd.whole("round (rounds played)", 2 if round is None else round, 0, 2, "D15")
    elif round not in (None, 0):
        fail("round", f"start step {start!r} begins before the first round: no round to give", "D6")
    else:
        round = 0
    priority = rd.whole("priority", priority, 0, 1, "D5")
    if config.vacant_seat and priority != 0:
        fail("priority", "with a vacant seat 1, seat 0 has priority (rules vacant_seat)", "D5")
    zones = {"hands": hands, "decks": decks, "stocks": stocks, "play": play, "trash": trash}
    zones = {name: rd.per_seat(name, value) for name, value in zones.items()}
    seats = rd.per_seat("field", field)
    seated = (0,) if config.vacant_seat else (0, 1)
    st = GameState(config, rd.pool, [[], []], seed)
    for p in (0, 1):
        _seat(rd, st, p, seats[p], p in seated, zones)
    st.next_uid = 1 + 4 * sum(len(row) for row in st.field)
    st.decks = [_starters(st, p) if p in seated else [] for p in (0, 1)]
    if assets is None:
        price = [sum(st.cards[x.card].price for med in row for x in med.parts) for row in st.field]
        st.assets = [config.start_assets - price[p] if p in seated else 0 for p in (0, 1)]
    else:
        given = enumerate(rd.per_seat("assets", assets))
        st.assets = [rd.whole(f"seat {p} assets", a, 0, None, "D3") for p, a in given]
    st.mods += [_modifier(rd, st, raw, i) for i, raw in enumerate(modifiers)]
    st.odd_turn_priority = priority if turn % 2 else 1 - priority
    st.priority, st.turn = priority, turn
    _place_in_turn(rd, st, start, round, (action_medarots, first, to_act, passes))
    try:
        flow.run(st)
    except StateError as exc:
        raise PositionError(f"the rules cannot run from this position: {exc}") from exc
    return Reader.checked(st, check_rules, deck_rules=deck_rules)


# ----------------------------------------------------------------------------- the field and zones
def _seat(rd: Reader, st: GameState, p: int, medarots: Any, seated: bool, zones: dict[str, Any]) -> None:
    if not is_list(medarots):
        fail(f"seat {p} field", f"give a list of 2 medarots, got {medarots!r}", "D1")
    if not seated:
        if medarots or any(zones[z][p] for z in zones):
            fail(f"seat {p}", "a vacant seat (rules vacant_seat) holds no cards", "4.1")
        return
    if len(medarots) != 2:
        many = "too many" if len(medarots) > 2 else "too few"
        fail(f"seat {p} field", f"{len(medarots)} medarots ({many}); each player fields exactly 2", "D1")
    for m, raw in enumerate(medarots):
        where = f"seat {p} medarot {m}"
        spec = rd.record(where, raw, ("medal", *SLOT_KEYS), {})
        medal = rd.record(f"{where} medal", spec["medal"], ("card", "tapped"), {"tapped": False}, "card")
        rd.card(f"{where} medal", medal["card"], p, ("MEDAL",), "D1")
        uid = 1 + 4 * (2 * p + m)
        parts = [_part(rd, st, spec[key], p, m, s, uid + s) for s, key in enumerate(SLOT_KEYS)]
        tapped = rd.flag(f"{where} medal tapped", medal["tapped"])
        st.field[p].append(Medarot(medal=medal["card"], parts=parts, medal_tapped=tapped))
    where = f"seat {p} "
    st.hand[p] = sorted(rd.cards(where + "hand", zones["hands"][p], p))
    st.deck[p] = rd.cards(where + "deck", zones["decks"][p], p)[::-1]  # the engine keeps the top card last
    st.trash[p] = rd.cards(where + "trash", zones["trash"][p], p)
    st.play[p] = rd.cards(where + "play area", zones["play"][p], p, ("TURN MEDAROTER",), "D31")
    if not is_list(zones["stocks"][p]):
        fail(where + "energy stock", f"give card ids or (id, tapped) pairs, got {zones['stocks'][p]!r}")
    for i, raw in enumerate(zones["stocks"][p]):
        at = f"{where}energy stock (card {i})"
        entry = rd.record(at, raw, ("card", "tapped"), {"tapped": False}, "card")
        rd.card(at, entry["card"], p, ("ENERGY",), "D11")
        st.stock[p].append([entry["card"], rd.flag(at + " tapped", entry["tapped"])])


def _part(rd: Reader, st: GameState, raw: Any, p: int, m: int, s: int, uid: int) -> Part:
    """The part in slot ``s``; the modifiers of its effect card and ATTACHED cards go to ``st.mods``."""
    at = f"seat {p} medarot {m} {cards.SLOT_WORDS[s]}"
    spec = rd.record(at, raw, _PART_FIELDS, {**_PART_DEFAULTS, "attached": ()}, "card")
    card = rd.card(at, spec["card"], p, (f"{cards.SLOTS[s]} part",), "D1")
    spec["destroyed"] = rd.flag(f"{at} destroyed", spec["destroyed"])
    spec["tapped"] = rd.flag(f"{at} tapped", spec["destroyed"] if spec["tapped"] is None else spec["tapped"])
    spec["counters"] = rd.whole(f"{at} counters", spec["counters"], 0, 99, "R16")
    spec["attached"] = rd.cards(f"{at} attached cards", spec["attached"], p, ("ATTACHED MEDAROTER",), "D31")
    effect, target = spec["effect"], spec.pop("effect_target")
    ability = next((a for a in card.abilities if a.source == "EFFECT"), None)
    opp = ability is not None and ability.target == cards.Target.OPP_SLOT
    if target is not None and (effect is None or not opp):
        fail(at, "effect_target is given only with an effect card bound to an opposing medarot", "D28")
    if effect is not None:
        rd.card(f"{at} effect card", effect, p, ("EFFECT",), "R24")
    if effect is not None and ability is not None:  # (on no effect part the rules check refuses it)
        if opp and target is None:
            fail(at, "give effect_target: the opposing medarot the effect is bound to", "R26, D28")
        if opp:
            bound = (1 - p, rd.whole(f"{at} effect_target", target, 0, 1, "D28"), 1 << ability.slot)
            st.mods.append(_mod(ability.op, ability.amount, bound=bound, card=uid))
        else:
            st.mods.append(_mod(ability.op, ability.amount, part=uid, card=uid))
    for cid in spec["attached"]:
        st.mods += [_mod(ab.op, ab.amount, part=uid, card=uid) for ab in st.cards[cid].abilities]
    return Part(uid=uid, **spec)


def _starters(st: GameState, p: int) -> list[list[str]]:
    """``GameState.decks[p]``: the field medarots as the starters, and the seat's other cards as its deck list."""
    field = st.field[p]
    rest = [*st.deck[p], *st.hand[p], *st.trash[p], *st.play[p], *(cid for cid, _ in st.stock[p])]
    rest += [c for m in field for x in m.parts for c in ([x.effect] if x.effect else []) + x.attached]
    return [*([m.medal, *(x.card for x in m.parts)] for m in field), sorted(rest)]


# ----------------------------------------------------------------------------- modifiers
def _slot(rd: Reader, where: str, v: Any) -> int:
    """A head or arm slot, given as 0..2 or a name (legs have no power or charge, D39)."""
    if is_int(v):
        return rd.whole(where, v, 0, 2, "D39")
    return SLOT_KEYS.index(rd.choice(where, v, SLOT_KEYS[:3], "D39"))


def _modifier(rd: Reader, st: GameState, raw: Any, i: int) -> list[int]:
    where = f"modifier {i}"
    spec = rd.record(where, raw, ("stat", "amount", *_MOD_DEFAULTS), _MOD_DEFAULTS)
    stat = rd.choice(f"{where} stat", spec["stat"], ("power", "charge"), "4.3")
    top = 3 if stat == "power" else 2
    amount = rd.whole(f"{where} amount", spec["amount"], -top, top, "4.3")
    until = rd.choice(f"{where} until", spec["until"], _UNTIL_REFUSED, "D42")
    if until != "turn":
        fail(where, _UNTIL_REFUSED[until], "D31" if until == "battle" else "D42")
    address = spec["part"] if spec["part"] is not None else (spec["seat"], spec["medarot"], None)
    if not is_list(address) or len(address) != 3:
        fail(f"{where} part", f"give (seat, medarot, slot), got {address!r}", "D42")
    p = rd.whole(f"{where} seat", address[0], 0, 1, "D42")
    if not st.field[p]:
        fail(where, f"seat {p} has no medarot", "D42")
    m = rd.whole(f"{where} medarot", address[1], 0, len(st.field[p]) - 1, "D42")
    if spec["part"] is not None:
        if any(spec[k] is not None for k in ("seat", "medarot", "slots")):
            fail(where, "give either part=(seat, medarot, slot) or seat, medarot and slots, not both", "D42")
        return _mod(stat, amount, part=st.field[p][m].parts[_slot(rd, f"{where} part slot", address[2])].uid)
    slots = spec["slots"]
    if not is_list(slots) or not slots:
        fail(f"{where} slots", "give the head and arm slots the modifier is bound to", "D42")
    mask = sum({1 << _slot(rd, f"{where} slots", v) for v in slots})
    return _mod(stat, amount, bound=(p, m, mask))


# ----------------------------------------------------------------------------- start step
def _d9_first(st: GameState) -> int:
    """The first player of the round by D9: the faster action medarot, a tie to the priority seat."""
    a0, a1 = st.action_medarot
    if a0 < 0 or a1 < 0:
        return st.priority if a0 == a1 else (0 if a0 >= 0 else 1)
    m0, m1 = mobility(st, 0, a0), mobility(st, 1, a1)
    return st.priority if m0 == m1 else (0 if m0 > m1 else 1)


def _action_medarots(rd: Reader, st: GameState, given: Any) -> list[int]:
    """The given action medarots, or by D9 each seat's fastest candidate (a tie to the lower index)."""
    if given is not None:
        return [
            -1 if m is None else rd.whole(f"seat {p} action medarot", m, -1, len(st.field[p]) - 1, "D9")
            for p, m in enumerate(rd.per_seat("action_medarots", given))
        ]
    out = []
    for p in (0, 1):
        cands = phases.candidates(st, p) if p in phases.seated(st) else []
        best = max((mobility(st, p, i) for i in cands), default=-1)
        out.append(next((i for i in cands if mobility(st, p, i) == best), -1))
    return out


def _place_in_turn(
    rd: Reader, st: GameState, start: str, round_no: int, players: tuple[Any, Any, Any, Any]
) -> None:
    """Set the player fields of ``start`` and the agenda that runs from it; check what ``start`` implies.

    ``players``: the ``action_medarots``, ``first``, ``to_act`` and ``passes`` arguments.
    """
    medarots, first, to_act, passes = players
    st.round = round_no
    if start not in ("energy", "action"):
        for key, value in (("action_medarots", medarots), ("first", first), ("to_act", to_act)):
            if value is not None:
                fail(key, f"set by the rules at start step {start!r}; give it at 'energy' or 'action'", "D9")
    if start != "action" and passes:
        fail("passes", "passes in a row count only at the action step (start='action')", "D12")
    if start == "turn":
        st.turn, st.round, st.agenda = st.turn - 1, 0, [["turn_start"]]
    elif start == "draw":
        _reset_done(st)
        flow.push(st, ["draw_phase"], ["recycle_step"])
    elif start == "round":
        st.round, st.agenda = st.round - 1, [["recycle_step"]]
    elif start == "end":
        st.agenda = [["end_phase"]]
    else:
        st.action_medarot = _action_medarots(rd, st, medarots)
        d9_first = _d9_first(st)
        st.first = d9_first if first is None else rd.whole("first", first, 0, 1, "D9")
        st.to_act = st.first if to_act is None else rd.whole("to_act", to_act, 0, 1, "D12")
        st.passes = rd.whole("passes", passes, 0, 1, "D12")
        if start == "energy" and st.first != d9_first:
            fail("first", f"seat {st.first} is not the first player of this round by D9 (seat {d9_first} is)")
        if start == "energy" and st.action_medarot == [-1, -1]:
            fail("action_medarots", "none on either side: no round starts when no medarot can act", "D16")
        if start == "action":
            st.agenda = [["action_turn"]]
        else:
            both = [["energy_step", st.first], ["energy_step", 1 - st.first]]
            flow.push(st, *(both if st.to_act == st.first else [["energy_step", st.to_act]]), ["action_turn"])
    _round_checks(st, start, round_no)


def _round_checks(st: GameState, start: str, round_no: int) -> None:
    """The end phase follows D16, round 2 follows round 1 (D15), the energy step's medarots follow D9."""
    for p in phases.seated(st):
        ready, m = phases.candidates(st, p), st.action_medarot[p]
        if start == "end" and ready:
            why = "untapped: the main phase ends only when no medarot can act; tap the legs"
            fail(f"seat {p} medarot {ready[0]} legs", why, "D16")
        others = ready[1:] if start == "round" else [i for i in ready if i != m]
        if start in _ROUND_STARTS and round_no == 2 and others:
            why = "untapped in round 2: round 1 tapped its action medarot's legs, one at most is left"
            fail(f"seat {p} medarot {others[0]} legs", why, "D15")
        if start == "energy" and m < 0 and ready:
            fail(f"seat {p} action medarot", f"none, but medarot {ready[0]} is a candidate", "D9")
        slower = m not in ready or mobility(st, p, m) != max(mobility(st, p, i) for i in ready)
        if start == "energy" and m >= 0 and slower:
            fail(f"seat {p} action medarot", f"medarot {m} is not a fastest candidate", "D9")


def _reset_done(st: GameState) -> None:
    """The draw phase follows the reset phase (D7): nothing is tapped but destroyed parts, no TURN effects."""
    untapped, trashed = (
        "tapped at the draw phase: the reset phase untapped it",
        "at the draw phase: the reset ended it",
    )
    for p in (0, 1):
        found = [(f"medarot {m} medal", untapped) for m, med in enumerate(st.field[p]) if med.medal_tapped]
        for m, med in enumerate(st.field[p]):
            found += [
                (f"medarot {m} {cards.SLOT_WORDS[s]}", untapped)
                for s, x in enumerate(med.parts)
                if x.tapped and not x.destroyed
            ]
        found += [("energy stock", untapped)] if any(t for _, t in st.stock[p]) else []
        found += [("play area", "TURN cards " + trashed)] if st.play[p] else []
        if found:
            fail(f"seat {p} {found[0][0]}", found[0][1], "D7")
    if any(row[6] == state.UNTIL_TURN for row in st.mods):
        fail("modifiers", "TURN modifiers " + trashed, "D7")
