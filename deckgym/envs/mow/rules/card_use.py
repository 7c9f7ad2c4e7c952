"""Using cards and abilities (spec 5.3, D14-D22, D16 conditions, D17 restrictions, D30 ターンn).

A card use sets the card aside, pays its costs in the fixed order of 4.6, places it, pushes
its chain entry and opens the opponent's counter window (``chain``). A 起動 ability pays its
costs and resolves at once, with no window (D31).
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.mow.actions import (
    ABILITY,
    DP,
    FAST,
    PASS,
    SLOT_SPELL,
    USE,
    WEAPON_POS,
    Action,
    Kind,
    Phase,
    Use,
)
from deckgym.envs.mow.cards import ACTIVATED, COSTS, MONSTER, SPELL, WEAPON, CardDef
from deckgym.envs.mow.rules import state_check as chk
from deckgym.envs.mow.rules.effects import take_type
from deckgym.envs.mow.rules.flow import ask, decision, push, task
from deckgym.envs.mow.rules.state_check import frame
from deckgym.envs.mow.rules.values import level_for
from deckgym.envs.mow.state import GameState, Monster

_USE_OF_KIND: Final = {MONSTER: Use.SUMMON, WEAPON: Use.EQUIP, SPELL: Use.CAST}


# ----------------------------------------------------------------------------- conditions (D16, 4.6)
def condition_ok(st: GameState, p: int, cond: tuple[tuple[str, int], ...], in_hand: int = 0) -> bool:
    """Every predicate holds and every cost is payable; ``in_hand`` is 1 when the used card is still in hand."""
    hand = len(st.hand[p]) - in_hand
    for code, n in cond:
        if code == "LEVEL_AT_LEAST":
            ok = st.level[p] >= n
        elif code == "LIFE_AT_MOST":
            ok = st.life[p] <= n
        elif code in ("HAND_AT_LEAST", "COST_DISCARD"):
            ok = hand >= n
        elif code in ("OWN_MONSTERS_AT_LEAST", "COST_SACRIFICE"):
            ok = len(st.monsters[p]) >= n
        elif code == "OPP_MONSTERS_AT_LEAST":
            ok = len(st.monsters[1 - p]) >= n
        elif code == "DISCARD_AT_LEAST":
            ok = len(st.discard[p]) >= n
        elif code == "COST_LIFE":
            ok = st.life[p] > n
        else:  # COST_EXP
            ok = len(st.exp[p]) >= n
        if not ok:
            return False
    return True


def summon_room(st: GameState, p: int, card: CardDef) -> bool:
    """K2: own monsters - COST_SACRIFICE n < the slots of the level left after COST_EXP."""
    cost = dict(card.condition)
    left = len(st.exp[p]) - cost.get("COST_EXP", 0)
    return len(st.monsters[p]) - cost.get("COST_SACRIFICE", 0) < level_for(st.cards[st.masters[p]], left)


def restricted(st: GameState, p: int, card: CardDef) -> bool:
    """D17: a card of a class the player's master is restricted from cannot be used at all."""
    return bool(card.cls) and card.cls in st.cards[st.masters[p]].restrictions


def turn_key(card: str, i: int) -> str:
    """D30: the ターンn counter key (card name, ability index)."""
    return f"{card}/{i}"


def turn_left(st: GameState, p: int, card: str, i: int, limit: int) -> bool:
    """D30: whether a ターンn counter still has a use this turn (no limit when ``limit`` is 0)."""
    return not limit or st.turn_uses[p].get(turn_key(card, i), 0) < limit


def count_use(st: GameState, p: int, card: str, i: int, limit: int) -> None:
    """D30: the ターンn counter counts on declaration."""
    if limit:
        key = turn_key(card, i)
        st.turn_uses[p][key] = st.turn_uses[p].get(key, 0) + 1


def spell_usable(st: GameState, p: int, c: CardDef, in_hand: int) -> bool:
    """Class, ターンn and condition of a spell activation (D16, D17, D30)."""
    return (
        not restricted(st, p, c)
        and turn_left(st, p, c.id, 0, c.turn_limit)
        and condition_ok(st, p, c.condition, in_hand)
    )


def slot_ready(st: GameState, p: int) -> CardDef | None:
    """D20: the face-down spell if it is ready (t > cast_turn)."""
    s = st.spell[p]
    if s is None or st.turn <= s[1]:
        return None
    return st.cards[s[0]]


def ability_sources(st: GameState, p: int) -> list[tuple[int, str, int]]:
    """``(position, card, SELF ref)`` of p's master, monsters and weapon (ABILITY positions)."""
    out = [(0, st.masters[p], -1 - p)]
    out += [(1 + i, m.card, m.uid) for i, m in enumerate(st.monsters[p])]
    w = st.weapon[p]
    if w is not None:
        out.append((WEAPON_POS, w[0], w[1]))
    return out


def ability_options(st: GameState, p: int, timing: str, use: str = "") -> list[Action]:
    """ABILITY[pos][i] for usable 起動 (``timing`` ACTIVATED) or 対抗 abilities answering ``use``."""
    out = []
    cards = st.cards
    for pos, card, _ref in ability_sources(st, p):
        c = cards[card]
        for i, ai in enumerate(c.acts):
            a = c.abilities[ai]
            if a.timing != timing or (use and use not in a.counter_filter):
                continue
            if st.level[p] < a.min_level or not turn_left(st, p, card, i, a.turn_limit):
                continue
            if condition_ok(st, p, a.condition):
                out.append(ABILITY[2 * pos + i])
    return out


# ----------------------------------------------------------------------------- K2 MAIN
def main_options(st: GameState) -> list[Action]:
    """K2: PASS, USE[k], FAST[k], SLOT_SPELL and 起動 ABILITY options of the active player."""
    p = st.current_player
    cards = st.cards
    uses: list[Action] = []
    fasts: list[Action] = []
    for cid in sorted(set(st.hand[p]), key=lambda c: cards[c].index):
        c = cards[cid]
        if restricted(st, p, c):
            continue
        if c.kind == SPELL:
            if st.spell[p] is None:
                uses.append(USE[c.index])
            if c.fast and not c.counter and not st.fast_used[p] and spell_usable(st, p, c, 1):
                fasts.append(FAST[c.index])
        elif condition_ok(st, p, c.condition, 1) and (c.kind != MONSTER or summon_room(st, p, c)):
            uses.append(USE[c.index])
    out = [PASS, *uses, *fasts]
    s = slot_ready(st, p)
    if s is not None and not s.counter and spell_usable(st, p, s, 0):
        out.append(SLOT_SPELL)
    return out + ability_options(st, p, ACTIVATED)


@task
def main_phase(st: GameState) -> None:
    """5.2.4: the active player's MAIN decisions, repeated until PASS."""
    st.phase = int(Phase.MAIN)
    ask(st, DP.MAIN, st.active)


@decision(DP.MAIN, legal=main_options)
def on_main(st: GameState, p: int, a: Action) -> None:
    """PASS ends the main phase; anything else runs and comes back to MAIN (D14, D15)."""
    if a.kind == Kind.PASS:
        push(st, ["attack_phase"])
        return
    push(st, ["main_phase"])
    if a.kind == Kind.USE:
        card = take_type(st.hand[p], st, a.arg)
        begin_use(st, p, card, _USE_OF_KIND[st.cards[card].kind])
    elif a.kind == Kind.ABILITY:
        use_ability(st, p, a.arg)
    else:
        begin_activation(st, p, a)


# ----------------------------------------------------------------------------- the use procedure (5.3)
def begin_use(st: GameState, p: int, card: str, use: Use, source: str = "") -> None:
    """5.3.2-5.3.3: set the card aside, then pay its costs (a cast pays none, D16), then place it."""
    st.setaside[p] = card
    c = st.cards[card]
    verb = {Use.SUMMON: "summons", Use.EQUIP: "equips", Use.CAST: "casts a spell", Use.ACTIVATE: "activates"}[
        use
    ]
    text = f"P{p} {verb}" + ("" if use == Use.CAST else f" {c.name}") + source
    where = "slot" if source == " from the slot" else "hand"
    if use == Use.CAST:  # face down: the card is the caster's to know
        st.emit("use", text, only=(p, {"card": card}), player=p, use="cast", card=None, source=where)
    else:
        st.emit("use", text, player=p, use=use.name.lower(), card=card, source=where)
    costs = [] if use == Use.CAST else c.condition
    push(st, *[["cost", p, code, n] for code, n in costs if code in COSTS], ["place", p, int(use)])


def begin_activation(st: GameState, p: int, a: Action) -> None:
    """Activate a spell from hand with 高速 (FAST) or from the slot (SLOT_SPELL) (D20-D22, D30)."""
    if a.kind == Kind.FAST:
        card = take_type(st.hand[p], st, a.arg)
        st.fast_used[p] = True
        source = " from hand"
    else:
        card = st.spell[p][0]  # type: ignore[index]
        st.spell[p] = None
        source = " from the slot"
    count_use(st, p, card, 0, st.cards[card].turn_limit)
    begin_use(st, p, card, Use.ACTIVATE, source)


def use_ability(st: GameState, p: int, arg: int, counter: bool = False) -> None:
    """Declare ABILITY[pos][i]: ターンn counts, costs are paid; 起動 resolves at once (D31), 対抗 goes on the chain."""
    pos, i = divmod(arg, 2)
    _pos, card, ref = next(x for x in ability_sources(st, p) if x[0] == pos)
    c = st.cards[card]
    ai = c.acts[i]
    ab = c.abilities[ai]
    count_use(st, p, card, i, ab.turn_limit)
    st.emit(
        "ability",
        f"P{p} uses {c.name}'s {'counter' if counter else 'activated'} ability",
        player=p,
        card=card,
        timing=ab.timing,
    )
    costs = [["cost", p, code, n] for code, n in ab.condition if code in COSTS]
    then = ["counter_ability", p, card, ref, ai] if counter else ["effects", frame(p, card, ai, ref)]
    push(st, *costs, then)


@task
def cost(st: GameState, p: int, code: str, n: int) -> None:
    """5.3.3: pay one unit of a cost, with a state check after it (4.6)."""
    if n <= 0:
        return
    if code == "COST_LIFE":
        st.life[p] -= n
        st.emit("pay_life", f"P{p} pays {n} life (life {st.life[p]})", player=p, amount=n, life=st.life[p])
        push(st, ["check"])
    elif code == "COST_EXP":
        if st.exp[p]:
            paid = st.exp[p].pop()
            st.discard[p].append(paid)
            st.emit("pay_exp", f"P{p} pays an experience card ({st.name(paid)})", player=p, card=paid)
            chk.set_level(st, p)
            push(st, ["check"], ["cost", p, code, n - 1])
    elif code == "COST_SACRIFICE":
        if st.monsters[p]:
            ask(st, DP.COST_SACRIFICE, p, ["cost", p, code, n])
    elif st.hand[p]:
        ask(st, DP.COST_DISCARD, p, ["cost", p, code, n])


@decision(DP.COST_SACRIFICE, legal=lambda st: chk.own_monster_targets(st, st.current_player))
def on_cost_sacrifice(st: GameState, p: int, a: Action) -> None:
    """K7: the chosen own monster is discarded (廃棄時 triggers, D29)."""
    n = st.pending[3]
    chk.discard_monster(st, p, a.arg - 1)
    push(st, ["check"], ["cost", p, "COST_SACRIFICE", n - 1])


def _cost_discard_legal(st: GameState) -> list[Action]:
    from deckgym.envs.mow.rules.effects import hand_types

    return hand_types(st, st.current_player)


@decision(DP.COST_DISCARD, legal=_cost_discard_legal)
def on_cost_discard(st: GameState, p: int, a: Action) -> None:
    """K6: the chosen hand card is discarded (never the set-aside card)."""
    n = st.pending[3]
    card = take_type(st.hand[p], st, a.arg)
    st.discard[p].append(card)
    st.emit("discard", f"P{p} discards {st.name(card)} as a cost", player=p, card=card, cause="cost")
    push(st, ["check"], ["cost", p, "COST_DISCARD", n - 1])


@task
def place(st: GameState, p: int, use: int) -> None:
    """5.3.4-5.3.6: place the set-aside card, push its chain entry, open the opponent's window."""
    card = st.setaside[p]
    assert card is not None
    st.setaside[p] = None
    uid = 0
    here = False
    if use == Use.ACTIVATE:
        here = True
    else:
        uid = st.next_uid
        st.next_uid += 1
        if use == Use.SUMMON:
            st.monsters[p].append(Monster(uid, card, st.turn))
        elif use == Use.EQUIP:
            if st.weapon[p] is not None:
                chk.discard_weapon(st, p)
            st.weapon[p] = [card, uid]
        else:
            st.spell[p] = [card, st.turn, uid]
    st.chain.append([p, use, card, uid, False, here, -1])
    push(st, ["check"], ["window", 1 - p])


@task
def counter_ability(st: GameState, p: int, card: str, ref: int, ai: int) -> None:
    """D24(c): a 対抗 ability's entry goes on the chain and chain building ends."""
    st.chain.append([p, int(Use.ABILITY), card, ref, False, False, ai])
    push(st, ["resolve_chain"])
