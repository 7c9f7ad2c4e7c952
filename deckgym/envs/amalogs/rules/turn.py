"""The team turn (spec 5.2).

Action-point gain (R7, D3), control inside the acting team (D5-D7), END_TURN and
HAND_OVER, and the succession of team turns (R6, D34).
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.events import player_name
from deckgym.envs.amalogs.rules.end import adjudicate
from deckgym.envs.amalogs.rules.flow import ask, run_task, task
from deckgym.envs.amalogs.state import AmalogsState

#: R7: points each avatar of the acting team gains, and the cap (excess is discarded).
AP_GAIN: Final = 3
AP_CAP: Final = 9


@task
def next_team_turn(st: AmalogsState) -> None:
    """R6, D34: the other team's turn (the first team on odd turns), or adjudication after the cap."""
    if st.team_turn >= st.config.max_team_turns:
        adjudicate(st)
        return
    st.team_turn += 1
    st.acting = st.first_team if st.team_turn % 2 == 1 else 1 - st.first_team
    st.emit(
        "team_turn",
        f"Team turn {st.team_turn}: team {'AB'[st.acting]} acts",
        turn=st.team_turn,
        team=st.acting,
    )
    action_point_gain(st)
    begin_meta_field(st)


def action_point_gain(st: AmalogsState) -> None:
    """R7, D3, D26: each avatar of the acting team stops Guarding, may duel again and gains 3 (cap 9)."""
    for a in st.avatars:
        if a.team == st.acting and a.on_map:
            a.guarding = False
            a.dueled = False
            a.ended = False
            a.ap = min(AP_CAP, a.ap + AP_GAIN)


def begin_meta_field(st: AmalogsState) -> None:
    """D6: control starts with the lowest-index on-map player of the acting team."""
    st.phase_moved = False
    first = next(i for i, a in enumerate(st.avatars) if a.team == st.acting and a.on_map)
    receive_control(st, first)


def receive_control(st: AmalogsState, player: int) -> None:
    """``player`` receives control (a new receipt for D6 (a))."""
    st.control = player
    st.commanded = False
    ask(st, Phase.META_FIELD, player)


def teammates_after(st: AmalogsState, player: int) -> list[int]:
    """Not-ended on-map players of the acting team after ``player``, in cyclic index order."""
    n = len(st.avatars)
    out = []
    for k in range(1, n):
        i = (player + k) % n
        a = st.avatars[i]
        if a.team == st.acting and a.on_map and not a.ended:
            out.append(i)
    return out


def can_hand_over(st: AmalogsState) -> bool:
    """D6: a teammate is left and the holder commanded since its receipt, or nothing happened yet."""
    return bool(teammates_after(st, st.control)) and (st.commanded or not st.phase_moved)


def hand_over(st: AmalogsState) -> None:
    """HAND_OVER (D6): control passes to the next not-ended on-map teammate."""
    nxt = teammates_after(st, st.control)[0]
    st.phase_moved = True
    st.emit(
        "hand_over",
        f"{player_name(st, st.control)} hands control over to {player_name(st, nxt)}",
        player=st.control,
        to=nxt,
    )
    receive_control(st, nxt)


def end_turn(st: AmalogsState) -> None:
    """END_TURN (D5): the holder has ended its part; control passes on, or the team turn ends."""
    st.avatars[st.control].ended = True
    st.emit("end_turn", f"{player_name(st, st.control)} ends its part of the turn", player=st.control)
    pass_control_after(st, st.control)


def pass_control_after(st: AmalogsState, player: int) -> None:
    """Control goes to the next not-ended on-map teammate after ``player``; with none the team turn ends."""
    others = teammates_after(st, player)
    if others:
        receive_control(st, others[0])
    else:
        end_team_turn(st)


def return_control(st: AmalogsState, host: int) -> None:
    """D7: after a duel control returns to the host (not a new receipt), or passes on if it exited."""
    if st.avatars[host].on_map:
        st.control = host
        st.commanded = True
        ask(st, Phase.META_FIELD, host)
    else:
        pass_control_after(st, host)


def end_team_turn(st: AmalogsState) -> None:
    """D5, R25: every on-map avatar of the acting team has ended or exited: the respawn phase follows."""
    st.control = -1
    run_task(st, "begin_respawn")
