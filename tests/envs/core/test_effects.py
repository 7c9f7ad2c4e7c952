"""The shared op registry: validation over each ruleset's own selector vocabulary."""

from __future__ import annotations

import enum

import pytest

from deckgym.envs.core.effects import OpRegistry
from deckgym.envs.core.errors import CardDataError
from deckgym.envs.core.targets import Target, parse_target


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


def test_the_shared_target_vocabulary_validates_shared_targets():
    reg = OpRegistry("shared", Target)
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


def test_every_validation_error_names_the_file_the_card_and_the_whole_rule():
    """The exact messages: a card designer reads them, so a dropped card id or range is a bug."""
    reg = _registry()
    cases = [
        (("ZAP", 1, Pick.HERE, "NOW"), "f.toml: card C7: unknown op 'ZAP' (known: HIT, SHUFFLE)"),
        (("SHUFFLE", 2, None, "NOW"), "f.toml: card C7: op SHUFFLE takes no amount, got 2"),
        (("HIT", None, Pick.HERE, "NOW"), "f.toml: card C7: op HIT needs an amount in 1..3"),
        (
            ("HIT", 0, Pick.HERE, "NOW"),
            "f.toml: card C7: op HIT amount 0 out of range (|amount| in 1..3, step 1)",
        ),
        (
            ("HIT", -4, Pick.HERE, "NOW"),
            "f.toml: card C7: op HIT amount -4 out of range (|amount| in 1..3, step 1)",
        ),
        (("HIT", 2, None, "NOW"), "f.toml: card C7: op HIT needs a target (allowed: HERE, THERE)"),
        (("HIT", 2, Pick.HERE, "LATER"), "f.toml: card C7: op HIT cannot have timing LATER (allowed: NOW)"),
    ]
    for (op, amount, target, timing), message in cases:
        with pytest.raises(CardDataError) as err:
            reg.validate(op, amount, target, timing, "f.toml", "C7")
        assert str(err.value) == message
        assert (err.value.file, err.value.card) == ("f.toml", "C7")
    assert reg.validate("HIT", -3, Pick.HERE, "NOW", "f.toml", "C7").amount == (1, 3)  # |amount| counts
    stepped = OpRegistry("toy", Pick)
    stepped.op("GROW", targets=(Pick.HERE,), amount=(10, 30), step=10)(lambda: None)
    assert stepped.validate("GROW", 20, Pick.HERE, "ANY", "f.toml", "C7").step == 10
    with pytest.raises(CardDataError, match=r"amount 15 out of range \(\|amount\| in 10..30, step 10\)"):
        stepped.validate("GROW", 15, Pick.HERE, "ANY", "f.toml", "C7")


def test_a_declared_op_validates_before_its_handler_is_bound_and_runs_after():
    """The vocabulary (``ops.py``) and the handlers (``rules/effects.py``) live apart."""
    reg = OpRegistry("toy", Pick)
    reg.declare("HIT", targets=(Pick.HERE,), amount=(1, 3))
    reg.declare("SHUFFLE")
    assert reg.validate("HIT", 2, Pick.HERE, "NOW", "f.toml", "C1").name == "HIT"
    assert reg.names() == ["HIT", "SHUFFLE"]
    with pytest.raises(NotImplementedError, match="op HIT of toy has no handler"):
        reg["HIT"].handler(3)
    with pytest.raises(ValueError, match="ops of toy without a handler: HIT, SHUFFLE"):
        reg.check_handlers()

    @reg.handler("HIT")
    def hit(n: int) -> int:
        return 2 * n

    assert reg["HIT"].handler(3) == 6
    assert reg["HIT"].amount == (1, 3)  # binding keeps the spec
    with pytest.raises(ValueError, match="ops of toy without a handler: SHUFFLE$"):
        reg.check_handlers()
    reg.handler("SHUFFLE")(lambda: None)
    reg.check_handlers()


def test_binding_an_undeclared_op_or_a_second_handler_is_refused():
    reg = OpRegistry("toy", Pick)
    reg.declare("HIT", targets=(Pick.HERE,), amount=(1, 3))
    with pytest.raises(KeyError, match=r"op MISS is not declared in toy \(declared: HIT\)"):
        reg.handler("MISS")
    reg.handler("HIT")(lambda: None)
    with pytest.raises(ValueError, match="op HIT of toy has a handler already"):
        reg.handler("HIT")
    with pytest.raises(ValueError, match="op HIT registered twice in toy"):
        reg.declare("HIT")
    with pytest.raises(ValueError, match="op HIT registered twice in toy"):
        reg.op("HIT")
