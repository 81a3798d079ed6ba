"""River of Blood Hold'em (rules/river-of-blood-holdem.txt): run cards while the last card is red."""

from __future__ import annotations

import numpy as np
import pytest

from game.cards.deck import format_cards
from game.rules.actions import Action, ActionKind
from game.rules.chance import RandomChance, ScriptedChance
from game.rules.river_of_blood import RiverOfBloodConfig, RiverOfBloodRound
from tests.game.scripted import cards, play


def start(deck: str, **config: object) -> RiverOfBloodRound:
    return RiverOfBloodRound(RiverOfBloodConfig(**config), ScriptedChance(cards(deck)))  # type: ignore[arg-type]


def test_black_river_ends_at_the_river() -> None:
    round_ = play(start("Ah Ad Kc Qc 2s 7h 9d 3c 4s"), "C K K K K K K K")
    assert round_.is_terminal and round_.street == 5 and len(round_.board) == 5
    assert round_.payoffs().tolist() == [2, -2]


def test_each_run_card_gets_a_betting_round_big_blind_first() -> None:
    # River 4d (red) -> run 1 Jh (red) -> run 2 2c (black): streets 6 and 7 each have betting.
    round_ = play(start("Ah Ad Kc Qc 2s 7s 9c 3c 4d Jh 2c"), "C K K K K K K K")
    assert (round_.street, round_.to_act, format_cards(round_.board)) == (6, 1, "2s 7s 9c 3c 4d Jh")
    play(round_, "R10 C")
    assert (round_.street, round_.to_act, round_.pips) == (7, 1, (0, 0))
    play(round_, "K R20")
    assert round_.raise_bounds() == (40, 388)
    play(round_, "F")
    assert round_.payoffs().tolist() == [12, -12]


def test_showdown_uses_every_run_card() -> None:
    # Seat 1's 6c 6h makes 3-4-5-6-7 only with the second run card 5s; seat 0's aces lose.
    round_ = play(start("Ah Ad 6c 6h 2s 7s 9c Jc 3h 4d 5s"), "R400 C")
    assert format_cards(round_.board) == "2s 7s 9c Jc 3h 4d 5s" and round_.street == 7
    assert round_.payoffs().tolist() == [-400, 400]


def test_best_flush_among_two_flushes_on_a_long_board() -> None:
    # pokerbots-engines.md: eval7 ranks 6c 8d Tc Td 8c 5d 3c Ad 9d 5c 3h wrongly (ten-high club
    # flush over the ace-high diamond flush). Seat 0's Ad 9d makes the diamond flush and wins;
    # seat 1 plays the board's club flush.
    deck = "Ad 9d Kh 2s 6c Tc 8c 3c 8d Td 5d 3h 5c"
    round_ = play(start(deck), "C K" + " K" * 14)
    assert round_.is_terminal and len(round_.board) == 9
    assert round_.payoffs().tolist() == [2, -2]


@pytest.mark.parametrize("rules", ["document", "engine"])
def test_max_board_cards_caps_the_run(rules: str) -> None:
    # Every run card is red, but the board stops at 7 cards.
    round_ = start("Ah Ad Kc Qc 2s 7s 9c 3h 4d Jh Qd Kd", max_board_cards=7, rules=rules)
    play(round_, "R400 C")
    if rules == "engine":
        for street in (3, 3, 4, 4, 5, 5, 6, 6, 7, 7):
            assert round_.street == street and round_.legal_actions() == {ActionKind.CHECK}
            round_.apply(Action.check())
    assert round_.is_terminal and format_cards(round_.board) == "2s 7s 9c 3h 4d Jh Qd"


def test_longest_possible_run() -> None:
    # Black flop and turn, then all 26 red cards, then a black card: 31 board cards, the most a
    # 52-card deck allows (so the engine's 48-card cap never binds).
    reds = [card for card in range(52) if card & 3 in (1, 2)]
    blacks = [card for card in range(52) if card & 3 in (0, 3)]
    deck = blacks[:4] + blacks[4:8] + reds + blacks[8:]  # holes, flop + turn, 26 reds, 18 blacks
    round_ = play(RiverOfBloodRound(RiverOfBloodConfig(), ScriptedChance(deck)), "R400 C")
    assert round_.is_terminal and len(round_.board) == 31 and round_.street == 31
    assert sum(round_.payoffs().tolist()) == 0


def test_run_length_statistics() -> None:
    # pokerbots-engines.md: "About half of all deals have a run; on average 0.96 extra cards."
    rng = np.random.default_rng(5)
    n = 5_000
    extra = []
    for _ in range(n):
        round_ = play(RiverOfBloodRound(RiverOfBloodConfig(), RandomChance(rng)), "R400 C")
        extra.append(len(round_.board) - 5)
    extra_array = np.array(extra)
    assert abs((extra_array > 0).mean() - 0.5) < 0.03
    assert abs(extra_array.mean() - 0.96) < 0.08


def test_config_validation() -> None:
    with pytest.raises(ValueError, match="max_board_cards must be >= 5, got 4"):
        RiverOfBloodConfig(max_board_cards=4)
    with pytest.raises(ValueError, match=r"max_board_cards must be in 5..48 \(52 cards minus 4 hole cards\), got 49"):
        RiverOfBloodConfig(max_board_cards=49)
