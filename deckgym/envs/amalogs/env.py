"""AMALOGS meta-game: ``amalogs_v2`` (teams of 1-3 players whose duels are core-game turns).

| | |
|---|---|
| Agents | `player_0` .. `player_{n-1}`: team A's players first (A0, A1, A2), then team B's |
| Action shape | `Discrete(119 + C)`, C = the largest core action space of the match's rulesets (78 for the Medarot OCG) |
| Action values | 0..118 meta actions, 119.. the core block (table below) |
| Observation shape | `Dict(observation=Box(float32, (1152 + O,)), action_mask=Box(int8, (119 + C,)))` |
| Options | `team_sizes` (1..3 each, default (2, 2)), `pools`, `decks`, `max_team_turns` (60), `duel_cap` (300) |

Two teams own a base (life 18) and one avatar per player on an 11 x 7 MAP. In its team's
turn each avatar gains 3 action points (cap 9), spends them on commands (MOVE, STEP, PUSH,
SWAP, GUARD) and must declare one DUEL: every avatar and base in the host's range joins,
then every avatar adjacent to a participant, chained. The duel is one turn of the host's
core game (a Medarot OCG mode, the Medarot parts game or Master of the World). At the
other seat sits the nearest guest of the same ruleset (the champion); else a stand-in for
the nearest guest of any game (the defender), whose life is converted by the two games'
calibrated units (D43); else, with no guest, the enemy base, which loses 1 life per the
host game's calibrated number of successful attacks; else nobody. A defended enemy base in
the duel is besieged and loses 1 life unless the host's game is lost. An optional strike
on another exposed guest follows. A core
game that wins or loses exits: its team gains 3 x WE or loses 2 x WE base life, and the
player respawns with a new core game. A team wins when the other base reaches 0 or its own
reaches 36. Meta and core decisions are decisions of the same agents: inside a duel the
host and the champion answer the core game's own decision points through the core block.
The rules are those of ``docs/rules/amalogs.md``.

## Observation
A float32 vector of named pieces (``env.unwrapped.encoder.observation_layout()``): the MAP
(12 channels x 77 squares, absolute coordinates), 25 global values (base lives, team turn,
phase, dice, strike value, the kind of stand-in at seat 1 and its life), 6 player slots x 32
values (position, AP, WE, range, ruleset, flags, duel role, public core summary, nominal
life) and the core view: the running table from the agent's seat when it is the host, the
champion or plays its solo first turn, otherwise its own core side alone (the defender sees
its own side: its stand-in is in the host's view). No other player's private core cards (teammates' included) appear.

## Action space
| indices | meaning |
|---|---|
| 0 END_TURN, 1 HAND_OVER, 2 DUEL, 3 MOVE, 4 GUARD | meta-field commands |
| 5-12 STEP(d), 13-20 PUSH(d), 21-28 SWAP(d) | d0..d7 = N, NE, E, SE, S, SW, W, NW (row up = north) |
| 29-105 SQUARE(s) | MOVE destination, start-up and respawn placement, s = 7 row + col |
| 106-113 RULESET(k) | core ruleset choice (slots 0 beginner, 1 advance, 4 normal Medarot OCG) |
| 114 STRIKE_NONE, 115 STRIKE_BASE, 116-118 STRIKE_PLAYER(j) | the host's strike (STRIKE_BASE is never legal since v1) |
| 119 + a | core action a of the running table, in that ruleset's own encoding |

## Legal actions mask
Only the agent to act has a non-zero mask; it always has at least one legal index. In a core
decision only the core block of the running ruleset can be 1.

## Global state
``env.state()`` (PettingZoo's global-state method; ``env.state_space`` is its ``Box``) is a
float32 vector of the whole match for centralized critics and oracle training: every player's
own observation (``seat_0`` ..), then the deck orders of every player's side and of the
running table (top 10 cards one-hot by card type, and each type's share of the deck), columns
padded to the widest core pool. ``env.unwrapped.encoder.state_layout(n)`` gives the slices. It
is never an observation: a player sees only its own vector.

## Rewards
+1 for every player of the winning team, -1 for the losing team, 0 on a draw, at the end.
After ``max_team_turns`` the higher base life wins (reported as truncation).

## Version history
- v2: the cross-game duel is calibrated (``docs/rules/amalogs.md`` D43, amending D38 and D40):
  a side's nominal life is its ruleset's life scale times the core life it starts with; a
  host counts a defender's stand-in in its game's stand-in unit; a base proxy loses 1 base
  life per the host game's base unit of successful attacks; and a defended enemy base in a
  duel loses 1 life after the table unless the host's game was lost (the ``siege`` event).
  Observation and action spaces are unchanged; results of v1 are not comparable.
- v1: players of different games fight each other (``docs/rules/amalogs.md`` section 11,
  D36-D42). Seat 1 holds the champion, else a stand-in (proxy) for the nearest guest of any
  game, else the enemy base, which loses 1 life per successful attack; strikes hit only other
  guests, in converted units, and never a base. The observation grows by 16 entries (the
  proxy's kind and life in the global piece; the "defender" role and the nominal life in each
  player slot); the events gain ``defender``/``proxy`` on ``duel``, ``proxy_damage`` and
  ``base_hit``. Results of v0 are not comparable.
- v0: initial release.
- v0, API: the engine state is ``env.unwrapped.game`` (it was the property ``state``, which
  shadowed PettingZoo's method); ``env.state()`` is now PettingZoo's global state, with
  ``env.state_space``.
- v0, observation (5,897 -> 5,949 entries at the default pools): the Medarot OCG observation
  gained 52 entries at its end (``move_tactics``, ``attack_range``, ``attack``), and the
  ``core`` piece, the last one, is as long as the longest core observation. Models trained on
  the shorter observation load through ``agents.pretrained.widen`` and play as before.
"""

from __future__ import annotations

from typing import Any

from deckgym.envs.aec import PackageRuleset
from deckgym.envs.amalogs.config import AmalogsConfig
from deckgym.envs.amalogs.cores import match_config
from deckgym.envs.amalogs.encode import AmalogsEncoder
from deckgym.envs.amalogs.rules import new_game
from deckgym.envs.amalogs.state import AmalogsState


class AmalogsRuleset(PackageRuleset):
    """AMALOGS plugged into ``CardGameEnv``.

    Args:
        team_sizes: players of team A and team B, 1..3 each.
        pools: rulesets a player may choose (names such as ``"medarot_ocg_advance"`` or slots):
            None for every available ruleset, one list for all players, or one list per player.
        decks: None (each ruleset's first starter deck), one ``{ruleset: deck}`` mapping for all
            players, or one mapping per player; a deck is anything the ruleset accepts as a deck.
        max_team_turns: team-turn cap (D34).
        duel_cap: core decisions per table before auto-completion (D32).
    """

    name = "amalogs_v2"
    package = "deckgym.envs.amalogs"

    def __init__(
        self,
        team_sizes: Any = (2, 2),
        pools: Any = None,
        decks: Any = None,
        max_team_turns: int = 60,
        duel_cap: int = 300,
    ) -> None:
        self.config: AmalogsConfig = match_config(team_sizes, pools, decks, max_team_turns, duel_cap)
        self.num_players = self.config.num_players
        self.encoder = AmalogsEncoder([s for pool in self.config.pools for s in pool])

    def new_state(self, seed: int) -> AmalogsState:
        """A new match for ``seed``."""
        return new_game(self.config, seed)

    def potential(self, state: AmalogsState, seat: int) -> float:
        """A shaping potential from public facts: the base lives, own team's minus the other's.

        Base life is what the match is won on (R23: a base at 0 loses, one at twice its start
        wins), and every exit, base hit and strike moves it. The difference counts over that
        winning margin and is clipped to [-0.5, 0.5], so it never outweighs the final +-1.
        """
        team = state.avatars[seat].team
        margin = 2 * self.config.start_life
        return max(-0.5, min(0.5, (state.life[team] - state.life[1 - team]) / margin))

    def state_from_dict(self, data: dict[str, Any]) -> AmalogsState:
        """Rebuild a state written by ``AmalogsState.to_dict``."""
        return AmalogsState.from_dict(data)
