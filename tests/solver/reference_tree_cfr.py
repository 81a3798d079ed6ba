"""Slow, plain-Python vanilla CFR over a FlatTree and a DealTable: the oracle for solver.solve.kernels_cfr.

Recursive walks in plain loops, no numba, no solver code: only the data types of
`abstraction.tree` are read (as Python lists). Vanilla CFR with alternating updates as OpenSpiel's
``_CFRSolver``: for each player in turn, the current strategy is regret matching of the regrets so
far; for every deal, one walk from the root carries the reach probabilities of both players and
returns the player's counterfactual values; the player's regrets gain ``P(deal) * opponent reach *
(child value - node value)`` and their strategy sums ``P(deal) * own reach * strategy``. A chance
node follows the child the deal names; a terminal's value is the deal's outcome weights of its
context times its payoff rows.
"""

from __future__ import annotations

from abstraction.tree import CHANCE, DECISION, DealTable, FlatTree


class ReferenceTreeCFR:
    """Vanilla CFR (uniform averaging, alternating updates) on ``tree`` and ``deals``; tables as flat lists."""

    def __init__(self, tree: FlatTree, deals: DealTable) -> None:
        self.kind = [int(x) for x in tree.kind]
        self.player = [int(x) for x in tree.player]
        self.child_start = [int(x) for x in tree.child_start]
        self.n_children = [int(x) for x in tree.n_children]
        self.group = [int(x) for x in tree.infoset_group]
        self.context = [int(x) for x in tree.context]
        self.value_row = [int(x) for x in tree.value_row]
        self.n_actions = [int(x) for x in tree.n_actions]
        self.row_offset = [int(x) for x in tree.row_offset]
        self.n_buckets = [int(x) for x in tree.n_buckets]
        self.group_slot = [int(x) for x in tree.group_slot]
        self.values = [[float(v) for v in row] for row in tree.terminal_values]
        self.context_offset = [int(x) for x in tree.context_offset]
        self.context_size = [int(x) for x in tree.context_size]
        self.probability = [float(p) for p in deals.probability]
        self.bucket = deals.bucket.tolist()
        self.weight = deals.weight.tolist()
        self.chance = deals.chance.tolist()
        size = tree.table_size
        self.regrets = [0.0] * size
        self.strategy_sums = [0.0] * size
        self.iteration = 0

    def row(self, node: int, deal: int) -> int:
        group = self.group[node]
        bucket = self.bucket[deal][self.player[node]][self.group_slot[group]]
        return self.row_offset[group] + bucket * self.n_actions[group]

    def current_strategy(self) -> list[float]:
        strategy = [0.0] * len(self.regrets)
        for group, count in enumerate(self.n_actions):
            for bucket in range(self.n_buckets[group]):
                start = self.row_offset[group] + bucket * count
                positive = [max(self.regrets[start + k], 0.0) for k in range(count)]
                total = sum(positive)
                for k in range(count):
                    strategy[start + k] = positive[k] / total if total > 0.0 else 1.0 / count
        return strategy

    def terminal_value(self, node: int, deal: int, player: int) -> float:
        row, context = self.value_row[node], self.context[node]
        if context < 0:
            return self.values[row][player]
        total = 0.0
        for outcome in range(self.context_size[context]):
            total += self.weight[deal][self.context_offset[context] + outcome] * self.values[row + outcome][player]
        return total

    def walk(self, node: int, deal: int, traverser: int, reach: list[float], strategy: list[float]) -> float:
        kind = self.kind[node]
        start, count = self.child_start[node], self.n_children[node]
        if kind == CHANCE:
            return self.walk(start + self.chance[deal][self.context[node]], deal, traverser, reach, strategy)
        if kind != DECISION:
            return self.terminal_value(node, deal, traverser)
        actor = self.player[node]
        row = self.row(node, deal)
        child_values = []
        for k in range(count):
            child_reach = list(reach)
            child_reach[actor] *= strategy[row + k]
            child_values.append(self.walk(start + k, deal, traverser, child_reach, strategy))
        value = sum(strategy[row + k] * child_values[k] for k in range(count))
        if actor == traverser:
            others = 1.0
            for p, r in enumerate(reach):
                if p != traverser:
                    others *= r
            for k in range(count):
                self.regrets[row + k] += self.probability[deal] * others * (child_values[k] - value)
                self.strategy_sums[row + k] += self.probability[deal] * reach[actor] * strategy[row + k]
        return value

    def iterate(self) -> None:
        self.iteration += 1
        for traverser in range(2):
            strategy = self.current_strategy()
            for deal in range(len(self.probability)):
                self.walk(0, deal, traverser, [1.0, 1.0], strategy)
