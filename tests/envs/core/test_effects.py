"""The shared op registry: validation over each ruleset's own selector vocabulary."""

from __future__ import annotations

import enum

import pytest

from envs.core.effects import OpRegistry
from envs.core.errors import CardDataError
from envs.core.targets import Target, parse_target


class Pick(enum.Enum):
    """A ruleset's own selectors."""

    HERE = enum.auto()
    THERE = enum.auto()
    EVERYWHERE = enum.auto()


def _registry() -> OpRegistry[Pick]:
    reg = OpRegistry("toy", Pick)

    @reg.op("HIT", targets=(Pick.HERE, Pick.THERE), amount=(1, 3), timings=("NOW",))
    def hit() -> None:
        """Deal damage."""

    @reg.op("SHUFFLE")
    def shuffle() -> None:
        """Shuffle the own deck (no target)."""

    return reg


def test_default_vocabulary_is_the_shared_target():
    reg = OpRegistry("shared")
    assert reg.selectors is Target
    reg.op("ZAP", targets=(Target.ONE_ENEMY,))(lambda: None)
    assert reg.validate("ZAP", None, Target.ONE_ENEMY, "ANY", "f.toml", "C1").name == "ZAP"


def test_validation_is_exact_over_the_rulesets_selectors():
    reg = _registry()
    assert reg.validate("HIT", 2, Pick.THERE, "NOW", "f.toml", "C1").targets == {Pick.HERE, Pick.THERE}
    with pytest.raises(
        CardDataError, match=r"f.toml: card C1: op HIT cannot target EVERYWHERE \(allowed: HERE, THERE\)"
    ):
        reg.validate("HIT", 2, Pick.EVERYWHERE, "NOW", "f.toml", "C1")
    with pytest.raises(CardDataError, match="op HIT needs a target"):
        reg.validate("HIT", 2, None, "NOW", "f.toml", "C1")
    reg.validate("SHUFFLE", None, None, "NOW", "f.toml", "C1")
    with pytest.raises(CardDataError, match="op SHUFFLE takes no target, got HERE"):
        reg.validate("SHUFFLE", None, Pick.HERE, "NOW", "f.toml", "C1")
    with pytest.raises(CardDataError, match="out of range"):
        reg.validate("HIT", 4, Pick.HERE, "NOW", "f.toml", "C1")
    with pytest.raises(CardDataError, match="cannot have timing LATER"):
        reg.validate("HIT", 1, Pick.HERE, "LATER", "f.toml", "C1")


def test_selectors_of_another_vocabulary_are_refused():
    reg = _registry()
    with pytest.raises(TypeError, match="not Pick selectors"):
        reg.op("BAD", targets=(Target.SELF,))
    with pytest.raises(TypeError, match="not a Pick selector"):
        reg.validate("HIT", 1, Target.SELF, "NOW", "f.toml", "C1")  # type: ignore[arg-type]


def test_parse_target_reads_any_vocabulary():
    assert parse_target("ONE_ALLY") is Target.ONE_ALLY
    assert parse_target("THERE", Pick) is Pick.THERE
    with pytest.raises(KeyError, match="known: HERE, THERE, EVERYWHERE"):
        parse_target("NOWHERE", Pick)
