"""Exact Kuhn and Leduc games with 2..6 players (abstraction.exact.exact_games) and their N-player rules (game.rules.leduc).

The rules follow OpenSpiel's ``kuhn_poker(players=N)`` / ``leduc_poker(players=N)`` (checked by random
playouts when OpenSpiel is installed); the exact games' payoff rows, outcome weights and buckets are
checked against the rules engine on random deals and random lines.
"""

from __future__ import annotations

import functools
import itertools
import random

import numpy as np
import pytest

from abstraction.exact.exact_games import (
    build_game,
    locate,
    outcome_table,
    rules_config,
    showdown_contexts,
    showdown_outcomes,
    winner_mask,
)
from abstraction.tree import DECISION, FOLD, SHOWDOWN, SolverGame
from game.cards.deck import parse_cards
from game.rules.actions import Action
from game.rules.leduc import LeducConfig, LeducRound, leduc_config
from tests.solver.test_openspiel_nash_conv import our_action

GAMES = [("kuhn", 2), ("leduc", 2), ("kuhn", 3), ("leduc", 3)]


@functools.cache
def game_of(name: str, players: int) -> SolverGame:
    return build_game(name, {"players": players})


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_rules_follow_openspiel(name: str, players: int) -> None:
    """Random playouts in lockstep: same player to act, same number of legal actions, same returns."""
    pyspiel = pytest.importorskip("pyspiel")
    spiel_game = pyspiel.load_game(f"{name}_poker", {"players": players})
    config = rules_config(name, {"players": players})
    deck = config.deck()
    rng = random.Random(players)
    for _ in range(300):
        cards = rng.sample(range(config.deck_size), config.cards_per_deal)
        state = spiel_game.new_initial_state()
        for card in cards[:players]:
            state.apply_action(card)
        hand = LeducRound(config, [deck[c] for c in cards])
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(cards[players])
                continue
            assert state.current_player() == hand.to_act
            assert len(state.legal_actions()) == len(hand.legal_actions())
            action_id = rng.choice(state.legal_actions())
            hand.apply(our_action(action_id, hand.legal_actions(), name))
            state.apply_action(action_id)
        assert hand.is_terminal and hand.payoffs() == pytest.approx(state.returns(), abs=1e-12)


def test_three_player_leduc_hand() -> None:
    config = leduc_config(3)
    assert config.deck_text() == "Jh Js Qh Qs Kh Ks Ah As" and config.cards_per_deal == 4
    hand = LeducRound(config, parse_cards("Jh Kh Ah Js"))  # seat 0 pairs the public jack
    for text in ["K", "R2", "C", "F"]:  # seat 0 checks, then folds to the raise
        hand.apply(Action.parse(text))
    assert hand.street == 1 and hand.to_act == 1 and hand.alive == (1, 2)  # round 2 opens with the first seat in
    assert [str(a) for a in hand.legal_actions()] == ["K", "R4"]
    for text in ["R4", "R8", "C"]:
        hand.apply(Action.parse(text))
    assert hand.is_terminal and hand.committed == [1, 11, 11]
    assert hand.showdown_winners() == (2,) and hand.payoffs() == (-1, -11, 12)  # ace high beats king high
    split = LeducRound(config, parse_cards("Kh Ks Jh Qs"))
    for text in ["K"] * 6:
        split.apply(Action.parse(text))
    assert split.payoffs() == (0.5, 0.5, -1)  # the kings split a pot of 3


def test_player_counts_are_checked() -> None:
    with pytest.raises(ValueError, match=r"players must be an int in 2..10, got 1"):
        LeducConfig(players=1)
    with pytest.raises(ValueError, match=r"players must be an int in 2..10, got 11"):
        build_game("kuhn", {"players": 11})
    with pytest.raises(ValueError, match=r"solver trees seat 2..6 players, the rules 7"):
        build_game("kuhn", {"players": 7})
    with pytest.raises(ValueError, match="a deal needs 4 cards but the deck has 3"):
        rules_config("kuhn", {"players": 4, "ranks": "JQK"})


def test_showdown_outcome_encoding() -> None:
    assert showdown_outcomes((0, 1), 2) == [(0,), (0, 1), (1,)]  # heads-up: win, split, loss for seat 0
    assert showdown_outcomes((0, 1, 2), 3) == [(0,), (1,), (0, 1), (2,), (0, 2), (1, 2), (0, 1, 2)]
    assert showdown_outcomes((1, 2), 3) == [(1,), (2,), (1, 2)]  # bits over the seats left, in seat order
    assert outcome_table((1, 2), 3)[winner_mask((1, 2))] == 2 and outcome_table((1, 2), 3)[winner_mask((0,))] == -1
    with pytest.raises(ValueError, match=r"a showdown needs >= 2 distinct seats of 0..2 in order"):
        showdown_outcomes((2, 1), 3)


@pytest.mark.parametrize(
    ("name", "players", "expected"),
    [
        ("kuhn", 2, (9, 12, 6)),
        ("kuhn", 3, (25, 48, 24)),  # OpenSpiel kuhn_poker(players=3): 48 information states
        ("leduc", 3, (1120, 25800, 1680)),  # OpenSpiel leduc_poker(players=3): 25,800 information states
    ],
)
def test_sizes(name: str, players: int, expected: tuple[int, int, int]) -> None:
    game = game_of(name, players)
    assert (game.tree.n_nodes, game.tree.n_infosets, game.deals.n_deals) == expected
    assert game.tree.n_players == game.deals.n_players == players
    assert build_game(**game.config).tree.fingerprint() == game.tree.fingerprint()
    assert game.config["rules"]["players"] == players


def test_contexts_are_the_alive_sets_largest_first() -> None:
    for name, players in GAMES:
        tree = game_of(name, players).tree
        contexts = showdown_contexts(tree)
        assert contexts[0] == tuple(range(players))
        assert tree.context_size.tolist() == [len(showdown_outcomes(alive, players)) for alive in contexts]
        assert tree.n_chance_slots == 0 and (tree.group_slot == tree.group_street).all()
        folds = tree.kind == FOLD
        assert (tree.context[folds] == -1).all() and (tree.context[tree.kind == SHOWDOWN] >= 0).all()
        if players > 2:
            assert (tree.player[folds] == -1).all()  # the kernels never read a terminal's player
    assert showdown_contexts(game_of("leduc", 3).tree) == [(0, 1, 2), (0, 1), (0, 2), (1, 2)]


def child_of(game: SolverGame, node: int, action: Action) -> int:
    tree = game.tree
    start = int(tree.child_start[node])
    return next(
        c
        for c in range(start, start + int(tree.n_children[node]))
        if tree.action_kind[c] == int(action.kind) and tree.action_amount[c] == action.amount
    )


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_terminal_values_buckets_and_weights_follow_the_rules_engine(name: str, players: int) -> None:
    """Random deals, random lines: the deal's buckets are the rows locate finds, its weights are one-hot per
    context, and the weighted payoff rows of the terminal reached are the round's payoffs."""
    game = game_of(name, players)
    tree, deals = game.tree, game.deals
    config = rules_config(name, {"players": players})
    deal_cards = list(itertools.permutations(config.deck(), config.cards_per_deal))  # the builder's deal order
    offset, contexts = tree.context_offset, showdown_contexts(tree)
    for context, size in enumerate(tree.context_size):
        assert np.array_equal(
            deals.weight[:, offset[context] : offset[context] + size].sum(axis=1), np.ones(deals.n_deals)
        )
    assert set(np.unique(deals.weight)) == {0.0, 1.0}
    rng = random.Random(7)
    for _ in range(200):
        d = rng.randrange(deals.n_deals)
        hand, node = LeducRound(config, deal_cards[d]), 0
        while not hand.is_terminal:
            _, row = locate(game, hand)
            group = tree.infoset_group[node]
            assert row == tree.row_offset[group] + deals.bucket[d, hand.to_act, hand.street] * tree.n_actions[group]
            action = rng.choice(hand.legal_actions())
            hand.apply(action)
            node = child_of(game, node, action)
        assert tree.kind[node] == (FOLD if len(hand.alive) == 1 else SHOWDOWN)
        c, first = int(tree.context[node]), int(tree.value_row[node])
        if c < 0:
            value = tree.terminal_values[first]
        else:
            assert contexts[c] == hand.alive
            rows = tree.terminal_values[first : first + tree.context_size[c]]
            value = deals.weight[d, offset[c] : offset[c] + tree.context_size[c]] @ rows
        assert value == pytest.approx(hand.payoffs(), abs=1e-12)
    assert tree.kind[0] == DECISION
