"""The action phase around the attack: selection, action start, movement, penalty (spec 5.3).

Rules: R27-R31, R45-R53, D15-D22, D44; steps A0-A5, A9-A11.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.actions import DP, Action, Kind
from deckgym.envs.medarot_ocg.cards import DIRECTION_WORDS, MEDACHANGE, MEDAROT, MEDAROTER, CardDef
from deckgym.envs.medarot_ocg.rules.board import (
    NEIGHBOUR,
    NEUTRAL_ROW,
    OWN_SQUARES,
    eff_speed,
    emit_unit,
    end_effects,
    has_status,
    move_options,
    remove_stack,
    square_of,
    top,
)
from deckgym.envs.medarot_ocg.rules.flow import ask, decision, pay, push, spend, task
from deckgym.envs.medarot_ocg.rules.medaroter import trash_timed
from deckgym.envs.medarot_ocg.rules.phases import place, set_card
from deckgym.envs.medarot_ocg.state import Act, GameState, Stack

_DIR_NAMES: Final[tuple[str, ...]] = ("F", "FR", "R", "BR", "B", "BL", "L", "FL")


def _form(card: CardDef) -> str:
    """The end of a MedaChange line: into its power form, or nothing."""
    return " into its power form (1 HP each action)" if card.power_form else ""


# ----------------------------------------------------------------------------- A0 selection
def eligible_keys(st: GameState) -> list[tuple[tuple[int, int, int], int]]:
    """(speed key, square) of every Medarot that may act now (D15), in square order."""
    out = []
    for s, x in enumerate(st.board):
        if x is None or not x.face_up or x.acted or x.placed:
            continue
        c = top(st, x)
        out.append(((eff_speed(st, x), c.n_arrows, -c.cost), s))
    return out


@task
def select(st: GameState) -> None:
    """A0: the fastest eligible Medarot acts; ties by arrows, then lower cost, then coin/owner (R27, R28, D16)."""
    keys = eligible_keys(st)
    if not keys:
        push(st, ["end_phase"])
        return
    best = max(k for k, _ in keys)
    cands = [s for k, s in keys if k == best]
    push(st, ["select"])
    owners = {st.board[s].owner for s in cands}  # type: ignore[union-attr]
    if len(owners) == 2:
        w = st.rng.randrange(2)
        st.emit(
            "coin_toss", f"Speed tie between both players: a coin toss gives P{w} the next action", player=w
        )
        cands = [s for s in cands if st.board[s].owner == w]  # type: ignore[union-attr]
    if len(cands) == 1:
        begin_action(st, cands[0])
    else:
        ask(st, DP.TIE_BREAK, st.board[cands[0]].owner, *cands)  # type: ignore[union-attr]


@decision(DP.TIE_BREAK, legal=lambda st, ctx: [A.SQUARE[s] for s in ctx])
def on_tie_break(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """The owner of tied Medarots chooses which acts first."""
    begin_action(st, a.arg)


def begin_action(st: GameState, square: int) -> None:
    """A1 (mark acted, end own lasting effects, D37) and A2 (DISABLE skips to the penalty, D20)."""
    x = st.board[square]
    assert x is not None
    x.acted = True
    st.board_version += 1
    st.act = Act(uid=x.uid, owner=x.owner)
    end_effects(st, lambda e: e.src_uid != x.uid)
    emit_unit(st, "act", x, square, "acts")
    if has_status(st, x, "DISABLE"):
        st.act.disabled = True
        st.emit("disabled", "it is disabled and cannot act", player=x.owner, square=square)
        push(st, ["penalty"], ["cleanup"])
        return
    push(
        st,
        ["action_start"],
        ["move_before"],
        ["support"],
        ["declare"],
        ["move_after"],
        ["penalty"],
        ["cleanup"],
    )


def acting_square(st: GameState) -> int:
    """Square of the acting Medarot (-1 if it left the board)."""
    assert st.act is not None
    return square_of(st, st.act.uid)


# ----------------------------------------------------------------------------- A3 action start
@task
def action_start(st: GameState) -> None:
    """A3: SET, SUBSTITUTE, MedaChange or RELEASE, repeating until PASS."""
    assert st.act is not None
    ask(st, DP.ACTION_START, st.act.owner)


def _acting(st: GameState) -> tuple[Act, Stack]:
    """The action under way and the acting Medarot, which is on the board during A3."""
    act = st.act
    assert act is not None
    x = st.board[square_of(st, act.uid)]
    assert x is not None
    return act, x


def _action_start_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    act, x = _acting(st)
    p = act.owner
    cfg = st.config
    power_form = top(st, x).power_form
    out = [] if power_form and st.hp[p] < 1 else [A.PASS]
    base = st.cards[x.base]
    hand = st.hand[p]
    cards = st.cards
    can_change = cfg.medachange and not act.changed and x.change is None
    has_unit = False
    for i, cid in enumerate(hand):
        c = cards[cid]
        if c.kind == MEDAROTER:
            out.append(A.SET[i])
        elif c.kind == MEDAROT:
            has_unit = True
        elif can_change and c.name == base.name and (not c.power_form or st.hp[p] >= 1):
            out.append(A.HAND[i])
    if cfg.substitution and has_unit:
        out.append(A.SUBSTITUTE)
    if cfg.medachange and not act.changed and x.change is not None:
        out.append(A.RELEASE)
    return out


@decision(DP.ACTION_START, legal=_action_start_legal)
def on_action_start(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Handle one action-start option (R46, R47, R48, D18, D19, D23)."""
    act, x = _acting(st)
    p = act.owner
    k = a.kind
    if k == Kind.PASS:
        if top(st, x).power_form:
            spend(st, p, 1, "the power form")
    elif k == Kind.SET:
        push(st, ["action_start"])
        set_card(st, p, a.arg)
    elif k == Kind.SUBSTITUTE:
        ask(st, DP.SUB_CARD, p, p)
    elif k == Kind.HAND:
        x.change = st.hand[p].pop(a.arg)
        st.board_version += 1
        act.changed = True
        st.emit(
            "medachange",
            f"P{p}'s {st.cards[x.base].name} (square {acting_square(st)}) MedaChanges{_form(st.cards[x.change])}",
            player=p,
            card=x.change,
            square=acting_square(st),
        )
        push(st, ["action_start"])
    elif k == Kind.RELEASE:
        assert x.change is not None
        st.trash[p].append(x.change)
        st.emit(
            "release",
            f"P{p}'s {st.cards[x.base].name} (square {acting_square(st)}) releases its MedaChange card"
            " to the trash",
            player=p,
            card=x.change,
            square=acting_square(st),
        )
        x.change = None
        st.board_version += 1
        act.changed = True
        push(st, ["action_start"])


@decision(
    DP.SUB_CARD,
    legal=lambda st, ctx: [A.HAND[i] for i, c in enumerate(st.hand[ctx[0]]) if st.cards[c].kind == MEDAROT],
)
def on_sub_card(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Substitution (D19): the old Medarot goes to the trash; the new one takes its square, or an own square."""
    p = ctx[0]
    act = st.act
    assert act is not None
    square = acting_square(st)
    old = st.board[square]
    assert old is not None
    old_name = st.cards[old.top()].name
    st.limbo[p] = [st.hand[p].pop(a.arg), False]
    remove_stack(st, square, to_reserve=False)
    act.substituted = True
    act.ended = True
    st.emit(
        "substitute",
        f"P{p} trashes {old_name} (square {square}) and substitutes a face-down Medarot from its hand",
        player=p,
        square=square,
    )
    if square // 5 == NEUTRAL_ROW:
        ask(st, DP.SUB_SQUARE, p, p)
    else:
        place(st, p, square)


@decision(
    DP.SUB_SQUARE, legal=lambda st, ctx: [A.SQUARE[s] for s in OWN_SQUARES[ctx[0]] if st.board[s] is None]
)
def on_sub_square(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """The substitute of a neutral-row Medarot goes to an empty square of the own row."""
    place(st, ctx[0], a.arg)


# ----------------------------------------------------------------------------- movement
def _move_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    return [A.PASS] + [A.MOVE[d] for d in move_options(st, acting_square(st))]


@task
def move_before(st: GameState) -> None:
    """A4: move one square before acting, or PASS (R30, D21)."""
    assert st.act is not None
    if not st.act.ended:
        ask(st, DP.MOVE_BEFORE, st.act.owner)


@task
def move_after(st: GameState) -> None:
    """A9: move after acting, only if not moved yet, still on the board and not ROOTed (D21)."""
    act = st.act
    assert act is not None
    if act.ended or act.moved:
        return
    s = acting_square(st)
    if s < 0 or has_status(st, st.board[s], "ROOT"):  # type: ignore[arg-type]
        return
    ask(st, DP.MOVE_AFTER, act.owner)


def _on_move(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    if a.kind != Kind.MOVE:
        return
    act = st.act
    assert act is not None
    s = acting_square(st)
    t = NEIGHBOUR[act.owner][s][a.arg]
    mover = st.board[s]
    assert mover is not None
    name = st.cards[mover.top()].name
    st.board[t], st.board[s] = mover, None
    st.board_version += 1
    act.moved = True
    st.emit(
        "move",
        f"P{act.owner}'s {name} moves {DIRECTION_WORDS[a.arg]} from square {s} to square {t}",
        player=act.owner,
        direction=_DIR_NAMES[a.arg],
        from_square=s,
        to_square=t,
    )


decision(DP.MOVE_BEFORE, DP.MOVE_AFTER, legal=_move_legal)(_on_move)


# ----------------------------------------------------------------------------- A10, A11
@task
def penalty(st: GameState) -> None:
    """A10: 1 HP if the Medarot did not move, unless it substituted or CANCEL_PENALTY applies (R31, D22)."""
    act = st.act
    assert act is not None
    if act.moved or act.substituted or act.cancel_penalty:
        return
    pay(st, act.owner, 1, "the movement penalty")


@task
def cleanup(st: GameState) -> None:
    """A11: trash the AFTER_USE cards of this action and AFTER_DEFENCE cards still in place (D45)."""
    trash_timed(st, ("AFTER_USE", "AFTER_DEFENCE"))
    st.act = None


assert MEDACHANGE
