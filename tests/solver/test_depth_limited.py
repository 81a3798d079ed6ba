"""Depth-limited turn subgames: RUNOUT values, exact leaves, and the blueprint's leaf matrices."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from abstraction.bets.bet_abstraction import StreetBets
from abstraction.cards.kernels_features import HAND_CARDS
from game.cards.deck import parse_cards
from game.cards.evaluator import evaluate_batch
from solver.resolve.continuation import ContinuationConfig, class_matrices, hand_classes, river_buckets
from solver.resolve.hands import TurnHands, river_hands, showdown_masses, turn_hands
from solver.resolve.leaves import LeafValues
from solver.resolve.ranges import N_COMBOS, blocked, combo_index, swapped
from solver.resolve.resolver import SubgameSolver
from solver.resolve.tree import LEAF, RUNOUT, SubgameConfig, build_subgame_tree

BOARD = "Qh Td 8c 5s"


@pytest.fixture(scope="module")
def hands() -> TurnHands:
    return turn_hands(BOARD)


def disjoint_pairs(cards: np.ndarray) -> np.ndarray:
    """(n, n) bool: the hand pairs sharing no card."""
    return ~(cards[:, None, :, None] == cards[None, :, None, :]).any(axis=(2, 3))


@pytest.fixture(scope="module")
def outcomes(hands) -> tuple[np.ndarray, np.ndarray]:
    """(win, lose): (n, n) probability over the river that hand i beats / loses to hand j (0 for
    pairs sharing a card), by evaluating every hand on every river independently of TurnHands'
    tables."""
    board = parse_cards(BOARD)
    cards = hands.cards
    n = hands.n_hands
    win, lose = np.zeros((n, n)), np.zeros((n, n))
    disjoint = disjoint_pairs(cards)
    for river in sorted(set(range(52)) - set(board.tolist())):
        free = (cards != river).all(axis=1)
        rows = np.concatenate([cards, np.broadcast_to(np.append(board, river), (n, 5))], axis=1)
        strength = np.where(free, evaluate_batch(np.where(free[:, None], rows, rows[free][0]), check=False), 0)
        both = disjoint & free[:, None] & free[None, :]
        win += both & (strength[:, None] > strength[None, :])
        lose += both & (strength[:, None] < strength[None, :])
    return win / 44, lose / 44


def test_turn_hands_list_every_hand_and_every_river(hands):
    assert hands.n_hands == 48 * 47 // 2 and hands.river_order.shape == (48, 47 * 46 // 2)
    for river in (0, 17, 47):
        order = hands.river_order[river]
        card = hands.river_cards[river]
        assert not (hands.cards[order] == card).any() and len(set(order.tolist())) == len(order)
        assert np.all(np.diff(hands.river_strength[river, order]) >= 0)


def test_turn_hands_river_tables_equal_each_rivers_own_hands(hands):
    """Each river's order, runs of equal strength, strengths and strength against a uniform opponent
    are those of the five-card board's own `river_hands` (built and sorted apart, river by river)."""
    position = {int(index): i for i, index in enumerate(hands.hand_index)}
    holdings = 45 * 44 / 2
    for row, card in enumerate(hands.river_cards.tolist()):
        river = river_hands(np.append(parse_cards(BOARD), card))
        index = np.array([position[int(i)] for i in river.hand_index])
        assert np.array_equal(hands.river_order[row], index)
        starts = river.layout.group_start
        assert hands.river_n_groups[row] == len(starts) - 1
        assert np.array_equal(hands.river_group_start[row, : len(starts)], starts)
        assert np.array_equal(hands.river_strength[row, index], river.strength)
        weaker, stronger = showdown_masses(river, np.ones(river.n_hands))
        assert np.array_equal(hands.river_hs[row, index], 0.5 * (weaker + (holdings - stronger)) / holdings)
        held = np.setdiff1d(np.arange(hands.n_hands), index)
        assert (hands.river_strength[row, held] == 0).all() and np.isnan(hands.river_hs[row, held]).all()


def test_runout_values_equal_a_brute_force_over_the_rivers(hands, outcomes):
    """Facing an all-in on the turn, a call is a RUNOUT: the river is dealt and the hands shown
    down. The caller's values per hand (the subgame solver's, calling always) equal the O(n^2)
    expectation over the river of the brute force, against a random range."""
    win, lose = outcomes
    tree = build_subgame_tree(SubgameConfig(pot_chips=(30, 70), pips=(0, 40), stacks=(40, 0), final_street=False))
    assert [tree.describe(c) for c in tree.children(0)] == ["fold", "call"] and tree.kind[2] == RUNOUT
    rng = np.random.default_rng(0)
    ranges = rng.random((2, hands.n_hands))
    solver = SubgameSolver(tree, hands, ranges)
    calling = np.zeros((tree.n_nodes, hands.n_hands))
    calling[2] = 1.0
    expected = 70.0 * (win - lose) @ ranges[1]
    assert np.allclose(solver.values(calling, 0, best=False), expected, rtol=1e-10, atol=1e-9)


@pytest.mark.jit_only  # the batch is numba kernels over vector lanes (their numpy forms are tested apart)
def test_the_cfr_pass_values_its_runouts_in_one_batch_as_the_brute_force(hands, outcomes):
    """The CFR pass values all its RUNOUT nodes together (the rivers' sweeps over hand-major columns,
    16 a vector): after one iteration every RUNOUT row of the last pass (player 1's) equals the O(n^2)
    expectation over the river against player 0's reach row there (zero where player 0's first
    regrets cut every hand off). 19 RUNOUT nodes: two vectors of columns, the second part padding."""
    win, lose = outcomes
    tie = disjoint_pairs(hands.cards) - win - lose
    config = SubgameConfig(
        pot_chips=(10, 10), stacks=(90, 90), bets=StreetBets.parse("0.5p,1p,a cap=2"), final_street=False
    )
    tree = build_subgame_tree(config)
    tree = dataclasses.replace(tree, kind=np.where(tree.kind == LEAF, RUNOUT, tree.kind).astype(np.int8))
    runouts = np.flatnonzero(tree.kind == RUNOUT)
    assert len(runouts) == 19
    solver = SubgameSolver(tree, hands, np.random.default_rng(2).random((2, hands.n_hands))).run(1)
    n = hands.n_hands
    expected = np.zeros((len(runouts), n))
    for i, node in enumerate(runouts):
        own, other = tree.pot_chips[node, 1], tree.pot_chips[node, 0]
        reach = solver._reach[tree.reach_source[node, 0], 0, :n].astype(np.float64)
        expected[i] = (other * win - own * lose + 0.5 * (other - own) * tie) @ reach
    assert np.count_nonzero(np.abs(expected).max(axis=1)) >= 10
    # float32 sums over 44 rivers of reach up to ~300, times 100 chips
    assert np.allclose(solver._values[runouts, :n], expected, rtol=0, atol=1e-5 * np.abs(expected).max())


def exact_leaves(tree, hands, outcomes, searcher: int, dominated: bool) -> LeafValues:
    """One class per hand, matrices of the check-down's exact value at each leaf's pot; with
    ``dominated`` a second continuation that gives the opponent one chip less on every pair."""
    win, lose = outcomes
    matrices = []
    for leaf in tree.leaves:
        each = tree.pot_chips[leaf, searcher]
        assert each == tree.pot_chips[leaf, 1 - searcher]  # both matched
        check_down = each * (win - lose)
        matrices.append([check_down, check_down + 1.0] if dominated else [check_down])
    return LeafValues(searcher, np.arange(hands.n_hands), np.array(matrices))


@pytest.mark.jit_only  # the solve's leaves and the Monte Carlo loops are numba kernels
@pytest.mark.parametrize("searcher", [0, 1])
def test_exact_leaves_solve_the_turn_as_a_river_without_betting(hands, outcomes, searcher):
    """A depth-limited turn solve whose leaves hold the exact check-down values (one class per
    hand) runs the same iterations as the same tree with every leaf a RUNOUT (the turn, then a
    river without betting, valued exactly): the same average strategy. A second continuation the
    opponent never gains from changes no best response."""
    config = SubgameConfig(pot_chips=(10, 10), stacks=(90, 90), bets=StreetBets.parse("1p,a cap=1"), final_street=False)
    tree = build_subgame_tree(config)
    assert len(tree.leaves) == 3 and np.count_nonzero(tree.kind == RUNOUT) == 2
    runouts = dataclasses.replace(tree, kind=np.where(tree.kind == LEAF, RUNOUT, tree.kind).astype(np.int8))
    ranges = np.random.default_rng(1).random((2, hands.n_hands))
    exact = SubgameSolver(runouts, hands, ranges).run(30)
    limited = SubgameSolver(tree, hands, ranges, leaves=exact_leaves(tree, hands, outcomes, searcher, False)).run(30)
    # the CFR tables are float32 (resolver.TABLE_DTYPE) and the two solves round differently (leaf
    # matrix products against river sweeps, values up to ~1e4 chips of reach): measured 2.0e-5
    assert np.allclose(limited.average_strategy(), exact.average_strategy(), rtol=0, atol=1e-4)
    strategy = exact.average_strategy()
    choosing = SubgameSolver(tree, hands, ranges, leaves=exact_leaves(tree, hands, outcomes, searcher, True))
    for responder in (0, 1):
        best = exact.values(strategy, responder, best=True)
        assert np.allclose(limited.values(strategy, responder, best=True), best, rtol=1e-10, atol=1e-8)
    assert np.allclose(
        choosing.values(strategy, 1 - searcher, best=True), exact.values(strategy, 1 - searcher, best=True), atol=1e-8
    )


@pytest.mark.jit_only  # the RUNOUT values are numba kernels
def test_a_tree_without_folds_or_showdowns_solves(hands):
    """A turn without betting (check, check, then the river dealt out) has no fold or showdown for
    the batch of kernels_vector_cfr: the solve runs (the batch is empty) and, with one action per
    decision, nobody can gain: NashConv 0."""
    config = SubgameConfig(
        pot_chips=(10, 10), stacks=(90, 90), bets=StreetBets((), all_in=False, cap=0), final_street=False
    )
    tree = build_subgame_tree(config)
    runouts = dataclasses.replace(tree, kind=np.where(tree.kind == LEAF, RUNOUT, tree.kind).astype(np.int8))
    assert np.count_nonzero(runouts.kind == RUNOUT) == 1 and runouts.n_nodes == 3
    solver = SubgameSolver(runouts, hands, np.ones((2, hands.n_hands))).run(3)
    assert solver.exploitability().nash_conv == pytest.approx(0.0, abs=1e-9)


@pytest.mark.jit_only  # the solve's leaves and the Monte Carlo loops are numba kernels
def test_leaf_matrices_converge_to_the_exact_class_average(hands):
    """The Monte Carlo class matrices of two leaves (scales 1 and 3) of a random value table over
    river buckets and showdown outcomes converge to the exact average over all hand pairs of the
    two classes (pairs sharing a card count 0) and the 44 rivers of each pair: the error shrinks
    with the samples (200 against 3,000 per class pair); the same seed gives the same matrices."""
    buckets = river_buckets(hands, np.linspace(0.1, 0.9, 5))
    classes = hand_classes(hands, 6)
    assert np.bincount(classes).tolist() == [188] * 6
    table = np.random.default_rng(2).uniform(-10, 10, (5, 5, 3))
    tables = np.stack([table[None], table[None]])  # (2 leaves, 1 choice, B, B, 3)
    scale = np.array([1.0, 3.0])
    one_hot = np.eye(6)[classes]
    disjoint = disjoint_pairs(hands.cards)
    exact = np.zeros((6, 6))
    for row, river in enumerate(hands.river_cards.tolist()):
        free = (hands.cards != river).all(axis=1)
        strength = hands.river_strength[row]
        bucket = np.where(free, buckets[row], 0)
        flat = (bucket[:, None] * 5 + bucket[None, :]) * 3 + 1 + np.sign(strength[:, None] - strength[None, :])
        values = np.where(disjoint, table.ravel()[flat], 0.0)
        exact += (one_hot * free[:, None]).T @ values @ (one_hot * free[:, None])
    exact /= 44 * np.outer(np.bincount(classes), np.bincount(classes))
    errors = []
    for samples in (200, 3_000):
        config = ContinuationConfig(n_classes=6, samples=samples, seed=5)
        estimate = class_matrices(hands, classes, buckets, tables, scale, config)
        assert np.array_equal(estimate, class_matrices(hands, classes, buckets, tables, scale, config))
        assert np.allclose(estimate[1], 3 * estimate[0])
        errors.append(np.abs(estimate[0, 0] - exact).mean())
    assert errors[1] < errors[0] / 2 and errors[1] < 0.15, errors


def test_bad_depth_limited_input_is_refused(hands):
    """Mismatched hands, trees and leaf values: one clear error each."""
    tree = build_subgame_tree(SubgameConfig(pot_chips=(10, 10), stacks=(90, 90), final_street=False))
    ranges = np.ones((2, hands.n_hands))
    with pytest.raises(ValueError, match=f"the tree has {len(tree.leaves)} LEAF nodes: give their LeafValues"):
        SubgameSolver(tree, hands, ranges)
    with pytest.raises(ValueError, match="leaves hold 1 matrices and 1128 hand classes; the tree has"):
        SubgameSolver(tree, hands, ranges, leaves=LeafValues(0, np.zeros(hands.n_hands, int), np.zeros((1, 1, 1, 1))))
    with pytest.raises(ValueError, match=r"hand_class must be one class in 0\.\.1 per hand"):
        LeafValues(0, np.full(hands.n_hands, 2), np.zeros((1, 1, 2, 2)))
    with pytest.raises(TypeError, match="SHOWDOWN nodes needs RiverHands"):
        SubgameSolver(build_subgame_tree(SubgameConfig(pot_chips=(10, 10), stacks=(90, 90))), hands, ranges)
    river = river_hands("Qh Td 8c 5s 2d")
    with pytest.raises(TypeError, match="LEAF or RUNOUT nodes needs TurnHands"):
        SubgameSolver(tree, river, np.ones((2, river.n_hands)))
    with pytest.raises(ValueError, match="a turn board has 4 cards, got 5"):
        turn_hands("Qh Td 8c 5s 2d")
    with pytest.raises(ValueError, match="samples must be an int >= 1"):
        ContinuationConfig(samples=0)


def test_swap_mixing_equals_an_enumeration_of_the_swaps():
    """Swap's swap event on a range (an observer holding two cards, a flop board) equals the
    enumeration of every outcome: each card kept with 1 - p or replaced by a uniform live card not
    in the holding (two replacements drawn without replacement)."""
    board, own, p = [0, 13, 26], [51, 50], 0.3
    rng = np.random.default_rng(3)
    weights = np.zeros(N_COMBOS)
    live = np.flatnonzero(~blocked([*board, *own]))
    weights[rng.choice(live, 30, replace=False)] = rng.random(30)
    expected = np.zeros(N_COMBOS)
    free = sorted(set(range(52)) - set(board) - set(own))
    for combo in np.flatnonzero(weights):
        a, b = HAND_CARDS[combo].tolist()
        deck = [card for card in free if card not in (a, b)]
        m = len(deck)
        expected[combo] += (1 - p) ** 2 * weights[combo]
        for x in deck:
            expected[combo_index([x, b])] += p * (1 - p) / m * weights[combo]
            expected[combo_index([a, x])] += p * (1 - p) / m * weights[combo]
            for y in deck:
                if y != x:
                    expected[combo_index([x, y])] += p * p / (m * (m - 1)) * weights[combo]
    assert np.allclose(swapped(weights, board, own, p), expected, rtol=1e-12, atol=1e-15)
