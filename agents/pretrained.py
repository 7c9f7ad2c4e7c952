"""The models shipped with the package: ``agents.make("ppo:pretrained", env, **options)``.

Each shipped model is a MaskablePPO file in ``agents/models/``, named after the env it was
trained on and, for the OCG, its mode (``medarot_ocg_v0-beginner.zip``). It was trained with
``deckgym train ENV --preset strong``; ``agents/models/README.md`` records, per model, the
run and its measured score against the heuristic and against ``search``.

``slim(src, dst)`` writes a trained model without the optimizer's running moments (a fresh
optimizer in their place), a third of the size; it plays exactly as the original.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: Where the shipped models live.
MODELS = Path(__file__).with_name("models")
#: The spec that names them.
SPEC = "ppo:pretrained"


def model_key(env_name: str, options: dict[str, Any] | None = None) -> str:
    """The shipped model's file stem for ``env_name`` with ``options`` (the OCG's mode counts)."""
    if env_name == "medarot_ocg_v0":
        return f"{env_name}-{(options or {}).get('mode', 'beginner')}"
    return env_name


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
