"""AMALOGS: a team meta-game on a map whose duels are turns of the other rulesets' core games.

``envs.amalogs.position.position`` sets up a position by hand (squares, action points, flags,
base lives, team turn, start phase) and runs it to its first decision.

Its declaration to the library (``GAME``, ``envs.games``) is ``game.toml`` beside this file.
"""

from deckgym.envs.games import declared

GAME = declared(__name__)
