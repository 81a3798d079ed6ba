"""``vcfr export-bot``: the folder layout, bot lookup, the launcher, and a match against a fake engine."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from game.play.bots import CheckCallBot, EquityBot, RandomBot
from game.pokerbots.client import read_transcript
from game.rules.actions import Action, ActionKind
from solver.bots.export_bot import WARM_UP_ROUNDS, BotSpec, export_bot, make_bot, play_warm_up
from solver.cli.main import app
from tests.fake_engine import start_fake_engine

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "data" / "transcripts"

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
    spec = BotSpec("auction", "equity", "strategy.h5", 7)
    (tmp_path / "bot.json").write_text(spec.to_json())
    assert BotSpec.read(tmp_path) == spec
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
    assert sorted(path.name for path in tmp_path.iterdir()) == ["other.txt"]  # nothing half-written


def test_exported_folder_is_self_contained_and_plays_a_fake_engine(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(USER_BOT)
    folder = tmp_path / "bot"
    result = CliRunner().invoke(
        app,
        [
            "export-bot",
            "--variant",
            "2022",
            "--bot",
            f"{tmp_path / 'mine.py'}:AlwaysRaise",
            "--out",
            str(folder),
            "--transcript",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    commands = json.loads((folder / "commands.json").read_text())
    assert commands == {"build": [], "run": [sys.executable, "player.py"]}
    assert BotSpec.read(folder) == BotSpec("swap", "bots/mine.py:AlwaysRaise", None, 0, "transcript.txt.gz")
    # only what the bot imports: the client and the rules it needs; no CLI, no solver internals
    assert "game/pokerbots/client.py" in summary["modules"] and "solver/bots/export_bot.py" in summary["modules"]
    assert not any(name.startswith(("abstraction/", "solver/cli")) for name in summary["modules"])
    assert summary["bytes"] < 5_000_000

    # the engine starts `run + [PORT]` in the folder; play 30 recorded lines and the final Q
    lines = [line for line, _ in read_transcript(sorted((TRANSCRIPTS / "2022").glob("*.gz"))[0])[:30]] + ["Q"]
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(120)
    answers: list[str] = []
    connected_after: list[float] = []
    thread = start_fake_engine(server, lines, answers, lambda: connected_after.append(time.monotonic() - started))
    launch_environment = {name: value for name, value in os.environ.items() if name in ("PATH", "NUMBA_DISABLE_JIT")}
    started = time.monotonic()
    process = subprocess.run(
        commands["run"] + [str(server.getsockname()[1])],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        env=launch_environment,
    )
    thread.join(timeout=10)
    server.close()
    assert process.returncode == 0, process.stderr
    assert len(answers) == 30 and "0 errors" in process.stderr
    if "NUMBA_DISABLE_JIT" not in os.environ:  # pure-Python imports (coverage runs) are slower
        assert connected_after[0] < 10.0  # the engines' CONNECT_TIMEOUT
    recorded = read_transcript(folder / "transcript.txt.gz")
    assert [line for line, _ in recorded] == lines and [answer for _, answer in recorded[:-1]] == answers
    first = Action.parse(answers[0])
    assert first.kind is ActionKind.RAISE and first.amount == 200  # R10000 clamped to the 200-chip stack
