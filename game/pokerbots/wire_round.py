"""The round as an official engine tracks it, rebuilt from the wire alone (`WireRound`).

``WireRound`` mirrors the engines' ``RoundState`` bookkeeping (``button`` counter, pips, stacks,
auction) from the clauses my seat receives, so the legality guard never depends on the bot or on
the rules modules: an answer is always legal in the engine (raise amounts clamped to the engine's
bounds, no check when facing a bet, no call when checking is free, never a free fold). Bots read
``WireRound.observation()``, the rules modules' ``Observation`` for my seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.pokerbots.engines import EngineRules
from game.pokerbots.protocol import (
    AuctionResult,
)
from game.rules.actions import Action, ActionKind, Move
from game.rules.nolimit import Observation

if TYPE_CHECKING:
    from game.pokerbots.replay import RulesReplay


class WireRound:
    """One round as the engine tracks it, rebuilt from the clauses my seat receives.

    Mirrors the engines' bookkeeping: ``button`` counts actions in the street (the actor is
    ``button % 2``; preflop starts at 0 with the dealer, every later street and the auction at 1
    with the big blind); ``pips`` are chips put in this street, ``stacks`` chips left, per seat.
    Unknown opponent cards are simply absent (``opponent_cards`` is filled by ``O``).
    """

    __slots__ = (
        "auction_pending",
        "bids",
        "board",
        "bounty_hits",
        "bounty_rank",
        "button",
        "delta",
        "folded",
        "history",
        "hole_cards",
        "opponent_cards",
        "pips",
        "replay",
        "rules",
        "seat",
        "stacks",
    )

    def __init__(
        self, rules: EngineRules, seat: int, hole_cards: tuple[int, ...], bounty_rank: int | None = None
    ) -> None:
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        self.rules = rules
        self.seat = seat
        self.hole_cards = hole_cards
        self.board: tuple[int, ...] = ()
        self.button = 0
        self.pips = [rules.small_blind, rules.big_blind]
        self.stacks = [rules.starting_stack - rules.small_blind, rules.starting_stack - rules.big_blind]
        self.bids: list[int | None] = [None, None]
        self.auction_pending = False
        self.bounty_rank = bounty_rank
        self.history: list[Move] = []
        """Every action seen, in order."""
        self.opponent_cards: tuple[int, ...] = ()
        self.delta: int | None = None
        self.bounty_hits: tuple[bool | None, bool | None] | None = None
        self.folded = False
        self.replay: RulesReplay | None = None
        """The same round in our rules module, if the session keeps one (``replay_rules``)."""

    @property
    def street(self) -> int:
        """Engine street number: 0 preflop, then the board size (3 flop, 4 turn, 5 river, 6+ runs)."""
        return len(self.board)

    @property
    def actor(self) -> int:
        """The seat the engine will query next."""
        return self.button % 2

    @property
    def is_over(self) -> bool:
        """True once the round's delta arrived."""
        return self.delta is not None

    @property
    def contributions(self) -> tuple[int, int]:
        """Chips each seat has put in the pot this round (blinds, bets, auction payments)."""
        return (self.rules.starting_stack - self.stacks[0], self.rules.starting_stack - self.stacks[1])

    def apply_move(self, action: Action) -> None:
        """Advance by one history action of the current actor (engine ``RoundState.proceed``)."""
        actor = self.actor
        kind = action.kind
        if kind is ActionKind.BID and action.amount > self.stacks[actor]:
            raise ValueError(f"bid {action.amount} exceeds seat {actor}'s stack of {self.stacks[actor]} chips")
        if kind is ActionKind.RAISE and not 0 <= action.amount - self.pips[actor] <= self.stacks[actor]:
            raise ValueError(
                f"raise to {action.amount} is impossible for seat {actor} "
                f"(pip {self.pips[actor]}, stack {self.stacks[actor]} chips)"
            )
        self.history.append(Move(actor, self.street, action))
        if kind is ActionKind.BID:
            self.bids[actor] = action.amount
            other_bid = self.bids[1 - actor]
            if other_bid is None:
                self.button += 1
            else:
                self._resolve_auction(actor, action.amount, other_bid)
        elif kind is ActionKind.FOLD:
            self.folded = True
        elif kind is ActionKind.CALL:
            if self.button == 0:  # the dealer completes the blind preflop; the big blind has the option
                self.pips = [self.rules.big_blind, self.rules.big_blind]
                self.stacks = [self.rules.starting_stack - self.rules.big_blind] * 2
                self.button = 1
            else:
                self._put_in(actor, self.pips[1 - actor])
                self._close_street()
        elif kind is ActionKind.CHECK:
            if (self.street == 0 and self.button > 0) or self.button > 1:
                self._close_street()
            else:
                self.button += 1
        elif kind is ActionKind.RAISE:
            self._put_in(actor, action.amount)
            self.button += 1
        else:
            raise ValueError(f"the engines send no {kind.name} action, got {action}")

    def _put_in(self, seat: int, pip: int) -> None:
        self.stacks[seat] -= pip - self.pips[seat]
        self.pips[seat] = pip

    def _close_street(self) -> None:
        if self.rules.auction and self.street == 0:
            self.auction_pending = True
        self.pips = [0, 0]
        self.button = 1

    def _resolve_auction(self, bidder: int, bid: int, other_bid: int) -> None:
        """Second-price auction: the higher bid pays the lower one; a tie pays both bids."""
        if bid == other_bid:
            self.stacks = [self.stacks[0] - bid, self.stacks[1] - bid]
        else:
            winner = bidder if bid > other_bid else 1 - bidder
            self.stacks[winner] -= min(bid, other_bid)
        self.auction_pending = False
        self.button = 1

    def apply_auction_result(self, result: AuctionResult) -> None:
        """Take the engine's word for stacks, bids and my hand after the auction (``N``)."""
        self.stacks = list(result.stacks)
        self.bids = list(result.bids)
        self.hole_cards = result.cards
        self.auction_pending = False
        self.button = 1

    def observation(self) -> Observation:
        """What my seat knows now, as the rules modules' ``Observation`` (what our bots read)."""
        legal = self.legal_actions()
        return Observation(
            variant=self.rules.variant,
            seat=self.seat,
            street=self.street,
            to_act=None if self.is_over or self.folded else self.actor,
            hole_cards=self.hole_cards,
            board=self.board,
            pips=(self.pips[0], self.pips[1]),
            stacks=(self.stacks[0], self.stacks[1]),
            contributions=self.contributions,
            history=tuple(self.history),
            legal_actions=legal,
            raise_bounds=self.raise_bounds() if ActionKind.RAISE in legal else None,
            bid_bounds=self.bid_bounds() if ActionKind.BID in legal else None,
            bids=(self.bids[0], self.bids[1]) if None not in self.bids else (None, None),
            bounty_rank=self.bounty_rank,
            opponent_hole_cards=self.opponent_cards,
            payoffs=None,
        )

    def legal_actions(self) -> frozenset[ActionKind]:
        """What the engine accepts from the current actor (engine ``legal_actions``)."""
        if self.auction_pending:
            return frozenset({ActionKind.BID})
        actor = self.actor
        cost = self.pips[1 - actor] - self.pips[actor]
        if cost == 0:
            kinds = {ActionKind.CHECK}
            if self.stacks[0] > 0 and self.stacks[1] > 0:
                kinds.add(ActionKind.RAISE)
            if self.rules.fold_always_legal:
                kinds.add(ActionKind.FOLD)
            return frozenset(kinds)
        if cost >= self.stacks[actor] or self.stacks[1 - actor] == 0:
            return frozenset({ActionKind.FOLD, ActionKind.CALL})
        return frozenset({ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE})

    def raise_bounds(self) -> tuple[int, int]:
        """``(min, max)`` raise-to chips for the current actor (engine formula)."""
        actor = self.actor
        cost = self.pips[1 - actor] - self.pips[actor]
        max_contribution = min(self.stacks[actor], self.stacks[1 - actor] + cost)
        min_contribution = min(max_contribution, cost + max(cost, self.rules.big_blind))
        return (self.pips[actor] + min_contribution, self.pips[actor] + max_contribution)

    def bid_bounds(self) -> tuple[int, int]:
        """``(0, my remaining stack)`` chips for the current bidder."""
        return (0, self.stacks[self.actor])

    def safe_action(self) -> Action:
        """The answer when nothing better is known: bid 0, else check if free, else fold."""
        legal = self.legal_actions()
        if ActionKind.BID in legal:
            return Action.bid(0)
        return Action.check() if ActionKind.CHECK in legal else Action.fold()

    def repair(self, action: Action) -> Action:
        """The legal action closest to ``action`` (never raises).

        Raise and bid amounts are clamped to the bounds; a raise that is not allowed becomes a
        call (or a check if free); a call with nothing to call becomes a check; a check facing
        a bet becomes a fold (what the engine would do); a fold when checking is free becomes a
        check; anything else becomes ``safe_action()``.
        """
        legal = self.legal_actions()
        kind = action.kind
        if ActionKind.BID in legal:
            if kind is ActionKind.BID:
                low, high = self.bid_bounds()
                return Action.bid(min(max(action.amount, low), high))
            return Action.bid(0)
        if kind is ActionKind.RAISE and ActionKind.RAISE in legal:
            low, high = self.raise_bounds()
            return Action.raise_to(min(max(action.amount, low), high))
        if kind in (ActionKind.RAISE, ActionKind.CALL):
            return Action.call() if ActionKind.CALL in legal else Action.check()
        if kind is ActionKind.FOLD and ActionKind.CALL in legal:
            return action
        return self.safe_action()
