"""Bounty Hold'em's river subgames: types are hand x hit bit, terminal values by the bounty payoff.

In Bounty (MIT Pokerbots 2025) a winner whose bounty rank is among its hole cards or the board
wins ``multiplier * c + bonus`` chips (``c`` the loser's contribution, default ``1.5 c + 10``); a
tie with exactly one hit gives the hitter ``(multiplier - 1) / 2 * x + bonus``; the amounts are
rounded toward a seat the rules name (`game.rules.bounty`). On the river only "hit or not"
changes a payoff, so a player's private state in the subgame is a *type*: a hand and a hit bit.
:class:`BountyHands` lists ``2 n`` types over a board's ``n`` hands (hit 0 first, then hit 1,
each half in the hands' strength order); ranges, tables and values are over types.
:func:`terminal_coefficients` turns each fold and showdown into twelve numbers per traverser
(:mod:`kernels_bounty`), the exact rounded chips of each outcome at that terminal: the favoured seat
of the engine's rounding is known there (who acted last, and how).

>>> from abstraction.bets.bet_abstraction import StreetBets
>>> from solver.resolve.tree import SubgameConfig, build_subgame_tree
>>> from game.rules.bounty import BountyConfig
>>> hands = bounty_hands("Ah Kd 7c 7s 2h", BountyRules.of(BountyConfig(rules="engine")))
>>> hands.n_hands, hands.n_base  # 1,081 hands, each with hit 0 and hit 1
(2162, 1081)
>>> tree = build_subgame_tree(SubgameConfig(pot_chips=(20, 20), stacks=(380, 380), bets=StreetBets.parse("1p cap=1")))
>>> fold = tree.children(tree.children(0)[1])[0]  # seat 0 bets 40, seat 1 folds
>>> tree.describe(fold), terminal_coefficients(tree, hands.rules)[fold, 0, 8:].tolist()  # C[a, b] for seat 0
('fold', [20.0, 20.0, 40.0, 40.0])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from abstraction.cards.kernels_features import HAND_CARDS
from game.cards.deck import N_RANKS
from game.rules.nolimit import NoLimitConfig
from solver.resolve import kernels_showdown
from solver.resolve.hands import RiverHands, hand_layout, river_hands
from solver.resolve.kernels_bounty import N_COEFFICIENTS
from solver.resolve.tree import FOLD, SHOWDOWN, SubgameTree


@dataclass(frozen=True)
class BountyRules:
    """The bounty payoff's parameters: ``multiplier`` and ``bonus`` (chips) of a hitting winner,
    and ``engine`` rounding (toward the player not to act at the end: the folder's opponent, the
    caller, the first to check; else, the rules document's, toward seat 1)."""

    multiplier: float = 1.5
    bonus: int = 10
    engine: bool = True

    @classmethod
    def of(cls, config: NoLimitConfig) -> BountyRules:
        """The rules of a Bounty config (``config.has_bounty``); ValueError for another variant."""
        if not config.has_bounty:
            raise ValueError(f"{config.variant!r} has no bounty: BountyRules need a config with has_bounty")
        return cls(config.bounty_multiplier, config.bounty_bonus, config.rules == "engine")

    def rounded(self, exact: Fraction, winner: int, favoured: int) -> int:
        """``exact`` chips won by seat ``winner``, rounded up if the rounding favours it, else down."""
        return math.ceil(exact) if (favoured if self.engine else 1) == winner else math.floor(exact)

    def award(self, loser_chips: float, winner: int, favoured: int) -> int:
        """Chips a hitting winner wins from a loser who put ``loser_chips`` in."""
        exact = Fraction(str(self.multiplier)) * round(loser_chips) + self.bonus
        return self.rounded(exact, winner, favoured)

    def tie_award(self, each_chips: float, hitter: int, favoured: int) -> int:
        """Chips the only hitter of a showdown tie wins (``each_chips``: the other's contribution)."""
        exact = (Fraction(str(self.multiplier)) - 1) / 2 * round(each_chips) + self.bonus
        return self.rounded(exact, hitter, favoured)


@dataclass(frozen=True, eq=False)
class BountyHands(RiverHands):
    """``2 n`` types over the ``n`` hands of a river board: type ``t`` holds hand ``t mod n`` of
    the board's :class:`RiverHands` and hits its bounty if ``t >= n`` (``cards``, ``strength``,
    ``hand_index`` repeat the hands' twice). ``rules``: the payoff. The kernels' ``layout`` is the
    ``n`` hands'."""

    rules: BountyRules = BountyRules()

    @property
    def n_base(self) -> int:
        """Hands (half the types)."""
        return self.n_hands // 2

    @cached_property
    def layout(self) -> kernels_showdown.HandLayout:
        return hand_layout(self.cards[: self.n_base], self.strength[: self.n_base])

    def type_range(self, weights: np.ndarray, hit_probability: np.ndarray) -> np.ndarray:
        """(2 n,) a range over types from (1326,) weights and each combination's probability of a
        hit (both in the 1,326-hand order)."""
        weights = self.range_from_1326(weights)[: self.n_base]
        probability = np.asarray(hit_probability, dtype=np.float64)[self.hand_index[: self.n_base]]
        if np.any(probability < 0) or np.any(probability > 1):
            raise ValueError("hit probabilities must lie in [0, 1]")
        return np.concatenate([weights * (1 - probability), weights * probability])

    def type_of(self, combo: int, hit: bool) -> int:
        """The type of 1,326-order combination ``combo`` with hit bit ``hit``."""
        found = np.flatnonzero(self.hand_index[: self.n_base] == combo)
        if len(found) != 1:
            raise ValueError(f"combination {combo} is not a hand this board leaves")
        return int(found[0]) + (self.n_base if hit else 0)


def bounty_hands(board: str | np.ndarray | list, rules: BountyRules) -> BountyHands:
    """The types of a river board (5+ cards): its hands by strength, twice (hit 0, hit 1)."""
    hands = river_hands(board)
    return BountyHands(
        board=hands.board,
        cards=np.concatenate([hands.cards, hands.cards]),
        strength=np.concatenate([hands.strength, hands.strength]),
        hand_index=np.concatenate([hands.hand_index, hands.hand_index]),
        rules=rules,
    )


def rank_hits(board) -> np.ndarray:
    """(1326, 13) bool: whether each rank (0..12, deuce..ace) is among a combination's cards or the
    board's (1,326-hand order)."""
    on_board = np.zeros(N_RANKS, dtype=bool)
    on_board[np.asarray(board, dtype=np.int64) >> 2] = True
    ranks = np.arange(N_RANKS)
    return on_board | (HAND_CARDS[:, :1] >> 2 == ranks) | (HAND_CARDS[:, 1:] >> 2 == ranks)


def terminal_coefficients(tree: SubgameTree, rules: BountyRules) -> np.ndarray:
    """(n_nodes, 2, 12) float64: per fold or showdown node and traverser (a seat), the coefficients
    ``A[a, b]``, ``B[a, b]``, ``C[a, b]`` of :mod:`kernels_bounty` (``a`` the traverser's hit bit,
    ``b`` the opponent's), in chips over the whole hand; zero at other nodes. A winner gains the
    loser's chips, or the bounty award if it hits; a tie with equal hits pays what Hold'em's does
    (the engine gives seat 0 half the difference, rounded down; the document nothing), with one hit
    the tie award to the hitter."""
    parent = np.zeros(tree.n_nodes, dtype=np.int64)
    for node in range(tree.n_nodes):
        parent[tree.children(node).start : tree.children(node).stop] = node
    out = np.zeros((tree.n_nodes, 2, N_COEFFICIENTS))
    for node in np.flatnonzero((tree.kind == FOLD) | (tree.kind == SHOWDOWN)).tolist():
        last = int(tree.player[parent[node]])  # who acted last: the engine rounds toward the other, or the caller
        favoured = last if tree.describe(node) == "call" else 1 - last
        for seat in (0, 1):
            own, other = (float(c) for c in (tree.pot_chips[node, seat], tree.pot_chips[node, 1 - seat]))
            won = [other, rules.award(other, seat, favoured)]  # we win, by our hit bit
            lost = [own, rules.award(own, 1 - seat, favoured)]  # they win, by theirs
            a_, b_, c_ = np.zeros((2, 2)), np.zeros((2, 2)), np.zeros((2, 2))
            if tree.kind[node] == FOLD:
                for a in (0, 1):
                    c_[a] = [-lost[b] for b in (0, 1)] if tree.player[node] == seat else won[a]
            else:
                seat_0_split = (tree.pot_chips[node, 1] - tree.pot_chips[node, 0]) // 2 if rules.engine else 0.0
                split = seat_0_split if seat == 0 else -seat_0_split
                for a in (0, 1):
                    for b in (0, 1):
                        if a == b:
                            tie = split
                        elif a:
                            tie = rules.tie_award(other, seat, favoured)
                        else:
                            tie = -rules.tie_award(own, 1 - seat, favoured)
                        a_[a, b] = won[a] - tie
                        b_[a, b] = tie + lost[b]
                        c_[a, b] = -lost[b]
            out[node, seat] = np.concatenate([a_.ravel(), b_.ravel(), c_.ravel()])
    return out


def bounty_arrays(tree: SubgameTree, hands: RiverHands) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernels' ``bounty`` argument: ``(coefficients, by_card, masses)`` of
    :func:`kernels_bounty._bounty_value` for :class:`BountyHands`; for other hands the coefficients
    have no rows (Hold'em's payoffs)."""
    if not isinstance(hands, BountyHands):
        return np.zeros((0, 2, N_COEFFICIENTS)), np.zeros((2, 52)), np.zeros((6, 0))
    return terminal_coefficients(tree, hands.rules), np.zeros((2, 52)), np.zeros((6, hands.n_base))
