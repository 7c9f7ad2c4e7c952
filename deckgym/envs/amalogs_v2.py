"""``amalogs_v2``: the AMALOGS team meta-game over the Medarot OCG as a PettingZoo AEC environment.

    from deckgym.envs import amalogs_v2
    env = amalogs_v2.env(team_sizes=(2, 2))

See ``envs.amalogs.env`` for the documentation page.
"""

from __future__ import annotations

from deckgym.envs.aec import env_over, ruleset_over
from deckgym.envs.amalogs.env import AmalogsRuleset
from deckgym.envs.amalogs.env import __doc__ as _DOC

__doc__ = _DOC


#: The rules of one configuration, without an env: ``AmalogsRuleset``'s options (``team_sizes``,
#: ``pools``, ``decks``, ``max_team_turns``, ``duel_cap``), with its defaults.
ruleset = ruleset_over(AmalogsRuleset, __name__)


#: The environment: ``ruleset``'s options, then ``render_mode`` and ``illegal_action``.
raw_env = env_over(ruleset)

#: ``env`` and ``raw_env`` are the same: the checks of PettingZoo's classic wrappers are built in.
env = raw_env
