"""The Master of the World boards: the terminal drawing (rich) and the page's script.

Views of random games are drawn through ``agents.play.boards.mow.render``: the text names
every card on the table, shows no op codes, ids or Japanese (ids only under details), and
never a hidden card of the other seat. The page's script registers ``mow_v1`` and tags the
places of ``envs.mow.describe``.
"""

from __future__ import annotations

import json
import random
import re

from deckgym import envs
from deckgym.envs.mow import actions as A
from deckgym.envs.mow.actions import DP
from deckgym.envs.mow.cards import load_pool
from deckgym.envs.mow.describe import ZONES
from tests.agents.boards import CJK, CODE, assert_script_registers, draw
from tests.envs.mow import fixtures as fx

CORE = load_pool()
IDS = re.compile(r"\b(" + "|".join(re.escape(c) for c in CORE.cards) + r")\b")


def views(seeds: range):
    for seed in seeds:
        env = envs.make("mow_v1")
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.agents:
            st = env.unwrapped.game
            yield st, env.unwrapped.view(0), env.unwrapped.view(1)
            if st.is_terminal():
                break
            env.step(rng.choice(env.unwrapped.encoder.legal_indices(st)))


def test_random_games_draw_every_card_on_the_table_in_words_and_nothing_hidden():
    drawn = 0
    for st, *both in views(range(4)):
        if st.turn % 3:
            continue  # a sample of positions keeps the test quick
        for seat, v in enumerate(both):
            text = draw(v)
            assert not CODE.search(text) and not CJK.search(text), text
            assert not IDS.search(text), text
            o = 1 - seat
            for p in (0, 1):
                assert st.name(st.masters[p]) in text
                for m in st.monsters[p]:
                    assert st.name(m.card) in text
                if st.weapon[p]:
                    assert st.name(st.weapon[p][0]) in text  # type: ignore[index]
                for c in st.discard[p] + st.exp[p]:
                    assert st.name(c) in text
            for c in st.hand[seat]:
                assert st.name(c) in text
            shown = json.dumps(v)
            secret = {st.name(c) for c in st.hand[o] + st.deck[o]}
            if st.spell[o]:
                secret.add(st.name(st.spell[o][0]))  # type: ignore[index]
            for name in secret:
                if name not in shown:
                    assert name not in text, (name, seat)
            drawn += 1
    assert drawn > 50


def test_the_viewer_is_at_the_bottom_and_details_show_ids():
    st = fx.make_state(
        pool=CORE, masters=("MS01", "MS02"), filler="MN01", exp=(2, 2), monsters=(["MN02"], ["MN03"])
    )
    from deckgym.envs.mow.view import view

    text = draw(view(st, 0))
    assert text.index("Tide Oracle") < text.index("Ashen Regent")  # the opponent on top
    assert text.index("Stone Sentinel") < text.index("Pike Soldier")
    assert "attack" in text and "toughness" in text and "life 20" in text
    low = draw(view(st, 1))
    assert low.index("Ashen Regent") < low.index("Tide Oracle")
    assert "MN02" not in text and "MN02" in draw(view(st, 0), details=True)


def test_the_chain_is_told_in_words_and_the_face_down_cast_stays_hidden():
    from deckgym.envs.mow.view import view

    st = fx.make_state(
        pool=CORE, masters=("MS01", "MS02"), filler="MN01", hands=(["SP01", "MN02"], []), exp=(2, 0)
    )
    fx.do(st, A.USE[CORE["SP01"].index], DP.MAIN, 0)
    assert st.decision == "COUNTER_WINDOW"
    mine, theirs = draw(view(st, 0)), draw(view(st, 1))
    assert "You casts" not in mine and "You cast" not in theirs
    assert "Chain" in mine and "Fire Bolt" in mine
    assert "The opponent casts a face-down spell" in theirs and "Fire Bolt" not in theirs
    assert "a face-down spell" in theirs


def test_the_page_script_registers_the_board_and_tags_the_places_of_the_moves():
    assert_script_registers("mow_v1", ZONES, "mow-")
