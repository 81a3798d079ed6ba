"""The N-player limit abstract game (solver.games.limit_games): config, build, train() on fresh chance, the
strategy file and the limit lookup bot playing freeze-outs (solver.bots.limit_lookup_bot)."""

from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path

import numpy as np
import pytest

from abstraction.bets.limit_tree import showdown_contexts
from abstraction.cards.buckets import CardAbstraction
from game.play.bots import CheckCallBot, RandomBot
from game.play.freeze_out import FreezeOut
from game.rules.actions import Action, IllegalActionError
from game.rules.chance import ScriptedChance
from game.rules.limit import LimitConfig, LimitRound
from solver.bots.limit_lookup_bot import OFF_TREE, LimitLookupBot
from solver.games.abstract_games import write_abstract_strategy
from solver.games.limit_games import LimitGameConfig, build_limit_game
from solver.solve.cfr import Solver
from solver.solve.game_kinds import build_game_from_config
from solver.solve.strategy_file import read_strategy_file
from solver.solve.training import TrainingConfig, train
from tests.solver.cli_support import invoke, one_line_error

pytestmark = pytest.mark.jit_only  # the limit games are trained in module fixtures: minutes as plain Python

BUCKETS = (169, 8, 8, 8)


@pytest.fixture(scope="module")
def cards(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cards") / "cards.h5"
    CardAbstraction.blank(BUCKETS).save(path)
    return path


def three(cards: Path, **rules) -> LimitGameConfig:
    return LimitGameConfig(rules={"max_raises": 1, **rules}, card_abstraction=str(cards))


@pytest.fixture(scope="module")
def solved(cards: Path, tmp_path_factory) -> dict[int, Path]:
    """A tiny 3-player solve through train() and a heads-up one through Solver + write_abstract_strategy."""
    folder = tmp_path_factory.mktemp("solved")
    config = TrainingConfig(
        game=three(cards).to_dict(), algorithm="es-mccfr", iterations=20_000, seed=3, evaluate_every=10_000
    )
    result = train(config, folder / "three.h5")
    assert result.record.iterations == 20_000 and result.record.game_config["kind"] == "limit"
    heads_up = build_limit_game(LimitGameConfig(rules={"n_players": 2, "max_raises": 2}, card_abstraction=str(cards)))
    solver = Solver(heads_up, "es-mccfr", seed=1)
    solver.run(8_192)
    write_abstract_strategy(folder / "two.h5", heads_up, solver)
    return {3: folder / "three.h5", 2: folder / "two.h5"}


def test_config_round_trip_and_defaults(cards: Path) -> None:
    config = LimitGameConfig(card_abstraction=str(cards))
    assert config.rules == {"n_players": 3, "max_raises": 2} and config.max_nodes == 2_000_000
    assert LimitGameConfig.from_dict(config.to_dict()) == config
    custom = LimitGameConfig(rules={"n_players": 4, "max_raises": 0, "ante": 2}, card_abstraction=str(cards))
    assert custom.limit_config().n_players == 4 and custom.limit_config().ante == 2
    assert LimitGameConfig.from_dict(custom.to_dict()) == custom


def test_bad_configs_fail_clearly(cards: Path) -> None:
    with pytest.raises(ValueError, match=r"unknown limit rules fields \['stack'\]"):
        LimitGameConfig(rules={"stack": 100}, card_abstraction=str(cards))
    with pytest.raises(ValueError, match=r"assumes nobody taps out.*up to 185 chips.*buy_in is 100"):
        LimitGameConfig(rules={"buy_in": 100}, card_abstraction=str(cards))
    with pytest.raises(ValueError, match=r"seats 2..6 players, the rules 8"):
        LimitGameConfig(rules={"n_players": 8}, card_abstraction=str(cards))
    with pytest.raises(ValueError, match="low_limit must be >= 2"):
        LimitGameConfig(rules={"low_limit": 1}, card_abstraction=str(cards))
    with pytest.raises(ValueError, match=r"deals hold'em .* got hole_cards=1, board_cards=\[0, 1\]"):
        LimitGameConfig(rules={"hole_cards": 1, "board_cards": [0, 1]}, card_abstraction=str(cards))
    with pytest.raises(ValueError, match="card_abstraction must name"):
        LimitGameConfig()
    with pytest.raises(ValueError, match="not a 'limit' game config"):
        LimitGameConfig.from_dict({"kind": "sampled-nolimit", "card_abstraction": "x.h5"})
    with pytest.raises(ValueError, match=r"bad limit game config.*bets"):
        LimitGameConfig.from_dict({"kind": "limit", "card_abstraction": "x.h5", "bets": "1p"})
    with pytest.raises(ValueError, match="5,354,611 nodes, more than max_nodes=2,000,000"):
        build_limit_game(LimitGameConfig(rules={"max_raises": 3}, card_abstraction=str(cards)))
    with pytest.raises(ValueError, match="does not exist"):
        build_limit_game(LimitGameConfig(card_abstraction=str(cards.parent / "missing.h5")))
    with pytest.raises(ValueError, match="does not exist"):
        build_game_from_config({"kind": "limit", "card_abstraction": str(cards.parent / "missing.h5")})


def test_build_gives_a_fresh_chance_game(cards: Path) -> None:
    game = build_game_from_config(three(cards).to_dict())
    assert game.fresh_chance and game.tree.n_players == 3 and game.tree.n_nodes == 14_035
    assert game.config["kind"] == "limit" and len(game.config["card_hash"]) == 64
    assert game.sampler.contexts == showdown_contexts(game.tree)
    deals = game.sampler.sample(0, 16, seed=2)
    assert deals.bucket.shape == (16, 3, 4) and deals.weight.shape == (16, game.tree.weight_columns)
    assert game.name == "limit 3p max_raises=1"


def test_strategy_file_reads_back(solved: dict[int, Path], cards: Path) -> None:
    record = read_strategy_file(solved[3])
    game = build_game_from_config(record.game_config)
    assert record.tree_fingerprint == game.tree.fingerprint()
    strategy = np.asarray(record.average_strategy)
    assert strategy.shape == (game.tree.table_size,) and np.isfinite(strategy).all()
    assert not np.allclose(strategy, np.repeat(1.0 / game.tree.n_actions, game.tree.n_buckets * game.tree.n_actions))


def _play(config: LimitConfig, bots: list, seed: int, max_games: int) -> FreezeOut:
    match = FreezeOut(config, bots, seed=seed)
    match.run(max_games=max_games)  # an illegal action would raise IllegalActionError
    return match


def test_lookup_bot_follows_the_tree_when_the_rules_match(solved: dict[int, Path]) -> None:
    """Three lookup bots, the abstract game's own rules, one game per button seat: never off the tree."""
    bots = [LimitLookupBot(solved[3], seed=seat, name=f"lookup-{seat}") for seat in range(3)]
    config = LimitConfig(n_players=3, max_raises=1, cards_speak=True)
    for button in range(3):
        match = FreezeOut(config, bots, seed=10 + button, button=button)
        match.play_game()
    assert sum(bot.decisions for bot in bots) > 10
    assert sum(bot.off_tree for bot in bots) == 0 and sum(bot.errors for bot in bots) == 0


def test_lookup_bot_plays_a_three_player_freeze_out(solved: dict[int, Path], caplog) -> None:
    """Real rules (3 raises a round, announced showdowns) against the baseline bots, with a file per
    player count: zero illegal actions, zero internal errors."""
    bot = LimitLookupBot([solved[3], solved[2]], seed=7)
    assert bot.player_counts == [2, 3]
    config = LimitConfig(n_players=3, buy_in=300)
    with caplog.at_level(logging.WARNING, logger="solver.bots.limit_lookup_bot"):
        match = _play(config, [bot, RandomBot(seed=1), CheckCallBot()], seed=5, max_games=150)
    assert bot.decisions > 50 and bot.errors == 0 and not caplog.records
    assert bot.off_tree < bot.decisions  # mostly on the tree (off it after tap-outs and the 4th raise)
    assert len(match.records) > 5


def test_lookup_bot_survives_a_real_tap_out(solved: dict[int, Path]) -> None:
    """Seat 1 starts with 12 chips: it taps out (ante 5, then a straddle call for less). The bot plays
    every seat and always answers with a legal action."""
    bot = LimitLookupBot(solved[3], seed=4)
    rng = np.random.default_rng(0)
    tapped = 0
    for deal in range(20):
        cards = rng.permutation(52)[:11].tolist()
        round_ = LimitRound(LimitConfig(n_players=3), [1000, 12, 1000], button=deal % 3, chance=ScriptedChance(cards))
        while not round_.is_terminal:
            action = bot.act(round_.observation(round_.to_act))
            round_.apply(action)  # IllegalActionError would fail the test
        tapped += round_.stacks[1] == 0 or round_.contributions[1] == 12
    assert tapped > 0 and bot.errors == 0


def test_lookup_bot_reads_histories_and_falls_back(solved: dict[int, Path]) -> None:
    bot = LimitLookupBot(solved[3], seed=1)
    round_ = LimitRound(LimitConfig(n_players=3, max_raises=3), button=1, chance=ScriptedChance(list(range(11))))
    # button 1 blinds; seat 2 straddles; seat 0 raises to 20: the tree's one raise
    for text in ["R10", "R20"]:
        round_.apply(Action.parse(text))
    assert bot.abstract_node(round_.observation(round_.to_act)) != OFF_TREE
    round_.apply(Action.parse("R30"))  # a second raise: capped in the tree (max_raises=1), read as a call
    node = bot.abstract_node(round_.observation(round_.to_act))
    assert node != OFF_TREE and bot.act(round_.observation(round_.to_act)) in round_.legal_moves()
    # no strategy for 4 players: check/call, counted off the tree
    four = LimitRound(LimitConfig(n_players=4), chance=ScriptedChance(list(range(13))))
    before = bot.off_tree
    assert bot.act(four.observation(four.to_act)) in four.legal_moves() and bot.off_tree == before + 1


def test_lookup_bot_never_crashes_on_internal_errors(solved: dict[int, Path], caplog) -> None:
    bot = LimitLookupBot(solved[3], seed=1)
    round_ = LimitRound(LimitConfig(n_players=3), chance=ScriptedChance(list(range(11))))
    observation = dataclasses.replace(round_.observation(round_.to_act), hole_cards=(1,))  # cannot be bucketed
    with caplog.at_level(logging.WARNING, logger="solver.bots.limit_lookup_bot"):
        action = bot.act(observation)
    assert action in round_.legal_moves() and bot.errors == 1 and "cannot bucket" in caplog.text


def test_lookup_bot_announces_its_best_hand(solved: dict[int, Path]) -> None:
    from game.cards.deck import parse_cards

    bot = LimitLookupBot(solved[3], seed=1)
    cards = parse_cards("Ah Ad 2c 3d 7h 8h Ac Kd Qh 4s 9c").tolist()
    round_ = LimitRound(LimitConfig(n_players=3), chance=ScriptedChance(cards))
    while not round_.in_showdown:
        moves = round_.legal_moves()
        round_.apply(next(m for m in moves if m.kind.name in ("CHECK", "CALL", "RAISE")))
    while round_.in_showdown:
        seat = round_.to_act
        round_.apply(bot.act(round_.observation(seat)))
    assert round_.payoffs()[0] > 0  # trip aces announced
    assert dict(round_.observation(0).shown)[0] == tuple(sorted(parse_cards("Ah Ad Ac Kd Qh").tolist()))


def test_lookup_bot_refuses_other_files(tmp_path: Path, solved: dict[int, Path]) -> None:
    with pytest.raises(ValueError, match="two strategy files for 3 players"):
        LimitLookupBot([solved[3], solved[3]])
    with pytest.raises(ValueError, match="at least one strategy file"):
        LimitLookupBot([])
    with pytest.raises(ValueError, match="do not match"):
        LimitLookupBot(solved[3], card_abstraction=CardAbstraction.blank((169, 4, 4, 4)))


def test_cli_freezeout_seats_strategy_files(tmp_path: Path, solved: dict[int, Path]) -> None:
    three_players = str(solved[3])
    result = invoke("freezeout", "--bots", f"{three_players},random,checkcall", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["players"] == 3 and list(summary["stacks"]) == [three_players, "random", "checkcall"]
    assert sum(summary["stacks"].values()) == 3 * LimitConfig().buy_in  # chips are conserved
    # a strategy of another game is refused, naming the file
    leduc = tmp_path / "leduc.h5"
    train(TrainingConfig(game="leduc", algorithm="cfr+", iterations=5), leduc)
    refused = invoke("freezeout", "--bots", f"{leduc},random,random")  # a file it cannot play: runtime error
    message = one_line_error(refused, 1)
    assert "leduc.h5" in message and "N-player limit" in message
    assert "strategy files" in one_line_error(invoke("freezeout", "--bots", "equity,random,random"), 2)


def test_cli_limit_gauntlet_seats_a_strategy_file(solved: dict[int, Path]) -> None:
    options = ["--variant", "limit", "--bot", str(solved[3]), "--opponents", "tag,maniac", "--freezeouts", "2"]
    result = invoke("gauntlet", *options, "--max-games", "30", "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [row["opponents"] for row in report["pairs"]] == [["tag", "tag"], ["tag", "maniac"], ["maniac", "maniac"]]
    assert report["overall"]["freezeouts"] == 6 and 0 <= report["overall"]["wins"] <= 6
    assert all(0 < row["games"] <= 2 * 30 for row in report["pairs"])


@pytest.mark.slow
def test_process_backend_rebuilds_the_limit_game(cards: Path, tmp_path: Path) -> None:
    config = TrainingConfig(
        game=three(cards).to_dict(),
        algorithm="es-mccfr",
        iterations=8_192,
        seed=1,
        workers=2,
        backend="processes",
        evaluate_every=4_096,
    )
    result = train(config, tmp_path / "p.h5")
    assert result.record.iterations == 8_192 and result.record.game_config["kind"] == "limit"
    with pytest.raises(IllegalActionError):
        LimitRound(LimitConfig(n_players=3), seed=1).apply(Action.check())


def test_run_files_take_the_limit_variant(cards: Path) -> None:
    from solver.solve.run_config import RunConfigError, parse_run_config

    text = f"""
[rules]
variant = "limit"
n_players = 4
max_raises = 0
[cards]
path = "{cards}"
[solver]
iterations = 100
"""
    run = parse_run_config(text)
    game = run.game_config()
    assert game["kind"] == "limit" and game["rules"] == {"n_players": 4, "max_raises": 0}
    assert run.training_config().algorithm == "es-mccfr"
    with pytest.raises(RunConfigError, match=r"\[bets\] text does not apply to the limit game"):
        parse_run_config(text + '[bets]\ntext = "1p"\n')
    with pytest.raises(RunConfigError, match="fresh chance only"):
        parse_run_config(text.replace("iterations = 100", 'iterations = 100\nchance = "fixed"'))
    with pytest.raises(RunConfigError, match="assumes nobody taps out"):
        parse_run_config(text.replace("max_raises = 0", "buy_in = 50")).game_config()
