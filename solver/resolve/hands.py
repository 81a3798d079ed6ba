"""Hand vectors of a board: the hole-card combinations it leaves, sorted by strength, and terminal values.

Both players' ranges are vectors over the same list of hands (``RiverHands.cards``), sorted once by
ascending strength (O(n log n)) so that a showdown is one O(n) sweep with a running total per card
(:mod:`kernels_showdown`).
Values are counterfactual: chips times the opponent's reach on the hands that share no card with
the hand being valued (exact card removal), not divided by that reach.

>>> hands = river_hands("Ah Kd 7c 7s 2h")
>>> hands.n_hands  # 47 * 46 / 2: every pair of the 47 cards left
1081
>>> hands.describe(hands.n_hands - 1)  # the strongest hand: quad sevens
'7h 7d'
>>> river_hands("Ah Kd 7c 7s")
Traceback (most recent call last):
...
ValueError: a river board needs at least 5 cards, got 4: 'Ah Kd 7c 7s'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from abstraction.cards.kernels_features import HAND_CARDS
from game.cards.deck import format_cards, parse_cards
from game.cards.evaluator import evaluate_batch
from solver.resolve import kernels_showdown
from solver.resolve.kernels_lanes import padded
from solver.resolve.kernels_showdown import N_CARDS


@dataclass(frozen=True, eq=False)
class RiverHands:
    """The two-card hands a final board leaves, by ascending strength.

    ``board``: int8 card codes. ``cards``: (n, 2) int8, lower card first. ``strength``: (n,) int32
    evaluator values (1..7462, higher is better, equal ties) of hand + board, non-decreasing.
    ``hand_index``: (n,) int64, each hand's index in the 1,326-hand order of
    ``abstraction.cards.kernels_features.HAND_CARDS`` (lower card first, lexicographic).
    """

    board: np.ndarray
    cards: np.ndarray
    strength: np.ndarray
    hand_index: np.ndarray

    @property
    def n_hands(self) -> int:
        return len(self.strength)

    @cached_property
    def layout(self) -> kernels_showdown.HandLayout:
        """The index arrays the showdown kernels take (see :mod:`kernels_showdown`)."""
        return hand_layout(self.cards, self.strength)

    def scratch(self, dtype: type = np.float64) -> kernels_showdown.ShowdownScratch:
        """Fresh scratch arrays for the showdown kernels (``dtype``: that of the reach they take)."""
        n = self.n_hands
        return kernels_showdown.ShowdownScratch(*(np.zeros(size, dtype) for size in (N_CARDS, n, n, n)))

    def describe(self, hand: int) -> str:
        """Text of hand ``hand`` (higher card first, as the engines print hole cards)."""
        return format_cards(self.cards[hand][::-1].tolist())

    def range_from_1326(self, weights: np.ndarray) -> np.ndarray:
        """A range over these hands from weights in the 1,326-hand order (blocked hands dropped).

        >>> river_hands("Ah Kd 7c 7s 2h").range_from_1326(np.ones(1326)).sum()
        np.float64(1081.0)
        """
        weights = np.asarray(weights, dtype=np.float64)
        if weights.shape != (len(HAND_CARDS),):
            raise ValueError(f"weights must have shape ({len(HAND_CARDS)},), got {weights.shape}")
        return weights[self.hand_index].copy()


def hand_layout(cards: np.ndarray, strength: np.ndarray) -> kernels_showdown.HandLayout:
    """The kernels' index arrays of hands ``cards`` (n, 2) sorted by ``strength`` (n,), non-decreasing."""
    new_group = np.diff(strength, prepend=-1) != 0
    group_start = np.append(np.flatnonzero(new_group), len(strength))
    index = (cards[:, 0], cards[:, 1], group_start)
    # unsigned indices spare the kernels numba's negative-index check on every gather
    return kernels_showdown.HandLayout(*(np.ascontiguousarray(array, dtype=np.uint32) for array in index))


def river_hands(board: str | np.ndarray | list) -> RiverHands:
    """The hands a board of 5 or more cards leaves (River of Blood boards are longer), by strength."""
    board_cards = parse_cards(board)
    if len(board_cards) < 5:
        raise ValueError(
            f"a river board needs at least 5 cards, got {len(board_cards)}: {format_cards(board_cards.tolist())!r}"
        )
    dead = np.zeros(N_CARDS, dtype=bool)
    dead[board_cards] = True
    live = np.flatnonzero(~dead[HAND_CARDS[:, 0]] & ~dead[HAND_CARDS[:, 1]])
    rows = np.concatenate([HAND_CARDS[live], np.broadcast_to(board_cards, (len(live), len(board_cards)))], axis=1)
    strength = evaluate_batch(rows, check=False)
    order = np.argsort(strength, kind="stable")
    return RiverHands(
        board=board_cards,
        cards=np.ascontiguousarray(HAND_CARDS[live][order]),
        strength=np.ascontiguousarray(strength[order]),
        hand_index=live[order].astype(np.int64),
    )


def _checked_reach(hands: RiverHands, reach: np.ndarray) -> np.ndarray:
    reach = np.ascontiguousarray(reach, dtype=np.float64)
    if reach.shape != (hands.n_hands,):
        raise ValueError(f"reach must have shape ({hands.n_hands},) (one weight per hand), got {reach.shape}")
    if not np.all(np.isfinite(reach)) or np.any(reach < 0):
        raise ValueError("reach must be finite and non-negative")
    return reach


def compatible_mass(hands: RiverHands, reach: np.ndarray) -> np.ndarray:
    """(n,) the opponent's reach on hands sharing no card with each hand. Where ``hands`` lists
    each hand several times (types: hand x private bit, as Bounty's), over the types: the reach of
    every type of a hand counts, and each type of a hand gets that hand's mass."""
    reach = _checked_reach(hands, reach)
    base = len(hands.layout.first)
    copies = hands.n_hands // base
    out = np.empty(base)
    kernels_showdown._compatible_mass(hands.layout, reach.reshape(copies, base).sum(axis=0), hands.scratch(), out)
    return np.tile(out, copies)


def showdown_masses(hands: RiverHands, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(win, lose)``, each (n,): the opponent's reach on compatible hands each hand beats / loses to."""
    reach = _checked_reach(hands, reach)
    scratch = hands.scratch()
    kernels_showdown._showdown_masses(hands.layout, reach, scratch)
    return scratch.win.copy(), scratch.lose.copy()


def showdown_values(hands: RiverHands, reach: np.ndarray, own_chips: float, opponent_chips: float) -> np.ndarray:
    """(n,) counterfactual showdown value of each hand (chips x opponent reach) against ``reach``.

    ``own_chips`` / ``opponent_chips``: what each player has put in the pot in the whole hand. A win
    gains ``opponent_chips``, a loss loses ``own_chips``, a tie gains half their difference.
    """
    reach = _checked_reach(hands, reach)
    out = np.empty(hands.n_hands)
    kernels_showdown._showdown_value(hands.layout, reach, float(own_chips), float(opponent_chips), hands.scratch(), out)
    return out


def fold_values(hands: RiverHands, reach: np.ndarray, payoff: float) -> np.ndarray:
    """(n,) ``payoff`` chips times the opponent reach compatible with each hand (a fold's value)."""
    reach = _checked_reach(hands, reach)
    out = np.empty(hands.n_hands)
    kernels_showdown._fold_value(hands.layout, reach, float(payoff), hands.scratch(), out)
    return out


def batched_showdown_masses(hands: RiverHands, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For ``k`` reach vectors at once (``reach`` (k, n)), ``(weaker_sums, compatible)``, each (k, n): per
    vector and hand, the opponent's compatible reach strictly weaker plus weaker or equal (``win``
    plus the hands tied or beaten), and all its compatible reach: the one sweep that values all the
    terminals of a CFR pass (:func:`kernels_showdown._batched_sweep`)."""
    reach = np.ascontiguousarray(reach, dtype=np.float64)
    if reach.ndim != 2 or reach.shape[1] != hands.n_hands:
        raise ValueError(f"reach must have shape (k, {hands.n_hands}) (vector, hand), got {reach.shape}")
    for row in reach:
        _checked_reach(hands, row)
    k = len(reach)
    width = padded(k)  # the sweep's vectors: columns padded with zeros
    hand_major = np.zeros((hands.n_hands, width))
    hand_major[:, :k] = reach.T
    weaker_sums, by_card, total = np.empty_like(hand_major), np.empty((N_CARDS, width)), np.empty(width)
    kernels_showdown._batched_sweep(hands.layout, hand_major, by_card, total, weaker_sums, width)
    first, second = hands.cards[:, 0], hands.cards[:, 1]
    compatible = total - by_card[first] - by_card[second] + hand_major
    return weaker_sums[:, :k].T.copy(), compatible[:, :k].T.copy()


@dataclass(frozen=True, eq=False)
class TurnHands(RiverHands):
    """The two-card hands a four-card board leaves (1,128), for depth-limited turn subgames, with
    what a RUNOUT or a leaf needs of each possible river card.

    ``cards``, ``hand_index`` as :class:`RiverHands` (here in the 1,326-hand order, not by
    strength); ``strength`` is all zeros (no showdown happens on the turn itself). Per river card
    ``r`` of ``river_cards`` (m = 48,): ``river_order[r]`` (m, n_sub) int64, the hands not holding it
    (n_sub = 1,081) by ascending strength on the five-card board, as indices into ``cards``, with
    their cards (``river_first``, ``river_second``, uint32) and runs of equal strength
    (``river_group_start`` (m, n_sub + 1) uint32, the first ``river_n_groups[r] + 1`` used, as a
    ``HandLayout``'s); ``river_strength`` (m, n) int32 evaluator values (0
    where the hand holds the card) and ``river_hs`` (m, n) float64 each hand's strength against a
    uniform two-card opponent on that river (wins plus half the ties over the 990 holdings, the
    river bucketing's feature; NaN where the hand holds the card). A hand pair sees ``m - 4`` rivers.
    """

    river_cards: np.ndarray
    river_order: np.ndarray
    river_first: np.ndarray
    river_second: np.ndarray
    river_group_start: np.ndarray
    river_n_groups: np.ndarray
    river_strength: np.ndarray
    river_hs: np.ndarray


def turn_hands(board: str | np.ndarray | list) -> TurnHands:
    """The hands a four-card board leaves, with every river card's showdown order (about 15 ms, most
    of it evaluating the 48 x 1,081 seven-card hands, in one batch)."""
    board_cards = parse_cards(board)
    if len(board_cards) != 4:
        raise ValueError(f"a turn board has 4 cards, got {len(board_cards)}: {format_cards(board_cards.tolist())!r}")
    dead = np.zeros(N_CARDS, dtype=bool)
    dead[board_cards] = True
    live = np.flatnonzero(~dead[HAND_CARDS[:, 0]] & ~dead[HAND_CARDS[:, 1]])
    cards = HAND_CARDS[live]
    rivers = np.flatnonzero(~dead).astype(np.int8)
    n, n_sub = len(live), len(live) - (N_CARDS - len(board_cards) - 1)
    # per river, the hands not holding it (in the 1,326 order, as river_hands lists them before sorting)
    holds = (cards[None, :, 0] == rivers[:, None]) | (cards[None, :, 1] == rivers[:, None])
    kept = np.nonzero(~holds)[1].reshape(len(rivers), n_sub)
    boards = np.broadcast_to(np.append(board_cards, 0), (len(rivers), n_sub, 5)).copy()
    boards[:, :, 4] = rivers[:, None]
    rows = np.concatenate([cards[kept], boards], axis=2).reshape(-1, 7)
    by_river = evaluate_batch(rows, check=False).reshape(len(rivers), n_sub)
    sort = np.argsort(by_river, axis=1, kind="stable")  # river_hands' order on each five-card board
    order = np.take_along_axis(kept, sort, axis=1)
    sorted_strength = np.take_along_axis(by_river, sort, axis=1)
    group_start = np.zeros((len(rivers), n_sub + 1), dtype=np.uint32)
    n_groups = np.empty(len(rivers), dtype=np.int64)
    strength = np.zeros((len(rivers), n), dtype=np.int32)
    hs = np.full((len(rivers), n), np.nan)
    uniform = np.ones(n_sub)
    scratch = kernels_showdown.ShowdownScratch(*(np.zeros(size) for size in (N_CARDS, n_sub, n_sub, n_sub)))
    holdings = (N_CARDS - 7) * (N_CARDS - 8) / 2  # an opponent's two cards from the 45 unseen
    for row in range(len(rivers)):
        layout = hand_layout(cards[order[row]], sorted_strength[row])
        n_groups[row] = len(layout.group_start) - 1
        group_start[row, : len(layout.group_start)] = layout.group_start
        strength[row, order[row]] = sorted_strength[row]
        kernels_showdown._showdown_masses(layout, uniform, scratch)  # overwrites the scratch
        hs[row, order[row]] = 0.5 * (scratch.win + (holdings - scratch.lose)) / holdings
    return TurnHands(
        board=board_cards,
        cards=np.ascontiguousarray(cards),
        strength=np.zeros(n, dtype=np.int32),
        hand_index=live.astype(np.int64),
        river_cards=rivers,
        river_order=order,
        river_first=np.ascontiguousarray(cards[order, 0], dtype=np.uint32),
        river_second=np.ascontiguousarray(cards[order, 1], dtype=np.uint32),
        river_group_start=group_start,
        river_n_groups=n_groups,
        river_strength=strength,
        river_hs=hs,
    )
