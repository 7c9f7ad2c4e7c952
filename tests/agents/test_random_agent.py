"""RandomAgent: only legal actions, reproducible with a seed."""

from __future__ import annotations

import numpy as np
import pytest

from deckgym.agents.random_agent import RandomAgent
from deckgym.envs import medarot_ocg_v1
from tests.envs.positions import live_observations


@pytest.mark.parametrize("mode", ["beginner", "normal", "advance"])
def test_random_agent_only_plays_legal_actions(mode):
    env = medarot_ocg_v1.env(mode=mode)
    agent = RandomAgent(seed=1)
    for obs in live_observations(env, range(10)):
        a = agent.act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][a] == 1
        env.step(a)


def test_random_agent_is_seeded_and_rejects_an_empty_mask():
    mask = np.zeros(78, dtype=np.int8)
    mask[[3, 9, 40]] = 1
    a, b = RandomAgent(seed=7), RandomAgent(seed=7)
    assert [a.act(None, mask) for _ in range(20)] == [b.act(None, mask) for _ in range(20)]
    assert {RandomAgent(seed=s).act(None, mask) for s in range(40)} == {3, 9, 40}
    with pytest.raises(ValueError, match="no legal action"):
        a.act(None, np.zeros(78, dtype=np.int8))
