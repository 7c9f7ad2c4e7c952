"""The models shipped with the package: ``agents.make("ppo:pretrained", env, **options)``.

Each shipped model is a MaskablePPO file in ``agents/models/``, named after the env it was
trained on and, for the OCG, its mode (``medarot_ocg_v1-beginner.zip``). It was trained with
``deckgym train ENV --preset strong``; ``agents/models/README.md`` records, per model, the
run and its measured score against the heuristic and against ``search``.

``slim(src, dst)`` writes a trained model without the optimizer's running moments (a fresh
optimizer in their place), a third of the size; it plays exactly as the original.

``widen(src, dst, space)`` carries a model over to an observation that gained entries at its
end (new pieces of an encoder's layout go last for this): the first layer gets zero weights
for the new entries, so the model plays exactly as before and ignores them until it is
trained further.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: Where the shipped models live.
MODELS = Path(__file__).with_name("models")
#: The spec that names them.
SPEC = "ppo:pretrained"


def model_key(env_name: str, options: dict[str, Any] | None = None) -> str:
    """The shipped model's file stem for ``env_name`` with ``options``: ``env`` or ``env-mode`` (``Game.modes``)."""
    from deckgym.envs.games import game

    g = game(env_name)
    if not g.modes:
        return env_name
    return f"{env_name}-{(options or {}).get('mode', g.defaults().get('mode'))}"


def shipped() -> list[str]:
    """The keys of every shipped model (``env`` or ``env-mode``)."""
    return sorted(p.stem for p in MODELS.glob("*.zip"))


def model_path(env_name: str, options: dict[str, Any] | None = None) -> Path:
    """The shipped model for ``env_name`` with ``options``.

    Raises:
        ValueError: no model is shipped for it (the message lists the shipped ones).
    """
    key = model_key(env_name, options)
    path = MODELS / f"{key}.zip"
    if not path.is_file():
        have = ", ".join(shipped()) or "none"
        raise ValueError(f"no pretrained model for {key}; shipped: {have} (or use 'ppo:PATH')")
    return path


def slim(src: str | Path, dst: str | Path) -> Path:
    """Write the model ``src`` to ``dst`` with a fresh optimizer (its moments dropped); ``dst``."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(src), device="cpu")
    policy = model.policy
    policy.optimizer = policy.optimizer_class(policy.parameters(), lr=1e-4, **policy.optimizer_kwargs)
    dst = Path(dst)
    model.save(str(dst))
    return dst if dst.suffix == ".zip" else dst.with_suffix(dst.suffix + ".zip")


def widen(src: str | Path, dst: str | Path, space: Any) -> Path:
    """Write the model ``src`` to ``dst`` for observations ``space`` (a ``Box``) that end with new entries.

    The observation the model was trained on must be a prefix of ``space``. Every first layer
    that reads the observation (the extractor's dense head) gets zero weights for the added
    entries, so the model's outputs on an observation equal its outputs on that observation's
    prefix: it plays exactly as ``src``. The optimizer starts fresh (as in ``slim``).

    Raises:
        ValueError: ``space`` is not a flat ``Box`` at least as long as the model's
            observation, or the model reads a global state (``critic="global"``).
    """
    import numpy as np
    import torch
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(src), device="cpu")
    old = model.observation_space
    if not isinstance(old, spaces.Box) or not isinstance(space, spaces.Box) or len(space.shape) != 1:
        raise ValueError(
            f"widen carries flat Box observations only; the model reads {old}, the target is {space}"
        )
    n, size = int(old.shape[0]), int(space.shape[0])
    if size < n:
        raise ValueError(f"the new observation ({size} entries) is shorter than the model's ({n})")
    if not (np.array_equal(space.low[:n], old.low) and np.array_equal(space.high[:n], old.high)):
        raise ValueError("the first entries of the new observation space have other bounds than the model's")
    policy = model.policy
    extractors = {
        id(m): m for m in policy.modules() if hasattr(m, "head") and isinstance(m.head[0], torch.nn.Linear)
    }
    if not extractors:
        raise ValueError(f"no dense extractor head in {type(policy).__name__}: cannot widen it")
    for ext in extractors.values():
        first = ext.head[0]
        wider = torch.nn.Linear(first.in_features + size - n, first.out_features)
        with torch.no_grad():
            wider.weight.zero_()
            wider.weight[:, : first.in_features] = first.weight
            wider.bias.copy_(first.bias)
        ext.head[0] = wider
        ext._observation_space = space
    model.observation_space = policy.observation_space = space
    policy.optimizer = policy.optimizer_class(policy.parameters(), lr=1e-4, **policy.optimizer_kwargs)
    dst = Path(dst)
    model.save(str(dst))
    return dst if dst.suffix == ".zip" else dst.with_suffix(dst.suffix + ".zip")
