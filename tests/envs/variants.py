"""The variants the cross-ruleset tests run: each environment name with one set of options.

Test modules pick from these lists instead of writing their own, and name their cases with
``ids``, so that every module runs the same option sets under the same names.
"""

from __future__ import annotations

from typing import Any

Variant = tuple[str, dict[str, Any]]

#: The Medarot OCG in its three modes.
OCG: list[Variant] = [("medarot_ocg_v1", {"mode": mode}) for mode in ("beginner", "normal", "advance")]
PARTS: Variant = ("medarot_parts_v1", {})
MOW: Variant = ("mow_v1", {})
#: AMALOGS 1v1, 2v2 and 3v3.
AMALOGS: list[Variant] = [("amalogs_v2", {"team_sizes": (n, n)}) for n in (1, 2, 3)]
#: Every variant: the OCG modes, the parts game, Master of the World and the AMALOGS team sizes.
EVERY: list[Variant] = [*OCG, PARTS, MOW, *AMALOGS]
#: Every variant but AMALOGS 3v3, the longest games (for tests that play many of them).
QUICK: list[Variant] = EVERY[:-1]
#: The package below ``deckgym.envs`` of each environment.
PACKAGE = {
    "medarot_ocg_v1": "medarot_ocg",
    "medarot_parts_v1": "medarot_parts",
    "mow_v1": "mow",
    "amalogs_v2": "amalogs",
}


def label(name: str, kw: dict[str, Any]) -> str:
    """A case's name: the environment, then its option values (``amalogs_v2-(2, 2)``)."""
    return "-".join([name, *map(str, kw.values())])


def ids(variants: list[Variant]) -> list[str]:
    """The names of the cases of ``variants``, for ``pytest.mark.parametrize``."""
    return [label(name, kw) for name, kw in variants]
