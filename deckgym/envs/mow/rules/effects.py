"""The effect interpreter: the 13 primitives of spec 4.7 over the selectors of 4.8 (D27, D28).

An effect list runs as a *frame* ``[controller, card, list code, primitive index, SELF ref,
TRIGGER_CARD ref, ATTACK_TARGET ref, SAME refs]`` (see ``check.frame``). Each primitive
resolves in full before the next; one-at-a-time primitives run unit by unit with a state
check after each unit. Targets are chosen when a primitive resolves (D27); a primitive with
no legal target is skipped.

Each op's handler is bound here (``@OPS.handler``) to the spec declared in ``envs.mow.ops``,
the shared ``OpRegistry`` over the selectors of 4.8 (``cards.Target``) that also validates card
data at load time (amount ranges, where an op may appear, which selectors it accepts). Player
primitives name a ``player`` instead of a target, and SEARCH, RECOVER and NEGATE take none.

At an AMALOGS table with a guest proxy at seat 1 (``config.proxy``, amalogs D37) the proxy
master is a legal target of DAMAGE alone (by OPP_MASTER, ALL, CHOSEN, ATTACK_TARGET or SAME),
and the damage lowers P; for every other primitive, and for a base proxy, seat 1 is vacant.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from deckgym.envs.core import proxy
from deckgym.envs.mow.actions import CARD_TYPE, DP, HAND, Action, Use
from deckgym.envs.mow.cards import (
    MASTER,
    MONSTER,
    OP_KINDS,
    OWN_LEVEL,
    PLAYER_OPS,
    SPELL,
    WEAPON,
    Effect,
)
from deckgym.envs.mow.config import LIFE_START
from deckgym.envs.mow.ops import OPS
from deckgym.envs.mow.rules import state_check as chk
from deckgym.envs.mow.rules.field import locate, matching, ref_at, target_action
from deckgym.envs.mow.rules.flow import ask, auto_skip, decision, push, task
from deckgym.envs.mow.state import PERMANENT, TURN, GameState, Monster


# ----------------------------------------------------------------------------- frames
def effect_of(st: GameState, f: list) -> Effect:
    """The primitive a frame is at."""
    return st.cards[f[1]].effect_list(f[2])[f[3]]


def advance(f: list, same: list | None = None) -> list:
    """The frame at the next primitive, with the SAME refs of the one just resolved."""
    return [f[0], f[1], f[2], f[3] + 1, f[4], f[5], f[6], f[7] if same is None else same]


def amount(st: GameState, f: list, e: Effect) -> int:
    """The primitive's amount; OWN_LEVEL is the controller's level now."""
    return st.level[f[0]] if e.amount == OWN_LEVEL else e.amount


def who(f: list, e: Effect) -> int:
    """The player a player-primitive names, relative to the controller."""
    return f[0] if e.player == "SELF" else 1 - f[0]


@task
def effects(st: GameState, f: list) -> None:
    """Resolve the frame's next primitive (nothing when the list is done)."""
    effs = st.cards[f[1]].effect_list(f[2])
    if f[3] >= len(effs):
        return
    e = effs[f[3]]
    if e.op in OP_KINDS:
        select(st, f, e)
    else:
        OPS[e.op].handler(st, f, e)


# ----------------------------------------------------------------------------- targets (4.8)
def _usable(st: GameState, e: Effect, ref: int) -> bool:
    where = locate(st, ref)
    if where is not None and where[0] not in st.seats():
        return _proxy_takes(st, e) and where[1] == MASTER
    return where is not None and where[1] in OP_KINDS[e.op]


def _proxy_takes(st: GameState, e: Effect) -> bool:
    """Amalogs D37: a guest proxy is a legal target of effects that damage the opponent's master."""
    return st.config.proxy == proxy.GUEST and e.op == "DAMAGE"


def _with_proxy(st: GameState, ctl: int, e: Effect, found: list) -> list:
    """``matching`` for ``e``, plus the proxy master (seat 1) where it is a legal target of ``e``."""
    if ctl == 0 and e.side != "OWN" and MASTER in e.kinds and _proxy_takes(st, e):
        return [*found, (1, MASTER, 0, -2)]
    return found


def fixed_targets(st: GameState, f: list, e: Effect) -> list[int]:
    """Targets of every selector but CHOSEN; those that left the field are skipped (D27)."""
    sel = e.target
    ctl = f[0]
    if sel == "OWN_MASTER":
        return [-1 - ctl]
    if sel == "OPP_MASTER":
        return [-2 + ctl] if 1 - ctl in st.seats() or (ctl == 0 and _proxy_takes(st, e)) else []
    if sel == "ALL":
        return [x[3] for x in _with_proxy(st, ctl, e, matching(st, ctl, e.side, e.kinds))]
    refs = {"SELF": [f[4]], "TRIGGER_CARD": [f[5]], "ATTACK_TARGET": [f[6]], "SAME": f[7]}[sel]
    return [r for r in refs if r and _usable(st, e, r)]


def chosen_options(st: GameState, ctl: int, e: Effect) -> list[Action]:
    """K8: TARGET actions of the legal cards of a CHOSEN selector."""
    found = _with_proxy(st, ctl, e, matching(st, ctl, e.side, e.kinds))
    return [target_action(ctl, p, q) for p, _k, q, _r in found]


def select(st: GameState, f: list, e: Effect) -> None:
    """Pick the targets of a targeting primitive, asking the controller for CHOSEN (D27)."""
    if e.target == "CHOSEN":
        if chosen_options(st, f[0], e):
            ask(st, DP.EFFECT_TARGET, f[0], ["target", f])
        else:
            auto_skip(st, f[0], DP.EFFECT_TARGET, "no legal target")
            push(st, ["effects", advance(f, [])])
        return
    hit(st, f, e, fixed_targets(st, f, e))


def hit(st: GameState, f: list, e: Effect, refs: list[int]) -> None:
    """Apply a targeting primitive to ``refs`` simultaneously, then the state check."""
    if refs:
        OPS[e.op].handler(st, f, e, refs)
    push(st, ["check"], ["effects", advance(f, refs)])


def _effect_target_legal(st: GameState) -> list[Action]:
    f = st.pending[1]
    return chosen_options(st, f[0], effect_of(st, f))


@decision(DP.EFFECT_TARGET, legal=_effect_target_legal)
def on_effect_target(st: GameState, p: int, a: Action) -> None:
    """K8: the chosen card becomes the primitive's target."""
    f = st.pending[1]
    hit(st, f, effect_of(st, f), [ref_at(st, p, a.arg)])


# ----------------------------------------------------------------------------- targeting primitives
@OPS.handler("DAMAGE")
def damage(st: GameState, f: list, e: Effect, refs: list[int]) -> None:
    """1. Effect damage, never reduced by guard (R8)."""
    n = amount(st, f, e)
    for ref in refs:
        if ref < 0 and st.is_proxy(-1 - ref):
            st.life[1] = proxy.after_effect(st.life[1], n, st.config.proxy)
            st.emit(
                "damage",
                f"{st.stand_in()} takes {n} effect damage (life {st.life[1]})",
                player=1,
                card=None,
                zone="master",
                amount=n,
                life=st.life[1],
            )
        elif ref < 0:
            q = -1 - ref
            st.life[q] -= n
            st.emit(
                "damage",
                f"P{q}'s master takes {n} effect damage (life {st.life[q]})",
                player=q,
                card=st.masters[q],
                zone="master",
                amount=n,
                life=st.life[q],
            )
        else:
            m = _monster(st, ref)
            m.damage += n
            st.emit(
                "damage",
                f"{st.name(m.card)} takes {n} effect damage",
                player=_owner(st, ref),
                card=m.card,
                zone="monster",
                amount=n,
                life=None,
            )


@OPS.handler("HEAL")
def heal(st: GameState, f: list, e: Effect, refs: list[int]) -> None:
    """2. Master: life + amount, at most 20 (D13); monster: remove up to amount damage."""
    n = amount(st, f, e)
    for ref in refs:
        if ref < 0:
            q = -1 - ref
            st.life[q] = min(LIFE_START, st.life[q] + n)
            st.emit(
                "heal", f"P{q}'s master heals to {st.life[q]}", player=q, card=st.masters[q], life=st.life[q]
            )
        else:
            m = _monster(st, ref)
            m.damage = max(0, m.damage - n)


@OPS.handler("DESTROY")
def destroy(st: GameState, f: list, e: Effect, refs: list[int]) -> None:
    """6. Put monsters, weapons or face-down spells into their owners' discard piles together."""
    found = [w for w in (locate(st, r) for r in refs) if w is not None]
    for p, kind, q in sorted(found, key=lambda x: -x[2]):
        if kind == MONSTER:
            chk.discard_monster(st, p, q - 1)
        elif kind == WEAPON:
            chk.discard_weapon(st, p)
        elif kind == SPELL:
            chk.discard_spell(st, p)


@OPS.handler("BOUNCE")
def bounce(st: GameState, f: list, e: Effect, refs: list[int]) -> None:
    """7. Return monsters or weapons to their owners' hands; no 廃棄時 (D29)."""
    found = [w for w in (locate(st, r) for r in refs) if w is not None]
    for p, kind, q in sorted(found, key=lambda x: -x[2]):
        if kind == MONSTER:
            card = st.monsters[p].pop(q - 1).card
        else:
            card = st.weapon[p][0]  # type: ignore[index]
            st.weapon[p] = None
        st.hand[p].append(card)
        st.emit("bounce", f"P{p}'s {st.name(card)} returns to its owner's hand", player=p, card=card)


@OPS.handler("BUFF")
def buff(st: GameState, f: list, e: Effect, refs: list[int]) -> None:
    """8. A modifier (d_atk, d_def) lasting the turn or permanently."""
    dur = TURN if e.duration == "TURN" else PERMANENT
    for ref in refs:
        mods = st.master_mods[-1 - ref] if ref < 0 else _monster(st, ref).mods
        mods.append([e.d_atk, e.d_def, dur])


def _owner(st: GameState, uid: int) -> int:
    """The seat whose field holds the monster ``uid``."""
    return 0 if any(m.uid == uid for m in st.monsters[0]) else 1


def _monster(st: GameState, uid: int) -> Monster:
    for p in (0, 1):
        for m in st.monsters[p]:
            if m.uid == uid:
                return m
    raise KeyError(uid)


# ----------------------------------------------------------------------------- player primitives
def _start_units(st: GameState, f: list, e: Effect) -> None:
    push(st, ["unit_step", f, who(f, e), amount(st, f, e)])


for _op in PLAYER_OPS:
    OPS.handler(_op)(_start_units)


@task
def unit_step(st: GameState, f: list, p: int, n: int) -> None:
    """One unit of a one-at-a-time primitive (3, 4, 5, 9, 10); the list goes on when it stops."""
    e = effect_of(st, f)
    if n <= 0 or not _unit(st, f, e, p, n):
        push(st, ["effects", advance(f, [])])


def _unit(st: GameState, f: list, e: Effect, p: int, n: int) -> bool:
    """Do (or ask for) one unit; False when the source zone is empty."""
    op = e.op
    src = st.exp[p] if op == "EXP_LOSE" else st.hand[p] if _from_hand(e) else st.deck[p]
    if not src:
        if _from_hand(e) and not (op == "DISCARD" and e.mode == "RANDOM"):
            kind = DP.EFFECT_DISCARD if op == "DISCARD" else DP.EXP_FROM_HAND
            auto_skip(st, p, kind, "empty hand")
        return False
    if _from_hand(e) and not (op == "DISCARD" and e.mode == "RANDOM"):
        kind = DP.EFFECT_DISCARD if op == "DISCARD" else DP.EXP_FROM_HAND
        ask(st, kind, p, ["unit", f, p, n])
        return True
    if op == "DISCARD":
        card = src.pop(st.rng.randrange(len(src)))
    else:
        card = src.pop()
    dest = {"DRAW": st.hand, "EXP_GAIN": st.exp}.get(op, st.discard)[p]
    dest.append(card)
    _after_unit(st, f, e, p, n, card)
    return True


def _from_hand(e: Effect) -> bool:
    return e.op == "DISCARD" or (e.op == "EXP_GAIN" and e.source == "HAND")


#: The event kinds of the one-at-a-time primitives that move a card in the open.
_UNIT_KINDS: Final = {"MILL": "mill", "EXP_GAIN": "exp_gain", "EXP_LOSE": "exp_lose"}


def _after_unit(st: GameState, f: list, e: Effect, p: int, n: int, card: str) -> None:
    verb = {
        "DRAW": "draws a card",
        "MILL": "mills",
        "EXP_GAIN": "gains experience:",
        "EXP_LOSE": "loses experience:",
    }
    shown = "" if e.op == "DRAW" else f" {st.name(card)}"
    text = f"P{p} {verb.get(e.op, 'discards')}{shown}"
    if e.op == "DRAW":
        st.emit("draw", text, only=(p, {"cards": [card]}), player=p, count=1, deck=len(st.deck[p]))
    elif e.op in _UNIT_KINDS:
        st.emit(_UNIT_KINDS[e.op], text, player=p, card=card)
    else:
        st.emit("discard", text, player=p, card=card, cause="effect")
    if e.op in ("EXP_GAIN", "EXP_LOSE"):
        chk.set_level(st, p)
    push(st, ["check"], ["unit_step", f, p, n - 1])


def hand_types(st: GameState, p: int) -> list[Action]:
    """HAND[k] for each card type in ``p``'s hand, in type order (K1, K6, K9, K10)."""
    cards = st.cards
    return [HAND[k] for k in sorted({cards[c].index for c in st.hand[p]})]


def take_type(zone: list[str], st: GameState, k: int) -> str:
    """Remove one card of type k from ``zone`` (the last copy) and return its id."""
    cid = st.pool.main[k].id
    for i in range(len(zone) - 1, -1, -1):
        if zone[i] == cid:
            del zone[i]
            return cid
    raise KeyError(cid)


def _on_hand_unit(st: GameState, p: int, a: Action) -> None:
    _, f, _p, n = st.pending
    e = effect_of(st, f)
    card = take_type(st.hand[p], st, a.arg)
    (st.discard if e.op == "DISCARD" else st.exp)[p].append(card)
    _after_unit(st, f, e, p, n, card)


decision(DP.EFFECT_DISCARD, DP.EXP_FROM_HAND, legal=lambda st: hand_types(st, st.current_player))(
    _on_hand_unit
)


# ----------------------------------------------------------------------------- SEARCH, RECOVER
def _type_options(st: GameState, f: list, e: Effect, zone: list[str]) -> list[Action]:
    cards = st.cards
    name = cards[f[1]].id
    ks = {
        cards[c].index
        for c in zone
        if (e.filter == "ANY" or cards[c].kind == e.filter) and (not e.same_name or c == name)
    }
    return [CARD_TYPE[k] for k in sorted(ks)]


@OPS.handler("SEARCH")
@OPS.handler("RECOVER")
def search_or_recover(st: GameState, f: list, e: Effect) -> None:
    """11. SEARCH: pick a matching card type in the own deck, take one copy, shuffle (K11).

    12. RECOVER: pick a matching card type in the own discard pile, take one copy to hand (K12).
    """
    p = f[0]
    search = e.op == "SEARCH"
    kind = DP.SEARCH_CHOICE if search else DP.RECOVER_CHOICE
    if _type_options(st, f, e, st.deck[p] if search else st.discard[p]):
        ask(st, kind, p, ["search" if search else "recover", f])
        return
    auto_skip(st, p, kind, "no matching card in the " + ("deck" if search else "discard pile"))
    if search:
        st.rng.shuffle(st.deck[p])
    push(st, ["effects", advance(f, [])])


def _zone_legal(zone: str) -> Callable[[GameState], list[Action]]:
    def legal(st: GameState) -> list[Action]:
        f = st.pending[1]
        p = f[0]
        return _type_options(st, f, effect_of(st, f), st.deck[p] if zone == "deck" else st.discard[p])

    return legal


@decision(DP.SEARCH_CHOICE, legal=_zone_legal("deck"))
def on_search(st: GameState, p: int, a: Action) -> None:
    """The chosen type goes from deck to hand unrevealed (D44); the deck is shuffled."""
    f = st.pending[1]
    found = take_type(st.deck[p], st, a.arg)
    st.hand[p].append(found)
    st.rng.shuffle(st.deck[p])
    st.emit("search", f"P{p} searches the deck for a card", only=(p, {"cards": [found]}), player=p)
    push(st, ["check"], ["effects", advance(f, [])])


@decision(DP.RECOVER_CHOICE, legal=_zone_legal("discard"))
def on_recover(st: GameState, p: int, a: Action) -> None:
    """The chosen type goes from the discard pile to hand."""
    f = st.pending[1]
    card = take_type(st.discard[p], st, a.arg)
    st.hand[p].append(card)
    st.emit("recover", f"P{p} takes {st.name(card)} back from the discard pile", player=p, card=card)
    push(st, ["check"], ["effects", advance(f, [])])


# ----------------------------------------------------------------------------- NEGATE (D28)
@OPS.handler("NEGATE")
def negate(st: GameState, f: list, e: Effect) -> None:
    """13. Cancel the chain entry directly below: its card leaves to the discard pile (D28)."""
    if len(st.chain) >= 2 and not st.chain[-2][4]:
        below = st.chain[-2]
        below[4] = True
        use = Use(below[1]).name.lower()
        st.emit(
            "negate", f"P{f[0]} negates P{below[0]}'s {use}", player=f[0], target_player=below[0], use=use
        )
        remove_used_card(st, below)
    push(st, ["check"], ["effects", advance(f, [])])


def remove_used_card(st: GameState, entry: list) -> None:
    """D28: the used card, if still where its use put it, goes to its owner's discard pile."""
    user, kind, card, uid = entry[0], entry[1], entry[2], entry[3]
    if kind == Use.ABILITY:
        return
    if kind == Use.ACTIVATE:
        if entry[5]:
            entry[5] = False
            st.discard[user].append(card)
        return
    where = locate(st, uid) if uid > 0 else None
    if where is None or where[0] != user:
        return
    if where[1] == MONSTER:
        chk.discard_monster(st, user, where[2] - 1)
    elif where[1] == WEAPON:
        chk.discard_weapon(st, user)
    elif where[1] == SPELL:
        chk.discard_spell(st, user)


OPS.check_handlers()
