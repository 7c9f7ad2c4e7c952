"""Agents that play deckgym environments: random, heuristic and PPO."""
