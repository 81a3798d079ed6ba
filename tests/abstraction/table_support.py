"""Test helper: the bucket a card abstraction's own tables hold, before the lookup's fallback."""

from __future__ import annotations

import numpy as np

from abstraction.cards.buckets import CardAbstraction
from abstraction.cards.kernels_buckets import card_bucket
from game.cards.deck import parse_cards


def table_bucket(abstraction: CardAbstraction, hole: str | list[int], board: str | list[int]) -> int:
    """The table entry of ``hole`` on ``board``: `abstraction.cards.kernels_buckets.UNSET` on a flop or
    turn class the build did not reach (where `CardAbstraction.bucket` falls back on strength)."""
    hole_cards = parse_cards(hole if isinstance(hole, str) else np.asarray(hole).tolist())
    board_cards = parse_cards(board if isinstance(board, str) else np.asarray(board).tolist())
    cards = np.concatenate([hole_cards, board_cards]).astype(np.int64)
    scratch, card_scratch = np.zeros((5, 4), np.int64), np.empty(cards.shape[0] + 1, np.int8)
    return int(card_bucket(cards, hole_cards.shape[0], *abstraction.kernel_arguments(), scratch, card_scratch))
