"""Rules configuration: one frozen ``RulesConfig`` with named presets (spec section 3.7)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from deckgym.envs.core.cards import package_dir, read_toml
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.options import check_int, check_known, check_table_seat, check_types

MODES: Final[tuple[str, ...]] = ("beginner", "normal", "advance")
_VARIANTS: Final = package_dir(__name__) / "variants.toml"


@dataclass(frozen=True)
class RulesConfig:
    """Every rule switch that differs between modes, plus the caps of the game.

    Attributes:
        mode: preset name the config came from.
        deck_size: exact deck size (R1, R2: 15 beginner, 30 normal/advance).
        start_hp: starting HP in medals (D2, R3).
        master: master card with HP modifier and once-per-turn effects (R11, R15-R17).
        arrow_movement: move by printed arrows; otherwise all 8 directions (R29, D4).
        substitution: substitution instead of acting (R46, D19).
        weak_attack: power < armor makes the defender discard (R41, D29).
        medaforce: destroyed Medarots go to the MedaForce reserve, which pays costs (R54, R55).
        medachange: MedaChange cards, release and power forms (R47-R53).
        medaroter_costs: Medaroter costs are paid (D3: beginner ignores them).
        max_turns: truncation after this many turns (L5, D43).
        max_steps: truncation after this many decisions (L5).
        hand_cap: hand slots of the action encoding (section 6).
        vacant_seat: seat 1 is an empty seat (a core-game table of the AMALOGS meta-game with
            no opponent): it holds no cards, never decides, pays nothing and meets no loss
            condition; only seat 0 plays the opening.
        proxy: what a vacant seat 1 stands for (AMALOGS D37, D40; ``envs.core.proxy``): 0 nothing,
            1 the defender's stand-in (a guest proxy), 2 the enemy base (a base proxy). A proxy
            is a life counter P (seat 1's HP, ``GameState.hp[1]``) that the host's Medarots may
            attack on the empty squares of seat 1's row; it needs ``vacant_seat``.
    """

    mode: str = "beginner"
    deck_size: int = 15
    start_hp: int = 10
    master: bool = False
    arrow_movement: bool = False
    substitution: bool = False
    weak_attack: bool = False
    medaforce: bool = False
    medachange: bool = False
    medaroter_costs: bool = False
    max_turns: int = 60
    max_steps: int = 5000
    hand_cap: int = 16
    vacant_seat: bool = False
    proxy: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The config as a plain dict."""
        return dataclasses.asdict(self)


def make_config(mode: str = "beginner", **overrides: Any) -> RulesConfig:
    """Resolve a named preset plus overrides into one ``RulesConfig``; unknown keys are errors."""
    presets = read_toml(_VARIANTS)
    if mode not in presets:
        raise StateError(f"unknown mode {mode!r}; choose one of {', '.join(presets)}")
    check_known(RulesConfig, overrides)
    values = dict(presets[mode])
    values.update(overrides)
    check_types(RulesConfig, values)
    for key in ("max_turns", "max_steps", "deck_size", "start_hp", "hand_cap"):
        check_int(key, values.get(key, 1), 1)
    check_table_seat(values)
    return RulesConfig(**values)
