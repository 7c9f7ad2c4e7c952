"""The toy duel plugged into ``CardGameEnv``: the ruleset, its per-seat view and its text board."""

from __future__ import annotations

from typing import Any

from deckgym.envs.core.describe import Described
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.events import lines_for
from deckgym.envs.core.view import frame
from tests.toy_game import describe
from tests.toy_game.encode import ToyEncoder
from tests.toy_game.state import VALUES, ToyState, new_game

ENV = "toy_v1"
ENCODER = ToyEncoder()


def card(value: int) -> dict[str, Any]:
    """A card as views show it."""
    return {"id": str(value), "name": describe.NAMES[value], "value": value}


class ToyRuleset:
    """The rules of one configuration: ``target`` points win; ``max_turns`` turns end the game undecided."""

    name = ENV
    num_players = 2

    def __init__(self, target: int = 15, max_turns: int = 24) -> None:
        for key, value in (("target", target), ("max_turns", max_turns)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise StateError(f"{key} must be a whole number >= 1, got {value!r}")
        self.target = target
        self.max_turns = max_turns
        self.encoder = ENCODER

    def new_state(self, seed: int) -> ToyState:
        """A new game for ``seed``."""
        return new_game(self.target, self.max_turns, seed)

    def state_from_dict(self, data: dict[str, Any]) -> ToyState:
        """Rebuild a state written by ``to_dict``."""
        return ToyState.from_dict(data)

    def describe_action(self, state: ToyState, seat: int, index: int) -> Described:
        """Action ``index`` in words, as ``seat`` may know it."""
        return describe.describe_action(state, seat, index)

    def view(self, state: ToyState, seat: int) -> dict[str, Any]:
        """What ``seat`` may know (``envs.core.view``): its own hand and deck contents, counts of the other's."""
        st = state
        players = []
        for p in range(2):
            d: dict[str, Any] = {
                "score": st.scores[p],
                "hand_count": len(st.hands[p]),
                "deck": len(st.deck[p]),
                "played": [card(v) for v in st.played[p]],
                "discarded": [card(v) for v in st.discarded[p]],
            }
            if p == seat:
                d["hand"] = [card(v) for v in st.hands[p]]
                d["deck_contents"] = [
                    {**card(v), "count": st.deck[p].count(v)} for v in VALUES if v in st.deck[p]
                ]
            players.append(d)
        board = {"target": st.target, "max_turns": st.max_turns, "first": st.first}
        return frame(ENV, st, seat, turn=st.turn, decision=st.decision, players=players, board=board)

    def render_text(self, state: ToyState, viewer: int | None) -> str:
        """The board as text; ``viewer`` None shows both hands."""
        st = state
        lines = [f"turn {st.turn}/{st.max_turns}  target {st.target}  to move P{st.current_player}"]
        for p in range(2):
            hand = "hidden" if viewer is not None and viewer != p else " ".join(map(str, st.hands[p]))
            lines.append(
                f"P{p}  score {st.scores[p]}  hand [{hand}]  deck {len(st.deck[p])}  "
                f"played {st.played[p]}  discarded {st.discarded[p]}"
            )
        if st.done:
            lines.append(f"game over: {st.reason}")
        lines += [
            "events:",
            *("  " + e for e in lines_for(st, viewer, last=6, names=describe.card_names(st))),
        ]
        return "\n".join(lines)
