"""Chance for a full-size heads-up variant as a fixed sample: N fresh deals as one `DealTable`.

Hold'em has about 5.6e13 deals per seat order, far too many to list. ``sample_deal_table``
draws deals ``0 .. n_deals - 1`` of `abstraction.chance.fresh_chance.FreshChance` (buckets from
`abstraction.cards.buckets.BucketLookup`, the same lookup the bot uses; outcome weights and
chance children as there) and gives each probability ``1 / n_deals``. **Chance in the abstract
game is then this fixed sample, not the real deck**: a solver optimises against these N deals,
so N must be large next to the number of information sets it should learn (10^5 to 10^6 deals
take seconds). Fresh chance (a new deal per iteration) avoids that bias; this is the option for
full-traversal solvers and exact best responses over a sample.

>>> from abstraction.cards.build import build_card_abstraction
>>> from abstraction.cards.buckets import CardAbstractionConfig, canonical_flops
>>> from game.rules.holdem import HoldemConfig
>>> small = dict(training_flops=2, turn_training_points=500, river_training_points=500,
...              flop_training_points=200, iterations=4)
>>> abstraction = build_card_abstraction(CardAbstractionConfig(buckets=(4, 3, 3, 3), method="ehs", **small),
...                                      flops=canonical_flops()[:2])
>>> deals = sample_deal_table(HoldemConfig(), abstraction, 1000, seed=0)
>>> deals.n_deals, deals.bucket.shape, deals.n_buckets.tolist(), deals.weight.shape
(1000, (1000, 2, 4), [4, 3, 3, 3], (1000, 3))
>>> bool(abs(deals.weight[:, 0].mean() - deals.weight[:, 2].mean()) < 0.05)   # seat 0 wins as often as seat 1
True
>>> sample_deal_table(HoldemConfig(), abstraction, 0)
Traceback (most recent call last):
...
ValueError: n_deals must be an int >= 1, got 0
"""

from __future__ import annotations

from abstraction.cards.buckets import BucketLookup, CardAbstraction
from abstraction.chance.fresh_chance import FreshChance
from abstraction.tree import DealTable
from game.cards.rng import SeedLike, as_generator
from game.dataclass_support import check_int
from game.rules.nolimit import NoLimitConfig


def sample_deal_table(
    config: NoLimitConfig,
    abstraction: CardAbstraction | BucketLookup,
    n_deals: int,
    seed: SeedLike = None,
    *,
    max_runs: int | None = None,
) -> DealTable:
    """``n_deals`` fresh deals of the variant ``config`` as a uniform `DealTable` (module docstring).

    ``abstraction`` and ``max_runs`` (River of Blood's run cap) as in `FreshChance`; ``seed`` fixes
    every card: the same seed and ``n_deals`` give the same table on any number of threads, and the
    first k deals of a larger table equal a table of k deals.
    """
    chance = FreshChance(config, abstraction, max_runs=max_runs)  # type: ignore[arg-type]
    check_int("n_deals", n_deals)
    return chance.sample(0, int(n_deals), int(as_generator(seed).integers(0, 2**63)), parallel=True)
