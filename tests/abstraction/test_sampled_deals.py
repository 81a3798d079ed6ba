"""Sampled deal tables of full-size variants: the numba sampler against a slow Python replay.

Uses a tiny card abstraction (4/3/3/3 buckets, tables built on 2 flops only) so the suite stays
fast; hands on the other flops go through the lookup's current-strength fallback, which the
reference below computes independently.
"""

from __future__ import annotations

import numpy as np
import pytest

from abstraction.cards.buckets import BucketLookup, CardAbstractionConfig, canonical_flops
from abstraction.cards.build import build_card_abstraction
from abstraction.cards.kernels_buckets import UNSET
from abstraction.chance.sampled_deals import sample_deal_table
from game.cards.evaluator import evaluate
from game.cards.kernels_rng import next_uniform, splitmix64
from game.rules.holdem import HoldemConfig
from game.rules.swap import SwapConfig
from tests.abstraction.table_support import table_bucket

SMALL = dict(
    training_flops=2, turn_training_points=500, river_training_points=500, flop_training_points=200, iterations=4
)


@pytest.fixture(scope="module")
def abstraction():
    config = CardAbstractionConfig(buckets=(4, 3, 3, 3), method="ehs", seed=5, **SMALL)
    return build_card_abstraction(config, flops=canonical_flops()[:2])


def reference_deal(root_seed: int, deal: int, flop_swap: float, turn_swap: float, lookup: BucketLookup):
    """Deal number ``deal`` replayed in plain Python: the same draws, buckets by `BucketLookup.bucket`
    (its checked path), the showdown by `game.cards.evaluator.evaluate`."""
    with np.errstate(over="ignore"):
        state = np.array([splitmix64(splitmix64(np.uint64(root_seed)) ^ np.uint64(deal))], dtype=np.uint64)
        deck = list(range(52))
        drawn = [0]

        def draw() -> int:
            pick = drawn[0] + int(next_uniform(state) * (52 - drawn[0]))
            deck[pick], deck[drawn[0]] = deck[drawn[0]], deck[pick]
            drawn[0] += 1
            return deck[drawn[0] - 1]

        def swaps(probability: float) -> None:
            for seat in range(2):
                for index in range(2):
                    if probability > 0.0 and next_uniform(state) < probability:
                        hole[seat][index] = draw()

        hole = [[draw(), draw()], [draw(), draw()]]
        buckets = np.zeros((2, 4), dtype=np.int64)
        board: list[int] = []
        for street in range(4):
            if street == 1:
                board += [draw(), draw(), draw()]
                swaps(flop_swap)
            elif street == 2:
                board.append(draw())
                swaps(turn_swap)
            elif street == 3:
                board.append(draw())
            for seat in range(2):
                buckets[seat, street] = lookup.bucket(hole[seat], board)
    values = [evaluate(np.array(hole[seat] + board, dtype=np.int8)) for seat in range(2)]
    share = 1.0 if values[0] > values[1] else 0.0 if values[0] < values[1] else 0.5
    return buckets, share


@pytest.mark.parametrize("config", [HoldemConfig(), SwapConfig(flop_swap_probability=0.5, turn_swap_probability=0.5)])
def test_sampler_equals_python_replay(abstraction, config):
    lookup = BucketLookup(abstraction)
    deals = sample_deal_table(config, lookup, 40, seed=np.random.default_rng(11))
    root_seed = int(np.random.default_rng(11).integers(0, 2**63))
    for deal in range(40):
        buckets, share = reference_deal(
            root_seed,
            deal,
            getattr(config, "flop_swap_probability", 0.0),
            getattr(config, "turn_swap_probability", 0.0),
            lookup,
        )
        assert deals.bucket[deal].tolist() == buckets.tolist(), deal
        assert deals.weight[deal].tolist() == [share == 1.0, share == 0.5, share == 0.0], deal


def test_table_is_reproducible_and_prefix_stable(abstraction):
    big = sample_deal_table(HoldemConfig(), abstraction, 3000, seed=4)
    small = sample_deal_table(HoldemConfig(), abstraction, 700, seed=4)
    other = sample_deal_table(HoldemConfig(), abstraction, 700, seed=5)
    assert np.array_equal(big.bucket[:700], small.bucket)
    assert np.array_equal(big.weight[:700], small.weight)
    assert not np.array_equal(other.bucket, small.bucket)
    assert np.allclose(big.probability, 1 / 3000)


def test_shares_are_fair_and_follow_river_buckets(abstraction):
    deals = sample_deal_table(HoldemConfig(), abstraction, 20_000, seed=0)
    share = deals.weight[:, 0] + 0.5 * deals.weight[:, 1]  # seat 0's share of the pot
    # the two seats are symmetric before any betting: seat 0 wins half the pots (sd 0.0035 here)
    assert abs(share.mean() - 0.5) < 0.02
    river = deals.bucket[:, 0, 3]
    by_bucket = [share[river == bucket].mean() for bucket in range(3)]
    assert by_bucket[0] < by_bucket[1] < by_bucket[2]  # river buckets are ordered by hand strength


def test_lookup_uses_the_table_where_the_build_reached(abstraction):
    lookup = BucketLookup(abstraction)
    flop = canonical_flops()[0].tolist()
    rng = np.random.default_rng(2)
    for _ in range(30):
        hole = rng.choice([card for card in range(52) if card not in flop], 2, replace=False).tolist()
        assert lookup.bucket(hole, flop) == abstraction.bucket(hole, flop)


def test_fallback_orders_unreached_flop_hands_by_strength(abstraction):
    lookup = BucketLookup(abstraction)
    board = "As 9h 4d"  # not among the 2 flops the tables were built on
    assert table_bucket(abstraction, "Ks Kh", board) == UNSET
    assert abstraction.bucket("Ks Kh", board) == lookup.bucket("Ks Kh", board)  # one API, one fallback
    # trip aces are the strongest third of hands here, 2c 3d (no pair, no draw) the weakest
    assert lookup.bucket("Ah Ad", board) == 2
    assert lookup.bucket("2c 3d", board) == 0


def test_errors_name_the_bad_value(abstraction):
    from game.rules.bounty import BountyConfig

    with pytest.raises(ValueError, match="'bounty'"):
        sample_deal_table(BountyConfig(), abstraction, 10)
    with pytest.raises(ValueError, match="-3"):
        sample_deal_table(HoldemConfig(), abstraction, -3)
    with pytest.raises(TypeError, match="NoLimitConfig"):
        sample_deal_table("holdem", abstraction, 10)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"Ah Ah|duplicate|distinct"):
        BucketLookup(abstraction).bucket([50, 50], [])
