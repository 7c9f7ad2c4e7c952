"""``medarot_ocg_v1``: the Medarot Official Card Game as a PettingZoo AEC environment.

    from deckgym.envs import medarot_ocg_v1
    env = medarot_ocg_v1.env(mode="advance")

See ``envs.medarot_ocg.env`` for the documentation page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deckgym.envs.aec import env_over, shared_ruleset
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


#: The environment: ``ruleset``'s options, then ``render_mode`` and ``illegal_action``.
raw_env = env_over(ruleset)

#: ``env`` and ``raw_env`` are the same: the checks of PettingZoo's classic wrappers are built in.
env = raw_env
