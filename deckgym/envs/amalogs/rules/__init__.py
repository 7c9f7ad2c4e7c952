"""The rules of the AMALOGS meta-game, split by the spec's own topics.

``startup`` is the start-up phase (R1-R5, D8); ``turn`` the team turn and control (R6-R12,
D3-D7); ``commands`` the avatar commands (D16, D17); ``duel`` participants, champion, strike,
exits (R13-R24, D18-D27); ``respawn`` the respawn phase (R25-R28, D29); ``core`` the core
games inside (D28, D30, D32); ``end`` the end checks (D33-D35); ``geometry`` the MAP (D9-D13);
``invariants`` the rules check of one position (``check``, section 10).
"""

from __future__ import annotations

from deckgym.envs.amalogs.rules import commands, core, duel, respawn, startup, turn  # noqa: F401  (registration)
from deckgym.envs.amalogs.rules.flow import apply, legal_actions
from deckgym.envs.amalogs.rules.invariants import check
from deckgym.envs.amalogs.rules.startup import new_game

__all__ = ["apply", "check", "legal_actions", "new_game"]
