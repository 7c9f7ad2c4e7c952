"""``SingleAgentEnv``: a ``gymnasium.Env`` seating one learner against opponent agents.

For stable-baselines3 / sb3-contrib ``MaskablePPO``. Each episode draws an opponent from
the pool (with the env's seeded RNG) and, by default, alternates the learner's seat. Every
decision of the other seat, including decisions inside the learner's own action (defence
windows, discards), is played by the opponent inside ``step``; the learner only ever sees
its own decision points.

The reward is the learner's own: its final return (+1 win, -1 loss, 0 draw or truncation),
given on the step that ends the game, whichever seat's move ended it.

It was ``envs.single_agent``; it lives with training because its opponents are ``agents``
(no module of ``envs`` imports ``agents``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from deckgym import agents as agent_lib
from deckgym import envs
from deckgym.agents.base import bind, needs_observation
from deckgym.envs.core.errors import IllegalActionError, IllegalActionWarning

#: What the value function may read: the learner's own observation, or the whole game too.
CRITICS = ("seat", "global")

#: Frozen snapshots (``ppo:PATH`` opponents) loaded in this process, by spec. A snapshot is a
#: greedy policy with no state between calls, so every env of a process shares one copy:
#: loading one builds and initialises a whole model (most of a second), once per env before.
_SNAPSHOTS: dict[str, Any] = {}


def shared_agent(spec: str, env_name: str, seed: int) -> Any:
    """The agent of ``spec``; ``ppo:PATH`` snapshots come from the process's shared copies."""
    if not spec.startswith("ppo:"):
        return agent_lib.make(spec, env_name, seed=seed)
    if spec not in _SNAPSHOTS:
        if len(_SNAPSHOTS) >= 64:  # a long run keeps only its latest few snapshots in its pool
            _SNAPSHOTS.pop(next(iter(_SNAPSHOTS)))
        _SNAPSHOTS[spec] = agent_lib.make(spec, env_name, seed=seed)
    return _SNAPSHOTS[spec]


class SingleAgentEnv(gym.Env):
    """One learner seat against a pool of opponents.

    Args:
        env_name: a registered environment (``envs.names()``).
        opponents: agents or zero-argument factories of agents (each with ``act`` and
            ``reset``); one is drawn per episode.
        env_kwargs: options of the environment (``mode``, ``decks``...).
        learner_seat: ``"alternate"`` (default), ``"random"`` or a fixed seat. Alternating
            seats start from the reset seed (seed mod the number of seats) and take turns over
            the episodes after it, so ``reset(seed=s)`` always seats the learner the same way
            (Gymnasium's ``check_env`` resets twice with one seed) and a run that seeds once
            plays every seat equally often.
        weights: optional drawing weights of the opponents.
        shaping: weight of potential-based reward shaping (0: off). With a ruleset that defines
            ``potential(state, seat)`` (public facts only), each step adds
            ``shaping * (gamma * phi(s') - phi(s))`` with ``phi = 0`` at the end, which leaves
            the optimal policy unchanged (Ng et al., 1999). ``info["outcome"]`` is always the
            unshaped final return.
        gamma: the discount used by the shaping term (match the learner's).
        skip_forced: play the learner's decision points that have a single legal option
            automatically (the env flag ``auto_forced`` of the rules, D41), so every step the
            learner takes is a real choice.
        illegal_action: "penalize" (default) ends the episode with -1 for an action outside
            the mask and an ``IllegalActionWarning``, as PettingZoo's classic envs do
            (``info["illegal_action"]`` is set);
            "raise" raises ``IllegalActionError``. ``MaskablePPO`` never picks one.
        critic: "seat" (default): the observation is the learner's own vector. "global": it is
            ``{"observation": own vector, "state": env.state()}``, the whole game for a value
            function that may read it (a centralized critic); the policy must read only
            ``"observation"`` (``agents.training.policy`` builds such a policy for
            ``critic="global"``).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        env_name: str,
        opponents: Sequence[Any],
        env_kwargs: dict[str, Any] | None = None,
        learner_seat: int | str = "alternate",
        weights: Sequence[float] | None = None,
        skip_forced: bool = True,
        illegal_action: str = "penalize",
        shaping: float = 0.0,
        gamma: float = 0.995,
        critic: str = "seat",
    ) -> None:
        super().__init__()
        if not opponents:
            raise ValueError("SingleAgentEnv needs at least one opponent")
        self.env_name = env_name
        # the wrapper applies its own illegal-action policy; the AEC env under it always raises
        self.aec = envs.make(env_name, **{**(env_kwargs or {}), "illegal_action": "raise"})
        self.raw = self.aec.unwrapped
        a0 = self.raw.possible_agents[0]
        if critic not in CRITICS:
            raise ValueError(f"critic must be one of {CRITICS}, got {critic!r}")
        self.critic = critic
        own = self.raw.observation_space(a0)["observation"]
        self.observation_space: gym.Space = (
            own if critic == "seat" else gym.spaces.Dict({"observation": own, "state": self.raw.state_space})
        )
        self.action_space = self.raw.action_space(a0)
        self.opponents: list[Any] = []
        self._built: dict[str, Any] = {}  # agents made by set_pool, by spec
        self.weights: list[float] = []
        for i, o in enumerate(opponents):
            self.add_opponent(o, 1.0 if weights is None else weights[i])
        if learner_seat not in ("alternate", "random") and learner_seat not in range(
            len(self.raw.possible_agents)
        ):
            raise ValueError(
                f"learner_seat must be 'alternate', 'random' or a seat index, got {learner_seat!r}"
            )
        self.learner_seat_mode = learner_seat
        if illegal_action not in ("penalize", "raise"):
            raise ValueError(f"illegal_action must be 'penalize' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.skip_forced = skip_forced
        self.shaping = float(shaping)
        self.gamma = float(gamma)
        self._potential = getattr(self.raw.ruleset, "potential", None) if shaping else None
        self._phi = 0.0
        self._forfeit = False
        self.episodes = 0
        self._seat0 = 0  # the first seat of the alternation, from the last reset seed
        self.seat = 0
        self.opponent: Any = None

    # ------------------------------------------------------------------ pool
    def add_opponent(self, opponent: Any, weight: float = 1.0) -> None:
        """Add an agent (or a factory of one) to the pool."""
        agent = opponent() if isinstance(opponent, Callable) and not hasattr(opponent, "act") else opponent
        bind(agent, self.aec)
        self.opponents.append(agent)
        self.weights.append(float(weight))

    def set_pool(self, specs: Sequence[str], weights: Sequence[float]) -> None:
        """Replace the pool by agents built from specs (``agents.make``); keeps built ones."""
        cache = self._built
        pool = []
        for spec in specs:
            if spec not in cache:
                cache[spec] = bind(shared_agent(spec, self.env_name, len(cache)), self.aec)
            pool.append(cache[spec])
        self._built = {s: cache[s] for s in specs}
        self.opponents = pool
        self.set_weights(weights)

    def set_weights(self, weights: Sequence[float]) -> None:
        """Replace the drawing weights of the pool."""
        if len(weights) != len(self.opponents):
            raise ValueError(f"{len(weights)} weights for {len(self.opponents)} opponents")
        self.weights = [float(w) for w in weights]

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        """New game: draw the opponent and the learner's seat, play until the learner decides."""
        super().reset(seed=seed)
        rng = self.np_random
        mode = self.learner_seat_mode
        n = len(self.raw.possible_agents)
        if seed is not None:  # a seeded reset starts the alternation again, from the seed
            self._seat0, self.episodes = int(seed) % n, 0
        if mode == "alternate":
            self.seat = (self._seat0 + self.episodes) % n
        elif mode == "random":
            self.seat = int(rng.integers(n))
        else:
            self.seat = int(mode)
        self.episodes += 1
        p = np.asarray(self.weights, dtype=float)
        self.opponent = self.opponents[int(rng.choice(len(self.opponents), p=p / p.sum()))]
        game_seed = int(rng.integers(2**62))
        self._forfeit = False
        self.aec.reset(seed=game_seed, options=options)
        self.opponent.reset(seed=game_seed)
        self._play_others()
        self._phi = self._phi_now()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        """Play the learner's action, then the others' decisions up to the learner's next one."""
        st = self.raw.game
        if st.is_terminal() or self._forfeit:
            raise IllegalActionError(action, "game over (call reset())", [])
        index = int(action)
        if not (0 <= index < self.action_space.n and self.raw.encoder.action_mask(st)[index]):
            if self.illegal_action == "raise":
                self.aec.step(index)  # raises IllegalActionError naming the action and the options
            warnings.warn(
                f"illegal action {index} by the learner (seat {self.seat}): the episode ends with -1 "
                "(illegal_action='penalize'; info['action_mask'] and action_masks() hold the legal actions)",
                IllegalActionWarning,
                stacklevel=2,
            )
            self._forfeit = True
            info = {**self._info(), "illegal_action": index}
            return self._obs(), -1.0, True, False, info
        self.aec.step(index)
        self._play_others()
        st = self.raw.game
        phi = self._phi_now()
        bonus = self.shaping * (self.gamma * phi - self._phi) if self._potential is not None else 0.0
        self._phi = phi
        if st.is_terminal():
            outcome = float(st.returns()[self.seat])
            info = {**self._info(), "outcome": outcome}
            return self._obs(), outcome + bonus, not st.truncated, bool(st.truncated), info
        return self._obs(), bonus, False, False, self._info()

    def _phi_now(self) -> float:
        st = self.raw.game
        if self._potential is None or st.is_terminal():
            return 0.0
        return float(self._potential(st, self.seat))

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (all False once the game is over)."""
        st = self.raw.game
        if st.is_terminal() or self._forfeit or st.current_player != self.seat:
            return np.zeros(self.action_space.n, dtype=bool)
        return self.raw.encoder.action_mask(st).astype(bool)

    def render(self) -> str:
        """The board as text."""
        return self.raw.ruleset.render_text(self.raw.game, None)

    # ------------------------------------------------------------------ internals
    def _play_others(self) -> None:
        aec = self.aec
        st = self.raw.game
        enc = self.raw.encoder
        while not st.is_terminal():
            seat = st.current_player
            if seat == self.seat:
                if not self.skip_forced or len(st.legal_actions()) > 1:
                    return
                aec.step(enc.legal_indices(st)[0])
                continue
            # an opponent that never reads it (the heuristics, search, random) gets no observation
            obs = enc.observe(st, seat) if needs_observation(self.opponent) else None
            mask = enc.action_mask(st)
            aec.step(int(self.opponent.act(obs, mask)))

    def _obs(self) -> Any:
        enc, st = self.raw.encoder, self.raw.game
        if self.critic == "seat":
            return enc.observe(st, self.seat)
        state = enc.global_state(st)  # it holds the learner's own observation: no second encoding
        own = state[enc.global_layout(st.num_players)[f"seat_{self.seat}"].slice].copy()
        return {"observation": own, "state": state}

    def _info(self) -> dict[str, Any]:
        st = self.raw.game
        info: dict[str, Any] = {
            "seat": self.seat,
            "opponent": getattr(self.opponent, "name", "?"),
            "action_mask": self.action_masks(),
        }
        if st.is_terminal():
            info["winner"] = st.winner
            info["reason"] = getattr(st, "reason", "")
        return info


def gym_env(
    env_name: str, opponent: str = "heuristic", render_mode: str | None = None, **env_kwargs: Any
) -> SingleAgentEnv:
    """The env behind ``gymnasium.make("deckgym/...")``: the learner against one agent.

    Args:
        env_name: a registered environment (``envs.names()``).
        opponent: the opponent's agent spec (``agents.make``: ``heuristic``, ``random``,
            ``search:4``, ``ppo:PATH``...).
        render_mode: None or ``"ansi"`` (``render()`` returns the board as text).
        **env_kwargs: options of the environment (``mode``, ``decks``, ``team_sizes``...).

    The observation is the learner's vector, the mask is ``info["action_mask"]`` (and
    ``env.unwrapped.action_masks()``, which sb3-contrib's ``MaskablePPO`` reads); the
    learner's seat comes from the reset seed.
    """
    modes = SingleAgentEnv.metadata["render_modes"]
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {modes}, got {render_mode!r}")
    env = SingleAgentEnv(
        env_name, [agent_lib.make(opponent, env_name, seed=0, **env_kwargs)], env_kwargs=env_kwargs
    )
    env.render_mode = render_mode
    return env


def make_single_agent_env(
    env_name: str, opponents: Callable[[], Sequence[Any]], env_kwargs: dict[str, Any], **kw: Any
) -> Callable[[], SingleAgentEnv]:
    """A picklable-by-closure factory for vectorised envs (each worker builds its own opponents)."""

    def factory() -> SingleAgentEnv:
        return SingleAgentEnv(env_name, opponents(), env_kwargs, **kw)

    return factory
