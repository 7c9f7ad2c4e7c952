"""The parts game boards: the terminal drawing (rich) and the page's script.

Views of random games are drawn through ``agents.play.boards.medarot_parts.render``: the text
names every card on the table, shows no op codes, ids or Japanese (ids only under details), and
never a card of the other hand. The page's script registers ``medarot_parts_v1`` and tags the
places of ``envs.medarot_parts.describe``; in Chromium (when installed) every place of every
legal move is a spot of the drawn board.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from deckgym import envs
from deckgym.envs.core.describe import place_key
from deckgym.envs.medarot_parts.cards import load_pool
from deckgym.envs.medarot_parts.describe import ZONES, describe_action
from deckgym.envs.medarot_parts.view import view
from tests.agents.boards import BOARDS, CJK, CODE, assert_script_registers, board_page, chromium, draw
from tests.envs.medarot_parts import fixtures as fx

CORE = load_pool()
IDS = re.compile(r"\b(" + "|".join(re.escape(c) for c in CORE.ids()) + r")\b")
SCRIPT = BOARDS / "medarot_parts.js"


def games(seeds: range):
    for seed in seeds:
        env = envs.make("medarot_parts_v1")
        env.reset(seed=seed)
        st = env.unwrapped.game
        rng = random.Random(seed)
        k = 0
        while True:
            yield k, st, env
            if st.is_terminal():
                break
            st.apply(rng.choice(st.legal_actions()))
            k += 1


def test_random_games_draw_every_card_on_the_table_in_words_and_nothing_hidden():
    drawn = 0
    for k, st, _ in games(range(3)):
        if k % 9 and not st.is_terminal():
            continue  # a sample of positions keeps the test quick
        for seat in (0, 1):
            v = view(st, seat)
            text = draw(v)
            assert not CODE.search(text) and not CJK.search(text), text
            assert not IDS.search(text), text
            for p in (0, 1):
                for med in st.field[p]:
                    assert st.cards[med.medal].name in text
                    for part in med.parts:
                        assert st.cards[part.card].name in text
                        for c in ([part.effect] if part.effect else []) + part.attached:
                            assert st.cards[c].name in text
                for c in st.trash[p] + st.play[p]:
                    assert st.cards[c].name in text
            for c in st.hand[seat]:
                assert st.cards[c].name in text
            shown = json.dumps(v)
            for c in st.hand[1 - seat] + st.deck[1 - seat]:
                name = st.cards[c].name
                if name not in shown:
                    assert name not in text, (name, seat)
            drawn += 1
    assert drawn > 30


def test_the_viewer_is_at_the_bottom_and_details_show_ids():
    a = (("MA0", "GLASS", "RIFLE", "ARM_L", "LEGS5"), fx.PLAIN)
    b = (("MA1", "SCOPE", "BLOOM", "ARM_L", "LEGS5"), fx.PLAIN)
    st = fx.make_state(a, b, hands=(("EVD",), ("EFC",)), counters={(1, 0, 0): 2})
    top, low = draw(view(st, 0)), draw(view(st, 1))
    assert top.index("Test Scope") < top.index("Glass Ward") and "Test Effect" not in top
    assert low.index("Glass Ward") < low.index("Test Scope") and "Test Evade" not in low
    assert "The opponent" in top and "You " in top and "2 damage" in top and "hand: 1 cards" in top
    assert "GLASS" not in top and "GLASS" in draw(view(st, 0), details=True)


def test_the_page_script_registers_the_board_and_tags_the_places_of_the_moves():
    assert_script_registers("medarot_parts_v1", ZONES, "mp-")


@pytest.mark.slow
def test_in_chromium_every_place_of_a_legal_move_is_a_spot_of_the_board():
    chromium()
    css = SCRIPT.with_suffix(".css").read_text()
    cases = []
    for k, st, env in games(range(2)):
        if st.is_terminal() or k % 5:
            continue
        seat = st.current_player
        mask = env.unwrapped.encoder.action_mask(st)
        keys = {place_key(p) for i, m in enumerate(mask) if m for p in describe_action(st, seat, i)["places"]}
        cases.append((view(st, seat), keys, st.hand[1 - seat]))
    with board_page([SCRIPT], css) as page:
        for v, keys, _ in cases:
            got = page.evaluate(
                """v => { const t = document.getElementById('root');
                t.replaceChildren(window.deckgymBoards['medarot_parts_v1'](v, {details: false}));
                return { places: [...t.querySelectorAll('[data-place]')].map(e => e.dataset.place),
                         text: t.innerText }; }""",
                v,
            )
            assert keys <= set(got["places"]), (v["decision"], keys - set(got["places"]))
            assert len(got["places"]) == len(set(got["places"])), "a place key is used twice"
            assert not IDS.search(got["text"]) and not CODE.search(got["text"])
    assert len(cases) > 10
