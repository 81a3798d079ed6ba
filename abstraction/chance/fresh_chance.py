"""Fresh chance for the heads-up variants: a numba sampler of the abstract game's deal arrays.

`FreshChance` (a variant's rules config, a card abstraction and the abstract parameters) fills,
for deals ``first .. first + count - 1`` of a solve, the deal arrays of an `abstraction.tree.DealTable`:
``bucket`` int32 [B, 2, n_slots] (each player's bucket in each slot), ``weight`` float64 [B, W]
(per outcome context a one-hot vector over its outcomes, W = sum of ``context_size``) and
``chance`` int8 [B, K] (the child taken at the chance nodes of each chance slot). Deal ``i`` is
drawn from splitmix64 keyed by ``(seed, i)`` only, so any split into batches or threads gives
the same rows. Inside another numba kernel (a solver thread), call
``abstraction.chance.kernels_chance._sample_deal(seed, i, chance.kernel_arguments(), work, ...)``.

Slots, contexts and chance slots (showdown outcome o: 0 player 0 wins, 1 tie, 2 player 1 wins;
player 0 is seat 0, the dealer):

=============== ============================= =============================== ==================
variant         slots                         contexts (outcomes)             chance slots
=============== ============================= =============================== ==================
holdem, swap    0..3 preflop, flop, turn,     0 showdown (3)                  none
                river (swap: cards held then)
bounty          0..3, bucket 2 * base + hit   0..3 fold on street s: hits h = none
                                              hit0 + 2 hit1 (4); 4 showdown
                                              4 o + h (12)
auction         0..3 two cards, 4..6 three    c = 0 player 0 holds 3 cards,   none
                cards on flop, turn, river    1 player 1, 2 both, 3 neither
                                              (3 each)
river_of_blood  0..3, then 3 + k run street   c = run cards dealt, 0..R (3    j = 0..R-1: colour
                k = 1..R (board 5 + k)        each: board of 5 + c cards)     of board card 4 + j
                                                                              (0 black, 1 red)
=============== ============================= =============================== ==================

Variant draws (the order of the generator's draws is part of the definition): Hold'em and Swap
as `game.rules.swap` (hole cards, flop, flop swaps, turn, turn swaps, river); Bounty the Hold'em cards
then both bounty ranks (uniform, independent); Auction hole cards, flop, a candidate third card
per player (given to the auction's winner, both on a tie: the deal fills every slot and context,
the tree picks), turn, river; River of Blood hole cards and 5 + R board cards. River of Blood's
run cap is ``R = min(max_runs, config.max_board_cards - 5)``; run slots the deal's colours do not
reach hold bucket 0 (never read).

>>> from abstraction.cards.buckets import CardAbstraction
>>> from game.rules.river_of_blood import RiverOfBloodConfig
>>> chance = FreshChance(RiverOfBloodConfig(), CardAbstraction.blank((169, 8, 8, 8)), max_runs=2)
>>> chance.n_slots, chance.n_buckets.tolist(), chance.context_size.tolist(), chance.chance_size.tolist()
(6, [169, 8, 8, 8, 8, 8], [3, 3, 3], [2, 2])
>>> deals = chance.sample(first=0, count=4, seed=7, parallel=False)
>>> deals.bucket.shape, deals.weight.shape, deals.chance.shape, deals.probability.tolist()
((4, 2, 6), (4, 9), (4, 2), [0.25, 0.25, 0.25, 0.25])
>>> bool((deals.weight.reshape(4, 3, 3).sum(axis=2) == 1).all())
True
>>> bool((chance.sample(2, 2, seed=7).bucket == deals.bucket[2:]).all())   # deal i depends on (seed, i) only
True
>>> FreshChance(RiverOfBloodConfig(), CardAbstraction.blank((169, 8, 8, 8))).max_runs   # the tree's default cap
2
>>> FreshChance(RiverOfBloodConfig(), CardAbstraction.blank((169, 8, 8, 8)), max_runs=-1)
Traceback (most recent call last):
...
ValueError: max_runs must be an int >= 0 (run streets of the abstract game), got -1
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import get_num_threads

from abstraction.cards.buckets import BucketLookup
from abstraction.chance.kernels_chance import _sample_batch, _sample_batch_cards, _sample_batch_parallel, _table_rows
from abstraction.hooks import HoldemHooks, tree_hooks
from abstraction.tree import DealTable, OutcomeColumns
from game.rules.nolimit import NoLimitConfig

CHUNKS_PER_THREAD = 4
"""Deal chunks per numba thread in a parallel batch (load balance; rows do not depend on it)."""
MAX_SEED = 2**64 - 1


def _check_count(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value!r}")
    return int(value)


@dataclass(frozen=True, eq=False)
class FreshChance(OutcomeColumns):
    """The chance of one heads-up variant's abstract game (see the module docstring).

    ``config``: the variant's rules (`game.rules.variants`); ``lookup``: a `BucketLookup`, or a
    `CardAbstraction` (wrapped in one); a Bounty game needs a ``bounty`` card abstraction and no
    other game takes one; a ``swap`` card abstraction (clustered on swap futures) serves Swap games
    only, which also take plain ones. ``max_runs``: River of Blood's run cap R >= 0 (None: the tree's default,
    `abstraction.hooks.river_of_blood.DEFAULT_MAX_RUNS`; stored capped by
    ``config.max_board_cards - 5``); None for the other variants.

    Everything variant-specific comes from the variant's tree hooks (`abstraction.hooks.tree_hooks`),
    the same ones the betting tree is built with: bucket slots and the card-abstraction street each
    reads, outcome contexts, chance slots and the sampler kernel's arguments. So deals and tree
    agree by construction.
    """

    config: NoLimitConfig
    lookup: BucketLookup
    max_runs: int | None = None
    _hooks: HoldemHooks = field(init=False, repr=False)
    _tree_config: NoLimitConfig = field(init=False, repr=False)
    _arguments: tuple = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.config, NoLimitConfig):
            raise TypeError(f"config must be a heads-up variant config (NoLimitConfig), got {self.config!r}")
        variant = self.config.variant
        hooks = tree_hooks(variant)
        lookup = BucketLookup.of(self.lookup)
        object.__setattr__(self, "lookup", lookup)
        if lookup.bounty != hooks.bounty_buckets:
            raise ValueError(
                f"a {variant!r} game needs a card abstraction of variant 'bounty' if and only if it is Bounty; "
                f"got one of variant {lookup.variant!r}"
            )
        cards = lookup.abstraction.config
        if (
            cards.has_swaps
            and not self.config.has_swaps
            and (cards.flop_swap_probability or cards.turn_swap_probability)
        ):
            raise ValueError(
                f"a {variant!r} game cannot use a card abstraction of variant {cards.variant!r}: its buckets price in hole-card swaps "
                f"that {variant!r} never deals; build one with `vcfr abstract --variant {variant}`"
            )
        tree_config = hooks.walk_config(self.config, self.max_runs)
        code, flop_swap, turn_swap, runs = hooks.sampler_arguments(tree_config)
        if self.max_runs is not None or runs:
            object.__setattr__(self, "max_runs", runs)
        object.__setattr__(self, "_hooks", hooks)
        object.__setattr__(self, "_tree_config", tree_config)
        object.__setattr__(self, "_arguments", (code, flop_swap, turn_swap, runs, lookup.kernel_arguments()))

    @property
    def variant(self) -> str:
        return self.config.variant

    @property
    def runs(self) -> int:
        """River of Blood's run cap R (0 for the other variants)."""
        return self.max_runs or 0

    @property
    def n_slots(self) -> int:
        """Bucket slots: 4, Auction 7, River of Blood 4 + R."""
        return len(self._hooks.slot_names(self._tree_config))

    @property
    def n_buckets(self) -> np.ndarray:
        """Buckets of each slot, int32 [n_slots] (the lookup's count of the street each slot reads)."""
        per_street = np.asarray(self.lookup.n_buckets)
        return per_street[list(self._hooks.slot_streets(self._tree_config))].astype(np.int32)

    @property
    def context_size(self) -> np.ndarray:
        """Outcomes of each context, int32 [n_contexts]."""
        return np.array(self._hooks.context_size(self._tree_config), dtype=np.int32)

    @property
    def chance_size(self) -> np.ndarray:
        """Children of the chance nodes of each chance slot, int32 [K] (River of Blood: R slots of 2)."""
        return np.array(self._hooks.chance_size(self._tree_config), dtype=np.int32).reshape(-1)

    def kernel_arguments(self) -> tuple:
        """``arguments`` of `abstraction.chance.kernels_chance._sample_deal(seed, deal, arguments, work,
        bucket_row, weight_row, chance_row)` (``work = deal_workspace()``, once per thread): ``(variant
        code, flop swap probability, turn swap probability, R, BucketLookup.kernel_arguments())``."""
        return self._arguments

    def _allocate(self, first: int, count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        _check_count("first", first, 0)
        _check_count("count", count, 1)
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be an int in 0..2**64-1, got {seed!r}")
        return (
            np.empty((int(count), 2, self.n_slots), dtype=np.int32),
            np.empty((int(count), self.weight_columns), dtype=np.float64),
            np.empty((int(count), len(self.chance_size)), dtype=np.int8),
        )

    def _table(self, bucket: np.ndarray, weight: np.ndarray, chance: np.ndarray) -> DealTable:
        count = bucket.shape[0]
        return DealTable(np.full(count, 1.0 / count), bucket, weight, chance, self.n_buckets)

    def sample(self, first: int, count: int, seed: int, parallel: bool = False) -> DealTable:
        """Deals ``first .. first + count - 1`` of the solve keyed by ``seed`` (int, 0..2**64-1), as a
        uniform `DealTable` (probability 1 / count each; `abstraction.tree.DealSource`).

        ``parallel`` splits the batch over numba's threads (same rows, for one big table); the
        default runs on the calling thread, as a solver thread must (numba's thread pool is not
        to be entered from several Python threads at once).
        """
        bucket, weight, chance = self._allocate(first, count, seed)
        with np.errstate(over="ignore"):  # uint64 generator arithmetic wraps on purpose (NUMBA_DISABLE_JIT=1)
            if parallel:
                n_chunks = max(1, min(int(count), CHUNKS_PER_THREAD * get_num_threads()))
                variant, flop_swap, turn_swap, runs, (tables, flop_keys, turn_keys) = self._arguments
                _sample_batch_parallel(
                    np.uint64(seed), np.int64(first), n_chunks, variant, flop_swap, turn_swap, runs, tables, flop_keys,
                    turn_keys, bucket, weight, chance,
                )  # fmt: skip
            else:
                _sample_batch(np.uint64(seed), np.int64(first), self._arguments, bucket, weight, chance)
        return self._table(bucket, weight, chance)

    def sample_with_cards(self, first: int, count: int, seed: int) -> tuple[DealTable, np.ndarray, np.ndarray]:
        """`sample` on the calling thread, plus each deal's cards in the order drawn (int8 [B, 52],
        -1 after the last) and bounty ranks (int64 [B, 2], -1 outside Bounty): for tests and
        inspection."""
        bucket, weight, chance = self._allocate(first, count, seed)
        cards = np.empty((int(count), 52), dtype=np.int8)
        bounty_rank = np.empty((int(count), 2), dtype=np.int64)
        with np.errstate(over="ignore"):
            _sample_batch_cards(
                np.uint64(seed), np.int64(first), self._arguments, bucket, weight, chance, cards, bounty_rank
            )
        return self._table(bucket, weight, chance), cards, bounty_rank


@dataclass(frozen=True, eq=False)
class TableChance:
    """Fresh chance from a known distribution: each deal of a solve is a row of ``deals`` drawn by
    its probability (i.i.d., keyed by ``(seed, deal)`` only). For exact games it makes a Monte Carlo
    solve see the true distribution, the way `FreshChance` does for full-size games; a fixed sample
    of the same rows (`sample_rows`) is the alternative it is measured against.

    >>> from abstraction.exact.exact_games import build_game
    >>> chance = TableChance(build_game("kuhn").deals)
    >>> batch = chance.sample(0, 1000, seed=1)
    >>> batch.n_deals, bool(abs(batch.weight[:, 0].mean() - 0.5) < 0.05)
    (1000, True)
    """

    deals: DealTable

    def sample(self, first: int, count: int, seed: int, parallel: bool = False) -> DealTable:
        """Deals ``first .. first + count - 1`` (`abstraction.tree.DealSource`), probability 1/count each."""
        _check_count("first", first, 0)
        _check_count("count", count, 1)
        rows = np.empty(int(count), dtype=np.int64)
        with np.errstate(over="ignore"):
            _table_rows(np.uint64(seed), np.int64(first), self.deals.cumulative_probability(), rows)
        return self.sample_rows(rows)

    def sample_rows(self, rows: np.ndarray) -> DealTable:
        """The table's ``rows`` (repeats allowed) as a uniform `DealTable` of ``len(rows)`` deals."""
        deals = self.deals
        return DealTable(
            np.full(len(rows), 1.0 / len(rows)),
            deals.bucket[rows],
            deals.weight[rows],
            deals.chance[rows],
            deals.n_buckets,
        )
