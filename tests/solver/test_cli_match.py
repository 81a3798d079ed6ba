"""``vcfr match`` with strategy files as players, and the mbb/hand unit pinned on a match whose
result is known exactly."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from scipy import stats

from game.play.bots import BOTS
from game.play.cli_game import PLAYER_FILES, make_player
from game.rules.actions import Action, ActionKind
from solver.bots.lookup_bot import LookupBot
from tests.solver.cli_support import invoke, invoke_json, one_line_error
from tests.solver.tiny_bounty import bounty_cards, solve_tiny, tampered


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> tuple[Path, Path]:
    return solve_tiny(tmp_path_factory.mktemp("solved"), bounty_cards())


def test_the_solver_registers_strategy_files_as_match_players(solved) -> None:
    from game.rules.variants import get_variant

    assert ".h5" in PLAYER_FILES  # registered by solver.cli.export when the vcfr app is built
    player = make_player(str(solved[0]), get_variant("bounty").config_class(rules="engine"), 7)
    assert isinstance(player, LookupBot) and player.name == "bounty.h5" and player.config.rules == "engine"


def test_match_a_strategy_file_against_a_baseline_bot_in_duplicate(solved) -> None:
    strategy, _ = solved
    summary = invoke_json(
        "match",
        "--variant",
        "bounty",
        "--rules",
        "engine",
        "--a",
        strategy,
        "--b",
        "checkcall",
        "--rounds",
        "200",
        "--seed",
        "4",
    )
    assert summary["players"] == ["bounty.h5", "checkcall"] and summary["duplicate"] is True
    assert summary["illegal_actions"] == {"bounty.h5": 0, "checkcall": 0}
    assert summary["mbb_per_hand"] == pytest.approx(summary["bankrolls"]["bounty.h5"] / 200 / 2 * 1000)
    assert summary["ci95_mbb_per_hand"] > 0
    text = invoke(
        "match", "--variant", "bounty", "--rules", "engine", "--a", strategy, "--b", strategy, "--rounds", "20"
    )
    assert text.exit_code == 0, text.output
    assert "bounty duplicate, 20 rounds" in text.stdout and "bounty.h5-a" in text.stdout
    assert "(95% CI over 10 deal pairs)" in text.stdout


def test_match_refuses_files_it_cannot_play_with_exit_code_1(solved, tmp_path: Path) -> None:
    """A file that cannot be played is a runtime error (exit code 1), as in lbr, chart and exploit;
    an unknown bot name a usage error (2)."""
    strategy, cards = solved
    assert "is a strategy of 'bounty', not of 'auction'" in one_line_error(
        invoke("match", "--variant", "auction", "--a", strategy, "--rounds", "2"), 1
    )
    (tmp_path / "notes.h5").write_text("hello\n")
    assert "not an HDF5 file" in one_line_error(
        invoke("match", "--variant", "bounty", "--b", tmp_path / "notes.h5", "--rounds", "2"), 1
    )
    assert "not a vcfr strategy file" in one_line_error(
        invoke("match", "--variant", "bounty", "--a", cards, "--rounds", "2"), 1
    )
    assert "does not exist" in one_line_error(
        invoke("match", "--variant", "bounty", "--a", tmp_path / "gone.h5", "--rounds", "2"), 1
    )
    assert "neither a bot name nor a player file" in one_line_error(
        invoke("match", "--variant", "bounty", "--a", "bot.zip", "--rounds", "2"), 2
    )
    moved = tmp_path / "moved"
    moved.mkdir()
    (moved / "bounty.h5").write_bytes(strategy.read_bytes())
    tampered(bounty_cards()).save(moved / "cards.h5")
    original = cards.read_bytes()
    cards.unlink()
    try:
        assert "matches its card sha256" in one_line_error(
            invoke("match", "--variant", "bounty", "--a", moved / "bounty.h5", "--rounds", "2"), 1
        )
    finally:
        cards.write_bytes(original)


class FoldBot:
    """Folds whenever folding is legal (else checks)."""

    name = "fold"

    def act(self, observation):
        return Action.fold() if ActionKind.FOLD in observation.legal_actions else Action.check()


class MinRaiseBot:
    """Raises the minimum whenever it can, else calls, else checks."""

    name = "minraise"

    def act(self, observation):
        legal = observation.legal_actions
        if ActionKind.RAISE in legal:
            return Action.raise_to(observation.raise_bounds[0])
        return Action.call() if ActionKind.CALL in legal else Action.check()


def test_mbb_per_hand_is_pinned_on_a_known_match(monkeypatch) -> None:
    """Hold'em blinds 1/2: a bot that always folds loses the small blind (1 chip = -500 mbb) when it
    is the dealer and folds first, and the big blind (2 chips = -1000 mbb) facing the min-raiser's
    opening raise. Seats alternate, so every deal pair costs it exactly 3 chips: -750 mbb/hand, and
    the interval over pairs has width 0. Played single, the per-round results alternate -500 and
    -1000 mbb: the same mean, and the Student-t interval (99 degrees of freedom) of 100 samples of
    standard deviation 250 * sqrt(100 / 99) mbb."""
    monkeypatch.setitem(BOTS, "fold", lambda config, seed: FoldBot())
    monkeypatch.setitem(BOTS, "minraise", lambda config, seed: MinRaiseBot())
    common = ("match", "--variant", "holdem", "--a", "fold", "--b", "minraise", "--rounds", "100", "--json")
    duplicate = json.loads(invoke(*common).stdout)
    assert duplicate["duplicate"] is True and duplicate["bankrolls"] == {"fold": -150, "minraise": 150}
    assert duplicate["mbb_per_hand"] == -750.0 and duplicate["ci95_mbb_per_hand"] == 0.0
    single = json.loads(invoke(*common, "--no-duplicate").stdout)
    assert single["duplicate"] is False and single["mbb_per_hand"] == -750.0
    assert single["ci95_mbb_per_hand"] == pytest.approx(stats.t.ppf(0.975, 99) * 250 * math.sqrt(100 / 99) / 10)
    text = invoke(*common[:-1])
    assert "fold: -750 mbb/hand +- 0 (95% CI over 50 deal pairs)" in text.stdout


def test_a_strategy_played_under_other_rules_or_chips_is_warned_or_refused(tmp_path: Path, caplog) -> None:
    """Issue 21 item 4: `vcfr match --rules engine` and `export-bot` played a strategy solved under
    document rules at stack 200 at the engine's stack 400 without a word. Other rules: a warning
    naming both; other chips (the tree's amounts no longer apply): a refusal naming both."""
    from game.rules.bounty import BountyConfig

    document, cards = solve_tiny(tmp_path / "document", bounty_cards(), rules={})
    shallow, _ = solve_tiny(tmp_path / "shallow", bounty_cards(), rules={"rules": "engine", "stack": 200})
    arguments = ["match", "--variant", "bounty", "--b", "checkcall", "--rounds", "4", "--json"]
    with caplog.at_level("WARNING", logger="solver.bots.lookup_bot"):  # on stderr outside pytest
        warned = invoke(*arguments, "--rules", "engine", "--a", document)
        assert warned.exit_code == 0, warned.output
        assert caplog.messages == [
            f"bounty.h5: {document} was solved for rules 'document' and plays rules 'engine' "
            "(the strategy may not fit these rules)"
        ]
        caplog.clear()
        same = invoke(*arguments, "--rules", "document", "--a", document)
        assert same.exit_code == 0 and caplog.messages == []
    refused = invoke(*arguments, "--rules", "engine", "--a", shallow)
    assert refused.exit_code != 0
    message = one_line_error(refused, refused.exit_code)
    assert f"{shallow} was solved for stack 200 and would be played at stack 400" in message
    assert "--rule stack=400" in message
    out = tmp_path / "bot"
    exported = invoke("export-bot", "--variant", "bounty", "--bot", "lookup", "--strategy", shallow, "--out", out)
    assert exported.exit_code != 0 and "solved for stack 200" in one_line_error(exported, exported.exit_code)
    assert not out.exists()
    with caplog.at_level("WARNING", logger="solver.bots.lookup_bot"):
        caplog.clear()
        LookupBot(shallow, card_abstraction=cards, config=BountyConfig(rules="engine", stack=200, rounds=7))
        assert caplog.text == ""  # the rules it was solved for (the match length is no rule of a hand)
        LookupBot(shallow, card_abstraction=cards, config=BountyConfig(rules="engine"))  # the class plays on
    assert "solved for stack 200 and plays stack 400" in caplog.text
