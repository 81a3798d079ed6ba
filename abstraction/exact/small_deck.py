"""Small-deck hold'em (:mod:`game.rules.small_holdem`) as an exact solver game, for measuring card abstractions.

Built the way :mod:`abstraction.exact.exact_games` builds Kuhn and Leduc: the betting tree is the
breadth-first walk of the rules engine (:class:`game.rules.small_holdem.SmallHoldemRound`; betting does
not depend on the cards, so one walk serves every deal), chance is a table of every deal. Deals
are enumerated as combinations (hole cards of player 0, of player 1, then each street's public
cards; the order inside a group is unobservable), each equally likely. A player's bucket on a
street is the dense index of their view there (sorted hole cards, then each revealed street's cards
sorted), optionally up to suit isomorphism: two views are one bucket when a permutation of the
suits maps one onto the other. That is lossless (suit-symmetric games have suit-symmetric
equilibria and best responses; ``tests/abstraction/test_small_deck.py`` checks the exploitability
agrees with the raw game) and lets :func:`abstraction.exact.lifting.merge_deals` fold the deals of an orbit
into one. Each deal's showdown outcome (the weight row of the one showdown context: player 0 wins,
split, player 1 wins) is computed by :func:`game.cards.evaluator.evaluate_batch`, the evaluator the rules
engine's showdown uses (a test replays deals through the engine to compare); terminal payoffs come
from the engine as in :func:`abstraction.exact.exact_games.walk_betting`.

>>> small = build_small_deck_game()
>>> small.raw_deals, small.game.deals.n_deals  # C(9,2) * C(7,2) * C(5,3) deals, merged per suit class
(7560, 1254)
>>> small.game.deals.n_buckets.tolist(), small.game.tree.n_nodes
([9, 225], 85)
>>> [small.describe(0, b) for b in range(4)]  # preflop: 3 pairs, 3 suited and 3 offsuit hands
['Qh Qs', 'Qd Kd', 'Qd Kh', 'Kh Ks']
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from abstraction.exact.exact_games import outcome_table, showdown_contexts, walk_betting
from abstraction.exact.lifting import merge_deals
from abstraction.tree import DealTable, FlatTree, SolverGame
from game.cards.deck import CardsLike, format_cards, parse_cards
from game.cards.evaluator import evaluate_batch
from game.rules.small_holdem import SmallHoldemConfig, SmallHoldemRound

MAX_CODE_BITS = 62
"""A view is coded as one bit mask of deck positions per card group; the groups must fit in an int64."""


@dataclass(frozen=True, eq=False)
class SmallDeckGame:
    """The exact solver game plus what a card abstraction needs to name its buckets.

    ``game``: the :class:`~abstraction.tree.SolverGame` (deals merged per bucket tuple). ``rules``:
    its :class:`~game.rules.small_holdem.SmallHoldemConfig`. ``views[s]``: int8 ``(n_buckets[s],
    n_visible_cards[s])``, one view (card ints) per bucket of street ``s`` (a representative of the
    suit class when ``suit_isomorphism``). ``view_codes[s]``: int64 ``(n_buckets[s],)`` sorted, the
    code of each bucket's view class (see :meth:`bucket_of`). ``raw_deals``: deals before merging.
    """

    game: SolverGame
    rules: SmallHoldemConfig
    views: tuple[np.ndarray, ...]
    view_codes: tuple[np.ndarray, ...]
    suit_isomorphism: bool
    raw_deals: int

    def bucket_of(self, street: int, cards: CardsLike) -> int:
        """The bucket of a real view on ``street``: hole cards, then the public cards revealed so far (any order
        within the hole cards and within each street's cards).

        >>> small = build_small_deck_game()
        >>> small.bucket_of(0, "As Ah") == small.bucket_of(0, "Ad Ah")
        True
        >>> small.describe(1, small.bucket_of(1, "Kh Ah Qh Ks Ad"))  # the suit class's representative
        'Kd Ad Qd Kh As'
        >>> small.bucket_of(0, "Ah 2c")
        Traceback (most recent call last):
        ...
        ValueError: cards 'Ah 2c' are not a view of street 0 on the deck 'Qh Qs Qd Kh Ks Kd Ah As Ad' (2 distinct deck cards)
        """
        config = self.rules
        if not 0 <= street < config.n_streets:
            raise ValueError(f"street must be 0..{config.n_streets - 1}, got {street!r}")
        card_ints = [int(c) for c in (parse_cards(cards) if isinstance(cards, str) else cards)]
        deck = list(config.deck())
        expected = config.hole_cards + sum(config.board_cards[: street + 1])
        if len(card_ints) != expected or len(set(card_ints)) != expected or not set(card_ints) <= set(deck):
            raise ValueError(
                f"cards {format_cards(card_ints)!r} are not a view of street {street} on the deck "
                f"{config.deck_text()!r} ({expected} distinct deck cards)"
            )
        row = np.array([[deck.index(c) for c in card_ints]], dtype=np.int8)
        hole = config.hole_cards
        board = [row[:, columns - hole] for columns in _board_groups(config, street)]
        code = _view_codes([row[:, :hole], *board], config.deck_size, len(config.suits), self.suit_isomorphism)
        index = int(np.searchsorted(self.view_codes[street], code[0]))
        if index == len(self.view_codes[street]) or self.view_codes[street][index] != code[0]:
            raise ValueError(f"cards {format_cards(card_ints)!r} are no view of this game's deals on street {street}")
        return index

    def describe(self, street: int, bucket: int) -> str:
        """Text of the view of ``bucket`` on ``street`` (hole cards, then public cards)."""
        if not 0 <= street < len(self.views) or not 0 <= bucket < len(self.views[street]):
            raise ValueError(
                f"no bucket {bucket!r} on street {street!r}; buckets per street {[len(v) for v in self.views]}"
            )
        return format_cards(self.views[street][bucket].tolist())


def small_holdem_rules(rules: Mapping[str, Any] | SmallHoldemConfig | None = None) -> SmallHoldemConfig:
    """``rules`` as a config: a config as is, a mapping as overrides of the default rules."""
    if isinstance(rules, SmallHoldemConfig):
        return rules
    if rules is not None and not isinstance(rules, Mapping):
        raise TypeError(f"rules must be a SmallHoldemConfig or a mapping of its fields, got {rules!r}")
    merged = {**SmallHoldemConfig().to_dict(), **dict(rules or {})}
    return SmallHoldemConfig.from_dict(merged)  # type: ignore[return-value]


def build_small_deck_game(
    rules: Mapping[str, Any] | SmallHoldemConfig | None = None, *, suit_isomorphism: bool = True
) -> SmallDeckGame:
    """The exact small-deck hold'em game; ``game.config`` rebuilds it via ``build_small_deck_game(**config)``.

    Memory: the raw deals (``C(n, h) * C(n - h, h) * ...`` rows of ``cards_per_deal`` int8 plus
    a few int64 columns) exist while building; 15 cards with a flop make 1,351,350 of them.
    """
    config = small_holdem_rules(rules)
    n_cards = config.deck_size
    groups = [config.hole_cards, config.hole_cards, *[count for count in config.board_cards if count]]
    if n_cards * (len(groups) - 1) > MAX_CODE_BITS:
        raise ValueError(
            f"a deck of {n_cards} cards with {len(groups) - 1} card groups per view is too large "
            f"for this exact builder (views are coded in {MAX_CODE_BITS} bits)"
        )
    positions = _enumerate_deals(n_cards, groups)
    deck = np.array(config.deck(), dtype=np.int8)
    bucket, codes, views = _view_buckets(config, positions, deck, suit_isomorphism)
    n_buckets = np.array([len(v) for v in views], dtype=np.int32)
    tree = walk_betting(SmallHoldemRound(config, deck[positions[0]]), n_buckets)
    raw = DealTable.equally_likely(bucket, _showdown_weight(tree, deck[positions], config.hole_cards), n_buckets)
    deals = merge_deals(raw)
    game = SolverGame(
        name="small_holdem",
        tree=tree,
        deals=deals,
        config={"rules": config.to_dict(), "suit_isomorphism": bool(suit_isomorphism)},
    )
    return SmallDeckGame(
        game=game,
        rules=config,
        views=tuple(views),
        view_codes=tuple(codes),
        suit_isomorphism=bool(suit_isomorphism),
        raw_deals=len(positions),
    )


def _enumerate_deals(n_cards: int, groups: list[int]) -> np.ndarray:
    """Every deal as deck positions, int8 ``(n_deals, sum(groups))``: disjoint sorted combinations per group."""
    rows = np.zeros((1, 0), dtype=np.int8)
    used = np.zeros(1, dtype=np.int64)
    for count in groups:
        combos = np.array(list(itertools.combinations(range(n_cards), count)), dtype=np.int8)
        combo_mask = (np.int64(1) << combos.astype(np.int64)).sum(axis=1)
        row, combo = np.nonzero((used[:, None] & combo_mask[None, :]) == 0)
        rows = np.concatenate([rows[row], combos[combo]], axis=1)
        used = used[row] | combo_mask[combo]
    return rows


def _board_groups(config: SmallHoldemConfig, street: int) -> list[np.ndarray]:
    """Columns of the deal array of each public-card group revealed by ``street`` (streets dealing none skipped)."""
    groups, start = [], 2 * config.hole_cards
    for count in config.board_cards[: street + 1]:
        if count:
            groups.append(np.arange(start, start + count))
        start += count
    return groups


def _view_codes(groups: list[np.ndarray], n_cards: int, n_suits: int, suit_isomorphism: bool) -> np.ndarray:
    """int64 ``(rows,)``: each view coded as its groups' position bit masks side by side (hole cards first),
    the smallest code over all suit permutations when ``suit_isomorphism``. ``groups[j]`` is ``(rows, count_j)``."""
    suit_maps = itertools.permutations(range(n_suits)) if suit_isomorphism else [tuple(range(n_suits))]
    best = None
    for suit_map in suit_maps:
        relabel = (np.arange(n_cards) // n_suits) * n_suits + np.array(suit_map)[np.arange(n_cards) % n_suits]
        code = np.zeros(len(groups[0]), dtype=np.int64)
        for j, group in enumerate(groups):
            code |= (np.int64(1) << relabel[group].astype(np.int64)).sum(axis=1) << np.int64(n_cards * j)
        best = code if best is None else np.minimum(best, code)
    return best  # type: ignore[return-value]


def _view_buckets(
    config: SmallHoldemConfig, positions: np.ndarray, deck: np.ndarray, suit_isomorphism: bool
) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """Per deal, player and street the bucket (int32); per street the sorted view codes and one view per bucket."""
    n_cards, n_suits, hole = config.deck_size, len(config.suits), config.hole_cards
    bucket = np.empty((len(positions), 2, config.n_streets), dtype=np.int32)
    codes, views = [], []
    for street in range(config.n_streets):
        board = [positions[:, columns] for columns in _board_groups(config, street)]
        per_player = [
            _view_codes([positions[:, p * hole : (p + 1) * hole], *board], n_cards, n_suits, suit_isomorphism)
            for p in range(2)
        ]
        unique, first, inverse = np.unique(
            np.stack(per_player, axis=1).reshape(-1), return_index=True, return_inverse=True
        )
        bucket[:, :, street] = inverse.reshape(-1, 2)
        deal, player = np.divmod(first, 2)
        hole_columns = player[:, None] * hole + np.arange(hole)[None, :]
        seen = np.concatenate([positions[deal[:, None], hole_columns], *(b[deal] for b in board)], axis=1)
        codes.append(unique)
        views.append(deck[seen])
    return bucket, codes, views


def _showdown_weight(tree: FlatTree, cards: np.ndarray, hole_cards: int) -> np.ndarray:
    """float64 ``[n_deals, W]``: per showdown context of ``tree``, one-hot on the deal's winners among the players
    left (equal hands split); ``cards`` are card ints, each player's hole cards then the board."""
    board = cards[:, 2 * hole_cards :]
    strength = np.stack(
        [
            evaluate_batch(
                np.concatenate([cards[:, p * hole_cards : (p + 1) * hole_cards], board], axis=1), check=False
            )
            for p in range(2)
        ],
        axis=1,
    )
    weight = np.zeros((len(cards), tree.weight_columns))
    deals = np.arange(len(cards))
    for c, alive in enumerate(showdown_contexts(tree)):
        best = strength[:, list(alive)].max(axis=1)
        mask = sum((strength[:, p] == best).astype(np.int64) << p for p in alive)
        weight[deals, tree.context_offset[c] + outcome_table(alive, tree.n_players)[mask]] = 1.0
    return weight
