"""Test helper: the decision points of seeded random playouts of a variant."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from game.play.bots import RandomBot
from game.rules.chance import RandomChance
from game.rules.variants import VARIANTS


def random_observations(variant: str, rules: str, count: int, seed: int) -> Iterator[tuple[Any, Any]]:
    """(round, observation of the seat to act) along ``count`` random playouts of ``variant`` under
    ``rules`` ("document" or "engine"); Bounty rounds get random bounty ranks."""
    config = VARIANTS[variant].config_class(rules=rules)
    rng = np.random.default_rng(seed)
    driver = RandomBot(seed=rng)
    for _ in range(count):
        match_state = tuple(rng.integers(0, 13, size=2).tolist()) if variant == "bounty" else None
        round_ = VARIANTS[variant].round_class(config, RandomChance(rng), match_state=match_state)
        while not round_.is_terminal:
            observation = round_.observation(round_.to_act)
            yield round_, observation
            round_.apply(driver.act(observation))
