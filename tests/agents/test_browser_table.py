"""The card table's move list, its look back through the game, and the AI's clock, in Chromium."""

from __future__ import annotations

import pytest

from tests.agents.test_browser import (  # noqa: F401 (fixtures)
    WAIT_MS,
    Page,
    browser,
    server,
    serving,
)


def _move(tab: Page) -> dict:
    p = tab.page
    with p.expect_response(lambda r: r.url.endswith("/actions")):
        p.locator("#actions button.action").first.click()
    tab.settle()
    return tab.game()


def test_the_move_list_looks_back_through_the_game_and_comes_back(browser, server):  # noqa: F811
    tab = Page(browser, server)
    p = tab.page
    g = tab.start("mow_v1", None, {}, 4)
    for _ in range(3):
        if not g["done"]:
            g = _move(tab)
    p.click("#moves-panel summary")
    p.wait_for_selector("#move-list button", timeout=WAIT_MS)
    entries = p.locator("#move-list button")
    assert entries.count() == g["moves"] and f"({g['moves']})" in p.locator("#moves-count").inner_text()
    moves = tab.fetch(f"/api/games/{g['game_id']}/moves")["moves"]
    assert entries.first.inner_text().endswith(moves[0]["text"])
    with p.expect_response(lambda r: "/positions/1" in r.url):
        entries.first.click()
    p.wait_for_selector("#lookback:not([hidden])", timeout=WAIT_MS)
    assert "After move 1 of" in p.locator("#lookback-text").inner_text()
    assert p.evaluate("window.deckgym.lookback.k") == 1
    back = tab.fetch(f"/api/games/{g['game_id']}/positions/1")
    assert p.evaluate("window.deckgym.lookback.view") == back["view"]  # the board drawn is that position's
    assert all(
        b.is_disabled() for b in p.locator("#actions button.action").all()
    )  # no move while looking back
    with p.expect_response(lambda r: "/positions/0" in r.url):
        p.click("#lookback-prev")
    p.wait_for_function("window.deckgym.lookback && window.deckgym.lookback.k === 0", timeout=WAIT_MS)
    p.click("#lookback-exit")
    assert p.locator("#lookback").is_hidden() and p.evaluate("window.deckgym.lookback") is None
    if g["your_turn"]:
        assert not p.locator("#actions button.action").first.is_disabled()
    assert tab.fetch(f"/api/games/{g['game_id']}")["moves"] == g["moves"]  # the game did not change
    tab.check()
    p.close()


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory):
    """The play server whose AI thinks 2 s a decision (tests/agents/slow_server.py)."""
    yield from serving(tmp_path_factory.mktemp("slow"), "tests.agents.slow_server", "{port}", "2")


def test_the_ais_clock_runs_while_it_thinks_and_resign_is_taken_at_once(browser, slow_server):  # noqa: F811
    tab = Page(browser, slow_server)
    p = tab.page
    g = tab.start("mow_v1", None, {}, 2)
    assert g["your_turn"]
    p.locator("#actions button.action").first.click()  # the AI thinks 2 s a decision
    p.wait_for_selector("#thinking:not([hidden])", timeout=WAIT_MS)
    first = float(p.locator("#clock").inner_text().split()[0])
    p.wait_for_timeout(700)
    later = float(p.locator("#clock").inner_text().split()[0])
    assert later > first  # the clock counts the AI's time
    assert not p.locator("#resign").is_disabled()  # resign at any time
    with p.expect_response(lambda r: r.url.endswith("/resign"), timeout=3000):
        p.click("#resign")  # the dialog is accepted; the answer does not wait for the AI
    p.wait_for_selector("#gameover:not([hidden])", timeout=3000)
    assert "You lost" in p.locator("#gameover").inner_text()
    tab.settle()
    p.wait_for_selector("#thinking", state="hidden", timeout=WAIT_MS)
    tab.errors.clear()  # the AI's last move answers after the resign: its late reply is expected
    p.close()
