"""A toy two-player card game kept outside the package, to show that a ruleset joins with one line.

``envs.games.register(GAME)`` makes it an env like the built-in ones (``tests/envs/test_toy_ruleset.py``).
"""

from __future__ import annotations

from deckgym.envs.games import Game, Variant

GAME = Game(
    name="toy_v1",
    title="Toy duel",
    module="tests.toy_game.toy_v1",
    gym_name="ToyDuel",
    variants=(
        Variant({"target": 15}, "short", title="Race to 15"),
        Variant({"target": 25}, "long", long=True, title="Race to 25"),
    ),
    heuristic="tests.toy_game.heuristic:ToyHeuristic",
    decks=False,
    help="help.md",
)
