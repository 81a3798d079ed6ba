"""``vcfr version``, ``vcfr demo`` and ``vcfr bench evaluator``."""

from __future__ import annotations

from pathlib import Path

import typer

from game.cli_support import USAGE, JsonFlag, Repeats, benchmark_result, fail, output_folder


def register(app: typer.Typer, bench: typer.Typer) -> None:
    @app.command()
    def version() -> None:
        """Print the package version."""
        from importlib.metadata import version as package_version

        typer.echo(package_version("vcfr"))

    @bench.command("evaluator")
    def bench_evaluator(
        hands: int = typer.Option(2_000_000, help="Random 7-card hands per timed pass."),
        repeats: Repeats = 5,
        seed: int = typer.Option(0, help="Seed of the random hands."),
        as_json: JsonFlag = False,
    ) -> None:
        """Time our batch evaluator and the peers (eval7, phevaluator) on the same hands."""
        from game.bench.evaluator import run_evaluator_benchmark

        result = benchmark_result(lambda: run_evaluator_benchmark(n_hands=hands, repeats=repeats, seed=seed), as_json)
        if result is None:
            return
        typer.echo(f"ours: {result['ours_evals_per_s'] / 1e6:,.1f} M 7-card evaluations/s (1 thread)")
        for name, rate in result["peers"].items():
            shown = "not installed" if rate is None else f"{rate / 1e6:,.2f} M/s"
            typer.echo(f"{name}: {shown}")
        if result["ratio_vs_best_peer"] is not None:
            typer.echo(f"ratio vs fastest peer: {result['ratio_vs_best_peer']:.1f}x")

    @app.command()
    def demo(
        variant: str = typer.Option("swap", help="Heads-up variant to solve (see `vcfr variants`)."),
        seconds: float = typer.Option(90.0, help="Wall-clock seconds of solving."),
        out: Path = typer.Option(Path("out/demo"), help="Folder for every output."),
    ) -> None:
        """Run the main job end to end on a small default: cards, solve, LBR, match, chart, bot folder."""
        from solver.cli.demo import DemoConfig, run_demo

        try:
            config = DemoConfig(variant=variant, solve_seconds=seconds, out=out)
        except ValueError as error:
            raise fail(str(error), USAGE) from None
        output_folder(out)
        run_demo(config)
