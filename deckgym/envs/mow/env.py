"""Master of the World: ``mow_v1``.

| | |
|---|---|
| Agents | `player_0`, `player_1` |
| Action shape | `Discrete(294)` |
| Action values | 0..293, meaning by decision point (table below) |
| Observation shape | `Dict(observation=Box(float32, (2314,)), action_mask=Box(int8, (294,)))` |
| Options | `decks`, `max_turns` (100), `first_player` (None: random), `max_copies`, `max_decisions_per_turn` |

A two-player trading card game from the seed "Master of the World" (spec
``docs/rules/mow.md``). Each player has a revealed master with 20 life whose level comes from
the experience cards charged under it; the level sets the master's attack/guard and its monster
slots. Players summon monsters, equip weapons and cast face-down spells, then attack; every card
use opens a counter window for the opponent, and counters chain last-in-first-out.
``agent_selection`` is always the seat that must decide now: the opponent in a counter window,
the affected player for discards, the owner for overflow.

## Observation
A float32 vector of named pieces seen from the observing seat (``env.unwrapped.encoder
.observation_layout()`` gives the slices): the decision kind and turn step; per player the
master (id, life, level, experience, attack, guard, deck and hand counts), weapon, spell slot,
five monster rows (a contiguous card region), discard, experience and ターンn counts; own hand
and remaining-deck counts; the top 8 chain entries; and the effect being resolved. The
opponent's hand, face-down spell and both deck orders never enter it.

## Action space
See ``envs.mow.encode``: PASS, HAND[k], USE[k], FAST[k], SLOT_SPELL, ABILITY[p][i],
ATTACKER[p], TARGET[s][q], CARD_TYPE[k]. Card type k is the pool index of a main-deck card;
sides and positions are relative to the deciding agent.

## Legal actions mask
``action_mask`` marks the legal indices of the agent to move; the other agent's mask is all
zeros. Every decision point has at least one legal index.

## Global state
``env.state()`` (PettingZoo's global-state method; ``env.state_space`` is its ``Box``) is a
float32 vector of the whole game for centralized critics and oracle training: each seat's own
observation (``seat_0``, ``seat_1``: so every private card), then ``deck_top`` (each deck's
top 10 cards in order, one-hot by card type) and ``deck_share`` (each card type's share of
each remaining deck). ``env.unwrapped.encoder.state_layout(2)`` gives the slices. It is never
an observation: a seat sees only its own vector.

## Rewards
+1 win, -1 loss, 0 draw or truncation (turn cap, decisions-per-turn cap), given at the end.

## Version history
- v1: the id of the env that the v0 entries below changed (the rules fix of D28 and the rebalanced starter decks). The old id
  now names the changes in a one-line error; games, observations and models are those of the
  last v0 entry.
- v0: initial release.
- v0, API: the engine state is ``env.unwrapped.game`` (it was the property ``state``, which
  shadowed PettingZoo's method); ``env.state()`` is now PettingZoo's global state, with
  ``env.state_space``.
- v0, rules fix: a monster or weapon use negated by a counter goes to the discard pile, its
  廃棄時 triggers, and its 登場時 still resolves afterwards (spec D28 amended to follow R42,
  使役→対抗廃棄→登場時の効果発動); the first release removed the 登場時.
- v0, decks: the four starter decks were rebalanced with ``scripts/balance.py --swap master``
  (each keeps its master, name and description; cards moved across kinds). With heuristic
  pilots every starter matchup scores 0.36 to 0.64 over 400 fresh-seed games per pairing,
  where Iron Bulwark scored 0.98 to 1.00 against every other starter before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deckgym.envs.aec import DeckRuleset
from deckgym.envs.encoding.codec import encoder_for_pool
from deckgym.envs.mow.cards import CardPool, deck_names, load_deck, resolve_deck
from deckgym.envs.mow.config import DECK_SIZE, RulesConfig
from deckgym.envs.mow.encode import MowEncoder
from deckgym.envs.mow.rules import new_game
from deckgym.envs.mow.rules.values import master_attack, monster_attack, toughness
from deckgym.envs.mow.state import GameState


def encoder_for(pool: CardPool) -> MowEncoder:
    """The encoder of a pool, built once per pool."""
    return encoder_for_pool(MowEncoder, pool)


class MowRuleset(DeckRuleset):
    """Master of the World plugged into ``CardGameEnv``.

    Args:
        decks: None (each game draws two starter decks with its seed), ``"mirror"`` (each game
            draws one of them for both players), or one or two decks; a deck is a starter deck
            name, a deck file path, ``{id: count}`` or a list of ids, and holds 40 main-deck
            cards plus one master. One deck is used by both players.
        card_files: card pool files (default: the packaged pool).
        **rules: ``RulesConfig`` fields (``max_turns``, ``first_player``, ``max_copies``...).
    """

    name = "mow_v1"
    package = "deckgym.envs.mow"
    state_type = GameState
    start = staticmethod(new_game)
    encoder_type = MowEncoder
    config: RulesConfig

    def game_deck(self, value: Any, label: str) -> list[str]:
        """A deck value as its 41 card ids, the master first."""
        return resolve_deck(value, self.pool, self.config.max_copies, label).expand()

    def starter_decks(self) -> list[str]:
        """Every packaged deck."""
        return deck_names()

    def deck_list(self, value: Any) -> Any:
        """A deck value as a validated ``DeckList`` (``DeckError`` names the card and the rule)."""
        return resolve_deck(value, self.pool, self.config.max_copies)

    def partial_deck(self, path: Any) -> tuple[dict[str, int], Callable[[dict[str, int]], Any], int]:
        """A deck file's counts, its master first (``load_deck``).

        Counts are a deck value; a complete list holds the master and ``DECK_SIZE`` main-deck
        cards (R3).
        """
        return dict(load_deck(path, self.pool).cards), dict, DECK_SIZE + 1

    def potential(self, state: GameState, seat: int) -> float:
        """A shaping potential from public facts: life, board strength and level, own minus opponent's.

        Life is what the game is won on; monsters (attack plus toughness) and the master's
        attack are what deal damage; the level gives slots. Each difference counts a little,
        and the sum is clipped to [-0.5, 0.5] so it never outweighs the final +-1.
        """

        def side(p: int) -> float:
            board = sum(monster_attack(state, p, m) + toughness(state, p, m) for m in state.monsters[p])
            return (
                0.02 * state.life[p] + 0.01 * board + 0.02 * master_attack(state, p) + 0.03 * state.level[p]
            )

        return max(-0.5, min(0.5, side(seat) - side(1 - seat)))
