"""A round an engine plays, rebuilt in our rules modules from one seat's view (`RulesReplay`).

Each round is rebuilt in the rules module itself (``game.rules.variants`` round with
``rules="engine"``, unknown cards scripted as ``-1``), for bots that need the real round; the
tests check on recorded engine matches that it and `game.pokerbots.wire_round.WireRound` both
agree with a full-information replay at every decision.
"""

from __future__ import annotations

from game.pokerbots.engines import EngineRules
from game.pokerbots.protocol import (
    AuctionResult,
    Board,
    Clause,
    HistoryAction,
    OpponentCards,
    UpdatedHoleCards,
)


class RulesReplay:
    """The same round rebuilt in our rules module (``game.rules.variants``, ``rules="engine"``) from what
    one seat sees: cards it cannot see are scripted unknown (``-1``; ``None`` for the opponent's
    swap events) and the opponent's cards are revealed when ``O`` shows them.

    ``feed`` takes one engine line's clauses: first the cards the line reveals are appended to the
    scripted deck in the rules module's deal order (board; Swap: swap events and my replacement
    cards; Auction: the third card(s)), then the line's actions are applied.
    """

    __slots__ = ("_board_dealt", "_chance", "_hole_cards", "_variant", "round", "seat")

    def __init__(self, rules: EngineRules, seat: int, hole_cards: tuple[int, ...], bounty_rank: int | None) -> None:
        from game.rules.chance import UNKNOWN_CARD, ScriptedChance
        from game.rules.variants import get_variant

        variant = get_variant(rules.variant)
        deck = [UNKNOWN_CARD] * 4
        deck[2 * seat : 2 * seat + 2] = hole_cards
        match_state = None
        if rules.variant == "bounty":
            ranks = [UNKNOWN_CARD, UNKNOWN_CARD]
            ranks[seat] = UNKNOWN_CARD if bounty_rank is None else bounty_rank
            match_state = (ranks[0], ranks[1])
        self.seat = seat
        self._variant = rules.variant
        self._chance = ScriptedChance(deck)
        self._board_dealt = 0
        self._hole_cards = tuple(hole_cards)
        self.round = variant.start_round(variant.config_class(rules="engine"), self._chance, match_state=match_state)

    def feed(self, clauses: tuple[Clause, ...]) -> None:
        """Reveal this line's cards to the scripted chance, then apply its actions in order."""
        from game.rules.chance import UNKNOWN_CARD

        for clause in clauses:
            if isinstance(clause, Board) and len(clause.cards) > self._board_dealt:
                self._chance.extend(clause.cards[self._board_dealt :])
                self._board_dealt = len(clause.cards)
            elif isinstance(clause, UpdatedHoleCards) and self._variant == "swap":
                events: list[bool | None] = []
                for seat in (0, 1):
                    for old, new in zip(self._hole_cards, clause.cards, strict=True):
                        events.append(None if seat != self.seat else old != new)
                replacements = [new for old, new in zip(self._hole_cards, clause.cards, strict=True) if old != new]
                self._chance.extend(replacements, {"swap": events})
                self._hole_cards = clause.cards
            elif isinstance(clause, AuctionResult) and len(clause.cards) > len(self._hole_cards):
                mine, theirs = clause.bids[self.seat], clause.bids[1 - self.seat]
                third = {self.seat: clause.cards[-1]} | ({1 - self.seat: UNKNOWN_CARD} if theirs == mine else {})
                self._chance.extend([third[seat] for seat in (0, 1) if seat in third])
                self._hole_cards = clause.cards
            elif isinstance(clause, AuctionResult) and clause.bids[1 - self.seat] > clause.bids[self.seat]:
                self._chance.extend([UNKNOWN_CARD])  # only the opponent won a card
        for clause in clauses:
            if isinstance(clause, HistoryAction):
                self.round.apply(clause.action)
            elif isinstance(clause, OpponentCards):
                self.round.reveal(1 - self.seat, clause.cards)
