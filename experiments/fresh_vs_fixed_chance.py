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
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from abstraction.chance.fresh_chance import TableChance
from abstraction.exact.small_deck import build_small_deck_game
from abstraction.tree import SolverGame
from solver.evaluate.exploitability import exploitability
from solver.solve.cfr import Solver


def solve_in(training: SolverGame, exact: SolverGame, iterations: int, seed: int) -> float:
    """ES-MCCFR on ``training``; exploitability of its average strategy in ``exact`` (same tree)."""
    solver = Solver(training, "es-mccfr", seed=seed).run(iterations)
    return exploitability(exact, solver.average_strategy()).exploitability_chips


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
        started = time.perf_counter()
        fresh = SolverGame(name="fresh", tree=exact.tree, deals=None, config={}, sampler=chance)
        value = solve_in(fresh, exact, arguments.iterations, seed=repeat)
        rows.append(
            {
                "chance": "fresh",
                "n_deals": None,
                "repeat": repeat,
                "exploitability_chips": value,
                "seconds": time.perf_counter() - started,
            }
        )
        print(f"repeat {repeat}: fresh {value:.4f} chips", flush=True)
        for size in sizes:
            started = time.perf_counter()
            sample = chance.sample(0, size, seed=1000 + repeat)
            fixed = SolverGame(name=f"fixed {size}", tree=exact.tree, deals=sample, config={})
            value = solve_in(fixed, exact, arguments.iterations, seed=repeat)
            rows.append(
                {
                    "chance": "fixed",
                    "n_deals": size,
                    "repeat": repeat,
                    "exploitability_chips": value,
                    "seconds": time.perf_counter() - started,
                }
            )
            print(f"repeat {repeat}: fixed {size:>6} {value:.4f} chips", flush=True)
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
    machine = f"{platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}"
    result = {
        "game": f"small-deck hold'em {arguments.ranks}",
        "deals": small.raw_deals,
        "suit_classes": int(exact.deals.n_deals),
        "infosets": exact.tree.n_infosets,
        "iterations": arguments.iterations,
        "repeats": arguments.repeats,
        "machine": machine,
        "command": "python experiments/fresh_vs_fixed_chance.py " + " ".join(sys.argv[1:]),
        "rows": rows,
        "summary": summary,
    }
    arguments.out.mkdir(parents=True, exist_ok=True)
    (arguments.out / "fresh_vs_fixed_chance.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [
        "# Fresh chance vs a fixed deal sample (exact exploitability)",
        "",
        f"Game: {result['game']}, {small.raw_deals:,} deals, {exact.tree.n_infosets:,} information sets. "
        f"ES-MCCFR, {arguments.iterations:,} iterations per solve, {arguments.repeats} repeats (solver seed = repeat, "
        "sample seed = 1000 + repeat). Exploitability in chips per hand (ante 1 chip), by an exact best response "
        "in the real game.",
        "",
        "| chance | deals seen by the solver | mean exploitability | min | max |",
        "|---|---|---|---|---|",
    ]
    for entry in summary:
        seen = "fresh every iteration" if entry["chance"] == "fresh" else f"fixed sample of {entry['n_deals']:,}"
        lines.append(f"| {entry['chance']} | {seen} | {entry['mean']:.4f} | {entry['min']:.4f} | {entry['max']:.4f} |")
    lines += ["", f"Machine: {machine}, 2 cores. Command: `{result['command']}`", ""]
    (arguments.out / "fresh_vs_fixed_chance.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
