"""Moves of Master of the World in words (``envs.core.describe``): sentences and board places.

``describe_action(state, seat, index)`` tells what action ``index`` does at ``state`` as a
plain-English sentence for the reader ``seat`` ("Charge Moss Sprite as experience", "Summon
Pike Soldier", "Pike Soldier (slot 1) attacks the opponent's Moss Sprite (slot 2)"), with the
board places it concerns. A move of the other seat is told without what the reader cannot
know: a card from that seat's hand, deck or face-down spell is "a card" / "a spell" until it
is on the table. ``decision_text`` is the current decision as a prompt, ``card_names`` the
names of the pool's cards.

**Places** (``zone/player/index``, as the boards tag them with ``data-place``):

``master``
    player p's master (index None).
``monster``
    player p's monster slot ``index`` (0-based field position; an empty slot is where a summon
    goes, at index = the number of monsters).
``weapon`` / ``spell``
    player p's weapon slot and spell slot (index None).
``hand``
    player p's hand card at ``index`` (the view's hand order; a move on a card type names
    every copy of it in hand).
``deck`` / ``discard`` / ``experience``
    player p's piles (index None, or a card's position in the discard pile).
``chain``
    the chain entry at ``index`` (bottom first; player None).

Slots are shown to people counted from 1 ("slot 1" is position 0).
"""

from __future__ import annotations

from deckgym.envs.core.describe import Described, Place, described, place
from deckgym.envs.mow.actions import ALL_ACTIONS, DP, SPELL_POS, WEAPON_POS, Action, Kind, Use
from deckgym.envs.mow.card_defs import (
    CONDITION_WORDS,
    MONSTER,
    TIMING_WORDS,
    WEAPON,
    CardDef,
    Effect,
    plural,
    stat_words,
)
from deckgym.envs.mow.state import GameState

__all__ = ["ZONES", "card_names", "decision_text", "describe_action"]

#: The zone names of MoW's places (see the module docs).
ZONES = ("master", "monster", "weapon", "spell", "hand", "deck", "discard", "experience", "chain")

_USE_VERB = {Use.SUMMON: "summons", Use.EQUIP: "equips", Use.CAST: "casts", Use.ACTIVATE: "activates"}
_USE_NOUN = {
    Use.SUMMON: "summon",
    Use.EQUIP: "equip",
    Use.CAST: "cast",
    Use.ACTIVATE: "activation",
    Use.ABILITY: "ability",
}


def card_names(state: GameState) -> dict[str, str]:
    """Card id -> card name for every card of the state's pool."""
    return {cid: c.name for cid, c in state.cards.items()}


# ----------------------------------------------------------------------------- who and where
def _whose(p: int, seat: int, actor: int | None = None) -> str:
    """``your``, ``the opponent's``, or ``its`` in a sentence whose subject is the opponent ``actor``."""
    if p == seat:
        return "your"
    return "its" if actor == p else "the opponent's"


def _field_place(role: str, owner: int, q: int) -> Place:
    """The place of TARGET position ``q`` (0 master, 1-5 monsters, 6 weapon, 7 spell) of ``owner``."""
    if q == 0:
        return place(role, "master", None, owner)
    if q == WEAPON_POS:
        return place(role, "weapon", None, owner)
    if q == SPELL_POS:
        return place(role, "spell", None, owner)
    return place(role, "monster", q - 1, owner)


def _field_name(st: GameState, owner: int, q: int, seat: int, actor: int | None = None) -> str:
    """A field card at TARGET position ``q`` of ``owner``, named as ``seat`` reads it."""
    whose = _whose(owner, seat, actor)
    if q == 0 and st.is_proxy(owner):
        return st.stand_in()
    if q == 0:
        return f"{whose} master {st.name(st.masters[owner])}"
    if q == WEAPON_POS:
        w = st.weapon[owner]
        return f"{whose} weapon {st.name(w[0])}" if w else f"{whose} weapon"
    if q == SPELL_POS:
        s = st.spell[owner]
        if s is not None and owner == seat:
            return f"your face-down {st.name(s[0])}"
        return f"{whose} face-down spell"
    mons = st.monsters[owner]
    if q - 1 < len(mons):
        return f"{whose} {st.name(mons[q - 1].card)} (slot {q})"
    return f"{whose} monster in slot {q}"


def _hand_places(st: GameState, p: int, cid: str, role: str = "card") -> list[Place]:
    """Every copy of ``cid`` in ``p``'s hand, as places."""
    return [place(role, "hand", i, p) for i, c in enumerate(st.hand[p]) if c == cid]


def _attacker(
    st: GameState, p: int, ref: int, seat: int, actor: int | None = None
) -> tuple[str, Place | None]:
    """The declared attacker (``pending[1]``): its words and place."""
    whose = _whose(p, seat, actor)
    if ref < 0:
        return f"{whose} master {st.name(st.masters[p])}", place("from", "master", None, p)
    for i, m in enumerate(st.monsters[p]):
        if m.uid == ref:
            return f"{whose} {st.name(m.card)} (slot {i + 1})", place("from", "monster", i, p)
    return "the attacker", None


def _source(st: GameState) -> str:
    """The card whose effect is resolving (at an effect decision)."""
    pend = st.pending
    if pend is None or len(pend) < 2 or not isinstance(pend[1], list):
        return "the effect"
    return st.name(pend[1][1])


def _effect(st: GameState) -> Effect | None:
    """The primitive being resolved at an effect decision."""
    pend = st.pending
    if pend is None or len(pend) < 2 or not isinstance(pend[1], list):
        return None
    f = pend[1]
    return st.cards[f[1]].effect_list(f[2])[f[3]]


def _paying_for(st: GameState, p: int) -> str:
    """What a cost is paid for: the card set aside, or an ability."""
    c = st.setaside[p]
    return st.name(c) if c is not None else "an ability"


def _top_use(st: GameState, seat: int) -> str:
    """The chain's top entry in words, as ``seat`` may know it (``the opponent's summon of X``)."""
    if not st.chain:
        return "nothing"
    user, kind, card, _uid, _neg, _here, _ai = st.chain[-1]
    whose = _whose(user, seat)
    if kind == Use.CAST:
        return f"your face-down cast of {st.name(card)}" if user == seat else f"{whose} face-down spell cast"
    if kind == Use.ABILITY:
        return f"{whose} {st.name(card)}'s counter ability"
    return f"{whose} {_USE_NOUN[Use(kind)]} of {st.name(card)}"


def _chain_place(st: GameState) -> list[Place]:
    return [place("target", "chain", len(st.chain) - 1)] if st.chain else []


# ----------------------------------------------------------------------------- sentences
def _ability(st: GameState, p: int, arg: int, seat: int) -> Described:
    pos, i = divmod(arg, 2)
    if pos == 0:
        card, where = st.masters[p], place("card", "master", None, p)
        label = f"{_whose(p, seat, p)} master {st.name(card)}"
    elif pos == WEAPON_POS:
        card, where = st.weapon[p][0], place("card", "weapon", None, p)  # type: ignore[index]
        label = f"{_whose(p, seat, p)} weapon {st.name(card)}"
    else:
        card, where = st.monsters[p][pos - 1].card, place("card", "monster", pos - 1, p)
        label = f"{_whose(p, seat, p)} {st.name(card)} (slot {pos})"
    c: CardDef = st.cards[card]
    ab = c.abilities[c.acts[i]]
    kind = TIMING_WORDS.get(ab.timing, "activated")
    body = ab.body()
    if p == seat:
        text = f"Use {label}'s {kind} ability: {body}"
    else:
        text = f"The opponent uses {label}'s {kind} ability: {body}"
    return described(text, where)


def _target(st: GameState, p: int, arg: int, seat: int, dp: int) -> Described:
    owner = p if arg < 8 else 1 - p
    q = arg % 8
    me = p == seat
    name = _field_name(st, owner, q, seat, None if me else p)
    tgt = _field_place("target", owner, q)
    if dp == DP.ATTACK_TARGET:
        name = _field_name(st, owner, q, seat)
        ref = st.pending[1] if st.pending else 0
        who, frm = _attacker(st, p, ref, seat)
        places = [frm, tgt] if frm else [tgt]
        return described(f"{who} attacks {name}", *places)
    if dp in (DP.COST_SACRIFICE, DP.OVERFLOW_DISCARD):
        why = f"to pay for {_paying_for(st, p)}" if dp == DP.COST_SACRIFICE else "(more monsters than slots)"
        verb = "Discard" if me else "The opponent discards"
        return described(f"{verb} {name} {why}", _field_place("card", owner, q))
    e = _effect(st)
    src = _source(st)
    if e is None:
        return described(f"{'Choose' if me else 'The opponent chooses'} {name}", tgt)
    n = str(st.level[p]) if e.amount < 0 else str(e.amount)
    if e.op == "DAMAGE":
        act = f"deal {n} damage to {name}"
    elif e.op == "HEAL":
        act = f"heal {name} by {n}"
    elif e.op == "DESTROY":
        act = f"destroy {name}"
    elif e.op == "BOUNCE":
        act = f"return {name} to its owner's hand"
    elif e.op == "BUFF":
        stats = stat_words(e.d_atk, e.d_def, "guard" if q == 0 else "toughness")
        when = "until the end of the turn" if e.duration == "TURN" else "for good"
        act = f"give {name} {stats} {when}"
    else:
        act = f"choose {name}"
    if me:
        return described(f"{src}: {act}", tgt)
    return described(f"{src}: the opponent chooses to {act}", tgt)


def _hand_card(st: GameState, p: int, k: int, seat: int, dp: int) -> Described:
    c = st.pool.main[k]
    me = p == seat
    places = _hand_places(st, p, c.id) if me else []
    name = c.name
    if dp == DP.CHARGE:
        to = place("to", "experience", None, p)
        if me:
            return described(f"Charge {name} as experience", *places, to)
        return described("The opponent charges a card from hand as experience", to)
    if dp == DP.COST_DISCARD:
        why = f"to pay for {_paying_for(st, p)}"
        to = place("to", "discard", None, p)
        if me:
            return described(f"Discard {name} from your hand {why}", *places, to)
        return described(f"The opponent discards a card from hand {why}", to)
    if dp == DP.EXP_FROM_HAND:
        to = place("to", "experience", None, p)
        if me:
            return described(f"Put {name} from your hand into your experience ({_source(st)})", *places, to)
        return described(f"The opponent puts a card from hand into experience ({_source(st)})", to)
    to = place("to", "discard", None, p)
    if me:
        return described(f"Discard {name} from your hand ({_source(st)})", *places, to)
    return described(f"The opponent discards a card from hand ({_source(st)})", to)


def _use(st: GameState, p: int, k: int, seat: int) -> Described:
    c = st.pool.main[k]
    me = p == seat
    places = _hand_places(st, p, c.id) if me else []
    if c.kind == MONSTER:
        # the next free slot; a summon that pays with a monster of a full field names no slot
        n = len(st.monsters[p])
        to = [place("to", "monster", n, p)] if n < st.level[p] else []
        extra = _cost_words(c)
        if me:
            return described(f"Summon {c.name}{extra}", *places, *to)
        return described("The opponent summons a monster from hand", *to)
    if c.kind == WEAPON:
        slot = place("to", "weapon", None, p)
        w = st.weapon[p]
        extra = _cost_words(c) + (f" (replacing {st.name(w[0])})" if w else "")
        if me:
            return described(f"Equip {c.name}{extra}", *places, slot)
        return described("The opponent equips a weapon from hand", slot)
    slot = place("to", "spell", None, p)
    if me:
        return described(f"Cast {c.name} face down into your spell slot", *places, slot)
    return described("The opponent casts a spell face down", slot)


def _cost_words(c: CardDef) -> str:
    costs = [CONDITION_WORDS[code](n) for code, n in c.condition if code.startswith("COST_")]
    return f" ({' and '.join(costs)})" if costs else ""


def _fast(st: GameState, p: int, k: int, seat: int, dp: int) -> Described:
    c = st.pool.main[k]
    me = p == seat
    if dp == DP.COUNTER_WINDOW:
        answer = _top_use(st, seat)
        if me:
            return described(
                f"Counter {answer} with {c.name} from your hand (fast)",
                *_hand_places(st, p, c.id),
                *_chain_place(st),
            )
        return described(f"The opponent counters {answer} with a fast spell from hand", *_chain_place(st))
    if me:
        effect = ", then ".join(e.describe() for e in c.effects)
        return described(
            f"Activate {c.name} straight from your hand (fast): {effect}", *_hand_places(st, p, c.id)
        )
    return described("The opponent activates a fast spell from hand")


def _slot(st: GameState, p: int, seat: int, dp: int) -> Described:
    me = p == seat
    s = st.spell[p]
    where = place("card", "spell", None, p)
    name = st.name(s[0]) if s is not None else "spell"
    if dp == DP.COUNTER_WINDOW:
        answer = _top_use(st, seat)
        if me:
            return described(f"Counter {answer} with your face-down {name}", where, *_chain_place(st))
        return described(f"The opponent counters {answer} with its face-down spell", where, *_chain_place(st))
    if me:
        return described(f"Activate your face-down {name}", where)
    return described("The opponent activates its face-down spell", where)


def _attack(st: GameState, p: int, arg: int, seat: int) -> Described:
    me = p == seat
    if arg == 0:
        who = f"{_whose(p, seat, p)} master {st.name(st.masters[p])}"
        where = place("card", "master", None, p)
    else:
        m = st.monsters[p][arg - 1]
        who = f"{_whose(p, seat, p)} {st.name(m.card)} (slot {arg})"
        where = place("card", "monster", arg - 1, p)
    if me:
        return described(f"Attack with {who}", where)
    return described(f"The opponent attacks with {who}", where)


def _pass(st: GameState, p: int, seat: int, dp: int) -> Described:
    me = p == seat
    if dp == DP.CHARGE:
        return described("Stop charging and go on to the main phase" if me else "The opponent stops charging")
    if dp == DP.MAIN:
        return described(
            "End the main phase and go on to attacks" if me else "The opponent ends its main phase"
        )
    if dp == DP.ATTACK_DECLARE:
        return described("End the turn without more attacks" if me else "The opponent ends its turn")
    if dp == DP.COUNTER_WINDOW:
        answer = _top_use(st, seat)
        return described(f"Do not counter {answer}" if me else f"The opponent does not counter {answer}")
    return described("Pass" if me else "The opponent passes")


def _card_type(st: GameState, p: int, k: int, seat: int, dp: int) -> Described:
    c = st.pool.main[k]
    me = p == seat
    if dp == DP.RECOVER_CHOICE:
        where = [place("card", "discard", i, p) for i, x in enumerate(st.discard[p]) if x == c.id]
        if me:
            return described(f"Take {c.name} back from your discard pile into your hand", *where)
        return described(f"The opponent takes {c.name} back from its discard pile", *where)
    if me:
        return described(f"Take {c.name} from your deck into your hand", place("card", "deck", None, p))
    return described("The opponent takes a card from its deck", place("card", "deck", None, p))


def describe_action(state: GameState, seat: int, index: int) -> Described:
    """Action ``index`` at ``state`` in words, as ``seat`` may know it (see the module docs)."""
    st = state
    a: Action = ALL_ACTIONS[index]
    p = st.current_player
    dp = st.decision_point[0] if st.decision_point is not None else DP.NONE
    k = a.kind
    if k == Kind.PASS:
        return _pass(st, p, seat, dp)
    if k == Kind.HAND:
        return _hand_card(st, p, a.arg, seat, dp)
    if k == Kind.USE:
        return _use(st, p, a.arg, seat)
    if k == Kind.FAST:
        return _fast(st, p, a.arg, seat, dp)
    if k == Kind.SLOT_SPELL:
        return _slot(st, p, seat, dp)
    if k == Kind.ABILITY:
        return _ability(st, p, a.arg, seat)
    if k == Kind.ATTACKER:
        return _attack(st, p, a.arg, seat)
    if k == Kind.TARGET:
        return _target(st, p, a.arg, seat, dp)
    return _card_type(st, p, a.arg, seat, dp)


# ----------------------------------------------------------------------------- the decision
def _prompt_charge(st: GameState, p: int, me: bool, seat: int) -> str:
    from deckgym.envs.mow.rules.values import charge_limit

    left = charge_limit(st, p) - st.charges
    if me:
        return f"Charge a card from your hand as experience ({plural(left, 'charge')} left), or stop charging"
    return "The opponent is choosing whether to charge a card as experience"


def _prompt_main(st: GameState, p: int, me: bool, seat: int) -> str:
    if me:
        return "Main phase: summon, equip, cast or activate a card, use an ability, or end the main phase"
    return "The opponent is playing its main phase"


def _prompt_declare(st: GameState, p: int, me: bool, seat: int) -> str:
    return "Choose an attacker, or end the turn" if me else "The opponent is choosing an attacker"


def _prompt_target(st: GameState, p: int, me: bool, seat: int) -> str:
    ref = st.pending[1] if st.pending else 0
    who, _ = _attacker(st, p, ref, seat, p)
    return f"Choose what {who} attacks" if me else f"The opponent is choosing what {who} attacks"


def _prompt_window(st: GameState, p: int, me: bool, seat: int) -> str:
    answer = _top_use(st, seat)
    return (
        f"Counter {answer}, or let it resolve"
        if me
        else f"The opponent is choosing whether to counter {answer}"
    )


def _prompt_cost(st: GameState, p: int, me: bool, seat: int) -> str:
    assert st.decision_point is not None
    hand = st.decision_point[0] == DP.COST_DISCARD
    left = st.pending[3] if st.pending else 1
    for_ = _paying_for(st, p)
    if me:
        what = "a card from your hand" if hand else "one of your monsters"
        return f"Choose {what} to discard to pay for {for_} ({left} left)"
    what = "a card from hand" if hand else "one of its monsters"
    return f"The opponent is choosing {what} to discard to pay for {for_}"


def _prompt_overflow(st: GameState, p: int, me: bool, seat: int) -> str:
    if me:
        return "You have more monsters than slots: choose one to discard"
    return "The opponent has more monsters than slots and is choosing one to discard"


def _prompt_effect_target(st: GameState, p: int, me: bool, seat: int) -> str:
    e = _effect(st)
    src = _source(st)
    if not me:
        return f"The opponent is choosing the target of {src}"
    return f"{src}: choose the target ({e.describe() if e is not None else 'its effect'})"


#: Effect choices without a target: (the reader's prompt, the other seat's), with ``{src}``.
_EFFECT_PROMPTS = {
    DP.EFFECT_DISCARD: (
        "{src}: choose a card to discard",
        "The opponent is choosing a card to discard ({src})",
    ),
    DP.EXP_FROM_HAND: (
        "{src}: choose a card from your hand to put into your experience",
        "The opponent is choosing a card from hand to put into experience ({src})",
    ),
    DP.SEARCH_CHOICE: (
        "{src}: choose a card to take from your deck",
        "The opponent is choosing a card from its deck ({src})",
    ),
    DP.RECOVER_CHOICE: (
        "{src}: choose a card to take back from your discard pile",
        "The opponent is choosing a card to take back from its discard pile ({src})",
    ),
}

_PROMPTS = {
    DP.CHARGE: _prompt_charge,
    DP.MAIN: _prompt_main,
    DP.ATTACK_DECLARE: _prompt_declare,
    DP.ATTACK_TARGET: _prompt_target,
    DP.COUNTER_WINDOW: _prompt_window,
    DP.COST_DISCARD: _prompt_cost,
    DP.COST_SACRIFICE: _prompt_cost,
    DP.OVERFLOW_DISCARD: _prompt_overflow,
    DP.EFFECT_TARGET: _prompt_effect_target,
}


def decision_text(state: GameState, seat: int) -> str:
    """The current decision as a prompt for ``seat`` (what the other seat decides, without secrets)."""
    st = state
    if st.done:
        if st.winner not in (0, 1):
            return "The game is over: a draw"
        return f"The game is over: {'you win' if st.winner == seat else 'the opponent wins'}"
    if st.decision_point is None:
        return "Waiting for the game to go on"
    dp, p = st.decision_point[0], st.decision_point[1]
    me = p == seat
    if dp in _PROMPTS:
        return _PROMPTS[DP(dp)](st, p, me, seat)
    if dp in _EFFECT_PROMPTS:
        mine, theirs = _EFFECT_PROMPTS[DP(dp)]
        return (mine if me else theirs).format(src=_source(st))
    return "Choose a move" if me else "The opponent is choosing a move"
