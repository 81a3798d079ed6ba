"""Test helper: a measured tree size (`abstraction.bets.betting_tree.TreeSize`) is the built tree's."""

from __future__ import annotations

from abstraction.bets.betting_tree import TreeSize
from abstraction.tree import FlatTree


def assert_size_is_the_tree(size: TreeSize, tree: FlatTree) -> None:
    """Nodes, groups, information sets, table entries and array bytes of ``size`` are ``tree``'s."""
    measured = (size.n_nodes, size.n_groups, size.n_infosets, size.table_entries, size.tree_bytes)
    built = (tree.n_nodes, tree.n_groups, tree.n_infosets, tree.table_size)
    expected = (*built, sum(array.nbytes for array in tree.to_arrays().values()))
    assert measured == expected, (measured, expected)
