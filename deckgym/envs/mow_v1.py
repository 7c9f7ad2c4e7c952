"""``mow_v1``: Master of the World as a PettingZoo AEC environment.

    from deckgym.envs import mow_v1
    env = mow_v1.env(decks=["ashen_aggro", "tide_control"])

See ``envs.mow.env`` for the documentation page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deckgym.envs.aec import env_over, shared_ruleset
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


#: The environment: ``ruleset``'s options, then ``render_mode`` and ``illegal_action``.
raw_env = env_over(ruleset)

#: ``env`` and ``raw_env`` are the same: the checks of PettingZoo's classic wrappers are built in.
env = raw_env
