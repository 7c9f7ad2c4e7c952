"""The structured events of the Medarot OCG (``envs.core.events``): kinds and their fields.

``KINDS`` maps every kind the rules record to its public fields, in the order they are
emitted; ``PRIVATE`` the fields a kind may hold for one seat only (``only``); ``CARD_FIELDS``
the fields that hold card ids (the ``"id"`` of a card in ``envs.medarot_ocg.view``);
``REVEALS`` the kinds whose public cards may be out of every seat's view; ``DESCRIPTIONS`` one
line per kind for the docs.

Common fields: ``player`` is a seat (0/1); ``square`` a board square ``5 * row + column``
(absolute, as in the view); ``slot`` a stock slot 0-2 or ``"master"``; ``hp`` a player's HP
after the event; ``why`` what a payment or a discard is for.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.core.events import FLOW_KINDS

KINDS: Final[dict[str, tuple[str, ...]]] = {
    "first_player": ("player",),
    "draw": ("player", "count"),
    "mulligan": ("player", "cards"),
    "set_master": ("player",),
    "set_stock": ("player",),
    "place": ("player", "square"),
    "turn": ("turn",),
    "reveal_master": ("player", "card", "hp_mod"),
    "cannot_draw": ("player",),
    "discard": ("player", "card", "why"),
    "heal": ("player", "amount", "hp"),
    "pay": ("player", "amount", "why", "hp"),
    "cannot_pay": ("player", "amount", "why", "hp"),
    "spend": ("player", "amount", "why", "hp"),
    "coin_toss": ("player",),
    "act": ("player", "card", "square"),
    "disabled": ("player", "square"),
    "medachange": ("player", "card", "square"),
    "release": ("player", "card", "square"),
    "substitute": ("player", "square"),
    "move": ("player", "direction", "from_square", "to_square"),
    "use_card": ("player", "card", "source"),
    "use_charge": ("player", "slot"),
    "medaforce": ("player", "count"),
    "trash_stock": ("player", "slot", "card"),
    "redirect": ("player", "square"),
    "special": ("player", "card", "square"),
    "attack": ("player", "card", "square", "target"),
    "judge": ("player", "card", "square", "power", "armor", "result"),
    "weak_attack": ("player", "count"),
    "weak_destroy": ("player", "cards", "card", "square"),
    "unit_effect": ("player", "op", "amount", "squares"),
    "player_effect": ("player", "op", "amount"),
    "store_charge": ("player", "slot"),
    "negate": ("player",),
    "proxy_hit": ("player", "hit", "power", "proxy_life", "why"),
    **FLOW_KINDS,
}

PRIVATE: Final[dict[str, tuple[str, ...]]] = {
    "draw": ("cards",),
}

CARD_FIELDS: Final[tuple[str, ...]] = ("card", "cards")

#: ``mulligan``: the hand is shown to both seats (R9), then shuffled back into the deck in the
#: same step, so its cards may be in no seat's view before or after.
REVEALS: Final[frozenset[str]] = frozenset({"mulligan"})

DESCRIPTIONS: Final[dict[str, str]] = {
    "first_player": "`player` goes first (chosen at random; seat 0 at a vacant-seat table)",
    "draw": (
        "`player` draws `count` cards from its deck; the drawer alone sees their ids (`cards`), except"
        " for an opening hand without a Medarot, which the following `mulligan` shows to both seats"
    ),
    "mulligan": "`player`'s opening hand `cards` holds no Medarot: it is shown and shuffled back for a new 7",
    "set_master": "`player` sets a Medaroter from its hand face down as its master",
    "set_stock": "`player` sets a Medaroter from its hand face down into its stock",
    "place": "`player` places a Medarot face down on square `square`",
    "turn": "turn `turn` begins (start phase)",
    "reveal_master": "`player`'s master `card` is revealed (or placed face up) and its HP modifier `hp_mod` applies",
    "cannot_draw": "`player` cannot draw its start-phase card (an empty deck: it loses at the start check)",
    "discard": (
        "`player` discards `card` from its hand to the trash; `why` is `hand_limit`, `weak_attack` or"
        " `effect` (a DISCARD effect)"
    ),
    "heal": "`player` gains `amount` HP (a GAIN_HP effect or its Medarots in the neutral row), to `hp`",
    "pay": "`player` pays a mandatory `amount` HP for `why`, leaving `hp`",
    "cannot_pay": "`player` cannot pay the mandatory `amount` HP for `why` with `hp` HP, and loses",
    "spend": "`player` spends a voluntary `amount` HP on `why`, leaving `hp`",
    "coin_toss": "a speed tie between both seats' Medarots: the coin gives the action to `player`",
    "act": "`player`'s Medarot `card` on square `square` acts",
    "disabled": "`player`'s acting Medarot on square `square` is disabled and does nothing but pay the penalty",
    "medachange": "`player`'s acting Medarot on square `square` MedaChanges into `card` from its hand",
    "release": "`player`'s acting Medarot on square `square` releases its MedaChange `card` to the trash",
    "substitute": "`player` trashes its acting Medarot on square `square` for a face-down one from its hand",
    "move": "`player`'s acting Medarot moves in direction `direction` from `from_square` to `to_square`",
    "use_card": "`player` uses Medaroter `card` from `source` (`hand`, `stock` or `master`)",
    "use_charge": "`player` spends a NEGATE charge stored on its card in slot `slot`: the attack is negated",
    "medaforce": "`player` pays `count` of a Medaroter's cost with MedaForce reserve cards (to the trash)",
    "trash_stock": "`player`'s stock card `card` in slot `slot` goes to the trash",
    "redirect": "`player` redirects the attack to its guard on square `square`",
    "special": "`player`'s Medarot `card` on square `square` activates its special effect",
    "attack": "`player`'s Medarot `card` on square `square` attacks square `target`",
    "judge": (
        "judgement of the attack on `player`'s Medarot `card` (square `square`): power `power` against"
        " armor `armor`, `result` `destroyed` or `no_damage`"
    ),
    "weak_attack": "a weak attack: `player` discards `count` cards of its choice",
    "weak_destroy": (
        "a weak attack: `player` discards its whole hand `cards` and its Medarot `card` on square"
        " `square` is weak-destroyed"
    ),
    "unit_effect": "`player` puts the lasting effect `op` (`amount`, 0 for a status) on the Medarots at `squares`",
    "player_effect": "`player` starts the lasting player effect `op` of `amount` (TRAP or DOT)",
    "store_charge": "`player` stores a NEGATE charge on its card in slot `slot`",
    "negate": "`player` negates the current attack",
    "proxy_hit": (
        "AMALOGS proxy tables: `player`'s attack (`why` `attack`, `power` its effective power, `hit` that"
        " power ÷ the mode's divisor) or effect (`why` the payment's, `hit` its amount, `power` null) reaches"
        " the proxy at seat 1, whose life is then `proxy_life` (a base proxy loses 1 per attack)"
    ),
    "auto": (
        "the engine plays `action` for `player` at decision `decision` without asking: its only"
        " option (a late master, one usable effect of two, a cost split with an empty reserve)"
    ),
    "end": "the game is over: `winner` is the winning seat (2 a draw), `reason` says why",
    "truncated": "the game stops at a cap (`reason`) with no winner",
}
