"""The Medarot Official Card Game: engine, card data and encoding (beginner, normal, advance).

Set up any position (a puzzle, an endgame study, a regression case) with the public builder
``envs.medarot_ocg.position.position``: it takes the board by square and every zone by seat,
checks them against the rules and runs the automatic steps to the first decision.
"""
