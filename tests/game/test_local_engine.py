"""The local engine: it sends every line the official engines sent in the recorded matches, and
counts the faults the engines count.

The recorded matches (``tests/data/transcripts``) hold both players' lines of 1000 rounds in each
official engine. Dealt the same cards (both seats' transcripts give every card) and answered with
the recorded answers, the local engine must send the same lines, clause for clause, apart from the
clock's value; the one allowed difference is a River of Blood showdown the engines' eval7
misranks (``test_client.eval7_misranks``).
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from game.play.bots import CheckCallBot, RandomBot
from game.pokerbots.client import read_transcript
from game.pokerbots.engines import engine_rules
from game.pokerbots.local_engine import EnginePlayer, LocalEngine, SessionEndpoint
from game.pokerbots.session import ClientSession, bot_decider
from game.rules.actions import Action
from tests.game.test_client import TRANSCRIPTS, YEARS, eval7_misranks, play_over_tcp, replay_round, seat_rounds


class ScriptedEndpoint:
    """A player that answers with a recorded transcript's answers and keeps every line it got."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = iter(answers)
        self.received: list[str] = []

    def exchange(self, message: str) -> str:
        self.received.append(message)
        return next(self.answers)

    def close(self) -> None:
        self.received.append("Q")


def without_clock(line: str) -> str:
    clock, _, rest = line.partition(" ")
    assert clock.startswith("T"), line
    return rest


@pytest.mark.jit_only
@pytest.mark.parametrize("year", YEARS)
def test_local_engine_sends_every_recorded_line(year: str) -> None:
    rules = engine_rules(year)
    paths = sorted((TRANSCRIPTS / year).glob("random_vs_random_player_*.txt.gz"))
    recorded = [read_transcript(path) for path in paths]
    endpoints = [ScriptedEndpoint([answer for _, answer in pairs if answer is not None]) for pairs in recorded]
    players = [EnginePlayer(name, endpoint, clock_seconds=1e9) for name, endpoint in zip("AB", endpoints, strict=True)]
    engine = LocalEngine(rules, players)
    rounds = [seat_rounds(path) for path in paths]
    misranked = 0
    for index, (first, second) in enumerate(zip(*rounds, strict=True)):
        sent_before = [len(endpoint.received) for endpoint in endpoints]
        round_ = replay_round(rules.variant, first, second)
        deltas = engine.play_round(round_)
        by_player = (deltas[index % 2], deltas[1 - index % 2])
        for which, mine in enumerate((first, second)):
            sent = [without_clock(line) for line in endpoints[which].received[sent_before[which] :]]
            expected = [without_clock(line) for line, _ in mine.lines]
            if by_player[which] != mine.delta:  # eval7's misranked showdown: only the D clause differs
                assert rules.variant == "river_of_blood" and eval7_misranks(round_.hole_cards, round_.board)
                misranked += 1
                sent[-1] = sent[-1].replace(f"D{by_player[which]}", f"D{mine.delta}")
            assert sent == expected, (year, index, which)
    for endpoint in endpoints:
        endpoint.close()
    assert [endpoint.received[-1] for endpoint in endpoints] == [pairs[-1][0] for pairs in recorded] == ["Q", "Q"]
    assert misranked <= 2 and sum(player.bankroll for player in players) == 0
    assert not any(player.faults for player in players)  # the recorded answers were all legal


class Garbage:
    """A player that answers ``answer`` to every line."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.lines = 0

    def exchange(self, message: str) -> str:
        self.lines += 1
        return self.answer

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("answer", "kind"),
    [("R1", "illegal"), ("A5", "illegal"), ("X", "misformatted"), ("R", "misformatted"), ("", "misformatted")],
)
def test_faults_are_counted_and_replaced_by_check_or_fold(answer: str, kind: str) -> None:
    rules = engine_rules("swap")
    faulty = EnginePlayer("faulty", Garbage(answer), rules.game_clock_seconds)
    caller = EnginePlayer("checkcall", SessionEndpoint(ClientSession(rules, bot_decider(CheckCallBot()))), 30.0)
    winnings = LocalEngine(rules, (faulty, caller)).play_match(20, seed=1)
    decisions = faulty.endpoint.lines - 20  # one ack per round
    # every answer of the faulty player is refused; each ack (which must be K) is refused as well
    assert faulty.faults == {kind: decisions + 20}
    assert len(faulty.fault_notes) == 5 and faulty.fault_notes[0].startswith(kind)
    # replaced by check, else fold: as the dealer it folds its small blind; as the big blind it
    # checks the limp and checks down, a 2-chip showdown
    assert np.all(winnings[0::2] == -1) and set(winnings[1::2].tolist()) <= {-2, 0, 2}
    assert faulty.bankroll == int(winnings.sum())
    assert not caller.faults


class Slow(SessionEndpoint):
    """A check/call bot that sleeps ``seconds`` before each answer."""

    def __init__(self, rules, seconds: float) -> None:
        super().__init__(ClientSession(rules, bot_decider(CheckCallBot())))
        self.seconds = seconds
        self.lines = 0

    def exchange(self, message: str) -> str:
        self.lines += 1
        time.sleep(self.seconds)
        return super().exchange(message)


def test_a_player_out_of_clock_is_never_asked_again() -> None:
    rules = engine_rules("bounty")
    slow = EnginePlayer("slow", Slow(rules, 0.01), clock_seconds=0.05)
    other = EnginePlayer("random", SessionEndpoint(ClientSession(rules, bot_decider(RandomBot(seed=2)))), 60.0)
    LocalEngine(rules, (slow, other)).play_match(30, seed=3)
    assert slow.faults == {"timeout": 1} and slow.clock_seconds == 0.0
    assert 4 <= slow.endpoint.lines <= 6  # asked until its 0.05 s were spent, then never again


def test_a_bot_over_tcp_plays_the_local_engine_and_q_ends_its_client() -> None:
    # the engine's side of a real socket, our client on the other: a whole match, lines both ways
    session, player = play_over_tcp(engine_rules("auction"), lambda view: Action.call(), 40, 5, RandomBot(seed=4))
    assert session.game_over and session.rounds_played == 40 and session.bankroll == player.bankroll
    assert not player.faults and len(player.decision_seconds) > 40 and 0 < player.clock_seconds < 30.0


def test_the_deal_follows_the_seed() -> None:
    rules = engine_rules("river_of_blood")

    def play(seed: int) -> np.ndarray:
        players = [
            EnginePlayer(name, SessionEndpoint(ClientSession(rules, bot_decider(RandomBot(seed=6)))), 30.0)
            for name in "AB"
        ]
        return LocalEngine(rules, players).play_match(30, seed=seed)

    assert np.array_equal(play(7), play(7)) and not np.array_equal(play(7), play(8))


def test_bad_match_length_is_refused() -> None:
    rules = engine_rules("swap")
    players = [EnginePlayer(name, Garbage("K"), 30.0) for name in "AB"]
    with pytest.raises(ValueError, match="rounds must be an int >= 1, got 0"):
        LocalEngine(rules, players).play_match(0)
