"""Parallel ES-MCCFR on a larger game: abstract heads-up no-limit hold'em, 1 worker vs 2 threads.

Run: ``.venv/bin/python experiments/parallel_scaling_holdem.py [--seconds 20] [--repeats 3]``
(about ``2 x repeats x seconds`` of solving, plus exploitability checks and, on a first run, about
a minute to build the card abstraction, cached in ``build/holdem_pipeline`` like
``experiments/holdem_pipeline.py``).

The game is the hold'em pipeline's abstract game (card abstraction ehs2 16/16/16/16 over the
first 120 canonical flops, bets ``1p,a cap=2``, stack 400) with chance a fixed sample of
``--deals`` deals, small enough that the exact best response in the abstract game (two float64
arrays of nodes x deals) fits in memory. It has about 16 times Leduc's information sets, so two
threads running the GIL-free kernel on one shared regret table (``solver.solve.parallel``, backend
``threads``) collide less often on the same cache lines than on Leduc's 17 KB table.

Both settings run the same solve loop in blocks of ``--block`` iterations; only the blocks are
timed, exploitability (chips, exact in the abstract game) is measured between blocks. Time to
target is the solve time of the first measurement from which exploitability stays at or below
``--target``; the speedup is the median one-worker time over the median two-thread time. Runs are
interleaved so a change of machine load hits both settings.

Outputs: ``results/parallel_scaling_holdem.json`` (settings, medians, every run's curve) and
``results/parallel_scaling_holdem.png``.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import harness
import numpy as np
from parallel_scaling import median, target_index

from abstraction.cards.buckets import CardAbstraction, CardAbstractionConfig, canonical_flops
from abstraction.cards.build import build_card_abstraction
from game.rules.holdem import HoldemConfig
from solver.evaluate.exploitability import exploitability
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game
from solver.solve.cfr import SolverConfig, allocate_tables, normalized_strategy, table_dtype
from solver.solve.parallel import iteration_runner

ROOT = harness.ROOT
RESULTS = ROOT / "results"
SETTINGS = {"1 worker": 1, "2 threads (shared tables)": 2}


def card_abstraction(work: Path, seed: int) -> tuple[CardAbstraction, Path]:
    """The pipeline's small card abstraction, loaded from its cache or built and cached."""
    config = CardAbstractionConfig(buckets=(16, 16, 16, 16), method="ehs2", seed=seed)
    path = work / f"cards_ehs2_16-16-16-16_flops120_seed{seed}.h5"
    if path.is_file():
        return CardAbstraction.load(path), path
    work.mkdir(parents=True, exist_ok=True)
    abstraction = build_card_abstraction(config, flops=canonical_flops()[:120])
    abstraction.save(path)
    return abstraction, path


def run(
    game, workers: int, seed: int, seconds: float, block: int, sharing: str = "sums"
) -> list[tuple[float, int, float]]:
    """Solve for ``seconds`` of timed blocks (``sharing``: ``solver.solve.parallel``'s, for threads);
    returns (solve seconds, iterations, exploitability)."""
    config = SolverConfig(algorithm="es-mccfr", seed=seed)
    tables = allocate_tables(game, table_dtype(config))
    tables["iteration"] = np.zeros(1, dtype=np.int64)
    curve = []
    solving = 0.0
    with iteration_runner(game, config, workers=workers, backend="threads", sharing=sharing) as runner:
        while solving < seconds:
            started = time.perf_counter()
            runner(tables, block)
            solving += time.perf_counter() - started
            strategy = normalized_strategy(game, tables["strategy_sums"])
            chips = exploitability(game, strategy).exploitability_chips
            curve.append((solving, int(tables["iteration"][0]), float(chips)))
    return curve


def time_to_target(curve: list[tuple[float, int, float]], target: float) -> float | None:
    """Solve seconds of the first point from which exploitability stays <= target."""
    reached = target_index(np.array([chips for _, _, chips in curve]), target)
    return None if reached is None else curve[reached][0]


def plot(runs: dict[str, list[list[tuple[float, int, float]]]], target: float, path: Path) -> None:
    """Exploitability against solve seconds, every run of both settings, and the target line."""
    plt = harness.pyplot()
    figure, axis = plt.subplots(figsize=(7, 4.5))
    for (name, curves), color in zip(runs.items(), ("tab:blue", "tab:orange"), strict=True):
        for index, curve in enumerate(curves):
            axis.plot(
                [p[0] for p in curve], [p[2] for p in curve], color=color, alpha=0.8, label=name if index == 0 else None
            )
    axis.axhline(target, color="grey", linestyle=":", label=f"target {target:.3f} chips")
    axis.set_yscale("log")
    axis.set_xlabel("solve seconds (wall clock)")
    axis.set_ylabel("exploitability in the abstract game (chips)")
    axis.set_title("ES-MCCFR on abstract HUNL hold'em: 1 worker vs 2 threads")
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="timed solve budget of each run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--block", type=int, default=200_000, help="iterations between exploitability checks")
    parser.add_argument(
        "--target",
        type=float,
        default=None,
        help="exploitability target in chips (default: 1.5x the best final value of the 1-worker runs)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work-dir", type=Path, default=ROOT / "build" / "holdem_pipeline")
    arguments = parser.parse_args()

    abstraction, cards_path = card_abstraction(arguments.work_dir, arguments.seed)
    game_config = AbstractGameConfig.for_variant(
        HoldemConfig(), cards_path, bets="1p,a cap=2", chance="fixed", n_deals=arguments.deals, deal_seed=arguments.seed
    )
    game = build_abstract_game(game_config, abstraction)
    print(
        f"abstract game: {game.tree.n_nodes} nodes, {game.tree.n_infosets} information sets, "
        f"{game.deals.n_deals} deals",
        flush=True,
    )

    runs: dict[str, list[list[tuple[float, int, float]]]] = {name: [] for name in SETTINGS}
    for repeat in range(arguments.repeats):
        for name, workers in SETTINGS.items():
            curve = run(game, workers, arguments.seed + repeat, arguments.seconds, arguments.block)
            runs[name].append(curve)
            rate = curve[-1][1] / curve[-1][0]
            print(
                f"{name} seed {arguments.seed + repeat}: {rate:,.0f} iterations/s, "
                f"final exploitability {curve[-1][2]:.4f} chips",
                flush=True,
            )

    target = arguments.target
    if target is None:
        target = 1.5 * min(curve[-1][2] for curve in runs["1 worker"])
    summary = {}
    for name, curves in runs.items():
        times = [time_to_target(curve, target) for curve in curves]
        summary[name] = {
            "seconds_to_target": times,
            "median_seconds_to_target": median(times),
            "median_iterations_per_s": float(np.median([c[-1][1] / c[-1][0] for c in curves])),
        }
    one, two = (summary[name]["median_seconds_to_target"] for name in SETTINGS)
    speedup = one / two if one and two else None
    report = {
        "machine": harness.machine(cores_used=2),
        "load_average_1min_after": os.getloadavg()[0],
        "game": {
            "n_nodes": int(game.tree.n_nodes),
            "n_infosets": int(game.tree.n_infosets),
            "n_deals": int(game.deals.n_deals),
        },
        "target_chips": target,
        "speedup_2_threads": speedup,
        "summary": summary,
        "runs": {name: [[list(point) for point in curve] for curve in curves] for name, curves in runs.items()},
    }
    command = harness.command_line(__file__, None, python="python")
    harness.write_results(RESULTS / "parallel_scaling_holdem", report, None, command)
    plot(runs, target, RESULTS / "parallel_scaling_holdem.png")
    print(f"target {target:.4f} chips; 2-thread speedup to target: {speedup}")


if __name__ == "__main__":
    main()
