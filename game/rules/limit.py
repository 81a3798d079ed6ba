"""N-player limit Texas hold'em by the URCS rules document: one game (``LimitRound``).

The freeze-out that plays games until one player holds every chip is `game.play.freeze_out`.

Seats are ``0..n-1`` clockwise; ``button`` is the button's seat. One game (``LimitRound``):
everyone antes; two hole cards each; four betting rounds (pre-flop, flop, turn, river) with the
low limit in the first two and the high limit in the last two; then a showdown. In a round *with
blinds* the button posts the blind (half the low limit) and the next player decides to straddle
(raise to the low limit), fold, or tap out; the player after acts first. In a round *without
blinds* the first-position player acts first and may check. Every bet and raise is one limit;
at most ``max_raises`` raises per round (neither the straddle nor a round's opening bet counts).
A player short of chips taps out (puts in everything) and makes no more bets. The pot is divided
by the document's expectation method (``game.rules.pots``). Amounts are chips (dollars in the text).
Beyond the document, ``LimitConfig`` also deals smaller games (``hole_cards``, ``board_cards``: one
hole card and a board card a round, say) and drops the blind and straddle (``blinds=False``): the
forms OpenSpiel's ``universal_poker`` plays too, against which the limit system is checked
(``solver.games.openspiel_adapter.universal_poker_parameters``). A street is named by the board
cards dealt when its betting opens (hold'em: 0, 3, 4, 5).

Choices where the document is open or contradicts itself (all configurable where it matters):

- Ante: the text says half the low limit rounded down, at least 1 (5 for a low limit of 10); its
  defaults line says "ante=$2". ``LimitConfig.ante`` defaults to the rule (5) and can be set to 2.
- Blinds in round two: the text describes round one, says round two is held "as described
  above", and that there is no blind in rounds three and four; so by default round two has a
  blind and a straddle again (``blinds_in_second_round=True``; ``False`` gives standard hold'em).
- Who posts: the blind is posted by the first player from the button clockwise (the button
  itself first) who has not folded and still has chips; the straddle by the next such player. A
  short player taps out for the blind or straddle; the others must still call the full amount.
- First position, in rounds without blinds, is the first such player from the button clockwise
  (the button itself, who also posted the blind: it plays the small blind's seat).
- Tapping out is a ``CALL`` for less. A raise needs chips for the call plus one full limit; there
  are no short all-in raises (the text allows tapping out only when a player cannot call). Nobody
  may raise unless another player could put in more than the current bet (as in PokerKit), and
  nobody may fold when checking is allowed.
- Check-raise off: a player who checked this round may only call or fold when the action comes
  back; once they have called, they may raise if it returns again (the text's last sentence).
- Hands: the text says players use "one or both" hole cards; ``must_use_hole_card=True`` (default)
  enforces that (never playing the board); ``False`` is standard best-of-seven. Kickers count as
  in standard hold'em (the text's "quads/trips cannot tie" holds only without a shared board).
- Showdown: the last player to bet or raise on the river shows first (the "called" player, who
  may not muck); if nobody bet on the river, the first-position player does; then clockwise. With
  ``cards_speak=False`` (default) each player announces five cards from hole and board (an
  announcement the cards cannot make is refused; a weaker true one is official) or mucks.
- Odd chips of a split go one at a time to the tied players from the button clockwise.

Actions are ``game.rules.actions.Action``: ``FOLD``, ``CHECK``, ``CALL`` (tap out when short),
``RAISE`` with the raise-to total of this round's bets (the one legal amount, in
``legal_moves()`` and ``raise_bounds()``; the straddle is ``raise_to(low_limit)``), and at an announced showdown
``ANNOUNCE`` (five cards, any order) or ``MUCK``. Cards are dealt from a ``game.rules.chance`` source in
this order: seat 0's two hole cards, seat 1's, ..., then three flop cards, the turn, the river.

>>> from game.rules.actions import Action
>>> game = LimitRound(LimitConfig(n_players=3, cards_speak=True), seed=1)
>>> game.to_act, game.stacks, game.legal_moves()  # the button posted 5, seat 1 may straddle
(1, (990, 995, 995), [Action(kind=<ActionKind.FOLD: 0>, amount=0), Action(kind=<ActionKind.RAISE: 3>, amount=10)])
>>> for action in ["R10", "F", "C"]:  # straddle; seat 2 folds; the button calls 5 more
...     game.apply(Action.parse(action))
>>> game.street, game.to_act, game.pot  # flop: the button blinds 5 again, seat 1 may straddle
(3, 1, 40)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, combinations

import numpy as np

from game.cards.deck import N_CARDS, format_cards
from game.cards.evaluator import evaluate_batch, evaluate_few
from game.cards.rng import SeedLike
from game.dataclass_support import check_int
from game.rules.actions import Action, ActionKind, IllegalActionError, Move
from game.rules.chance import UNKNOWN_CARD, ChanceLog, ChanceSource, RandomChance
from game.rules.nolimit import PREFLOP, street_name
from game.rules.pots import divide_pot
from game.rules.round_base import RoundBase

MIN_PLAYERS, MAX_PLAYERS = 2, 10

HOLDEM_BOARD_CARDS = (0, 3, 1, 1)
"""Board cards dealt as each of hold'em's betting rounds opens (pre-flop, flop, turn, river)."""


@dataclass(frozen=True)
class LimitConfig:
    """Every parameter of the N-player limit rules (chips). ``ante=None`` means the rule's value.

    >>> LimitConfig().ante, LimitConfig().blind, LimitConfig().straddle
    (5, 5, 10)
    >>> LimitConfig(ante=2).ante  # the document's "ante=$2" reading
    2
    >>> LimitConfig(low_limit=1)
    Traceback (most recent call last):
    ...
    ValueError: low_limit must be >= 2 chips (the blind is half of it, rounded down), got 1
    """

    n_players: int = 2
    """Seats at the start of a freeze-out, 2..10 (a single ``LimitRound`` takes its stacks' count)."""
    buy_in: int = 1000
    """Chips each player starts the freeze-out with."""
    low_limit: int = 10
    """Bet and raise size in rounds one and two; the straddle; twice the blind."""
    high_limit: int = 20
    """Bet and raise size in rounds three and four."""
    ante: int | None = None
    """Ante per player per game; ``None``: half the low limit rounded down, at least 1."""
    max_raises: int = 3
    """Raises allowed per betting round, all players together (straddle and opening bet excluded)."""
    check_raise: bool = True
    """Whether a player who checked may raise when the action comes back to them."""
    cards_speak: bool = False
    """``True``: best hands are found automatically; ``False``: players announce hands (or muck)."""
    blinds_in_second_round: bool = True
    """Whether round two (the flop) has a blind and a straddle like round one."""
    must_use_hole_card: bool = True
    """Whether a hand must use at least one hole card ("one or both"), i.e. never the board alone."""
    blinds: bool = True
    """Whether round one opens with the blind and the straddle (round two too with
    ``blinds_in_second_round``); ``False``: antes only, every round opens with the first-position
    player, who may check (the form OpenSpiel's ``universal_poker`` can express)."""
    hole_cards: int = 2
    """Hole cards dealt to each player (hold'em: 2)."""
    board_cards: tuple[int, ...] = HOLDEM_BOARD_CARDS
    """Board cards dealt as each betting round opens, one entry per round: 0 first, then >= 1 each
    (hold'em: 0 3 1 1). Hands of fewer than five cards rank by pairs, then ranks
    (``game.cards.evaluator.evaluate_few``)."""

    def __post_init__(self) -> None:
        for name in ("n_players", "buy_in", "low_limit", "high_limit", "max_raises"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, got {value!r}")
        if not MIN_PLAYERS <= self.n_players <= MAX_PLAYERS:
            raise ValueError(f"n_players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {self.n_players}")
        if self.buy_in < 1:
            raise ValueError(f"buy_in must be >= 1 chip, got {self.buy_in}")
        if self.low_limit < 2:
            raise ValueError(
                f"low_limit must be >= 2 chips (the blind is half of it, rounded down), got {self.low_limit}"
            )
        if self.high_limit < 1:
            raise ValueError(f"high_limit must be >= 1 chip, got {self.high_limit}")
        if self.max_raises < 0:
            raise ValueError(f"max_raises must be >= 0, got {self.max_raises}")
        check_int("hole_cards", self.hole_cards)
        board = tuple(self.board_cards) if isinstance(self.board_cards, (list, tuple)) else None
        if (
            not board
            or any(isinstance(n, bool) or not isinstance(n, int) for n in board)
            or board[0] != 0
            or min(board[1:], default=1) < 1
        ):
            raise ValueError(
                f"board_cards must list the board cards of each betting round, 0 first and >= 1 after "
                f"(hold'em: [0, 3, 1, 1]), got {self.board_cards!r}"
            )
        object.__setattr__(self, "board_cards", board)
        if self.n_players * self.hole_cards + sum(board) > N_CARDS:
            raise ValueError(
                f"a game of {self.n_players} players deals {self.n_players * self.hole_cards + sum(board)} cards "
                f"({self.hole_cards} hole cards each, boards {list(board)}), more than the deck's {N_CARDS}"
            )
        if self.ante is None:
            object.__setattr__(self, "ante", max(1, self.low_limit // 2))
        elif isinstance(self.ante, bool) or not isinstance(self.ante, int) or self.ante < 0:
            raise ValueError(f"ante must be None or an int >= 0 chips, got {self.ante!r}")

    @property
    def blind(self) -> int:
        """The button's blind: half the low limit, rounded down (chips)."""
        return self.low_limit // 2

    @property
    def straddle(self) -> int:
        """The straddle: the low limit (chips)."""
        return self.low_limit

    @functools.cached_property
    def streets(self) -> tuple[int, ...]:
        """The streets, each named by the board cards dealt when its betting opens (hold'em: 0, 3, 4, 5).

        >>> LimitConfig().streets, LimitConfig(hole_cards=1, board_cards=(0, 1)).streets
        ((0, 3, 4, 5), (0, 1))
        """
        return tuple(accumulate(self.board_cards))

    @functools.cached_property
    def _ordinals(self) -> dict[int, int]:
        return {street: ordinal for ordinal, street in enumerate(self.streets)}

    @property
    def is_holdem(self) -> bool:
        """Whether the deal is hold'em's: 2 hole cards each, boards 0 3 1 1."""
        return self.hole_cards == 2 and self.board_cards == HOLDEM_BOARD_CARDS

    def street_ordinal(self, street: int) -> int:
        """The betting round (0-based) of ``street`` (board cards dealt); ValueError if it is none."""
        ordinal = self._ordinals.get(street)
        if ordinal is None:
            raise ValueError(f"no street with {street!r} board cards: the streets are {list(self.streets)}")
        return ordinal

    def street_name(self, street: int) -> str:
        """``'preflop'``, ``'flop'``... when the boards are hold'em's, else ``'round k'`` (1-based)."""
        ordinal = self.street_ordinal(street)
        if self.board_cards == HOLDEM_BOARD_CARDS[: len(self.board_cards)]:
            return street_name(street)
        return f"round {ordinal + 1}"

    def limit(self, street: int) -> int:
        """Bet size on ``street`` (board cards: 0, 3, 4, 5): the low limit in the first two rounds, then the high."""
        return self.low_limit if self.street_ordinal(street) < 2 else self.high_limit

    def has_blinds(self, street: int) -> bool:
        """Whether the betting on ``street`` (board cards: 0, 3, 4, 5) opens with a blind and a straddle."""
        ordinal = self.street_ordinal(street)
        return self.blinds and (ordinal == 0 or (ordinal == 1 and self.blinds_in_second_round))


@functools.cache
def _index_sets(n_hole: int, n_board: int, must_use_hole_card: bool) -> tuple[tuple[int, ...], ...]:
    """Index sets into ``hole + board`` of the hands one may make: five cards (all, when fewer), with
    ``must_use_hole_card`` at least one of the first ``n_hole``."""
    size = min(5, n_hole + n_board)
    return tuple(
        combo for combo in combinations(range(n_hole + n_board), size) if combo[0] < n_hole or not must_use_hole_card
    )


def hand_choices(hole: Sequence[int], board: Sequence[int], must_use_hole_card: bool) -> list[tuple[int, ...]]:
    """Every hand a player may announce from their hole cards and the board: five cards (all of
    them when there are fewer), with ``must_use_hole_card`` at least one hole card.

    Each is a sorted tuple of card ints; from two hole cards and five on the board, 21 of them, or
    20 when a hole card must be used.

    >>> from game.cards.deck import parse_cards
    >>> len(hand_choices(parse_cards("Ah Kh"), parse_cards("2c 3c 4c 5c 6c"), True))
    20
    """
    hole, board = [int(card) for card in hole], [int(card) for card in board]
    if not hole:
        raise ValueError(f"need at least one hole card, got none (board {format_cards(board)!r})")
    cards = hole + board
    index_sets = _index_sets(len(hole), len(board), must_use_hole_card)
    return [tuple(sorted(cards[index] for index in index_set)) for index_set in index_sets]


def hand_values(hands: Sequence[Sequence[int]]) -> np.ndarray:
    """Values (higher wins) of hands of one size: five-card ones by ``game.cards.evaluator.evaluate_batch``,
    smaller ones by ``evaluate_few``. int64 ``(len(hands),)``."""
    array = np.array(hands, dtype=np.int8).reshape(len(hands), -1)
    if array.shape[1] >= 5:
        return evaluate_batch(array).astype(np.int64)
    return np.array([evaluate_few(row) for row in array], dtype=np.int64)


def best_hand(hole: Sequence[int], board: Sequence[int], must_use_hole_card: bool) -> tuple[int, tuple[int, ...]]:
    """The best hand (value from ``game.cards.evaluator``, higher wins) and its five cards (all, when fewer).

    With ``must_use_hole_card`` the board alone is never the hand, as the rules text says:

    >>> from game.cards.deck import parse_cards
    >>> hole, board = parse_cards("2d 3h"), parse_cards("Ts Js Qs Ks As")
    >>> best_hand(hole, board, False)[0], format_cards(best_hand(hole, board, True)[1])
    (7462, '3h Js Qs Ks As')
    """
    choices = hand_choices(hole, board, must_use_hole_card)
    values = hand_values(choices)
    best = int(np.argmax(values))
    return int(values[best]), choices[best]


@dataclass(frozen=True)
class LimitObservation:
    """What ``seat`` may know at one moment: its own hole cards, the board, chips and history."""

    seat: int
    button: int
    street: int
    """Board cards dealt: 0 pre-flop, 3 flop, 4 turn, 5 river (and showdown)."""
    to_act: int | None
    hole_cards: tuple[int, ...]
    board: tuple[int, ...]
    pips: tuple[int, ...]
    """Chips each seat has bet in the current betting round."""
    stacks: tuple[int, ...]
    """Chips behind, per seat."""
    contributions: tuple[int, ...]
    """Chips each seat has put in the pot this game (antes included)."""
    folded: tuple[bool, ...]
    raises_this_round: int
    history: tuple[Move, ...]
    """Every action so far (forced antes and blinds are not actions; the straddle is)."""
    legal_actions: frozenset[ActionKind]
    """Empty unless this seat is to act."""
    legal_moves: tuple[Action, ...]
    """The concrete legal actions (raise amount and announcements filled in); empty unless to act."""
    shown: tuple[tuple[int, tuple[int, ...] | None], ...]
    """Showdown: ``(seat, five announced cards)``, ``(seat, None)`` for a muck; with cards speak
    ``(seat, hole cards)`` of every contender once the game is over."""
    payoffs: tuple[int, ...] | None
    """Chips won per seat once the game is over, else ``None``."""

    @property
    def pot(self) -> int:
        """Chips in the pot."""
        return sum(self.contributions)


class LimitRound(RoundBase):
    """One game of N-player limit hold'em: a state machine from the antes to the payoffs.

    ``stacks`` are the players' chips (2..10 seats, each > 0; default ``buy_in`` for
    ``config.n_players`` seats); ``button`` is the button's seat; ``chance`` is a ``game.rules.chance``
    source (``ScriptedChance`` to fix the cards; default ``RandomChance(seed)``). Forced bets are
    made at once; then ``apply(action)`` for seat ``to_act`` until ``is_terminal``. The API mirrors
    ``game.rules.nolimit.NoLimitRound`` (``legal_actions`` gives kinds; ``legal_moves`` the actions).
    """

    def __init__(
        self,
        config: LimitConfig | None = None,
        stacks: Sequence[int] | None = None,
        button: int = 0,
        *,
        chance: ChanceSource | None = None,
        seed: SeedLike = None,
    ) -> None:
        self.config = config if config is not None else LimitConfig()
        if not isinstance(self.config, LimitConfig):
            raise TypeError(f"config must be a LimitConfig, got {self.config!r}")
        if stacks is None:
            stacks = [self.config.buy_in] * self.config.n_players
        stacks = [int(chips) for chips in stacks]
        if not MIN_PLAYERS <= len(stacks) <= MAX_PLAYERS:
            raise ValueError(f"need {MIN_PLAYERS}..{MAX_PLAYERS} stacks, got {len(stacks)}: {stacks}")
        if min(stacks) < 1:
            raise ValueError(f"every stack must be >= 1 chip, got {stacks}")
        if isinstance(button, bool) or not isinstance(button, (int, np.integer)) or not 0 <= button < len(stacks):
            raise ValueError(f"button must be a seat 0..{len(stacks) - 1}, got {button!r}")
        if chance is not None and seed is not None:
            raise ValueError(f"give either chance or seed, not both (seed={seed!r})")
        self._chance: ChanceSource = chance if chance is not None else RandomChance(seed)
        self.n_players = len(stacks)
        self.button = int(button)
        self.starting_stacks = tuple(stacks)
        self._stacks = list(stacks)
        self._contributions = [0] * self.n_players
        self._pips = [0] * self.n_players
        self._folded = [False] * self.n_players
        self._history: list[Move] = []
        self._deck_log: list[int] = []
        self._shown: dict[int, tuple[int, ...] | None] = {}
        self._winnings: list[int] | None = None
        self._hole_cards = [tuple(self._deal(self.config.hole_cards)) for _ in range(self.n_players)]
        self._board: list[int] = []
        self._street = PREFLOP
        self._to_act: int | None = None
        self._in_showdown = False
        self._pending: set[int] = set()
        self._checked = [False] * self.n_players
        self._bet_level = 0
        self._raises = 0
        self._aggressor: int | None = None
        self._blind_seat: int | None = None
        self._awaiting_straddle = False
        self._showdown_order: list[int] = []
        for seat in range(self.n_players):
            self._pay(seat, self.config.ante, in_round=False)
        self._start_betting_round(PREFLOP)

    # ---- state ----------------------------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over (pot divided)."""
        return self._winnings is not None

    @property
    def in_showdown(self) -> bool:
        """Whether players are announcing hands (announced-hands mode only)."""
        return self._in_showdown

    @property
    def pot(self) -> int:
        """Chips in the pot (all contributions, antes included)."""
        return sum(self._contributions)

    @property
    def pips(self) -> tuple[int, ...]:
        """Chips each seat has bet in the current betting round."""
        return tuple(self._pips)

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind, per seat."""
        return tuple(self._stacks)

    @property
    def contributions(self) -> tuple[int, ...]:
        """Chips each seat has put in this game (antes, blinds and bets)."""
        return tuple(self._contributions)

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(self._folded)

    @property
    def hole_cards(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self._hole_cards)

    @property
    def raises_this_round(self) -> int:
        """Raises made in the current betting round (straddle and opening bet excluded)."""
        return self._raises

    @property
    def winnings(self) -> tuple[int, ...] | None:
        """Chips each seat took from the pot, once the game is over."""
        return None if self._winnings is None else tuple(self._winnings)

    @property
    def chance_log(self) -> ChanceLog:
        """The cards dealt so far, in deal order; ``chance_log.replay()`` deals them again."""
        return ChanceLog(deck=tuple(self._deck_log))

    # ---- decisions ------------------------------------------------------------------------

    def legal_actions(self) -> frozenset[ActionKind]:
        """Action kinds the seat to act may take; empty iff the game is over."""
        return frozenset(action.kind for action in self.legal_moves())

    def legal_moves(self) -> list[Action]:
        """Every legal action, concrete (the raise-to amount; each possible announcement)."""
        seat = self._to_act
        if seat is None:
            return []
        if self._in_showdown:
            announce = [
                Action(ActionKind.ANNOUNCE, cards=cards)
                for cards in hand_choices(self._hole_cards[seat], self._board, self.config.must_use_hole_card)
            ]
            return announce if seat == self._showdown_order[0] else [*announce, Action(ActionKind.MUCK)]
        if self._awaiting_straddle:
            straddle = self.config.straddle
            return [Action.fold(), Action.raise_to(straddle) if self._stacks[seat] >= straddle else Action.call()]
        owed = self._bet_level - self._pips[seat]
        actions = [Action.fold(), Action.call()] if owed > 0 else [Action.check()]
        if self._may_raise(seat, owed):
            actions.append(Action.raise_to(self._bet_level + self.config.limit(self._street)))
        return actions

    def raise_bounds(self) -> tuple[int, int]:
        """``(amount, amount)``: the one legal raise-to total (limit poker); ``ValueError`` if none."""
        raises = [action.amount for action in self.legal_moves() if action.kind is ActionKind.RAISE]
        if not raises:
            raise ValueError(f"no raise is legal at {self._where()}")
        return (raises[0], raises[0])

    def verify(self, action: Action) -> None:
        """Raise ``IllegalActionError`` unless ``action`` is legal now (``TypeError`` if not an Action).

        An ``ANNOUNCE`` is legal in any card order; every other action must equal a legal move.
        """
        self._check_is_action(action)
        legal = self.legal_moves()
        candidate = action
        if action.kind is ActionKind.ANNOUNCE:
            candidate = Action(ActionKind.ANNOUNCE, cards=tuple(sorted(int(card) for card in action.cards)))
        if candidate in legal:
            return
        if not legal:
            raise IllegalActionError(f"illegal action {action} at the end of the game: it is over")
        if action.kind is ActionKind.ANNOUNCE and ActionKind.ANNOUNCE in {move.kind for move in legal}:
            rule = ", using at least one hole card" if self.config.must_use_hole_card else ""
            raise IllegalActionError(
                f"illegal action {action} at {self._where()}: announce five distinct cards of "
                f"{format_cards(self._hole_cards[self._to_act or 0])} + board {format_cards(self._board)}{rule}"
            )
        described = sorted({str(move) if move.kind is not ActionKind.ANNOUNCE else "S<five cards>" for move in legal})
        raise IllegalActionError(f"illegal action {action} at {self._where()}: legal are {', '.join(described)}")

    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act. Illegal: no change, ``IllegalActionError``."""
        self.verify(action)
        seat = self._to_act
        if seat is None:  # unreachable: verify refuses every action once the game is over
            raise IllegalActionError(f"illegal action {action}: the game is over")
        self._history.append(Move(seat, self._street, action))
        if self._in_showdown:
            self._apply_showdown(seat, action)
            return
        owed = self._bet_level - self._pips[seat]
        if action.kind is ActionKind.FOLD:
            self._folded[seat] = True
            self._pending.discard(seat)
            if self._awaiting_straddle:
                self._awaiting_straddle = False
                self._pending = {other for other in self._bettors() if other != self._blind_seat}
        elif action.kind is ActionKind.CHECK:
            self._checked[seat] = True
            self._pending.discard(seat)
        elif self._awaiting_straddle:  # the straddle, in full (RAISE) or tapping out (CALL)
            self._awaiting_straddle = False
            self._pay(seat, self.config.straddle)
            self._bet_level = self.config.straddle
            self._aggressor = seat
            self._pending = {other for other in self._bettors() if other != seat}
        elif action.kind is ActionKind.CALL:
            self._pay(seat, owed)
            self._checked[seat] = False
            self._pending.discard(seat)
        else:
            self._pay(seat, action.amount - self._pips[seat])
            if self._bet_level > 0:
                self._raises += 1
            self._bet_level = action.amount
            self._aggressor = seat
            self._checked[seat] = False
            self._pending = {other for other in self._bettors() if other != seat}
        self._advance(seat)

    # ---- views ----------------------------------------------------------------------------

    def payoffs(self) -> np.ndarray:
        """Chips won (+) or lost (-) by each seat, ``int64`` shape ``(n_players,)``; sums to zero."""
        if self._winnings is None:
            raise ValueError(f"payoffs are known only once the game is over; now at {self._where()}")
        return np.array(self._stacks, dtype=np.int64) - np.array(self.starting_stacks, dtype=np.int64)

    def payoffs_if(self, winners: Sequence[int]) -> tuple[int, ...]:
        """NET chips won (+) or lost (-) by each seat had the seats ``winners`` held equal best hands
        and every other seat still in the hand a lower hand (those tied among themselves), whatever
        the cards say: the pot divided by the same code as :meth:`payoffs` (``game.rules.pots.divide_pot``,
        the expectation method, odd chips from the button clockwise). Sums to zero.

        Only once the betting is over (the game is over, or players are announcing hands); the
        winners must be seats that have not folded. For payoff tables over every showdown outcome
        (the abstract game's terminals, ``abstraction.bets.limit_tree``).

        >>> from game.rules.actions import Action
        >>> game = LimitRound(LimitConfig(n_players=3, cards_speak=True), seed=1)
        >>> for action in ["R10", "F", "C", "R10", "C", "K", "K", "K", "K"]:
        ...     game.apply(Action.parse(action))
        >>> game.payoffs_if([0]), game.payoffs_if([1]), game.payoffs_if([0, 1])  # 55 chips: 25 + 25 + 5
        ((30, -25, -5), (-25, 30, -5), (3, 2, -5))
        """
        if not (self.is_terminal or self._in_showdown):
            raise ValueError(f"no payoffs yet: the betting is not over (now at {self._where()})")
        chosen = {int(seat) for seat in winners}
        contenders = {seat for seat in range(self.n_players) if not self._folded[seat]}
        if not chosen or not chosen <= contenders:
            raise ValueError(
                f"winners must be a non-empty set of seats still in the hand {sorted(contenders)}, got {winners!r}"
            )
        strengths: list[int | None] = [
            None if seat not in contenders else int(seat in chosen) for seat in range(self.n_players)
        ]
        won = divide_pot(self._contributions, strengths, self._seats_from(self.button))
        return tuple(int(chips - paid) for chips, paid in zip(won, self._contributions, strict=True))

    def observation(self, seat: int) -> LimitObservation:
        """What ``seat`` may know now (others' hole cards stay hidden until shown)."""
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.n_players:
            raise ValueError(f"seat must be 0..{self.n_players - 1}, got {seat!r}")
        moves = tuple(self.legal_moves()) if seat == self._to_act else ()
        return LimitObservation(
            seat=seat,
            button=self.button,
            street=self._street,
            to_act=self._to_act,
            hole_cards=self._hole_cards[seat],
            board=tuple(self._board),
            pips=tuple(self._pips),
            stacks=tuple(self._stacks),
            contributions=tuple(self._contributions),
            folded=tuple(self._folded),
            raises_this_round=self._raises,
            history=tuple(self._history),
            legal_actions=frozenset(move.kind for move in moves),
            legal_moves=moves,
            shown=tuple(self._shown.items()),
            payoffs=None if self._winnings is None else tuple(int(chips) for chips in self.payoffs()),
        )

    def clone(self) -> LimitRound:
        """An independent copy (the chance source is cloned too; see ``RandomChance.clone``)."""
        copy = LimitRound.__new__(LimitRound)
        for name, value in self.__dict__.items():
            copy.__dict__[name] = value.copy() if isinstance(value, (list, set, dict)) else value
        copy._chance = self._chance.clone()
        return copy

    def __repr__(self) -> str:
        holes = " | ".join(format_cards(hand) for hand in self._hole_cards)
        return (
            f"LimitRound({self._where()}, button {self.button}, holes [{holes}], board [{format_cards(self._board)}], "
            f"pips {self.pips}, stacks {self.stacks}, history {' '.join(map(str, self._history))})"
        )

    # ---- betting --------------------------------------------------------------------------

    def _where(self) -> str:
        if self._to_act is None:
            return "the end of the game"
        phase = "showdown" if self._in_showdown else self.config.street_name(self._street)
        return f"{phase} for seat {self._to_act}"

    def _deal(self, count: int) -> list[int]:
        cards = [int(card) for card in self._chance.deal(count)]
        if any(card == UNKNOWN_CARD for card in cards):
            raise ValueError(f"the limit game needs every card known; the chance source dealt {cards}")
        self._deck_log.extend(cards)
        return cards

    def _seats_from(self, start: int) -> list[int]:
        return [(start + offset) % self.n_players for offset in range(self.n_players)]

    def _bettors(self) -> list[int]:
        """Seats that can still bet (not folded, chips behind), from the button clockwise."""
        return [seat for seat in self._seats_from(self.button) if not self._folded[seat] and self._stacks[seat] > 0]

    def _pay(self, seat: int, chips: int, in_round: bool = True) -> None:
        paid = min(chips, self._stacks[seat])
        self._stacks[seat] -= paid
        self._contributions[seat] += paid
        if in_round:
            self._pips[seat] += paid

    def _may_raise(self, seat: int, owed: int) -> bool:
        if self._bet_level > 0 and self._raises >= self.config.max_raises:
            return False
        if self._stacks[seat] < owed + self.config.limit(self._street):
            return False
        if self._checked[seat] and not self.config.check_raise:
            return False
        return any(
            other != seat and self._stacks[other] + self._pips[other] > self._bet_level for other in self._bettors()
        )

    def _start_betting_round(self, street: int) -> None:
        self._street = street
        if street > len(self._board):
            self._board.extend(self._deal(street - len(self._board)))
        self._pips = [0] * self.n_players
        self._checked = [False] * self.n_players
        self._bet_level = 0
        self._raises = 0
        self._aggressor = None
        bettors = self._bettors()
        if len(bettors) < 2:
            self._end_betting_round()
        elif self.config.has_blinds(street):
            self._blind_seat = bettors[0]
            self._pay(self._blind_seat, self.config.blind)
            self._bet_level = self.config.blind
            self._awaiting_straddle = True
            self._pending = {bettors[1]}
            self._to_act = bettors[1]
        else:
            self._pending = set(bettors)
            self._to_act = bettors[0]

    def _advance(self, seat: int) -> None:
        alive = [other for other in range(self.n_players) if not self._folded[other]]
        if len(alive) == 1:
            winnings = [0] * self.n_players
            winnings[alive[0]] = self.pot
            self._settle(winnings)
        elif self._pending:
            self._to_act = next(other for other in self._seats_from(seat + 1) if other in self._pending)
        else:
            self._end_betting_round()

    def _end_betting_round(self) -> None:
        streets = self.config.streets
        ordinal = self.config.street_ordinal(self._street)
        if ordinal + 1 < len(streets):
            self._start_betting_round(streets[ordinal + 1])
        else:
            self._start_showdown()

    # ---- showdown -------------------------------------------------------------------------

    def _start_showdown(self) -> None:
        contenders = [seat for seat in self._seats_from(self.button) if not self._folded[seat]]
        if self.config.cards_speak:
            strengths: list[int | None] = [None] * self.n_players
            for seat in contenders:
                strengths[seat] = best_hand(self._hole_cards[seat], self._board, self.config.must_use_hole_card)[0]
                self._shown[seat] = self._hole_cards[seat]
            self._divide(strengths)
            return
        called = self._aggressor if self._aggressor is not None else contenders[0]
        start = contenders.index(called)
        self._showdown_order = contenders[start:] + contenders[:start]
        self._in_showdown = True
        self._to_act = called

    def _apply_showdown(self, seat: int, action: Action) -> None:
        if action.kind is ActionKind.MUCK:
            self._shown[seat] = None
        else:
            self._shown[seat] = tuple(sorted(int(card) for card in action.cards))
        remaining = [other for other in self._showdown_order if other not in self._shown]
        if remaining:
            self._to_act = remaining[0]
            return
        strengths: list[int | None] = [None] * self.n_players
        announced = [(other, cards) for other, cards in self._shown.items() if cards is not None]
        values = hand_values([cards for _, cards in announced])
        for (other, _), value in zip(announced, values.tolist(), strict=True):
            strengths[other] = value
        self._divide(strengths)

    def _divide(self, strengths: list[int | None]) -> None:
        self._settle(divide_pot(self._contributions, strengths, self._seats_from(self.button)))

    def _settle(self, winnings: list[int]) -> None:
        self._winnings = winnings
        for seat, chips in enumerate(winnings):
            self._stacks[seat] += chips
        self._in_showdown = False
        self._to_act = None
        self._pending = set()
