"""Leduc hold'em rules (game.rules.leduc): OpenSpiel's leduc_poker."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.cards.deck import format_cards, parse_cards
from game.rules.actions import Action, ActionKind, IllegalActionError
from game.rules.leduc import LeducConfig, LeducRound

LEDUC = LeducConfig()


def play(cards: str, actions: str) -> LeducRound:
    game = LeducRound(LEDUC, parse_cards(cards))
    for text in actions.split():
        game.apply(Action.parse(text))
    return game


def test_deck_and_deal_sizes() -> None:
    assert LEDUC.deck_text() == "Jh Js Qh Qs Kh Ks"
    assert LEDUC.cards_per_deal == 3 and LEDUC.n_streets == 2


def test_raise_sizes_and_cap() -> None:
    game = play("Kh Qs Jh", "R2 R4")
    # two raises in round 1: the cap (OpenSpiel leduc_poker: at most 2 raises per round)
    assert [str(a) for a in game.legal_actions()] == ["F", "C"]
    game.apply(Action.call())
    assert game.street == 1 and game.committed == [5, 5] and game.board == (parse_cards("Jh")[0],)
    assert [str(a) for a in game.legal_actions()] == ["K", "R4"]
    game.apply(Action.raise_to(4))
    assert [str(a) for a in game.legal_actions()] == ["F", "C", "R8"]


def test_pair_beats_high_card_and_equal_ranks_split() -> None:
    assert play("Jh Ks Js", "K K K K").payoffs() == (1, -1)  # pair of jacks beats king high
    assert play("Jh Ks Qs", "K K K K").payoffs() == (-1, 1)  # king high beats jack high
    assert play("Kh Ks Qs", "R2 C R4 C").payoffs() == (0, 0)  # same rank: split pot
    assert play("Kh Qs Qh", "R2 C K R4 C").payoffs() == (-7, 7)


def test_fold_loses_what_was_committed() -> None:
    assert play("Kh Qs Qh", "R2 F").payoffs() == (1, -1)
    assert play("Kh Qs Qh", "K R2 R4 F").payoffs() == (3, -3)
    assert play("Kh Qs Qh", "R2 C R4 R8 F").payoffs() == (-7, 7)


def test_illegal_actions_name_what_was_legal() -> None:
    game = play("Kh Qs Qh", "")
    with pytest.raises(IllegalActionError, match=r"F is not legal: legal: K R2"):
        game.apply(Action.fold())
    with pytest.raises(IllegalActionError, match=r"R3 is not legal"):
        game.apply(Action.raise_to(3))


def test_bad_configs_are_refused() -> None:
    with pytest.raises(ValueError, match="ranks must be distinct"):
        LeducConfig(ranks="JJ")
    with pytest.raises(ValueError, match="a deal needs 3 cards but the deck has 2"):
        LeducConfig(ranks="JQ", suits="h")


def count_sequences(config: LeducConfig) -> tuple[int, int]:
    """(decision nodes, terminal nodes) of the betting tree, whose shape no deal changes."""
    decisions = terminals = 0
    stack = [LeducRound(config, config.deck()[: config.cards_per_deal])]
    while stack:
        game = stack.pop()
        if game.is_terminal:
            terminals += 1
            continue
        decisions += 1
        for action in game.legal_actions():
            child = game.copy()
            child.apply(action)
            stack.append(child)
    return decisions, terminals


def test_betting_tree_size() -> None:
    # 6 decision sequences in round 1, 5 of them lead to round 2 which has 6 each (936 = 36 + 900
    # information sets with 6 private cards and 30 private/public pairs, OpenSpiel leduc_poker)
    assert count_sequences(LEDUC) == (36, 49)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.integers(0, 2), min_size=12, max_size=12))
def test_random_playouts_conserve_chips(seed: int, choices: list[int]) -> None:
    game = LeducRound.deal(LEDUC, seed)
    steps = 0
    while not game.is_terminal:
        legal = game.legal_actions()
        assert legal, "a live round always has a legal action"
        game.apply(legal[choices[steps % len(choices)] % len(legal)])
        steps += 1
        assert min(game.committed) >= LEDUC.ante
    assert game.legal_actions() == []
    payoffs = game.payoffs()
    assert payoffs[0] + payoffs[1] == 0
    assert max(abs(p) for p in payoffs) <= max(game.committed)
    assert steps <= 8


def test_golden_playthrough() -> None:
    # fixed-seed playthrough: raise whenever allowed, otherwise call or check
    game = LeducRound.deal(LEDUC, seed=2024)
    assert format_cards(game.cards) == "Qh Qs Kh"
    while not game.is_terminal:
        legal = game.legal_actions()
        game.apply(legal[-1] if legal[-1].kind is ActionKind.RAISE else legal[-1 if len(legal) == 1 else 1])
    assert game.history_string() == "R2R4C/R4R8C"
    assert game.committed == [13, 13]
    assert game.payoffs() == (0, 0)  # queen against queen, king on board: split


def test_every_deal_has_the_same_betting() -> None:
    first = count_sequences(LEDUC)
    for cards in itertools.islice(itertools.permutations(LEDUC.deck(), 3), 0, 120, 17):
        game = LeducRound(LEDUC, cards)
        assert [str(a) for a in game.legal_actions()] == ["K", "R2"]
    assert first == (36, 49)
