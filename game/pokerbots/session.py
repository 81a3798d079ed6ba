"""One match against an official engine, line by line: engine lines in, legal answers out (`ClientSession`).

Per engine line: parse the clauses (``game.pokerbots.protocol``), fold them into the round as the
engine sees it from my seat (`game.pokerbots.wire_round.WireRound`), and if the engine awaits a
decision ask the bot, repair its answer to a legal one and send it; after a round's ``D`` answer
``K``; stop at ``Q``. Any malformed line, bot exception or internal error is logged and answered
with the safe action (``A0`` in an auction, else check if free, else fold). The engine also
charges the clock for acks, so acks are answered without touching the bot.

Timing: ``ClientSession.decision_seconds`` holds, per decision, the seconds from receiving the
engine's line to having the answer (parsing, replay, the bot, the repair).

>>> from game.pokerbots.engines import ENGINE_RULES
>>> session = ClientSession(ENGINE_RULES["swap"], lambda view: Action.raise_to(10_000))
>>> session.answer("T30.000 P0 H9s,7s")
'R200'
>>> session.answer("T29.9 R200 C B5d,5c,Ac U9s,7s")
'K'
>>> session.answer("T29.9 K K B5d,5c,Ac,2h U9s,7s K")
'K'
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable

from game.pokerbots.engines import EngineRules
from game.pokerbots.protocol import (
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
from game.pokerbots.replay import RulesReplay
from game.pokerbots.wire_round import WireRound
from game.rules.actions import Action, Bot
from game.rules.nolimit import Observation

LOGGER = logging.getLogger("vcfr.client")

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
    and logged, and play goes on from the wire state. ``round_over``, if given, is called once per
    finished round (after the line holding its ``D``) with my seat's final ``Observation``, its
    ``payoffs`` the delta (chips; mine, and its negative for the opponent), as the engines call
    ``handle_round_over``; an error there is logged.
    """

    def __init__(
        self,
        rules: EngineRules,
        decide: Decide,
        *,
        reserve_seconds: float = 1.0,
        replay_rules: bool = True,
        round_over: Callable[[Observation], None] | None = None,
        logger: logging.Logger = LOGGER,
    ) -> None:
        if not reserve_seconds >= 0:
            raise ValueError(f"reserve_seconds must be >= 0, got {reserve_seconds!r}")
        self.rules = rules
        self.reserve_seconds = reserve_seconds
        self.replay_rules = replay_rules
        self.decide = decide
        self.round_over = round_over
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
            if self.round_over is not None and any(isinstance(clause, Delta) for clause in parsed.clauses):
                self._report_round()
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

    def _report_round(self) -> None:
        current = self.round
        if current is None or current.delta is None:
            return
        try:
            seat = current.seat
            payoffs = (current.delta, -current.delta) if seat == 0 else (-current.delta, current.delta)
            self.round_over(dataclasses.replace(current.observation(), payoffs=payoffs))  # type: ignore[misc]
        except Exception as error:
            self.logger.warning("round_over failed (%r); the match goes on", error)

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
