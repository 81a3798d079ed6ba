"""The variant registry used by ``vcfr variants`` and the match runner."""

from __future__ import annotations

import numpy as np
import pytest

from game.rules.auction import AuctionConfig, AuctionRound
from game.rules.bounty import BountyConfig, BountyRound
from game.rules.chance import RandomChance
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.nolimit import NoLimitConfig
from game.rules.river_of_blood import RiverOfBloodConfig, RiverOfBloodRound
from game.rules.swap import SwapConfig, SwapRound
from game.rules.variants import VARIANTS, get_variant, start_round

EXPECTED = {
    "holdem": (HoldemConfig, HoldemRound, 400),
    "swap": (SwapConfig, SwapRound, 200),
    "river_of_blood": (RiverOfBloodConfig, RiverOfBloodRound, 400),
    "auction": (AuctionConfig, AuctionRound, 400),
    "bounty": (BountyConfig, BountyRound, 400),
}


def test_registry_lists_every_heads_up_variant() -> None:
    assert set(VARIANTS) == set(EXPECTED)
    for name, (config_class, round_class, stack) in EXPECTED.items():
        variant = get_variant(name)
        assert variant.name == name == config_class.variant
        assert variant.config_class is config_class and variant.round_class is round_class
        assert config_class().stack == stack
        assert variant.description and "\n" not in variant.description and len(variant.description) <= 120


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_start_round_dispatches_on_the_config(name: str) -> None:
    variant = get_variant(name)
    rng = np.random.default_rng(0)
    match_state = variant.round_class.next_match_state(variant.config_class(), 0, None, rng)
    assert (match_state is None) == (name != "bounty")
    round_ = start_round(variant.config_class(rules="engine"), RandomChance(1), match_state=match_state)
    assert type(round_) is variant.round_class and round_.config.rules == "engine"
    again = variant.start_round(chance=RandomChance(1), match_state=match_state)
    assert again.hole_cards == round_.hole_cards and again.config == variant.config_class()


def test_errors_name_the_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown variant 'blotto': known are auction, bounty, holdem"):
        get_variant("blotto")
    with pytest.raises(TypeError, match="no variant has config class NoLimitConfig"):
        start_round(NoLimitConfig(), RandomChance(0))
    with pytest.raises(ValueError, match="start_round of 'swap' needs a chance source"):
        get_variant("swap").start_round()
