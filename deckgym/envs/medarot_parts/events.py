"""The structured events of the Medarot parts game (``envs.core.events``): kinds and their fields.

``KINDS`` maps every kind the rules record to its public fields, in the order they are
emitted; ``PRIVATE`` the fields a kind may hold for one seat only (``only``); ``CARD_FIELDS``
the fields that hold card ids (the ``"id"`` of a card in ``envs.medarot_parts.view``);
``REVEALS`` the kinds whose public cards may be out of every seat's view (none here);
``DESCRIPTIONS`` one line per kind for the docs.

Common fields: ``player`` is a seat (0/1); ``medarot`` a medarot index (0/1) on the field of
the seat the description names; ``slot`` a part slot name (``HEAD``, ``RIGHT_ARM``,
``LEFT_ARM``, ``LEGS``); ``amount`` a number of damage or counters.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.core.events import FLOW_KINDS

KINDS: Final[dict[str, tuple[str, ...]]] = {
    "setup": ("player",),
    "draw": ("player", "count"),
    "turn": ("turn", "player"),
    "action_medarot": ("round", "player", "medarot", "mobility"),
    "energy": ("player", "card"),
    "pass": ("player",),
    "use_part": ("player", "card", "medarot", "slot"),
    "repair": ("player", "medarot", "slot", "amount"),
    "exchange": ("player", "medarot", "slot", "card", "cost", "assets"),
    "play": ("player", "card"),
    "pay": ("player", "source", "paid", "needed"),
    "untap_energy": ("player", "energy"),
    "modify": ("player", "op", "amount", "target", "medarot", "slot"),
    "damage_change": ("player", "change", "amount"),
    "no_evade": ("player",),
    "attack": ("player", "card", "medarot", "slot"),
    "attack_damage": ("player", "amount"),
    "defend": ("player", "medarot"),
    "designate": ("player", "medarot"),
    "evade": ("player", "medarot", "card"),
    "protect": ("player", "medarot", "slot"),
    "no_response": ("player", "medarot"),
    "reduce": ("player", "paid", "charge", "reduction", "amount"),
    "block_shock": ("player", "medarot", "slot", "shocked", "counters", "armor", "amount"),
    "damage": ("player", "medarot", "slot", "amount", "counters", "armor"),
    "destroy": ("player", "medarot", "slot"),
    "stop": ("player", "medarot"),
    "attach_effect": ("player", "card", "medarot", "slot"),
    "battle_end": ("player",),
    "proxy_hit": ("player", "medarot", "slot", "proxy", "hit", "life"),
    "discard": ("player", "card"),
    **FLOW_KINDS,
}

PRIVATE: Final[dict[str, tuple[str, ...]]] = {
    "draw": ("cards",),
}

CARD_FIELDS: Final[tuple[str, ...]] = ("card", "cards")

#: No public reveals: every card an event names publicly is on the field, in a stock, a play
#: area or a trash (open to both seats) before or after its step.
REVEALS: Final[frozenset[str]] = frozenset()

DESCRIPTIONS: Final[dict[str, str]] = {
    "setup": "setup is done; `player` has priority on odd turns",
    "draw": "`player` draws `count` cards from its deck; the drawer alone sees their ids (`cards`)",
    "turn": "turn `turn` begins; `player` has priority",
    "action_medarot": "in round `round`, medarot `medarot` (mobility `mobility`) is `player`'s action medarot",
    "energy": "`player` puts energy card `card` from its hand into its energy stock",
    "pass": "`player` passes its turn-to-act",
    "use_part": "`player` uses the repair or support part `card` in slot `slot` of its medarot `medarot`",
    "repair": "`player` removes `amount` counters from the part in slot `slot` of its medarot `medarot`",
    "exchange": (
        "`player` exchanges the part in slot `slot` of its medarot `medarot` for `card` from its hand,"
        " paying `cost` G (`assets` G left)"
    ),
    "play": "`player` plays medaroter card `card` from its hand",
    "pay": "`player` taps one energy card of kind `source` (or its medal, `MEDAL`): `paid` of `needed` EP paid",
    "untap_energy": "`player` untaps one of its energy cards of kind `energy`",
    "modify": (
        "`player` applies modifier `op` (`POWER` or `CHARGE`) by `amount` to `target`; `medarot` and"
        " `slot` name the chosen medarot and opposing slot, or are null"
    ),
    "damage_change": "`player` changes the battle's damage by `change`, to `amount`",
    "no_evade": "`player` forbids evading in the current battle",
    "attack": "`player` attacks with part `card` in slot `slot` of its medarot `medarot`",
    "attack_damage": "the attack of `player` has damage `amount` (0 ends the battle)",
    "defend": "`player`'s action medarot `medarot` is the defending medarot",
    "designate": "the attacker `player` designates medarot `medarot` of the other seat to defend",
    "evade": "`player` evades with evade card `card` (trashed) and its medarot `medarot`: the damage is 0",
    "protect": "`player` protects its medarot `medarot` with the part in slot `slot`",
    "no_response": "`player` does not respond: its medarot `medarot` takes the damage",
    "reduce": "`player` paid `paid` of the protect charge `charge`: the damage is reduced by `reduction` to `amount`",
    "block_shock": (
        "block shock on `player`'s protect part (medarot `medarot`, slot `slot`): `shocked` tells whether a"
        " counter was put on it; it holds `counters` of armor `armor`; the damage is now `amount`"
    ),
    "damage": (
        "`player`'s medarot `medarot` takes `amount` damage on the part in slot `slot`, which then holds"
        " `counters` counters of armor `armor`"
    ),
    "destroy": "the part in slot `slot` of `player`'s medarot `medarot` is destroyed",
    "stop": "`player`'s medarot `medarot` is stopped (its head is destroyed)",
    "attach_effect": "`player` attaches effect card `card` to its attack part (medarot `medarot`, slot `slot`)",
    "battle_end": "the battle of attacker `player` is over",
    "proxy_hit": (
        "an AMALOGS table only: the attack part in slot `slot` of `player`'s medarot `medarot` hits the"
        " proxy at seat 1 (`proxy` guest: the defender's stand-in, or base: the enemy base) for `hit`"
        " damage; `life` is its life P after it (a guest loses the hit, a base 1; amalogs D37, D40)"
    ),
    "discard": "`player` discards `card` from its hand in the end phase",
    "auto": (
        "the engine plays `action` for `player` at decision `decision`: its only legal option, or a"
        " PASS of the energy step without an energy card in hand"
    ),
    "end": "the game is over: `winner` is the winning seat (2 a draw), `reason` says why",
    "truncated": "the game stops at a cap (`reason`) and is a draw",
}
