"""The rules of Master of the World, split by the spec's own topics.

``flow`` runs the agenda; ``phases`` is setup and the turn steps (5.1, 5.2); ``card_use`` the
use procedure, conditions and costs (5.3, 4.6); ``chain`` the counter windows and the chain
(5.4); ``combat`` the attack (5.5); ``state_check`` the state check, leaving the field and triggers
(5.6, 5.7); ``effects`` the effect primitives (4.7, 4.8); ``values`` the derived values (4.9);
``field`` card references and positions; ``invariants`` the rules check of one position
(``check``, section 10).
"""

from __future__ import annotations

from deckgym.envs.mow.cards import CardPool
from deckgym.envs.mow.config import RulesConfig
from deckgym.envs.mow.rules import card_use, chain, combat, effects, phases, state_check  # noqa: F401  (registration)
from deckgym.envs.mow.rules.flow import AGENDA, apply, legal_actions
from deckgym.envs.mow.rules.invariants import check
from deckgym.envs.mow.state import GameState

__all__ = ["apply", "check", "legal_actions", "new_game"]


def new_game(config: RulesConfig, pool: CardPool, decks: list[list[str]], seed: int) -> GameState:
    """A new game after setup (5.1), stopped at its first decision."""
    return AGENDA.start(GameState(config, pool, decks, seed), phases.setup)
