"""Exploitability against iterations and against seconds: our solvers and OpenSpiel's C++ solvers.

Run: ``.venv/bin/python experiments/convergence.py [--game leduc] [--seconds 10] [--iterations 1000]``
(about 1-2 minutes on Leduc). Full traversals (CFR, CFR+, DCFR) are measured at log-spaced
iteration counts up to ``--iterations``; sampling methods (ES-/OS-MCCFR) at log-spaced solve
times up to ``--seconds``. Exploitability is in chips (NashConv / 2); measuring is not timed.
Outputs in ``results/``: ``convergence_<game>.csv`` (side, algorithm, iteration, seconds,
exploitability_chips), ``convergence_<game>.json`` (settings, machine, final points) and the plots
``convergence_<game>_iterations.png`` and ``convergence_<game>_seconds.png``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import harness
import numpy as np

from solver.bench.solver import measure_convergence, openspiel_driver, ours_driver

RESULTS = harness.ROOT / "results"
OURS_FULL = ("cfr", "cfr+", "dcfr")
OURS_SAMPLING = ("es-mccfr", "os-mccfr")
PEER_FULL = ("cfr", "cfr+")
PEER_SAMPLING = ("es-mccfr", "os-mccfr")


def iteration_marks(last: int) -> list[int]:
    """About 4 log-spaced marks per decade from 1 to ``last``."""
    return sorted({round(x) for x in np.logspace(0, np.log10(last), 4 * int(np.log10(last)) + 1)})


def second_marks(last: float) -> list[float]:
    return [float(x) for x in np.logspace(np.log10(last) - 2, np.log10(last), 9)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="leduc", choices=("kuhn", "leduc"))
    parser.add_argument("--iterations", type=int, default=1000, help="last mark of the full traversals")
    parser.add_argument("--seconds", type=float, default=10.0, help="budget of each sampling run")
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()

    runs = [("ours", name, ours_driver) for name in OURS_FULL + OURS_SAMPLING]
    runs += [("openspiel", name, openspiel_driver) for name in PEER_FULL + PEER_SAMPLING]
    rows, finals = [], []
    for side, algorithm, driver in runs:
        run, evaluate = driver(arguments.game, algorithm, arguments.seed)
        if algorithm in OURS_FULL:
            log = measure_convergence(run, evaluate, iteration_marks=iteration_marks(arguments.iterations))
        else:
            log = measure_convergence(run, evaluate, second_marks=second_marks(arguments.seconds))
        for iteration, seconds, value in zip(log.iteration, log.seconds, log.exploitability, strict=True):
            rows.append(
                {
                    "side": side,
                    "algorithm": algorithm,
                    "iteration": int(iteration),
                    "seconds": float(seconds),
                    "exploitability_chips": float(value),
                }
            )
        final = {
            "side": side,
            "algorithm": algorithm,
            "iterations": int(log.iteration[-1]),
            "seconds": round(float(log.seconds[-1]), 4),
            "exploitability_chips": float(log.exploitability[-1]),
        }
        finals.append(final)
        print(json.dumps(final))

    stem = RESULTS / f"convergence_{arguments.game}"
    plot(rows, arguments.game, stem)
    report = {
        "unit": "exploitability in chips, (BR_0 + BR_1) / 2; seconds of solving, measurement excluded",
        "machine": harness.machine(cores_used=1),
        "final": finals,
    }
    harness.write_rows_and_results(stem, rows, report, None, harness.command_line(__file__, None))
    print(f"wrote {stem}.csv, {stem}.json and two PNG plots")


def plot(rows: list[dict], game: str, stem: Path) -> None:
    plt = harness.pyplot()
    curves: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        curves.setdefault((row["side"], row["algorithm"]), []).append(row)
    for axis_name, label in (("iteration", "iterations"), ("seconds", "solve time (s)")):
        figure, axes = plt.subplots(figsize=(7, 4.5))
        for (side, algorithm), points in curves.items():
            axes.loglog(
                [p[axis_name] for p in points],
                [p["exploitability_chips"] for p in points],
                linestyle="-" if side == "ours" else "--",
                marker="." if side == "ours" else "x",
                label=f"{'ours' if side == 'ours' else 'OpenSpiel'} {algorithm}",
            )
        axes.set_xlabel(label)
        axes.set_ylabel("exploitability (chips)")
        axes.set_title(f"{game.capitalize()}: exploitability vs {label}")
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(fontsize=8, ncol=2)
        figure.tight_layout()
        figure.savefig(f"{stem}_{'iterations' if axis_name == 'iteration' else 'seconds'}.png", dpi=120)
        plt.close(figure)


if __name__ == "__main__":
    main()
