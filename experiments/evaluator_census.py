"""Evaluate every 5-, 6- and 7-card hand and write the category counts to results/.

Run: ``.venv/bin/python experiments/evaluator_census.py`` (a few seconds per size; 7 cards is
133,784,560 hands). Output: ``results/evaluator_census.json``.
"""

from __future__ import annotations

import json

import harness

from game.cards.evaluator import hand_census


def main() -> None:
    rows = []
    for n_cards in (5, 6, 7):
        with harness.stopwatch() as clock:
            census = hand_census(n_cards)
        census["seconds"] = round(clock.seconds, 3)
        rows.append(census)
        print(json.dumps(census))
    out = harness.ROOT / "results" / "evaluator_census"
    report = {"machine": harness.machine(), "census": rows}
    harness.write_results(out, report, None, harness.command_line(__file__, None))
    print(f"wrote {out}.json")


if __name__ == "__main__":
    main()
