"""Small-deck fixed-limit hold'em rules (game.rules.small_holdem)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.cards.deck import parse_cards
from game.cards.evaluator import evaluate
from game.rules.actions import Action
from game.rules.small_holdem import SmallHoldemConfig, SmallHoldemRound

CONFIG = SmallHoldemConfig()


def play(cards: str, actions: str, config: SmallHoldemConfig = CONFIG) -> SmallHoldemRound:
    hand = SmallHoldemRound(config, parse_cards(cards))
    for text in actions.split():
        hand.apply(Action.parse(text))
    return hand


def test_config_validation_names_the_bad_value() -> None:
    with pytest.raises(ValueError, match="hole_cards must be an int >= 1, got 0"):
        SmallHoldemConfig(hole_cards=0)
    with pytest.raises(ValueError, match="needs 5 cards but hole_cards 1"):
        SmallHoldemConfig(hole_cards=1, board_cards=(0, 3))
    with pytest.raises(ValueError, match="a deal needs 7 cards but the deck has 6"):
        SmallHoldemConfig(ranks="QKA", suits="hs")


def test_config_round_trips_through_dict() -> None:
    config = SmallHoldemConfig(ranks="TJQKA", suits="hs", max_raises=1, raise_sizes=(1, 2))
    assert SmallHoldemConfig.from_dict(config.to_dict()) == config
    assert config.cards_per_deal == 7 and config.deck_size == 10


def test_leduc_betting_is_inherited() -> None:
    hand = play("Ah Kh As Qd Ks Qh Ad", "R2 R4")
    assert [str(a) for a in hand.legal_actions()] == ["F", "C"]  # the cap of 2 raises per round
    hand.apply(Action.call())
    assert hand.street == 1 and hand.committed == [5, 5]
    assert [str(a) for a in hand.legal_actions()] == ["K", "R4"]


def test_cards_are_split_into_hole_cards_and_streets() -> None:
    hand = play("Ah Kh As Qd Ks Qh Ad", "")
    assert hand.hole(0) == tuple(sorted(parse_cards("Ah Kh").tolist()))
    assert hand.board == () and hand.visible_cards(1) == tuple(sorted(parse_cards("As Qd").tolist()))
    hand.apply(Action.check())
    hand.apply(Action.check())
    assert hand.board == tuple(parse_cards("Ks Qh Ad").tolist())
    assert hand.visible_cards(1) == (*sorted(parse_cards("As Qd").tolist()), *sorted(parse_cards("Ks Qh Ad").tolist()))


def test_showdown_split_and_fold() -> None:
    # both play aces up, queens and kings (Ah Ad Qx Kx + the board's queen): a split pot
    split = play("Qh Kh Qs Ks Ad As Qd", "K K K K")
    assert split.payoffs() == (0.0, 0.0)
    folded = play("Qh Kh Qs Ks Ad As Qd", "R2 F")
    assert folded.payoffs() == (1.0, -1.0)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), checks=st.integers(0, 1))
def test_showdown_winner_has_the_better_poker_hand(seed: int, checks: int) -> None:
    hand = SmallHoldemRound.deal(SmallHoldemConfig(ranks="TJQKA", suits="hsd"), seed)
    hand.apply(Action.raise_to(2) if checks else Action.check())
    hand.apply(Action.call() if checks else Action.check())
    hand.apply(Action.check())
    hand.apply(Action.check())
    values = [evaluate([*hand.hole(p), *hand.board]) for p in range(2)]
    pot_half = hand.committed[0]
    expected = 0.0 if values[0] == values[1] else (pot_half if values[0] > values[1] else -pot_half)
    assert hand.payoffs() == (expected, -expected)


def test_private_card_points_to_hole() -> None:
    with pytest.raises(NotImplementedError, match=r"use hole\(1\)"):
        play("Ah Kh As Qd Ks Qh Ad", "").private_card(1)
