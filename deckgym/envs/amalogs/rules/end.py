"""End of the game: base-life end checks (R22-R24, D33), truncation (D34) and rewards (D35)."""

from __future__ import annotations

from typing import Final

from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.state import AmalogsState

_TEAM: Final = "AB"


def end_check(st: AmalogsState) -> bool:
    """D33: both bases <= 0 is a draw; one <= 0 loses; else one >= twice the initial life wins."""
    low = [life <= 0 for life in st.life]
    high = [life >= 2 * st.config.start_life for life in st.life]
    if low[0] and low[1]:
        end_game(st, 2, "both bases fell to 0 or less")
    elif low[0] or low[1]:
        loser = 0 if low[0] else 1
        end_game(st, 1 - loser, f"base {_TEAM[loser]} fell to {st.life[loser]}")
    elif high[0] or high[1]:
        winner = 0 if high[0] else 1
        end_game(st, winner, f"base {_TEAM[winner]} reached {st.life[winner]}")
    return st.done


def end_game(st: AmalogsState, winner: int, reason: str) -> None:
    """End the match: ``winner`` 0 (team A), 1 (team B) or 2 (draw)."""
    st.done = True
    st.winner = winner
    st.reason = reason
    st.phase = Phase.GAME_OVER
    st.actor = -1
    st.control = -1
    st.duel = None
    st.emit("end", f"The match is over: {reason}", winner=winner, reason=reason)


def adjudicate(st: AmalogsState) -> None:
    """D34: after the last team turn, the higher base life wins; equal is a draw (a truncation)."""
    a, b = st.life
    winner = 0 if a > b else 1 if b > a else 2
    end_game(st, winner, f"team-turn cap {st.config.max_team_turns}: base life A {a}, B {b}")
    st.truncated = True
