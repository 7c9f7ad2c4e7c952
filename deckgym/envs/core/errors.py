"""Errors raised by engines, card loaders and environments."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class DeckgymError(Exception):
    """Base class of every error deckgym raises on purpose."""


class IllegalActionError(DeckgymError, ValueError):
    """An action that is not legal at the current decision point.

    The message names the action, the decision point and the legal options. The state
    that raised it is left exactly as it was.
    """

    def __init__(self, action: object, decision: str, legal: Iterable[object]) -> None:
        self.action = action
        self.decision = decision
        self.legal = list(legal)
        shown = ", ".join(str(a) for a in self.legal[:40])
        more = f" (+{len(self.legal) - 40} more)" if len(self.legal) > 40 else ""
        super().__init__(
            f"illegal action {action} at decision point {decision}; legal options: [{shown}]{more}"
        )


class IllegalActionWarning(UserWarning):
    """An illegal action ended a game (``illegal_action="penalize"``, the envs' default).

    Filter it with ``warnings.simplefilter("ignore", IllegalActionWarning)`` or make it an
    error with ``"error"``; ``illegal_action="raise"`` raises ``IllegalActionError`` instead.
    """


class CardDataError(DeckgymError, ValueError):
    """A card file that breaks the card schema: names the file, the card and the rule."""

    def __init__(self, file: str, card: str | None, detail: str) -> None:
        self.file = file
        self.card = card
        self.detail = detail
        where = f"{file}: card {card}" if card else file
        super().__init__(f"{where}: {detail}")


class DeckError(DeckgymError, ValueError):
    """A deck that breaks the deck rules: names the deck, the card and the rule.

    The message is the first problem; ``problems`` lists every problem the deck check found
    (this one first), each a ``DeckError`` of its own.
    """

    def __init__(self, deck: str, card: str | None, detail: str, more: Sequence[DeckError] = ()) -> None:
        self.deck = deck
        self.card = card
        self.detail = detail
        self.more = list(more)
        where = f"deck {deck}: card {card}" if card else f"deck {deck}"
        super().__init__(f"{where}: {detail}")

    @property
    def problems(self) -> list[DeckError]:
        """Every problem found, this one first."""
        return [self, *self.more]


def raise_deck_problems(problems: Sequence[DeckError]) -> None:
    """Raise the first of ``problems`` carrying the others (``DeckError.problems``); nothing if none."""
    if problems:
        first = problems[0]
        raise DeckError(first.deck, first.card, first.detail, problems[1:])


class StateError(DeckgymError, ValueError):
    """A state that cannot be built or loaded (bad dict, game already over, bad option)."""


class PositionError(StateError):
    """A position the builder refuses: names the zone or square and the rule it breaks.

    Raised by each ruleset's ``position`` builder (``envs.<ruleset>.position``), e.g. for more
    copies of a card than the deck rules allow, a square that is already occupied, or a seat
    asked to decide that cannot.
    """
