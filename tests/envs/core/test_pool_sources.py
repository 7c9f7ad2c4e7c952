"""Card pools from TOML text and from card mappings: the same cards, errors and exact state round trips."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path

import numpy as np
import pytest

from deckgym import envs
from deckgym.envs.core.errors import CardDataError

RULESETS = {
    "medarot_ocg_v1": ("deckgym.envs.medarot_ocg.cards", {"mode": "beginner"}),
    "medarot_parts_v1": ("deckgym.envs.medarot_parts.cards", {}),
    "mow_v1": ("deckgym.envs.mow.cards", {}),
}


def _module(name):
    import importlib

    return importlib.import_module(RULESETS[name][0])


def _texts(name) -> list[str]:
    return [p.read_text() for p in sorted(Path(_module(name).CARDS_DIR).glob("*.toml"))]


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_pool_from_text_or_mappings_holds_the_same_cards_as_from_files(name):
    mod = _module(name)
    files = mod.load_pool()
    texts = _texts(name)
    from_text = mod.load_pool(texts)
    records = [r for t in texts for r in tomllib.loads(t)["card"]]
    from_mappings = mod.load_pool(records)
    assert list(files.cards.values()) == list(from_text.cards.values()) == list(from_mappings.cards.values())
    assert from_text.files == ("<toml text>",) * len(texts) and from_mappings.files == ("<card mappings>",)
    assert files.spec() == list(files.files)  # a file pool still saves its paths


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_bad_card_gives_the_same_error_from_text_as_from_a_file(name, tmp_path):
    mod = _module(name)
    text = _texts(name)[0]
    first = tomllib.loads(text)["card"][0]["id"]
    bad = text.replace(f'id = "{first}"', f'id = "{first}"\nbogus_key = 1', 1)
    path = tmp_path / "bad.toml"
    path.write_text(bad)
    with pytest.raises(CardDataError) as from_file:
        mod.load_pool([path])
    with pytest.raises(CardDataError) as from_text:
        mod.load_pool(bad)
    assert "bogus_key" in str(from_text.value)
    assert str(from_text.value) == str(from_file.value).replace(str(path), "<toml text>")


def test_text_that_is_not_toml_and_sources_of_another_type_are_refused():
    from deckgym.envs.mow.cards import load_pool

    with pytest.raises(CardDataError, match="not valid TOML"):
        load_pool("[[card]]\nid = ")
    with pytest.raises(CardDataError, match="a pool source must be a file path, TOML text or card mappings"):
        load_pool([42])
    with pytest.raises(CardDataError, match="'cards' must be a list of card mappings"):
        load_pool([{"cards": "nope"}])


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_state_of_a_pool_that_was_never_a_file_round_trips_exactly(name):
    """to_dict carries the pool text, so the state reloads with no card file at all."""
    kwargs = RULESETS[name][1]
    env = envs.make(name, card_files=_texts(name), **kwargs)
    env.reset(seed=3)
    ruleset, enc = env.unwrapped.ruleset, env.unwrapped.encoder
    st = env.unwrapped.game
    rng = random.Random(0)
    for _ in range(40):
        if st.is_terminal():
            break
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    data = json.loads(json.dumps(st.to_dict()))  # as written to disk
    assert all(isinstance(entry, dict) and set(entry) == {"toml"} for entry in data["pool"])
    back = ruleset.state_from_dict(data)
    assert back.to_dict() == st.to_dict()
    seat = max(0, st.current_player)
    assert np.array_equal(enc.observe(back, seat), enc.observe(st, seat))
    assert back.legal_actions() == st.legal_actions()
