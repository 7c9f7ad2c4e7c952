"""The play page's layout in a real browser: the game on one 1280 x 900 screen, and usable at 390 px.

For each ruleset a game against the Beginner level at a 1280 x 900 window (cut after a number
of decisions), and at every decision, once the page has settled and without scrolling the
window: the prompt (``#decision``), every legal move's button, the last moves (``#recent``,
when shown) and the person's own hand (the board's places ``hand/<seat>/<i>``; at an AMALOGS
table ``table:hand/<the person's seat there>/<i>``, one per card of the hand in the view) lie
wholly inside the window and inside every box that clips them (a scrolling move list or board
counts only with what it shows). The first decision is outlined on the board. AMALOGS is
played until a duel's table has been open for a while, and its long list of map moves seen.
At 390 x 844 no spot of a board is cut off: each can be scrolled into sight within the board.

Uses ``deckgym serve`` and Chromium as tests/agents/test_browser.py does (its fixtures). With
``DECKGYM_UPDATE_FIGURES=1`` the figures ``docs/figures/board_<ruleset>.png`` of docs/play.md
are taken here, at 1280 x 900.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from tests.agents import test_browser as browser_test
from tests.agents.test_browser import FIGURES, SETTLED, WAIT_MS, Page

# the browser test's fixtures: deckgym serve in a subprocess (one for this module) and Chromium
server = browser_test.server
browser = browser_test.browser

pytestmark = pytest.mark.slow

WIDE = {"width": 1280, "height": 900}
NARROW = {"width": 390, "height": 844}

#: (test id, env, mode, {option: value as the lobby's select holds it}, seed, decisions to play,
#: the decision after which the docs' figure is taken (None: no figure))
GAMES = [
    ("ocg", "medarot_ocg_v1", "beginner", {}, 3, 40, 12),
    ("ocg-normal", "medarot_ocg_v1", "normal", {}, 3, 40, None),
    ("ocg-advance", "medarot_ocg_v1", "advance", {}, 3, 40, None),
    ("mow", "mow_v1", None, {}, 3, 40, 12),
    ("parts", "medarot_parts_v1", None, {}, 3, 40, 12),
    ("amalogs", "amalogs_v2", None, {"team_sizes": "[1,1]"}, 3, 70, 24),
]

#: Resolves once the page has drawn what it holds: the board scripts a board fetches for a
#: table (AMALOGS) are in, and two frames have passed (the page refits its board in a frame).
SETTLE_LAYOUT = """async () => {
    const ready = () => {
        const core = window.deckgym.game?.view?.board?.core;
        return !core || typeof (window.deckgymBoards || {})[core.env] === "function";
    };
    for (let i = 0; i < 200 && !ready(); i++) await new Promise((r) => setTimeout(r, 25));
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    return true;
}"""

#: The boxes to check, each as {what, rect, clip}: its rect, and the part of the window that
#: every box around it with a scrolling or hidden overflow lets show. The person's own hand is
#: found by its place keys (app.js placeKey): "hand/<seat>/<i>" for the person's seats, and
#: "table:hand/<seat>/<i>" at an AMALOGS table, where the person sits at view.board.core.seat.
MEASURE = """() => {
    const g = window.deckgym.game;
    const box = (r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
    function clip(node) {
        let c = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
        for (let a = node.parentElement; a; a = a.parentElement) {
            const s = getComputedStyle(a);
            if (s.overflowX === "visible" && s.overflowY === "visible") continue;
            const r = a.getBoundingClientRect();
            c = { left: Math.max(c.left, r.left), top: Math.max(c.top, r.top),
                  right: Math.min(c.right, r.right), bottom: Math.min(c.bottom, r.bottom) };
        }
        return c;
    }
    const item = (what, node) => ({ what, rect: box(node.getBoundingClientRect()), clip: clip(node) });
    const out = [item("prompt", document.getElementById("decision"))];
    for (const b of document.querySelectorAll("#actions button.action")) out.push(item(`move ${b.dataset.index}`, b));
    const recent = document.getElementById("recent");
    if (!recent.hidden) out.push(item("last moves", recent));
    const seats = new Set(g.seats.map(String));
    const core = g.view?.board?.core;
    const hand = [];
    for (const n of document.querySelectorAll("#view [data-place]")) {
        const m = /^(?:([\\w-]+):)?hand\\/(\\d+)\\/\\d+$/.exec(n.dataset.place);
        if (!m) continue;
        if (m[1] ? m[1] === "table" && core && core.source === "table" && String(core.seat) === m[2] : seats.has(m[2]))
            hand.push(item(`hand card ${n.dataset.place}`, n));
    }
    const board = document.querySelector("#view > *");
    return {
        items: out.concat(hand),
        hand: hand.length,
        moves: document.querySelectorAll("#actions button.action").length,
        legalOutlined: document.querySelectorAll("#view [data-place].legal").length,
        scrollY: window.scrollY,
        zoom: board ? Number(getComputedStyle(board).zoom || 1) : 1,
        whole: (() => { const v = document.getElementById("view");
                        return v.scrollHeight <= v.clientHeight + 1 && v.scrollWidth <= v.clientWidth + 1; })(),
    };
}"""


def own_hand_size(g: dict[str, Any]) -> int | None:
    """The number of cards in the person's hand as the view holds them; None where no hand is drawn open."""
    view = g["view"]
    core = (view.get("board") or {}).get("core") if isinstance(view.get("board"), dict) else None
    if g["env"] == "amalogs_v2":
        if not core or core.get("source") != "table":
            return None  # between duels the person's own core game is folded away
        return len(core["players"][core["seat"]].get("hand") or [])
    return sum(len(view["players"][s].get("hand") or []) for s in g["seats"])


def outside(item: dict[str, Any]) -> str | None:
    """Where ``item`` is not wholly in sight, in words; None when it is."""
    r, c = item["rect"], item["clip"]
    if r["right"] - r["left"] <= 0 or r["bottom"] - r["top"] <= 0:
        return f"{item['what']} is not drawn"
    slack = 1.0
    if r["left"] < c["left"] - slack or r["right"] > c["right"] + slack:
        return f"{item['what']} spans x {r['left']:.0f}..{r['right']:.0f}, in sight {c['left']:.0f}..{c['right']:.0f}"
    if r["top"] < c["top"] - slack or r["bottom"] > c["bottom"] + slack:
        return f"{item['what']} spans y {r['top']:.0f}..{r['bottom']:.0f}, in sight {c['top']:.0f}..{c['bottom']:.0f}"
    return None


def start(
    chromium: Any,
    base: str,
    viewport: dict[str, int],
    env: str,
    mode: str | None,
    options: dict[str, str],
    seed: int,
) -> tuple[Page, dict[str, Any]]:
    """A tab at ``viewport`` with a new game against Beginner, drawn and settled; the game object."""
    tab = Page(chromium, base)
    tab.page.set_viewport_size(viewport)
    g = tab.start(env, mode, options, seed)
    tab.page.evaluate(SETTLE_LAYOUT)
    return tab, g


@pytest.mark.parametrize(
    ("name", "env", "mode", "options", "seed", "decisions", "shot_at"), GAMES, ids=[g[0] for g in GAMES]
)
def test_the_decision_and_the_own_hand_on_one_screen(
    browser, server, tmp_path, name, env, mode, options, seed, decisions, shot_at
):
    tab, g = start(browser, server, WIDE, env, mode, options, seed)
    p = tab.page
    rng = random.Random(seed)
    bottoms: list[float] = []  # the lowest bottom edge of the prompt, moves and own hand at each decision
    zooms: list[float] = []
    whole = 0  # the decisions at which the whole board shows (no scrolling within its column)
    tables = most_moves = 0
    for d in range(decisions):
        if g["done"]:
            break
        assert g["your_turn"] and g["legal"], g
        m = p.evaluate(MEASURE)
        where = [w for w in map(outside, m["items"]) if w]
        assert not where, f"decision {d} ({g['decision_text']!r}): {where[:6]}"
        assert m["scrollY"] == 0, "the window was scrolled"
        assert m["moves"] == len(g["legal"])
        size = own_hand_size(g)
        if size is not None:
            assert m["hand"] == size, (
                f"decision {d}: {m['hand']} cards of the own hand drawn, {size} in the view"
            )
        if d == 0 and any(mv["places"] for mv in g["legal"]):
            assert m["legalOutlined"] > 0, "the first decision is not outlined on the board"
        if env == "amalogs_v2" and size is not None and (g["view"]["board"] or {}).get("duel"):
            tables += 1  # a decision at a duel's table, the person's hand on it checked
        most_moves = max(most_moves, len(g["legal"]))
        bottoms.append(max(i["rect"]["bottom"] for i in m["items"] if i["what"] != "last moves"))
        zooms.append(m["zoom"])
        whole += m["whole"]
        if d == shot_at:
            shot = (
                FIGURES / f"board_{name}.png"
                if os.environ.get("DECKGYM_UPDATE_FIGURES") == "1"
                else tmp_path / "board.png"
            )
            p.mouse.move(0, 0)  # no button under the mouse (hovered) in the picture
            p.locator("#game").screenshot(path=str(shot))
            assert shot.stat().st_size > 10_000
        move = rng.choice(g["legal"])
        p.locator(f"#actions button.action[data-index='{move['index']}']").click()
        p.wait_for_function(SETTLED, arg=g["moves"], timeout=WAIT_MS)
        p.evaluate(SETTLE_LAYOUT)
        g = tab.game()
    tab.check()
    if env == "amalogs_v2":
        assert tables >= 5, "no duel table was played at"
        assert most_moves > 30, "the long list of map moves never came"
    print(
        f"\n{name}: {len(bottoms)} decisions at 1280x900, lowest bottom edge of prompt/moves/own hand "
        f"{max(bottoms):.0f} px (median {sorted(bottoms)[len(bottoms) // 2]:.0f}), "
        f"board zoom {min(zooms):.2f}..{max(zooms):.2f}, whole board in sight at {whole}, most moves {most_moves}"
    )
    p.close()


#: Each spot of the board, scrolled into sight (within the board, which may scroll sideways):
#: the spots that then still reach past the window's sides, and the page's own width.
CUT_OFF = """() => {
    const cut = [];
    for (const n of document.querySelectorAll("#view [data-place]")) {
        if (!n.getClientRects().length) continue;
        n.scrollIntoView({ block: "nearest", inline: "nearest" });
        const r = n.getBoundingClientRect();
        if (r.width > window.innerWidth) continue; // a spot wider than the screen cannot show whole
        if (r.left < -0.5 || r.right > window.innerWidth + 0.5) cut.push(`${n.dataset.place} at x ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return { cut, pageWidth: document.documentElement.scrollWidth };
}"""


@pytest.mark.parametrize(
    ("name", "env", "mode", "options", "seed"),
    [g[:5] for g in GAMES if g[0] in ("ocg", "mow", "parts", "amalogs")],
    ids=["ocg", "mow", "parts", "amalogs"],
)
def test_no_board_column_is_cut_off_at_390_px(browser, server, name, env, mode, options, seed):
    tab, g = start(browser, server, NARROW, env, mode, options, seed)
    p = tab.page
    rng = random.Random(seed)
    for _ in range(3 if env == "amalogs_v2" else 0):  # AMALOGS: on to its first table's board
        p.locator(f"#actions button.action[data-index='{rng.choice(g['legal'])['index']}']").click()
        p.wait_for_function(SETTLED, arg=g["moves"], timeout=WAIT_MS)
        p.evaluate(SETTLE_LAYOUT)
        g = tab.game()
    assert p.locator("#decision").is_visible() and p.locator("#actions button.action").count() == len(
        g["legal"]
    )
    res = p.evaluate(CUT_OFF)
    assert res["pageWidth"] <= NARROW["width"], f"the page is {res['pageWidth']} px wide"
    assert p.locator("#view [data-place]").count() > 5
    assert not res["cut"], res["cut"][:8]
    tab.check()
    p.close()


#: The contrast ratio (WCAG) of an input's placeholder text on the input's background.
PLACEHOLDER_CONTRAST = """(selector) => {
    const node = document.querySelector(selector);
    const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const lum = (c) => {
        const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        const [r, g, b] = rgb(c);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const [hi, lo] = [lum(getComputedStyle(node, "::placeholder").color), lum(getComputedStyle(node).backgroundColor)].sort((a, b) => b - a);
    return (hi + 0.05) / (lo + 0.05);
}"""


def test_words_marks_and_contrast(browser, server):
    """The smaller points: the lobby's placeholder reads (4.5:1); moves that read the same are
    told apart by their places; a long list folds its numbered moves; a card that only moved
    along the hand is not marked as changed (a card new to it is); the AI's moves do not read
    "The opponent: The opponent ..."; the head names the players as the log does."""
    tab = Page(browser, server)
    p = tab.page
    p.set_viewport_size(WIDE)
    assert p.evaluate(PLACEHOLDER_CONTRAST, "#seed") >= 4.5
    texts = p.evaluate("""() => window.deckgym.distinctTexts([
        { text: "Put Melee Energy into your energy stock", label: "E0", places: [{ zone: "hand", player: 0, index: 0 }, { zone: "energy", player: 0, index: 1 }], keys: ["hand/0/0", "energy/0/1"] },
        { text: "Put Melee Energy into your energy stock", label: "E1", places: [{ zone: "hand", player: 0, index: 3 }, { zone: "energy", player: 0, index: 1 }], keys: ["hand/0/3", "energy/0/1"] },
        { text: "Pass", label: "PASS", places: [], keys: [] },
    ])""")
    assert texts == [
        "Put Melee Energy into your energy stock (hand card 1)",
        "Put Melee Energy into your energy stock (hand card 4)",
        "Pass",
    ]
    groups = p.evaluate("""() => window.deckgym.foldByNumber(
        ["Move to row 1, column 1", "Move to row 1, column 2", "Stay", "Move to row 1, column 7", "Move to row 2, column 1"])""")
    assert groups == [
        {"head": "Move to row 1, column", "items": [0, 1, 3]},
        {"head": None, "items": [2]},
        {"head": None, "items": [4]},
    ]
    changed = p.evaluate("""() => window.deckgym.changedPlaces(
        { "hand/0/0": "|A", "hand/0/1": "|B", "hand/0/2": "|C", "table:hand/1/0": "|A", "square/0/3": "|x", "deck/0/": "|9" },
        { "hand/0/0": "|B", "hand/0/1": "|C", "hand/0/2": "|D", "table:hand/1/0": "|A", "square/0/3": "|y", "deck/0/": "|9", "square/0/4": "|z" })""")
    assert sorted(changed) == ["hand/0/2", "square/0/3"]  # B and C only moved along the hand; D is new
    g = tab.start("medarot_ocg_v1", "beginner", {}, 3)
    rng = random.Random(3)
    seen = False
    for _ in range(30):
        if g["done"]:
            break
        if any(r["who"] == "opponent" for r in g["recent"]):
            seen = True
            text = p.locator("#recent").inner_text()
            assert "The opponent: " in text and "The opponent: The opponent" not in text, text
        p.locator(f"#actions button.action[data-index='{rng.choice(g['legal'])['index']}']").click()
        p.wait_for_function(SETTLED, arg=g["moves"], timeout=WAIT_MS)
        g = tab.game()
    assert seen
    meta = p.locator("#game-meta").inner_text()
    assert meta.startswith("you: P0 · opponent: P1, Beginner AI · move "), meta
    tab.check()
    p.close()
