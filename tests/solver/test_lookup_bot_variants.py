"""The lookup bot on every heads-up variant: solve a small abstract game with fresh chance, write the
strategy file, read it back, play duplicate matches against the baseline bots (no illegal action, no
internal error), and the River of Blood behaviour past the abstract run cap."""

from __future__ import annotations

import dataclasses

import pytest

from game.play.bots import make_bot
from game.play.match import play_match
from solver.bots.lookup_bot import LookupBot
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game, write_abstract_strategy
from solver.solve.cfr import Solver
from tests.solver.test_lookup_bot import STACK, small_card_abstraction

pytestmark = pytest.mark.jit_only  # every variant is solved before its tests (module fixtures): minutes as plain Python


@pytest.fixture(scope="module")
def card_files(tmp_path_factory):
    """Card abstraction files by variant family: a plain one and a Bounty one (buckets carry the hit bit)."""
    directory = tmp_path_factory.mktemp("cards")
    files = {}
    for variant in ("holdem", "bounty"):
        abstraction = small_card_abstraction(variant)
        path = directory / f"{variant}.h5"
        abstraction.save(path)
        files[variant] = (path, abstraction)
    return files


def solved_bot(
    card_files, tmp_path, variant: str, rules: dict, bets: str, max_runs: int | None = None, iterations: int = 20_000
) -> LookupBot:
    path, abstraction = card_files["bounty" if variant == "bounty" else "holdem"]
    config = AbstractGameConfig(
        variant=variant, rules={"stack": STACK, **rules}, card_abstraction=str(path), bets=bets, max_runs=max_runs
    )
    game = build_abstract_game(config, abstraction)
    assert game.fresh_chance
    solver = Solver(game, "es-mccfr", seed=1).run(iterations)
    strategy = write_abstract_strategy(tmp_path / f"{variant}.h5", game, solver)
    return LookupBot(strategy, seed=2)  # finds the card file through the strategy file's config


CASES = [
    ("river_of_blood", {"rules": "document"}, "1p,a cap=1", 1),
    ("river_of_blood", {"rules": "engine"}, "1p,a cap=1", 2),
    ("auction", {"rules": "document"}, "1p,a cap=1 | bids=0.5p,1p", None),
    ("auction", {"rules": "engine"}, "1p,a cap=1 | bids=0.5p,1p", None),
    ("bounty", {"rules": "document"}, "1p,a cap=1", None),
    ("bounty", {"rules": "engine"}, "1p,a cap=1", None),
    ("swap", {"flop_swap_probability": 0.5}, "1p,a cap=1", None),
]


@pytest.mark.parametrize(("variant", "rules", "bets", "max_runs"), CASES)
def test_every_variant_is_solved_and_played_legally(card_files, tmp_path, variant, rules, bets, max_runs) -> None:
    bot = solved_bot(card_files, tmp_path, variant, rules, bets, max_runs)
    assert bot.config.variant == variant and bot.config.stack == STACK
    for opponent, seed in (("random", 5), ("checkcall", 6)):
        off_tree, decisions = bot.off_tree, bot.decisions
        result = play_match(
            bot.config, bot, make_bot(opponent, config=bot.config, seed=seed), rounds=200, seed=seed, duplicate=True
        )
        assert result.illegal_actions[bot.name] == 0, result.faults[:3]
        assert bot.decisions - decisions > 150
    assert bot.errors == 0
    # against check/call nothing leaves the abstraction (random raises past the cap do): no fallback
    assert bot.off_tree == off_tree


def test_bids_follow_the_strategy(card_files, tmp_path) -> None:
    """In the auction the bot's bids are abstract bids of its strategy (not the bid-0 fallback)."""
    bot = solved_bot(card_files, tmp_path, "auction", {"rules": "engine"}, "1p,a cap=1 | bids=0.5p,1p")
    bids = []
    original = bot._real_action

    def spy(observation, node, child, kind):
        action = original(observation, node, child, kind)
        if observation.bid_bounds is not None:
            bids.append(action.amount)
        return action

    bot._real_action = spy  # type: ignore[method-assign]
    play_match(bot.config, bot, make_bot("checkcall", config=bot.config, seed=1), rounds=200, seed=9, duplicate=True)
    assert len(bids) > 50 and len(set(bids)) > 1  # several abstract bid sizes in use


def test_a_bid_that_loses_to_the_seen_bid_is_raised_to_one_chip_under_it(card_files, tmp_path) -> None:
    """Engine rules: the dealer sees the big blind's bid. Against an all-in bidder every abstract bid of
    the dealer loses; the bot plays one chip under the all-in instead, and the all-in bidder pays it."""
    bot = solved_bot(card_files, tmp_path, "auction", {"rules": "engine"}, "1p,a cap=1 | bids=0.5p,1p")
    seen = []  # (the all-in bid seen, our highest bid, the bid played)
    original = bot._act

    def spy(observation):
        action = original(observation)
        if observation.bid_bounds is not None and observation.history[-1].action.kind.name == "BID":
            seen.append((observation.history[-1].action.amount, observation.bid_bounds[1], action.amount))
        return action

    bot._act = spy  # type: ignore[method-assign]
    opponent = make_bot("bid_allin", config=bot.config, seed=4)
    result = play_match(bot.config, bot, opponent, rounds=200, seed=13, duplicate=True)
    assert result.illegal_actions[bot.name] == 0 and bot.errors == 0
    assert len(seen) > 10
    for first, high, played in seen:
        assert played == min(first - 1, high) or played >= first  # the highest losing bid, or one that does not lose
    assert any(played == first - 1 for first, _, played in seen)


def test_river_of_blood_past_the_run_cap_replays_the_last_run_street(card_files, tmp_path) -> None:
    """With the abstract run cap at 1, later real run streets restart run street 1 of the tree: the bot
    keeps playing its strategy there (on the tree, with buckets of the longer board), never off the tree."""
    bot = solved_bot(card_files, tmp_path, "river_of_blood", {}, "1p cap=1", max_runs=1)
    last_street = bot._tree.last_street
    past_cap = []
    original = bot._act

    def spy(observation):
        before = bot.off_tree
        action = original(observation)
        if observation.street - 2 > last_street:
            past_cap.append(bot.off_tree - before)
        return action

    bot._act = spy  # type: ignore[method-assign]
    config = dataclasses.replace(bot.config)
    result = play_match(config, bot, make_bot("checkcall", config=config, seed=3), rounds=400, seed=11, duplicate=True)
    assert result.illegal_actions[bot.name] == 0 and bot.errors == 0
    assert len(past_cap) > 20  # runs past the cap happen (a red card has probability 1/2)
    assert sum(past_cap) == 0  # and the bot plays them from the tree
