"""An agent wrapper for tests: every action the wrapped agent picks must be legal."""

from __future__ import annotations


class Checked:
    """Wraps an agent, asserts that every action it picks is legal, and counts them."""

    def __init__(self, agent):
        self.agent = agent
        self.name = agent.name
        self.moves = 0

    def bind(self, env):
        if hasattr(self.agent, "bind"):
            self.agent.bind(env)

    def reset(self, seed=None):
        self.agent.reset(seed)

    def act(self, observation, action_mask):
        a = self.agent.act(observation, action_mask)
        assert action_mask[a] == 1
        self.moves += 1
        return a
