"""Full-traversal CFR family (solver.solve.cfr, solver.solve.kernels_cfr) against the pure-Python reference and known values."""

from __future__ import annotations

import numpy as np
import pytest

from abstraction.exact.exact_games import bucket_index
from abstraction.tree import SolverGame
from game.rules.exact import rules_config
from solver.evaluate.exploitability import exploitability
from solver.solve.cfr import ALGORITHMS, FULL_TRAVERSAL, SAMPLING, Solver, SolverConfig
from tests.reference import InfosetKey, ReferenceCFR


def reference_rows(game: SolverGame) -> dict[InfosetKey, int]:
    """The reference's information-set key of every row start of the flat tables."""
    tree = game.tree
    index = bucket_index(rules_config(game.name, game.config["rules"]))
    cards_of_bucket = [{bucket: cards for cards, bucket in street.items()} for street in index]
    rows = {}
    for node in np.flatnonzero(tree.infoset_group >= 0):
        group = tree.infoset_group[node]
        for bucket in range(tree.n_buckets[group]):
            cards = cards_of_bucket[tree.street[node]][bucket]
            key = (int(tree.player[node]), cards, tree.history(int(node)))
            rows[key] = int(tree.row_offset[group] + bucket * tree.n_actions[group])
    return rows


REFERENCE_SETTINGS = {
    "cfr": {},
    "cfr+": {"regret_matching_plus": True, "averaging_exponent": 1.0},
    "linear": {"averaging_exponent": 1.0, "discount": True, "alpha": 1.0, "beta": 1.0},
    "dcfr": {"averaging_exponent": 2.0, "discount": True, "alpha": 1.5, "beta": 0.0},
}


def compare_with_reference(game: SolverGame, algorithm: str, iterations: int) -> None:
    reference = ReferenceCFR(rules_config(game.name, game.config["rules"]), **REFERENCE_SETTINGS[algorithm])
    for _ in range(iterations):
        reference.iterate()
    solver = Solver(game, algorithm).run(iterations)
    regrets, average = solver.tables()["regrets"], solver.average_strategy()
    rows = reference_rows(game)
    assert set(rows) == set(reference.regrets), "both walk the same information sets"
    reference_average = reference.average_policy()
    for key, row in rows.items():
        count = len(reference.regrets[key])
        np.testing.assert_allclose(regrets[row : row + count], reference.regrets[key], rtol=0, atol=1e-9)
        np.testing.assert_allclose(average[row : row + count], reference_average[key], rtol=0, atol=1e-9)


@pytest.mark.parametrize("algorithm", FULL_TRAVERSAL)
def test_kernel_equals_reference_on_kuhn(kuhn, algorithm) -> None:
    compare_with_reference(kuhn, algorithm, iterations=30)


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+"])
def test_kernel_equals_reference_on_leduc(leduc, algorithm) -> None:
    compare_with_reference(leduc, algorithm, iterations=2)


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", FULL_TRAVERSAL)
def test_kernel_equals_reference_on_leduc_longer(leduc, algorithm) -> None:
    compare_with_reference(leduc, algorithm, iterations=15)


def test_kuhn_solution(kuhn) -> None:
    result = exploitability(kuhn, Solver(kuhn, "cfr+").run(1000).average_strategy())
    # Kuhn poker's game value for player 0 is -1/18 (Kuhn 1950; OpenSpiel cfr_test.py)
    assert result.game_value == pytest.approx(-1 / 18, abs=1e-3)
    assert result.exploitability_chips < 1e-3


@pytest.mark.jit_only  # a convergence run
def test_leduc_cfr_plus_after_1000_iterations(leduc) -> None:
    result = exploitability(leduc, Solver(leduc, "cfr+").run(1000).average_strategy())
    # OpenSpiel's C++ CFR+ reaches below 3e-4 chips after 1,000 iterations; Leduc's value for
    # player 0 is -0.0856 (OpenSpiel cfr_test.py / Lanctot's thesis)
    assert result.exploitability_chips < 3e-4
    assert result.game_value == pytest.approx(-0.0856, abs=1e-3)


@pytest.mark.parametrize("algorithm", FULL_TRAVERSAL)
@pytest.mark.jit_only  # a convergence run
def test_exploitability_falls(leduc, algorithm) -> None:
    solver = Solver(leduc, algorithm)
    measured = []
    for step in (10, 90, 300):
        solver.run(step)
        measured.append(exploitability(leduc, solver.average_strategy()).exploitability_chips)
    assert measured[0] > measured[1] > measured[2]
    assert measured[2] < {"cfr": 0.05, "cfr+": 0.005, "linear": 0.03, "dcfr": 0.005}[algorithm]


@pytest.mark.parametrize("algorithm", FULL_TRAVERSAL)
def test_resume_is_bit_identical(kuhn, algorithm) -> None:
    whole = Solver(kuhn, algorithm).run(50).tables()
    first = Solver(kuhn, algorithm).run(20)
    resumed = Solver(kuhn, algorithm).load_tables(first.tables()).run(30).tables()
    for name in whole:
        assert np.array_equal(whole[name], resumed[name]), name


def test_current_strategy_rows_are_distributions(leduc) -> None:
    solver = Solver(leduc, "cfr").run(5)
    tree = leduc.tree
    row_starts = np.concatenate(
        [tree.row_offset[g] + tree.n_actions[g] * np.arange(tree.n_buckets[g]) for g in range(tree.n_groups)]
    )
    for strategy in (solver.current_strategy(), solver.average_strategy()):
        assert (strategy >= 0).all()
        np.testing.assert_allclose(np.add.reduceat(strategy, row_starts), 1.0, atol=1e-12)
    assert exploitability(leduc, solver.current_strategy()).exploitability_chips > 0


def test_bad_settings_are_refused(kuhn) -> None:
    with pytest.raises(ValueError, match="unknown algorithm 'fast'"):
        Solver(kuhn, "fast")
    with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*63\), got -1"):
        Solver(kuhn, "cfr", seed=-1)
    with pytest.raises(TypeError, match="game must be a SolverGame"):
        Solver("kuhn")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="iterations must be an int >= 0, got -3"):
        Solver(kuhn).run(-3)
    with pytest.raises(ValueError, match=r"regrets has shape \(3,\), this game needs \(24,\)"):
        Solver(kuhn).load_tables({"regrets": np.zeros(3), "strategy_sums": np.zeros(24), "iteration": 0})
    assert SolverConfig.from_dict(SolverConfig("dcfr", alpha=2.0).to_dict()) == SolverConfig("dcfr", alpha=2.0)
    assert set(ALGORITHMS) == {"cfr", "cfr+", "linear", "dcfr", "es-mccfr", "os-mccfr"}


def _coin_game() -> SolverGame:
    """A chance node inside the betting: the deal's coin picks child 0 or 1; then player 0 takes
    ``k + 1`` chips from player 1 or passes (0). Equilibrium: always take; value 1.5 for player 0."""
    from abstraction.tree import CHANCE, DECISION, FOLD, DealTable, FlatTree

    tree = FlatTree(
        kind=[CHANCE, DECISION, DECISION, FOLD, FOLD, FOLD, FOLD],
        player=[-1, 0, 0, 1, -1, 1, -1],
        street=[0] * 7,
        child_start=[1, 3, 5, 0, 0, 0, 0],
        n_children=[2, 2, 2, 0, 0, 0, 0],
        committed=[[0, 0], [0, 0], [0, 0], [0, 1], [0, 0], [0, 2], [0, 0]],
        infoset_group=[-1, 0, 1, -1, -1, -1, -1],
        action_kind=[-1, -2, -2, 3, 1, 3, 1],
        action_amount=[0, 0, 1, 1, 0, 2, 0],
        context=[0, -1, -1, -1, -1, -1, -1],
        value_row=[-1, -1, -1, 0, 1, 2, 1],
        n_actions=[2, 2],
        row_offset=[0, 2],
        n_buckets=[1, 1],
        group_player=[0, 0],
        group_street=[0, 0],
        group_slot=[0, 0],
        terminal_values=[[1, -1], [0, 0], [2, -2]],
        context_size=np.zeros(0),
        chance_size=[2],
    )
    deals = DealTable(
        probability=[0.5, 0.5], bucket=np.zeros((2, 2, 1)), weight=np.zeros((2, 0)), chance=[[0], [1]], n_buckets=[1]
    )
    return SolverGame(name="coin", tree=tree, deals=deals, config={})


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "es-mccfr", "os-mccfr"])
def test_chance_nodes_inside_the_betting_follow_the_deal(algorithm: str) -> None:
    from solver.evaluate.exploitability import exploitability

    game = _coin_game()
    solver = Solver(game, algorithm, seed=3).run(2000 if algorithm in SAMPLING else 200)
    strategy = solver.average_strategy()
    assert strategy[[0, 2]].min() > 0.95  # take in both branches
    result = exploitability(game, strategy)
    assert result.game_value == pytest.approx(1.5, abs=0.05)
    assert result.exploitability_chips < 0.05
