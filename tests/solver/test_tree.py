"""FlatTree invariants, the exact-game builder and the deal tables (abstraction.tree, abstraction.exact.exact_games)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstraction.exact.exact_games import bucket_index, build_game
from abstraction.tree import DECISION, FOLD, SHOWDOWN, DealTable, FlatTree, SolverGame
from game.rules.leduc import LeducConfig


def test_information_set_counts(kuhn, leduc) -> None:
    # OpenSpiel: kuhn_poker has 12 information states, leduc_poker 936
    assert kuhn.tree.n_infosets == 12
    assert leduc.tree.n_infosets == 936
    assert (leduc.tree.n_nodes, leduc.tree.n_groups, leduc.deals.n_deals) == (85, 36, 120)


def test_kuhn_tree_matches_the_rules(kuhn) -> None:
    tree = kuhn.tree
    histories = [tree.history(n) for n in range(tree.n_nodes)]
    assert histories == ["", "K", "R1", "KK", "KR1", "R1F", "R1C", "KR1F", "KR1C"]
    assert tree.kind.tolist() == [DECISION, DECISION, DECISION, SHOWDOWN, DECISION, FOLD, SHOWDOWN, FOLD, SHOWDOWN]
    assert tree.committed[histories.index("KR1C")].tolist() == [2, 2]
    assert tree.player[histories.index("R1F")] == 1  # the folder


def test_deal_table_is_exact(leduc) -> None:
    deals = leduc.deals
    assert np.allclose(deals.probability, 1 / 120)
    # one showdown context (both players left); player 0 wins and loses equally often by symmetry
    assert deals.weight.shape == (120, 3) and np.array_equal(deals.weight.sum(axis=1), np.ones(120))
    assert deals.weight[:, 0].mean() == pytest.approx(deals.weight[:, 2].mean())
    assert sorted(set(deals.weight.ravel().tolist())) == [0.0, 1.0]  # one-hot: one outcome per deal
    index = bucket_index(LeducConfig())
    assert [len(street) for street in index] == [6, 30]
    # every deal's buckets agree with the visible cards
    assert deals.bucket[:, :, 0].max() == 5 and deals.bucket[:, :, 1].max() == 29


def test_round_trip_and_fingerprint(leduc) -> None:
    arrays = leduc.tree.to_arrays()
    rebuilt = FlatTree.from_arrays(arrays)
    rebuilt.validate()
    assert rebuilt.fingerprint() == leduc.tree.fingerprint()
    assert build_game(**leduc.config).tree.fingerprint() == leduc.tree.fingerprint()
    arrays["committed"] = arrays["committed"] * 2
    assert FlatTree.from_arrays(arrays).fingerprint() != leduc.tree.fingerprint()
    assert leduc.tree.fingerprint() != build_game("kuhn").tree.fingerprint()


def test_memory_estimate_before_allocation(leduc) -> None:
    tree = leduc.tree
    assert tree.table_size == int((tree.n_buckets * tree.n_actions).sum()) == 2184
    assert tree.table_bytes() == 2 * 4 * 2184  # two float32 tables: 8 bytes per information-set action
    assert tree.table_bytes(n_tables=3, itemsize=8) == 3 * 8 * 2184


def broken(game: SolverGame, **changes) -> FlatTree:
    arrays = game.tree.to_arrays()
    for name, change in changes.items():
        change(arrays[name])
    return FlatTree.from_arrays(arrays)


def set_at(index, value):
    def change(array):
        array[index] = value

    return change


@pytest.mark.parametrize(
    ("changes", "invariant"),
    [
        ({"child_start": set_at(0, 42)}, "children in range"),
        ({"child_start": set_at(1, 0)}, "children in range"),
        ({"n_children": set_at(0, 3)}, "one parent per node"),
        ({"n_children": set_at(3, 1)}, "terminals have no children"),
        ({"n_actions": set_at(0, 3)}, "group action counts agree"),
        ({"infoset_group": set_at(1, 0)}, "group player and street agree"),
        ({"infoset_group": set_at(3, 0)}, "only decisions have groups"),
        ({"infoset_group": set_at(2, 7)}, "groups in range"),
        ({"row_offset": set_at(1, 5)}, "rows contiguous"),
        ({"street": set_at(4, -1)}, "streets never decrease"),
        ({"committed": set_at((5, 0), 0.5)}, "commitments never decrease"),
        ({"kind": set_at(0, 9)}, "known kinds"),
        ({"player": set_at(1, 4)}, "actors are players"),
        ({"context": set_at(3, 5)}, "contexts in range"),
        ({"value_row": set_at(3, 99)}, "payoff rows in range"),
        ({"context": set_at(0, 0)}, "decisions own no payoffs"),
        ({"n_buckets": set_at(0, 0)}, "positive group sizes"),
    ],
)
def test_validator_names_the_broken_invariant(kuhn, changes, invariant) -> None:
    with pytest.raises(ValueError, match=f"invariant '{invariant}' broken"):
        broken(kuhn, **changes).validate()


def test_validator_refuses_wrong_shapes(leduc) -> None:
    arrays = leduc.tree.to_arrays()
    arrays["kind"] = arrays["kind"][:-1]
    with pytest.raises(ValueError, match="invariant 'node array shapes' broken"):
        FlatTree.from_arrays(arrays).validate()
    with pytest.raises(ValueError, match="missing"):
        FlatTree.from_arrays({"kind": np.zeros(1)})


def hand_built(kind, player, child_start, n_children, infoset_group, n_actions, group_player) -> FlatTree:
    """A two-player tree on one street: every terminal a showdown of one context (3 outcomes, the
    pot of 2 chips); one bucket per group."""
    n = len(kind)
    terminals = [node for node in range(n) if kind[node] != DECISION]
    value_row = [-1] * n
    for index, node in enumerate(terminals):
        value_row[node] = 3 * index
    return FlatTree(
        kind=kind,
        player=player,
        street=[0] * n,
        child_start=child_start,
        n_children=n_children,
        committed=[[1, 1]] * n,
        infoset_group=infoset_group,
        action_kind=[-1] + [1] * (n - 1),
        action_amount=[0] * n,
        context=[0 if node in terminals else -1 for node in range(n)],
        value_row=value_row,
        n_actions=n_actions,
        row_offset=np.arange(len(n_actions)) * 2,
        n_buckets=[1] * len(n_actions),
        group_player=group_player,
        group_street=[0] * len(n_actions),
        group_slot=[0] * len(n_actions),
        terminal_values=[[1, -1], [0, 0], [-1, 1]] * len(terminals),
        context_size=[3],
        chance_size=np.zeros(0),
    )


def test_group_spanning_nodes_is_accepted_when_consistent() -> None:
    # a sealed second move: player 1 cannot see player 0's choice, so nodes 1 and 2 share group 1
    tree = hand_built(
        kind=[DECISION, DECISION, DECISION, SHOWDOWN, SHOWDOWN, SHOWDOWN, SHOWDOWN],
        player=[0, 1, 1, -1, -1, -1, -1],
        child_start=[1, 3, 5, 0, 0, 0, 0],
        n_children=[2, 2, 2, 0, 0, 0, 0],
        infoset_group=[0, 1, 1, -1, -1, -1, -1],
        n_actions=[2, 2],
        group_player=[0, 1],
    )
    tree.validate()
    assert tree.n_infosets == 2


def test_solver_game_checks_deals_against_tree(kuhn) -> None:
    deals = kuhn.deals
    wrong = DealTable(
        probability=deals.probability,
        bucket=deals.bucket % 2,
        weight=deals.weight,
        chance=deals.chance,
        n_buckets=np.array([2]),
    )
    with pytest.raises(ValueError, match="n_buckets per group disagree"):
        SolverGame(name="kuhn", tree=kuhn.tree, deals=wrong, config={})
    narrow = DealTable(
        probability=deals.probability,
        bucket=deals.bucket,
        weight=deals.weight[:, :2],
        chance=deals.chance,
        n_buckets=deals.n_buckets,
    )
    with pytest.raises(ValueError, match="the deals carry 2 outcome columns, the tree's contexts need 3"):
        SolverGame(name="kuhn", tree=kuhn.tree, deals=narrow, config={})
    with pytest.raises(ValueError, match="sum to 1"):
        DealTable(
            probability=deals.probability * 2,
            bucket=deals.bucket,
            weight=deals.weight,
            chance=deals.chance,
            n_buckets=deals.n_buckets,
        )
    with pytest.raises(ValueError, match="exactly one of deals"):
        SolverGame(name="kuhn", tree=kuhn.tree, deals=None, config={})


def test_validator_refuses_non_breadth_first_order() -> None:
    # node 1's children (7, 8) come after node 3's children (5, 6), which are one level deeper
    kinds = [DECISION, DECISION, DECISION, DECISION, SHOWDOWN, SHOWDOWN, SHOWDOWN, SHOWDOWN, SHOWDOWN]
    players = [0, 1, 1, 0, -1, -1, -1, -1, -1]
    tree = hand_built(
        kind=kinds,
        player=players,
        child_start=[1, 7, 3, 5, 0, 0, 0, 0, 0],
        n_children=[2, 2, 2, 2, 0, 0, 0, 0, 0],
        infoset_group=[0, 1, 2, 3, -1, -1, -1, -1, -1],
        n_actions=[2, 2, 2, 2],
        group_player=[0, 1, 1, 0],
    )
    with pytest.raises(ValueError, match="invariant 'breadth-first order' broken: node 7 at depth 2"):
        tree.validate()


def test_locate_agrees_with_the_deal_table(leduc) -> None:
    from abstraction.exact.exact_games import locate
    from game.rules.actions import Action
    from game.rules.leduc import LeducRound

    config = LeducConfig()
    for deal in (0, 37, 119):
        cards = [int(c) for c in np.array(config.deck())[list(_deal_indices(deal))]]
        hand = LeducRound(config, cards)
        for text in ("K", "R2", "C", "R4"):
            node, row = locate(leduc, hand)
            tree = leduc.tree
            group = tree.infoset_group[node]
            bucket = leduc.deals.bucket[deal, hand.to_act, hand.street]
            assert row == tree.row_offset[group] + bucket * tree.n_actions[group]
            assert tree.n_children[node] == len(hand.legal_actions())
            hand.apply(Action.parse(text))


def _deal_indices(deal: int) -> tuple[int, ...]:
    import itertools

    return list(itertools.permutations(range(6), 3))[deal]


rules_strategy = st.builds(
    dict,
    ranks=st.sampled_from(["JQK", "TJQK", "QK", "9TJ"]),
    suits=st.sampled_from(["s", "hs"]),
    max_raises=st.integers(0, 3),
    raise_sizes=st.sampled_from([[1], [2], [2, 4], [1, 3]]),
    ante=st.integers(1, 2),
)


@settings(max_examples=10, deadline=None, derandomize=True)
@given(rules=rules_strategy)
def test_builder_and_best_response_on_random_rules(rules) -> None:
    from solver.evaluate.exploitability import exploitability, uniform_strategy
    from tests.reference import best_response_value
    from tests.solver.test_exploitability import as_policy

    rules["board_cards"] = [0] * len(rules["raise_sizes"]) if len(rules["raise_sizes"]) == 1 else [0, 1]
    try:
        config = LeducConfig.from_dict(rules)
    except ValueError:
        return  # e.g. a two-card deck cannot deal a public card
    game = build_game("leduc", rules)
    game.tree.validate()
    assert np.isclose(game.deals.probability.sum(), 1.0)
    # every information set of the tree is reached by some deal, and counts agree with the rules
    decision_nodes = int((game.tree.kind == DECISION).sum())
    assert game.tree.n_groups == decision_nodes
    result = exploitability(game, uniform_strategy(game))
    assert result.nash_conv >= -1e-12
    if game.deals.n_deals * game.tree.n_nodes <= 5_000:  # keep the pure-Python reference quick
        policy = as_policy(game, uniform_strategy(game))
        for responder in range(2):
            assert result.br_values[responder] == pytest.approx(
                best_response_value(config, policy, responder), abs=1e-9
            )
