"""Training MaskablePPO agents by self-play: ``train(TrainConfig(...))``.

``config``: ``TrainConfig``, the settings of one run, ``default_opponents``, the opponent
pool of each environment, and ``default_settings``, every setting ``deckgym train`` gives an
environment on top of ``TrainConfig``'s defaults (``TrainConfig(env=E, **default_settings(E))``).
It imports nothing heavy, so ``deckgym``'s command line reads its defaults from it without
loading torch.

``selfplay_env``: ``SingleAgentEnv``, the ``gymnasium.Env`` that seats one learner against
opponents drawn per episode from a pool of agents (the other seats play inside ``step``), and
``make_single_agent_env``, its factory for vectorised workers.

``policy``: the networks. ``card_set_extractor`` (one layer shared by every card-feature row),
``global_critic_policy`` (a value function that also reads the whole game, ``critic="global"``),
``policy_kwargs`` and ``policy_action``, the greedy (or sampled) masked action of a policy.

``imitation``: behaviour cloning of the heuristic before PPO starts (``imitate_heuristic``,
``heuristic_dataset``), DAgger rounds on the policy's own games (``student_dataset``) and the
cache of the imitated policy (``start_from_imitation``).

``loop``: ``train``, the run itself (vectorised workers, self-play snapshots, checkpoints,
TensorBoard logs), and ``evaluate_live``, the live policy against a baseline over seat-swapped
pairs: the score (wins + draws/2) with its 95% interval over pairs, and win/draw/loss rates.

``plots``: ``plot_learning_curve``, the score against each baseline over training with its
95% band.

``agents.ppo.PPOAgent`` plays a saved model (``agents.make("ppo:PATH", env)``). The names
below load their module on first use, so importing this package (or ``config``) stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckgym.agents.training.config import TrainConfig, default_opponents, default_settings
    from deckgym.agents.training.imitation import (
        IMITATION_KEYS,
        heuristic_dataset,
        imitate_heuristic,
        start_from_imitation,
        student_dataset,
    )
    from deckgym.agents.training.loop import evaluate_live, train
    from deckgym.agents.training.plots import plot_learning_curve
    from deckgym.agents.training.policy import (
        card_set_extractor,
        global_critic_policy,
        policy_action,
        policy_kwargs,
    )
    from deckgym.agents.training.selfplay_env import CRITICS, SingleAgentEnv, make_single_agent_env

#: Public name -> the module that defines it.
_EXPORTS = {
    "TrainConfig": "config",
    "default_opponents": "config",
    "default_settings": "config",
    "SingleAgentEnv": "selfplay_env",
    "make_single_agent_env": "selfplay_env",
    "CRITICS": "selfplay_env",
    "card_set_extractor": "policy",
    "global_critic_policy": "policy",
    "policy_kwargs": "policy",
    "policy_action": "policy",
    "IMITATION_KEYS": "imitation",
    "start_from_imitation": "imitation",
    "heuristic_dataset": "imitation",
    "imitate_heuristic": "imitation",
    "student_dataset": "imitation",
    "train": "loop",
    "evaluate_live": "loop",
    "plot_learning_curve": "plots",
}

__all__ = [
    "CRITICS",
    "IMITATION_KEYS",
    "SingleAgentEnv",
    "TrainConfig",
    "card_set_extractor",
    "default_opponents",
    "default_settings",
    "evaluate_live",
    "global_critic_policy",
    "heuristic_dataset",
    "imitate_heuristic",
    "make_single_agent_env",
    "plot_learning_curve",
    "policy_action",
    "policy_kwargs",
    "start_from_imitation",
    "student_dataset",
    "train",
]


def __getattr__(name: str) -> Any:
    """Load the module of a public name on first use (PEP 562)."""
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
