"""``vcfr bench resolve``: the subgame solver's speed next to its numpy peer."""

from __future__ import annotations

import json

import typer

from game.cli_support import JsonFlag, Repeats


def register(app: typer.Typer, bench: typer.Typer) -> None:
    @bench.command("resolve")
    def bench_resolve(
        iterations: int = typer.Option(200, help="CFR iterations per timed pass (each updates both players)."),
        repeats: Repeats = 5,
        algorithm: str = typer.Option("dcfr", help="cfr, cfr+, linear or dcfr."),
        as_json: JsonFlag = False,
    ) -> None:
        """Re-solving a river subgame (1,081 x 1,081 hands): iterations/s, ours and plain numpy's, one thread."""
        from solver.bench.resolve import format_table, run_resolve_benchmark

        try:
            result = run_resolve_benchmark(iterations=iterations, repeats=repeats, algorithm=algorithm)
        except ValueError as error:
            raise typer.BadParameter(str(error)) from None
        typer.echo(json.dumps(result) if as_json else format_table(result))
