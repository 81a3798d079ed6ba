"""The subgame solver: hand vectors and showdowns against brute force, the run-time betting tree,
vector CFR against the numpy peer and a toy river game with a known equilibrium, and convergence."""

from __future__ import annotations

import json

import numpy as np
import pytest
from numba import njit

from abstraction.bets.bet_abstraction import StreetBets
from game.cards.deck import parse_cards
from game.cards.evaluator import evaluate
from solver.bench.resolve import format_table
from solver.bench.resolve_numpy import NumpyShowdown, NumpySubgameSolver
from solver.resolve import kernels_vector_cfr
from solver.resolve.hands import (
    batched_showdown_masses,
    compatible_mass,
    fold_values,
    river_hands,
    showdown_masses,
    showdown_values,
)
from solver.resolve.kernels_lanes import (
    add_difference,
    add_difference_and,
    add_to_three,
    store_difference,
    transpose_values_tile,
)
from solver.resolve.resolver import OpponentValues, ResolveConfig, SubgameSolver, normalized_strategy
from solver.resolve.tree import DECISION, FOLD, SHOWDOWN, SubgameConfig, build_subgame_tree
from tests.solver.cli_support import invoke


def _brute_force(hands, reach, own_chips, opponent_chips):
    """O(n^2) showdown masses and values straight from the definition."""
    n = hands.n_hands
    win, lose, compatible, value = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
    for h in range(n):
        for j in range(n):
            if set(hands.cards[h].tolist()) & set(hands.cards[j].tolist()):
                continue
            compatible[h] += reach[j]
            if hands.strength[h] > hands.strength[j]:
                win[h] += reach[j]
                value[h] += opponent_chips * reach[j]
            elif hands.strength[h] < hands.strength[j]:
                lose[h] += reach[j]
                value[h] -= own_chips * reach[j]
            else:
                value[h] += 0.5 * (opponent_chips - own_chips) * reach[j]
    return win, lose, compatible, value


def test_hands_are_the_unblocked_combos_sorted_by_strength_with_the_evaluator_values():
    hands = river_hands("Ah Kd 7c 7s 2h 9d")  # a River of Blood board of six cards
    assert hands.n_hands == 46 * 45 // 2
    assert np.all(np.diff(hands.strength) >= 0)
    assert not np.isin(hands.cards, hands.board).any()
    for h in (0, 500, hands.n_hands - 1):
        assert hands.strength[h] == evaluate(np.concatenate([hands.cards[h], hands.board]))


@pytest.mark.jit_only
@pytest.mark.parametrize("board", ["Ah Kd 7c 7s 2h", "As Ks Qs Js 9s", "2c 2d 2h 3c 3d 9s"])
def test_showdown_and_fold_values_equal_brute_force_on_random_ranges(board):
    hands = river_hands(board)
    rng = np.random.default_rng(7)
    reach = rng.random(hands.n_hands) * (rng.random(hands.n_hands) < 0.6)
    win, lose, compatible, value = _brute_force(hands, reach, 30.0, 45.0)
    fast_win, fast_lose = showdown_masses(hands, reach)
    np.testing.assert_allclose(fast_win, win, rtol=0, atol=1e-9)
    np.testing.assert_allclose(fast_lose, lose, rtol=0, atol=1e-9)
    np.testing.assert_allclose(compatible_mass(hands, reach), compatible, rtol=0, atol=1e-9)
    np.testing.assert_allclose(showdown_values(hands, reach, 30.0, 45.0), value, rtol=0, atol=1e-9)
    np.testing.assert_allclose(fold_values(hands, reach, -30.0), -30.0 * compatible, rtol=0, atol=1e-9)
    together = np.stack([reach, rng.random(hands.n_hands), np.zeros(hands.n_hands)])  # three reach vectors at once
    weaker_sums, together_compatible = batched_showdown_masses(hands, together)
    np.testing.assert_allclose(weaker_sums[0], win + compatible - lose, rtol=0, atol=1e-9)  # w + e
    np.testing.assert_allclose(together_compatible[0], compatible, rtol=0, atol=1e-9)
    np.testing.assert_allclose(together_compatible[1], compatible_mass(hands, together[1]), rtol=0, atol=1e-9)
    assert not weaker_sums[2].any() and not together_compatible[2].any()
    peer = NumpyShowdown(hands)
    np.testing.assert_allclose(peer.values(reach, 30.0, 45.0), value, rtol=0, atol=1e-9)
    np.testing.assert_allclose(peer.compatible(reach), compatible, rtol=0, atol=1e-9)


def test_bad_hand_input_is_refused_with_its_reason():
    hands = river_hands("Ah Kd 7c 7s 2h")
    with pytest.raises(ValueError, match="shape"):
        showdown_values(hands, np.ones(5), 1.0, 1.0)
    with pytest.raises(ValueError, match="non-negative"):
        compatible_mass(hands, -np.ones(hands.n_hands))
    with pytest.raises(ValueError, match="at least 5 cards"):
        river_hands("Ah Kd 7c")


def _paths(tree, node=0, raises=0):
    """(terminal node, bets and raises on the path) for every root-to-terminal path."""
    if tree.kind[node] != DECISION:
        return [(node, raises)]
    out = []
    for child in tree.children(node):
        grew = tree.action[child].startswith(("bet", "raise"))
        out += _paths(tree, child, raises + grew)
    return out


@pytest.mark.parametrize("stacks", [(180, 180), (180, 55)])
def test_tree_conserves_chips_respects_the_cap_and_the_effective_stack(stacks):
    config = SubgameConfig(pot_chips=(20, 20), stacks=stacks, bets=StreetBets.parse("0.5p,1p,a cap=3"))
    tree = build_subgame_tree(config)
    effective = min(stacks)
    for node, raises in _paths(tree):
        assert raises <= 3
        put_in = tree.pot_chips[node] - 20
        assert put_in.max() <= effective  # nobody bets more than the other can call
        if tree.kind[node] == SHOWDOWN:
            assert put_in[0] == put_in[1]
        else:
            assert tree.kind[node] == FOLD and put_in[tree.player[node]] < put_in[1 - tree.player[node]]
    # the first bets: half pot, pot and all-in for the effective stack
    assert [tree.describe(c) for c in tree.children(0)] == ["check", "bet to 20", "bet to 40", f"bet to {effective}"]


def test_tree_facing_a_bet_offers_fold_call_and_engine_min_raises():
    # player 1 faces a bet of 10 into 40 with one raise left: the smallest raise is to 20 (cost + max(cost, bb))
    config = SubgameConfig(
        pot_chips=(30, 20),
        pips=(10, 0),
        stacks=(90, 100),
        first_player=1,
        bets=StreetBets.parse("0.1p,a cap=2"),
        raises_made=1,
    )
    tree = build_subgame_tree(config)
    assert [tree.describe(c) for c in tree.children(0)] == ["fold", "call", "raise to 20", "raise to 100"]
    # after the raise the cap is reached: player 0 can only fold or call
    raised = tree.children(0)[2]
    assert [tree.describe(c) for c in tree.children(raised)] == ["fold", "call"]
    assert tree.pot_chips[tree.children(0)[3]].tolist() == [30.0, 120.0]


def test_bad_tree_config_is_refused_with_its_reason():
    with pytest.raises(ValueError, match="first_player"):
        SubgameConfig(pot_chips=(1, 1), stacks=(5, 5), first_player=2)
    with pytest.raises(ValueError, match="higher pip"):
        SubgameConfig(pot_chips=(6, 2), stacks=(5, 5), pips=(4, 0), first_player=0)
    with pytest.raises(ValueError, match="exceeds"):
        SubgameConfig(pot_chips=(20, 2), stacks=(5, 5), pips=(18, 0), first_player=1)
    with pytest.raises(ValueError, match="max_nodes"):
        build_subgame_tree(SubgameConfig(pot_chips=(1, 1), stacks=(500, 500)), max_nodes=10)


@njit(cache=True)
def _lane_steps(out, x, y, z, addend):
    """The sweep's lane operations once each, at offsets 0 and 16 of 32-element arrays."""
    store_difference(out, 0, x, 16, y, 0, z, 16)
    add_difference(out, 16, x, 0, y, 16, z, 0)
    add_difference_and(out, 32, x, 16, y, 0, z, 16, addend, 0)
    add_to_three(addend, 16, x, 0, y, 16, z, 0)


@njit(cache=True)
def _combined_tile(x, y, rows, a, b, out, targets):
    transpose_values_tile(x, y, rows, 0, 16, a, b, out, targets, 0, 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lane_operations_and_tiled_transposes_equal_numpy(dtype):
    """The vector kernels of kernels_lanes (compiled: LLVM vectors and shuffles; under
    NUMBA_DISABLE_JIT: numpy slices) equal numpy bit for bit: 16 rows at scattered offsets of a
    (node, player, hand) table turned hand-major, two whole tiles and a part tile of 5 hands; a tile
    of ``a * x + b * y`` turned into 16 scattered rows; and
    ``out = x - y - z``, ``out += x - y - z``, ``out += x - y - z + addend``, three ``+= addend``."""
    rng = np.random.default_rng(5)
    table = rng.random((9, 2, 37)).astype(np.float32)
    rows = rng.choice(18, 16) * 37  # flat starts of 16 of the 18 (node, player) rows, repeats allowed
    hand_major = np.full((37, 16), -1.0, np.float32)
    kernels_vector_cfr._transpose(table, rows, 37, hand_major, np.arange(37) * 16)
    assert np.array_equal(hand_major, table.reshape(-1)[rows[:, None] + np.arange(37)].T)
    # a tile of a * x + b * y (x, y: 16 hand-major rows of 32 columns, shift 16) into 16 scattered rows
    x, y, a, b = (rng.random((16, 32)).astype(np.float32) for _ in range(4))
    targets = rng.permutation(20)[:16] * 16
    out = np.zeros((20, 16), np.float32)
    _combined_tile(x, y, np.arange(16) * 32, a.reshape(-1), b.reshape(-1), out, targets)
    combined = a.reshape(-1)[16:32] * x[:, 16:] + b.reshape(-1)[16:32] * y[:, 16:]
    assert np.array_equal(out.reshape(-1)[targets[:, None] + np.arange(16)], combined.T)
    x, y, z, addend = (rng.random(32).astype(dtype) for _ in range(4))
    out = np.zeros(48, dtype)
    expected_addend, expected_x, expected_y, expected_z = addend.copy(), x.copy(), y.copy(), z.copy()
    _lane_steps(out, x, y, z, addend)
    expected = np.concatenate(
        [
            expected_x[16:] - expected_y[:16] - expected_z[16:],
            np.zeros(16, dtype) + (expected_x[:16] - expected_y[16:] - expected_z[:16]),
            np.zeros(16, dtype) + ((expected_x[16:] - expected_y[:16] - expected_z[16:]) + expected_addend[:16]),
        ]
    )
    assert out.dtype == dtype and np.array_equal(out, expected)
    assert np.array_equal(x[:16], expected_x[:16] + expected_addend[16:]) and np.array_equal(x[16:], expected_x[16:])
    assert np.array_equal(y[16:], expected_y[16:] + expected_addend[16:]) and np.array_equal(y[:16], expected_y[:16])
    assert np.array_equal(z[:16], expected_z[:16] + expected_addend[16:]) and np.array_equal(z[16:], expected_z[16:])


@pytest.mark.jit_only
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "linear", "dcfr"])
def test_numba_iterations_equal_the_numpy_peer(algorithm):
    hands = river_hands("Qh Td 8c 5s 3h")
    tree = build_subgame_tree(
        SubgameConfig(pot_chips=(40, 40), stacks=(160, 160), bets=StreetBets.parse("0.5p,1p,a cap=2"))
    )
    ranges = np.random.default_rng(3).random((2, hands.n_hands))
    config = ResolveConfig(algorithm)
    ours = SubgameSolver(tree, hands, ranges, config).run(12).run(13)
    peer = NumpySubgameSolver(tree, hands, ranges, config).run(25)
    # the same updates in the same order on float32 tables; the showdown's sums are added in another
    # order (the peer's in float64), and regret matching magnifies float32 rounding where a node's
    # positive regrets are tiny: measured up to 1.1e-4 (strategy) and 8e-5 of the largest regret
    np.testing.assert_allclose(
        ours.average_strategy(), normalized_strategy(tree, peer.strategy_sums.astype(np.float64)), rtol=0, atol=1e-3
    )
    np.testing.assert_allclose(ours.regrets, peer.regrets, rtol=0, atol=1e-3 * np.abs(peer.regrets).max())


def _toy_river():
    """Player 0 holds the best hand (AA) or air (53), equally likely; player 1 a bluff catcher (K8).
    Pot 20, one pot-sized bet each way. Known equilibrium (the clairvoyance game): player 0 always
    bets AA and bluffs air half the time (bluff:value = B / (P + B)), player 1 calls half the time
    (P / (P + B)); player 0 wins 0.5 * (10 + 30) / 2 + 0.5 * -10 = +5 chips per hand."""
    hands = river_hands("Ks Qd 7h 4c 2s")
    ranges = np.zeros((2, hands.n_hands))
    index = {frozenset(hands.cards[h].tolist()): h for h in range(hands.n_hands)}
    aces, air, catcher = (index[frozenset(parse_cards(text).tolist())] for text in ("Ac Ad", "3h 5d", "Kh 8c"))
    ranges[0, [aces, air]] = 1.0
    ranges[1, catcher] = 1.0
    config = SubgameConfig(pot_chips=(10, 10), stacks=(100, 100), bets=StreetBets((1.0,), all_in=False, cap=1))
    return build_subgame_tree(config), hands, ranges, (aces, air, catcher)


def test_terminal_batch_sweeps_each_opponent_reach_row_once():
    """The fold and the call under the traverser's decision face the same opponent reach row and
    share one column of the batched sweep; every showdown has a column of its own among the swept
    ones; the shared columns come first (their compatible reach is transposed back)."""
    tree = build_subgame_tree(
        SubgameConfig(pot_chips=(20, 20), stacks=(180, 180), bets=StreetBets.parse("0.5p,1p,a cap=2"))
    )
    for traverser in (0, 1):
        nodes, sources, columns, _, _, column_sources, n_full, n_shared = kernels_vector_cfr._terminal_batch(
            tree.kernel_arrays(), traverser
        )
        assert len(set(column_sources.tolist())) == len(column_sources) < len(nodes)
        assert np.array_equal(column_sources[columns], sources)
        showdown_columns = columns[tree.kind[nodes] == SHOWDOWN]
        assert np.all(showdown_columns < n_full) and len(set(showdown_columns.tolist())) == len(showdown_columns)
        shared = np.bincount(columns)[columns] > 1  # these terminals' folds need the compatible reach as rows
        assert np.any(shared) and np.all(columns[shared] < n_shared)
        assert n_full % kernels_vector_cfr.LANES == 0 and n_shared % kernels_vector_cfr.LANES == 0


@pytest.mark.jit_only
@pytest.mark.parametrize("algorithm", ["cfr+", "dcfr"])
def test_toy_river_converges_to_its_known_equilibrium(algorithm):
    tree, hands, ranges, (aces, air, catcher) = _toy_river()
    solver = SubgameSolver(tree, hands, ranges, ResolveConfig(algorithm)).run(4000)
    strategy = solver.average_strategy()
    _check, bet = tree.children(0)
    _fold, call = tree.children(bet)
    assert strategy[bet, aces] == pytest.approx(1.0, abs=1e-3)
    assert strategy[bet, air] == pytest.approx(0.5, abs=1e-2)
    assert strategy[call, catcher] == pytest.approx(0.5, abs=1e-2)
    value = solver.expected_values()
    assert value[0] == pytest.approx(5.0, abs=1e-2)
    assert value[0] + value[1] == pytest.approx(0.0, abs=1e-12)  # zero sum
    assert solver.exploitability().nash_conv < 1e-2


@pytest.mark.jit_only
def test_exploitability_of_a_river_with_uniform_ranges_goes_to_zero():
    hands = river_hands("Ah Kd 7c 7s 2h")
    tree = build_subgame_tree(
        SubgameConfig(pot_chips=(50, 50), stacks=(150, 150), bets=StreetBets.parse("0.5p,1p,a cap=2"))
    )
    solver = SubgameSolver(tree, hands, np.ones((2, hands.n_hands)), ResolveConfig("dcfr"))
    uniform = solver.exploitability(normalized_strategy(tree, np.zeros((tree.n_nodes, hands.n_hands))))
    fractions = [solver.run(n).exploitability().nash_conv_pot_fraction for n in (10, 90, 400)]
    assert uniform.nash_conv_pot_fraction > 0.1
    assert fractions[0] > fractions[1] > fractions[2]
    assert fractions[2] < 1e-3  # < 0.1% of the pot after 500 iterations


def test_bad_solver_input_is_refused_with_its_reason():
    tree, hands, ranges, (aces, _, _) = _toy_river()
    with pytest.raises(ValueError, match="shape"):
        SubgameSolver(tree, hands, ranges[:, :10])
    with pytest.raises(ValueError, match="positive weight"):
        SubgameSolver(tree, hands, np.zeros_like(ranges))
    with pytest.raises(ValueError, match="unknown algorithm"):
        ResolveConfig("cfr++")
    blocked = np.zeros_like(ranges)
    blocked[0, aces] = 1.0
    blocked[1, next(h for h in range(hands.n_hands) if 48 in hands.cards[h] and h != aces)] = 1.0  # holds Ac
    with pytest.raises(ValueError, match="shared card"):
        SubgameSolver(tree, hands, blocked)
    with pytest.raises(ValueError, match="strategy must have shape"):
        SubgameSolver(tree, hands, ranges).exploitability(np.ones((2, 2)))


@pytest.mark.jit_only
def test_bench_resolve_times_both_cases_next_to_the_numpy_peer():
    result = invoke("bench", "resolve", "--iterations", 3, "--repeats", 1, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["hands_per_player"] == 1081 and report["threads"] == 1
    assert set(report["cases"]) == {"issue", "default"}
    issue = report["cases"]["issue"]
    assert issue["bets"] == "0.5p,1p,a cap=2" and issue["ours_iters_per_s"] > 0 and issue["speedup"] > 0
    assert 0 < issue["nash_conv_pot_fraction"] < 1
    # the final streets of the variants with other showdowns (found by their rules flags)
    assert {name: case["hands_per_player"] for name, case in report["variants"].items()} == {
        "river_of_blood": 45 * 44 // 2,  # seven board cards
        "bounty": 2 * 1081,  # hand x hit bit
    }
    assert all(case["ours_iters_per_s"] > 0 for case in report["variants"].values())
    # the depth-limited turn: 48 * 47 / 2 hands, the issue's bets ending at leaves and runouts
    turn = report["turn"]
    assert turn["hands_per_player"] == 1128 and turn["board"] == "Qh Td 8c 5s" and turn["ours_iters_per_s"] > 0
    assert (turn["nodes"], turn["leaves"], turn["runouts"]) == (57, 13, 6)
    assert "turn Qh Td 8c 5s, depth-limited" in format_table(report)
    bad = invoke("bench", "resolve", "--algorithm", "cfr++")
    assert bad.exit_code == 2 and "unknown algorithm" in bad.output


@pytest.mark.jit_only
def test_best_response_finds_the_toy_equilibrium_unexploitable_and_uniform_play_exploitable():
    """The best-response pass alone, on strategies written by hand (no CFR involved)."""
    tree, hands, ranges, (aces, air, catcher) = _toy_river()
    solver = SubgameSolver(tree, hands, ranges)
    (check, bet), (check_back, bet_after_check), (fold, call) = (tree.children(n) for n in (0, 1, 2))
    fold_after_check, call_after_check = tree.children(bet_after_check)
    equilibrium = normalized_strategy(tree, np.zeros((tree.n_nodes, hands.n_hands)))  # uniform elsewhere
    equilibrium[[check, bet]] = 0.0
    equilibrium[bet, aces], equilibrium[check, air], equilibrium[bet, air] = 1.0, 0.5, 0.5
    equilibrium[[fold, call], catcher] = 0.5
    equilibrium[[check_back, bet_after_check], catcher] = 1.0, 0.0
    equilibrium[[fold_after_check, call_after_check], air] = 1.0, 0.0  # air gives up to a bet after checking
    result = solver.exploitability(equilibrium)
    assert result.best_response == pytest.approx((5.0, -5.0), abs=1e-12)  # the game value, each side
    assert result.nash_conv == pytest.approx(0.0, abs=1e-12)
    assert solver.expected_values(equilibrium) == pytest.approx((5.0, -5.0), abs=1e-12)
    # against uniform play: player 0's AA earns 20 betting or checking (+10 or +30 either way), its air
    # -10 at best: (20 - 10) / 2 = 5 per deal; player 1's catcher calls a bet (0: half AA, half air)
    # and bets after a check (+5: air folds half the time, AA calls half the time), over 2 deals: 2.5
    uniform = solver.exploitability(normalized_strategy(tree, np.zeros((tree.n_nodes, hands.n_hands))))
    assert uniform.best_response == pytest.approx((5.0, 2.5), abs=1e-12)
    assert uniform.nash_conv_pot_fraction == pytest.approx(7.5 / 20, abs=1e-12)


def test_iterations_are_deterministic_however_they_are_split():
    tree, hands, ranges, _ = _toy_river()
    whole = SubgameSolver(tree, hands, ranges).run(25)
    split = SubgameSolver(tree, hands, ranges).run(10).run(15)
    assert np.array_equal(whole.regrets, split.regrets) and np.array_equal(whole.strategy_sums, split.strategy_sums)


def _gadget_river(opponent=1):
    """A river with random ranges, and a blueprint strategy solved (300 iterations) for another
    range of the ``opponent``: re-solving from the true ranges without care gives some of the
    opponent's hands more than the blueprint did."""
    hands = river_hands("Ah Kd 7c 7s 2h")
    tree = build_subgame_tree(
        SubgameConfig(pot_chips=(20, 20), stacks=(80, 80), bets=StreetBets.parse("0.5p,1p,a cap=2"))
    )
    rng = np.random.default_rng(5)
    ranges = rng.random((2, hands.n_hands))
    blueprint_ranges = ranges.copy()
    blueprint_ranges[opponent] = rng.random(hands.n_hands) ** 4
    blueprint = SubgameSolver(tree, hands, blueprint_ranges).run(300).average_strategy()
    return tree, hands, ranges, blueprint


@pytest.mark.jit_only
@pytest.mark.parametrize("algorithm", ["cfr+", "dcfr"])
def test_gadget_whose_opponent_always_enters_is_plain_re_solving(algorithm):
    tree, hands, ranges, _ = _gadget_river()
    config = ResolveConfig(algorithm)
    plain = SubgameSolver(tree, hands, ranges, config).run(30)
    entering = OpponentValues(1, np.full(hands.n_hands, -np.inf))
    gadget = SubgameSolver(tree, hands, ranges, config, gadget=entering).run(30)
    assert np.array_equal(plain.strategy_sums, gadget.strategy_sums) and np.array_equal(plain.regrets, gadget.regrets)


@pytest.mark.jit_only
@pytest.mark.parametrize("opponent", [0, 1])
def test_safe_re_solving_gives_no_opponent_hand_more_than_the_blueprint_did(opponent):
    """The safety property: with the opponent's best-response values against the blueprint as the
    gadget's values, each opponent hand's best response to the re-solved strategy is worth at most
    its blueprint value, up to an excess that shrinks with iterations; plain re-solving breaks it."""
    tree, hands, ranges, blueprint = _gadget_river(opponent)
    pot = float(tree.pot_chips[0].sum())
    measure = SubgameSolver(tree, hands, ranges)
    blueprint_values = measure.hand_values(blueprint, opponent, best=True)
    live = ranges[opponent] > 0

    def excess(strategy):  # the worst opponent hand's gain over its blueprint value, in pots
        return float((measure.hand_values(strategy, opponent, best=True) - blueprint_values)[live].max()) / pot

    plain = SubgameSolver(tree, hands, ranges).run(300).average_strategy()
    assert excess(plain) > 0.01  # unsafe: some hand wins over 1% of the pot more than against the blueprint
    solver = SubgameSolver(tree, hands, ranges, gadget=OpponentValues(opponent, blueprint_values))
    excesses = [excess(solver.run(n).average_strategy()) for n in (100, 200, 700)]
    assert excesses[0] > excesses[1] > excesses[2]
    assert excesses[2] < 1e-3  # 0.1% of the pot after 1,000 iterations
    # overall: the opponent's best response (chips per deal over both ranges) gains nothing either
    re_solved = measure.exploitability(solver.average_strategy()).best_response[opponent]
    assert re_solved <= measure.exploitability(blueprint).best_response[opponent]


def test_bad_gadget_input_is_refused_with_its_reason():
    tree, hands, ranges, _ = _toy_river()
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        OpponentValues(2, np.zeros(hands.n_hands))
    with pytest.raises(ValueError, match="finite or -inf"):
        OpponentValues(1, np.full(hands.n_hands, np.nan))
    with pytest.raises(ValueError, match=r"shape \(1081,\)"):
        SubgameSolver(tree, hands, ranges, gadget=OpponentValues(1, np.zeros(5)))
