"""``envs.vector``: many games stepped in one call, a Gymnasium ``VectorEnv`` with its opponents inside.

``BatchEnv`` holds ``num_envs`` games of one ruleset. In each the learner holds one seat, and
an opponent plays every other decision inside ``step`` (as in the single-learner env of
``gymnasium.make("deckgym/...")``): each step plays one action per game, then the opponents'
decisions up to the learner's next one, and writes every game's observation and action mask
into the batch's arrays. A finished game starts again in the same step (Gymnasium's
``SAME_STEP`` autoreset): its last observation and info are in ``infos["final_obs"]`` and
``infos["final_info"]``, and ``infos["episode"]`` holds its return, length and time.

The games step the engine directly: no AEC env, no per-game Gymnasium wrapper, no info dicts
per game, and the random opponent draws from the legal actions without building a mask. Game
``i`` reseeded with ``seed + i`` plays, move for move, what the single-learner env plays after
``reset(seed=seed + i)`` (the same draws of the seat, the opponent and the game seed).

Opponents: ``"random"`` (played inside the loop), or a function of the game's index that
returns an agent; each game has its own. Agents that read the engine (``choose(state, seat)``)
are asked directly; others get the opponent seat's observation and mask (``act``). Agent specs
(``"heuristic"``, ``"search:4"``, ``"ppo:PATH"``...) are the agents' layer: envs import nothing
above them, so ``deckgym.agents.vector`` and ``gymnasium.make_vec`` pass ``specs``, which builds
them.

``ProcessBatchEnv`` (``envs.vector(..., workers=K)``) splits the games over ``K`` worker
processes, each stepping its share as a ``BatchEnv`` and writing straight into arrays in
shared memory; it plays the same games as one ``BatchEnv`` of the same seed.
"""

from __future__ import annotations

import gc
import itertools
import multiprocessing as mp
import random
import time
from collections.abc import Callable, Sequence
from multiprocessing import shared_memory
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv

from deckgym.envs.core.errors import IllegalActionError
from deckgym.envs.games import game

#: Where the learner sits: alternating over the episodes from the reset seed, drawn, or a fixed seat.
SEAT_MODES = ("alternate", "random")
ILLEGAL_POLICIES = ("raise", "penalize")
#: The opponent played inside the loop, without an agent object.
RANDOM = "random"


class _Table:
    """What an agent bound to one game of the batch reads: ``env.unwrapped.game`` and the ruleset's parts."""

    def __init__(self, ruleset: Any, name: str) -> None:
        self.unwrapped = self
        self.ruleset = ruleset
        self.encoder = ruleset.encoder
        self.metadata = {"name": name}
        self.game: Any = None


#: How agent specs become opponents: ``(spec, env name, options)`` -> a function of the game index
#: returning that game's agent (``deckgym.agents.spec_maker``, passed down by the layers above).
SpecMaker = Callable[[str, str, dict[str, Any]], Callable[[int], Any]]


def _agent_maker(
    opponent: Any, name: str, options: dict[str, Any], specs: SpecMaker | None
) -> Callable[[int], Any] | None:
    """A function of the game index that builds an opponent agent; None for the random opponent."""
    if isinstance(opponent, str):
        if opponent == RANDOM:
            return None
        if specs is None:
            raise ValueError(
                f"envs.vector plays 'random' or the agents you give it (a function of the game index); for "
                f"the agent spec {opponent!r} use deckgym.agents.vector(...) or gymnasium.make_vec(id, num_envs, "
                f"opponent={opponent!r}), which build agents from specs"
            )
        return specs(opponent, name, options)
    if callable(opponent):
        return opponent
    raise ValueError(
        f"opponent must be 'random', an agent spec such as 'heuristic' or 'search:4', or a function of "
        f"the game index returning an agent; got {opponent!r}"
    )


class BatchEnv(VectorEnv):
    """``num_envs`` games of ``name``, a learner seat in each, stepped in one call.

    Args:
        name: a registered environment (``envs.names()``).
        num_envs: how many games.
        opponent: ``"random"``, a function of the game index (0..num_envs-1) that returns an
            agent, an agent spec (``"heuristic"``, ``"search:4"``, ``"ppo:PATH"``: with
            ``specs``, which ``deckgym.agents.vector`` and ``gymnasium.make_vec`` pass), or a
            list of those: a pool, from which each game draws its opponent per episode
            (``weights``), as the single-learner env draws from its pool.
        specs: how agent specs become agents (``SpecMaker``); None: specs are refused.
        weights: the drawing weights of a pool (default: equal).
        learner_seat: ``"alternate"`` (the default: from the reset seed, then in turn),
            ``"random"`` or a fixed seat, per game as in the single-learner env.
        skip_forced: play the learner's decisions that have one legal action automatically.
        illegal_action: ``"raise"`` raises ``IllegalActionError`` (naming the game) before any
            game moves; ``"penalize"`` ends that game with -1 for the learner and
            ``infos["illegal_action"]``.
        copy: return copies of the batch's arrays (False: the same arrays, rewritten each step).
        observation: ``"array"`` (the default: the observations, the masks in
            ``infos["action_mask"]``) or ``"dict"``: ``{"observations", "action_mask"}`` (the
            mask as float32 0/1), the form of RLlib's action-masking modules.
        shaping: weight of the ruleset's potential-based reward shaping (0: off), as in the
            single-learner env: each step adds ``shaping * (gamma * phi(s') - phi(s))``.
        gamma: the discount of the shaping term.
        first: the index of this batch's first game among all (a worker's share of a larger
            batch): agents of specs are seeded with their game's index.
        **options: the ruleset's options (``mode``, ``decks``...).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's own attribute)

    def __init__(
        self,
        name: str,
        num_envs: int = 64,
        opponent: Any = RANDOM,
        *,
        weights: Sequence[float] | None = None,
        specs: SpecMaker | None = None,
        learner_seat: int | str = "alternate",
        skip_forced: bool = True,
        illegal_action: str = "raise",
        copy: bool = True,
        observation: str = "array",
        shaping: float = 0.0,
        gamma: float = 0.995,
        first: int = 0,
        **options: Any,
    ) -> None:

        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        if illegal_action not in ILLEGAL_POLICIES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_POLICIES}, got {illegal_action!r}")
        self.name = name
        self.ruleset = game(name).ruleset(**options)
        self.encoder = enc = self.ruleset.encoder
        self.num_players = n = int(self.ruleset.num_players)
        if learner_seat not in SEAT_MODES and learner_seat not in range(n):
            raise ValueError(
                f"learner_seat must be one of {SEAT_MODES} or a seat 0..{n - 1}, got {learner_seat!r}"
            )
        self.learner_seat = learner_seat
        self.skip_forced = skip_forced
        self.illegal_action = illegal_action
        self.copy = copy
        self.num_envs = num_envs
        self.shaping, self.gamma = float(shaping), float(gamma)
        self._potential = getattr(self.ruleset, "potential", None) if shaping else None
        self._phi = [0.0] * num_envs
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, got {observation!r}")
        self.observation = observation
        self.single_observation_space = _space(observation, enc, None)
        self.single_action_space = spaces.Discrete(enc.action_size)
        self.observation_space = _space(observation, enc, num_envs)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, enc.action_size))
        self._options = options
        self._specs = specs
        self._first = first
        self._tables = [_Table(self.ruleset, name) for _ in range(num_envs)]
        self._built: dict[Any, list[Any]] = {}  # pool entry -> its agent in each game (None: random)
        self._pool: list[list[Any]] = []  # per game, the agents of the pool
        self._weights = np.ones(1)
        self._current: list[Any] = [None] * num_envs  # per game, this episode's opponent (None: random)
        self._reads = [False] * num_envs  # per game, whether that opponent reads the engine
        pool = list(opponent) if isinstance(opponent, (list, tuple)) else [opponent]
        self.set_pool(pool, weights if weights is not None else [1.0] * len(pool))
        self._obs = np.zeros((num_envs, enc.obs_size), np.float32)
        self._masks = np.zeros((num_envs, enc.action_size), np.bool_)
        # per game scalars live in lists: numpy's element access costs more than the loop's own work
        self._rewards = [0.0] * num_envs
        self._terms = [False] * num_envs
        self._truncs = [False] * num_envs
        self.states: list[Any] = [None] * num_envs
        self._seat = [0] * num_envs
        self._rngs: list[np.random.Generator] = [seeding.np_random(None)[0] for _ in range(num_envs)]
        self._opp_rngs = [random.Random(0) for _ in range(num_envs)]
        self._episodes = [0] * num_envs
        self._seat0 = [0] * num_envs
        self._returns = [0.0] * num_envs
        self._lengths = [0] * num_envs
        self._started = [0.0] * num_envs
        self.closed = False

    def set_pool(self, opponents: Sequence[Any], weights: Sequence[float]) -> None:
        """Draw each game's opponents from ``opponents`` with ``weights`` from its next episode on.

        Entries are as ``opponent``'s; agents built for an entry before are kept.
        """
        if not opponents or len(weights) != len(opponents):
            raise ValueError(
                f"a pool needs one or more opponents and one weight each, got {len(opponents)} and {len(weights)}"
            )
        w = np.asarray(weights, dtype=float)
        if (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"pool weights must be at least 0 and not all 0, got {list(weights)}")
        built: dict[Any, list[Any]] = {}
        for entry in opponents:
            key = entry if isinstance(entry, str) else id(entry)
            if key not in built:
                built[key] = self._built.get(key) or self._build(entry)
        self._built = built
        keys = [entry if isinstance(entry, str) else id(entry) for entry in opponents]
        self._pool = [[built[k][i] for k in keys] for i in range(self.num_envs)]
        self._weights = w / w.sum()
        self.opponent_names = [
            RANDOM if a is None else str(getattr(a, "name", "agent")) for a in self._pool[0]
        ]

    def _build(self, entry: Any) -> list[Any]:
        """The agent of pool ``entry`` in each game (None for the random opponent), bound to its game."""
        maker = _agent_maker(entry, self.name, self._options, self._specs)
        if maker is None:
            return [None] * self.num_envs
        agents = []
        for i, table in enumerate(self._tables):
            agent = maker(self._first + i)
            hook = getattr(agent, "bind", None)
            if callable(hook):
                hook(table)
            agents.append(agent)
        return agents

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game; ``seed`` seeds game ``i`` with ``seed + i`` (or ``seed[i]`` from a list)."""
        for i, s in enumerate(_seeds(seed, self.num_envs)):
            self._start(i, s)
        return self._out(), {"seat": self.seats, "action_mask": self._masks.copy()}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one learner action per game, the opponents up to each learner's next decision, and restart finished games."""
        n = self.num_envs
        acts = _actions(actions, n)
        if self.illegal_action == "raise":
            _check(acts, self._masks, self.encoder.action_size, self._seat)
        n_list = [0.0] * n
        self._rewards, self._terms, self._truncs = n_list, [False] * n, [False] * n
        rewards, lengths, seats = n_list, self._lengths, self._seat
        infos: dict[str, Any] = {}
        to_action, states, potential = self.encoder.index_to_action, self.states, self._potential
        for i, index in enumerate(acts.tolist()):
            st = states[i]
            seat = seats[i]
            try:
                st.apply(to_action(index, st))
            except (IllegalActionError, ValueError, TypeError):
                self._forfeit(i, index, infos)
                continue
            self._play_others(i, st, seat)
            lengths[i] += 1
            if potential is not None:
                phi = 0.0 if st.is_terminal() else float(potential(st, seat))
                rewards[i] = bonus = self.shaping * (self.gamma * phi - self._phi[i])
                self._returns[i] += bonus
                self._phi[i] = phi
            if st.is_terminal():
                self._end(i, st, seat, infos)
            else:
                self._write(i, st, seat)
        infos["seat"] = self.seats
        infos["action_mask"] = self._masks.copy()
        return (
            self._out(),
            np.array(self._rewards, np.float64),
            np.array(self._terms, np.bool_),
            np.array(self._truncs, np.bool_),
            infos,
        )

    def step_share(
        self, actions: Any
    ) -> tuple[list[float], list[bool], list[bool], dict[str, Any], list[int]]:
        """``step`` for a share of a ``ProcessBatchEnv``: rewards, flags and seats as lists, the infos of finished games.

        The observations and masks are in the shared arrays (``bind_arrays``); what goes back
        to the parent is only what it cannot read there.
        """
        _obs, _rewards, _terms, _truncs, infos = self.step(actions)
        del infos["action_mask"], infos["seat"]
        return self._rewards, self._terms, self._truncs, infos, list(self._seat)

    @property
    def seats(self) -> np.ndarray:
        """The learner's seat in each game."""
        return np.array(self._seat, np.int64)

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, one row per game (``MaskablePPO`` reads them)."""
        return self._masks.copy()

    def render(self) -> str:  # type: ignore[override]
        """Every game's board as text, one after another."""
        rules = self.ruleset
        return "\n\n".join(f"game {i}:\n{rules.render_text(st, None)}" for i, st in enumerate(self.states))

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in this process."""

    # ------------------------------------------------------------------ one game
    def _start(self, i: int, seed: int | None) -> None:
        """Start game ``i`` as the single-learner env's ``reset(seed=seed)`` would (None: the next episode)."""
        n = self.num_players
        if seed is not None:
            self._rngs[i] = seeding.np_random(seed)[0]
            self._seat0[i], self._episodes[i] = seed % n, 0
        rng = self._rngs[i]
        mode = self.learner_seat
        if mode == "alternate":
            seat = (self._seat0[i] + self._episodes[i]) % n
        elif mode == "random":
            seat = int(rng.integers(n))
        else:
            seat = int(mode)
        self._episodes[i] += 1
        pool = self._pool[i]
        agent = self._current[i] = pool[int(rng.choice(len(pool), p=self._weights))]
        game_seed = int(rng.integers(2**62))
        st = self.states[i] = self.ruleset.new_state(game_seed)
        self._seat[i] = seat
        if agent is None:
            self._opp_rngs[i].seed(game_seed)
        else:
            self._reads[i] = bool(getattr(agent, "reads_engine", False)) and callable(
                getattr(agent, "choose", None)
            )
            agent.reset(seed=game_seed)
        self._returns[i] = 0.0
        self._lengths[i] = 0
        self._started[i] = time.perf_counter()
        self._play_others(i, st, seat)
        if self._potential is not None:
            self._phi[i] = 0.0 if st.is_terminal() else float(self._potential(st, seat))
        self._write(i, st, seat)

    def _play_others(self, i: int, st: Any, seat: int) -> None:
        """Play every decision up to the learner's next real choice (or the end)."""
        enc = self.encoder
        skip = self.skip_forced
        while not st.is_terminal():
            p = st.current_player
            if p == seat:
                if not skip:
                    return
                legal = st.legal_actions()
                if len(legal) > 1:
                    return
                st.apply(legal[0])
                continue
            agent = self._current[i]
            if agent is None:
                legal_idx = sorted(set(enc.legal_indices(st)))
                st.apply(enc.index_to_action(legal_idx[self._opp_rngs[i].randrange(len(legal_idx))], st))
            elif self._reads[i]:
                self._tables[i].game = st
                st.apply(agent.choose(st, p))
            else:
                self._tables[i].game = st
                obs = enc.observe(st, p) if getattr(agent, "needs_observation", True) else None
                st.apply(enc.index_to_action(int(agent.act(obs, enc.action_mask(st))), st))

    def _write(self, i: int, st: Any, seat: int) -> None:
        """Game ``i``'s learner observation and mask into the batch's rows."""
        enc = self.encoder
        self._obs[i] = enc.observe(st, seat)
        self._masks[i] = enc.action_mask(st)

    def _end(self, i: int, st: Any, seat: int, infos: dict[str, Any]) -> None:
        """Record game ``i``'s outcome, keep its last observation, and start its next game."""
        outcome = float(st.returns()[seat])
        truncated = bool(st.truncated)
        self._rewards[i] += outcome
        self._terms[i] = not truncated
        self._truncs[i] = truncated
        final_info = {
            "seat": seat,
            "outcome": outcome,
            "winner": st.winner,
            "reason": getattr(st, "reason", ""),
        }
        self._finish(i, self.encoder.observe(st, seat), final_info, outcome, infos)

    def _forfeit(self, i: int, index: int, infos: dict[str, Any]) -> None:
        """Game ``i`` ends with -1 for the learner, whose action ``index`` was not legal ("penalize")."""
        self._rewards[i] = -1.0
        self._terms[i] = True
        seat = self._seat[i]
        final_info = {"seat": seat, "outcome": -1.0, "illegal_action": index}
        _put(infos, "illegal_action", i, index, self.num_envs, np.int64)
        self._finish(i, self.encoder.observe(self.states[i], seat), final_info, -1.0, infos)

    def _finish(
        self, i: int, last_obs: Any, final_info: dict[str, Any], ret: float, infos: dict[str, Any]
    ) -> None:
        n = self.num_envs
        if self.observation == "dict":  # the game is over: no legal action
            last_obs = {
                "observations": last_obs,
                "action_mask": np.zeros(self.encoder.action_size, np.float32),
            }
        _put(infos, "final_obs", i, last_obs, n, object)
        _put(infos, "final_info", i, final_info, n, object)
        episode = infos.setdefault(
            "episode", {"r": np.zeros(n), "l": np.zeros(n, np.int64), "t": np.zeros(n)}
        )
        infos.setdefault("_episode", np.zeros(n, np.bool_))[i] = True
        episode["r"][i] = self._returns[i] + ret
        episode["l"][i] = self._lengths[i]
        episode["t"][i] = round(time.perf_counter() - self._started[i], 6)
        self._start(i, None)

    def _out(self) -> Any:
        return _observation(self._obs, self._masks, self.observation, self.copy)

    # ------------------------------------------------------------------ for process workers
    def bind_arrays(self, obs: np.ndarray, masks: np.ndarray) -> None:
        """Write observations and masks into these arrays (a view of shared memory) from now on."""
        obs[:] = self._obs
        masks[:] = self._masks
        self._obs, self._masks = obs, masks


#: The forms of the batch's observations (``BatchEnv``'s ``observation``).
OBSERVATIONS = ("array", "dict")


def _space(observation: str, enc: Any, num_envs: int | None) -> spaces.Space[Any]:
    """The observation space of one game (``num_envs`` None) or of the batch."""
    low, high = enc.obs_bounds
    lead = () if num_envs is None else (num_envs,)
    obs = spaces.Box(low, high, (*lead, enc.obs_size), np.float32)
    if observation == "array":
        return obs
    return spaces.Dict(
        {"observations": obs, "action_mask": spaces.Box(0.0, 1.0, (*lead, enc.action_size), np.float32)}
    )


def _observation(obs: np.ndarray, masks: np.ndarray, observation: str, copy: bool) -> Any:
    """The batch's observations in the form asked for (copies of the arrays when ``copy``)."""
    if observation == "dict":
        return {"observations": obs.copy() if copy else obs, "action_mask": masks.astype(np.float32)}
    return obs.copy() if copy else obs


def _seeds(seed: int | Sequence[int | None] | None, n: int) -> list[int | None]:
    """Each game's reset seed: ``seed + i`` from one seed, or a list of ``n``; None: the next episodes."""
    if seed is None or isinstance(seed, (int, np.integer)):
        return [None if seed is None else int(seed) + i for i in range(n)]
    seeds = list(seed)
    if len(seeds) != n:
        raise ValueError(f"reset got {len(seeds)} seeds for {n} games")
    return seeds


def _actions(actions: Any, n: int) -> np.ndarray:
    """One action index per game, as integers; ``ValueError`` for another count or anything but whole numbers."""
    acts = np.asarray(actions).reshape(-1)
    if acts.shape[0] != n:
        raise ValueError(f"step needs {n} actions (one per game), got {acts.shape[0]}")
    if acts.dtype.kind in "iu":
        return acts
    if acts.dtype.kind != "f" or not bool((acts == np.round(acts)).all()):
        raise ValueError(f"actions must be action indices, one whole number per game; got {acts!r}")
    return acts.astype(np.int64)


def _check(acts: np.ndarray, masks: np.ndarray, size: int, seats: Sequence[int]) -> None:
    """Raise ``IllegalActionError`` for the first action outside its game's mask."""
    inside = (acts >= 0) & (acts < size)
    legal = inside.copy()
    legal[inside] = masks[np.flatnonzero(inside), acts[inside]]
    if not legal.all():
        i = int(np.flatnonzero(~legal)[0])
        options = np.flatnonzero(masks[i]).tolist()
        raise IllegalActionError(acts[i].item(), f"game {i} of the batch (seat {seats[i]})", options)


def _put(infos: dict[str, Any], key: str, i: int, value: Any, n: int, dtype: Any) -> None:
    """``infos[key][i] = value`` with Gymnasium's mask ``infos["_" + key]``, creating both on first use."""
    if key not in infos:
        infos[key] = np.zeros(n, dtype=dtype) if dtype is not object else np.full(n, None, dtype=object)
        infos["_" + key] = np.zeros(n, np.bool_)
    infos[key][i] = value
    infos["_" + key][i] = True


def vector(
    name: str, num_envs: int = 64, opponent: Any = RANDOM, *, workers: int = 1, **kwargs: Any
) -> VectorEnv:
    """``num_envs`` games of ``name`` with a learner seat each, stepped in one call (see ``BatchEnv``).

    ``workers`` > 1 splits the games over that many processes (``ProcessBatchEnv``), each
    stepping its share, with the arrays in shared memory.
    """
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a whole number of at least 1, got {workers!r}")
    if workers == 1:
        return BatchEnv(name, num_envs, opponent, **kwargs)
    return ProcessBatchEnv(name, num_envs, opponent, workers=workers, **kwargs)


def _join(parts: list[dict[str, Any]], sizes: list[int]) -> dict[str, Any]:
    """The infos of consecutive shares of a batch as one batch's infos (absent keys: zeros, masks False)."""
    out: dict[str, Any] = {}
    keys = [k for part in parts for k in part]
    for key in dict.fromkeys(keys):
        pieces = [part.get(key) for part in parts]
        sample = next(p for p in pieces if p is not None)
        if isinstance(sample, dict):
            out[key] = _join([p if p is not None else {} for p in pieces], sizes)
            continue
        out[key] = np.concatenate(
            [
                p
                if p is not None
                else (np.full(n, None, object) if sample.dtype == object else np.zeros(n, sample.dtype))
                for p, n in zip(pieces, sizes, strict=True)
            ]
        )
    return out


#: How long a process polls its pipe before it sleeps on it (seconds): a step's answer usually
#: comes within this, and waking a sleeping process costs more than the polling.
SPIN_SECONDS = 0.002


def _wait(conn: Any) -> None:
    """Return once ``conn`` has a message: polling it for ``SPIN_SECONDS``, then sleeping on it."""
    deadline = time.perf_counter() + SPIN_SECONDS
    while not conn.poll(0):
        if time.perf_counter() > deadline:
            conn.poll(None)
            return


def _worker(
    conn: Any,
    name: str,
    lo: int,
    hi: int,
    opponent: Any,
    kwargs: dict[str, Any],
    mem: dict[str, tuple[str, tuple[int, ...], str]],
) -> None:
    """One worker process: steps games ``lo..hi-1`` of the batch, writing into the shared arrays."""
    # what the fork inherited is never freed here: the collector leaves it alone (it would
    # otherwise walk, and copy page by page, the whole heap of the parent at every full pass)
    gc.freeze()
    blocks = {k: shared_memory.SharedMemory(name=m[0]) for k, m in mem.items()}
    arrays = {k: np.ndarray(m[1], dtype=m[2], buffer=blocks[k].buf)[lo:hi] for k, m in mem.items()}
    try:
        env = BatchEnv(name, hi - lo, opponent, copy=False, first=lo, **kwargs)
        env.bind_arrays(arrays["obs"], arrays["masks"])
        conn.send(("ready", None))
        while True:
            _wait(conn)
            cmd, arg = conn.recv()
            if cmd == "step":
                conn.send(("ok", env.step_share(arrays["actions"])))
            elif cmd == "reset":
                _, infos = env.reset(seed=arg)
                conn.send(("ok", infos))
            elif cmd == "call":
                conn.send(("ok", getattr(env, arg[0])(*arg[1], **arg[2])))
            elif cmd == "close":
                conn.send(("ok", None))
                return
    except BaseException as exc:  # noqa: BLE001 (sent to the parent, which raises it)
        try:
            conn.send(("error", exc))
        except Exception:  # noqa: BLE001 (an exception that does not pickle)
            conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
    finally:
        del arrays
        for block in blocks.values():
            block.close()


class ProcessBatchEnv(VectorEnv):
    """``BatchEnv``'s games split over processes, its arrays in shared memory.

    The games are cut into ``workers`` consecutive shares: this process steps the first share
    itself and ``workers - 1`` worker processes step the others, all at once, each as one
    ``BatchEnv`` writing its observations and masks straight into shared arrays and reading
    its actions from one; only rewards, flags and the infos of finished games pass through the
    pipes. It plays the same games as ``BatchEnv(name, num_envs, ...)`` with the same seed.
    Options as ``BatchEnv``'s.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's own attribute)

    def __init__(
        self, name: str, num_envs: int = 64, opponent: Any = RANDOM, *, workers: int = 2, **kwargs: Any
    ) -> None:
        self._conns: list[Any] = []
        self._procs: list[Any] = []
        self._blocks: dict[str, shared_memory.SharedMemory] = {}
        self.closed = False
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or not 1 <= workers <= num_envs:
            raise ValueError(f"workers must be 1..num_envs ({num_envs!r}), got {workers!r}")
        self.copy = bool(kwargs.pop("copy", True))
        self.name, self.num_envs = name, num_envs
        bounds = [round(w * num_envs / workers) for w in range(workers + 1)]
        self._sizes = [hi - lo for lo, hi in itertools.pairwise(bounds)]
        # this process's own share first: its agents and ruleset are built before the workers fork
        local = BatchEnv(name, self._sizes[0], opponent, copy=False, **kwargs)
        enc = local.encoder
        self.observation = local.observation
        self.single_observation_space = local.single_observation_space
        self.single_action_space = local.single_action_space
        self.observation_space = _space(self.observation, enc, num_envs)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, enc.action_size))
        shapes = {
            "obs": ((num_envs, enc.obs_size), "float32"),
            "masks": ((num_envs, enc.action_size), "bool"),
            "actions": ((num_envs,), "int64"),
        }
        self._blocks = {
            k: shared_memory.SharedMemory(
                create=True, size=max(1, int(np.prod(shape)) * np.dtype(dt).itemsize)
            )
            for k, (shape, dt) in shapes.items()
        }
        self._arrays = {
            k: np.ndarray(shapes[k][0], dtype=shapes[k][1], buffer=b.buf) for k, b in self._blocks.items()
        }
        mem = {k: (b.name, shapes[k][0], shapes[k][1]) for k, b in self._blocks.items()}
        first = self._sizes[0]
        local.bind_arrays(self._arrays["obs"][:first], self._arrays["masks"][:first])
        self._local = local
        self._raise = kwargs.get("illegal_action", "raise") == "raise"
        #: the learner's seat in each game, as of the last reset or step
        self.seats_now: list[int] = [0] * num_envs
        ctx: Any = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        for lo, hi in itertools.pairwise(bounds[1:]):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(child, name, lo, hi, opponent, kwargs, mem), daemon=True)
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)
        self._gather()

    def _gather(self) -> list[Any]:
        out = []
        error: BaseException | None = None
        for conn in self._conns:
            _wait(conn)
            status, value = conn.recv()
            if status == "error" and error is None:
                error = value
            out.append(value)
        if error is not None:
            self.close()
            raise error
        return out

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game, as ``BatchEnv.reset``."""
        seeds = _seeds(seed, self.num_envs)
        at = self._sizes[0]
        for conn, n in zip(self._conns, self._sizes[1:], strict=True):
            conn.send(("reset", seeds[at : at + n]))
            at += n
        _obs, own = self._local.reset(seed=seeds[: self._sizes[0]])
        infos = _join([own, *self._gather()], self._sizes)
        infos["action_mask"] = self._arrays["masks"].copy()
        self.seats_now = infos["seat"].tolist()
        return self._out(), infos

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Every process steps its share of the games at once (as ``BatchEnv.step``)."""
        acts = _actions(actions, self.num_envs)
        if self._raise:  # before any process moves a game
            _check(acts, self._arrays["masks"], self._local.encoder.action_size, self.seats_now)
        self._arrays["actions"][:] = acts
        for conn in self._conns:
            conn.send(("step", None))
        try:
            own = self._local.step_share(self._arrays["actions"][: self._sizes[0]])
        finally:
            parts = [own, *self._gather()] if self._conns else [own]
        rewards = np.array([r for p in parts for r in p[0]], np.float64)
        terms = np.array([t for p in parts for t in p[1]], np.bool_)
        truncs = np.array([t for p in parts for t in p[2]], np.bool_)
        infos = _join([p[3] for p in parts], self._sizes)
        self.seats_now = [s for p in parts for s in p[4]]
        infos["seat"] = np.array(self.seats_now, np.int64)
        infos["action_mask"] = self._arrays["masks"].copy()
        return self._out(), rewards, terms, truncs, infos

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, one row per game."""
        return self._arrays["masks"].copy()

    def set_pool(self, opponents: Sequence[Any], weights: Sequence[float]) -> None:
        """``BatchEnv.set_pool`` in every process."""
        for conn in self._conns:
            conn.send(("call", ("set_pool", (list(opponents), list(weights)), {})))
        self._local.set_pool(opponents, weights)
        self._gather()

    def _out(self) -> Any:
        return _observation(self._arrays["obs"], self._arrays["masks"], self.observation, self.copy)

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the workers and free the shared memory."""
        for conn in self._conns:
            try:
                conn.send(("close", None))
                conn.recv()
            except (OSError, EOFError, BrokenPipeError):
                pass
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
        self._arrays = {}
        self.__dict__.pop("_local", None)
        for block in self._blocks.values():
            block.close()
            block.unlink()
        self._blocks = {}
