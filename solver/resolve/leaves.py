"""Depth-limited leaves: continuation values at the end of a turn subgame (Brown, Sandholm & Amos 2018).

A turn subgame (:func:`~solver.resolve.tree.build_subgame_tree` with ``final_street=False``) ends at
LEAF nodes, where both players have matched and the river comes. There the opponent of the
``searcher`` (the seat that re-solves) picks, per hand, one of ``k`` continuation strategies for
the rest of the hand, and the searcher plays its blueprint. :class:`LeafValues` holds what that is
worth: per leaf and choice a (C, C) matrix of the searcher's chips (whole hand, the units of the
subgame's terminals) between hand classes, averaged over all hand pairs of the two classes (pairs
sharing a card count 0) and over the river. The values are therefore linear in the opponent's
reach; within a class, hands are taken as alike (card removal at a leaf is averaged over the class,
not exact). With one class per hand (``hand_class = arange(n)``) and exact matrices a leaf is exact
(:mod:`tests.solver.test_depth_limited`). The matrices from a blueprint: :mod:`solver.resolve.continuation`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.resolve.hands import RiverHands, TurnHands
from solver.resolve.kernels_leaf import LeafArrays
from solver.resolve.tree import LEAF, RUNOUT, SHOWDOWN, SubgameTree


@dataclass(frozen=True, eq=False)
class LeafValues:
    """Continuation values of a depth-limited subgame's leaves.

    ``searcher``: the seat (0 or 1) whose continuation is fixed; ``hand_class``: (n_hands,) int,
    each hand's class in 0..C-1; ``matrices``: (n_leaves, k, C, C) float64, ``[leaf, c, i, j]`` the
    searcher's chips (whole hand) with a class-``i`` hand against a class-``j`` hand of the opponent
    playing continuation ``c``, averaged over hand pairs and rivers; leaf ``l`` is the tree's
    ``leaves[l]``.
    """

    searcher: int
    hand_class: np.ndarray
    matrices: np.ndarray

    def __post_init__(self) -> None:
        if self.searcher not in (0, 1):
            raise ValueError(f"searcher must be 0 or 1, got {self.searcher!r}")
        matrices = np.asarray(self.matrices)
        if matrices.ndim != 4 or matrices.shape[2] != matrices.shape[3] or 0 in matrices.shape[1:]:
            raise ValueError(f"matrices must have shape (n_leaves, k, C, C), k and C >= 1, got {matrices.shape}")
        if not np.all(np.isfinite(matrices)):
            raise ValueError("matrices must be finite (chips)")
        hand_class = np.asarray(self.hand_class)
        if hand_class.ndim != 1 or hand_class.min(initial=0) < 0 or hand_class.max(initial=0) >= matrices.shape[2]:
            raise ValueError(f"hand_class must be one class in 0..{matrices.shape[2] - 1} per hand")


def leaf_arrays(tree: SubgameTree, hands: RiverHands, leaves: LeafValues | None) -> LeafArrays:
    """The kernels' :class:`LeafArrays` for ``tree`` (empty for a tree without LEAF or RUNOUT nodes)."""
    node_leaf = np.full(tree.n_nodes, -1, dtype=np.int64)
    node_leaf[tree.leaves] = np.arange(len(tree.leaves))
    depth_limited = bool(np.any((tree.kind == LEAF) | (tree.kind == RUNOUT)))
    if depth_limited and not isinstance(hands, TurnHands):
        raise TypeError("a tree with LEAF or RUNOUT nodes needs TurnHands (a four-card board)")
    if np.any(tree.kind == SHOWDOWN) and isinstance(hands, TurnHands):
        raise TypeError("a tree with SHOWDOWN nodes needs RiverHands (a board of 5+ cards), not TurnHands")
    if len(tree.leaves) and leaves is None:
        raise ValueError(f"the tree has {len(tree.leaves)} LEAF nodes: give their LeafValues")
    if leaves is not None:
        if not isinstance(leaves, LeafValues):
            raise TypeError(f"leaves must be a LeafValues, got {type(leaves).__name__}")
        if leaves.matrices.shape[0] != len(tree.leaves) or len(leaves.hand_class) != hands.n_hands:
            raise ValueError(
                f"leaves hold {leaves.matrices.shape[0]} matrices and {len(leaves.hand_class)} hand classes; "
                f"the tree has {len(tree.leaves)} leaves and the hands number {hands.n_hands}"
            )
        searcher = leaves.searcher
        hand_class = np.ascontiguousarray(leaves.hand_class, dtype=np.int64)
        matrices = np.ascontiguousarray(leaves.matrices, dtype=np.float64)
    else:
        searcher, hand_class, matrices = 0, np.zeros(hands.n_hands, dtype=np.int64), np.zeros((0, 1, 1, 1))
    n_choices, n_classes = matrices.shape[1], matrices.shape[2]
    if isinstance(hands, TurnHands):
        rivers = (
            hands.river_order,
            hands.river_first,
            hands.river_second,
            hands.river_group_start,
            hands.river_n_groups,
        )
        per_pair = float(len(hands.river_cards) - 4)
    else:
        rivers = (
            np.zeros((0, 0), dtype=np.int64),
            np.zeros((0, 0), dtype=np.uint32),
            np.zeros((0, 0), dtype=np.uint32),
            np.zeros((0, 0), dtype=np.uint32),
            np.zeros(0, dtype=np.int64),
        )
        per_pair = 1.0
    return LeafArrays(
        node_leaf,
        searcher,
        hand_class,
        matrices,
        np.zeros((matrices.shape[0], n_choices, n_classes)),
        np.zeros((n_choices, n_classes)),
        np.zeros((n_choices, n_classes)),
        *rivers,
        per_pair,
    )
