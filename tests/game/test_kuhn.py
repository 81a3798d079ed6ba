"""Kuhn poker rules (game.rules.kuhn): OpenSpiel's kuhn_poker."""

from __future__ import annotations

import itertools

import pytest

from game.cards.deck import parse_cards
from game.rules.actions import Action, IllegalActionError
from game.rules.kuhn import KUHN, kuhn_round


def play(cards: str, actions: str):
    game = kuhn_round(cards=parse_cards(cards))
    for text in actions.split():
        game.apply(Action.parse(text))
    return game


# Terminal histories of Kuhn poker and player 0's winnings with J vs Q / K vs Q
# (OpenSpiel kuhn_poker: ante 1, bet 1; "pb p" means bet, fold).
@pytest.mark.parametrize(
    ("actions", "jack_vs_queen", "king_vs_queen"),
    [("K K", -1, 1), ("K R1 F", -1, -1), ("K R1 C", -2, 2), ("R1 F", 1, 1), ("R1 C", -2, 2)],
)
def test_terminal_payoffs(actions: str, jack_vs_queen: int, king_vs_queen: int) -> None:
    assert play("Js Qs", actions).payoffs() == (jack_vs_queen, -jack_vs_queen)
    assert play("Ks Qs", actions).payoffs() == (king_vs_queen, -king_vs_queen)


def test_betting_is_capped_at_one_bet() -> None:
    game = play("Js Qs", "K R1")
    assert [str(a) for a in game.legal_actions()] == ["F", "C"]
    with pytest.raises(IllegalActionError, match=r"R2 is not legal: legal: F C"):
        game.apply(Action.raise_to(2))


def test_every_line_ends_in_one_of_five_terminals() -> None:
    terminals = set()
    for cards in itertools.permutations(KUHN.deck(), 2):
        stack = [kuhn_round(cards=cards)]
        while stack:
            game = stack.pop()
            if game.is_terminal:
                assert game.legal_actions() == []
                assert sum(game.payoffs()) == 0
                terminals.add(game.history_string())
                continue
            for action in game.legal_actions():
                child = game.copy()
                child.apply(action)
                stack.append(child)
    assert terminals == {"KK", "KR1F", "KR1C", "R1F", "R1C"}


def test_bad_cards_are_refused() -> None:
    with pytest.raises(ValueError, match="2 distinct cards of the deck 'Js Qs Ks'"):
        kuhn_round(cards=[parse_cards("Js")[0]] * 2)
    with pytest.raises(ValueError, match="payoffs are only defined once the round is over"):
        kuhn_round(cards=parse_cards("Js Qs")).payoffs()


def test_seeded_deal_is_reproducible() -> None:
    assert kuhn_round(seed=5).cards == kuhn_round(seed=5).cards
    assert {kuhn_round(seed=s).cards for s in range(40)} == set(itertools.permutations(KUHN.deck(), 2))
