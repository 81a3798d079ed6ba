"""Card features: fast kernels against slow direct computation, known equities, variant futures."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from abstraction.cards.features import (
    FutureModel,
    all_hands_features,
    auction_features,
    board_strengths,
    bounty_status,
    hand_features,
    hand_index,
    hand_strength,
    runout_strengths,
)
from abstraction.cards.kernels_features import HAND_CARDS, _hand_outcomes
from game.cards.deck import parse_cards
from game.cards.evaluator import evaluate_batch


def slow_strength(hole: list[int], board: list[int]) -> float:
    """Direct: evaluate the hand and every opponent pair from the remaining deck."""
    deck = [c for c in range(52) if c not in hole and c not in board]
    opponents = np.array([list(pair) + board for pair in itertools.combinations(deck, 2)])
    own = evaluate_batch(np.array([hole + board]))[0]
    others = evaluate_batch(opponents)
    return float(((own > others) + 0.5 * (own == others)).mean())


def random_board(rng: np.random.Generator, size: int) -> list[int]:
    return rng.choice(52, size, replace=False).tolist()


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_board_strengths_match_direct_computation(size):
    rng = np.random.default_rng(size)
    for _ in range(2):
        board = random_board(rng, size)
        strengths = board_strengths(board)
        live = [h for h in range(1326) if not set(HAND_CARDS[h].tolist()) & set(board)]
        assert len(live) == math.comb(52 - size, 2)
        assert (np.delete(strengths, live) == -1).all()
        for hand in rng.choice(live, 25, replace=False):
            hole = HAND_CARDS[hand].tolist()
            assert strengths[hand] == pytest.approx(slow_strength(hole, board), abs=1e-12)
            assert hand_strength(hole, board) == pytest.approx(strengths[hand], abs=1e-12)


@pytest.mark.parametrize(
    "board_text",
    ["2h5h9hJhKh", "2h5h9hJhKc", "3h8h9hQcKd", "AhAdAcKsKh", "7s7h7d7c2s", "Th9h8h", "Th9h8h7h", "5c4c3c2cAc"],
)
def test_board_strengths_on_flush_and_paired_boards(board_text):
    """The rank-pair shortcut (only flush-making hands evaluated on their own) on boards where
    flushes, full houses and quads decide."""
    board = parse_cards(board_text).tolist()
    strengths = board_strengths(board)
    live = [h for h in range(1326) if not set(HAND_CARDS[h].tolist()) & set(board)]
    suited = [h for h in live if all(c & 3 == board[0] & 3 for c in HAND_CARDS[h].tolist())]
    rng = np.random.default_rng(len(board))
    for hand in list(rng.choice(live, 30, replace=False)) + suited[:10]:
        hole = HAND_CARDS[hand].tolist()
        assert strengths[hand] == pytest.approx(slow_strength(hole, board), abs=1e-12)


def test_three_hole_cards_strength_matches_direct_computation():
    rng = np.random.default_rng(3)
    cards = random_board(rng, 8)
    hole, board = cards[:3], cards[3:]
    assert hand_strength(hole, board) == pytest.approx(slow_strength(hole, board), abs=1e-12)


@pytest.mark.parametrize("board_text", ["Qh7d2c", "AsKsQs", "9c8c7d6h"])
def test_all_hands_features_equal_single_hand_enumeration(board_text):
    """Two independent exact paths: the all-hands sort/inclusion-exclusion kernel and a per-hand
    enumeration of every runout and every opponent pair."""
    board = parse_cards(board_text).tolist()
    features = all_hands_features(board_text, n_bins=10)
    rng = np.random.default_rng(len(board))
    live = [h for h in range(1326) if not set(HAND_CARDS[h].tolist()) & set(board)]
    for hand in rng.choice(live, 4, replace=False):
        single = hand_features(HAND_CARDS[hand], board, n_bins=10)
        assert single.exact
        assert single.n_futures == math.comb(52 - len(board) - 2, 5 - len(board))
        assert features.ehs[hand] == pytest.approx(single.ehs, abs=1e-9)
        assert features.ehs2[hand] == pytest.approx(single.ehs2, abs=1e-9)
        np.testing.assert_allclose(features.histogram[hand], single.histogram, atol=1e-9)
    assert (features.ehs2[live] >= features.ehs[live] ** 2 - 1e-12).all()  # Jensen
    np.testing.assert_allclose(features.histogram[live].sum(axis=1), 1.0)


def test_runout_strengths_average_to_equity():
    cards, strengths = runout_strengths("Qh7d2c")
    assert cards.shape == (1176, 2) and strengths.shape == (1176, 1326)
    column = strengths[:, hand_index("AsKd")]
    assert (column >= 0).sum() == 1081
    assert column[column >= 0].mean() == pytest.approx(0.5565, abs=5e-5)


def test_known_equities():
    # AsKd vs a random hand on Qh7d2c: 55.65% (the issue text; any exact equity calculator).
    assert hand_features("AsKd", "Qh7d2c").ehs == pytest.approx(0.5565, abs=5e-5)
    # AA vs a random hand preflop: 85.2% (standard preflop equity tables, e.g. PokerStove).
    features = hand_features("AhAd", n_samples=20_000, seed=5)
    assert not features.exact and features.n_futures == 20_000
    assert features.ehs == pytest.approx(0.852, abs=0.006)  # about 4 standard errors


def test_monte_carlo_agrees_with_exact_on_the_flop():
    hole, board = parse_cards("Jh Th"), parse_cards("9h 2c Kd")
    exact = hand_features(hole, board)
    sampled = np.empty(8000)
    _hand_outcomes(hole, board, 0, 0.0, 0.0, False, 2, 8000, 0, 11, sampled)
    standard_error = sampled.std() / math.sqrt(sampled.size)
    assert abs(sampled.mean() - exact.ehs) < 4 * standard_error
    assert abs((sampled**2).mean() - exact.ehs2) < 0.02


def test_monte_carlo_is_reproducible_from_the_seed():
    first = hand_features("7c6c", future=FutureModel.for_variant("swap"), n_samples=500, seed=3)
    again = hand_features("7c6c", future=FutureModel.for_variant("swap"), n_samples=500, seed=3)
    assert first.ehs == again.ehs and first.ehs2 == again.ehs2


def test_swap_future_pulls_hands_toward_average():
    plain = hand_features("AhAd", n_samples=3000, seed=1)
    swap = hand_features("AhAd", future=FutureModel.for_variant("swap"), n_samples=3000, seed=1)
    assert swap.ehs < plain.ehs - 0.02
    # Both cards always swapped on the flop: the hand we hold is a random one, equity 1/2.
    always = hand_features("AhAd", future=FutureModel(swap_flop=1.0), n_samples=3000, seed=1)
    assert always.ehs == pytest.approx(0.5, abs=0.02)
    # On the river no swap is left: the swap future is the plain (exact) one.
    river = hand_features("AhAd", "2c7d9sJhKc", future=FutureModel.for_variant("swap"), n_samples=50)
    assert river.ehs == pytest.approx(hand_strength("AhAd", "2c7d9sJhKc"))


def slow_river_of_blood_equity(hole, board, n_samples, rng):
    """Direct simulation: deal run cards while the last card is red, then score every opponent pair."""
    total = 0.0
    for _ in range(n_samples):
        deck = [c for c in range(52) if c not in hole and c not in board]
        rng.shuffle(deck)
        final = list(board)
        while final[-1] & 3 in (1, 2):
            final.append(deck.pop())
        total += slow_strength(hole, final)
    return total / n_samples


def test_river_of_blood_runs_match_direct_simulation():
    hole, board = parse_cards("Ah Kh").tolist(), parse_cards("2h 7h 9c Jd 4d").tolist()  # red river: runs
    ours = hand_features(hole, board, FutureModel.for_variant("river_of_blood"), n_samples=600, seed=2)
    slow = slow_river_of_blood_equity(hole, board, 150, np.random.default_rng(2))
    assert not ours.exact
    assert ours.ehs == pytest.approx(slow, abs=0.05)
    assert ours.ehs != pytest.approx(hand_strength(hole, board), abs=0.01)  # runs change the hand
    black = parse_cards("2h 7h 9c Jd 4s").tolist()  # black river: nothing more comes
    stopped = hand_features(hole, black, FutureModel.for_variant("river_of_blood"), n_samples=20)
    assert stopped.ehs == pytest.approx(hand_strength(hole, black))


def test_auction_third_card_equity_matches_average_over_third_cards():
    hole, board = parse_cards("9s 8s").tolist(), parse_cards("7s 2d Kh").tolist()
    ours = auction_features(hole, board, n_samples=3000, seed=4)
    deck = [c for c in range(52) if c not in hole + board]
    rng = np.random.default_rng(0)
    thirds = rng.choice(deck, 12, replace=False)
    direct = np.mean([hand_features([*hole, int(c)], board, n_samples=1500, seed=int(c)).ehs for c in thirds])
    assert ours.equity_with_card == pytest.approx(direct, abs=0.04)
    assert ours.value_of_winning > 0.05
    assert ours.value_of_winning == pytest.approx(ours.equity_with_card - ours.equity_without_card)


def test_bounty_chance_matches_enumeration():
    hole, board = parse_cards("Ah Kd").tolist(), parse_cards("7c 8c 9c").tolist()
    deck = [c for c in range(52) if c not in hole + board]
    hits = sum(any(c >> 2 == 0 for c in runout) for runout in itertools.combinations(deck, 2))
    assert bounty_status(0, hole, board) == (False, pytest.approx(hits / math.comb(len(deck), 2)))
    assert bounty_status(5, hole, board) == (True, 1.0)  # a seven is on the board


def test_bad_input_names_the_value():
    with pytest.raises(ValueError, match="share"):
        hand_features("AhKd", "AhQc2d")
    with pytest.raises(ValueError, match="2 or 3 hole cards"):
        hand_features("Ah", "")
    with pytest.raises(ValueError, match=r"0.5 probability|1.5"):
        FutureModel(swap_flop=1.5)
    with pytest.raises(ValueError, match="13"):
        bounty_status(13, "AhKd", "")
