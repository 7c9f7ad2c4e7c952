"""Tests of the text renderer of the Medarot OCG (envs/medarot_ocg/render.py).

The renderer must draw any position without error and must never show a player what that
player may not know (spec section 7): the other hand, face-down stock cards and master,
face-down Medarots, and a private card waiting between two decisions.
"""

from __future__ import annotations

import itertools
import random

import pytest

from deckgym.envs.medarot_ocg.cards import MEDAROT, load_pool, resolve_deck, starter_decks
from deckgym.envs.medarot_ocg.config import make_config
from deckgym.envs.medarot_ocg.render import HIDDEN, render_text
from deckgym.envs.medarot_ocg.rules import new_game
from deckgym.envs.medarot_ocg.state import GameState, Stack

MODES = ("beginner", "normal", "advance")
VIEWS = (None, 0, 1)


def make_game(mode: str, seed: int = 3, pair: tuple[int, int] = (0, 1)) -> GameState:
    cfg = make_config(mode)
    pool = load_pool()
    names = starter_decks(mode)
    decks = [resolve_deck(names[i], pool, cfg).expand() for i in pair]
    return new_game(cfg, pool, decks, seed)


def random_states(mode: str, seed: int, pair: tuple[int, int], limit: int = 400):
    """Every position of one random game (the terminal one included)."""
    st = make_game(mode, seed, pair)
    rng = random.Random(seed)
    for _ in range(limit):
        yield st
        if st.is_terminal():
            return
        st.apply(rng.choice(st.legal_actions()))


def play_until(st: GameState, rng: random.Random, pred, limit: int = 2000) -> GameState:
    for _ in range(limit):
        if pred(st):
            return st
        assert not st.is_terminal(), "the game ended before the wanted position"
        st.apply(rng.choice(st.legal_actions()))
    raise AssertionError("wanted position not reached")


def public_names(st: GameState, viewer: int) -> set[str]:
    """Names ``viewer`` may legitimately see somewhere (public zones, own cards, mulligan reveals)."""
    c = st.cards
    out: set[str] = set()
    for x in st.board:
        if x is not None and (x.face_up or x.owner == viewer):
            out.update(c[k].name for k in (x.base, x.change) if k)
    for p in (0, 1):
        for slot in [*st.stock[p], st.master[p]]:
            if slot is not None and (slot.face_up or p == viewer):
                out.add(c[slot.card].name)
        out.update(c[k].name for k in st.trash[p] + st.reserve[p])
        lim = st.limbo[p]
        if lim is not None and (lim[1] or p == viewer):
            out.add(c[lim[0]].name)
    out.update(c[k].name for k in st.hand[viewer])
    for ev in st.events:
        if "mulligans, revealing: " in ev:
            out.update(ev.split("revealing: ", 1)[1].split(", "))
    return out


def hidden_names(st: GameState, viewer: int) -> set[str]:
    """Names of the opponent's private cards (hand, face-down stock/master/Medarots, private limbo)."""
    c = st.cards
    o = 1 - viewer
    out = {c[k].name for k in st.hand[o]}
    out.update(c[x.top()].name for x in st.board if x is not None and x.owner == o and not x.face_up)
    out.update(c[s.card].name for s in [*st.stock[o], st.master[o]] if s is not None and not s.face_up)
    lim = st.limbo[o]
    if lim is not None and not lim[1]:
        out.add(c[lim[0]].name)
    return out


def assert_no_leak(st: GameState, viewer: int) -> None:
    text = render_text(st, viewer)
    public = public_names(st, viewer)
    for name in hidden_names(st, viewer) - public:
        short = name[:8]
        if any(short in p for p in public):
            continue  # cannot tell a hidden name from a public one that contains it
        assert short not in text, f"P{1 - viewer}'s hidden {name!r} shown to P{viewer}:\n{text}"


def cell(text: str, square: int) -> list[str]:
    """The three lines of ``square``'s board cell in a rendering."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        at = line.find(f"|{square:>2} ")
        if at >= 0 and line.count("|") == 6:
            end = line.index("|", at + 1)
            return [ln[at + 1 : end].rstrip() for ln in lines[i : i + 3]]
    raise AssertionError(f"square {square} not found in:\n{text}")


def hand_lines(text: str) -> list[str]:
    """The two ``hand:`` lines, P1's first (P1's block is drawn above the board)."""
    out = [ln.strip() for ln in text.splitlines() if ln.strip().startswith("hand:")]
    assert len(out) == 2
    return out


# ----------------------------------------------------------------------------- sweeps
@pytest.mark.parametrize("mode", MODES)
def test_renders_random_games_in_every_view(mode):
    seen_dps = set()
    n = 0
    for seed, pair in itertools.product(range(3), ((0, 1), (1, 2), (2, 0))):
        for st in random_states(mode, seed, pair):
            seen_dps.add(st.decision)
            for v in VIEWS:
                text = render_text(st, v)
                assert isinstance(text, str) and "turn" in text
                assert "P1 row 2" in text and "P0 row 0" in text
            n += 1
    assert n > 300
    assert {"PLACE_SQUARE", "ACTION_START", "DECLARE", "DEFENCE", ""} <= seen_dps


@pytest.mark.parametrize("mode", MODES)
def test_player_views_never_show_hidden_names(mode):
    for seed, pair in itertools.product(range(3), ((0, 1), (2, 1))):
        for st in random_states(mode, 10 + seed, pair):
            for v in (0, 1):
                assert_no_leak(st, v)


@pytest.mark.parametrize("mode", MODES)
def test_player_view_depends_only_on_what_the_player_knows(mode):
    """Redrawing everything hidden from ``v`` (spec 7) leaves ``v``'s rendering unchanged."""
    rng = random.Random(5)
    for st in random_states(mode, 21, (0, 1)):
        for v in (0, 1):
            other = st.resample_hidden(v, rng)
            assert render_text(other, v) == render_text(st, v)


# ----------------------------------------------------------------------------- hidden information
def unique_card(st: GameState, kind: str) -> str:
    """A card id of ``kind`` whose name (and 8-char short name) appears nowhere in the god view."""
    god = render_text(st)
    for cid, card in st.cards.items():
        if card.kind == kind and card.name[:8] not in god:
            return cid
    raise AssertionError("no unused card name in the pool")


@pytest.mark.parametrize("mode", MODES)
def test_opponent_hand_card_is_hidden(mode):
    st = make_game(mode)
    cid = unique_card(st, MEDAROT)
    name = st.cards[cid].name
    st.hand[1].insert(0, cid)
    mine = render_text(st, 0)
    assert name not in mine and name[:8] not in mine
    assert f"hand: {len(st.hand[1])} hidden card(s)" in mine
    assert f"0:{name}" in render_text(st, 1)
    assert f"0:{name}" in render_text(st, None)


@pytest.mark.parametrize("mode", ["normal", "advance"])
def test_opponent_face_down_stock_and_master_are_hidden(mode):
    st = make_game(mode)
    rng = random.Random(0)
    st = play_until(
        st, rng, lambda s: s.master[1] is not None and any(s.stock[1]) and not s.master[1].face_up
    )
    for slot in [st.master[1], *[s for s in st.stock[1] if s is not None]]:
        assert not slot.face_up
        slot.card = unique_card(st, "MEDAROTER")
        name = st.cards[slot.card].name
        assert name not in render_text(st, 0)
        assert name in render_text(st, 1) and name in render_text(st, None)
    mine = render_text(st, 0)
    assert f"master: {HIDDEN} (face down)" in mine
    assert f"[0] {HIDDEN} (face down)" in mine


@pytest.mark.parametrize("mode", MODES)
def test_opponent_face_down_medarot_shows_question_marks(mode):
    st = make_game(mode)
    cid = unique_card(st, MEDAROT)
    name = st.cards[cid].name
    square = next(s for s in range(10, 15) if st.board[s] is None)
    st.board[square] = Stack(st.next_uid, 1, cid, face_up=False, placed=True)
    st.next_uid += 1
    mine = render_text(st, 0)
    lines = cell(mine, square)
    assert lines[0].split()[:2] == [str(square), "P1"] and "d" in lines[0].split()[2]
    assert lines[1] == HIDDEN and lines[2] == ""
    assert name[:8] not in mine
    for v in (1, None):
        assert cell(render_text(st, v), square)[1].startswith(name[:8])


def test_face_down_medarots_from_play_are_hidden_and_own_ones_are_not():
    st = make_game("advance")
    rng = random.Random(1)
    st = play_until(st, rng, lambda s: any(x is not None and not x.face_up for x in s.board))
    for s, x in enumerate(st.board):
        if x is None or x.face_up:
            continue
        name = st.cards[x.top()].name
        assert cell(render_text(st, 1 - x.owner), s)[1] == HIDDEN
        assert cell(render_text(st, x.owner), s)[1].startswith(name[:8])
        assert cell(render_text(st), s)[1].startswith(name[:8])


def test_effect_and_guard_log_lines_name_face_down_medarots_by_square_only():
    """The event log is public: a face-down Medarot an effect or a guard concerns is named by its square."""
    seen = 0
    for seed in range(12):
        st = make_game("advance", seed=seed)
        rng = random.Random(seed)
        while not st.done:
            hidden = {
                s: st.cards[x.base].name for s, x in enumerate(st.board) if x is not None and not x.face_up
            }
            n = len(st.events)
            st.apply(rng.choice(st.legal_actions()))
            for line, rec in zip(st.events[n:], st.records[n:], strict=True):
                squares = rec.get("squares", [rec["square"]] if rec["kind"] == "redirect" else [])
                for sq in squares:
                    if sq in hidden and rec["kind"] in ("unit_effect", "redirect"):
                        seen += 1
                        assert f"square {sq}" in line and hidden[sq] not in line, line
    assert seen > 0


# ----------------------------------------------------------------------------- contents
@pytest.mark.parametrize("mode", MODES)
def test_god_view_shows_both_hands(mode):
    st = make_game(mode)
    st = play_until(st, random.Random(2), lambda s: s.turn >= 1 and s.hand[0] and s.hand[1])
    p1_line, p0_line = hand_lines(render_text(st))
    for p, line in ((0, p0_line), (1, p1_line)):
        assert line == "hand: " + ", ".join(f"{i}:{st.cards[c].name}" for i, c in enumerate(st.hand[p]))
    for v in (0, 1):
        p1_line, p0_line = hand_lines(render_text(st, v))
        own, other = (p0_line, p1_line) if v == 0 else (p1_line, p0_line)
        assert own.startswith("hand: 0:")
        assert other == f"hand: {len(st.hand[1 - v])} hidden card(s)"


def test_header_board_and_markers():
    st = make_game("advance")
    st = play_until(st, random.Random(1), lambda s: s.act is not None and s.act.target >= 0)
    text = render_text(st)
    assert f"turn {st.turn}" in text and f"first: P{st.first}" in text
    assert f"decision: {st.decision}, P{st.current_player} decides" in text
    assert f"P0: HP {st.hp[0]} | deck {len(st.deck[0])} | hand {len(st.hand[0])}" in text
    assert f"P1: HP {st.hp[1]} | deck {len(st.deck[1])}" in text
    lines = text.splitlines()
    assert lines.index(next(ln for ln in lines if ln.startswith("P1 row 2"))) < lines.index(
        next(ln for ln in lines if ln.startswith("P0 row 0"))
    )
    acting = next(s for s, x in enumerate(st.board) if x is not None and x.uid == st.act.uid)
    target = next(s for s, x in enumerate(st.board) if x is not None and x.uid == st.act.target)
    assert "*" in cell(text, acting)[0] and "!" in cell(text, target)[0]
    x = st.board[acting]
    card = st.cards[x.top()]
    from deckgym.envs.medarot_ocg.rules.board import eff_armor, eff_power, eff_speed

    assert (
        cell(text, acting)[1]
        == f"{card.name[:8]:<8} {'SMX'[('SHOOTING', 'MELEE', 'SPECIAL').index(card.type)]}"
    )
    assert cell(text, acting)[2] == f"{eff_power(st, x)}/{eff_armor(st, x)}/{eff_speed(st, x)}"
    assert "last events:" in text and st.events[-1] in text


def test_finished_game_and_bad_viewer():
    st = next(s for s in random_states("beginner", 0, (0, 1), limit=5000) if s.is_terminal())
    assert "GAME OVER" in render_text(st)
    with pytest.raises(ValueError):
        render_text(st, 2)
