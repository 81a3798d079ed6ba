"""Actions, the error for illegal ones, and the bot interface shared by every variant.

Amounts are chips. A raise carries the *raise-to* total of the raiser's pip for the street,
as the Pokerbots engines use; a bid carries the chips bid.

>>> Action.raise_to(12)
Action(kind=<ActionKind.RAISE: 3>, amount=12)
>>> str(Action.raise_to(12)), str(Action.call())
('R12', 'C')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple, Protocol, runtime_checkable


class ActionKind(IntEnum):
    """What a player does at a decision."""

    FOLD = 0
    """Give up the pot."""
    CHECK = 1
    """Pass with nothing to call."""
    CALL = 2
    """Match the opponent's pip."""
    RAISE = 3
    """Bet or raise; ``amount`` is the raise-to total for the street."""
    BID = 4
    """Auction bid; ``amount`` is the chips bid."""
    ANNOUNCE = 5
    """Announce a showdown hand (N-player limit game, announced-hands mode); ``cards`` holds it."""
    MUCK = 6
    """Concede at an announced showdown without showing."""


_LETTER = {
    ActionKind.FOLD: "F",
    ActionKind.CHECK: "K",
    ActionKind.CALL: "C",
    ActionKind.RAISE: "R",
    ActionKind.BID: "A",
    ActionKind.ANNOUNCE: "S",
    ActionKind.MUCK: "M",
}


@dataclass(frozen=True)
class Action:
    """One player action. ``amount`` is chips (raise-to for RAISE, the bid for BID)."""

    kind: ActionKind
    amount: int = 0
    cards: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, ActionKind):
            raise TypeError(f"action kind must be an ActionKind, got {self.kind!r}")
        if self.amount < 0:
            raise ValueError(f"action amount must be >= 0 chips, got {self.amount!r}")

    def __repr__(self) -> str:
        if self.cards:
            return f"Action(kind={self.kind!r}, cards={self.cards!r})"
        return f"Action(kind={self.kind!r}, amount={self.amount!r})"

    def __str__(self) -> str:
        letter = _LETTER[self.kind]
        if self.kind in (ActionKind.RAISE, ActionKind.BID):
            return f"{letter}{self.amount}"
        if self.kind is ActionKind.ANNOUNCE:
            from game.cards.deck import format_cards

            return f"{letter}{format_cards(self.cards, sep=',')}"
        return letter

    @classmethod
    def fold(cls) -> Action:
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return cls(ActionKind.CALL)

    @classmethod
    def raise_to(cls, amount: int) -> Action:
        return cls(ActionKind.RAISE, int(amount))

    @classmethod
    def bid(cls, amount: int) -> Action:
        return cls(ActionKind.BID, int(amount))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the compact text form (``F K C R12 A30 M``; ``S`` + cards for announce).

        >>> Action.parse("R12"), Action.parse("K")
        (Action(kind=<ActionKind.RAISE: 3>, amount=12), Action(kind=<ActionKind.CHECK: 1>, amount=0))
        >>> Action.parse("X")
        Traceback (most recent call last):
        ...
        ValueError: malformed action 'X': expected F, K, C, R<chips>, A<chips>, M or S<cards>
        """
        message = f"malformed action {text!r}: expected F, K, C, R<chips>, A<chips>, M or S<cards>"
        if not isinstance(text, str) or not text:
            raise ValueError(message)
        head, rest = text[0].upper(), text[1:]
        simple = {"F": ActionKind.FOLD, "K": ActionKind.CHECK, "C": ActionKind.CALL, "M": ActionKind.MUCK}
        if head in simple and not rest:
            return cls(simple[head])
        if head in ("R", "A") and rest.isdigit():
            return cls(ActionKind.RAISE if head == "R" else ActionKind.BID, int(rest))
        if head == "S" and rest:
            from game.cards.deck import parse_cards

            return cls(ActionKind.ANNOUNCE, cards=tuple(int(c) for c in parse_cards(rest)))
        raise ValueError(message)


class Move(NamedTuple):
    """One action in a round's history: who, on which street, what."""

    seat: int
    street: int
    action: Action

    def __str__(self) -> str:
        return f"{self.seat}:{self.action}"


class IllegalActionError(ValueError):
    """An action the rules do not allow here; the message names the action and what was legal."""


@runtime_checkable
class Bot(Protocol):
    """Anything that plays: sees an observation, returns an action.

    ``observation`` is the variant's observation dataclass (only what that seat may know).
    """

    name: str

    def act(self, observation: Any) -> Action: ...


Policy = tuple[tuple[Action, float], ...]
"""A finite distribution over concrete legal actions: ``(action, probability)`` pairs, each action
once, probabilities > 0 summing to 1."""


@runtime_checkable
class PolicyBot(Bot, Protocol):
    """A bot that can say how it would play without playing: full-game LBR, AIVAT and the strategy
    browser read ``policy``.

    ``policy(observation)`` gives the distribution ``act(observation)`` samples from, through the
    same code path (translation, rounding, fallbacks), and changes no state of the bot: calling it
    any number of times, for any observation of the seat to act, leaves later ``act`` calls as they
    were.
    """

    def policy(self, observation: Any) -> Policy: ...
