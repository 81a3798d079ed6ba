"""The ``vcfr`` command line: one typer app; each layer registers its own commands.

Every module named in ``COMMAND_MODULES`` defines ``register(app, bench)`` and adds its
commands there, importing heavy modules (numba kernels, h5py) inside the command bodies so
that ``vcfr --help`` stays instant.
"""

from __future__ import annotations

import importlib

import typer

COMMAND_MODULES: tuple[str, ...] = (
    "solver.cli.basics",
    "solver.cli.solve",
    "solver.cli.lbr",
    "solver.cli.export",
    "solver.cli.chart",
    "solver.cli.resolve",
    "game.play.cli_game",
    "abstraction.cli_abstraction",
)

app = typer.Typer(
    name="vcfr",
    help="Game-theoretic solver for the MIT Pokerbots variants.",
    no_args_is_help=True,
    add_completion=False,
)
bench = typer.Typer(help="Benchmarks, each timed next to a peer in the same run.", no_args_is_help=True)
app.add_typer(bench, name="bench")

for _module in COMMAND_MODULES:
    importlib.import_module(_module).register(app, bench)


if __name__ == "__main__":
    app()
