"""``vcfr solve``, ``vcfr exploit``, ``vcfr bench solver`` and ``vcfr bench abstract``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from game.variants import VARIANTS

GAMES = ("kuhn", "leduc")
ALGORITHMS = ("cfr", "cfr+", "linear", "lcfr", "dcfr", "es-mccfr", "os-mccfr")
ALGORITHM_ALIASES = {"lcfr": "linear"}


def _fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``error: message`` as one line on stderr and return the exit to raise."""
    typer.echo(f"error: {' '.join(str(message).split())}", err=True)
    return typer.Exit(code)


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise _fail(f"--{name} must be one of {', '.join(allowed)}; got {value!r}", 2)
    return value


def _progress_reporter(total: float, by_seconds: bool) -> Any:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("[bold]solve"),
        BarColumn(),
        TextColumn("{task.fields[iteration]:>12,} it"),
        TextColumn("{task.fields[rate]:>12,.0f} it/s"),
        TextColumn("expl {task.fields[exploitability]:.6f} chips"),
        TimeElapsedColumn(),
        transient=False,
    )
    task = progress.add_task("solve", total=total, iteration=0, rate=0.0, exploitability=float("nan"))

    def report(event: Any) -> None:
        progress.update(task, completed=event.seconds if by_seconds else event.iteration, iteration=event.iteration,
                        rate=event.iterations_per_second, exploitability=event.exploitability)

    return progress, report


def register(app: typer.Typer, bench: typer.Typer) -> None:
    @app.command()
    def solve(
        out: Path = typer.Option(..., "--out", help="Strategy file to write (HDF5)."),
        game: str = typer.Option("leduc", help=f"Game: {', '.join(GAMES)}."),
        algorithm: str = typer.Option("cfr+", help=f"Algorithm: {', '.join(ALGORITHMS)}."),
        iterations: int | None = typer.Option(None, help="Total iterations to reach."),
        seconds: float | None = typer.Option(None, help="Total solve seconds (exploitability checks excluded)."),
        workers: int = typer.Option(1, help="Parallel workers (sampling algorithms only)."),
        backend: str = typer.Option("threads", help="threads (shared tables), processes (merged deltas) or dask."),
        scheduler: str | None = typer.Option(None, help="Dask scheduler address, with --backend dask."),
        seed: int = typer.Option(0, help="Root seed."),
        checkpoint_every: int | None = typer.Option(None, help="Write the file atomically every N iterations."),
        evaluate_every: int | None = typer.Option(None, help="Measure exploitability every N iterations."),
        resume: bool = typer.Option(False, "--resume", help="Continue from --out if it exists."),
        quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
        as_json: bool = typer.Option(False, "--json", help="Print a JSON summary only."),
    ) -> None:
        """Solve Kuhn or Leduc and write a strategy file, with checkpoints and exact resume."""
        from solver.strategy_file import StrategyFileError
        from solver.training import TrainingConfig, train

        _choice("game", game, GAMES)
        algorithm = ALGORITHM_ALIASES.get(_choice("algorithm", algorithm, ALGORITHMS), algorithm)
        try:
            config = TrainingConfig(game=game, algorithm=algorithm, iterations=iterations, seconds=seconds, seed=seed,
                                    workers=workers, backend=backend, scheduler=scheduler,
                                    evaluate_every=evaluate_every, checkpoint_every=checkpoint_every)
        except ValueError as error:
            raise _fail(str(error), 2) from None
        show_progress = not (quiet or as_json)
        progress, report = _progress_reporter(float(seconds or iterations or 0), seconds is not None)
        try:
            if show_progress:
                with progress:
                    result = train(config, out, resume=resume, on_progress=report)
            else:
                result = train(config, out, resume=resume)
        except (StrategyFileError, ValueError, OSError, ImportError) as error:
            raise _fail(str(error)) from None
        record = result.record
        summary = {
            "out": str(result.path),
            "game": game,
            "algorithm": algorithm,
            "iterations": record.iterations,
            "seconds": float(record.convergence.seconds[-1]) if len(record.convergence) else 0.0,
            "exploitability_chips": float(record.convergence.exploitability[-1]) if len(record.convergence) else None,
            "resumed_from": result.resumed_from,
        }
        if as_json:
            typer.echo(json.dumps(summary))
            return
        resumed = "" if result.resumed_from is None else f" (resumed from iteration {result.resumed_from:,})"
        typer.echo(f"{summary['out']}: {record.iterations:,} iterations{resumed}, "
                   f"exploitability {summary['exploitability_chips']:.6g} chips")

    @app.command()
    def exploit(
        path: Path = typer.Argument(..., help="Strategy file (HDF5)."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON only."),
    ) -> None:
        """Exact exploitability of a strategy file's average strategy."""
        from solver.strategy_file import StrategyFileError
        from solver.training import evaluate_strategy_file

        try:
            result = evaluate_strategy_file(path)
        except (StrategyFileError, ValueError, OSError) as error:
            raise _fail(str(error)) from None
        if as_json:
            typer.echo(json.dumps(result))
            return
        typer.echo(f"{path}: {result['game']} {result['algorithm']}, {result['iterations']:,} iterations")
        typer.echo(f"exploitability: {result['exploitability_chips']:.6g} chips "
                   f"({result['exploitability_mbb']:.4g} mbb/hand)")
        typer.echo(f"game value (player 0): {result['game_value']:.6g} chips")

    @bench.command("solver")
    def bench_solver(
        game: str = typer.Option("leduc", help=f"Game: {', '.join(GAMES)}."),
        quick: bool = typer.Option(False, "--quick", help="ES-MCCFR budgets of 1 s and 3 s instead of 10 s and 60 s."),
        seed: int = typer.Option(0, help="Seed of the sampling solvers."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON only."),
    ) -> None:
        """Our CFR+ and ES-MCCFR next to OpenSpiel's C++ solvers: speed and exploitability (chips)."""
        from solver.bench_solver import run_solver_benchmark
        from solver.openspiel_peer import PeerUnavailableError

        _choice("game", game, GAMES)
        try:
            result = run_solver_benchmark(game=game, quick=quick, seed=seed)
        except PeerUnavailableError as error:
            raise _fail(str(error)) from None
        if as_json:
            typer.echo(json.dumps(result))
            return
        cfr_plus, sampling = result["cfr+"], result["es-mccfr"]
        short, long = result["budgets_seconds"]
        typer.echo(f"{game} CFR+: ours {cfr_plus['ours_ms_per_iter']:.3f} ms/iter, OpenSpiel "
                   f"{cfr_plus['openspiel_ms_per_iter']:.3f} ms/iter ({cfr_plus['speedup']:.1f}x)")
        for mark in (100, 1000):
            typer.echo(f"  exploitability after {mark:,}: ours {cfr_plus[f'ours_expl_{mark}']:.3g}, "
                       f"OpenSpiel {cfr_plus[f'openspiel_expl_{mark}']:.3g} chips")
        typer.echo(f"{game} ES-MCCFR: ours {sampling['ours_iters_per_s']:,.0f} it/s, OpenSpiel "
                   f"{sampling['openspiel_iters_per_s']:,.0f} it/s ({sampling['speedup']:.1f}x)")
        for label, budget in (("10s", short), ("60s", long)):
            typer.echo(f"  exploitability after {budget:g} s: ours {sampling[f'ours_expl_{label}']:.3g}, "
                       f"OpenSpiel {sampling[f'openspiel_expl_{label}']:.3g} chips")

    @bench.command("abstract")
    def bench_abstract(
        variants: str = typer.Option(",".join(VARIANTS), help="Comma-separated heads-up variants."),
        seconds: float = typer.Option(5.0, help="Seconds of ES-MCCFR per measurement (after a warm-up)."),
        fixed_deals: int = typer.Option(200_000, help="Deals of the fixed-sample peer on Hold'em."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON only."),
    ) -> None:
        """ES-MCCFR iterations/s and table bytes per information set on each variant's default abstract game,
        with the fixed-sample path on Hold'em as the peer."""
        from solver.abstract_bench import format_table, run_abstract_benchmark

        chosen = tuple(name.strip() for name in variants.split(",") if name.strip())
        for name in chosen:
            _choice("variant", name, tuple(VARIANTS))
        result = run_abstract_benchmark(chosen, seconds=seconds, fixed_deals=fixed_deals)
        typer.echo(json.dumps(result) if as_json else format_table(result))
