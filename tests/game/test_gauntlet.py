"""``vcfr gauntlet``: every opponent in the table and the JSON, rows equal to the matches played
directly, results independent of the worker count, the chart, the limit freeze-outs, refusals."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.stats import binomtest
from typer.testing import CliRunner

from game.play.bots import make_bot
from game.play.gauntlet import default_opponents, run_gauntlet, wilson_interval
from game.play.match import play_match
from game.play.sparring import LIMIT_STYLES
from game.rules.bounty import BountyConfig
from solver.cli.main import app

runner = CliRunner()


@pytest.mark.jit_only
def test_cli_json_lists_every_opponent_and_writes_the_chart(tmp_path) -> None:
    chart = tmp_path / "charts" / "gauntlet.png"
    options = ["--variant", "bounty", "--bot", "checkcall", "--hands", "6", "--jobs", "1", "--json"]
    result = runner.invoke(app, ["gauntlet", *options, "--png", str(chart)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    names = [row["opponent"] for row in report["opponents"]]
    assert names == default_opponents("bounty") and len(names) >= 15  # 12+ sparring styles, 3 baselines
    assert report["rules"] == "engine" and report["duplicate"] is True and report["hands"] == 6
    for row in report["opponents"]:
        assert row["hands"] == 6 and row["faults"] == {"bot": 0, "opponent": 0}
        assert row["result"] in ("win", "even", "loss") and row["ci95_mbb_per_hand"] >= 0
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and report["png"] == str(chart)


def test_cli_table_prints_every_opponent() -> None:
    opponents = "maniac,overbettor,checkcall"
    options = ["--variant", "holdem", "--bot", "tag", "--hands", "4", "--jobs", "1", "--opponents", opponents]
    result = runner.invoke(app, ["gauntlet", *options])
    assert result.exit_code == 0, result.output
    for name in ("maniac", "overbettor", "checkcall", "mbb/hand", "95% CI"):
        assert name in result.stdout
    assert "wins," in result.stdout


@pytest.mark.jit_only
def test_a_row_is_the_duplicate_match_played_directly() -> None:
    report = run_gauntlet("bounty", "equity", hands=40, seed=3, opponents=["lag", "station"])
    config = BountyConfig(rules="engine")
    for index, row in enumerate(report["opponents"]):
        bot = make_bot("equity", config=config, seed=np.random.SeedSequence((3, index, 1)))
        other = make_bot(row["opponent"], config=config, seed=np.random.SeedSequence((3, index, 2)))
        result = play_match(config, bot, other, rounds=40, seed=3, duplicate=True)
        mean, half_width = result.win_rate()
        assert (row["mbb_per_hand"], row["ci95_mbb_per_hand"]) == (mean, half_width)
        assert row["chips"] == int(result.winnings.sum())
        assert row["mbb_per_hand"] == pytest.approx(row["chips"] / 40 / 2 * 1000)  # big blind 2 chips


@pytest.mark.jit_only
def test_match_rounds_plays_independent_matches_with_fresh_bots() -> None:
    """``match_rounds``: each match is the duplicate match played directly with a fresh bot and its own
    deals, the row pools their rounds, and the interval is over the matches' win rates."""
    from game.play.match import interval_95

    built = []

    def loader(player, config, seed):
        built.append(seed)
        return make_bot(player, config=config, seed=seed)

    report = run_gauntlet("bounty", "equity", hands=40, seed=3, opponents=["lag"], match_rounds=10, loader=loader)
    row, config = report["opponents"][0], BountyConfig(rules="engine")
    assert report["match_rounds"] == 10 and row["matches"] == 4 and row["hands"] == 40 and len(built) == 4
    means, chips = [], 0
    for match in range(4):
        bot = make_bot("equity", config=config, seed=np.random.SeedSequence((3, 0, match, 1)))
        other = make_bot("lag", config=config, seed=np.random.SeedSequence((3, 0, match, 2)))
        result = play_match(config, bot, other, rounds=10, seed=np.random.SeedSequence((3, match)), duplicate=True)
        means.append(result.win_rate()[0])
        chips += int(result.winnings.sum())
    assert row["match_mbb"] == means and row["chips"] == chips
    assert row["mbb_per_hand"] == pytest.approx(np.mean(means))  # equal matches: the pooled rate is their mean
    assert row["ci95_mbb_per_hand"] == interval_95(np.array(means)) and row["ci95_over_deal_pairs"] > 0
    with pytest.raises(ValueError, match="divide hands into at least 2 matches"):
        run_gauntlet("bounty", "equity", hands=40, opponents=["lag"], match_rounds=40)
    with pytest.raises(ValueError, match="match_rounds must be even"):
        run_gauntlet("bounty", "equity", hands=40, opponents=["lag"], match_rounds=5)


@pytest.mark.jit_only
def test_worker_processes_give_the_same_rows() -> None:
    serial = run_gauntlet("swap", "lag", hands=10, opponents=["maniac", "pusher", "random"], jobs=1)
    parallel = run_gauntlet("swap", "lag", hands=10, opponents=["maniac", "pusher", "random"], jobs=2)
    strip = [{key: value for key, value in row.items() if key != "seconds"} for row in serial["opponents"]]
    assert strip == [{key: value for key, value in row.items() if key != "seconds"} for row in parallel["opponents"]]


@pytest.mark.jit_only
def test_limit_gauntlet_plays_freeze_outs_against_every_pair() -> None:
    report = run_gauntlet("limit", "checkcall", opponents=["tag", "maniac"], freezeouts=3, max_games=40)
    assert [row["opponents"] for row in report["pairs"]] == [["tag", "tag"], ["tag", "maniac"], ["maniac", "maniac"]]
    for row in report["pairs"]:
        low, high = row["wilson95"]
        assert row["freezeouts"] == 3 and 0 <= row["wins"] <= 3 and low <= row["win_share"] <= high
        assert 0 < row["games"] <= 3 * 40
    assert report["overall"]["freezeouts"] == 9 and report["fair_share"] == pytest.approx(1 / 3)
    assert len(run_gauntlet("limit", "tag", freezeouts=1, max_games=2)["pairs"]) == 15  # pairs of 5 styles
    assert set(LIMIT_STYLES) == {"tight_passive", "loose_passive", "tag", "lag", "maniac"}


def test_wilson_interval_matches_scipy() -> None:
    for successes, trials in ((0, 9), (3, 9), (30, 90), (90, 90)):
        expected = binomtest(successes, trials).proportion_ci(confidence_level=0.95, method="wilson")
        assert wilson_interval(successes, trials) == pytest.approx((expected.low, expected.high), abs=1e-12)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--variant", "holdem", "--bot", "tag", "--hands", "5"], "hands must be even"),
        (["--variant", "holdem", "--bot", "tag", "--opponents", "shark"], "unknown opponent 'shark'"),
        (["--variant", "limit", "--bot", "equity"], "'equity' does not play the limit game"),
        (["--variant", "poker", "--bot", "tag"], "unknown variant 'poker'"),
        (["--variant", "holdem", "--bot", "tag", "--hands", "8", "--match-rounds", "3"], "match_rounds must be even"),
        (["--variant", "holdem", "--bot", "strategy.zip"], "neither a bot name nor a player file"),
    ],
)
def test_refusals_are_one_line_errors(arguments, message) -> None:
    result = runner.invoke(app, ["gauntlet", *arguments])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_player_files_reach_workers_as_absolute_paths(tmp_path, monkeypatch) -> None:
    """Joblib's worker processes outlive a change of working folder (the README test changes it
    between gauntlets): a relative strategy path, bare or behind a prefix, is made absolute before
    the tasks leave; bot names and the report's name stay as given."""
    from game.play.gauntlet import _absolute_files

    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "bounty.h5").write_bytes(b"")
    absolute = str(tmp_path.resolve() / "out" / "bounty.h5")
    assert _absolute_files("out/bounty.h5") == absolute
    assert _absolute_files("adaptive:out/bounty.h5") == "adaptive:" + absolute
    assert _absolute_files("equity") == "equity"
    assert _absolute_files("adaptive:equity") == "adaptive:equity"
    assert run_gauntlet("holdem", "checkcall", hands=2, opponents=["station"])["bot"] == "checkcall"
