"""schemathesis over the play server's OpenAPI schema: every answer is documented, none is a 5xx.

Requests are generated from the schema (bounded: a few dozen per operation) and every check
runs but ``positive_data_acceptance``: a request the schema allows may still be refused for
what no schema can say (an illegal move, a replay file that is not one, a whole number
written as ``1.0``, which the server refuses as it refuses ``"1"``). Requests the schema
forbids must be refused (``negative_data_rejection``). The levels are all played by the
random agent here, so that a generated game costs milliseconds; the API in front of them is
the real one.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the [play] extra is not installed")
schemathesis = pytest.importorskip("schemathesis", reason="the [browser] extra is not installed")
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

from deckgym.agents.play import server
from deckgym.agents.play.session import GameSession


class QuickSession(GameSession):
    """A game whose opponent is the random agent, whatever level was asked for."""

    def __init__(self, env: str, options: Any, opponent: str, seat: Any, seed: Any) -> None:
        super().__init__(env, options, "random", seat, seed)


APP = server.create_app(max_games=10_000, hosts=("*",))  # any Host: the check has its own tests
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_answers_every_generated_request_as_its_schema_says(
    case: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "GameSession", QuickSession)  # the app builds its games through this name
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
