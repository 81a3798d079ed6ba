"""``vcfr check-bot``: an exported folder plays the local engine with no fault; broken folders
(illegal answers, a crash, a failing warm-up) are reported fault by fault with exit code 1."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from solver.bots.check_bot import check_bot
from solver.bots.export_bot import BotSpec, export_bot
from tests.solver.cli_support import invoke, one_line_error

BROKEN_PLAYER = """
import json, socket, sys

if sys.argv[1:] == ["--warm-up"]:
    if {warm_up_fails}:
        sys.exit("warm-up: cannot load the tables")
    print(json.dumps({{"modules": [], "outside": [], "peak_memory_bytes": None}}))
    sys.exit(0)
stream = socket.create_connection(("127.0.0.1", int(sys.argv[1]))).makefile("rw")
for number, line in enumerate(stream):
    if line.startswith("Q"):
        break
    if number == {crash_at}:
        sys.exit(3)
    stream.write({answer!r} + "\\n")
    stream.flush()
"""


def broken_folder(tmp_path: Path, *, answer: str = "K", crash_at: int = -1, warm_up_fails: bool = False) -> Path:
    """A bot folder as export-bot lays it out, whose player.py answers ``answer`` to every line."""
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "bot.json").write_text(BotSpec("swap", "random").to_json())
    (folder / "commands.json").write_text(json.dumps({"build": [], "run": [sys.executable, "player.py"]}))
    (folder / "player.py").write_text(
        BROKEN_PLAYER.format(answer=answer, crash_at=crash_at, warm_up_fails=warm_up_fails)
    )
    return folder


@pytest.mark.jit_only
def test_an_exported_bot_plays_the_local_engine_without_fault(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    export_bot("auction", "random", folder, seed=4)
    report = check_bot(folder, rounds=60, opponent="checkcall", seed=2)
    assert report.ok and report.faults == dict.fromkeys(report.faults, 0), report.fault_notes
    assert (report.variant, report.year, report.rounds) == ("auction", 2024, 60)
    # the bot's own client counted the same match: its closing log line names the engine's bankroll
    closing = re.search(r"match over: (\d+) rounds, bankroll (-?\d+), 0 repairs, 0 errors", report.log_tail)
    assert closing is not None, report.log_tail
    assert (int(closing.group(1)), int(closing.group(2))) == (60, report.bankroll)
    times = report.decision_ms
    assert report.decisions > 60 and 0 < times["p50"] <= times["p99"] <= times["max"]  # type: ignore[operator]
    assert 0 < report.clock_used_seconds < report.clock_seconds == 30.0
    assert report.peak_memory_bytes is not None and report.peak_memory_bytes > 10e6

    result = invoke("check-bot", folder, "--rounds", "2", "--opponent", "random", "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert shown["ok"] and shown["rounds"] == 2 and sum(shown["faults"].values()) == 0


@pytest.mark.parametrize(
    ("settings", "faults"),
    [
        ({"answer": "R1"}, {"illegal"}),  # below the minimum raise, and not K as an ack
        ({"answer": "hello"}, {"misformatted"}),
        ({"crash_at": 0}, {"disconnect", "crash"}),  # exits at its first line
        ({"warm_up_fails": True}, {"warm_up", "illegal"}),  # and K is illegal facing a bet
    ],
)
def test_a_broken_bot_is_reported_fault_by_fault_with_exit_1(tmp_path: Path, settings, faults) -> None:
    folder = broken_folder(tmp_path, **settings)
    report = check_bot(folder, rounds=12, opponent="checkcall")
    assert {kind for kind, count in report.faults.items() if count} == faults, report.fault_notes
    assert report.rounds == 12 and not report.ok
    assert {note.split(":")[0] for note in report.fault_notes} == faults
    if "crash" in faults:
        assert report.faults["disconnect"] == report.faults["crash"] == 1  # asked no more after the crash
        assert "exited with code 3" in " ".join(report.fault_notes)

    result = invoke("check-bot", folder, "--rounds", "6", "--opponent", "checkcall")
    assert result.exit_code == 1, result.output
    assert re.search(r"^faults: \d+ ", result.stdout, re.MULTILINE), result.stdout


def test_check_bot_refuses_what_is_not_a_bot_folder(tmp_path: Path) -> None:
    assert "has no bot.json" in one_line_error(invoke("check-bot", tmp_path), 1)
    folder = broken_folder(tmp_path)
    assert "unknown opponent 'allin'" in one_line_error(invoke("check-bot", folder, "--opponent", "allin"), 2)
    assert "--rounds must be an integer >= 1, got 0" in one_line_error(invoke("check-bot", folder, "--rounds", "0"), 2)
    (folder / "commands.json").unlink()
    assert "has no commands.json" in one_line_error(invoke("check-bot", folder), 1)
