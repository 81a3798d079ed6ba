"""The opponent model: the posterior moves from the prior at the documented rate, the history replay
puts each action in its cell, and the sparring styles are recognised within 100 rounds."""

from types import SimpleNamespace

import numpy as np
import pytest

from game.cards.deck import parse_cards
from game.play.bots import make_bot
from game.play.match import play_match
from game.play.opponent_model import (
    BETA_SIZE,
    BID_CLASSES,
    ModelPrior,
    OpponentModel,
    _Watcher,
    prior_from_self_play,
)
from game.rules.actions import Action, Move
from game.rules.holdem import HoldemConfig


def _model(prior_mean: float = 0.3, weight: float = 10.0) -> OpponentModel:
    prior = ModelPrior(np.full(BETA_SIZE, prior_mean), np.full(len(BID_CLASSES), 1 / len(BID_CLASSES)), weight)
    return OpponentModel(small_blind=1, big_blind=2, stack=400, prior=prior)


def _round(*moves: tuple[int, int, Action], seat: int = 1, shown: str = "", board: str = "") -> SimpleNamespace:
    """A finished round seen from ``seat`` (the opponent is the other seat)."""
    return SimpleNamespace(
        seat=seat,
        history=tuple(Move(*move) for move in moves),
        opponent_hole_cards=tuple(parse_cards(shown).tolist()) if shown else (),
        board=tuple(parse_cards(board).tolist()) if board else (),
    )


def test_posterior_mean_moves_at_the_documented_rate():
    # The dealer (seat 0) opens with a raise in 6 rounds and folds in 2: VPIP and PFR 6/8 observed.
    model = _model(prior_mean=0.3, weight=10.0)
    for _ in range(6):
        model.observe_round(_round((0, 0, Action.raise_to(6)), (1, 0, Action.fold())))
    for _ in range(2):
        model.observe_round(_round((0, 0, Action.fold())))
    # (w p + s) / (w + n) = (10 * 0.3 + 6) / (10 + 8) = 0.5: moved 8/18 of the way from 0.3 to 0.75
    assert model.mean("vpip")[0] == pytest.approx(0.5)
    assert model.mean("pfr")[0] == pytest.approx(0.5)
    assert model.mean("vpip")[1] == pytest.approx(0.3)  # the big blind's cell never observed
    assert model.count("vpip").tolist() == [8.0, 0.0]
    assert model.rounds == 8


def test_fold_to_bet_goes_to_the_size_class_of_the_bet():
    model = _model()
    # We are the dealer (seat 0): raise to 6 preflop, 4 to call into a pot of 4 (a pot bet); the big blind folds.
    model.observe_round(_round((0, 0, Action.raise_to(6)), (1, 0, Action.fold()), seat=0))
    # A limp, a check; on the flop (pot 4) we bet 2 (half pot), it calls; turn (pot 8) we bet 20 (> 1 pot), it folds.
    model.observe_round(
        _round(
            (0, 0, Action.call()),
            (1, 0, Action.check()),
            (1, 3, Action.check()),
            (0, 3, Action.raise_to(2)),
            (1, 3, Action.call()),
            (1, 4, Action.check()),
            (0, 4, Action.raise_to(20)),
            (1, 4, Action.fold()),
            seat=0,
        )
    )
    counts, means = model.count("fold_to_bet"), model.mean("fold_to_bet")
    assert counts[0].tolist() == [0, 1, 0, 0] and counts[1].tolist() == [1, 0, 1, 0]
    assert means[0, 1] == pytest.approx((10 * 0.3 + 1) / 11)
    assert means[1, 0] == pytest.approx((10 * 0.3) / 11)
    assert model.count("aggression")[1].tolist() == [0, 1]  # one postflop call by the big blind, on the flop
    assert model.count("vpip")[1] == 2 and model.mean("vpip")[1] == pytest.approx(3 / 12)  # a fold, a free check


def test_all_in_bet_and_showdown_strength():
    model = _model()
    # The opponent (dealer) raises on the flop and shows a flush: an aggressive line.
    model.observe_round(
        _round(
            (0, 0, Action.call()),
            (1, 0, Action.raise_to(400)),
            (0, 0, Action.call()),
            shown="Ah Kh",
            board="2h 7h 9h Tc Jd",
        )
    )
    assert model.count("fold_to_bet")[0, 3] == 1  # our shove: all-in
    assert model.count("showdown_strength").tolist() == [1, 0]  # no postflop raise: the passive line


@pytest.mark.parametrize(("style", "check"), [("maniac", "aggressive"), ("station", "never_folds")])
def test_sparring_styles_are_recognised_within_100_rounds(style, check):
    config = HoldemConfig()
    model = OpponentModel(small_blind=1, big_blind=2, stack=400, prior=ModelPrior.flat(weight=20.0))
    play_match(config, _Watcher(make_bot("tag", seed=1), model), make_bot(style, seed=2), rounds=100, seed=3)
    aggression = model.mean("aggression")
    if check == "aggressive":
        # preflop, where the tag sees it most (it folds most hands before the flop)
        assert aggression[0].min() > 0.75 and model.mean("pfr").min() > 0.75
    else:
        # it never raises: every cell below its flat prior 1/2 (the fewer calls seen, the nearer)
        assert model.mean("fold_to_bet")[1, 1] < 0.2 and aggression.max() < 0.4 and aggression[1:].mean() < 0.35


def test_prior_from_self_play_is_the_bots_own_frequencies():
    config = HoldemConfig()
    prior = prior_from_self_play(lambda seed: make_bot("station", seed=seed), config, rounds=40, weight=5.0)
    model = OpponentModel(small_blind=1, big_blind=2, stack=400, prior=prior)
    assert prior.weight == 5.0
    assert model.mean("pfr").tolist() == [0.0, 0.0]  # a station never raises
    assert model.mean("vpip")[0] == 1.0  # and the dealer always calls the blind


def test_bad_prior_is_refused():
    with pytest.raises(ValueError, match="prior weight must be > 0"):
        ModelPrior.flat(weight=0.0)
    with pytest.raises(ValueError, match="prior beta must be"):
        ModelPrior(np.full(3, 0.5), np.full(len(BID_CLASSES), 1 / len(BID_CLASSES)), 1.0)
