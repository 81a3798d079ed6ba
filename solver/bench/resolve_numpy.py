"""The subgame solver written in plain numpy: the speed peer of ``vcfr bench resolve`` and a
cross-check of the numba kernels (same algorithm, same order of updates, so the same tables).

Each node's children are one contiguous block of rows, so regret matching, reach and values are
whole-array operations per node; the showdown takes the per-card cumulative sums with ``np.cumsum``
and gathers them by the same index arrays as :mod:`solver.resolve.kernels_showdown`. Not imported by library code.
"""

from __future__ import annotations

import numpy as np

from solver.resolve.hands import N_CARDS, RiverHands
from solver.resolve.resolver import ResolveConfig
from solver.resolve.tree import DECISION, FOLD, SubgameTree


class NumpyShowdown:
    """Fold and showdown values of a board's hands against a reach vector, with numpy only, from the
    hands' index arrays (:attr:`solver.resolve.hands.RiverHands.layout`)."""

    def __init__(self, hands: RiverHands):
        self.layout = hands.layout
        self.padded = np.zeros(hands.n_hands + 1)
        self.last = self.layout.card_hands.shape[0] * N_CARDS  # flat offset of the per-card totals

    def _sums(self, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.padded[:-1] = reach
        card_sums = np.zeros((self.layout.card_hands.shape[0] + 1, N_CARDS))
        np.cumsum(self.padded[self.layout.card_hands], axis=0, out=card_sums[1:])
        group_sums = np.zeros(len(self.layout.group_start))
        np.cumsum(np.add.reduceat(reach, self.layout.group_start[:-1]), out=group_sums[1:])
        return card_sums.ravel(), group_sums

    def _rest(self, card_sums: np.ndarray, total: float) -> np.ndarray:
        return total - card_sums[self.last + self.layout.first] - card_sums[self.last + self.layout.second]

    def compatible(self, reach: np.ndarray) -> np.ndarray:
        card_sums, group_sums = self._sums(reach)
        return self._rest(card_sums, group_sums[-1]) + reach

    def values(self, reach: np.ndarray, own_chips: float, opponent_chips: float) -> np.ndarray:
        card_sums, group_sums = self._sums(reach)
        layout = self.layout
        win = group_sums[layout.group] - card_sums[layout.below].sum(axis=1)
        weaker_or_equal = group_sums[layout.group + 1] - card_sums[layout.through].sum(axis=1)
        rest = self._rest(card_sums, group_sums[-1])
        lose = rest - weaker_or_equal
        tie = rest + reach - win - lose
        return opponent_chips * win - own_chips * lose + 0.5 * (opponent_chips - own_chips) * tie


class NumpySubgameSolver:
    """:class:`solver.resolve.resolver.SubgameSolver`'s iterations in numpy (``run``, ``strategy_sums``)."""

    def __init__(self, tree: SubgameTree, hands: RiverHands, ranges: np.ndarray, config: ResolveConfig | None = None):
        self.tree, self.ranges = tree, np.asarray(ranges, dtype=np.float64)
        self.config = config if config is not None else ResolveConfig()
        self.showdown = NumpyShowdown(hands)
        shape = (tree.n_nodes, hands.n_hands)
        self.regrets, self.strategy_sums, self.iteration = np.zeros(shape), np.zeros(shape), 0
        self._strategy, self._values = np.zeros(shape), np.zeros(shape)
        self._reach = np.zeros((tree.n_nodes, 2, hands.n_hands))
        self._decisions = [
            (
                int(node),
                int(tree.player[node]),
                slice(int(tree.child_start[node]), int(tree.child_start[node] + tree.n_children[node])),
            )
            for node in np.flatnonzero(tree.kind == DECISION)
        ]

    def _terminal(self, node: int, traverser: int) -> np.ndarray:
        reach = self._reach[node, 1 - traverser]
        if not reach.any():  # as the kernels: values are linear in the reach
            return np.zeros_like(reach)
        own, other = self.tree.pot_chips[node, traverser], self.tree.pot_chips[node, 1 - traverser]
        if self.tree.kind[node] == FOLD:
            return (-own if self.tree.player[node] == traverser else other) * self.showdown.compatible(reach)
        return self.showdown.values(reach, own, other)

    def run(self, n_iterations: int) -> NumpySubgameSolver:
        plus, gamma, discount, alpha, beta = self.config.kernel_parameters()
        reach, strategy, values, regrets = self._reach, self._strategy, self._values, self.regrets
        for iteration in range(self.iteration + 1, self.iteration + n_iterations + 1):
            weight = float(iteration) ** gamma
            positive_factor = iteration**alpha / (iteration**alpha + 1.0)
            negative_factor = iteration**beta / (iteration**beta + 1.0)
            for traverser in (0, 1):
                reach[0] = self.ranges
                for node, actor, rows in self._decisions:
                    positive = np.maximum(regrets[rows], 0.0)
                    total = positive.sum(axis=0)
                    count = rows.stop - rows.start
                    strategy[rows] = np.where(total > 0, positive / np.where(total > 0, total, 1.0), 1.0 / count)
                    reach[rows, actor] = reach[node, actor] * strategy[rows]
                    reach[rows, 1 - actor] = reach[node, 1 - actor]
                    if actor == traverser:
                        self.strategy_sums[rows] += weight * reach[node, actor] * strategy[rows]
                for node in np.flatnonzero(self.tree.kind != DECISION):
                    values[node] = self._terminal(int(node), traverser)
                for node, actor, rows in reversed(self._decisions):
                    if actor != traverser:
                        values[node] = values[rows].sum(axis=0)
                        continue
                    values[node] = (strategy[rows] * values[rows]).sum(axis=0)
                    updated = regrets[rows] + values[rows] - values[node]
                    if plus:
                        np.maximum(updated, 0.0, out=updated)
                    if discount:
                        updated *= np.where(updated >= 0.0, positive_factor, negative_factor)
                    regrets[rows] = updated
        self.iteration += n_iterations
        return self
