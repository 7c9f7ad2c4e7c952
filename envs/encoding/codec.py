"""Base of every ruleset's encoder: a fixed action index space and the observation.

A ruleset encoder subclasses :class:`Encoder` and provides ``action_to_index``,
``index_to_action``, ``observe`` and ``layout``. The base class derives the legal-action
mask from the engine's ``legal_actions`` so legality and encoding cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from envs.encoding.layout import ObsLayout

E = TypeVar("E", bound="Encoder")
_BY_POOL: dict[tuple[Callable[[Any], Any], tuple[str, ...]], Any] = {}


def encoder_for_pool(encoder: Callable[[Any], E], pool: Any) -> E:
    """The ``encoder(pool)`` of a card pool, built once per encoder class and pool files."""
    key = (encoder, pool.files)
    if key not in _BY_POOL:
        _BY_POOL[key] = encoder(pool)
    enc: E = _BY_POOL[key]
    return enc


class Encoder:
    """State -> observation vectors, and action index <-> engine action, for one ruleset."""

    #: Number of action indices (``Discrete(ACTION_SIZE)``).
    action_size: int = 0
    #: Named observation pieces.
    layout: ObsLayout
    #: ``(start, rows, features)`` of the contiguous block of card-feature rows, if any: a
    #: policy may share one small layer across the rows (an embedding of the cards).
    card_region: tuple[int, int, int] | None = None
    #: ``(low, high)`` bounds of every observation value: the wrapper declares the observation
    #: ``Box`` with them. A ruleset whose scaled values are not clipped declares ``(-inf, inf)``.
    obs_bounds: tuple[float, float] = (-100.0, 100.0)

    @property
    def obs_size(self) -> int:
        """Length of the observation vector."""
        return self.layout.size

    def action_to_index(self, action: Any, state: Any) -> int:
        """Index of an engine action at ``state`` (for the player to move)."""
        raise NotImplementedError

    def index_to_action(self, index: int, state: Any) -> Any:
        """Engine action of an index at ``state`` (inverse of ``action_to_index``)."""
        raise NotImplementedError

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """float32 vector of length ``obs_size`` with only what ``seat`` may know."""
        raise NotImplementedError

    def action_label(self, index: int, state: Any) -> str:
        """Human-readable name of an action index at ``state``."""
        return str(self.index_to_action(index, state))

    def legal_indices(self, state: Any) -> list[int]:
        """Indices of the legal actions of the player to move."""
        a2i = self.action_to_index
        return [a2i(a, state) for a in state.legal_actions()]

    def action_mask(self, state: Any, seat: int | None = None) -> np.ndarray:
        """int8 mask of shape ``(action_size,)``; all zeros for a seat that is not to move."""
        mask = np.zeros(self.action_size, dtype=np.int8)
        if seat is None or seat == state.current_player:
            mask[self.legal_indices(state)] = 1
        return mask

    def observation_layout(self) -> dict[str, slice]:
        """Piece name -> slice of the observation vector."""
        return self.layout.slices()
