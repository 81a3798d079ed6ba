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


@pytest.mark.parametrize(
    ("config_class", "documented"),
    [
        # bounty-holdem.txt: every 25 rounds; 1.5 * winnings + 10; stack 400; 1000 rounds.
        (
            BountyConfig,
            {"bounty_period": 25, "bounty_multiplier": 1.5, "bounty_bonus": 10, "stack": 400, "rounds": 1000},
        ),
        # swap-holdem.txt: "Stack allocated per round: 200", "10%" on the flop, "5%" on the turn, 1000 rounds.
        (SwapConfig, {"stack": 200, "flop_swap_probability": 0.10, "turn_swap_probability": 0.05, "rounds": 1000}),
        (
            RiverOfBloodConfig,
            {"stack": 400, "big_blind": 2, "small_blind": 1, "rounds": 1000, "max_board_cards": 48},
        ),
    ],
    ids=["bounty", "swap", "river_of_blood"],
)
def test_defaults_follow_the_document(config_class: type[NoLimitConfig], documented: dict[str, object]) -> None:
    config = config_class()
    assert {name: getattr(config, name) for name in documented} == documented


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
