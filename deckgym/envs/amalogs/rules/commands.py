"""Avatar commands of the meta-field phase (R9-R12, D16, D17).

DUEL, MOVE, STEP, PUSH, SWAP, GUARD, END_TURN and HAND_OVER; paid commands are paid from
the declaring avatar's own action points (D3).
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Action, Kind, Phase
from deckgym.envs.amalogs.events import player_name, square_name
from deckgym.envs.amalogs.rules import duel, turn
from deckgym.envs.amalogs.rules.flow import ask, decision
from deckgym.envs.amalogs.rules.geometry import NEIGHBOUR, is_free, reachable
from deckgym.envs.amalogs.state import AmalogsState

#: D16: cost of each paid command.
COST: Final = {Kind.MOVE: 3, Kind.STEP: 1, Kind.PUSH: 2, Kind.SWAP: 2, Kind.GUARD: 2}


def occupancy(st: AmalogsState) -> dict[int, int]:
    """Square -> player index of every avatar on the MAP."""
    return {a.square: i for i, a in enumerate(st.avatars) if a.square >= 0}


def step_ok(st: AmalogsState, player: int, d: int, occupied: dict[int, int]) -> bool:
    """STEP d: the adjacent square is in the grid, empty and not a base (D12, D16)."""
    return is_free(NEIGHBOUR[st.avatars[player].square][d], occupied)


def push_ok(st: AmalogsState, player: int, d: int, occupied: dict[int, int]) -> bool:
    """PUSH d: an enemy stands next to the avatar in direction d and the square beyond is free."""
    t = NEIGHBOUR[st.avatars[player].square][d]
    other = occupied.get(t, -1)
    if other < 0 or st.avatars[other].team == st.avatars[player].team:
        return False
    return is_free(NEIGHBOUR[t][d], occupied)


def swap_ok(st: AmalogsState, player: int, d: int, occupied: dict[int, int]) -> bool:
    """SWAP d: an allied avatar stands next to the avatar in direction d."""
    other = occupied.get(NEIGHBOUR[st.avatars[player].square][d], -1)
    return other >= 0 and st.avatars[other].team == st.avatars[player].team


def meta_field_legal(st: AmalogsState) -> list[Action]:
    """The holder's options, in index order (5.2: DUEL or END_TURN is always among them)."""
    h = st.control
    av = st.avatars[h]
    out = [A.END_TURN] if av.dueled else []
    if turn.can_hand_over(st):
        out.append(A.HAND_OVER)
    if not av.dueled:
        out.append(A.DUEL)
    ap = av.ap
    if ap >= COST[Kind.MOVE]:
        out.append(A.MOVE)
    if ap >= COST[Kind.GUARD] and not av.guarding:
        out.append(A.GUARD)
    if ap >= COST[Kind.STEP]:
        occupied = occupancy(st)
        out += [A.STEP[d] for d in range(8) if step_ok(st, h, d, occupied)]
        if ap >= COST[Kind.PUSH]:
            out += [A.PUSH[d] for d in range(8) if push_ok(st, h, d, occupied)]
            out += [A.SWAP[d] for d in range(8) if swap_ok(st, h, d, occupied)]
    return out


@decision(Phase.META_FIELD, legal=meta_field_legal)
def on_command(st: AmalogsState, a: Action) -> None:
    """Play the holder's command (D16); control stays with the holder unless the command passes it."""
    if a.kind == Kind.END_TURN:
        turn.end_turn(st)
        return
    if a.kind == Kind.HAND_OVER:
        turn.hand_over(st)
        return
    st.commanded = True
    st.phase_moved = True
    h = st.control
    if a.kind == Kind.DUEL:
        duel.declare_duel(st, h)
        return
    st.avatars[h].ap -= COST[Kind(a.kind)]
    _COMMANDS[Kind(a.kind)](st, h, a.arg)


def move(st: AmalogsState, player: int, _arg: int) -> None:
    """MOVE (D17): roll 2D6; allowance m = max(0, d1 + d2 - WE); with m >= 1 choose a destination."""
    av = st.avatars[player]
    d1, d2 = st.rng.randint(1, 6), st.rng.randint(1, 6)
    st.dice = [d1, d2]
    st.move_allowance = max(0, d1 + d2 - av.we)
    st.emit(
        "roll",
        f"{player_name(st, player)} rolls {d1} + {d2} to move, minus weight {av.we}: "
        + (
            f"up to {st.move_allowance} square{'s' if st.move_allowance > 1 else ''}"
            if st.move_allowance
            else "it cannot move"
        ),
        player=player,
        dice=[d1, d2],
        we=av.we,
        allowance=st.move_allowance,
    )
    if st.move_allowance >= 1:
        ask(st, Phase.MOVE_DEST, player)


def move_destinations(st: AmalogsState) -> list[int]:
    """D17: squares within the allowance through free squares (the start square included)."""
    av = st.avatars[st.control]
    return reachable(av.square, st.move_allowance, occupancy(st))


@decision(Phase.MOVE_DEST, legal=lambda st: [A.SQUARE[s] for s in move_destinations(st)])
def on_move_destination(st: AmalogsState, a: Action) -> None:
    """SQUARE s: the avatar moves there; the meta-field phase goes on."""
    st.avatars[st.control].square = a.arg
    st.move_allowance = 0
    st.emit(
        "move",
        f"{player_name(st, st.control)} moves to {square_name(a.arg)}",
        player=st.control,
        square=int(a.arg),
    )
    ask(st, Phase.META_FIELD, st.control)


def step(st: AmalogsState, player: int, d: int) -> None:
    """STEP d: one square in direction d."""
    av = st.avatars[player]
    av.square = NEIGHBOUR[av.square][d]
    st.emit(
        "step",
        f"{player_name(st, player)} steps to {square_name(av.square)}",
        player=player,
        direction=d,
        square=av.square,
    )


def push(st: AmalogsState, player: int, d: int) -> None:
    """PUSH d: the enemy avatar next to it moves one square further in direction d."""
    t = NEIGHBOUR[st.avatars[player].square][d]
    enemy = occupancy(st)[t]
    to = NEIGHBOUR[t][d]
    st.avatars[enemy].square = to
    st.emit(
        "push",
        f"{player_name(st, player)} pushes {player_name(st, enemy)} to {square_name(to)}",
        player=player,
        target=enemy,
        direction=d,
        square=to,
    )


def swap(st: AmalogsState, player: int, d: int) -> None:
    """SWAP d: the avatar and the ally next to it exchange squares."""
    av = st.avatars[player]
    t = NEIGHBOUR[av.square][d]
    ally = occupancy(st)[t]
    st.avatars[ally].square, av.square = av.square, t
    st.emit(
        "swap",
        f"{player_name(st, player)} and {player_name(st, ally)} swap squares",
        player=player,
        ally=ally,
    )


def guard(st: AmalogsState, player: int, _arg: int) -> None:
    """GUARD: the avatar is Guarding until its team's next action-point gain (D26)."""
    st.avatars[player].guarding = True
    st.emit("guard", f"{player_name(st, player)} guards until its team's next turn", player=player)


_COMMANDS: Final = {Kind.MOVE: move, Kind.STEP: step, Kind.PUSH: push, Kind.SWAP: swap, Kind.GUARD: guard}
