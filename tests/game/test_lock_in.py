"""Match-level lock-in (`game.play.lock_in`): thresholds by hand, the bound checked on the rules modules,
and matches through our engine client on both sides of the threshold (and an exported folder
with ``--no-lock-in``).

The matches are played by ``WireMatch``: a small engine of our own that deals each round in our
rules module (``rules="engine"``), sends the bot the lines an official engine would send (the
2022-2025 ``engine.py`` message layout: ``P H G`` at the start, history actions, ``B`` at each
street, ``U`` after the Swap flop and turn, ``P N B`` after the auction, ``O D Y`` at the end),
and refuses any answer the rules module does not accept.
"""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from game.cards.deck import RANKS, card_str
from game.play.bots import CheckCallBot, RandomBot
from game.play.lock_in import LockIn, lock_in_threshold, locked_action, round_loss_bound
from game.pokerbots.engines import ENGINE_RULES
from game.pokerbots.protocol import format_answer
from game.pokerbots.session import ClientSession, bot_decider
from game.rules.actions import Action, ActionKind
from game.rules.auction import AuctionConfig
from game.rules.bounty import BountyConfig
from game.rules.chance import RandomChance
from game.rules.holdem import HoldemConfig
from game.rules.nolimit import NoLimitRound
from game.rules.river_of_blood import RiverOfBloodConfig
from game.rules.swap import SwapConfig
from game.rules.variants import get_variant

ENGINE_VARIANTS = ("swap", "river_of_blood", "auction", "bounty")

MIN_RAISER = '''
from game.rules.actions import Action, ActionKind


class MinRaiser:
    """Raises the minimum whenever it can, else calls (or checks)."""

    name = "min-raiser"

    def act(self, observation):
        if ActionKind.RAISE in observation.legal_actions:
            return Action.raise_to(observation.raise_bounds[0])
        if ActionKind.CALL in observation.legal_actions:
            return Action.call()
        return Action.check()
'''
_namespace: dict = {}
exec(MIN_RAISER, _namespace)
MinRaiser = _namespace["MinRaiser"]


# ---------------------------------------------------------------- thresholds by hand


def test_holdem_three_rounds_with_the_dealer_alternating() -> None:
    # blinds 1/2: as the dealer the bot folds and loses 1, as the big blind at most 2
    config = HoldemConfig()
    assert lock_in_threshold(config, 3, first_seat=0) == 1 + 2 + 1 == 4
    assert lock_in_threshold(config, 3, first_seat=1) == 2 + 1 + 2 == 5
    assert lock_in_threshold(config, 1, first_seat=1) == 2
    assert lock_in_threshold(config, 0, first_seat=1) == 0
    assert lock_in_threshold(config, 1000, first_seat=0) == 500 * 1 + 500 * 2 == 1500
    assert lock_in_threshold(HoldemConfig(small_blind=5, big_blind=10), 2, first_seat=1) == 15


@pytest.mark.parametrize(
    "config",
    [SwapConfig(), RiverOfBloodConfig(), AuctionConfig(), AuctionConfig(rules="engine"), SwapConfig(rules="engine")],
)
def test_other_variants_cost_only_the_blinds(config) -> None:
    # Swap (stack 200), River of Blood (runs: checked), Auction (bid 0 costs nothing)
    assert (round_loss_bound(config, 0), round_loss_bound(config, 1)) == (1, 2)
    assert lock_in_threshold(config, 3, first_seat=0) == 4
    assert lock_in_threshold(config, 4, first_seat=1) == 6


@pytest.mark.parametrize("rules", ["document", "engine"])
def test_bounty_includes_the_payout_a_fold_still_costs(rules: str) -> None:
    # 1.5 x + 10: dealer folds 1 chip -> 11.5, rounded up (seat 1 wins) = 12; big blind 2 -> 13
    config = BountyConfig(rules=rules)
    assert (round_loss_bound(config, 0), round_loss_bound(config, 1)) == (12, 13)
    assert lock_in_threshold(config, 3, first_seat=0) == 12 + 13 + 12 == 37
    assert lock_in_threshold(config, 3, first_seat=1) == 13 + 12 + 13 == 38
    assert lock_in_threshold(config, 1000, first_seat=1) == 500 * 25 == 12_500


def test_bounty_rounding_of_the_big_blinds_fold_differs_by_rules() -> None:
    # 1.25 * 2 + 10 = 12.5: the dealer wins; the document rounds down, the engine toward the
    # folder's opponent (the dealer): 12 / 13. The dealer's fold, 1.25 + 10 = 11.25, goes up in both.
    document, engine = (BountyConfig(rules=rules, bounty_multiplier=1.25) for rules in ("document", "engine"))
    assert (round_loss_bound(document, 0), round_loss_bound(document, 1)) == (12, 12)
    assert (round_loss_bound(engine, 0), round_loss_bound(engine, 1)) == (12, 13)
    assert lock_in_threshold(document, 2, first_seat=0) == 24
    assert lock_in_threshold(engine, 2, first_seat=0) == 25
    # no bonus, multiplier 1: plain blinds again
    assert lock_in_threshold(BountyConfig(bounty_multiplier=1, bounty_bonus=0), 3, first_seat=0) == 4


def test_threshold_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="rounds_left must be an int >= 0"):
        lock_in_threshold(HoldemConfig(), -1, first_seat=0)
    with pytest.raises(ValueError, match="seat must be 0"):
        lock_in_threshold(HoldemConfig(), 2, first_seat=2)


# ---------------------------------------------------------------- the bound on the rules modules


def shover(round_: NoLimitRound, seat: int, rng: np.random.Generator) -> Action:
    """All-in whenever possible; calls otherwise; bids 0..30."""
    legal = round_.legal_actions()
    if ActionKind.BID in legal:
        return Action.bid(min(int(rng.integers(0, 31)), round_.bid_bounds()[1]))
    if ActionKind.RAISE in legal:
        return Action.raise_to(round_.raise_bounds()[1])
    return Action.call() if ActionKind.CALL in legal else Action.check()


def random_opponent(round_: NoLimitRound, seat: int, rng: np.random.Generator) -> Action:
    legal = sorted(round_.legal_actions(), key=lambda kind: kind.value)
    kind = legal[int(rng.integers(0, len(legal)))]
    if kind is ActionKind.BID:
        return Action.bid(int(rng.integers(0, round_.bid_bounds()[1] + 1)))
    if kind is ActionKind.RAISE:
        low, high = round_.raise_bounds()
        return Action.raise_to(int(rng.integers(low, high + 1)))
    return Action(kind)


def gift(round_: NoLimitRound, seat: int, rng: np.random.Generator) -> Action:
    """Folds at once (checks where folding is not allowed)."""
    return Action.fold() if ActionKind.FOLD in round_.legal_actions() else Action.check()


def deal(variant: str, rules: str, rng: np.random.Generator, bot_seat: int, bot_rank: int) -> NoLimitRound:
    """A fresh round; in Bounty the opponent's bounty is the rank of its first hole card (it always hits)."""
    spec = get_variant(variant)
    config = spec.config_class(rules=rules)
    if variant != "bounty":
        return spec.round_class(config, RandomChance(rng))
    ranks = [bot_rank, bot_rank]
    ranks[1 - bot_seat] = -1
    round_ = spec.round_class(config, RandomChance(rng), match_state=tuple(ranks))
    round_.reveal_bounty(1 - bot_seat, round_.hole_cards[1 - bot_seat][0] >> 2)
    return round_


@pytest.mark.parametrize("rules", ["document", "engine"])
@pytest.mark.parametrize("variant", [*ENGINE_VARIANTS, "holdem"])
def test_locked_play_is_legal_and_never_loses_more_than_the_bound(variant: str, rules: str) -> None:
    rng = np.random.default_rng(7)
    config = get_variant(variant).config_class(rules=rules)
    for seat in (0, 1):
        bound = round_loss_bound(config, seat)
        worst_against_shover = 0
        for game in range(150):
            opponent = shover if game % 2 else random_opponent
            round_ = deal(variant, rules, rng, seat, int(rng.integers(0, 13)))
            while round_.to_act is not None:
                if round_.to_act == seat:
                    action = locked_action(round_.observation(seat))
                    round_.verify(action)  # IllegalActionError if not legal
                    assert action in (Action.check(), Action.fold(), Action.bid(0))
                    if action == Action.fold():
                        assert ActionKind.CHECK not in round_.legal_actions(), "never fold when checking is free"
                else:
                    action = opponent(round_, 1 - seat, rng)
                round_.apply(action)
            loss = -int(round_.payoffs()[seat])
            assert loss <= bound, (variant, rules, seat, round_.history)
            if opponent is shover:
                worst_against_shover = max(worst_against_shover, loss)
        assert worst_against_shover == bound  # the bound is reached: an all-in opponent who hits


# ---------------------------------------------------------------- matches through the engine client


class WireMatch:
    """Our engine: plays ``rounds`` rounds between a bot behind engine lines (``answer``: engine
    line -> answer) and an ``opponent(round, seat, rng)`` on our rules module (engine rules)."""

    def __init__(self, variant: str, answer: Callable[[str], str | None], opponent, *, seed: int = 0) -> None:
        self.variant = variant
        self.answer = answer
        self.opponent = opponent
        self.rng = np.random.default_rng(seed)
        self.decisions: list[tuple[int, str]] = []
        """(round index, answer) for every decision of the bot."""
        self.bankroll = 0
        self.bot_rank = 0

    def play(self, rounds: int, first_seat: int, opponent_after: int | None = None, later_opponent=None) -> int:
        for index in range(rounds):
            if index % get_variant("bounty").config_class().bounty_period == 0:
                self.bot_rank = int(self.rng.integers(0, 13))
            opponent = self.opponent if opponent_after is None or index < opponent_after else later_opponent
            self.bankroll += self.play_round(index, (first_seat + index) % 2, opponent)
        return self.bankroll

    def play_round(self, index: int, seat: int, opponent) -> int:
        round_ = deal(self.variant, "engine", self.rng, seat, self.bot_rank)
        message = [f"P{seat}", "H" + ",".join(card_str(card) for card in round_.hole_cards[seat])]
        if self.variant == "bounty":
            message.append("G" + RANKS[self.bot_rank])
        phase = (0, False)
        while round_.to_act is not None:
            auction = ActionKind.BID in round_.legal_actions()
            if (round_.street, auction) != phase and round_.street > 0:
                if phase[1]:  # the auction just resolved
                    seen = round_.observation(seat)
                    message += [
                        f"P{seat}",
                        "N{},{}_{},{}_{}".format(
                            *seen.stacks, *seen.bids, ",".join(card_str(c) for c in seen.hole_cards)
                        ),
                    ]
                message.append("B" + ",".join(card_str(card) for card in round_.board))
                if self.variant == "swap" and round_.street in (3, 4):
                    message.append("U" + ",".join(card_str(card) for card in round_.hole_cards[seat]))
                phase = (round_.street, auction)
            if round_.to_act == seat:
                reply = self.answer(" ".join(["T30.000", *message]))
                message = []
                assert reply is not None
                action = Action.parse(reply)
                assert round_.can_apply(action), (reply, round_)  # never an illegal answer
                self.decisions.append((index, reply))
            else:
                action = self.opponent_action(opponent, round_, 1 - seat)
            round_.apply(action)
            message.append(format_answer(action))
        delta = int(round_.payoffs()[seat])
        if round_.history[-1].action.kind is not ActionKind.FOLD:
            message.append("O" + ",".join(card_str(card) for card in round_.hole_cards[1 - seat]))
        message.append(f"D{delta}")
        if self.variant == "bounty":
            hits = ["1" if hit else "0" for hit in (round_.bounty_hits()[seat], round_.bounty_hits()[1 - seat])]
            if delta > 0:
                hits[1] = "#"
            elif delta < 0:
                hits[0] = "#"
            message.append("Y" + "".join(hits))
        assert self.answer(" ".join(["T30.000", *message])) == "K"
        return delta

    def opponent_action(self, opponent, round_: NoLimitRound, seat: int) -> Action:
        return opponent(round_, seat, self.rng)


def late_session(variant: str, bot, *, lead: int, rounds_left: int) -> ClientSession:
    """A client session for the last ``rounds_left`` rounds of a 1000-round match, ``lead`` chips up."""
    session = ClientSession(ENGINE_RULES[variant], bot_decider(bot))
    session.rounds_played, session.bankroll = 1000 - rounds_left, lead
    if isinstance(bot, LockIn):
        bot.attach(session)
    return session


@pytest.mark.parametrize("variant", ENGINE_VARIANTS)
@pytest.mark.parametrize("first_seat", [0, 1])
def test_lead_just_above_the_threshold_locks_in_and_still_wins(variant: str, first_seat: int, caplog) -> None:
    # the worst case: an opponent who shoves every hand and always hits its bounty takes exactly
    # the bound every round, so a lead of threshold + 1 ends the match exactly 1 chip up
    config = get_variant(variant).config_class(rules="engine")
    rounds_left = 9
    threshold = lock_in_threshold(config, rounds_left, first_seat)
    lock = LockIn(CheckCallBot(), config)
    session = late_session(variant, lock, lead=threshold + 1, rounds_left=rounds_left)
    match = WireMatch(variant, session.answer, shover, seed=first_seat)
    with caplog.at_level(logging.INFO, logger="vcfr.lock_in"):
        match.play(rounds_left, first_seat)
    assert lock.locked and lock.locked_round == 1000 - rounds_left and lock.locked_threshold == threshold
    assert [record.message.startswith("locked in at round 992 of 1000") for record in caplog.records] == [True]
    assert {reply for _, reply in match.decisions} == {"F"}  # checkcall would have called the shoves
    assert session.rounds_played == 1000 and session.bankroll == 1 and match.bankroll == -threshold
    assert session.repairs == session.errors == 0


@pytest.mark.parametrize("variant", ENGINE_VARIANTS)
def test_lead_at_the_threshold_does_not_lock_in(variant: str) -> None:
    config = get_variant(variant).config_class(rules="engine")
    threshold = lock_in_threshold(config, 9, first_seat=0)
    lock = LockIn(CheckCallBot(), config)
    session = late_session(variant, lock, lead=threshold, rounds_left=9)  # not more than the threshold
    match = WireMatch(variant, session.answer, shover)
    match.play(1, first_seat=0)
    assert not lock.locked and match.decisions[0] == (0, "C")  # the dealer's own bot called the big blind


@pytest.mark.parametrize("variant", ENGINE_VARIANTS)
def test_locked_bot_checks_runs_bids_zero_and_wins_against_a_random_opponent(variant: str) -> None:
    config = get_variant(variant).config_class(rules="engine")
    rounds_left = 80
    lead = lock_in_threshold(config, rounds_left, 1) + 1
    lock = LockIn(RandomBot(seed=3), config)
    session = late_session(variant, lock, lead=lead, rounds_left=rounds_left)
    match = WireMatch(variant, session.answer, random_opponent, seed=11)
    match.play(rounds_left, first_seat=1)
    replies = {reply for _, reply in match.decisions}
    assert lock.locked and replies <= {"F", "K", "A0"} and "K" in replies
    if variant == "auction":
        assert "A0" in replies
    assert session.bankroll > 0 and session.repairs == session.errors == 0


def test_lock_in_comes_when_the_lead_overtakes_the_threshold_and_stays() -> None:
    # a whole match: the opponent folds every hand for 600 rounds, then shoves every hand. The
    # bot min-raises as the dealer (+2) and the opponent folds first as the dealer (+1 to the
    # bot, which has no decision): after round r the bot leads by about 1.5 r. Round 501 (the
    # big blind) would lock in (752 > 749) but brings no decision; round 502 does: 753 > 747.
    config = SwapConfig(rules="engine")
    lock = LockIn(MinRaiser(), config)
    session = ClientSession(ENGINE_RULES["swap"], bot_decider(lock))
    lock.attach(session)
    match = WireMatch("swap", session.answer, gift)
    match.play(1000, first_seat=0, opponent_after=600, later_opponent=shover)
    assert (lock.locked_round, lock.locked_bankroll, lock.locked_threshold) == (502, 753, 747)
    assert lock_in_threshold(config, 1000 - 502, first_seat=0) == 747
    assert {reply for index, reply in match.decisions if index < 502} == {"R4"}
    assert {reply for index, reply in match.decisions if index >= 502} == {"F"}
    # then: 49 dealer folds (-1) and 49 gifts (+1) to round 600, 200 x (-1 - 2) against the shoves
    assert session.bankroll == match.bankroll == 753 - 600 == 153 and session.rounds_played == 1000


def test_our_match_runner_never_locks_in() -> None:
    # game.play.match plays the bots it is given: no wrapper, so results measure the strategies
    from game.play.match import play_match

    result = play_match(HoldemConfig(), CheckCallBot(), RandomBot(seed=1), rounds=20, seed=2)
    assert result.rounds == 20 and "lock" not in str(result.to_dict())


def test_unattached_wrapper_plays_the_bot_and_delegates_its_counters() -> None:
    bot = CheckCallBot()
    bot.decisions = 5  # type: ignore[attr-defined]
    lock = LockIn(bot, HoldemConfig())
    assert lock.name == "checkcall" and lock.decisions == 5 and not lock.locked
    with pytest.raises(TypeError, match="act"):
        LockIn(object(), HoldemConfig())
    with pytest.raises(ValueError, match="rounds must be an int >= 1"):
        LockIn(bot, HoldemConfig(), rounds=0)


# ---------------------------------------------------------------- exported folders


def test_export_spec_and_player_lock_in_by_default(tmp_path: Path) -> None:
    from solver.bots.export_bot import BotSpec, make_player

    assert BotSpec("bounty", "checkcall").lock_in
    player = make_player(BotSpec("bounty", "checkcall"))
    assert isinstance(player, LockIn) and player.config.rules == "engine" and player.rounds == 1000
    assert not isinstance(make_player(BotSpec("bounty", "checkcall", lock_in=False)), LockIn)
    (tmp_path / "bot.json").write_text('{"format": 1, "variant": "swap", "bot": "random", "strategy": null, "seed": 0}')
    assert BotSpec.read(tmp_path).lock_in  # written before the option existed: on
    (tmp_path / "bot.json").write_text(
        '{"format": 1, "variant": "swap", "bot": "random", "strategy": null, "seed": 0, "lock_in": "no"}'
    )
    with pytest.raises(ValueError, match="lock_in must be true or false"):
        BotSpec.read(tmp_path)


def test_exported_folder_with_no_lock_in_records_it_and_never_locks_in(tmp_path: Path) -> None:
    from solver.bots.export_bot import BotSpec, make_player
    from tests.solver.cli_support import invoke

    folder = tmp_path / "bot"
    (tmp_path / "min_raiser.py").write_text(MIN_RAISER)
    bot = f"{tmp_path / 'min_raiser.py'}:MinRaiser"
    result = invoke("export-bot", "--variant", "2022", "--bot", bot, "--out", folder, "--no-lock-in", "--json")
    assert result.exit_code == 0, result.output
    assert '"lock_in": false' in (folder / "bot.json").read_text()
    assert BotSpec.read(folder).lock_in is False
    assert not (folder / "game" / "lock_in.py").exists()  # the bot never imports it

    # the folder's own launcher, in the engine's place, against our engine over a socket: the
    # same match in which a locked-in bot folds every shove (previous test) is called through
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(120)
    engine_done: list[WireMatch] = []

    def engine() -> None:
        connection, _ = server.accept()
        with connection, connection.makefile("rw") as stream:

            def remote(line: str) -> str:
                stream.write(line + "\n")
                stream.flush()
                return stream.readline().strip()

            match = WireMatch("swap", remote, gift)
            match.play(1000, first_seat=0, opponent_after=600, later_opponent=shover)
            stream.write("Q\n")
            stream.flush()
            engine_done.append(match)

    thread = threading.Thread(target=engine, daemon=True)
    thread.start()
    process = subprocess.run(
        [sys.executable, "player.py", str(server.getsockname()[1])],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    thread.join(timeout=30)
    server.close()
    assert process.returncode == 0, process.stderr
    assert engine_done, "the engine thread failed"
    match = engine_done[0]
    assert "match over: 1000 rounds" in process.stderr and "locked in" not in process.stderr
    assert {reply for index, reply in match.decisions if index < 600} == {"R4"}
    late = [reply for index, reply in match.decisions if index >= 600]
    assert late.count("C") == 400 and "F" not in late  # it calls every shove (then checks, all-in)
    # and the same folder's bot, built as the launcher builds it, is the bare bot
    assert not isinstance(make_player(BotSpec.read(folder), folder), LockIn)
