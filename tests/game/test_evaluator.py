"""The evaluator against known counts, brute force, and two independent PyPI evaluators."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.bench.evaluator import random_seven_card_hands
from game.cards import kernels_evaluator
from game.cards.deck import card_str, parse_cards
from game.cards.evaluator import CATEGORY_NAMES, category_index, evaluate, evaluate_batch, hand_category, hand_census
from tests.reference_evaluator import best_of, rank_five

# Known category counts: Wikipedia "Poker probability" (5-card and 7-card tables).
FIVE_CARD_COUNTS = {
    "straight flush": 40,
    "four of a kind": 624,
    "full house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three of a kind": 54_912,
    "two pair": 123_552,
    "one pair": 1_098_240,
    "high card": 1_302_540,
}
SEVEN_CARD_COUNTS = {
    "straight flush": 41_584,
    "four of a kind": 224_848,
    "full house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three of a kind": 6_461_620,
    "two pair": 31_433_400,
    "one pair": 58_627_800,
    "high card": 23_294_460,
}


@pytest.mark.jit_only
@pytest.mark.parametrize(
    ("n_cards", "hands", "distinct_values", "categories"),
    [
        (5, 2_598_960, 7_462, FIVE_CARD_COUNTS),
        # 133,784,560 hands in a few seconds; results/evaluator_census.json holds the same run.
        (7, 133_784_560, 4_824, SEVEN_CARD_COUNTS),
    ],
)
def test_all_hands_census(n_cards: int, hands: int, distinct_values: int, categories: dict) -> None:
    census = hand_census(n_cards)
    assert census["hands"] == hands
    assert census["distinct_values"] == distinct_values
    assert census["categories"] == categories


@pytest.mark.jit_only
def test_every_five_card_class_matches_reference_order():
    from itertools import combinations

    hands = np.array(list(combinations(range(52), 5)), dtype=np.int8)
    values = evaluate_batch(hands)
    # One representative per class: the reference key must increase strictly with our value.
    classes, first = np.unique(values, return_index=True)
    assert classes.tolist() == list(range(1, 7463))
    keys = [rank_five(tuple(hands[i].tolist())) for i in first]
    assert all(a < b for a, b in itertools.pairwise(keys))
    # And every sampled hand has exactly its class representative's reference key.
    sample = np.random.default_rng(5).choice(len(hands), 50_000, replace=False)
    for i in sample:
        assert rank_five(tuple(hands[i].tolist())) == keys[values[i] - 1]


@pytest.mark.parametrize("n_cards", range(5, 16))
def test_any_number_of_cards_equals_brute_force_over_five_card_subsets(n_cards):
    rng = np.random.default_rng(n_cards)
    hands = [rng.permutation(52)[:n_cards] for _ in range(60 if n_cards < 12 else 15)]
    values = [evaluate(h) for h in hands]
    keys = [best_of(h) for h in hands]
    for i in range(len(hands)):
        for j in range(len(hands)):
            assert (values[i] < values[j]) == (keys[i] < keys[j]), (hands[i], hands[j])
            assert (values[i] == values[j]) == (keys[i] == keys[j])
    # And each N-card value is the best of its own five-card subsets under our evaluator.
    from itertools import combinations

    for hand, value in zip(hands[:5], values[:5], strict=True):
        assert value == max(evaluate(list(s)) for s in combinations(hand.tolist(), 5))


def test_two_flushes_in_eleven_cards_takes_the_better_flush():
    # eval7 (the 2023 River of Blood engine's evaluator) returns the ten-high club flush here;
    # the best hand is the ace-high diamond flush (Ad Td 9d 8d 5d).
    hand = "6c 8d Tc Td 8c 5d 3c Ad 9d 5c 3h"
    assert hand_category(evaluate(hand)) == "flush"
    assert evaluate(hand) == evaluate("Ad Td 9d 8d 5d")
    assert evaluate(hand) > evaluate("Tc 8c 6c 5c 3c")


def test_flush_beside_a_full_house_past_seven_cards():
    # 8+ cards can hold a flush and a full house at once; the full house wins.
    assert hand_category(evaluate("Ah Kh Qh 9h 2h Ac Ad Kc")) == "full house"
    assert hand_category(evaluate("Ah Kh Qh 9h 2h Ac Ad Kc As")) == "four of a kind"


@given(st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True))
@settings(max_examples=300, deadline=None)
def test_fast_path_equals_direct_path(cards):
    array = np.array(cards, dtype=np.int8)
    assert kernels_evaluator.evaluate_hand(array) == kernels_evaluator._evaluate_direct(array)


@pytest.mark.jit_only
def test_one_million_seven_card_hands_agree_with_phevaluator():
    # phevaluator ranks 1 (royal flush) .. 7462 (7-5-4-3-2): exactly our classes reversed.
    phevaluator = pytest.importorskip("phevaluator")
    hands = random_seven_card_hands(1_000_000, seed=2024)
    ours = evaluate_batch(hands)
    rows = hands.tolist()
    theirs = np.fromiter((phevaluator.evaluate_cards(*row) for row in rows), dtype=np.int32, count=len(rows))
    mismatch = np.flatnonzero(ours != 7463 - theirs)
    assert mismatch.size == 0, [" ".join(card_str(c) for c in rows[i]) for i in mismatch[:5]]


def test_seven_card_order_agrees_with_eval7():
    eval7 = pytest.importorskip("eval7")
    hands = random_seven_card_hands(100_000, seed=7)
    ours = evaluate_batch(hands)
    deck = [eval7.Card(card_str(c)) for c in range(52)]
    theirs = np.array([eval7.evaluate([deck[c] for c in row]) for row in hands.tolist()])
    order = np.lexsort((ours, theirs))
    # Sorted by eval7, our values never decrease, and they tie exactly where eval7 ties.
    assert np.all(np.diff(ours[order]) >= 0)
    assert np.array_equal(np.diff(ours[order]) == 0, np.diff(theirs[order]) == 0)


def test_categories_and_errors():
    assert [hand_category(evaluate(h)) for h in ("As Ks Qs Js Ts", "Ah 2d 3c 4s 5h", "2c 3d 4h 5s 7c")] == [
        "straight flush",
        "straight",
        "high card",
    ]
    assert category_index(1) == 0 and category_index(7462) == 8
    assert len(CATEGORY_NAMES) == 9
    with pytest.raises(ValueError, match="at least 5 cards"):
        evaluate("Ah Kd")
    with pytest.raises(ValueError, match="duplicate card 'Ah'"):
        evaluate("Ah Ah Kd Qc Js")
    with pytest.raises(ValueError, match=r"outside 1..7462"):
        hand_category(0)
    with pytest.raises(ValueError, match="row 1 of hands"):
        evaluate_batch(np.array([[0, 1, 2, 3, 4], [0, 0, 2, 3, 4]]))
    with pytest.raises(ValueError, match="k >= 5"):
        evaluate_batch(np.zeros((3, 4), dtype=np.int8))
    assert evaluate_batch(parse_cards("Ah Kh Qh Jh Th").reshape(1, 5)).tolist() == [7462]
