"""The re-solving bot where the game clock is: exported with ``vcfr export-bot --resolve`` (check-bot
plays it against the local 2022 engine), paced by an attached clock, in the gauntlet, and on the
variants whose river it does not re-solve. The blueprint is a tiny Swap (or Bounty) strategy of
`tests.solver.tiny_bounty` (engine rules, bets ``1p,a cap=1``, about 2 s to solve)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from game.play.bots import passive_action
from game.rules.bounty import BountyRound
from game.rules.chance import RandomChance
from game.rules.swap import SwapConfig, SwapRound
from solver.bots.check_bot import check_bot
from solver.bots.export_bot import BotSpec
from solver.bots.lookup_bot import LookupBot
from solver.bots.resolving_bot import RIVER, TURN, ResolvingBot, ResolvingConfig
from tests.solver.cli_support import invoke
from tests.solver.tiny_bounty import blank_cards, bounty_cards, solve_tiny

pytestmark = pytest.mark.jit_only  # a tiny game is solved and re-solved: slow as plain Python

FAST = ResolvingConfig(iterations=30)


@pytest.fixture(scope="module")
def swap_strategy(tmp_path_factory) -> Path:
    strategy, _ = solve_tiny(tmp_path_factory.mktemp("swap"), blank_cards("swap"))
    return strategy


def river_observation(round_):
    """``round_`` checked and called down to the river; the observation of the seat to act."""
    while round_.street < RIVER:
        round_.apply(passive_action(round_.observation(round_.to_act)))
    return round_.observation(round_.to_act)


class Match:
    """What the engine client offers an attached bot: the game clock left and the rounds played."""

    def __init__(self, clock_seconds: float, rounds_played: int = 0) -> None:
        self.clock_seconds, self.rounds_played = clock_seconds, rounds_played


def test_the_clock_paces_the_swap_river_and_below_the_reserve_the_blueprint_plays(swap_strategy) -> None:
    """Swap's river is re-solved (no clock: the full iterations); with the clock at the reserve the
    bot plays exactly the lookup bot's policy and spends nothing on the river."""
    observation = river_observation(SwapRound(SwapConfig(rules="engine"), RandomChance(4)))
    bot = ResolvingBot(swap_strategy, config=SwapConfig(rules="engine"), seed=1, resolving=FAST)
    bot.act(observation)
    assert (bot.resolves, bot.clock_fallbacks, bot.fallbacks) == (1, 0, 0)
    match = Match(30.0)
    bot.attach(match)  # the starting clock: 30 s, reserve 15 s
    match.clock_seconds = 14.0
    other = river_observation(SwapRound(SwapConfig(rules="engine"), RandomChance(5)))  # a river not solved yet
    lookup = LookupBot(swap_strategy, config=SwapConfig(rules="engine"), seed=1)
    assert bot.policy(other) == lookup.policy(other) and bot.clock_fallbacks == 0  # policy changes nothing
    bot.act(other)
    assert (bot.resolves, bot.clock_fallbacks, bot.fallbacks) == (1, 1, 0) and len(bot.resolve_seconds) == 1
    match.clock_seconds, match.rounds_played = 29.9, 100  # plenty again: the river is re-solved
    assert bot.time.budget(RIVER) > 0.05
    bot.act(other)
    assert (bot.resolves, bot.clock_fallbacks, bot.fallbacks) == (2, 1, 0)


def test_the_clock_paces_the_turn_too_and_refused_the_blueprint_plays_it(swap_strategy) -> None:
    """A depth-limited turn re-solve asks the time manager as the river does: at the reserve the
    bot plays the lookup bot's turn policy and spends nothing; with clock to spare (the last round:
    the 0.5 s cap, where a first turn re-solve's set-up plus 10 iterations fit; 0.1 s, 100 rounds
    in, did not on a loaded machine) it re-solves the turn, and the manager has measured the turn's
    pace apart from the river's."""
    round_ = SwapRound(SwapConfig(rules="engine"), RandomChance(7))
    while round_.street < TURN:
        round_.apply(passive_action(round_.observation(round_.to_act)))
    turn = round_.observation(round_.to_act)
    bot = ResolvingBot(swap_strategy, config=SwapConfig(rules="engine"), seed=1, resolving=FAST)
    match = Match(30.0)
    bot.attach(match)
    match.clock_seconds = 14.0  # below the reserve
    lookup = LookupBot(swap_strategy, config=SwapConfig(rules="engine"), seed=1)
    assert bot.policy(turn) == lookup.policy(turn)
    bot.act(turn)
    assert (bot.resolves, bot.clock_fallbacks, bot.fallbacks) == (0, 1, 0) and bot.time.pace(TURN) is None
    match.clock_seconds, match.rounds_played = 29.9, 999  # the last round: the cap, 0.5 s, for the turn
    bot.act(turn)
    assert (bot.resolves, bot.clock_fallbacks, bot.fallbacks) == (1, 1, 0)
    assert bot.time.pace(TURN) is not None and bot.time.pace(RIVER) is None


def test_export_resolve_plays_the_local_engine_within_the_clock(swap_strategy, tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    result = invoke(
        "export-bot", "--variant", "2022", "--resolve", "--strategy", swap_strategy, "--out", folder, "--json"
    )
    assert result.exit_code == 0, result.output
    assert BotSpec.read(folder) == BotSpec("swap", "resolve", "strategy.h5", 0, None, "cards.h5")
    modules = json.loads(result.stdout)["modules"]
    assert "solver/bots/time_manager.py" in modules and "solver/resolve/kernels_vector_cfr.py" in modules
    # the warm-up compiled the re-solving kernels into the folder: the bot need not compile
    assert list((folder / "solver" / "resolve" / "__pycache__").glob("kernels_vector_cfr.*.nbi"))

    report = check_bot(folder, rounds=60, opponent="checkcall", seed=3)
    assert report.ok, report.fault_notes
    closing = re.search(
        r"match over: 60 rounds.*, 0 errors, .*bot: (\d+) decisions, \d+ off-tree, 0 errors, (\d+) resolves, "
        r"0 fallbacks, (\d+) clock-fallbacks",
        report.log_tail,
    )
    assert closing is not None, report.log_tail
    resolves, clock_fallbacks = int(closing.group(2)), int(closing.group(3))
    assert resolves + clock_fallbacks > 5  # the checkcall opponent lets many rounds reach the river
    assert report.clock_used_seconds < 0.6 * report.clock_seconds


def test_gauntlet_seats_resolve_file_from_another_folder(swap_strategy, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(swap_strategy.parent)  # a relative file: workers get it as an absolute path
    options = ["--variant", "swap", "--bot", f"resolve:{swap_strategy.name}", "--hands", "10"]
    result = invoke("gauntlet", *options, "--opponents", "station", "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["bot"] == f"resolve:{swap_strategy.name}"
    assert [row["faults"] for row in report["opponents"]] == [{"bot": 0, "opponent": 0}]


def test_bounty_plays_the_lookup_bot_on_every_street(tmp_path: Path) -> None:
    """Bounty's payoffs are not in the subgame solver: ``resolve:FILE`` plays (no error) and its river
    policy is the lookup bot's, with nothing re-solved."""
    strategy, _ = solve_tiny(tmp_path, bounty_cards())
    result = invoke("match", "--variant", "bounty", "--a", f"resolve:{strategy}", "--b", "checkcall", "--rounds", 20)
    assert result.exit_code == 0, result.output
    bot, lookup = ResolvingBot(strategy, seed=0), LookupBot(strategy, seed=0)
    river = river_observation(BountyRound(bot.config, RandomChance(1), match_state=(3, 8)))
    assert not bot.re_solves and bot.policy(river) == lookup.policy(river)
    bot.act(river)
    assert (bot.resolves, bot.clock_fallbacks, bot.fallbacks) == (0, 0, 0)


def test_swap_ranges_mix_in_the_chance_of_a_swap(swap_strategy, monkeypatch) -> None:
    """With swaps the earlier moves say less about the cards held now: the same history gives ranges
    closer to uniform (higher entropy) than the Hold'em update (the swap events left out), holding
    every combination that one holds and more (a hand the blueprint never plays so may be held after
    a swap), and with swap probabilities of 0 the two are equal. (The swap event itself is checked
    against an enumeration in test_depth_limited.)"""

    def entropy(weights):
        positive = weights[weights > 0]
        return float(-(positive * np.log(positive)).sum())

    observation = river_observation(SwapRound(SwapConfig(rules="engine"), RandomChance(6)))
    bot = ResolvingBot(swap_strategy, config=SwapConfig(rules="engine"), seed=1, resolving=FAST)
    mixed = bot.blueprint_ranges(observation)
    monkeypatch.setattr(ResolvingBot, "_apply_swaps", lambda *args: None)
    plain = bot.blueprint_ranges(observation)
    assert np.all(mixed[plain > 0] > 0) and not np.allclose(mixed, plain)
    assert all(entropy(mixed[seat]) > entropy(plain[seat]) for seat in (0, 1))
    monkeypatch.undo()
    unswapped = SwapConfig(rules="engine", flop_swap_probability=0.0, turn_swap_probability=0.0)
    assert np.allclose(ResolvingBot(swap_strategy, config=unswapped, seed=1).blueprint_ranges(observation), plain)
