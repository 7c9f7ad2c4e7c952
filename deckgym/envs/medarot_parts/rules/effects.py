"""The effect interpreter (section 4.3) and the use of medaroter cards and support parts (D30, D31, D41).

Every primitive is one handler bound in ``OPS_REGISTRY`` (declared in ``envs.medarot_parts.ops``
over this ruleset's ``Target`` selectors, where it also validates card data at load time). A *use* (a
medaroter card or a support part) runs as tasks: payment (DP4), target choices in printed order
(DP15), resolution in printed order, then the card goes where its duration says (or the support
part's legs are tapped).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from deckgym.envs.core.zones import draw
from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP, Action, Kind
from deckgym.envs.medarot_parts.cards import (
    ATTACHED,
    BATTLE,
    E_SUPPORT,
    ENERGY_KINDS,
    INSTANT,
    LEGS,
    SLOTS,
    Ability,
)
from deckgym.envs.medarot_parts.ops import CHOSEN_TARGETS, OPS_REGISTRY, Target
from deckgym.envs.medarot_parts.rules.flow import ask, decision, push, task
from deckgym.envs.medarot_parts.rules.payment import payment_task, use_part
from deckgym.envs.medarot_parts.rules.values import add_mod, available_ep, use_abilities
from deckgym.envs.medarot_parts.state import (
    STAT_CHARGE,
    STAT_POWER,
    UNTIL_BATTLE,
    UNTIL_CARD,
    UNTIL_TURN,
    GameState,
)
from deckgym.envs.medarot_parts.words import ENERGY_NAMES, medarot_of, part_of, plural

_ALL_SLOTS: Final = 0b0111  # head and both arms (OWN_MEDAROT)


class Use:
    """Where an effect comes from: its user, how long its modifiers last and their source part."""

    __slots__ = ("player", "src", "until")

    def __init__(self, player: int, until: int, src: int = -1) -> None:
        self.player = player
        self.until = until
        self.src = src


def _modify(st: GameState, stat: int, ab: Ability, use: Use, ti: int, ts: int) -> None:
    """POWER / CHARGE: a modifier bound to a part or to slots (D28, D42)."""
    t = ab.target
    p = use.player
    if t == Target.ATTACK_PART:
        assert st.battle is not None
        add_mod(st, stat, ab.amount, UNTIL_BATTLE, uid=st.battle.uid)
    elif t in (Target.SELF, Target.ATTACHED_PART):
        add_mod(st, stat, ab.amount, use.until, uid=use.src, src=use.src if use.until == UNTIL_CARD else -1)
    elif t == Target.OWN_MEDAROT:
        add_mod(st, stat, ab.amount, use.until, slots=(p, ti, _ALL_SLOTS), src=use.src)
    else:  # OPP_SLOT
        add_mod(st, stat, ab.amount, use.until, slots=(1 - p, ti, 1 << ab.slot), src=use.src)
    st.emit(
        "modify",
        _modify_text(st, ab, use, ti),
        player=p,
        op=ab.op,
        amount=ab.amount,
        target=ab.target.name,
        medarot=ti if ti >= 0 else None,
        slot=SLOTS[ab.slot] if t == Target.OPP_SLOT else None,
    )


def _modify_text(st: GameState, ab: Ability, use: Use, ti: int) -> str:
    """The log line of a modifier: who gives what to which part, in words."""
    p, t = use.player, ab.target
    what = f"{ab.amount:+d} {ab.op.lower()}"
    if t == Target.OPP_SLOT:
        where = part_of(st, 1 - p, ti, ab.slot)
    elif t == Target.OWN_MEDAROT:
        where = f"the head and arms of {medarot_of(st, p, ti)}"
    elif t == Target.ATTACK_PART and st.battle is not None:
        b = st.battle
        where = part_of(st, b.attacker, b.medarot, b.slot)
    elif t in (Target.SELF, Target.ATTACHED_PART) and use.src >= 0:
        where = _part_by_uid(st, use.src) or "the part"
    else:
        where = "the part"
    return f"P{p} gives {what} to {where}"


def _part_by_uid(st: GameState, uid: int) -> str | None:
    for p, row in enumerate(st.field):
        for m, med in enumerate(row):
            for s, part in enumerate(med.parts):
                if part.uid == uid:
                    return part_of(st, p, m, s)
    return None


@OPS_REGISTRY.handler("POWER")
def op_power(st: GameState, ab: Ability, use: Use, ti: int, ts: int) -> None:
    """POWER(d): power += d on the target."""
    _modify(st, STAT_POWER, ab, use, ti, ts)


@OPS_REGISTRY.handler("CHARGE")
def op_charge(st: GameState, ab: Ability, use: Use, ti: int, ts: int) -> None:
    """CHARGE(d): charge += d on the target."""
    _modify(st, STAT_CHARGE, ab, use, ti, ts)


@OPS_REGISTRY.handler("DAMAGE")
def op_damage(st: GameState, ab: Ability, use: Use, ti: int, ts: int) -> None:
    """DAMAGE(d): the current battle's damage += d, floor 0 (D22)."""
    b = st.battle
    assert b is not None
    b.damage = max(0, b.damage + ab.amount)
    st.emit(
        "damage_change",
        f"P{use.player} changes the damage by {ab.amount:+d} to {b.damage}",
        player=use.player,
        change=ab.amount,
        amount=b.damage,
    )


@OPS_REGISTRY.handler("REPAIR")
def op_repair(st: GameState, ab: Ability, use: Use, ti: int, ts: int) -> None:
    """REPAIR(n): remove up to n counters from the chosen own part."""
    part = st.field[use.player][ti].parts[ts]
    n = min(ab.amount, part.counters)
    part.counters -= n
    st.emit(
        "repair",
        f"P{use.player} removes {plural(n, 'damage counter')} from {part_of(st, use.player, ti, ts)}",
        player=use.player,
        medarot=ti,
        slot=SLOTS[ts],
        amount=n,
    )


@OPS_REGISTRY.handler("DRAW")
def op_draw(st: GameState, ab: Ability, use: Use, ti: int, ts: int) -> None:
    """DRAW(n): draw n cards, never beyond the hand cap (D36); an empty deck is no loss."""
    draw_cards(st, use.player, ab.amount)


@OPS_REGISTRY.handler("UNTAP_ENERGY")
def op_untap_energy(st: GameState, ab: Ability, use: Use, ti: int, ts: int) -> None:
    """UNTAP_ENERGY(n): untap up to n own tapped energy cards, a chosen kind at a time (DP15)."""
    push(st, ["untap_energy", use.player, ab.amount])


@OPS_REGISTRY.handler("NO_EVADE")
def op_no_evade(st: GameState, ab: Ability, use: Use, ti: int, ts: int) -> None:
    """NO_EVADE: the defender cannot use an evade card in the current battle."""
    assert st.battle is not None
    st.battle.no_evade = True
    st.emit("no_evade", f"P{use.player} forbids evading in this battle", player=use.player)


def resolve(st: GameState, ab: Ability, use: Use, ti: int = -1, ts: int = -1) -> None:
    """Run one primitive through its registered handler."""
    OPS_REGISTRY[ab.op].handler(st, ab, use, ti, ts)


def draw_cards(st: GameState, p: int, n: int) -> int:
    """Draw up to ``n`` cards into the canonical hand order, stopping at the hand cap (D36, D40)."""
    room = st.config.hand_cap - len(st.hand[p])
    drawn = draw(st.deck[p], st.hand[p], min(n, room)) if room > 0 else []
    if drawn:
        st.hand[p].sort()
        n = len(drawn)
        st.emit(
            "draw", f"P{p} draws {plural(n, 'card')}", only=(p, {"cards": list(drawn)}), player=p, count=n
        )
    return len(drawn)


# ----------------------------------------------------------------------------- targets
def damaged_medarots(st: GameState, p: int) -> list[int]:
    """Own non-stopped medarots with a non-destroyed part holding counters (REPAIR targets, D29)."""
    return [
        i
        for i, m in enumerate(st.field[p])
        if not m.stopped and any(x.counters and not x.destroyed for x in m.parts)
    ]


def live_medarots(st: GameState, p: int) -> list[int]:
    """Player ``p``'s non-stopped medarots."""
    return [i for i, m in enumerate(st.field[p]) if not m.stopped]


def has_targets(st: GameState, p: int, abilities: Sequence[Ability]) -> bool:
    """Whether every chosen-target primitive has a legal target (D41: only REPAIR can lack one).

    OPP_SLOT lacks one only at a table with a vacant seat (no opposing medarot).
    """
    if any(ab.target == Target.OPP_SLOT for ab in abilities) and not live_medarots(st, 1 - p):
        return False
    return all(ab.op != "REPAIR" for ab in abilities) or bool(damaged_medarots(st, p))


def playable_card(st: GameState, p: int, cid: str, timing: str) -> bool:
    """Whether player ``p`` may play medaroter card ``cid`` now at ``timing`` (D31, D41)."""
    c = st.cards[cid]
    if c.timing != timing:
        return False
    if timing == "POWER" and any(a.op == "NO_EVADE" for a in c.abilities):
        b = st.battle
        if b is None or b.attacker != p:
            return False
    if c.cost and available_ep(st, p, E_SUPPORT, None) < 2 * c.cost:
        return False
    return has_targets(st, p, c.abilities)


def start_card(st: GameState, p: int, h: int, then: list[int | str] | None) -> None:
    """Play the medaroter card at hand position ``h`` (D31): play area, payment, targets, resolution."""
    cid = st.hand[p].pop(h)
    st.play[p].append(cid)
    st.use = [p, cid, -1, []]
    st.emit("play", f"P{p} plays {st.cards[cid].name}", player=p, card=cid)
    tail = [then] if then else []
    push(
        st,
        payment_task(p, st.cards[cid].cost, E_SUPPORT, None),
        ["choose_target", 0],
        ["resolve_use", 0],
        ["finish_card"],
        *tail,
    )


def start_support(st: GameState, p: int, m: int, s: int) -> None:
    """Use the support part in slot ``s`` of the action medarot (D30): tap, pay, targets, resolution."""
    st.use = [p, st.field[p][m].parts[s].card, s, []]
    push(
        st,
        use_part(st, p, m, s, "use_part", "uses"),
        ["choose_target", 0],
        ["resolve_use", 0],
        ["finish_support", m],
    )


@task
def choose_target(st: GameState, e: int) -> None:
    """Ask for the target of primitive ``e`` when it needs one (DP15), in printed order (D41)."""
    assert st.use is not None
    abilities = use_abilities(st)
    targets = st.use[3]
    while e < len(abilities) and abilities[e].target not in CHOSEN_TARGETS:
        targets.append([-1, -1])
        e += 1
    if e >= len(abilities):
        return
    if abilities[e].target == Target.ATTACHED_PART and e > 0 and targets[0][1] >= 0:
        targets.append(list(targets[0]))  # one card is attached to one part
        push(st, ["choose_target", e + 1])
        return
    ask(st, DP.TARGET, st.use[0], e, 0)


def _target_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    e, stage = ctx[0], ctx[1]
    assert st.use is not None
    p = st.use[0]
    if stage == 2:
        kinds = 0
        for cid, tapped in st.stock[p]:
            if tapped:
                kinds |= 1 << st.cards[cid].kind
        return [A.PASS] + [A.ENERGY[k] for k in range(4) if kinds >> k & 1]
    t = use_abilities(st)[e].target
    if stage == 0:
        if t == Target.OPP_SLOT:
            return [A.MEDAROT[i] for i in live_medarots(st, 1 - p)]
        if t == Target.OWN_PART:
            return [A.MEDAROT[i] for i in damaged_medarots(st, p)]
        return [A.MEDAROT[i] for i in live_medarots(st, p)]
    parts = st.field[p][st.use[3][e][0]].parts
    if t == Target.OWN_PART:
        return [A.PART[s] for s, x in enumerate(parts) if x.counters and not x.destroyed]
    return [A.PART[s] for s, x in enumerate(parts) if not x.destroyed]


@decision(DP.TARGET, legal=_target_legal)
def target_chosen(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Record a target (MEDAROT then PART for part targets), or untap one energy card."""
    assert st.use is not None
    e, stage = ctx[0], ctx[1]
    p = st.use[0]
    if stage == 2:
        if action.kind == Kind.ENERGY:
            for row in st.stock[p]:
                if row[1] and st.cards[row[0]].kind == action.arg:
                    row[1] = False
                    break
            text = f"P{p} untaps a {ENERGY_NAMES[action.arg]}"
            st.emit("untap_energy", text, player=p, energy=ENERGY_KINDS[action.arg])
            push(st, ["untap_energy", p, ctx[2] - 1])
        return
    targets = st.use[3]
    if stage == 0:
        targets.append([action.arg, -1])
        if use_abilities(st)[e].target in (Target.OWN_PART, Target.ATTACHED_PART):
            ask(st, DP.TARGET, p, e, 1)
            return
    else:
        targets[e][1] = action.arg
    push(st, ["choose_target", e + 1])


@task
def untap_energy(st: GameState, p: int, n: int) -> None:
    """Offer one more untap while some energy of ``p`` is tapped (PASS stops early)."""
    if n > 0 and any(row[1] for row in st.stock[p]):
        assert st.use is not None
        ask(st, DP.TARGET, p, 0, 2, n)


@task
def resolve_use(st: GameState, e: int) -> None:
    """Resolve primitive ``e`` of the use, then the next (printed order, D41)."""
    assert st.use is not None
    abilities = use_abilities(st)
    if e >= len(abilities):
        return
    push(st, ["resolve_use", e + 1])
    p, cid, source, targets = st.use
    ti, ts = targets[e]
    card = st.cards[cid]
    if source >= 0:
        use = Use(p, UNTIL_TURN)
    elif card.duration == ATTACHED:
        use = Use(p, UNTIL_CARD, st.field[p][ti].parts[ts].uid)
    else:
        use = Use(p, UNTIL_BATTLE if card.duration == BATTLE else UNTIL_TURN)
    resolve(st, abilities[e], use, ti, ts)


@task
def finish_card(st: GameState) -> None:
    """Put the played card where its duration says (D31): trash, play area, or attached to its part."""
    assert st.use is not None
    p, cid, _, targets = st.use
    duration = st.cards[cid].duration
    if duration == INSTANT:
        st.play[p].remove(cid)
        st.trash[p].append(cid)
    elif duration == ATTACHED:
        ti, ts = targets[0]
        st.play[p].remove(cid)
        st.field[p][ti].parts[ts].attached.append(cid)
    st.use = None


@task
def finish_support(st: GameState, m: int) -> None:
    """End a support action: tap the action medarot's legs (D30)."""
    assert st.use is not None
    p = st.use[0]
    st.field[p][m].parts[LEGS].tapped = True
    st.use = None


OPS_REGISTRY.check_handlers()
