"""Slow, obviously correct CFR and best response in pure Python, written against game.rules.leduc rounds.

The oracle the numba kernels are tested against (OpenSpiel ``cfr.py`` / ``best_response.py``
style): recursive tree walks over :class:`game.rules.leduc.LeducRound` states, information sets keyed by
``(player, visible cards, betting history)`` in dicts, chance enumerated at the root. Nothing here
touches the flat tree, the deal table or numba.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from game.rules.leduc import LeducConfig, LeducRound

InfosetKey = tuple[int, tuple[int, ...], str]


def infoset_key(round_: LeducRound) -> InfosetKey:
    player = round_.to_act
    assert player is not None
    return (player, round_.visible_cards(player), round_.history_string())


def deals(config: LeducConfig) -> list[tuple[float, LeducRound]]:
    """Every deal with its probability, as fresh rounds."""
    cards = list(itertools.permutations(config.deck(), config.cards_per_deal))
    return [(1.0 / len(cards), LeducRound(config, c)) for c in cards]


def children(round_: LeducRound) -> list[LeducRound]:
    result = []
    for action in round_.legal_actions():
        child = round_.copy()
        child.apply(action)
        result.append(child)
    return result


class RegretTables:
    """Regrets and strategy sums per information set (lists, made on first visit), the iteration
    count, and regret matching."""

    def __init__(self) -> None:
        self.regrets: dict[InfosetKey, list[float]] = {}
        self.strategy_sums: dict[InfosetKey, list[float]] = {}
        self.iteration = 0

    def policy(self, key: InfosetKey, n_actions: int) -> list[float]:
        """Regret matching at ``key``: positive regrets normalized, uniform when none is positive."""
        regrets = self.regrets.setdefault(key, [0.0] * n_actions)
        positive = [max(r, 0.0) for r in regrets]
        total = sum(positive)
        return [p / total for p in positive] if total > 0 else [1.0 / n_actions] * n_actions


class ReferenceCFR(RegretTables):
    """Tabular CFR with alternating updates, as OpenSpiel's ``_CFRSolver`` and ``_DCFRSolver``.

    ``regret_matching_plus`` clips regrets at 0 after each player's update (CFR+);
    ``averaging_exponent`` weights the average by ``t ** averaging_exponent``; ``discount`` multiplies
    positive regrets by ``t**alpha / (t**alpha + 1)`` and negative by ``t**beta / (t**beta + 1)``.
    """

    def __init__(
        self,
        config: LeducConfig,
        regret_matching_plus: bool = False,
        averaging_exponent: float = 0.0,
        discount: bool = False,
        alpha: float = 1.5,
        beta: float = 0.0,
    ) -> None:
        self.deals = deals(config)
        self.regret_matching_plus = regret_matching_plus
        self.averaging_exponent = averaging_exponent
        self.discount = discount
        self.alpha = alpha
        self.beta = beta
        super().__init__()

    def iterate(self) -> None:
        self.iteration += 1
        for player in range(2):
            policies: dict[InfosetKey, list[float]] = {}
            for probability, root in self.deals:
                self._walk(root, player, [1.0, 1.0], probability, policies)
            for key, regrets in self.regrets.items():
                if key[0] != player:
                    continue
                for a, regret in enumerate(regrets):
                    if self.regret_matching_plus:
                        regret = max(regret, 0.0)
                    if self.discount:
                        exponent = self.alpha if regret >= 0 else self.beta
                        regret *= self.iteration**exponent / (self.iteration**exponent + 1)
                    regrets[a] = regret

    def _walk(
        self,
        round_: LeducRound,
        player: int,
        reach: list[float],
        chance: float,
        policies: dict[InfosetKey, list[float]],
    ) -> float:
        """Value of ``round_`` for ``player`` under the current policy; updates ``player``'s tables."""
        if round_.is_terminal:
            return round_.payoffs()[player]
        if reach[0] == 0 and reach[1] == 0:
            return 0.0
        actor = round_.to_act
        assert actor is not None
        key = infoset_key(round_)
        kids = children(round_)
        if key not in policies:
            policies[key] = self.policy(key, len(kids))
        policy = policies[key]
        values = []
        for probability, child in zip(policy, kids, strict=True):
            child_reach = list(reach)
            child_reach[actor] *= probability
            values.append(self._walk(child, player, child_reach, chance, policies))
        value = sum(p * v for p, v in zip(policy, values, strict=True))
        if actor == player:
            regrets = self.regrets[key]
            sums = self.strategy_sums.setdefault(key, [0.0] * len(kids))
            weight = self.iteration**self.averaging_exponent
            for a, probability in enumerate(policy):
                regrets[a] += chance * reach[1 - player] * (values[a] - value)
                sums[a] += weight * chance * reach[player] * probability
        return value

    def average_policy(self) -> dict[InfosetKey, list[float]]:
        result = {}
        for key, sums in self.strategy_sums.items():
            total = sum(sums)
            result[key] = [s / total for s in sums] if total > 0 else [1.0 / len(sums)] * len(sums)
        return result


def best_response_value(config: LeducConfig, policy: dict[InfosetKey, list[float]], responder: int) -> float:
    """Expected chips of ``responder`` best-responding to ``policy`` (OpenSpiel ``best_response.py`` style)."""
    infoset_states: dict[InfosetKey, list[tuple[LeducRound, float]]] = defaultdict(list)

    def collect(round_: LeducRound, reach: float) -> None:
        if round_.is_terminal:
            return
        key = infoset_key(round_)
        kids = children(round_)
        if round_.to_act == responder:
            infoset_states[key].append((round_, reach))
            for child in kids:
                collect(child, reach)
        else:
            for probability, child in zip(policy[key], kids, strict=True):
                collect(child, reach * probability)

    all_deals = deals(config)
    for probability, root in all_deals:
        collect(root, probability)
    best: dict[InfosetKey, int] = {}
    memo: dict[tuple[tuple[int, ...], str], float] = {}

    def value(round_: LeducRound) -> float:
        state_key = (round_.cards, round_.history_string())
        if state_key not in memo:
            memo[state_key] = state_value(round_)
        return memo[state_key]

    def state_value(round_: LeducRound) -> float:
        if round_.is_terminal:
            return round_.payoffs()[responder]
        key = infoset_key(round_)
        kids = children(round_)
        if round_.to_act != responder:
            return sum(p * value(child) for p, child in zip(policy[key], kids, strict=True))
        if key not in best:
            totals = [0.0] * len(kids)
            for state, reach in infoset_states[key]:
                for a, child in enumerate(children(state)):
                    totals[a] += reach * value(child)
            best[key] = max(range(len(kids)), key=lambda a: (totals[a], -a))
        return value(kids[best[key]])

    return sum(probability * value(root) for probability, root in all_deals)


MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(value: int) -> int:
    """splitmix64 finaliser of ``value + golden`` on Python ints (independent of numba's uint64)."""
    mixed = (value + GOLDEN) & MASK
    mixed = ((mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & MASK
    return mixed ^ (mixed >> 31)


def unit(bits: int) -> float:
    return (bits >> 11) * 2.0**-53


class Generator:
    """The kernels' counter-based generator: seeded by (seed, stream, index), advanced by golden steps."""

    def __init__(self, seed: int, stream: int, index: int) -> None:
        self.state = splitmix64(splitmix64(splitmix64(seed) ^ stream) ^ index)

    def uniform(self) -> float:
        self.state = (self.state + GOLDEN) & MASK
        return unit(splitmix64(self.state))


class ReferenceExternalSampling(RegretTables):
    """Recursive external-sampling MCCFR with the kernels' random numbers (no pruning).

    Iteration ``t``: deal from stratified blocks of ``n_deals`` iterations, then for each traverser a
    recursive walk; the opponent's action at flat-tree node ``n`` uses the number keyed by
    ``(seed, t, traverser, n)``. ``node_of_history`` maps betting histories to flat-tree node
    indices, used only for those keys.
    """

    def __init__(
        self, config: LeducConfig, node_of_history: dict[str, int], seed: int, linear_averaging: bool = False
    ) -> None:
        import numpy as np

        self.deals = deals(config)
        self.cumulative = np.cumsum([p for p, _ in self.deals])
        self.cumulative[-1] = 1.0
        self.node_of_history = node_of_history
        self.seed = seed
        self.linear_averaging = linear_averaging
        super().__init__()
        self.order: list[int] = []

    def block_order(self, block: int) -> list[int]:
        generator = Generator(self.seed, 1, block)
        order = list(range(len(self.deals)))
        for i in range(len(order) - 1, 0, -1):
            j = min(int(generator.uniform() * (i + 1)), i)
            order[i], order[j] = order[j], order[i]
        return order

    def iterate(self) -> None:
        import numpy as np

        t = self.iteration
        n = len(self.deals)
        if t % n == 0 or not self.order:
            self.order = self.block_order(t // n)
        generator = Generator(self.seed, 0, t)
        iteration_key = generator.state
        u = (self.order[t % n] + generator.uniform()) / n
        deal = min(int(np.searchsorted(self.cumulative, u, side="right")), n - 1)
        weight = float(t + 1) if self.linear_averaging else 1.0
        for traverser in range(2):
            key = splitmix64(iteration_key ^ (traverser + 1))
            self._walk(self.deals[deal][1], traverser, key, weight)
        self.iteration += 1

    def _walk(self, round_: LeducRound, traverser: int, key: int, weight: float) -> float:
        if round_.is_terminal:
            return round_.payoffs()[traverser]
        info = infoset_key(round_)
        kids = children(round_)
        policy = self.policy(info, len(kids))
        if round_.to_act == traverser:
            values = [self._walk(child, traverser, key, weight) for child in kids]
            value = sum(p * v for p, v in zip(policy, values, strict=True)) / sum(policy)
            regrets = self.regrets[info]
            for a in range(len(kids)):
                regrets[a] += weight * (values[a] - value)
            return value
        sums = self.strategy_sums.setdefault(info, [0.0] * len(kids))
        for a, probability in enumerate(policy):
            sums[a] += weight * probability
        target = unit(splitmix64(key ^ self.node_of_history[round_.history_string()]))
        running, choice = 0.0, len(kids) - 1
        for a in range(len(kids) - 1):
            running += policy[a]
            if target < running:
                choice = a
                break
        return self._walk(kids[choice], traverser, key, weight)
