"""The AMALOGS boards: the terminal drawing (rich) and the page's drawing (Chromium, when present).

Views come from random games. The terminal board must show the map with both bases, every
avatar on it and its card game, the viewer's team at the bottom, no op codes, and no card name
the viewer may not know. The page's board must tag every place that a legal move's sentence
names (``envs.amalogs.describe``), map squares and the running table's spots alike.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import envs
from agents.play.boards import amalogs as board
from agents.play.terminal import board_text
from envs.amalogs.describe import CORE_ENVS, card_names, describe_action
from envs.amalogs.encode import AmalogsEncoder
from envs.amalogs.state import AmalogsState
from envs.amalogs.view import view
from envs.core.describe import place_key

ROOT = Path(__file__).resolve().parents[2]
BOARDS = ROOT / "agents" / "play" / "static" / "boards"
CODE = re.compile(r"[A-Z]{2,}_[A-Z]+")
GAMES: list[tuple[dict[str, Any], int]] = [
    ({"team_sizes": (1, 1)}, 3),
    ({"team_sizes": (2, 2)}, 5),
    ({"team_sizes": (2, 1), "pools": ["master_of_the_world", "medarot_parts"]}, 7),
]


def _states(kwargs: dict[str, Any], seed: int, every: int = 23, cap: int = 700) -> list[AmalogsState]:
    env = envs.make("amalogs_v1", **kwargs)
    env.reset(seed=seed)
    st = env.unwrapped.game
    rng = random.Random(seed)
    out = []
    for step in range(cap):
        if st.done:
            break
        if step % every == 0:
            out.append(st.clone())
        st.apply(rng.choice(st.legal_actions()))
    out.append(st.clone())
    return out


def _text(v: dict[str, Any], details: bool = False) -> str:
    return board_text(v, details, width=120)  # the drawing the terminal and the replays print


@pytest.mark.parametrize(("kwargs", "seed"), GAMES)
def test_the_terminal_board_shows_the_map_and_nothing_hidden(kwargs: dict[str, Any], seed: int) -> None:
    for st in _states(kwargs, seed):
        names = set(card_names(st).values())
        for seat in range(st.num_players):
            v = view(st, seat)
            text = _text(v)
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
    a, b = _text(view(st, 0)), _text(view(st, 1))
    map_a, map_b = a.split("The map")[1].split("Players")[0], b.split("The map")[1].split("Players")[0]
    assert map_a.index("Base B") < map_a.index("Base A")  # team A's base row is drawn last
    assert map_b.index("Base A") < map_b.index("Base B")
    assert "you (A0)" in a and "enemy B0" in a and "you (B0)" in b


def test_details_add_square_and_player_numbers() -> None:
    st = _states({"team_sizes": (2, 2)}, 5)[-1]
    v = view(st, 0)
    assert "[player 0]" in _text(v, details=True) and "[player 0]" not in _text(v)


def test_the_running_table_is_drawn_by_its_own_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    st = next(
        s for s in _states({"team_sizes": (1, 1)}, 3, every=1) if s.table is not None and s.duel is not None
    )
    seated = st.player_at(0)
    seen: list[dict[str, Any]] = []
    env = CORE_ENVS[st.table_ruleset]
    fake = types.ModuleType("fake_core_board")

    def render(v: dict[str, Any], details: bool = False) -> str:
        seen.append(v)
        return "THE CORE BOARD"

    fake.render = render  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_core_board", fake)
    monkeypatch.setitem(board.CORE_BOARDS, env, "fake_core_board")
    v = view(st, seated)
    text = _text(v)
    assert "THE CORE BOARD" in text and "The duel table" in text
    core = v["board"]["core"]
    assert seen[0]["seat"] == core["seat"] and seen[0]["players"] == core["players"] and seen[0]["env"] == env


def _chromium() -> str | None:
    return shutil.which("chromium") or (shutil.which("/usr/bin/chromium"))


def test_the_page_board_tags_every_place_a_legal_move_names() -> None:
    path = _chromium()
    if path is None:
        pytest.skip("no chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    cases = []
    for kwargs, seed in GAMES:
        for st in _states(kwargs, seed, every=11):
            if st.done:
                continue
            seat = st.current_player
            enc = AmalogsEncoder([s for pool in st.config.pools for s in pool])
            named = {
                place_key(p) for i in enc.legal_indices(st) for p in describe_action(st, seat, i)["places"]
            }
            cases.append((view(st, seat), sorted(named)))
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=["--no-sandbox", "--headless"])
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_content("<html><head></head><body><div id='root'></div></body></html>")
        page.add_script_tag(path=str(BOARDS.parent / "dom.js"))  # the shared DOM helpers come first
        for js in sorted(BOARDS.glob("*.js")):
            page.add_script_tag(path=str(js))
        checked = 0
        for v, keys in cases:
            got = page.evaluate(
                """([v]) => {
                    const root = document.getElementById('root');
                    root.replaceChildren(window.deckgymBoards['amalogs_v1'](v, {details: false}));
                    const core = v.board.core;
                    const coreDrawn = !!(core && window.deckgymBoards[core.env]);
                    return [[...root.querySelectorAll('[data-place]')].map((n) => n.dataset.place), coreDrawn];
                }""",
                [v],
            )
            drawn: set[str] = set(got[0])
            core_drawn = bool(got[1])
            for k in keys:
                if k.startswith("table:") and not core_drawn:
                    continue  # that card game's page board is not there yet
                assert k in drawn, (v["decision"], k)
                checked += 1
            assert all(k.startswith(("map/", "player/", "table:", "side:")) for k in drawn)
        browser.close()
    assert not errors, errors
    assert checked > 50
