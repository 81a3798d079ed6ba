"""The extension contract end to end: Ante Hold'em (`tests.variant_contract.ante_holdem`), defined only under
tests/ and registered for this module, is abstracted, solved, measured and played by the library unchanged.

Two routes: the exact small game (`abstraction.exact.small_variants`, built from the variant's hooks) solved
by CFR+ to near-zero exploitability, and a tiny card and bet abstraction with fresh chance solved by
ES-MCCFR, measured by local best response and played as a lookup bot in a duplicate match.
"""

from __future__ import annotations

import numpy as np
import pytest

from abstraction.cards.buckets import CardAbstractionConfig, canonical_flops, card_file_variant
from abstraction.cards.build import build_card_abstraction
from abstraction.exact.small_variants import build_small_variant
from abstraction.tree import FlatTree
from game.play.bots import make_bot
from game.play.match import play_match
from game.rules.actions import ActionKind
from solver.bots.lookup_bot import LookupBot
from solver.evaluate.exploitability import exploitability, uniform_strategy
from solver.evaluate.lbr import LBRConfig, local_best_response
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game, write_abstract_strategy
from solver.solve.cfr import Solver
from tests.variant_contract.ante_holdem import NAME, AnteHoldemConfig, registered_ante_holdem

pytestmark = pytest.mark.jit_only  # MCCFR, CFR+ and LBR runs: minutes as plain Python

STACK, ANTE = 20, 2
SMALL_CARDS = dict(
    training_flops=2, turn_training_points=500, river_training_points=500, flop_training_points=200, iterations=4
)


@pytest.fixture(scope="module", autouse=True)
def ante_holdem():
    with registered_ante_holdem():
        yield


def root_fold_values(tree: FlatTree) -> list[float]:
    """Payoff row (chips by seat) of the dealer folding at the root."""
    start = int(tree.child_start[0])
    for child in range(start, start + int(tree.n_children[0])):
        if tree.action_kind[child] == int(ActionKind.FOLD):
            return tree.terminal_values[tree.value_row[child]].tolist()
    raise AssertionError("no fold at the root")


def test_exact_small_game_is_solved() -> None:
    small = build_small_variant(NAME)
    holdem = build_small_variant("holdem")
    assert small.config == AnteHoldemConfig(stack=4, ante=1)
    # the dealer's fold loses the small blind and the ante; Hold'em's loses the blind alone
    assert root_fold_values(small.game.tree) == [-2.0, 2.0]
    assert root_fold_values(holdem.game.tree) == [-1.0, 1.0]
    assert small.game.deals.n_deals == holdem.game.deals.n_deals  # the same short deck and deal
    game = small.game
    uniform = exploitability(game, uniform_strategy(game)).exploitability_chips
    solved = exploitability(game, Solver(game, "cfr+").run(300).average_strategy()).exploitability_chips
    assert uniform > 0.5 and solved < 0.01 * uniform, (uniform, solved)


def test_abstract_game_is_solved_measured_and_played(tmp_path) -> None:
    cards_config = CardAbstractionConfig(
        buckets=(4, 3, 3, 3), method="ehs", seed=3, variant=card_file_variant(NAME), **SMALL_CARDS
    )
    assert cards_config.variant == "holdem"  # no swaps and no bounty: a Hold'em card file
    abstraction = build_card_abstraction(cards_config, flops=canonical_flops()[:2])
    cards_path = tmp_path / "cards.h5"
    abstraction.save(cards_path)
    config = AbstractGameConfig(
        variant=NAME, rules={"stack": STACK, "ante": ANTE}, card_abstraction=str(cards_path), bets="1p,a cap=2"
    )
    game = build_abstract_game(config, abstraction)
    assert root_fold_values(game.tree) == [-1.0 - ANTE, 1.0 + ANTE]

    solver = Solver(game, "es-mccfr", seed=2).run(30_000)
    strategy = solver.average_strategy()
    lbr = LBRConfig(hands=600, candidates=50, seed=4)
    against_solved = local_best_response(game, strategy, lbr)
    against_checkcall = local_best_response(game, None, lbr, opponent="checkcall")
    assert against_solved.chance == "fresh" and against_solved.unreached_decisions == 0
    # the solve learned something: LBR wins far less against it than against always checking or calling
    assert against_solved.chips_per_hand + against_solved.ci95_chips < against_checkcall.chips_per_hand, (
        against_solved.to_dict(),
        against_checkcall.to_dict(),
    )

    strategy_path = write_abstract_strategy(tmp_path / "strategy.h5", game, solver)
    rules = AnteHoldemConfig(stack=STACK, ante=ANTE)
    bot = LookupBot(strategy_path, card_abstraction=abstraction, config=rules, seed=5)
    result = play_match(rules, bot, make_bot("random", seed=6), rounds=600, seed=7, duplicate=True)
    assert sum(result.illegal_actions.values()) == 0 and bot.errors == 0 and bot.decisions > 600
    mean, half_width = result.win_rate()
    assert mean - half_width > 0, (mean, half_width)
    assert np.isfinite(mean)
