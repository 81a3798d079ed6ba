"""Fresh chance for the N-player limit abstract game (`abstraction.bets.limit_tree`): a `DealSource`.

`LimitChance` draws deal ``first + i`` of a solve seeded ``seed`` as row ``i`` of a uniform
`abstraction.tree.DealTable`:

- ``bucket`` int32 [B, n_players, 4]: each seat's bucket (`abstraction.cards.buckets.BucketLookup`,
  the same function the lookup bot uses) on preflop, flop, turn and river (slots 0..3);
- ``weight`` float64 [B, W]: for each showdown context of the tree (the seats alive there), a
  one-hot vector over its winner subsets (`abstraction.exact.exact_games.showdown_outcomes`): the seats
  among the alive ones with the best hand (``must_use_hole_card`` honoured, as
  `game.rules.limit.best_hand`); W = sum of the contexts' outcome counts;
- ``chance`` int8 [B, 0]: the limit tree has no chance nodes.

Cards are dealt in the rules engine's order (seat 0's hole cards, seat 1's, ..., flop, turn,
river) from splitmix64 keyed by ``(seed, deal)`` only (`abstraction.chance.kernels_limit_chance`), so a
deal does not depend on how deals are split into batches or threads. Seats are the tree's: seat 0
is the button.

>>> from abstraction.cards.buckets import CardAbstraction
>>> from game.rules.limit import LimitConfig
>>> chance = LimitChance(LimitConfig(n_players=3), CardAbstraction.blank((169, 8, 8, 8)))
>>> chance.contexts, chance.context_size.tolist(), chance.n_buckets.tolist()
([(0, 1, 2), (0, 1), (0, 2), (1, 2)], [7, 3, 3, 3], [169, 8, 8, 8])
>>> deals = chance.sample(first=0, count=5, seed=7)
>>> deals.bucket.shape, deals.weight.shape, deals.chance.shape
((5, 3, 4), (5, 16), (5, 0))
>>> bool((chance.sample(3, 2, seed=7).weight == deals.weight[3:]).all())   # deal i depends on (seed, i) only
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
from numba import get_num_threads

from abstraction.cards.buckets import BucketLookup
from abstraction.chance.kernels_limit_chance import _sample_limit_batch, _sample_limit_batch_parallel
from abstraction.exact.exact_games import outcome_table, showdown_outcomes, winner_mask
from abstraction.tree import MAX_PLAYERS, DealTable, OutcomeColumns
from game.rules.limit import LimitConfig

MAX_SEED = 2**64 - 1
CHUNKS_PER_THREAD = 4


def all_contexts(n_players: int) -> list[tuple[int, ...]]:
    """Every set of >= 2 seats, the largest first (the order the tree gives the contexts that occur)."""
    return [alive for size in range(n_players, 1, -1) for alive in combinations(range(n_players), size)]


def _check_int(name: str, value: object, minimum: int, maximum: int | None = None) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, np.integer))
        or value < minimum
        or (maximum is not None and value > maximum)
    ):
        bound = f"in {minimum}..{maximum}" if maximum is not None else f">= {minimum}"
        raise ValueError(f"{name} must be an int {bound}, got {value!r}")
    return int(value)


@dataclass(frozen=True, eq=False)
class LimitChance(OutcomeColumns):
    """Fresh deals of the limit abstract game (see the module docstring).

    ``config``: the limit rules (``n_players`` 2..6, ``must_use_hole_card``); ``lookup``: a
    `BucketLookup` or a `CardAbstraction` (not a Bounty one); ``contexts``: the showdown contexts of
    the tree, as sorted seat tuples in the tree's context order (default: every set of >= 2 seats,
    which is what `abstraction.bets.limit_tree.build_limit_tree` gives; pass
    ``showdown_contexts(tree)`` to be sure).
    """

    config: LimitConfig
    lookup: BucketLookup
    contexts: Sequence[tuple[int, ...]] | None = None
    _arguments: tuple = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.config, LimitConfig):
            raise TypeError(f"config must be a game.rules.limit.LimitConfig, got {self.config!r}")
        n_players = self.config.n_players
        if n_players > MAX_PLAYERS:
            raise ValueError(f"the limit abstract game seats 2..{MAX_PLAYERS} players, the rules {n_players}")
        lookup = BucketLookup.of(self.lookup)
        object.__setattr__(self, "lookup", lookup)
        if lookup.bounty:
            raise ValueError("the limit game needs a plain (holdem) card abstraction, got a Bounty one")
        contexts = (
            all_contexts(n_players) if self.contexts is None else [tuple(int(p) for p in c) for c in self.contexts]
        )
        for alive in contexts:
            showdown_outcomes(alive, n_players)  # ValueError for a bad seat set
        object.__setattr__(self, "contexts", contexts)
        masks = np.array([winner_mask(alive) for alive in contexts], dtype=np.int64)
        table = (
            np.stack([outcome_table(alive, n_players) for alive in contexts])
            if contexts
            else np.zeros((0, 2**n_players), dtype=np.int64)
        )
        object.__setattr__(
            self,
            "_arguments",
            (
                np.int64(n_players),
                bool(self.config.must_use_hole_card),
                masks,
                self.context_offset,
                np.ascontiguousarray(table, dtype=np.int64),
                lookup.kernel_arguments(),
            ),
        )

    @property
    def n_players(self) -> int:
        return self.config.n_players

    @property
    def n_buckets(self) -> np.ndarray:
        """Buckets of slots 0..3 (preflop, flop, turn, river), int32 [4]."""
        return np.asarray(self.lookup.n_buckets, dtype=np.int32)

    @property
    def context_size(self) -> np.ndarray:
        """Outcomes (winner subsets) of each context, int32 [C]: ``2**k - 1`` for k seats (3 heads-up)."""
        return np.array([len(showdown_outcomes(alive, self.n_players)) for alive in self.contexts], dtype=np.int32)

    def kernel_arguments(self) -> tuple:
        """``arguments`` of `abstraction.chance.kernels_limit_chance._sample_limit_deal`."""
        return self._arguments

    def _allocate(self, first: int, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        _check_int("first", first, 0)
        _check_int("count", count, 1)
        _check_int("seed", seed, 0, MAX_SEED)
        return (
            np.empty((int(count), self.n_players, 4), dtype=np.int32),
            np.empty((int(count), self.weight_columns), dtype=np.float64),
        )

    def _table(self, bucket: np.ndarray, weight: np.ndarray) -> DealTable:
        count = bucket.shape[0]
        return DealTable(
            np.full(count, 1.0 / count), bucket, weight, np.zeros((count, 0), dtype=np.int8), self.n_buckets
        )

    def sample(self, first: int, count: int, seed: int, parallel: bool = False) -> DealTable:
        """Deals ``first .. first + count - 1`` of the solve keyed by ``seed`` (0..2**64-1) as a uniform
        `DealTable` (`abstraction.tree.DealSource`). ``parallel`` splits the batch over numba's threads
        (same rows); the default runs on the calling thread, as a solver thread must."""
        bucket, weight = self._allocate(first, count, seed)
        with np.errstate(over="ignore"):  # uint64 generator arithmetic wraps on purpose
            if parallel:
                n_chunks = max(1, min(int(count), CHUNKS_PER_THREAD * get_num_threads()))
                n, must, masks, offsets, table, (tables, flop_keys, turn_keys) = self._arguments
                _sample_limit_batch_parallel(
                    np.uint64(seed),
                    np.int64(first),
                    n_chunks,
                    n,
                    must,
                    masks,
                    offsets,
                    table,
                    tables,
                    flop_keys,
                    turn_keys,
                    bucket,
                    weight,
                )
            else:
                _sample_limit_batch(
                    np.uint64(seed), np.int64(first), self._arguments, bucket, weight, np.empty((0, 0), dtype=np.int8)
                )
        return self._table(bucket, weight)

    def sample_with_cards(self, first: int, count: int, seed: int) -> tuple[DealTable, np.ndarray]:
        """`sample` plus each deal's cards in deal order, int8 [B, 2 n_players + 5] (seat 0's two hole
        cards, seat 1's, ..., flop, turn, river): for tests and inspection."""
        bucket, weight = self._allocate(first, count, seed)
        cards = np.empty((int(count), 2 * self.n_players + 5), dtype=np.int8)
        with np.errstate(over="ignore"):
            _sample_limit_batch(np.uint64(seed), np.int64(first), self._arguments, bucket, weight, cards)
        return self._table(bucket, weight), cards
