"""The ``deckgym`` command run in-process through typer's CliRunner, for the tests of its subcommands."""

from __future__ import annotations

import json
from typing import Any

from click.testing import Result
from typer.testing import CliRunner

from deckgym.agents.cli import app

runner = CliRunner()


def words(command: str, *more: str) -> list[str]:
    """The arguments of ``command`` split at spaces, then ``more`` as they are (paths, JSON)."""
    return [*command.split(), *more]


def invoke_ok(command: str, *more: str) -> Result:
    """Run ``deckgym`` with ``words(command, *more)``, which must exit with 0; its result."""
    result = runner.invoke(app, words(command, *more))
    assert result.exit_code == 0, result.output
    return result


def invoke_json(command: str, *more: str) -> Any:
    """Run ``deckgym`` with ``words(command, *more)``, which must exit with 0; its JSON output."""
    return json.loads(invoke_ok(command, *more).output)
