"""Master of the World (MoW): masters, levels from experience, monsters, weapons and counter chains.

Any position can be set up by hand with ``envs.mow.position.position`` (puzzles, endgame studies,
regression cases); it checks the position against the rules and runs it to its first decision.

Its declaration to the library (``GAME``, ``envs.games``) is ``game.toml`` beside this file.
"""

from deckgym.envs.games import declared

GAME = declared(__name__)
