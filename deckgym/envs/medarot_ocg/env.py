"""Medarot Official Card Game: ``medarot_ocg_v1`` (beginner, normal, advance).

| | |
|---|---|
| Agents | `player_0`, `player_1` |
| Action shape | `Discrete(78)` |
| Action values | 0..77, meaning by decision point (table below) |
| Observation shape | `Dict(observation=Box(float32, (obs_size,)), action_mask=Box(int8, (78,)))` |
| Modes | `beginner` (15 cards, HP 10), `normal` (30, HP 20, master, weak attack, substitution), `advance` (normal + MedaForce + MedaChange) |

Two players share each turn: every Medarot on the board acts once per turn, fastest first,
so control passes between the players by speed, and the defender decides inside the
attacker's action (defence cards, discards, redraws). ``agent_selection`` is always the
seat that must decide now. The rules are those of ``docs/rules/medarot_ocg.md``.

## Observation
A float32 vector of named pieces seen from the observing seat (``env.unwrapped.encoder
.observation_layout()`` gives the slices): the decision point, scalars (turn, HP, zone counts,
the action and attack under way), 15 board squares in the seat's own frame, card-feature rows
for the board, own hand, stock and masters, and the public trash and reserve contents, then
the acting Medarot's tactics (moves, range, and its power against the armor it attacks, as
far as the seat knows them). Hidden information (opponent's hand, face-down cards, deck order)
never enters it.

## Action space
See ``envs.medarot_ocg.encode``: PASS, HAND(i), SET(i), STOCK(j), MASTER, SQUARE(s'), MOVE(d),
COUNT(k), MEDAFORCE(k), SUBSTITUTE, RELEASE, SPECIAL, OPP_STOCK(j), EFFECT(e). Squares are
relative to the acting agent (own row 0-4, neutral 5-9, opponent's row 10-14).

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
+1 win, -1 loss, 0 draw or truncation (``max_turns``, ``max_steps``), given at the end.

## Version history
- v1: the id of the env that the v0 entries below changed (rebalanced starter decks, the
  observation of 4,813 entries). ``medarot_ocg_v0`` now names the changes in a one-line error;
  games, observations and models are those of the last v0 entry.
- v0: initial release.
- v0, API: the engine state is ``env.unwrapped.game`` (it was the property ``state``, which
  shadowed PettingZoo's method); ``env.state()`` is now PettingZoo's global state, with
  ``env.state_space``.
- v0, decks: the starter decks were rebalanced with ``scripts/balance.py`` so that every
  starter matchup scores 0.35 to 0.65 with heuristic pilots (each keeps its theme, name and
  description); games on the default decks differ from earlier releases.
- v0, decks: the advance starters were rebalanced too, with ``scripts/balance.py --swap
  master`` (a card may change kind; each deck keeps its theme, name and description, and every
  MedaChange its Medarot); games on the default advance decks differ from earlier releases.
- v0, observation (4,761 -> 4,813 entries): three pieces at the end, ``move_tactics``,
  ``attack_range`` and ``attack`` (the acting Medarot's destinations in the neutral row and
  the enemies, face-down ones too, in range from each; the enemies in range now; its power
  against its target's armor and the margin). Models trained on the shorter observation load
  through ``agents.pretrained.widen``, which gives the new entries zero weights, so they play
  exactly as before. The AMALOGS observation, which carries this one, grew by the same 52.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from deckgym.envs.aec import DeckRuleset
from deckgym.envs.encoding.codec import encoder_for_pool
from deckgym.envs.medarot_ocg.cards import CardPool, load_deck, resolve_deck, starter_decks
from deckgym.envs.medarot_ocg.config import RulesConfig
from deckgym.envs.medarot_ocg.encode import MedarotEncoder
from deckgym.envs.medarot_ocg.rules import new_game
from deckgym.envs.medarot_ocg.state import GameState


def encoder_for(pool: CardPool) -> MedarotEncoder:
    """The encoder of a pool, built once per pool."""
    return encoder_for_pool(MedarotEncoder, pool)


class MedarotRuleset(DeckRuleset):
    """The Medarot OCG plugged into ``CardGameEnv``.

    Args:
        mode: "beginner", "normal" or "advance".
        decks: None (each game draws two of the mode's starter decks with its seed), ``"mirror"``
            (each game draws one of them for both players), or one or two decks; a deck is a
            starter deck name, a deck file path, ``{id: count}`` or a list of ids. One deck is
            used by both players.
        card_files: card pool files (default: the packaged pool).
        **rules: overrides of ``RulesConfig`` fields (``max_turns``, ``max_steps``...).
    """

    name = "medarot_ocg_v1"
    package = "deckgym.envs.medarot_ocg"
    state_type = GameState
    start = staticmethod(new_game)

    encoder_type = MedarotEncoder
    config: RulesConfig

    def __init__(
        self,
        mode: str = "beginner",
        decks: Sequence[Any] | None = None,
        card_files: Sequence[str] | None = None,
        **rules: Any,
    ) -> None:
        super().__init__(decks, card_files, mode=mode, **rules)

    def game_deck(self, value: Any, label: str) -> list[str]:
        """A deck value as its card ids."""
        return resolve_deck(value, self.pool, self.config, label).expand()

    def starter_decks(self) -> list[str]:
        """The starter decks built for the mode."""
        return starter_decks(self.config.mode)

    def deck_list(self, value: Any) -> Any:
        """A deck value as a validated ``DeckList`` (``DeckError`` names the card and the rule)."""
        return resolve_deck(value, self.pool, self.config)

    def partial_deck(self, path: Any) -> tuple[dict[str, int], Callable[[dict[str, int]], Any], int]:
        """A deck file's counts; counts are a deck value; a complete deck has ``deck_size`` cards."""
        return dict(load_deck(path).cards), dict, self.config.deck_size

    def potential(self, state: GameState, seat: int) -> float:
        """A shaping potential from public counts: deck, HP and Medarots on the board, own minus opponent's.

        The deck is the game's clock (an empty deck at the start phase loses), HP pays every
        cost, and Medarots on the board are what act; each difference counts a little, and the
        sum is clipped to [-0.5, 0.5] so it never outweighs the final +-1.
        """
        o = 1 - seat
        units = [0, 0]
        for x in state.board:
            if x is not None:
                units[x.owner] += 1
        value = (
            0.03 * (len(state.deck[seat]) - len(state.deck[o]))
            + 0.03 * (state.hp[seat] - state.hp[o])
            + 0.05 * (units[seat] - units[o])
        )
        return max(-0.5, min(0.5, value))
