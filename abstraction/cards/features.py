"""Card features for bucketing: hand strength, E[HS], E[HS²], equity histograms, variant extras.

*Hand strength* (HS) is the share of a uniform opponent's holdings a hand beats on a board (ties
count half). *E[HS]* and *E[HS²]* average HS and HS² over the rest of the deal (the board up to
the river, plus the variant's chance events), and the *equity histogram* is the distribution of
that final HS over ``n_bins`` equal-width bins of [0, 1]. E[HS] is the all-in equity against a
random hand.

Exact where enumeration is affordable (every runout from the flop or turn, every opponent holding),
Monte Carlo otherwise, with the sample size returned in the result: preflop, Swap (swaps),
River of Blood (run cards), Auction (the third card). `all_hands_features` computes a whole board
at once (1,326 hands, exact) and is what the abstraction builder uses; `swap_flop_moments` is its
Swap counterpart on a flop (E[HS], E[HS²] of all hands, exact over the turn swap), what a Swap
card abstraction clusters flop hands on.

>>> round(hand_features("AsKd", "Qh7d2c").ehs, 4)  # exact over 1,081 runouts
0.5565
>>> round(hand_strength("AsKd", "Qh7d2cJs9s"), 4)
0.3641
>>> f = all_hands_features("Qh7d2c")
>>> f.ehs.shape, round(float(f.ehs[hand_index("AsKd")]), 4)
((1326,), 0.5565)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from abstraction.cards.kernels_buckets import _flop_strength_table, _swap_flop_moments
from abstraction.cards.kernels_features import (
    HAND_CARDS,
    HAND_OF_PAIR,
    N_HANDS,
    _board_strengths,
    _boards_features,
    _hand_outcomes,
    _runout_strengths,
    _strength_vs_range,
    _summarize_runouts,
)
from game.cards.deck import format_cards, parse_cards
from game.cards.rng import SeedLike, as_generator, kernel_seed
from game.rules.nolimit import NoLimitConfig

DEFAULT_BINS = 50
DEFAULT_SAMPLES = 2_000
"""Default Monte Carlo futures per hand; the standard error of E[HS] is below 0.5/sqrt(n) ≈ 0.011."""
MAX_EXACT_RUNOUTS = 20_000
"""Largest number of board completions enumerated for one hand (the flop has 1,081)."""

CardsLike = str | list[int] | tuple[int, ...] | np.ndarray


@dataclass(frozen=True)
class FutureModel:
    """What chance still does to a hand, per variant (the rules documents in the team's rules/).

    - ``swap_flop``/``swap_turn``: Swap Hold'em, each hole card is replaced by a deck card with this
      probability right after the flop / the turn is dealt (0.10 / 0.05 in the rules).
    - ``run_cards``: River of Blood, while the last board card (river or run card) is a diamond or
      heart, one more card is dealt; the board may grow past five.
    - ``extra_hole_cards``: Auction, cards still to join the hand (1 = the third hole card).
    - ``opponent_cards``: how many hole cards the uniform opponent holds (2, or 3 after they win
      the auction).
    """

    swap_flop: float = 0.0
    swap_turn: float = 0.0
    run_cards: bool = False
    extra_hole_cards: int = 0
    opponent_cards: int = 2

    def __post_init__(self) -> None:
        for name in ("swap_flop", "swap_turn"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
        if self.extra_hole_cards not in (0, 1):
            raise ValueError(f"extra_hole_cards must be 0 or 1, got {self.extra_hole_cards!r}")
        if self.opponent_cards not in (2, 3):
            raise ValueError(f"opponent_cards must be 2 or 3, got {self.opponent_cards!r}")

    @property
    def is_plain(self) -> bool:
        """True when the future is plain Hold'em (board to five cards, nothing else)."""
        return self == FutureModel(opponent_cards=self.opponent_cards) and self.opponent_cards == 2

    @classmethod
    def from_config(cls, config: object) -> FutureModel:
        """The future a variant config implies (``game.rules.variants`` configs; swap probabilities read from it).

        >>> from game.rules.swap import SwapConfig
        >>> FutureModel.from_config(SwapConfig(flop_swap_probability=0.2)).swap_flop
        0.2
        """
        if not isinstance(config, NoLimitConfig):
            raise TypeError(f"expected a game variant config, got {config!r}")
        if config.has_swaps:
            return cls(swap_flop=float(config.flop_swap_probability), swap_turn=float(config.turn_swap_probability))  # type: ignore[attr-defined]
        return cls(run_cards=config.has_run_cards)

    @classmethod
    def for_variant(cls, variant: str) -> FutureModel:
        """The default future of a `game.rules.variants` variant (its rules config's defaults).

        >>> FutureModel.for_variant("swap")
        FutureModel(swap_flop=0.1, swap_turn=0.05, run_cards=False, extra_hole_cards=0, opponent_cards=2)
        >>> FutureModel.for_variant("omaha")
        Traceback (most recent call last):
        ...
        ValueError: unknown variant 'omaha': known are auction, bounty, holdem, river_of_blood, swap
        """
        from game.rules.variants import get_variant

        return cls.from_config(get_variant(variant).config_class())


@dataclass(frozen=True)
class HandFeatures:
    """Features of one hand: E[HS], E[HS²], equity histogram (``n_bins`` fractions summing to 1),
    how many futures they average, and whether that was every future (``exact``) or a sample."""

    ehs: float
    ehs2: float
    histogram: np.ndarray
    n_futures: int
    exact: bool


@dataclass(frozen=True)
class BoardFeatures:
    """Features of all 1,326 two-card hands on one board (exact). Arrays are indexed by
    `hand_index`; hands sharing a card with the board hold -1 (``ehs``, ``ehs2``) and zeros."""

    ehs: np.ndarray
    """float64 (1326,)"""
    ehs2: np.ndarray
    """float64 (1326,)"""
    histogram: np.ndarray
    """float64 (1326, n_bins)"""


def _cards(cards: CardsLike) -> np.ndarray:
    if isinstance(cards, str):
        return parse_cards(cards)
    return parse_cards(np.asarray(cards, dtype=np.int64).reshape(-1).tolist())


def _hole_and_board(hole: CardsLike, board: CardsLike) -> tuple[np.ndarray, np.ndarray]:
    hole_cards = _cards(hole)
    board_cards = _cards(board)
    if hole_cards.shape[0] not in (2, 3):
        raise ValueError(f"a hand holds 2 or 3 hole cards, got {format_cards(hole_cards)!r}")
    shared = set(hole_cards.tolist()) & set(board_cards.tolist())
    if shared:
        raise ValueError(
            f"hole {format_cards(hole_cards)!r} and board {format_cards(board_cards)!r} share {format_cards(sorted(shared))!r}"
        )
    if board_cards.shape[0] in (1, 2):
        raise ValueError(f"a board holds 0 or >= 3 cards, got {format_cards(board_cards)!r}")
    return hole_cards, board_cards


def hand_index(hole: CardsLike) -> int:
    """Index 0..1325 of a two-card hand in every all-hands array (cards in either order).

    >>> hand_index("2c2d"), hand_index("AsAh"), hand_cards(1325)
    (0, 1325, 'Ah As')
    """
    cards = _cards(hole)
    if cards.shape[0] != 2:
        raise ValueError(f"hand_index needs exactly 2 cards, got {format_cards(cards)!r}")
    return int(HAND_OF_PAIR[cards[0], cards[1]])


def hand_cards(index: int) -> str:
    """Text of the two cards of hand ``index`` (0..1325)."""
    if not 0 <= index < N_HANDS:
        raise ValueError(f"hand index {index!r} is outside 0..{N_HANDS - 1}")
    return format_cards(HAND_CARDS[index])


def hand_strength(hole: CardsLike, board: CardsLike) -> float:
    """HS of a hand (2 or 3 hole cards) on a board of >= 3 cards: share of uniform 2-card opponents
    beaten, ties counted half (exact)."""
    hole_cards, board_cards = _hole_and_board(hole, board)
    if board_cards.shape[0] < 3:
        raise ValueError(f"hand strength needs a board of >= 3 cards, got {format_cards(board_cards)!r}")
    dead = 0
    for card in np.concatenate([hole_cards, board_cards]).tolist():
        dead |= 1 << card
    scratch = np.empty(board_cards.shape[0] + 3, dtype=np.int8)
    return float(_strength_vs_range(hole_cards, board_cards, np.int64(dead), 2, 0, scratch))


def board_strengths(board: CardsLike) -> np.ndarray:
    """HS of all 1,326 hands (float64, by `hand_index`, -1 = dead) on a board of >= 3 cards."""
    board_cards = _cards(board)
    if board_cards.shape[0] < 3:
        raise ValueError(f"board_strengths needs >= 3 board cards, got {format_cards(board_cards)!r}")
    strengths = np.empty(N_HANDS, dtype=np.float64)
    _board_strengths(
        board_cards,
        np.empty(N_HANDS, np.int32),
        np.empty(N_HANDS, np.int32),
        np.empty(129, np.int32),
        np.empty(52, np.int32),
        np.empty(52, np.int32),
        np.empty(board_cards.shape[0] + 2, np.int8),
        strengths,
    )
    return strengths


def runout_positions(n_board: int) -> np.ndarray:
    """All completions of an ``n_board``-card board (3..5) to five cards, as positions into the
    sorted remaining deck: int8 ``(C(52 - n_board, 5 - n_board), 5 - n_board)``."""
    if not 3 <= n_board <= 5:
        raise ValueError(f"n_board must be 3..5, got {n_board!r}")
    missing = 5 - n_board
    return np.array(list(itertools.combinations(range(52 - n_board), missing)), dtype=np.int8).reshape(-1, missing)


def all_hands_features(board: CardsLike, n_bins: int = DEFAULT_BINS) -> BoardFeatures:
    """Exact E[HS], E[HS²] and equity histograms of all 1,326 hands on a 3..5-card board."""
    if n_bins < 1:
        raise ValueError(f"n_bins must be >= 1, got {n_bins!r}")
    _, strengths = runout_strengths(board)  # parallel over the runouts
    ehs, ehs2, histogram = np.empty(N_HANDS), np.empty(N_HANDS), np.empty((N_HANDS, n_bins))
    _summarize_runouts(strengths, n_bins, ehs, ehs2, histogram)
    return BoardFeatures(ehs, ehs2, histogram)


def boards_features(boards: np.ndarray, n_bins: int = DEFAULT_BINS) -> BoardFeatures:
    """`all_hands_features` of many boards of one size at once (parallel over boards).

    ``boards`` is int ``(n_boards, n_board)`` with n_board in 3..5; the arrays returned gain a
    leading ``n_boards`` axis.
    """
    array = np.asarray(boards)
    if array.ndim != 2 or not 3 <= array.shape[1] <= 5:
        raise ValueError(f"boards must be (n_boards, 3..5) card ints, got shape {array.shape!r}")
    if n_bins < 1:
        raise ValueError(f"n_bins must be >= 1, got {n_bins!r}")
    for row in array:
        parse_cards(row.tolist())  # raises on bad or repeated cards
    n_boards = array.shape[0]
    ehs = np.empty((n_boards, N_HANDS))
    ehs2 = np.empty((n_boards, N_HANDS))
    histogram = np.empty((n_boards, N_HANDS, n_bins))
    _boards_features(array.astype(np.int8), runout_positions(array.shape[1]), n_bins, ehs, ehs2, histogram)
    return BoardFeatures(ehs, ehs2, histogram)


def swap_flop_moments(board: CardsLike, swap_turn: float) -> tuple[np.ndarray, np.ndarray]:
    """E[HS] and E[HS²] of all 1,326 hands on a flop under Swap's turn swap, exact: ``(ehs, ehs2)``
    float64 (1326,) by `hand_index`, -1 for hands touching the flop.

    The hand is the one held on the flop (after the flop swap); after the turn each hole card is
    replaced with probability ``swap_turn`` by a card uniform over the unseen ones, then the river
    comes. Every turn, swap outcome, replacement and river is weighted by its chance; a final
    hand scores its plain strength on the final board (a replaced card is not taken out of the
    opponent's range; the Monte Carlo `hand_features` takes it out). These are the flop features
    a Swap card abstraction clusters on (`abstraction.cards.kernels_buckets._swap_flop_moments`).

    >>> ehs, _ = swap_flop_moments("Qh7d2c", 0.0)
    >>> round(float(ehs[hand_index("AsKd")]), 4)
    0.5565
    >>> ehs, _ = swap_flop_moments("Qh7d2c", 0.5)
    >>> round(float(ehs[hand_index("AsKd")]), 4), round(float(ehs[hand_index("QsQd")]), 4)
    (0.5388, 0.7882)
    """
    board_cards = _cards(board)
    if board_cards.shape[0] != 3:
        raise ValueError(f"swap_flop_moments needs a flop (3 cards), got {format_cards(board_cards)!r}")
    if not 0.0 <= swap_turn <= 1.0:
        raise ValueError(f"swap_turn must be a probability in [0, 1], got {swap_turn!r}")
    flop = board_cards.astype(np.int8)
    strengths = np.empty((N_HANDS, 1176))
    row_of_pair = np.zeros((52, 52), dtype=np.int16)
    _flop_strength_table(flop, runout_positions(3), strengths, row_of_pair)
    flop_bits = np.int64(sum(1 << int(card) for card in flop))
    ehs, ehs2 = np.empty(N_HANDS), np.empty(N_HANDS)
    _swap_flop_moments(flop_bits, strengths, row_of_pair, float(swap_turn), ehs, ehs2)
    return ehs, ehs2


def runout_strengths(board: CardsLike) -> tuple[np.ndarray, np.ndarray]:
    """Final HS of all hands for every completion of a 3..5-card board: ``(runout_cards, strengths)``
    with shapes ``(n_runouts, 5 - n_board)`` int8 and ``(n_runouts, 1326)`` float64 (-1 = dead)."""
    board_cards = _cards(board)
    if not 3 <= board_cards.shape[0] <= 5:
        raise ValueError(f"runouts exist for boards of 3..5 cards, got {format_cards(board_cards)!r}")
    deck = np.setdiff1d(np.arange(52), board_cards).astype(np.int8)
    cards = deck[runout_positions(board_cards.shape[0]).astype(np.int64)]
    out = np.empty((cards.shape[0], N_HANDS), dtype=np.float64)
    _runout_strengths(board_cards, cards, out)
    return cards, out


def _summarize(outcomes: np.ndarray, n_bins: int, exact: bool) -> HandFeatures:
    histogram = np.bincount(np.minimum((outcomes * n_bins).astype(np.int64), n_bins - 1), minlength=n_bins)
    return HandFeatures(
        ehs=float(outcomes.mean()),
        ehs2=float((outcomes**2).mean()),
        histogram=histogram / outcomes.shape[0],
        n_futures=int(outcomes.shape[0]),
        exact=exact,
    )


def hand_features(
    hole: CardsLike,
    board: CardsLike = (),
    future: FutureModel | None = None,
    *,
    n_bins: int = DEFAULT_BINS,
    n_samples: int = DEFAULT_SAMPLES,
    n_opponent_samples: int = 200,
    seed: SeedLike = 0,
) -> HandFeatures:
    """E[HS], E[HS²] and equity histogram of one hand (2 or 3 hole cards, any board) under a variant's future.

    Exact (every runout, every 2-card opponent) when the future is plain Hold'em and at most
    `MAX_EXACT_RUNOUTS` runouts remain (flop, turn, river boards); otherwise ``n_samples`` sampled
    futures, each scored exactly against all 2-card opponents (or against ``n_opponent_samples``
    sampled 3-card opponents). The result says which (``exact``, ``n_futures``).

    >>> f = hand_features("AhAd", n_samples=4000, seed=1)
    >>> f.exact, f.n_futures, abs(f.ehs - 0.852) < 0.02
    (False, 4000, True)
    """
    hole_cards, board_cards = _hole_and_board(hole, board)
    model = future if future is not None else FutureModel()
    if n_samples < 1 or n_bins < 1:
        raise ValueError(f"n_samples and n_bins must be >= 1, got {n_samples!r} and {n_bins!r}")
    missing = max(5 - board_cards.shape[0], 0)
    n_runouts = math.comb(52 - hole_cards.shape[0] - board_cards.shape[0], missing)
    exact = model.is_plain and n_runouts <= MAX_EXACT_RUNOUTS and not (model.run_cards and board_cards.shape[0] >= 5)
    count = n_runouts if exact else n_samples
    out = np.empty(count, dtype=np.float64)
    _hand_outcomes(
        hole_cards,
        board_cards,
        model.extra_hole_cards,
        model.swap_flop if board_cards.shape[0] < 3 else 0.0,
        model.swap_turn if board_cards.shape[0] < 4 else 0.0,
        model.run_cards,
        model.opponent_cards,
        0 if exact else n_samples,
        n_opponent_samples if model.opponent_cards == 3 else 0,
        kernel_seed(as_generator(seed)),
        out,
    )
    return _summarize(out, n_bins, exact)


@dataclass(frozen=True)
class AuctionFeatures:
    """For the Auction bid: equity keeping two cards, equity after winning a random third card,
    and their difference (the value of winning, as a share of the final pot), each E[HS] against a
    uniform opponent holding 3 cards if we lose the auction and 2 if we win."""

    equity_without_card: float
    equity_with_card: float
    value_of_winning: float


def auction_features(
    hole: CardsLike, board: CardsLike, *, n_samples: int = DEFAULT_SAMPLES, seed: SeedLike = 0
) -> AuctionFeatures:
    """Bid features of a 2-card hand on the flop (Monte Carlo, ``n_samples`` futures each side)."""
    generator = as_generator(seed)
    lose = hand_features(hole, board, FutureModel(opponent_cards=3), n_samples=n_samples, seed=generator)
    win = hand_features(hole, board, FutureModel(extra_hole_cards=1), n_samples=n_samples, seed=generator)
    return AuctionFeatures(lose.ehs, win.ehs, win.ehs - lose.ehs)


def bounty_status(bounty_rank: int, hole: CardsLike, board: CardsLike, final_board: int = 5) -> tuple[bool, float]:
    """``(hit, chance)``: whether the own bounty rank (0..12) is among hole and board cards now, and
    the chance it is by the time the board holds ``final_board`` cards (exact, hypergeometric; 1.0
    once hit). Both are part of a Bounty player's bucket (see `abstraction.cards.buckets`).

    >>> bounty_status(12, "AhKd", "")
    (True, 1.0)
    >>> hit, chance = bounty_status(0, "AhKd", "")
    >>> hit, round(chance, 4)  # 1 - C(46, 5) / C(50, 5): no deuce among the five board cards
    (False, 0.353)
    """
    if not 0 <= int(bounty_rank) <= 12:
        raise ValueError(f"bounty_rank must be a rank 0..12, got {bounty_rank!r}")
    hole_cards = _cards(hole)
    board_cards = _cards(board)
    known = np.concatenate([hole_cards, board_cards])
    if np.any((known >> 2) == bounty_rank):
        return True, 1.0
    to_come = max(final_board - board_cards.shape[0], 0)
    unseen = 52 - known.shape[0]
    return False, 1.0 - math.comb(unseen - 4, to_come) / math.comb(unseen, to_come)
