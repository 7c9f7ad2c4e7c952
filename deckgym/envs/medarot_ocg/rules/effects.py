"""The effect interpreter: the handlers of the primitives P1-P16 of spec section 4.4.

The ops' specs (amounts, targets, timings) are declared in ``envs.medarot_ocg.ops``; each
handler here is bound to its op with ``@OPS.handler``.

Every effect, from a Medarot (ON_ACTIVATE, ON_HIT) or from a Medaroter (ACTION, DEFENCE,
TRIGGER), goes through ``resolve``: the target selector is turned into Medarots or a
player, then the op's handler runs. Lasting primitives become ``Eff`` records that the
rules read (modifiers on every read, statuses when they matter).
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.core.targets import CHOSEN_TARGETS, PLAYER_TARGETS, UNIT_TARGETS, Target
from deckgym.envs.medarot_ocg.cards import Effect
from deckgym.envs.medarot_ocg.ops import MOD_OPS, OPS
from deckgym.envs.medarot_ocg.rules.board import stack_by_uid, trash_slot
from deckgym.envs.medarot_ocg.state import Eff, GameState, Stack

SUPPORT, DEFENCE = 0, 1  # Medaroter windows (D23)
_UNITS: Final = UNIT_TARGETS


class Ctx:
    """Who uses an effect, from where, and on what."""

    __slots__ = ("effect", "opp_slot", "player", "src_slot", "src_uid", "timing", "units", "user")

    def __init__(
        self,
        effect: Effect,
        user: int,
        src_uid: int,
        src_slot: int,
        units: list[Stack],
        player: int,
        opp_slot: int,
    ) -> None:
        self.effect = effect
        self.user = user
        self.src_uid = src_uid
        self.src_slot = src_slot
        self.units = units
        self.player = player
        self.opp_slot = opp_slot
        self.timing = effect.timing


# ----------------------------------------------------------------------------- targets
def _by_uid(st: GameState, uid: int) -> Stack | None:
    if uid < 0:
        return None
    for x in st.board:
        if x is not None and x.uid == uid:
            return x
    return None


def _matches(st: GameState, effect: Effect, stack: Stack) -> bool:
    if effect.type_filter == "ANY":
        return True
    return st.cards[stack.change or stack.base].type == effect.type_filter


def choice_squares(st: GameState, effect: Effect, user: int) -> list[int]:
    """Squares a ONE_ALLY / ONE_ENEMY effect may be aimed at (decision EFFECT_TARGET)."""
    want_own = effect.target == Target.ONE_ALLY
    return [
        s
        for s, x in enumerate(st.board)
        if x is not None and (x.owner == user) == want_own and _matches(st, effect, x)
    ]


def fixed_units(st: GameState, effect: Effect, user: int, src_uid: int, window: int) -> list[Stack]:
    """Medarots a non-chosen unit selector resolves to right now."""
    t = effect.target
    act = st.act
    if t == Target.SELF:
        if src_uid >= 0:
            x = _by_uid(st, src_uid)
        elif act is None:
            x = None
        else:
            x = _by_uid(st, act.target if window == DEFENCE else act.uid)
        out = [x] if x is not None else []
    elif t == Target.ACTING:
        out = [x] if act is not None and (x := _by_uid(st, act.uid)) is not None else []
    elif t == Target.ATTACKED or (t == Target.ONE_ENEMY and effect.timing == "ON_HIT"):
        out = [x] if act is not None and (x := _by_uid(st, act.target)) is not None else []
    elif t == Target.ATTACKER:
        out = [x] if act is not None and act.target >= 0 and (x := _by_uid(st, act.uid)) is not None else []
    elif t == Target.ALL_ALLIES:
        out = [x for x in st.board if x is not None and x.owner == user]
    elif t == Target.ALL_ENEMIES:
        out = [x for x in st.board if x is not None and x.owner != user]
    else:
        return []
    return [x for x in out if _matches(st, effect, x)]


def needs_choice(effect: Effect) -> bool:
    """Whether using the effect asks its user to pick a Medarot or an opponent's stock card."""
    if effect.op == "TRASH_STOCK":
        return True
    return effect.target in CHOSEN_TARGETS and not (
        effect.target == Target.ONE_ENEMY and effect.timing == "ON_HIT"
    )


def usable(st: GameState, effect: Effect, user: int, src_uid: int, window: int) -> bool:
    """Whether the effect has something to act on now (4.4 'Legality')."""
    op = effect.op
    if op == "NEGATE":
        if effect.timing == "ACTION":
            return window == SUPPORT
        return window == DEFENCE and st.act is not None and st.act.target >= 0
    if op in ("CANCEL_PENALTY", "FREE_FAR"):
        return window == SUPPORT and st.act is not None
    if op == "TRASH_STOCK":
        return any(x is not None for x in st.stock[1 - user])
    t = effect.target
    if t in PLAYER_TARGETS:
        return True
    if t in CHOSEN_TARGETS and needs_choice(effect):
        return bool(choice_squares(st, effect, user))
    if t in (Target.ATTACKED, Target.ATTACKER) and window != DEFENCE and effect.timing != "ON_HIT":
        return False
    return bool(fixed_units(st, effect, user, src_uid, window))


# ----------------------------------------------------------------------------- resolution
def resolve(
    st: GameState, effect: Effect, user: int, src_uid: int, src_slot: int, window: int, choice: int = -1
) -> None:
    """Apply one effect. ``choice`` is the chosen square (ONE_ALLY/ONE_ENEMY) or opponent stock slot."""
    t = effect.target
    units: list[Stack] = []
    player = -1
    opp_slot = -1
    if effect.op == "TRASH_STOCK":
        opp_slot = choice
    elif t in PLAYER_TARGETS:
        player = user if t == Target.OWNER else 1 - user
    elif t in _UNITS:
        if needs_choice(effect):
            x = st.board[choice] if choice >= 0 else None
            units = [x] if x is not None else []
        else:
            units = fixed_units(st, effect, user, src_uid, window)
    ctx = Ctx(effect, user, src_uid, src_slot, units, player, opp_slot)
    OPS[effect.op].handler(st, ctx)


def resolve_unit_effect(st: GameState, choice: int = -1) -> None:
    """Apply the acting Medarot's own effect (ON_ACTIVATE or ON_HIT), aimed at ``choice`` if chosen."""
    act = st.act
    assert act is not None
    x = stack_by_uid(st, act.uid)
    assert x is not None
    resolve(st, st.cards[x.top()].effects[0], x.owner, x.uid, -1, SUPPORT, choice)


def _lasting(st: GameState, ctx: Ctx, dynamic_ok: bool = True) -> None:
    e = ctx.effect
    if not ctx.units:
        return
    if dynamic_ok and e.op in MOD_OPS and ctx.src_uid < 0 and e.trash == "END_OF_TURN":
        # D26/D45: an END_OF_TURN modifier covers every matching Medarot of the target's owner.
        scope = ctx.units[0].owner
        st.board_version += 1
        st.effects.append(
            Eff(e.op, e.amount, e.type_filter, ctx.user, -1, ctx.src_slot, None, scope, e.trash)
        )
    else:
        st.board_version += 1
        st.effects.append(
            Eff(
                e.op,
                e.amount,
                e.type_filter,
                ctx.user,
                ctx.src_uid,
                ctx.src_slot,
                [x.uid for x in ctx.units],
                -1,
                e.trash,
            )
        )
    squares = [s for s, x in enumerate(st.board) if x is not None and x in ctx.units]
    st.emit(
        "unit_effect",
        f"P{ctx.user}'s effect: {_units_words(st, squares)} {_lasting_words(e.op, e.amount, len(squares) > 1)}",
        player=ctx.user,
        op=e.op,
        amount=e.amount,
        squares=squares,
    )


def _units_words(st: GameState, squares: list[int]) -> str:
    """Medarots on ``squares`` as every seat may name them (face-down ones unnamed)."""
    words = []
    for s in squares:
        x = st.board[s]
        name = st.cards[x.change or x.base].name if x is not None and x.face_up else "the face-down Medarot"
        words.append(f"{name} (square {s})")
    if len(words) <= 1:
        return "".join(words) or "no Medarot"
    return ", ".join(words[:-1]) + " and " + words[-1]


def _lasting_words(op: str, amount: int, plural: bool) -> str:
    """What a lasting unit effect does, as the end of a sentence."""
    stat = {"MOD_POWER": "power", "MOD_ARMOR": "armor", "MOD_SPEED": "speed"}.get(op)
    if stat is not None:
        return f"{'get' if plural else 'gets'} {amount:+d} {stat}"
    if op == "GUARD":
        return f"{'guard' if plural else 'guards'} the Medarots next to {'them' if plural else 'it'}"
    if op == "DISABLE":
        return "cannot act"
    if op == "ROOT":
        return "cannot move"
    return op.replace("_", " ").lower()


def _player_effect(st: GameState, ctx: Ctx) -> None:
    e = ctx.effect
    st.board_version += 1
    st.effects.append(
        Eff(e.op, e.amount, "ANY", ctx.user, ctx.src_uid, ctx.src_slot, None, ctx.user, e.trash)
    )
    if e.op == "TRAP":
        text = f"P{ctx.user} sets a trap: every attack on its Medarots costs P{1 - ctx.user} {e.amount} HP"
    else:
        text = f"P{ctx.user}'s lasting attack: P{1 - ctx.user} pays {e.amount} HP at the end of the turn"
    st.emit("player_effect", text, player=ctx.user, op=e.op, amount=e.amount)


@OPS.handler("MOD_POWER")
def mod_power(st: GameState, ctx: Ctx) -> None:
    """P1: add to the effective power of the targets."""
    _lasting(st, ctx)


@OPS.handler("MOD_ARMOR")
def mod_armor(st: GameState, ctx: Ctx) -> None:
    """P2: add to the effective armor of the targets (the seed's barrier)."""
    _lasting(st, ctx)


@OPS.handler("MOD_SPEED")
def mod_speed(st: GameState, ctx: Ctx) -> None:
    """P3: add to the effective speed of the targets (later selections only)."""
    _lasting(st, ctx)


@OPS.handler("NEGATE")
def negate(st: GameState, ctx: Ctx) -> None:
    """P4: negate the current attack, or (ACTION timing) store one charge on the card."""
    if ctx.timing == "ACTION":
        p, slot = divmod(ctx.src_slot, 4)
        holder = st.master[p] if slot == 3 else st.stock[p][slot]
        assert holder is not None
        holder.charge += 1
        st.emit(
            "store_charge",
            f"P{p} stores a negate charge on {st.cards[holder.card].name}",
            player=p,
            slot="master" if slot == 3 else slot,
        )
        return
    assert st.act is not None
    st.act.negated = True
    st.emit("negate", f"P{ctx.user} negates the attack", player=ctx.user)


@OPS.handler("GUARD")
def guard(st: GameState, ctx: Ctx) -> None:
    """P5: while active, attacks on adjacent allies may be redirected to the guard."""
    _lasting(st, ctx, dynamic_ok=False)


@OPS.handler("TRAP")
def trap(st: GameState, ctx: Ctx) -> None:
    """P6: while active, an enemy attack on the owner's Medarots costs the attacker's owner."""
    _player_effect(st, ctx)


@OPS.handler("GAIN_HP")
def gain_hp(st: GameState, ctx: Ctx) -> None:
    """P7: the target player gains HP (no cap, D36); a proxy's life never rises (AMALOGS D37)."""
    if ctx.player == 1 and st.config.proxy:
        return
    st.hp[ctx.player] += ctx.effect.amount
    st.emit(
        "heal",
        f"P{ctx.player} gains {ctx.effect.amount} HP (HP {st.hp[ctx.player]})",
        player=ctx.player,
        amount=ctx.effect.amount,
        hp=st.hp[ctx.player],
    )


@OPS.handler("DAMAGE")
def damage(st: GameState, ctx: Ctx) -> None:
    """P8: the target player pays the amount (mandatory, D27)."""
    from deckgym.envs.medarot_ocg.rules.flow import pay

    pay(st, ctx.player, ctx.effect.amount, "DAMAGE")


@OPS.handler("DOT")
def dot(st: GameState, ctx: Ctx) -> None:
    """P9: while active, the user's opponent pays the amount at end phase E1."""
    _player_effect(st, ctx)


@OPS.handler("DRAW")
def draw(st: GameState, ctx: Ctx) -> None:
    """P10: the owner draws k in 0..min(amount, deck) (decision EFFECT_DRAW), then the draw chain."""
    from deckgym.envs.medarot_ocg.rules.flow import push

    push(st, ["effect_draw", ctx.user, ctx.effect.amount])


@OPS.handler("DISCARD")
def discard(st: GameState, ctx: Ctx) -> None:
    """P11: the opponent discards min(amount, hand) cards of its own choice."""
    from deckgym.envs.medarot_ocg.rules.flow import push

    q = 1 - ctx.user
    n = min(ctx.effect.amount, len(st.hand[q]))
    if n:
        push(st, ["effect_discard", q, n])


@OPS.handler("TRASH_STOCK")
def trash_stock(st: GameState, ctx: Ctx) -> None:
    """P12: trash the chosen card of the opponent's stock (its effect ends at once)."""
    if ctx.opp_slot >= 0 and st.stock[1 - ctx.user][ctx.opp_slot] is not None:
        trash_slot(st, 1 - ctx.user, ctx.opp_slot)


@OPS.handler("DISABLE")
def disable(st: GameState, ctx: Ctx) -> None:
    """P13: while active, the target cannot act (D20)."""
    _lasting(st, ctx, dynamic_ok=False)


@OPS.handler("ROOT")
def root(st: GameState, ctx: Ctx) -> None:
    """P14: while active, the target cannot move (the penalty applies)."""
    _lasting(st, ctx, dynamic_ok=False)


@OPS.handler("CANCEL_PENALTY")
def cancel_penalty(st: GameState, ctx: Ctx) -> None:
    """P15: the acting Medarot pays no movement penalty this action."""
    assert st.act is not None
    st.act.cancel_penalty = True


@OPS.handler("FREE_FAR")
def free_far(st: GameState, ctx: Ctx) -> None:
    """P16: the acting melee Medarot's 2-square attack costs 0 HP this action."""
    assert st.act is not None
    st.act.free_far = True


OPS.check_handlers()
