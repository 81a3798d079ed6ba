"""The abstract game as flat arrays: betting tree (:class:`FlatTree`), chance (:class:`DealTable`), bundle.

The betting tree is one arena of nodes in breadth-first order: the children of a node are
contiguous (``child_start[n] .. child_start[n] + n_children[n] - 1``) and have larger indices than
their parent, so a forward sweep visits parents first and a reverse sweep children first. Nodes the
acting player cannot tell apart share an ``infoset_group``. An information set is
``(group, bucket)``; its regrets and strategy sums are the ``n_actions[group]`` entries of one flat
float64 table starting at ``row_offset[group] + bucket * n_actions[group]``.

Chance is a table of deals (Slumbot style): for each deal its probability, each player's bucket
on each street and player 0's share of the pot at showdown. Solvers walk only the betting tree,
once per deal (full traversal) or for one sampled deal (Monte Carlo).

>>> from abstraction.exact_games import build_game
>>> game = build_game("kuhn")
>>> game.tree.n_nodes, game.tree.n_infosets, game.tree.table_size, game.deals.n_deals
(9, 12, 24, 6)
>>> game.tree.validate()
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from game.actions import Action, ActionKind

DECISION = 0
"""``kind``: a player acts; ``player[n]`` is the actor."""
FOLD = 1
"""``kind``: terminal, ``player[n]`` folded; the other player wins what ``player[n]`` committed."""
SHOWDOWN = 2
"""``kind``: terminal, the pot (``committed[n, 0] + committed[n, 1]``) is shared by the deal's showdown."""
CHANCE = 3
"""``kind``: reserved for variant nodes decided by chance inside the betting (not used by Kuhn/Leduc)."""
KIND_NAMES = {DECISION: "decision", FOLD: "fold", SHOWDOWN: "showdown", CHANCE: "chance"}

_NODE_FIELDS = ("kind", "player", "street", "child_start", "n_children", "committed", "infoset_group",
                "action_kind", "action_amount")
_GROUP_FIELDS = ("n_actions", "row_offset", "n_buckets", "group_player", "group_street")


@dataclass(frozen=True, eq=False)
class FlatTree:
    """A two-player betting tree as numpy arrays over nodes ``n`` and information-set groups ``g``.

    Node arrays (length ``n_nodes``): ``kind`` int8 (:data:`DECISION`, :data:`FOLD`,
    :data:`SHOWDOWN`, :data:`CHANCE`); ``player`` int8 (actor of a decision, folder of a fold, -1
    otherwise); ``street`` int8; ``child_start``/``n_children`` int32; ``committed`` float64
    ``[n_nodes, 2]`` chips each player has put in (antes included); ``infoset_group`` int32 (-1 for
    terminals); ``action_kind``/``action_amount`` int8/int32, the :class:`~game.actions.Action` that
    leads into the node (kind -1 at the root). Group arrays (length ``n_groups``): ``n_actions``
    int32, ``row_offset`` int64, ``n_buckets`` int32, ``group_player``/``group_street`` int8.
    Call :meth:`validate` after building one by hand.
    """

    kind: np.ndarray
    player: np.ndarray
    street: np.ndarray
    child_start: np.ndarray
    n_children: np.ndarray
    committed: np.ndarray
    infoset_group: np.ndarray
    action_kind: np.ndarray
    action_amount: np.ndarray
    n_actions: np.ndarray
    row_offset: np.ndarray
    n_buckets: np.ndarray
    group_player: np.ndarray
    group_street: np.ndarray

    _DTYPES = {
        "kind": np.int8, "player": np.int8, "street": np.int8, "child_start": np.int32,
        "n_children": np.int32, "committed": np.float64, "infoset_group": np.int32,
        "action_kind": np.int8, "action_amount": np.int32, "n_actions": np.int32,
        "row_offset": np.int64, "n_buckets": np.int32, "group_player": np.int8, "group_street": np.int8,
    }

    def __post_init__(self) -> None:
        for name, dtype in self._DTYPES.items():
            array = np.ascontiguousarray(getattr(self, name), dtype=dtype)
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    @property
    def n_nodes(self) -> int:
        return len(self.kind)

    @property
    def n_groups(self) -> int:
        return len(self.n_actions)

    @property
    def n_infosets(self) -> int:
        """Information sets: ``sum(n_buckets)`` over groups."""
        return int(self.n_buckets.sum())

    @property
    def table_size(self) -> int:
        """Entries of one solver table (regrets or strategy sums): ``sum(n_buckets * n_actions)``."""
        return int((self.n_buckets.astype(np.int64) * self.n_actions).sum())

    @property
    def max_actions(self) -> int:
        return int(self.n_actions.max(initial=1))

    def table_bytes(self, n_tables: int = 3) -> int:
        """Memory in bytes of ``n_tables`` float64 solver tables, known before allocating them.

        CFR needs three (regrets, strategy sums, current strategy).

        >>> from abstraction.exact_games import build_game
        >>> build_game("leduc").tree.table_bytes()
        52416
        """
        return 8 * n_tables * self.table_size

    def action_label(self, node: int) -> str:
        """Text of the action leading into ``node`` (``''`` at the root), e.g. ``'R2'``."""
        if self.action_kind[node] < 0:
            return ""
        return str(Action(ActionKind(int(self.action_kind[node])), int(self.action_amount[node])))

    def history(self, node: int) -> str:
        """Action labels from the root to ``node``, ``/`` between streets (e.g. ``'R2C/K'``)."""
        parent = self.parent_array()
        labels = []
        while node > 0:
            up = int(parent[node])
            text = self.action_label(node)
            if self.street[node] != self.street[up]:
                text += "/"
            labels.append(text)
            node = up
        return "".join(reversed(labels))

    def parent_array(self) -> np.ndarray:
        """``parent[n]`` (-1 at the root)."""
        parent = np.full(self.n_nodes, -1, dtype=np.int64)
        for node in range(self.n_nodes):
            start = int(self.child_start[node])
            parent[start : start + int(self.n_children[node])] = node
        return parent

    def validate(self) -> None:
        """Check every invariant; raise ValueError naming the first broken one.

        >>> from abstraction.exact_games import build_game
        >>> arrays = build_game("kuhn").tree.to_arrays()
        >>> arrays["child_start"][0] = 42
        >>> FlatTree.from_arrays(arrays).validate()
        Traceback (most recent call last):
        ...
        ValueError: invariant 'children in range' broken: node 0 has children 42..43 but the tree has 9 nodes
        """

        def broken(name: str, detail: str) -> ValueError:
            return ValueError(f"invariant {name!r} broken: {detail}")

        n = self.n_nodes
        for name in _NODE_FIELDS:
            expected = (n, 2) if name == "committed" else (n,)
            if getattr(self, name).shape != expected:
                raise broken("node array shapes", f"{name} has shape {getattr(self, name).shape}, expected {expected}")
        for name in _GROUP_FIELDS:
            if getattr(self, name).shape != (self.n_groups,):
                raise broken("group array shapes",
                             f"{name} has shape {getattr(self, name).shape}, expected ({self.n_groups},)")
        if n == 0:
            raise broken("non-empty", "the tree has no nodes")
        unknown = sorted(set(self.kind.tolist()) - set(KIND_NAMES))
        if unknown:
            raise broken("known kinds", f"kinds {unknown} are not {sorted(KIND_NAMES)}")
        parents = np.full(n, -1, dtype=np.int64)
        for node in range(n):
            start, count = int(self.child_start[node]), int(self.n_children[node])
            inner = self.kind[node] in (DECISION, CHANCE)
            if inner and count < 1:
                raise broken("decisions have children", f"node {node} ({KIND_NAMES[int(self.kind[node])]}) has {count}")
            if not inner and count != 0:
                raise broken("terminals have no children", f"node {node} has {count} children")
            if count == 0:
                continue
            children = f"node {node} has children {start}..{start + count - 1}"
            if start + count > n:
                raise broken("children in range", f"{children} but the tree has {n} nodes")
            if start <= node:
                raise broken("children in range", f"{children}, not after it")
            if (parents[start : start + count] >= 0).any():
                raise broken("one parent per node", f"a child of node {node} in {start}..{start + count - 1} "
                             "already has a parent")
            parents[start : start + count] = node
        orphans = np.flatnonzero(parents[1:] < 0) + 1
        if len(orphans):
            raise broken("one parent per node", f"node {int(orphans[0])} has no parent")
        depth = np.zeros(n, dtype=np.int64)
        for node in range(1, n):
            parent = parents[node]
            depth[node] = depth[parent] + 1
            if depth[node] < depth[node - 1]:
                raise broken("breadth-first order", f"node {node} at depth {depth[node]} follows node {node - 1} "
                             f"at depth {depth[node - 1]}")
            if self.street[node] < self.street[parent]:
                raise broken("streets never decrease", f"node {node} is on street {self.street[node]}, "
                             f"its parent {parent} on {self.street[parent]}")
            if (self.committed[node] < self.committed[parent]).any():
                raise broken("commitments never decrease", f"node {node} has {self.committed[node].tolist()} chips "
                             f"committed, its parent {parent} {self.committed[parent].tolist()}")
        if (self.committed < 0).any():
            raise broken("commitments non-negative", f"node {int(np.flatnonzero((self.committed < 0).any(axis=1))[0])}")
        group_depth = np.full(self.n_groups, -1, dtype=np.int64)
        for node in range(n):
            group = int(self.infoset_group[node])
            if self.kind[node] != DECISION:
                if group != -1:
                    raise broken("only decisions have groups", f"node {node} ({KIND_NAMES[int(self.kind[node])]}) "
                                 f"has group {group}")
                if self.kind[node] == FOLD and self.player[node] not in (0, 1):
                    raise broken("fold names its folder", f"node {node} has player {self.player[node]}")
                continue
            if not 0 <= group < self.n_groups:
                raise broken("groups in range", f"node {node} has group {group}, the tree has {self.n_groups}")
            if self.player[node] not in (0, 1):
                raise broken("two players", f"node {node} has player {self.player[node]}")
            if self.n_actions[group] != self.n_children[node]:
                raise broken("group action counts agree", f"node {node} has {self.n_children[node]} children "
                             f"but its group {group} has {self.n_actions[group]} actions")
            if self.group_player[group] != self.player[node] or self.group_street[group] != self.street[node]:
                raise broken("group player and street agree", f"node {node} (player {self.player[node]}, street "
                             f"{self.street[node]}) in group {group} (player {self.group_player[group]}, street "
                             f"{self.group_street[group]})")
            if group_depth[group] not in (-1, depth[node]):
                raise broken("group nodes at one depth", f"group {group} has nodes at depths "
                             f"{group_depth[group]} and {depth[node]}")
            group_depth[group] = depth[node]
        unused = np.flatnonzero(group_depth < 0)
        if len(unused):
            raise broken("every group used", f"group {int(unused[0])} has no node")
        if (self.n_buckets < 1).any() or (self.n_actions < 1).any():
            raise broken("positive group sizes", "every group needs >= 1 bucket and >= 1 action")
        sizes = self.n_buckets.astype(np.int64) * self.n_actions
        expected_offsets = np.concatenate([[0], np.cumsum(sizes)])[: self.n_groups]
        if not np.array_equal(self.row_offset, expected_offsets):
            bad = int(np.flatnonzero(self.row_offset != expected_offsets)[0])
            raise broken("rows contiguous", f"group {bad} starts at row {self.row_offset[bad]}, "
                         f"expected {expected_offsets[bad]}")

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Every field as a plain numeric array (for HDF5); :meth:`from_arrays` inverts it."""
        return {name: np.array(getattr(self, name)) for name in (*_NODE_FIELDS, *_GROUP_FIELDS)}

    @classmethod
    def from_arrays(cls, arrays: dict[str, Any]) -> FlatTree:
        missing = [name for name in (*_NODE_FIELDS, *_GROUP_FIELDS) if name not in arrays]
        if missing:
            raise ValueError(f"tree arrays are missing {missing}")
        return cls(**{name: np.asarray(arrays[name]) for name in (*_NODE_FIELDS, *_GROUP_FIELDS)})

    def fingerprint(self) -> str:
        """sha256 (hex) over every array's name, dtype, shape and bytes."""
        digest = hashlib.sha256()
        for name, array in self.to_arrays().items():
            digest.update(f"{name}:{array.dtype.str}:{array.shape};".encode())
            digest.update(np.ascontiguousarray(array).tobytes())
        return digest.hexdigest()


@dataclass(frozen=True, eq=False)
class DealTable:
    """Every deal chance can make, or a sample of them, with what the solver needs per deal.

    ``probability`` float64 ``[n_deals]`` (sums to 1); ``bucket`` int32 ``[n_deals, 2, n_streets]``
    each player's bucket on each street; ``showdown_share`` float64 ``[n_deals]`` player 0's share
    of the pot at a showdown (1 win, 0.5 split, 0 loss); ``n_buckets`` int32 ``[n_streets]``.
    """

    probability: np.ndarray
    bucket: np.ndarray
    showdown_share: np.ndarray
    n_buckets: np.ndarray

    def __post_init__(self) -> None:
        for name, dtype in (("probability", np.float64), ("bucket", np.int32),
                            ("showdown_share", np.float64), ("n_buckets", np.int32)):
            array = np.ascontiguousarray(getattr(self, name), dtype=dtype)
            array.setflags(write=False)
            object.__setattr__(self, name, array)
        n_deals, n_streets = len(self.probability), len(self.n_buckets)
        if self.bucket.shape != (n_deals, 2, n_streets):
            raise ValueError(f"bucket has shape {self.bucket.shape}, expected {(n_deals, 2, n_streets)}")
        if self.showdown_share.shape != (n_deals,):
            raise ValueError(f"showdown_share has shape {self.showdown_share.shape}, expected {(n_deals,)}")
        if n_deals == 0 or (self.probability < 0).any() or abs(self.probability.sum() - 1.0) > 1e-9:
            raise ValueError(f"probabilities must be >= 0 and sum to 1, they sum to {self.probability.sum()!r}")
        if ((self.bucket < 0) | (self.bucket >= self.n_buckets)).any():
            raise ValueError(f"buckets must lie in 0..n_buckets-1 per street (n_buckets {self.n_buckets.tolist()})")
        if ((self.showdown_share < 0) | (self.showdown_share > 1)).any():
            raise ValueError("showdown shares must lie in [0, 1]")

    @property
    def n_deals(self) -> int:
        return len(self.probability)

    def cumulative_probability(self) -> np.ndarray:
        """Running sum of ``probability`` with the last entry exactly 1 (for sampling)."""
        cumulative = np.cumsum(self.probability)
        cumulative[-1] = 1.0
        return cumulative

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {f.name: np.array(getattr(self, f.name)) for f in fields(self)}


@dataclass(frozen=True, eq=False)
class SolverGame:
    """What a solver needs: the betting tree, the chance table and a JSON config to rebuild both.

    ``config`` is JSON-serialisable (stored in strategy files); for exact games
    ``abstraction.exact_games.build_game(**config)`` rebuilds the same game.
    """

    name: str
    tree: FlatTree
    deals: DealTable
    config: dict[str, Any]

    def __post_init__(self) -> None:
        self.tree.validate()
        streets = self.tree.group_street
        if len(streets) and streets.max() >= len(self.deals.n_buckets):
            raise ValueError(f"the tree has street {streets.max()} but the deal table only "
                             f"{len(self.deals.n_buckets)} streets")
        if not np.array_equal(self.tree.n_buckets, self.deals.n_buckets[streets]):
            raise ValueError("the tree's n_buckets per group disagree with the deal table's buckets per street")
