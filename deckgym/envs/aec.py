"""``CardGameEnv``: the one PettingZoo AEC wrapper shared by every ruleset.

A ruleset plugs in through a :class:`Ruleset` object (engine factory, encoder, renderer).
The safety that PettingZoo's classic wrappers add (order enforcing, action bounds, a clear
error for illegal actions, or the terminate-with-penalty policy) is written once here, in
the env's own ``step``, instead of three layers of attribute forwarding on every call.
"""

from __future__ import annotations

import copy
import random
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import import_module
from typing import Any, ClassVar, Protocol

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from deckgym.envs.core.describe import Described
from deckgym.envs.core.errors import IllegalActionError, IllegalActionWarning, StateError
from deckgym.envs.core.events import events_for
from deckgym.envs.encoding.codec import Encoder, encoder_for_pool

ILLEGAL_POLICIES = ("raise", "penalize")
RENDER_MODES = ("ansi", "human")
#: The ``decks`` option of a deck ruleset under which each game draws one starter deck for both players.
MIRROR = "mirror"

#: Rulesets built by ``shared_ruleset``, by class and options (most recent last).
_SHARED: dict[Any, Any] = {}
#: Most configurations ``shared_ruleset`` keeps.
SHARED_MAX = 64


def _frozen(value: Any) -> Any:
    """``value`` as a hashable key, or raise ``TypeError`` when it may name a file or is mutable data.

    Scalars and tuples or lists of them pass; a string that looks like a path (a separator
    or a suffix) does not, since the file behind it may change between two envs; mappings
    do not.
    """
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        if "/" in value or "\\" in value or "." in value:
            raise TypeError("a path")
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    raise TypeError(type(value).__name__)


def shared_ruleset(cls: Callable[..., Any], **options: Any) -> Any:
    """``cls(**options)``, built once per configuration and shared by every env of it.

    A ruleset holds the card pool, the encoder's tables and the resolved starter decks, which
    no game changes (every game of one env already reads the same ruleset). Options that name
    files (paths) or hold mappings are not shared: such a ruleset is built anew, as the file
    behind it may have changed. Errors are raised on every call, as by ``cls`` itself.
    """
    try:
        key = (cls, tuple(sorted((k, _frozen(v)) for k, v in options.items())))
    except TypeError:
        return cls(**options)
    ruleset = _SHARED.pop(key, None)
    if ruleset is None:
        ruleset = cls(**options)
        while len(_SHARED) >= SHARED_MAX:
            del _SHARED[next(iter(_SHARED))]
    _SHARED[key] = ruleset
    return ruleset


def ruleset_over(cls: Callable[..., Any], module: str) -> Callable[..., Any]:
    """An env module's ``ruleset(...)`` whose options are ``cls``'s own, declared once on ``cls``.

    Its signature is ``cls``'s (``help()`` and ``Game.defaults`` read the defaults there); a call
    binds its arguments to it, fills in the defaults and returns ``shared_ruleset(cls, ...)``.
    ``module`` is the env module that names it ``ruleset``.
    """
    import inspect

    signature = inspect.signature(cls)

    def ruleset(*args: Any, **options: Any) -> Any:
        bound = signature.bind(*args, **options)
        bound.apply_defaults()
        return shared_ruleset(cls, **bound.arguments)

    ruleset.__signature__ = signature.replace(return_annotation=cls)  # type: ignore[attr-defined]
    ruleset.__doc__ = (
        "The rules of one configuration, without an env (shared by every env of that configuration)."
    )
    ruleset.__module__ = module
    return ruleset


def env_over(ruleset: Callable[..., Any]) -> Callable[..., CardGameEnv]:
    """An env module's ``env(...)``: ``ruleset(...)``'s options, then ``render_mode`` and ``illegal_action``.

    Its signature is the ruleset function's with the two env options added, so ``help()`` and
    editors show every option with its default (PettingZoo's safety checks are built in; there
    is no extra wrapper layer).
    """
    import inspect

    def raw_env(
        *args: Any, render_mode: str | None = None, illegal_action: str = "penalize", **options: Any
    ) -> CardGameEnv:
        return CardGameEnv(ruleset(*args, **options), render_mode=render_mode, illegal_action=illegal_action)

    params = list(inspect.signature(ruleset).parameters.values())
    more = params[-1:] if params and params[-1].kind is inspect.Parameter.VAR_KEYWORD else []
    named = [p for p in params if p not in more]
    env_options = [
        inspect.Parameter(
            "render_mode", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="str | None"
        ),
        inspect.Parameter(
            "illegal_action", inspect.Parameter.KEYWORD_ONLY, default="penalize", annotation="str"
        ),
    ]
    raw_env.__signature__ = inspect.Signature(named + env_options + more, return_annotation="CardGameEnv")  # type: ignore[attr-defined]
    raw_env.__doc__ = (
        "The environment of these rules options; ``render_mode`` and ``illegal_action`` are the env's own "
        "(PettingZoo's safety checks are built in; there is no extra wrapper layer)."
    )
    raw_env.__module__ = ruleset.__module__
    return raw_env


def _space_prototypes(ruleset: Any) -> tuple[spaces.Box, spaces.Box, spaces.Discrete, spaces.Box]:
    """The observation, mask, action and state spaces of a ruleset, built once on it; envs copy them."""
    protos = getattr(ruleset, "_space_prototypes", None)
    if protos is None:
        enc = ruleset.encoder
        size = enc.action_size
        low, high = enc.obs_bounds
        state_size = enc.global_layout(ruleset.num_players).size
        protos = (
            spaces.Box(low, high, (enc.obs_size,), np.float32),
            spaces.Box(0, 1, (size,), np.int8),
            spaces.Discrete(size),
            spaces.Box(min(low, 0.0), max(high, 1.0), (state_size,), np.float32),
        )
        for box in (protos[0], protos[1], protos[3]):
            box.low.setflags(write=False)  # shared by every copy: nobody may change the bounds
            box.high.setflags(write=False)
        ruleset._space_prototypes = protos
    return protos


def _own(space: Any) -> Any:
    """A copy of a prototype space with its own random generator (seeded apart by ``seed``)."""
    out = copy.copy(space)
    out._np_random = None
    return out


class Ruleset(Protocol):
    """What the wrapper needs from a ruleset."""

    name: str
    num_players: int
    encoder: Encoder

    def new_state(self, seed: int) -> Any:
        """A new game for ``seed`` (stopped at its first decision)."""
        ...

    def state_from_dict(self, data: dict[str, Any]) -> Any:
        """Rebuild a state from ``to_dict`` output."""
        ...

    def render_text(self, state: Any, viewer: int | None) -> str:
        """The board as text for humans."""
        ...

    def view(self, state: Any, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, as a JSON-safe dict (``envs.core.view``)."""
        ...

    def describe_action(self, state: Any, seat: int, index: int) -> Described:
        """Action ``index`` of ``state`` in words, as ``seat`` may know it (``envs.core.describe``)."""
        ...


class PackageRuleset:
    """A ruleset whose text, views and action words come from its package's modules.

    A subclass sets ``package`` (such as ``"deckgym.envs.mow"``); ``render_text``, ``view``
    and ``describe_action`` call the functions of the same names in that package's ``render``,
    ``view`` and ``describe`` modules, imported on first use (playing never needs them).
    """

    package: ClassVar[str]

    def render_text(self, state: Any, viewer: int | None) -> str:
        """The board as text (``<package>.render``)."""
        text: str = import_module(f"{self.package}.render").render_text(state, viewer)
        return text

    def view(self, state: Any, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, as a JSON-safe dict (``<package>.view``)."""
        seen: dict[str, Any] = import_module(f"{self.package}.view").view(state, seat)
        return seen

    def describe_action(self, state: Any, seat: int, index: int) -> Described:
        """Action ``index`` of ``state`` in words, as ``seat`` may know it (``<package>.describe``)."""
        words: Described = import_module(f"{self.package}.describe").describe_action(state, seat, index)
        return words


class DeckRuleset(PackageRuleset):
    """What the two-player deck rulesets share: the decks of a game and the state factories.

    A subclass sets ``package`` (see ``PackageRuleset``), ``state_type`` (its state class, with
    ``MAKE_CONFIG``, ``LOAD_POOL`` and ``from_dict``), ``start`` (its rules'
    ``new_game(config, pool, decks, seed)``) and ``encoder_type`` (its encoder class), and
    writes ``game_deck`` and ``starter_decks``.

    Args:
        decks: None (each game draws two of the starter decks with its seed), ``"mirror"``
            (each game draws one of them for both players), or one or two decks in any form
            ``game_deck`` takes; one deck is used by both players.
        card_files: card pool files (default: the packaged pool).
        **rules: the options of the ruleset's ``make_config`` (``max_turns``...).
    """

    num_players = 2
    state_type: ClassVar[Any]
    start: Callable[..., Any]
    encoder_type: ClassVar[Any]
    config: Any
    pool: Any

    def __init__(
        self, decks: Sequence[Any] | None = None, card_files: Sequence[str] | None = None, **rules: Any
    ) -> None:
        self.config = self.state_type.MAKE_CONFIG(**rules)
        self.pool = self.state_type.LOAD_POOL(card_files)
        self.encoder = encoder_for_pool(self.encoder_type, self.pool)
        self.choose_decks(decks, self.game_deck, self.starter_decks())

    def game_deck(self, value: Any, label: str) -> Any:
        """A deck value as what ``start`` takes for one player (``label`` names the deck in errors).

        Raises:
            DeckError: the deck breaks the ruleset's deck rules.
        """
        raise NotImplementedError

    def starter_decks(self) -> list[str]:
        """The names of the starter decks games draw from by default."""
        raise NotImplementedError

    def choose_decks(
        self, decks: Sequence[Any] | None, resolve: Callable[[Any, str], Any], defaults: Iterable[Any]
    ) -> None:
        """Resolve the decks the games start from.

        Args:
            decks: None (each game draws two of ``defaults`` with its seed), ``"mirror"``
                (each game draws one of ``defaults`` with its seed, for both players), or one
                or two decks in any form ``resolve`` accepts; one deck is used by both players.
            resolve: turns a deck value and its label into what ``start`` takes for one player.
            defaults: the deck values drawn from when ``decks`` is None or ``"mirror"``.

        Raises:
            StateError: ``decks`` is neither None, ``"mirror"`` nor a list of one or two decks.
        """
        #: The starter decks games draw from by default (names), for listings and deck ratings.
        self.starter_names = [str(n) for n in defaults]
        #: Whether each game draws one starter deck for both players (``decks="mirror"``).
        self.mirror = isinstance(decks, str) and decks == MIRROR
        if decks is None or self.mirror:
            self.deck_choices = [resolve(n, "deck") for n in self.starter_names]
            self.decks = None
        else:
            if isinstance(decks, (str, dict)) or len(decks) not in (1, 2):
                raise StateError(
                    f"decks must be None, {MIRROR!r} or a list of one or two decks, got {decks!r}"
                )
            resolved = [resolve(d, f"deck {i}") for i, d in enumerate(decks)]
            self.decks = resolved * 2 if len(resolved) == 1 else resolved
            self.deck_choices = []

    def new_state(self, seed: int) -> Any:
        """A new game for ``seed``."""
        if self.decks is not None:
            decks = self.decks
        else:
            pick = random.Random(seed ^ 0x5DEECE66D)
            first = pick.choice(self.deck_choices)
            decks = [first, first if self.mirror else pick.choice(self.deck_choices)]
        return self.start(self.config, self.pool, decks, seed)

    def state_from_dict(self, data: dict[str, Any]) -> Any:
        """Rebuild a state written by the state's ``to_dict``."""
        return self.state_type.from_dict(data)

    def deck_list(self, value: Any) -> Any:
        """A deck value (starter name, file, mapping or list) as a validated ``DeckList``.

        Raises:
            DeckError: the deck breaks the ruleset's deck rules (the message names the deck,
                the card and the rule).
        """
        raise NotImplementedError

    def partial_deck(self, path: Any) -> tuple[dict[str, int], Callable[[dict[str, int]], Any], int]:
        """A deck file that may lack cards, for completing it (``deckgym decks complete``).

        Returns its card counts, how to turn counts into a deck value of this ruleset (what
        the file holds beside its counted cards is kept), and how many cards a complete
        deck counts. Raises ``DeckError`` for a file that is not a deck file.
        """
        raise NotImplementedError


class CardGameEnv(AECEnv):
    """PettingZoo AEC environment over any deckgym ruleset.

    Agents are ``player_0 .. player_{n-1}`` (seat i is ``player_i``). Observations are
    ``{"observation": float32[obs_size], "action_mask": int8[action_size]}``, the observation
    ``Box`` bounded by the encoder's ``obs_bounds``; the mask is all zeros for every agent but
    the one to move. Rewards are +1 / -1 / 0 at the end.

    Args:
        ruleset: the ruleset plug-in.
        render_mode: None, "ansi" (``render()`` returns the board) or "human" (prints it).
        illegal_action: "penalize" (default) ends the game when a legal index is outside the
            mask: -1 for the offender, 0 for the others, and an ``IllegalActionWarning``, as
            PettingZoo's classic envs (``TerminateIllegalWrapper``) do, so that checkers that
            sample without the mask (``state_test``, RLlib's) play on. "raise" raises
            ``IllegalActionError`` naming the action and the legal options, and changes nothing.
            An action outside the action space (not an index 0..n-1) raises in both.
    """

    #: The class default; each instance replaces it with a copy that adds its ruleset's ``name``.
    metadata: Mapping[str, Any] = {"render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(
        self, ruleset: Ruleset, render_mode: str | None = None, illegal_action: str = "penalize"
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
        if illegal_action not in ILLEGAL_POLICIES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_POLICIES}, got {illegal_action!r}")
        super().__init__()
        self.ruleset = ruleset
        self.encoder = ruleset.encoder
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.metadata = {**self.metadata, "name": ruleset.name}
        n = ruleset.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.encoder.action_size
        obs_box, mask_box, act_proto, state_box = _space_prototypes(ruleset)
        obs_space = spaces.Dict({"observation": _own(obs_box), "action_mask": _own(mask_box)})
        act_space = _own(act_proto)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        #: PettingZoo's global-state space: the ``Box`` of ``state()`` (deck pieces lie in 0..1).
        self.state_space = _own(state_box)
        self._zero_mask = np.zeros(size, dtype=np.int8)
        self._seed_rng = random.Random()
        self._next_seed: int | None = None
        self._state: Any = None
        self.agents: list[str] = []

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        """Observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """Action space of ``agent`` (the same object on every call)."""
        return self.action_spaces[agent]

    @property
    def game(self) -> Any:
        """The live engine state (``legal_actions``, ``apply``, ``clone``, ``to_dict``...)."""
        if self._state is None:
            raise StateError("call reset() before reading the game")
        return self._state

    def state(self) -> np.ndarray:
        """PettingZoo's global state: a float32 vector of the whole game (``state_space``).

        It holds every seat's private cards and the deck orders, laid out by
        ``encoder.state_layout(num_agents)``: for centralized critics and oracle training. What a
        seat may know is its observation alone; no observation is derived from this vector.
        """
        return self.encoder.global_state(self.game)

    # ------------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``options={"state": d}`` resumes the position ``d`` of ``to_dict``."""
        if seed is not None:
            self._next_seed = seed  # seeds the generator of later unseeded resets, when one comes
            game_seed = seed
        else:
            if self._next_seed is not None:
                self._seed_rng.seed(self._next_seed)
                self._next_seed = None
            game_seed = self._seed_rng.getrandbits(63)
        if options and "state" in options:
            self._state = self.ruleset.state_from_dict(options["state"])
        else:
            self._state = self.ruleset.new_state(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if self._state.is_terminal():
            self._finish()
        player = self._state.current_player
        self.agent_selection = self.possible_agents[player] if player >= 0 else self.agents[0]

    def step(self, action: Any) -> None:
        """Play ``action`` (an index) for ``agent_selection``."""
        st = self._state
        if st is None:
            raise StateError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(None, f"{st.decision} ({agent})", self._labels(st))
        try:
            index = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(action, f"{st.decision} ({agent})", self._labels(st)) from None
        if index != action or not 0 <= index < self.encoder.action_size:
            raise IllegalActionError(
                action,
                f"{st.decision} ({agent}); indices are 0..{self.encoder.action_size - 1}",
                self._labels(st),
            )
        try:
            # the engine checks legality and raises before changing anything (engine protocol)
            st.apply(self.encoder.index_to_action(index, st))
        except IllegalActionError:
            label = f"{index} = {self.encoder.action_label(index, st)}"
            if self.illegal_action == "raise":
                raise IllegalActionError(label, f"{st.decision} ({agent})", self._labels(st)) from None
            warnings.warn(
                f"illegal action {label} by {agent} at {st.decision}: the game ends with -1 for "
                f"{agent} (illegal_action='penalize'; the mask in obs['action_mask'] holds the legal "
                "actions; illegal_action='raise' raises instead)",
                IllegalActionWarning,
                stacklevel=2,
            )
            self._penalize(agent, index)
            return
        if st.is_terminal():
            self._finish()
            # rewards are only given at the end, so they are zero until now (nothing to clear before)
            self._cumulative_rewards[agent] = 0.0
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[st.current_player]
        if self.render_mode == "human":
            self.render()

    def _labels(self, st: Any) -> list[str]:
        return [f"{i}={self.encoder.action_label(i, st)}" for i in self.encoder.legal_indices(st)]

    def _finish(self) -> None:
        """Record the outcome of the finished game: rewards, end flags and the reason."""
        st = self._state
        ret = st.returns()
        flags = self.truncations if st.truncated else self.terminations
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = float(ret[i])
            flags[a] = True
            self.infos[a] = {"reason": st.reason}

    def _penalize(self, offender: str, index: int) -> None:
        for a in self.agents:
            self.rewards[a] = -1.0 if a == offender else 0.0
            self.terminations[a] = True
            self.infos[a] = {"reason": f"illegal action by {offender}", "illegal_action": index}
        self._cumulative_rewards[offender] = 0.0
        self._accumulate_rewards()

    # ------------------------------------------------------------------ observations
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` of ``agent``."""
        st = self._state
        if st is None:
            st = self.game  # the property raises before reset
        seat = self._seat[agent]
        encoder = self.encoder
        obs = encoder.observe(st, seat)
        if seat == st.current_player and not (self.terminations[agent] or self.truncations[agent]):
            mask = encoder.action_mask(st)
        else:
            mask = self._zero_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def view(self, seat: int | str) -> dict[str, Any]:
        """What ``seat`` (an index or an agent name) may know, named and readable (``envs.core.view``).

        Raises:
            StateError: ``seat`` is not a seat or agent of this env.
        """
        return self.ruleset.view(self.game, self._seat_of(seat))

    def describe_action(self, seat: int | str, index: int) -> Described:
        """Action ``index`` of the live game in words, as ``seat`` may know it (``envs.core.describe``).

        Raises:
            StateError: ``seat`` is not a seat or agent of this env.
        """
        return self.ruleset.describe_action(self.game, self._seat_of(seat), int(index))

    def _seat_of(self, seat: int | str) -> int:
        """The index of ``seat`` (an index or an agent name); ``StateError`` for neither."""
        if isinstance(seat, str):
            if seat not in self._seat:
                raise StateError(f"unknown agent {seat!r}; agents: {', '.join(self.possible_agents)}")
            seat = self._seat[seat]
        if not isinstance(seat, int) or not 0 <= seat < len(self.possible_agents):
            raise StateError(f"seat must be 0..{len(self.possible_agents) - 1}, got {seat!r}")
        return seat

    def events(self, seat: int | str | None = None, last: int | None = None) -> list[dict[str, Any]]:
        """The game's structured events as ``seat`` (an index or agent name) may see them.

        ``seat=None`` shows every field, the private ones too (for analysis, never for a
        player). ``last`` keeps only the latest entries. See ``envs.core.events``.
        """
        return events_for(self.game, None if seat is None else self._seat_of(seat), last)

    def render(self) -> str | None:
        """The board as text: returned in "ansi" mode, printed in "human" mode."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self.ruleset.render_text(self.game, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
