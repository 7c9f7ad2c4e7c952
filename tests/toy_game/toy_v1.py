"""``toy_v1``: the toy duel as a PettingZoo AEC environment (a ruleset kept outside the package).

from deckgym import envs
envs.games.register(tests.toy_game.GAME)
env = envs.make("toy_v1", target=25)
"""

from __future__ import annotations

from deckgym.envs.aec import env_over, shared_ruleset
from tests.toy_game.env import ToyRuleset


def ruleset(target: int = 15, max_turns: int = 24) -> ToyRuleset:
    """The rules of one configuration, without an env (shared by every env of that configuration)."""
    return shared_ruleset(ToyRuleset, target=target, max_turns=max_turns)


#: The environment: ``ruleset``'s options, then ``render_mode`` and ``illegal_action``.
raw_env = env_over(ruleset)

#: ``env`` and ``raw_env`` are the same: the checks of PettingZoo's classic wrappers are built in.
env = raw_env
