"""Any deckgym env as an RLlib ``MultiAgentEnv``: turn-based play with action masks.

RLlib's own ``PettingZooEnv`` wrapper passes observations through unchanged and has no masks,
and its env checker steps random actions, which a deckgym env refuses. ``RllibEnv`` follows
RLlib's current (new API stack) multi-agent conventions instead:

- only the seat to move gets an observation at each step; rewards of the other seats are
  handed back as they occur and RLlib credits them at that seat's next observation;
- every observation is a dict with the keys RLlib's action-masking RLModules read,
  ``"observations"`` (the seat's vector) and ``"action_mask"`` (1.0 for a legal action);
- at the end of a game every seat gets its last observation, its reward and
  ``terminated`` (or ``truncated``), with ``"__all__"``.

An action the mask forbids (RLlib's env checker sends random ones) ends the game with -1 for
that seat and 0 for the others, as PettingZoo's ``TerminateIllegalWrapper`` does; it is
counted in ``RllibEnv.illegal_actions`` (per process), so a training run can show that its
policy never sent one. ``{"illegal_action": "raise"}`` raises instead.

    from ray.rllib.algorithms.ppo import PPOConfig
    from deckgym.envs.rllib import RllibEnv
    config = PPOConfig().environment(RllibEnv, env_config={"env": "medarot_ocg_v1", "mode": "beginner"})

``scripts/rllib_ppo.py`` trains PPO with an action-masking RLModule on it. Needs the ``rllib``
extra (``pip install -e '.[rllib]'``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces

try:
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as exc:  # the optional extra
    raise ImportError("deckgym.envs.rllib needs RLlib: pip install -e '.[rllib]'") from exc

from deckgym import envs


class RllibEnv(MultiAgentEnv):
    """A deckgym env for RLlib; ``config`` is ``{"env": NAME, **env options}`` (plus ``illegal_action``)."""

    #: Actions the mask forbade, in this process (RLlib's env checker sends some at start-up).
    illegal_actions: ClassVar[int] = 0

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        options = dict(config or {})
        name = options.pop("env", "medarot_ocg_v1")
        self.illegal_policy = options.pop("illegal_action", "penalize")
        if self.illegal_policy not in ("penalize", "raise"):
            raise ValueError(f"illegal_action must be 'penalize' or 'raise', got {self.illegal_policy!r}")
        self.env = envs.make(name, illegal_action=self.illegal_policy, **options)
        self.agents = self.possible_agents = list(self.env.possible_agents)
        first = self.possible_agents[0]
        inner = self.env.observation_space(first)
        n = int(self.env.action_space(first).n)
        obs_space = spaces.Dict(
            {"action_mask": spaces.Box(0.0, 1.0, (n,), np.float32), "observations": inner["observation"]}
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(n))
        #: The action mask last sent for the seat to move (``step`` checks its action against it).
        self._mask: np.ndarray | None = None

    @staticmethod
    def _wrap(obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {"action_mask": obs["action_mask"].astype(np.float32), "observations": obs["observation"]}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        """A new game; the observation of the seat to move."""
        self.env.reset(seed=seed, options=options)
        me = self.env.agent_selection
        obs = self.env.observe(me)
        self._mask = obs["action_mask"]
        return {me: self._wrap(obs)}, {me: {}}

    def step(self, action_dict: dict[Hashable, Any]) -> tuple[Any, Any, Any, Any, Any]:
        """Play the seat to move's action; the next seat's observation, or every seat's at the end."""
        env = self.env
        me = env.agent_selection
        action = int(action_dict[me])
        mask = env.observe(me)["action_mask"] if self._mask is None else self._mask
        if not 0 <= action < len(mask) or not mask[action]:
            type(self).illegal_actions += 1  # "penalize": the env ends the game, -1 for this seat
        env.step(action)  # "raise": IllegalActionError names the decision and the legal options
        # the env's rewards come only with the step that ends the game (zero before)
        rewards = {a: float(env.rewards.get(a, 0.0)) for a in self.possible_agents}
        obs: dict[str, Any] = {}
        terminated: dict[str, bool] = {}
        truncated: dict[str, bool] = {}
        while env.agents:
            agent = env.agent_selection
            o, _r, term, trunc, _info = env.last()
            obs[agent] = self._wrap(o)
            if not (term or trunc):
                self._mask = o["action_mask"]
                break
            terminated[agent], truncated[agent] = bool(term), bool(trunc)
            env.step(None)
        done = not env.agents
        terminated["__all__"] = done and all(terminated.values())
        truncated["__all__"] = done and not terminated["__all__"]
        return obs, {a: r for a, r in rewards.items() if r or a in obs}, terminated, truncated, {}
