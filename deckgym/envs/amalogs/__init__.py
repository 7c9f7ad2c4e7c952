"""AMALOGS: a team meta-game on a map whose duels are turns of the other rulesets' core games.

``envs.amalogs.position.position`` sets up a position by hand (squares, action points, flags,
base lives, team turn, start phase) and runs it to its first decision.

``GAME`` declares the ruleset to the library (``envs.games``).
"""

from __future__ import annotations

from deckgym.envs.games import Game, Variant

GAME = Game(
    name="amalogs_v2",
    title="AMALOGS (teams of card-game players on a map)",
    module="deckgym.envs.amalogs_v2",
    gym_name="Amalogs",
    variants=tuple(Variant({"team_sizes": (n, n)}, f"{n}v{n}", long=n == 3) for n in (1, 2, 3)),
    heuristic="deckgym.agents.heuristic.amalogs:AmalogsHeuristic",
    nested=True,
    renamed={
        "amalogs_v1": (
            "its cross-game duels were calibrated (spec D43): new nominal lives, stand-in and base units, and"
            " a defended base in a duel loses 1 life (a siege)"
        ),
    },
)
