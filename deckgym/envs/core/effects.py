"""A small, loud registry of effect operations, shared by every ruleset's interpreter.

Each ruleset creates one :class:`OpRegistry` over its own target-selector vocabulary (an
enum; the shared :class:`~envs.core.targets.Target` by default) and validates every card
effect at load time with :meth:`OpRegistry.validate`. An unknown op, a missing or extra
amount, an amount out of range, a target the op does not accept or a timing it does not
allow raises ``CardDataError`` naming the file and the card; nothing fails in the middle
of a game.

An op has two halves. Its *spec* (name, amount range, targets, timings) is what card data
may say of it, declared with ``registry.declare("DEAL_DAMAGE", amount=(1, 3), targets=...)``
in a leaf module of the ruleset (``ops.py``) that both the card loader and the rules import.
Its *handler* is what it does, bound by the rules with ``@registry.handler("DEAL_DAMAGE")``;
:meth:`OpRegistry.check_handlers` then confirms that every declared op has one. So loading
cards needs only the vocabulary, never the rules. ``@registry.op(name, ...)`` declares and
binds at once, for a registry that lives beside its handlers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Generic

from deckgym.envs.core.errors import CardDataError
from deckgym.envs.core.targets import SelectorT


@dataclass(frozen=True)
class OpSpec:
    """What an op accepts: amount range (None for no amount), targets and timings; and its handler.

    An empty ``targets`` set means the op takes no target (it acts for its user). Until the
    rules bind the handler (``OpRegistry.handler``) it is a stand-in that raises.
    """

    name: str
    handler: Callable[..., Any]
    amount: tuple[int, int] | None
    step: int
    targets: frozenset[Any]
    timings: frozenset[str] | None
    lasting: bool


class OpRegistry(Generic[SelectorT]):
    """Named effect operations of one ruleset, over that ruleset's selector vocabulary.

    Args:
        ruleset: the ruleset's name, for messages.
        selectors: the enum of target selectors the ruleset's card data uses (the shared
            ``envs.core.targets.Target`` or the ruleset's own). Every target an op accepts, and every target validated,
            must be one of its members.
    """

    selectors: type[SelectorT]

    def __init__(self, ruleset: str, selectors: type[SelectorT]) -> None:
        self.ruleset = ruleset
        self.selectors = selectors
        self._ops: dict[str, OpSpec] = {}
        self._unbound: set[str] = set()  # declared ops whose handler is not bound yet

    def declare(
        self,
        name: str,
        *,
        targets: Iterable[SelectorT] = (),
        amount: tuple[int, int] | None = None,
        step: int = 1,
        timings: Iterable[str] | None = None,
        lasting: bool = False,
    ) -> None:
        """Declare the spec of op ``name``; its handler is bound later with :meth:`handler`.

        Args:
            name: the op's name in card data.
            targets: the selectors the op accepts; none for an op that takes no target.
            amount: inclusive bounds of the absolute amount, or None for an op without one.
            step: the amount must be a multiple of it.
            timings: the timings (or sources) the op may appear in; None for any.
            lasting: whether the op leaves a lasting effect.

        Raises:
            ValueError: the name is declared twice.
            TypeError: a target is not a member of the registry's selector vocabulary.
        """
        accepted = frozenset(targets)
        foreign = [t for t in accepted if not isinstance(t, self.selectors)]
        if foreign:
            raise TypeError(
                f"op {name} of {self.ruleset}: targets {foreign} are not {self.selectors.__name__} selectors"
            )
        if name in self._ops:
            raise ValueError(f"op {name} registered twice in {self.ruleset}")
        self._ops[name] = OpSpec(
            name,
            self._no_handler(name),
            amount,
            step,
            accepted,
            None if timings is None else frozenset(timings),
            lasting,
        )
        self._unbound.add(name)

    def _no_handler(self, name: str) -> Callable[..., Any]:
        """The stand-in handler of a declared op: it says which op was run before the rules bound it."""

        def missing(*_args: Any, **_kwargs: Any) -> Any:
            raise NotImplementedError(
                f"op {name} of {self.ruleset} has no handler: the ruleset's rules bind it with "
                f"OpRegistry.handler (import the rules package before running effects)"
            )

        return missing

    def handler(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Bind the handler of the declared op ``name``.

        Returns:
            A decorator that binds the handler and returns it unchanged.

        Raises:
            KeyError: ``name`` is not declared (the message lists the declared ops).
            ValueError: the op has a handler already.
        """
        if name not in self._ops:
            raise KeyError(f"op {name} is not declared in {self.ruleset} (declared: {', '.join(self._ops)})")
        if name not in self._unbound:
            raise ValueError(f"op {name} of {self.ruleset} has a handler already")

        def deco(handler: Callable[..., Any]) -> Callable[..., Any]:
            if name not in self._unbound:
                raise ValueError(f"op {name} of {self.ruleset} has a handler already")
            self._ops[name] = replace(self._ops[name], handler=handler)
            self._unbound.discard(name)
            return handler

        return deco

    def op(self, name: str, **spec: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Declare op ``name`` with ``spec`` (:meth:`declare`'s keywords) and bind its handler at once.

        Returns:
            A decorator that registers the handler and returns it unchanged.

        Raises:
            ValueError: the name is registered twice.
            TypeError: a target is not a member of the registry's selector vocabulary, or a
                keyword is not one of :meth:`declare`'s.
        """
        self.declare(name, **spec)
        return self.handler(name)

    def check_handlers(self) -> None:
        """Confirm that every declared op has a handler (the rules call it once they bound theirs).

        Raises:
            ValueError: some ops have none; the message names them.
        """
        missing = [name for name in self._ops if name in self._unbound]
        if missing:
            raise ValueError(f"ops of {self.ruleset} without a handler: {', '.join(missing)}")

    def __contains__(self, name: object) -> bool:
        return name in self._ops

    def __getitem__(self, name: str) -> OpSpec:
        return self._ops[name]

    def names(self) -> list[str]:
        """Registered op names, in registration order."""
        return list(self._ops)

    def validate(
        self, op: str, amount: int | None, target: SelectorT | None, timing: str, file: str, card: str
    ) -> OpSpec:
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

    def _check_target(self, spec: OpSpec, target: SelectorT | None, file: str, card: str) -> None:
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
