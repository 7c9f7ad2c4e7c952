"""``amalogs_v2``: the AMALOGS team meta-game over the Medarot OCG as a PettingZoo AEC environment.

    from deckgym.envs import amalogs_v2
    env = amalogs_v2.env(team_sizes=(2, 2))

See ``envs.amalogs.env`` for the documentation page.
"""

from __future__ import annotations

from typing import Any

from deckgym.envs.aec import env_over, shared_ruleset
from deckgym.envs.amalogs.env import AmalogsRuleset
from deckgym.envs.amalogs.env import __doc__ as _DOC

__doc__ = _DOC


def ruleset(
    team_sizes: Any = (2, 2),
    pools: Any = None,
    decks: Any = None,
    max_team_turns: int = 60,
    duel_cap: int = 300,
) -> AmalogsRuleset:
    """The rules of one configuration, without an env (shared by every env of that configuration)."""
    return shared_ruleset(
        AmalogsRuleset,
        team_sizes=team_sizes,
        pools=pools,
        decks=decks,
        max_team_turns=max_team_turns,
        duel_cap=duel_cap,
    )


#: The environment: ``ruleset``'s options, then ``render_mode`` and ``illegal_action``.
raw_env = env_over(ruleset)

#: ``env`` and ``raw_env`` are the same: the checks of PettingZoo's classic wrappers are built in.
env = raw_env
