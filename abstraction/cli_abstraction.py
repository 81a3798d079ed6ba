"""``vcfr abstract`` (build a card abstraction into HDF5), ``vcfr bench abstraction`` and ``vcfr bench chance``.

``vcfr abstract`` checks its flags and its ``--out`` path (folders created; a directory or an
unwritable place refused) before the build, which takes minutes.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from game.cli_support import USAGE, JsonFlag, Repeats, benchmark_result, fail, output_file


def _parse_buckets(text: str) -> tuple[int, int, int, int]:
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise fail(f"--buckets must be 4 comma-separated integers, got {text!r}", USAGE) from None
    if len(counts) != 4:
        raise fail(f"--buckets must be 4 comma-separated integers (preflop,flop,turn,river), got {text!r}", USAGE)
    return counts  # type: ignore[return-value]


def register(app: typer.Typer, bench: typer.Typer) -> None:
    @app.command()
    def abstract(
        variant: str = typer.Option("holdem", help="A heads-up variant `vcfr variants` lists."),
        buckets: str = typer.Option("169,200,200,200", help="Buckets per street: preflop,flop,turn,river."),
        method: str = typer.Option("emd", help="ehs, ehs2 or emd (potential-aware earth mover's distance)."),
        out: Path = typer.Option(..., help="HDF5 file to write."),
        seed: int = typer.Option(0, help="Seed of every sample and k-means initialisation."),
        flop_swap_probability: float = typer.Option(
            None, help="Swap only: chance each hole card is replaced on the flop (default: the rules' 0.10)."
        ),
        turn_swap_probability: float = typer.Option(
            None, help="Swap only: chance each hole card is replaced on the turn (default: the rules' 0.05)."
        ),
        flops: int = typer.Option(
            None,
            min=1,
            max=1755,
            help="Tables on the first N of the 1,755 canonical flops only (tests, timing); "
            "unreached classes fall back to their strength.",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print a JSON summary only."),
    ) -> None:
        """Build a card abstraction (bucket tables and centroids) and write it to an HDF5 file.

        For --variant swap the preflop and flop buckets are clustered on Swap's futures (hole cards
        replaced on the flop and turn with the given probabilities); the file serves Swap games only.
        """
        import time

        counts = _parse_buckets(buckets)
        output_file(out)  # before the imports below (numba: seconds), so a bad path is refused at once

        from numba import get_num_threads
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        from abstraction.cards.buckets import CardAbstractionConfig, canonical_flops
        from abstraction.cards.build import build_card_abstraction, estimate_build_memory

        try:
            config = CardAbstractionConfig(
                buckets=counts, method=method, variant=variant, seed=seed,
                flop_swap_probability=flop_swap_probability, turn_swap_probability=turn_swap_probability,
            )  # fmt: skip
        except ValueError as error:
            raise fail(str(error), USAGE) from None
        memory = estimate_build_memory(config, get_num_threads())
        swaps = (
            f" (swap probabilities {config.flop_swap_probability} flop, {config.turn_swap_probability} turn)"
            if config.has_swaps
            else ""
        )
        if not as_json:
            typer.echo(
                f"building {config.method} abstraction {config.buckets} for {config.variant}{swaps}: "
                f"about {memory / 2**30:.2f} GiB of arrays (plus about 0.4 GiB for Python and the kernels)"
            )
        started = time.perf_counter()
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(),
            disable=as_json,
        ) as bar:
            tasks: dict[str, int] = {}

            def progress(stage: str, done: int, total: int) -> None:
                if stage not in tasks:
                    tasks[stage] = bar.add_task(stage, total=total)
                bar.update(tasks[stage], completed=done)

            abstraction = build_card_abstraction(
                config, progress, flops=None if flops is None else canonical_flops()[:flops]
            )
        try:
            abstraction.save(out)
        except OSError as error:  # the place became unwritable during the build
            raise fail(f"--out {str(out)!r}: cannot write ({error.strerror or error})") from None
        summary = {
            "out": str(out),
            "seconds": time.perf_counter() - started,
            "estimated_bytes": memory,
            "buckets": list(config.buckets),
            "method": config.method,
            "variant": config.variant,
            "flops": 1755 if flops is None else flops,
        }
        if config.has_swaps:
            summary.update(
                flop_swap_probability=config.flop_swap_probability, turn_swap_probability=config.turn_swap_probability
            )
        typer.echo(json.dumps(summary) if as_json else f"wrote {out} in {summary['seconds']:.0f} s")

    @bench.command("abstraction")
    def bench_abstraction(
        flops: int = typer.Option(1755, help="Flops in the all-flops pass (a prefix; time is scaled to 1,755)."),
        repeats: Repeats = 3,
        peer_iterations: int = typer.Option(100_000, help="eval7 Monte Carlo samples per hand."),
        as_json: JsonFlag = False,
    ) -> None:
        """Time exact all-hands flop features, the all-flops pass and bucket lookups next to eval7."""
        from abstraction.bench.abstraction import run_abstraction_benchmark

        result = benchmark_result(
            lambda: run_abstraction_benchmark(flops=flops, repeats=repeats, peer_iterations=peer_iterations), as_json
        )
        if result is None:
            return
        typer.echo(
            f"all 1,326 hands on one flop, exact: {result['flop_all_hands_ms']:.1f} ms on {result['threads']} threads, "
            f"{result['flop_all_hands_1thread_ms']:.1f} ms on one"
        )
        if result["peer_eval7_mc_ms_per_hand"] is not None:
            typer.echo(
                f"eval7 Monte Carlo, one hand, {result['peer_iterations']:,} samples: {result['peer_eval7_mc_ms_per_hand']:.1f} ms "
                f"(error {result['peer_eval7_error']:.4f}); all hands projected {result['peer_eval7_all_hands_projected_ms'] / 1e3:.1f} s"
            )
        typer.echo(
            f"all 1,755 flops: {result['all_flops_s']:.1f} s on {result['threads']} threads (measured {result['all_flops_measured']} flops)"
        )
        typer.echo(
            f"bucket lookup: flop {result['lookup_numba_ns']:.0f} ns, turn {result['turn_lookup_numba_ns']:.0f} ns, "
            f"river {result['river_lookup_numba_us']:.1f} µs in numba; {result['lookup_python_us']:.1f} µs from Python"
        )

    @bench.command("chance")
    def bench_chance(
        deals: int = typer.Option(20_000, help="Deals per timed sample."),
        repeats: Repeats = 3,
        max_runs: str = typer.Option("1,3", help="River of Blood run caps to time, comma-separated."),
        as_json: JsonFlag = False,
    ) -> None:
        """Fresh deals per second of each variant's sampler, on one thread and on all."""
        from abstraction.bench.chance import run_chance_benchmark

        result = benchmark_result(
            lambda: run_chance_benchmark(
                deals=deals, repeats=repeats, max_runs=tuple(int(part) for part in max_runs.split(","))
            ),
            as_json,
        )
        if result is None:
            return
        for name, rate in result["deals_per_second"].items():
            typer.echo(
                f"{name:20s} {rate['one_thread']:10,.0f} deals/s on one thread, "
                f"{rate['all_threads']:10,.0f} on {result['threads']} threads"
            )
