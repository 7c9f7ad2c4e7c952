"""Master of the World (MoW): masters, levels from experience, monsters, weapons and counter chains.

Any position can be set up by hand with ``envs.mow.position.position`` (puzzles, endgame studies,
regression cases); it checks the position against the rules and runs it to its first decision.

``GAME`` declares the ruleset to the library (``envs.games``).
"""

from __future__ import annotations

from deckgym.envs.games import Game

GAME = Game(
    name="mow_v1",
    title="Master of the World",
    module="deckgym.envs.mow_v1",
    gym_name="MasterOfTheWorld",
    heuristic="deckgym.agents.heuristic.mow:MowHeuristic",
    decks=True,
    renamed={
        "mow_v0": "its four starter decks were rebalanced and a countered summon now resolves its on-entry effect (D28)",
    },
)
