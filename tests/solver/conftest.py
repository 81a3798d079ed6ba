"""Fixtures the solver tests share: the exact Kuhn and Leduc games, built once per test module."""

from __future__ import annotations

import pytest

from abstraction.exact.exact_games import build_game
from abstraction.tree import SolverGame


@pytest.fixture(scope="module")
def kuhn() -> SolverGame:
    return build_game("kuhn")


@pytest.fixture(scope="module")
def leduc() -> SolverGame:
    return build_game("leduc")
