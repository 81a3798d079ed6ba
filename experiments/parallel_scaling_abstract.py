"""Parallel ES-MCCFR on each variant's default abstract game: 1 worker vs 2 threads, against the speed bar.

Run: ``.venv/bin/python experiments/parallel_scaling_abstract.py [--variants holdem swap ...]
[--rate-seconds 10] [--target-seconds 20] [--repeats 3] [--wait-idle MINUTES]`` on a machine whose
two cores are idle: figures taken beside another solve measure the scheduler, not the solver. The
script records the 1-minute load average at start and end, marks the report NOT IDLE when it
starts at or above ``--idle-load`` (0.3), and with ``--wait-idle`` waits up to that many minutes
for the load to fall below it (and measures nothing if it does not). About ``5 x repeats x (5 x rate + 3 x target)``
seconds of solving plus exploitability checks (``--checks`` per run) and game builds (Auction's
tree about a minute, twice): about an hour and a half with the defaults.

Per variant (Hold'em, Swap, Bounty, River of Blood, Auction), the game of ``vcfr bench abstract``
(:func:`solver.bench.abstract.default_game`: its default bets, a random-table card abstraction
with buckets 169/50/50/50):

1. Iterations per second, fresh chance: :func:`solver.bench.abstract.iterations_per_second` (the
   ``threads`` solve loop of :mod:`solver.solve.parallel`, blocks of about half a second after a
   warm-up) for ``--rate-seconds`` with 1 worker; 2 threads with each of ``solver.solve.parallel``'s
   ways of sharing the tables (``sums``, the default; ``rows``; ``buffers``, the first
   scheme); and, as the ceiling of any way of sharing, 2 independent solves on separate tables
   at once (their rates added: nothing shared, but twice the tables in the caches). Interleaved,
   ``--repeats`` times; medians.
2. Time to a fixed target: the same tree and cards with chance a fixed table of deals, as many as
   let the exact best response in the abstract game (two float64 ``nodes x deals`` arrays) fit in
   ``--br-memory`` bytes (256 MB: Hold'em 252 deals, Auction 31; 20 to 20,000). Few deals keep a
   check to a second or two; the solve then learns those deals, a smaller game on the same tree.
   1 worker, 2 threads (``sums``) and 2 threads (``buffers``) each solve for ``--target-seconds``
   of timed blocks (``experiments/parallel_scaling_holdem.run``: ``--checks`` blocks of equal
   iteration counts, the exact exploitability measured between blocks, untimed), seeds
   ``seed .. seed + repeats - 1`` for each. The target is ``--target-factor`` times the median
   final exploitability of the 1-worker runs, fixed before comparing: a factor of 2 puts the
   crossing where the curves still fall steeply (about a quarter of the 1-worker budget at the
   1/sqrt(t) rate of Monte Carlo CFR), not on the noise floor of their ends. Time to target: the
   solve seconds of the first check from which exploitability stays at or below the target;
   speedup: median 1-worker time over the setting's median time. Iterations to target are
   reported too, so a loss of convergence per iteration shows apart from the iteration rate.

The machine's own ceiling comes first: 1 vs 2 threads of a compute-bound loop (a splitmix64 chain)
and of a memory-latency-bound one (a pointer chase through 256 MB), each thread on its own data.
Two vCPUs that are hyperthreads of one physical core, or that share a memory path the solver
saturates, cap every solver figure below 2x whatever the solver does.

Issue 11's bar: 2 threads at least 1.8x the iterations per second of 1, and at least 1.7x lower
time to target. Outputs: ``results/parallel_scaling_abstract.json`` (settings, load, every run's
rates and curves) and ``results/parallel_scaling_abstract.md`` (the table).
"""

from __future__ import annotations

import argparse
import os
import threading
import time
from pathlib import Path

import harness
import numpy as np
from numba import njit
from parallel_scaling import median, target_index
from parallel_scaling_holdem import run

from abstraction.hooks import hooked_variants
from game.cards.kernels_rng import splitmix64
from solver.bench.abstract import DEFAULT_BETS, default_game, iterations_per_second, random_abstraction
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game

RESULTS = harness.ROOT / "results"
VARIANTS = hooked_variants()
RATE_SETTINGS = {
    "1 worker": (1, "sums"),
    "2 threads": (2, "sums"),
    "2 threads, sharing rows": (2, "rows"),
    "2 threads, sharing buffers": (2, "buffers"),
    "2 independent solves": (2, None),
}
"""Name: (workers, ``solver.solve.parallel`` sharing; None: one worker per thread on separate tables)."""
TARGET_SETTINGS = {"1 worker": (1, "sums"), "2 threads": (2, "sums"), "2 threads, sharing buffers": (2, "buffers")}
MIN_DEALS, MAX_DEALS = 20, 20_000
IT_PER_S_BAR, TIME_BAR = 1.8, 1.7


@njit(cache=True, nogil=True)
def _compute_bound(seed, n):
    value = np.uint64(seed)
    for _ in range(n):
        value = splitmix64(value)
    return value


@njit(cache=True, nogil=True)
def _latency_bound(successor, start, n):
    index = start
    for _ in range(n):
        index = successor[index]
    return index


def _two_threads(work) -> float:
    """Wall seconds of ``work(0)`` and ``work(1)`` run at once on two threads."""
    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def machine_ceiling(repeats: int) -> dict:
    """2-thread over 1-thread throughput of a compute-bound and a memory-latency-bound loop (medians)."""
    size = 2**25  # int64: 256 MB, far past the caches
    order = np.random.default_rng(0).permutation(size)
    successor = np.empty(size, dtype=np.int64)
    successor[order] = np.roll(order, -1)  # one cycle through every entry
    loops = {
        "compute-bound": (lambda k, n: _compute_bound(k + 1, n), 200_000_000),
        "memory-latency-bound": (lambda k, n: _latency_bound(successor, k * (size // 2), n), 10_000_000),
    }
    result = {}
    for name, (loop, n) in loops.items():
        loop(0, 1000)  # compile or load
        ratios = []
        for _ in range(repeats):
            started = time.perf_counter()
            loop(0, n)
            one = time.perf_counter() - started
            ratios.append(2 * one / _two_threads(lambda k, loop=loop, n=n: loop(k, n)))
        result[name] = float(np.median(ratios))
        print(f"  machine, {name}: 2 threads {result[name]:.2f}x one (load {os.getloadavg()[0]:.2f})", flush=True)
    return result


def independent_solves(game, seconds: float) -> float:
    """Iterations per second of two 1-worker solves run at once on separate tables, added."""
    rates = [0.0, 0.0]

    def solve(k: int) -> None:
        rates[k] = iterations_per_second(game, seconds, 1, seed=1 + k)

    _two_threads(solve)
    return sum(rates)


def fixed_game(variant: str, abstraction, memory: int, n_nodes: int):
    """The default tree (``n_nodes`` nodes) and cards of ``variant`` with a fixed deal table sized to ``memory``."""
    deals = int(min(MAX_DEALS, max(MIN_DEALS, memory // (16 * n_nodes))))
    config = AbstractGameConfig(
        variant=variant, card_abstraction="random-tables", bets=DEFAULT_BETS[variant], chance="fixed", n_deals=deals
    )
    return build_abstract_game(config, abstraction)


def rates(variant: str, game, arguments: argparse.Namespace) -> dict:
    runs: dict[str, list[float]] = {name: [] for name in RATE_SETTINGS}
    for _ in range(arguments.repeats):
        for name, (workers, sharing) in RATE_SETTINGS.items():
            if sharing is None:
                runs[name].append(independent_solves(game, arguments.rate_seconds))
            else:
                runs[name].append(iterations_per_second(game, arguments.rate_seconds, workers, sharing))
            print(f"  {variant} {name}: {runs[name][-1]:,.0f} it/s (load {os.getloadavg()[0]:.2f})", flush=True)
    medians = {name: float(np.median(values)) for name, values in runs.items()}
    return {
        "runs": runs,
        "median": medians,
        "speedup": medians["2 threads"] / medians["1 worker"],
        "speedups": {name: medians[name] / medians["1 worker"] for name in RATE_SETTINGS},
    }


def at_target(curve: list[tuple[float, int, float]], target: float) -> tuple[float, int, float] | None:
    """The (solve seconds, iterations, exploitability) check from which exploitability stays <= target."""
    index = target_index(np.array([chips for _, _, chips in curve]), target)
    return None if index is None else curve[index]


def targets(variant: str, game, arguments: argparse.Namespace) -> dict:
    rate = iterations_per_second(game, 2.0)  # sizes the blocks only
    block = max(1000, int(rate * arguments.target_seconds / arguments.checks) // 1000 * 1000)
    curves: dict[str, list] = {name: [] for name in TARGET_SETTINGS}
    for repeat in range(arguments.repeats):
        for name, (workers, sharing) in TARGET_SETTINGS.items():
            curve = run(game, workers, arguments.seed + repeat, arguments.target_seconds, block, sharing)
            curves[name].append(curve)
            print(
                f"  {variant} fixed {game.deals.n_deals} deals, {name}: {curve[-1][1] / curve[-1][0]:,.0f} it/s, "
                f"final exploitability {curve[-1][2]:.4f} chips (load {os.getloadavg()[0]:.2f})",
                flush=True,
            )
    target = arguments.target_factor * float(np.median([curve[-1][2] for curve in curves["1 worker"]]))
    summary = {}
    for name, runs in curves.items():
        points = [at_target(curve, target) for curve in runs]
        seconds = [None if point is None else point[0] for point in points]
        iterations = [None if point is None else point[1] for point in points]
        summary[name] = {
            "seconds_to_target": seconds,
            "median_seconds_to_target": median(seconds),
            "iterations_to_target": iterations,
            "median_iterations_to_target": median(iterations),
            "median_iterations_per_s": float(np.median([c[-1][1] / c[-1][0] for c in runs])),
        }
    one = summary["1 worker"]["median_seconds_to_target"]
    for name in summary:
        mine = summary[name]["median_seconds_to_target"]
        summary[name]["speedup"] = one / mine if one and mine else None
    return {
        "n_deals": int(game.deals.n_deals),
        "block": block,
        "target_chips": target,
        "summary": summary,
        "speedup": summary["2 threads"]["speedup"],
        "curves": {name: [[list(point) for point in curve] for curve in runs] for name, runs in curves.items()},
    }


def _times(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}x"


def wait_until_idle(idle_load: float, minutes: float) -> bool:
    """Poll the 1-minute load average every 10 s for up to ``minutes``; True once it is below ``idle_load``."""
    deadline = time.monotonic() + 60.0 * minutes
    while os.getloadavg()[0] >= idle_load:
        if time.monotonic() >= deadline:
            return minutes <= 0.0
        time.sleep(10.0)
    return True


def markdown(report: dict) -> str:
    rate_names, target_names = list(RATE_SETTINGS), list(TARGET_SETTINGS)
    lines = [
        "# Parallel ES-MCCFR: 1 worker vs 2 threads on each variant's default abstract game",
        "",
        f"Command: `{report['command']}`  ",
        f"Machine: {harness.machine_line(report['machine'])}  ",
        f"Load average (1 min): {report['load_average_1min_start']:.2f} at start, "
        f"{report['load_average_1min_end']:.2f} at end (this script's own threads included); "
        f"{report['minutes']:.0f} minutes.",
        "",
        *(
            []
            if report["load_average_1min_start"] < report["settings"]["idle_load"]
            else [
                f"**NOT IDLE at start (load >= {report['settings']['idle_load']}): these figures measure the scheduler's "
                "share of a busy machine, not the solver's scaling.**",
                "",
            ]
        ),
        "Machine ceiling, 2 threads over 1 on separate data: "
        + ", ".join(f"{name} {ratio:.2f}x" for name, ratio in report["machine_ceiling"].items())
        + ".",
        "",
        f"Bar: 2 threads {IT_PER_S_BAR}x the iterations/s of 1 and {TIME_BAR}x less time to target. "
        "`2 threads` is the default sharing (`sums`, `solver.solve.parallel`); `buffers` the scheme before.",
        "",
        "## Iterations per second (fresh chance, medians; speedup over 1 worker)",
        "",
        "| variant | " + " | ".join(rate_names) + " |",
        "|---|" + "---|" * len(rate_names),
    ]
    for variant, result in report["variants"].items():
        speed = result["rates"]["median"]
        cells = [
            f"{speed[name]:,.0f}" + ("" if name == "1 worker" else f" ({speed[name] / speed['1 worker']:.2f}x)")
            for name in rate_names
        ]
        lines.append(f"| {variant} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"## Time to target (fixed deal table, exact exploitability; target {report['settings']['target_factor']} x "
        "the median final 1-worker exploitability)",
        "",
        "Per setting: median solve seconds to target (speedup over 1 worker), median iterations to target.",
        "",
        "| variant | deals | target (chips) | " + " | ".join(target_names) + " | bar |",
        "|---|---|---|" + "---|" * len(target_names) + "---|",
    ]
    for variant, result in report["variants"].items():
        target = result["target"]
        cells = []
        for name in target_names:
            summary = target["summary"][name]
            seconds, iterations = summary["median_seconds_to_target"], summary["median_iterations_to_target"]
            cells.append(
                "not reached"
                if seconds is None
                else f"{seconds:.2f} s ({_times(summary['speedup'])}), {iterations:,.0f} it"
            )
        met = result["rates"]["speedup"] >= IT_PER_S_BAR and (target["speedup"] or 0.0) >= TIME_BAR
        lines.append(
            f"| {variant} | {target['n_deals']:,} | {target['target_chips']:.4f} | "
            + " | ".join(cells)
            + f" | {'met' if met else 'missed'} |"
        )
    return "\n".join(lines) + "\n"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--rate-seconds", type=float, default=10.0, help="wall clock of each rate measurement")
    parser.add_argument("--target-seconds", type=float, default=20.0, help="timed solve budget of each target run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--checks", type=int, default=30, help="exploitability checks per 1-worker target run")
    parser.add_argument("--target-factor", type=float, default=2.0)
    parser.add_argument(
        "--br-memory",
        type=int,
        default=2**28,
        help="bytes the exact best response of a fixed-table game may take (sets its deals)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS / "parallel_scaling_abstract")
    parser.add_argument("--idle-load", type=float, default=0.3, help="1-minute load average that counts as idle")
    parser.add_argument(
        "--wait-idle",
        type=float,
        default=0.0,
        help="minutes to wait for the load to fall below --idle-load before starting (0: start now)",
    )
    return parser


def measure_variant(variant: str, arguments: argparse.Namespace) -> dict:
    """The variant's iterations/s per setting (fresh chance) and its time to target (fixed deal table)."""
    abstraction = random_abstraction(variant)
    game, bets = default_game(variant, abstraction)
    print(f"{variant}: {game.tree.n_nodes:,} nodes, {game.tree.n_infosets:,} information sets, bets {bets}", flush=True)
    result = {
        "bets": bets,
        "nodes": int(game.tree.n_nodes),
        "infosets": int(game.tree.n_infosets),
        "rates": rates(variant, game, arguments),
    }
    del game
    fixed = fixed_game(variant, abstraction, arguments.br_memory, result["nodes"])
    result["target"] = targets(variant, fixed, arguments)
    print(
        f"{variant}: it/s speedup {result['rates']['speedup']:.2f}x, time-to-target speedup "
        f"{result['target']['speedup']}",
        flush=True,
    )
    return result


def main() -> None:
    arguments = build_parser().parse_args()
    if not wait_until_idle(arguments.idle_load, arguments.wait_idle):
        raise SystemExit(
            f"the 1-minute load average stayed at or above {arguments.idle_load} for "
            f"{arguments.wait_idle} minutes: not measuring"
        )
    clock, load_start = harness.Stopwatch(), os.getloadavg()[0]
    if load_start >= arguments.idle_load:
        print(
            f"WARNING: load average {load_start:.2f} >= {arguments.idle_load}: the figures will not show the "
            "solver's scaling (the report says so)",
            flush=True,
        )
    report = {
        "machine": harness.machine(cores_used=2),
        "load_average_1min_start": load_start,
        "settings": {key: (str(value) if isinstance(value, Path) else value) for key, value in vars(arguments).items()},
        "machine_ceiling": machine_ceiling(arguments.repeats),
        "variants": {variant: measure_variant(variant, arguments) for variant in arguments.variants},
    }
    report["load_average_1min_end"] = os.getloadavg()[0]
    report["minutes"] = clock.seconds / 60
    command = harness.command_line(__file__, None, python="python")
    print(markdown(harness.write_results(arguments.out, report, markdown, command)))


if __name__ == "__main__":
    main()
