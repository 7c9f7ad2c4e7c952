"""The play page in a real browser: ``deckgym serve`` in a subprocess, driven by Playwright + Chromium.

A whole game of each ruleset against the Beginner level (random moves, quick replies), played
as a person would: each chosen move is played by clicking its places on the board, in order,
where it has places drawn there, else by its button. On the way: undo (the position comes back
as it was), a hint (a legal move with its winning chance), the AI's moves listed in words, and
no error in the page. A second game is resigned. AMALOGS is played one against one with every
ruleset in the pool (its default).

Needs Debian's ``chromium`` on PATH (``apt-get install chromium``); without it the tests are
skipped, except under CI (``CI`` set), where a missing browser is a failure. The board
figures of the docs (``DECKGYM_UPDATE_FIGURES=1``) are taken by tests/agents/test_browser_layout.py.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "docs" / "figures"
BOARDS = ROOT / "agents" / "play" / "static" / "boards"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
MAX_DECISIONS = 1500
WAIT_MS = 60_000

#: (test id, env, mode, {option: value as the lobby's select holds it}, seed, board script)
GAMES = [
    ("ocg", "medarot_ocg_v1", "beginner", {}, 3, "medarot_ocg"),
    ("mow", "mow_v1", None, {}, 3, "mow"),
    ("parts", "medarot_parts_v1", None, {}, 3, "medarot_parts"),
    ("amalogs", "amalogs_v2", None, {"team_sizes": "[1,1]"}, 3, "amalogs"),
]


def chromium() -> str:
    path = shutil.which("chromium")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("no chromium on PATH: apt-get install chromium")
        pytest.skip("no chromium on PATH: apt-get install chromium")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(base: str, proc: subprocess.Popen, log: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"deckgym serve exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/api/envs", timeout=5) as res:
                if res.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    pytest.fail(f"deckgym serve did not answer GET /api/envs within {timeout:.0f} s:\n{log.read_text()}")


def serving(folder: Path, module: str, *args: str) -> Iterator[str]:
    """``python -m MODULE --port P ARGS`` (a play server) on a free port until closed; its base URL.

    Its output goes to ``folder/serve.log``, shown when it does not come up.
    """
    pytest.importorskip("playwright.sync_api")
    chromium()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = folder / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", module, *[str(port) if a == "{port}" else a for a in args]],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_up(base, proc, log)
        yield base
    finally:
        proc.kill()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``deckgym serve`` on a free port, for every test of this file; its base URL."""
    folder = tmp_path_factory.mktemp("serve")
    db = str(folder / "games.db")
    yield from serving(folder, "deckgym.agents.cli", "serve", "--port", "{port}", "--db", db)


@pytest.fixture(scope="module")
def browser(server):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium(), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


class Page:
    """A browser tab on the play page, with the page's errors collected."""

    def __init__(self, browser: Any, base: str) -> None:
        self.page = browser.new_page(viewport={"width": 1400, "height": 1000})
        self.errors: list[str] = []
        self.escaped = False  # whether Escape was tried on a selection
        self.page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        self.page.on("console", self._console)
        self.page.on("dialog", lambda d: d.accept())  # resign and leave ask first
        self.page.goto(base + "/")
        self.page.wait_for_selector("body[data-ready='1']", timeout=WAIT_MS)

    def _console(self, msg: Any) -> None:
        if msg.type != "error":
            return
        url = (msg.location or {}).get("url", "")
        if "/static/boards/" in url and not Path(BOARDS, url.rsplit("/", 1)[-1]).exists():
            return  # a ruleset whose board is not written yet: the page draws it generically
        self.errors.append(f"console: {msg.text} ({url})")

    def start(self, env: str, mode: str | None, options: dict[str, str], seed: int) -> dict[str, Any]:
        p = self.page
        p.select_option("#env", env)
        if mode is not None:
            p.select_option("#mode", mode)
        for name, value in options.items():
            p.select_option(f"select[data-option='{name}']", value)
        p.select_option("#opponent", "Beginner")
        assert p.locator("#opponent option:checked").inner_text().startswith("Beginner — ")
        p.select_option("#seat", "0")
        p.fill("#seed", str(seed))
        with p.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/api/games")):
            p.click("#start")
        self.settle()
        assert p.locator("#game").is_visible()
        assert p.locator("#replay-player").is_hidden()
        return self.game()

    def settle(self) -> None:
        self.page.wait_for_selector("#actions[aria-busy='false']", state="attached", timeout=WAIT_MS)

    def game(self) -> dict[str, Any]:
        """The game object the page holds."""
        return self.page.evaluate("window.deckgym.game")

    def fetch(self, path: str) -> dict[str, Any]:
        """A GET of the API from the page."""
        return self.page.evaluate(f"fetch({json.dumps(path)}).then((r) => r.json())")

    def check(self) -> None:
        err = self.page.locator("#error")
        assert err.is_hidden(), err.inner_text()
        assert not self.errors, self.errors

    def click(self, selector: str) -> bool:
        """A real click on the first element ``selector`` finds, on a point where no other place
        of the board covers it (dispatched when there is none); False when it is not drawn."""
        point = self.page.evaluate(CLICK_POINT, selector)
        if point is None:
            return False
        if point == "covered":
            self.page.locator(selector).first.dispatch_event("click")
        else:
            self.page.mouse.click(point[0], point[1])
        return True

    def play(self, move: dict[str, Any], moves: int) -> tuple[bool, dict[str, Any]]:
        """Play ``move`` (the game is at ``moves`` moves): click its places on the board in
        order, else its button. Returns whether the board played it, and the new game object.
        The page's request must carry the move's index."""
        p = self.page
        sent: list[int] = []

        def on_request(req: Any) -> None:
            if req.method == "POST" and req.url.endswith("/actions"):
                sent.append(json.loads(req.post_data)["index"])

        keys = list(dict.fromkeys(f"{q['zone']}/{_s(q['player'])}/{_s(q['index'])}" for q in move["places"]))
        drawn = bool(keys) and p.evaluate(ALL_LEGAL, keys)
        p.on("request", on_request)
        try:
            by_board = False
            if drawn:
                for k in keys:
                    assert self.click(f"#view [data-place='{k}'].place"), f"no spot {k} for {move['text']!r}"
                    state = p.evaluate(AFTER_CLICK, [moves, k])
                    if state == "moved":
                        by_board = True
                        break
                    assert state == "selected", (k, state, move)
                    if not self.escaped:  # Escape clears a selection; the spot is clicked again
                        self.escaped = True
                        p.keyboard.press("Escape")
                        assert p.locator("#view .place.selected").count() == 0
                        assert self.click(f"#view [data-place='{k}'].place")
                        assert p.evaluate(AFTER_CLICK, [moves, k]) == "selected"
            if not by_board:
                assert self.click(f"#actions button.action[data-index='{move['index']}']"), move
            p.wait_for_function(SETTLED, arg=moves, timeout=WAIT_MS)
            deadline = time.monotonic() + 10
            while not sent and time.monotonic() < deadline:
                p.wait_for_timeout(10)
            assert sent == [move["index"]], (sent, move)
        finally:
            p.remove_listener("request", on_request)
        return by_board, self.game()


#: A point of the first element a selector finds (scrolled into view) where a click lands on it,
#: not on a place of the board inside it; "covered" when there is none; null when it is not drawn.
CLICK_POINT = """(selector) => {
    const node = document.querySelector(selector);
    if (!node || !node.getClientRects().length) return null;
    node.scrollIntoView({ block: "nearest", inline: "nearest" });
    const r = node.getBoundingClientRect();
    for (const fy of [0.5, 0.15, 0.85, 0.05, 0.95]) {
        for (const fx of [0.5, 0.15, 0.85, 0.05, 0.95]) {
            const x = r.left + r.width * fx, y = r.top + r.height * fy;
            const hit = document.elementFromPoint(x, y);
            if (hit && (hit === node || node.contains(hit)) && hit.closest("[data-place]") === node.closest("[data-place]"))
                return [x, y];
        }
    }
    return "covered";
}"""
#: Whether every key is drawn on the board as a place marked legal.
ALL_LEGAL = """(keys) => keys.every((k) =>
    [...document.querySelectorAll("#view [data-place].place.legal")].some((n) => n.dataset.place === k))"""
#: After a click on a place: "moved" (the move is sent or done), "selected" (the place is marked), else "".
AFTER_CLICK = """([moves, key]) => {
    const app = window.deckgym;
    if (app.busy || app.game.moves !== moves) return "moved";
    const marked = [...document.querySelectorAll("#view [data-place].selected")].some((n) => n.dataset.place === key);
    return marked ? "selected" : "";
}"""
#: The move is played and answered: the page is ready for the next decision (or the end).
SETTLED = """(moves) => !window.deckgym.busy && window.deckgym.game.moves !== moves
    && document.querySelector("#actions").getAttribute("aria-busy") === 'false'"""


def _s(x: Any) -> str:
    return "" if x is None else str(x)


def board_registered(page: Page, env: str) -> bool:
    return page.page.evaluate(f"typeof (window.deckgymBoards || {{}})[{json.dumps(env)}] === 'function'")


@pytest.mark.parametrize(
    ("name", "env", "mode", "options", "seed", "script"), GAMES, ids=[g[0] for g in GAMES]
)
def test_a_whole_game_by_clicking_the_board(browser, server, name, env, mode, options, seed, script):
    tab = Page(browser, server)
    p = tab.page
    has_board = (BOARDS / f"{script}.js").exists()
    assert board_registered(tab, env) == has_board
    g = tab.start(env, mode, options, seed)
    assert g["env"] == env and g["level"] == "Beginner"
    rng = random.Random(seed)
    decisions = board_moves = 0
    undone = hinted = saw_opponent = saw_changed = False
    while not g["done"]:
        assert decisions < MAX_DECISIONS, f"no end after {MAX_DECISIONS} decisions"
        assert g["your_turn"] and g["legal"], g
        assert not tab.errors, tab.errors
        if decisions % 10 == 0:
            tab.check()
            assert p.locator("#actions button.action").count() == len(g["legal"])
            assert p.locator("#decision").inner_text() == g["decision_text"]
        if not hinted and decisions >= 2:
            hinted = True
            p.click("#hint")
            p.wait_for_selector("#hint-box b", timeout=WAIT_MS)
            h = p.evaluate("window.deckgym.hint")
            assert h["index"] in {m["index"] for m in g["legal"]}
            assert 0.0 <= h["win_chance"] <= 1.0 and h["rollouts"] > 0
            assert f"over {h['rollouts']} rollouts" in p.locator("#hint-box").inner_text()
        move = rng.choice(g["legal"])
        if not undone and decisions >= 2:
            before = tab.fetch(f"/api/games/{g['game_id']}")
        on_board, g = tab.play(move, g["moves"])
        board_moves += on_board
        decisions += 1
        if has_board and not saw_changed and any(r["who"] == "opponent" for r in g["recent"]):
            saw_changed = p.locator("#view .place.changed").count() > 0  # what the AI did, marked
        if not saw_opponent and any(r["who"] == "opponent" for r in g["recent"]):
            saw_opponent = True  # the AI's moves in words above the board
            assert "The opponent: " in p.locator("#recent").inner_text()
        if not undone and not g["done"] and decisions >= 3:
            undone = True
            assert g["can_undo"]
            with p.expect_response(lambda r: r.url.endswith("/undo")):
                p.click("#undo")
            tab.settle()
            after = tab.fetch(f"/api/games/{g['game_id']}")
            assert after["view"] == before["view"]
            assert after["legal"] == before["legal"]
            on_board, g = tab.play(move, after["moves"])  # the same move again
            board_moves += on_board
    tab.check()
    assert undone and hinted and saw_opponent
    if has_board:
        assert board_moves > 0, "no move was played on the board"
        assert saw_changed, "the AI's moves were never marked on the board"

    # the end
    text = p.locator("#gameover").inner_text()
    assert any(f"You {w}" in text for w in ("won", "lost", "drew")), text
    assert p.locator("#actions button.action").count() == 0
    assert p.locator("#undo").is_disabled() and p.locator("#resign").is_disabled()
    assert p.locator("#log li").count() == min(len(g["log"]), 1000) > 0
    href = p.locator("#download-replay").get_attribute("href")
    assert href == f"/api/games/{g['game_id']}/replay"

    # the replay opens in the viewer
    p.click("#watch-replay")
    p.wait_for_selector("#replay-player:not([hidden]), #error:not([hidden])", timeout=WAIT_MS)
    tab.check()
    assert int(p.locator("#replay-slider").get_attribute("max")) >= decisions
    p.click("#replay-next")
    assert p.locator("#replay-label").inner_text() != "start"
    assert p.locator("#replay-view [data-place], #replay-view .generic").count() > 0

    # a rematch: a new game, seats swapped, the replay panel cleared
    with p.expect_response(lambda r: r.url.endswith("/rematch")):
        p.click("#rematch")
    tab.settle()
    again = tab.game()
    assert again["game_id"] != g["game_id"] and again["seats"] != g["seats"]
    assert p.locator("#replay-player").is_hidden()
    tab.check()
    p.close()


def test_resign_and_leave(browser, server):
    tab = Page(browser, server)
    p = tab.page
    g = tab.start("mow_v1", None, {}, 5)
    assert not g["done"]
    env = next(e for e in tab.fetch("/api/envs")["envs"] if e["name"] == "mow_v1")
    if env["help"]:  # the rules in words: the markdown drawn as headings, lists and paragraphs
        p.click("#help-toggle")
        assert p.locator("#help").is_visible()
        shown = p.locator("#help").inner_text()
        assert shown.strip() and "**" not in shown and "\n#" not in shown
        assert p.locator("#help h3, #help h4, #help li, #help p").count() > 1
    with p.expect_response(lambda r: r.url.endswith("/resign")):
        p.click("#resign")  # the dialog is accepted
    tab.settle()
    g = tab.fetch(f"/api/games/{g['game_id']}")
    assert g["done"] and g["result"]["outcome"] == "loss"
    assert "You lost" in p.locator("#gameover").inner_text()
    p.click("#leave")
    assert p.locator("#lobby").is_visible() and p.locator("#game").is_hidden()
    tab.check()
    p.close()


def test_a_reload_resumes_the_game_from_its_address(browser, server):
    tab = Page(browser, server)
    p = tab.page
    g = tab.start("medarot_ocg_v1", "beginner", {}, 6)
    if any(m["places"] for m in g["legal"]):  # the first decision is outlined on the board at once
        assert p.locator("#view [data-place].legal").count() > 0
    for _ in range(2):
        if g["done"] or not g["legal"]:
            break
        with p.expect_response(lambda r: r.url.endswith("/actions")):
            p.locator("#actions button.action").first.click()
        tab.settle()
        g = tab.game()
    assert p.url.endswith(f"?game={g['game_id']}")
    p.reload()
    p.wait_for_selector("body[data-ready='1']", timeout=WAIT_MS)
    tab.settle()
    again = tab.game()
    assert {k: again[k] for k in ("game_id", "moves", "view", "legal")} == {
        k: g[k] for k in ("game_id", "moves", "view", "legal")
    }
    assert p.locator("#game").is_visible() and p.locator("#lobby").is_hidden()
    assert p.locator("#game-title").inner_text().endswith("Beginner rules")  # the mode came back too
    p.click("#leave")  # the lobby again, and an address without the game
    assert p.locator("#lobby").is_visible() and "?game=" not in p.url
    p.goto(server + "/?game=no-such-game")
    p.wait_for_selector("body[data-ready='1']", timeout=WAIT_MS)
    assert "could not resume" in p.locator("#error").inner_text() and p.locator("#lobby").is_visible()
    tab.errors.clear()  # the 404 of the unknown game was expected
    p.close()
