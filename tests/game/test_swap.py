"""Swap Hold'em (rules/swap-holdem.txt): hole cards replaced after the flop and after the turn."""

from __future__ import annotations

import numpy as np
import pytest

from game.cards.deck import format_cards
from game.rules.chance import UNKNOWN_CARD, RandomChance, ScriptedChance
from game.rules.swap import SwapConfig, SwapRound
from tests.game.scripted import cards, play

NO_SWAPS = [False] * 4


def test_the_default_raise_bounds_follow_the_document_stack() -> None:
    assert SwapRound(SwapConfig(), RandomChance(0)).raise_bounds() == (4, 200)


@pytest.mark.parametrize("rules", ["document", "engine"])
def test_a_flop_swap_turns_the_winner(rules: str) -> None:
    # Seat 0 Ah 2d vs seat 1 Kc Qc; seat 0's deuce becomes the Ad on the flop: aces beat kings.
    deck = cards("Ah 2d Kc Qc Ks 7h 9d Ad 3c 4s")
    events = {"swap": [False, True, False, False, *NO_SWAPS]}
    round_ = play(SwapRound(SwapConfig(rules=rules), ScriptedChance(deck, events)), "C K")
    assert format_cards(round_.hole_cards[0]) == "Ah Ad" and format_cards(round_.hole_cards[1]) == "Kc Qc"
    assert format_cards(round_.board) == "Ks 7h 9d"
    play(round_, "K K K K K K")
    assert format_cards(round_.board) == "Ks 7h 9d 3c 4s"
    assert round_.payoffs().tolist() == [2, -2]
    assert round_.chance_log.events == {"swap": (False, True, False, False, False, False, False, False)}


def test_turn_swap_and_each_player_sees_only_own_cards() -> None:
    # Seat 1 loses Qc on the turn for 9s (pair of nines with the board's 9d).
    deck = cards("Ah 2d Kc Qc 5s 7h 9d Jd 9s 3c")
    events = {"swap": [*NO_SWAPS, False, False, False, True]}
    round_ = play(SwapRound(SwapConfig(), ScriptedChance(deck, events)), "C K K K")
    assert round_.street == 4
    assert format_cards(round_.observation(1).hole_cards) == "Kc 9s"
    assert format_cards(round_.observation(0).hole_cards) == "Ah 2d"
    assert round_.observation(0).opponent_hole_cards == ()
    play(round_, "K K K K")
    assert format_cards(round_.board) == "5s 7h 9d Jd 3c"  # the dead Qc is never dealt
    assert round_.payoffs().tolist() == [-2, 2]


def test_no_swap_after_a_preflop_fold() -> None:
    round_ = play(SwapRound(SwapConfig(), ScriptedChance(cards("Ah 2d Kc Qc"))), "F")
    assert round_.chance_log.events == {} and round_.payoffs().tolist() == [-1, 1]


def test_all_in_still_swaps_on_the_way_to_showdown() -> None:
    # Document all-in: streets are dealt with no decisions, swaps included.
    deck = cards("Ah 2d Kc Qc Ks 7h 9d Ad 3c 4s")
    events = {"swap": [False, True, False, False, *NO_SWAPS]}
    round_ = play(SwapRound(SwapConfig(), ScriptedChance(deck, events)), "R200 C")
    assert round_.is_terminal and format_cards(round_.hole_cards[0]) == "Ah Ad"
    assert round_.payoffs().tolist() == [200, -200]


def test_client_view_with_unknown_opponent_swaps_and_reveal() -> None:
    # Seat 0's view: the opponent's cards and swap events are unknown; its own swap is seen.
    deck = cards("Ah 2d") + [UNKNOWN_CARD] * 2 + cards("Ks 7h 9d Ad 3c 4s")
    events = {"swap": [False, True, None, None, False, False, None, None]}
    round_ = play(SwapRound(SwapConfig(), ScriptedChance(deck, events)), "C K K K K K K K")
    assert round_.hole_cards == (tuple(cards("Ah Ad")), (UNKNOWN_CARD, UNKNOWN_CARD))
    with pytest.raises(ValueError, match="reveal"):
        round_.payoffs()
    round_.reveal(1, cards("Kc Kd"))  # the final hand shown at showdown (a set of kings)
    assert round_.payoffs().tolist() == [-2, 2]


@pytest.mark.parametrize(("flop", "turn", "expected"), [(1.0, 0.0, 4), (0.0, 1.0, 4), (1.0, 1.0, 8), (0.0, 0.0, 0)])
def test_probabilities_are_configurable(flop: float, turn: float, expected: int) -> None:
    config = SwapConfig(flop_swap_probability=flop, turn_swap_probability=turn)
    round_ = play(SwapRound(config, RandomChance(1)), "C K K K K K")
    assert sum(round_.chance_log.events["swap"]) == expected
    assert len(round_.chance_log.deck) == 4 + 3 + 1 + expected + 1  # holes, flop, turn, swaps, river
    dealt = [card for hand in round_.hole_cards for card in hand] + list(round_.board)
    assert len(set(dealt)) == 9


def test_swap_rates_match_the_probabilities() -> None:
    # 4,000 rounds x 4 cards: the flop rate is 0.10 +- 0.012 (about 5 standard errors), the turn 0.05 +- 0.009.
    rng = np.random.default_rng(7)
    flop = turn = 0
    n = 4_000
    for _ in range(n):
        round_ = play(SwapRound(SwapConfig(), RandomChance(rng)), "C K K K")
        outcomes = round_.chance_log.events["swap"]
        flop += sum(outcomes[:4])
        turn += sum(outcomes[4:])
    assert abs(flop / (4 * n) - 0.10) < 0.012
    assert abs(turn / (4 * n) - 0.05) < 0.009


@pytest.mark.parametrize(
    ("field", "value", "error", "message"),
    [
        ("flop_swap_probability", -0.1, ValueError, "flop_swap_probability must be in [0, 1], got -0.1"),
        ("turn_swap_probability", float("nan"), ValueError, "turn_swap_probability must be in [0, 1], got nan"),
        ("flop_swap_probability", "0.1", TypeError, "flop_swap_probability must be a number in [0, 1], got '0.1'"),
        ("stack", 2, ValueError, "stack must be > big_blind (2), got 2"),
    ],
)
def test_config_validation(field: str, value: object, error: type, message: str) -> None:
    with pytest.raises(error) as raised:
        SwapConfig(**{field: value})  # type: ignore[arg-type]
    assert str(raised.value) == message
