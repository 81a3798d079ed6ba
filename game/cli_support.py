"""Conventions every ``vcfr`` command shares, whichever layer registers it.

- :func:`fail`: one ``error: ...`` line on stderr and the exit to raise (usage errors exit 2,
  runtime errors 1).
- :class:`OneLineErrors`: the typer command class of every command: its flag errors (unknown
  option, a value of the wrong type) are such a line with exit code 2, and its help page shows
  boolean flags as flags (typer would show ``<bool>``, as if they took a value).
- :class:`OneLineGroup`: the class of the ``vcfr`` app: a usage error of any command (an unknown
  command, a bad flag, a ``typer.BadParameter`` from a command body) is one line with exit code 2,
  and an exception no command turned into an error line is one line with exit code 1, with its
  traceback only when the environment sets ``VCFR_DEBUG=1``.
- :func:`check_output_file` and :func:`check_output_folder`: an output path is checked before any
  work: its folder is created, and a path of the wrong kind (a directory for a file, a file for a
  folder), an unwritable place or a folder that cannot be made is refused naming the path the user
  gave. :func:`output_file` and :func:`output_folder` are the commands' form: a refused path exits
  with its one-line runtime error.
- :func:`benchmark_result`: a ``vcfr bench`` command's result, with ``--json`` printed as one JSON
  line; a ValueError from the benchmark is a usage error.
- :data:`JsonFlag`, :data:`Repeats` and :data:`StrategyArgument`: the option and argument
  declarations many commands share (``as_json: JsonFlag = False``).
- :func:`warn_if_over_cores`: a worker or thread count above the cores this process may use gets a
  one-line ``warning: ...`` on stderr (the command still runs).

It lives in ``game`` (the lowest layer) so that the commands of ``game``, ``abstraction`` and
``solver`` can all import it.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

try:  # typer >= 0.22 vendors its own click as typer._click
    from typer._click.exceptions import ClickException as _ClickException
    from typer._click.exceptions import NoArgsIsHelpError as _NoArgsIsHelpError
    from typer._click.exceptions import UsageError as _UsageError
except ImportError:  # pragma: no cover - older typer on the real click
    from click.exceptions import ClickException as _ClickException
    from click.exceptions import NoArgsIsHelpError as _NoArgsIsHelpError
    from click.exceptions import UsageError as _UsageError

USAGE = 2
"""Exit code of a usage error (a bad flag, value or argument)."""
RUNTIME = 1
"""Exit code of a runtime error (an unreadable or mismatched file, a failed write)."""
DEBUG_VARIABLE = "VCFR_DEBUG"
"""With ``VCFR_DEBUG=1`` in the environment an unexpected error shows its traceback."""

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON only.")]
"""``--json``: the command prints JSON only (its default is ``False``)."""
Repeats = Annotated[int, typer.Option(help="Timed passes; the best is reported.")]
"""``--repeats`` of a ``vcfr bench`` command (the command gives the default)."""
StrategyArgument = Annotated[Path, typer.Argument(help="Strategy file (HDF5) written by vcfr solve.")]
"""The strategy file a command reads, as its first argument."""


def fail(message: str, code: int = RUNTIME) -> typer.Exit:
    """Print ``error: message`` as one line on stderr and return the exit to raise."""
    typer.echo(f"error: {' '.join(str(message).split())}", err=True)
    return typer.Exit(code)


def benchmark_result(run: Callable[[], dict[str, Any]], as_json: bool) -> dict[str, Any] | None:
    """The result of ``run()`` for a ``vcfr bench`` command to print, or None when ``as_json``: then
    it has been printed as one JSON line. A ValueError from ``run`` (a bad option) is a usage error.

    >>> benchmark_result(lambda: {"ms": 1.5}, as_json=True)
    {"ms": 1.5}
    >>> benchmark_result(lambda: {"ms": 1.5}, as_json=False)
    {'ms': 1.5}
    """
    try:
        result = run()
    except ValueError as error:
        raise fail(str(error), USAGE) from None
    if as_json:
        typer.echo(json.dumps(result))
        return None
    return result


def _flags_as_flags(params: list[Any]) -> list[Any]:
    """``params`` with every boolean flag given an empty metavar: typer shows a flag's type as
    ``<bool>`` in the help, as if it took a value."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class OneLineErrors(TyperCommand):
    """A command whose flag errors (unknown option, value of the wrong type ...) are one
    ``error: ...`` line on stderr with exit code 2, like every other usage error of the command,
    and whose help shows boolean flags without a ``<bool>`` value."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except _UsageError as error:
            raise fail(error.format_message(), USAGE) from None

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_as_flags(super().get_params(ctx))


class OneLineGroup(TyperGroup):
    """The ``vcfr`` app: every error of its commands ends as one ``error: ...`` line on stderr.

    A usage error anywhere below (unknown command, bad flag, ``typer.BadParameter``) exits with 2;
    an exception that no command turned into an error line (a bug, or a failure nobody foresaw)
    exits with 1 naming its type, and with ``VCFR_DEBUG=1`` it propagates with its traceback."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except _NoArgsIsHelpError:
            raise
        except _UsageError as error:
            raise fail(error.format_message(), USAGE) from None
        except (_ClickException, typer.Abort, typer.Exit):  # typer prints these itself
            raise
        except Exception as error:
            if os.environ.get(DEBUG_VARIABLE) == "1":
                raise
            raise fail(f"{type(error).__name__}: {error} (set {DEBUG_VARIABLE}=1 for the traceback)") from None

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_as_flags(super().get_params(ctx))


def use_conventions(app: typer.Typer) -> None:
    """Give every command of ``app`` and of its sub-apps (``vcfr bench``) the class
    :class:`OneLineErrors` unless it names another one: a command added later is covered too."""
    for command in app.registered_commands:
        if command.cls in (None, TyperCommand):  # typer's default
            command.cls = OneLineErrors
    for group in app.registered_groups:
        if group.typer_instance is not None:
            use_conventions(group.typer_instance)


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
    except (FileExistsError, NotADirectoryError):
        raise ValueError(
            f"{flag} {str(path)!r}: cannot create its folder {str(parent)!r} (a file is in the way)"
        ) from None
    except OSError as error:
        raise ValueError(f"{flag} {str(path)!r}: cannot create its folder ({error.strerror or error})") from None
    _probe_writable(parent, flag, path)
    if target.exists():
        try:
            with open(target, "ab"):  # appends nothing: the file is left as it is
                pass
        except OSError as error:
            raise ValueError(f"{flag} {str(path)!r} exists and is not writable ({error.strerror or error})") from None
    return target


def _probe_writable(folder: Path, flag: str, path: str | Path) -> None:
    """Create and remove a file in ``folder``: ``os.access`` says yes to root in read-only places
    such as ``/proc``, so only a real write tells."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".vcfr-probe-"):
            pass
    except OSError as error:
        raise ValueError(
            f"{flag} {str(path)!r}: its folder {str(folder)!r} is not writable ({error.strerror or error})"
        ) from None


def check_output_folder(path: str | Path, flag: str = "--out") -> Path:
    """``path`` made ready to be written as a folder (its contents replaced or added to): its parent
    folders are created, the folder itself is left to the command.

    Raises ``ValueError`` naming ``flag`` and the path as given when it is an existing file, when its
    parent cannot be created or is not writable, or when it is a folder that is not writable.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_output_folder(folder / "new" / "bot").parent.is_dir()
    True
    >>> (folder / "file").write_text("")
    0
    >>> check_output_folder(folder / "file")
    Traceback (most recent call last):
    ...
    ValueError: --out ... is a file; give a folder
    """
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise ValueError(f"{flag} {str(path)!r} is a file; give a folder")
    if target.is_dir():
        _probe_writable(target, flag, path)
        return target
    check_output_file(target, flag)
    return target


def output_file(path: str | Path, flag: str = "--out") -> Path:
    """:func:`check_output_file` for a command: a refused path exits with its one-line runtime error."""
    try:
        return check_output_file(path, flag)
    except ValueError as error:
        raise fail(str(error), RUNTIME) from None


def output_folder(path: str | Path, flag: str = "--out") -> Path:
    """:func:`check_output_folder` for a command: a refused path exits with its one-line runtime error."""
    try:
        return check_output_folder(path, flag)
    except ValueError as error:
        raise fail(str(error), RUNTIME) from None


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
