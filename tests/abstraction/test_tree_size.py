"""`measure_betting_tree` and `measure_limit_tree` (the size of an abstract tree, counted before it
is built) against the built trees, `TreeSize.check` (refusals past max_nodes or the machine's memory), and the
builder's progress reports."""

from __future__ import annotations

import time

import pytest

from abstraction.bets.bet_abstraction import BetAbstraction
from abstraction.bets.betting_tree import (
    BUILD_BYTES_PER_NODE,
    PROGRESS_NODES,
    TreeSize,
    build_betting_tree,
    measure_betting_tree,
)
from abstraction.bets.limit_tree import build_limit_tree, measure_limit_tree
from game.rules.limit import LimitConfig
from game.rules.variants import get_variant
from tests.abstraction.size_support import assert_size_is_the_tree

BUCKETS = (5, 7, 11, 13, 3, 2, 17)
"""Different counts per slot, so a group counted under the wrong slot changes the information sets."""
N_SLOTS = {"holdem": 4, "swap": 4, "bounty": 4, "auction": 7}

CASES = [
    # variant, rules, stack, bets, max_runs
    ("holdem", "document", 40, "1p,a cap=2", None),
    ("holdem", "engine", 16, "0.5p,1p,a", None),  # no cap: raises until all-in
    ("swap", "document", 30, "1p,a cap=1; 0.5p,2p,a cap=3", None),
    ("bounty", "document", 30, "0.5p,1p,a cap=2", None),
    ("bounty", "engine", 40, "0.5p,1p,2p,a cap=2", None),  # fold legal where checking is free; > PROGRESS_NODES
    ("auction", "document", 24, "1p,a cap=1 | bids=0.5p,a", None),  # sealed bids share groups
    ("auction", "engine", 24, "1p,a cap=1 | bids=0.25p,1p,a", None),
    ("river_of_blood", "document", 24, "1p,a cap=1", 1),
    ("river_of_blood", "engine", 20, "1p,a cap=1; a", 3),
]


def case_arguments(variant: str, rules: str, stack: int, bets: str, max_runs: int | None):
    config = get_variant(variant).config_class(stack=stack, rules=rules)
    slots = N_SLOTS.get(variant, 4 + (max_runs or 0))
    buckets = (BUCKETS * 2)[:slots]
    return config, BetAbstraction.parse(bets), buckets, {"max_runs": max_runs}


@pytest.mark.parametrize(("variant", "rules", "stack", "bets", "max_runs"), CASES)
def test_the_estimate_is_the_built_size(variant: str, rules: str, stack: int, bets: str, max_runs: int | None) -> None:
    config, bet_abstraction, buckets, options = case_arguments(variant, rules, stack, bets, max_runs)
    size = measure_betting_tree(config, bet_abstraction, buckets, **options)
    built: list[int] = []
    tree = build_betting_tree(config, bet_abstraction, buckets, on_progress=built.append, **options)
    assert_size_is_the_tree(size, tree)
    assert size.solver_bytes(2, 8) == tree.table_bytes(2, 8)
    # progress: every PROGRESS_NODES nodes, then once with the whole tree
    assert built == [*range(PROGRESS_NODES, tree.n_nodes + 1, PROGRESS_NODES), tree.n_nodes]


def test_the_eight_size_cap_ten_bounty_tree_is_counted_in_seconds() -> None:
    """A 154-million-node tree the builder could not finish in 10 minutes and 9.7 GB. The count
    was checked against two independent slower counts: a memoised walk of the real round at every
    node and a plain-arithmetic count of the betting."""
    config = get_variant("bounty").config_class()
    bets = BetAbstraction.parse("0.25p,0.5p,0.75p,1p,1.5p,2p,3p,a cap=10")
    started = time.process_time()
    size = measure_betting_tree(config, bets, (338, 16, 16, 16))
    assert time.process_time() - started < 5.0
    assert size.n_nodes == 154_313_378
    assert size.summary() == "~154,313,378 nodes, 948,907,888 information sets, 20 GB of tables"


def test_check_refuses_past_max_nodes_or_memory_with_the_size() -> None:
    size = TreeSize(n_nodes=1000, n_groups=10, n_infosets=400, table_entries=10**8, tree_bytes=10**6)
    assert size.memory_bytes() == 10**6 + 8 * 10**8 and size.memory_bytes(8) == 10**6 + 16 * 10**8
    size.check(max_nodes=1000, available=10**9)  # 0.8 GB of float32 tables and 1 MB of tree fit in 1 GB
    with pytest.raises(
        ValueError, match=r"~1,000 nodes, 400 information sets, 800 MB of tables: more than max_nodes=999"
    ):
        size.check(max_nodes=999, available=10**12)
    with pytest.raises(
        ValueError, match=r"1.6 GB of tables: building and solving it takes about 1.6 GB, more than the 1 GB"
    ):
        size.check(max_nodes=None, itemsize=8, available=10**9)
    wide = TreeSize(n_nodes=10**6, n_groups=10, n_infosets=400, table_entries=10, tree_bytes=10**7)
    assert wide.memory_bytes() == 10**6 * BUILD_BYTES_PER_NODE  # the build's peak, not the small tables
    with pytest.raises(ValueError, match=r"takes about 2.5 GB, more than the 2 GB of memory available"):
        wide.check(max_nodes=None, available=2 * 10**9)


def test_a_tree_at_max_nodes_builds_and_one_node_over_is_refused_before_the_walk() -> None:
    config, bets, buckets, options = case_arguments(*CASES[0])
    size = measure_betting_tree(config, bets, buckets, **options)
    assert build_betting_tree(config, bets, buckets, max_nodes=size.n_nodes, **options).n_nodes == size.n_nodes
    with pytest.raises(ValueError, match=f"~{size.n_nodes:,} nodes.*more than max_nodes={size.n_nodes - 1:,}"):
        build_betting_tree(config, bets, buckets, max_nodes=size.n_nodes - 1, **options)


@pytest.mark.parametrize(("n_players", "max_raises"), [(2, 2), (3, 1), (4, 0)])
def test_the_limit_estimate_is_the_built_size(n_players: int, max_raises: int) -> None:
    config = LimitConfig(n_players=n_players, max_raises=max_raises)
    size = measure_limit_tree(config, BUCKETS[:4])
    tree = build_limit_tree(config, BUCKETS[:4])
    assert_size_is_the_tree(size, tree)
