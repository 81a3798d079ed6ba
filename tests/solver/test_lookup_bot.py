"""The lookup bot on a tiny solved Hold'em abstraction: legal actions always, on-tree self-play, beats random.

The game is kept tiny for speed: stack 40 chips (blinds 1/2), bets ``1p,a cap=2``, a card
abstraction of 4/3/3/3 buckets whose tables are built on 2 flops only (other flops use the
current-strength fallback), 4,000 sampled deals, 100,000 ES-MCCFR iterations.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstraction.cards.buckets import CardAbstraction, CardAbstractionConfig, canonical_flops
from abstraction.cards.build import build_card_abstraction
from game.play.bots import BOTS, RandomBot, make_bot, passive_action
from game.play.match import play_match
from game.rules.actions import Action, ActionKind
from game.rules.chance import RandomChance
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.swap import SwapConfig
from solver.bots.lookup_bot import LookupBot, make_lookup_bot, register_lookup_bot
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game, write_abstract_strategy
from solver.solve.cfr import Solver
from solver.solve.strategy_file import StrategyFileError, read_strategy_file

pytestmark = pytest.mark.jit_only  # a Hold'em game is solved in a module fixture: minutes as plain Python

STACK = 40


def small_card_abstraction(variant: str = "holdem") -> CardAbstraction:
    """A card abstraction of ``variant`` built in seconds: EHS buckets (4, 3, 3, 3) trained on two flops."""
    small = dict(
        training_flops=2, turn_training_points=500, river_training_points=500, flop_training_points=200, iterations=4
    )
    return build_card_abstraction(
        CardAbstractionConfig(buckets=(4, 3, 3, 3), method="ehs", seed=3, variant=variant, **small),
        flops=canonical_flops()[:2],
    )


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """``(strategy path, card abstraction, game)`` of the tiny solved game."""
    directory = tmp_path_factory.mktemp("lookup")
    abstraction = small_card_abstraction()
    cards_path = directory / "cards.h5"
    abstraction.save(cards_path)
    config = AbstractGameConfig(variant="holdem", rules={"stack": STACK}, card_abstraction=str(cards_path))
    game = build_abstract_game(config, abstraction)
    solver = Solver(game, "es-mccfr", seed=2).run(100_000)
    strategy_path = write_abstract_strategy(directory / "strategy.h5", game, solver)
    return strategy_path, abstraction, game


def test_strategy_file_rebuilds_the_same_game(solved):
    strategy_path, _, game = solved
    record = read_strategy_file(strategy_path, expected_tree_fingerprint=game.tree.fingerprint())
    rebuilt = build_abstract_game(AbstractGameConfig.from_dict(dict(record.game_config)))  # loads the card file
    assert rebuilt.tree.fingerprint() == game.tree.fingerprint()
    assert rebuilt.fresh_chance and rebuilt.sampler.variant == "holdem"  # the default: a new deal per iteration
    first, again = rebuilt.sampler.sample(0, 50, seed=3), game.sampler.sample(0, 50, seed=3)
    assert np.array_equal(first.bucket, again.bucket) and np.array_equal(first.weight, again.weight)
    assert record.iterations == 100_000 and record.solver_config["algorithm"] == "es-mccfr"


def play_checked(
    bot: LookupBot, config: HoldemConfig, round_seed: int, action_seed: int, bot_seats: tuple[int, ...]
) -> int:
    """Play one round, the bot at ``bot_seats`` and a random bot elsewhere; every bot action must be legal.

    Returns the number of bot decisions."""
    round_ = HoldemRound(config, RandomChance(round_seed))
    other = RandomBot(seed=action_seed)
    decisions = 0
    while (seat := round_.to_act) is not None:
        observation = round_.observation(seat)
        if seat in bot_seats:
            action = bot.act(observation)
            assert round_.can_apply(action), (action, round_)
            decisions += 1
        else:
            action = other.act(observation)
        round_.apply(action)
    return decisions


@settings(max_examples=40, deadline=None)
@given(
    round_seed=st.integers(0, 2**32 - 1),
    action_seed=st.integers(0, 2**32 - 1),
    stack=st.sampled_from([STACK, 13, 400]),
    rules=st.sampled_from(["document", "engine"]),
    bot_seats=st.sampled_from([(0,), (1,), (0, 1)]),
)
def test_bot_always_returns_a_legal_action(solved, round_seed, action_seed, stack, rules, bot_seats):
    strategy_path, abstraction, _ = solved
    bot = LookupBot(
        strategy_path, card_abstraction=abstraction, config=HoldemConfig(stack=stack, rules=rules), seed=round_seed
    )
    play_checked(bot, HoldemConfig(stack=stack, rules=rules), round_seed, action_seed, bot_seats)
    assert bot.errors == 0


def test_self_play_stays_on_the_tree(solved):
    strategy_path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK)
    bots = [LookupBot(strategy_path, card_abstraction=abstraction, config=config, seed=seed) for seed in (1, 2)]
    result = play_match(config, bots[0], bots[1], rounds=200, seed=9)
    assert sum(result.illegal_actions.values()) == 0
    # both play abstract sizes, so each reads the other's raises exactly: never off the tree
    assert all(bot.decisions > 200 and bot.off_tree == 0 and bot.errors == 0 for bot in bots)


def test_bot_beats_random(solved):
    strategy_path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK)
    bot = LookupBot(strategy_path, card_abstraction=abstraction, config=config, seed=5)
    result = play_match(config, bot, make_bot("random", seed=6), rounds=2000, seed=7, duplicate=True)
    mean, half_width = result.win_rate()
    assert mean - half_width > 0, (mean, half_width)
    assert result.illegal_actions["lookup"] == 0 and bot.errors == 0


def test_internal_error_falls_back_to_a_legal_action(solved, caplog):
    strategy_path, abstraction, _ = solved
    bot = LookupBot(strategy_path, card_abstraction=abstraction, seed=0)

    def broken(cards: np.ndarray, n_hole: int = 2, bounty_rank: int = -1) -> int:
        raise RuntimeError("bucket table unavailable")

    bot.lookup.bucket_unchecked = broken  # type: ignore[method-assign]
    round_ = HoldemRound(HoldemConfig(stack=STACK), RandomChance(0))
    with caplog.at_level("WARNING", logger="solver.bots.lookup_bot"):
        action = bot.act(round_.observation(0))
    assert action == Action.call()  # facing the big blind: no check, so call
    assert bot.errors == 1 and "bucket table unavailable" in caplog.text


def test_off_tree_raise_is_answered_passively(solved):
    strategy_path, abstraction, _ = solved
    config = HoldemConfig(stack=400)
    bot = LookupBot(strategy_path, card_abstraction=abstraction, config=config, seed=0)
    round_ = HoldemRound(config, RandomChance(1))
    for amount in (6, 18, 54):  # three raises: more than the abstract cap of 2 per street
        round_.apply(Action.raise_to(amount))
    action = bot.act(round_.observation(1))
    assert bot.off_tree == 1 and action == passive_action(round_.observation(1)) == Action.call()


def test_passive_action_order():
    round_ = HoldemRound(HoldemConfig(), RandomChance(0))
    assert passive_action(round_.observation(0)) == Action.call()
    round_.apply(Action.call())
    assert passive_action(round_.observation(1)) == Action.check()
    assert ActionKind.FOLD not in round_.observation(1).legal_actions


def test_factories_and_errors(solved, tmp_path):
    strategy_path, _, _ = solved
    with pytest.raises(ValueError, match="strategy="):
        make_lookup_bot()
    assert make_lookup_bot(strategy=strategy_path, seed=1).name == "lookup"
    with pytest.raises(ValueError, match="'swap'"):
        LookupBot(strategy_path, config=SwapConfig())
    with pytest.raises(StrategyFileError, match="no such file"):
        LookupBot(tmp_path / "missing.h5")
    register_lookup_bot(strategy_path, name="lookup-test")
    try:
        assert make_bot("lookup-test", config=HoldemConfig(stack=STACK), seed=3).name == "lookup-test"
    finally:
        BOTS.pop("lookup-test")


def test_raise_between_sizes_is_translated_pseudo_harmonically(solved):
    strategy_path, abstraction, game = solved
    tree = game.tree
    children = {
        tree.action_label(child): child
        for child in range(tree.child_start[0], tree.child_start[0] + tree.n_children[0])
    }
    assert sorted(children) == ["C", "F", "R40", "R6"]
    # SB raises to 20 over blinds 1/2: pot fraction (20 - 2) / (3 + 1) = 4.5, between the pot raise
    # (to 6: fraction 1) and all-in (to 40: fraction 9.5). Ganzfried & Sandholm 2013 read it as the
    # pot raise with probability (9.5 - 4.5)(1 + 1) / ((9.5 - 1)(1 + 4.5)) = 0.2139.
    expected = (9.5 - 4.5) * 2 / (8.5 * 5.5)
    bot = LookupBot(strategy_path, card_abstraction=abstraction, config=HoldemConfig(stack=STACK), seed=0)
    readings = []
    for deal in range(400):
        round_ = HoldemRound(HoldemConfig(stack=STACK), RandomChance(deal))
        round_.apply(Action.raise_to(20))
        readings.append(bot.abstract_node(round_.observation(1)))
    assert set(readings) == {children["R6"], children["R40"]}
    share = readings.count(children["R6"]) / len(readings)
    assert abs(share - expected) < 0.07  # 3 standard deviations of 400 draws (0.0205 each)
    # a real all-in is always read as the abstract all-in
    round_ = HoldemRound(HoldemConfig(stack=STACK), RandomChance(0))
    round_.apply(Action.raise_to(STACK))
    assert bot.abstract_node(round_.observation(1)) == children["R40"]


def test_swap_holdem_end_to_end(solved, tmp_path):
    _, abstraction, game = solved
    config = AbstractGameConfig(
        variant="swap",
        rules={"stack": STACK, "flop_swap_probability": 0.5},
        card_abstraction=game.config["card_abstraction"],
        n_deals=2000,
        deal_seed=3,
    )
    swap_game = build_abstract_game(config, abstraction)
    solver = Solver(swap_game, "es-mccfr", seed=1).run(20_000)
    path = write_abstract_strategy(tmp_path / "swap.h5", swap_game, solver)
    bot = LookupBot(path, card_abstraction=abstraction, seed=2)
    assert bot.config == SwapConfig(stack=STACK, flop_swap_probability=0.5)
    result = play_match(bot.config, bot, make_bot("random", seed=3), rounds=100, seed=4)
    assert result.illegal_actions["lookup"] == 0 and bot.errors == 0 and bot.decisions > 100


# ---------------------------------------------------------------------- the policy (game.rules.actions.PolicyBot)
def _off_tree_view(config: HoldemConfig) -> HoldemRound:
    """A round where the dealer raised to 20 chips (pot fraction 4.5, between the tree's R6 and R40)."""
    round_ = HoldemRound(config, RandomChance(11))
    round_.apply(Action.raise_to(20))
    return round_


def test_policy_is_a_distribution_over_legal_actions(solved):
    strategy_path, abstraction, _ = solved
    config = HoldemConfig(stack=400)  # deeper than the tree: raises are translated, some states off it
    bot = LookupBot(strategy_path, card_abstraction=abstraction, config=config, seed=0)
    other = RandomBot(seed=1)
    seen = 0
    for deal in range(40):
        round_ = HoldemRound(config, RandomChance(deal))
        while (seat := round_.to_act) is not None:
            observation = round_.observation(seat)
            if seat == 1:
                policy = bot.policy(observation)
                actions = [action for action, _ in policy]
                assert len(set(actions)) == len(actions) and all(round_.can_apply(action) for action in actions)
                assert all(p > 0 for _, p in policy) and abs(sum(p for _, p in policy) - 1) < 1e-12
                # the batch form (full-game LBR) gives each candidate's policy
                holes = [(0, 5), observation.hole_cards, (50, 51)]
                holes = [h for h in holes if not set(h) & set(observation.board)]
                columns, matrix = bot.policy_rows(observation, holes)
                for hole, row in zip(holes, matrix, strict=True):
                    single = dict(bot.policy(replace(observation, hole_cards=hole)))
                    assert dict(zip(columns, row.tolist(), strict=True)) == pytest.approx(
                        {a: single.get(a, 0.0) for a in columns}
                    )
                action = bot.act(observation)
                seen += 1
            else:
                action = other.act(observation)
            round_.apply(action)
    assert seen > 40 and bot.errors == 0


@pytest.mark.parametrize("off_tree", [False, True])
def test_act_samples_the_policy(solved, off_tree):
    """Over many draws ``act``'s frequencies match ``policy`` (chi-square); with an off-tree raise in
    the history the policy is the mixture over its translations, which ``act`` draws afresh each time."""
    from scipy.stats import chisquare

    strategy_path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK)
    round_ = _off_tree_view(config) if off_tree else HoldemRound(config, RandomChance(11))
    seat = round_.to_act
    bot = LookupBot(strategy_path, card_abstraction=abstraction, config=config, seed=4)
    hands = [(48, 45), (12, 33), (36, 37), (0, 21)]  # AcKd, 5c Td, JcJd, 2c 7d
    mixed = 0
    for hole in hands:
        observation = replace(round_.observation(seat), hole_cards=hole)
        policy = dict(bot.policy(observation))
        draws = 3000
        counts: dict[Action, int] = {}
        for _ in range(draws):  # the history does not extend the bot's remembered walk: a fresh reading each time
            action = bot.act(observation)
            counts[action] = counts.get(action, 0) + 1
        assert set(counts) <= set(policy)
        actions = sorted(policy, key=str)
        expected = np.array([policy[a] * draws for a in actions])
        observed = np.array([counts.get(a, 0) for a in actions])
        if len(actions) > 1:
            mixed += 1
            assert chisquare(observed, expected).pvalue > 1e-3, (hole, policy, counts)
    assert mixed >= 2
    if off_tree:  # the two readings give different rows: the mixture is strictly inside them
        readings = bot._readings(round_.observation(seat)).readings
        assert len(readings) == 2 and sum(readings.values()) == pytest.approx(1.0)
        expected_r6 = (9.5 - 4.5) * 2 / (8.5 * 5.5)
        assert min(readings.values()) == pytest.approx(min(expected_r6, 1 - expected_r6))


def test_policy_changes_no_later_action(solved):
    strategy_path, abstraction, _ = solved
    config = HoldemConfig(stack=400)
    plain, asked = (LookupBot(strategy_path, card_abstraction=abstraction, config=config, seed=8) for _ in range(2))

    class Curious:
        name = "curious"

        def act(self, observation):
            for hole in ((0, 1), (48, 44), observation.hole_cards):
                if not set(hole) & set(observation.board):
                    asked.policy(replace(observation, hole_cards=hole))
            asked.policy(observation)
            return asked.act(observation)

    first = play_match(config, plain, make_bot("random", seed=3), rounds=60, seed=5)
    second = play_match(config, Curious(), make_bot("random", seed=3), rounds=60, seed=5)
    assert np.array_equal(first.winnings, second.winnings)
    assert (plain.decisions, plain.off_tree) == (asked.decisions, asked.off_tree) and plain.off_tree > 0
