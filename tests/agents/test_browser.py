"""The play page in a real browser: ``deckgym serve`` in a subprocess, driven by Playwright + Chromium.

Needs Debian's ``chromium`` on PATH (``apt-get install chromium``); without it the test is
skipped, except under CI (``CI`` set), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The README's figure; the test rewrites it only when DECKGYM_UPDATE_FIGURES=1 (else it writes to tmp).
FIGURE = ROOT / "docs" / "figures" / "play_web.png"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
MAX_CLICKS = 2000
SCREENSHOT_AT = 20  # the click after which the mid-game screenshot is taken


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


def is_move(response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/actions")


def test_play_a_game_in_the_browser(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    exe = chromium()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "agents.cli", "serve", "--port", str(port)],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_up(base, proc, log)
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=exe, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
                page.on(
                    "console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None
                )
                page.goto(base + "/")
                page.wait_for_selector("body[data-ready='1']", timeout=60_000)

                # the lobby
                page.select_option("#env", "medarot_ocg_v0")
                page.select_option("#mode", "beginner")
                assert page.locator("#deck-you option").count() > 1  # random + the starter decks
                assert page.locator("#deck-you").input_value() == "random"
                page.select_option("#opponent", "random")
                page.select_option("#seat", "0")
                page.fill("#seed", "3")
                with page.expect_response(
                    lambda r: r.request.method == "POST" and r.url.endswith("/api/games")
                ):
                    page.click("#start")
                page.wait_for_selector("#actions[aria-busy='false']", state="attached")
                assert page.locator("#game").is_visible()
                assert page.locator("#gameover").is_hidden()
                assert page.locator("#decision").inner_text().startswith(("your turn: ", "waiting"))

                # play to the end with the first legal action each time
                clicks = 0
                gameover = page.locator("#gameover")
                while not gameover.is_visible():
                    assert clicks < MAX_CLICKS, f"no end after {MAX_CLICKS} clicks"
                    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
                    first = page.locator("#actions button.action").first
                    assert first.get_attribute("data-index") is not None
                    with page.expect_response(is_move, timeout=60_000):
                        first.click()
                    page.wait_for_selector("#actions[aria-busy='false']", state="attached", timeout=60_000)
                    clicks += 1
                    if clicks == SCREENSHOT_AT:
                        FIGURE.parent.mkdir(parents=True, exist_ok=True)
                        shot = (
                            FIGURE
                            if os.environ.get("DECKGYM_UPDATE_FIGURES") == "1"
                            else tmp_path / "mid.png"
                        )
                        page.screenshot(path=str(shot), full_page=True)
                        assert shot.stat().st_size > 10_000

                # the end
                text = gameover.inner_text()
                assert any(f"You {w}" in text for w in ("won", "lost", "drew")), text
                assert page.locator("#decision").inner_text() == "game over"
                assert page.locator("#actions button.action").count() == 0
                assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
                assert page.locator("#log li").count() > min(clicks, 500)  # the moves and the events (capped)
                page.screenshot(path=str(tmp_path / "play_web_end.png"), full_page=True)

                # the finished game's replay opens in the viewer
                page.click("#watch-replay")
                page.wait_for_selector("#replay-player:not([hidden])", timeout=60_000)
                assert int(page.locator("#replay-slider").get_attribute("max")) >= clicks
                assert page.locator("#replay-label").inner_text() == "start"
                page.click("#replay-next")
                assert page.locator("#replay-label").inner_text() != "start"
                assert page.locator("#replay-view .view").count() == 1
                assert not errors, errors
            finally:
                browser.close()
        assert clicks >= SCREENSHOT_AT
    finally:
        proc.kill()
        proc.wait(timeout=10)
