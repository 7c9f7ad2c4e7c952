"""Plays one rendered game between two random agents and a short random-vs-random match per mode."""

from __future__ import annotations

import random

import numpy as np

from agents.random_agent import RandomAgent
from envs import medarot_ocg_v0


def main() -> None:
    env = medarot_ocg_v0.env(mode="beginner", render_mode="ansi")
    env.reset(seed=0)
    agents = {a: RandomAgent(seed=i) for i, a in enumerate(env.possible_agents)}
    for name in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else agents[name].act(obs["observation"], obs["action_mask"]))
    print(env.render())
    for mode in ("beginner", "normal", "advance"):
        env = medarot_ocg_v0.env(mode=mode)
        wins = {"player_0": 0, "player_1": 0, "draw": 0}
        rng = random.Random(1)
        for g in range(50):
            env.reset(seed=g)
            for _name in env.agent_iter():
                obs, _r, term, trunc, _i = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            st = env.unwrapped.state
            wins["draw" if st.winner not in (0, 1) else f"player_{st.winner}"] += 1
        print(f"{mode:<9} random vs random over 50 games: {wins}")


if __name__ == "__main__":
    main()
