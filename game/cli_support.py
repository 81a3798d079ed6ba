"""Conventions every ``vcfr`` command shares, whichever layer registers it.

- :func:`fail`: one ``error: ...`` line on stderr and the exit to raise (usage errors exit 2,
  runtime errors 1).
- :class:`OneLineErrors`: a typer command class whose flag errors (unknown option, a value of the
  wrong type) are such a line with exit code 2.
- :func:`check_output_file`: an output path is checked before any work: its folder is created, and
  a directory, an unwritable place or a folder that cannot be made is refused naming the path the
  user gave.
- :func:`warn_if_over_cores`: a worker or thread count above the cores this process may use gets a
  one-line ``warning: ...`` on stderr (the command still runs).

It lives in ``game`` (the lowest layer) so that the commands of ``game``, ``abstraction`` and
``solver`` can all import it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperCommand

try:  # typer >= 0.22 vendors its own click as typer._click
    from typer._click.exceptions import UsageError as _UsageError
except ImportError:  # pragma: no cover - older typer on the real click
    from click.exceptions import UsageError as _UsageError

USAGE = 2
"""Exit code of a usage error (a bad flag, value or argument)."""
RUNTIME = 1
"""Exit code of a runtime error (an unreadable or mismatched file, a failed write)."""


def fail(message: str, code: int = RUNTIME) -> typer.Exit:
    """Print ``error: message`` as one line on stderr and return the exit to raise."""
    typer.echo(f"error: {' '.join(str(message).split())}", err=True)
    return typer.Exit(code)


class OneLineErrors(TyperCommand):
    """A command whose flag errors (unknown option, value of the wrong type ...) are one
    ``error: ...`` line on stderr with exit code 2, like every other usage error of the command."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except _UsageError as error:
            raise fail(error.format_message(), USAGE) from None


def check_output_file(path: str | Path, flag: str = "--out") -> Path:
    """``path`` made ready to be written as a file: its parent folders are created.

    Raises ``ValueError`` naming ``flag`` and the path as given when it is an existing directory,
    when its folder cannot be created (a file in the way, no permission) or is not writable. Takes
    no time worth mentioning, so commands call it before their work.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_output_file(folder / "new" / "cards.h5").parent.is_dir()
    True
    >>> check_output_file(folder)
    Traceback (most recent call last):
    ...
    ValueError: --out ... is a directory; give a file path
    """
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{flag} {str(path)!r} is a directory; give a file path")
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"{flag} {str(path)!r}: cannot create its folder ({error.strerror or error})") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{flag} {str(path)!r}: its folder {str(parent)!r} is not writable")
    if target.exists() and not os.access(target, os.W_OK):
        raise ValueError(f"{flag} {str(path)!r} exists and is not writable")
    return target


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the OS has one, else ``os.cpu_count()``)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # macOS, Windows
        return os.cpu_count() or 1


def warn_if_over_cores(count: int, flag: str = "--workers") -> bool:
    """Print one ``warning: ...`` line on stderr when ``count`` workers or threads exceed
    :func:`available_cores` (the extra ones share the cores: no faster, often slower); returns
    whether it warned. The command goes on either way."""
    cores = available_cores()
    if count <= cores:
        return False
    typer.echo(
        f"warning: {flag} {count} is more than the {cores} core{'s' if cores != 1 else ''} available to this "
        f"process; the extra ones share those cores (no faster, often slower)",
        err=True,
    )
    return True
