"""Our exact NashConv and exploitability against OpenSpiel's C++ ones on the same strategies (2 and 3 players).

A strategy of ours (flat table) becomes an OpenSpiel tabular policy by walking both games in lockstep:
OpenSpiel's card ``i`` is our ``config.deck()[i]``, its actions map to ours (Kuhn: 0 pass = check or
fold, 1 bet = raise or call; Leduc: 0 fold, 1 call or check, 2 raise), and each OpenSpiel
information state takes the row of ours that ``abstraction.exact.exact_games.locate`` finds. Betting does
not depend on the cards, so walking one deal per (seat, private card, public card) reaches every
information state.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from abstraction.exact.exact_games import build_game, locate, rules_config
from abstraction.tree import SolverGame
from game.rules.actions import Action, ActionKind
from game.rules.leduc import LeducConfig, LeducRound
from solver.evaluate.exploitability import exploitability, uniform_strategy
from solver.solve.cfr import Solver, normalized_strategy
from tests.solver.test_exploitability import random_strategy

LEDUC_3_UNIFORM_NASH_CONV = 12.611221340388003
"""OpenSpiel 2.0.2, ``pyspiel.nash_conv(leduc_poker(players=3), UniformRandomPolicy)`` (takes a minute)."""


def our_action(action_id: int, legal: list[Action], name: str) -> Action:
    """OpenSpiel's action id as one of our legal actions."""
    kinds = [a.kind for a in legal]
    if name == "kuhn":
        wanted = (ActionKind.CHECK, ActionKind.FOLD) if action_id == 0 else (ActionKind.RAISE, ActionKind.CALL)
    else:
        wanted = {0: (ActionKind.FOLD,), 1: (ActionKind.CALL, ActionKind.CHECK), 2: (ActionKind.RAISE,)}[action_id]
    return next(legal[kinds.index(kind)] for kind in wanted if kind in kinds)


def covering_deals(config: LeducConfig) -> list[tuple[int, ...]]:
    """Deals (deck indices: private cards in seat order, then the public cards) in which every seat holds every
    card with every public card; the other seats take the lowest cards left."""
    n_public, deck = sum(config.board_cards), range(config.deck_size)
    deals = []
    for seat, card in itertools.product(range(config.players), deck):
        for public in itertools.permutations([c for c in deck if c != card], n_public):
            rest = iter(c for c in deck if c != card and c not in public)
            deals.append(tuple(card if p == seat else next(rest) for p in range(config.players)) + public)
    return deals


def openspiel_policy(pyspiel, game: SolverGame, strategy: np.ndarray):  # type: ignore[no-untyped-def]
    """OpenSpiel's game of ``game`` and our flat ``strategy`` as its tabular policy."""
    config = rules_config(game.name, game.config["rules"])
    spiel_game = pyspiel.load_game(f"{game.name}_poker", {"players": config.players})
    deck = config.deck()
    table: dict[str, list[tuple[int, float]]] = {}
    for deal in covering_deals(config):
        state = spiel_game.new_initial_state()
        for card in deal[: config.players]:
            state.apply_action(card)
        stack = [(state, LeducRound(config, [deck[c] for c in deal]))]
        while stack:
            state, hand = stack.pop()
            if state.is_terminal():
                assert hand.is_terminal and np.allclose(state.returns(), hand.payoffs())
                continue
            if state.is_chance_node():  # the public card
                stack.append((state.child(deal[config.players]), hand))
                continue
            legal = hand.legal_actions()
            ours = [legal.index(our_action(action_id, legal, game.name)) for action_id in state.legal_actions()]
            key = state.information_state_string()
            if key not in table:
                _, row = locate(game, hand)
                table[key] = [
                    (action_id, float(strategy[row + k]))
                    for action_id, k in zip(state.legal_actions(), ours, strict=True)
                ]
            for action_id, k in zip(state.legal_actions(), ours, strict=True):
                child = hand.copy()
                child.apply(legal[k])
                stack.append((state.child(action_id), child))
    assert len(table) == game.tree.n_infosets, "one OpenSpiel information state per information set of ours"
    return spiel_game, pyspiel.TabularPolicy(table)


def strategies(game: SolverGame, seeds: range) -> list[np.ndarray]:
    return [uniform_strategy(game)] + [normalized_strategy(game, random_strategy(game, seed)) for seed in seeds]


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_two_player_exploitability_equals_openspiel(name) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = build_game(name)
    for strategy in [*strategies(game, range(3, 4)), Solver(game, "cfr+").run(50).average_strategy()]:
        spiel_game, policy = openspiel_policy(pyspiel, game, strategy)
        result = exploitability(game, strategy)
        assert result.exploitability_chips == pytest.approx(pyspiel.exploitability(spiel_game, policy), abs=1e-9)
        assert result.nash_conv == pytest.approx(pyspiel.nash_conv(spiel_game, policy), abs=1e-9)


def test_three_player_kuhn_nash_conv_equals_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = build_game("kuhn", {"players": 3})
    for strategy in [*strategies(game, range(4)), Solver(game, "cfr").run(100).average_strategy()]:
        spiel_game, policy = openspiel_policy(pyspiel, game, strategy)
        result = exploitability(game, strategy)
        assert result.nash_conv == pytest.approx(pyspiel.nash_conv(spiel_game, policy), abs=1e-9)
        assert result.exploitability_chips == pytest.approx(result.nash_conv / 3, abs=1e-15)


@pytest.mark.jit_only
def test_three_player_leduc_uniform_nash_conv_equals_openspiels_recorded_value() -> None:
    game = build_game("leduc", {"players": 3})
    assert exploitability(game, uniform_strategy(game)).nash_conv == pytest.approx(LEDUC_3_UNIFORM_NASH_CONV, abs=1e-9)


@pytest.mark.slow
def test_three_player_leduc_nash_conv_equals_openspiel() -> None:
    """About a minute per strategy: OpenSpiel's best responses walk every state of 3-player Leduc."""
    pyspiel = pytest.importorskip("pyspiel")
    game = build_game("leduc", {"players": 3})
    for strategy in strategies(game, range(2)):
        spiel_game, policy = openspiel_policy(pyspiel, game, strategy)
        assert exploitability(game, strategy).nash_conv == pytest.approx(
            pyspiel.nash_conv(spiel_game, policy), abs=1e-9
        )


@pytest.mark.jit_only
def test_policy_mapping_reaches_every_information_state_of_three_player_leduc() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = build_game("leduc", {"players": 3})
    openspiel_policy(pyspiel, game, uniform_strategy(game))  # asserts the counts and every terminal's payoffs
