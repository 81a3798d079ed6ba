"""Fresh chance against a fixed deal sample, measured exactly on small-deck hold'em.

The question (issue "Solve every variant"): a full-size game cannot list its deals, so a Monte
Carlo solver either draws a new deal every iteration (fresh chance, what `abstract_games` does by
default) or draws N deals once and solves that sample (the old default). The second optimises
against the sample. Small-deck hold'em (`abstraction.exact.small_deck`, lossless buckets) lists every
deal, so both strategies can be measured by an exact best response in the real game:

- ``fresh``: ES-MCCFR whose every iteration draws a deal from the true distribution
  (`abstraction.chance.fresh_chance.TableChance`);
- ``fixed N``: ES-MCCFR on a table of N deals drawn once from the same distribution (each with
  probability 1/N), for several N.

Both run the same number of iterations with the same solver seed; each setting is repeated over
``--repeats`` sample seeds. Output: ``results/fresh_vs_fixed_chance.{json,md}``.

Run: ``python experiments/fresh_vs_fixed_chance.py`` (about two minutes on 2 cores).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import harness
import numpy as np

from abstraction.chance.fresh_chance import TableChance
from abstraction.exact.small_deck import build_small_deck_game
from abstraction.tree import SolverGame
from solver.evaluate.exploitability import exploitability
from solver.solve.cfr import Solver


def solve_in(training: SolverGame, exact: SolverGame, iterations: int, seed: int) -> float:
    """ES-MCCFR on ``training``; exploitability of its average strategy in ``exact`` (same tree)."""
    solver = Solver(training, "es-mccfr", seed=seed).run(iterations)
    return exploitability(exact, solver.average_strategy()).exploitability_chips


def measured(training: SolverGame, exact: SolverGame, iterations: int, repeat: int, size: int | None) -> dict:
    """One row: ``training`` solved (solver seed = ``repeat``) and measured in ``exact``, with its
    wall-clock seconds; ``size`` None is fresh chance, else the fixed sample's deals."""
    with harness.stopwatch() as clock:
        value = solve_in(training, exact, iterations, seed=repeat)
    chance = "fresh" if size is None else "fixed"
    print(f"repeat {repeat}: {chance} {size or '':>6} {value:.4f} chips", flush=True)
    return {
        "chance": chance,
        "n_deals": size,
        "repeat": repeat,
        "exploitability_chips": value,
        "seconds": clock.seconds,
    }


def markdown(result: dict[str, Any]) -> str:
    lines = [
        "# Fresh chance vs a fixed deal sample (exact exploitability)",
        "",
        f"Game: {result['game']}, {result['deals']:,} deals, {result['infosets']:,} information sets. "
        f"ES-MCCFR, {result['iterations']:,} iterations per solve, {result['repeats']} repeats (solver seed = repeat, "
        "sample seed = 1000 + repeat). Exploitability in chips per hand (ante 1 chip), by an exact best response "
        "in the real game.",
        "",
        "| chance | deals seen by the solver | mean exploitability | min | max |",
        "|---|---|---|---|---|",
    ]
    for entry in result["summary"]:
        seen = "fresh every iteration" if entry["chance"] == "fresh" else f"fixed sample of {entry['n_deals']:,}"
        lines.append(f"| {entry['chance']} | {seen} | {entry['mean']:.4f} | {entry['min']:.4f} | {entry['max']:.4f} |")
    lines += ["", f"Machine: {harness.machine_line(result['machine'])}. Command: `{result['command']}`", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ranks", default="JQKA", help="small-deck ranks (three suits)")
    parser.add_argument("--iterations", type=int, default=400_000)
    parser.add_argument("--samples", default="300,3000,30000", help="fixed sample sizes N, comma separated")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("results"))
    arguments = parser.parse_args()
    small = build_small_deck_game({"ranks": arguments.ranks})
    exact = small.game
    chance = TableChance(exact.deals)
    print(
        f"small-deck hold'em {arguments.ranks}: {small.raw_deals:,} deals ({exact.deals.n_deals:,} suit classes), "
        f"{exact.tree.n_infosets:,} information sets",
        flush=True,
    )
    rows = []
    sizes = [int(n) for n in arguments.samples.split(",")]
    for repeat in range(arguments.repeats):
        fresh = SolverGame(name="fresh", tree=exact.tree, deals=None, config={}, sampler=chance)
        rows.append(measured(fresh, exact, arguments.iterations, repeat, None))
        for size in sizes:
            sample = chance.sample(0, size, seed=1000 + repeat)
            fixed = SolverGame(name=f"fixed {size}", tree=exact.tree, deals=sample, config={})
            rows.append(measured(fixed, exact, arguments.iterations, repeat, size))
    summary = []
    for label, size in [("fresh", None)] + [("fixed", n) for n in sizes]:
        values = [r["exploitability_chips"] for r in rows if r["chance"] == label and r["n_deals"] == size]
        summary.append(
            {
                "chance": label,
                "n_deals": size,
                "mean": float(np.mean(values)),
                "min": float(np.min(values)),
                "max": float(np.max(values)),
            }
        )
    result = {
        "game": f"small-deck hold'em {arguments.ranks}",
        "deals": small.raw_deals,
        "suit_classes": int(exact.deals.n_deals),
        "infosets": exact.tree.n_infosets,
        "iterations": arguments.iterations,
        "repeats": arguments.repeats,
        "machine": harness.machine(cores_used=1),
        "rows": rows,
        "summary": summary,
    }
    command = harness.command_line(__file__, None, python="python")
    result = harness.write_results(arguments.out / "fresh_vs_fixed_chance", result, markdown, command)
    print(markdown(result))


if __name__ == "__main__":
    main()
