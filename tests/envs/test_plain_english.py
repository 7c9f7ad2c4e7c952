"""What people read is plain English, and tells each seat only what it may know.

Over random and heuristic games of every variant: every move sentence (``describe_action``),
decision prompt (``decision_text``), event line (as each seat reads it, private parts
included) and card effect text in a view holds no raw op or enum code (``[A-Z]{2,}_[A-Z]+``),
no CJK character and no card id where the card has a name. The sentences are checked for
honesty the way observations are: redrawing what the reader cannot see (``resample_hidden``)
must not change what it is told.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from deckgym import envs
from deckgym.agents.play.session import describer
from deckgym.envs.core.describe import ROLES, place_key
from deckgym.envs.core.events import line_for
from tests.envs.test_views import positions
from tests.envs.variants import QUICK, ids

VARIANTS = QUICK
IDS = ids(VARIANTS)
CODE = re.compile(r"[A-Z]{2,}_[A-Z]+")
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


def problems(text: str, ids: set[str]) -> list[str]:
    """What keeps ``text`` from being plain English for a person."""
    out = []
    if not isinstance(text, str) or not text.strip():
        out.append("empty text")
        return out
    if m := CODE.search(text):
        out.append(f"code {m.group()!r}")
    if m := CJK.search(text):
        out.append(f"CJK character {m.group()!r}")
    words = set(re.findall(r"[A-Za-z0-9_\-]+", text))
    out += [f"card id {w!r}" for w in sorted(words & ids)]
    return out


def texts_in(value: Any) -> Iterator[str]:
    """Every ``text`` string of a view (card effect texts, event texts)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "text" and isinstance(v, str):
                yield v
            else:
                yield from texts_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from texts_in(v)


def legal_indices(env: Any, state: Any) -> list[int]:
    mask = env.unwrapped.encoder.action_mask(state)
    return [i for i in range(len(mask)) if mask[i]]


@pytest.fixture(scope="module", params=range(len(VARIANTS)), ids=IDS)
def game(request: pytest.FixtureRequest) -> tuple[Any, Any, list[Any]]:
    name, kw = VARIANTS[request.param]
    env = envs.make(name, **kw)
    env.reset(seed=0)
    return env, describer(env), positions(name, kw, games=2, every=5)


@pytest.mark.slow
def test_every_sentence_prompt_event_and_effect_text_is_plain_english(
    game: tuple[Any, Any, list[Any]],
) -> None:
    env, mod, states = game
    bad: list[str] = []
    checked = 0
    for st in states:
        ids = set(mod.card_names(st))
        n = st.num_players
        live = not st.is_terminal()
        for reader in range(n):
            if live:
                bad += [f"prompt {p}" for p in problems(mod.decision_text(st, reader), ids)]
                for i in legal_indices(env, st):
                    d = mod.describe_action(st, reader, i)
                    checked += 1
                    bad += [f"move {i}: {d['text']!r}: {p}" for p in problems(d["text"], ids)]
                    for pl in d["places"]:
                        assert pl["role"] in ROLES and isinstance(pl["zone"], str), pl
            for rec, text in zip(st.records, st.events, strict=True):
                line = line_for(rec, text, reader, mod.card_names(st))
                bad += [f"event {line!r}: {p}" for p in problems(line, ids)]
            for text in texts_in(env.unwrapped.ruleset.view(st, reader)):
                bad += [f"view text {text!r}: {p}" for p in problems(text, ids)]
    assert checked > 0
    assert not bad, f"{len(bad)} problems, e.g. " + "; ".join(sorted(set(bad))[:12])


def test_the_moves_of_a_decision_read_differently(game: tuple[Any, Any, list[Any]]) -> None:
    env, mod, states = game
    for st in states:
        if st.is_terminal():
            continue
        seat = st.current_player
        texts = [mod.describe_action(st, seat, i)["text"] for i in legal_indices(env, st)]
        assert len(set(texts)) == len(texts), f"two moves read alike at {st.decision}: {texts}"


def test_sentences_and_prompts_tell_a_seat_nothing_it_may_not_know(game: tuple[Any, Any, list[Any]]) -> None:
    env, mod, states = game
    rng = random.Random(5)
    compared = 0
    for st in states:
        if st.is_terminal():
            continue
        for reader in range(st.num_players):
            told = {i: mod.describe_action(st, reader, i) for i in legal_indices(env, st)}
            prompt = mod.decision_text(st, reader)
            for _ in range(2):
                other = st.resample_hidden(reader, rng)
                assert mod.decision_text(other, reader) == prompt
                for i in set(legal_indices(env, other)) & set(told):
                    assert mod.describe_action(other, reader, i) == told[i], (
                        f"move {i} at {st.decision} reads differently to seat {reader} "
                        "once hidden cards are redrawn"
                    )
                    compared += 1
    assert compared > 0


def test_describing_a_move_changes_nothing(game: tuple[Any, Any, list[Any]]) -> None:
    env, _, states = game
    st = next(s for s in states if not s.is_terminal())
    before = st.to_dict()
    for i in legal_indices(env, st):
        d = env.unwrapped.ruleset.describe_action(st, st.current_player, i)
        for p in d["places"]:
            assert re.fullmatch(r"[a-z_:]+/\d*/\d*", place_key(p)), p
    assert st.to_dict() == before
