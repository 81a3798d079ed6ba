"""River of Blood Hold'em (MIT Pokerbots 2023): while the last board card is red, another run card.

After the river, while the last dealt board card is a diamond or a heart another "run" card is
dealt, each followed by a full betting round (big blind first); streets are numbered 6, 7, ....
The showdown uses every board card. The document sets no cap but the deck; the 2023 engine caps
the board at 48 cards (the deck after the hole cards). Neither binds: with 26 red cards a board
holds at most 31 cards (flop, turn, 26 reds, one black), so ``rules`` changes nothing here.
``max_board_cards`` can lower the cap (e.g. for small abstract games).

>>> from game.rules.chance import ScriptedChance
>>> from game.cards.deck import format_cards, parse_cards
>>> deck = parse_cards("Ah Ad 6c 6h 2s 7s 9c Jc 3h 4d 5s").tolist()
>>> round_ = RiverOfBloodRound(RiverOfBloodConfig(), ScriptedChance(deck))
>>> round_.apply(Action.raise_to(400)); round_.apply(Action.call())
>>> format_cards(round_.board), round_.street, round_.payoffs().tolist()  # the 5s run card: 3-7 straight
('2s 7s 9c Jc 3h 4d 5s', 7, [-400, 400])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from game.rules.actions import Action
from game.rules.chance import UNKNOWN_CARD
from game.rules.nolimit import RIVER, NoLimitConfig, NoLimitRound, _check_int

__all__ = ["Action", "RiverOfBloodConfig", "RiverOfBloodRound"]

_RED_SUITS = (1, 2)  # diamonds, hearts (suits are c d h s = 0 1 2 3)


@dataclass(frozen=True)
class RiverOfBloodConfig(NoLimitConfig):
    """River of Blood Hold'em: stack 400, blinds 1/2, runs while the last card is red.

    >>> RiverOfBloodConfig(max_board_cards=49)
    Traceback (most recent call last):
    ...
    ValueError: max_board_cards must be in 5..48 (52 cards minus 4 hole cards), got 49
    """

    max_board_cards: int = 48
    """Most board cards (flop + turn + river + runs); 48 = the whole remaining deck."""

    variant: ClassVar[str] = "river_of_blood"
    has_run_cards: ClassVar[bool] = True

    @property
    def board_card_cap(self) -> int:
        """Most board cards a round can show: ``max_board_cards``."""
        return self.max_board_cards

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_int("max_board_cards", self.max_board_cards, 5)
        if self.max_board_cards > 48:
            raise ValueError(
                f"max_board_cards must be in 5..48 (52 cards minus 4 hole cards), got {self.max_board_cards!r}"
            )


class RiverOfBloodRound(NoLimitRound):
    """One round of River of Blood Hold'em."""

    __slots__ = ()

    def _has_next_street(self) -> bool:
        if self._street < RIVER:
            return True
        if len(self._board) >= self.config.max_board_cards:
            return False
        last = self._board[-1]
        if last == UNKNOWN_CARD:
            raise ValueError("cannot tell whether a run follows: the last board card is unknown (-1)")
        return (last & 3) in _RED_SUITS
