"""``medarot_ocg_v1``: the Medarot Official Card Game as a PettingZoo AEC environment.

    from deckgym.envs import medarot_ocg_v1
    env = medarot_ocg_v1.env(mode="advance")

See ``envs.medarot_ocg.env`` for the documentation page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deckgym.envs.aec import CardGameEnv, shared_ruleset
from deckgym.envs.medarot_ocg.env import MedarotRuleset
from deckgym.envs.medarot_ocg.env import __doc__ as _DOC

__doc__ = _DOC


def ruleset(
    mode: str = "beginner",
    decks: Sequence[Any] | None = None,
    max_turns: int = 60,
    **rules: Any,
) -> MedarotRuleset:
    """The rules of one configuration, without an env (shared by every env of that configuration)."""
    return shared_ruleset(MedarotRuleset, mode=mode, decks=decks, max_turns=max_turns, **rules)


def raw_env(
    mode: str = "beginner",
    decks: Sequence[Any] | None = None,
    max_turns: int = 60,
    render_mode: str | None = None,
    illegal_action: str = "penalize",
    **rules: Any,
) -> CardGameEnv:
    """The environment (PettingZoo's safety checks are built in; there is no extra wrapper layer)."""
    return CardGameEnv(
        ruleset(mode=mode, decks=decks, max_turns=max_turns, **rules),
        render_mode=render_mode,
        illegal_action=illegal_action,
    )


#: ``env`` and ``raw_env`` are the same: the checks of PettingZoo's classic wrappers are built in.
env = raw_env
