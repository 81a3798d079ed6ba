"""The subgame solver written in plain numpy: the speed peer of ``vcfr bench resolve`` and a
cross-check of the numba kernels (same algorithm, same order of updates, the same float32 tables:
the same up to float32 rounding).

Each node's children are one contiguous block of rows, so regret matching, reach and values are
whole-array operations per node; the showdown takes per-card cumulative sums with ``np.cumsum``
and gathers them (the kernels' sweep in :mod:`solver.resolve.kernels_showdown` is sequential, which
numpy cannot do without a Python loop; the values are the same). Not imported by library code.
"""

from __future__ import annotations

import numpy as np

from solver.resolve.hands import N_CARDS, RiverHands
from solver.resolve.resolver import TABLE_DTYPE, ResolveConfig
from solver.resolve.tree import DECISION, FOLD, SubgameTree


class NumpyShowdown:
    """Fold and showdown values of a board's hands against a reach vector, with numpy only.

    Per card, the hands holding it by ascending strength (``card_hands``, (width, 52), padded with
    ``n``: a slot of reach 0) give cumulative sums; ``below`` / ``through`` (n, 2) index, for each
    hand's two cards, the sums after the hands strictly weaker than it / through its run of equal
    strength (flat ``k * 52 + card``).
    """

    def __init__(self, hands: RiverHands):
        n = hands.n_hands
        first, second = hands.cards[:, 0].astype(np.int64), hands.cards[:, 1].astype(np.int64)
        self.first, self.second = first, second
        new_group = np.diff(hands.strength, prepend=-1) != 0
        self.group = np.cumsum(new_group) - 1
        self.group_start = np.append(np.flatnonzero(new_group), n)
        per_card = [np.flatnonzero((first == card) | (second == card)) for card in range(N_CARDS)]
        self.card_hands = np.full((max(len(rows) for rows in per_card), N_CARDS), n, dtype=np.int64)
        for card, rows in enumerate(per_card):
            self.card_hands[: len(rows), card] = rows
        self.below, self.through = np.empty((n, 2), dtype=np.int64), np.empty((n, 2), dtype=np.int64)
        for column, cards in enumerate((first, second)):
            holding = self.card_hands[:, cards].T  # (n, width): the hands holding each hand's card
            self.below[:, column] = (holding < self.group_start[self.group][:, None]).sum(axis=1) * N_CARDS + cards
            self.through[:, column] = (holding < self.group_start[self.group + 1][:, None]).sum(
                axis=1
            ) * N_CARDS + cards
        self.padded = np.zeros(n + 1)
        self.last = self.card_hands.shape[0] * N_CARDS  # flat offset of the per-card totals

    def _sums(self, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.padded[:-1] = reach
        card_sums = np.zeros((self.card_hands.shape[0] + 1, N_CARDS))
        np.cumsum(self.padded[self.card_hands], axis=0, out=card_sums[1:])
        group_sums = np.zeros(len(self.group_start))
        np.cumsum(np.add.reduceat(reach, self.group_start[:-1]), out=group_sums[1:])
        return card_sums.ravel(), group_sums

    def _rest(self, card_sums: np.ndarray, total: float) -> np.ndarray:
        return total - card_sums[self.last + self.first] - card_sums[self.last + self.second]

    def compatible(self, reach: np.ndarray) -> np.ndarray:
        card_sums, group_sums = self._sums(reach)
        return self._rest(card_sums, group_sums[-1]) + reach

    def values(self, reach: np.ndarray, own_chips: float, opponent_chips: float) -> np.ndarray:
        card_sums, group_sums = self._sums(reach)
        win = group_sums[self.group] - card_sums[self.below].sum(axis=1)
        weaker_or_equal = group_sums[self.group + 1] - card_sums[self.through].sum(axis=1)
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
        self.regrets, self.strategy_sums = np.zeros(shape, TABLE_DTYPE), np.zeros(shape, TABLE_DTYPE)
        self._strategy, self._values = np.zeros(shape, TABLE_DTYPE), np.zeros(shape, TABLE_DTYPE)
        self._reach = np.zeros((tree.n_nodes, 2, hands.n_hands), TABLE_DTYPE)
        self.iteration = 0
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
