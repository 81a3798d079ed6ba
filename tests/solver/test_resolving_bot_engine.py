"""The re-solving bot where the game clock is: exported with ``vcfr export-bot --resolve`` (check-bot
plays it against the local 2022 engine), paced by an attached clock, in the gauntlet, and on the
variants whose river it does not re-solve. The blueprint is a tiny Swap (or Bounty) strategy of
`tests.solver.tiny_bounty` (engine rules, bets ``1p,a cap=1``, about 2 s to solve)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pytest

from abstraction.cards.kernels_features import HAND_CARDS
from game.play.bots import make_bot, passive_action
from game.play.match import play_match
from game.pokerbots.engines import engine_rules
from game.pokerbots.session import ClientSession, bot_decider
from game.rules.bounty import BountyRound
from game.rules.chance import RandomChance
from game.rules.river_of_blood import RiverOfBloodRound
from game.rules.swap import SwapConfig, SwapRound
from solver.bots.check_bot import check_bot
from solver.bots.export_bot import PROJECT_ROOT, WARM_UP_ROUNDS, BotSpec
from solver.bots.lookup_bot import LookupBot
from solver.bots.resolving_bot import RIVER, TURN, ResolvingBot, ResolvingConfig, final_street
from solver.resolve.bounty import rank_hits
from solver.resolve.ranges import initial_range
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
    options = ["--resolve", "--no-adapt", "--strategy", swap_strategy]  # adapting: test_adaptive_resolving
    result = invoke("export-bot", "--variant", "2022", *options, "--out", folder, "--json")
    assert result.exit_code == 0, result.output
    assert BotSpec.read(folder) == BotSpec("swap", "resolve", "strategy.h5", 0, None, "cards.h5")
    modules = json.loads(result.stdout)["modules"]
    assert "solver/bots/time_manager.py" in modules and "solver/resolve/kernels_vector_cfr.py" in modules
    # the warm-up compiled the re-solving kernels into the folder: the bot need not compile
    assert list((folder / "solver" / "resolve" / "__pycache__").glob("kernels_vector_cfr.*.nbi"))
    # and the project's cache, copied, stayed: the bot's own check (game.numba_cache) found it fresh
    copied = list((folder / "solver" / "resolve" / "__pycache__").glob("kernels_vector_cfr.*.nbc"))
    assert any(path.stat().st_mtime == (PROJECT_ROOT / path.relative_to(folder)).stat().st_mtime for path in copied)

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


@pytest.fixture(scope="module")
def blood_strategy(tmp_path_factory) -> Path:
    strategy, _ = solve_tiny(tmp_path_factory.mktemp("blood"), blank_cards("river_of_blood"))
    return strategy


@pytest.fixture(scope="module")
def bounty_strategy(tmp_path_factory) -> Path:
    strategy, _ = solve_tiny(tmp_path_factory.mktemp("bounty"), bounty_cards())
    return strategy


class Recorder:
    """Forwards to ``bot``; records per decision ``(street, final street?, re-solves it made)``."""

    def __init__(self, bot: ResolvingBot) -> None:
        self.bot, self.name, self.decisions = bot, bot.name, []

    def act(self, observation):
        before = self.bot.resolves
        action = self.bot.act(observation)
        self.decisions.append(
            (observation.street, final_street(self.bot.config, observation.board), self.bot.resolves - before)
        )
        return action


@pytest.mark.parametrize(
    ("variant", "rules"), [("river_of_blood", "engine"), ("bounty", "engine"), ("bounty", "document")]
)
@pytest.mark.parametrize("opponent", ["checkcall", "random"])
def test_bot_resolves_the_final_street_and_plays_legally(
    variant, rules, opponent, blood_strategy, bounty_strategy
) -> None:
    """80 duplicate rounds against a baseline bot (Bounty under both rule sets, its blueprint solved
    for the engine's): no illegal action, error or fallback; re-solves happen, and only on final
    streets (River of Blood: a black last card; its red rivers and run streets play the blueprint,
    and some final streets are run streets)."""
    strategy = blood_strategy if variant == "river_of_blood" else bounty_strategy
    config = dataclasses.replace(LookupBot(strategy).config, rules=rules)
    bot = ResolvingBot(strategy, seed=3, resolving=FAST, config=config)
    assert bot.config.variant == variant and bot.re_solves
    recorder = Recorder(bot)
    result = play_match(bot.config, recorder, make_bot(opponent, seed=4), rounds=80, seed=5, duplicate=True)
    assert sum(result.illegal_actions.values()) == 0 and bot.errors == 0 and bot.fallbacks == 0
    assert bot.resolves > 5
    assert all(final for _, final, resolves in recorder.decisions if resolves)  # the turn too: not re-solved here
    if variant == "river_of_blood":
        assert any(street > RIVER and resolves for street, _, resolves in recorder.decisions)
        assert any(street >= RIVER and not final for street, final, _ in recorder.decisions)


@pytest.mark.parametrize("opponent", ["checkcall", "random"])
@pytest.mark.parametrize("variant", ["river_of_blood", "bounty"])
def test_final_street_solves_go_behind_the_blueprint_gadget(variant, opponent, blood_strategy, bounty_strategy) -> None:
    """With ``river_gadget`` the final streets of River of Blood (run streets among them, the
    blueprint followed through its run-card chance nodes) and Bounty (types: the bot's bucket with its
    hit bit) are re-solved behind a gadget of the opponent's finite values. 80 duplicate rounds, no
    illegal action, error or fallback. Against check/call, whose history the blueprint always
    follows, every re-solve is behind it; against random, whose raises leave the tiny blueprint's
    ``cap=1`` tree, some (the others solve plain, as without the option)."""
    strategy = blood_strategy if variant == "river_of_blood" else bounty_strategy
    bot = ResolvingBot(strategy, seed=3, resolving=dataclasses.replace(FAST, river_gadget=True))
    behind = []

    class Watcher:
        name = bot.name

        def act(self, observation):
            before = bot.resolves
            action = bot.act(observation)
            if bot.resolves > before:
                gadget = bot._session.solver.gadget
                behind.append(gadget is not None and gadget.player != observation.seat)
                assert gadget is None or np.all(np.isfinite(gadget.values))
            return action

    result = play_match(bot.config, Watcher(), make_bot(opponent, seed=4), rounds=80, seed=5, duplicate=True)
    assert sum(result.illegal_actions.values()) == 0 and bot.errors == 0 and bot.fallbacks == 0
    assert len(behind) > 5, behind
    assert all(behind) if opponent == "checkcall" else any(behind), behind


@pytest.mark.parametrize("variant", ["river_of_blood", "bounty"])
def test_the_export_warm_up_round_re_solves_a_final_street(variant, blood_strategy, bounty_strategy) -> None:
    """The warm-up round `export_bot` plays in the folder (`WARM_UP_ROUNDS`) reaches a decision the
    re-solving bot solves, so its kernels are compiled into the folder before a match. (The 2023
    official engine, 2,000 rounds: with a recorded round whose run cards were all red, the first
    final-street re-solve of a match compiled them, about 40 s, and the bot ran out of game clock.)"""
    strategy = blood_strategy if variant == "river_of_blood" else bounty_strategy
    bot = ResolvingBot(strategy, seed=0, resolving=FAST)
    session = ClientSession(engine_rules(variant), bot_decider(bot))
    for line in WARM_UP_ROUNDS[variant]:
        session.answer(line)
    assert session.errors == 0 and bot.errors == 0 and bot.fallbacks == 0
    assert bot.resolves >= 1


def passive_history(round_, until) -> list:
    """Check/call ``round_`` until ``until(round_)``; the (observation, action) of every move."""
    moves = []
    while not until(round_):
        observation = round_.observation(round_.to_act)
        action = passive_action(observation)
        moves.append((observation, action))
        round_.apply(action)
    return moves


def brute_force_ranges(lookup: LookupBot, moves, final, ranks: int) -> np.ndarray:
    """(2, 1326, ranks) each seat's range at ``final`` as a product over its moves of the lookup bot's
    probability of the move, per combination (and bounty rank), from `LookupBot.policy_rows`."""
    holes = [tuple(cards) for cards in HAND_CARDS.tolist()]
    out = []
    for seat in (0, 1):
        weights = np.repeat(
            initial_range(final.board, () if seat == final.seat else final.hole_cards)[:, None], ranks, 1
        )
        for observation, action in moves:
            if observation.seat != seat:
                continue
            rank_list = np.repeat(np.arange(ranks), len(holes)).tolist() if ranks > 1 else None
            actions, rows = lookup.policy_rows(observation, holes * ranks, rank_list)
            weights = weights * rows[:, actions.index(action)].reshape(ranks, len(holes)).T
        out.append(weights / weights.sum())
    return np.stack(out)


def test_river_of_blood_ranges_follow_the_blueprint_through_run_streets(blood_strategy) -> None:
    """On a River of Blood hand checked down to its second run street (through the blueprint's
    run-card chance nodes and past its run cap), the bot's ranges equal the product of the lookup
    bot's own probabilities of each earlier move per combination (`LookupBot.policy_rows`)."""
    bot, lookup = ResolvingBot(blood_strategy, seed=0), LookupBot(blood_strategy, seed=0)
    for seed in range(200):
        round_ = RiverOfBloodRound(bot.config, RandomChance(seed))
        moves = passive_history(round_, lambda r: r.is_terminal or r.street >= RIVER + 2)
        if not round_.is_terminal:
            break
    final = round_.observation(round_.to_act)
    ranges = bot.rank_ranges(final)
    assert ranges.shape == (2, 1326, 1) and len(final.board) == 7
    assert np.allclose(ranges, brute_force_ranges(lookup, moves, final, 1), rtol=1e-9, atol=1e-15)


def test_bounty_ranges_follow_the_blueprint_per_rank(bounty_strategy) -> None:
    """Bounty ranges over (combination, rank) equal the product of the lookup bot's probabilities of
    each move per combination and rank (its buckets carry the hit bit); the rank is informative (the
    ranges are not uniform over ranks for a combination)."""
    bot, lookup = ResolvingBot(bounty_strategy, seed=0), LookupBot(bounty_strategy, seed=0)
    round_ = BountyRound(bot.config, RandomChance(3), match_state=(3, 8))
    moves = passive_history(round_, lambda r: r.street >= RIVER)
    final = round_.observation(round_.to_act)
    ranges = bot.rank_ranges(final)
    assert ranges.shape == (2, 1326, 13)
    assert np.allclose(ranges, brute_force_ranges(lookup, moves, final, 13), rtol=1e-9, atol=1e-15)
    assert ranges[0].std(axis=1).max() > 0
    bot.opponent_rank_prior = np.eye(13)[5]  # e.g. an opponent model's posterior: rank 5 for sure
    opponent = 1 - final.seat
    concentrated = bot.rank_ranges(final)
    assert np.allclose(concentrated[opponent, :, 5], ranges[opponent, :, 5] / ranges[opponent, :, 5].sum())
    assert concentrated[opponent].sum() == pytest.approx(1) and np.allclose(
        concentrated[final.seat], ranges[final.seat]
    )
    bot.opponent_rank_prior = None
    # the river's solve: one solve gives every hole's row, by its type (hit bit by the rank given)
    policy = dict(bot.policy(final))
    actions, rows = bot.policy_rows(final, [final.hole_cards], [final.bounty_rank])
    assert np.allclose(rows[0], [policy[action] for action in actions])
    combo = int(np.flatnonzero(initial_range(final.board, final.hole_cards) > 0)[0])
    hole, hits = tuple(HAND_CARDS[combo].tolist()), rank_hits(final.board)[combo]
    ranks = [int(np.flatnonzero(hits)[0]), int(np.flatnonzero(~hits)[0])]  # a hit and a miss
    _, rows = bot.policy_rows(final, [hole, hole], ranks)
    assert rows.shape == (2, len(actions)) and np.allclose(rows.sum(axis=1), 1)


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
