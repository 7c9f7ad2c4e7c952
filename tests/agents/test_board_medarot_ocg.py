"""The Medarot OCG boards: the terminal drawing (rich) and the page's drawing (Chromium, when present).

Views come from random games of every mode. The terminal board must show the names of the
Medarots the viewer may see, the viewer's field at the bottom, no op codes, and no card name the
viewer may not know. The page's board must tag every place that a legal move's sentence names
(``envs.medarot_ocg.describe``), draw the opponent's hidden cards as backs, and turn the grid
round for seat 1.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from deckgym.envs.core.describe import place_key
from deckgym.envs.medarot_ocg.cards import load_pool, resolve_deck, starter_decks
from deckgym.envs.medarot_ocg.config import make_config
from deckgym.envs.medarot_ocg.describe import card_names, describe_action
from deckgym.envs.medarot_ocg.encode_actions import ActionCodec
from deckgym.envs.medarot_ocg.rules import new_game
from deckgym.envs.medarot_ocg.state import GameState
from deckgym.envs.medarot_ocg.view import view
from tests.agents import boards
from tests.agents.boards import BOARDS, CODE, board_page, chromium
from tests.envs.positions import sampled_states

CODEC = ActionCodec()
GAMES = [("beginner", 3), ("normal", 5), ("advance", 7)]


def _states(mode: str, seed: int, every: int = 9, cap: int = 900) -> list[GameState]:
    cfg = make_config(mode)
    pool = load_pool()
    names = starter_decks(mode)
    decks = [resolve_deck(names[i], pool, cfg).expand() for i in (0, 1)]
    rng = random.Random(seed)
    return sampled_states(
        new_game(cfg, pool, decks, seed), lambda s: rng.choice(s.legal_actions()), every, cap
    )


@pytest.mark.parametrize(("mode", "seed"), GAMES)
def test_the_terminal_board_shows_the_board_and_nothing_hidden(mode: str, seed: int) -> None:
    for st in _states(mode, seed):
        names = set(card_names(st).values())
        for seat in (0, 1):
            v = view(st, seat)
            text = boards.text(v)
            assert "Your field" in text and "Neutral field" in text and "Opponent's field" in text
            assert not CODE.search(text), CODE.search(text)
            for sq in v["board"]["squares"]:
                if sq is not None and sq.get("card"):
                    assert sq["card"]["name"][:14] in text
            known = json.dumps(v)
            for n in names:
                if n in text:
                    assert n in known, f"{n} is drawn for seat {seat} but is not in its view"
            own_hand = [c["name"] for c in v["players"][seat]["hand"]]
            for n in own_hand:
                assert n in text


def test_the_viewers_field_is_at_the_bottom_and_seat_1_sees_the_grid_turned() -> None:
    st = _states("normal", 5)[-1]
    a, b = boards.text(view(st, 0)), boards.text(view(st, 1))
    for text in (a, b):
        assert text.index("Opponent's field") < text.index("Neutral field") < text.index("Your field")
        assert text.index("─ Opponent ─") < text.index("Neutral field") < text.index("─ You ─")
    row_a = next(line for line in a.splitlines() if line.startswith("│ Your field"))
    row_b = next(line for line in b.splitlines() if line.startswith("│ Your field"))
    assert re.findall(r"\b\d+\b", row_a) == ["0", "1", "2", "3", "4"]
    assert re.findall(r"\b\d+\b", row_b) == ["14", "13", "12", "11", "10"]


def test_details_add_ids_and_the_action_flags() -> None:
    st = next(s for s in _states("advance", 7, every=1) if s.act is not None and not s.done)
    v = view(st, st.act.owner)  # type: ignore[union-attr]
    plain, detailed = boards.text(v), boards.text(v, details=True)
    assert "cancel_penalty" in detailed and "cancel_penalty" not in plain
    unit = next(sq for sq in v["board"]["squares"] if sq is not None and sq.get("card"))
    assert unit["card"]["id"] in detailed and unit["card"]["id"] not in plain


def _page_case(st: GameState) -> tuple[dict[str, Any], list[str], list[str]]:
    """The view of the player to act, the places its legal moves name and the card names it may not see."""
    seat = st.current_player
    keys = {place_key(p) for i in CODEC.legal_indices(st) for p in describe_action(st, seat, i)["places"]}
    hidden = set()
    o = 1 - seat
    hidden |= {st.cards[c].name for c in st.hand[o]}
    hidden |= {st.cards[s.card].name for s in st.stock[o] if s is not None and not s.face_up}
    v = view(st, seat)
    hidden -= {n for n in card_names(st).values() if n in json.dumps(v)}
    return v, sorted(keys), sorted(hidden)


def test_the_page_board_tags_every_place_a_legal_move_names() -> None:
    chromium()
    cases = [_page_case(st) for mode, seed in GAMES for st in _states(mode, seed, every=7) if not st.done]
    with board_page([BOARDS / "medarot_ocg.js"]) as page:
        checked = 0
        for v, keys, hidden in cases:
            got = page.evaluate(
                """([v]) => {
                    const root = document.getElementById('root');
                    root.replaceChildren(window.deckgymBoards['medarot_ocg_v1'](v, {details: false}));
                    const squares = [...root.querySelectorAll('.ocg-square')].map((n) => n.dataset.place);
                    return [[...root.querySelectorAll('[data-place]')].map((n) => n.dataset.place),
                            root.innerText + [...root.querySelectorAll('[title]')].map((n) => n.title).join(' '),
                            squares,
                            root.querySelectorAll('.card.back').length];
                }""",
                [v],
            )
            drawn, text, squares, backs = set(got[0]), got[1], got[2], got[3]
            for k in keys:
                assert k in drawn, (v["decision"], k)
                checked += 1
            for n in hidden:
                assert n not in text, n
            assert not CODE.search(text), CODE.search(text)
            assert len(squares) == 15
            bottom = squares[10:]
            assert bottom == (
                ["square//0", "square//1", "square//2", "square//3", "square//4"]
                if v["seat"] == 0
                else ["square//14", "square//13", "square//12", "square//11", "square//10"]
            )
            assert backs >= v["players"][1 - v["seat"]]["hand_count"]
    assert checked > 50
