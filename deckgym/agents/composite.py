"""``CompositeAgent``: AMALOGS played by the heuristic on the map and by card models at the tables.

An AMALOGS decision is either a map decision (the ruleset, placement, moves, duels, strikes)
or a decision of the core card game at the table the player sits at. The heuristic plays the
map well; at the tables it calls the core game's own heuristic. The shipped models of the core
games (``agents/models/``) beat those heuristics in their own games, and inside AMALOGS they
read exactly the observation they were trained on: the AMALOGS observation carries the running
table's core observation from the player's seat (the ``core`` piece), and the core block of
the action space is the core game's own action space (``CORE_OFFSET + a``).

So the composite plays every map decision as ``agents.heuristic.amalogs`` does and every core
decision of a game in ``slots`` with that game's model, reading only its own observation and
mask. ``agents.make("composite", "amalogs_v2")`` builds it with ``DEFAULT_SLOTS``;
``"composite:0,2"`` names the slots (``envs.amalogs.config.RULESETS``); ``"composite:"`` uses
no model (the heuristic alone, for comparison). ``ppo:pretrained`` of AMALOGS (the "Medium"
level of ``deckgym play``) is the composite with the default slots.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from deckgym.agents.training.config import COMPOSITE_ENVS
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.encode import CORE_OFFSET

#: The envs the composite plays (``agents.make("composite", ...)`` and AMALOGS' ``ppo:pretrained``).
ENVS: tuple[str, ...] = COMPOSITE_ENVS

#: Each AMALOGS ruleset slot's core game: the env and options its shipped model was trained on.
SLOT_MODELS: dict[int, tuple[str, dict[str, Any]]] = {
    0: ("medarot_ocg_v1", {"mode": "beginner"}),
    1: ("medarot_ocg_v1", {"mode": "advance"}),
    2: ("medarot_parts_v1", {}),
    3: ("mow_v1", {}),
    4: ("medarot_ocg_v1", {"mode": "normal"}),
}
#: The slots whose card model the composite uses by default: those where the model, playing
#: the core decisions inside AMALOGS with the heuristic on the map, did not score below the
#: heuristic (2v2, 200 games each, seed 700000, ``deckgym evaluate amalogs_v2 --agent
#: composite:SLOT --opponent heuristic``): MoW 0.512; the OCG beginner model scored 0.425,
#: advance 0.475, normal 0.468 and the parts model 0.330 (docs/amalogs.md, "Agents").
DEFAULT_SLOTS: tuple[int, ...] = (3,)
#: The ruleset one-hot's length at the head of the observation's core view.
_NUM_SLOTS = 8


def map_size(env: Any) -> int:
    """The length of the map view of an AMALOGS env: its observation up to the core observation."""
    return int(env.unwrapped.encoder.layout["core"].start)


def is_core_decision(action_mask: np.ndarray) -> bool:
    """Whether a decision is one of the core game at a table (a legal action in the core block)."""
    return bool(np.asarray(action_mask[CORE_OFFSET:], dtype=bool).any())


def map_view(
    observation: np.ndarray, action_mask: np.ndarray, size: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """The map view of a decision that a map policy reads, or None for a core decision.

    The view is the observation's first ``size`` entries and the map block of the mask.
    """
    if is_core_decision(action_mask):
        return None
    return observation[:size], np.asarray(action_mask[:CORE_OFFSET], dtype=bool)


def slots_for(spec: str) -> tuple[int, ...]:
    """The card-model slots of an agent spec.

    None for ``heuristic``, SLOTS for ``composite:SLOTS``, else (``composite``,
    ``ppo:pretrained``) ``DEFAULT_SLOTS``.
    """
    if spec == "heuristic":
        return ()
    if spec.startswith("composite:"):
        return parse_slots(spec[len("composite:") :])
    return DEFAULT_SLOTS


def parse_slots(text: str) -> tuple[int, ...]:
    """The slots of a ``composite:SLOTS`` spec (``"0,2,3"``; ``""``: none).

    Raises:
        ValueError: a slot is not a number, not a ruleset slot, or has no card model.
    """
    slots: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if not part.isdigit() or int(part) not in SLOT_MODELS:
            known = ", ".join(f"{s} ({RULESETS[s].name})" for s in SLOT_MODELS)
            raise ValueError(f"composite: unknown ruleset slot {part!r}; known: {known}")
        slots.append(int(part))
    return tuple(sorted(set(slots)))


class CompositeAgent:
    """The AMALOGS heuristic on the map, a card model per core game of ``slots`` at the tables.

    ``models`` maps a slot to an agent with ``act(observation, mask)`` for that core game (by
    default the shipped model, ``ppo:pretrained`` of ``SLOT_MODELS[slot]``). ``map_model``, when
    given, plays the map decisions instead of the heuristic: an agent that reads the map view
    (the observation before its core piece, and the map block of the mask), as a policy trained
    by ``agents.training.team_env.TeamMapEnv`` does. Call ``bind(env)``
    (``agents.make`` and the arena do) before ``act``: the map decisions read the engine, as
    the heuristic does.
    """

    name = "composite"
    #: The card models and a map model read the observation (the heuristic alone would not).
    reads_engine = False

    def __init__(
        self,
        seed: int | None = None,
        slots: tuple[int, ...] = DEFAULT_SLOTS,
        models: dict[int, Any] | None = None,
        map_model: Any = None,
    ) -> None:
        from deckgym.agents.heuristic.amalogs import AmalogsHeuristic

        self.map_agent = AmalogsHeuristic(seed=seed)
        self.slots = tuple(slots)
        if models is None:  # the shipped model of each slot's game (agents.pretrained)
            from deckgym.agents.ppo import PPOAgent
            from deckgym.agents.pretrained import model_path

            models = {s: PPOAgent(model_path(*SLOT_MODELS[s])) for s in self.slots}
        missing = sorted(set(self.slots) - set(models))
        if missing:
            raise ValueError(f"composite: no card model given for slot {missing[0]}")
        self.models = {s: models[s] for s in self.slots}
        self.map_model = map_model
        self._view = 0  # the core view's start in the observation (set by bind)
        self._core = 0
        self.env: Any = None

    def bind(self, env: Any) -> None:
        """Attach to an AMALOGS env (the map decisions read its engine); ``ValueError`` for another env."""
        enc = env.unwrapped.encoder
        layout = getattr(enc, "layout", None)
        if layout is None or "core_view" not in layout.pieces:
            raise ValueError("the composite agent plays AMALOGS only (amalogs_v2)")
        self._view = layout["core_view"].start
        self._core = layout["core"].start
        self.env = env
        self.map_agent.bind(env)

    def reset(self, seed: int | None = None) -> None:
        """Reset the map player and every card model."""
        self.map_agent.reset(seed)
        if self.map_model is not None:
            self.map_model.reset(seed)
        for m in self.models.values():
            m.reset(seed)

    def core_slot(self, observation: np.ndarray, action_mask: np.ndarray) -> int | None:
        """The core game slot of a core decision, or None for a map decision."""
        if not is_core_decision(action_mask):
            return None
        onehot = observation[self._view : self._view + _NUM_SLOTS]
        return int(np.argmax(onehot))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The model's action at a core decision of a slot it plays, else the heuristic's."""
        slot = self.core_slot(observation, action_mask) if observation is not None else None
        if slot is None and self.map_model is not None:
            view = map_view(observation, action_mask, self._core)
            assert view is not None  # not a core decision: a map one
            return int(self.map_model.act(*view))
        if slot is None or slot not in self.models:
            return int(self.map_agent.act(observation, action_mask))
        model = self.models[slot]
        size = int(getattr(model, "_size", 0) or 0)
        core_obs = observation[self._core : self._core + size] if size else observation[self._core :]
        core_mask = np.asarray(action_mask[CORE_OFFSET:], dtype=bool)
        n = _action_size(model)
        if n is not None:
            if core_mask[n:].any():  # a legal action the model has no output for
                raise ValueError(f"composite: slot {slot}'s model has {n} actions, the table more")
            core_mask = core_mask[:n]
        return CORE_OFFSET + int(model.act(core_obs, core_mask))


def _action_size(model: Any) -> int | None:
    space = getattr(getattr(model, "model", None), "action_space", None)
    n = getattr(space, "n", None)
    return int(n) if n is not None else None
