"""AMALOGS: a team meta-game on a map whose duels are turns of the other rulesets' core games."""
