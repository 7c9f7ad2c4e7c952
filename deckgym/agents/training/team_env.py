"""``TeamMapEnv``: an AMALOGS ``gymnasium.Env`` whose learner plays the map for a whole team.

In AMALOGS most decisions are card-game decisions of three different games, and the few map
decisions (the game choice, placement, moves, duels, strikes) decide most of the match. A
learner that takes every decision spends most of its samples and capacity on the card games.
Here the learner takes only the **map decisions of every seat of its team**, as a team agent is
evaluated; a frozen card player (``card_agent``: by default the composite, the shipped card
models at the tables, ``agents.composite``) takes the team's core decisions, and the opponent
drawn per episode plays the other team.

The learner's observation is the map part of the seat's AMALOGS observation, everything before
the core observation (``MAP_PIECES``: the map, the players, the globals and the core view's
header, which names the game the seat holds); its action space is the map block of AMALOGS'
actions (``CORE_OFFSET`` actions), whose indices are AMALOGS' own. The reward is the team's
final return (+1, -1, 0 for a draw or the turn cap). The team alternates over the episodes,
starting from the reset seed, as ``SingleAgentEnv``'s seat does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from deckgym import envs
from deckgym.agents.arena import sides
from deckgym.agents.base import bind, needs_observation
from deckgym.agents.composite import ENVS, is_core_decision, map_size
from deckgym.envs.amalogs.encode import CORE_OFFSET
from deckgym.envs.core.errors import IllegalActionError

#: The envs the map learner plays: the composite's, inside which its policy plays.
TEAM_ENVS = ENVS


class TeamMapEnv(gym.Env):
    """The map decisions of one AMALOGS team against a pool of opponent teams.

    Args:
        env_name: an AMALOGS env (``TEAM_ENVS``).
        opponents: agents or factories of agents, one drawn per episode for the other team.
        card_agent: the agent (or a factory) that plays the learner team's core decisions.
        env_kwargs: options of the env (``team_sizes``, ``pools``...).
        weights: drawing weights of the opponents.
        team: ``"alternate"`` (default) or a fixed team, 0 or 1.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        env_name: str,
        opponents: Sequence[Any],
        card_agent: Any,
        env_kwargs: dict[str, Any] | None = None,
        weights: Sequence[float] | None = None,
        team: int | str = "alternate",
    ) -> None:
        super().__init__()
        if env_name not in TEAM_ENVS:
            raise ValueError(f"the map learner plays {', '.join(TEAM_ENVS)}, not {env_name!r}")
        if not opponents:
            raise ValueError("TeamMapEnv needs at least one opponent")
        if team not in ("alternate", 0, 1):
            raise ValueError(f"team must be 'alternate', 0 or 1, got {team!r}")
        self.env_name = env_name
        self.aec = envs.make(env_name, **{**(env_kwargs or {}), "illegal_action": "raise"})
        self.raw = self.aec.unwrapped
        self.size = map_size(self.aec)
        full = self.raw.observation_space(self.raw.possible_agents[0])["observation"]
        self.observation_space = gym.spaces.Box(
            full.low[: self.size], full.high[: self.size], dtype=np.float32
        )
        self.action_space = gym.spaces.Discrete(CORE_OFFSET)
        self.teams = sides(self.aec)
        self.card_agent = _built(card_agent)
        bind(self.card_agent, self.aec)
        self.opponents = [bind(_built(o), self.aec) for o in opponents]
        self.weights = [1.0] * len(self.opponents) if weights is None else [float(w) for w in weights]
        if len(self.weights) != len(self.opponents):
            raise ValueError(f"{len(self.weights)} weights for {len(self.opponents)} opponents")
        self.team_mode = team
        self.team = 0
        self.episodes = 0
        self._team0 = 0
        self.opponent: Any = None

    def set_pool(self, specs: Sequence[str], weights: Sequence[float]) -> None:
        """Replace the pool by agents built from specs (``agents.make``)."""
        from deckgym import agents as agent_lib

        self.opponents = [
            bind(agent_lib.make(s, self.env_name, seed=i), self.aec) for i, s in enumerate(specs)
        ]
        self.weights = [float(w) for w in weights]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        """New game: draw the opponent and the learner's team, play up to the team's next map decision."""
        super().reset(seed=seed)
        rng = self.np_random
        if seed is not None:
            self._team0, self.episodes = int(seed) % 2, 0
        self.team = (
            (self._team0 + self.episodes) % 2 if self.team_mode == "alternate" else int(self.team_mode)
        )
        self.episodes += 1
        p = np.asarray(self.weights, dtype=float)
        self.opponent = self.opponents[int(rng.choice(len(self.opponents), p=p / p.sum()))]
        game_seed = int(rng.integers(2**62))
        self.aec.reset(seed=game_seed, options=options)
        self.opponent.reset(seed=game_seed)
        self.card_agent.reset(seed=game_seed + 1)
        self._play_others()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        """Play the learner's map action, then every other decision up to its next one."""
        index = int(action)
        legal = self.action_masks()
        if not (0 <= index < CORE_OFFSET and legal[index]):
            why = "game over (call reset())" if self.raw.game.is_terminal() else "not a legal map action now"
            raise IllegalActionError(index, why, [int(i) for i in np.flatnonzero(legal)])
        self.aec.step(index)
        self._play_others()
        st = self.raw.game
        if st.is_terminal():
            outcome = float(st.returns()[self.teams[self.team][0]])
            return (
                self._obs(),
                outcome,
                not st.truncated,
                bool(st.truncated),
                {**self._info(), "outcome": outcome},
            )
        return self._obs(), 0.0, False, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal map actions of the learner's seat to move (all False when it is not to move)."""
        st = self.raw.game
        if st.is_terminal() or st.current_player not in self.teams[self.team]:
            return np.zeros(CORE_OFFSET, dtype=bool)
        return np.asarray(self.raw.encoder.action_mask(st)[:CORE_OFFSET], dtype=bool)

    def render(self) -> str:
        """The board as text."""
        return str(self.raw.ruleset.render_text(self.raw.game, None))

    def _play_others(self) -> None:
        st = self.raw.game
        enc = self.raw.encoder
        mine = self.teams[self.team]
        while not st.is_terminal():
            seat = st.current_player
            mask = enc.action_mask(st)
            if seat in mine:
                if is_core_decision(mask):
                    agent = self.card_agent
                elif int(mask.sum()) > 1:
                    return
                else:
                    self.aec.step(int(np.flatnonzero(mask)[0]))
                    continue
            else:
                agent = self.opponent
            obs = enc.observe(st, seat) if needs_observation(agent) else None
            self.aec.step(int(agent.act(obs, mask)))

    def _obs(self) -> np.ndarray:
        st = self.raw.game
        seat = st.current_player if not st.is_terminal() else self.teams[self.team][0]
        out: np.ndarray = self.raw.encoder.observe(st, seat)[: self.size]
        return out

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "team": self.team,
            "opponent": getattr(self.opponent, "name", "?"),
            "action_mask": self.action_masks(),
        }
        if self.raw.game.is_terminal():
            info["winner"] = self.raw.game.winner
        return info


def _built(agent: Any) -> Any:
    return agent() if callable(agent) and not hasattr(agent, "act") else agent


def make_team_map_env(
    env_name: str,
    opponents: Callable[[], Sequence[Any]],
    card_agent: Callable[[], Any],
    env_kwargs: dict[str, Any],
    **kw: Any,
) -> Callable[[], TeamMapEnv]:
    """A factory for vectorised workers (each builds its own opponents and card player)."""

    def factory() -> TeamMapEnv:
        return TeamMapEnv(env_name, opponents(), card_agent(), env_kwargs, **kw)

    return factory
