"""A local MIT Pokerbots engine (2022-2025): our rules modules deal and judge, the year's wire
protocol carries every message, and the engine's bookkeeping of faults and clocks is mirrored.

`LocalEngine` plays rounds of a year's game (`game.rules.variants`, ``rules="engine"``) between
two `Endpoint` s, as the official ``engine.py`` does (``Game.run_round``, ``Player.query``):

- per player a list of pending clauses: ``P<seat> H<cards>`` (2025: ``G<rank>``) at the deal,
  every action of either player, ``B<board>`` at the first query of each post-flop street
  (2022: then ``U<my cards>`` on the flop and the turn; 2024: after the auction ``P<seat>
  N<stacks>_<bids>_<my cards>`` and ``B<flop>`` again), at the end ``O<cards>`` after a
  showdown, ``D<delta>`` (2025: ``Y<hits>``, the loser's hit masked);
- a query sends ``T<clock>`` and the pending clauses, then clears them; the answer's round trip
  is charged to the player's game clock (acks after ``D`` too); a player whose clock ran out,
  whose answer took more than ``answer_timeout`` seconds, or who disconnected is never asked
  again and checks or folds (2024: bids 0) to the end of the match;
- an answer the rules round refuses is counted (``illegal``; an unparsable one ``misformatted``)
  and replaced by check if legal, else fold (bid 0 in the auction); an ack other than ``K`` is
  an illegal action, as in the engines;
- ``Q`` ends the match.

The official engines accept a few answers this engine refuses as ``misformatted`` (``K`` with
trailing characters, say); they draw from Python's ``random`` and rank hands with eval7, so
their deals differ, and eval7 misranks some 10+ card River of Blood hands that ours ranks right
(`tests/game/test_local_engine.py` checks every line of the recorded matches against this engine).

`launch_bot` starts a bot folder as the engines do: ``commands.json`` (``{"build": [...], "run":
[...]}``), ``build`` in the folder, then ``run + [PORT]`` there, and waits ``CONNECT_TIMEOUT_SECONDS``
for it to connect to 127.0.0.1. `SessionEndpoint` is a bot of ours in this process, answering
through the same client as an exported bot (`game.pokerbots.session.ClientSession`).
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol

import numpy as np

from game.cards.deck import RANKS, card_str
from game.cards.rng import SeedLike, as_generator
from game.dataclass_support import check_int
from game.pokerbots.client import CONNECT_TIMEOUT_SECONDS
from game.pokerbots.engines import EngineRules
from game.pokerbots.protocol import HistoryAction, format_answer, parse_clause
from game.pokerbots.session import ClientSession
from game.rules.actions import Action, ActionKind
from game.rules.chance import RandomChance
from game.rules.nolimit import NoLimitConfig, NoLimitRound

FAULT_KINDS = ("illegal", "misformatted", "timeout", "disconnect", "crash")
"""What the engine counts against a player: an illegal or unparsable answer, an answer later than
``answer_timeout`` or past the game clock, a lost connection, and (for a launched bot) a bot that
did not connect, did not exit after ``Q`` or exited with an error."""


class Endpoint(Protocol):
    """One player's line to the engine."""

    def exchange(self, message: str) -> str:
        """Send one engine line (no newline) and return the answer line, stripped. Raises
        ``TimeoutError`` past the answer timeout and ``OSError`` on a lost connection."""
        ...

    def close(self) -> None:
        """Send ``Q`` and hang up; never raises."""
        ...


class SessionEndpoint:
    """A bot in this process behind a `game.pokerbots.session.ClientSession` (the exported bots'
    client): every line goes through the wire protocol as it would over a socket."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session

    def exchange(self, message: str) -> str:
        return self.session.answer(message) or ""

    def close(self) -> None:
        self.session.answer("Q")


class SocketEndpoint:
    """A bot connected over TCP (``connection``); each answer must come within ``answer_timeout`` s."""

    def __init__(self, connection: socket.socket, answer_timeout: float = CONNECT_TIMEOUT_SECONDS) -> None:
        connection.settimeout(answer_timeout)
        self.connection = connection
        self.stream = connection.makefile("rw")

    def exchange(self, message: str) -> str:
        self.stream.write(message + "\n")
        self.stream.flush()
        answer = self.stream.readline()
        if not answer:
            raise ConnectionError("the bot closed the connection")
        return answer.strip()

    def close(self) -> None:
        try:
            self.stream.write("Q\n")
            self.stream.close()
        except OSError:
            pass
        self.connection.close()


@dataclass
class EnginePlayer:
    """One player as the engine tracks it: its line, game clock (seconds left), bankroll (chips),
    the clauses waiting for its next query, the faults counted against it, and the seconds of
    each decision's round trip (acks excluded)."""

    name: str
    endpoint: Endpoint
    clock_seconds: float
    bankroll: int = 0
    connected: bool = True
    pending: list[str] = field(default_factory=list)
    faults: Counter[str] = field(default_factory=Counter)
    decision_seconds: list[float] = field(default_factory=list)
    fault_notes: list[str] = field(default_factory=list)
    """The first few faults in words (round, line sent, answer), for the report."""

    def count(self, kind: str, note: str) -> None:
        """Count a fault of ``kind`` (one of `FAULT_KINDS`); the first few are kept in words."""
        self.faults[kind] += 1
        if len(self.fault_notes) < 5:
            self.fault_notes.append(f"{kind}: {note}")

    @property
    def asked(self) -> bool:
        """Whether the engine still queries this player (connected, clock not run out)."""
        return self.connected and self.clock_seconds > 0


def engine_config(rules: EngineRules) -> NoLimitConfig:
    """The rules modules' config of an engine's game: its variant under ``rules="engine"`` with the
    engine's stack and blinds (chips)."""
    from game.rules.variants import get_variant

    return get_variant(rules.variant).config_class(
        rules="engine", stack=rules.starting_stack, small_blind=rules.small_blind, big_blind=rules.big_blind
    )


def _cards(cards: Sequence[int]) -> str:
    return ",".join(card_str(card) for card in cards)


class LocalEngine:
    """A year's official engine, played locally between ``players`` (player A first): see the module
    docstring. ``players[0]`` is the dealer (seat 0) in the first round; seats alternate."""

    def __init__(self, rules: EngineRules, players: Sequence[EnginePlayer]) -> None:
        from game.rules.variants import get_variant

        if len(players) != 2:
            raise ValueError(f"an engine match has two players, got {len(players)}")
        self.rules = rules
        self.players = tuple(players)
        self.variant = get_variant(rules.variant)
        self.config = engine_config(rules)
        self.rounds_played = 0

    # ------------------------------------------------------------------ a match
    def play_match(self, rounds: int, seed: SeedLike = None) -> np.ndarray:
        """Play ``rounds`` rounds, then send ``Q`` to both; player A's chips per round, ``int64`` ``(rounds,)``.

        Every card, swap and bounty rank follows from ``seed`` (per round a fresh
        ``RandomChance``, as `game.play.match.play_match` deals); bounty ranks are drawn by player
        and follow the player across seats."""
        check_int("rounds", rounds)
        rng = as_generator(seed)
        winnings = np.zeros(rounds, dtype=np.int64)
        state_by_player: object = None
        try:
            for index in range(rounds):
                state_by_player = self.variant.round_class.next_match_state(self.config, index, state_by_player, rng)
                a_seat = index % 2
                state_by_seat = None
                if state_by_player is not None:
                    ranks = tuple(state_by_player)  # type: ignore[call-overload]
                    state_by_seat = ranks if a_seat == 0 else ranks[::-1]
                chance = RandomChance(np.random.default_rng(int(rng.integers(2**63 - 1))))
                round_ = self.variant.round_class(self.config, chance, match_state=state_by_seat)
                deltas = self.play_round(round_)
                winnings[index] = deltas[a_seat]
        finally:
            for player in self.players:
                player.endpoint.close()
        return winnings

    def seated(self) -> tuple[EnginePlayer, EnginePlayer]:
        """The players by seat this round (player A deals in rounds 0, 2, 4, ...)."""
        first, second = self.players
        return (first, second) if self.rounds_played % 2 == 0 else (second, first)

    # ------------------------------------------------------------------ a round
    def play_round(self, round_: NoLimitRound) -> tuple[int, int]:
        """Play one started round to its end and the two acks; returns the deltas by seat (chips)."""
        by_seat = self.seated()
        for seat, player in enumerate(by_seat):
            player.pending = [f"P{seat}", "H" + _cards(round_.hole_cards[seat])]
            if self.rules.variant == "bounty":
                player.pending.append("G" + RANKS[round_.bounty_ranks[seat]])  # type: ignore[attr-defined]
        board_sent = 0
        auction_announced = False
        while not round_.is_terminal:
            if self.rules.auction and not auction_announced and None not in round_.bids:  # type: ignore[attr-defined]
                auction_announced = True
                self._announce_auction(round_, by_seat)
                board_sent = 0  # the engine sends the flop again
            if len(round_.board) > board_sent:
                board_sent = len(round_.board)
                self._announce_street(round_, by_seat)
            seat: int = round_.to_act  # type: ignore[assignment]
            action = self._decision(by_seat[seat], round_)
            round_.apply(action)
            code = format_answer(action)
            for player in by_seat:
                player.pending.append(code)
        payoffs = round_.payoffs()
        deltas = (int(payoffs[0]), int(payoffs[1]))
        self._announce_end(round_, by_seat, deltas)
        for seat, player in enumerate(by_seat):
            self._ack(player)
            player.bankroll += deltas[seat]
        self.rounds_played += 1
        return deltas

    def _announce_street(self, round_: NoLimitRound, by_seat: tuple[EnginePlayer, EnginePlayer]) -> None:
        board = "B" + _cards(round_.board)
        for seat, player in enumerate(by_seat):
            player.pending.append(board)
            if self.rules.variant == "swap" and len(round_.board) < 5:
                player.pending.append("U" + _cards(round_.hole_cards[seat]))

    def _announce_auction(self, round_: NoLimitRound, by_seat: tuple[EnginePlayer, EnginePlayer]) -> None:
        stacks = ",".join(str(stack) for stack in round_.stacks)
        bids = ",".join(str(bid) for bid in round_.bids)  # type: ignore[attr-defined]
        for seat, player in enumerate(by_seat):
            player.pending += [f"P{seat}", f"N{stacks}_{bids}_{_cards(round_.hole_cards[seat])}"]

    def _announce_end(
        self, round_: NoLimitRound, by_seat: tuple[EnginePlayer, EnginePlayer], deltas: tuple[int, int]
    ) -> None:
        showdown = round_.history[-1].action.kind is not ActionKind.FOLD
        hits = []
        if self.rules.variant == "bounty":
            hits = ["1" if hit else "0" for hit in round_.bounty_hits()]  # type: ignore[attr-defined]
            if deltas[0] > 0:  # the loser's hit is masked
                hits[1] = "#"
            elif deltas[1] > 0:
                hits[0] = "#"
        for seat, player in enumerate(by_seat):
            if showdown:
                player.pending.append("O" + _cards(round_.hole_cards[1 - seat]))
            player.pending.append(f"D{deltas[seat]}")
            if hits:
                player.pending.append(f"Y{hits[seat]}{hits[1 - seat]}")

    # ------------------------------------------------------------------ queries
    def _exchange(self, player: EnginePlayer) -> tuple[str, float] | None:
        """Send the player's pending clauses; its answer and the round trip in seconds, or ``None``
        if it is no longer asked or this query failed (timeout, disconnect: counted)."""
        if not player.asked:
            player.pending = []
            return None
        message = " ".join([f"T{player.clock_seconds:.3f}", *player.pending])
        player.pending = []
        start = time.perf_counter()
        try:
            answer = player.endpoint.exchange(message)
        except TimeoutError:
            player.count("timeout", f"round {self.rounds_played + 1}: no answer to {message!r} in time")
            player.clock_seconds = 0.0
            return None
        except OSError as error:
            player.count("disconnect", f"round {self.rounds_played + 1}: {error} after {message!r}")
            player.connected = False
            return None
        seconds = time.perf_counter() - start
        player.clock_seconds -= seconds
        if player.clock_seconds <= 0:
            player.count("timeout", f"round {self.rounds_played + 1}: game clock ran out at {message!r}")
            player.clock_seconds = 0.0
            return None
        return answer, seconds

    def _answer(self, player: EnginePlayer, answer: str) -> Action | None:
        """The action ``answer`` names, or ``None`` (counted as misformatted) if it names none."""
        try:
            clause = parse_clause(answer)
        except ValueError:
            clause = None
        if isinstance(clause, HistoryAction):
            return clause.action
        player.count("misformatted", f"round {self.rounds_played + 1}: answered {answer!r}")
        return None

    def _decision(self, player: EnginePlayer, round_: NoLimitRound) -> Action:
        exchanged = self._exchange(player)
        if exchanged is not None:
            answer, seconds = exchanged
            player.decision_seconds.append(seconds)
            action = self._answer(player, answer)
            if action is not None and round_.can_apply(action):
                return action
            if action is not None:
                player.count("illegal", f"round {self.rounds_played + 1}: {answer!r} at {round_!r}")
        legal = round_.legal_actions()
        if ActionKind.BID in legal:
            return Action.bid(0)
        return Action.check() if ActionKind.CHECK in legal else Action.fold()

    def _ack(self, player: EnginePlayer) -> None:
        """The query after ``D``: the engines accept only ``K``."""
        exchanged = self._exchange(player)
        action = None if exchanged is None else self._answer(player, exchanged[0])
        if exchanged is not None and action is not None and action != Action.check():
            player.count("illegal", f"round {self.rounds_played + 1}: acknowledged with {exchanged[0]!r}")


# ---------------------------------------------------------------------- launching a bot folder
@dataclass
class LaunchedBot:
    """A bot folder started as the engine starts it: its process and its connection (``None`` if it
    did not connect)."""

    process: subprocess.Popen[bytes]
    endpoint: SocketEndpoint | None
    problem: str | None = None
    """Why it has no connection, in words."""

    def finish(self, timeout: float = CONNECT_TIMEOUT_SECONDS) -> tuple[int | None, str | None]:
        """Wait for the process to exit (killed after ``timeout`` s); ``(exit code, crash in words or None)``."""
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None, f"did not exit within {timeout:g} s of Q (killed)"
        if code != 0:
            return code, f"exited with code {code}"
        return code, None


def read_commands(folder: str | Path) -> dict[str, list[str]]:
    """A bot folder's ``commands.json`` (``{"build": [...], "run": [...]}``); ValueError naming the
    folder if it is missing or not in that form."""
    path = Path(folder) / "commands.json"
    try:
        commands = json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"{str(folder)!r} has no commands.json: not a bot folder") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{str(path)!r} is not readable JSON: {error}") from None
    if not (
        isinstance(commands, dict)
        and all(isinstance(commands.get(key), list) for key in ("build", "run"))
        and commands["run"]
    ):
        raise ValueError(f"{str(path)!r} must hold {{'build': [...], 'run': [...]}} with a run command")
    return commands


def launch_bot(
    folder: str | Path,
    log: IO[bytes],
    *,
    environment: dict[str, str] | None = None,
    connect_timeout: float = CONNECT_TIMEOUT_SECONDS,
    answer_timeout: float = CONNECT_TIMEOUT_SECONDS,
) -> LaunchedBot:
    """Build and start the bot of ``folder`` as the engines do and wait for its connection.

    ``log`` (a binary file) receives the build's and the bot's output. ValueError if
    ``commands.json`` is not usable; a build or run that fails, or a bot that does not connect
    within ``connect_timeout`` seconds, gives a `LaunchedBot` without endpoint and with its
    ``problem``."""
    commands = read_commands(folder)
    if commands["build"]:
        build = subprocess.run(
            commands["build"], cwd=folder, stdout=log, stderr=subprocess.STDOUT, env=environment, check=False
        )
        if build.returncode != 0:
            raise ValueError(f"the build command of {str(folder)!r} failed with exit code {build.returncode}")
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(connect_timeout)
        port = server.getsockname()[1]
        process = subprocess.Popen(
            [*commands["run"], str(port)], cwd=folder, stdout=log, stderr=subprocess.STDOUT, env=environment
        )
        try:
            connection, _ = server.accept()
        except TimeoutError:
            process.kill()
            return LaunchedBot(process, None, f"did not connect within {connect_timeout:g} s")
    return LaunchedBot(process, SocketEndpoint(connection, answer_timeout))
