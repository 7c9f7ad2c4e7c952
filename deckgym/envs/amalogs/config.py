"""Match configuration of AMALOGS: team sizes, ruleset pools, decks and caps (D2, D15, D28, D32, D34).

``make_config`` turns the env's options into one frozen ``AmalogsConfig`` and raises a clear
``ValueError`` for a bad option (team size, unknown or unimplemented ruleset, bad deck).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, NamedTuple


class RulesetInfo(NamedTuple):
    """A core ruleset slot (D15): its name, weight WE, duel range and the three constants of D43.

    ``life_scale``: a side's nominal life L0 is ``life_scale`` x the core life it starts with
    (rounded half up, at least 1): the defence. ``unit``: the stand-in unit U of a host of this
    game, the proxy life a defender's L0 is worth (P = x · U / L0): the attack on defenders.
    ``base``: the successful attacks on a base proxy that cost that base 1 life (at least 1):
    the attack on bases. Each is an exact fraction.
    """

    name: str
    we: int
    range: int
    life_scale: Fraction
    unit: Fraction
    base: Fraction


#: D15 with D43's constants: ruleset slots 0..7 (5-7 reserved). Measured by
#: ``scripts/amalogs_balance.py`` (docs/rules/amalogs.md D43 gives the runs).
RULESETS: Final[dict[int, RulesetInfo]] = {
    0: RulesetInfo("medarot_ocg_beginner", 1, 2, Fraction(3, 2), Fraction(52), Fraction(5, 2)),
    1: RulesetInfo("medarot_ocg_advance", 2, 2, Fraction(23, 20), Fraction(91, 2), Fraction(29, 21)),
    2: RulesetInfo("medarot_parts", 2, 2, Fraction(6, 5), Fraction(34), Fraction(1)),
    3: RulesetInfo("master_of_the_world", 3, 1, Fraction(17, 20), Fraction(52), Fraction(25, 16)),
    4: RulesetInfo("medarot_ocg_normal", 2, 2, Fraction(6, 5), Fraction(77), Fraction(29, 15)),
}
SLOT_OF: Final = {info.name: slot for slot, info in RULESETS.items()}
NUM_SLOTS: Final = 8
START_LIFE: Final = 18


@dataclass(frozen=True)
class AmalogsConfig:
    """Everything that is fixed for one match.

    Attributes:
        team_sizes: players of team A and team B (1..3 each, D2).
        pools: per player index, the ruleset slots it may choose (D28).
        decks: per player index, ``(slot, card ids)`` pairs, one per slot of its pool.
        max_team_turns: truncation after this many team turns (D34).
        duel_cap: core decisions per table or solo turn before auto-completion (D32).
        start_life: initial base life (R1); a base wins at twice this (R23).
    """

    team_sizes: tuple[int, int] = (2, 2)
    pools: tuple[tuple[int, ...], ...] = ()
    decks: tuple[tuple[tuple[int, tuple[str, ...]], ...], ...] = ()
    max_team_turns: int = 60
    duel_cap: int = 300
    start_life: int = START_LIFE

    @property
    def num_players(self) -> int:
        """Total number of players."""
        return self.team_sizes[0] + self.team_sizes[1]

    def team_of(self, player: int) -> int:
        """0 for team A, 1 for team B (D2: team A's players come first)."""
        return 0 if player < self.team_sizes[0] else 1

    def slot_of(self, player: int) -> int:
        """The player's slot inside its team."""
        return player if player < self.team_sizes[0] else player - self.team_sizes[0]

    def deck(self, player: int, ruleset: int) -> list[str]:
        """The player's deck for ``ruleset``."""
        return list(dict(self.decks[player])[ruleset])

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {
            "team_sizes": list(self.team_sizes),
            "pools": [list(p) for p in self.pools],
            "decks": [[[slot, list(cards)] for slot, cards in d] for d in self.decks],
            "max_team_turns": self.max_team_turns,
            "duel_cap": self.duel_cap,
            "start_life": self.start_life,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> AmalogsConfig:
        """Inverse of ``to_dict``."""
        return cls(
            tuple(d["team_sizes"]),
            tuple(tuple(p) for p in d["pools"]),
            tuple(tuple((slot, tuple(cards)) for slot, cards in x) for x in d["decks"]),
            d["max_team_turns"],
            d["duel_cap"],
            d["start_life"],
        )


def _slot(value: Any, implemented: Sequence[int]) -> int:
    """A ruleset slot from a slot number or a ruleset name."""
    slot = SLOT_OF.get(value, value) if isinstance(value, str) else value
    if not isinstance(slot, int) or isinstance(slot, bool) or slot not in RULESETS:
        known = ", ".join(f"{s} ({i.name})" for s, i in RULESETS.items())
        raise ValueError(f"unknown ruleset {value!r}; known slots: {known}")
    if slot not in implemented:
        names = ", ".join(RULESETS[s].name for s in implemented)
        raise ValueError(f"ruleset {RULESETS[slot].name!r} is not available in AMALOGS; available: {names}")
    return slot


def _per_player(value: Any, n: int, what: str, entry: type | tuple[type, ...]) -> list[Any]:
    """One entry per player: a list of ``n`` entries of type ``entry`` (or None), else one shared entry."""
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, entry) or v is None for v in value):
        if len(value) != n:
            raise ValueError(
                f"{what} lists {len(value)} entries for {n} players; give one per player or one for all"
            )
        return list(value)
    return [value] * n


def make_config(
    team_sizes: Sequence[int] = (2, 2),
    pools: Any = None,
    decks: Any = None,
    max_team_turns: int = 60,
    duel_cap: int = 300,
    *,
    implemented: Sequence[int],
    default_deck: Any,
    resolve_deck: Any,
) -> AmalogsConfig:
    """Validate the options and build the config.

    Args:
        team_sizes: ``(A, B)`` with 1..3 players each.
        pools: None (every available ruleset), one list of rulesets (names or slots) for every
            player, or one list per player.
        decks: None (each ruleset's default deck), one ``{ruleset: deck}`` mapping for every
            player, or one mapping (or None) per player.
        max_team_turns: the team-turn cap (D34), at least 1.
        duel_cap: the core-decision cap of a table (D32), at least 1.
        implemented: the ruleset slots with a core adapter.
        default_deck: ``slot -> card ids``.
        resolve_deck: ``(slot, value, label) -> card ids``, raising on a bad deck.
    """
    if (
        not isinstance(team_sizes, (list, tuple))
        or len(team_sizes) != 2
        or not all(isinstance(k, int) and not isinstance(k, bool) and 1 <= k <= 3 for k in team_sizes)
    ):
        raise ValueError(
            f"team_sizes must be two integers in 1..3 (players of team A and B), got {team_sizes!r}"
        )
    n = team_sizes[0] + team_sizes[1]
    for key, value in (("max_team_turns", max_team_turns), ("duel_cap", duel_cap)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{key} must be a positive integer, got {value!r}")
    raw_pools = _per_player(list(implemented) if pools is None else pools, n, "pools", (list, tuple))
    slots: list[tuple[int, ...]] = []
    for i, pool in enumerate(raw_pools):
        if not isinstance(pool, (list, tuple)) or not pool:
            raise ValueError(f"pool of player {i} must be a non-empty list of rulesets, got {pool!r}")
        chosen = tuple(dict.fromkeys(_slot(v, implemented) for v in pool))
        slots.append(chosen)
    raw_decks = _per_player({} if decks is None else decks, n, "decks", Mapping)
    all_decks = []
    for i, given in enumerate(raw_decks):
        given = {} if given is None else given
        if not isinstance(given, Mapping):
            raise ValueError(f"decks of player {i} must map rulesets to decks, got {given!r}")  # noqa: TRY004 (an option error)
        by_slot = {_slot(k, implemented): v for k, v in given.items()}
        extra = sorted(set(by_slot) - set(slots[i]))
        if extra:
            raise ValueError(f"player {i} has a deck for {RULESETS[extra[0]].name}, which is not in its pool")
        all_decks.append(
            tuple(
                (
                    slot,
                    tuple(
                        resolve_deck(slot, by_slot[slot], f"player {i} {RULESETS[slot].name}")
                        if slot in by_slot
                        else default_deck(slot)
                    ),
                )
                for slot in slots[i]
            )
        )
    return AmalogsConfig(
        (team_sizes[0], team_sizes[1]), tuple(slots), tuple(all_decks), max_team_turns, duel_cap
    )
