"""Play one of our bots in an official MIT Pokerbots engine over its TCP wire protocol.

The loop, per engine line: parse the clauses (``game.protocol``), fold them into the round as the
engine sees it from my seat (``WireRound``), and if the engine awaits a decision ask the bot,
repair its answer to a legal one and send it; after a round's ``D`` answer ``K``; stop at ``Q``.

``WireRound`` mirrors the engines' ``RoundState`` bookkeeping (``button`` counter, pips, stacks,
auction) from the wire alone, so the legality guard never depends on the bot or on the rules
modules: an answer is always legal in the engine (raise amounts clamped to the engine's bounds,
no check when facing a bet, no call when checking is free, never a free fold). Any malformed line,
bot exception or internal error is logged and answered with the safe action (``A0`` in an
auction, else check if free, else fold). The engine also charges the clock for acks, so acks are
answered without touching the bot.

Timing: ``ClientSession.decision_seconds`` holds, per decision, the seconds from receiving the
engine's line to having the answer (parsing, replay, the bot, the repair). If the environment
variable ``VCFR_DECISION_SECONDS`` names a file when a match ends, ``play_session`` appends them
there, one float per line (how ``experiments/official_engines.py`` measures decision times inside
the bot's own process).

Bots read ``WireRound.observation()``, the rules modules' ``Observation`` for my seat. Each round
is also rebuilt in the rules module itself (``RulesReplay``: ``game.variants`` round with
``rules="engine"``, unknown cards scripted as ``-1``), for bots that need the real round; the
tests check on recorded engine matches that both agree with a full-information replay at every
decision.

>>> session = ClientSession(ENGINE_RULES["swap"], lambda view: Action.raise_to(10_000))
>>> session.answer("T30.000 P0 H9s,7s")
'R200'
>>> session.answer("T29.9 R200 C B5d,5c,Ac U9s,7s")
'K'
>>> session.answer("T29.9 K K B5d,5c,Ac,2h U9s,7s K")
'K'
"""

from __future__ import annotations

import gzip
import logging
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from game.actions import Action, ActionKind, Bot
from game.nolimit import Move, Observation
from game.protocol import (
    AuctionResult,
    Board,
    Bounty,
    BountyHits,
    Clause,
    Clock,
    Delta,
    GameOver,
    HistoryAction,
    HoleCards,
    OpponentCards,
    Seat,
    UpdatedHoleCards,
    format_answer,
    parse_line,
)

LOGGER = logging.getLogger("vcfr.client")

CONNECT_TIMEOUT_SECONDS = 10.0
"""The engines wait this long for a bot to connect after launching it."""

DECISION_SECONDS_ENV = "VCFR_DECISION_SECONDS"
"""Environment variable naming a file to which ``play_session`` appends the match's decision
seconds (one per line) when the match ends; unset, nothing is written."""


@dataclass(frozen=True)
class EngineRules:
    """What differs between the official engines, as far as the client must know.

    Chips throughout. ``fold_always_legal``: 2025 accepts a fold even when checking is free.
    ``auction``: 2024's bid after the flop is dealt (big blind bids first, dealer sees the bid).
    """

    year: int
    variant: str
    starting_stack: int
    big_blind: int = 2
    small_blind: int = 1
    auction: bool = False
    fold_always_legal: bool = False
    game_clock_seconds: float = 30.0

    def __post_init__(self) -> None:
        if not 0 < self.small_blind <= self.big_blind < self.starting_stack:
            raise ValueError(
                f"need 0 < small blind {self.small_blind!r} <= big blind {self.big_blind!r} "
                f"< starting stack {self.starting_stack!r} chips"
            )


ENGINE_RULES: dict[str, EngineRules] = {
    "swap": EngineRules(2022, "swap", starting_stack=200),
    "river_of_blood": EngineRules(2023, "river_of_blood", starting_stack=400),
    "auction": EngineRules(2024, "auction", starting_stack=400, auction=True),
    "bounty": EngineRules(2025, "bounty", starting_stack=400, fold_always_legal=True, game_clock_seconds=60.0),
}
"""The four official engines by variant name (``engine-2022`` … ``engine-2025``)."""


def engine_rules(variant_or_year: str | int) -> EngineRules:
    """Rules of an official engine by variant name (``"auction"``) or year (``2024``).

    >>> engine_rules(2023).variant, engine_rules("bounty").year
    ('river_of_blood', 2025)
    >>> engine_rules("holdem")
    Traceback (most recent call last):
    ...
    ValueError: no official engine for 'holdem': known are swap (2022), river_of_blood (2023), auction (2024), bounty (2025)
    """
    for rules in ENGINE_RULES.values():
        if variant_or_year in (rules.variant, rules.year, str(rules.year)):
            return rules
    known = ", ".join(f"{rules.variant} ({rules.year})" for rules in ENGINE_RULES.values())
    raise ValueError(f"no official engine for {variant_or_year!r}: known are {known}")


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


class RulesReplay:
    """The same round rebuilt in our rules module (``game.variants``, ``rules="engine"``) from what
    one seat sees: cards it cannot see are scripted unknown (``-1``; ``None`` for the opponent's
    swap events) and the opponent's cards are revealed when ``O`` shows them.

    ``feed`` takes one engine line's clauses: first the cards the line reveals are appended to the
    scripted deck in the rules module's deal order (board; Swap: swap events and my replacement
    cards; Auction: the third card(s)), then the line's actions are applied.
    """

    __slots__ = ("_board_dealt", "_chance", "_hole_cards", "_variant", "round", "seat")

    def __init__(self, rules: EngineRules, seat: int, hole_cards: tuple[int, ...], bounty_rank: int | None) -> None:
        from game.chance import UNKNOWN_CARD, ScriptedChance
        from game.variants import get_variant

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
        from game.chance import UNKNOWN_CARD

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


Decide = Callable[[WireRound], Action]
"""A decision function: the round seen from my seat (my turn) -> the action I want."""


def bot_decider(bot: Bot) -> Decide:
    """Ask ``bot.act`` with my seat's ``Observation`` for every decision."""

    def decide(view: WireRound) -> Action:
        return bot.act(view.observation())

    return decide


class ClientSession:
    """Turns engine lines into answers for one match; ``answer`` never raises.

    ``decide`` is called only when the engine awaits my decision; whatever it returns (or
    raises) is turned into a legal answer. ``clock_seconds`` is the engine's last ``T`` value;
    below ``reserve_seconds`` the bot is no longer asked and the safe action is answered at once.
    With ``replay_rules`` each round is also rebuilt in our rules module (``WireRound.replay``,
    for bots that search the real game tree); if that replay fails it is dropped for the round
    and logged, and play goes on from the wire state.
    """

    def __init__(
        self,
        rules: EngineRules,
        decide: Decide,
        *,
        reserve_seconds: float = 1.0,
        replay_rules: bool = True,
        logger: logging.Logger = LOGGER,
    ) -> None:
        if not reserve_seconds >= 0:
            raise ValueError(f"reserve_seconds must be >= 0, got {reserve_seconds!r}")
        self.rules = rules
        self.reserve_seconds = reserve_seconds
        self.replay_rules = replay_rules
        self.decide = decide
        self.logger = logger
        self.round: WireRound | None = None
        self.clock_seconds = rules.game_clock_seconds
        self.rounds_played = 0
        self.bankroll = 0
        self.repairs = 0
        self.errors = 0
        self._seat = 0
        self._bounty_rank: int | None = None
        self.game_over = False
        self.decision_seconds: list[float] = []
        """Per decision: seconds from receiving the line to the answer (see the module docstring)."""

    def answer(self, line: str) -> str | None:
        """The answer clause to one engine line (no newline), or ``None`` after ``Q``."""
        start = time.perf_counter()
        try:
            parsed = parse_line(line)
            if parsed.malformed:
                self.errors += 1
                self.logger.warning("malformed clauses %s in line %r", parsed.malformed, line)
            for clause in parsed.clauses:
                try:
                    self._apply(clause)
                except Exception as error:  # one bad clause must not lose the rest of the line
                    self.errors += 1
                    self.logger.warning("clause %s ignored (%s) in line %r", clause, error, line)
            if self.replay_rules:
                self._replay(parsed.clauses, line)
            if self.game_over:
                return None
            current = self.round
            if current is None or current.is_over or current.folded:
                return "K"
            if current.actor != current.seat:
                self.errors += 1
                self.logger.warning(
                    "engine asks seat %d but the round says seat %d acts; line %r", current.seat, current.actor, line
                )
            reply = format_answer(self._decision(current))
            self.decision_seconds.append(time.perf_counter() - start)
            return reply
        except Exception:  # never crash: log, then the safest legal answer
            self.errors += 1
            self.logger.exception("internal error on line %r", line)
            return self._fallback_answer()

    def _replay(self, clauses: tuple[Clause, ...], line: str) -> None:
        current = self.round
        if current is None:
            return
        try:
            for clause in clauses:
                if isinstance(clause, HoleCards):
                    current.replay = RulesReplay(self.rules, current.seat, clause.cards, current.bounty_rank)
            if current.replay is not None:
                current.replay.feed(clauses)
        except Exception as error:
            self.logger.warning("rules replay dropped for this round (%s) at line %r", error, line)
            current.replay = None

    def _decision(self, current: WireRound) -> Action:
        if self.clock_seconds < self.reserve_seconds:
            return current.safe_action()  # the engine stops querying a bot whose clock runs out
        try:
            wanted = self.decide(current)
        except Exception as error:
            self.errors += 1
            self.logger.warning("bot failed (%r); answering the safe action", error)
            return current.safe_action()
        answer = current.repair(wanted) if isinstance(wanted, Action) else current.safe_action()
        if answer != wanted:
            self.repairs += 1
            self.logger.info("repaired %s to %s", wanted, answer)
        return answer

    def _fallback_answer(self) -> str:
        current = self.round
        try:
            if current is None or current.is_over or current.folded:
                return "K"
            return format_answer(current.safe_action())
        except Exception:
            self.logger.exception("no safe action; answering K")
            return "K"

    def _apply(self, clause: Clause) -> None:
        current = self.round
        if isinstance(clause, Clock):
            self.clock_seconds = clause.seconds
        elif isinstance(clause, Seat):
            self._seat = clause.seat
            if current is not None and not current.is_over:
                current.seat = clause.seat
        elif isinstance(clause, Bounty):
            self._bounty_rank = clause.rank
            if current is not None:
                current.bounty_rank = clause.rank
        elif isinstance(clause, HoleCards):
            self.round = WireRound(self.rules, self._seat, clause.cards, self._bounty_rank)
        elif isinstance(clause, GameOver):
            self.game_over = True
        elif current is None:
            raise ValueError(f"clause {clause} before any round started")
        elif isinstance(clause, HistoryAction):
            current.apply_move(clause.action)
        elif isinstance(clause, Board):
            current.board = clause.cards
        elif isinstance(clause, UpdatedHoleCards):
            current.hole_cards = clause.cards
        elif isinstance(clause, AuctionResult):
            current.apply_auction_result(clause)
        elif isinstance(clause, OpponentCards):
            current.opponent_cards = clause.cards
        elif isinstance(clause, Delta):
            current.delta = clause.chips
            self.bankroll += clause.chips
            self.rounds_played += 1
        elif isinstance(clause, BountyHits):
            current.bounty_hits = (clause.mine, clause.opponent)


def read_transcript(path: str | Path) -> list[tuple[str, str | None]]:
    """``(engine line, answer or None)`` pairs of a transcript written by ``serve`` (gzip if ``.gz``).

    The format: ``<< line`` for each engine line, followed by ``>> answer`` unless the line was
    the final ``Q``.
    """
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as stream:
        rows = stream.read().splitlines()
    pairs: list[tuple[str, str | None]] = []
    for row in rows:
        if row.startswith("<< "):
            pairs.append((row[3:], None))
        elif row.startswith(">> ") and pairs and pairs[-1][1] is None:
            pairs[-1] = (pairs[-1][0], row[3:])
        else:
            raise ValueError(f"malformed transcript row {row!r} in {str(path)!r}: expected '<< line' or '>> answer'")
    return pairs


def connect(port: int, host: str = "127.0.0.1", timeout: float = CONNECT_TIMEOUT_SECONDS) -> socket.socket:
    """Connect to the engine, retrying until ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return socket.create_connection((host, port), timeout=max(0.1, deadline - time.monotonic()))
        except OSError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


def serve(session: ClientSession, stream: TextIO, *, transcript: TextIO | None = None) -> None:
    """Answer every line of ``stream`` until ``Q`` or end of stream.

    ``transcript`` (optional) receives ``<< line`` and ``>> answer`` rows, the format of
    ``tests/data/transcripts``.
    """
    for line in stream:
        reply = session.answer(line)
        if transcript is not None:
            transcript.write(f"<< {line.rstrip()}\n")
            if reply is not None:
                transcript.write(f">> {reply}\n")
        if reply is None:
            return
        stream.write(reply + "\n")
        stream.flush()


def run_client(
    port: int,
    rules: EngineRules,
    decide: Decide,
    *,
    host: str = "127.0.0.1",
    transcript: TextIO | None = None,
) -> ClientSession:
    """Connect to an engine on ``host:port`` and play the whole match; returns the session.

    Raises ``OSError`` if no connection is made within ``CONNECT_TIMEOUT_SECONDS``; a connection
    lost during the match (the engine stopped) ends the match quietly with a warning.
    """
    return play_session(ClientSession(rules, decide), port, host=host, transcript=transcript)


def play_session(
    session: ClientSession, port: int, *, host: str = "127.0.0.1", transcript: TextIO | None = None
) -> ClientSession:
    """`run_client` with a session built beforehand (e.g. for a bot wrapper that reads its
    bankroll, `game.lock_in.LockIn`): connect, answer every line until the match ends.

    If ``VCFR_DECISION_SECONDS`` names a file, the session's decision seconds are appended to it
    at the end (one float per line), also when the connection is lost."""
    with connect(port, host) as connection:
        connection.settimeout(None)
        try:
            with connection.makefile("rw") as stream:
                serve(session, stream, transcript=transcript)
        except OSError as error:
            session.logger.warning("connection to the engine lost after %d rounds: %s", session.rounds_played, error)
        finally:
            write_decision_seconds(session)
    return session


def write_decision_seconds(session: ClientSession, path: str | Path | None = None) -> Path | None:
    """Append ``session.decision_seconds`` to ``path`` (default: the file named by
    ``VCFR_DECISION_SECONDS``), one float per line; returns the file, or ``None`` if none is named.
    Never raises: a file that cannot be written is logged."""
    target = path if path is not None else os.environ.get(DECISION_SECONDS_ENV)
    if not target:
        return None
    try:
        with open(target, "a", encoding="ascii") as stream:
            stream.writelines(f"{seconds:.9f}\n" for seconds in session.decision_seconds)
    except OSError as error:
        session.logger.warning("could not write decision seconds to %r: %s", str(target), error)
        return None
    return Path(target)
