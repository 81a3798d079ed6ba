"""``vcfr export-bot``: the folder layout, bot lookup, the launcher, and a match in the local engine."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pytest

from game.play.bots import CheckCallBot, EquityBot, RandomBot
from game.pokerbots.client import read_transcript
from game.pokerbots.engines import engine_rules
from game.pokerbots.local_engine import EnginePlayer, LocalEngine, SessionEndpoint, SocketEndpoint, launch_bot
from game.pokerbots.session import ClientSession, bot_decider
from game.rules.actions import Action, ActionKind
from solver.bots.export_bot import WARM_UP_ROUNDS, BotSpec, export_bot, make_bot, play_warm_up
from tests.solver.cli_support import invoke

USER_BOT = """
from game.rules.actions import Action


class AlwaysRaise:
    name = "always-raise"

    def __init__(self, seed=0):
        self.seed = seed

    def act(self, observation):
        return Action.raise_to(10_000)  # the client clamps it to the engine's bounds
"""


def test_bot_spec_round_trips_through_bot_json(tmp_path: Path) -> None:
    spec = BotSpec("auction", "equity", "strategy.h5", 7, adapt=True)
    (tmp_path / "bot.json").write_text(spec.to_json())
    assert BotSpec.read(tmp_path) == spec
    (tmp_path / "bot.json").write_text(spec.to_json().replace('"adapt": true', '"adapt": "yes"'))
    with pytest.raises(ValueError, match="adapt must be true or false"):
        BotSpec.read(tmp_path)
    (tmp_path / "bot.json").write_text(json.dumps({"format": 99}))
    with pytest.raises(ValueError, match="format 99"):
        BotSpec.read(tmp_path)


def test_make_bot_by_registry_name_module_and_file(tmp_path: Path) -> None:
    assert isinstance(make_bot(BotSpec("swap", "random", seed=3)), RandomBot)
    equity = make_bot(BotSpec("bounty", "equity"))
    assert isinstance(equity, EquityBot) and equity._estimator.config_for("bounty").rules == "engine"
    assert isinstance(make_bot(BotSpec("swap", "game.play.bots:CheckCallBot")), CheckCallBot)
    (tmp_path / "mine.py").write_text(USER_BOT)
    mine = make_bot(BotSpec("swap", "mine.py:AlwaysRaise", seed=5), tmp_path)
    assert mine.name == "always-raise" and mine.seed == 5
    with pytest.raises(ValueError, match="unknown bot 'allin'"):
        make_bot(BotSpec("swap", "allin"))


@pytest.mark.parametrize("variant", sorted(WARM_UP_ROUNDS))
def test_warm_up_round_asks_the_bot(variant: str) -> None:
    assert play_warm_up(BotSpec(variant, "random", seed=1)) >= 4


def test_export_refuses_bad_input(tmp_path: Path) -> None:
    (tmp_path / "other.txt").write_text("not an export")
    with pytest.raises(ValueError, match="not empty"):
        export_bot("swap", "random", tmp_path, force=True)
    with pytest.raises(ValueError, match="no official engine for 'holdem'"):
        export_bot("holdem", "random", tmp_path / "new")
    with pytest.raises(ValueError, match="strategy file"):
        export_bot("swap", "random", tmp_path / "new2", strategy=tmp_path / "missing.h5")
    with pytest.raises(ValueError, match="unknown bot 'allin'"):
        export_bot("swap", "allin", tmp_path / "new3")
    with pytest.raises(ValueError, match="has no attribute 'Nope'"):
        export_bot("swap", "game.play.bots:Nope", tmp_path / "new4")
    (tmp_path / "mine.py").write_text(USER_BOT)
    with pytest.raises(ValueError, match=r"no policy.*--no-adapt"):
        export_bot("swap", f"{tmp_path / 'mine.py'}:AlwaysRaise", tmp_path / "new5", adapt=True)
    (tmp_path / "mine.py").unlink()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["other.txt"]  # nothing half-written


def test_exported_folder_is_self_contained_and_plays_the_local_engine(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(USER_BOT)
    folder = tmp_path / "bot"
    bot = f"{tmp_path / 'mine.py'}:AlwaysRaise"
    result = invoke("export-bot", "--variant", "2022", "--bot", bot, "--out", folder, "--transcript", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    commands = json.loads((folder / "commands.json").read_text())
    assert commands == {"build": [], "run": [sys.executable, "player.py"]}
    assert BotSpec.read(folder) == BotSpec("swap", "bots/mine.py:AlwaysRaise", None, 0, "transcript.txt.gz")
    # only what the bot imports: the client and the rules it needs; no CLI, no solver internals
    assert "game/pokerbots/client.py" in summary["modules"] and "solver/bots/export_bot.py" in summary["modules"]
    assert not any(name.startswith(("abstraction/", "solver/cli")) for name in summary["modules"])
    assert summary["bytes"] < 5_000_000

    # the engine starts `run + [PORT]` in the folder (within 10 s it must connect): a few rounds
    # of the local engine, every line and answer recorded on our side to compare with the bot's
    launch_environment = {name: value for name, value in os.environ.items() if name in ("PATH", "NUMBA_DISABLE_JIT")}
    connect_timeout = 120.0 if "NUMBA_DISABLE_JIT" in os.environ else 10.0  # pure-Python imports are slower
    rules = engine_rules("swap")
    with tempfile.TemporaryFile() as log:
        launched = launch_bot(folder, log, environment=launch_environment, connect_timeout=connect_timeout)
        assert launched.endpoint is not None, launched.problem
        recorder = Recorder(launched.endpoint)
        bot = EnginePlayer("bot", recorder, rules.game_clock_seconds)
        other = EnginePlayer("checkcall", SessionEndpoint(ClientSession(rules, bot_decider(CheckCallBot()))), 30.0)
        LocalEngine(rules, (bot, other)).play_match(6, seed=2)
        assert launched.finish() == (0, None)
        log.seek(0)
        output = log.read().decode()
    assert not bot.faults and ", 0 errors," in output, output
    recorded = read_transcript(folder / "transcript.txt.gz")
    assert recorded == [*recorder.pairs, ("Q", None)]
    first = Action.parse(recorder.pairs[0][1])
    assert first.kind is ActionKind.RAISE and first.amount == 200  # R10000 clamped to the 200-chip stack


class Recorder:
    """The engine's line to a bot, keeping every (line, answer) pair."""

    def __init__(self, endpoint: SocketEndpoint) -> None:
        self.endpoint = endpoint
        self.pairs: list[tuple[str, str]] = []

    def exchange(self, message: str) -> str:
        answer = self.endpoint.exchange(message)
        self.pairs.append((message, answer))
        return answer

    def close(self) -> None:
        self.endpoint.close()


def test_an_adapting_export_sees_every_round_of_the_match(tmp_path: Path) -> None:
    from game.play.adaptive import AdaptiveBot
    from game.play.opponent_model import ModelPrior
    from solver.bots.export_bot import PRIOR_FILE_NAME, _attached, make_player

    spec = BotSpec("swap", "equity", adapt=True)
    (tmp_path / PRIOR_FILE_NAME).write_text(json.dumps(ModelPrior.flat(7.0).to_dict()))
    player = make_player(spec, tmp_path)
    assert isinstance(player.bot, AdaptiveBot) and player.model.prior.weight == 7.0  # inside the lock-in
    session = _attached(player, ClientSession(engine_rules("swap"), bot_decider(player)))
    for _ in range(2):  # the warm-up round ends with the opponent's cards and D200
        for line in WARM_UP_ROUNDS["swap"]:
            session.answer(line)
    assert session.errors == 0 and player.model.rounds == 2 and player.won == 400  # the model keeps the match
    shown = player.model.count("showdown_strength").sum()  # the shown 7c 7d reached it twice
    assert shown == 1 + (1 - 1 / player.exploit.memory)  # the first one has faded by one round
    assert not isinstance(make_player(BotSpec("swap", "equity")), AdaptiveBot)  # absent adapt: as before
