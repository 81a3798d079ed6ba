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
from solver.resolve.bounty import bounty_arrays
from solver.resolve.hands import RiverHands, compatible_mass
from solver.resolve.kernels_lanes import aligned_zeros, padded
from solver.resolve.leaves import LeafValues, leaf_arrays
from solver.resolve.tree import DECISION, SubgameTree

ALGORITHMS = ("cfr", "cfr+", "linear", "dcfr")
TABLE_DTYPE = np.float32
"""The CFR tables' type: float32 halves the memory the sweeps move and doubles their SIMD width; the
best-response pass (:meth:`SubgameSolver.values`, :meth:`SubgameSolver.exploitability`) stays float64."""


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


@dataclass(frozen=True, eq=False)
class OpponentValues:
    """The safe re-solving gadget (Burch, Johanson & Bowling 2014, https://arxiv.org/abs/1303.4441):
    before the subgame, ``player`` (the opponent) chooses per hand between terminating, worth
    ``values[h]``, and entering the subgame. A re-solve that gives every hand at most its value
    (up to convergence) cannot be exploited more in this subgame than the strategy the values came
    from: with ``values`` the opponent's best-response values against our blueprint, re-solving is safe.

    ``values``: (n_hands,) chips per deal of the opponent's hand ``h``: what it wins or loses over the
    whole hand (each player's chips put in before the subgame count, as at the subgame's terminals),
    averaged over our range restricted to hands sharing no card with ``h`` (weights
    ``ranges[1 - player]``); the form of :meth:`SubgameSolver.hand_values`. ``-inf``: the hand always
    enters (the gadget then changes nothing).
    """

    player: int
    values: np.ndarray

    def __post_init__(self) -> None:
        if self.player not in (0, 1):
            raise ValueError(f"the gadget's player must be 0 or 1, got {self.player!r}")
        values = np.asarray(self.values, dtype=np.float64)
        if values.ndim != 1 or np.any(np.isnan(values)) or np.any(values == np.inf):
            raise ValueError("the gadget's values must be one number per hand, finite or -inf (always enter)")


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
    other range is exact). Tables: (n_nodes, n_hands) float32 (:data:`TABLE_DTYPE`), row ``c`` for the
    action into node ``c``.
    ``gadget``: safe re-solving (see :class:`OpponentValues`); the average strategy is then the
    subgame's part of the gadget game's, and :meth:`exploitability` still measures the subgame alone.
    ``leaves``: the continuation values of a depth-limited tree's LEAF nodes
    (:class:`~solver.resolve.leaves.LeafValues`; ``hands`` then a
    :class:`~solver.resolve.hands.TurnHands`); the opponent's choice of continuation is learnt with
    the subgame and best-responded to by :meth:`exploitability`. With
    :class:`~solver.resolve.bounty.BountyHands` the "hands" are Bounty's types (hand x hit bit) and
    folds and showdowns pay the bounty payoff (:mod:`solver.resolve.bounty`).
    """

    def __init__(
        self,
        tree: SubgameTree,
        hands: RiverHands,
        ranges: np.ndarray,
        config: ResolveConfig | None = None,
        gadget: OpponentValues | None = None,
        leaves: LeafValues | None = None,
    ):
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
        self.gadget = gadget
        # rows: terminate, enter (unused without a gadget)
        self.gadget_regrets = np.zeros((2, hands.n_hands), TABLE_DTYPE)
        self._gadget_values = np.zeros(hands.n_hands, TABLE_DTYPE)
        if gadget is not None:
            if not isinstance(gadget, OpponentValues):
                raise TypeError(f"gadget must be an OpponentValues, got {type(gadget).__name__}")
            if np.shape(gadget.values) != (hands.n_hands,):
                raise ValueError(
                    f"the gadget's values must have shape ({hands.n_hands},) (one per hand), got {np.shape(gadget.values)}"
                )
            # counterfactual, as the kernels' values: chips times our compatible reach (a hand no
            # hand of ours can face is worth 0 either way)
            ours = compatible_mass(hands, ranges[1 - gadget.player])
            with np.errstate(invalid="ignore"):
                counterfactual = np.where(ours > 0, np.asarray(gadget.values, dtype=np.float64) * ours, 0.0)
            self._gadget_values = counterfactual.astype(TABLE_DTYPE)
        # the kernels' tables: rows padded to whole vectors, each starting on a vector boundary
        shape = (tree.n_nodes, padded(hands.n_hands))
        self._regrets, self._strategy_sums = aligned_zeros(*shape, TABLE_DTYPE), aligned_zeros(*shape, TABLE_DTYPE)
        self.regrets = self._regrets[:, : hands.n_hands]
        self.strategy_sums = self._strategy_sums[:, : hands.n_hands]
        self.iteration = 0
        self._strategy, self._values = aligned_zeros(*shape, TABLE_DTYPE), aligned_zeros(*shape, TABLE_DTYPE)
        self._reach = aligned_zeros(2 * tree.n_nodes, shape[1], TABLE_DTYPE).reshape(tree.n_nodes, 2, shape[1])
        self._scratch = hands.scratch(TABLE_DTYPE)
        self._leaves = leaf_arrays(tree, hands, leaves)
        self._bounty = bounty_arrays(tree, hands)

    def run(self, n_iterations: int) -> SubgameSolver:
        """Run ``n_iterations`` more iterations (each updates both players); returns ``self``."""
        if n_iterations < 0:
            raise ValueError(f"n_iterations must be >= 0, got {n_iterations}")
        kernels_vector_cfr._cfr_iterations(
            self.tree.kernel_arrays(),
            self.hands.layout,
            self.ranges,
            self._regrets,
            self._strategy_sums,
            self._strategy,
            self._reach,
            self._values,
            self._scratch,
            self.iteration,
            n_iterations,
            *self.config.kernel_parameters(),
            -1 if self.gadget is None else self.gadget.player,
            self._gadget_values,
            self.gadget_regrets,
            self._leaves,
            self._bounty,
        )
        self.iteration += n_iterations
        return self

    def average_strategy(self) -> np.ndarray:
        """(n_nodes, n_hands): at each decision, the probability of each child per hand (uniform where
        the strategy sums are zero); rows of non-decision children's parents only (row 0 is zero). float64."""
        return normalized_strategy(self.tree, self.strategy_sums.astype(np.float64))

    def values(self, strategy: np.ndarray, responder: int, best: bool) -> np.ndarray:
        """(n_hands,) counterfactual root values of ``responder`` against ``strategy`` (best response if ``best``).

        ``strategy``: (n_nodes, n_hands), each decision's children rows summing to 1 per hand (the
        form of :meth:`average_strategy`).
        """
        return self._response(strategy, responder, best)[0][0]

    def _response(self, strategy: np.ndarray, responder: int, best: bool) -> tuple[np.ndarray, np.ndarray]:
        """``(values, reach)``, each (n_nodes, n_hands): ``responder``'s counterfactual values and the
        other player's reach at every node."""
        n = self.hands.n_hands
        if np.shape(strategy) != (self.tree.n_nodes, n):
            raise ValueError(
                f"strategy must have shape ({self.tree.n_nodes}, {n}) (node, hand), got {np.shape(strategy)}"
            )
        if responder not in (0, 1):
            raise ValueError(f"responder must be 0 or 1, got {responder!r}")
        out = np.zeros((self.tree.n_nodes, n))
        reach = np.zeros((self.tree.n_nodes, n))
        kernels_vector_cfr._response_values(
            self.tree.kernel_arrays(),
            self.hands.layout,
            self.ranges,
            np.ascontiguousarray(strategy, dtype=np.float64),
            responder,
            best,
            reach,
            out,
            self.hands.scratch(),
            self._leaves,
            self._bounty,
        )
        return out, reach

    def hand_values(self, strategy: np.ndarray, responder: int, best: bool, node: int = 0) -> np.ndarray:
        """(n_hands,) ``responder``'s counterfactual values at ``node`` (default the root: :meth:`values`)
        per unit of the other player's compatible reach there: chips per deal of each ``responder``
        hand (the units of :class:`OpponentValues`); 0 where no hand can face it."""
        if not 0 <= node < self.tree.n_nodes:
            raise ValueError(f"node must be in 0..{self.tree.n_nodes - 1}, got {node!r}")
        values, reach = self._response(strategy, responder, best)
        compatible = compatible_mass(self.hands, reach[node])
        return np.divide(values[node], compatible, out=np.zeros(self.hands.n_hands), where=compatible > 0)

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
