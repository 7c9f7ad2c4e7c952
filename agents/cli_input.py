"""Input checks of the ``deckgym`` command, and how it runs: a user error is one line and exit 2.

Every command checks what it was given before it starts work (the env name, mode and options
build an env; every agent spec builds an agent; counts are positive). A problem found there is
a :class:`UserError`: ``deckgym`` prints ``Error: <what is wrong and what is allowed>`` on
stderr and exits with status 2, as it does for an unknown option or a bad value of one.

Anything that goes wrong after the checks is a bug: it prints one ``Error: internal error``
line and exits with status 1, unless ``--debug`` (anywhere on the command line) or
``DECKGYM_DEBUG=1`` asks for the traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

#: Exceptions the library raises for input it refuses (messages name the input and the choices).
_INPUT_ERRORS = (KeyError, ValueError, TypeError, FileNotFoundError)


class UserError(Exception):
    """Input the command refuses; the message says what is wrong and what is allowed."""


def _message(exc: BaseException) -> str:
    """The first line of an exception's message (a ``KeyError`` without its quotes)."""
    text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
    return str(text).strip().splitlines()[0] if str(text).strip() else type(exc).__name__


def check_env(env: str, kwargs: dict[str, Any]) -> None:
    """Build ``env`` with ``kwargs`` once: an unknown env, mode or option is a ``UserError``."""
    from deckgym import envs

    if env in envs.RENAMED:
        new, why = envs.RENAMED[env]
        raise UserError(f"environment {env!r} is now {new!r}: {why}")
    if env not in envs.names():
        raise UserError(f"unknown environment {env!r}; known: {', '.join(envs.names())}")
    try:
        envs.make(env, **kwargs).reset(seed=0)
    except TypeError as exc:  # an option the env does not take
        raise UserError(f"{env}: {_message(exc)}") from None
    except _INPUT_ERRORS as exc:
        raise UserError(f"{env} {kwargs}: {_message(exc)}") from None


def check_agent(spec: str, env: str, kwargs: dict[str, Any], option: str = "--agent") -> None:
    """Build the agent ``spec`` once: an unknown spec or a missing model file is a ``UserError``."""
    from deckgym import agents

    try:
        agents.make(spec, env, seed=0, **kwargs)
    except _INPUT_ERRORS as exc:
        raise UserError(f"{option} {spec}: {_message(exc)}") from None


def check_count(option: str, value: int, minimum: int = 1) -> None:
    """``value`` is at least ``minimum``; otherwise a ``UserError`` naming ``option``."""
    if value < minimum:
        allowed = "a positive whole number" if minimum == 1 else f"at least {minimum}"
        raise UserError(f"{option} must be {allowed}, got {value}")


def _is_usage_error(exc: Exception) -> bool:
    """Whether ``exc`` is click's ``UsageError`` (typer ships its own copy of click; it has no public name)."""
    return getattr(exc, "exit_code", None) == 2 and callable(getattr(exc, "format_message", None))


def run(app: Any, argv: Sequence[str] | None = None) -> int:
    """Run the typer ``app`` on ``argv`` (default: the process's); the exit status."""
    import typer

    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args or os.environ.get("DECKGYM_DEBUG", "") not in ("", "0")
    args = [a for a in args if a != "--debug"]
    try:
        code = app(args=args, prog_name="deckgym", standalone_mode=False)
    except UserError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    except typer.Exit as exc:
        return int(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        print("Aborted.", file=sys.stderr)
        return 130
    except Exception as exc:
        if _is_usage_error(exc):  # unknown option, bad value, missing argument
            print(f"Error: {exc.format_message()}", file=sys.stderr)  # type: ignore[attr-defined]
            return 2
        if debug:
            raise
        print(
            f"Error: internal error: {type(exc).__name__}: {_message(exc)} "
            "(run with --debug or DECKGYM_DEBUG=1 for the traceback)",
            file=sys.stderr,
        )
        return 1
    return int(code) if isinstance(code, int) else 0
