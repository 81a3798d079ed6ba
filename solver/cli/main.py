"""The ``vcfr`` command line: one typer app; each layer registers its own commands.

Every module named in ``COMMAND_MODULES`` defines ``register(app, bench)`` and adds its
commands there, importing heavy modules (numba kernels, h5py) inside the command bodies so
that ``vcfr --help`` stays instant.

Every command follows one error convention (`game.cli_support`): a usage error (bad flag, value or
argument) is one ``error: ...`` line on stderr with exit code 2, a runtime error (an unreadable,
mismatched or corrupt file, a failed write) one such line with exit code 1, and an unexpected
exception one line with exit code 1 too; ``VCFR_DEBUG=1`` shows its traceback instead.
"""

from __future__ import annotations

import importlib

import typer

from game.cli_support import OneLineGroup, use_conventions

COMMAND_MODULES: tuple[str, ...] = (
    "solver.cli.basics",
    "solver.cli.solve",
    "solver.cli.lbr",
    "solver.cli.export",
    "solver.cli.chart",
    "solver.cli.resolve",
    "solver.cli.view",
    "game.play.cli_game",
    "abstraction.cli_abstraction",
)

app = typer.Typer(
    name="vcfr",
    help="Game-theoretic solver for the MIT Pokerbots variants.",
    no_args_is_help=True,
    add_completion=False,
    cls=OneLineGroup,
)
bench = typer.Typer(
    help="Benchmarks, each timed next to a peer in the same run.", no_args_is_help=True, cls=OneLineGroup
)
app.add_typer(bench, name="bench")

for _module in COMMAND_MODULES:
    importlib.import_module(_module).register(app, bench)
use_conventions(app)


if __name__ == "__main__":
    app()
