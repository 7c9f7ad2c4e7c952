"""The Medarot parts card game: two medarots of five cards each, fought part by part.

Set up any position (puzzles, endgame studies, regression cases) with
``envs.medarot_parts.position.position``: it checks the position against the rules and runs it
to its first decision, ready for ``state.legal_actions()`` and an agent's ``choose(state, seat)``.

Its declaration to the library (``GAME``, ``envs.games``) is ``game.toml`` beside this file.
"""

from deckgym.envs.games import declared

GAME = declared(__name__)
