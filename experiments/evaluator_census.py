"""Evaluate every 5-, 6- and 7-card hand and write the category counts to results/.

Run: ``.venv/bin/python experiments/evaluator_census.py`` (a few seconds per size; 7 cards is
133,784,560 hands). Output: ``results/evaluator_census.json``.
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path

from game.cards.evaluator import hand_census


def main() -> None:
    rows = []
    for n_cards in (5, 6, 7):
        start = time.perf_counter()
        census = hand_census(n_cards)
        census["seconds"] = round(time.perf_counter() - start, 3)
        rows.append(census)
        print(json.dumps(census))
    out = Path(__file__).resolve().parents[1] / "results" / "evaluator_census.json"
    out.write_text(json.dumps({"machine": platform.platform(), "census": rows}, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
