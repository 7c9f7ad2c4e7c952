"""The rules of the Medarot OCG, split by the spec's own topics.

``flow`` runs the agenda; ``phases`` is the opening, start and end phases (5.1, 5.2, 5.4);
``action`` the action phase around the attack (5.3); ``combat`` declaring, judgement and
destruction; ``medaroter`` the stock and card windows; ``effects`` the effect primitives (4.4);
``board`` geometry and effective values (4.2, 4.3); ``invariants`` the rules check of one
position (``check``, section 10).
"""

from __future__ import annotations

from deckgym.envs.medarot_ocg.cards import CardPool
from deckgym.envs.medarot_ocg.config import RulesConfig
from deckgym.envs.medarot_ocg.rules import action, combat, effects, medaroter, phases  # noqa: F401  (registration)
from deckgym.envs.medarot_ocg.rules.flow import AGENDA, apply, legal_actions
from deckgym.envs.medarot_ocg.rules.invariants import check
from deckgym.envs.medarot_ocg.state import GameState

__all__ = ["apply", "check", "legal_actions", "new_game"]


def new_game(config: RulesConfig, pool: CardPool, decks: list[list[str]], seed: int) -> GameState:
    """A new game after the automatic opening steps (O1, O2), stopped at its first decision."""
    return AGENDA.start(GameState(config, pool, decks, seed), phases.setup)
