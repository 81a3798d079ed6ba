"""``vcfr variants``, ``vcfr match``, ``vcfr replay`` and ``vcfr bench engine`` through the typer app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli.main import app

runner = CliRunner()


def invoke(*arguments: str):
    return runner.invoke(app, list(arguments))


def test_variants_lists_every_parameter_with_its_default() -> None:
    result = invoke("variants", "--json")
    assert result.exit_code == 0, result.output
    entries = {entry["name"]: entry["parameters"] for entry in json.loads(result.output)["variants"]}
    assert set(entries) == {"holdem", "swap", "river_of_blood", "auction", "bounty", "limit", "kuhn", "leduc"}
    assert entries["kuhn"]["ranks"] == "JQK" and entries["leduc"]["raise_sizes"] == [2, 4]
    assert entries["swap"]["stack"] == 200 and entries["swap"]["flop_swap_probability"] == 0.1
    assert entries["bounty"]["bounty_period"] == 25 and entries["bounty"]["bounty_multiplier"] == 1.5
    assert entries["limit"]["low_limit"] == 10
    text = invoke("variants").output
    assert "turn_swap_probability = 0.05" in text and "max_board_cards = 48" in text


@pytest.mark.jit_only
def test_match_prints_json_with_bankrolls_and_the_confidence_interval(tmp_path: Path) -> None:
    history = tmp_path / "match.jsonl"
    arguments = [
        "match",
        "--variant",
        "swap",
        "--a",
        "equity",
        "--b",
        "random",
        "--rounds",
        "40",
        "--seed",
        "3",
        "--history",
        str(history),
        "--json",
    ]
    result = invoke(*arguments)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["variant"] == "swap" and summary["rounds"] == 40
    assert set(summary["bankrolls"]) == {"equity", "random"} and sum(summary["bankrolls"].values()) == 0
    assert summary["mbb_per_hand"] == summary["bankrolls"]["equity"] / 40 / 2 * 1000
    assert summary["ci95_mbb_per_hand"] > 0
    assert summary["illegal_actions"] == {"equity": 0, "random": 0}
    assert json.loads(invoke(*arguments).output) == summary  # reproducible from the seed
    replayed = invoke("replay", str(history), "--json")
    assert replayed.exit_code == 0 and json.loads(replayed.output)["bankrolls"] == summary["bankrolls"]


def test_match_text_output_and_duplicate_engine_rules() -> None:
    result = invoke(
        "match",
        "--variant",
        "auction",
        "--a",
        "checkcall",
        "--b",
        "random",
        "--rounds",
        "20",
        "--duplicate",
        "--rules",
        "engine",
    )
    assert result.exit_code == 0, result.output
    assert "auction duplicate, 20 rounds, rules engine" in result.output
    assert "mbb/hand +-" in result.output


def test_match_refuses_bad_input() -> None:
    assert "unknown variant 'poker'" in invoke("match", "--variant", "poker", "--rounds", "2").output
    assert "unknown bot 'shark'" in invoke("match", "--a", "shark", "--rounds", "2").output
    assert invoke("match", "--rounds", "3", "--duplicate").exit_code != 0
    assert invoke("match", "--rules", "server", "--rounds", "2").exit_code != 0


def test_replay_reports_a_tampered_history_with_exit_code_1(tmp_path: Path) -> None:
    history = tmp_path / "match.jsonl"
    assert (
        invoke("match", "--a", "random", "--b", "checkcall", "--rounds", "10", "--history", str(history)).exit_code == 0
    )
    assert "verified 10 rounds of holdem" in invoke("replay", str(history)).output
    lines = history.read_text().splitlines()
    data = json.loads(lines[3])
    data["payoffs"] = [data["payoffs"][0] - 5, data["payoffs"][1] + 5]
    lines[3] = json.dumps(data)
    history.write_text("\n".join(lines) + "\n")
    result = invoke("replay", str(history))
    assert result.exit_code == 1
    assert "MISMATCH after 2 verified rounds: line 4 (round 2): recorded payoffs" in result.output


def test_bench_engine_reports_every_variant_and_pokerkit() -> None:
    result = invoke("bench", "engine", "--rounds", "20", "--pokerkit-rounds", "5", "--repeats", "1", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report["rounds_per_s"]) == {"holdem", "swap", "river_of_blood", "auction", "bounty"}
    assert all(rate > 0 for rate in report["rounds_per_s"].values())
    assert report["pokerkit_rounds_per_s"] > 0
    assert report["ratio_vs_pokerkit"] == report["rounds_per_s"]["holdem"] / report["pokerkit_rounds_per_s"]


def test_freezeout_plays_the_limit_game_until_one_player_holds_every_chip() -> None:
    result = invoke("freezeout", "--bots", "checkcall,random,random", "--seed", "0", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["players"] == 3 and list(summary["stacks"]) == ["checkcall", "random-1", "random-2"]
    assert sum(summary["stacks"].values()) == 3 * 1000  # chips conserved: 3 buy-ins
    assert summary["winner"] is not None and summary["stacks"][summary["winner"]] == 3000
    assert invoke("freezeout", "--bots", "checkcall,random,random", "--seed", "0", "--json").output == result.output


def test_freezeout_refuses_bots_that_cannot_play_limit_and_bad_seat_counts() -> None:
    result = invoke("freezeout", "--bots", "equity,random")
    assert result.exit_code != 0 and "random, checkcall" in result.output and "['equity']" in result.output
    result = invoke("freezeout", "--bots", "random")
    assert result.exit_code != 0 and "n_players" in result.output


@pytest.mark.jit_only
def test_match_aivat_prints_both_estimates_on_the_same_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--aivat`` with a policy player as A: the plain line is the match's own, AIVAT's follows it;
    a player A without a policy is refused with exit code 2."""
    from game.play.cli_game import PLAYER_FILES
    from tests.game.aivat_bots import NoPolicyBot, StrengthPolicyBot

    monkeypatch.setitem(PLAYER_FILES, ".strength", lambda path, config, seed: StrengthPolicyBot(seed=seed))
    monkeypatch.setitem(PLAYER_FILES, ".nopolicy", lambda path, config, seed: NoPolicyBot())
    arguments = ("match", "--a", "x.strength", "--b", "checkcall", "--rounds", "40", "--seed", "3")
    plain = json.loads(invoke(*arguments, "--json").output)
    result = invoke(*arguments, "--aivat", "--json")
    assert result.exit_code == 0, result.output
    scored = json.loads(result.output)
    assert scored["mbb_per_hand"] == plain["mbb_per_hand"] and scored["bankrolls"] == plain["bankrolls"]
    assert scored["aivat_ci95_mbb_per_hand"] > 0 and scored["variance_reduction"] > 0
    text = invoke(*arguments, "--aivat").output
    assert "(AIVAT, same 20 deal pairs; variance / " in text
    refused = invoke("match", "--a", "x.nopolicy", "--b", "random", "--rounds", "2", "--aivat")
    assert refused.exit_code == 2 and "--aivat needs player A to expose a policy; 'x.nopolicy'" in refused.output
    cheaper = json.loads(invoke(*arguments, "--aivat", "--aivat-turn-rivers", "0", "--json").output)
    assert cheaper["mbb_per_hand"] == plain["mbb_per_hand"]
    assert cheaper["aivat_mbb_per_hand"] != scored["aivat_mbb_per_hand"]  # the turn card's correction changed
    assert invoke(*arguments, "--aivat", "--aivat-turn-rivers", "-1").exit_code == 2
