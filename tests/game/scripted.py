"""Test helpers for scripted rounds: card lists from text, and a round played through actions."""

from __future__ import annotations

from typing import Any, TypeVar

from game.cards.deck import parse_cards
from game.rules.actions import Action

RoundT = TypeVar("RoundT", bound=Any)


def cards(text: str) -> list[int]:
    """The card indices of ``text`` (``"Ah Kd"``), in order."""
    return parse_cards(text).tolist()


def play(round_: RoundT, actions: str) -> RoundT:
    """``round_`` after applying each space-separated action of ``actions`` (``"R4 C K"``) in turn."""
    for text in actions.split():
        round_.apply(Action.parse(text))
    return round_
