"""The opponent model: the posterior moves from the prior at the documented rate, the history replay
puts each action in its cell, and the sparring styles are recognised within 100 rounds."""

from itertools import combinations
from types import SimpleNamespace

import numpy as np
import pytest

from game.cards.deck import parse_cards
from game.play.bots import make_bot
from game.play.match import play_match
from game.play.opponent_model import (
    BETA_SIZE,
    BID_CLASSES,
    BountyRule,
    ModelPrior,
    OpponentModel,
    _Watcher,
    prior_from_self_play,
    showdown_percentile,
)
from game.rules.actions import Action, Move
from game.rules.bounty import BountyConfig
from game.rules.holdem import HoldemConfig


def _model(prior_mean: float = 0.3, weight: float = 10.0) -> OpponentModel:
    prior = ModelPrior(np.full(BETA_SIZE, prior_mean), np.full(len(BID_CLASSES), 1 / len(BID_CLASSES)), weight)
    return OpponentModel(small_blind=1, big_blind=2, stack=400, prior=prior)


def _round(
    *moves: tuple[int, int, Action], seat: int = 1, shown: str = "", board: str = "", hole: str = ""
) -> SimpleNamespace:
    """A finished round seen from ``seat`` (the opponent is the other seat) holding ``hole``."""
    return SimpleNamespace(
        seat=seat,
        hole_cards=tuple(parse_cards(hole).tolist()) if hole else (),
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
    assert model.mean("showdown_strength")[0] == pytest.approx((10 * 0.3 + 1080.5 / 1081) / 11)  # the nuts


def test_a_random_hand_shows_half_on_average_and_our_cards_are_out():
    board = tuple(parse_cards("2h 7h 9h Tc Jd").tolist())
    ours = tuple(parse_cards("Ah Ad").tolist())
    live = [card for card in range(52) if card not in board + ours]
    for size in (2, 3):  # Hold'em and an auction winner's three cards
        hands = list(combinations(live, size))[:: 7 if size == 2 else 97]
        shares = [showdown_percentile(hand, board, ours) for hand in hands]
        assert all(0.0 < share < 1.0 for share in shares)
    every = [showdown_percentile(hand, board, ours) for hand in combinations(live, 2)]
    assert np.mean(every) == pytest.approx(0.5)  # exactly, by symmetry: each pair counted from both sides
    # Our aces are out: the ace-high flush beats the king-high one either way, but fewer hands with us holding them.
    kings = tuple(parse_cards("Kh Qh").tolist())
    assert showdown_percentile(kings, board, ours) > showdown_percentile(kings, board)


def test_the_opponents_bids_are_remembered_with_their_pot_and_read_back_rescaled():
    model = OpponentModel(small_blind=1, big_blind=2, stack=400, prior=_model().prior, bid_memory=3)
    # A limp and a check (pot 4), then the auction on the flop: we (seat 1) bid 2, the dealer all of its 398.
    limp = ((0, 0, Action.call()), (1, 0, Action.check()))
    model.observe_round(_round(*limp, (1, 3, Action.bid(2)), (0, 3, Action.bid(398))))
    assert list(model.recent_bids) == [(398, 4, True)]  # ours is not the opponent's
    assert model.lowest_bid(10, 390, evidence=1) == 390  # an all-in is read as the stack behind it now
    assert model.lowest_bid(10, 390, evidence=2) is None  # too few bids
    model.observe_round(_round(*limp, (0, 3, Action.bid(3)), (1, 3, Action.bid(0)), seat=1))
    assert model.lowest_bid(40, 390, evidence=2) == 25  # no one fraction fits both: the least, 2.5 / 4 of 40
    for bid in (7, 9):  # the memory keeps the last 3
        model.observe_round(_round(*limp, (0, 3, Action.bid(bid)), (1, 3, Action.bid(0))))
    assert [bid for bid, _, _ in model.recent_bids] == [3, 7, 9]
    model.observe_round(_round(*limp, (0, 3, Action.bid(0)), (1, 3, Action.bid(0))))
    assert model.lowest_bid(40, 390, evidence=3) == 0  # one bid of 0 and nothing is expected
    with pytest.raises(ValueError, match="bid_memory must be a positive"):
        OpponentModel(small_blind=1, big_blind=2, stack=400, prior=_model().prior, bid_memory=0)


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


def _bounty_round(moves, *, hole, board="", shown="", contributions, payoffs, seat=1, rank=7):
    """A finished Bounty round seen from ``seat`` (our bounty rank ``rank``; 7 = nine)."""
    observation = _round(*moves, seat=seat, shown=shown, board=board)
    observation.hole_cards = tuple(parse_cards(hole).tolist())
    observation.contributions, observation.payoffs, observation.bounty_rank = contributions, payoffs, rank
    return observation


def test_bounty_posterior_exact_values_of_a_showdown_miss_and_a_hit_after_our_fold():
    model = OpponentModel(small_blind=1, big_blind=2, stack=400, prior=ModelPrior.flat(), bounty=BountyRule())
    # Showdown, 10 chips each: its wheel (A 2 3 4 5) beats our nines and it won 10, not 1.5 * 10 + 10:
    # it missed, so its rank is none of A K 2 3 4 5 7: the six others, 1/6 each.
    model.observe_round(
        _bounty_round(
            [(0, 0, Action.raise_to(10)), (1, 0, Action.call())],
            hole="9c 9d",
            board="2c 3c 4d 5h 7s",
            shown="Ah Kd",
            contributions=(10, 10),
            payoffs=(10, -10),
        )
    )
    expected = np.zeros(13)
    expected[[4, 6, 7, 8, 9, 10]] = 1 / 6  # 6 8 9 T J Q
    assert model.opponent_bounty_posterior() == pytest.approx(expected)
    # We fold the big blind to its raise and it won 13 = 1.5 * 2 + 10: a hit among hole cards we never
    # see. Unseen 50 cards: a rank with 4 of them is held with 1 - C(46,2)/C(50,2) = 380/2450, the
    # nine (we hold two) 194/2450. Posterior: 380 : 194 over 6 8 T J Q : 9.
    model.observe_round(
        _bounty_round(
            [(0, 0, Action.raise_to(6)), (1, 0, Action.fold())], hole="9c 9d", contributions=(6, 2), payoffs=(13, -13)
        )
    )
    expected[[4, 6, 8, 9, 10]] = 380 / 2094
    expected[7] = 194 / 2094
    assert model.opponent_bounty_posterior() == pytest.approx(expected)
    # a round we win tells nothing; a payoff fitting neither formula tells nothing either
    model.observe_round(_bounty_round([(0, 0, Action.fold())], hole="9c 9d", contributions=(1, 2), payoffs=(-1, 1)))
    fold = [(0, 0, Action.raise_to(6)), (1, 0, Action.fold())]
    model.observe_round(_bounty_round(fold, hole="9c 9d", contributions=(6, 2), payoffs=(7, -7)))
    assert model.opponent_bounty_posterior() == pytest.approx(expected)
    assert model.opponent_bounty_posterior(own_rank=3) == pytest.approx(np.full(13, 1 / 13))  # another period


def test_bounty_posterior_finds_the_rank_within_a_period_and_restarts_at_the_redraw():
    # Two check-callers: every round is a showdown. The match draws the ranks every 25 rounds.
    config = BountyConfig(rules="engine")
    model = OpponentModel(small_blind=1, big_blind=2, stack=400, prior=ModelPrior.flat(), bounty=BountyRule.of(config))
    ranks, posteriors = [], []

    class _Recording(_Watcher):
        def round_over(self, observation):
            super().round_over(observation)
            posteriors.append(model.opponent_bounty_posterior())

    class _Opponent:
        name = "opponent"

        def act(self, observation):
            return make_bot("checkcall").act(observation)

        def round_over(self, observation):
            ranks.append(observation.bounty_rank)  # the rank the model infers

    play_match(config, _Recording(make_bot("checkcall"), model), _Opponent(), rounds=26, seed=4)
    assert len(set(ranks[:25])) == 1 and ranks[25] != ranks[24]  # seed 4: a new rank at round 25
    truth = ranks[0]
    assert posteriors[24].argmax() == truth and posteriors[24][truth] > 0.9
    assert posteriors[25][truth] < 0.5  # round 25 (our rank changed too) starts afresh


def test_bounty_posterior_restarts_at_the_redraw_round_even_if_our_rank_is_drawn_again():
    model = OpponentModel(small_blind=1, big_blind=2, stack=400, prior=ModelPrior.flat(), bounty=BountyRule())

    def miss(shown):  # it wins a 10-chip showdown on 2c 3c 4d 5h 7s without its bounty
        call = [(0, 0, Action.raise_to(10)), (1, 0, Action.call())]
        board = "2c 3c 4d 5h 7s"
        return _bounty_round(call, hole="9c 9d", board=board, shown=shown, contributions=(10, 10), payoffs=(10, -10))

    model.observe_round(miss("Ah Kd"))  # round 0: not A K 2 3 4 5 7
    for _ in range(24):  # rounds 1..24: we win, nothing learned
        model.observe_round(_bounty_round([(0, 0, Action.fold())], hole="9c 9d", contributions=(1, 2), payoffs=(-1, 1)))
    expected = np.zeros(13)
    expected[[4, 6, 7, 8, 9, 10]] = 1 / 6
    assert model.opponent_bounty_posterior() == pytest.approx(expected)
    model.observe_round(miss("6h 8d"))  # round 25, a new period: not 6 8 2 3 4 5 7, so 9 T J Q K A
    expected[:] = 0.0
    expected[7:] = 1 / 6  # without the restart: 9 T J Q, 1/4 each
    assert model.opponent_bounty_posterior() == pytest.approx(expected)
