"""Bet abstraction text form, pseudo-harmonic translation, and the betting tree builder."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstraction.bets.bet_abstraction import BetAbstraction, StreetBets
from abstraction.bets.betting_tree import build_betting_tree, measure_betting_tree
from abstraction.bets.translation import median_point, pseudo_harmonic_probability, translate, translation_probabilities
from abstraction.tree import DECISION, FOLD, SHOWDOWN
from game.rules.actions import Action, ActionKind
from game.rules.auction import AuctionConfig
from game.rules.holdem import HoldemConfig
from game.rules.swap import SwapConfig


def test_text_form_round_trips():
    text = "1p,3p,a cap=3; 0.33p,0.75p,1.5p,a cap=2; 0.5p,1p,a; 1p,a cap=1"
    bets = BetAbstraction.parse(text, bids="0.25p,0.5p,a")
    assert BetAbstraction.parse(str(bets).split(" | ")[0], bids="0.25p,0.5p,a") == bets
    assert bets.street(0).cap == 3 and bets.street(4).sizes == (0.5, 1.0) and bets.street(7) == bets.street(5)


def test_bad_text_names_the_value():
    with pytest.raises(ValueError, match="cap=x"):
        BetAbstraction.parse("1p cap=x")
    with pytest.raises(ValueError, match="3 streets"):
        BetAbstraction.parse("1p;1p;1p")
    with pytest.raises(ValueError, match="-1"):
        StreetBets((1.0,), cap=-1)


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 10), st.floats(0.01, 10), st.floats(0, 1))
def test_pseudo_harmonic_defining_properties(smaller, gap, position):
    larger = smaller + gap
    # Boundaries: A maps to A, B maps to B (Ganzfried and Sandholm 2013, section 5).
    assert pseudo_harmonic_probability(smaller, smaller, larger) == pytest.approx(1.0)
    assert pseudo_harmonic_probability(larger, smaller, larger) == pytest.approx(0.0, abs=1e-12)
    # Monotone: a larger bet is never more likely to be read as the smaller size.
    x = smaller + position * gap
    y = min(larger, x + gap / 7)
    assert pseudo_harmonic_probability(y, smaller, larger) <= pseudo_harmonic_probability(x, smaller, larger) + 1e-12
    # The median point maps to each side with probability 1/2.
    assert pseudo_harmonic_probability(median_point(smaller, larger), smaller, larger) == pytest.approx(0.5)


def test_translation_outside_and_at_sizes_is_deterministic():
    sizes = [0.5, 1.0, 2.0]
    assert translation_probabilities(0.1, sizes).tolist() == [1, 0, 0]
    assert translation_probabilities(1.0, sizes).tolist() == [0, 1, 0]
    assert translation_probabilities(9.0, sizes).tolist() == [0, 0, 1]
    # Between 1 pot and 2 pots the median point is (1 + 2 + 4) / (1 + 2 + 2) = 1.4 pots.
    draws = [translate(1.4, sizes, seed=np.random.default_rng(i)) for i in range(2000)]
    assert abs(np.mean(np.array(draws) == 1) - 0.5) < 0.05
    with pytest.raises(ValueError, match=r"\[1.0, 0.5\]"):
        translation_probabilities(0.7, [1.0, 0.5])


def test_tree_without_raises_has_the_hand_counted_shape():
    # No bets at all: SB folds or calls; then every street is check-check (blinds 1/2, stack 3).
    tree = build_betting_tree(HoldemConfig(stack=3), BetAbstraction.parse("cap=0"), (1, 1, 1, 1))
    assert tree.n_nodes == 10 and tree.n_groups == 8
    assert sorted(tree.kind.tolist()).count(FOLD) == 1 and sorted(tree.kind.tolist()).count(SHOWDOWN) == 1
    assert tree.street.max() == 3


def replay(tree, node, config, chance_seed=0):
    """Apply the actions on the path to ``node`` to a real round; raises if one is illegal."""
    from game.rules.chance import RandomChance
    from game.rules.variants import start_round

    parent = tree.parent_array()
    path = []
    while node > 0:
        path.append(node)
        node = int(parent[node])
    round_ = start_round(config, RandomChance(chance_seed))
    for step in reversed(path):
        round_.apply(Action(ActionKind(int(tree.action_kind[step])), int(tree.action_amount[step])))
    return round_


@pytest.mark.parametrize("config", [HoldemConfig(stack=40), SwapConfig(stack=40)])
def test_tree_actions_are_legal_and_sizes_are_measured_before_building(config):
    bets = BetAbstraction.parse("1p,a cap=2; 0.5p,1p,a cap=2")
    size = measure_betting_tree(config, bets, (169, 20, 20, 20))
    tree = build_betting_tree(config, bets, (169, 20, 20, 20))
    assert (tree.n_nodes, tree.n_groups, tree.n_infosets, tree.table_size) == (
        size.n_nodes,
        size.n_groups,
        size.n_infosets,
        size.table_entries,
    )
    assert tree.table_bytes() == size.solver_bytes() and tree.table_bytes(3, 8) == size.solver_bytes(3, 8)
    assert size.tree_bytes == sum(array.nbytes for array in tree.to_arrays().values())
    rng = np.random.default_rng(0)
    for node in rng.choice(tree.n_nodes, 60, replace=False):
        round_ = replay(tree, int(node), config)
        assert round_.contributions == tuple(tree.committed[node].astype(int))
        assert (tree.kind[node] == DECISION) == (not round_.is_terminal)


def test_auction_second_bid_does_not_see_the_first():
    config = AuctionConfig(stack=12)
    bets = BetAbstraction.parse("1p,a cap=1", bids="0.5p,a")
    tree = build_betting_tree(config, bets, (1,) * 7)  # slots: 4 two-card, 3 three-card
    bid_nodes = np.flatnonzero((tree.kind == DECISION) & (tree.child_start > 0))
    bid_nodes = [n for n in bid_nodes if tree.action_kind[tree.child_start[n]] == int(ActionKind.BID)]
    parent = tree.parent_array()
    second = [n for n in bid_nodes if tree.action_kind[n] == int(ActionKind.BID)]
    assert second, "expected second-bid nodes"
    by_parent: dict[int, set[int]] = {}
    for n in second:
        by_parent.setdefault(int(parent[n]), set()).add(int(tree.infoset_group[n]))
    assert all(len(groups) == 1 for groups in by_parent.values())
    # After both bids, the bids are public: distinct first bids lead to distinct groups.
    assert len({int(tree.infoset_group[n]) for n in second}) == len(by_parent)
