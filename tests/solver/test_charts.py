"""Charts of strategy files: the preflop grid's numbers are the strategy's rows, the PNGs are written,
and ``vcfr chart`` reports bad input in one line."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from abstraction.cards.buckets import CardAbstraction
from abstraction.tree import FlatTree
from solver.evaluate.charts import COMBOS, class_cards, hand_class, preflop_grid, preflop_points, write_charts
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game, write_abstract_strategy
from solver.solve.cfr import Solver
from solver.solve.strategy_file import read_strategy_file
from solver.solve.training import TrainingConfig, train

CLI = [sys.executable, "-c", "from solver.cli.main import app; app()"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("chart")
    cards = CardAbstraction.blank((169, 4, 4, 4))
    cards.save(folder / "cards.h5")
    config = AbstractGameConfig(
        variant="holdem", rules={"stack": 20}, card_abstraction=str(folder / "cards.h5"), bets="1p,a cap=1"
    )
    game = build_abstract_game(config, cards)
    solver = Solver(game, "es-mccfr", seed=3).run(5_000)
    path = write_abstract_strategy(folder / "holdem.h5", game, solver)
    return path, cards


def test_grid_classes_cover_every_starting_hand_once():
    classes = {hand_class(row, column) for row in range(13) for column in range(13)}
    assert len(classes) == 169 and int(COMBOS.sum()) == 1326
    assert COMBOS[0, 1] == 4 and COMBOS[1, 0] == 12 and COMBOS[5, 5] == 6
    assert class_cards(0, 1)[1] == class_cards(0, 1)[3] and class_cards(1, 0)[1] != class_cards(1, 0)[3]


def test_grid_cells_are_the_strategy_rows_of_their_preflop_buckets(solved):
    path, cards = solved
    record = read_strategy_file(path)
    tree = FlatTree.from_arrays(dict(record.tree_arrays))
    strategy = np.asarray(record.average_strategy)
    points = preflop_points(tree)
    assert points[0] == 0 and len({int(tree.infoset_group[node]) for node in points}) == len(points)
    for node in points[:3]:
        grid = preflop_grid(tree, strategy, cards, node)
        group = int(tree.infoset_group[node])
        n_actions = int(tree.n_actions[group])
        assert grid.frequencies.shape == (13, 13, n_actions) and len(grid.actions) == n_actions
        np.testing.assert_allclose(grid.frequencies.sum(axis=2), 1.0, atol=1e-9)
        for row, column in [(0, 0), (0, 1), (1, 0), (12, 12), (5, 9)]:
            offset = int(tree.row_offset[group]) + cards.bucket(class_cards(row, column)) * n_actions
            assert grid.frequencies[row, column].tolist() == strategy[offset : offset + n_actions].tolist()
    with pytest.raises(ValueError, match="not a preflop decision"):
        preflop_grid(tree, strategy, cards, int(np.flatnonzero(tree.street == 1)[0]))


def test_write_charts_writes_pngs_for_abstract_and_exact_games(solved, tmp_path):
    path, cards = solved
    written = write_charts(read_strategy_file(path), cards, tmp_path / "holdem", points=2)
    assert [p.name for p in written][:1] == ["preflop_0_root.png"] and len(written) == 2
    train(TrainingConfig(game="kuhn", algorithm="cfr", iterations=40, evaluate_every=10), tmp_path / "kuhn.h5")
    exact = write_charts(read_strategy_file(tmp_path / "kuhn.h5"), None, tmp_path / "kuhn")
    assert [p.name for p in exact] == ["convergence.png"]
    for png in written + exact:
        assert png.read_bytes()[:8] == PNG_SIGNATURE and png.stat().st_size > 10_000


@pytest.mark.jit_only
def test_cli_charts_a_file_and_refuses_a_broken_one(solved, tmp_path):
    path, _ = solved
    done = subprocess.run(
        [*CLI, "chart", str(path), "--out", str(tmp_path / "c"), "--points", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "c" / "preflop_0_root.png").is_file()
    broken = tmp_path / "broken.h5"
    broken.write_bytes(path.read_bytes()[:2000])
    done = subprocess.run([*CLI, "chart", str(broken)], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "broken.h5" in done.stderr
