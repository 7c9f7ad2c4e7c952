"""The Medarot Official Card Game: engine, card data and encoding (beginner, normal, advance).

Set up any position (a puzzle, an endgame study, a regression case) with the public builder
``envs.medarot_ocg.position.position``: it takes the board by square and every zone by seat,
checks them against the rules and runs the automatic steps to the first decision.

``GAME`` declares the ruleset to the library (``envs.games``).
"""

from __future__ import annotations

from deckgym.envs.games import Game, Variant

GAME = Game(
    name="medarot_ocg_v1",
    title="Medarot Official Card Game",
    module="deckgym.envs.medarot_ocg_v1",
    gym_name="MedarotOCG",
    variants=(
        Variant({"mode": "beginner"}, "beginner", title="Beginner rules"),
        Variant({"mode": "normal"}, "normal", title="Normal rules"),
        Variant({"mode": "advance"}, "advance", title="Advanced rules"),
    ),
    heuristic="deckgym.agents.heuristic.medarot_ocg:MedarotHeuristic",
    decks=True,
    renamed={
        "medarot_ocg_v0": "its starter decks were rebalanced and its observation grew from 4,761 to 4,813 entries",
    },
)
