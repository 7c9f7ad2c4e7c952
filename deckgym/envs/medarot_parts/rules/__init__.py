"""The rules of the Medarot parts game, split by the spec's own topics.

``flow`` runs the agenda (and applies forced decisions, D37); ``phases`` is setup and the turn
(D1-D17); ``action_step`` the turns-to-act, repair and exchange (D12-D14, D29, D32); ``battle``
the battle steps B1-B9 (R1-R28); ``damage`` block shock, allocation, destruction and stopping
(R16-R22, D26, D27, D33, D34); ``effects`` the effect primitives and medaroter / support uses
(4.3, D30, D31, D41); ``payment`` energy payment (D20); ``values`` current values (4.3, D39);
``invariants`` the rules check of one position (``check``, section 10).
"""

from __future__ import annotations

from deckgym.envs.medarot_parts.cards import CardPool
from deckgym.envs.medarot_parts.config import RulesConfig
from deckgym.envs.medarot_parts.rules import action_step, battle, damage, effects, payment, phases  # noqa: F401
from deckgym.envs.medarot_parts.rules.flow import AGENDA, apply, legal_actions
from deckgym.envs.medarot_parts.rules.invariants import check
from deckgym.envs.medarot_parts.state import GameState

__all__ = ["apply", "check", "legal_actions", "new_game"]


def new_game(config: RulesConfig, pool: CardPool, decks: list[list[list[str]]], seed: int) -> GameState:
    """A new game after setup (D2-D4), stopped at its first decision.

    ``decks[p]`` is ``[medarot 1 starter, medarot 2 starter, deck]`` (``Deck.to_list()``).
    """
    return AGENDA.start(GameState(config, pool, decks, seed), phases.setup)
