"""The Medarot Official Card Game: engine, card data and encoding (beginner, normal, advance).

Set up any position (a puzzle, an endgame study, a regression case) with the public builder
``envs.medarot_ocg.position.position``: it takes the board by square and every zone by seat,
checks them against the rules and runs the automatic steps to the first decision.

Its declaration to the library (``GAME``, ``envs.games``) is ``game.toml`` beside this file.
"""

from deckgym.envs.games import declared

GAME = declared(__name__)
