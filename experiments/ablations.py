"""Ablations behind the blueprint recipes: solver settings measured exactly, abstractions by play.

Two questions, two parts:

``solver`` — which ES-MCCFR settings converge fastest per second of one thread: plain averaging,
linear averaging (regret and average increments weighted by the iteration), Pluribus-style
regret-based pruning, or both. Measured EXACTLY on an abstract heads-up no-limit hold'em with a
fixed deal table (card abstraction ehs2 16/16/16/16 on the first 120 canonical flops, bets
``1p,a cap=2``, ``--deals`` deals; the game of ``experiments/parallel_scaling_holdem.py``), where
the best response in the abstract game is exact: exploitability (chips per hand) against solve
seconds, ``--repeats`` seeds per setting, interleaved so machine load hits every setting::

    .venv/bin/python experiments/ablations.py solver --seconds 60 --repeats 2

``abstraction`` — which bucket counts and bet sizes make the stronger bot for a variant in a fixed
budget. A grid of (buckets, bets): each cell builds its card abstraction (``vcfr abstract``,
cached), solves ``--minutes`` of ES-MCCFR with fresh chance under engine rules on ``--workers``
threads, then plays a duplicate match against the equity bot (``--hands``, engine rules) and runs
LBR (``--lbr-hands`` per seat, the blueprints' LBR setting otherwise). Every cell gets the same
wall clock, so a larger abstraction pays for its size in iterations::

    .venv/bin/python experiments/ablations.py abstraction --variant swap --buckets 16 32 \\
        --bets "1p,a cap=2" "0.5p,1p,a cap=2; 1p,a cap=2" --minutes 5 --hands 4000

Outputs in ``results/``: ``ablations_solver.{json,md}`` and ``ablations_<variant>.{json,md}``
(the command, the machine, the load average at start and end, every measurement with its 95%
interval and sample size).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import harness
import numpy as np
from harness import ROOT, last_json, match_arguments, run_vcfr

RESULTS = ROOT / "results"
LBR_CANDIDATES = 100


@dataclass(frozen=True)
class SolverSetting:
    """One ES-MCCFR setting of the solver ablation (fields of `solver.solve.cfr.SolverConfig`)."""

    name: str
    linear_averaging: bool = False
    prune: bool = False


SOLVER_SETTINGS = (
    SolverSetting("plain"),
    SolverSetting("linear averaging", linear_averaging=True),
    SolverSetting("pruning", prune=True),
    SolverSetting("linear averaging + pruning", linear_averaging=True, prune=True),
)


# ----------------------------------------------------------------------------------------- solver
def solver_curve(
    game: Any, setting: SolverSetting, seed: int, seconds: float, block: int, prune_after: int
) -> list[tuple[float, int, float]]:
    """One thread, ``seconds`` of timed blocks of ``block`` iterations; (solve s, iterations,
    exploitability chips) after every block (measuring is not timed)."""
    from solver.evaluate.exploitability import exploitability
    from solver.solve.cfr import SolverConfig, allocate_tables, normalized_strategy, table_dtype
    from solver.solve.parallel import iteration_runner

    config = SolverConfig(
        algorithm="es-mccfr",
        seed=seed,
        linear_averaging=setting.linear_averaging,
        prune_after=prune_after if setting.prune else -1,
    )
    tables = allocate_tables(game, table_dtype(config))
    tables["iteration"] = np.zeros(1, dtype=np.int64)
    curve, solving = [], 0.0
    with iteration_runner(game, config, workers=1) as runner:
        while solving < seconds:
            started = time.perf_counter()
            runner(tables, block)
            solving += time.perf_counter() - started
            strategy = normalized_strategy(game, tables["strategy_sums"])
            curve.append(
                (solving, int(tables["iteration"][0]), float(exploitability(game, strategy).exploitability_chips))
            )
    return curve


def chips_at(curve: list[tuple[float, int, float]], seconds: float) -> float:
    """Exploitability of the last measurement at or before ``seconds`` of solving (NaN if none)."""
    values = [chips for at, _, chips in curve if at <= seconds]
    return values[-1] if values else float("nan")


def run_solver_ablation(arguments: argparse.Namespace) -> dict[str, Any]:
    from parallel_scaling_holdem import card_abstraction  # the same cached card file as that experiment

    from game.rules.holdem import HoldemConfig
    from solver.games.abstract_games import AbstractGameConfig, build_abstract_game

    abstraction, cards = card_abstraction(arguments.work / "holdem_pipeline", 0)
    game = build_abstract_game(
        AbstractGameConfig.for_variant(
            HoldemConfig(), cards, bets="1p,a cap=2", chance="fixed", n_deals=arguments.deals, deal_seed=0
        ),
        abstraction,
    )
    print(
        f"abstract game: {game.tree.n_nodes} nodes, {game.tree.n_infosets} information sets, "
        f"{game.deals.n_deals} deals",
        flush=True,
    )
    load_start = harness.load_average()
    curves: dict[str, list[list[tuple[float, int, float]]]] = {setting.name: [] for setting in SOLVER_SETTINGS}
    for repeat in range(arguments.repeats):
        for setting in SOLVER_SETTINGS:
            curve = solver_curve(game, setting, repeat, arguments.seconds, arguments.block, arguments.prune_after)
            curves[setting.name].append(curve)
            print(
                f"{setting.name} seed {repeat}: {curve[-1][1] / curve[-1][0]:,.0f} it/s, "
                f"{curve[-1][2]:.4f} chips after {curve[-1][0]:.0f} s",
                flush=True,
            )
    checkpoints = [arguments.seconds / 4, arguments.seconds / 2, arguments.seconds]
    summary = {}
    for name, runs in curves.items():
        summary[name] = {
            "iterations_per_second": float(np.median([run[-1][1] / run[-1][0] for run in runs])),
            "chips_at": {f"{at:g}": [chips_at(run, at) for run in runs] for at in checkpoints},
        }
    return {
        "machine": harness.machine(cores_used=1),
        "date": harness.now(),
        "load": _one_minute_loads(load_start),
        "game": {
            "n_nodes": int(game.tree.n_nodes),
            "n_infosets": int(game.tree.n_infosets),
            "n_deals": int(game.deals.n_deals),
            "cards": "ehs2 16/16/16/16, 120 flops",
            "bets": "1p,a cap=2",
        },
        "settings": {
            "seconds": arguments.seconds,
            "repeats": arguments.repeats,
            "block": arguments.block,
            "prune_after": arguments.prune_after,
            "checkpoints_s": checkpoints,
        },
        "summary": summary,
        "curves": {name: [[list(point) for point in run] for run in runs] for name, runs in curves.items()},
    }


def _loads(loads: list[float | None]) -> str:
    return " / ".join("n/a" if load is None else f"{load:.2f}" for load in loads)


def solver_markdown(report: dict[str, Any]) -> str:
    checkpoints = report["settings"]["checkpoints_s"]
    game = report["game"]
    lines = [
        "# Ablation: ES-MCCFR settings, exploitability measured exactly",
        "",
        f"Command: `{report['command']}`",
        "",
        f"Machine: {harness.machine_line(report['machine'])}, one solver thread. Date: {report['date']}. "
        f"Load average (1 min) at start / end: {_loads(report['load'])}.",
        "",
        f"Game: abstract heads-up no-limit hold'em, cards {game['cards']}, bets `{game['bets']}`, "
        f"{game['n_deals']:,} fixed deals, {game['n_infosets']:,} information sets; exploitability is the exact "
        f"best response in that game, chips per hand (big blind 2). Pruning starts at iteration "
        f"{report['settings']['prune_after']:,}. Each cell: the median over {report['settings']['repeats']} seeds "
        "(every seed's value in the JSON).",
        "",
        "| setting | iterations/s | " + " | ".join(f"chips after {at:g} s" for at in checkpoints) + " |",
        "|---|---|" + "---|" * len(checkpoints),
    ]
    for name, row in report["summary"].items():
        cells = [f"{np.median(row['chips_at'][f'{at:g}']):.4f}" for at in checkpoints]
        lines.append(f"| {name} | {row['iterations_per_second']:,.0f} | " + " | ".join(cells) + " |")
    best = min(
        report["summary"], key=lambda name: np.median(report["summary"][name]["chips_at"][f"{checkpoints[-1]:g}"])
    )
    lines += ["", f"Lowest exploitability at {checkpoints[-1]:g} s: **{best}**.", ""]
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------- abstraction
def _one_minute_loads(start: list[float] | None) -> list[float | None]:
    """The 1-minute load average at the start (``start``) and now."""
    end = harness.load_average()
    return [None if start is None else start[0], None if end is None else end[0]]


def _vcfr_json(arguments: list[str], log: Path) -> dict[str, Any]:
    return last_json(run_vcfr(arguments, log)[0])


def _ablation_cell(
    arguments: argparse.Namespace, variant: str, cards: Path, buckets: int, bets: str, out: Path
) -> dict[str, Any]:
    """One cell of the grid: solve ``arguments.minutes`` on ``cards`` with ``bets`` into ``out``, then
    a duplicate match against the equity bot and LBR against it."""
    from solver.cli.demo import engine_solve_arguments

    for stale in out.parent.glob(out.name + "*"):
        stale.unlink()
    from game.rules.variants import get_variant

    rules = get_variant(variant).config_class
    extra = (["--bids", arguments.bids] if rules.has_auction else []) + (
        ["--max-runs", "1"] if rules.has_run_cards else []
    )
    solve_flags = engine_solve_arguments(
        variant, cards, bets, "--minutes", str(arguments.minutes), "--workers", str(arguments.workers),
        "--seed", "0", *extra, "--out", str(out), "--quiet", "--json",
    )  # fmt: skip
    solved = _vcfr_json(solve_flags, out.with_suffix(".solve.log"))
    match = _vcfr_json(match_arguments(variant, out, "equity", arguments.hands, seed=0), out.with_suffix(".match.log"))
    lbr_flags = ["lbr", str(out), "--hands", str(arguments.lbr_hands), "--candidates", str(LBR_CANDIDATES)]
    lbr_flags += ["--seed", "0", "--workers", str(arguments.workers), "--quiet", "--json"]
    lbr = _vcfr_json(lbr_flags, out.with_suffix(".lbr.log"))
    return {
        "buckets": buckets,
        "bets": bets,
        "iterations": solved["iterations"],
        "iterations_per_second": solved["iterations_per_second"],
        "vs_equity_mbb": match["mbb_per_hand"],
        "vs_equity_ci": match["ci95_mbb_per_hand"],
        "hands": match["rounds"],
        "lbr_mbb": lbr["mbb_per_hand"],
        "lbr_ci": lbr["ci95_mbb"],
        "lbr_hands": arguments.lbr_hands,
    }


def run_abstraction_ablation(arguments: argparse.Namespace) -> dict[str, Any]:
    from blueprints import CardSettings

    from abstraction.cards.buckets import card_file_variant
    from game.pokerbots.engines import engine_rules

    variant = arguments.variant
    work = arguments.work / "ablations" / variant
    load_start = harness.load_average()
    cells = []
    for buckets in arguments.buckets:
        settings = CardSettings(
            card_file_variant(variant), f"169,{buckets},{buckets},{buckets}", "ehs2", arguments.flops, 0
        )
        cards = arguments.work / "ablations" / "cards" / f"{settings.key}.h5"
        if not cards.is_file():
            run_vcfr(settings.arguments(cards), cards.with_suffix(".log"))
        for bets in arguments.bets:
            cells.append(_ablation_cell(arguments, variant, cards, buckets, bets, work / f"b{buckets}_{len(cells)}.h5"))
            print(json.dumps(cells[-1]), flush=True)
    return {
        "machine": harness.machine(cores_used=arguments.workers),
        "date": harness.now(),
        "load": _one_minute_loads(load_start),
        "variant": variant,
        "engine_year": engine_rules(variant).year,
        "settings": {
            "minutes": arguments.minutes,
            "workers": arguments.workers,
            "hands": arguments.hands,
            "lbr_hands": arguments.lbr_hands,
            "flops": arguments.flops,
            "bids": arguments.bids,
        },
        "cells": cells,
    }


def abstraction_markdown(report: dict[str, Any]) -> str:
    settings = report["settings"]
    lines = [
        f"# Ablation: bucket counts and bet sizes, {report['variant']} ({report['engine_year']} engine rules)",
        "",
        f"Command: `{report['command']}`",
        "",
        f"Machine: {harness.machine_line(report['machine'])}. Date: {report['date']}. Load average (1 min) at "
        f"start / end: {_loads(report['load'])}.",
        "",
        f"Every cell: card abstraction ehs2 `169,B,B,B` on {settings['flops']} flops, {settings['minutes']} min of "
        f"ES-MCCFR (fresh chance, engine rules, {settings['workers']} threads), then a duplicate match against the "
        f"equity bot ({settings['hands']:,} hands, engine rules) and LBR ({settings['lbr_hands']:,} hands per seat, "
        f"{LBR_CANDIDATES} candidates, seed 0). mbb/hand with the 95% interval.",
        "",
        "| buckets | bets | iterations | vs equity | LBR vs it |",
        "|---|---|---|---|---|",
    ]
    for cell in report["cells"]:
        lbr = f"{cell['lbr_mbb']:+,.0f} ± {cell['lbr_ci']:,.0f}"
        lines.append(
            f"| {cell['buckets']} | `{cell['bets']}` | {cell['iterations']:,} | "
            f"{cell['vs_equity_mbb']:+,.0f} ± {cell['vs_equity_ci']:,.0f} | {lbr} |"
        )
    best = max(report["cells"], key=lambda cell: cell["vs_equity_mbb"])
    lines += ["", f"Best against the equity bot: buckets {best['buckets']}, bets `{best['bets']}`.", ""]
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> dict[str, Any]:
    from game.pokerbots.engines import ENGINE_RULES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=ROOT / "build", help="cache folder (card files, strategies)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS)
    parts = parser.add_subparsers(dest="part", required=True)
    solver = parts.add_parser("solver", help="ES-MCCFR settings, exact exploitability on a fixed-table game")
    solver.add_argument("--seconds", type=float, default=60.0, help="solve seconds per run")
    solver.add_argument("--repeats", type=int, default=2, help="seeds per setting")
    solver.add_argument("--deals", type=int, default=20_000)
    solver.add_argument("--block", type=int, default=500_000, help="iterations between measurements")
    solver.add_argument("--prune-after", type=int, default=1_000_000, help="iteration from which pruning runs")
    grid = parts.add_parser("abstraction", help="bucket counts x bet sizes for one variant, judged by play")
    grid.add_argument("--variant", required=True, choices=tuple(ENGINE_RULES))
    grid.add_argument("--buckets", type=int, nargs="+", default=[16, 32], help="postflop buckets per street")
    grid.add_argument("--bets", nargs="+", default=["1p,a cap=2", "0.5p,1p,a cap=2; 1p,a cap=2"])
    grid.add_argument("--bids", default="0.25p,1p", help="auction bid sizes")
    grid.add_argument("--flops", default="all", help="flops of the card abstraction (all or a count)")
    grid.add_argument("--minutes", type=float, default=5.0, help="solve minutes per cell")
    grid.add_argument("--workers", type=int, default=2)
    grid.add_argument("--hands", type=int, default=4_000, help="duplicate hands against the equity bot (even)")
    grid.add_argument("--lbr-hands", type=int, default=2_000, help="LBR hands per seat")
    arguments = parser.parse_args(argv)
    arguments.work = arguments.work.resolve()
    if arguments.part == "solver":
        if arguments.seconds <= 0 or arguments.repeats < 1 or arguments.block < 1:
            parser.error("--seconds must be > 0, --repeats and --block >= 1")
        report, stem, text = run_solver_ablation(arguments), "ablations_solver", solver_markdown
    else:
        if arguments.minutes <= 0 or arguments.hands < 2 or arguments.hands % 2 or arguments.lbr_hands < 2:
            parser.error("--minutes must be > 0, --hands even and >= 2, --lbr-hands >= 2")
        report, stem, text = run_abstraction_ablation(arguments), f"ablations_{arguments.variant}", abstraction_markdown
    report = harness.write_results(arguments.out_dir / stem, report, text, harness.command_line(__file__, argv))
    print(f"wrote {arguments.out_dir / stem}.md", flush=True)
    return report


if __name__ == "__main__":
    main()
