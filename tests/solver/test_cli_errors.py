"""The error convention of every ``vcfr`` command, walked over the commands the app registers.

Usage errors (a bad flag, value or argument) exit with 2, runtime errors (a missing, unreadable or
mismatched file, an output path that cannot be written) with 1, each as one ``error: ...`` line on
stderr and no traceback (``VCFR_DEBUG=1`` shows it). Every command must have bad-input cases in
:data:`BAD_INPUTS`, so a new command fails here until it is given some. Also: help pages (flags
shown as flags, ``solve``'s defaults), renamed options, and the demo's text.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer

from solver.cli.main import app
from tests.solver.cli_support import invoke, one_line_error

REPOSITORY = Path(__file__).resolve().parents[2]


def commands() -> dict[str, object]:
    """Every command of the app by its full name (``"bench solver"``), as click commands."""
    found: dict[str, object] = {}

    def walk(group: object, prefix: tuple[str, ...]) -> None:
        for name, command in group.commands.items():  # type: ignore[attr-defined]
            if hasattr(command, "commands"):
                walk(command, (*prefix, name))
            else:
                found[" ".join((*prefix, name))] = command

    walk(typer.main.get_command(app), ())
    return found


# Bad inputs per command: (id, arguments, exit code). In arguments, {missing} is a file that does
# not exist, {text} a text file named notes.h5, {folder} an existing folder, {tmp} a fresh folder.
# Output paths under /proc cannot be created. Each case fails before any real work.
BAD_INPUTS: dict[str, list[tuple[str, str, int]]] = {
    "version": [("extra-argument", "version extra", 2)],
    "demo": [
        ("variant", "demo --variant limit", 2),
        ("seconds", "demo --seconds 0", 2),
        ("out-unwritable", "demo --out /proc/vcfr-demo", 1),
        ("out-a-file", "demo --out {text}", 1),
    ],
    "solve": [
        ("config-missing", "solve --config {missing} --iterations 1 --out {tmp}/s.h5", 1),
        ("cards-not-hdf5", "solve --variant holdem --cards {text} --bets 1p,a --iterations 1 --out {tmp}/s.h5", 1),
        ("algorithm", "solve --variant kuhn --algorithm cfr++ --iterations 1 --out {tmp}/s.h5", 2),
    ],
    "exploit": [
        ("missing", "exploit {missing}", 1),
        ("not-hdf5", "exploit {text}", 1),
        ("deals", "exploit {text} --deals 0", 2),
    ],
    "lbr": [
        ("missing", "lbr {missing}", 1),
        ("not-hdf5", "lbr {text}", 1),
        ("hands", "lbr {text} --hands 1", 2),
        ("bot", "lbr {text} --actions full --bot nope", 2),
        ("bot-tree", "lbr {text} --bot resolve", 2),
    ],
    "export-bot": [
        ("out-proc", "export-bot --variant auction --bot random --out /proc/bot", 1),
        ("out-a-file", "export-bot --variant auction --bot random --out {text}", 1),
        ("strategy-not-hdf5", "export-bot --variant auction --bot lookup --strategy {text} --out {tmp}/bot", 1),
        ("strategy-missing", "export-bot --variant auction --bot lookup --strategy {missing} --out {tmp}/bot", 1),
        ("variant", "export-bot --variant nope --bot random --out {tmp}/bot", 2),
        ("bot", "export-bot --variant auction --bot nope --out {tmp}/bot", 2),
        ("no-bot", "export-bot --variant auction --out {tmp}/bot", 2),
        ("resolve-no-strategy", "export-bot --variant swap --resolve --out {tmp}/bot", 2),
        ("resolve-other-bot", "export-bot --variant swap --resolve --bot equity --strategy {text} --out {tmp}/bot", 2),
    ],
    "check-bot": [
        ("missing", "check-bot {missing}", 1),
        ("not-a-bot-folder", "check-bot {folder}", 1),
        ("rounds", "check-bot {folder} --rounds 0", 2),
        ("opponent", "check-bot {folder} --opponent nope", 2),
    ],
    "chart": [
        ("missing", "chart {missing}", 1),
        ("not-hdf5", "chart {text}", 1),
        ("points", "chart {text} --points -1", 2),
    ],
    "view": [
        ("missing", "view {missing} --no-open", 1),
        ("not-hdf5", "view {text} --no-open", 1),
        ("compare-missing", "view {text} --compare {missing} --no-open", 1),
        ("port", "view {text} --port 70000 --no-open", 2),
        ("deals", "view {text} --deals 0 --no-open", 2),
    ],
    "variants": [("extra-argument", "variants extra", 2)],
    "match": [
        ("history-proc", "match --rounds 2 --history /proc/h.jsonl", 1),
        ("history-a-folder", "match --rounds 2 --history {folder}", 1),
        ("player-not-hdf5", "match --rounds 2 --a {text}", 1),
        ("player-missing", "match --rounds 2 --b {missing}", 1),
        ("variant", "match --variant nope --rounds 2", 2),
        ("rounds", "match --rounds 3", 2),
    ],
    "freezeout": [("player-not-hdf5", "freezeout --bots {text},random", 1), ("players", "freezeout --bots random", 2)],
    "replay": [("missing", "replay {missing}", 1), ("not-a-history", "replay {text}", 1)],
    "convert-history": [
        ("missing", "convert-history {missing} {tmp}/h.phhs", 1),
        ("not-a-history", "convert-history {text} {tmp}/h.phhs", 1),
        ("out-proc", "convert-history {text} /proc/h.phhs", 1),
        ("out-a-folder", "convert-history {text} {folder}", 1),
        ("engine-unknown", "convert-history {text} {tmp}/h.phhs --engine 2019", 2),
        ("not-a-game-log", "convert-history {text} {tmp}/h.phhs --engine 2025", 1),
    ],
    "abstract": [
        ("out-proc", "abstract --out /proc/cards.h5", 1),
        ("out-a-folder", "abstract --out {folder}", 1),
        ("out-under-a-file", "abstract --out {text}/cards.h5", 1),
        ("buckets-170", "abstract --buckets 170,8,8,8 --out {tmp}/c.h5", 2),
        ("buckets-count", "abstract --buckets 169,8 --out {tmp}/c.h5", 2),
    ],
    "gauntlet": [
        ("variant", "gauntlet --variant nope --bot equity --hands 2", 2),
        ("hands", "gauntlet --variant holdem --bot equity --hands 3", 2),
        ("bot-missing", "gauntlet --variant holdem --bot {missing} --hands 2 --jobs 1 --json", 1),
        ("bot-not-hdf5", "gauntlet --variant holdem --bot {text} --hands 2 --jobs 1 --json", 1),
        ("png-proc", "gauntlet --variant holdem --bot equity --hands 2 --png /proc/g.png", 1),
    ],
    "bench resolve": [
        ("algorithm", "bench resolve --algorithm nope", 2),
        ("iterations", "bench resolve --iterations 0", 2),
    ],
    "bench evaluator": [("hands", "bench evaluator --hands 0", 2)],
    "bench solver": [("game", "bench solver --game holdem", 2)],
    "bench abstract": [("variants", "bench abstract --variants nope", 2)],
    "bench client": [
        ("transcript-missing", "bench client --transcript {missing}", 1),
        ("bot", "bench client --bot nope", 2),
    ],
    "bench engine": [("rounds", "bench engine --rounds 0", 2)],
    "bench abstraction": [("flops", "bench abstraction --flops 0", 2)],
    "bench chance": [("max-runs", "bench chance --max-runs x", 2), ("deals", "bench chance --deals 0", 2)],
}


def test_every_command_has_bad_input_cases() -> None:
    assert sorted(commands()) == sorted(BAD_INPUTS), "add the new command's bad inputs to BAD_INPUTS"


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        pytest.param(arguments, code, id=f"{name}-{case}")
        for name, cases in BAD_INPUTS.items()
        for case, arguments, code in cases
    ],
)
def test_bad_input_is_one_error_line_with_its_exit_code(tmp_path: Path, arguments: str, code: int) -> None:
    text = tmp_path / "notes.h5"
    text.write_text("hello\n")
    folder = tmp_path / "folder"
    folder.mkdir()
    filled = arguments.format(missing=tmp_path / "missing.h5", text=text, folder=folder, tmp=tmp_path / "new")
    started = time.perf_counter()
    result = invoke(*filled.split())
    message = one_line_error(result, code)
    assert time.perf_counter() - started < 5  # refused before any work (imports included)
    if "/proc" in filled:  # a path is named as the user gave it
        assert "/proc/" in message


def test_unknown_flags_and_values_of_the_wrong_type_are_usage_errors() -> None:
    for name, command in commands().items():
        one_line_error(invoke(*name.split(), "--no-such-flag"), 2)
        for param in command.params:  # type: ignore[attr-defined]
            annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
            if annotation in (int, float) and param.opts[0].startswith("--"):
                assert "Invalid value" in one_line_error(invoke(*name.split(), param.opts[0], "x"), 2), (name, param)


def test_an_unexpected_exception_is_one_line_and_vcfr_debug_shows_it(monkeypatch) -> None:
    import game.play.cli_game

    def broken() -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(game.play.cli_game, "variant_parameters", broken)
    assert "ZeroDivisionError: a bug (set VCFR_DEBUG=1" in one_line_error(invoke("variants"), 1)
    monkeypatch.setenv("VCFR_DEBUG", "1")
    result = invoke("variants")
    assert result.exit_code == 1 and isinstance(result.exception, ZeroDivisionError)


@pytest.mark.jit_only  # as plain Python the evaluator's deliberate uint64 wrap-around warns on stderr
def test_a_fresh_interpreter_prints_one_line_and_no_traceback() -> None:
    """``vcfr`` run as a program (the console script runs the same ``app``): the issue's own repro."""
    arguments = ["match", "--rounds", "2", "--history", "/proc/h.jsonl"]
    run = subprocess.run([sys.executable, "-m", "solver.cli.main", *arguments], capture_output=True, text=True)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines() == [
        "error: --history '/proc/h.jsonl': its folder '/proc' is not writable (No such file or directory)"
    ]


def test_abstract_checks_out_before_any_work(tmp_path: Path) -> None:
    """--out is checked before the build (minutes): its folders are created, and a folder, an
    unwritable place or a file in the way is refused at once naming the path as given."""
    nested = tmp_path / "experiments" / "configs" / "cards" / "holdem.h5"
    # the folder check runs first, so a bad --method (found after it) shows the folders were made
    one_line_error(invoke("abstract", "--method", "kmedoids", "--out", nested), 2)
    assert nested.parent.is_dir() and not nested.exists()
    started = time.perf_counter()
    assert f"--out '{tmp_path}' is a directory" in one_line_error(invoke("abstract", "--out", tmp_path), 1)
    assert time.perf_counter() - started < 1


def test_help_pages_show_flags_as_flags() -> None:
    for name in commands():
        page = invoke(*name.split(), "--help")
        assert page.exit_code == 0, (name, page.output)
        assert "<bool>" not in page.stdout, name
    export = invoke("export-bot", "--help").stdout
    assert "--force" in export and "--no-force" not in export and "--no-transcript" not in export


def test_solve_help_shows_the_defaults_a_run_uses() -> None:
    from solver.cli.solve import SOLVE_DEFAULTS
    from solver.solve.cfr import SolverConfig
    from solver.solve.run_config import RulesTable, RunConfig, SolverTable

    page = " ".join(invoke("solve", "--help").stdout.replace("│", " ").split())
    for value in SOLVE_DEFAULTS.values():
        assert f"[default: ({value})]" in page, value
    solver, rules = SolverTable(), RulesTable()
    assert SOLVE_DEFAULTS["variant"] == rules.variant
    for key in ("workers", "backend", "seed", "chance"):
        assert SOLVE_DEFAULTS[key] == str(getattr(solver, key)), key
    assert SOLVE_DEFAULTS["table_dtype"] == SolverConfig.__dataclass_fields__["table_dtype"].default
    assert SOLVE_DEFAULTS["algorithm"].startswith(RunConfig().algorithm)  # leduc: an exact game
    assert "--game" not in page and "lcfr" not in page  # one name per game and per algorithm


def test_one_name_per_algorithm_and_game(tmp_path: Path) -> None:
    out = tmp_path / "kuhn.h5"
    message = one_line_error(
        invoke("solve", "--variant", "kuhn", "--algorithm", "lcfr", "--iterations", "1", "--out", out), 2
    )
    assert "--algorithm linear" in message
    run_file = tmp_path / "run.toml"
    run_file.write_text('[rules]\nvariant = "kuhn"\n[solver]\nalgorithm = "lcfr"\niterations = 1\n')
    assert "'linear'" in one_line_error(invoke("solve", "--config", run_file, "--out", out), 2)
    assert "No such option: --game" in one_line_error(invoke("solve", "--game", "kuhn", "--out", out), 2)
    # demo --seconds is a float like solve --seconds: 1.5 passes the type check, the variant does not
    assert "heads-up variant" in one_line_error(invoke("demo", "--seconds", "1.5", "--variant", "limit"), 2)


def test_a_leduc_strategy_in_a_match_says_what_it_is(tmp_path: Path) -> None:
    leduc = tmp_path / "leduc.h5"
    assert invoke("solve", "--variant", "leduc", "--iterations", "2", "--out", leduc, "--quiet").exit_code == 0
    message = one_line_error(invoke("match", "--variant", "swap", "--a", leduc, "--rounds", "2"), 1)
    assert "strategy of 'leduc'" in message and "heads-up variants" in message and "export-bot" not in message
    # the same unreadable file: exit code 1 from every command that reads strategies
    text = tmp_path / "notes.h5"
    text.write_text("hello\n")
    for arguments in (
        ("lbr", text),
        ("chart", text),
        ("exploit", text),
        ("match", "--a", text, "--rounds", "2"),
        ("export-bot", "--variant", "swap", "--bot", "lookup", "--strategy", text, "--out", tmp_path / "bot"),
    ):
        assert "not an HDF5 file" in one_line_error(invoke(*arguments), 1), arguments


def test_export_names_the_force_flag(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine\n")
    message = one_line_error(invoke("export-bot", "--variant", "swap", "--bot", "random", "--out", tmp_path), 2)
    assert "use --force" in message


def test_missing_card_file_hints_name_the_variant_to_build(tmp_path: Path) -> None:
    """auction.toml plays on a Hold'em card file: the hint must say --variant holdem, not auction."""
    shutil.copy(REPOSITORY / "experiments" / "configs" / "auction.toml", tmp_path)  # cards/holdem.h5 absent here
    message = one_line_error(
        invoke("solve", "--config", tmp_path / "auction.toml", "--iterations", "1", "--out", tmp_path / "a.h5"), 1
    )
    assert "vcfr abstract --variant holdem" in message
    without = invoke("solve", "--variant", "river_of_blood", "--iterations", "1", "--out", tmp_path / "r.h5")
    assert "vcfr abstract --variant holdem" in one_line_error(without, 2)
    bounty = invoke("solve", "--variant", "bounty", "--iterations", "1", "--out", tmp_path / "b.h5")
    assert "vcfr abstract --variant bounty" in one_line_error(bounty, 2)


def test_missing_card_file_of_a_recipe_names_the_exact_build_command(tmp_path: Path) -> None:
    """A blueprint run file's [cards] says how its file is built: vcfr solve prints that exact command."""
    shutil.copy(REPOSITORY / "experiments" / "configs" / "blueprint_bounty.toml", tmp_path)
    result = invoke(
        "solve", "--config", tmp_path / "blueprint_bounty.toml", "--iterations", "1", "--out", tmp_path / "b.h5"
    )
    message = one_line_error(result, 1)
    expected = (tmp_path / "../../build/blueprints/cards/bounty_ehs2_169-24-24-24_flopsall_seed0.h5").resolve()
    assert (
        f"(build it with: vcfr abstract --variant bounty --buckets 169,24,24,24 --method ehs2 --seed 0 --out {expected})"
        in message
    )
    assert not (tmp_path / "b.h5").exists()


def test_demo_text_fits_80_columns_and_claims_no_checkpoint_files(tmp_path: Path, monkeypatch, capsys) -> None:
    import solver.cli.demo as demo

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(demo.subprocess, "call", lambda arguments: 0)  # the steps themselves are tested elsewhere
    for variant in ("river_of_blood", "holdem"):  # the longest name; the variant without an engine
        demo.run_demo(demo.DemoConfig(variant=variant, out=Path("out/demo")))
    printed = capsys.readouterr().out
    assert "beside it" not in printed and "no official engine plays holdem" in printed
    for line in printed.splitlines():
        if not line.startswith("$ vcfr"):  # commands stay whole, to be copied
            assert len(line) <= demo.WIDTH, line


def test_gitignore_covers_the_readme_outputs() -> None:
    """Every path a README command writes into the clone (--out, --history, chart folders) is ignored."""
    if shutil.which("git") is None or not (REPOSITORY / ".git").exists():
        pytest.skip("not a git checkout")
    readme = (REPOSITORY / "README.md").read_text()
    outputs = set(re.findall(r"--(?:out|history) ([\w./-]+)", readme))
    outputs |= {f"{name}_charts/preflop_0.png" for name in re.findall(r"vcfr chart ([\w-]+)\.h5", readme)}
    assert {"bots/equity-2024", "experiments/configs/cards/holdem.h5", "match.jsonl"} <= outputs
    for path in sorted(outputs):
        ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=REPOSITORY)
        assert ignored.returncode == 0, f"{path} (written by a README command) is not in .gitignore"
