"""A blueprint recipe solved on a Dask ``LocalCluster`` of 2 workers, and what 64 cores would do with it.

Run (about ``3 x --minutes`` of solving plus a short match; the recipe's card file must exist,
``experiments/blueprints.py --years 2022`` builds it)::

    .venv/bin/python experiments/dask_recipe.py --recipe experiments/configs/blueprint_swap.toml --minutes 3

Three solves of the same recipe (`vcfr solve --config RECIPE`), each ``--minutes`` of wall clock:

1. ``--workers 1``: the per-core rate ``r1`` (iterations/s) of the recipe's ES-MCCFR kernel;
2. ``--workers 2 --backend threads``: the shared-table default, for comparison;
3. ``--workers 2 --backend dask --scheduler <LocalCluster>``: a ``distributed.LocalCluster`` of 2
   worker processes (1 thread each). Every block of ``--block`` iterations is split over the
   workers; each worker receives the tables, runs its share on a copy and returns the change
   (regrets and strategy sums); the client adds the deltas (`solver.solve.parallel`).

The Dask strategy file is then loaded and played: a duplicate match against the equity bot under
engine rules (``--hands``), to show the file is a working blueprint (not to rank it: a few minutes
of solving).

The projection. Every worker keeps the measured share of a block, ``b = --block / 2`` iterations,
so a block of ``W`` workers holds ``W b`` iterations. Each worker computes its ``b`` iterations at
``r1`` and exchanges the tables twice (tables out, delta back: ``2 x T`` bytes, ``T`` = regrets +
strategy sums, all through the client); the client adds ``W`` deltas (``W x T`` bytes at the
measured in-memory add rate ``m``). With a network of ``--network-gbps``::

    block seconds   = b / r1 + o + W x 2T / network + W x T / m
    iterations/s(W) = W b / block seconds

where ``o`` is the per-block fixed overhead measured on the LocalCluster (its block time minus
compute, transfer and add, all on one machine). The table prints it for ``W`` = 2, 8, 16, 32, 64.
What it leaves out, and says so: delta merging makes regrets stale for a block, which costs
convergence per iteration (``experiments/parallel_scaling.py`` measures about 10x more exploitable
on Leduc with 20,000-iteration blocks), so iterations/s is an upper bound on useful speed.

Outputs: ``<out>.json`` and ``<out>.md`` (default ``results/dask_recipe``): the three runs, the
measured constants and the projection, the command and the machine.
"""

from __future__ import annotations

import argparse
import time
import tomllib
from pathlib import Path
from typing import Any

import harness
import numpy as np
from harness import ROOT, match_arguments

PROJECTED_WORKERS = (2, 8, 16, 32, 64)


def vcfr(arguments: list[str], log: Path) -> dict[str, Any]:
    """Run ``vcfr ARGUMENTS`` (``--json``; output in ``log``) and return its last JSON line;
    RuntimeError naming the log on failure."""
    return harness.last_json(harness.run_vcfr(arguments, log)[0])


def recipe_cards(recipe: Path) -> Path:
    """The card file the recipe's ``[cards] path`` names (relative to the recipe file)."""
    tables = tomllib.loads(recipe.read_text())
    try:
        path = (recipe.parent / tables["cards"]["path"]).resolve()
    except KeyError:
        raise ValueError(f"{recipe}: no [cards] path; pass --cards") from None
    return path


def table_bytes(strategy: Path) -> int:
    """Bytes of one copy of the solver's tables (regrets + strategy sums) in a strategy file."""
    import h5py

    with h5py.File(strategy, "r") as file:
        total = 0
        for name in ("regrets", "strategy_sums"):
            found = [key for key in _datasets(file) if key.rsplit("/", 1)[-1] == name]
            if not found:
                raise ValueError(f"{strategy}: no {name!r} dataset")
            dataset = file[found[0]]
            total += int(np.prod(dataset.shape)) * dataset.dtype.itemsize
    return total


def _datasets(file: Any) -> list[str]:
    names: list[str] = []
    file.visit(names.append)
    return names


def add_rate(n_bytes: int, repeats: int = 20) -> float:
    """Measured bytes/s of ``table += delta`` on float32 tables of ``n_bytes`` (the client's merge)."""
    table = np.zeros(n_bytes // 4, dtype=np.float32)
    delta = np.ones_like(table)
    table += delta
    started = time.perf_counter()
    for _ in range(repeats):
        table += delta
    return repeats * n_bytes / (time.perf_counter() - started)


def projection(
    r1: float, overhead: float, n_bytes: int, merge_rate: float, network: float, share: float
) -> list[dict[str, float]]:
    """Projected iterations/s and parallel efficiency for each of :data:`PROJECTED_WORKERS`, every
    worker running ``share`` iterations per block (``r1`` iterations/s per core, ``overhead`` s per
    block, tables of ``n_bytes``, ``merge_rate`` and ``network`` in bytes/s)."""
    rows = []
    for workers in PROJECTED_WORKERS:
        block = workers * share
        compute = share / r1
        transfer = workers * 2 * n_bytes / network
        merge = workers * n_bytes / merge_rate
        seconds = compute + overhead + transfer + merge
        rate = block / seconds
        rows.append(
            {
                "workers": workers,
                "compute_s": compute,
                "transfer_s": transfer,
                "merge_s": merge,
                "overhead_s": overhead,
                "iterations_per_second": rate,
                "efficiency": rate / (workers * r1),
            }
        )
    return rows


def solve(recipe: Path, cards: Path, out: Path, seconds: float, extra: list[str]) -> dict[str, Any]:
    for stale in out.parent.glob(out.name + "*"):
        stale.unlink()
    return vcfr(
        [
            "solve",
            "--config",
            str(recipe),
            "--cards",
            str(cards),
            "--out",
            str(out),
            "--seconds",
            f"{seconds:.3f}",
            "--quiet",
            "--json",
            *extra,
        ],
        out.with_suffix(".solve.log"),
    )


def markdown(report: dict[str, Any]) -> str:
    runs = report["runs"]
    lines = [
        "# A blueprint recipe on a Dask LocalCluster, and a 64-core projection",
        "",
        f"Command: `{report['command']}`",
        "",
        f"Machine: {harness.machine_line(report['machine'])}. Date: {report['date']}. Load average (1 min) at "
        f"start / end: {report['load'][0]} / {report['load'][1]}.",
        "",
        f"Recipe: `{report['recipe']}`, card file `{report['cards']}`; {report['minutes']} min per solve; "
        f"Dask blocks of {report['block']:,} iterations (the projection keeps each worker's share, "
        f"{report['block'] // 2:,}).",
        "",
        "| run | iterations | seconds | iterations/s | vs 1 worker |",
        "|---|---|---|---|---|",
    ]
    base = runs["1 worker"]["iterations_per_second"]
    for name, run in runs.items():
        lines.append(
            f"| {name} | {run['iterations']:,} | {run['seconds']:.1f} | {run['iterations_per_second']:,.0f} "
            f"| {run['iterations_per_second'] / base:.2f}x |"
        )
    match = report["match"]
    lines += [
        "",
        f"The Dask strategy file, played: {match['mean']:+,.0f} ± {match['ci']:,.0f} mbb/hand against the equity bot "
        f"({match['hands']:,} duplicate hands, engine rules).",
        "",
        "## Measured constants",
        "",
        f"- per-core rate r1: {report['r1']:,.0f} iterations/s (the 1-worker run);",
        f"- tables T (regrets + strategy sums): {report['table_bytes'] / 1e6:.2f} MB per copy;",
        f"- client add rate m: {report['merge_rate'] / 1e9:.2f} GB/s (`table += delta`, float32);",
        f"- LocalCluster overhead o per block: {report['overhead_s']:.3f} s (block time minus compute, "
        "in-memory transfer and add);",
        f"- network assumed for a cluster: {report['network_gbps']} Gbit/s.",
        "",
        "## Projection",
        "",
        "| workers | compute s | transfer s | merge s | overhead s | iterations/s | efficiency |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in report["projection"]:
        lines.append(
            f"| {row['workers']} | {row['compute_s']:.2f} | {row['transfer_s']:.3f} | {row['merge_s']:.3f} "
            f"| {row['overhead_s']:.3f} | {row['iterations_per_second']:,.0f} | {row['efficiency']:.0%} |"
        )
    lines += [
        "",
        "Iterations/s is an upper bound on useful speed: each block's regrets are stale until it is "
        "merged (see the module docstring of `experiments/dask_recipe.py`).",
        "",
    ]
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recipe", type=Path, default=ROOT / "experiments" / "configs" / "blueprint_swap.toml")
    parser.add_argument("--cards", type=Path, default=None, help="card file (default: the recipe's [cards] path)")
    parser.add_argument("--minutes", type=float, default=3.0, help="wall clock per solve (default 3)")
    parser.add_argument("--block", type=int, default=2_000_000, help="iterations per Dask block (default 2,000,000)")
    parser.add_argument("--hands", type=int, default=2_000, help="duplicate hands of the check match (even)")
    parser.add_argument("--network-gbps", type=float, default=10.0, help="cluster network assumed (Gbit/s)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "dask_recipe")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "dask_recipe")
    return parser


def _missing_cards(recipe: Path, cards: Path, given: bool) -> str:
    """Why the run cannot start without ``cards``: the recipe's exact ``vcfr abstract`` command when
    it is the recipe's own card file."""
    if not given:
        from solver.solve.run_config import load_run_config

        message = load_run_config(recipe).missing_cards_message()
        if message is not None:
            return message
    return f"card file {cards} does not exist: build it first, or pass --cards"


def three_solves(recipe: Path, cards: Path, work: Path, seconds: float, block: int) -> dict[str, dict[str, Any]]:
    """The recipe solved for ``seconds`` by 1 worker, 2 threads and a 2-worker Dask LocalCluster
    (blocks of ``block`` iterations); each run's ``vcfr solve --json`` summary."""
    from distributed import LocalCluster

    runs: dict[str, dict[str, Any]] = {}
    runs["1 worker"] = solve(recipe, cards, work / "one.h5", seconds, ["--workers", "1"])
    runs["2 threads"] = solve(recipe, cards, work / "threads.h5", seconds, ["--workers", "2", "--backend", "threads"])
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        dask = ["--workers", "2", "--backend", "dask", "--scheduler", cluster.scheduler_address]
        runs["Dask LocalCluster, 2 workers"] = solve(
            recipe, cards, work / "dask.h5", seconds, [*dask, "--evaluate-every", str(block)]
        )
    return runs


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = build_parser()
    arguments = parser.parse_args(argv)
    if arguments.minutes <= 0 or arguments.block < 2 or arguments.hands < 2 or arguments.hands % 2:
        parser.error("--minutes must be > 0, --block >= 2 and --hands even and >= 2")
    recipe = arguments.recipe.resolve()
    cards = (arguments.cards or recipe_cards(recipe)).resolve()
    if not cards.is_file():
        parser.error(_missing_cards(recipe, cards, arguments.cards is not None))
    work = arguments.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    load_start = harness.load_average()
    runs = three_solves(recipe, cards, work, 60.0 * arguments.minutes, arguments.block)
    load_end = harness.load_average()
    variant = tomllib.loads(recipe.read_text())["rules"]["variant"]
    match = vcfr(match_arguments(variant, work / "dask.h5", "equity", arguments.hands), work / "match.log")
    r1 = runs["1 worker"]["iterations_per_second"]
    n_bytes = table_bytes(work / "dask.h5")
    merge_rate = add_rate(n_bytes)
    dask = runs["Dask LocalCluster, 2 workers"]
    blocks = max(1, round(dask["iterations"] / arguments.block))
    block_seconds = dask["seconds"] / blocks
    # On one machine the tables travel through local memory: transfer (2 workers x 2 copies) and add
    # (2 deltas) are both counted at the add rate m; the rest of the block time is fixed overhead.
    overhead = max(
        0.0, block_seconds - arguments.block / (2 * r1) - 2 * 2 * n_bytes / merge_rate - 2 * n_bytes / merge_rate
    )
    network = arguments.network_gbps * 1e9 / 8
    report = {
        "date": harness.now(),
        "machine": harness.machine(cores_used=2),
        "load": [None if load is None else load[0] for load in (load_start, load_end)],
        "recipe": str(recipe.relative_to(ROOT)) if recipe.is_relative_to(ROOT) else str(recipe),
        "cards": cards.name,
        "minutes": arguments.minutes,
        "block": arguments.block,
        "runs": runs,
        "match": {"mean": match["mbb_per_hand"], "ci": match["ci95_mbb_per_hand"], "hands": match["rounds"]},
        "r1": r1,
        "table_bytes": n_bytes,
        "merge_rate": merge_rate,
        "block_seconds": block_seconds,
        "overhead_s": overhead,
        "network_gbps": arguments.network_gbps,
        "projection": projection(r1, overhead, n_bytes, merge_rate, network, arguments.block / 2),
    }
    report = harness.write_results(arguments.out, report, markdown, harness.command_line(__file__, argv))
    print(f"wrote {arguments.out.with_suffix('.md')}", flush=True)
    return report


if __name__ == "__main__":
    main()
