"""The card table's accessibility in a real browser: axe-core, the keyboard, and card text by tap.

For each ruleset (the OCG's beginner rules, MoW, the parts game, AMALOGS one against one), a game
against Beginner in Chromium (``deckgym serve`` in a subprocess, as in ``test_browser.py``):

- axe-core (``axe-playwright-python``, the ``browser`` extra) finds no colour-contrast violation
  (WCAG AA, 4.5:1 for normal text) and none of its keyboard rules (``cat.keyboard``: among them
  ``nested-interactive``, ``scrollable-region-focusable``, ``tabindex``) on the board, in a few
  positions with the piles folded open;
- a legal place of the board is reached with Tab and played with Enter as a click would play it,
  with a visible focus ring, and the focus comes back to the board after the move;
- the text of a card in the person's hand (its effects and costs) is on the page and visible after
  one click on the card's "i" button (no hover), which plays no move; Escape closes it.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.agents import test_browser as browser_test
from tests.agents.test_browser import AFTER_CLICK, SETTLED, WAIT_MS, Page

# the browser test's fixtures: deckgym serve in a subprocess (one for this module) and Chromium
server = browser_test.server
browser = browser_test.browser

pytestmark = pytest.mark.slow

#: (test id, env, mode, {option: value as the lobby's select holds it}, seed)
GAMES = [
    ("ocg", "medarot_ocg_v1", "beginner", {}, 3),
    ("mow", "mow_v1", None, {}, 3),
    ("parts", "medarot_parts_v1", None, {}, 3),
    ("amalogs", "amalogs_v2", None, {"team_sizes": "[1,1]"}, 3),
]
IDS = [g[0] for g in GAMES]

#: The board region, and the whole game around it (the board, the side panel with the prompt,
#: the moves, the last moves and the move list, and the log), on which axe runs.
BOARD = "#view"
TABLE = "#game"
#: Left out: focus-order-semantics (experimental, off by default) asks every element in the tab
#: order for a widget role; a place that holds other controls (a parts-game medarot holding its
#: parts and their "i" buttons) can have none (a button may not hold controls: nested-interactive),
#: so such a place is focusable without a role; every other place is a button.
LEFT_OUT = {"focus-order-semantics"}


def axe_rules(page: Any) -> list[str]:
    """The ids of axe's colour-contrast rule and of every rule tagged keyboard, as axe lists them."""
    Axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe  # the [browser] extra

    page.evaluate(Axe().axe_script)
    keyboard = page.evaluate("axe.getRules(['cat.keyboard']).map((r) => r.ruleId)")
    return sorted({"color-contrast", *keyboard} - LEFT_OUT)


def run_axe(page: Any, rules: list[str]) -> dict[str, list[str]]:
    """axe on the game (board, side panel, log) with only `rules` on: {rule: [targets]} of what it finds."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"runOnly": {"type": "rule", "values": rules}, "resultTypes": ["violations"]}
    found = Axe().run(page, context=TABLE, options=options).response["violations"]
    return {v["id"]: [f"{n['target']}: {n.get('failureSummary', '')}" for n in v["nodes"]] for v in found}


@pytest.fixture(params=GAMES, ids=IDS)
def started(request, browser, server) -> tuple[Page, dict[str, Any], random.Random]:
    """A game of each of ``GAMES`` against Beginner in a new tab: the tab, the game as it starts,
    and a random generator seeded with the game's seed (for the moves the test plays)."""
    _, env, mode, options, seed = request.param
    tab = Page(browser, server)
    return tab, tab.start(env, mode, options, seed), random.Random(seed)


def play_by_buttons(tab: Page, g: dict[str, Any], n: int, rng: random.Random) -> dict[str, Any]:
    """Play `n` moves (random, by their buttons) or until the game is over."""
    p = tab.page
    for _ in range(n):
        if g["done"] or not g["legal"]:
            break
        move = rng.choice(g["legal"])
        p.click(f"#actions button.action[data-index='{move['index']}']")
        p.wait_for_function(SETTLED, arg=g["moves"], timeout=WAIT_MS)
        g = tab.game()
    return g


def test_axe_finds_no_contrast_or_keyboard_violation_on_the_table(started):
    tab, g, rng = started
    p = tab.page
    rules = axe_rules(p)
    assert "color-contrast" in rules and "scrollable-region-focusable" in rules, rules
    for _ in range(3):  # a few positions, the piles folded open (their cards drawn)
        g = play_by_buttons(tab, g, 4, rng)
        p.evaluate(f"document.querySelectorAll('{TABLE} details').forEach((d) => d.open = true)")
        found = run_axe(p, rules)
        assert not found, found
        if g["done"]:
            break
    tab.check()
    p.close()


def focused(page: Any) -> str | None:
    """The focused element when it is a legal place of the board (its key) or a candidate move's button."""
    return page.evaluate("""() => {
        const a = document.activeElement;
        if (!a) return null;
        if (a.closest('#view') && a.matches('[data-place].legal')) return a.dataset.place;
        return a.matches('#actions button.action.candidate') ? 'button' : null;
    }""")


def tab_to(page: Any, want: str, limit: int = 600) -> str:
    """Press Tab until the focus is on a legal place (`want` "place") or on a candidate move's
    button ("button"); the place's key, or "button"."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        k = focused(page)
        if k is not None and (k == "button") == (want == "button"):
            return k
    raise AssertionError(f"no {want} was reached in {limit} presses of Tab")


def test_a_place_is_reached_with_tab_and_played_with_enter(started):
    tab, g, rng = started
    p = tab.page
    # a decision with moves on the board
    while not any(m["places"] for m in g["legal"]) and not g["done"]:
        g = play_by_buttons(tab, g, 1, rng)
    assert not g["done"]
    p.evaluate("document.activeElement && document.activeElement.blur()")
    moves = g["moves"]
    state = ""
    for _ in range(6):  # a place, then the next place of the move, until the move is played
        if not p.locator(f"{BOARD} [data-place].legal").count():
            # the places chosen fit several moves: the keyboard goes on to their buttons
            assert state == "selected"
            tab_to(p, "button")
            p.keyboard.press("Enter")
            break
        k = tab_to(p, "place")
        node = p.locator(f"{BOARD} [data-place='{k}']").first
        ring = node.evaluate(
            "(n) => { const s = getComputedStyle(n); return [s.outlineStyle, s.outlineWidth]; }"
        )
        assert ring[0] != "none" and ring[1] != "0px", f"no visible focus on {k}: {ring}"
        if node.evaluate("(n) => n.tagName") in ("DIV", "SPAN"):  # a button, unless it holds controls
            assert node.get_attribute("role") == "button" or node.locator("button, [tabindex]").count(), k
        p.keyboard.press("Enter")
        state = p.evaluate(AFTER_CLICK, [moves, k])
        assert state in ("moved", "selected"), (k, state)
        if state == "moved":
            break
    p.wait_for_function(SETTLED, arg=moves, timeout=WAIT_MS)
    g = tab.game()
    assert g["moves"] > moves, "Enter on the board played no move"
    if state == "moved" and not g["done"] and any(m["places"] for m in g["legal"]):
        # the focus comes back to the board, on a place that can be played
        p.wait_for_function(
            "() => { const a = document.activeElement; return a && a.closest('#view [data-place]'); }"
        )
    tab.check()
    p.close()


def hand_card(g: dict[str, Any]) -> tuple[str, str, dict[str, Any]] | None:
    """The first card of the person's hand drawn face up: (its place key, its ruleset, the card)."""
    view = g["view"]
    if g["env"] == "amalogs_v2":
        core = view["board"].get("core")
        if not core or core.get("source") != "table":
            return None  # between duels the person's own core game is folded away
        seat = core["seat"]
        hand = core["players"][seat].get("hand") or []
        return (f"table:hand/{seat}/0", core["env"], hand[0]) if hand else None
    seat = view["seat"]
    hand = view["players"][seat].get("hand") or []
    return (f"hand/{seat}/0", g["env"], hand[0]) if hand else None


def card_words(env: str, card: dict[str, Any]) -> list[str]:
    """What the card's text must say: its effects and costs, as the view gives them."""
    if env == "medarot_ocg_v1":
        words = [e["text"] for e in card.get("effects", [])]
        if card["kind"] == "MEDAROTER":
            words.append(f"HP {card['hp_mod']:+d} as a master")
        else:
            words.append(f"cost {card['cost']}")
        return words
    return [str(card["text"]).removeprefix(f"{card['name']}: ")]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def test_card_text_is_one_tap_away(started):
    tab, g, rng = started
    p = tab.page
    for _ in range(20):
        if hand_card(g) or g["done"]:
            break
        g = play_by_buttons(tab, g, 1, rng)
    found = hand_card(g)
    assert found, "no card in the person's hand"
    k, core_env, card = found
    place = p.locator(f"{BOARD} [data-place='{k}']").first
    assert place.is_visible()
    if core_env == "medarot_ocg_v1" and card["kind"] != "MEDAROTER":
        assert f"cost {card['cost']}" in place.inner_text()  # the cost on the card's face
    info = p.locator(f"{BOARD} [data-place='{k}'] ~ button[data-card-info]").first
    assert info.is_visible() and info.get_attribute("aria-expanded") == "false"
    panel = p.locator(f"#{info.get_attribute('aria-controls')}")
    assert panel.is_hidden()
    moves = g["moves"]
    info.click()  # one click (a tap on a touch screen)
    assert panel.is_visible() and info.get_attribute("aria-expanded") == "true"
    shown = squash(panel.inner_text())
    for words in card_words(core_env, card):
        assert squash(words) in shown, (words, shown)
    # reading a card plays nothing and selects nothing
    p.wait_for_timeout(200)
    assert not p.evaluate("window.deckgym.busy") and tab.game()["moves"] == moves
    assert p.locator(f"{BOARD} .place.selected").count() == 0
    # Escape closes it; Enter on the focused button opens it again
    info.press("Escape")
    assert panel.is_hidden()
    info.press("Enter")
    assert panel.is_visible()
    tab.check()
    p.close()
