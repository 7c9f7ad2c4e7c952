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
from pathlib import Path
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

    try:
        envs.games.game(env)
    except KeyError as exc:  # unknown, or renamed: the message names the env to use
        raise UserError(_message(exc)) from None
    try:
        envs.make(env, **kwargs).reset(seed=0)
    except TypeError as exc:  # an option the env does not take
        raise UserError(f"{env}: {_message(exc)}") from None
    except _INPUT_ERRORS as exc:
        raise UserError(f"{env} {kwargs}: {_message(exc)}") from None


#: The modules of each optional extra that commands need (``pyproject.toml`` lists the packages).
EXTRAS = {
    "train": ("torch", "stable_baselines3", "sb3_contrib", "matplotlib", "tensorboard", "tqdm"),
}


def require_extra(extra: str, what: str) -> None:
    """Every module of ``extra`` is installed; otherwise a ``UserError`` saying how to install it."""
    import importlib.util

    def absent(module: str) -> bool:
        try:
            return importlib.util.find_spec(module) is None
        except ImportError:  # a broken install of it
            return True

    missing = [m for m in EXTRAS[extra] if absent(m)]
    if missing:
        raise UserError(
            f"{what} needs the [{extra}] extra (pip install 'deckgym[{extra}]'); missing: {', '.join(missing)}"
        )


def check_agent(spec: str, env: str, kwargs: dict[str, Any], option: str = "--agent") -> None:
    """Build the agent ``spec`` once: an unknown spec or a missing model file is a ``UserError``."""
    from deckgym import agents
    from deckgym.agents.arena import plays_policy

    if plays_policy(spec):
        require_extra("train", f"{option} {spec}")
    try:
        agents.make(spec, env, seed=0, **kwargs)
    except _INPUT_ERRORS as exc:
        raise UserError(f"{option} {spec}: {_message(exc)}") from None


#: The most worker processes a command takes.
MAX_WORKERS = 1024


def check_count(option: str, value: int, minimum: int = 1, *, maximum: int) -> None:
    """``value`` is in ``minimum..maximum``; otherwise a ``UserError`` naming ``option``.

    Every count has a most: a mistyped number is refused at once instead of starting work
    that never ends.
    """
    from deckgym.agents.arena import count_text

    if value < minimum:
        allowed = "a positive whole number" if minimum == 1 else f"at least {minimum}"
        raise UserError(f"{option} must be {allowed}, got {value}")
    if value > maximum:
        raise UserError(f"{option} must be at most {maximum:,}, got {count_text(value)}")


def _nearest_existing(path: Path) -> Path:
    """``path`` or its nearest ancestor that exists."""
    path = path.absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_output_folder(option: str, folder: str | Path) -> None:
    """``folder`` is a folder this process can create or write in; otherwise a ``UserError``.

    Nothing is created: the check looks at the folder, or at its nearest ancestor that exists.
    """
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise UserError(f"{option} {folder}: a file of that name exists; give a folder")
    base = _nearest_existing(path)
    if not base.is_dir():
        raise UserError(f"{option} {folder}: {base} is a file, so the folder cannot be made")
    if not os.access(base, os.W_OK | os.X_OK):
        raise UserError(f"{option} {folder}: no permission to write in {base}")


def check_output_file(option: str, file: str | Path) -> None:
    """``file`` can be written: its folder exists and is writable, and it is not a folder."""
    path = Path(file)
    if path.is_dir():
        raise UserError(f"{option} {file}: that is a folder; give a file name")
    folder = path.absolute().parent
    if not folder.is_dir():
        raise UserError(f"{option} {file}: no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"{option} {file}: no permission to write it")


def _is_usage_error(exc: Exception) -> bool:
    """Whether ``exc`` is click's ``UsageError`` (typer ships its own copy of click; it has no public name)."""
    return getattr(exc, "exit_code", None) == 2 and callable(getattr(exc, "format_message", None))


def _usage_message(exc: Any) -> str:
    """The message of click's ``UsageError``; a group called without a command names its commands."""
    text = str(exc.format_message()).strip()
    if text:
        return text
    ctx = getattr(exc, "ctx", None)  # a group without a command: the help is shown, the message empty
    command = getattr(ctx, "command", None)
    names = command.list_commands(ctx) if hasattr(command, "list_commands") else []
    path = ctx.command_path if ctx is not None else "deckgym"
    return f"{path} needs a command: one of {', '.join(names)} ({path} COMMAND --help says more)"


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
            print(f"Error: {_usage_message(exc)}", file=sys.stderr)
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
