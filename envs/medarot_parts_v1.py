"""``medarot_parts_v1``: the Medarot parts card game as a PettingZoo AEC environment.

    from deckgym.envs import medarot_parts_v1
    env = medarot_parts_v1.env()

See ``envs.medarot_parts.env`` for the documentation page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deckgym.envs.aec import CardGameEnv, shared_ruleset
from deckgym.envs.medarot_parts.env import PartsRuleset
from deckgym.envs.medarot_parts.env import __doc__ as _DOC

__doc__ = _DOC


def ruleset(
    decks: Sequence[Any] | None = None,
    max_turns: int = 30,
    **rules: Any,
) -> PartsRuleset:
    """The rules of one configuration, without an env (shared by every env of that configuration)."""
    return shared_ruleset(PartsRuleset, decks=decks, max_turns=max_turns, **rules)


def raw_env(
    decks: Sequence[Any] | None = None,
    max_turns: int = 30,
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
