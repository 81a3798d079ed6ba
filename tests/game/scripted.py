"""Test helpers for scripted rounds: card lists from text, a round played through actions, and the
recorded official-engine transcripts."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from game.cards.deck import parse_cards
from game.rules.actions import Action

RoundT = TypeVar("RoundT", bound=Any)

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "data" / "transcripts"
"""``tests/data/transcripts/<year>/``: both players' files of one recorded engine match per year."""


def cards(text: str) -> list[int]:
    """The card indices of ``text`` (``"Ah Kd"``), in order."""
    return parse_cards(text).tolist()


def card_tuple(text: str) -> tuple[int, ...]:
    """The card indices of ``text`` as a tuple, as the wire protocol's clauses hold them."""
    return tuple(cards(text))


def play(round_: RoundT, actions: str) -> RoundT:
    """``round_`` after applying each space-separated action of ``actions`` (``"R4 C K"``) in turn."""
    for text in actions.split():
        round_.apply(Action.parse(text))
    return round_
