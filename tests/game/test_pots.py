"""Pot division by the limit rules' expectation method (``game.rules.pots``).

Hand-computed cases follow the rules document (URCS "Rules of Hold 'Em Poker for Computers",
section *The Showdown*: E_i = the pot "if their bet had been the last bet", share E_i / E; a
tapped-out winner wins only the pot at their tap-out and the rest goes to the 2nd-highest hand).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.pots import divide_pot, expectation


def standard_side_pots(contributions: list[int], strengths: list[int | None]) -> list[int]:
    """Slow obvious reference without ties: build side pots level by level, best eligible hand wins."""
    won = [0] * len(contributions)
    levels = sorted(set(contributions))
    previous = 0
    for level in levels:
        layer = sum(min(chips, level) - min(chips, previous) for chips in contributions)
        eligible = [seat for seat, chips in enumerate(contributions) if chips >= level and strengths[seat] is not None]
        if eligible:
            won[max(eligible, key=lambda seat: strengths[seat])] += layer
        else:  # nobody left to claim this layer: it goes back to whoever put it in
            for seat, chips in enumerate(contributions):
                won[seat] += min(chips, level) - min(chips, previous)
        previous = level
    return won


def test_single_winner_takes_the_whole_pot() -> None:
    # "a single winner has Ei = E and so wins it all"
    assert divide_pot([30, 30, 30], [1, 9, 5], [0, 1, 2]) == [0, 90, 0]


def test_untapped_winners_split_evenly() -> None:
    # "n non-tapped-out winners each have Ei = E also, and so win 1/n of the pot"
    assert divide_pot([40, 40, 40, 12], [7, 7, 7, None], [0, 1, 2, 3]) == [44, 44, 44, 0]
    assert divide_pot([40, 40, 40, 10], [7, 7, 7, None], [0, 1, 2, 3]) == [44, 43, 43, 0]  # 130 = 3 * 43 + 1


def test_tapped_out_winner_wins_only_the_pot_at_the_tap_out() -> None:
    # A taps out for 30; B and C put in 100. A best, B second: A wins 3 * 30, B the rest.
    assert divide_pot([30, 100, 100], [9, 5, 1], [0, 1, 2]) == [90, 140, 0]


def test_tie_between_tapped_out_and_covering_player_is_proportional() -> None:
    # E_A = 30 + 30 + 30 = 90, E_B = 230 (the whole pot), E = 320.
    # A: 230 * 90 / 320 = 64.69 -> 64, B: 230 * 230 / 320 = 165.31 -> 165; the odd chip goes to the
    # first tied player in odd-chip order (A here, B in the second call).
    assert expectation([30, 100, 100], 0) == 90
    assert expectation([30, 100, 100], 1) == 230
    assert divide_pot([30, 100, 100], [9, 9, 1], [0, 1, 2]) == [65, 165, 0]
    assert divide_pot([30, 100, 100], [9, 9, 1], [1, 2, 0]) == [64, 166, 0]


def test_tied_tapped_out_players_share_their_claim_and_the_rest_cascades() -> None:
    # A taps out for 20, B for 40, both tie; C (100) is second best; D folded after 60.
    # E_A = 20 * 4 = 80, E_B = 20 + 40 + 40 + 40 = 140; they share the 140 B's tap-out covers:
    # A 140 * 80 / 220 = 50.9 -> 50, B 140 * 140 / 220 = 89.09 -> 89, odd chip to A (first).
    # The rest, 220 - 140 = 80, cascades to C.
    assert divide_pot([20, 40, 100, 60], [8, 8, 3, None], [0, 1, 2, 3]) == [51, 89, 80, 0]


def test_three_level_cascade() -> None:
    # A tapped out at 20 (best), B at 50 (second), C and D at 100 tie for third.
    # A: 4 * 20 = 80; B: 3 * (50 - 20) = 90; C and D share 2 * (100 - 50) = 100.
    assert divide_pot([20, 50, 100, 100], [9, 8, 7, 7], [0, 1, 2, 3]) == [80, 90, 50, 50]


def test_odd_chip_goes_in_the_given_order() -> None:
    # Pot 25 split by two equal contributors: 12 each and one odd chip.
    assert divide_pot([5, 10, 10], [None, 4, 4], [2, 0, 1]) == [0, 12, 13]
    assert divide_pot([5, 10, 10], [None, 4, 4], [1, 2, 0]) == [0, 13, 12]


def test_chips_nobody_can_claim_return_to_their_owner() -> None:
    # The bigger contributor mucked; the tapped-out claimant wins 2 * 10.
    assert divide_pot([10, 40], [5, None], [0, 1]) == [20, 30]  # 30 unmatched chips go back


@pytest.mark.parametrize(
    ("contributions", "strengths", "order", "message"),
    [
        ([10, -1], [1, 2], [0, 1], "contribution -1 of seat 1"),
        ([10, 10], [1, 2], [0, 0], "odd_chip_order"),
        ([10, 10], [1], [0, 1], "strengths has 1 entries"),
    ],
)
def test_bad_input_is_refused(contributions: list[int], strengths: list, order: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        divide_pot(contributions, strengths, order)


pots = st.integers(2, 8).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 200), min_size=n, max_size=n),
        st.lists(st.one_of(st.none(), st.integers(1, 4)), min_size=n, max_size=n),
        st.permutations(list(range(n))),
    )
)


@given(pots)
def test_division_conserves_chips_and_respects_expectations(case: tuple[list[int], list, list[int]]) -> None:
    contributions, strengths, order = case
    won = divide_pot(contributions, strengths, order)
    assert sum(won) == sum(contributions)
    assert min(won) >= 0
    for seat, chips in enumerate(won):
        if strengths[seat] is None:  # no claim: at most its own chips back
            assert chips <= contributions[seat]
        else:  # never more than the document's expectation
            assert chips <= expectation(contributions, seat)


@given(pots)
def test_without_ties_division_equals_standard_side_pots(case: tuple[list[int], list, list[int]]) -> None:
    contributions, strengths, order = case
    unique = [None if value is None else (value, seat) for seat, value in enumerate(strengths)]
    ranks = {value: rank for rank, value in enumerate(sorted(v for v in unique if v is not None))}
    distinct = [None if value is None else ranks[value] for value in unique]
    assert divide_pot(contributions, distinct, order) == standard_side_pots(contributions, distinct)
