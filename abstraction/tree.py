"""The abstract game as flat arrays: betting tree (:class:`FlatTree`), chance (:class:`DealTable`), bundle.

The betting tree is one arena of nodes in breadth-first order: the children of a node are
contiguous (``child_start[n] .. child_start[n] + n_children[n] - 1``) and have larger indices than
their parent, so a forward sweep visits parents first and a reverse sweep children first. It holds
2..6 players. Nodes the acting player cannot tell apart share an ``infoset_group``. An information
set is ``(group, bucket)``; its regrets and strategy sums are the ``n_actions[group]`` entries of
one flat table starting at ``row_offset[group] + bucket * n_actions[group]``, and the bucket is the
deal's bucket of the actor in the group's *slot* (``group_slot``: a street, or a street seen with
three hole cards in the Auction, or a River of Blood run street).

Chance is a deal: everything chance decides in one hand (cards, swaps, bounty ranks, run cards,
third cards), reduced to what the solver needs: each player's bucket in each slot, which child each
chance node inside the betting takes (River of Blood: is the next card red?), and for each outcome
*context* a probability vector over its outcomes (e.g. seat 0 wins / split / seat 1 wins the
showdown on five board cards). A terminal's payoffs are stored per outcome of its context in
``terminal_values``, computed when the tree is built from the rules' own payoff code, so a variant's
payoff rule (Bounty's formula and rounding, three-card and run-board showdowns, N-player splits)
costs the solver one weighted row lookup. Exact games list every deal in a :class:`DealTable`;
full-size games draw fresh deals in numba, a batch at a time, into the same arrays.

>>> from abstraction.exact.exact_games import build_game
>>> game = build_game("kuhn")
>>> game.tree.n_nodes, game.tree.n_infosets, game.tree.table_size, game.deals.n_deals
(9, 12, 24, 6)
>>> game.tree.validate()
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields
from typing import Any, ClassVar, NamedTuple, Protocol

import numpy as np

from game.rules.actions import Action, ActionKind

DECISION = 0
"""``kind``: a player acts; ``player[n]`` is the actor."""
FOLD = 1
"""``kind``: terminal after a fold that leaves one player (heads-up: ``player[n]`` is the folder)."""
SHOWDOWN = 2
"""``kind``: terminal where two or more players share the pot by the deal's outcome of ``context[n]``."""
CHANCE = 3
"""``kind``: chance inside the betting; the deal's ``chance[d, context[n]]`` names the child taken."""
KIND_NAMES = {DECISION: "decision", FOLD: "fold", SHOWDOWN: "showdown", CHANCE: "chance"}
CHANCE_ACTION = -2
"""``action_kind`` of a chance node's child (``action_amount`` is the outcome index)."""
MAX_PLAYERS = 6

_NODE_FIELDS = (
    "kind",
    "player",
    "street",
    "child_start",
    "n_children",
    "committed",
    "infoset_group",
    "action_kind",
    "action_amount",
    "context",
    "value_row",
)
_GROUP_FIELDS = ("n_actions", "row_offset", "n_buckets", "group_player", "group_street", "group_slot")
_GAME_FIELDS = ("terminal_values", "context_size", "chance_size")


def _exclusive_cumsum(sizes: np.ndarray) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)])[: len(sizes)].astype(np.int64)


def _freeze_arrays(record: Any) -> None:
    """Replace each field of a frozen dataclass named in its ``_DTYPES`` by a read-only contiguous
    array of that dtype."""
    for name, dtype in record._DTYPES.items():
        array = np.ascontiguousarray(getattr(record, name), dtype=dtype)
        array.setflags(write=False)
        object.__setattr__(record, name, array)


class OutcomeColumns:
    """The columns of a deal's ``weight`` row, from ``context_size`` (int32 ``[n_contexts]``, the
    outcomes of each context): shared by trees and the deal sources that fill rows for them."""

    context_size: np.ndarray

    @property
    def context_offset(self) -> np.ndarray:
        """First column of each context in a deal's ``weight`` row (int64 ``[n_contexts]``)."""
        return _exclusive_cumsum(self.context_size)

    @property
    def weight_columns(self) -> int:
        """Columns of a deal's ``weight`` row: ``sum(context_size)``."""
        return int(self.context_size.sum())


class KernelTree(NamedTuple):
    """The arrays of a `FlatTree` that the numba kernels read, passed as one argument.

    Numba types a NamedTuple of arrays and compiles each field read to a plain load, so a kernel
    takes ``tree`` where it took these fifteen arrays. Fields as in `FlatTree`, plus
    ``context_bounds`` int64 (n_contexts + 1,): ``[0, cumsum(context_size)]``, context ``c``'s
    outcome columns are ``context_bounds[c]:context_bounds[c + 1]``.
    """

    kind: np.ndarray
    player: np.ndarray
    street: np.ndarray
    child_start: np.ndarray
    n_children: np.ndarray
    infoset_group: np.ndarray
    context: np.ndarray
    value_row: np.ndarray
    n_actions: np.ndarray
    row_offset: np.ndarray
    n_buckets: np.ndarray
    group_player: np.ndarray
    group_slot: np.ndarray
    terminal_values: np.ndarray
    context_bounds: np.ndarray


@dataclass(frozen=True, eq=False)
class FlatTree(OutcomeColumns):
    """A betting tree of 2..6 players as numpy arrays over nodes ``n``, groups ``g`` and payoff rows.

    Node arrays (length ``n_nodes``): ``kind`` int8 (:data:`DECISION`, :data:`FOLD`,
    :data:`SHOWDOWN`, :data:`CHANCE`); ``player`` int8 (actor of a decision; the folder of a
    heads-up fold; -1 otherwise); ``street`` int8 (0 preflop ... 3 river, 4.. run streets);
    ``child_start``/``n_children`` int32; ``committed`` float64 ``[n_nodes, n_players]`` chips each
    player has put in (antes included); ``infoset_group`` int32 (-1 except at decisions);
    ``action_kind``/``action_amount`` int8/int32, the :class:`~game.rules.actions.Action` leading into the
    node (-1 at the root, :data:`CHANCE_ACTION` and the outcome index below a chance node);
    ``context`` int32: a chance node's chance slot, a terminal's outcome context (-1: its payoff
    does not depend on the cards), -1 at decisions; ``value_row`` int64: a terminal's first row of
    ``terminal_values`` (-1 elsewhere).

    Group arrays (length ``n_groups``): ``n_actions`` int32, ``row_offset`` int64, ``n_buckets``
    int32, ``group_player``/``group_street``/``group_slot`` int8 (the deal's bucket slot).

    Payoffs: ``terminal_values`` float64 ``[n_rows, n_players]``, NET chips each player wins at a
    terminal under each outcome of its context: a terminal with context ``c`` owns
    ``context_size[c]`` rows from ``value_row``, one with context -1 owns one row. Its value on a deal
    is the deal's outcome probabilities of ``c`` (``DealTable.weight[d, context_offset[c]:]``) times
    those rows. ``context_size`` int32 ``[n_contexts]``; ``chance_size`` int32 ``[n_chance_slots]``
    (children of the chance nodes of each slot). Call :meth:`validate` after building one by hand.
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
    context: np.ndarray
    value_row: np.ndarray
    n_actions: np.ndarray
    row_offset: np.ndarray
    n_buckets: np.ndarray
    group_player: np.ndarray
    group_street: np.ndarray
    group_slot: np.ndarray
    terminal_values: np.ndarray
    context_size: np.ndarray
    chance_size: np.ndarray

    _DTYPES: ClassVar[dict[str, type]] = {
        "kind": np.int8,
        "player": np.int8,
        "street": np.int8,
        "child_start": np.int32,
        "n_children": np.int32,
        "committed": np.float64,
        "infoset_group": np.int32,
        "action_kind": np.int8,
        "action_amount": np.int32,
        "context": np.int32,
        "value_row": np.int64,
        "n_actions": np.int32,
        "row_offset": np.int64,
        "n_buckets": np.int32,
        "group_player": np.int8,
        "group_street": np.int8,
        "group_slot": np.int8,
        "terminal_values": np.float64,
        "context_size": np.int32,
        "chance_size": np.int32,
    }

    def __post_init__(self) -> None:
        for name in ("committed", "terminal_values"):
            if np.ndim(getattr(self, name)) == 1 and np.size(getattr(self, name)) == 0:
                object.__setattr__(self, name, np.zeros((0, 2)))
        _freeze_arrays(self)

    @classmethod
    def without_chance(
        cls,
        *,
        kind: Any,
        player: Any,
        street: Any,
        child_start: Any,
        n_children: Any,
        committed: Any,
        action_kind: Any,
        action_amount: Any,
        context: Any,
        value_row: Any,
        terminal_values: Any,
        context_size: Any,
        buckets_per_street: Any,
    ) -> FlatTree:
        """The validated tree of a game with public betting and no chance node inside it.

        Every decision node is its own information-set group (groups in node order) and buckets in
        its street's slot, with ``buckets_per_street[street]`` buckets. Node arrays as in the class
        (any array-likes); ``terminal_values`` the payoff rows, ``n_players`` (the width of
        ``committed``) chips each.
        """
        kind = np.asarray(kind, dtype=np.int8)
        player = np.asarray(player, dtype=np.int8)
        street = np.asarray(street, dtype=np.int8)
        n_children = np.asarray(n_children, dtype=np.int32)
        committed = np.asarray(committed, dtype=np.float64)
        decisions = np.flatnonzero(kind == DECISION)
        group = np.full(len(kind), -1, dtype=np.int32)
        group[decisions] = np.arange(len(decisions), dtype=np.int32)
        n_actions = n_children[decisions]
        group_street = street[decisions]
        n_buckets = np.asarray(buckets_per_street, dtype=np.int32)[group_street]
        tree = cls(
            kind=kind,
            player=player,
            street=street,
            child_start=child_start,
            n_children=n_children,
            committed=committed,
            infoset_group=group,
            action_kind=action_kind,
            action_amount=action_amount,
            context=context,
            value_row=value_row,
            n_actions=n_actions,
            row_offset=_exclusive_cumsum(n_buckets.astype(np.int64) * n_actions),
            n_buckets=n_buckets,
            group_player=player[decisions],
            group_street=group_street,
            group_slot=group_street,
            terminal_values=np.asarray(terminal_values, dtype=np.float64).reshape(-1, committed.shape[1]),
            context_size=context_size,
            chance_size=np.zeros(0, dtype=np.int32),
        )
        tree.validate()
        return tree

    @property
    def n_nodes(self) -> int:
        return len(self.kind)

    @property
    def n_players(self) -> int:
        return int(self.committed.shape[1]) if self.committed.ndim == 2 else 0

    @property
    def n_groups(self) -> int:
        return len(self.n_actions)

    @property
    def n_slots(self) -> int:
        """Bucket slots the groups use: ``max(group_slot) + 1``."""
        return int(self.group_slot.max(initial=-1)) + 1

    @property
    def n_contexts(self) -> int:
        return len(self.context_size)

    @property
    def n_chance_slots(self) -> int:
        return len(self.chance_size)

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

    @classmethod
    def array_bytes(
        cls, n_nodes: int, n_groups: int, n_rows: int, n_players: int, n_contexts: int, n_chance_slots: int
    ) -> int:
        """Bytes of the arrays (:meth:`to_arrays`) of a tree of these counts, known before building it:
        node fields per node (``committed``: one float64 per player), group fields per group, payoff
        rows of ``n_players`` float64, one int32 per context and per chance slot.

        >>> from abstraction.exact.exact_games import build_game
        >>> tree = build_game("kuhn").tree
        >>> counts = (tree.n_nodes, tree.n_groups, len(tree.terminal_values), 2, len(tree.context_size), 0)
        >>> FlatTree.array_bytes(*counts) == sum(array.nbytes for array in tree.to_arrays().values())
        True
        """
        itemsize = {name: np.dtype(dtype).itemsize for name, dtype in cls._DTYPES.items()}
        per_node = sum(itemsize[name] for name in _NODE_FIELDS) + itemsize["committed"] * (n_players - 1)
        per_group = sum(itemsize[name] for name in _GROUP_FIELDS)
        return (
            n_nodes * per_node
            + n_groups * per_group
            + n_rows * n_players * itemsize["terminal_values"]
            + n_contexts * itemsize["context_size"]
            + n_chance_slots * itemsize["chance_size"]
        )

    def table_bytes(self, n_tables: int = 2, itemsize: int = 4) -> int:
        """Memory in bytes of ``n_tables`` solver tables of ``itemsize`` bytes per entry.

        MCCFR keeps two float32 tables (regrets, strategy sums): 8 bytes per information-set action;
        full-traversal CFR keeps three float64 tables (``n_tables=3, itemsize=8``).

        >>> from abstraction.exact.exact_games import build_game
        >>> build_game("leduc").tree.table_bytes(3, 8)
        52416
        """
        return itemsize * n_tables * self.table_size

    def action_label(self, node: int) -> str:
        """Text of the action leading into ``node`` (``''`` at the root), e.g. ``'R2'``; ``'~1'`` below chance."""
        if self.action_kind[node] == CHANCE_ACTION:
            return f"~{int(self.action_amount[node])}"
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

    def kernel_tree(self) -> KernelTree:
        """The arrays the numba kernels read, as one `KernelTree` argument."""
        bounds = np.concatenate([[0], np.cumsum(self.context_size, dtype=np.int64)]).astype(np.int64)
        return KernelTree(
            self.kind,
            self.player,
            self.street,
            self.child_start,
            self.n_children,
            self.infoset_group,
            self.context,
            self.value_row,
            self.n_actions,
            self.row_offset,
            self.n_buckets,
            self.group_player,
            self.group_slot,
            self.terminal_values,
            bounds,
        )

    def parent_array(self) -> np.ndarray:
        """``parent[n]`` (-1 at the root)."""
        parent = np.full(self.n_nodes, -1, dtype=np.int64)
        for node in range(self.n_nodes):
            start = int(self.child_start[node])
            parent[start : start + int(self.n_children[node])] = node
        return parent

    def validate(self) -> None:
        """Check every invariant; raise ValueError naming the first broken one.

        >>> from abstraction.exact.exact_games import build_game
        >>> arrays = build_game("kuhn").tree.to_arrays()
        >>> arrays["child_start"][0] = 42
        >>> FlatTree.from_arrays(arrays).validate()
        Traceback (most recent call last):
        ...
        ValueError: invariant 'children in range' broken: node 0 has children 42..43 but the tree has 9 nodes
        """
        _validate_tree(self)

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Every field as a plain numeric array (for HDF5); :meth:`from_arrays` inverts it."""
        return {name: np.array(getattr(self, name)) for name in (*_NODE_FIELDS, *_GROUP_FIELDS, *_GAME_FIELDS)}

    @classmethod
    def from_arrays(cls, arrays: dict[str, Any]) -> FlatTree:
        missing = [name for name in (*_NODE_FIELDS, *_GROUP_FIELDS, *_GAME_FIELDS) if name not in arrays]
        if missing:
            raise ValueError(f"tree arrays are missing {missing}")
        return cls(**{name: np.asarray(arrays[name]) for name in (*_NODE_FIELDS, *_GROUP_FIELDS, *_GAME_FIELDS)})

    def fingerprint(self) -> str:
        """sha256 (hex) over every array's name, dtype, shape and bytes."""
        digest = hashlib.sha256()
        for name, array in self.to_arrays().items():
            digest.update(f"{name}:{array.dtype.str}:{array.shape};".encode())
            digest.update(np.ascontiguousarray(array).tobytes())
        return digest.hexdigest()


def _broken(name: str, detail: str) -> ValueError:
    return ValueError(f"invariant {name!r} broken: {detail}")


def _validate_tree(tree: FlatTree) -> None:
    """The invariants of :meth:`FlatTree.validate`, in the order they are checked."""
    _validate_shapes(tree)
    depth = _validate_order(tree, _validate_children(tree))
    _validate_chance_and_payoffs(tree)
    _validate_groups(tree, depth)


def _validate_shapes(tree: FlatTree) -> None:
    """2..6 players, array shapes that agree, a node, known kinds."""
    n = tree.n_nodes
    n_players = tree.n_players
    if tree.committed.ndim != 2 or not 2 <= n_players <= MAX_PLAYERS:
        raise _broken(
            "2..6 players", f"committed has shape {tree.committed.shape}, expected (n_nodes, 2..{MAX_PLAYERS})"
        )
    for name in _NODE_FIELDS:
        expected = (n, n_players) if name == "committed" else (n,)
        if getattr(tree, name).shape != expected:
            raise _broken("node array shapes", f"{name} has shape {getattr(tree, name).shape}, expected {expected}")
    for name in _GROUP_FIELDS:
        if getattr(tree, name).shape != (tree.n_groups,):
            raise _broken(
                "group array shapes", f"{name} has shape {getattr(tree, name).shape}, expected ({tree.n_groups},)"
            )
    if tree.terminal_values.ndim != 2 or tree.terminal_values.shape[1] != n_players:
        raise _broken(
            "payoff rows", f"terminal_values has shape {tree.terminal_values.shape}, expected (rows, {n_players})"
        )
    if n == 0:
        raise _broken("non-empty", "the tree has no nodes")
    unknown = sorted(set(tree.kind.tolist()) - set(KIND_NAMES))
    if unknown:
        raise _broken("known kinds", f"kinds {unknown} are not {sorted(KIND_NAMES)}")


def _validate_children(tree: FlatTree) -> np.ndarray:
    """Inner nodes have children after them, terminals none, every node but the root one parent;
    returns ``parent`` int64 ``[n_nodes]`` (-1 at the root)."""
    n = tree.n_nodes
    parents = np.full(n, -1, dtype=np.int64)
    for node in range(n):
        start, count = int(tree.child_start[node]), int(tree.n_children[node])
        inner = tree.kind[node] in (DECISION, CHANCE)
        if inner and count < 1:
            raise _broken("decisions have children", f"node {node} ({KIND_NAMES[int(tree.kind[node])]}) has {count}")
        if not inner and count != 0:
            raise _broken("terminals have no children", f"node {node} has {count} children")
        if count == 0:
            continue
        children = f"node {node} has children {start}..{start + count - 1}"
        if start + count > n:
            raise _broken("children in range", f"{children} but the tree has {n} nodes")
        if start <= node:
            raise _broken("children in range", f"{children}, not after it")
        if (parents[start : start + count] >= 0).any():
            raise _broken(
                "one parent per node", f"a child of node {node} in {start}..{start + count - 1} already has a parent"
            )
        parents[start : start + count] = node
    orphans = np.flatnonzero(parents[1:] < 0) + 1
    if len(orphans):
        raise _broken("one parent per node", f"node {int(orphans[0])} has no parent")
    return parents


def _validate_order(tree: FlatTree, parents: np.ndarray) -> np.ndarray:
    """Breadth-first order; streets and commitments never decrease down the tree, commitments are
    non-negative; returns each node's ``depth`` int64 ``[n_nodes]``."""
    depth = np.zeros(tree.n_nodes, dtype=np.int64)
    for node in range(1, tree.n_nodes):
        parent = parents[node]
        depth[node] = depth[parent] + 1
        if depth[node] < depth[node - 1]:
            raise _broken(
                "breadth-first order",
                f"node {node} at depth {depth[node]} follows node {node - 1} at depth {depth[node - 1]}",
            )
        if tree.street[node] < tree.street[parent]:
            raise _broken(
                "streets never decrease",
                f"node {node} is on street {tree.street[node]}, its parent {parent} on {tree.street[parent]}",
            )
        if (tree.committed[node] < tree.committed[parent]).any():
            raise _broken(
                "commitments never decrease",
                f"node {node} has {tree.committed[node].tolist()} chips "
                f"committed, its parent {parent} {tree.committed[parent].tolist()}",
            )
    if (tree.committed < 0).any():
        raise _broken("commitments non-negative", f"node {int(np.flatnonzero((tree.committed < 0).any(axis=1))[0])}")
    return depth


def _validate_groups(tree: FlatTree, depth: np.ndarray) -> None:
    """Each decision is in a group whose actor, street and action count it shares, at one depth;
    every group is used and has positive sizes; group rows are contiguous."""
    group_depth = np.full(tree.n_groups, -1, dtype=np.int64)
    for node in range(tree.n_nodes):
        group = int(tree.infoset_group[node])
        if tree.kind[node] != DECISION:
            if group != -1:
                raise _broken(
                    "only decisions have groups", f"node {node} ({KIND_NAMES[int(tree.kind[node])]}) has group {group}"
                )
            continue
        if not 0 <= group < tree.n_groups:
            raise _broken("groups in range", f"node {node} has group {group}, the tree has {tree.n_groups}")
        if not 0 <= tree.player[node] < tree.n_players:
            raise _broken("actors are players", f"node {node} has player {tree.player[node]} of {tree.n_players}")
        if tree.n_actions[group] != tree.n_children[node]:
            raise _broken(
                "group action counts agree",
                f"node {node} has {tree.n_children[node]} children "
                f"but its group {group} has {tree.n_actions[group]} actions",
            )
        if tree.group_player[group] != tree.player[node] or tree.group_street[group] != tree.street[node]:
            raise _broken(
                "group player and street agree",
                f"node {node} (player {tree.player[node]}, street "
                f"{tree.street[node]}) in group {group} (player {tree.group_player[group]}, street "
                f"{tree.group_street[group]})",
            )
        if group_depth[group] not in (-1, depth[node]):
            raise _broken(
                "group nodes at one depth", f"group {group} has nodes at depths {group_depth[group]} and {depth[node]}"
            )
        group_depth[group] = depth[node]
    unused = np.flatnonzero(group_depth < 0)
    if len(unused):
        raise _broken("every group used", f"group {int(unused[0])} has no node")
    if (tree.n_buckets < 1).any() or (tree.n_actions < 1).any() or (tree.group_slot < 0).any():
        raise _broken("positive group sizes", "every group needs >= 1 bucket, >= 1 action and a slot >= 0")
    sizes = tree.n_buckets.astype(np.int64) * tree.n_actions
    expected_offsets = _exclusive_cumsum(sizes)
    if not np.array_equal(tree.row_offset, expected_offsets):
        bad = int(np.flatnonzero(tree.row_offset != expected_offsets)[0])
        raise _broken(
            "rows contiguous", f"group {bad} starts at row {tree.row_offset[bad]}, expected {expected_offsets[bad]}"
        )


def _validate_chance_and_payoffs(tree: FlatTree) -> None:
    """Chance nodes name a slot of the right size; terminals own payoff rows of their context."""
    if (tree.context_size < 1).any() or (tree.chance_size < 2).any():
        raise _broken("context and chance sizes", "every context needs >= 1 outcome, every chance slot >= 2 children")
    n_rows = len(tree.terminal_values)
    for node in range(tree.n_nodes):
        kind, context, row = int(tree.kind[node]), int(tree.context[node]), int(tree.value_row[node])
        if kind == CHANCE:
            if not 0 <= context < tree.n_chance_slots:
                raise _broken(
                    "chance slots in range", f"chance node {node} has slot {context} of {tree.n_chance_slots}"
                )
            if tree.n_children[node] != tree.chance_size[context]:
                raise _broken(
                    "chance sizes agree",
                    f"chance node {node} has {tree.n_children[node]} children, its "
                    f"slot {context} {tree.chance_size[context]}",
                )
        elif kind == DECISION:
            if context != -1 or row != -1:
                raise _broken("decisions own no payoffs", f"decision {node} has context {context}, value row {row}")
        else:
            if not -1 <= context < tree.n_contexts:
                raise _broken("contexts in range", f"terminal {node} has context {context} of {tree.n_contexts}")
            rows = 1 if context < 0 else int(tree.context_size[context])
            if not 0 <= row <= n_rows - rows:
                raise _broken("payoff rows in range", f"terminal {node} needs rows {row}..{row + rows - 1} of {n_rows}")
    if not np.isfinite(tree.terminal_values).all():
        raise _broken("finite payoffs", "terminal_values holds a NaN or infinity")


@dataclass(frozen=True, eq=False)
class DealTable:
    """Deals chance can make (all of them for exact games, or a batch of fresh ones), as the solver needs them.

    ``probability`` float64 ``[n_deals]`` (sums to 1); ``bucket`` int32 ``[n_deals, n_players,
    n_slots]`` each player's bucket in each slot; ``weight`` float64 ``[n_deals, W]`` per outcome
    context a probability vector over its outcomes (:attr:`FlatTree.context_offset` finds a context's
    columns; one-hot for a single deal); ``chance`` int8 ``[n_deals, n_chance_slots]`` the child
    each chance node of a slot takes; ``n_buckets`` int32 ``[n_slots]``.
    """

    probability: np.ndarray
    bucket: np.ndarray
    weight: np.ndarray
    chance: np.ndarray
    n_buckets: np.ndarray

    _DTYPES: ClassVar[dict[str, type]] = {
        "probability": np.float64,
        "bucket": np.int32,
        "weight": np.float64,
        "chance": np.int8,
        "n_buckets": np.int32,
    }

    def __post_init__(self) -> None:
        _freeze_arrays(self)
        n_deals, n_slots = len(self.probability), len(self.n_buckets)
        if self.bucket.ndim != 3 or self.bucket.shape[0] != n_deals or self.bucket.shape[2] != n_slots:
            raise ValueError(f"bucket has shape {self.bucket.shape}, expected ({n_deals}, n_players, {n_slots})")
        if self.weight.ndim != 2 or self.weight.shape[0] != n_deals:
            raise ValueError(f"weight has shape {self.weight.shape}, expected ({n_deals}, columns)")
        if self.chance.ndim != 2 or self.chance.shape[0] != n_deals:
            raise ValueError(f"chance has shape {self.chance.shape}, expected ({n_deals}, chance slots)")
        if n_deals == 0 or (self.probability < 0).any() or abs(self.probability.sum() - 1.0) > 1e-9:
            raise ValueError(f"probabilities must be >= 0 and sum to 1, they sum to {self.probability.sum()!r}")
        if ((self.bucket < 0) | (self.bucket >= self.n_buckets)).any():
            raise ValueError(f"buckets must lie in 0..n_buckets-1 per slot (n_buckets {self.n_buckets.tolist()})")
        if ((self.weight < 0) | (self.weight > 1)).any():
            raise ValueError("outcome weights must lie in [0, 1]")
        if (self.chance < 0).any():
            raise ValueError("chance children must be >= 0")

    @classmethod
    def equally_likely(cls, bucket: Any, weight: Any, n_buckets: Any) -> DealTable:
        """The table of deals that are all equally likely, with no chance node inside the betting
        (``chance`` has no column); arrays as in the class, one ``bucket`` and ``weight`` row per deal."""
        n_deals = len(bucket)
        return cls(
            probability=np.full(n_deals, 1.0 / n_deals),
            bucket=bucket,
            weight=weight,
            chance=np.zeros((n_deals, 0), dtype=np.int8),
            n_buckets=n_buckets,
        )

    @property
    def n_deals(self) -> int:
        return len(self.probability)

    @property
    def n_players(self) -> int:
        return int(self.bucket.shape[1])

    def cumulative_probability(self) -> np.ndarray:
        """Running sum of ``probability`` with the last entry exactly 1 (for sampling)."""
        cumulative = np.cumsum(self.probability)
        cumulative[-1] = 1.0
        return cumulative

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {f.name: np.array(getattr(self, f.name)) for f in fields(self)}


def check_compatible(tree: FlatTree, deals: DealTable) -> None:
    """Raise ValueError unless ``deals`` fit ``tree``: players, slots and buckets, outcome columns, chance slots."""
    if deals.n_players != tree.n_players:
        raise ValueError(f"the deals are for {deals.n_players} players, the tree for {tree.n_players}")
    if tree.n_slots > len(deals.n_buckets):
        raise ValueError(f"the tree uses {tree.n_slots} bucket slots but the deals only {len(deals.n_buckets)}")
    if not np.array_equal(tree.n_buckets, deals.n_buckets[tree.group_slot]):
        raise ValueError("the tree's n_buckets per group disagree with the deals' buckets per slot")
    if deals.weight.shape[1] != tree.weight_columns:
        raise ValueError(
            f"the deals carry {deals.weight.shape[1]} outcome columns, the tree's contexts need {tree.weight_columns}"
        )
    if deals.chance.shape[1] != tree.n_chance_slots:
        raise ValueError(f"the deals decide {deals.chance.shape[1]} chance slots, the tree has {tree.n_chance_slots}")
    if tree.n_chance_slots and deals.n_deals and (deals.chance >= tree.chance_size).any():
        raise ValueError("a deal's chance child is out of range of its slot's chance_size")


class DealSource(Protocol):
    """Fresh chance for a full-size game: deal ``first + i`` of a solve seeded ``seed`` as row ``i``.

    ``sample`` returns a uniform :class:`DealTable` of ``count`` deals whose rows depend only on
    ``(seed, first + i)``, so any split of a solve's deals gives the same rows.
    """

    def sample(self, first: int, count: int, seed: int) -> DealTable: ...


@dataclass(frozen=True, eq=False)
class SolverGame:
    """What a solver needs: the betting tree, chance, and a JSON config to rebuild both.

    Chance is either ``deals``, a :class:`DealTable` that is the whole distribution (exact games)
    or a fixed sample of it, or ``sampler``, a :class:`DealSource` drawing a fresh deal for every
    Monte Carlo iteration (full-size games; full-traversal CFR and exact best responses need
    ``deals``). ``config`` is JSON-serialisable (stored in strategy files); for exact games
    ``abstraction.exact.exact_games.build_game(**config)`` rebuilds the same game.
    """

    name: str
    tree: FlatTree
    deals: DealTable | None
    config: dict[str, Any]
    sampler: DealSource | None = None

    def __post_init__(self) -> None:
        self.tree.validate()
        if (self.deals is None) == (self.sampler is None):
            raise ValueError("a SolverGame needs exactly one of deals (a DealTable) and sampler (fresh chance)")
        check_compatible(self.tree, self.deals if self.deals is not None else self.sampler.sample(0, 1, 0))

    @property
    def fresh_chance(self) -> bool:
        """True when chance is drawn fresh per iteration (no deal table)."""
        return self.deals is None
