"""Run files of ``vcfr solve --config``: schema checks, flag overrides, and the committed per-variant configs."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.solve.game_kinds import build_game_from_config
from solver.solve.run_config import (
    RunConfigError,
    load_run_config,
    merge_overrides,
    parse_rule,
    parse_run_config,
)

CONFIGS = Path(__file__).resolve().parents[2] / "experiments" / "configs"
VARIANTS = ("holdem", "swap", "river_of_blood", "auction", "bounty")


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_committed_config_parses_and_builds_its_game(variant: str, cards: dict[str, Path]) -> None:
    path = CONFIGS / f"{variant}.toml"
    run = load_run_config(path)
    assert run.rules.variant == variant and run.algorithm == "es-mccfr"
    # The card path is relative to the run file, and a `vcfr abstract` command in a comment builds it.
    assert Path(run.cards.path).parent == CONFIGS / "cards"
    assert "vcfr abstract --variant" in path.read_text()
    card_file = cards["bounty" if variant == "bounty" else "holdem"]
    small = load_run_config(path, {"cards": {"path": str(card_file)}, "rules": {"stack": 20}})
    config = small.training_config()
    assert config.seconds is not None and config.seconds > 0 and config.iterations is None
    game = build_game_from_config(config.game_config)
    assert game.fresh_chance and game.tree.n_infosets > 0
    assert game.config["variant"] == variant and game.config["card_abstraction"] == str(card_file)
    if variant == "auction":
        assert "bids=" in game.config["bets"]
    if variant == "river_of_blood":
        assert game.config["max_runs"] == 2


def test_relative_cards_follow_the_run_file_and_defaults_are_dropped(tmp_path: Path) -> None:
    run_file = tmp_path / "runs" / "run.toml"
    run_file.parent.mkdir()
    run_file.write_text(
        '[rules]\nvariant = "swap"\nstack = 200\nbig_blind = 4\nsmall_blind = 2\n'
        '[cards]\npath = "../cards/c.h5"\n[bets]\ntext = "1p,a cap=1"\n'
        "[solver]\niterations = 1_000\nworkers = 2\n"
    )
    run = load_run_config(run_file)
    config = run.game_config()
    assert config["card_abstraction"] == str(tmp_path / "cards" / "c.h5")
    assert config["rules"] == {"big_blind": 4, "small_blind": 2}  # stack 200 is Swap's default: not stored
    training = run.training_config()
    assert training.iterations == 1000 and training.workers == 2 and training.algorithm == "es-mccfr"
    assert training.solver_params == {}


def test_flags_override_file_values_and_budgets_replace_each_other() -> None:
    text = '[rules]\nvariant = "leduc"\n[solver]\nminutes = 5\nseed = 3\nalgorithm = "cfr"\n'
    run = parse_run_config(text, overrides={"solver": {"iterations": 40, "algorithm": "linear", "seed": None}})
    training = run.training_config()
    assert training.iterations == 40 and training.seconds is None
    assert training.algorithm == "linear" and training.seed == 3
    assert training.game_config == {"name": "leduc"}
    assert merge_overrides({}, {"rules": {"variant": "kuhn"}}) == {"rules": {"variant": "kuhn"}}
    exact = parse_run_config('[rules]\nvariant = "kuhn"\nplayers = 3\n[solver]\niterations = 5\n')
    assert exact.training_config().game_config == {"name": "kuhn", "rules": {"players": 3}}


def test_solver_parameters_reach_the_training_config() -> None:
    run = parse_run_config(
        '[rules]\nvariant = "holdem"\n[cards]\npath = "/c.h5"\n'
        '[solver]\nseconds = 30\nchance = "fixed"\ndeals = 500\ndeal_seed = 2\n'
        'table_dtype = "float64"\ncheckpoint_minutes = 2.5\ncheckpoint_every = 1000\n'
        "linear_averaging = true\nprune_after = 10\n"
    )
    training = run.training_config()
    assert training.algorithm == "cfr+"  # fixed chance: a full traversal by default
    assert training.checkpoint_minutes == 2.5 and training.checkpoint_every == 1000 and training.seconds == 30.0
    assert training.solver_params == {"table_dtype": "float64", "linear_averaging": True, "prune_after": 10}
    assert (training.game_config["chance"], training.game_config["n_deals"], training.game_config["deal_seed"]) == (
        "fixed",
        500,
        2,
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[solver]\niterations = 10\nspeed = 3\n", "unknown key [solver] speed"),
        (
            '[rules]\nvariant = "holdem"\nstak = 20\n[cards]\npath = "c.h5"\n[solver]\niterations = 1\n',
            "unknown key [rules] stak for variant holdem",
        ),
        ("[solver]\niterations = 10\n[extra]\nx = 1\n", "unknown table [extra]"),
        ('[solver]\niterations = "many"\n', "[solver] iterations must be an integer, got 'many'"),
        ("[solver]\niterations = 10\nworkers = 1.5\n", "[solver] workers must be an integer, got 1.5"),
        ("[solver]\nminutes = true\n", "[solver] minutes must be a number, got True"),
        (
            '[rules]\nvariant = "holdem"\nstack = "deep"\n[cards]\npath = "c.h5"\n[solver]\niterations = 1\n',
            "[rules] stack must be an integer, got 'deep'",
        ),
        ('[rules]\nvariant = "blotto"\n[solver]\niterations = 1\n', "[rules] variant must be one of"),
        ('[solver]\nalgorithm = "es-mccfr"\n', "exactly one of iterations and seconds"),
        ("[solver]\niterations = 5\nseconds = 3\n", "exactly one of iterations and seconds"),
        ("[solver]\niterations = 0\n", "[solver] iterations must be >= 1, got 0"),
        (
            '[rules]\nvariant = "leduc"\n[cards]\npath = "c.h5"\n[solver]\niterations = 1\n',
            "[cards] path applies to abstract games; leduc is an exact game",
        ),
        ('[rules]\nvariant = "bounty"\n[solver]\niterations = 1\n', "a bounty game needs a card abstraction"),
        (
            '[rules]\nvariant = "holdem"\n[cards]\npath = "c.h5"\n[bets]\ntext = "0.5p,huge"\n'
            "[solver]\niterations = 1\n",
            "huge",
        ),
        (
            '[rules]\nvariant = "holdem"\n[cards]\npath = "c.h5"\n[bets]\nmax_runs = 2\n[solver]\niterations = 1\n',
            "max_runs is River of Blood's run cap",
        ),
        (
            '[rules]\nvariant = "holdem"\n[cards]\npath = "c.h5"\n[solver]\niterations = 1\nalgorithm = "cfr+"\n',
            "fresh chance",
        ),
        ('[solver]\niterations = 1\nbackend = "mpi"\n', "backend must be one of"),
        (
            '[rules]\nvariant = "holdem"\n[cards]\npath = "c.h5"\nmethod = "ehs2"\n[solver]\niterations = 1\n',
            "[cards] method is a build setting: give buckets and method too",
        ),
        (
            '[rules]\nvariant = "holdem"\n[cards]\npath = "c.h5"\nbuckets = "169,x"\nmethod = "ehs"\n'
            "[solver]\niterations = 1\n",
            "[cards] buckets must be four comma-separated counts",
        ),
        (
            '[rules]\nvariant = "holdem"\n[cards]\npath = "c.h5"\nbuckets = "169,8,8"\nmethod = "ehs"\n'
            "[solver]\niterations = 1\n",
            "[cards] buckets must be 4 counts",
        ),
        (
            '[rules]\nvariant = "holdem"\n[cards]\npath = "c.h5"\nbuckets = "169,8,8,8"\nmethod = "kmeans"\n'
            "[solver]\niterations = 1\n",
            "[cards] method must be one of",
        ),
        (
            '[rules]\nvariant = "holdem"\n[cards]\npath = "c.h5"\nbuckets = "169,8,8,8"\nmethod = "ehs"\n'
            "flops = 0\n[solver]\niterations = 1\n",
            "[cards] flops must be in 1..1755",
        ),
        (
            '[rules]\nvariant = "leduc"\n[cards]\nbuckets = "169,8,8,8"\nmethod = "ehs"\n[solver]\niterations = 1\n',
            "[cards] buckets applies to abstract games; leduc is an exact game",
        ),
        ("[solver\niterations = 1\n", "not valid TOML"),
    ],
)
def test_bad_run_files_name_the_table_and_key(text: str, message: str) -> None:
    with pytest.raises(RunConfigError, match=None) as caught:
        parse_run_config(text, base_dir="/runs").training_config()
    assert message in str(caught.value)
    assert "\n" not in str(caught.value).strip() or message == "not valid TOML"


def test_parse_rule_reads_toml_values_and_refuses_garbage() -> None:
    assert parse_rule("max_board_cards=20") == ("max_board_cards", 20)
    assert parse_rule("raise_sizes=[2, 4]") == ("raise_sizes", [2, 4])
    with pytest.raises(RunConfigError, match="KEY=VALUE"):
        parse_rule("stack")


def test_a_missing_run_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(RunConfigError, match="does not exist"):
        load_run_config(tmp_path / "nope.toml")


DOCUMENT_STACKS = {"swap": 200, "river_of_blood": 400, "auction": 400, "bounty": 400}
"""Chips per round in the rules documents ("Stack allocated per round"; bounty-holdem.txt: "stack sizes
are reset to 400"), the spec the shipped configs must follow."""


def _reason_given(lines: list[str], key: str) -> bool:
    """Whether the ``[rules]`` line of ``key`` carries a comment, or comment lines sit right above it."""
    for number, line in enumerate(lines):
        if line.split("=")[0].strip() == key:
            return "#" in line or (number > 0 and lines[number - 1].lstrip().startswith("#"))
    return False


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.toml")), ids=lambda path: path.name)
def test_every_shipped_config_plays_the_rules_it_names(path: Path) -> None:
    """Issue 21 item 4: bounty.toml solved at stack 200 while Bounty is played at 400 (its rules document,
    `vcfr variants`, the engine). A [rules] value other than the variant's default needs a comment saying why."""
    import tomllib

    from solver.solve.run_config import _rules_class

    text = path.read_text()
    rules = dict(tomllib.loads(text)["rules"])
    variant = rules.pop("variant")
    defaults = _rules_class(variant)()
    lines = text.splitlines()
    for key, value in rules.items():
        if value != getattr(defaults, key):
            assert _reason_given(lines, key), (
                f"{path.name}: [rules] {key} = {value!r} differs from the default without a why"
            )
    stack = rules.get("stack", getattr(defaults, "stack", None))
    if variant in DOCUMENT_STACKS:
        assert stack == DOCUMENT_STACKS[variant] == defaults.stack, path.name
    if variant == "holdem":
        assert stack == defaults.stack == 400


def test_cards_build_settings_name_the_exact_abstract_command(tmp_path: Path) -> None:
    """A missing card file: the message is the `vcfr abstract` command of the [cards] build settings,
    the card file's variant derived from the game's (a Hold'em file for Auction, Bounty's own)."""
    text = (
        '[rules]\nvariant = "{variant}"\n[cards]\npath = "cards/c.h5"\nbuckets = "169,24,24,24"\n'
        'method = "ehs2"\nflops = 5\nseed = 3\n[solver]\niterations = 1\n'
    )
    card_file = tmp_path / "cards" / "c.h5"
    for variant, built in (("auction", "holdem"), ("bounty", "bounty"), ("swap", "swap"), ("limit", "holdem")):
        run = parse_run_config(text.format(variant=variant), base_dir=tmp_path)
        assert (run.cards.buckets, run.cards.method, run.cards.flops, run.cards.seed) == ("169,24,24,24", "ehs2", 5, 3)
        assert run.missing_cards_message() == (
            f"card abstraction file {str(card_file)!r} does not exist (build it with: vcfr abstract --variant "
            f"{built} --buckets 169,24,24,24 --method ehs2 --seed 3 --flops 5 --out {card_file})"
        )
    card_file.parent.mkdir()
    card_file.write_bytes(b"")
    assert run.missing_cards_message() is None  # it exists (whether it is a card file is train's to check)
    plain = parse_run_config(
        '[rules]\nvariant = "auction"\n[cards]\npath = "d.h5"\n[solver]\niterations = 1\n', tmp_path
    )
    assert not plain.cards.buildable  # old run files, [cards] path only, still load
    assert "vcfr abstract --variant holdem --out" in plain.missing_cards_message()
    assert parse_run_config("[solver]\niterations = 1\n").missing_cards_message() is None  # Leduc: no cards


def test_every_blueprint_recipe_says_how_its_card_file_is_built() -> None:
    for path in sorted(CONFIGS.glob("blueprint_*.toml")):
        run = load_run_config(path)
        assert run.cards.buildable and run.cards.method == "ehs2", path
        assert "blueprint-cards" not in path.read_text()  # the settings are the table's, not a comment's
