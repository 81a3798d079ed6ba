"""The heads-up no-limit round: one state machine shared by Hold'em, Swap, River of Blood, Auction, Bounty.

Round API (every heads-up variant; chips everywhere, never big blinds)
-----------------------------------------------------------------------
- Config: one frozen dataclass per variant (``HoldemConfig``, ``SwapConfig``,
  ``RiverOfBloodConfig``, ``AuctionConfig``, ``BountyConfig``), all built on ``NoLimitConfig``:
  ``stack`` (chips per round), ``small_blind``, ``big_blind``, ``rounds`` (per match), the
  variant's own parameters, and ``rules``: ``"document"`` (the rules documents, the spec) or
  ``"engine"`` (what the official MIT Pokerbots engines do where they differ).
- Start: ``round = game.rules.variants.start_round(config, chance, match_state=None)`` or directly
  ``HoldemRound(config, chance)``. ``chance`` is a ``game.rules.chance`` source: ``RandomChance(seed)``
  or ``ScriptedChance(deck=[...], events={...})``. ``match_state`` is what the match carries
  between rounds, by seat: Bounty's ``(rank of seat 0, rank of seat 1)``, ranks 0..12, ``-1``
  if unknown; ``None`` for the other variants. A match gets it, by player, from
  ``RoundClass.next_match_state(config, round_index, previous, rng)`` and orders it by seat.
- Seats: seat 0 is the dealer (posts the small blind, acts first preflop, last after), seat 1
  the big blind, as the engines' ``P0``/``P1``. The match runner maps bots to seats.
- State: ``round.to_act`` (seat or ``None``), ``round.is_terminal``, ``round.street`` (0 preflop,
  3 flop, 4 turn, 5 river, 6, 7, ... River-of-Blood run streets; the auction happens at 3),
  ``round.pips`` (chips this street), ``round.stacks`` (chips behind), ``round.contributions``
  (chips put in this round, blinds and auction payments included), ``round.hole_cards``
  (per seat), ``round.board``, ``round.history`` (``Move(seat, street, action)`` in order),
  ``round.chance_log`` (a ``ChanceLog``; ``.replay()`` plays the same cards again).
- Decisions: ``round.legal_actions() -> frozenset[ActionKind]`` (empty iff terminal),
  ``round.raise_bounds() -> (min_to, max_to)`` raise-to chips by the engine formula
  (``cost = opp_pip - my_pip``, ``max = min(my_stack, opp_stack + cost)``,
  ``min = min(max, cost + max(cost, big_blind))``, both added to ``my_pip``),
  ``round.bid_bounds() -> (0, own stack)``, ``round.can_apply(action)``,
  ``round.apply(action)`` (mutates; an illegal action raises ``IllegalActionError`` naming it and
  what was legal, and leaves the round unchanged).
- Information: ``round.observation(seat)`` is a frozen ``Observation`` with only what that seat
  may know (own hole cards, board, pips, stacks, contributions, public history, own legal
  actions and bounds, revealed bids, own bounty rank, the opponent's cards once shown).
- End: ``round.payoffs() -> np.ndarray[int64] shape (2,)`` chips won by each seat, summing to 0
  (only when terminal). ``round.clone()`` is an independent copy.
- Partial information: a client that sees one seat scripts ``-1`` for the cards it cannot see
  (opponent's hole cards and swap draws, ``None`` for the opponent's swap events) and calls
  ``round.reveal(seat, cards)`` when the opponent's cards are shown, before ``payoffs()``.

Deal order (what a ``ScriptedChance`` deck lists): hole cards seat 0 (2), seat 1 (2); flop (3);
Swap: then for each hole card in order (seat 0 first, second; seat 1 first, second) one
``"swap"`` event and, if it happened, the replacement card; Auction: after both bids, the
third card of the winner (a tie: seat 0's, then seat 1's); turn (1) [+ Swap events as on the
flop]; river (1); River of Blood: each run card (1).

Betting (documents and engines agree): blinds, the dealer acts first preflop and the big blind
gets the option after a limp; after the flop the big blind acts first; a street ends on a call
or on two checks; a raise is at least the previous bet or raise (and at least the big blind),
and at most what both stacks allow; an all-in for less is allowed. When no more betting is
possible (a stack is empty), ``"document"`` deals the remaining streets with no decisions while
``"engine"`` asks both players for a check on every remaining street, as the engines do.

>>> from game.rules.chance import ScriptedChance
>>> from game.cards.deck import parse_cards
>>> from game.rules.holdem import HoldemConfig, HoldemRound
>>> deck = parse_cards("Ah Ad Kc Qc 2s 7h 9d 3c 4d").tolist()
>>> round_ = HoldemRound(HoldemConfig(), ScriptedChance(deck))
>>> round_.to_act, sorted(kind.name for kind in round_.legal_actions()), round_.raise_bounds()
(0, ['CALL', 'FOLD', 'RAISE'], (4, 400))
>>> round_.apply(Action.raise_to(6)); round_.apply(Action.call())
>>> round_.street, round_.to_act, round_.pips, round_.contributions
(3, 1, (0, 0), (6, 6))
>>> round_.apply(Action.raise_to(500))
Traceback (most recent call last):
...
game.rules.actions.IllegalActionError: illegal action R500 at flop for seat 1: legal are K, R2..R394
>>> for text in ["K", "K", "K", "K", "R10", "C"]:
...     round_.apply(Action.parse(text))
>>> round_.is_terminal, round_.payoffs().tolist()
(True, [16, -16])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

import numpy as np

from game.cards.deck import card_str
from game.cards.evaluator import evaluate
from game.rules.actions import Action, ActionKind, IllegalActionError, Move
from game.rules.chance import UNKNOWN_CARD, ChanceLog, ChanceSource
from game.rules.round_base import RoundBase

PREFLOP = 0
FLOP = 3
TURN = 4
RIVER = 5

_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_RAISE = ActionKind.RAISE
_BID = ActionKind.BID

_NOTHING: frozenset[ActionKind] = frozenset()
_CHECK_ONLY = frozenset({_CHECK})
_CHECK_RAISE = frozenset({_CHECK, _RAISE})
_FOLD_CHECK = frozenset({_FOLD, _CHECK})
_FOLD_CHECK_RAISE = frozenset({_FOLD, _CHECK, _RAISE})
_FOLD_CALL = frozenset({_FOLD, _CALL})
_FOLD_CALL_RAISE = frozenset({_FOLD, _CALL, _RAISE})
_BID_ONLY = frozenset({_BID})

_BETTING = 0
_AUCTION = 1
_FOLDED = 2
_SHOWDOWN = 3


STREET_NAMES: tuple[str, ...] = ("preflop", "flop", "turn", "river")
"""The four betting streets of heads-up hold'em, by name (River of Blood's run streets follow the river)."""


def street_name(street: int) -> str:
    """``0 -> 'preflop'``, ``3 -> 'flop'``, ``4 -> 'turn'``, ``5 -> 'river'``, ``6 -> 'run 1'`` ...

    >>> street_name(0), street_name(5), street_name(7)
    ('preflop', 'river', 'run 2')
    """
    names = dict(zip((PREFLOP, FLOP, TURN, RIVER), STREET_NAMES, strict=True))
    if street in names:
        return names[street]
    if street > RIVER:
        return f"run {street - RIVER}"
    raise ValueError(f"no street {street!r}: streets are 0 (preflop), 3 (flop), 4 (turn), 5 (river), 6, 7, ...")


def _check_int(name: str, value: object, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")


@dataclass(frozen=True)
class EquityParameters:
    """What a Monte Carlo estimate of a variant's showdown equity and payoffs needs from its rules:
    the swaps still to come, the board's length and the bounty payoff (`NoLimitConfig.equity_parameters`).

    >>> from game.rules.swap import SwapConfig
    >>> SwapConfig().equity_parameters().swaps_after(FLOP)  # the turn's
    [0.05]
    >>> from game.rules.bounty import BountyConfig
    >>> parameters = BountyConfig().equity_parameters()
    >>> parameters.swaps, parameters.max_board_cards, parameters.bounty_multiplier, parameters.bounty_bonus
    ((), 5, 1.5, 10)
    """

    swaps: tuple[tuple[int, float], ...] = ()
    """``(street, chance that each hole card is replaced as it is dealt)`` for each street with swaps,
    in deal order (streets 3 flop, 4 turn); empty without swaps."""
    run_cards: bool = False
    """Whether run cards follow the river while the last board card is red."""
    max_board_cards: int = 5
    """Most board cards a round can show (`NoLimitConfig.board_card_cap`)."""
    bounty_multiplier: float = 1.0
    """A winner who holds their bounty rank wins this times the loser's contribution ..."""
    bounty_bonus: int = 0
    """... plus this many chips (1.0 and 0: no bounty)."""

    def swaps_after(self, street: int) -> list[float]:
        """The swap chances of the streets dealt after ``street`` (0 preflop, 3 flop, ...), in deal order."""
        return [probability for later, probability in self.swaps if street < later]


@dataclass(frozen=True)
class NoLimitConfig:
    """Parameters every heads-up no-limit variant shares (chips; rounds per match).

    >>> NoLimitConfig(stack=400, big_blind=2).stack
    400
    >>> NoLimitConfig(small_blind=3)
    Traceback (most recent call last):
    ...
    ValueError: small_blind must be <= big_blind (2), got 3
    >>> NoLimitConfig(rules="server")
    Traceback (most recent call last):
    ...
    ValueError: rules must be 'document' or 'engine', got 'server'
    """

    stack: int = 400
    """Chips each player starts every round with."""
    small_blind: int = 1
    """Chips the dealer (seat 0) posts."""
    big_blind: int = 2
    """Chips seat 1 posts; also the minimum bet."""
    rounds: int = 1000
    """Rounds per match (the match runner's default)."""
    rules: Literal["document", "engine"] = "document"
    """``"document"``: the rules documents; ``"engine"``: the official engines where they differ."""

    variant: ClassVar[str] = "nolimit"
    """The variant's registry name (`game.rules.variants.VARIANTS`)."""

    # Feature flags: what a variant adds to Hold'em. Code outside `game.rules`, `abstraction.hooks` and
    # `game.pokerbots` branches on these, never on the variant's name, so a new variant that sets them
    # is played, abstracted, solved and measured without touching that code.
    has_swaps: ClassVar[bool] = False
    """Hole cards may be swapped for fresh ones at street starts (Swap)."""
    has_run_cards: ClassVar[bool] = False
    """Run cards follow the river while the last board card is red (River of Blood)."""
    has_auction: ClassVar[bool] = False
    """A sealed bid for a third hole card after the flop (Auction)."""
    has_bounty: ClassVar[bool] = False
    """Each player holds a hidden bounty rank that changes the payoff (Bounty)."""

    @property
    def board_card_cap(self) -> int:
        """Most board cards a round can show: 5, or more where run cards follow the river."""
        return 5

    def equity_parameters(self) -> EquityParameters:
        """What Monte Carlo equity and payoff estimates need from these rules: the feature flags and
        board cap here; a variant with swaps or bounties adds their chances and payoff."""
        return EquityParameters(run_cards=self.has_run_cards, max_board_cards=self.board_card_cap)

    def __post_init__(self) -> None:
        _check_int("small_blind", self.small_blind, 1)
        _check_int("big_blind", self.big_blind, 1)
        _check_int("stack", self.stack, 1)
        _check_int("rounds", self.rounds, 1)
        if self.small_blind > self.big_blind:
            raise ValueError(f"small_blind must be <= big_blind ({self.big_blind}), got {self.small_blind!r}")
        if self.stack <= self.big_blind:
            raise ValueError(f"stack must be > big_blind ({self.big_blind}), got {self.stack!r}")
        if self.rules not in ("document", "engine"):
            raise ValueError(f"rules must be 'document' or 'engine', got {self.rules!r}")


@dataclass(frozen=True)
class Observation:
    """What one seat may know at one moment of a round (chips; card ints; ``-1`` never appears
    for the observing seat's own cards unless it scripted them unknown)."""

    variant: str
    seat: int
    street: int
    to_act: int | None
    hole_cards: tuple[int, ...]
    """The observing seat's current hole cards (2, or 3 after winning an auction)."""
    board: tuple[int, ...]
    pips: tuple[int, int]
    """Chips each seat has put in on this street."""
    stacks: tuple[int, int]
    """Chips each seat still has behind."""
    contributions: tuple[int, int]
    """Chips each seat has put in this round (blinds and auction payments included)."""
    history: tuple[Move, ...]
    """Public actions in order; an opponent's sealed bid appears only once the auction resolves."""
    legal_actions: frozenset[ActionKind]
    """Empty unless this seat is to act."""
    raise_bounds: tuple[int, int] | None
    """Raise-to chips (min, max) when this seat may raise, else ``None``."""
    bid_bounds: tuple[int, int] | None
    """Bid chips (min, max) when this seat must bid, else ``None``."""
    bids: tuple[int | None, int | None]
    """Auction bids by seat once revealed (``None`` before, and in other variants)."""
    bounty_rank: int | None
    """This seat's bounty rank 0..12 (Bounty only)."""
    opponent_hole_cards: tuple[int, ...]
    """The opponent's cards once shown at showdown, else ``()``."""
    payoffs: tuple[int, int] | None
    """Chips won by each seat once the round is over (``None`` before, or if unknown)."""


class NoLimitRound(RoundBase):
    """Heads-up no-limit Hold'em round; variants subclass it and override the marked hooks.

    Hooks: ``_after_street_dealt`` (Swap swaps, Auction opens its auction), ``_has_next_street``
    (River of Blood's runs), ``_award`` and ``_split`` (Bounty's payoffs),
    ``_FOLD_ALWAYS_LEGAL_IN_ENGINE`` (Bounty's 2025 engine).
    """

    __slots__ = (
        "_board",
        "_chance",
        "_deck_log",
        "_engine",
        "_event_log",
        "_folder",
        "_history",
        "_hole_cards",
        "_last_actor",
        "_payoffs",
        "_phase",
        "_pips",
        "_stacks",
        "_street",
        "_street_actions",
        "_to_act",
        "config",
        "match_state",
    )

    _FOLD_ALWAYS_LEGAL_IN_ENGINE: ClassVar[bool] = False

    def __init__(self, config: NoLimitConfig, chance: ChanceSource, *, match_state: object = None) -> None:
        if not isinstance(config, NoLimitConfig):
            raise TypeError(f"config must be a NoLimitConfig, got {config!r}")
        self.config = config
        self.match_state = self._check_match_state(match_state)
        self._chance = chance
        self._engine = config.rules == "engine"
        self._deck_log: list[int] = []
        self._event_log: dict[str, list[bool | None]] = {}
        cards = self._deal(4)
        self._hole_cards = [cards[0:2], cards[2:4]]
        self._board: list[int] = []
        self._history: list[Move] = []
        self._street = PREFLOP
        self._phase = _BETTING
        self._pips = [config.small_blind, config.big_blind]
        self._stacks = [config.stack - config.small_blind, config.stack - config.big_blind]
        self._street_actions = 0
        self._to_act: int | None = 0
        self._folder = -1
        self._last_actor = -1
        self._payoffs: tuple[int, int] | None = None

    # ------------------------------------------------------------------ hooks for variants
    @classmethod
    def next_match_state(
        cls, config: NoLimitConfig, round_index: int, previous: object, rng: np.random.Generator
    ) -> object:
        """The match state for round ``round_index`` (0-based), by player, given the previous one.

        ``None`` for variants without match state; Bounty returns the two players' ranks. The
        match runner orders it by seat before ``start_round``.
        """
        return None

    def _check_match_state(self, match_state: object) -> object:
        """Validate the match state this variant needs (none by default)."""
        if match_state is not None:
            raise ValueError(f"{self.config.variant} takes no match_state, got {match_state!r}")
        return None

    def _after_street_dealt(self) -> bool:
        """Called when a street's board cards are dealt; True if it opened a non-betting decision."""
        return False

    def _has_next_street(self) -> bool:
        """Whether another street follows the current one (Hold'em: until the river)."""
        return self._street < RIVER

    def _award(self, winner: int) -> tuple[int, int]:
        """Payoffs when ``winner`` takes the pot (fold or better hand): the loser's contribution."""
        won = self.config.stack - self._stacks[1 - winner]
        return (won, -won) if winner == 0 else (-won, won)

    def _split(self) -> tuple[int, int]:
        """Payoffs of a showdown tie: the document returns contributions; the engine splits the pot
        with ``(stack0 - stack1) // 2`` to seat 0 (differs only with unequal contributions)."""
        if not self._engine:
            return (0, 0)
        delta = (self._stacks[0] - self._stacks[1]) // 2
        return (delta, -delta)

    # ------------------------------------------------------------------ public state
    @property
    def variant(self) -> str:
        return self.config.variant

    @property
    def is_terminal(self) -> bool:
        return self._to_act is None

    @property
    def pips(self) -> tuple[int, int]:
        return (self._pips[0], self._pips[1])

    @property
    def stacks(self) -> tuple[int, int]:
        return (self._stacks[0], self._stacks[1])

    @property
    def contributions(self) -> tuple[int, int]:
        stack = self.config.stack
        return (stack - self._stacks[0], stack - self._stacks[1])

    @property
    def pot(self) -> int:
        """Chips in the pot (both contributions)."""
        return 2 * self.config.stack - self._stacks[0] - self._stacks[1]

    @property
    def hole_cards(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (tuple(self._hole_cards[0]), tuple(self._hole_cards[1]))

    @property
    def chance_log(self) -> ChanceLog:
        """Every chance outcome used so far (``.replay()`` gives a ``ScriptedChance``)."""
        return ChanceLog(
            deck=tuple(self._deck_log),
            events={name: tuple(outcomes) for name, outcomes in self._event_log.items()},
        )

    # ------------------------------------------------------------------ decisions
    def legal_actions(self) -> frozenset[ActionKind]:
        """Action kinds the seat to act may take; empty iff the round is over."""
        seat = self._to_act
        if seat is None:
            return _NOTHING
        if self._phase == _AUCTION:
            return _BID_ONLY
        stacks = self._stacks
        cost = self._pips[1 - seat] - self._pips[seat]
        if cost == 0:
            fold = self._engine and self._FOLD_ALWAYS_LEGAL_IN_ENGINE
            if stacks[0] == 0 or stacks[1] == 0:
                return _FOLD_CHECK if fold else _CHECK_ONLY
            return _FOLD_CHECK_RAISE if fold else _CHECK_RAISE
        if cost >= stacks[seat] or stacks[1 - seat] == 0:
            return _FOLD_CALL
        return _FOLD_CALL_RAISE

    def raise_bounds(self) -> tuple[int, int]:
        """``(min, max)`` raise-to chips for the seat to act (the engines' formula).

        Meaningful when ``RAISE`` is legal; raises ``ValueError`` outside a betting decision.
        """
        seat = self._to_act
        if seat is None or self._phase != _BETTING:
            raise ValueError(f"no raise bounds at {self._where()}: nobody is betting")
        my_pip = self._pips[seat]
        cost = self._pips[1 - seat] - my_pip
        most = min(self._stacks[seat], self._stacks[1 - seat] + cost)
        least = min(most, cost + max(cost, self.config.big_blind))
        return (my_pip + least, my_pip + most)

    def bid_bounds(self) -> tuple[int, int]:
        """``(0, own stack)`` bid chips during an auction; ``ValueError`` otherwise."""
        seat = self._to_act
        if seat is None or self._phase != _AUCTION:
            raise ValueError(f"no bid bounds at {self._where()}: no auction is open")
        return (0, self._stacks[seat])

    def verify(self, action: Action) -> None:
        """Raise ``IllegalActionError`` unless ``action`` is legal now (``TypeError`` if not an Action)."""
        self._check_is_action(action)
        legal = self.legal_actions()
        kind = action.kind
        if kind in legal:
            if kind is _RAISE:
                low, high = self.raise_bounds()
            elif kind is _BID:
                low, high = self.bid_bounds()
            else:
                return
            if low <= action.amount <= high:
                return
        raise IllegalActionError(f"illegal action {action} at {self._where()}: {self._describe_legal(legal)}")

    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act (chips; raise-to for RAISE). Illegal: no change, error."""
        self.verify(action)
        seat: int = self._to_act  # type: ignore[assignment]
        self._history.append(Move(seat, self._street, action))
        self._last_actor = seat
        kind = action.kind
        if kind is _BID:
            self._apply_bid(seat, action.amount)
            return
        self._street_actions += 1
        pips = self._pips
        if kind is _FOLD:
            self._folder = seat
            self._phase = _FOLDED
            self._to_act = None
        elif kind is _CHECK:
            if self._street_actions >= 2:
                self._close_street()
            else:
                self._to_act = 1 - seat
        elif kind is _CALL:
            cost = pips[1 - seat] - pips[seat]
            pips[seat] += cost
            self._stacks[seat] -= cost
            if self._street == PREFLOP and self._street_actions == 1:
                self._to_act = 1 - seat  # the big blind's option after a limp
            else:
                self._close_street()
        else:
            added = action.amount - pips[seat]
            pips[seat] = action.amount
            self._stacks[seat] -= added
            self._to_act = 1 - seat

    def _apply_bid(self, seat: int, amount: int) -> None:
        raise AssertionError(f"{self.config.variant} has no auction")  # unreachable: BID never legal here

    # ------------------------------------------------------------------ streets
    def _deal(self, count: int) -> list[int]:
        cards = self._chance.deal(count)
        self._deck_log.extend(cards)
        return cards

    def _flip(self, name: str, probability: float) -> bool | None:
        outcome = self._chance.flip(name, probability)
        self._event_log.setdefault(name, []).append(outcome)
        return outcome

    def _betting_open(self) -> bool:
        """Whether the new street has betting decisions (engine: always, check-only when all-in)."""
        return self._engine or (self._stacks[0] > 0 and self._stacks[1] > 0)

    def _close_street(self) -> None:
        """The betting round is over: deal on until a street has decisions, or go to showdown."""
        while self._has_next_street():
            self._board.extend(self._deal(3 if self._street == PREFLOP else 1))
            self._street = FLOP if self._street == PREFLOP else self._street + 1
            self._pips = [0, 0]
            self._street_actions = 0
            if self._after_street_dealt():
                return
            if self._betting_open():
                self._to_act = 1
                return
        self._phase = _SHOWDOWN
        self._to_act = None

    def _start_betting_after_decision(self) -> None:
        """Continue after a non-betting decision (the auction) closed: betting, or deal on."""
        self._phase = _BETTING
        if self._betting_open():
            self._to_act = 1
        else:
            self._close_street()

    # ------------------------------------------------------------------ results
    def payoffs(self) -> np.ndarray:
        """Chips won by seat 0 and seat 1 (``int64``, shape ``(2,)``, sum 0); only when terminal."""
        if self._to_act is not None:
            raise ValueError(f"no payoffs yet: the round is at {self._where()}")
        if self._payoffs is None:
            self._payoffs = self._settle()
        return np.array(self._payoffs, dtype=np.int64)

    def payoffs_if(self, winner: int | None) -> tuple[int, int]:
        """Chips won by each seat had ``winner`` (seat 0 or 1; ``None``: a showdown tie) taken the
        pot, by the same award and split code as :attr:`payoffs`, whatever the cards say. Only when
        terminal. For payoff tables over every showdown outcome (the abstract game's terminals).

        >>> from game.rules.chance import ScriptedChance
        >>> from game.cards.deck import parse_cards
        >>> round_ = NoLimitRound(NoLimitConfig(), ScriptedChance(parse_cards("Ah Ad 2c 3d").tolist()))
        >>> round_.apply(Action.fold())
        >>> round_.payoffs_if(0), round_.payoffs_if(1), round_.payoffs_if(None)
        ((2, -2), (-1, 1), (0, 0))
        """
        if self._to_act is not None:
            raise ValueError(f"no payoffs yet: the round is at {self._where()}")
        if winner is None:
            return self._split()
        if winner not in (0, 1):
            raise ValueError(f"winner must be seat 0, seat 1 or None (a tie), got {winner!r}")
        return self._award(winner)

    def _settle(self) -> tuple[int, int]:
        if self._phase == _FOLDED:
            return self._award(1 - self._folder)
        values = [self._hand_value(seat) for seat in (0, 1)]
        if values[0] == values[1]:
            return self._split()
        return self._award(0 if values[0] > values[1] else 1)

    def _hand_value(self, seat: int) -> int:
        cards = self._hole_cards[seat] + self._board
        if UNKNOWN_CARD in cards:
            raise ValueError(
                f"cannot settle the showdown: cards of seat {seat} or the board are unknown "
                f"({cards}); call reveal({seat}, cards) first"
            )
        return evaluate(cards)

    def reveal(self, seat: int, cards: list[int] | tuple[int, ...]) -> None:
        """Set the hole cards of ``seat`` learned late (e.g. shown at showdown); unknown (-1) before.

        Known cards must not change; the number of cards must match.
        """
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        new = [int(card) for card in cards]
        old = self._hole_cards[seat]
        if len(new) != len(old):
            raise ValueError(f"seat {seat} holds {len(old)} cards, reveal gave {len(new)}: {new}")
        for before, after in zip(old, new, strict=True):
            if not 0 <= after < 52:
                raise ValueError(f"no card {after!r} in revealed cards {new}: cards are 0..51")
            if before != UNKNOWN_CARD and before != after:
                raise ValueError(f"seat {seat}'s card {card_str(before)} is known; reveal gave {new}")
        self._hole_cards[seat] = new
        self._payoffs = None

    # ------------------------------------------------------------------ views
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (see ``Observation``)."""
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        to_act = self._to_act
        legal = self.legal_actions() if to_act == seat else _NOTHING
        showdown = self._phase == _SHOWDOWN
        payoffs = None
        if to_act is None:
            try:
                payoffs = tuple(int(x) for x in self.payoffs())
            except ValueError:
                payoffs = None
        return Observation(
            variant=self.config.variant,
            seat=seat,
            street=self._street,
            to_act=to_act,
            hole_cards=tuple(self._hole_cards[seat]),
            board=tuple(self._board),
            pips=self.pips,
            stacks=self.stacks,
            contributions=self.contributions,
            history=tuple(self._visible_history(seat)),
            legal_actions=legal,
            raise_bounds=self.raise_bounds() if _RAISE in legal else None,
            bid_bounds=self.bid_bounds() if _BID in legal else None,
            bids=self._revealed_bids(),
            bounty_rank=self._bounty_rank(seat),
            opponent_hole_cards=tuple(self._hole_cards[1 - seat]) if showdown else (),
            payoffs=payoffs,  # type: ignore[arg-type]
        )

    def _visible_history(self, seat: int) -> list[Move]:
        return self._history

    def _revealed_bids(self) -> tuple[int | None, int | None]:
        return (None, None)

    def _bounty_rank(self, seat: int) -> int | None:
        return None

    def _where(self) -> str:
        if self._to_act is None:
            return "the end of the round"
        phase = " auction" if self._phase == _AUCTION else ""
        return f"{street_name(self._street)}{phase} for seat {self._to_act}"

    def _describe_legal(self, legal: frozenset[ActionKind]) -> str:
        if not legal:
            return "the round is over"
        parts = []
        for kind in (_FOLD, _CHECK, _CALL, _RAISE, _BID):
            if kind not in legal:
                continue
            if kind in (_RAISE, _BID):
                letter = "R" if kind is _RAISE else "A"
                low, high = self.raise_bounds() if kind is _RAISE else self.bid_bounds()
                parts.append(f"{letter}{low}" if low == high else f"{letter}{low}..{letter}{high}")
            else:
                parts.append(str(Action(kind)))
        return "legal are " + ", ".join(parts)

    def __repr__(self) -> str:
        holes = " | ".join(
            " ".join("??" if card == UNKNOWN_CARD else card_str(card) for card in hand) for hand in self._hole_cards
        )
        board = " ".join("??" if card == UNKNOWN_CARD else card_str(card) for card in self._board)
        return (
            f"{type(self).__name__}({self._where()}, holes [{holes}], board [{board}], "
            f"pips {self.pips}, stacks {self.stacks}, history {' '.join(map(str, self._history))})"
        )

    # ------------------------------------------------------------------ copying
    def clone(self) -> NoLimitRound:
        """An independent copy (the chance source is cloned too; see ``RandomChance.clone``)."""
        copy = type(self).__new__(type(self))
        copy.config = self.config
        copy.match_state = self.match_state
        copy._chance = self._chance.clone()
        copy._engine = self._engine
        copy._street = self._street
        copy._to_act = self._to_act
        copy._phase = self._phase
        copy._pips = self._pips[:]
        copy._stacks = self._stacks[:]
        copy._street_actions = self._street_actions
        copy._hole_cards = [self._hole_cards[0][:], self._hole_cards[1][:]]
        copy._board = self._board[:]
        copy._history = self._history[:]
        copy._deck_log = self._deck_log[:]
        copy._event_log = {name: outcomes[:] for name, outcomes in self._event_log.items()}
        copy._folder = self._folder
        copy._last_actor = self._last_actor
        copy._payoffs = self._payoffs
        self._clone_extra(copy)
        return copy

    def _clone_extra(self, copy: NoLimitRound) -> None:
        """Copy variant state into ``copy`` (variants with extra slots override)."""


_SORTED_KINDS: dict[frozenset[ActionKind], tuple[ActionKind, ...]] = {}


def sample_legal_action(round_: NoLimitRound, rng: np.random.Generator) -> Action:
    """A legal action for the seat to act: a uniform kind, then a uniform raise-to or bid amount.

    For random playouts (fuzzing, benchmarks, a random bot). ``ValueError`` if the round is over.
    Uniform integers come from ``floor(rng.random() * n)`` (several times faster than
    ``rng.integers`` per scalar; the bias is below 2**-40 for these ranges).

    >>> from game.rules.chance import RandomChance
    >>> from game.rules.holdem import HoldemConfig, HoldemRound
    >>> round_ = HoldemRound(HoldemConfig(), RandomChance(0))
    >>> round_.can_apply(sample_legal_action(round_, np.random.default_rng(0)))
    True
    """
    legal = round_.legal_actions()
    if not legal:
        raise ValueError("no legal action: the round is over")
    kinds = _SORTED_KINDS.get(legal)
    if kinds is None:
        kinds = _SORTED_KINDS[legal] = tuple(sorted(legal))
    kind = kinds[int(rng.random() * len(kinds))] if len(kinds) > 1 else kinds[0]
    if kind is _RAISE or kind is _BID:
        low, high = round_.raise_bounds() if kind is _RAISE else round_.bid_bounds()
        return Action(kind, low + int(rng.random() * (high - low + 1)))
    return Action(kind)
