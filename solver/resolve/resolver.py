"""The subgame solver: vector-form CFR+ / DCFR over a street's betting tree and both players' hands.

The loop (:mod:`kernels_vector_cfr`): each iteration, each player in turn is the traverser; its
regrets become its current strategy per hand, both reach vectors flow down the tree, terminals are
valued against the opponent's reach with exact card removal, and the traverser's regrets grow by
each action's counterfactual value minus the node's. The average strategy converges to an
equilibrium of the subgame (two players, zero sum). :meth:`SubgameSolver.exploitability` measures
it with a vector best response over the same tree. Deterministic: no sampling.

>>> from solver.resolve.hands import river_hands
>>> from solver.resolve.tree import SubgameConfig, build_subgame_tree
>>> from abstraction.bets.bet_abstraction import StreetBets
>>> hands = river_hands("Ah Kd 7c 7s 2h")
>>> tree = build_subgame_tree(SubgameConfig(pot_chips=(20, 20), stacks=(180, 180), bets=StreetBets.parse("1p cap=1")))
>>> solver = SubgameSolver(tree, hands, np.ones((2, hands.n_hands)))  # uniform ranges
>>> uniform = solver.exploitability().nash_conv_pot_fraction  # no iteration yet: uniform play
>>> solver.run(10).iteration
10
>>> bool(solver.exploitability().nash_conv_pot_fraction < uniform / 10)
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.resolve import kernels_vector_cfr
from solver.resolve.hands import RiverHands, compatible_mass
from solver.resolve.tree import DECISION, SubgameTree

ALGORITHMS = ("cfr", "cfr+", "linear", "dcfr")


@dataclass(frozen=True)
class ResolveConfig:
    """CFR variant of the subgame solver (the meanings of :class:`solver.solve.cfr.SolverConfig`).

    ``"cfr"``: vanilla; ``"cfr+"``: regret matching+, average weighted by the iteration;
    ``"linear"``: regrets and average weighted by the iteration; ``"dcfr"``: discounted CFR with
    ``alpha``, ``beta``, ``gamma`` (Brown & Sandholm 2019, https://arxiv.org/abs/1809.04040).
    """

    algorithm: str = "dcfr"
    alpha: float = 1.5
    beta: float = 0.0
    gamma: float = 2.0

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {self.algorithm!r}: expected one of {list(ALGORITHMS)}")

    def kernel_parameters(self) -> tuple[bool, float, bool, float, float]:
        """``(regret_matching_plus, gamma, discount, alpha, beta)`` as the kernel takes them."""
        return {
            "cfr": (False, 0.0, False, 0.0, 0.0),
            "cfr+": (True, 1.0, False, 0.0, 0.0),
            "linear": (False, 1.0, True, 1.0, 1.0),
            "dcfr": (False, self.gamma, True, self.alpha, self.beta),
        }[self.algorithm]


@dataclass(frozen=True)
class SubgameExploitability:
    """Best-response values of each player (chips per deal, the ranges' joint weights normalised),
    their sum (NashConv, chips) and that sum as a fraction of the pot at the subgame's root."""

    best_response: tuple[float, float]
    nash_conv: float
    nash_conv_pot_fraction: float


class SubgameSolver:
    """Vector-form CFR over ``tree`` with both players holding ``hands``, from ``ranges`` (2, n).

    ``ranges[p, h]``: player ``p``'s weight on hand ``h`` (any scale, >= 0; card removal against the
    other range is exact). Tables: (n_nodes, n_hands) float64, row ``c`` for the action into node ``c``.
    """

    def __init__(self, tree: SubgameTree, hands: RiverHands, ranges: np.ndarray, config: ResolveConfig | None = None):
        if not isinstance(tree, SubgameTree) or not isinstance(hands, RiverHands):
            raise TypeError(f"need a SubgameTree and a RiverHands, got {type(tree).__name__}, {type(hands).__name__}")
        ranges = np.ascontiguousarray(ranges, dtype=np.float64)
        if ranges.shape != (2, hands.n_hands):
            raise ValueError(f"ranges must have shape (2, {hands.n_hands}) (player, hand), got {ranges.shape}")
        if not np.all(np.isfinite(ranges)) or np.any(ranges < 0) or np.any(ranges.sum(axis=1) <= 0):
            raise ValueError("ranges must be finite, non-negative, with positive weight for each player")
        self.tree, self.hands, self.ranges = tree, hands, ranges
        if self.joint_weight() <= 0:
            raise ValueError("the ranges hold no pair of hands without a shared card: nothing to solve")
        self.config = config if config is not None else ResolveConfig()
        shape = (tree.n_nodes, hands.n_hands)
        self.regrets = np.zeros(shape)
        self.strategy_sums = np.zeros(shape)
        self.iteration = 0
        self._strategy = np.zeros(shape)
        self._values = np.zeros(shape)
        self._reach = np.zeros((tree.n_nodes, 2, hands.n_hands))
        self._scratch = hands.scratch()

    def run(self, n_iterations: int) -> SubgameSolver:
        """Run ``n_iterations`` more iterations (each updates both players); returns ``self``."""
        if n_iterations < 0:
            raise ValueError(f"n_iterations must be >= 0, got {n_iterations}")
        kernels_vector_cfr._cfr_iterations(
            self.tree.kernel_arrays(),
            self.hands.layout,
            self.ranges,
            self.regrets,
            self.strategy_sums,
            self._strategy,
            self._reach,
            self._values,
            self._scratch,
            self.iteration,
            n_iterations,
            *self.config.kernel_parameters(),
        )
        self.iteration += n_iterations
        return self

    def average_strategy(self) -> np.ndarray:
        """(n_nodes, n_hands): at each decision, the probability of each child per hand (uniform where
        the strategy sums are zero); rows of non-decision children's parents only (row 0 is zero)."""
        return normalized_strategy(self.tree, self.strategy_sums)

    def values(self, strategy: np.ndarray, responder: int, best: bool) -> np.ndarray:
        """(n_hands,) counterfactual root values of ``responder`` against ``strategy`` (best response if ``best``).

        ``strategy``: (n_nodes, n_hands), each decision's children rows summing to 1 per hand (the
        form of :meth:`average_strategy`).
        """
        n = self.hands.n_hands
        if np.shape(strategy) != (self.tree.n_nodes, n):
            raise ValueError(
                f"strategy must have shape ({self.tree.n_nodes}, {n}) (node, hand), got {np.shape(strategy)}"
            )
        if responder not in (0, 1):
            raise ValueError(f"responder must be 0 or 1, got {responder!r}")
        out = np.zeros((self.tree.n_nodes, n))
        kernels_vector_cfr._response_values(
            self.tree.kernel_arrays(),
            self.hands.layout,
            self.ranges,
            np.ascontiguousarray(strategy, dtype=np.float64),
            responder,
            best,
            np.zeros((self.tree.n_nodes, n)),
            out,
            self.hands.scratch(),
        )
        return out[0]

    def joint_weight(self) -> float:
        """Sum over compatible hand pairs of the product of both ranges' weights (the normaliser)."""
        return float(self.ranges[0] @ compatible_mass(self.hands, self.ranges[1]))

    def expected_values(self, strategy: np.ndarray | None = None) -> tuple[float, float]:
        """Each player's value (chips per deal) when both play ``strategy`` (default: the average)."""
        strategy = self.average_strategy() if strategy is None else strategy
        weight = self.joint_weight()
        return tuple(float(self.ranges[p] @ self.values(strategy, p, best=False)) / weight for p in (0, 1))

    def exploitability(self, strategy: np.ndarray | None = None) -> SubgameExploitability:
        """Each player's best response to the other's ``strategy`` (default: the average strategy)."""
        strategy = self.average_strategy() if strategy is None else strategy
        weight = self.joint_weight()
        responses = tuple(float(self.ranges[p] @ self.values(strategy, p, best=True)) / weight for p in (0, 1))
        nash_conv = responses[0] + responses[1]
        return SubgameExploitability(responses, nash_conv, nash_conv / float(self.tree.pot_chips[0].sum()))


def normalized_strategy(tree: SubgameTree, sums: np.ndarray) -> np.ndarray:
    """Per decision node, ``sums`` rows of its children normalised per hand (uniform where they sum to 0)."""
    out = np.zeros_like(sums)
    for node in np.flatnonzero(tree.kind == DECISION):
        rows = slice(int(tree.child_start[node]), int(tree.child_start[node] + tree.n_children[node]))
        total = sums[rows].sum(axis=0)
        out[rows] = np.where(total > 0, sums[rows] / np.where(total > 0, total, 1.0), 1.0 / tree.n_children[node])
    return out
