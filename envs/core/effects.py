"""A small, loud registry of effect operations, shared by every ruleset's interpreter.

Each ruleset creates one :class:`OpRegistry`, registers its ops with
``@registry.op("DEAL_DAMAGE", amount=(1, 3), targets=...)`` and validates every card
effect at load time with :meth:`OpRegistry.validate`. An unknown op, a missing or
extra amount, an amount out of range, or a target the op does not accept raises
``CardDataError`` naming the file and the card; nothing fails in the middle of a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from envs.core.errors import CardDataError
from envs.core.targets import Target


@dataclass(frozen=True, slots=True)
class OpSpec:
    """What an op accepts: amount range (None for no amount), targets and timings."""

    name: str
    handler: Callable[..., Any]
    amount: tuple[int, int] | None
    step: int
    targets: frozenset[Target]
    timings: frozenset[str] | None
    lasting: bool


class OpRegistry:
    """Named effect operations of one ruleset."""

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self._ops: dict[str, OpSpec] = {}

    def op(
        self,
        name: str,
        *,
        targets: Iterable[Target],
        amount: tuple[int, int] | None = None,
        step: int = 1,
        timings: Iterable[str] | None = None,
        lasting: bool = False,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register ``handler`` under ``name``. ``amount`` bounds apply to the absolute value."""

        def deco(handler: Callable[..., Any]) -> Callable[..., Any]:
            if name in self._ops:
                raise ValueError(f"op {name} registered twice in {self.ruleset}")
            self._ops[name] = OpSpec(
                name,
                handler,
                amount,
                step,
                frozenset(targets),
                None if timings is None else frozenset(timings),
                lasting,
            )
            return handler

        return deco

    def __contains__(self, name: object) -> bool:
        return name in self._ops

    def __getitem__(self, name: str) -> OpSpec:
        return self._ops[name]

    def names(self) -> list[str]:
        """Registered op names, in registration order."""
        return list(self._ops)

    def validate(
        self, op: str, amount: int | None, target: Target, timing: str, file: str, card: str
    ) -> OpSpec:
        """Check one effect record against its op's spec; return the spec."""
        spec = self._ops.get(op)
        if spec is None:
            raise CardDataError(file, card, f"unknown op {op!r} (known: {', '.join(self._ops)})")
        if spec.amount is None:
            if amount is not None:
                raise CardDataError(file, card, f"op {op} takes no amount, got {amount!r}")
        else:
            lo, hi = spec.amount
            if amount is None:
                raise CardDataError(file, card, f"op {op} needs an amount in {lo}..{hi}")
            if not (lo <= abs(amount) <= hi) or amount % spec.step:
                raise CardDataError(
                    file,
                    card,
                    f"op {op} amount {amount} out of range (|amount| in {lo}..{hi}, step {spec.step})",
                )
        if target not in spec.targets:
            raise CardDataError(
                file,
                card,
                f"op {op} cannot target {target.name} (allowed: {', '.join(t.name for t in sorted(spec.targets))})",
            )
        if spec.timings is not None and timing not in spec.timings:
            raise CardDataError(
                file,
                card,
                f"op {op} cannot have timing {timing} (allowed: {', '.join(sorted(spec.timings))})",
            )
        return spec
