"""Tree hooks of Auction Hold'em: three-card slots after the auction, and sealed or sequential bids.

- Slots: 0 preflop, 1 flop, 2 turn, 3 river with two hole cards; 4 flop, 5 turn, 6 river with
  three (the player won or tied the auction): ``slot = street ordinal + 3`` for a player holding
  three cards. A bid reads the bidder's own two-card flop bucket, slot 1.
- Contexts, each a showdown of 3 outcomes: 0 seat 0 holds three cards, 1 seat 1 does, 2 both,
  3 neither (no auction happened).
- Bids: ``rules="document"`` seals them (the spec: simultaneous), so the second bidder (the
  dealer) does not see the first bid: the second bid's information-set group spans every first
  bid (its public history shows ``bid?``). ``rules="engine"`` is the 2024 engine, sequential: the
  dealer's bid request carries the big blind's bid, so each first bid has its own second-bid
  group. After the auction both bids are public.

>>> from game.rules.actions import Action
>>> from game.rules.auction import AuctionConfig
>>> walk = HOOKS.start(AuctionConfig())
>>> round_, _ = walk.apply(walk.root, Action.call(), ())
>>> round_, _ = walk.apply(round_, Action.check(), ())    # the flop: the big blind bids first
>>> HOOKS.slot(round_, 1)
1
>>> second, _ = walk.apply(round_, Action.bid(3), ())
>>> HOOKS.public_action(round_, Action.bid(3), second)
'bid?'
>>> after, _ = walk.apply(second, Action.bid(5), ())      # the dealer wins a third card
>>> HOOKS.slot(after, 1), HOOKS.slot(after, 0)
(1, 4)
"""

from __future__ import annotations

from dataclasses import dataclass

from abstraction.bets.bet_abstraction import N_BETTING_STREETS
from abstraction.chance.kernels_chance import (
    AUCTION_BOTH,
    AUCTION_NONE,
    AUCTION_PLAYER_0,
    AUCTION_PLAYER_1,
    DEAL_THIRD_CARD,
)
from abstraction.hooks.holdem import SHOWDOWN_OUTCOMES, HoldemHooks, street_ordinal
from game.rules.actions import Action, ActionKind
from game.rules.nolimit import NoLimitConfig, NoLimitRound

THIRD_CARD_SLOTS = N_BETTING_STREETS - 1
"""Slots with three hole cards (flop, turn, river), after the four two-card slots."""
_CONTEXT_OF_HOLDERS = {
    (True, False): AUCTION_PLAYER_0,
    (False, True): AUCTION_PLAYER_1,
    (True, True): AUCTION_BOTH,
    (False, False): AUCTION_NONE,
}
"""Showdown context by whether each seat holds three cards (the layout of `abstraction.chance.kernels_chance`)."""
SEALED_BID = "bid?"
"""The first sealed bid as the second bidder sees it (document rules)."""


@dataclass(frozen=True)
class AuctionHooks(HoldemHooks):
    """Auction Hold'em: two- and three-card slots, a showdown context per third-card holder."""

    variant: str = "auction"
    deal_flags: int = DEAL_THIRD_CARD
    small_deck: str = "Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah As"

    def slot_streets(self, config: NoLimitConfig) -> tuple[int, ...]:
        """Two-card slots read streets 0..3, three-card slots the flop, turn and river tables."""
        two = super().slot_streets(config)
        return two + two[1:]

    def slot_names(self, config: NoLimitConfig) -> tuple[str, ...]:
        two = super().slot_names(config)
        return two + tuple(f"{name}, 3 cards" for name in two[1:])

    def slot(self, round_: NoLimitRound, seat: int) -> int:
        """The street ordinal, plus 3 if ``seat`` holds three hole cards."""
        ordinal = street_ordinal(round_.street)
        return ordinal + THIRD_CARD_SLOTS if len(round_.hole_cards[seat]) == 3 else ordinal

    def context_size(self, config: NoLimitConfig) -> tuple[int, ...]:
        return (SHOWDOWN_OUTCOMES,) * len(_CONTEXT_OF_HOLDERS)

    def showdown_context(self, round_: NoLimitRound) -> int:
        """0 seat 0 holds three cards, 1 seat 1, 2 both, 3 neither."""
        three = tuple(len(hole) == 3 for hole in round_.hole_cards)
        return _CONTEXT_OF_HOLDERS[three]

    def public_action(self, round_: NoLimitRound, action: Action, child: NoLimitRound) -> str:
        """A first bid is :data:`SEALED_BID` to the second bidder under document rules (sealed bids)."""
        sealed = round_.config.rules == "document"
        if sealed and action.kind is ActionKind.BID and ActionKind.BID in child.legal_actions():
            return SEALED_BID
        return str(action)


HOOKS = AuctionHooks()
"""The Auction tree hooks."""
