"""``vcfr gauntlet`` with a strategy file and with an exported bot folder as the bot under test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.play.lock_in import LockIn, MatchCounter
from game.play.match import play_match
from game.rules.bounty import BountyConfig
from solver.bots.export_bot import BotSpec
from solver.bots.lookup_bot import LookupBot
from solver.cli.export import folder_player
from tests.solver.cli_support import invoke
from tests.solver.tiny_bounty import bounty_cards, solve_tiny


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> tuple[Path, Path]:
    return solve_tiny(tmp_path_factory.mktemp("solved"), bounty_cards())


@pytest.mark.slow
def test_gauntlet_plays_a_strategy_file_in_worker_processes(solved) -> None:
    strategy, _ = solved
    options = ["--variant", "bounty", "--bot", str(strategy), "--hands", "20", "--opponents", "maniac,reraiser"]
    result = invoke("gauntlet", *options, "--jobs", "2", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["bot"] == str(strategy) and [row["opponent"] for row in report["opponents"]] == ["maniac", "reraiser"]
    assert all(row["faults"] == {"bot": 0, "opponent": 0} and row["hands"] == 20 for row in report["opponents"])


@pytest.mark.jit_only
def test_an_exported_folder_plays_in_process_and_counts_its_matches(solved, tmp_path: Path) -> None:
    strategy, cards = solved
    folder = tmp_path / "bot"
    folder.mkdir()
    for path in (strategy, cards):
        (folder / path.name).write_bytes(path.read_bytes())
    (folder / "bot.json").write_text(BotSpec("bounty", "lookup", strategy.name, 3, cards=cards.name).to_json())
    config = BountyConfig(rules="engine")
    player = folder_player(str(folder), config, None)
    assert isinstance(player, LockIn) and isinstance(player.bot, LookupBot) and isinstance(player.match, MatchCounter)
    result = play_match(config, player, folder_player(str(folder), config, None), rounds=1004, seed=1)
    assert player.match.matches == 1 and player.match.rounds_played == 4  # 1000-round matches, as the engines play
    assert player.match.bankroll == int(result.winnings[1000:].sum())
    with pytest.raises(ValueError, match="plays bounty under engine rules"):
        folder_player(str(folder), BountyConfig(rules="document"), None)
    report = invoke("gauntlet", "--variant", "bounty", "--bot", str(folder), "--hands", "10", "--opponents", "tag")
    assert report.exit_code == 0, report.output
    assert "tag" in report.stdout
