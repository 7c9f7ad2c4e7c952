"""``mow_v1``: Master of the World as a PettingZoo AEC environment.

    from deckgym.envs import mow_v1
    env = mow_v1.env(decks=["ashen_aggro", "tide_control"])

See ``envs.mow.env`` for the documentation page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deckgym.envs.aec import CardGameEnv, shared_ruleset
from deckgym.envs.mow.env import MowRuleset
from deckgym.envs.mow.env import __doc__ as _DOC

__doc__ = _DOC


def ruleset(
    decks: Sequence[Any] | None = None,
    max_turns: int = 100,
    **rules: Any,
) -> MowRuleset:
    """The rules of one configuration, without an env (shared by every env of that configuration)."""
    return shared_ruleset(MowRuleset, decks=decks, max_turns=max_turns, **rules)


def raw_env(
    decks: Sequence[Any] | None = None,
    max_turns: int = 100,
    render_mode: str | None = None,
    illegal_action: str = "penalize",
    **rules: Any,
) -> CardGameEnv:
    """The environment (PettingZoo's safety checks are built in; there is no extra wrapper layer)."""
    return CardGameEnv(
        ruleset(decks=decks, max_turns=max_turns, **rules),
        render_mode=render_mode,
        illegal_action=illegal_action,
    )


#: ``env`` and ``raw_env`` are the same: the checks of PettingZoo's classic wrappers are built in.
env = raw_env
