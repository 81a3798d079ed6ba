"""Parallel ES-MCCFR on Leduc: exploitability against wall-clock time for 1 and 2 workers.

Run: ``.venv/bin/python experiments/parallel_scaling.py [--seconds 10] [--target 0.01] [--repeats 3]``
(about ``3 x repeats x seconds`` plus start-up). Three settings of the same solve loop
(``solver.solve.training.train``): one worker; two threads on shared tables; two processes merging
deltas. Each runs ``repeats`` times (seeds ``seed, seed + 1, ...``), interleaved so that a change
of machine load hits every setting, and is summarised by medians.

Time to target is the solve time of the first measurement from which the exploitability stays at
or below ``--target`` chips; the speedup is the one-worker time over the two-worker time. That
needs two idle cores. On a shared machine (Linux puts all threads of a session in one scheduling
"autogroup", so a busy machine gives this process about one core's share with 1 or 2 threads)
the script also reports, for the thread runs, ``cpu_share`` (CPU seconds per wall second: up to
2.0 when both threads really ran at once), CPU seconds to target (all threads, solving only), the
speedup they project on two free cores, ``2 * cpu_1_worker / cpu_2_threads`` (exact when both
threads run the whole time, as they do with equal iteration ranges), iterations to target, and
the CPU cost per iteration relative to one worker (1.0 = no contention on the shared tables).

Outputs in ``results/``: ``parallel_scaling_leduc.csv`` (run, seed, iteration, seconds,
cpu_seconds, exploitability_chips), ``parallel_scaling_leduc.json`` (medians and every run) and
``parallel_scaling_leduc.png``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import harness
import numpy as np

from solver.solve.training import TrainingConfig, TrainingProgress, train

RESULTS = harness.ROOT / "results"
RUNS = {
    "1 worker": (1, "threads"),
    "2 threads (shared tables)": (2, "threads"),
    "2 processes (merged deltas)": (2, "processes"),
}


def target_index(exploitability: np.ndarray, target: float) -> int | None:
    """Index of the first measurement from which exploitability stays <= ``target``, or None.

    >>> target_index(np.array([0.5, 0.1, 0.3, 0.1]), 0.2), target_index(np.array([0.5, 0.1]), 0.05)
    (3, None)
    """
    above = np.flatnonzero(exploitability > target)
    first = 0 if len(above) == 0 else int(above[-1]) + 1
    return first if first < len(exploitability) else None


def _autogroup() -> str:
    setting = Path("/proc/sys/kernel/sched_autogroup_enabled")
    return setting.read_text().strip() if setting.exists() else "unknown"


def one_run(name: str, seed: int, arguments: argparse.Namespace, folder: Path) -> tuple[list[dict], dict]:
    """Solve once with the settings of run ``name``; return its curve rows and its summary."""
    workers, backend = RUNS[name]
    config = TrainingConfig(
        game="leduc",
        algorithm="es-mccfr",
        seconds=arguments.seconds,
        seed=seed,
        workers=workers,
        backend=backend,
        evaluate_every=arguments.evaluate_every,
    )
    events: list[TrainingProgress] = []
    train(config, folder / "scaling.h5", on_progress=events.append)
    reached = target_index(np.array([event.exploitability for event in events]), arguments.target)
    at_target = None if reached is None else events[reached]
    last = events[-1]
    rows = [
        {
            "run": name,
            "seed": seed,
            "iteration": event.iteration,
            "seconds": event.seconds,
            "cpu_seconds": event.cpu_seconds,
            "exploitability_chips": event.exploitability,
        }
        for event in events
    ]
    threads = backend == "threads"  # worker processes' CPU time is not visible here
    return rows, {
        "seed": seed,
        "iterations": last.iteration,
        "iterations_per_s": last.iteration / last.seconds,
        "final_exploitability_chips": last.exploitability,
        "seconds_to_target": None if at_target is None else at_target.seconds,
        "iterations_to_target": None if at_target is None else at_target.iteration,
        "cpu_seconds_to_target": at_target.cpu_seconds if at_target is not None and threads else None,
        "cpu_microseconds_per_iteration": 1e6 * last.cpu_seconds / last.iteration if threads else None,
        # CPU seconds per wall second: up to 2.0 when two threads really ran at the same time.
        "cpu_share": round(last.cpu_seconds / last.seconds, 2) if threads else None,
        "load_average_1min_after": (harness.load_average() or [None])[0],
    }


def median(values: list[float | None]) -> float | None:
    """Median of the values, or None if any is None (a run that never reached the target)."""
    return None if not values or any(value is None for value in values) else float(np.median(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="solve budget of each run")
    parser.add_argument("--target", type=float, default=0.01, help="exploitability target in chips")
    parser.add_argument("--repeats", type=int, default=3, help="runs per setting (seeds seed..seed+repeats-1)")
    parser.add_argument("--evaluate-every", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()

    rows: list[dict] = []
    runs: dict[str, list[dict]] = {name: [] for name in RUNS}
    with tempfile.TemporaryDirectory() as folder:
        for repeat in range(arguments.repeats):  # interleaved, so a change of machine load hits every setting
            for name in RUNS:
                curve, result = one_run(name, arguments.seed + repeat, arguments, Path(folder))
                rows += curve
                runs[name].append(result)
                print(name, json.dumps(result))
    summary = {}
    for name, results in runs.items():
        summary[name] = {
            key: median([result[key] for result in results])
            for key in (
                "seconds_to_target",
                "iterations_to_target",
                "cpu_seconds_to_target",
                "cpu_microseconds_per_iteration",
                "cpu_share",
                "iterations_per_s",
                "final_exploitability_chips",
            )
        }
    serial = summary["1 worker"]
    for name in list(RUNS)[1:]:
        parallel = summary[name]
        workers = RUNS[name][0]
        parallel["speedup_to_target"] = (
            serial["seconds_to_target"] / parallel["seconds_to_target"]
            if serial["seconds_to_target"] and parallel["seconds_to_target"]
            else None
        )
        parallel["projected_speedup_on_free_cores"] = (
            workers * serial["cpu_seconds_to_target"] / parallel["cpu_seconds_to_target"]
            if serial["cpu_seconds_to_target"] and parallel["cpu_seconds_to_target"]
            else None
        )
        parallel["cpu_cost_per_iteration_vs_1_worker"] = (
            parallel["cpu_microseconds_per_iteration"] / serial["cpu_microseconds_per_iteration"]
            if parallel["cpu_microseconds_per_iteration"] and serial["cpu_microseconds_per_iteration"]
            else None
        )
        print(
            f"{name}: median wall-clock speedup to {arguments.target} chips = {parallel['speedup_to_target']}, "
            f"projected on free cores = {parallel['projected_speedup_on_free_cores']}, "
            f"CPU cost per iteration vs 1 worker = {parallel['cpu_cost_per_iteration_vs_1_worker']}, "
            f"CPU share = {parallel['cpu_share']}"
        )

    stem = RESULTS / "parallel_scaling_leduc"
    plot(rows, arguments.target, stem)
    report = {
        "game": "leduc",
        "algorithm": "es-mccfr",
        "target_chips": arguments.target,
        "machine": {**harness.machine(cores_used=2), "sched_autogroup_enabled": _autogroup()},
        "median": summary,
        "runs": runs,
    }
    harness.write_rows_and_results(stem, rows, report, None, harness.command_line(__file__, None))
    print(f"wrote {stem}.csv, {stem}.json, {stem}.png")


def plot(rows: list[dict], target: float, stem: Path) -> None:
    plt = harness.pyplot()
    figure, axes = plt.subplots(figsize=(7, 4.5))
    colors = dict(zip(RUNS, ("tab:blue", "tab:orange", "tab:green"), strict=True))
    for name in RUNS:
        for seed in sorted({row["seed"] for row in rows if row["run"] == name}):
            points = [row for row in rows if row["run"] == name and row["seed"] == seed]
            axes.loglog(
                [p["seconds"] for p in points],
                [p["exploitability_chips"] for p in points],
                color=colors[name],
                linewidth=1,
                alpha=0.8,
                label=name if seed == rows[0]["seed"] else None,
            )
    axes.axhline(target, color="grey", linestyle=":", label=f"target {target} chips")
    axes.set_xlabel("solve time (s)")
    axes.set_ylabel("exploitability (chips)")
    axes.set_title("Leduc ES-MCCFR: exploitability vs wall-clock, 1 and 2 workers")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(f"{stem}.png", dpi=120)
    plt.close(figure)


if __name__ == "__main__":
    main()
