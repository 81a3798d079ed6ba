"""``vcfr solve`` on abstract heads-up games from flags and run files, ``vcfr exploit`` on them, and the
one-line errors with exit code 2 (usage) or 1 (failure)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.solve.strategy_file import read_strategy_file
from tests.solver.cli_support import invoke, one_line_error

CONFIGS = Path(__file__).resolve().parents[2] / "experiments" / "configs"


def tiny(cards: Path, *extra: str) -> list[str]:
    return ["solve", "--rule", "stack=20", "--cards", str(cards), "--bets", "1p,a cap=1", *extra]


def test_flags_alone_solve_bounty_with_two_workers(cards: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "bounty.h5"
    result = invoke(
        *tiny(cards["bounty"], "--variant", "bounty", "--iterations", "4000", "--workers", "2", "--out", out, "--json")
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["game"] == "bounty" and summary["algorithm"] == "es-mccfr" and summary["iterations"] == 4000
    assert summary["exploitability_chips"] is None and "fresh chance" in summary["note"]
    assert summary["iterations_per_second"] > 0
    record = read_strategy_file(out)
    assert record.game_config["variant"] == "bounty" and record.game_config["rules"] == {"stack": 20}
    assert record.game_config["card_abstraction"] == str(cards["bounty"])
    assert record.solver_config["workers"] == 2 and "regrets" in record.tables


@pytest.mark.jit_only
def test_run_file_with_flag_overrides_then_resume_and_text_output(cards: dict[str, Path], tmp_path: Path) -> None:
    run_file = tmp_path / "run.toml"
    run_file.write_text(
        f'[rules]\nvariant = "auction"\nstack = 20\n[cards]\npath = "{cards["holdem"]}"\n'
        '[bets]\ntext = "1p,a cap=1"\nbids = "1p"\n'
        f'[solver]\nminutes = 30\nseed = 9\nout = "{tmp_path / "from_file.h5"}"\n'
    )
    out = tmp_path / "auction.h5"
    first = invoke("solve", "--config", run_file, "--iterations", "3000", "--out", out, "--quiet")
    assert first.exit_code == 0, first.output
    assert "3,000 iterations" in first.stdout and "it/s" in first.stdout and "exploitability n/a" in first.stdout
    record = read_strategy_file(out)
    assert record.seed == 9 and record.game_config["bets"].endswith("| bids=1p")
    assert not (tmp_path / "from_file.h5").exists()
    resumed = invoke("solve", "--config", run_file, "--iterations", "5000", "--out", out, "--resume", "--quiet")
    assert resumed.exit_code == 0, resumed.output
    assert "resumed from iteration 3,000" in resumed.stdout and read_strategy_file(out).iterations == 5000
    from_file = invoke("solve", "--config", run_file, "--iterations", "1000", "--quiet")
    assert from_file.exit_code == 0 and (tmp_path / "from_file.h5").exists()


def test_committed_swap_config_runs_with_a_small_card_file(cards: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "swap.h5"
    result = invoke(
        "solve",
        "--config",
        CONFIGS / "swap.toml",
        "--cards",
        cards["holdem"],
        "--rule",
        "stack=20",
        "--bets",
        "1p,a cap=1",
        "--iterations",
        "3000",
        "--out",
        out,
        "--json",
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["game"] == "swap" and read_strategy_file(out).iterations == 3000


def test_progress_bar_shows_rate_eta_and_why_there_is_no_exploitability(cards: dict[str, Path], tmp_path: Path) -> None:
    result = invoke(*tiny(cards["holdem"], "--variant", "holdem", "--iterations", "3000", "--out", tmp_path / "h.h5"))
    assert result.exit_code == 0, result.output
    assert "it/s" in result.stdout and "ETA" in result.stdout and "expl n/a" in result.stdout
    assert "has no exact exploitability" in result.stdout


@pytest.mark.jit_only
def test_exploit_abstract_games(cards: dict[str, Path], tmp_path: Path) -> None:
    fixed = tmp_path / "fixed.h5"
    solved = invoke(
        *tiny(
            cards["holdem"],
            "--variant",
            "holdem",
            "--chance",
            "fixed",
            "--deals",
            "300",
            "--iterations",
            "20",
            "--out",
            fixed,
            "--json",
        )
    )
    assert solved.exit_code == 0, solved.output
    summary = json.loads(solved.stdout)
    assert summary["algorithm"] == "cfr+" and summary["exploitability_chips"] > 0
    measured = json.loads(invoke("exploit", fixed, "--json").stdout)
    assert measured["big_blind"] == 2.0 and measured["deals"] == 300
    assert measured["exploitability_mbb"] == pytest.approx(500 * measured["exploitability_chips"])
    assert measured["exploitability_chips"] == pytest.approx(summary["exploitability_chips"])
    text = invoke("exploit", fixed).stdout
    assert "big blind 2 chips" in text and "fixed table of 300 deals" in text
    fresh = tmp_path / "fresh.h5"
    assert (
        invoke(
            *tiny(cards["holdem"], "--variant", "holdem", "--iterations", "2000", "--out", fresh, "--quiet")
        ).exit_code
        == 0
    )
    assert "exact exploitability needs a fixed deal table" in one_line_error(invoke("exploit", fresh), 1)
    sampled = invoke("exploit", fresh, "--deals", "200")
    assert sampled.exit_code == 0 and "overstates" in sampled.stdout
    assert "--deals only applies" in one_line_error(invoke("exploit", fixed, "--deals", "10"), 1)


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[solver]\niterations = 10\ncolour = "red"\n', "unknown key [solver] colour"),
        ('[solver]\niterations = "10"\n', "[solver] iterations must be an integer, got '10'"),
        ('[rules]\nvariant = "holdem"\nstack = 20\n[solver]\niterations = 10\n', "needs a card abstraction"),
        ("[solver]\niterations = 10\n[solver.extra]\n", "unknown key [solver] extra"),
        ("[solver\n", "is not valid TOML"),
    ],
)
def test_bad_run_files_are_usage_errors(tmp_path: Path, toml: str, message: str) -> None:
    run_file = tmp_path / "run.toml"
    run_file.write_text(toml)
    assert message in one_line_error(invoke("solve", "--config", run_file, "--out", tmp_path / "x.h5"), 2)


def test_bad_flags_are_usage_errors(cards: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "x.h5"
    # a missing run file is a runtime error (exit code 1), like a missing file of any command
    assert "does not exist" in one_line_error(invoke("solve", "--config", tmp_path / "none.toml", "--out", out), 1)
    assert "--variant must be one of" in one_line_error(
        invoke("solve", "--variant", "blotto", "--iterations", "5", "--out", out), 2
    )
    assert "unknown key [rules] stak" in one_line_error(
        invoke(*tiny(cards["holdem"], "--variant", "holdem", "--rule", "stak=3", "--iterations", "5", "--out", out)), 2
    )
    assert "no strategy file to write" in one_line_error(
        invoke(*tiny(cards["holdem"], "--variant", "holdem", "--iterations", "5")), 2
    )
    assert "huge" in one_line_error(
        invoke(
            "solve",
            "--variant",
            "holdem",
            "--cards",
            cards["holdem"],
            "--bets",
            "0.5p,huge",
            "--iterations",
            "5",
            "--out",
            out,
        ),
        2,
    )
    assert "traverses every deal" in one_line_error(
        invoke(*tiny(cards["holdem"], "--variant", "holdem", "--algorithm", "cfr+", "--iterations", "5", "--out", out)),
        2,
    )
    assert "No such option: --game" in one_line_error(  # folded into --variant
        invoke("solve", "--game", "kuhn", "--iterations", "5", "--out", out), 2
    )
    assert "Invalid value for '--iterations'" in one_line_error(invoke("solve", "--iterations", "ten", "--out", out), 2)
    assert "No such option: --bogus" in one_line_error(invoke("solve", "--bogus", "--out", out), 2)
    assert "Missing argument" in one_line_error(invoke("exploit"), 2)
    assert "exactly one of iterations and seconds" in one_line_error(
        invoke(*tiny(cards["holdem"], "--variant", "holdem", "--out", out)), 2
    )


def test_card_file_problems_are_failures(cards: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "x.h5"
    missing = one_line_error(
        invoke(*tiny(tmp_path / "missing.h5", "--variant", "holdem", "--iterations", "5", "--out", out)), 1
    )
    assert "missing.h5" in missing and "does not exist" in missing
    wrong = one_line_error(invoke(*tiny(cards["holdem"], "--variant", "bounty", "--iterations", "5", "--out", out)), 1)
    assert "built for variant 'holdem'" in wrong
    not_cards = tmp_path / "not_cards.h5"
    not_cards.write_bytes(b"hello")
    assert "unreadable" in one_line_error(
        invoke(*tiny(not_cards, "--variant", "holdem", "--iterations", "5", "--out", out)), 1
    )


def test_resume_refuses_damaged_or_other_strategy_files(cards: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "h.h5"
    base = tiny(cards["holdem"], "--variant", "holdem", "--quiet", "--out", out)
    assert invoke(*base, "--iterations", "2000").exit_code == 0
    other = one_line_error(
        invoke(
            *tiny(
                cards["holdem"],
                "--variant",
                "holdem",
                "--bets",
                "1p,a cap=2",
                "--quiet",
                "--out",
                out,
                "--iterations",
                "4000",
                "--resume",
            )
        ),
        1,
    )
    assert "bets: file '1p,a cap=1', requested '1p,a cap=2'" in other  # was: tree fingerprint 3d05... does not match
    assert "seed: file 0, requested 3" in one_line_error(
        invoke(*base, "--iterations", "4000", "--seed", "3", "--resume"), 1
    )
    data = out.read_bytes()
    out.write_bytes(data[: len(data) // 2])
    assert "corrupt or truncated" in one_line_error(invoke(*base, "--iterations", "4000", "--resume"), 1)
    position = data.find(b"vcfr-strategy")  # the format attribute
    assert position > 0
    out.write_bytes(data[:position] + b"XXXX" + data[position + 4 :])
    assert "not a vcfr strategy file" in one_line_error(invoke(*base, "--iterations", "4000", "--resume"), 1)
    out.write_bytes(b"plain text")
    assert "not an HDF5 file" in one_line_error(invoke(*base, "--iterations", "4000", "--resume"), 1)


def test_resume_names_the_setting_that_differs_before_building_the_game(cards: dict[str, Path], tmp_path: Path) -> None:
    """Issue 21 item 7: a resume with other settings said only "tree fingerprint X does not match Y"."""
    out = tmp_path / "h.h5"
    base = ["--variant", "holdem", "--quiet", "--out", out, "--iterations", "4000", "--resume"]
    assert invoke(*tiny(cards["holdem"], *base[:-3], "--iterations", "2000")).exit_code == 0
    stack = one_line_error(invoke(*tiny(cards["holdem"], *base), "--rule", "stack=30"), 1)
    assert "rules.stack: file 20, requested 30" in stack and "fingerprint" not in stack
    engine = one_line_error(invoke(*tiny(cards["holdem"], *base), "--rule", "rules=engine"), 1)
    assert "rules.rules: file 'document', requested 'engine'" in engine
    algorithm = one_line_error(invoke(*tiny(cards["holdem"], *base), "--algorithm", "os-mccfr"), 1)
    assert "algorithm: file 'es-mccfr', requested 'os-mccfr'" in algorithm
    variant = one_line_error(invoke(*tiny(cards["bounty"], *base[2:]), "--variant", "bounty"), 1)
    assert "variant: file 'holdem', requested 'bounty'" in variant and "rules" not in variant
    # a card file that does not exist: refused for being another file, before the game (and its cards) is built
    moved = one_line_error(invoke(*tiny(tmp_path / "moved.h5", *base)), 1)
    assert f"card_abstraction: file {str(cards['holdem'])!r}, requested {str(tmp_path / 'moved.h5')!r}" in moved
    assert "does not exist" not in moved
    assert read_strategy_file(out).iterations == 2000


def test_variants_lists_the_exact_games_too() -> None:
    result = invoke("variants", "--json")
    assert result.exit_code == 0
    names = [entry["name"] for entry in json.loads(result.stdout)["variants"]]
    assert {"holdem", "swap", "river_of_blood", "auction", "bounty", "kuhn", "leduc", "limit"} <= set(names)
