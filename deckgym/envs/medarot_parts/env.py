"""Medarot parts card game: ``medarot_parts_v1``.

| | |
|---|---|
| Agents | `player_0`, `player_1` |
| Action shape | `Discrete(46)` |
| Action values | 0..45, meaning by decision point (table in ``envs.medarot_parts.encode``) |
| Observation shape | `Dict(observation=Box(float32, (obs_size,)), action_mask=Box(int8, (46,)))` |

Each player fields two medarots of five cards (a medal and head, right arm, left arm and legs
parts). A turn is shared: both players reset, draw to 7 and play rounds in which each player's
fastest ready medarot acts; players alternate turns-to-act to attack part against part, repair,
support, exchange parts or play medaroter cards. In a battle the defender decides its own
windows (power and defence cards, evade or protect, how much charge to pay, where the damage
goes), so ``agent_selection`` is always the seat that must decide now, not the turn player.
Decisions with a single legal option are played by the engine. The rules are those of
``docs/rules/medarot_parts.md``.

## Observation
A float32 vector of named pieces seen from the observing seat (``env.unwrapped.encoder
.observation_layout()`` gives the slices): the decision point, scalars (turn, sizes, assets,
the battle and payment under way), per-medarot and per-part state (tapped, destroyed,
counters, current power and charge), the energy stocks, card-feature rows of every field card,
of the seat's own hand and of the card in use, and the play areas and trashes. The opponent's
hand appears only as a count; deck contents and order never appear.

## Action space
PASS, USE_PART(s), HAND(h), PAY_ENERGY(k), PAY_MEDAL, MEDAROT(i), PART(s), EVADE, PROTECT(s),
AMOUNT(k), ATTACH_EFFECT (spec section 6).

## Legal actions mask
``action_mask`` marks the legal indices of the agent to move; the other agent's mask is all
zeros. Every decision point offered to an agent has at least two legal indices.

## Global state
``env.state()`` (PettingZoo's global-state method; ``env.state_space`` is its ``Box``) is a
float32 vector of the whole game for centralized critics and oracle training: each seat's own
observation (``seat_0``, ``seat_1``: so every private card), then ``deck_top`` (each deck's
top 10 cards in order, one-hot by card type) and ``deck_share`` (each card type's share of
each remaining deck). ``env.unwrapped.encoder.state_layout(2)`` gives the slices. It is never
an observation: a seat sees only its own vector.

## Rewards
+1 win, -1 loss, 0 draw or truncation (``max_turns``, 30 by default), given at the end.

## Version history
- v1: the id of the env that the v0 entries below changed (rebalanced starter decks). The old id
  now names the changes in a one-line error; games, observations and models are those of the
  last v0 entry.
- v0: initial release.
- v0, API: the engine state is ``env.unwrapped.game`` (it was the property ``state``, which
  shadowed PettingZoo's method); ``env.state()`` is now PettingZoo's global state, with
  ``env.state_space``.
- v0, decks: Blaze Striker and Chorus Support were retuned with ``scripts/balance.py`` (their
  40-card decks; starter sets, names and descriptions kept), which narrowed the starter
  matchups from 0.19-0.93 to 0.33-0.70 with heuristic pilots; games on the default decks
  differ from earlier releases.
- v0, decks: all three 40-card decks were retuned again with ``scripts/balance.py --swap
  master`` (a card may change category; starter sets, names and descriptions kept): every
  starter matchup now scores 0.41 to 0.58 with heuristic pilots (400 fresh-seed games per
  pairing), and the three decks beat each other in a cycle (Chorus over Blaze, Fang over
  Chorus, Blaze over Fang).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from deckgym.envs.aec import DeckRuleset
from deckgym.envs.core.cards import load_deck_file
from deckgym.envs.encoding.codec import encoder_for_pool
from deckgym.envs.medarot_parts.cards import _DECK_KEYS as DECK_KEYS
from deckgym.envs.medarot_parts.cards import CardPool, deck_names, resolve_deck
from deckgym.envs.medarot_parts.config import RulesConfig
from deckgym.envs.medarot_parts.encode import PartsEncoder
from deckgym.envs.medarot_parts.rules import new_game
from deckgym.envs.medarot_parts.state import GameState


def encoder_for(pool: CardPool) -> PartsEncoder:
    """The encoder of a pool, built once per pool."""
    return encoder_for_pool(PartsEncoder, pool)


class PartsRuleset(DeckRuleset):
    """The Medarot parts game plugged into ``CardGameEnv``.

    Args:
        decks: None (each game draws two of the packaged decks with its seed), ``"mirror"`` (each
            game draws one of them for both players), or one or two decks; a deck is a deck
            name, a deck file path or ``{"starter": [[5 ids], [5 ids]], "cards": {id: count}}``.
            One deck is used by both players.
        card_files: card pool files (default: the packaged pool).
        **rules: overrides of ``RulesConfig`` fields (``max_turns``, ``max_steps``...).
    """

    name = "medarot_parts_v1"
    package = "deckgym.envs.medarot_parts"
    state_type = GameState
    start = staticmethod(new_game)
    encoder_type = PartsEncoder
    config: RulesConfig

    def game_deck(self, value: Any, label: str) -> list[list[str]]:
        """A deck value as its two starter medarots' card ids, then the 40 of the deck."""
        return resolve_deck(value, self.pool, self.config, label).to_list()

    def starter_decks(self) -> list[str]:
        """Every packaged deck."""
        return deck_names()

    def deck_list(self, value: Any) -> Any:
        """A deck value as a validated ``DeckList`` (``DeckError`` names the card and the rule)."""
        deck = resolve_deck(value, self.pool, self.config)
        starter = tuple((cid, 1) for cid in deck.starter.cards())
        return replace(deck.deck, cards=starter + deck.deck.cards)

    def partial_deck(self, path: Any) -> tuple[dict[str, int], Callable[[dict[str, int]], Any], int]:
        """A deck file's ``[cards]`` counts, kept with the file's starter set.

        Counts become a deck value with that starter set; a complete deck has ``deck_size``
        cards beside it (D2).
        """
        deck = load_deck_file(path, DECK_KEYS)
        start = deck.extra["starter"]
        starter = [start["medarot1"], start["medarot2"]]
        return dict(deck.cards), lambda counts: {"starter": starter, "cards": counts}, self.config.deck_size

    def potential(self, state: GameState, seat: int) -> float:
        """A shaping potential from public facts: intact armor, working medarots and deck, own minus opponent's.

        Remaining armor of non-destroyed parts is what keeps a medarot fighting, a stopped
        medarot is half of the loss condition, and the deck is the clock of the draw phase.
        The sum is clipped to [-0.5, 0.5] so it never outweighs the final +-1.
        """

        def side(p: int) -> float:
            armor = 0
            live = 0
            for med in state.field[p]:
                live += not med.stopped
                for part in med.parts:
                    if not part.destroyed:
                        armor += state.cards[part.card].armor - part.counters
            return 0.01 * armor + 0.1 * live + 0.005 * len(state.deck[p])

        return max(-0.5, min(0.5, side(seat) - side(1 - seat)))
