"""What the board tests share: the terminal drawing, the page scripts' checks and a Chromium page.

The terminal drawing is the one the terminal and the replays print (``board_text`` at 120
columns). ``board_page`` opens the boards' scripts in headless Chromium (Debian's
``chromium`` with Playwright; the test is skipped without them) on a page whose ``#root``
element the test draws into.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from deckgym.agents.play.terminal import board_text

BOARDS = Path(__file__).resolve().parents[2] / "agents" / "play" / "static" / "boards"
#: An op code (``MASTER_SELECT``, ``OPP_SLOT``): never part of a drawing.
CODE = re.compile(r"[A-Z]{2,}_[A-Z]+")
#: Japanese text: the drawings are in English.
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


def text(view: dict[str, Any], details: bool = False) -> str:
    """The terminal drawing of ``view``."""
    return board_text(view, details, width=120)


def flat(drawing: str) -> str:
    """``drawing`` with white space and box lines folded to single spaces (wrapped names join up)."""
    return re.sub(r"[\s\u2500-\u257f]+", " ", drawing)


def draw(view: dict[str, Any], details: bool = False) -> str:
    """The terminal drawing of ``view``, folded by ``flat``."""
    return flat(text(view, details))


def assert_script_registers(env: str, zones: Iterable[str], prefix: str) -> None:
    """The board script of ``env`` registers its drawing, tags exactly the describer's ``zones``
    and draws hidden cards as backs; every class of its style sheet starts with ``prefix``."""
    script = BOARDS / f"{env.removesuffix('_v1')}.js"
    js = script.read_text()
    assert f"boards.{env} = function draw(view, ctx)" in js
    assert "window.deckgymBoards" in js
    found = set(re.findall(r'(?:spot|pile)\("(\w+)"', js))
    assert found == set(zones), found
    # hidden cards are drawn as backs: by the script, or by the card pieces it takes from dom.js
    shared_back = "cardPieces(" in js and "card back" in (BOARDS.parent / "dom.js").read_text()
    assert "card back" in js or shared_back
    css = script.with_suffix(".css").read_text()
    selectors = re.findall(r"^\.([\w-]+)", css, re.MULTILINE)
    assert selectors and all(s.startswith(prefix) for s in selectors)


def chromium() -> str:
    """The path of Debian's Chromium; skips the test where it or Playwright is missing."""
    path = shutil.which("chromium") or shutil.which("/usr/bin/chromium")
    if path is None:
        pytest.skip("no chromium")
    pytest.importorskip("playwright.sync_api")
    return path


@contextmanager
def board_page(scripts: Iterable[Path], css: str = "") -> Iterator[Any]:
    """A Chromium page with the shared DOM helpers, then ``scripts``, loaded and an empty ``#root``.

    When the block ends, no script may have raised on the page.
    """
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=["--no-sandbox", "--headless"])
        page = browser.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_content(f"<html><head><style>{css}</style></head><body><div id='root'></div></body></html>")
        page.add_script_tag(path=str(BOARDS.parent / "dom.js"))  # the shared DOM helpers come first
        for script in scripts:
            page.add_script_tag(path=str(script))
        yield page
        browser.close()
    assert not errors, errors
