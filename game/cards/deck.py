"""Cards as small integers, their text form, and a seeded deck.

A card is an int ``4 * rank + suit`` in 0..51, rank 0 = deuce … 12 = ace, suit 0..3 = c d h s,
the order the MIT Pokerbots engines print (``"Ah"``, ``"Td"``). Arrays of cards are ``np.int8``.

>>> parse_cards("Ah Kd")
array([50, 45], dtype=int8)
>>> format_cards(parse_cards("2c,Ts"))
'2c Ts'
>>> parse_card("1x")
Traceback (most recent call last):
...
ValueError: malformed card '1x': expected a rank in '23456789TJQKA' and a suit in 'cdhs', e.g. 'Ah'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from game.cards.rng import SeedLike, as_generator

RANKS = "23456789TJQKA"
SUITS = "cdhs"
N_CARDS = 52
N_RANKS = 13
N_SUITS = 4

CardsLike = str | Sequence[int] | np.ndarray
"""Cards as text (``"Ah Kd"``, see :func:`parse_cards`) or as card ints 0..51."""

_CARD_TEXT = re.compile(r"[2-9TJQKA][cdhs]")


def rank_of(card: int) -> int:
    """Rank 0..12 (deuce..ace) of a card int."""
    return int(card) >> 2


def suit_of(card: int) -> int:
    """Suit 0..3 (c, d, h, s) of a card int."""
    return int(card) & 3


def make_card(rank: int, suit: int) -> int:
    """Card int from rank 0..12 and suit 0..3; raises ValueError on anything else."""
    if not (0 <= rank < N_RANKS and 0 <= suit < N_SUITS):
        raise ValueError(f"no card with rank {rank!r} and suit {suit!r}: rank is 0..12, suit 0..3")
    return 4 * rank + suit


def parse_card(text: str) -> int:
    """Parse one card such as ``"Ah"`` (rank ``23456789TJQKA``, suit ``cdhs``; ``10`` for ten accepted).

    >>> parse_card("Td"), parse_card("10d"), parse_card("2c")
    (33, 33, 0)
    """
    if not isinstance(text, str):
        raise TypeError(f"a card is text such as 'Ah', got {text!r}")
    cleaned = text.strip()
    if cleaned.startswith("10"):
        cleaned = "T" + cleaned[2:]
    if len(cleaned) == 2:
        cleaned = cleaned[0].upper() + cleaned[1].lower()
    if not _CARD_TEXT.fullmatch(cleaned):
        raise ValueError(f"malformed card {text!r}: expected a rank in {RANKS!r} and a suit in {SUITS!r}, e.g. 'Ah'")
    return 4 * RANKS.index(cleaned[0]) + SUITS.index(cleaned[1])


def card_str(card: int) -> str:
    """Text of one card int, e.g. ``50 -> 'Ah'``."""
    value = int(card)
    if not 0 <= value < N_CARDS:
        raise ValueError(f"no card {card!r}: a card int is 0..51")
    return RANKS[value >> 2] + SUITS[value & 3]


def parse_cards(text: str | Iterable[str | int], *, allow_duplicates: bool = False) -> np.ndarray:
    """Parse several cards into an ``np.int8`` array.

    Accepts ``"Ah Kd"``, ``"Ah,Kd"``, ``"AhKd"``, a list of card texts, or a list of card ints.
    Duplicates are refused unless ``allow_duplicates``.

    >>> parse_cards("AhKd").tolist(), parse_cards(["2c", 51]).tolist()
    ([50, 45], [0, 51])
    >>> parse_cards("Ah Ah")
    Traceback (most recent call last):
    ...
    ValueError: duplicate card 'Ah' in 'Ah Ah'
    """
    if isinstance(text, str):
        stripped = re.sub(r"[\s,]+", "", text)
        if len(stripped) % 2:
            # Accept "10h" spelled out by normalising it first.
            stripped = stripped.replace("10", "T")
        if len(stripped) % 2:
            raise ValueError(f"malformed cards {text!r}: expected two characters per card, e.g. 'Ah Kd'")
        tokens: list[str | int] = [stripped[i : i + 2] for i in range(0, len(stripped), 2)]
        source = text
    else:
        tokens = list(text)
        source = " ".join(str(t) for t in tokens)
    cards = np.empty(len(tokens), dtype=np.int8)
    for i, token in enumerate(tokens):
        if isinstance(token, (int, np.integer)):
            if not 0 <= int(token) < N_CARDS:
                raise ValueError(f"no card {token!r} in {source!r}: a card int is 0..51")
            cards[i] = int(token)
        else:
            try:
                cards[i] = parse_card(token)
            except ValueError:
                raise ValueError(
                    f"malformed card {token!r} in {source!r}: expected a rank in {RANKS!r} "
                    f"and a suit in {SUITS!r}, e.g. 'Ah'"
                ) from None
    if not allow_duplicates:
        seen: set[int] = set()
        for card in cards.tolist():
            if card in seen:
                raise ValueError(f"duplicate card {card_str(card)!r} in {source!r}")
            seen.add(card)
    return cards


def format_cards(cards: Iterable[int], sep: str = " ") -> str:
    """Text of several card ints, ``sep``-separated (the engines use ``","``)."""
    return sep.join(card_str(c) for c in cards)


class Deck:
    """A 52-card deck shuffled by a seeded ``numpy.random.Generator``.

    >>> deck = Deck(seed=7)
    >>> hand = deck.deal(2)
    >>> len(deck), hand.dtype
    (50, dtype('int8'))
    """

    def __init__(self, seed: SeedLike = None, *, exclude: Iterable[int] = ()) -> None:
        self._rng = as_generator(seed)
        excluded = {int(c) for c in exclude}
        self._cards = np.array([c for c in range(N_CARDS) if c not in excluded], dtype=np.int8)
        self._rng.shuffle(self._cards)
        self._next = 0

    def __len__(self) -> int:
        return len(self._cards) - self._next

    def deal(self, n: int) -> np.ndarray:
        """Deal ``n`` cards from the top; raises ValueError if fewer remain."""
        if n < 0 or n > len(self):
            raise ValueError(f"cannot deal {n} cards: {len(self)} left in the deck")
        out = self._cards[self._next : self._next + n].copy()
        self._next += n
        return out

    def remaining(self) -> np.ndarray:
        """The undealt cards, in deal order."""
        return self._cards[self._next :].copy()
