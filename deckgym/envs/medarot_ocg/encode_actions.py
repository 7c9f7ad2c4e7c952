"""The action index space of the Medarot OCG encoder (spec section 6): index <-> engine action.

Actions: one ``Discrete(78)``; the meaning of an index depends on the decision point
(which is part of the observation). Squares are in the acting agent's own frame.

| indices | name | | indices | name |
|---|---|---|---|---|
| 0 | PASS | | 52-59 | MOVE(d), F FR R BR B BL L FL |
| 1-16 | HAND(i) | | 60-63 | COUNT(k) |
| 17-32 | SET(i) | | 64-69 | MEDAFORCE(k) |
| 33-35 | STOCK(j) | | 70 | SUBSTITUTE |
| 36 | MASTER | | 71 | RELEASE |
| 37-51 | SQUARE(s') | | 72 | SPECIAL |
| 73-75 | OPP_STOCK(j) | | 76-77 | EFFECT(e) |

``ActionCodec`` holds the encoder's index methods; the int8 mask (a numpy array) is built by
``MedarotEncoder.action_mask`` from ``_INDEX_OF``.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.core.protocol import block_offsets
from deckgym.envs.encoding.codec import Encoder
from deckgym.envs.medarot_ocg.actions import ARG_COUNT, Action, Kind
from deckgym.envs.medarot_ocg.rules.board import to_relative
from deckgym.envs.medarot_ocg.state import GameState

ACTION_SIZE: Final = 78
#: First index of each action kind (section 6): the blocks follow each other in ``Kind`` order.
OFFSET: Final = block_offsets(ARG_COUNT)
_OFF: Final = [OFFSET[Kind(k)] for k in range(len(Kind))]
#: index -> (kind, arg in the agent's frame)
_DECODE: Final = [(k, i) for k in Kind for i in range(ARG_COUNT[k])]
assert len(_DECODE) == ACTION_SIZE

_ACTIONS: Final = tuple(Action(k, i) for k, i in _DECODE)  # interned: decoding allocates nothing
_SQUARE_ACTIONS: Final = tuple(Action(Kind.SQUARE, s) for s in range(15))
_REL: Final = tuple(
    tuple(to_relative(r, seat) for r in range(15)) for seat in range(2)
)  # relative -> absolute
#: seat -> index -> engine action when ``seat`` is to move (squares from its own frame)
_ACTION_OF: Final = tuple(
    tuple(
        _SQUARE_ACTIONS[_REL[seat][arg]] if k == Kind.SQUARE else _ACTIONS[i]
        for i, (k, arg) in enumerate(_DECODE)
    )
    for seat in range(2)
)
#: seat -> {engine action: its index when ``seat`` is to move} (the inverse of ``_ACTION_OF``)
_INDEX_OF: Final = tuple({a: i for i, a in enumerate(actions)} for actions in _ACTION_OF)


class ActionCodec(Encoder):
    """The encoder's action methods: index <-> engine action, legal indices and labels."""

    def action_to_index(self, action: Action, state: GameState) -> int:
        """Index of an engine action for the player to move (squares to the agent's frame)."""
        k, arg = action
        if k == Kind.SQUARE:
            arg = _REL[state.current_player][arg]  # the map is its own inverse
        return _OFF[k] + arg

    def index_to_action(self, index: int, state: GameState) -> Action:
        """Engine action of an index for the player to move."""
        if not 0 <= index < ACTION_SIZE:
            raise ValueError(f"action index {index} out of range 0..{ACTION_SIZE - 1}")
        return _ACTION_OF[state.current_player][index]

    def legal_indices(self, state: GameState) -> list[int]:
        """Indices of the legal actions of the player to move."""
        p = state.current_player
        index = _INDEX_OF[max(p, 0)]
        return [index[a] for a in state.legal_actions()]

    def action_label(self, index: int, state: GameState) -> str:
        """E.g. ``SQUARE(12) attack Bolt`` or ``HAND(2) Field Wrench``."""
        a = self.index_to_action(index, state)
        p = state.current_player
        text = str(a)
        if a.kind in (Kind.HAND, Kind.SET) and p >= 0 and a.arg < len(state.hand[p]):
            text += f" {state.cards[state.hand[p][a.arg]].name}"
        elif a.kind == Kind.SQUARE and (x := state.board[a.arg]) is not None:
            name = state.cards[x.top()].name if x.face_up or x.owner == p else "face-down card"
            text += f" {name}"
        return text
