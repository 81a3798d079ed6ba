"""Exact solver games of small-deck N-player limit hold'em (`game.rules.limit`), dealt from a deck of a few cards.

The limit system's exactness test (OpenSpiel's ``universal_poker`` plays the same games,
``solver.games.openspiel_adapter.universal_poker_parameters``) needs games small enough to walk
whole: a few ranks and suits, one or two betting rounds, one hole card. Nothing about the rules is
re-encoded here: the betting tree is `abstraction.bets.limit_tree.build_limit_tree` (the walk of
:class:`game.rules.limit.LimitRound`, button on seat 0), and chance is every deal of ``deck``: each
seat's hole cards (a set, in seat order), then each betting round's board cards (a set), all deals
equally likely. A player's bucket in round ``k`` (the decision's slot) is the index of what they
see there, their hole cards and the boards of rounds ``0..k`` (:attr:`SmallLimitGame.views`). A
showdown's outcome weights are one-hot on the winners among the seats alive there, the best hands
by `game.rules.limit.best_hand` (cards speak, whatever ``cards_speak`` says: the tree stops where
the betting does).

>>> small = build_small_limit_game({"n_players": 3, "hole_cards": 1, "board_cards": (0, 1), "max_raises": 0})
>>> small.game.deals.n_deals, small.game.deals.n_buckets.tolist(), small.game.tree.n_players
(1680, [8, 56], 3)
>>> small.bucket_of(1, "5d", ["2c"]) == small.views[1][((13,), (0,))]
True
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from abstraction.bets.limit_tree import build_limit_tree, showdown_contexts
from abstraction.exact.exact_games import outcome_table, winner_mask
from abstraction.tree import DealTable, SolverGame
from game.cards.deck import format_cards, parse_cards
from game.rules.limit import LimitConfig, best_hand

DEFAULT_DECK = "2c 2d 3c 3d 4c 4d 5c 5d"
"""Four ranks in two suits: no straight or flush fits, every hand is pairs and ranks."""
MAX_DEALS = 2_000_000
"""Deals a small limit game may enumerate (the deal table holds every one)."""

View = tuple[tuple[int, ...], ...]
"""What a player sees in a round: their hole cards, then each round's board cards so far (sorted tuples)."""


@dataclass(frozen=True)
class SmallLimitGame:
    """An exact small-deck limit game: ``game`` (with its deal table), its ``rules`` and ``deck`` (card
    ints), and ``views[k]``: the bucket of each view in round ``k``."""

    game: SolverGame
    rules: LimitConfig
    deck: tuple[int, ...]
    views: tuple[Mapping[View, int], ...]

    def bucket_of(self, round_: int, hole: str | Sequence[int], boards: Sequence[str | Sequence[int]]) -> int:
        """The bucket in round ``round_`` of a player holding ``hole`` who has seen ``boards`` (one
        entry per round from the second; cards as text or ints). KeyError for a view not dealt."""
        view = tuple(tuple(sorted(parse_cards(cards).tolist())) for cards in [hole, *boards])
        return self.views[round_][view]


def build_small_limit_game(
    rules: LimitConfig | Mapping[str, Any], deck: str | Sequence[int] = DEFAULT_DECK
) -> SmallLimitGame:
    """The exact game of ``rules`` (a `LimitConfig` or its fields; chips) dealt from ``deck``.

    ``game.config`` is ``{"rules": {...}, "deck": "..."}`` and rebuilds it:
    ``build_small_limit_game(**game.config)``. Raises ValueError when the deck is too small for a deal,
    has repeated cards, or gives more than :data:`MAX_DEALS` deals (and as `build_limit_tree` does
    when a player could tap out).
    """
    config = rules if isinstance(rules, LimitConfig) else LimitConfig(**dict(rules))
    cards = tuple(parse_cards(deck).tolist())
    if len(set(cards)) != len(cards):
        raise ValueError(f"deck {format_cards(cards)!r} repeats a card")
    n_players, hole_cards, boards = config.n_players, config.hole_cards, config.board_cards[1:]
    needed = n_players * hole_cards + sum(boards)
    if needed > len(cards):
        raise ValueError(f"a deal of {needed} cards does not fit the {len(cards)}-card deck {format_cards(cards)!r}")
    sizes = [hole_cards] * n_players + list(boards)
    n_deals, left = 1, len(cards)
    for size in sizes:
        n_deals *= math.comb(left, size)
        left -= size
    if n_deals > MAX_DEALS:
        raise ValueError(f"the deck {format_cards(cards)!r} gives {n_deals:,} deals, more than MAX_DEALS={MAX_DEALS:,}")
    deals = list(_deals(cards, sizes))
    n_rounds = len(config.board_cards)
    views: list[dict[View, int]] = []
    for k in range(n_rounds):
        seen = sorted({(deal[p], *deal[n_players : n_players + k]) for deal in deals for p in range(n_players)})
        views.append({view: index for index, view in enumerate(seen)})
    n_buckets = np.array([len(round_views) for round_views in views], dtype=np.int32)
    tree = build_limit_tree(config, n_buckets)
    bucket = np.array(
        [
            [[views[k][(deal[p], *deal[n_players : n_players + k])] for k in range(n_rounds)] for p in range(n_players)]
            for deal in deals
        ],
        dtype=np.int32,
    )
    weight = np.zeros((len(deals), tree.weight_columns))
    offset = tree.context_offset
    contexts = showdown_contexts(tree)
    for d, deal in enumerate(deals):
        board = [card for part in deal[n_players:] for card in part]
        strength = [best_hand(deal[p], board, config.must_use_hole_card)[0] for p in range(n_players)]
        for c, alive in enumerate(contexts):
            best = max(strength[p] for p in alive)
            winners = [p for p in alive if strength[p] == best]
            weight[d, offset[c] + outcome_table(alive, n_players)[winner_mask(winners)]] = 1.0
    table = DealTable.equally_likely(bucket, weight, n_buckets)
    rules_dict = {name: getattr(config, name) for name in (f.name for f in dataclasses.fields(LimitConfig))}
    rules_dict["board_cards"] = list(config.board_cards)
    game = SolverGame(
        name=f"small limit {n_players}p",
        tree=tree,
        deals=table,
        config={"rules": rules_dict, "deck": format_cards(cards)},
    )
    return SmallLimitGame(game=game, rules=config, deck=cards, views=tuple(views))


def _deals(deck: tuple[int, ...], sizes: Sequence[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to deal sets of ``sizes`` cards from ``deck`` in turn (sorted tuples, in deck order)."""
    if not sizes:
        yield ()
        return
    for part in itertools.combinations(sorted(deck), sizes[0]):
        rest = tuple(card for card in deck if card not in part)
        for tail in _deals(rest, sizes[1:]):
            yield (part, *tail)


__all__ = ["DEFAULT_DECK", "MAX_DEALS", "SmallLimitGame", "build_small_limit_game"]
