"""Bounty Hold'em (rules/bounty-holdem.txt; the 2025 engine per pokerbots-engines.md).

Every worked example of the document is a test (85; 70; 12; 20; +610), and the cases where the
engine's rounding differs from the document's (+24 vs +23; 18 vs 17) are tested both ways.
"""

from __future__ import annotations

import numpy as np
import pytest

from game.cards.deck import RANKS, parse_cards
from game.rules.actions import ActionKind
from game.rules.bounty import BountyConfig, BountyRound, draw_bounty_ranks
from game.rules.chance import ScriptedChance
from tests.game.scripted import play

# Seat 0 Ah Ad, seat 1 Kc Qc; board 2s 7h 9d 3c 4d: seat 0 wins a showdown.
SEAT_0_WINS = "Ah Ad Kc Qc 2s 7h 9d 3c 4d"
# Seat 0 Kc Qc, seat 1 Ah Ad: seat 1 wins a showdown.
SEAT_1_WINS = "Kc Qc Ah Ad 2s 7h 9d 3c 4d"
# Both play the board's royal flush: a chop.
CHOP = "2c 3d 5h 6h As Ks Qs Js Ts"


def rank(symbol: str) -> int:
    return RANKS.index(symbol)


def bounty(deck: str, ranks: tuple[str, str], rules: str = "document", **config: object) -> BountyRound:
    return BountyRound(
        BountyConfig(rules=rules, **config),  # type: ignore[arg-type]
        ScriptedChance(parse_cards(deck).tolist()),
        match_state=(rank(ranks[0]), rank(ranks[1])),
    )


BOTH_RULES = pytest.mark.parametrize("rules", ["document", "engine"])


@BOTH_RULES
def test_example_1_showdown_50_each_winner_hits_wins_85(rules: str) -> None:
    # "both of them having bet 50 chips ... Player A wins and hits their bounty ... 1.5 * 50 + 10 = 85."
    round_ = play(bounty(SEAT_0_WINS, ("A", "2"), rules), "R50 C K K K K K K")
    assert round_.contributions == (50, 50) and round_.bounty_hits() == (True, True)
    assert round_.payoffs().tolist() == [85, -85]
    round_ = play(bounty(SEAT_1_WINS, ("K", "A"), rules), "R50 C K K K K K K")
    assert round_.payoffs().tolist() == [-85, 85]


@BOTH_RULES
def test_example_2_turn_raise_fold_wins_70(rules: str) -> None:
    # "60 chips in the pot after all action on the flop ... Player A bets 10 chips, and player B
    # raises to 30. Player A then folds ... normal winnings 40 ... with bounty 1.5 * 40 + 10 = 70."
    # A acts first on the turn, so A is seat 1 and B the dealer (seat 0); B's bounty (7) is on the board.
    round_ = play(bounty(SEAT_1_WINS, ("7", "2"), rules), "R30 C K K R10 R30 F")
    assert round_.contributions == (60, 40)
    assert round_.payoffs().tolist() == [70, -70]


@BOTH_RULES
def test_example_3_dealer_folds_preflop_big_blind_hit_wins_12(rules: str) -> None:
    # "Player A folds upon their action ... Player B hit their bounty within their hole cards ...
    # 1.5 * 1 + 10 = 11.5 - this gets rounded to 12 because Player B is out of position."
    round_ = play(bounty(SEAT_0_WINS, ("2", "Q"), rules), "F")
    assert round_.payoffs().tolist() == [-12, 12]


@BOTH_RULES
def test_example_4_chop_one_hit_wins_20(rules: str) -> None:
    # "each of them having bet 40 chips ... They chop, but Player A's bounty hit ... 40/4 + 10 = 20."
    round_ = play(bounty(CHOP, ("2", "9"), rules), "R40 C K K K K K K")
    assert round_.bounty_hits() == (True, False)
    assert round_.payoffs().tolist() == [20, -20]
    round_ = play(bounty(CHOP, ("9", "6"), rules), "R40 C K K K K K K")
    assert round_.payoffs().tolist() == [-20, 20]


@BOTH_RULES
def test_example_5_all_in_win_with_hit_610(rules: str) -> None:
    # "Both players go all in, putting 400 chips each ... +400 ... with bounty 1.5 * 400 + 10 = +610."
    if rules == "engine":
        round_ = play(bounty(SEAT_0_WINS, ("A", "2"), rules), "R400 C K K K K K K")
    else:
        round_ = play(bounty(SEAT_0_WINS, ("A", "2"), rules), "R400 C")
    assert round_.payoffs().tolist() == [610, -610]
    assert play(bounty(SEAT_0_WINS, ("8", "2"), "document"), "R400 C").payoffs().tolist() == [400, -400]


def test_river_call_by_the_dealer_engine_24_document_23() -> None:
    # pokerbots-engines.md: "+24 in the engine where the document gives +23": 9 chips each, the
    # dealer calls the river and wins with a hit: 1.5 * 9 + 10 = 23.5.
    actions = "C K K K K K R7 C"
    document = play(bounty(SEAT_0_WINS, ("A", "2"), "document"), actions)
    engine = play(bounty(SEAT_0_WINS, ("A", "2"), "engine"), actions)
    assert document.contributions == engine.contributions == (9, 9)
    assert document.payoffs().tolist() == [23, -23]  # the dealer wins: rounded down
    assert engine.payoffs().tolist() == [24, -24]  # toward the caller


def test_big_blind_folds_to_a_dealer_who_hit_engine_18_document_17() -> None:
    # 5 chips each preflop; the big blind checks, the dealer bets, the big blind folds: 1.5 * 5 + 10 = 17.5.
    actions = "R5 C K R10 F"
    assert play(bounty(SEAT_0_WINS, ("A", "2"), "document"), actions).payoffs().tolist() == [17, -17]
    assert play(bounty(SEAT_0_WINS, ("A", "2"), "engine"), actions).payoffs().tolist() == [18, -18]


def test_chop_rounding_after_check_check() -> None:
    # 2 chips each: 2/4 + 10 = 10.5. Document: up if the hitter is seat 1, down if seat 0.
    # Engine: after the final check-check, toward seat 1 either way.
    down_for_0 = {"document": [10, -10], "engine": [10, -10]}
    up_for_1 = {"document": [-11, 11], "engine": [-11, 11]}
    for rules in ("document", "engine"):
        assert play(bounty(CHOP, ("2", "9"), rules), "C K K K K K K K").payoffs().tolist() == down_for_0[rules]
        assert play(bounty(CHOP, ("9", "6"), rules), "C K K K K K K K").payoffs().tolist() == up_for_1[rules]


def test_chop_with_both_or_neither_hit_changes_nothing() -> None:
    assert play(bounty(CHOP, ("2", "5"), "document"), "R40 C K K K K K K").payoffs().tolist() == [0, 0]
    assert play(bounty(CHOP, ("9", "8"), "document"), "R40 C K K K K K K").payoffs().tolist() == [0, 0]
    assert play(bounty(CHOP, ("A", "K"), "engine"), "R40 C K K K K K K").payoffs().tolist() == [0, 0]


def test_only_the_board_dealt_so_far_counts() -> None:
    # Seat 0's bounty 4 is the river card; seat 1 folds on the flop: no hit, normal winnings.
    round_ = play(bounty(SEAT_0_WINS, ("4", "8"), "document"), "R6 C K R10 F")
    assert round_.bounty_hits() == (False, False)
    assert round_.payoffs().tolist() == [6, -6]
    # On the river it counts: 1.5 * 6 + 10 = 19.
    round_ = play(bounty(SEAT_0_WINS, ("4", "8"), "document"), "R6 C K K K K K R10 F")
    assert round_.payoffs().tolist() == [19, -19]


def test_a_losers_hit_does_not_matter() -> None:
    round_ = play(bounty(SEAT_0_WINS, ("8", "K"), "document"), "R50 C K K K K K K")
    assert round_.bounty_hits() == (False, True)
    assert round_.payoffs().tolist() == [50, -50]


def test_engine_fold_is_legal_even_when_checking_is_free() -> None:
    document = play(bounty(SEAT_0_WINS, ("8", "2"), "document"), "C")
    engine = play(bounty(SEAT_0_WINS, ("8", "2"), "engine"), "C")
    assert ActionKind.FOLD not in document.legal_actions()
    assert engine.legal_actions() == {ActionKind.FOLD, ActionKind.CHECK, ActionKind.RAISE}
    assert play(engine, "F").payoffs().tolist() == [2, -2]


def test_configurable_multiplier_and_bonus() -> None:
    round_ = play(bounty(SEAT_0_WINS, ("A", "2"), bounty_multiplier=2.0, bounty_bonus=0), "R50 C K K K K K K")
    assert round_.payoffs().tolist() == [100, -100]
    round_ = play(bounty(CHOP, ("2", "9"), bounty_multiplier=3, bounty_bonus=5), "R40 C K K K K K K")
    assert round_.payoffs().tolist() == [45, -45]  # (3 - 1) / 2 * 40 + 5
    round_ = play(bounty(SEAT_0_WINS, ("A", "2"), bounty_multiplier=1.3, bounty_bonus=0), "R10 C K K K K K K")
    assert round_.payoffs().tolist() == [13, -13]  # exactly 13, no float error


def test_bounty_rank_in_observation_is_own_only() -> None:
    round_ = bounty(SEAT_0_WINS, ("A", "2"))
    assert round_.observation(0).bounty_rank == rank("A")
    assert round_.observation(1).bounty_rank == rank("2")


def test_unknown_opponent_bounty_needs_reveal() -> None:
    round_ = BountyRound(BountyConfig(), ScriptedChance(parse_cards(SEAT_1_WINS).tolist()), match_state=(rank("K"), -1))
    play(round_, "R50 C K K K K K K")
    with pytest.raises(ValueError, match=r"seat 1's bounty rank is unknown; call reveal_bounty\(1, rank\) first"):
        round_.payoffs()
    round_.reveal_bounty(1, rank("A"))
    assert round_.payoffs().tolist() == [-85, 85]


def test_match_state_is_required_and_checked() -> None:
    deck = ScriptedChance(parse_cards(SEAT_0_WINS).tolist())
    with pytest.raises(ValueError, match=r"bounty needs match_state=\(rank of seat 0, rank of seat 1\)"):
        BountyRound(BountyConfig(), deck)
    with pytest.raises(ValueError, match=r"bounty ranks are 0..12 \(or -1 if unknown\), got \(3, 13\)"):
        BountyRound(BountyConfig(), deck, match_state=(3, 13))


def test_bounties_are_redrawn_every_period() -> None:
    rng = np.random.default_rng(0)
    config = BountyConfig(bounty_period=3)
    states = []
    state = None
    for index in range(9):
        state = BountyRound.next_match_state(config, index, state, rng)
        states.append(state)
    assert states[0] == states[1] == states[2] and states[3] == states[4] == states[5]
    assert states[6] == states[7] == states[8]
    assert all(0 <= r < 13 for pair in states for r in pair)


def test_draws_are_uniform_and_independent() -> None:
    rng = np.random.default_rng(1)
    draws = np.array([draw_bounty_ranks(rng) for _ in range(13_000)])
    counts = np.bincount(draws.ravel(), minlength=13)
    assert counts.min() > 1_700 and counts.max() < 2_300  # 2,000 expected per rank (sd ~43)
    assert abs((draws[:, 0] == draws[:, 1]).mean() - 1 / 13) < 0.012  # equal ranks allowed


@pytest.mark.parametrize(
    ("field", "value", "error", "message"),
    [
        ("bounty_period", 0, ValueError, "bounty_period must be >= 1, got 0"),
        ("bounty_bonus", -1, ValueError, "bounty_bonus must be >= 0, got -1"),
        ("bounty_multiplier", 0.5, ValueError, "bounty_multiplier must be a finite number >= 1, got 0.5"),
        ("bounty_multiplier", "1.5", TypeError, "bounty_multiplier must be a number, got '1.5'"),
    ],
)
def test_config_validation(field: str, value: object, error: type, message: str) -> None:
    with pytest.raises(error) as raised:
        BountyConfig(**{field: value})  # type: ignore[arg-type]
    assert str(raised.value) == message
