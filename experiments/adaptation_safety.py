"""The adaptive bot against an opponent, paired with its own base on the same deals: what adapting cost or won.

Plays a duplicate match of ``adaptive:BASE`` (`game.play.adaptive.adaptive_player`) against
``--opponent`` and, on the same deals, the adaptive bot's base (a copy taken before play, so the
same seed and the same random draws) against a copy of the same opponent. Where the adaptive bot
never deviates the two matches are the same hand for hand, so the paired difference isolates the
deviations (common random numbers): its interval is far narrower than either match's. Prints one
JSON object: both win rates (mbb/hand, 95% Student-t interval over deal pairs), the paired
difference (adaptive minus base, mbb/hand, interval over deal pairs), and the adaptive bot's
deviations, their total cost (chips), deviations refused by the budget, ``won`` (chips above the
value), the model's verdict at the end and each rule's trial (`game.play.adaptive.ExploitTrial`: rounds
per arm, the exploit arm's gain in chips per round and its standard error)::

    .venv/bin/python experiments/adaptation_safety.py --variant swap \\
        --base build/blueprints/2022/blueprint_swap.h5 --opponent build/blueprints/2022/blueprint_swap.h5 \\
        --rounds 4000 --seed 0

``--exploit JSON`` replaces decision settings of `game.play.adaptive.ExploitConfig` for the run (a
JSON object; e.g. ``{"loose_fold": 1.0}``: always class the opponent loose, ``{"value": [-1000,
-1000]}``: a budget that never binds), to measure what each part of the rule costs or wins.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json

import numpy as np

import solver.cli.main  # noqa: F401  (registers strategy files as players)
from game.play.cli_game import make_player
from game.play.match import mbb_per_hand, play_match
from game.rules.variants import get_variant

_BUILT_SETTINGS = ("memory", "prior_weight", "prior_rounds", "samples")
"""ExploitConfig fields the bot reads only when it is built (the model and the exploiter)."""


def measure(
    variant: str, base: str, opponent: str, rounds: int, seed: int, exploit: dict[str, object] | None = None
) -> dict[str, object]:
    """The paired matches of the module docstring, as a JSON-ready dict; ``exploit``: ExploitConfig
    decision settings replaced for the run (``--exploit``)."""
    config = get_variant(variant).config_class(rules="engine")
    adaptive = make_player(f"adaptive:{base}", config, seed)
    if exploit:
        built = sorted(set(exploit) & set(_BUILT_SETTINGS))
        if built:
            raise ValueError(f"--exploit replaces decision settings only; {built} are fixed when the bot is built")
        settings = {name: tuple(value) if isinstance(value, list) else value for name, value in exploit.items()}
        adaptive.exploit = dataclasses.replace(adaptive.exploit, **settings)
    twin = copy.deepcopy(adaptive.base)
    other = make_player(opponent, config, seed + 1)
    other_twin = copy.deepcopy(other)
    played = play_match(config, adaptive, other, rounds=rounds, seed=seed, duplicate=True)
    plain = play_match(config, twin, other_twin, rounds=rounds, seed=seed, duplicate=True)
    mean, half = played.win_rate()
    base_mean, base_half = plain.win_rate()
    difference, difference_half = mbb_per_hand(played.winnings - plain.winnings, config.big_blind, pair_size=2)
    return {
        "variant": variant,
        "base": base,
        "opponent": opponent,
        "rounds": rounds,
        "seed": seed,
        "exploit": exploit or {},
        "adaptive_mbb_per_hand": mean,
        "adaptive_ci95": half,
        "base_mbb_per_hand": base_mean,
        "base_ci95": base_half,
        "paired_difference_mbb_per_hand": difference,
        "paired_difference_ci95": difference_half,
        "identical_rounds": int(np.sum(played.winnings == plain.winnings)),
        **adaptive.summary(),
        "faults": played.illegal_actions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--base", required=True, help="The adaptive bot's base: a bot name or strategy file.")
    parser.add_argument("--opponent", required=True, help="A bot name or strategy file.")
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--exploit", type=json.loads, default=None, help="ExploitConfig settings to replace (JSON).")
    arguments = parser.parse_args()
    result = measure(
        arguments.variant, arguments.base, arguments.opponent, arguments.rounds, arguments.seed, arguments.exploit
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
