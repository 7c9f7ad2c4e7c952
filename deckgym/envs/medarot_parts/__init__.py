"""The Medarot parts card game: two medarots of five cards each, fought part by part.

Set up any position (puzzles, endgame studies, regression cases) with
``envs.medarot_parts.position.position``: it checks the position against the rules and runs it
to its first decision, ready for ``state.legal_actions()`` and an agent's ``choose(state, seat)``.

``GAME`` declares the ruleset to the library (``envs.games``).
"""

from __future__ import annotations

from deckgym.envs.games import Game

GAME = Game(
    name="medarot_parts_v1",
    title="Medarot parts card game",
    module="deckgym.envs.medarot_parts_v1",
    gym_name="MedarotParts",
    heuristic="deckgym.agents.heuristic.medarot_parts:PartsHeuristic",
    decks=True,
    renamed={"medarot_parts_v0": "its three starter decks were rebalanced"},
)
