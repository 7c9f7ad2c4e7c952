"""A small, loud registry of effect operations, shared by every ruleset's interpreter.

Each ruleset creates one :class:`OpRegistry` over its own target-selector vocabulary (an
enum; the shared :class:`~envs.core.targets.Target` by default), registers its ops with
``@registry.op("DEAL_DAMAGE", amount=(1, 3), targets=...)`` and validates every card
effect at load time with :meth:`OpRegistry.validate`. An unknown op, a missing or extra
amount, an amount out of range, a target the op does not accept or a timing it does not
allow raises ``CardDataError`` naming the file and the card; nothing fails in the middle
of a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, overload

from deckgym.envs.core.errors import CardDataError
from deckgym.envs.core.targets import SelectorT, Target


@dataclass(frozen=True, slots=True)
class OpSpec(Generic[SelectorT]):
    """What an op accepts: amount range (None for no amount), targets and timings.

    An empty ``targets`` set means the op takes no target (it acts for its user).
    """

    name: str
    handler: Callable[..., Any]
    amount: tuple[int, int] | None
    step: int
    targets: frozenset[SelectorT]
    timings: frozenset[str] | None
    lasting: bool


class OpRegistry(Generic[SelectorT]):
    """Named effect operations of one ruleset, over that ruleset's selector vocabulary.

    Args:
        ruleset: the ruleset's name, for messages.
        selectors: the enum of target selectors the ruleset's card data uses (default: the
            shared ``Target``). Every target an op accepts, and every target validated,
            must be one of its members.
    """

    selectors: type[SelectorT]

    @overload
    def __init__(self: OpRegistry[Target], ruleset: str) -> None: ...

    @overload
    def __init__(self, ruleset: str, selectors: type[SelectorT]) -> None: ...

    def __init__(self, ruleset: str, selectors: type[Any] = Target) -> None:
        self.ruleset = ruleset
        self.selectors = selectors
        self._ops: dict[str, OpSpec[SelectorT]] = {}

    def op(
        self,
        name: str,
        *,
        targets: Iterable[SelectorT] = (),
        amount: tuple[int, int] | None = None,
        step: int = 1,
        timings: Iterable[str] | None = None,
        lasting: bool = False,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register a handler under ``name``.

        Args:
            name: the op's name in card data.
            targets: the selectors the op accepts; none for an op that takes no target.
            amount: inclusive bounds of the absolute amount, or None for an op without one.
            step: the amount must be a multiple of it.
            timings: the timings (or sources) the op may appear in; None for any.
            lasting: whether the op leaves a lasting effect.

        Returns:
            A decorator that registers the handler and returns it unchanged.

        Raises:
            ValueError: the name is registered twice.
            TypeError: a target is not a member of the registry's selector vocabulary.
        """
        accepted = frozenset(targets)
        foreign = [t for t in accepted if not isinstance(t, self.selectors)]
        if foreign:
            raise TypeError(
                f"op {name} of {self.ruleset}: targets {foreign} are not {self.selectors.__name__} selectors"
            )

        def deco(handler: Callable[..., Any]) -> Callable[..., Any]:
            if name in self._ops:
                raise ValueError(f"op {name} registered twice in {self.ruleset}")
            self._ops[name] = OpSpec(
                name,
                handler,
                amount,
                step,
                accepted,
                None if timings is None else frozenset(timings),
                lasting,
            )
            return handler

        return deco

    def __contains__(self, name: object) -> bool:
        return name in self._ops

    def __getitem__(self, name: str) -> OpSpec[SelectorT]:
        return self._ops[name]

    def names(self) -> list[str]:
        """Registered op names, in registration order."""
        return list(self._ops)

    def validate(
        self, op: str, amount: int | None, target: SelectorT | None, timing: str, file: str, card: str
    ) -> OpSpec[SelectorT]:
        """Check one effect record against its op's spec.

        Args:
            op: the op's name.
            amount: the record's amount, or None where it has none.
            target: the record's selector, or None for an op that takes no target.
            timing: the timing (or source) the effect appears in.
            file: the card file, for the error.
            card: the card id, for the error.

        Returns:
            The op's spec.

        Raises:
            CardDataError: the record breaks the op's spec; the message names the rule.
            TypeError: ``target`` is not a member of the registry's selector vocabulary.
        """
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
        self._check_target(spec, target, file, card)
        if spec.timings is not None and timing not in spec.timings:
            raise CardDataError(
                file,
                card,
                f"op {op} cannot have timing {timing} (allowed: {', '.join(sorted(spec.timings))})",
            )
        return spec

    def _check_target(self, spec: OpSpec[SelectorT], target: SelectorT | None, file: str, card: str) -> None:
        """The target rule of :meth:`validate`: a member the op accepts, or none for a targetless op."""
        if target is not None and not isinstance(target, self.selectors):
            raise TypeError(f"{target!r} is not a {self.selectors.__name__} selector of {self.ruleset}")
        allowed = [t.name for t in self.selectors if t in spec.targets]
        if target is None:
            if allowed:
                raise CardDataError(
                    file, card, f"op {spec.name} needs a target (allowed: {', '.join(allowed)})"
                )
        elif not allowed:
            raise CardDataError(file, card, f"op {spec.name} takes no target, got {target.name}")
        elif target not in spec.targets:
            raise CardDataError(
                file, card, f"op {spec.name} cannot target {target.name} (allowed: {', '.join(allowed)})"
            )
