"""Strategy bots that travel: the card abstraction's hash in the strategy file, the card file found
next to a moved strategy file, ``vcfr export-bot --strategy`` refusing what it cannot play, and a
self-contained exported folder that plays 1000 rounds of the local engine (``vcfr check-bot``) after
being moved.

The game is tiny (`tests.solver.tiny_bounty`): Bounty, engine rules, a blank Bounty card
abstraction, bets ``1p,a cap=1``, 3,000 ES-MCCFR iterations.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import time
from pathlib import Path

import pytest

from abstraction.cards.buckets import CardAbstraction
from solver.bots.check_bot import check_bot
from solver.bots.export_bot import BotSpec, ExportSummary, zipped_size
from solver.bots.lookup_bot import LookupBot, find_card_abstraction
from solver.games.abstract_games import AbstractGameConfig, CardHashMismatch, card_file_hash
from solver.solve.strategy_file import StrategyFileError, read_strategy_file, write_strategy_file
from solver.solve.training import load_solved_game
from tests.solver import tiny_bounty
from tests.solver.cli_support import invoke, invoke_json, one_line_error
from tests.solver.tiny_bounty import reseeded, solve_tiny, tampered


@pytest.fixture(scope="module")
def bounty_cards() -> CardAbstraction:
    return tiny_bounty.bounty_cards()


def test_strategy_file_stores_the_card_hash_and_rebuilds_check_it(tmp_path: Path, bounty_cards) -> None:
    strategy, cards = solve_tiny(tmp_path, bounty_cards)
    stored = read_strategy_file(strategy).game_config["card_hash"]
    assert stored == card_file_hash(cards) and re.fullmatch(r"[0-9a-f]{64}", stored)
    bounty_cards.save(tmp_path / "again.h5")  # the same abstraction saved again: the same bytes
    assert card_file_hash(tmp_path / "again.h5") == stored
    game, _ = load_solved_game(strategy)  # what vcfr exploit and resume rebuild
    assert game.config["card_hash"] == stored
    assert LookupBot(strategy, seed=0).lookup is not None

    for changed in (tampered(bounty_cards), reseeded(bounty_cards)):
        changed.save(cards)  # same path, same shapes, other contents
        actual = card_file_hash(cards)
        assert actual != stored
        with pytest.raises(CardHashMismatch) as raised:
            LookupBot(strategy, seed=0)
        message = str(raised.value)
        assert stored in message and actual in message and str(cards) in message and "\n" not in message
        with pytest.raises(CardHashMismatch, match=actual):  # an explicit file is checked too
            LookupBot(strategy, card_abstraction=cards, seed=0)
        with pytest.raises(
            StrategyFileError, match=f"has sha256 {actual}, but the game was solved with card sha256 {stored}"
        ):
            load_solved_game(strategy)


def test_strategy_written_before_the_hash_still_loads(tmp_path: Path, bounty_cards) -> None:
    strategy, _ = solve_tiny(tmp_path, bounty_cards)
    record = read_strategy_file(strategy)
    old_config = {key: value for key, value in record.game_config.items() if key != "card_hash"}
    old = write_strategy_file(tmp_path / "old.h5", dataclasses.replace(record, game_config=old_config))
    assert AbstractGameConfig.from_dict(read_strategy_file(old).game_config).card_hash == ""
    assert LookupBot(old, seed=0).decisions == 0


def test_moved_folder_finds_its_card_file_by_name_then_cards_h5(tmp_path: Path, bounty_cards) -> None:
    _strategy, cards = solve_tiny(tmp_path / "solved", bounty_cards)
    stored_hash = card_file_hash(cards)
    moved = tmp_path / "elsewhere" / "solved"
    moved.parent.mkdir()
    shutil.move(tmp_path / "solved", moved)
    assert not cards.exists()
    config = AbstractGameConfig.from_dict(read_strategy_file(moved / "bounty.h5").game_config)
    assert find_card_abstraction(config, moved / "bounty.h5") == moved / cards.name
    LookupBot(moved / "bounty.h5", seed=0)

    (moved / cards.name).rename(moved / "cards.h5")  # the name export-bot gives it
    assert find_card_abstraction(config, moved / "bounty.h5") == moved / "cards.h5"

    # a file at the stored path with another hash is passed over for the matching one beside the strategy
    cards.parent.mkdir(parents=True)
    tampered(bounty_cards).save(cards)
    assert find_card_abstraction(config, moved / "bounty.h5") == moved / "cards.h5"
    # ... and with no matching file anywhere, the error names the expected hash and each file found
    tampered(bounty_cards).save(moved / "cards.h5")
    with pytest.raises(CardHashMismatch) as raised:
        find_card_abstraction(config, moved / "bounty.h5")
    message = str(raised.value)
    assert stored_hash in message and str(cards) in message and str(moved / "cards.h5") in message
    (moved / "cards.h5").unlink()
    cards.unlink()
    with pytest.raises(ValueError, match="not found"):
        find_card_abstraction(config, moved / "bounty.h5")


def test_a_moved_blueprint_build_finds_its_card_file_in_its_cards_folder(tmp_path: Path, bounty_cards) -> None:
    """The layout `experiments/blueprints.py` writes: <work>/cards/<name>.h5 beside <work>/<year>/<strategy>.h5;
    the strategy stores the card file's absolute path, which is gone once the build folder moves."""
    strategy, cards = solve_tiny(tmp_path / "solved", bounty_cards)
    moved = tmp_path / "moved_build"
    (moved / "2025").mkdir(parents=True)
    (moved / "cards").mkdir()
    shutil.move(strategy, moved / "2025" / "bounty.h5")
    shutil.move(cards, moved / "cards" / cards.name)
    config = AbstractGameConfig.from_dict(read_strategy_file(moved / "2025" / "bounty.h5").game_config)
    assert find_card_abstraction(config, moved / "2025" / "bounty.h5") == moved / "cards" / cards.name
    assert LookupBot(moved / "2025" / "bounty.h5", seed=0).decisions == 0


def test_export_refuses_what_is_not_a_strategy_of_the_variant(tmp_path: Path, bounty_cards) -> None:
    strategy, cards = solve_tiny(tmp_path / "solved", bounty_cards)
    text = tmp_path / "notes.h5"
    text.write_text("not a strategy\n")
    truncated = tmp_path / "truncated.h5"
    truncated.write_bytes(strategy.read_bytes()[: strategy.stat().st_size // 2])
    out = tmp_path / "bot"

    def refused(*arguments: object) -> str:  # a file that cannot be used: a runtime error
        return one_line_error(invoke("export-bot", "--bot", "lookup", "--out", out, *arguments), 1)

    assert "not an HDF5 file" in refused("--variant", "bounty", "--strategy", text)
    assert "not a vcfr strategy file" in refused("--variant", "bounty", "--strategy", cards)  # the card file
    assert "corrupt or truncated" in refused("--variant", "bounty", "--strategy", truncated)
    assert "does not exist" in refused("--variant", "bounty", "--strategy", tmp_path / "missing.h5")
    assert "is a strategy of 'bounty', not of 'auction'" in refused("--variant", "2024", "--strategy", strategy)
    stored = card_file_hash(cards)
    tampered(bounty_cards).save(cards)
    message = refused("--variant", "2025", "--strategy", strategy)
    assert stored in message and card_file_hash(cards) in message and str(cards) in message
    assert not out.exists()  # nothing half-written


def test_export_text_output_shows_the_zipped_size_and_peak_memory(monkeypatch, tmp_path: Path) -> None:
    import solver.bots.export_bot

    def fake_export(variant, bot, out, **settings):
        return ExportSummary(Path(out), ("bot.json",), 8_000_000, ("game/pokerbots/client.py",), 2_500_000, 374_000_000)

    monkeypatch.setattr(solver.bots.export_bot, "export_bot", fake_export)
    result = invoke("export-bot", "--variant", "2025", "--bot", "random", "--out", tmp_path / "bot")
    assert result.exit_code == 0, result.output
    assert "1 files, 8.00 MB (2.50 MB zipped)" in result.stdout
    assert "peak memory of the warm-up round (max RSS): 374 MB" in result.stdout


@pytest.mark.jit_only
def test_exported_strategy_bot_is_self_contained_and_plays_1000_rounds_after_a_move(
    tmp_path: Path, bounty_cards, monkeypatch
) -> None:
    strategy, cards = solve_tiny(tmp_path / "solved", bounty_cards)
    folder = tmp_path / "export" / "bot"
    folder.parent.mkdir()
    monkeypatch.chdir(folder.parent)  # a relative --out works too
    summary = invoke_json(
        "export-bot",
        "--variant",
        "2025",
        "--bot",
        "lookup",
        "--strategy",
        strategy,
        "--out",
        "bot",
        "--seed",
        "3",
    )
    # the lookup bot has a policy: it adapts by default, its prior measured at export
    assert BotSpec.read(folder) == BotSpec("bounty", "lookup", "strategy.h5", 3, None, "cards.h5", adapt=True)
    assert json.loads((folder / "prior.json").read_text())["weight"] > 0
    assert card_file_hash(folder / "cards.h5") == card_file_hash(cards)
    assert (folder / "strategy.h5").read_bytes() == strategy.read_bytes()
    assert 0 < summary["zipped_bytes"] < summary["bytes"] and summary["zipped_bytes"] == zipped_size(folder)
    # ~1 GB when the warm-up compiles everything (a fresh clone, run alone); one CI run under xdist
    # measured 2.07 GB, cause not found: 3 GB still flags a bot that holds far more than it should
    assert 50e6 < summary["peak_memory_bytes"] < 3e9
    print(
        f"exported: {summary['bytes']:,} bytes, {summary['zipped_bytes']:,} zipped, "
        f"peak memory {summary['peak_memory_bytes'] / 1e6:.0f} MB"
    )

    moved = tmp_path / "somewhere" / "else"
    moved.parent.mkdir()
    shutil.move(folder, moved)
    shutil.rmtree(tmp_path / "solved")  # the strategy and card files it was exported from are gone
    started = time.monotonic()
    report = check_bot(moved, rounds=1000, opponent="random", seed=5)  # vcfr check-bot: the local 2025 engine
    assert report.ok and report.rounds == 1000, report.fault_notes
    logged = [line for line in report.log_tail.splitlines() if line.strip()]
    assert len(logged) == 1, logged  # no warning of a failed decision or fallback: only the summary
    summary_line = logged[0]
    assert "match over: 1000 rounds" in summary_line and ", 0 errors," in summary_line, summary_line
    decisions = int(re.search(r"bot: (\d+) decisions", summary_line).group(1))
    assert decisions > 1000 and re.search(r"bot: .*, 0 errors, 0 fallbacks$", summary_line), summary_line
    print(
        f"moved bot: {time.monotonic() - started:.1f} s for 1000 rounds; {summary_line}; p99 {report.decision_ms['p99']:.2f} ms"
    )
