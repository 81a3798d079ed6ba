"""Chance for a full-size no-limit variant: a fixed sample of N random deals as a `DealTable`.

Hold'em has about 5.6e13 deals per seat order, far too many to list. This module draws ``n_deals``
random deals with a seeded generator and stores, per deal, each seat's bucket on each street
(`abstraction.bucket_lookup.BucketLookup`, the same lookup the bot uses) and seat 0's share of the
pot at showdown (`game.kernels._evaluate` on the final seven cards). Every deal has probability
``1 / n_deals``. **Chance in the abstract game is this fixed sample, not the real deck**: the
solver (MCCFR samples deals from the table) then optimises against these N deals, so N must be
large next to the number of information sets it should learn (10^5 to 10^6 deals take seconds).

Variants: ``holdem`` and ``swap`` (the swaps are drawn as in `game.swap`: after the flop and after
the turn each hole card is replaced by the next card with the config's probability; buckets use
the cards held on each street, the showdown the final ones). Bounty's payoff (its multiplier and
bonus) and Auction's third card do not fit a deal table of showdown shares; River of Blood's run
streets need chance inside the betting: not supported.

>>> from abstraction.buckets import CardAbstractionConfig, build_card_abstraction, canonical_flops
>>> from game.holdem import HoldemConfig
>>> small = dict(training_flops=2, turn_training_points=500, river_training_points=500,
...              flop_training_points=200, iterations=4)
>>> abstraction = build_card_abstraction(CardAbstractionConfig(buckets=(4, 3, 3, 3), method="ehs", **small),
...                                      flops=canonical_flops()[:2])
>>> deals = sample_deal_table(HoldemConfig(), abstraction, 1000, seed=0)
>>> deals.n_deals, deals.bucket.shape, deals.n_buckets.tolist()
(1000, (1000, 2, 4), [4, 3, 3, 3])
>>> bool(abs(deals.showdown_share.mean() - 0.5) < 0.05)
True
>>> sample_deal_table(HoldemConfig(), abstraction, 0)
Traceback (most recent call last):
...
ValueError: n_deals must be an int >= 1, got 0
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads

from abstraction.bucket_lookup import BucketLookup
from abstraction.buckets import CardAbstraction
from abstraction.kernels_deals import _sample_deals
from abstraction.tree import DealTable
from game.nolimit import NoLimitConfig
from game.rng import SeedLike, as_generator

SUPPORTED_VARIANTS = ("holdem", "swap")
"""Variants whose chance a deal table of buckets and showdown shares captures."""
CHUNKS_PER_THREAD = 4
"""Deal chunks per numba thread (load balance; the result does not depend on it)."""


def sample_deal_table(
    config: NoLimitConfig, abstraction: CardAbstraction | BucketLookup, n_deals: int, seed: SeedLike = None
) -> DealTable:
    """``n_deals`` random deals of the variant ``config`` as a uniform `DealTable` (module docstring).

    ``abstraction`` is a two-card `CardAbstraction` (or its `BucketLookup`); ``seed`` fixes every
    card: the same seed and ``n_deals`` give the same table on any number of threads, and the first
    k deals of a larger table equal a table of k deals.
    """
    if not isinstance(config, NoLimitConfig):
        raise TypeError(f"config must be a heads-up variant config (NoLimitConfig), got {config!r}")
    if config.variant not in SUPPORTED_VARIANTS:
        raise ValueError(f"sampled deal tables support {SUPPORTED_VARIANTS}, got variant {config.variant!r}")
    if isinstance(n_deals, bool) or not isinstance(n_deals, (int, np.integer)) or n_deals < 1:
        raise ValueError(f"n_deals must be an int >= 1, got {n_deals!r}")
    lookup = abstraction if isinstance(abstraction, BucketLookup) else BucketLookup(abstraction)
    root_seed = int(as_generator(seed).integers(0, 2**63))
    bucket = np.empty((int(n_deals), 2, 4), dtype=np.int32)
    showdown_share = np.empty(int(n_deals), dtype=np.float64)
    n_chunks = max(1, min(int(n_deals), CHUNKS_PER_THREAD * get_num_threads()))
    with np.errstate(over="ignore"):  # uint64 generator arithmetic wraps on purpose (NUMBA_DISABLE_JIT=1)
        _sample_deals(
            root_seed,
            float(getattr(config, "flop_swap_probability", 0.0)),
            float(getattr(config, "turn_swap_probability", 0.0)),
            n_chunks,
            *lookup.kernel_arguments(),
            bucket,
            showdown_share,
        )
    return DealTable(
        probability=np.full(int(n_deals), 1.0 / int(n_deals)),
        bucket=bucket,
        showdown_share=showdown_share,
        n_buckets=np.array(lookup.n_buckets, dtype=np.int32),
    )
