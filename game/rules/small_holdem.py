"""Small-deck fixed-limit hold'em: the Leduc betting machine with two hole cards and a poker showdown.

A research game small enough to solve exactly (see :mod:`abstraction.exact.small_deck`): a deck of a few
ranks in a few suits; each player antes and gets ``hole_cards`` private cards; betting round 1;
then ``board_cards[1]`` public cards (a flop of three by default); betting round 2 (more rounds if
``board_cards`` lists more). Betting is fixed-limit exactly as in :mod:`game.rules.leduc` (one raise size
per round, ``max_raises`` per round, player 0 acts first every round). At showdown each player's
best five-card poker hand from hole and public cards (:func:`game.cards.evaluator.evaluate`) wins; equal
hands split the pot. Only the card dealing and the showdown differ from Leduc, so only they are
written here; the betting is inherited.

Chips as in Leduc: commitments include the ante, raises carry the raise-to total of the street's pip.

>>> from game.rules.actions import Action
>>> from game.cards.deck import parse_cards
>>> config = SmallHoldemConfig()
>>> config.deck_text(), config.cards_per_deal
('Qh Qs Qd Kh Ks Kd Ah As Ad', 7)
>>> hand = SmallHoldemRound(config, parse_cards("Ah Kh  As Qd  Ks Qh Ad"))
>>> for text in ["R2", "C", "K", "K"]:
...     hand.apply(Action.parse(text))
>>> format_cards(hand.board), hand.visible_cards(0) == tuple(parse_cards("Kh Ah Qh Ks Ad"))
('Ks Qh Ad', True)
>>> hand.payoffs()  # aces and kings (player 0) beat aces and queens
(3.0, -3.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.cards.deck import format_cards
from game.cards.evaluator import evaluate
from game.rules.leduc import LeducConfig, LeducRound

__all__ = ["SmallHoldemConfig", "SmallHoldemRound"]

FIVE_CARD_HAND = 5


@dataclass(frozen=True)
class SmallHoldemConfig(LeducConfig):
    """Rules of small-deck fixed-limit hold'em (a :class:`~game.rules.leduc.LeducConfig` plus ``hole_cards``).

    Defaults: ranks Q K A in three suits (9 cards), ante 1 chip, raises of 2 then 4 chips, at most
    2 raises per round, a three-card flop before round 2. A showdown needs five cards, so
    ``hole_cards + sum(board_cards)`` must be at least 5.

    >>> SmallHoldemConfig(board_cards=(0, 2))
    Traceback (most recent call last):
    ...
    ValueError: a showdown needs 5 cards but hole_cards 2 + board_cards (0, 2) give 4
    """

    ranks: str = "QKA"
    suits: str = "hsd"
    board_cards: tuple[int, ...] = (0, 3)
    hole_cards: int = 2

    def __post_init__(self) -> None:
        if not isinstance(self.hole_cards, int) or self.hole_cards < 1:
            raise ValueError(f"hole_cards must be an int >= 1, got {self.hole_cards!r}")
        super().__post_init__()
        if self.players != 2:
            raise ValueError(f"small-deck hold'em is heads-up: players must be 2, got {self.players!r}")
        if self.hole_cards + sum(self.board_cards) < FIVE_CARD_HAND:
            raise ValueError(
                f"a showdown needs {FIVE_CARD_HAND} cards but hole_cards {self.hole_cards} + board_cards "
                f"{self.board_cards!r} give {self.hole_cards + sum(self.board_cards)}"
            )

    @property
    def cards_per_deal(self) -> int:
        """Cards chance deals per round: ``hole_cards`` per player, then the public cards."""
        return 2 * self.hole_cards + sum(self.board_cards)

    def to_dict(self) -> dict[str, object]:
        """JSON-serialisable form; :meth:`from_dict` rebuilds it."""
        return {**super().to_dict(), "hole_cards": self.hole_cards}


class SmallHoldemRound(LeducRound):
    """One hand of :class:`SmallHoldemConfig` hold'em.

    ``cards`` (scripted or dealt) are player 0's hole cards, player 1's, then the public cards in
    the order they are revealed.
    """

    config: SmallHoldemConfig

    def __init__(self, config: SmallHoldemConfig, cards: Sequence[int] | np.ndarray) -> None:
        if not isinstance(config, SmallHoldemConfig):
            raise TypeError(f"config must be a SmallHoldemConfig, got {config!r}")
        super().__init__(config, cards)

    def hole(self, player: int) -> tuple[int, ...]:
        """``player``'s hole cards, lowest card int first."""
        count = self.config.hole_cards
        return tuple(sorted(self.cards[player * count : (player + 1) * count]))

    def private_card(self, player: int) -> int:
        """Not defined with several hole cards: raises ``NotImplementedError`` (use :meth:`hole`)."""
        raise NotImplementedError(f"small hold'em deals {self.config.hole_cards} hole cards; use hole({player})")

    @property
    def board(self) -> tuple[int, ...]:
        """Public cards revealed so far, in the order dealt."""
        revealed = sum(self.config.board_cards[: self.street + 1])
        start = 2 * self.config.hole_cards
        return self.cards[start : start + revealed]

    def visible_cards(self, player: int) -> tuple[int, ...]:
        """What ``player`` has seen of chance: sorted hole cards, then each revealed street's cards sorted.

        Sorting within a group drops the dealing order, which no player can observe.
        """
        seen = list(self.hole(player))
        start = 2 * self.config.hole_cards
        for count in self.config.board_cards[: self.street + 1]:
            seen += sorted(self.cards[start : start + count])
            start += count
        return tuple(seen)

    def hand_strength(self, player: int) -> int:  # type: ignore[override]
        """Showdown value (:func:`game.cards.evaluator.evaluate`, higher wins) of hole plus revealed public cards."""
        return evaluate(list(self.hole(player)) + list(self.board))

    def __repr__(self) -> str:
        return (
            f"SmallHoldemRound(cards={format_cards(self.cards)!r}, history={self.history_string()!r}, "
            f"to_act={self.to_act!r}, committed={self.committed!r})"
        )
