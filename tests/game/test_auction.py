"""Auction Hold'em (rules/auction-holdem.txt; the 2024 engine per pokerbots-engines.md)."""

from __future__ import annotations

import pytest

from game.cards.deck import format_cards
from game.rules.actions import Action, ActionKind, IllegalActionError
from game.rules.auction import AuctionConfig, AuctionRound
from game.rules.chance import ScriptedChance
from tests.game.scripted import cards, play

BID = ActionKind.BID
# Seat 0 Ah Kd, seat 1 Qs Qh; flop 2c 7d Jc; third card(s) Ad (then As); turn 3s, river 8h.
DECK = "Ah Kd Qs Qh 2c 7d Jc Ad As 3s 8h"
# A royal flush on the board: every showdown ties whatever the third cards.
ROYAL = "2c 3d 4c 5d As Ks Qs 6h Js Ts"


def start(deck: str = DECK, **config: object) -> AuctionRound:
    return AuctionRound(AuctionConfig(**config), ScriptedChance(cards(deck)))  # type: ignore[arg-type]


def test_auction_comes_right_after_the_flop_big_blind_bids_first() -> None:
    round_ = play(start(), "C K")
    assert (round_.street, round_.to_act, round_.legal_actions()) == (3, 1, {BID})
    assert round_.bid_bounds() == (0, 398) and len(round_.board) == 3
    with pytest.raises(IllegalActionError, match=r"illegal action A399 at flop auction for seat 1: legal are A0..A398"):
        round_.apply(Action.bid(399))
    with pytest.raises(IllegalActionError, match="illegal action K at flop auction"):
        round_.apply(Action.check())
    with pytest.raises(ValueError, match="no raise bounds at flop auction for seat 1"):
        round_.raise_bounds()


def test_higher_bid_wins_the_card_and_pays_the_lower_bid() -> None:
    round_ = play(start(), "C K A30 A22")
    assert format_cards(round_.hole_cards[1]) == "Qs Qh Ad" and len(round_.hole_cards[0]) == 2
    assert round_.contributions == (2, 24) and round_.stacks == (398, 376) and round_.pips == (0, 0)
    assert (round_.street, round_.to_act, round_.legal_actions()) == (3, 1, {ActionKind.CHECK, ActionKind.RAISE})
    assert round_.bids == (22, 30)
    # Max bet bounded by the opponent: min(376, 398 + 0) -> 376.
    assert round_.raise_bounds() == (2, 376)


def test_tie_both_pay_and_both_get_a_card_seat_0_first() -> None:
    round_ = play(start(), "C K A15 A15")
    assert format_cards(round_.hole_cards[0]) == "Ah Kd Ad"
    assert format_cards(round_.hole_cards[1]) == "Qs Qh As"
    assert round_.contributions == (17, 17)


def test_zero_zero_tie_gives_both_a_free_card() -> None:
    round_ = play(start(), "C K A0 A0")
    assert [len(hand) for hand in round_.hole_cards] == [3, 3] and round_.contributions == (2, 2)


def test_third_card_wins_the_showdown() -> None:
    # Seat 0 wins the Ad paying seat 1's bid of 5: a pair of aces (Ah Kd Ad) beats the queens.
    round_ = play(start(), "C K A5 A40 K K K R10 C K K")
    assert format_cards(round_.hole_cards[0]) == "Ah Kd Ad"
    assert round_.contributions == (17, 12)
    assert round_.payoffs().tolist() == [12, -12]


def test_fold_with_unequal_contributions() -> None:
    round_ = play(start(), "C K A50 A10 R20 F")
    assert round_.contributions == (2, 32)
    assert round_.payoffs().tolist() == [-2, 2]


@pytest.mark.parametrize(("bids", "document", "engine"), [("A9 A5", [0, 0], [2, -2]), ("A5 A9", [0, 0], [-3, 3])])
def test_showdown_tie_with_unequal_contributions(bids: str, document: list[int], engine: list[int]) -> None:
    # Document: "In the case of a tie, players' bankrolls do not change."
    # Engine 2024: delta0 = (stack0 - stack1) // 2 (the odd chip goes to seat 1).
    for rules, expected in (("document", document), ("engine", engine)):
        round_ = play(start(ROYAL, rules=rules), f"C K {bids} K K K K K K")
        assert round_.is_terminal and sorted(round_.contributions) == [2, 7]
        assert round_.payoffs().tolist() == expected, rules


def test_document_bids_are_sealed_engine_dealer_sees_the_big_blind_bid() -> None:
    document = play(start(), "C K A30")
    seen = document.observation(0)
    assert [str(move.action) for move in seen.history] == ["C", "K"]
    assert seen.bids == (None, None) and seen.bid_bounds == (0, 398)
    assert [str(move.action) for move in document.observation(1).history] == ["C", "K", "A30"]
    play(document, "A22")
    assert [str(move.action) for move in document.observation(0).history] == ["C", "K", "A30", "A22"]
    assert document.observation(0).bids == (22, 30)
    engine = play(start(rules="engine"), "C K A30")
    assert [str(move.action) for move in engine.observation(0).history] == ["C", "K", "A30"]


def test_document_all_in_preflop_auction_resolves_itself() -> None:
    round_ = play(start(), "R400 C")
    assert round_.is_terminal and round_.bids == (0, 0)
    assert [len(hand) for hand in round_.hole_cards] == [3, 3]
    assert format_cards(round_.board) == "2c 7d Jc 3s 8h"
    assert round_.payoffs().tolist() == [400, -400]  # Ah Kd Ad: aces beat queens


def test_engine_all_in_preflop_still_asks_for_zero_bids_and_checks() -> None:
    round_ = play(start(rules="engine"), "R400 C")
    assert (round_.to_act, round_.legal_actions(), round_.bid_bounds()) == (1, {BID}, (0, 0))
    play(round_, "A0 A0")
    for street in (3, 3, 4, 4, 5, 5):
        assert round_.street == street and round_.legal_actions() == {ActionKind.CHECK}
        round_.apply(Action.check())
    assert round_.payoffs().tolist() == [400, -400]


def test_winner_paying_the_whole_stack_goes_all_in() -> None:
    # Seat 1 bids 398 = its stack, seat 0 bids 398: a tie, both pay everything; no more betting.
    round_ = play(start(), "C K A398 A398")
    assert round_.stacks == (0, 0) and round_.is_terminal
    assert round_.payoffs().tolist() == [400, -400]


def test_all_in_by_auction_only_one_player() -> None:
    # Seat 1 wins paying seat 0's bid of 300; seat 0 stays at 398 behind, seat 1 has 98.
    round_ = play(start(), "C K A398 A300")
    assert round_.stacks == (398, 98)
    play(round_, "R98")
    assert round_.legal_actions() == {ActionKind.FOLD, ActionKind.CALL}
    play(round_, "C")
    assert round_.is_terminal and round_.contributions == (100, 400)
    assert round_.payoffs().tolist() == [-100, 100]  # seat 1's queens (Qs Qh Ad) beat Ah Kd


def test_no_bid_bounds_outside_the_auction() -> None:
    with pytest.raises(ValueError, match="no bid bounds at preflop for seat 0: no auction is open"):
        start().bid_bounds()
