"""The adaptive bot around the re-solving bot (`game.play.adaptive.AdaptiveBot` over
`solver.bots.resolving_bot.ResolvingBot`): the ``adaptive:resolve:FILE.h5`` seat and its prior (the
blueprint's lookup bot against itself), a Bounty match within the safety bound, and the opponent
model's bounty-rank posterior handed to the re-solver's ranges. The blueprint is the tiny Bounty
strategy of `tests.solver.tiny_bounty` (engine rules, bets ``1p,a cap=1``, about 2 s to solve)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from game.play.adaptive import AdaptiveBot, ExploitConfig
from game.play.bots import passive_action
from game.play.cli_game import make_player
from game.play.match import play_match
from game.play.opponent_model import ModelPrior, prior_from_self_play
from game.rules.actions import Action
from game.rules.bounty import BountyConfig, BountyRound
from game.rules.chance import RandomChance
from solver.bots.check_bot import check_bot
from solver.bots.export_bot import BotSpec
from solver.bots.lookup_bot import LookupBot
from solver.bots.resolving_bot import RIVER, ResolvingBot, ResolvingConfig
from tests.solver.cli_support import invoke  # loads the vcfr app: .h5 players, resolve:FILE.h5 among them
from tests.solver.tiny_bounty import bounty_cards, solve_tiny

pytestmark = pytest.mark.jit_only  # a tiny game is solved and re-solved: slow as plain Python

FAST = ResolvingConfig(iterations=30)
CONFIG = BountyConfig(rules="engine")


@pytest.fixture(scope="module")
def strategy(tmp_path_factory) -> Path:
    return solve_tiny(tmp_path_factory.mktemp("bounty"), bounty_cards())[0]


class _Watched:
    """Plays as the adaptive ``bot``; after each of its actions checks the safety invariant and
    records ``(round index, our bounty rank, the re-solver's opponent rank prior)``."""

    def __init__(self, bot: AdaptiveBot) -> None:
        self.bot, self.name, self.rounds, self.priors = bot, bot.name, 0, []

    def act(self, observation):
        action = self.bot.act(observation)
        self.bot.check_invariant()
        prior = self.bot.base.opponent_rank_prior
        self.priors.append((self.rounds, observation.bounty_rank, np.array(prior)))
        return action

    def round_over(self, observation):
        self.bot.round_over(observation)
        self.rounds += 1


def test_the_seat_wraps_the_resolving_bot_with_its_blueprints_prior(strategy) -> None:
    """``adaptive:resolve:FILE.h5`` is an AdaptiveBot over a ResolvingBot of the file, and its prior
    is the frequencies of the file's lookup bot against itself (measured here independently),
    not a re-solving self-play, and the same to the last digit as ``adaptive:FILE.h5``'s (one seed
    convention: a variant the re-solver leaves to the blueprint gets the same bot either way);
    attaching the match passes its game clock on to the re-solver; the gauntlet seats it."""
    bot = make_player(f"adaptive:resolve:{strategy}", CONFIG, 0)
    assert isinstance(bot, AdaptiveBot) and type(bot.base) is ResolvingBot
    assert bot.name == f"adaptive:resolve:{strategy}" and bot.base.name == f"resolve:{strategy.name}"
    exploit = ExploitConfig()
    expected = prior_from_self_play(
        lambda index: LookupBot(strategy, config=CONFIG, seed=index),
        CONFIG,
        rounds=exploit.prior_rounds,
        weight=exploit.prior_weight,
    )
    assert np.array_equal(bot.model.prior.beta, expected.beta) and bot.model.prior.weight == expected.weight
    plain = make_player(f"adaptive:{strategy}", CONFIG, 0)  # the same self-play seeds: the file's own prior
    assert np.array_equal(plain.model.prior.beta, expected.beta) and np.array_equal(
        plain.model.prior.bids, expected.bids
    )
    assert bot.base.resolves == 0  # building the seat re-solved nothing
    match = type("Match", (), {"clock_seconds": 60.0, "rounds_played": 0})()  # what an engine client offers
    bot.attach(match)
    assert bot.base.time.match is match and bot.base.time.clock_left() == 60.0  # the re-solver reads its clock
    options = ["--variant", "bounty", "--bot", f"adaptive:resolve:{strategy}", "--hands", "10", "--jobs", "1"]
    result = invoke("gauntlet", *options, "--opponents", "station", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["bot"] == f"adaptive:resolve:{strategy}"
    assert [row["faults"] for row in report["opponents"]] == [{"bot": 0, "opponent": 0}]


def test_a_bounty_match_deviates_within_the_bound_without_errors(strategy) -> None:
    """60 duplicate rounds against the maniac with a budget that never binds (a value of -1,000 chips
    a round) and a light prior (2 pseudo-observations), so the model soon finds it loose and it deviates: no illegal action, error or fallback
    of either bot, the re-solver still re-solves, and the safety invariant holds after every action."""
    base = ResolvingBot(strategy, config=CONFIG, seed=3, resolving=FAST)
    exploit = ExploitConfig(value=(-1000.0, -1000.0), prior_weight=2.0, samples=200)
    bot = AdaptiveBot(base, CONFIG, exploit=exploit, seed=4)
    watched = _Watched(bot)
    opponent = make_player("maniac", CONFIG, 5)
    result = play_match(CONFIG, watched, opponent, rounds=60, seed=6, duplicate=True)
    assert sum(result.illegal_actions.values()) == 0
    assert bot.fallbacks == 0 and base.errors == 0 and base.fallbacks == 0
    assert bot.deviations > 0 and bot.over_budget == 0 and base.resolves > 0


def test_the_resolver_gets_the_models_bounty_rank_posterior(strategy) -> None:
    """Bounty, a plain match of 30 rounds against the calling station (its showdowns tell its rank):
    before any information (round 0) and at the re-draw (round 25) the re-solver's opponent rank
    prior is uniform; at the period's last round (24) it is concentrated on the opponent's true
    rank."""
    base = ResolvingBot(strategy, config=CONFIG, seed=3, resolving=FAST)
    bot = AdaptiveBot(base, CONFIG, exploit=ExploitConfig(samples=200), seed=4)
    watched = _Watched(bot)
    ranks = {}  # round index: (ours, the opponent's)

    def read(record):
        ours = record.seats.index(bot.name)
        ranks[len(ranks)] = (record.match_state[ours], record.match_state[1 - ours])

    play_match(CONFIG, watched, make_player("station", CONFIG, 5), rounds=30, seed=0, on_round=read)
    assert ranks[24][1] != ranks[25][1] or ranks[24][0] != ranks[25][0]  # the re-draw
    by_round = {}
    for index, own, prior in watched.priors:
        assert own == ranks[index][0]
        by_round.setdefault(index, []).append(prior)
    uniform = np.full(13, 1 / 13)
    assert all(np.allclose(prior, uniform) for index in (0, 25) for prior in by_round[index])
    last = by_round[24][-1]
    assert last.argmax() == ranks[24][1] and last[ranks[24][1]] > 0.9, last
    assert base.resolves > 0  # the river's ranges were drawn from these priors


def test_an_own_off_tree_raise_re_solves_from_the_current_node(strategy) -> None:
    """The adaptive bot's deviation can be a raise the re-solver's tree lacks: on a Bounty river the
    bot solves (its first decision), a wrapper raises 3 chips into 4 instead (no 0.5p, 1p or all-in
    size), the opponent re-raises; at its next decision the bot solves again from there, with no
    fallback, and its policy is legal there."""
    bot = ResolvingBot(strategy, config=CONFIG, seed=2, resolving=FAST)
    round_ = BountyRound(CONFIG, RandomChance(4), match_state=(3, 8))
    while round_.street < RIVER:
        round_.apply(passive_action(round_.observation(round_.to_act)))
    seat = round_.to_act
    bot.act(round_.observation(seat))
    assert bot.resolves == 1 and sum(round_.observation(seat).contributions) == 4
    low, _ = round_.raise_bounds()
    round_.apply(Action.raise_to(low + 1))  # ours, not the bot's: to 3
    round_.apply(Action.raise_to(round_.raise_bounds()[0]))  # the opponent's minimum re-raise
    observation = round_.observation(seat)
    action = bot.act(observation)
    assert bot.resolves == 2 and bot.fallbacks == 0 and bot.errors == 0 and round_.can_apply(action)
    assert all(round_.can_apply(a) for a, _ in bot.policy(observation))


@pytest.mark.slow  # an export (a 200-round prior, a warm-up in a fresh interpreter) and a local engine match: ~40 s
def test_export_resolve_adapts_by_default_and_plays_the_local_engine(strategy, tmp_path: Path) -> None:
    """``vcfr export-bot --resolve`` adapts unless ``--no-adapt``: bot.json records it, prior.json holds
    the blueprint lookup bot's self-play prior, and the folder plays 60 rounds of the local 2025
    engine against the check-caller with no fault, no error or fallback, within the clock, as the
    adaptive bot (its closing log line counts deviations and its base's fallbacks, which only the
    adaptive wrapper has). Whether it deviates within 60 rounds is not asserted: the re-solves the
    clock allows change our own raises and so how soon the model is sure (one CI run deviated 0
    times); `test_a_bounty_match_deviates_within_the_bound_without_errors` checks deviations."""
    folder = tmp_path / "bot"
    result = invoke("export-bot", "--variant", "2025", "--resolve", "--strategy", strategy, "--out", folder, "--json")
    assert result.exit_code == 0, result.output
    assert BotSpec.read(folder) == BotSpec("bounty", "resolve", "strategy.h5", 0, None, "cards.h5", adapt=True)
    exploit = ExploitConfig()
    expected = prior_from_self_play(
        lambda index: LookupBot(folder / "strategy.h5", config=CONFIG, seed=index),
        CONFIG,
        rounds=exploit.prior_rounds,
        weight=exploit.prior_weight,
    )
    written = ModelPrior.from_dict(json.loads((folder / "prior.json").read_text()))
    assert np.array_equal(written.beta, expected.beta) and np.array_equal(written.bids, expected.bids)
    report = check_bot(folder, rounds=60, opponent="checkcall", seed=3)
    assert report.ok and "match over: 60 rounds" in report.log_tail, report.fault_notes
    counted = {name: int(count) for count, name in re.findall(r"(\d+) ([a-z-]+)", report.log_tail.split("bot: ")[-1])}
    assert "deviations" in counted and "base-fallbacks" in counted, report.log_tail
    assert counted["errors"] == counted["fallbacks"] == counted["base-fallbacks"] == 0, report.log_tail
    assert report.clock_used_seconds < 0.6 * report.clock_seconds
