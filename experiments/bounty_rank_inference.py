"""How fast the opponent model learns the opponent's Bounty rank in a match.

Plays the equity bot, watched by an `game.play.opponent_model.OpponentModel` with Bounty's rule,
against ``--opponent`` for ``--rounds`` rounds of Bounty (engine rules), and after each round
reads the posterior's probability of the opponent's true rank (the match's record of the ranks by
seat). Prints one JSON object: for rounds 5, 10, 15, 20 and 25 of each 25-round period, the mean
probability of the true rank and the share of periods whose most likely rank is the true one::

    .venv/bin/python experiments/bounty_rank_inference.py --opponent tag --rounds 1000 --seed 0

``--duplicate`` plays duplicate pairs as the gauntlet does (the ranks then belong to the seats and
are re-drawn every 25 deals, 50 rounds; the model keeps one posterior per rank of its own).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from game.play.bots import EquityBot, make_bot
from game.play.history import RoundRecord
from game.play.match import play_match
from game.play.opponent_model import BountyRule, ModelPrior, OpponentModel
from game.rules.bounty import BountyConfig

CHECKPOINTS = (5, 10, 15, 20, 25)
"""Rounds into a 25-round period at which the posterior is read."""


class _Watched(EquityBot):
    """The equity bot, showing each finished round to ``model``."""

    def __init__(self, config: BountyConfig, model: OpponentModel, seed: int) -> None:
        super().__init__(config, seed=seed, name="watched-equity")
        self.model = model

    def round_over(self, observation: object) -> None:
        self.model.observe_round(observation)


def measure(opponent: str, rounds: int, seed: int, duplicate: bool = False) -> dict[str, object]:
    """The report of the module docstring, as a JSON-ready dict."""
    config = BountyConfig(rules="engine")
    model = OpponentModel(
        small_blind=config.small_blind,
        big_blind=config.big_blind,
        stack=config.stack,
        prior=ModelPrior.flat(),
        bounty=BountyRule.of(config),
    )
    watched = _Watched(config, model, seed)
    rows: list[tuple[int, float, bool]] = []

    def read(record: RoundRecord) -> None:
        truth = record.match_state[1 - record.seats.index(watched.name)]  # the opponent's rank
        posterior = model.opponent_bounty_posterior()
        rows.append((record.round_index % config.bounty_period + 1, posterior[truth], posterior.argmax() == truth))

    other = make_bot(opponent, config=config, seed=seed + 1)
    play_match(config, watched, other, rounds=rounds, seed=seed, duplicate=duplicate, on_round=read)
    table = np.array(rows, dtype=np.float64)
    report: dict[str, object] = {"opponent": opponent, "rounds": rounds, "seed": seed, "duplicate": duplicate}
    for checkpoint in CHECKPOINTS:
        chosen = table[table[:, 0] == checkpoint]
        report[f"round_{checkpoint}"] = {
            "probability_of_true_rank": round(float(chosen[:, 1].mean()), 3),
            "most_likely_is_true": round(float(chosen[:, 2].mean()), 3),
            "periods": len(chosen),
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="tag", help="A bot name (game.play.bots).")
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--duplicate", action="store_true")
    arguments = parser.parse_args()
    print(json.dumps(measure(arguments.opponent, arguments.rounds, arguments.seed, arguments.duplicate)))


if __name__ == "__main__":
    main()
