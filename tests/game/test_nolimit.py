"""The shared heads-up no-limit betting machine, exercised through plain Hold'em.

Expected values follow the betting rules of the Pokerbots documents (rules/*.txt "Betting") and the
engines' formulas (engine-2022..2025 ``RoundState.legal_actions`` / ``raise_bounds``).
"""

from __future__ import annotations

import numpy as np
import pytest

from game.rules.actions import Action, ActionKind, IllegalActionError, Move
from game.rules.chance import UNKNOWN_CARD, RandomChance, ScriptedChance
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.nolimit import NoLimitConfig, NoLimitRound, sample_legal_action, street_name
from tests.game.scripted import cards, play

F, K, C, R = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.RAISE

# Seat 0: Ah Ad; seat 1: Kc Qc; board 2s 7h 9d 3c 4d (seat 0 wins with aces).
ACES_WIN = "Ah Ad Kc Qc 2s 7h 9d 3c 4d"
# Both play the royal flush on the board: a tie.
BOARD_PLAYS = "2c 3d 4c 5d As Ks Qs Js Ts"


def holdem(deck: str = ACES_WIN, **config: object) -> HoldemRound:
    return HoldemRound(HoldemConfig(**config), ScriptedChance(cards(deck)))  # type: ignore[arg-type]


def snapshot(round_: NoLimitRound) -> tuple:
    """The public state of a round, for comparing before and after (also used by the property tests)."""
    return (
        round_.street,
        round_.to_act,
        round_.pips,
        round_.stacks,
        round_.hole_cards,
        round_.board,
        round_.history,
        round_.legal_actions(),
        round_.chance_log,
    )


def test_blinds_and_first_decision() -> None:
    round_ = holdem()
    assert (round_.street, round_.to_act) == (0, 0)
    assert round_.pips == (1, 2) and round_.stacks == (399, 398) and round_.contributions == (1, 2)
    assert round_.legal_actions() == {F, C, R}
    # Document: "the dealer may fold (cost: 0), call (cost: 1), or raise (cost: 3+)" -> raise to 4.
    assert round_.raise_bounds() == (4, 400)


def test_limp_gives_big_blind_the_option_then_check_ends_preflop() -> None:
    round_ = play(holdem(), "C")
    assert (round_.street, round_.to_act) == (0, 1)
    assert round_.legal_actions() == {K, R}
    assert round_.raise_bounds() == (4, 400)
    play(round_, "K")
    assert (round_.street, round_.to_act, round_.pips) == (3, 1, (0, 0))
    assert round_.board == tuple(cards("2s 7h 9d"))


def test_postflop_big_blind_first_min_bet_one_big_blind_two_checks_end_street() -> None:
    round_ = play(holdem(), "R6 C")
    assert round_.to_act == 1 and round_.raise_bounds() == (2, 394)
    play(round_, "K")
    assert (round_.street, round_.to_act) == (3, 0)
    play(round_, "K")
    assert (round_.street, round_.to_act) == (4, 1)


def test_min_raise_is_the_previous_raise_amount() -> None:
    round_ = play(holdem(), "R6")  # raise amount 4
    assert round_.raise_bounds() == (10, 400)
    play(round_, "R20")  # raise amount 10
    assert round_.raise_bounds() == (34, 400)
    play(round_, "C")
    play(round_, "R7")  # a flop bet of 7
    assert round_.raise_bounds() == (14, 380)


def test_all_in_for_less_is_the_only_raise_and_then_no_reraise() -> None:
    round_ = play(holdem(), "R300")
    assert round_.raise_bounds() == (400, 400)  # min raise to 598 is not affordable
    play(round_, "R400")
    assert round_.stacks == (100, 0)
    assert round_.legal_actions() == {F, C}


def test_call_for_whole_stack_forbids_raise() -> None:
    round_ = play(holdem(), "R400")
    assert round_.legal_actions() == {F, C}


def test_document_all_in_deals_out_without_decisions() -> None:
    round_ = play(holdem(), "R400 C")
    assert round_.is_terminal and round_.legal_actions() == frozenset()
    assert round_.board == tuple(cards("2s 7h 9d 3c 4d"))
    assert round_.payoffs().tolist() == [400, -400]


def test_engine_all_in_asks_for_checks_on_every_remaining_street() -> None:
    round_ = play(holdem(rules="engine"), "R400 C")
    for street in (3, 3, 4, 4, 5, 5):
        assert round_.street == street and round_.legal_actions() == {K}
        round_.apply(Action.check())
    assert round_.is_terminal
    assert round_.payoffs().tolist() == [400, -400]
    assert [str(move.action) for move in round_.history] == ["R400", "C"] + ["K"] * 6


def test_folds_pay_the_folders_contribution() -> None:
    assert play(holdem(), "F").payoffs().tolist() == [-1, 1]
    assert play(holdem(), "R6 F").payoffs().tolist() == [2, -2]
    assert play(holdem(), "C K R10 F").payoffs().tolist() == [-2, 2]


def test_showdown_winner_and_tie() -> None:
    round_ = play(holdem(), "R6 C K K K K R10 C")
    assert round_.contributions == (16, 16) and round_.payoffs().tolist() == [16, -16]
    tie = play(holdem(BOARD_PLAYS), "R6 C K R2 C K K K K")
    assert tie.payoffs().tolist() == [0, 0]
    assert play(holdem(BOARD_PLAYS, rules="engine"), "R6 C K K K K K K").payoffs().tolist() == [0, 0]


def test_payoffs_dtype_and_not_before_the_end() -> None:
    round_ = holdem()
    with pytest.raises(ValueError, match="no payoffs yet: the round is at preflop for seat 0"):
        round_.payoffs()
    payoffs = play(round_, "F").payoffs()
    assert payoffs.dtype == np.int64 and payoffs.shape == (2,)


@pytest.mark.parametrize(
    ("actions", "bad", "message"),
    [
        ("", "K", "illegal action K at preflop for seat 0: legal are F, C, R4..R400"),
        ("", "R3", "illegal action R3 at preflop for seat 0: legal are F, C, R4..R400"),
        ("C", "F", "illegal action F at preflop for seat 1: legal are K, R4..R400"),
        ("R6 C", "R500", "illegal action R500 at flop for seat 1: legal are K, R2..R394"),
        ("R400", "R400", "illegal action R400 at preflop for seat 1: legal are F, C"),
        ("R6 C", "A3", "illegal action A3 at flop for seat 1: legal are K, R2..R394"),
        ("F", "K", "illegal action K at the end of the round: the round is over"),
    ],
)
def test_illegal_actions_are_refused_with_a_clear_message_and_no_change(actions: str, bad: str, message: str) -> None:
    round_ = play(holdem(), actions)
    before = snapshot(round_)
    with pytest.raises(IllegalActionError) as error:
        round_.apply(Action.parse(bad))
    assert str(error.value) == message
    assert snapshot(round_) == before
    assert not round_.can_apply(Action.parse(bad))


def test_apply_refuses_non_actions() -> None:
    with pytest.raises(TypeError, match="expected an Action, got 'C'"):
        holdem().apply("C")  # type: ignore[arg-type]


def test_engine_fold_is_not_legal_when_checking_is_free_outside_bounty() -> None:
    round_ = play(holdem(rules="engine"), "C")
    assert round_.legal_actions() == {K, R}


def test_equal_blinds_let_the_dealer_check() -> None:
    round_ = holdem(small_blind=2)
    assert round_.legal_actions() == {K, R}
    play(round_, "K")
    assert round_.to_act == 1 and round_.street == 0
    play(round_, "K")
    assert round_.street == 3


def test_configurable_stack_and_blinds() -> None:
    round_ = holdem(stack=100, small_blind=5, big_blind=10)
    assert round_.pips == (5, 10) and round_.stacks == (95, 90)
    assert round_.raise_bounds() == (20, 100)
    assert play(round_, "R100 C").payoffs().tolist() == [100, -100]


def test_observation_shows_only_what_a_seat_may_know() -> None:
    round_ = play(holdem(), "R6")
    seen_by_1 = round_.observation(1)
    assert seen_by_1.hole_cards == tuple(cards("Kc Qc"))
    assert seen_by_1.opponent_hole_cards == ()
    assert seen_by_1.legal_actions == {F, C, R} and seen_by_1.raise_bounds == (10, 400)
    assert seen_by_1.history == (Move(0, 0, Action.raise_to(6)),)
    seen_by_0 = round_.observation(0)
    assert seen_by_0.hole_cards == tuple(cards("Ah Ad"))
    assert seen_by_0.legal_actions == frozenset() and seen_by_0.raise_bounds is None
    assert seen_by_0.payoffs is None and seen_by_0.bounty_rank is None
    folded = play(holdem(), "F").observation(1)
    assert folded.opponent_hole_cards == () and folded.payoffs == (-1, 1)
    shown = play(holdem(), "R400 C").observation(1)
    assert shown.opponent_hole_cards == tuple(cards("Ah Ad")) and shown.payoffs == (400, -400)


def test_raise_bounds_none_in_observation_when_raise_is_illegal() -> None:
    assert play(holdem(), "R400").observation(1).raise_bounds is None


def test_clone_is_independent() -> None:
    round_ = play(holdem(), "R6")
    copy = round_.clone()
    play(copy, "C K K")
    assert round_.street == 0 and round_.history == (Move(0, 0, Action.raise_to(6)),)
    play(round_, "C K K")
    assert snapshot(copy) == snapshot(round_)


def test_random_clone_deals_the_same_cards() -> None:
    round_ = HoldemRound(HoldemConfig(), RandomChance(5))
    copy = round_.clone()
    play(round_, "C K")
    play(copy, "C K")
    assert round_.board == copy.board


def test_chance_log_replays_the_hand() -> None:
    rng = np.random.default_rng(11)
    round_ = HoldemRound(HoldemConfig(), RandomChance(rng))
    while not round_.is_terminal:
        round_.apply(sample_legal_action(round_, rng))
    replay = HoldemRound(HoldemConfig(), round_.chance_log.replay())
    for move in round_.history:
        replay.apply(move.action)
    assert replay.hole_cards == round_.hole_cards and replay.board == round_.board
    assert replay.payoffs().tolist() == round_.payoffs().tolist()


def test_unknown_opponent_cards_need_reveal_before_showdown_payoffs() -> None:
    deck = [*cards("Ah Ad"), UNKNOWN_CARD, UNKNOWN_CARD, *cards("2s 7h 9d 3c 4d")]
    round_ = play(HoldemRound(HoldemConfig(), ScriptedChance(deck)), "R6 C K K K K K K")
    assert round_.observation(0).hole_cards == tuple(cards("Ah Ad"))
    with pytest.raises(ValueError, match=r"call reveal\(1, cards\) first"):
        round_.payoffs()
    with pytest.raises(ValueError, match="seat 0's card Ah is known"):
        round_.reveal(0, cards("Kc Qc"))
    round_.reveal(1, cards("Kc Qc"))
    assert round_.payoffs().tolist() == [6, -6]


def test_unknown_cards_do_not_matter_after_a_fold() -> None:
    deck = [UNKNOWN_CARD, UNKNOWN_CARD, *cards("Kc Qc")]
    assert play(HoldemRound(HoldemConfig(), ScriptedChance(deck)), "F").payoffs().tolist() == [-1, 1]


def test_sample_legal_action_is_always_legal() -> None:
    rng = np.random.default_rng(3)
    for _ in range(200):
        round_ = HoldemRound(HoldemConfig(rules="engine"), RandomChance(rng))
        while not round_.is_terminal:
            action = sample_legal_action(round_, rng)
            assert round_.can_apply(action)
            round_.apply(action)


@pytest.mark.parametrize(
    ("config", "error", "message"),
    [
        ({"small_blind": 3}, ValueError, "small_blind must be <= big_blind (2), got 3"),
        ({"big_blind": 0}, ValueError, "big_blind must be >= 1, got 0"),
        ({"stack": 2}, ValueError, "stack must be > big_blind (2), got 2"),
        ({"stack": 400.0}, TypeError, "stack must be an int, got 400.0"),
        ({"rounds": 0}, ValueError, "rounds must be >= 1, got 0"),
        ({"rules": "server"}, ValueError, "rules must be 'document' or 'engine', got 'server'"),
    ],
)
def test_config_validation_quotes_the_bad_value(config: dict, error: type, message: str) -> None:
    with pytest.raises(error) as raised:
        HoldemConfig(**config)
    assert str(raised.value) == message


def test_config_defaults_match_the_documents() -> None:
    # rules/*.txt "Parameters": Rounds 1000, Stack 400, Big blind 2, Small blind 1.
    config = NoLimitConfig()
    assert (config.rounds, config.stack, config.big_blind, config.small_blind, config.rules) == (
        1000,
        400,
        2,
        1,
        "document",
    )


def test_round_refuses_a_foreign_config_and_unwanted_match_state() -> None:
    with pytest.raises(TypeError, match="config must be a NoLimitConfig"):
        HoldemRound("holdem", RandomChance(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="holdem takes no match_state, got"):
        HoldemRound(HoldemConfig(), RandomChance(0), match_state=(1, 2))


def test_street_names() -> None:
    assert [street_name(street) for street in (0, 3, 4, 5, 6)] == ["preflop", "flop", "turn", "river", "run 1"]
    with pytest.raises(ValueError, match="no street 2"):
        street_name(2)


def test_repr_names_the_state() -> None:
    text = repr(play(holdem(), "R6"))
    assert text.startswith("HoldemRound(preflop for seat 1, holes [Ah Ad | Kc Qc]")
