"""The ``deckgym`` command (``deckgym --help``; ``python -m deckgym`` runs it too).

``main`` is the console script: a user error is one ``Error:`` line and exit status 2. The
commands themselves are in ``deckgym.agents.cli`` (a Typer app) and their input checks in
``deckgym.agents.cli_input``.
"""

from __future__ import annotations

__all__ = ["main"]


def main() -> None:
    """The ``deckgym`` console script (the commands load on the first call)."""
    from deckgym.agents.cli import main as run_main

    run_main()
