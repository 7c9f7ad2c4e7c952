"""The AMALOGS boards: the terminal drawing (rich) and the page's drawing (Chromium, when present).

Views come from random games and from built positions of cross-ruleset duels (spec section 11,
D36-D42). The terminal board must show the map with both bases, every avatar on it and its card
game, the viewer's team at the bottom, no op codes, and no card name the viewer may not know; in a
duel it says who sits opposite the host in words: the defender through its stand-in with the
stand-in's life as it falls, the enemy base at the table with its life and hits, or nobody, and
each core board draws its stand-in without empty numbers. The page's board must tag every place
that a legal move's sentence names (``envs.amalogs.describe``), map squares and the running
table's spots alike, and say the same sentences.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from deckgym import envs
from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Action, Kind, Phase
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.describe import card_names, describe_action
from deckgym.envs.amalogs.encode import AmalogsEncoder
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.amalogs.view import view
from deckgym.envs.core.describe import place_key
from tests.agents import boards
from tests.agents.boards import BOARDS, CODE, board_page, chromium
from tests.envs.amalogs.fixtures import WIDE, position, proxy_after
from tests.envs.positions import sampled_states

GAMES: list[tuple[dict[str, Any], int]] = [
    ({"team_sizes": (1, 1)}, 3),
    ({"team_sizes": (2, 2)}, 5),
    ({"team_sizes": (2, 1), "pools": ["master_of_the_world", "medarot_parts"]}, 7),
]


def _states(kwargs: dict[str, Any], seed: int, every: int = 23, cap: int = 700) -> list[AmalogsState]:
    env = envs.make("amalogs_v2", **kwargs)
    env.reset(seed=seed)
    rng = random.Random(seed)
    return sampled_states(env.unwrapped.game, lambda s: rng.choice(s.legal_actions()), every, cap)


ADV, PARTS, MOW = 1, 2, 3
#: Host A0 next to B0 (the only guest), A1 and B1 far away (spec E14).
NEXT_TO_B0 = [(5, 3), (1, 1), (6, 3), (9, 6)]


def _duel(rulesets: list[int], squares: list[tuple[int, int]]) -> AmalogsState:
    """Host A0 declares a duel from a built position (team A acting)."""
    st = position(rulesets, squares, acting=0)
    st.apply(A.DUEL)
    return st


def _defended(host: int) -> AmalogsState:
    """Host A0 next to B0, whose card game is another: B0 defends through a stand-in (D36)."""
    return _duel([host, ADV, ADV if host == MOW else MOW, ADV], NEXT_TO_B0)


def _at_base(host: int) -> AmalogsState:
    """Host A0 with base B in its duel range and no enemy avatar near (spec E16): the base sits at seat 1."""
    square = (9, 3) if host == MOW else (8, 3)  # Master of the World reaches 1 square, the others 2
    return _duel([host, ADV, ADV, ADV], [square, (1, 1), (4, 0), (4, 6)])


def _attack(st: AmalogsState, falls: int = 1 << 30) -> list[AmalogsState]:
    """Play the proxy table, lowering the stand-in's life where the rules allow, until it fell ``falls``
    times or the table ended; the positions on the way (each before its move)."""
    seen = []
    fell = 0
    while st.phase == Phase.DUEL_CORE and fell < falls:
        seen.append(st.clone())
        ad = adapter(st.table_ruleset)
        now = ad.proxy_life(st.table)
        legal = ad.legal_actions(st.table)
        best, i = min((proxy_after(ad, st.table, a, 1), i) for i, a in enumerate(legal))
        st.apply(Action(Kind.CORE, legal[i] if best < now else ad.auto_action(st.table)))
        if st.phase == Phase.DUEL_CORE and adapter(st.table_ruleset).proxy_life(st.table) < now:
            fell += 1
    return seen


@pytest.mark.parametrize(("kwargs", "seed"), GAMES)
def test_the_terminal_board_shows_the_map_and_nothing_hidden(kwargs: dict[str, Any], seed: int) -> None:
    for st in _states(kwargs, seed):
        names = set(card_names(st).values())
        for seat in range(st.num_players):
            v = view(st, seat)
            text = boards.text(v)
            assert "Base A" in text and "Base B" in text and "The map" in text
            assert not CODE.search(text), CODE.search(text)
            for p in v["players"]:
                if p["on_map"]:
                    assert p["name"] in text
                if p["ruleset"]:
                    assert v["board"]["rulesets"][p["ruleset"]]["title"] in text
            known = json.dumps(v)
            for n in names:
                if n in text:
                    assert n in known, f"{n} is drawn for player {seat} but is not in its view"


def test_the_viewers_team_is_at_the_bottom() -> None:
    st = _states({"team_sizes": (1, 1)}, 3)[-1]
    a, b = boards.text(view(st, 0)), boards.text(view(st, 1))
    map_a, map_b = a.split("The map")[1].split("Players")[0], b.split("The map")[1].split("Players")[0]
    assert map_a.index("Base B") < map_a.index("Base A")  # team A's base row is drawn last
    assert map_b.index("Base A") < map_b.index("Base B")
    assert "you (A0)" in a and "enemy B0" in a and "you (B0)" in b


def test_details_add_square_and_player_numbers() -> None:
    st = _states({"team_sizes": (2, 2)}, 5)[-1]
    v = view(st, 0)
    assert "[player 0]" in boards.text(v, details=True) and "[player 0]" not in boards.text(v)


def test_the_running_table_is_drawn_by_its_own_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    st = next(
        s for s in _states({"team_sizes": (1, 1)}, 3, every=1) if s.table is not None and s.duel is not None
    )
    seated = st.player_at(0)
    seen: list[dict[str, Any]] = []
    env = adapter(st.table_ruleset).env

    def render(v: dict[str, Any], details: bool = False) -> str:
        seen.append(v)
        return "THE CORE BOARD"

    from deckgym.agents.play import terminal

    real = terminal.board_for
    monkeypatch.setattr(terminal, "board_for", lambda name: render if name == env else real(name))
    v = view(st, seated)
    text = boards.text(v)
    assert "THE CORE BOARD" in text and "The duel table" in text
    core = v["board"]["core"]
    assert seen[0]["seat"] == core["seat"] and seen[0]["players"] == core["players"] and seen[0]["env"] == env


def test_the_defender_is_named_with_its_stand_ins_life() -> None:
    """D36-D38, D43: a MoW host (stand-in unit 52) against an OCG-advance guest (HP 20, L0 23): P = 45."""
    st = _duel([MOW, ADV, ADV, ADV], NEXT_TO_B0)
    host = boards.draw(view(st, 0))
    assert "Enemy B0 defends through a stand-in with 45 life" in host
    assert (
        "Life converts by Master of the World's stand-in unit 52 and Medarot OCG advance's nominal life 23"
        in host
    )
    assert "The duel table: Master of the World, against enemy B0's stand-in (45 life)" in host
    assert "defender" in host.split("The map")[1].split("Players")[0]  # B0's square names its role
    assert "Opponent: the defender's stand-in" in host  # the MoW board draws seat 1 as the stand-in
    mine = boards.draw(view(st, 2))  # the defender's own view
    assert (
        "You (B0) defend through a stand-in with 45 life" in mine and "you lose the stand-in's damage" in mine
    )
    assert "enemy A0 against your stand-in (45 life) at the table" in mine
    assert "Your core game: Medarot OCG advance (your stand-in is at the table)" in mine
    for text in (host, mine):
        assert "seat is empty" not in text and not CODE.search(text)


def test_the_stand_ins_life_falls_as_it_is_hit() -> None:
    """D37, D43: an OCG advance host hits a MoW defender's stand-in (P 54); the panel and the table show its life."""
    st = _duel([ADV, ADV, MOW, ADV], NEXT_TO_B0)
    _attack(st, falls=1)
    assert st.phase == Phase.DUEL_CORE
    d = view(st, 0)["board"]["duel"]
    assert d["proxy_life"] < d["proxy_start"] == 54  # floor(20 · 91/2 / L0 17 + 1/2)
    text = boards.draw(view(st, 0))
    assert f"Enemy B0 defends through a stand-in with {d['proxy_life']} life (it started with 54)" in text
    assert f"against enemy B0's stand-in ({d['proxy_life']} life)" in text
    assert f"HP {d['proxy_life']}" in text and "Stand-in's row" in text  # the OCG board's open row


def test_the_base_at_the_table_shows_its_life_and_hits() -> None:
    """D36, D40, D43: no guest, base B in range: base B is at the table; a parts host's attack costs it 1."""
    st = _at_base(PARTS)
    text = boards.draw(view(st, 0))
    assert "Base B is at the table: 18 life, 0 hits this duel" in text
    assert "Bases in the duel: B (at the table)" in text and "at table" in text  # the map marks it too
    assert "against base B (18 life)" in text and "opponent: the enemy base" in text.lower()
    _attack(st, falls=1)
    assert st.phase == Phase.DUEL_CORE and st.life[1] == 17
    text = boards.draw(view(st, 0))
    assert "Base B is at the table: 17 life, 1 hit this duel" in text and "Base B: 17" in text
    ally = boards.draw(view(st, 1))  # A1 does not sit at the table
    assert "ally A0 against base B (17 life) at the table (you do not see it)" in ally


def test_nobody_sits_opposite_without_a_guest_or_an_enemy_base() -> None:
    st = _duel([ADV, ADV, ADV, ADV], WIDE)
    d = view(st, 0)["board"]["duel"]
    assert d["proxy"] is None and d["champion"] == -1
    text = boards.draw(view(st, 0))
    assert "Nobody sits opposite: the opponent's seat is empty" in text


@pytest.mark.parametrize("host", [ADV, PARTS, MOW])
@pytest.mark.parametrize("kind", ["guest", "base"])
def test_each_core_board_draws_the_stand_in(host: int, kind: str) -> None:
    """D42: the host's core view shows seat 1 as the stand-in; its board draws it in words, with no empty numbers."""
    st = _defended(host) if kind == "guest" else _at_base(host)
    assert view(st, 0)["board"]["duel"]["proxy"] == kind
    for k, s in enumerate([st, *_attack(st.clone())[1::3]]):
        text = boards.draw(view(s, 0))
        table = text.split("The duel table")[1]
        name = "the enemy base" if kind == "base" else "the defender's stand-in"
        assert f"Opponent: {name}" in table or f"The opponent: {name}" in table, (k, table[:400])
        for bad in ("None", "null", "Deck: 0", "level 0 of 0", "assets 0 G", "empty seat", "seat 1"):
            assert bad not in table, (bad, table[:600])
        assert not CODE.search(text)


def _page_case(st: AmalogsState, sentences: list[str]) -> tuple[dict[str, Any], list[str], list[str]]:
    """The view of the player to act, the places its legal moves name, and ``sentences`` (said on the page)."""
    seat = st.current_player
    enc = AmalogsEncoder([s for pool in st.config.pools for s in pool])
    named = {place_key(p) for i in enc.legal_indices(st) for p in describe_action(st, seat, i)["places"]}
    return view(st, seat), sorted(named), sentences


def test_the_page_board_tags_every_place_a_legal_move_names() -> None:
    chromium()
    cases = [
        _page_case(st, []) for kwargs, seed in GAMES for st in _states(kwargs, seed, every=11) if not st.done
    ]
    said = {
        "guest": "B0 defends through a stand-in with",
        "base": "Base B is at the table:",
    }
    for host in (ADV, PARTS, MOW):
        for kind in ("guest", "base"):
            st = _defended(host) if kind == "guest" else _at_base(host)
            cases += [_page_case(s, [said[kind], "Opponent: "]) for s in _attack(st)]
    with board_page(sorted(BOARDS.glob("*.js"))) as page:
        checked = 0
        for v, keys, sentences in cases:
            got = page.evaluate(
                """([v]) => {
                    const root = document.getElementById('root');
                    root.replaceChildren(window.deckgymBoards['amalogs_v2'](v, {details: false}));
                    const core = v.board.core;
                    const coreDrawn = !!(core && window.deckgymBoards[core.env]);
                    return [[...root.querySelectorAll('[data-place]')].map((n) => n.dataset.place), coreDrawn,
                            root.textContent];
                }""",
                [v],
            )
            drawn: set[str] = set(got[0])
            core_drawn = bool(got[1])
            for sentence in sentences:
                assert sentence in got[2], (sentence, got[2][:800])
            bad = re.search(r"\b(?:null|undefined|NaN)\b|\[object", got[2])
            assert bad is None, (bad, got[2][:800])
            for k in keys:
                if k.startswith("table:") and not core_drawn:
                    continue  # that card game's page board is not there yet
                assert k in drawn, (v["decision"], k)
                checked += 1
            assert all(k.startswith(("map/", "player/", "table:", "side:")) for k in drawn)
    assert checked > 50
