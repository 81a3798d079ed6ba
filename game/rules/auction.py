"""Auction Hold'em (MIT Pokerbots 2024): a second-price auction for a third hole card after the flop.

Right after the flop is dealt, before flop betting, each player bids 0..own remaining stack
(chips). The higher bid wins a third hole card and pays the lower bid into the pot; on a tie
(0-0 included) both pay their bid and both get a card. Payments are contributions outside the
street's pips, so contributions can end unequal. Then flop betting starts, big blind first.

- ``rules="document"``: sealed simultaneous bids, modelled as two decisions (the big blind
  first) where the dealer's observation does not show the big blind's bid until both are in.
  A showdown tie changes no bankroll. If both players are already all-in, the auction resolves
  itself as a 0-0 tie (both get a card) with no decisions.
- ``rules="engine"``: the 2024 engine: the big blind bids first and the dealer sees that bid;
  a showdown tie splits the pot, ``(stack0 - stack1) // 2`` to seat 0; all-in players still
  bid (0).

>>> from game.rules.chance import ScriptedChance
>>> from game.cards.deck import format_cards, parse_cards
>>> deck = parse_cards("Ah Ad Kc Qc 2s 7h 9d Jc").tolist()
>>> round_ = AuctionRound(AuctionConfig(), ScriptedChance(deck))
>>> round_.apply(Action.call()); round_.apply(Action.check())
>>> round_.street, round_.to_act, round_.bid_bounds()
(3, 1, (0, 398))
>>> round_.apply(Action.bid(30)); round_.observation(0).history[-1].action
Action(kind=<ActionKind.CHECK: 1>, amount=0)
>>> round_.apply(Action.bid(22))
>>> format_cards(round_.hole_cards[1]), round_.contributions, round_.observation(0).bids
('Kc Qc Jc', (2, 24), (22, 30))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from game.rules.actions import Action, ActionKind, Move
from game.rules.chance import ChanceSource
from game.rules.nolimit import _AUCTION, FLOP, NoLimitConfig, NoLimitRound

__all__ = ["Action", "AuctionConfig", "AuctionRound"]


@dataclass(frozen=True)
class AuctionConfig(NoLimitConfig):
    """Auction Hold'em: stack 400, blinds 1/2, one second-price auction after the flop."""

    variant: ClassVar[str] = "auction"
    has_auction: ClassVar[bool] = True


class AuctionRound(NoLimitRound):
    """One round of Auction Hold'em; the auction is at street 3 with ``legal_actions() == {BID}``."""

    __slots__ = ("_bids",)

    def __init__(self, config: NoLimitConfig, chance: ChanceSource, *, match_state: object = None) -> None:
        self._bids: list[int | None] = [None, None]
        super().__init__(config, chance, match_state=match_state)

    def _after_street_dealt(self) -> bool:
        if self._street != FLOP:
            return False
        if not self._engine and self._stacks[0] == 0 and self._stacks[1] == 0:
            self._bids = [0, 0]
            self._resolve_auction()
            return False
        self._phase = _AUCTION
        self._to_act = 1
        return True

    def _apply_bid(self, seat: int, amount: int) -> None:
        self._bids[seat] = amount
        if self._bids[1 - seat] is None:
            self._to_act = 1 - seat
            return
        self._resolve_auction()
        self._start_betting_after_decision()

    def _resolve_auction(self) -> None:
        bid0, bid1 = self._bids
        assert bid0 is not None and bid1 is not None
        if bid0 == bid1:
            self._stacks[0] -= bid0
            self._stacks[1] -= bid1
            self._hole_cards[0].append(self._deal(1)[0])
            self._hole_cards[1].append(self._deal(1)[0])
            return
        winner = 0 if bid0 > bid1 else 1
        self._stacks[winner] -= self._bids[1 - winner]  # type: ignore[operator]
        self._hole_cards[winner].append(self._deal(1)[0])

    @property
    def bids(self) -> tuple[int | None, int | None]:
        """Bids by seat so far (``None`` = not yet bid); chips."""
        return (self._bids[0], self._bids[1])

    def _auction_open(self) -> bool:
        return self._phase == _AUCTION

    def _visible_history(self, seat: int) -> list[Move]:
        if self._engine or not self._auction_open():
            return self._history
        return [move for move in self._history if move.seat == seat or move.action.kind is not ActionKind.BID]

    def _revealed_bids(self) -> tuple[int | None, int | None]:
        if self._auction_open() or self._bids[0] is None:
            return (None, None)
        return (self._bids[0], self._bids[1])

    def _clone_extra(self, copy: NoLimitRound) -> None:
        copy._bids = self._bids[:]  # type: ignore[attr-defined]
