"""The N-player limit system against OpenSpiel's ``universal_poker`` (ACPC game definitions), 2 and 3 players.

Our limit game (`game.rules.limit` rules, `abstraction.bets.limit_tree` tree, the exact small-deck
game of `abstraction.exact.small_limit`) and ACPC's are mapped by
``solver.games.openspiel_adapter.universal_poker_parameters`` (antes as equal blinds, no straddle,
the button acts first every round, ACPC's raise cap one more than ours). Checked:

1. payoffs: random action sequences on random deals, played in both (legal actions and the player
   to act compared at every step), end with the same returns, exactly; on small decks and on
   full-deck four-round hold'em (our 7-card evaluator against ACPC's);
2. NashConv: the same strategy (uniform, random, solved by our CFR+) has the same NashConv from our
   exact best response and OpenSpiel's C++ ``nash_conv``, to 1e-9. The strategy reaches OpenSpiel as
   a tabular policy: its information states are walked in lockstep with our tree on deals that
   show every seat every view, and each takes the row of our information set there.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools

import numpy as np
import pytest

from abstraction.exact.small_limit import SmallLimitGame, build_small_limit_game
from abstraction.tree import DECISION
from game.cards.deck import format_cards, parse_cards
from game.rules.actions import ActionKind
from game.rules.chance import ScriptedChance
from game.rules.limit import LimitConfig, LimitRound
from solver.evaluate.exploitability import exploitability, uniform_strategy
from solver.games.openspiel_adapter import acpc_card, universal_poker_parameters
from solver.solve.cfr import Solver, normalized_strategy
from tests.solver.test_exploitability import random_strategy

pyspiel = pytest.importorskip("pyspiel")

ACPC_ACTION = {ActionKind.FOLD: 0, ActionKind.CHECK: 1, ActionKind.CALL: 1, ActionKind.RAISE: 2}
"""universal_poker's limit actions: 0 fold, 1 check or call, 2 bet or raise."""
SMALL = {"ante": 6, "low_limit": 6, "high_limit": 12, "cards_speak": True, "blinds": False}
"""Chips that never leave an odd chip in a 2- or 3-way tie (ACPC splits pots in fractions)."""
FOUR_CARDS = "2c 2d 3c 3d 4c 4d 5c 5d"
THREE_CARDS = "2c 2d 3c 3d 4c 4d"


def rules(n_players: int, max_raises: int, hole_cards: int = 1, board_cards: tuple[int, ...] = (0, 1)) -> LimitConfig:
    return LimitConfig(
        n_players=n_players,
        max_raises=max_raises,
        hole_cards=hole_cards,
        board_cards=board_cards,
        must_use_hole_card=False,
        **SMALL,
    )


def spiel_game(config: LimitConfig, deck: str):  # type: ignore[no-untyped-def]
    return pyspiel.load_game("universal_poker", universal_poker_parameters(config, deck))


def play_both(config: LimitConfig, deck: list[int], n_suits: int, spiel, rng: np.random.Generator) -> LimitRound:  # type: ignore[no-untyped-def]
    """One random hand on the deal ``deck`` (seat 0's hole cards, seat 1's..., then the board) in both
    games (folding one time in ten when it may), checking who acts and what is legal at every step and the
    returns at the end; our finished round."""
    ours = LimitRound(config, [config.buy_in] * config.n_players, 0, chance=ScriptedChance(deck))
    theirs = spiel.new_initial_state()
    dealt = iter(deck)
    while not ours.is_terminal:
        while theirs.is_chance_node():
            theirs.apply_action(acpc_card(next(dealt), n_suits))
        moves = ours.legal_moves()
        assert theirs.current_player() == ours.to_act
        assert sorted(ACPC_ACTION[move.kind] for move in moves) == theirs.legal_actions(), (ours, theirs)
        stay = [move for move in moves if move.kind is not ActionKind.FOLD]
        move = moves[0] if len(stay) < len(moves) and rng.random() < 0.1 else stay[int(rng.integers(len(stay)))]
        ours.apply(move)
        theirs.apply_action(ACPC_ACTION[move.kind])
    assert theirs.is_terminal()
    assert theirs.returns() == ours.payoffs().tolist(), (ours, theirs)
    return ours


@pytest.mark.parametrize(
    ("config", "deck"),
    [
        (rules(2, 1), FOUR_CARDS),
        (rules(3, 1), FOUR_CARDS),
        (rules(3, 2, board_cards=(0, 1, 1)), "2c 2d 2h 3c 3d 3h 4c 4d 4h"),
        (rules(2, 3, hole_cards=2, board_cards=(0, 3, 1, 1)), "full"),
        (rules(3, 3, hole_cards=2, board_cards=(0, 3, 1, 1)), "full"),
    ],
    ids=["2p-small", "3p-small", "3p-three-rounds", "2p-holdem", "3p-holdem"],
)
def test_payoffs_equal_on_random_hands(config: LimitConfig, deck: str) -> None:
    """1,000 random hands: the same legal actions, the same player to act and the same returns, showdowns
    and split pots among them."""
    cards = parse_cards(deck).tolist() if deck != "full" else list(range(52))
    n_suits = len({card & 3 for card in cards})
    spiel = spiel_game(config, format_cards(cards))
    rng = np.random.default_rng(25)
    hands = [play_both(config, rng.permutation(cards).tolist(), n_suits, spiel, rng) for _ in range(1000)]
    showdowns = [hand for hand in hands if sum(not folded for folded in hand.folded) > 1]
    splits = [hand for hand in showdowns if sum(chips > 0 for chips in hand.winnings or ()) > 1]
    assert len(showdowns) > 300 and len(splits) > 0, (len(showdowns), len(splits))


def covering_deals(small: SmallLimitGame) -> list[list[int]]:
    """Deals (as dealt: hole cards by seat, then the boards) in which every seat sees every full view of
    its own; the other seats take the lowest cards left."""
    config, deck = small.rules, sorted(small.deck)
    boards = sum(config.board_cards)
    deals = []
    for seat in range(config.n_players):
        for hole in itertools.combinations(deck, config.hole_cards):
            rest = [card for card in deck if card not in hole]
            for board in itertools.permutations(rest, boards):
                if any(list(board[a:b]) != sorted(board[a:b]) for a, b in itertools.pairwise(config.streets)):
                    continue
                others = iter(card for card in rest if card not in board)
                holes = [
                    list(hole) if p == seat else [next(others) for _ in range(config.hole_cards)]
                    for p in range(config.n_players)
                ]
                deals.append([card for cards in holes for card in cards] + list(board))
    return deals


def tabular_policy(small: SmallLimitGame, spiel, strategy: np.ndarray):  # type: ignore[no-untyped-def]
    """Our flat ``strategy`` as a ``pyspiel.TabularPolicy`` of ``spiel``, by lockstep walks (see the module
    docstring); asserts one OpenSpiel information state per information set of ours."""
    config, tree = small.rules, small.game.tree
    n_players, hole, n_suits = config.n_players, config.hole_cards, len({card & 3 for card in small.deck})
    table: dict[str, list[tuple[int, float]]] = {}
    for deal in covering_deals(small):
        holes = [tuple(sorted(deal[p * hole : (p + 1) * hole])) for p in range(n_players)]
        boards = [
            tuple(sorted(deal[n_players * hole + a : n_players * hole + b]))
            for a, b in itertools.pairwise(config.streets)
        ]
        stack = [(spiel.new_initial_state(), 0, 0)]  # state, our node, cards dealt
        while stack:
            state, node, dealt = stack.pop()
            if state.is_chance_node():  # hole cards, then each round's board, in the deal's order
                stack.append((state.child(acpc_card(deal[dealt], n_suits)), node, dealt + 1))
                continue
            if state.is_terminal():
                assert tree.kind[node] != DECISION
                continue
            assert tree.kind[node] == DECISION
            player, street = state.current_player(), int(tree.street[node])
            assert player == tree.player[node]
            group = int(tree.infoset_group[node])
            bucket = small.views[street][(holes[player], *boards[:street])]
            row = int(tree.row_offset[group]) + bucket * int(tree.n_actions[group])
            start = int(tree.child_start[node])
            children = {
                ACPC_ACTION[ActionKind(int(tree.action_kind[start + k]))]: k for k in range(tree.n_children[node])
            }
            assert sorted(children) == state.legal_actions()
            entry = [(action, float(strategy[row + k])) for action, k in sorted(children.items())]
            assert table.setdefault(state.information_state_string(), entry) == entry
            stack += [(state.child(action), start + k, dealt) for action, k in children.items()]
    assert len(table) == tree.n_infosets, "one OpenSpiel information state per information set of ours"
    return pyspiel.TabularPolicy(table)


@functools.cache
def small_game(n_players: int, max_raises: int, deck: str) -> SmallLimitGame:
    return build_small_limit_game(rules(n_players, max_raises), deck)


def assert_nash_conv_equal(small: SmallLimitGame, deck: str, random: bool = False) -> None:
    """Uniform, CFR+ (100 iterations) and with ``random`` a random strategy: OpenSpiel's NashConv is ours."""
    game = small.game
    spiel = spiel_game(small.rules, deck)
    strategies = [uniform_strategy(game), Solver(game, "cfr+").run(100).average_strategy()]
    if random:
        strategies.append(normalized_strategy(game, random_strategy(game, 3)))
    for strategy in strategies:
        ours = exploitability(game, strategy).nash_conv
        assert pyspiel.nash_conv(spiel, tabular_policy(small, spiel, strategy)) == pytest.approx(ours, abs=1e-9)


@pytest.mark.jit_only  # as plain Python: 36 s (CFR+ and our best response on 336 deals)
def test_two_player_nash_conv_equals_universal_poker() -> None:
    assert_nash_conv_equal(small_game(2, 1, FOUR_CARDS), FOUR_CARDS, random=True)


@pytest.mark.jit_only  # as plain Python: 144 s
def test_three_player_nash_conv_equals_universal_poker() -> None:
    assert_nash_conv_equal(small_game(3, 0, THREE_CARDS), THREE_CARDS)


@pytest.mark.slow
def test_three_player_nash_conv_equals_universal_poker_with_raises() -> None:
    """A raise after the opening bet (ACPC's cap 2): 45 s for the two strategies (on 8 cards: 10 minutes)."""
    assert_nash_conv_equal(small_game(3, 1, THREE_CARDS), THREE_CARDS)


@pytest.mark.parametrize(
    ("change", "deck", "message"),
    [
        ({"cards_speak": False}, FOUR_CARDS, "announced hands: use cards_speak=True"),
        ({"check_raise": False}, FOUR_CARDS, "a ban on check-raising"),
        ({"hole_cards": 2, "board_cards": (0, 3, 1, 1), "must_use_hole_card": True}, "full", "must use a hole card"),
        ({"ante": 3}, FOUR_CARDS, r"odd chips of a tie .* multiples of \[2, 3\], got 3, 6, 12"),
        ({}, "2c 2d 3c 3d 5c 5d", "ACPC's deck is the lowest ranks in the first suits"),
        ({"buy_in": 20}, FOUR_CARDS, "assumes nobody taps out"),
    ],
)
def test_what_universal_poker_cannot_express_is_refused(change: dict, deck: str, message: str) -> None:
    config = dataclasses.replace(rules(3, 1), **change)
    cards = format_cards(range(52)) if deck == "full" else deck
    with pytest.raises(ValueError, match=message):
        universal_poker_parameters(config, cards)
