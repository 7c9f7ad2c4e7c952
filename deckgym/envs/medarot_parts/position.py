"""Position builder of the Medarot parts game: set up any position and ask an agent about it.

``position(...)`` reads a position zone by zone (spec section 4.1) with the shared reader
``envs.core.position``, runs the automatic steps up to the first decision and passes the state
through ``rules.check``. Its arguments, what it checks, and what a position can and cannot
express: ``docs/positions.md``, section "The parts game".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.core.position import Reader, fail, is_list
from deckgym.envs.medarot_parts import cards
from deckgym.envs.medarot_parts.cards import CardDef, CardPool
from deckgym.envs.medarot_parts.config import make_config
from deckgym.envs.medarot_parts.rules import check as check_rules
from deckgym.envs.medarot_parts.rules import flow, phases
from deckgym.envs.medarot_parts.rules.values import add_mod, stat_of
from deckgym.envs.medarot_parts.state import UNTIL_CARD, UNTIL_TURN, GameState, Medarot, Part

__all__ = ["START_STEPS", "position"]

#: The steps a position can start at (what runs from each: ``docs/positions.md``, argument ``start``).
START_STEPS = ("turn", "draw", "round", "energy", "action", "end")
#: Slot names of a medarot mapping, in slot order.
SLOT_KEYS = ("head", "right_arm", "left_arm", "legs")
_PART_DEFAULTS = {"tapped": None, "destroyed": False, "counters": 0, "effect": None, "effect_target": None}
_PART_FIELDS = ("card", *_PART_DEFAULTS, "attached")
_MOD_DEFAULTS = {"part": None, "seat": None, "medarot": None, "slots": None, "until": "turn"}
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
    check: Callable[..., None] = check_rules,
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
    if start in ("round", "energy", "action"):
        round = rd.whole("round", round, 1, 2, "D15", default=1)
    elif start == "end":
        round = rd.whole("round (rounds played)", round, 0, 2, "D15", default=2)
    elif round not in (None, 0):
        fail("round", f"start step {start!r} begins before the first round: no round to give", "D6")
    else:
        round = 0
    priority = rd.whole("priority", priority, 0, 1, "D5")
    if config.vacant_seat and priority != 0:
        fail("priority", "with a vacant seat 1, seat 0 has priority (rules vacant_seat)", "D5")
    zones = {"hands": hands, "decks": decks, "stocks": stocks, "play": play, "trash": trash}
    zones = {name: rd.per_seat(name, value) for name, value in zones.items()}
    st = GameState(config, rd.pool, [[], []], seed)
    seated = phases.seated(st)
    for p, medarots in enumerate(rd.per_seat("field", field)):
        _seat(rd, st, p, medarots, p in seated, zones)
    st.next_uid = 1 + 4 * sum(len(row) for row in st.field)
    st.decks = [_starters(st, p) if p in seated else [] for p in (0, 1)]
    if assets is None:
        price = [sum(st.cards[x.card].price for med in row for x in med.parts) for row in st.field]
        st.assets = [config.start_assets - price[p] if p in seated else 0 for p in (0, 1)]
    else:
        given = enumerate(rd.per_seat("assets", assets))
        st.assets = [rd.whole(f"seat {p} assets", a, 0, None, "D3") for p, a in given]
    for i, raw in enumerate(modifiers):
        _modifier(rd, st, raw, f"modifier {i}")
    st.odd_turn_priority = priority if turn % 2 else 1 - priority
    st.priority, st.turn, st.round = priority, turn, round
    _place_in_turn(rd, st, start, (action_medarots, first, to_act, passes))
    _round_checks(st, start, round)
    try:
        flow.run(st)
    except StateError as exc:
        raise PositionError(f"the rules cannot run from this position: {exc}") from exc
    return Reader.checked(st, check, deck_rules=deck_rules)


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
        medal, tapped = rd.flagged_card(f"{where} medal", spec["medal"], "tapped", p, ("MEDAL",), "D1")
        uid = 1 + 4 * (2 * p + m)
        parts = [_part(rd, st, spec[key], p, m, s, uid + s) for s, key in enumerate(SLOT_KEYS)]
        st.field[p].append(Medarot(medal=medal, parts=parts, medal_tapped=tapped))
    where = f"seat {p} "
    st.hand[p] = sorted(rd.cards(where + "hand", zones["hands"][p], p))
    st.deck[p] = rd.cards(where + "deck", zones["decks"][p], p)[::-1]  # the engine keeps the top card last
    st.trash[p] = rd.cards(where + "trash", zones["trash"][p], p)
    st.play[p] = rd.cards(where + "play area", zones["play"][p], p, ("TURN MEDAROTER",), "D31")
    if not is_list(zones["stocks"][p]):
        fail(where + "energy stock", f"give card ids or (id, tapped) pairs, got {zones['stocks'][p]!r}")
    for i, raw in enumerate(zones["stocks"][p]):
        at = f"{where}energy stock (card {i})"
        st.stock[p].append(list(rd.flagged_card(at, raw, "tapped", p, ("ENERGY",), "D11")))


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
            add_mod(st, stat_of(ability.op), ability.amount, UNTIL_CARD, slots=bound, src=uid)
        else:
            add_mod(st, stat_of(ability.op), ability.amount, UNTIL_CARD, uid=uid, src=uid)
    for ab in (ab for cid in spec["attached"] for ab in st.cards[cid].abilities):
        add_mod(st, stat_of(ab.op), ab.amount, UNTIL_CARD, uid=uid, src=uid)
    return Part(uid=uid, **spec)


def _starters(st: GameState, p: int) -> list[list[str]]:
    """``GameState.decks[p]``: the field medarots as the starters, and the seat's other cards as its deck list."""
    field = st.field[p]
    rest = [*st.deck[p], *st.hand[p], *st.trash[p], *st.play[p], *(cid for cid, _ in st.stock[p])]
    rest += [c for m in field for x in m.parts for c in ([x.effect] if x.effect else []) + x.attached]
    return [*([m.medal, *(x.card for x in m.parts)] for m in field), sorted(rest)]


# ----------------------------------------------------------------------------- modifiers
def _modifier(rd: Reader, st: GameState, raw: Any, where: str) -> None:
    """A lasting TURN modifier that follows a part or is bound to head and arm slots (D42)."""
    spec = rd.record(where, raw, ("stat", "amount", *_MOD_DEFAULTS), _MOD_DEFAULTS)
    stat = rd.choice(f"{where} stat", spec["stat"], ("power", "charge"), "4.3")
    top = 3 if stat == "power" else 2
    amount = rd.whole(f"{where} amount", spec["amount"], -top, top, "4.3")
    until = rd.choice(f"{where} until", spec["until"], _UNTIL_REFUSED, "D42")
    if until != "turn":
        fail(where, _UNTIL_REFUSED[until], "D31" if until == "battle" else "D42")
    follows = spec["part"] is not None
    address = spec["part"] if follows else (spec["seat"], spec["medarot"], None)
    p, m, slot = rd.fixed(f"{where} part", address, ("seat", "medarot", "slot"), "D42")
    p = rd.whole(f"{where} seat", p, 0, 1, "D42")
    if not st.field[p]:
        fail(where, f"seat {p} has no medarot", "D42")
    m = rd.whole(f"{where} medarot", m, 0, len(st.field[p]) - 1, "D42")
    heads_and_arms = SLOT_KEYS[:3]  # legs have no power or charge (D39)
    if follows:
        if any(spec[k] is not None for k in ("seat", "medarot", "slots")):
            fail(where, "give either part=(seat, medarot, slot) or seat, medarot and slots, not both", "D42")
        s = rd.index(f"{where} part slot", slot, heads_and_arms, "D39")
        add_mod(st, stat_of(stat), amount, UNTIL_TURN, uid=st.field[p][m].parts[s].uid)
    else:
        slots = spec["slots"]
        if not is_list(slots) or not slots:
            fail(f"{where} slots", "give the head and arm slots the modifier is bound to", "D42")
        mask = sum({1 << rd.index(f"{where} slots", v, heads_and_arms, "D39") for v in slots})
        add_mod(st, stat_of(stat), amount, UNTIL_TURN, slots=(p, m, mask))


# ----------------------------------------------------------------------------- start step
def _place_in_turn(rd: Reader, st: GameState, start: str, players: tuple[Any, Any, Any, Any]) -> None:
    """Set the player fields of ``start`` and the agenda that runs from it.

    ``players``: the ``action_medarots``, ``first``, ``to_act`` and ``passes`` arguments.
    """
    medarots, first, to_act, passes = players
    if start not in ("energy", "action"):
        why = f"set by the rules at start step {start!r}; give it at 'energy' or 'action'"
        rd.not_given({"action_medarots": medarots, "first": first, "to_act": to_act}, why, "D9")
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
        if medarots is None:  # by D9: the fastest candidate, a tie to the lower index
            st.action_medarot = [(phases.fastest(st, p) or [-1])[0] for p in (0, 1)]
        else:
            given = enumerate(rd.per_seat("action_medarots", medarots))
            top = [len(st.field[p]) - 1 for p in (0, 1)]
            st.action_medarot = [
                rd.whole(f"seat {p} action medarot", m, -1, top[p], "D9", default=-1) for p, m in given
            ]
        d9_first = phases.first_of_round(st)
        st.first = rd.whole("first", first, 0, 1, "D9", default=d9_first)
        st.to_act = rd.whole("to_act", to_act, 0, 1, "D12", default=st.first)
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


def _round_checks(st: GameState, start: str, round_no: int) -> None:
    """The end phase follows D16, round 2 follows round 1 (D15), the energy step's medarots follow D9."""
    for p in phases.seated(st):
        ready, m = phases.candidates(st, p), st.action_medarot[p]
        if start == "end" and ready:
            why = "untapped: the main phase ends only when no medarot can act; tap the legs"
            fail(f"seat {p} medarot {ready[0]} legs", why, "D16")
        others = ready[1:] if start == "round" else [i for i in ready if i != m]
        if start != "end" and round_no == 2 and others:
            why = "untapped in round 2: round 1 tapped its action medarot's legs, one at most is left"
            fail(f"seat {p} medarot {others[0]} legs", why, "D15")
        if start == "energy" and m < 0 and ready:
            fail(f"seat {p} action medarot", f"none, but medarot {ready[0]} is a candidate", "D9")
        if start == "energy" and m >= 0 and m not in phases.fastest(st, p):
            fail(f"seat {p} action medarot", f"medarot {m} is not a fastest candidate", "D9")


def _reset_done(st: GameState) -> None:
    """The draw phase follows the reset phase (D7): nothing is tapped but destroyed parts, no TURN effects."""
    for p in (0, 1):
        field = list(enumerate(st.field[p]))
        tapped = [f"medarot {m} medal" for m, med in field if med.medal_tapped]
        tapped += [
            f"medarot {m} {cards.SLOT_WORDS[s]}"
            for m, med in field
            for s, x in enumerate(med.parts)
            if x.tapped and not x.destroyed
        ]
        tapped += ["energy stock"] if any(t for _, t in st.stock[p]) else []
        if tapped:
            fail(f"seat {p} {tapped[0]}", "tapped at the draw phase: the reset phase untapped it", "D7")
        if st.play[p]:
            fail(f"seat {p} play area", "TURN cards at the draw phase: the reset ended it", "D7")
    if any(row[6] == UNTIL_TURN for row in st.mods):
        fail("modifiers", "TURN modifiers at the draw phase: the reset ended it", "D7")
