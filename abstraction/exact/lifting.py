"""Card abstractions of an exact solver game, the abstract game they define, and lifting strategies back.

A :class:`CardAbstraction` maps every exact bucket of a bucket slot (in the exact games a street:
one real private view, hole cards and public cards so far) to an abstract bucket. The abstract
game keeps the betting tree and replaces each deal's buckets by their images
(:func:`abstract_game`); solving it gives an abstract strategy, one row per abstract information
set. :func:`lift_strategy` turns that into a strategy of the exact game, where every exact
information set plays the row of its abstract bucket, so
``solver.evaluate.exploitability.exploitability(game, lifted)`` measures the abstraction's strategy in the
unabstracted game. :func:`merge_deals` folds deals with identical buckets (and chance children) into
one (exact: every solver kernel values a deal through its buckets, its chance children and,
linearly, its outcome weights), which makes abstract games of a large deal table small.

>>> from abstraction.exact.exact_games import build_game
>>> game = build_game("leduc")
>>> blind = CardAbstraction("no cards", (np.zeros(6, dtype=np.int32), np.zeros(30, dtype=np.int32)))
>>> small = abstract_game(game, blind)
>>> small.deals.n_deals, small.tree.n_infosets  # one deal: nobody sees a card; one row per betting node
(1, 36)
>>> lifted = lift_strategy(game, blind, np.arange(small.tree.table_size, dtype=float))  # traces rows
>>> lifted[:12].tolist()  # the 6 buckets of the first node all play abstract row (0, 1)
[0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from abstraction.tree import DealTable, FlatTree, SolverGame


@dataclass(frozen=True, eq=False)
class CardAbstraction:
    """Per bucket slot (a street of the exact games), exact bucket -> abstract bucket.

    ``bucket_map[s]`` is int32 ``(n_exact_buckets[s],)`` with values dense in ``0..k_s - 1`` (every
    abstract bucket has at least one exact bucket). ``name`` labels it in results.

    >>> CardAbstraction("gap", (np.array([0, 2]),))
    Traceback (most recent call last):
    ...
    ValueError: bucket_map[0] must use every abstract bucket 0..k-1; it uses [0, 2]
    """

    name: str
    bucket_map: tuple[np.ndarray, ...]

    def __post_init__(self) -> None:
        maps = []
        for slot, mapping in enumerate(self.bucket_map):
            array = np.ascontiguousarray(mapping, dtype=np.int32)
            if array.ndim != 1 or array.size == 0:
                raise ValueError(f"bucket_map[{slot}] must be a non-empty 1-D array, got shape {array.shape}")
            used = np.unique(array)
            if used[0] != 0 or used[-1] != len(used) - 1:
                raise ValueError(f"bucket_map[{slot}] must use every abstract bucket 0..k-1; it uses {used.tolist()}")
            array.setflags(write=False)
            maps.append(array)
        if not maps:
            raise ValueError("bucket_map needs one array per slot, got none")
        object.__setattr__(self, "bucket_map", tuple(maps))

    @property
    def n_buckets(self) -> np.ndarray:
        """Abstract buckets per slot, int32 ``(n_slots,)``."""
        return np.array([int(m.max()) + 1 for m in self.bucket_map], dtype=np.int32)

    @classmethod
    def identity(cls, game: SolverGame) -> CardAbstraction:
        """The lossless abstraction: every exact bucket is its own abstract bucket."""
        return cls("lossless", tuple(np.arange(n, dtype=np.int32) for n in game.deals.n_buckets))

    def check_fits(self, game: SolverGame) -> None:
        """Raise ValueError unless there is one map per bucket slot of ``game``, each covering its exact buckets."""
        exact = game.deals.n_buckets.tolist()
        sizes = [len(m) for m in self.bucket_map]
        if sizes != exact:
            raise ValueError(
                f"abstraction {self.name!r} maps {sizes} exact buckets per slot, game {game.name!r} has {exact}"
            )


def merge_deals(deals: DealTable) -> DealTable:
    """One deal per distinct (buckets, chance children): probabilities summed, outcome weights probability-averaged.

    (A merged deal of probability 0 gets weights 0: it never counts.)

    Exact for every solver here: a deal enters CFR, best response and profile values only through
    its buckets, its chance children and its probability times terminal values that are linear in
    its outcome weights. Deals come out ordered by (bucket tuple, chance children).

    >>> table = DealTable(np.array([0.25, 0.25, 0.5]), np.array([[[1]], [[1]], [[0]]]).repeat(2, axis=1),
    ...                   np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]), np.zeros((3, 0)),
    ...                   np.array([2]))
    >>> merged = merge_deals(table)
    >>> merged.probability.tolist(), merged.weight.tolist()
    ([0.5, 0.5], [[0.0, 1.0, 0.0], [0.5, 0.0, 0.5]])
    """
    key = np.concatenate([deals.bucket.reshape(deals.n_deals, -1), deals.chance.astype(np.int32)], axis=1)
    unique, inverse = np.unique(key, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    n_merged, n_bucket_columns = len(unique), deals.bucket[0].size
    probability = np.bincount(inverse, weights=deals.probability, minlength=n_merged)
    mass = np.zeros((n_merged, deals.weight.shape[1]))
    np.add.at(mass, inverse, deals.probability[:, None] * deals.weight)
    weight = mass / np.where(probability > 0, probability, 1.0)[:, None]  # all 0 for a deal of probability 0
    return DealTable(
        probability=probability / probability.sum(),
        bucket=unique[:, :n_bucket_columns].reshape(n_merged, *deals.bucket.shape[1:]),
        weight=np.clip(weight, 0.0, 1.0),
        chance=unique[:, n_bucket_columns:],
        n_buckets=deals.n_buckets,
    )


def _regrouped_tree(tree: FlatTree, buckets_per_slot: np.ndarray) -> FlatTree:
    """``tree`` with every group's bucket count set from ``buckets_per_slot`` and its rows laid out again."""
    arrays = tree.to_arrays()
    arrays["n_buckets"] = buckets_per_slot[arrays["group_slot"]].astype(np.int32)
    sizes = arrays["n_buckets"].astype(np.int64) * arrays["n_actions"]
    arrays["row_offset"] = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    return FlatTree.from_arrays(arrays)


def abstract_game(game: SolverGame, abstraction: CardAbstraction) -> SolverGame:
    """The game played on abstract buckets: same betting tree, deals relabelled and merged.

    ``config`` is the exact game's plus ``"abstraction": abstraction.name``.
    """
    abstraction.check_fits(game)
    buckets = np.stack(
        [abstraction.bucket_map[s][game.deals.bucket[:, :, s]] for s in range(len(abstraction.bucket_map))], axis=2
    )
    relabelled = DealTable(game.deals.probability, buckets, game.deals.weight, game.deals.chance, abstraction.n_buckets)
    return SolverGame(
        name=f"{game.name}/{abstraction.name}",
        tree=_regrouped_tree(game.tree, abstraction.n_buckets),
        deals=merge_deals(relabelled),
        config={**game.config, "abstraction": abstraction.name},
    )


def lift_strategy(game: SolverGame, abstraction: CardAbstraction, abstract_strategy: np.ndarray) -> np.ndarray:
    """The exact-game strategy (flat table of ``game``) in which each exact bucket plays its abstract row.

    ``abstract_strategy`` is a flat table of ``abstract_game(game, abstraction)``.
    """
    abstraction.check_fits(game)
    exact_tree = game.tree
    abstract_tree = _regrouped_tree(exact_tree, abstraction.n_buckets)
    strategy = np.asarray(abstract_strategy, dtype=np.float64)
    if strategy.shape != (abstract_tree.table_size,):
        raise ValueError(
            f"abstract_strategy must have shape ({abstract_tree.table_size},) (the abstract game's "
            f"table size), got {strategy.shape}"
        )
    lifted = np.empty(exact_tree.table_size)
    for group in range(exact_tree.n_groups):
        actions = int(exact_tree.n_actions[group])
        images = abstraction.bucket_map[int(exact_tree.group_slot[group])].astype(np.int64)
        source = abstract_tree.row_offset[group] + images[:, None] * actions + np.arange(actions)
        target = exact_tree.row_offset[group] + np.arange(len(images))[:, None] * actions + np.arange(actions)
        lifted[target] = strategy[source]
    return lifted
