"""Exactness of the solver on the small exact versions of the heads-up variants (abstraction.exact.small_variants).

For each variant: build the small game (short deck, stack 4, blinds 1/2, bets "a"; every legal
action in the tree, every deal enumerated), run CFR+ (solver.solve.cfr.Solver) and, at each checkpoint,
the exact best response over the full DealTable (solver.evaluate.exploitability: the unabstracted
short-deck game). Writes results/small_variants_exactness.{md,json}.

    .venv/bin/python experiments/small_variants_exactness.py
"""

from __future__ import annotations

import argparse
from pathlib import Path

import harness

from abstraction.exact.small_variants import build_small_variant, default_deck
from abstraction.hooks import hooked_variants
from solver.evaluate.exploitability import exploitability
from solver.solve.cfr import Solver

VARIANTS = hooked_variants()


def run(variant: str, rules: str, checkpoints: list[int]) -> dict:
    with harness.stopwatch() as clock:
        small = build_small_variant(variant, rules=rules)
    build = clock.seconds
    game = small.game
    solver = Solver(game, "cfr+")
    pot = small.start_pot
    rows = []
    solve_seconds = 0.0
    for iterations in checkpoints:
        with harness.stopwatch() as clock:
            solver.run(iterations - solver.iteration)
        solve_seconds += clock.seconds
        with harness.stopwatch() as best_response:
            result = exploitability(game, solver.average_strategy())
        rows.append(
            {
                "iterations": iterations,
                "exploitability_chips": result.exploitability_chips,
                "exploitability_pct_pot": 100 * result.exploitability_chips / pot,
                "game_value": result.game_value,
                "solve_seconds": solve_seconds,
                "best_response_seconds": best_response.seconds,
            }
        )
        print(variant, rules, rows[-1], flush=True)
    config = {k: v for k, v in game.config["rules"].items() if k not in ("rounds",)}
    return {
        "variant": variant,
        "rules": rules,
        "deck": game.config["deck"],
        "deck_cards": len(small.deck),
        "config": config,
        "bets": small.bets,
        "max_runs": small.max_runs,
        "raw_deals": small.raw_deals,
        "deals": game.deals.n_deals,
        "nodes": game.tree.n_nodes,
        "infosets": game.tree.n_infosets,
        "table_entries": game.tree.table_size,
        "build_seconds": build,
        "start_pot": pot,
        "checkpoints": rows,
    }


def markdown(report: dict) -> str:
    results = report["results"]
    lines = [
        "# Small exact variants: solver exploitability in the unabstracted short-deck games",
        "",
        f"Command: `{report['command']}` ({report['seconds']:.0f} s in all). Machine: "
        f"{harness.machine_line(report['machine'])}, shared with other jobs.",
        "",
        "Games: `abstraction.exact.small_variants.build_small_variant(variant, rules=...)`: stack 4 chips, blinds 1/2,",
        "bet abstraction `a` (every raise is all-in, so every legal action is in the tree: checked against the",
        "engine), Auction bids `0.25p,a` (0, 1, 2 chips: all legal bids), every deal of the short deck enumerated",
        "(over card types: lossless when no flush is possible), buckets = exact views. Solver: CFR+ (`solver.solve.cfr.Solver`).",
        "Exploitability: (BR_0 + BR_1 - 0) / 2 chips per hand from the exact best response over every deal",
        "(`solver.evaluate.exploitability`); % of pot: of the starting pot, the blinds 1 + 2 = 3 chips (1% = 0.03 chips).",
        "",
        "Small versions: River of Blood's real rules capped at 6 board cards (`max_board_cards=6`, 1 run card, the",
        "abstract game's run cap equals it); Swap with flop swaps of probability 1 and no turn swaps (the real",
        "probabilities 0.10/0.05 need a 17-card deck with flushes: billions of deals); Bounty ranks uniform over",
        "the 13 ranks as the rules (ranks not in the deck never hit). See the module docstring.",
        "",
        "| variant | rules | deck | deals (raw) | nodes | infosets | iterations | exploitability (chips) | % of pot | solve s | BR s |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        for i, c in enumerate(r["checkpoints"]):
            head = (
                (
                    f"| {r['variant']} | {r['rules']} | {r['deck']} ({r['deck_cards']}) | {r['deals']:,} ({r['raw_deals']:,}) "
                    f"| {r['nodes']:,} | {r['infosets']:,} |"
                )
                if i == 0
                else "| | | | | | |"
            )
            lines.append(
                f"{head} {c['iterations']:,} | {c['exploitability_chips']:.6f} | {c['exploitability_pct_pot']:.4f} "
                f"| {c['solve_seconds']:.1f} | {c['best_response_seconds']:.1f} |"
            )
    lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="results/small_variants_exactness")
    parser.add_argument("--document-checkpoints", default="10,100,1000")
    parser.add_argument("--engine-checkpoints", default="10,100")
    args = parser.parse_args()
    results = []
    with harness.stopwatch() as clock:
        for rules, text in (("document", args.document_checkpoints), ("engine", args.engine_checkpoints)):
            for variant in VARIANTS:
                results.append(run(variant, rules, [int(x) for x in text.split(",")]))
    payload = {
        "machine": harness.machine(cores_used=1),
        "seconds": clock.seconds,
        "default_decks": {variant: default_deck(variant) for variant in VARIANTS},
        "results": results,
    }
    harness.write_results(Path(args.out), payload, markdown, harness.command_line(__file__, None))


if __name__ == "__main__":
    main()
