"""The action step (D12-D14, D18, D29, D30, D32): turns-to-act, repair and parts exchange.

On its turn-to-act a player attacks (``battle``), repairs, uses a support part, plays an
ACTION medaroter card (``effects``), exchanges a part, or passes; two passes in a row end the
step.
"""

from __future__ import annotations

from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP, Action, Kind
from deckgym.envs.medarot_parts.cards import (
    ATTACK_ACTIONS,
    LEGS,
    MEDAROTER,
    PART,
    REPAIR,
    SLOT_WORDS,
    SLOTS,
    SUPPORT,
)
from deckgym.envs.medarot_parts.rules.battle import start_battle
from deckgym.envs.medarot_parts.rules.damage import proxy_at, trash_attached
from deckgym.envs.medarot_parts.rules.effects import (
    damaged_medarots,
    has_targets,
    live_medarots,
    playable_card,
    start_card,
    start_support,
)
from deckgym.envs.medarot_parts.rules.flow import ask, decision, push, task
from deckgym.envs.medarot_parts.rules.payment import use_part
from deckgym.envs.medarot_parts.rules.values import can_afford_part, power
from deckgym.envs.medarot_parts.state import GameState, Part
from deckgym.envs.medarot_parts.words import medarot_of, part_of, plural


@task
def action_turn(st: GameState) -> None:
    """The turn-to-act holder decides (DP3); two passes in a row end the action step (D12).

    A vacant seat 1 passes without deciding.
    """
    if st.passes >= 2:
        push(st, ["end_action_step"])
    elif st.to_act == 1 and st.config.vacant_seat:
        st.passes += 1
        push(st, ["switch_turn"])
    else:
        ask(st, DP.ACTION, st.to_act, st.to_act)


@task
def switch_turn(st: GameState) -> None:
    """The turn-to-act goes to the other player (D12)."""
    st.to_act = 1 - st.to_act
    push(st, ["action_turn"])


def usable_part(st: GameState, p: int, s: int) -> bool:
    """Whether USE_PART(s) is legal for ``p``: attack (D18), repair (D29) or support (D30)."""
    m = st.action_medarot[p]
    med = st.field[p][m]
    part = med.parts[s]
    if part.destroyed or part.tapped:
        return False
    action = st.cards[part.card].action
    if action in ATTACK_ACTIONS:  # an attack needs an opposing medarot (none at a vacant seat) or a proxy
        return (bool(live_medarots(st, 1 - p)) or proxy_at(st, 1 - p)) and can_afford_part(st, p, m, s)
    if med.parts[LEGS].tapped:
        return False
    if action == REPAIR:
        return bool(damaged_medarots(st, p)) and can_afford_part(st, p, m, s)
    if action == SUPPORT:
        on_use = [a for a in st.cards[part.card].abilities if a.source == "ON_USE"]
        return has_targets(st, p, on_use) and can_afford_part(st, p, m, s)
    return False


def exchange_cost(st: GameState, p: int, cid: str) -> int:
    """Assets needed to exchange part ``cid`` into ``p``'s action medarot (D32), or -1 if not allowed."""
    m = st.action_medarot[p]
    if m < 0:
        return -1
    med = st.field[p][m]
    if med.parts[LEGS].tapped:
        return -1
    card = st.cards[cid]
    old = med.parts[card.slot]
    cost = card.price + (st.config.disposal_cost if old.destroyed else 0)
    return cost if cost <= st.assets[p] else -1


def _action_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    p = ctx[0]
    out = [A.PASS]
    if st.action_medarot[p] >= 0:
        out += [A.USE_PART[s] for s in range(3) if usable_part(st, p, s)]
    cards = st.cards
    for h, cid in enumerate(st.hand[p]):
        t = cards[cid].type
        if (t == MEDAROTER and playable_card(st, p, cid, "ACTION")) or (
            t == PART and exchange_cost(st, p, cid) >= 0
        ):
            out.append(A.HAND[h])
    return out


@decision(DP.ACTION, legal=_action_legal)
def take_action(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Play one action (D13) or pass; then the turn-to-act goes to the other player."""
    p = ctx[0]
    push(st, ["switch_turn"])
    if action.kind == Kind.PASS:
        st.passes += 1
        st.emit("pass", f"P{p} passes", player=p)
        return
    st.passes = 0
    if action.kind == Kind.USE_PART:
        m, s = st.action_medarot[p], action.arg
        kind = st.cards[st.field[p][m].parts[s].card].action
        if kind in ATTACK_ACTIONS:
            start_battle(st, p, s)
        elif kind == REPAIR:
            start_repair(st, p, m, s)
        else:
            start_support(st, p, m, s)
    elif st.cards[st.hand[p][action.arg]].type == PART:
        exchange_part(st, p, action.arg)
    else:
        start_card(st, p, action.arg, None)


# ----------------------------------------------------------------------------- repair (D29)
def start_repair(st: GameState, p: int, m: int, s: int) -> None:
    """Repair action (D29): tap the repair part, pay its charge, then choose the medarot and part."""
    push(st, use_part(st, p, m, s, "use_part", "repairs with"), ["repair_target", m, s])


@task
def repair_target(st: GameState, m: int, s: int) -> None:
    """Ask which own medarot to repair (DP13)."""
    ask(st, DP.REPAIR_MEDAROT, st.to_act, m, s)


def _repair_medarot_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    return [A.MEDAROT[i] for i in damaged_medarots(st, st.to_act)]


@decision(DP.REPAIR_MEDAROT, legal=_repair_medarot_legal)
def repair_medarot(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Then which of its damaged parts (DP14)."""
    ask(st, DP.REPAIR_PART, st.to_act, ctx[0], ctx[1], action.arg)


def _repair_part_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    parts = st.field[st.to_act][ctx[2]].parts
    return [A.PART[s] for s, x in enumerate(parts) if x.counters and not x.destroyed]


@decision(DP.REPAIR_PART, legal=_repair_part_legal)
def repair_part(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Remove min(power, counters) counters from the part; the action medarot's legs are tapped."""
    p = st.to_act
    m, s, target = ctx
    part = st.field[p][target].parts[action.arg]
    n = min(power(st, p, m, s), part.counters)
    part.counters -= n
    st.field[p][m].parts[LEGS].tapped = True
    st.emit(
        "repair",
        f"P{p} removes {plural(n, 'damage counter')} from {part_of(st, p, target, action.arg)}",
        player=p,
        medarot=target,
        slot=SLOTS[action.arg],
        amount=n,
    )


# ----------------------------------------------------------------------------- exchange (D32)
def exchange_part(st: GameState, p: int, h: int) -> None:
    """Parts exchange (D32): pay the price (+ disposal for a destroyed part); the old part goes to trash."""
    cid = st.hand[p][h]
    cost = exchange_cost(st, p, cid)
    del st.hand[p][h]
    med = st.field[p][st.action_medarot[p]]
    slot = st.cards[cid].slot
    old = med.parts[slot]
    trash_attached(st, p, old)
    st.trash[p].append(old.card)
    med.parts[slot] = Part(st.next_uid, cid)
    st.next_uid += 1
    st.assets[p] -= cost
    st.emit(
        "exchange",
        f"P{p} exchanges {st.cards[old.card].name} ({SLOT_WORDS[slot]} of {medarot_of(st, p, st.action_medarot[p])})"
        f" for {st.cards[cid].name} ({cost} G; {st.assets[p]} G left)",
        player=p,
        medarot=st.action_medarot[p],
        slot=SLOTS[slot],
        card=cid,
        cost=cost,
        assets=st.assets[p],
    )
