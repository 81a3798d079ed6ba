import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.cards.deck import Deck, card_str, format_cards, make_card, parse_card, parse_cards, rank_of, suit_of


def test_card_layout_is_four_times_rank_plus_suit():
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("Ah") == 4 * 12 + 2
    assert (rank_of(parse_card("Td")), suit_of(parse_card("Td"))) == (8, 1)
    assert make_card(12, 3) == 51


@given(st.integers(0, 51))
def test_text_round_trip(card):
    assert parse_card(card_str(card)) == card


@pytest.mark.parametrize("text", ["1x", "A", "Ahh", "Zz", "", "11h", "A h"])
def test_malformed_card_names_the_input(text):
    with pytest.raises(ValueError, match=repr(text).replace("\\", "\\\\").replace("(", r"\(")):
        parse_card(text)


@pytest.mark.parametrize("text", ["Ah Ah", "Ah,Kd,Ah"])
def test_duplicates_are_refused(text):
    with pytest.raises(ValueError, match="duplicate card 'Ah'"):
        parse_cards(text)


def test_malformed_in_a_list_quotes_card_and_list():
    with pytest.raises(ValueError, match=r"malformed card '1x' in 'Ah 1x'"):
        parse_cards(["Ah", "1x"])
    with pytest.raises(ValueError, match="malformed cards 'AhK'"):
        parse_cards("AhK")


def test_parse_forms_agree_and_are_int8():
    forms = ["Ah Kd 2c", "Ah,Kd,2c", "AhKd2c", ["Ah", "Kd", "2c"], [50, 45, 0]]
    arrays = [parse_cards(f) for f in forms]
    for array in arrays:
        assert array.dtype == np.int8
        assert array.tolist() == [50, 45, 0]
    assert format_cards(arrays[0], sep=",") == "Ah,Kd,2c"


def test_deck_is_seeded_and_deals_distinct_cards():
    first = Deck(seed=11).deal(52)
    again = Deck(seed=11).deal(52)
    other = Deck(seed=12).deal(52)
    assert sorted(first.tolist()) == list(range(52))
    assert first.tolist() == again.tolist()
    assert first.tolist() != other.tolist()
    deck = Deck(seed=1, exclude=[0, 1])
    assert len(deck) == 50 and not {0, 1} & set(deck.deal(50).tolist())
    with pytest.raises(ValueError, match="cannot deal 1 cards: 0 left"):
        deck.deal(1)
