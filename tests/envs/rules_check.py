"""What the tests of the rulesets' rules checks (``tests/envs/*/test_rules_check.py``) share."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as hs

from deckgym.envs.core.declare import plan_of
from deckgym.envs.core.errors import StateError
from tests.envs.nonsense import leaf_swaps, scramble


def played(
    st: Any, choose: Callable[[list[Any]], Any], every: int = 1, check: Callable[[Any], None] | None = None
) -> list[Any]:
    """Play ``st`` to its end with ``choose(legal)``, running ``check`` on every position.

    Returns clones of every ``every``-th position and of the last one.
    """
    seen = []
    step = 0
    while True:
        if check is not None:
            check(st)
        if step % every == 0 or st.done:
            seen.append(st.clone())
        if st.done:
            return seen
        st.apply(choose(st.legal_actions()))
        step += 1


def refusal(check: Callable[[Any], None], st: Any) -> str | None:
    """The message of ``check``'s ``StateError``, or None when ``st`` passes."""
    try:
        check(st)
    except StateError as exc:
        return str(exc)
    return None


def assert_pass_also_after_a_json_round_trip(check: Callable[[Any], None], positions: Sequence[Any]) -> None:
    """Each of ``positions`` passes ``check``, and so does its copy through JSON (``to_dict``, ``from_dict``)."""
    for st in positions:
        check(st)
        check(type(st).from_dict(json.loads(json.dumps(st.to_dict()))))


def scrambled_attributes(cls: type) -> tuple[str, ...]:
    """The state attributes a scramble may change: every declared field but the event log."""
    return tuple(f.name for f in plan_of(cls).fields if f.name not in ("events", "records"))


def assert_scramble_passes_or_names_items(
    data: hs.DataObject, bank: Sequence[Any], check: Callable[[Any], None], line: re.Pattern[str]
) -> None:
    """A real position of ``bank`` scrambled field by field passes ``check`` or is refused line by line by item.

    A scrambled state that passes still has options the engine can work out.
    """
    base = data.draw(hs.sampled_from(bank))
    st = scramble(base, scrambled_attributes(type(base)), bank, sorted(base.cards), data.draw)
    message = refusal(check, st)
    if message is None:
        st.legal_actions()  # a state the check accepts is one the engine can read
        return
    bad = [text for text in message.splitlines() if not line.match(text)]
    assert not bad, f"lines that name no spec item: {bad}"


def uniform(seed: int) -> Callable[[list[Any]], Any]:
    """A chooser of uniformly random legal options, seeded."""
    rng = random.Random(seed)
    return lambda legal: legal[rng.randrange(len(legal))]


def refused_swaps(
    positions: Sequence[Any], templates: Sequence[str], opaque: list[Any], check: Callable[[Any], None]
) -> int:
    """How many of the leaf swaps of ``positions`` (``nonsense.leaf_swaps``) ``check`` refuses.

    Anything but a ``StateError`` escaping ``check`` fails, naming the swap.
    """
    n = 0
    for st in positions:
        for name, path, value, s in leaf_swaps(st, list(templates), opaque):
            try:
                check(s)
            except StateError:
                n += 1
            except Exception as e:  # the point of the test: nothing else may escape
                raise AssertionError(f"{name}{list(path)} = {value!r} at {st.decision}: {e!r}") from e
    return n
