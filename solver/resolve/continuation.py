"""Leaf values of a depth-limited turn subgame from a blueprint (Brown, Sandholm & Amos 2018).

At each LEAF of a turn subgame the river comes and the blueprint plays it. The opponent of the
searcher picks one of ``k = 4`` continuation strategies, the searcher plays the blueprint:

- ``c = 0``: the blueprint;
- ``c = 1, 2, 3``: the blueprint biased toward fold, check/call, bet/raise: at each of the
  opponent's river decisions those actions' probabilities are multiplied by ``bias`` (5) and the
  row renormalised.

A leaf maps to the blueprint's abstract river node its turn history translates to (the caller's
job: the lookup bot's translation). From that node, :func:`river_tables` gives what each
continuation is worth per pair of river buckets and showdown outcome, in the abstract tree's chips;
scaled to the leaf's real pot (bets are pot fractions; the abstract stacks stay as they are), and
averaged by Monte Carlo over hand pairs of two hand classes and the river card
(:func:`kernels_leaf._leaf_matrices`), that gives the (C, C) matrices of
:class:`~solver.resolve.leaves.LeafValues`. A leaf whose history the blueprint cannot follow is
checked down (a showdown at the leaf's pot, for every continuation).

Hand classes: the turn hands ranked by their strength against a uniform opponent averaged over the
river (E[HS]), cut into ``n_classes`` classes of equal count. Buckets on the river: the card
abstraction's river bucketing (nearest river centroid to the hand's strength against a uniform
opponent), computed for all hands and rivers at once from :class:`~solver.resolve.hands.TurnHands`.

Approximations (documented, not hidden): hands of one class are alike at a leaf (their card removal
and their values averaged); the matrices are Monte Carlo estimates (``samples`` pairs per class
pair); the abstract river is played at the abstract tree's stacks scaled by the pot, not at the
real stacks.

The same blueprint gives the safe re-solving gadget its values (:func:`blueprint_opponent_values`):
each opponent hand's best response to the blueprint's own betting of the street being re-solved
(:func:`blueprint_street_tree`), on the turn with these leaves, on a final street to showdown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from abstraction.tree import CHANCE, DECISION, FOLD, FlatTree
from game.rules.actions import ActionKind
from solver.resolve import kernels_leaf
from solver.resolve.hands import RiverHands, TurnHands
from solver.resolve.leaves import LeafValues
from solver.resolve.resolver import SubgameSolver
from solver.resolve.tree import DECISION as SUB_DECISION
from solver.resolve.tree import FOLD as SUB_FOLD
from solver.resolve.tree import LEAF, RUNOUT, SubgameConfig, SubgameTree, subgame_tree_from_nodes
from solver.resolve.tree import SHOWDOWN as SUB_SHOWDOWN

TURN_ORDINAL = 2
"""The abstract tree's street number of the turn."""
N_CONTINUATIONS = 4
"""The blueprint, and the blueprint biased toward fold, check/call, bet/raise."""
_BIASED = (None, (ActionKind.FOLD,), (ActionKind.CHECK, ActionKind.CALL), (ActionKind.RAISE,))


@dataclass(frozen=True)
class ContinuationConfig:
    """How leaf matrices are estimated: ``n_classes`` hand classes, ``samples`` Monte Carlo hand
    pairs per class pair, the ``bias`` factor of the biased continuations, the ``seed``."""

    n_classes: int = 32
    samples: int = 32
    bias: float = 5.0
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("n_classes", "samples"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an int >= 1, got {value!r}")
        if not self.bias > 0:
            raise ValueError(f"bias must be > 0, got {self.bias!r}")


@dataclass(frozen=True, eq=False)
class RiverBlueprint:
    """What the leaves (and the safe gadgets' values) need of a blueprint: its abstract ``tree``, ``rows(group)`` the
    (n_buckets, n_actions) average strategy of an information-set group, and the card
    abstraction's ``river_centroids`` (increasing, one per river bucket)."""

    tree: FlatTree
    rows: Callable[[int], np.ndarray]
    river_centroids: np.ndarray


def river_buckets(hands: TurnHands, river_centroids: np.ndarray) -> np.ndarray:
    """(m, n) int64 river bucket of each turn hand on each river (-1 where it holds the card): the
    nearest of the increasing ``river_centroids`` to its strength against a uniform opponent, as
    the card abstraction buckets river hands (the nearer lower centroid on an exact midpoint)."""
    centroids = np.asarray(river_centroids, dtype=np.float64)
    strength = hands.river_hs
    right = np.searchsorted(centroids, np.nan_to_num(strength, nan=0.0))
    upper = np.minimum(right, len(centroids) - 1)
    lower = np.maximum(right - 1, 0)
    use_upper = (right == 0) | ((right < len(centroids)) & (centroids[upper] - strength < strength - centroids[lower]))
    buckets = np.where(use_upper, upper, lower)
    return np.where(np.isnan(strength), -1, buckets).astype(np.int64)


def hand_classes(hands: TurnHands, n_classes: int) -> np.ndarray:
    """(n,) int64 class of each turn hand: its rank by E[HS] over the rivers cut into ``n_classes``
    classes of equal count (``min(n_classes, n)`` classes)."""
    expected = np.nanmean(hands.river_hs, axis=0)
    rank = np.empty(hands.n_hands, dtype=np.int64)
    rank[np.argsort(expected, kind="stable")] = np.arange(hands.n_hands)
    return rank * min(n_classes, hands.n_hands) // hands.n_hands


def river_tables(blueprint: RiverBlueprint, root: int, searcher: int, n_buckets: int, bias: float = 5.0) -> np.ndarray:
    """(N_CONTINUATIONS, B, B, 3): the searcher's chips (whole hand, the abstract tree's) from
    abstract node ``root`` to the end of the hand, ``[c, searcher's bucket, opponent's bucket,
    outcome]`` (outcome 0 / 1 / 2: the searcher's hand loses / ties / wins the showdown), the
    searcher playing the blueprint and the opponent continuation ``c``."""
    return np.stack([_subtree_values(blueprint, root, searcher, n_buckets, kinds, bias) for kinds in _BIASED])


def _subtree_values(
    blueprint: RiverBlueprint, node: int, searcher: int, n_buckets: int, biased: tuple | None, bias: float
) -> np.ndarray:
    tree = blueprint.tree
    kind = int(tree.kind[node])
    own, other = (float(tree.committed[node, p]) for p in (searcher, 1 - searcher))
    if kind == FOLD:
        value = -own if int(tree.player[node]) == searcher else other
        return np.full((n_buckets, n_buckets, 3), value)
    if kind == CHANCE:
        raise ValueError(f"abstract node {node} is a chance node: the leaves model a river without chance")
    if kind != DECISION:  # a showdown
        return np.broadcast_to(np.array([-own, 0.5 * (other - own), other]), (n_buckets, n_buckets, 3)).copy()
    actor = int(tree.player[node])
    rows = np.asarray(blueprint.rows(int(tree.infoset_group[node])), dtype=np.float64)
    if rows.shape[0] != n_buckets:
        raise ValueError(f"abstract node {node} has {rows.shape[0]} buckets, the river has {n_buckets}")
    start = int(tree.child_start[node])
    children = range(start, start + int(tree.n_children[node]))
    if actor != searcher and biased is not None:
        boost = np.array([bias if int(tree.action_kind[child]) in biased else 1.0 for child in children])
        rows = rows * boost
        rows = rows / rows.sum(axis=1, keepdims=True)
    out = np.zeros((n_buckets, n_buckets, 3))
    for column, child in enumerate(children):
        values = _subtree_values(blueprint, child, searcher, n_buckets, biased, bias)
        weight = rows[:, column][:, None, None] if actor == searcher else rows[:, column][None, :, None]
        out += weight * values
    return out


def leaf_values(
    hands: TurnHands,
    tree: SubgameTree,
    searcher: int,
    river_roots: Sequence[int],
    blueprint: RiverBlueprint,
    config: ContinuationConfig | None = None,
    cache: dict | None = None,
) -> LeafValues:
    """The :class:`LeafValues` of ``tree``'s leaves (``tree.leaves``), leaf ``l`` continuing from
    abstract river node ``river_roots[l]`` (-1: the blueprint cannot follow; checked down).
    ``cache``: a dict keeping :func:`river_tables` per ``(root, searcher, bias)`` across calls (a
    blueprint's river subtrees are few)."""
    config = config if config is not None else ContinuationConfig()
    if len(river_roots) != len(tree.leaves):
        raise ValueError(
            f"river_roots must give one abstract node per leaf ({len(tree.leaves)}), got {len(river_roots)}"
        )
    n_buckets = len(blueprint.river_centroids)
    tables = np.empty((len(tree.leaves), N_CONTINUATIONS, n_buckets, n_buckets, 3))
    scale = np.empty(len(tree.leaves))
    check_down = np.broadcast_to(np.array([-1.0, 0.0, 1.0]), (N_CONTINUATIONS, n_buckets, n_buckets, 3))
    for index, (leaf, root) in enumerate(zip(tree.leaves.tolist(), river_roots, strict=True)):
        pot = float(tree.pot_chips[leaf].sum())
        if root < 0:
            tables[index], scale[index] = check_down, 0.5 * pot
            continue
        key = (int(root), searcher, config.bias)
        cached = cache.get(key) if cache is not None else None
        if cached is None:
            cached = river_tables(blueprint, int(root), searcher, n_buckets, config.bias)
            if cache is not None:
                cache[key] = cached
        tables[index] = cached
        scale[index] = pot / float(blueprint.tree.committed[root].sum())
    classes = hand_classes(hands, config.n_classes)
    return LeafValues(
        searcher,
        classes,
        class_matrices(hands, classes, river_buckets(hands, blueprint.river_centroids), tables, scale, config),
    )


def class_matrices(
    hands: TurnHands,
    classes: np.ndarray,
    buckets: np.ndarray,
    tables: np.ndarray,
    scale: np.ndarray,
    config: ContinuationConfig,
) -> np.ndarray:
    """(n_leaves, k, C, C) Monte Carlo class matrices of ``tables`` (n_leaves, k, B, B, 3) per
    unit ``scale`` (n_leaves,), for hands in ``classes`` with river ``buckets`` (m, n) (see
    :func:`kernels_leaf._leaf_matrices`)."""
    n_classes = int(classes.max()) + 1
    count = np.bincount(classes, minlength=n_classes)
    members = np.zeros((n_classes, int(count.max())), dtype=np.int64)
    for c in range(n_classes):
        members[c, : count[c]] = np.flatnonzero(classes == c)
    n_leaves, n_choices, n_buckets = tables.shape[:3]
    out = np.empty((n_classes, n_classes, n_leaves * n_choices))
    kernels_leaf._leaf_matrices(
        members,
        count.astype(np.int64),
        np.ascontiguousarray(hands.cards[:, 0], dtype=np.int64),
        np.ascontiguousarray(hands.cards[:, 1], dtype=np.int64),
        np.ascontiguousarray(hands.river_cards, dtype=np.int64),
        np.ascontiguousarray(buckets, dtype=np.int64),
        np.ascontiguousarray(hands.river_strength, dtype=np.int64),
        np.ascontiguousarray(tables.transpose(2, 3, 4, 0, 1).reshape(n_buckets, n_buckets, 3, -1), dtype=np.float64),
        np.ascontiguousarray(np.repeat(scale, n_choices), dtype=np.float64),
        config.samples,
        config.seed,
        out,
    )
    return np.ascontiguousarray(out.reshape(n_classes, n_classes, n_leaves, n_choices).transpose(2, 3, 0, 1))


def blueprint_street_tree(blueprint: RiverBlueprint, root: int, config: SubgameConfig) -> tuple[SubgameTree, list[int]]:
    """The blueprint's own betting of one street from abstract decision ``root`` as a subgame tree
    for ``config``, and the abstract node of each of its nodes.

    A fold stays a FOLD, a decision of the same street a DECISION. What ends the street becomes,
    below a final street (``config.final_street`` False: the turn, depth-limited), a LEAF at a next
    street's decision and a RUNOUT at a showdown (an all-in before the river); on a final street a
    SHOWDOWN (River of Blood's run-card chance node included: the real board has no more runs).
    Chips are the abstract tree's scaled by the real pot at the street's start (``config.pot_chips``)
    over the abstract one. ``ValueError`` if ``root`` is not a decision (on the turn, below a final
    street) or a chance node is met inside a depth-limited street.
    """
    tree = blueprint.tree
    street = int(tree.street[root])
    if int(tree.kind[root]) != DECISION or not (config.final_street or street == TURN_ORDINAL):
        raise ValueError(f"abstract node {root} is not a decision on the turn or a final street")
    scale = sum(config.pot_chips) / float(tree.committed[root].sum())
    abstract, kinds, players, child_start, n_children, actions = (
        [root],
        [DECISION],
        [int(tree.player[root])],
        [0],
        [0],
        ["root"],
    )
    node = 0
    while node < len(abstract):
        here = abstract[node]
        if kinds[node] == DECISION:
            start, count = int(tree.child_start[here]), int(tree.n_children[here])
            child_start[node], n_children[node] = len(abstract), count
            for child in range(start, start + count):
                kind = int(tree.kind[child])
                if kind == FOLD:
                    sub_kind, player = SUB_FOLD, int(tree.player[child])
                elif kind == DECISION and int(tree.street[child]) == street:
                    sub_kind, player = SUB_DECISION, int(tree.player[child])
                elif config.final_street:
                    sub_kind, player = SUB_SHOWDOWN, -1
                elif kind == CHANCE:
                    raise ValueError(f"abstract node {child} is a chance node: the turn subgame has none")
                else:
                    sub_kind, player = (LEAF if kind == DECISION else RUNOUT), -1
                abstract.append(child)
                kinds.append(sub_kind)
                players.append(player)
                child_start.append(0)
                n_children.append(0)
                actions.append(ActionKind(int(tree.action_kind[child])).name.lower())
        node += 1
    pot_chips = tree.committed[abstract] * scale
    return subgame_tree_from_nodes(config, kinds, players, child_start, n_children, pot_chips, actions), abstract


def blueprint_opponent_values(
    hands: RiverHands,
    ranges: np.ndarray,
    searcher: int,
    root: int,
    config: SubgameConfig,
    blueprint: RiverBlueprint,
    buckets: np.ndarray,
    continuation: ContinuationConfig | None = None,
    cache: dict | None = None,
    best: bool = True,
) -> np.ndarray:
    """(n_hands,) what each opponent hand gets at the street's start (chips per deal, the form of
    :class:`~solver.resolve.resolver.OpponentValues`) by best-responding to the searcher's blueprint
    (``best=False``: by playing the blueprint too): the blueprint's rows (``buckets``: (n_hands,) each
    hand's bucket on this street) on :func:`blueprint_street_tree`.
    On a final street the betting ends at showdowns; on the turn (``hands`` a
    :class:`~solver.resolve.hands.TurnHands`) each leaf then plays the river against the opponent's
    best of the continuations (the leaf model of :func:`leaf_values`, so the values are those the
    re-solve's own leaves give)."""
    tree, abstract = blueprint_street_tree(blueprint, root, config)
    strategy = np.zeros((tree.n_nodes, hands.n_hands))
    for node in np.flatnonzero(tree.kind == SUB_DECISION):
        rows = np.asarray(blueprint.rows(int(blueprint.tree.infoset_group[abstract[node]])), dtype=np.float64)
        for column, child in enumerate(tree.children(int(node))):
            strategy[child] = rows[buckets, column]
    leaves = None
    if not config.final_street:
        roots = [abstract[leaf] for leaf in tree.leaves.tolist()]
        leaves = leaf_values(hands, tree, searcher, roots, blueprint, continuation, cache)
    solver = SubgameSolver(tree, hands, ranges, leaves=leaves)
    return solver.hand_values(strategy, 1 - searcher, best=best)
