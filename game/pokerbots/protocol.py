"""The MIT Pokerbots wire protocol (engines 2022-2025): parse engine lines, format answers.

The engine sends one line per query: clauses separated by spaces, the first always ``T<seconds>``
(game clock left). The bot answers one clause: ``F`` fold, ``C`` call, ``K`` check, ``R<chips>``
raise to (the raiser's pip for the street, not the increment), ``A<chips>`` bid (2024). After the
round's ``D<chips>`` clause the bot answers ``K`` (ack); ``Q`` ends the match.

Engine → bot clauses, one frozen dataclass each:

======  =====================  ==========================================================
Clause  Dataclass              Meaning
======  =====================  ==========================================================
T       ``Clock``              seconds left on my game clock
P       ``Seat``               my seat this round (0 = dealer = small blind)
H       ``HoleCards``          my hole cards (start of a round)
G       ``Bounty``             my bounty rank this round (2025)
F C K   ``HistoryAction``      an action in the history (both players, mine echoed, each once)
R A     ``HistoryAction``      raise to / bid (chips) in the history
B       ``Board``              the whole board, at the first query of each post-flop street
U       ``UpdatedHoleCards``   my hole cards after the swaps (2022, flop and turn)
N       ``AuctionResult``      ``N<stack0>,<stack1>_<bid0>,<bid1>_<my cards>`` (2024)
O       ``OpponentCards``      the opponent's final hole cards at a showdown
D       ``Delta``              my chip delta for the round
Y       ``BountyHits``         ``Y<me><opponent>``: 1 hit, 0 missed, ``#`` masked (2025)
Q       ``GameOver``           the match is over
======  =====================  ==========================================================

Parsing is lenient per line and strict per clause: ``parse_line`` keeps every well-formed clause
and lists the malformed ones, so one garbled clause never hides the rest.

>>> parse_line("T29.999 P1 H9s,7s C").clauses
(Clock(seconds=29.999), Seat(seat=1), HoleCards(cards=(31, 23)), HistoryAction(action=Action(kind=<ActionKind.CALL: 2>, amount=0)))
>>> parse_line("T1.0 R4 Zq B5d,5c,Ac").malformed
('Zq',)
>>> format_answer(Action.raise_to(12)), format_answer(Action.bid(30))
('R12', 'A30')
"""

from __future__ import annotations

from dataclasses import dataclass

from game.cards.deck import N_CARDS, RANKS, card_str, parse_cards
from game.rules.actions import Action, ActionKind


@dataclass(frozen=True)
class Clock:
    """``T``: seconds left on my game clock."""

    seconds: float


@dataclass(frozen=True)
class Seat:
    """``P``: my seat, 0 (dealer, small blind) or 1 (big blind)."""

    seat: int


@dataclass(frozen=True)
class HoleCards:
    """``H``: my hole cards (card ints), sent at the start of a round."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class UpdatedHoleCards:
    """``U``: my current hole cards after the swaps (2022 Swap, flop and turn)."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class Board:
    """``B``: every board card dealt so far."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class OpponentCards:
    """``O``: the opponent's final hole cards, shown at a showdown."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class HistoryAction:
    """``F C K R<chips> A<chips>``: one action of the round's history (either player)."""

    action: Action


@dataclass(frozen=True)
class Delta:
    """``D``: my chip delta for the round."""

    chips: int


@dataclass(frozen=True)
class AuctionResult:
    """``N``: stacks (chips left) and bids of seats 0 and 1 after the auction, and my cards (2024)."""

    stacks: tuple[int, int]
    bids: tuple[int, int]
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Bounty:
    """``G``: my bounty rank, 0 (deuce) .. 12 (ace) (2025)."""

    rank: int


@dataclass(frozen=True)
class BountyHits:
    """``Y``: whether I and the opponent hit the bounty; ``None`` where the engine masked it (``#``)."""

    mine: bool | None
    opponent: bool | None


@dataclass(frozen=True)
class GameOver:
    """``Q``: the match is over."""


Clause = (
    Clock
    | Seat
    | HoleCards
    | UpdatedHoleCards
    | Board
    | OpponentCards
    | HistoryAction
    | Delta
    | AuctionResult
    | Bounty
    | BountyHits
    | GameOver
)

_CARD_CLAUSES = {"H": HoleCards, "U": UpdatedHoleCards, "B": Board, "O": OpponentCards}
_SIMPLE_MOVES = {"F": Action.fold(), "C": Action.call(), "K": Action.check()}
_HIT_DIGITS = {"1": True, "0": False, "#": None}
_CARD_BY_TEXT = {card_str(card): card for card in range(N_CARDS)}
_ANSWER_KINDS = frozenset({ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.RAISE, ActionKind.BID})


@dataclass(frozen=True)
class ParsedLine:
    """One engine line: its well-formed clauses in order, and the clauses that did not parse."""

    clauses: tuple[Clause, ...]
    malformed: tuple[str, ...]


def _chips(text: str, *, signed: bool = False) -> int:
    digits = text[1:] if signed and text[:1] == "-" else text
    if not digits.isascii() or not digits.isdigit():
        raise ValueError(f"expected {'an integer' if signed else 'a non-negative integer'} of chips, got {text!r}")
    return int(text)


def _cards(text: str) -> tuple[int, ...]:
    try:  # the engines' canonical form ("Ah,Kd"), by table lookup: this runs on every line
        cards = tuple(_CARD_BY_TEXT[token] for token in text.split(","))
    except KeyError:
        if not text:
            raise ValueError("expected comma-separated cards such as 'Ah,Kd', got nothing") from None
        cards = tuple(int(card) for card in parse_cards(text.split(",")))  # lenient forms, or its error
    if len(set(cards)) != len(cards):
        raise ValueError(f"duplicate card in {text!r}")
    return cards


def parse_clause(text: str) -> Clause:
    """Parse one engine clause; raises ``ValueError`` naming the clause if it is malformed.

    >>> parse_clause("D-18"), parse_clause("G9")
    (Delta(chips=-18), Bounty(rank=7))
    >>> parse_clause("N396,396_17,0_3s,Kc,3h")
    AuctionResult(stacks=(396, 396), bids=(17, 0), cards=(7, 44, 6))
    >>> parse_clause("R-4")
    Traceback (most recent call last):
    ...
    ValueError: malformed clause 'R-4': expected a non-negative integer of chips, got '-4'
    """
    if not isinstance(text, str):
        raise TypeError(f"a clause is text, got {text!r}")
    head, body = text[:1], text[1:]
    try:
        if head in _SIMPLE_MOVES and not body:
            return HistoryAction(_SIMPLE_MOVES[head])
        if head == "R":
            return HistoryAction(Action.raise_to(_chips(body)))
        if head == "A":
            return HistoryAction(Action.bid(_chips(body)))
        if head in _CARD_CLAUSES:
            return _CARD_CLAUSES[head](_cards(body))
        if head == "T":
            seconds = float(body)
            if not seconds == seconds or seconds in (float("inf"), float("-inf")):
                raise ValueError(f"expected a finite number of seconds, got {body!r}")
            return Clock(seconds)
        if head == "P" and body in ("0", "1"):
            return Seat(int(body))
        if head == "D":
            return Delta(_chips(body, signed=True))
        if head == "G" and len(body) == 1 and body in RANKS:
            return Bounty(RANKS.index(body))
        if head == "Y" and len(body) == 2 and all(digit in _HIT_DIGITS for digit in body):
            return BountyHits(_HIT_DIGITS[body[0]], _HIT_DIGITS[body[1]])
        if head == "N":
            return _auction_result(body)
        if text == "Q":
            return GameOver()
    except ValueError as error:
        raise ValueError(f"malformed clause {text!r}: {error}") from None
    raise ValueError(f"malformed clause {text!r}: unknown clause type or bad payload")


def _auction_result(body: str) -> AuctionResult:
    parts = body.split("_")
    if len(parts) != 3:
        raise ValueError(f"expected '<stack0>,<stack1>_<bid0>,<bid1>_<cards>', got {body!r}")
    stacks = tuple(_chips(part) for part in parts[0].split(","))
    bids = tuple(_chips(part) for part in parts[1].split(","))
    if len(stacks) != 2 or len(bids) != 2:
        raise ValueError(f"expected two stacks and two bids, got {body!r}")
    return AuctionResult((stacks[0], stacks[1]), (bids[0], bids[1]), _cards(parts[2]))


def parse_line(line: str) -> ParsedLine:
    """Split an engine line on spaces and parse every clause, collecting the malformed ones.

    >>> parsed = parse_line("T29.999 K K O3d,3s D18\\n")
    >>> [type(clause).__name__ for clause in parsed.clauses], parsed.malformed
    (['Clock', 'HistoryAction', 'HistoryAction', 'OpponentCards', 'Delta'], ())
    """
    if not isinstance(line, str):
        raise TypeError(f"an engine line is text, got {line!r}")
    clauses: list[Clause] = []
    malformed: list[str] = []
    for text in line.split():
        try:
            clauses.append(parse_clause(text))
        except ValueError:
            malformed.append(text)
    return ParsedLine(tuple(clauses), tuple(malformed))


def format_answer(action: Action) -> str:
    """The answer clause for an action (no newline): ``F``, ``K``, ``C``, ``R<chips>`` or ``A<chips>``.

    >>> format_answer(Action.check())
    'K'
    >>> format_answer(Action(ActionKind.MUCK))
    Traceback (most recent call last):
    ...
    ValueError: the engines accept only F, K, C, R<chips> and A<chips>, not 'M'
    """
    if not isinstance(action, Action):
        raise TypeError(f"expected an Action, got {action!r}")
    if action.kind not in _ANSWER_KINDS:
        raise ValueError(f"the engines accept only F, K, C, R<chips> and A<chips>, not {str(action)!r}")
    return str(action)
