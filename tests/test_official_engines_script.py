"""``experiments/official_engines.py`` without the official engines (CI has no network): game-log
parsing in the engines' own line formats, deal comparison, duplicate and timing arithmetic, the
engine runner and the whole duplicate pipeline on a tiny stand-in ``engine.py``, the row of a year
without a blueprint, and the CLI's errors."""

from __future__ import annotations

import doctest
import json
import math
import textwrap
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from tests.experiment_scripts import load_experiment

official = load_experiment("official_engines")

# Lines as the engines write them (engine.py of 2022-2025: Game.log, Player.query's game_log).
GAME_LOG_2024 = """6.9630 MIT Pokerbots - blueprint vs equity

Round #1, blueprint (0), equity (0)
blueprint posts the blind of 1
equity posts the blind of 2
blueprint dealt [Ah Kd]
equity dealt [2c 7d]
blueprint attempted illegal RaiseAction with amount 9999
blueprint checks
equity response misformatted: X12
IndexError
equity checks
Flop [5h 6h 7h], blueprint (2), equity (2)
equity ran out of time
equity checks
blueprint bets 4
equity folds
blueprint awarded 2
equity awarded -2
Players submitted bids of 0 and 3

Round #2, equity (-2), blueprint (2)
equity posts the blind of 1
blueprint posts the blind of 2
equity dealt [3s 3d]
blueprint dealt [Qc Jc]
equity disconnected
equity folds
equity awarded -1
blueprint awarded 1

Final, equity (-3), blueprint (3)
equity preflop bets EV: 0
"""


def test_doctests():
    assert doctest.testmod(official).failed == 0


def test_game_log_rounds_deltas_and_every_kind_of_event():
    log = official.parse_game_log(GAME_LOG_2024)
    assert [logged.number for logged in log.rounds] == [1, 2]
    assert log.rounds[0].seats == ("blueprint", "equity") and log.rounds[1].seats == ("equity", "blueprint")
    assert [logged.deltas for logged in log.rounds] == [{"blueprint": 2, "equity": -2}, {"equity": -1, "blueprint": 1}]
    assert log.rounds[0].hands == ["Ah Kd", "2c 7d"] and log.rounds[0].boards == ["5h 6h 7h"]
    assert log.final == {"equity": -3, "blueprint": 3}
    assert [(kind, player, number) for kind, player, number, _ in log.events] == [
        ("illegal", "blueprint", 1),
        ("misformatted", "equity", 1),
        ("timeouts", "equity", 1),
        ("disconnects", "equity", 2),
    ]
    assert log.events[0][3] == "blueprint attempted illegal RaiseAction with amount 9999"


def test_game_log_swap_and_bounty_lines():
    text = textwrap.dedent("""\
        Round #1, A (0), B (0)
        Bounties reset to T for player A and 4 for player B
        A dealt [Ah Kd]
        B dealt [2c 7d]
        Flop [5h 6h 7h], A (2), B (2)
        A's hand: [Ah 9s]
        B's hand: [2c 7d]
        A (swapped) awarded 4
        B awarded -4

        Round #2, B (-4), A (4)
        A awarded 0
        B awarded 0
        """)
    log = official.parse_game_log(text)
    assert log.rounds[0].deltas == {"A": 4, "B": -4}
    assert log.rounds[0].updated_hands == ["Ah 9s", "2c 7d"]
    assert log.rounds[0].bounties == ("T", "4") and log.rounds[1].bounties is None
    assert log.final is None  # a match cut short has no Final line


def _round(hands, boards=(), updated=(), bounties=None, seats=("A", "B")):
    return official.LoggedRound(
        1, seats, hands=list(hands), boards=list(boards), updated_hands=list(updated), bounties=bounties
    )


def test_deals_compare_by_seat_and_up_to_the_shorter_board():
    full = _round(["Ah Kd", "2c 7d"], ["5h 6h 7h", "5h 6h 7h 8c"], ["Ah Kd", "2c 7d"], ("T", "4"))
    folded_preflop = _round(["Ah Kd", "2c 7d"], [], [], ("T", "4"), seats=("B", "A"))
    assert official.compare_deals(full, folded_preflop)
    assert not official.compare_deals(full, _round(["2c 7d", "Ah Kd"], [], [], ("T", "4")))
    assert not official.compare_deals(full, _round(["Ah Kd", "2c 7d"], ["5h 6h 7d"], [], ("T", "4")))
    assert not official.compare_deals(full, _round(["Ah Kd", "2c 7d"], ["5h 6h 7h"], ["Ah 3c", "2c 7d"], ("T", "4")))
    assert not official.compare_deals(full, _round(["Ah Kd", "2c 7d"], [], [], ("4", "T")))


def test_duplicate_interval_over_pairs():
    first = [10, -4, 6, 0, 3]
    second = [-6, 8, 0, 2, -3, 50]  # one unpaired round
    summary = official.duplicate_summary(first, second, big_blind=2)
    pairs = (np.array(first) + np.array(second[:5])) / 2
    assert summary["pairs"] == 5 and summary["unpaired_rounds"] == 1
    assert summary["mbb_per_hand"] == round(pairs.mean() * 500, 1)
    expected = stats.t.ppf(0.975, 4) * pairs.std(ddof=1) / math.sqrt(5) * 500  # Student-t, 5 pairs
    assert math.isclose(summary["ci95_mbb"], expected, rel_tol=1e-3)
    assert summary["chips_total"] == sum(first) + sum(second)
    # seats swapped on one deal: a bot that wins only by its cards scores exactly zero
    assert official.duplicate_summary([5, -3], [-5, 3], 2)["mbb_per_hand"] == 0.0
    with pytest.raises(ValueError, match="big blind must be positive, got 0"):
        official.duplicate_summary([1], [1], 0)


def test_decision_percentiles_in_ms():
    summary = official.decision_summary([0.0001] * 98 + [0.003, 0.010])
    assert summary["count"] == 100 and summary["p50_ms"] == 0.1 and summary["max_ms"] == 10.0
    assert math.isclose(summary["p99_ms"], float(np.percentile([0.1] * 98 + [3.0, 10.0], 99)), rel_tol=1e-3)


def test_player_log_names_the_exception_and_reads_the_client_summary():
    text = textwrap.dedent("""\
        2026-11-23 21:11:52,580 vcfr.client WARNING bot failed (KeyError(3)); answering the safe action
        Traceback (most recent call last):
          File "player.py", line 11, in <module>
        MemoryError: out of memory
        2026-11-23 21:11:52,580 vcfr.export_bot WARNING match over: 1000 rounds, bankroll -41, 2 repairs, 1 errors, game clock left 59.959 s; bot: 72 decisions
        """)
    crashes, summary, failures = official._player_log_findings(text)
    assert crashes == ["Traceback (most recent call last): ... MemoryError: out of memory"]
    assert summary == {
        "rounds": 1000,
        "bankroll": -41,
        "repairs": 2,
        "errors": 1,
        "clock_left_seconds": 59.959,
        "bot": {"decisions": 72},  # the bot's own counters (the re-solving bot adds resolves, clock-fallbacks)
    }
    assert failures == 1
    assert official._player_log_findings("all fine\n") == ([], None, 0)


def test_engine_output_keeps_only_unusual_lines_about_a_player():
    text = (
        "Starting the Pokerbots engine...\nblueprint connected successfully\n"
        "Timed out waiting for equity to connect\nblueprint ran out of time\n"
        "Timed out waiting for blueprint to quit\nWriting gamelog.txt\n"
    )
    found = official._engine_output_crashes(text, ("blueprint", "equity"))
    assert found == {
        "blueprint": ["Timed out waiting for blueprint to quit"],
        "equity": ["Timed out waiting for equity to connect"],
    }


# A stand-in for an official engine.py: same config import, Game.run/run_round, seat swap every
# round, log format and log files; the "deal" comes from `random`, and when blueprint is player 1
# an extra `random` draw follows every round (chance that depends on who plays, like 2022's swaps).
FAKE_ENGINE = """
import random, socket, sys, os
sys.path.append(os.getcwd())
from config import *

RANKS = "23456789TJQKA"

class Game():
    def __init__(self):
        self.log = ["6.9630 MIT Pokerbots - " + PLAYER_1_NAME + " vs " + PLAYER_2_NAME]
        self.flagged = False

    def run_round(self, players, bankrolls):
        hands = random.sample([r + s for r in RANKS for s in "cdhs"], 4)
        self.log.append("{} dealt [{} {}]".format(players[0], hands[0], hands[1]))
        self.log.append("{} dealt [{} {}]".format(players[1], hands[2], hands[3]))
        delta = 3 if RANKS.index(hands[0][0]) >= RANKS.index(hands[2][0]) else -3
        if players[0] == "blueprint" and not self.flagged:
            self.log.append("blueprint attempted illegal RaiseAction")
            self.flagged = True
        self.log.append("{} awarded {}".format(players[0], delta))
        self.log.append("{} awarded {}".format(players[1], -delta))
        bankrolls[players[0]] += delta
        bankrolls[players[1]] -= delta
        if PLAYER_1_NAME == "blueprint":
            random.random()

    def run(self):
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.bind(("", 0))
        print("bound", server.getsockname()[0])
        server.close()
        players = [PLAYER_1_NAME, PLAYER_2_NAME]
        bankrolls = {PLAYER_1_NAME: 0, PLAYER_2_NAME: 0}
        for name, path in ((PLAYER_1_NAME, PLAYER_1_PATH), (PLAYER_2_NAME, PLAYER_2_PATH)):
            print(name, "connected successfully")
            with open(name + ".txt", "w") as log:
                log.write("played from " + path + "\\n")
        for round_num in range(1, NUM_ROUNDS + 1):
            self.log.append("")
            self.log.append("Round #{}, {} ({}), {} ({})".format(round_num, players[0], bankrolls[players[0]],
                                                                 players[1], bankrolls[players[1]]))
            self.run_round(players, bankrolls)
            players = players[::-1]
        self.log.append("")
        self.log.append("Final, {} ({}), {} ({})".format(players[0], bankrolls[players[0]], players[1], bankrolls[players[1]]))
        with open(GAME_LOG_FILENAME + ".txt", "w") as log_file:
            log_file.write("\\n".join(self.log))


if __name__ == "__main__":
    Game().run()
"""

FAKE_CONFIG = """
PLAYER_1_NAME = "A"
PLAYER_1_PATH = "./python_skeleton"
PLAYER_2_NAME = "B"
PLAYER_2_PATH = "./python_skeleton"
GAME_LOG_FILENAME = "gamelog"
STARTING_GAME_CLOCK = 30.
NUM_ROUNDS = 1000
BIG_BLIND = 2
"""


@pytest.fixture
def fake_engines(tmp_path):
    engines = tmp_path / "engines"
    checkout = engines / "engine-2025"
    (checkout / "python_skeleton").mkdir(parents=True)
    (checkout / "engine.py").write_text(FAKE_ENGINE)
    (checkout / "config.py").write_text(FAKE_CONFIG)
    (checkout / "python_skeleton" / "commands.json").write_text('{"build": [], "run": ["python3", "player.py"]}')
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "commands.json").write_text('{"build": [], "run": ["python", "player.py"]}')
    return engines, bot


@pytest.mark.parametrize("seed_every_round", [True, False])
def test_duplicate_pipeline_on_a_stand_in_engine(fake_engines, tmp_path, seed_every_round):
    engines, bot = fake_engines
    checkout_files = sorted(path.name for path in (engines / "engine-2025").iterdir())
    row = official.play_official(
        "2025", bot, "skeleton", 40, 5, engines, tmp_path / "work", seed_every_round=seed_every_round
    )
    assert sorted(path.name for path in (engines / "engine-2025").iterdir()) == checkout_files  # only read
    assert row["rounds"] == 40 and row["big_blind"] == 2 and row["engine_commit"] is None
    assert [match["players"] for match in row["matches"]] == [["blueprint", "skeleton"], ["skeleton", "blueprint"]]
    assert row["deals"]["rounds_compared"] == 20 and row["deals"]["seats_swapped"] == 20
    # our illegal action, logged the first time we are the dealer in each match, named with its line
    assert row["counts"]["ours"]["illegal"] == 2 and row["counts"]["opponent"]["illegal"] == 0
    assert row["events"]["ours"]["illegal"] == [
        "match 1 round 1: blueprint attempted illegal RaiseAction",
        "match 2 round 2: blueprint attempted illegal RaiseAction",
    ]
    assert all(count == 0 for role in row["counts"].values() for kind, count in role.items() if kind != "illegal")
    for match in row["matches"]:
        assert sum(match["ours_deltas"]) == match["final_bankrolls"]["blueprint"] == match["ours_chips"]
        assert len(match["ours_deltas"]) == 20
    output = (tmp_path / "work" / "skeleton" / "match1" / "engine_output.txt").read_text()
    assert "bound 127.0.0.1" in output  # the runner's loopback bind
    player_log = (tmp_path / "work" / "skeleton" / "match2" / "skeleton.txt").read_text()
    assert str(tmp_path / "work" / "players" / "skeleton") in player_log  # the checkout's skeleton, copied
    if seed_every_round:
        # same deals, seats swapped, winner decided by the cards alone: every pair sums to zero
        assert row["deals"]["identical"] == 20
        assert row["duplicate"]["mbb_per_hand"] == 0.0 and row["duplicate"]["ci95_mbb"] == 0.0
    else:
        # one random draw that depends on who plays: deals repeat in round 1 only
        assert row["deals"]["identical"] == 1
        assert row["deals"]["first_mismatches"][0]["round"] == 2
        assert row["duplicate"]["ci95_mbb"] > 0


def main_2025(bots: Path, engines: Path, out: Path, work: Path, *extra: str) -> int:
    """The script's exit code on 2025 with the blueprints of ``bots``, 10 rounds, writing ``out``."""
    arguments = ["--years", "2025", "--bots", bots, "--engines", engines, "--rounds", "10", *extra]
    return official.main([str(argument) for argument in (*arguments, "--out", out, "--work", work)])


def test_a_year_without_a_blueprint_gets_a_row_saying_so(fake_engines, tmp_path, capsys):
    engines, _ = fake_engines
    bots = tmp_path / "blueprints"
    (bots / "2025").mkdir(parents=True)
    (bots / "2025" / "blueprint_bounty.h5").write_text("still solving")  # no export.json yet
    out = tmp_path / "results" / "official"
    assert main_2025(bots, engines, out, tmp_path / "work") == 0
    report = json.loads(out.with_suffix(".json").read_text())
    missing = f"no finished blueprint: {bots / '2025' / 'export.json'} missing"
    assert [row["opponent"] for row in report["rows"]] == ["skeleton", "equity"]
    assert all(row["missing"] == missing for row in report["rows"])
    assert report["engines"]["2025"]["commit"] is None
    markdown = out.with_suffix(".md").read_text()
    assert f"| 2025 | bounty | skeleton | — | {missing} |" in markdown
    assert "not a git checkout" in markdown and report["command"].startswith("python experiments/official_engines.py")
    assert not (tmp_path / "work" / "2025").exists()  # nothing exported or played


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--years", "2021,2025"], "years must be a comma-separated subset of 2022,2023,2024,2025, got '2021,2025'"),
        (["--rounds", "2001"], "rounds must be an even number >= 2 (two matches of rounds/2), got '2001'"),
        (["--rounds", "many"], "rounds must be an even number >= 2"),
        (["--opponents", "skeleton,shark"], "opponents must be a comma-separated subset of skeleton,equity"),
    ],
)
def test_cli_rejects_bad_arguments(fake_engines, capsys, arguments, message):
    engines, _ = fake_engines
    with pytest.raises(SystemExit) as stopped:
        official.main(["--engines", str(engines), *arguments])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_cli_names_the_missing_engine(fake_engines, tmp_path, capsys):
    engines, _ = fake_engines
    with pytest.raises(SystemExit):
        official.main(["--years", "2023", "--engines", str(engines)])
    error = capsys.readouterr().err
    assert f"expected {engines / 'engine-2023' / 'engine.py'}" in error
    assert "git clone https://github.com/mitpokerbots/engine-2023" in error
    with pytest.raises(SystemExit):
        official.main(["--engines", str(tmp_path / "nowhere")])
    assert f"--engines {tmp_path / 'nowhere'} is not a folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        official.main([])
    assert "--engines" in capsys.readouterr().err


def test_library_rejects_bad_input(fake_engines, tmp_path):
    engines, bot = fake_engines
    with pytest.raises(ValueError, match=r"rounds must be an even number >= 2 .*got 7"):
        official.play_official("2025", bot, "skeleton", 7, 0, engines, tmp_path)
    with pytest.raises(ValueError, match="opponent must be one of skeleton, equity, got 'shark'"):
        official.play_official("2025", bot, "shark", 10, 0, engines, tmp_path)
    with pytest.raises(ValueError, match="year must be one of 2022, 2023, 2024, 2025, got '2021'"):
        official.play_official("2021", bot, "skeleton", 10, 0, engines, tmp_path)
    with pytest.raises(FileNotFoundError, match=r"no bot folder at .*nothing"):
        official.play_official("2025", tmp_path / "nothing", "skeleton", 10, 0, engines, tmp_path)
    with pytest.raises(FileNotFoundError, match="engine-2024"):
        official.play_official("2024", bot, "skeleton", 10, 0, engines, tmp_path)


def test_a_strategy_that_cannot_be_exported_gets_a_row_naming_the_error(fake_engines, tmp_path):
    engines, _ = fake_engines
    bots = tmp_path / "blueprints"
    (bots / "2025").mkdir(parents=True)
    (bots / "2025" / "export.json").write_text("{}")
    (bots / "2025" / "blueprint_bounty.h5").write_text("not an HDF5 file")
    out = tmp_path / "official"
    assert main_2025(bots, engines, out, tmp_path / "work", "--opponents", "equity") == 0
    rows = json.loads(out.with_suffix(".json").read_text())["rows"]
    assert len(rows) == 1 and rows[0]["opponent"] == "equity"
    assert rows[0]["missing"].startswith(f"export of {bots / '2025' / 'blueprint_bounty.h5'} failed: ")
