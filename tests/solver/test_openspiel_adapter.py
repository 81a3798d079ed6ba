"""The OpenSpiel adapter (solver.games.openspiel_adapter) in both directions, with OpenSpiel's own algorithms.

1. vcfr -> OpenSpiel: OpenSpiel's C++ ``nash_conv`` on our games wrapped as Python games equals our
   exact NashConv to 1e-9 (Leduc, 3-player Kuhn through the registry, small exact variants of both
   rule sets on a 9-card deck: the default decks take ~35 s per OpenSpiel best response); the
   information state strings and tensors split states exactly as our information sets do; OpenSpiel's
   Python CFR+ converges on a small variant through the adapter.
2. OpenSpiel -> vcfr: Kuhn and Leduc loaded from pyspiel itself, solved by our CFR+, have OpenSpiel's
   NashConv near 0 (equal to ours to 1e-9) and Kuhn's game value -1/18.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from abstraction.cards.buckets import CardAbstraction
from abstraction.exact.exact_games import build_game
from abstraction.exact.small_variants import build_small_variant
from solver.evaluate.exploitability import exploitability, uniform_strategy
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game
from solver.games.openspiel_adapter import (
    infoset_rows,
    openspiel_game,
    register_games,
    solver_game_from_openspiel,
    strategy_from_policy,
    tabular_policy,
)
from solver.solve.cfr import Solver, normalized_strategy
from tests.solver.test_exploitability import random_strategy

pyspiel = pytest.importorskip("pyspiel")

NINE_CARDS = "Qc Qd Qh Kc Kd Kh Ac Ad Ah"
"""A 9-card deck (the fewest a heads-up hold'em hand deals): the small variants' games on it take ~1 s
per OpenSpiel best response."""


def assert_nash_conv_equal(game, strategies) -> None:  # type: ignore[no-untyped-def]
    spiel_game, rows = openspiel_game(game), infoset_rows(game)
    for strategy in strategies:
        ours = exploitability(game, strategy).nash_conv
        assert pyspiel.nash_conv(spiel_game, tabular_policy(rows, strategy)) == pytest.approx(ours, abs=1e-9)


def test_leduc_nash_conv_through_the_adapter_equals_ours() -> None:
    game = build_game("leduc")
    strategies = [uniform_strategy(game), normalized_strategy(game, random_strategy(game, 5))]
    assert_nash_conv_equal(game, [*strategies, Solver(game, "cfr+").run(30).average_strategy()])


def test_python_nash_conv_through_the_adapter_equals_ours() -> None:
    """OpenSpiel's Python ``exploitability.nash_conv`` (its own tree walk and best response) on Leduc."""
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import exploitability as python_exploitability

    game = build_game("leduc")
    spiel_game, strategy = openspiel_game(game), Solver(game, "cfr+").run(30).average_strategy()
    policy = policy_lib.pyspiel_policy_to_python_policy(spiel_game, tabular_policy(infoset_rows(game), strategy))
    ours = exploitability(game, strategy).nash_conv
    assert python_exploitability.nash_conv(spiel_game, policy) == pytest.approx(ours, abs=1e-9)


def test_registered_three_player_kuhn_nash_conv_equals_ours() -> None:
    register_games()
    register_games()  # idempotent
    spiel_game = pyspiel.load_game("python_vcfr", {"game": "kuhn", "players": 3})
    game = build_game("kuhn", {"players": 3})
    assert spiel_game.num_players() == 3
    for strategy in [uniform_strategy(game), Solver(game, "cfr").run(50).average_strategy()]:
        ours = exploitability(game, strategy).nash_conv
        policy = tabular_policy(infoset_rows(game), strategy)
        assert pyspiel.nash_conv(spiel_game, policy) == pytest.approx(ours, abs=1e-9)


def test_registered_small_variant_passes_openspiels_random_simulation_test() -> None:
    """By name, with its default deck: OpenSpiel's own consistency check (random playouts, clones,
    serialisation) on River of Blood's engine rules (chance nodes inside the betting)."""
    register_games()
    spiel_game = pyspiel.load_game("python_vcfr", {"game": "small_river_of_blood", "rules": "engine"})
    game = build_small_variant("river_of_blood", rules="engine").game
    root = spiel_game.new_initial_state()
    assert [p for _, p in root.chance_outcomes()] == game.deals.probability.tolist()
    pyspiel.random_sim_test(spiel_game, num_sims=20, serialize=True, verbose=False)
    dealt = root.child(7)
    clone = dealt.clone()
    clone.apply_action(1)
    assert (dealt.node, dealt.history()) == (0, [7]) and clone.history() == [7, 1]


@pytest.mark.parametrize(
    "variant",
    ["holdem", pytest.param("bounty", marks=pytest.mark.slow)],  # Bounty: 25 s (document), 60 s (engine)
)
@pytest.mark.parametrize("rules", ["document", "engine"])
def test_small_variant_nash_conv_through_the_adapter_equals_ours(variant: str, rules: str) -> None:
    game = build_small_variant(variant, rules=rules, deck=NINE_CARDS).game
    assert_nash_conv_equal(game, [uniform_strategy(game), Solver(game, "cfr+").run(10).average_strategy()])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "deck"),
    [
        ("river_of_blood", "Kc Ks Kd Kh Ac As Ad Ah Qc Qs"),
        ("auction", "Qc Qd Qh Kc Kd Kh Ac Ad Ah As Ks"),
        ("swap", None),
    ],
)
def test_small_variants_with_chance_in_the_betting_or_bids_through_the_adapter(variant: str, deck: str | None) -> None:
    """River of Blood (chance nodes inside the betting: the deal picks the child), the Auction's bids and
    Swap's swapped hands (its default 13-card deck, the fewest its swaps allow: 19,335 deals): about a
    minute each (500,000 and 330,000 states), Swap 4 minutes (on a loaded machine)."""
    game = build_small_variant(variant, rules="document", deck=deck).game
    assert_nash_conv_equal(game, [Solver(game, "cfr+").run(5).average_strategy()])


def test_information_states_are_our_information_sets() -> None:
    """Every decision state of the OpenSpiel game: same string <=> same (group, bucket) <=> same tensor."""
    game = build_small_variant("holdem", rules="engine", deck=NINE_CARDS).game
    spiel_game = openspiel_game(game)
    tree, deals = game.tree, game.deals
    infoset_of: dict[str, tuple[int, int]] = {}
    tensor_of: dict[str, tuple[float, ...]] = {}
    root = spiel_game.new_initial_state()
    for deal, _ in root.chance_outcomes():
        stack = [root.child(deal)]
        while stack:
            state = stack.pop()
            if state.is_terminal():
                continue
            player, node = state.current_player(), state.node
            group = int(tree.infoset_group[node])
            infoset = (group, int(deals.bucket[deal, player, tree.group_slot[group]]))
            key = state.information_state_string(player)
            assert infoset_of.setdefault(key, infoset) == infoset
            tensor = tuple(state.information_state_tensor(player))
            assert tensor_of.setdefault(key, tensor) == tensor
            stack += [state.child(action) for action in state.legal_actions()]
    assert len(set(infoset_of.values())) == len(infoset_of) == len(set(tensor_of.values()))
    assert set(infoset_of) <= set(infoset_rows(game).rows)


def test_openspiel_cfr_plus_converges_through_the_adapter() -> None:
    from open_spiel.python.algorithms import cfr

    game = build_small_variant("holdem", rules="engine", deck=NINE_CARDS).game
    rows = infoset_rows(game)
    solver = cfr.CFRPlusSolver(openspiel_game(game))
    values = []
    done = 0
    for target in (1, 4, 12):
        for _ in range(target - done):
            solver.evaluate_and_update_policy()
        done = target
        strategy = strategy_from_policy(game, rows, solver.average_policy())
        values.append(exploitability(game, strategy).nash_conv)
    assert all(later < earlier for earlier, later in itertools.pairwise(values)), values
    assert values[-1] < 0.5 * values[0], values


def test_openspiel_es_mccfr_runs_through_the_adapter() -> None:
    """OpenSpiel's C++ external-sampling MCCFR on a small variant: our NashConv of its average policy
    halves from 100 to 3,000 iterations (information sets it never met play uniformly)."""
    game = build_small_variant("holdem", rules="engine", deck=NINE_CARDS).game
    spiel_game, rows = openspiel_game(game), infoset_rows(game)
    solver = pyspiel.ExternalSamplingMCCFRSolver(spiel_game, seed=1)
    values, done = [], 0
    for target in (100, 3000):
        for _ in range(target - done):
            solver.run_iteration()
        done = target
        values.append(exploitability(game, strategy_from_policy(game, rows, solver.average_policy())).nash_conv)
    assert values[1] < 0.5 * values[0], values


def test_abstract_game_nash_conv_through_the_adapter_equals_ours(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """An abstract heads-up game (buckets as information states) with a fixed sample of deals."""
    path = tmp_path / "cards.h5"
    CardAbstraction.blank((169, 4, 4, 4)).save(path)
    config = AbstractGameConfig(
        variant="holdem", rules={"stack": 20}, card_abstraction=str(path), bets="1p,a cap=1", chance="fixed", n_deals=50
    )
    game = build_abstract_game(config)
    assert_nash_conv_equal(game, [uniform_strategy(game), Solver(game, "cfr+").run(10).average_strategy()])


def test_kuhn_from_pyspiel_solved_by_our_cfr_plus() -> None:
    spiel_game = pyspiel.load_game("kuhn_poker")
    imported = solver_game_from_openspiel(spiel_game)
    assert imported.game.tree.n_infosets == len(imported.rows.rows) == 12
    strategy = Solver(imported.game, "cfr+").run(2000).average_strategy()
    result = exploitability(imported.game, strategy)
    nash_conv = pyspiel.nash_conv(spiel_game, tabular_policy(imported.rows, strategy))
    assert nash_conv == pytest.approx(result.nash_conv, abs=1e-9)
    assert nash_conv < 1e-3
    assert result.game_value == pytest.approx(-1 / 18, abs=1e-3)


@pytest.mark.jit_only
def test_leduc_from_pyspiel_solved_by_our_cfr_plus() -> None:
    spiel_game = pyspiel.load_game("leduc_poker")
    imported = solver_game_from_openspiel(spiel_game)
    assert (imported.game.tree.n_infosets, imported.game.deals.n_deals) == (936, 120)
    solver = Solver(imported.game, "cfr+")
    values = []
    for target in (10, 100, 500):
        solver.run(target - solver.iteration)
        strategy = solver.average_strategy()
        nash_conv = pyspiel.nash_conv(spiel_game, tabular_policy(imported.rows, strategy))
        assert nash_conv == pytest.approx(exploitability(imported.game, strategy).nash_conv, abs=1e-9)
        values.append(nash_conv)
    assert all(later < earlier for earlier, later in itertools.pairwise(values)), values
    assert values[-1] < 0.01, values


def test_a_game_whose_betting_depends_on_chance_does_not_fit() -> None:
    """Blackjack: how many cards are dealt before the player's next action depends on the cards."""
    with pytest.raises(ValueError, match=r"the chance seen before actions .* depends on the cards"):
        solver_game_from_openspiel(pyspiel.load_game("blackjack"), max_states=200_000)


def test_games_with_fresh_chance_are_refused() -> None:
    game = build_game("kuhn")
    fresh = type(game)(game.name, game.tree, None, game.config, sampler=_OneDeal(game))
    with pytest.raises(ValueError, match="fresh chance"):
        openspiel_game(fresh)


class _OneDeal:
    def __init__(self, game) -> None:  # type: ignore[no-untyped-def]
        self.deals = game.deals

    def sample(self, first: int, count: int, seed: int):  # type: ignore[no-untyped-def]
        return self.deals


def test_uniform_policy_matches_openspiels_own_leduc_best_response() -> None:
    """The imported Leduc's uniform NashConv equals OpenSpiel's on its own game (a known value)."""
    spiel_game = pyspiel.load_game("leduc_poker")
    imported = solver_game_from_openspiel(spiel_game)
    ours = exploitability(imported.game, uniform_strategy(imported.game)).nash_conv
    assert ours == pytest.approx(pyspiel.nash_conv(spiel_game, pyspiel.UniformRandomPolicy(spiel_game)), abs=1e-9)
    assert np.isclose(ours, exploitability(build_game("leduc"), uniform_strategy(build_game("leduc"))).nash_conv)
