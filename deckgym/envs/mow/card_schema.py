"""The TOML record schemas of MoW card files (spec sections 4.4-4.8): the fields of each record.

One ``Field`` table per record type (card of each kind, ability, effect, static effect,
level-up entry, master skill), checked by ``envs.core.cards.check_record`` in ``card_parse``.
"""

from __future__ import annotations

from typing import Any, Final

from deckgym.envs.core.cards import Field
from deckgym.envs.mow.card_defs import (
    CARD_TIMINGS,
    DISCARD_MODES,
    DURATIONS,
    EXP_SOURCES,
    FILTER_KINDS,
    KINDS,
    MASTER,
    MONSTER,
    OPS_ORDER,
    PLAYERS,
    SCOPES,
    SELECTORS,
    SIDES,
    STATICS,
    WEAPON,
)


def _amount_ok(v: Any) -> str | None:
    if v == "OWN_LEVEL" or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10):
        return None
    return "must be an integer 0..10 or 'OWN_LEVEL'"


_EFFECT: Final = {
    "op": Field(str, choices=OPS_ORDER),
    "amount": Field((int, str), required=False, check=_amount_ok),
    "player": Field(str, required=False, choices=PLAYERS),
    "target": Field(str, required=False, choices=SELECTORS),
    "side": Field(str, required=False, choices=SIDES),
    "kinds": Field(list, required=False),
    "atk": Field(int, required=False, lo=-5, hi=5),
    "def": Field(int, required=False, lo=-5, hi=5),
    "duration": Field(str, required=False, choices=DURATIONS),
    "mode": Field(str, required=False, choices=DISCARD_MODES),
    "source": Field(str, required=False, choices=EXP_SOURCES),
    "filter": Field(str, required=False, choices=FILTER_KINDS),
    "same_name": Field(bool, required=False),
}
#: Parameters each op requires (beyond ``op``); ``same_name`` is optional for SEARCH/RECOVER.
_OP_PARAMS: Final = {
    "DAMAGE": ("target", "amount"),
    "HEAL": ("target", "amount"),
    "DRAW": ("player", "amount"),
    "DISCARD": ("player", "amount", "mode"),
    "MILL": ("player", "amount"),
    "DESTROY": ("target",),
    "BOUNCE": ("target",),
    "BUFF": ("target", "atk", "def", "duration"),
    "EXP_GAIN": ("player", "amount", "source"),
    "EXP_LOSE": ("player", "amount"),
    "SEARCH": ("filter",),
    "RECOVER": ("filter",),
    "NEGATE": (),
}
_STATIC: Final = {
    "kind": Field(str, choices=STATICS),
    "scope": Field(str, required=False, choices=SCOPES),
    "atk": Field(int, required=False, lo=-3, hi=3),
    "def": Field(int, required=False, lo=-3, hi=3),
    "n": Field(int, required=False, lo=1, hi=2),
}
_ABILITY: Final = {
    "timing": Field(str, choices=CARD_TIMINGS),
    "turn_limit": Field(int, required=False, lo=1, hi=3),
    "min_level": Field(int, required=False, lo=0, hi=5),
    "condition": Field(dict, required=False),
    "counter_filter": Field(list, required=False),
    "effects": Field(list, required=False),
    "static": Field(dict, required=False),
}
_COMMON: Final = {"id": Field(str), "name": Field(str), "kind": Field(str, choices=KINDS)}
_MASTER: Final = {
    **_COMMON,
    "max_level": Field(int, lo=3, hi=5),
    "level_table": Field(list),
    "level_up": Field(list),
    "skills": Field(list),
    "abilities": Field(list, required=False),
    "restrictions": Field(list, required=False),
}
#: the last keys of the cards that stay on the field (monsters and weapons)
_ON_FIELD: Final = {"condition": Field(dict, required=False), "abilities": Field(list, required=False)}
_MONSTER: Final = {
    **_COMMON,
    "attack": Field(int, lo=0, hi=10),
    "toughness": Field(int, lo=1, hi=12),
    "gigant": Field(bool, required=False),
    **_ON_FIELD,
}
_WEAPON: Final = {
    **_COMMON,
    "attack": Field(int, lo=0, hi=5),
    "guard": Field(int, lo=0, hi=5),
    "legendary": Field(bool, required=False),
    **_ON_FIELD,
}
_SPELL: Final = {
    **_COMMON,
    "fast": Field(bool, required=False),
    "counter": Field(bool, required=False),
    "counter_filter": Field(list, required=False),
    "ancient": Field(bool, required=False),
    "condition": Field(dict, required=False),
    "turn_limit": Field(int, required=False, lo=1, hi=3),
    "effects": Field(list),
}
_LEVEL_UP: Final = {"level": Field((int, str)), "effects": Field(list)}
_SKILL: Final = {"min_level": Field(int, lo=0, hi=5), "static": Field(dict)}
_ABILITY_LIMIT: Final = {MONSTER: 4, WEAPON: 3, MASTER: 8}
