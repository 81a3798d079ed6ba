"""A tiny solved Bounty game for tests of strategy bots: engine rules (400-chip stacks), a blank
Bounty card abstraction (every flop and turn in one bucket, the hit bit on top), bets
``1p,a cap=1``, a few thousand ES-MCCFR iterations (about 2 s). The same for another variant:
`solve_tiny` on ``blank_cards(variant)``."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from abstraction.cards.buckets import CardAbstraction, CardAbstractionConfig
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game, write_abstract_strategy
from solver.solve.cfr import Solver

BUCKETS = (169, 3, 3, 3)


def bounty_cards() -> CardAbstraction:
    return blank_cards("bounty")


def blank_cards(variant: str) -> CardAbstraction:
    blank = CardAbstraction.blank(BUCKETS)
    return dataclasses.replace(blank, config=CardAbstractionConfig(buckets=BUCKETS, variant=variant))


def solve_tiny(
    folder: Path,
    cards: CardAbstraction,
    *,
    cards_name: str = "bounty_cards.h5",
    iterations: int = 3000,
    rules: dict | None = None,
) -> tuple[Path, Path]:
    """Save ``cards`` in ``folder``, solve the tiny game of their variant on it (engine rules unless
    ``rules``, the rules fields that differ from the defaults, says otherwise), write
    ``folder/<variant>.h5`` (``bounty.h5``); returns the strategy and card files."""
    folder.mkdir(parents=True, exist_ok=True)
    cards_path = folder / cards_name
    cards.save(cards_path)
    config = AbstractGameConfig(
        variant=cards.config.variant,
        rules={"rules": "engine"} if rules is None else rules,
        card_abstraction=str(cards_path),
        bets="1p,a cap=1",
    )
    game = build_abstract_game(config)
    solver = Solver(game, "es-mccfr", seed=1).run(iterations)
    return write_abstract_strategy(folder / f"{cards.config.variant}.h5", game, solver), cards_path


def tampered(cards: CardAbstraction) -> CardAbstraction:
    """Same shapes, other contents: river centroids nudged."""
    return dataclasses.replace(cards, river_centroids=np.asarray(cards.river_centroids) * 0.9)


def reseeded(cards: CardAbstraction) -> CardAbstraction:
    """The same tables saved as if built with another seed (the file records its config)."""
    return dataclasses.replace(cards, config=dataclasses.replace(cards.config, seed=cards.config.seed + 1))
