"""The variants the cross-ruleset tests run: each environment name with one set of options.

Every list derives from the registered games (``envs.games``: each ruleset's declaration), so
a ruleset added by its one registration line joins the matrix. Test modules pick from these
lists instead of writing their own, and name their cases with ``ids``, so that every module
runs the same option sets under the same names.
"""

from __future__ import annotations

from typing import Any

from deckgym.envs import games

Variant = tuple[str, dict[str, Any]]


def _of(name: str) -> list[Variant]:
    return [(n, kw) for n, kw in games.variants() if n == name]


#: The Medarot OCG in its three modes.
OCG: list[Variant] = _of("medarot_ocg_v1")
PARTS: Variant = _of("medarot_parts_v1")[0]
MOW: Variant = _of("mow_v1")[0]
#: AMALOGS 1v1, 2v2 and 3v3.
AMALOGS: list[Variant] = _of("amalogs_v2")
#: Every variant of every registered game: the OCG modes, the parts game, Master of the World,
#: the AMALOGS team sizes (and any ruleset registered before the tests are collected).
EVERY: list[Variant] = games.variants()
#: Every variant but the longest games (``Variant.long``: AMALOGS 3v3), for tests that play many of them.
QUICK: list[Variant] = games.variants(long=False)
#: The package below ``deckgym.envs`` of each environment.
PACKAGE = {g.name: g.package.rpartition(".")[2] for g in games.games()}


def label(name: str, kw: dict[str, Any]) -> str:
    """A case's name: the environment, then its option values (``amalogs_v2-(2, 2)``)."""
    return "-".join([name, *map(str, kw.values())])


def ids(variants: list[Variant]) -> list[str]:
    """The names of the cases of ``variants``, for ``pytest.mark.parametrize``."""
    return [label(name, kw) for name, kw in variants]
