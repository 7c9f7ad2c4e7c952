"""Moves of the Medarot parts game in words (``envs.core.describe``): sentences, prompts and places.

``describe_action(state, seat, index)`` tells action ``index`` of the pending decision as the
reader ``seat`` may know it: an order when ``seat`` decides ("Attack with Thunder Bore (right
arm, shoot): pay charge 2 (4 EP), power 4; the opponent's Aegis medarot defends"), a sentence
without subject when the opponent does ("Plays card 3 of its hand"): a card in the other hand
is never named. ``decision_text(state, seat)`` is the prompt of the pending decision,
``resolving_text(state, seat)`` what is being resolved now (a battle, a payment, a card), and
``narrate(state, action)`` a move in the third person for the log (the forced moves).

**Places** (``zone/player/index``; the boards tag the same keys):

``part``
    a part on the field: ``index`` = 4 x medarot + slot (slots 0 head, 1 right arm, 2 left arm,
    3 legs), so ``part/1/6`` is the left arm of seat 1's second medarot.
``medarot``
    a medarot as a whole (``index`` 0 or 1).
``medal``
    a medarot's medal card (``index`` 0 or 1).
``hand``
    a card of a hand: ``index`` its position in the seat's own hand; the other seat's hand is
    ``index`` None (the whole row of backs).
``energy``
    the energy stock's pile of one kind: ``index`` 0 shooting, 1 melee, 2 defense, 3 support.

The boards also tag ``deck``, ``trash`` (index None) and ``play`` (a card of the play area),
which no move names today (``ZONES`` lists them all).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from deckgym.envs.core import proxy
from deckgym.envs.core.describe import Described, described, place
from deckgym.envs.medarot_parts.actions import ALL_ACTIONS, DP, Action, Kind
from deckgym.envs.medarot_parts.cards import (
    ACTION_WORDS,
    AIMED,
    ATTACK_ACTIONS,
    EFFECT,
    EVADE,
    LEGS,
    MEDAROTER,
    REPAIR,
    SLOT_WORDS,
    SUPPORT,
    Ability,
    Target,
)
from deckgym.envs.medarot_parts.rules.values import charge, medal_pays, mobility, power, use_abilities
from deckgym.envs.medarot_parts.state import Battle, GameState
from deckgym.envs.medarot_parts.words import ENERGY_NAMES, medarot_label, plural, proxy_name

__all__ = ["card_names", "decision_text", "describe_action", "narrate", "resolving_text"]

#: The board's zones: those of move places, then the piles the boards also tag.
ZONES: Final[tuple[str, ...]] = ("part", "medarot", "medal", "hand", "energy", "deck", "trash", "play")


# ----------------------------------------------------------------------------- voices
class _Voice:
    """Who reads (a seat, or None for the public log) and who acts: the words for each."""

    def __init__(self, st: GameState, reader: int | None, actor: int) -> None:
        self.st = st
        self.reader = reader
        self.actor = actor
        self.own = reader is not None and reader == actor

    def whose(self, p: int) -> str:
        """``your`` / ``the opponent's`` / ``P0's``."""
        if self.reader is None:
            return f"P{p}'s"
        if p == self.reader:
            return "your"
        return "its" if p == self.actor else "the opponent's"

    def medarot(self, p: int, m: int) -> str:
        """``your Ember medarot``."""
        return f"{self.whose(p)} {medarot_label(self.st, p, m)}"

    def part(self, p: int, m: int, s: int) -> str:
        """``Thunder Bore (right arm of your Ember medarot)``."""
        name = self.st.cards[self.st.field[p][m].parts[s].card].name
        return f"{name} ({SLOT_WORDS[s]} of {self.medarot(p, m)})"

    def say(self, verb: str, rest: str = "") -> str:
        """An order to the reader, or a sentence about the actor ("P0 pays ...", "Pays ...")."""
        if self.own:
            phrase = verb
        elif self.reader is None:
            phrase = f"P{self.actor} {_third(verb)}"
        else:
            phrase = _third(verb)
        return f"{phrase} {rest}".strip()

    def battle(self) -> Battle:
        """The battle under way (the battle decisions arise only during one)."""
        b = self.st.battle
        assert b is not None
        return b


def _third(verb: str) -> str:
    """The first word of ``verb`` in the third person singular ("pass" -> "passes"), memoised."""
    out = _THIRD.get(verb)
    if out is None:
        if len(_THIRD) >= 1024:
            _THIRD.clear()
        out = _THIRD[verb] = _third_person(verb)
    return out


#: ``_third``'s answers (the verbs are the handlers' literals and a few amounts in words)
_THIRD: Final[dict[str, str]] = {}


def _third_person(verb: str) -> str:
    word, _, rest = verb.partition(" ")
    if word in ("do", "go") or word.endswith(("s", "sh", "ch", "x", "z")):
        word += "es"
    elif word.endswith("y") and word[-2:-1] not in "aeiou":
        word = word[:-1] + "ies"
    else:
        word += "s"
    return f"{word} {rest}".strip()


def _part_place(role: str, p: int, m: int, s: int) -> Any:
    return place(role, "part", 4 * m + s, p)


def _hand_place(v: _Voice, p: int, h: int) -> Any:
    """A hand card's place: its position for its owner, the whole hand for anyone else."""
    return place("card", "hand", h if v.reader == p else None, p)


def _copy_note(st: GameState, p: int, h: int) -> str:
    """`` (copy 2 of 3)`` when the hand holds the same card more than once (moves must read apart)."""
    hand = st.hand[p]
    n = hand.count(hand[h])
    return f" (copy {hand[:h].count(hand[h]) + 1} of {n})" if n > 1 else ""


def _ep(n: int) -> str:
    return f"{n} EP"


def _charge_words(c: int) -> str:
    return "no charge" if c == 0 else f"charge {c} ({_ep(2 * c)})"


# ----------------------------------------------------------------------------- public API
def card_names(state: GameState) -> dict[str, str]:
    """Card id -> card name for every card of the state's pool."""
    pool = state.pool
    return {cid: pool[cid].name for cid in pool.ids()}


def describe_action(state: GameState, seat: int, index: int) -> Described:
    """Action ``index`` at the pending decision, as ``seat`` may know it (see the module docs)."""
    if not 0 <= index < len(ALL_ACTIONS):
        raise ValueError(f"action index must be in 0..{len(ALL_ACTIONS) - 1}, got {index!r}")
    if state.decision_point is None:
        return described("No move: the game is over")
    return _describe(state, seat, ALL_ACTIONS[index])


def narrate(state: GameState, action: Action) -> str:
    """``action`` at the pending decision in the third person, as every seat may read it (the log)."""
    if state.decision_point is None:
        return "The game is over"
    return _describe(state, None, action)["text"]


def _describe(st: GameState, reader: int | None, action: Action) -> Described:
    kind, player, ctx = st.decision_point  # type: ignore[misc]
    v = _Voice(st, reader, player)
    handler = _HANDLERS.get(kind)  # by the plain int: ``DP(kind)`` is an interpreted enum call
    if handler is None:  # pragma: no cover - every decision point has a handler
        return described(v.say("choose", "an option"))
    return handler(v, ctx, action)


# ----------------------------------------------------------------------------- per decision
def _tie(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, p = v.st, ctx[0]
    text = v.say(
        "make", f"{v.medarot(p, a.arg)} (mobility {mobility(st, p, a.arg)}) the action medarot of this round"
    )
    return described(text, place("target", "medarot", a.arg, p))


def _energy_place(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, p = v.st, ctx[0]
    if a.kind == Kind.PASS:
        return described(v.say("put", "no energy card into the energy stock this round"))
    cid = st.hand[p][a.arg]
    if v.own:
        kind = st.cards[cid].kind
        text = f"Put {st.cards[cid].name} into your energy stock{_copy_note(st, p, a.arg)}"
        return described(text, _hand_place(v, p, a.arg), place("to", "energy", kind, p))
    return described(
        v.say("put", f"an energy card from its hand into the energy stock (hand card {a.arg + 1})")
    )


def _action(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, p = v.st, ctx[0]
    if a.kind == Kind.PASS:
        return described(v.say("pass", "the turn to act (two passes in a row end the round's actions)"))
    if a.kind == Kind.USE_PART:
        return _use_part(v, p, a.arg)
    cid = st.hand[p][a.arg]
    card = st.cards[cid]
    if not v.own:
        return described(v.say("play", f"card {a.arg + 1} of its hand"), _hand_place(v, p, a.arg))
    note = _copy_note(st, p, a.arg)
    if card.type == MEDAROTER:
        return described(f"Play {card.name}{note}: {_card_effect(card)}", _hand_place(v, p, a.arg))
    m = st.action_medarot[p]
    old = st.field[p][m].parts[card.slot]
    disposal = st.config.disposal_cost if old.destroyed else 0
    cost = card.price + disposal
    how = f"{card.price} G" + (f" + {disposal} G to dispose of the destroyed part" if disposal else "")
    state = "destroyed " if old.destroyed else ""
    text = (
        f"Exchange the {state}{SLOT_WORDS[card.slot]} {st.cards[old.card].name} of {v.medarot(p, m)} for"
        f" {card.name}{note}: costs {how} ({st.assets[p] - cost} G left)"
    )
    return described(text, _hand_place(v, p, a.arg), _part_place("to", p, m, card.slot))


def _use_part(v: _Voice, p: int, s: int) -> Described:
    st = v.st
    m = st.action_medarot[p]
    card = st.cards[st.field[p][m].parts[s].card]
    c = charge(st, p, m, s)
    pw = power(st, p, m, s)
    here = _part_place("card", p, m, s)
    pay = _charge_words(c)
    if c and medal_pays(st, p, m, s):
        pay += ", the medal may pay"
    if card.action in ATTACK_ACTIONS:
        extras = [a.text() for a in card.abilities if a.source == "ON_USE"]
        bits = [f"{ACTION_WORDS[card.action]}, power {pw}", pay] + extras
        text = v.say("attack", f"with {card.name} ({SLOT_WORDS[s]}): " + "; ".join(bits))
        d = 1 - p
        if d == 1 and st.config.proxy:
            gets = (
                "costs it the damage"
                if st.config.proxy == proxy.GUEST
                else "costs it 1 life if it deals damage"
            )
            text += f"; it hits the head of {proxy_name(st)}, which has {st.proxy_life} life: the hit {gets}"
            return described(text, here, place("target", "medarot", 0, d))
        am = st.action_medarot[d]
        if am >= 0 and card.action != AIMED and not st.field[d][am].parts[LEGS].destroyed:
            return described(f"{text}; {v.medarot(d, am)} defends", here, place("target", "medarot", am, d))
        who = "you choose" if v.own else "the attacker chooses"
        return described(f"{text}; {who} the defending medarot", here)
    if card.action == REPAIR:
        text = v.say(
            "repair",
            f"with {card.name} ({SLOT_WORDS[s]}): {pay}; removes up to {plural(pw, 'damage counter')} from a"
            " part; taps the legs",
        )
        return described(text, here)
    if card.action == SUPPORT:
        effs = _theirs(v, " and ".join(a.text() for a in card.abilities if a.source == "ON_USE"))
        text = v.say("use", f"{card.name} ({SLOT_WORDS[s]}, support): {pay}; {effs}; taps the legs")
        return described(text, here)
    return described(v.say("use", f"{card.name} ({SLOT_WORDS[s]})"), here)  # pragma: no cover


def _theirs(v: _Voice, text: str) -> str:
    """Card text written for its user, told about the opponent ("your medarots" -> "its medarots")."""
    return text if v.own else text.replace("your ", "its ").replace("lets you ", "lets it ")


def _card_effect(card: Any) -> str:
    cost = (
        "no cost" if card.cost == 0 else f"cost {card.cost} ({_ep(2 * card.cost)}, support energy pays 2 EP)"
    )
    effs = " and ".join(a.text() for a in card.abilities)
    return f"{cost}; it {effs}"


def _payment(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st = v.st
    payer, need, paid, mp, mi, kind = st.pay  # type: ignore[misc]
    if a.kind == Kind.PAY_MEDAL:
        medal = st.cards[st.field[mp][mi].medal]
        gain = 2 * medal.efficient
        what = f"the {medal.name}"
        where = place("card", "medal", mi, mp)
    else:
        gain = 2 if a.arg == kind else 1
        what = f"a {ENERGY_NAMES[a.arg]}"
        where = place("card", "energy", a.arg, payer)
    total = paid + gain
    lost = f", {total - need} EP lost" if total > need else ""
    return described(v.say("tap", f"{what} for {_ep(gain)}: {total} of {need} EP paid{lost}"), where)


def _window(v: _Voice, ctx: tuple[int, ...], a: Action, step: str) -> Described:
    st, p = v.st, v.actor
    if a.kind == Kind.PASS:
        return described(v.say("play", f"no more {step} cards in this battle"))
    if not v.own:
        return described(v.say("play", f"card {a.arg + 1} of its hand"), _hand_place(v, p, a.arg))
    card = st.cards[st.hand[p][a.arg]]
    return described(
        f"Play {card.name}{_copy_note(st, p, a.arg)}: {_card_effect(card)}", _hand_place(v, p, a.arg)
    )


def _power_window(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    return _window(v, ctx, a, "power")


def _defense_window(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    return _window(v, ctx, a, "defense")


def _defender(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, b = v.st, v.battle()
    d = 1 - b.attacker
    legs = st.field[d][a.arg].parts[LEGS]
    note = "its action medarot" if st.action_medarot[d] == a.arg else "not its action medarot"
    if not legs.destroyed and not legs.tapped:
        note += ", legs untapped"
    text = v.say("make", f"{v.medarot(d, a.arg)} ({note}) defend against {b.damage or 'the'} damage")
    return described(text, place("target", "medarot", a.arg, d))


def _response(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, b = v.st, v.battle()
    d, m = 1 - b.attacker, b.defender
    if a.kind == Kind.PASS:
        return described(
            v.say("take", f"the {b.damage} damage without a response"), place("target", "medarot", m, d)
        )
    legs = _part_place("target", d, m, LEGS)
    if a.kind == Kind.EVADE:
        if v.own:
            h = next(i for i, c in enumerate(st.hand[d]) if st.cards[c].type == EVADE)
            name = st.cards[st.hand[d][h]].name
            text = f"Evade with {name}: discard it and tap the legs; the damage becomes 0"
            return described(text, _hand_place(v, d, h), legs)
        return described(
            v.say("evade", "with an evade card: the legs are tapped and the damage becomes 0"), legs
        )
    s = a.arg
    part = st.field[d][m].parts[s]
    c, pw = charge(st, d, m, s), power(st, d, m, s)
    armor = st.cards[part.card].armor
    shock = (
        "block shock then puts 1 counter on it"
        if part.counters < armor - 1
        else "no block shock (1 armor left)"
    )
    text = v.say(
        "protect",
        f"with {st.cards[part.card].name} ({SLOT_WORDS[s]}, charge {c}, power {pw}): pay up to {c} charge,"
        f" each point cuts 1 damage and the full charge cuts {pw}; {shock}",
    )
    return described(text, _part_place("card", d, m, s))


def _amount(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, b = v.st, v.battle()
    d, m, s = 1 - b.attacker, b.defender, b.protect
    part = st.field[d][m].parts[s]
    full, pw = charge(st, d, m, s), power(st, d, m, s)
    k = a.arg
    cut = pw if k >= full else min(k, pw)
    left = max(0, b.damage - cut)
    armor = st.cards[part.card].armor
    name = st.cards[part.card].name
    if part.counters < armor - 1:
        left = max(0, left - 1)
        shock = f"block shock puts 1 counter on {name}"
    else:
        shock = f"no block shock ({name} has 1 armor left)"
    pay = "pay nothing" if k == 0 else f"pay {k} of the charge {full} ({_ep(2 * k)})"
    after = max(0, b.damage - cut)
    text = v.say(
        pay, f"for {name}: the damage drops from {b.damage} to {after}, then {shock}; {left} left to place"
    )
    return described(text, _part_place("card", d, m, s))


def _allocate(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, b = v.st, v.battle()
    d, m, s = 1 - b.attacker, b.defender, a.arg
    part = st.field[d][m].parts[s]
    armor = st.cards[part.card].armor
    after = part.counters + b.damage
    if after >= armor:
        fate = "destroys it" + (" and stops the medarot" if s == 0 else "")
    else:
        fate = f"{after} counters of armor {armor}, {armor - after} left"
    text = v.say("put", f"all {b.damage} damage on {v.part(d, m, s)}: {fate}")
    return described(text, _part_place("target", d, m, s))


def _attach(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, b = v.st, v.battle()
    p, m, s = b.attacker, b.medarot, b.slot
    card = st.cards[st.field[p][m].parts[s].card]
    if a.kind == Kind.PASS:
        return described(v.say("keep", f"the effect card in hand: {card.name}'s effect stays off"))
    eff = next((ab.text() for ab in card.abilities if ab.source == "EFFECT"), "its effect turns on")
    if v.own:
        h = next(i for i, c in enumerate(st.hand[p]) if st.cards[c].type == EFFECT)
        name = st.cards[st.hand[p][h]].name
        return described(
            f"Attach {name} to {card.name}: its effect turns on, it {eff}",
            _hand_place(v, p, h),
            _part_place("target", p, m, s),
        )
    return described(
        v.say("attach", f"an effect card to {card.name}: its effect turns on, it {eff}"),
        _part_place("target", p, m, s),
    )


def _effect_target(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, b = v.st, v.battle()
    p = b.attacker
    card = st.cards[st.field[p][b.medarot].parts[b.slot].card]
    ab = next(x for x in card.abilities if x.source == "EFFECT")
    d = 1 - p
    text = v.say(
        "give", f"{_mod_words(ab)} to {v.part(d, a.arg, ab.slot)} while {card.name} keeps its effect card"
    )
    return described(text, _part_place("target", d, a.arg, ab.slot))


def _mod_words(ab: Ability) -> str:
    return f"{ab.amount:+d} {ab.op.lower()}"


def _repair_medarot(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, p = v.st, v.actor
    n = sum(x.counters for x in st.field[p][a.arg].parts if not x.destroyed)
    text = v.say("repair", f"{v.medarot(p, a.arg)} ({plural(n, 'damage counter')} on its parts)")
    return described(text, place("target", "medarot", a.arg, p))


def _repair_part(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, p = v.st, v.actor
    m, s, target = ctx
    part = st.field[p][target].parts[a.arg]
    n = min(power(st, p, m, s), part.counters)
    text = v.say(
        "remove",
        f"{plural(n, 'damage counter')} from {v.part(p, target, a.arg)}, which holds {part.counters}",
    )
    return described(text, _part_place("target", p, target, a.arg))


def _target(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st = v.st
    use = st.use
    assert use is not None
    p, cid, _source, targets = use
    e, stage = ctx[0], ctx[1]
    if stage == 2:
        left = ctx[2]
        if a.kind == Kind.PASS:
            return described(v.say("stop", "untapping energy cards"))
        more = f" ({left - 1} more may follow)" if left > 1 else ""
        return described(
            v.say("untap", f"a {ENERGY_NAMES[a.arg]}{more}"), place("target", "energy", a.arg, p)
        )
    ab = use_abilities(st)[e]
    name = st.cards[cid].name
    if stage == 0:
        i = a.arg
        if ab.target == Target.OPP_SLOT:
            d = 1 - p
            text = v.say("give", f"{_mod_words(ab)} to {v.part(d, i, ab.slot)} ({name})")
            return described(text, _part_place("target", d, i, ab.slot))
        if ab.target == Target.OWN_MEDAROT:
            text = v.say("give", f"{_mod_words(ab)} to the head and arms of {v.medarot(p, i)} ({name})")
            return described(text, place("target", "medarot", i, p))
        if ab.target == Target.OWN_PART:
            text = v.say("repair", f"a part of {v.medarot(p, i)} with {name} (the part comes next)")
            return described(text, place("target", "medarot", i, p))
        text = v.say("attach", f"{name} to a part of {v.medarot(p, i)} (the part comes next)")
        return described(text, place("target", "medarot", i, p))
    m = targets[e][0]
    part = st.field[p][m].parts[a.arg]
    if ab.target == Target.OWN_PART:
        n = min(ab.amount, part.counters)
        text = v.say("remove", f"{plural(n, 'damage counter')} from {v.part(p, m, a.arg)} ({name})")
    else:
        effs = " and ".join(_mod_words(x) for x in use_abilities(st))
        text = v.say("attach", f"{name} to {v.part(p, m, a.arg)}: {effs} while it stays")
    return described(text, _part_place("target", p, m, a.arg))


def _discard(v: _Voice, ctx: tuple[int, ...], a: Action) -> Described:
    st, p = v.st, ctx[0]
    n = len(st.hand[p])
    if a.kind == Kind.PASS:
        return described(v.say("keep", f"the {plural(n, 'card')} now in hand (no more discards)"))
    if v.own:
        name = st.cards[st.hand[p][a.arg]].name
        return described(f"Discard {name}{_copy_note(st, p, a.arg)}", _hand_place(v, p, a.arg))
    return described(v.say("discard", f"card {a.arg + 1} of its hand"), _hand_place(v, p, a.arg))


#: decision point -> its handler, keyed by the plain int (an ``IntEnum`` member hashes and compares as one)
_HANDLERS: Final[dict[int, Callable[[_Voice, tuple[int, ...], Action], Described]]] = {
    DP.ACTION_MEDAROT_TIE: _tie,
    DP.ENERGY_PLACE: _energy_place,
    DP.ACTION: _action,
    DP.PAYMENT: _payment,
    DP.POWER_WINDOW: _power_window,
    DP.DEFENDER_CHOICE: _defender,
    DP.DEFENSE_WINDOW: _defense_window,
    DP.RESPONSE: _response,
    DP.PROTECT_AMOUNT: _amount,
    DP.ALLOCATE: _allocate,
    DP.EFFECT_ATTACH: _attach,
    DP.EFFECT_TARGET: _effect_target,
    DP.REPAIR_MEDAROT: _repair_medarot,
    DP.REPAIR_PART: _repair_part,
    DP.TARGET: _target,
    DP.DISCARD: _discard,
}


# ----------------------------------------------------------------------------- prompts
def decision_text(state: GameState, seat: int) -> str:
    """The pending decision as a prompt for ``seat`` ("Choose ..."; "The opponent is choosing ...")."""
    st = state
    if st.done or st.decision_point is None:
        return "The game is over"
    kind, player, ctx = st.decision_point
    own = player == seat
    v = _Voice(st, seat, player)
    dp = DP(kind)
    b = st.battle
    mine, theirs = _PROMPTS[dp]
    text = mine if own else theirs
    fill: dict[str, Any] = {"round": st.round, "hand": len(st.hand[player])}
    if dp == DP.ACTION_MEDAROT_TIE:
        fill["mob"] = max(
            mobility(st, player, i) for i in range(len(st.field[player])) if not st.field[player][i].stopped
        )
    if dp == DP.ACTION:
        m = st.action_medarot[player]
        fill["who"] = v.medarot(player, m) if m >= 0 else "no action medarot this round"
        if m < 0:
            text = (
                "Your turn to act, without an action medarot this round: play a card or pass"
                if own
                else "The opponent has the turn to act (no action medarot): it may play a card or pass"
            )
    if dp == DP.PAYMENT and st.pay is not None:
        _payer, need, paid = st.pay[:3]
        fill.update(need=need, paid=paid, left=need - paid)
    if b is not None:
        fill["damage"] = b.damage
        fill["attack"] = v.part(b.attacker, b.medarot, b.slot)
        if b.defender >= 0:
            fill["defender"] = v.medarot(1 - b.attacker, b.defender)
            if b.protect >= 0:
                d = 1 - b.attacker
                fill["protect"] = st.cards[st.field[d][b.defender].parts[b.protect].card].name
                fill["charge"] = charge(st, d, b.defender, b.protect)
    if dp == DP.REPAIR_PART:
        fill["target"] = v.medarot(player, ctx[2])
    if dp == DP.TARGET and st.use is not None:
        fill["card"] = st.cards[st.use[1]].name
        if ctx[1] == 2:
            text = (
                "Untap your energy cards one at a time, or stop"
                if own
                else "The opponent is untapping its energy cards"
            )
    if dp == DP.DISCARD and len(st.hand[player]) <= st.config.hand_size:
        text = (
            "End phase: discard cards you do not want, or keep your hand"
            if own
            else "The opponent may discard cards in the end phase"
        )
    try:
        out = text.format(**fill)
    except (KeyError, IndexError):  # a field missing in an odd position: the prompt without numbers
        out = (mine if own else theirs).split(":")[0].split("{")[0].strip() or "Choose a move"
    return out[:1].upper() + out[1:]


_PROMPTS: Final[dict[DP, tuple[str, str]]] = {
    DP.ACTION_MEDAROT_TIE: (
        "Round {round}: choose your action medarot (your fastest tie at mobility {mob})",
        "The opponent is choosing its action medarot for round {round}",
    ),
    DP.ENERGY_PLACE: (
        "Energy step: put an energy card from your hand into your energy stock, or pass",
        "The opponent may put an energy card into its energy stock",
    ),
    DP.ACTION: (
        "Your turn to act with {who}: attack, repair, support, play a card, exchange a part, or pass",
        "The opponent has the turn to act with {who}",
    ),
    DP.PAYMENT: (
        "Pay {left} more EP ({paid} of {need} paid): tap energy cards or a medal",
        "The opponent is paying ({paid} of {need} EP paid)",
    ),
    DP.POWER_WINDOW: (
        "Power step of the attack by {attack} (power {damage} so far): play a power card or pass",
        "The opponent may play power cards on the attack by {attack}",
    ),
    DP.DEFENDER_CHOICE: (
        "Choose which opposing medarot defends against {attack}",
        "The opponent is choosing which of your medarots defends against {attack}",
    ),
    DP.DEFENSE_WINDOW: (
        "{defender} is attacked for {damage} damage: play a defense card or pass",
        "The opponent may play defense cards against {damage} damage",
    ),
    DP.RESPONSE: (
        "{defender} takes {damage} damage: evade, protect, or take it",
        "The opponent is choosing how {defender} meets {damage} damage: evade, protect or take it",
    ),
    DP.PROTECT_AMOUNT: (
        "Choose how much of {protect}'s charge {charge} to pay against {damage} damage",
        "The opponent is choosing how much charge to pay for {protect}",
    ),
    DP.ALLOCATE: (
        "Choose the part of {defender} that takes all {damage} damage",
        "The opponent is choosing which part of {defender} takes the {damage} damage",
    ),
    DP.EFFECT_ATTACH: (
        "{attack} dealt damage: attach an effect card to it, or keep the card",
        "The opponent may attach an effect card to {attack}",
    ),
    DP.EFFECT_TARGET: (
        "Choose the opposing medarot that the effect of {attack} binds to",
        "The opponent is choosing which of your medarots the effect of {attack} binds to",
    ),
    DP.REPAIR_MEDAROT: (
        "Choose which of your medarots to repair",
        "The opponent is choosing which of its medarots to repair",
    ),
    DP.REPAIR_PART: (
        "Choose the part of {target} to repair",
        "The opponent is choosing the part of {target} to repair",
    ),
    DP.TARGET: (
        "Choose the target of {card}",
        "The opponent is choosing the target of {card}",
    ),
    DP.DISCARD: (
        "End phase: discard down to 7 cards ({hand} in hand)",
        "The opponent is discarding down to 7 cards ({hand} in hand)",
    ),
}


# ----------------------------------------------------------------------------- what is resolving
def resolving_text(state: GameState, seat: int) -> str | None:
    """What is being resolved now, in words for ``seat`` (a battle, a card or part in use, a payment), or None."""
    st = state
    if st.done:
        return None
    v = _Voice(st, seat, -1)
    out = []
    b = st.battle
    if b is not None:
        line = f"Battle: {v.part(b.attacker, b.medarot, b.slot)} attacks"
        if b.defender >= 0:
            line += f" {v.medarot(1 - b.attacker, b.defender)}"
        line += f", damage {b.damage}" if b.damage else ""
        if b.response == 1:
            line += ", evaded"
        elif b.response == 2 and b.protect >= 0:
            d = 1 - b.attacker
            line += f", protected by {st.cards[st.field[d][b.defender].parts[b.protect].card].name}"
            line += f" (paying {b.amount})"
        elif b.response == 0:
            line += ", no response"
        if b.no_evade:
            line += ", no evading"
        out.append(line)
    if st.use is not None:
        p, cid, source, _ = st.use
        how = ("use{} the support part" if source >= 0 else "play{}").format("" if p == seat else "s")
        who = "You" if p == seat else "The opponent"
        out.append(f"{who} {how} {st.cards[cid].name}")
    if st.pay is not None:
        payer, need, paid = st.pay[:3]
        who = "You are" if payer == seat else "The opponent is"
        out.append(f"{who} paying: {paid} of {need} EP")
    return "; ".join(out) or None
