"""``vcfr demo``: the main job end to end on a small default, one step after another.

Each step prints a short readable result. Steps are listed in ``DEMO_STEPS`` in pipeline order.
"""

from __future__ import annotations

from collections.abc import Callable

import typer


def _evaluator_step() -> None:
    from game.evaluator_bench import run_evaluator_benchmark

    result = run_evaluator_benchmark(n_hands=1_000_000, repeats=3)
    peers = ", ".join(f"{name} {rate / 1e6:.2f} M/s" for name, rate in result["peers"].items() if rate)
    typer.echo(
        f"hand evaluator: {result['ours_evals_per_s'] / 1e6:.0f} M 7-card evaluations/s on one thread"
        + (f" ({peers}; {result['ratio_vs_best_peer']:.0f}x the fastest)" if peers else "")
    )


def _solve_leduc_step() -> None:
    from pathlib import Path

    from solver.training import TrainingConfig, evaluate_strategy_file, train

    result = train(TrainingConfig(game="leduc", algorithm="cfr+", iterations=1000, evaluate_every=100),
                   Path("out") / "leduc_cfr+.h5")
    seconds = float(result.record.convergence.seconds[-1])
    measured = evaluate_strategy_file(result.path)  # read back from the file, checked on load
    typer.echo(
        f"Leduc CFR+: {result.record.iterations:,} iterations in {seconds:.2f} s, wrote {result.path} "
        f"({result.path.stat().st_size / 1024:.0f} KB); exploitability {measured['exploitability_chips']:.2e} chips "
        f"({measured['exploitability_mbb']:.3f} mbb/hand), game value {measured['game_value']:.4f} chips "
        "(known: -0.0856)"
    )


def _baseline_match_step() -> None:
    from game.cli_game import baseline_match_lines

    for line in baseline_match_lines(rounds=200, seed=0):
        typer.echo(line)


DEMO_STEPS: list[tuple[str, Callable[[], None]]] = [
    ("Hand evaluator benchmark", _evaluator_step),
    ("Solve Leduc hold'em and write the strategy file", _solve_leduc_step),
    ("Baseline match in every variant", _baseline_match_step),
]


def run_demo() -> None:
    """Run every demo step in order."""
    for number, (title, step) in enumerate(DEMO_STEPS, start=1):
        typer.secho(f"[{number}/{len(DEMO_STEPS)}] {title}", bold=True)
        step()
