"""Fixtures the solver tests share: the exact Kuhn and Leduc games and tiny blank card
files, built once per test module."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from abstraction.cards.buckets import CardAbstraction, CardAbstractionConfig
from abstraction.exact.exact_games import build_game
from abstraction.tree import SolverGame


@pytest.fixture(scope="module")
def kuhn() -> SolverGame:
    return build_game("kuhn")


@pytest.fixture(scope="module")
def leduc() -> SolverGame:
    return build_game("leduc")


@pytest.fixture(scope="module")
def cards(tmp_path_factory) -> dict[str, Path]:
    """Tiny blank card files (169, 4, 4, 4 buckets) by variant: ``"holdem"`` and ``"bounty"``."""
    folder = tmp_path_factory.mktemp("cards")
    blank = CardAbstraction.blank((169, 4, 4, 4))
    paths = {"holdem": folder / "holdem.h5", "bounty": folder / "bounty.h5"}
    blank.save(paths["holdem"])
    dataclasses.replace(blank, config=CardAbstractionConfig(buckets=(169, 4, 4, 4), variant="bounty")).save(
        paths["bounty"]
    )
    return paths
