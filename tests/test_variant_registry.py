"""Every variant list and per-variant table of the library is the registry (`game.rules.variants.VARIANTS`)
or derived from it, and every entry point refuses an unknown variant with one clear error.

A hard-coded list of variant names anywhere in ``game``, ``abstraction``, ``solver`` or ``experiments`` fails
`test_no_other_hard_coded_variant_list` until it is derived from the registry or named in
:data:`FEATURE_TABLES` (a table of what some variants have, checked against the registry here).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from abstraction.cards.buckets import CardAbstractionConfig, card_file_variant
from abstraction.cards.features import FutureModel
from abstraction.exact.small_variants import default_deck
from abstraction.hooks import hooked_variants, tree_hooks
from game.pokerbots.engines import ENGINE_RULES
from game.rules.exact import EXACT_GAMES
from game.rules.variants import VARIANTS
from solver.bench import abstract as bench_abstract
from solver.bots.export_bot import WARM_UP_ROUNDS
from solver.bots.resolving_bot import RESOLVED_VARIANTS
from solver.cli import solve as cli_solve
from solver.games.abstract_games import AbstractGameConfig
from solver.solve import run_config
from solver.solve.run_config import RunConfigError, load_run_config
from tests.solver.cli_support import invoke, one_line_error

REPOSITORY = Path(__file__).resolve().parents[1]
REGISTRY = tuple(VARIANTS)

FEATURE_TABLES: dict[tuple[str, str], str] = {
    ("game/pokerbots/engines.py", "ENGINE_RULES"): "variants with an official engine",
    ("solver/bench/abstract.py", "DEFAULT_BETS"): "each variant's benchmark bet abstraction",
    ("solver/bots/export_bot.py", "WARM_UP_ROUNDS"): "one recorded round per official engine",
}
"""Literal tables of variant names the library keeps, by (file, name): what each one means."""


def test_variant_lists_are_the_registry() -> None:
    assert REGISTRY == ("holdem", "swap", "river_of_blood", "auction", "bounty")
    assert hooked_variants() == REGISTRY
    assert run_config.EXACT_VARIANTS == cli_solve.GAMES == EXACT_GAMES
    assert (*REGISTRY, run_config.LIMIT_VARIANT, *EXACT_GAMES) == run_config.run_variants()
    assert (*REGISTRY, bench_abstract.LIMIT) == bench_abstract.BENCHMARK_GAMES


def test_per_variant_tables_cover_the_registry() -> None:
    assert set(bench_abstract.DEFAULT_BETS) == set(REGISTRY)
    for name in REGISTRY:
        assert tree_hooks(name).variant == name
        assert len(default_deck(name).split()) >= 9
        assert isinstance(FutureModel.for_variant(name), FutureModel)
    assert FutureModel.for_variant("river_of_blood").run_cards
    assert FutureModel.for_variant("swap").swap_flop > 0


def test_feature_tables_name_registered_variants() -> None:
    assert set(WARM_UP_ROUNDS) == set(ENGINE_RULES) <= set(REGISTRY)
    assert all(ENGINE_RULES[name].variant == name for name in ENGINE_RULES)
    own_card_files = tuple(name for name in REGISTRY[1:] if card_file_variant(name) == name)
    assert own_card_files == ("swap", "bounty")
    for subset in (own_card_files, RESOLVED_VARIANTS):
        assert set(subset) < set(REGISTRY)
        assert len(set(subset)) == len(subset)


def _variant_literals(path: Path) -> list[str]:
    """Names (or ``line N``) of the tuple/list/set literals and dict keys in ``path`` that hold two or
    more registered variant names."""
    names = set(REGISTRY)

    def holds_names(node: ast.AST | None) -> bool:
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [key for key in node.keys if key is not None]
        else:
            return False
        return len({item.value for item in items if isinstance(item, ast.Constant) and item.value in names}) >= 2

    tree = ast.parse(path.read_text())
    named: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and holds_names(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named[id(node.value)] = ", ".join(ast.unparse(target) for target in targets)
    return [named.get(id(node), f"line {node.lineno}") for node in ast.walk(tree) if holds_names(node)]


def test_no_other_hard_coded_variant_list() -> None:
    found = {
        (path.relative_to(REPOSITORY).as_posix(), name)
        for package in ("game", "abstraction", "solver", "experiments")
        for path in sorted((REPOSITORY / package).rglob("*.py"))
        for name in _variant_literals(path)
    }
    assert found == set(FEATURE_TABLES)


def test_the_scan_finds_a_hard_coded_list(tmp_path: Path) -> None:
    source = tmp_path / "lists.py"
    source.write_text('KNOWN = ("holdem", "swap")\nif v in {"auction": 1, "bounty": 2}:\n    pass\nONE = ("swap",)\n')
    assert _variant_literals(source) == ["KNOWN", "line 2"]


UNKNOWN = "nope"


def test_unknown_variant_refused_by_the_library() -> None:
    known = "known are auction, bounty, holdem, river_of_blood, swap"
    with pytest.raises(ValueError, match=rf"unknown variant '{UNKNOWN}': {known}"):
        FutureModel.for_variant(UNKNOWN)
    with pytest.raises(ValueError, match=rf"variant must be one of \('holdem', .*'bounty'\), got '{UNKNOWN}'"):
        CardAbstractionConfig(variant=UNKNOWN)
    with pytest.raises(ValueError, match=rf"abstract games support variants \('holdem', .*\), got '{UNKNOWN}'"):
        AbstractGameConfig(variant=UNKNOWN, card_abstraction="cards.h5")


def test_unknown_variant_refused_by_run_config(tmp_path: Path) -> None:
    run_file = tmp_path / "run.toml"
    run_file.write_text(f'[rules]\nvariant = "{UNKNOWN}"\n[solver]\niterations = 1\n')
    with pytest.raises(RunConfigError) as error:
        load_run_config(run_file)
    message = str(error.value)
    assert message == f"[rules] variant must be one of {', '.join(run_config.run_variants())}; got '{UNKNOWN}'"
    assert all(name in message for name in REGISTRY)


@pytest.mark.parametrize(
    "arguments",
    [
        ("abstract", "--variant", UNKNOWN, "--out", "{tmp}/cards.h5"),
        ("solve", "--variant", UNKNOWN, "--iterations", "1", "--out", "{tmp}/s.h5"),
        ("bench", "abstract", "--variants", f"holdem,{UNKNOWN}"),
    ],
    ids=["abstract", "solve", "bench-abstract"],
)
def test_unknown_variant_refused_by_the_cli(arguments: tuple[str, ...], tmp_path: Path) -> None:
    line = one_line_error(invoke(*(argument.format(tmp=tmp_path) for argument in arguments)), 2)
    assert repr(UNKNOWN) in line
    assert all(name in line for name in REGISTRY), line
    assert not list(tmp_path.iterdir())
