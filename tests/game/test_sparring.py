"""The policy API of the baseline and sparring bots, and the sparring suite in play.

Policies: on random observations of every heads-up variant under both rule sets, every bot's
``policy`` is a distribution over distinct legal actions, ``act`` draws from it (exactly for one
point, by a chi-square test for mixed ones), and asking for policies changes no later ``act``.
Play: every style against the baselines in every variant and rule set without a fault, the limit
styles in 3-player freeze-outs, and the data-driven behaviours (sizes off every tree, raising past
caps, bids, the bounty, the lock-in) checked on scripted hands.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from game.cards.deck import parse_cards
from game.play.bots import BASELINE_BOTS, BOTS, make_bot
from game.play.freeze_out import FreezeOut
from game.play.match import play_match
from game.play.sparring import ALL_IN, LIMIT_STYLES, STYLES, Style, gauntlet_styles, make_sparring_bot
from game.rules.actions import Action, ActionKind
from game.rules.auction import AuctionConfig, AuctionRound
from game.rules.bounty import BountyConfig, BountyRound
from game.rules.chance import ScriptedChance
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.limit import LimitConfig
from game.rules.variants import VARIANTS
from tests.game.playouts import random_observations

RULES = ("document", "engine")


def check_policy(policy, round_) -> None:
    actions = [action for action, _ in policy]
    assert len(set(actions)) == len(actions), policy
    assert all(probability > 0.0 for _, probability in policy), policy
    assert sum(probability for _, probability in policy) == pytest.approx(1.0, abs=1e-12)
    for action in actions:
        assert round_.can_apply(action), (action, round_)


def samples_match(bot, observation, policy, draws: int = 600) -> None:
    """``act`` draws from ``policy``: exact for one point, else a chi-square test over its actions
    (over action kinds when it lists more than 12, as the random bot's every amount)."""
    if len(policy) == 1:
        assert bot.act(observation) == policy[0][0]
        return
    drawn = [bot.act(observation) for _ in range(draws)]
    assert set(drawn) <= {action for action, _ in policy}
    bin_of = (lambda action: action) if len(policy) <= 12 else (lambda action: action.kind)
    expected: Counter = Counter()
    for action, probability in policy:
        expected[bin_of(action)] += probability * draws
    observed = Counter(bin_of(action) for action in drawn)
    bins = list(expected)
    if len(bins) > 1:
        result = chisquare([observed[key] for key in bins], [expected[key] for key in bins])
        assert result.pvalue > 1e-4, (bot.name, policy, observed)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_policy_is_a_legal_distribution_that_act_samples(variant: str, rules: str) -> None:
    config = VARIANTS[variant].config_class(rules=rules)
    mixed = Counter()
    for name in BOTS:
        bot = make_bot(name, config=config, seed=11)
        for round_, observation in random_observations(variant, rules, 6, seed=5):
            policy = bot.policy(observation)
            check_policy(policy, round_)
            if len(policy) > 1 and mixed[name] >= 2:
                continue  # two chi-square checks per bot and variant are enough
            mixed[name] += len(policy) > 1
            samples_match(bot, observation, policy)
    assert mixed["random"] >= 2 and mixed["lag"] + mixed["overbettor"] + mixed["maniac"] >= 1


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_asking_for_policies_leaves_later_actions_unchanged(variant: str) -> None:
    config = VARIANTS[variant].config_class()
    observations = [observation for _, observation in random_observations(variant, "document", 8, seed=9)]
    for name in BOTS:
        asked, plain = make_bot(name, config=config, seed=3), make_bot(name, config=config, seed=3)
        for observation in observations[::-1]:
            asked.policy(observation)
        assert [asked.act(o) for o in observations] == [plain.act(o) for o in observations], name


def test_policy_of_the_limit_game() -> None:
    from game.rules.limit import LimitRound

    rng = np.random.default_rng(2)
    bots = [make_bot(name, seed=4) for name in (*LIMIT_STYLES, "random", "checkcall")]
    seen = 0
    for _ in range(20):
        game = LimitRound(LimitConfig(n_players=3), seed=rng)
        while game.to_act is not None:
            observation = game.observation(game.to_act)
            for bot in bots:
                check_policy(bot.policy(observation), game)
                seen += 1
            game.apply(bots[int(rng.integers(len(bots)))].act(observation))
    assert seen > 100


def play_suite(variant: str, rules: str, baselines: tuple[str, ...], rounds: int) -> None:
    config = VARIANTS[variant].config_class(rules=rules)
    for name in STYLES:
        for opponent in baselines:
            result = play_match(
                config,
                make_bot(name, config=config, seed=1),
                make_bot(opponent, config=config, seed=2),
                rounds=rounds,
                seed=3,
                duplicate=True,
            )
            assert result.faults == (), (name, opponent, result.faults[:3])


@pytest.mark.jit_only
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_style_plays_legally_against_random_and_checkcall(variant: str, rules: str) -> None:
    play_suite(variant, rules, ("random", "checkcall"), rounds=60)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_style_plays_1000_rounds_legally_against_each_baseline(variant: str, rules: str) -> None:
    play_suite(variant, rules, tuple(BASELINE_BOTS), rounds=1000)


def test_limit_styles_play_three_player_freeze_outs() -> None:
    for index, name in enumerate(LIMIT_STYLES):
        others = ("random", "checkcall") if index % 2 else ("checkcall", LIMIT_STYLES[index - 1])
        bots = [make_bot(name, seed=1), *(make_bot(other, seed=2 + k) for k, other in enumerate(others))]
        match = FreezeOut(LimitConfig(n_players=3, buy_in=200), bots, seed=index)
        match.run(max_games=300)
        assert sum(match.stacks) == 600


def scripted(round_class, config, cards: str, match_state=None):
    return round_class(config, ScriptedChance(parse_cards(cards).tolist()), match_state=match_state)


def test_overbettor_uses_sizes_off_every_tree() -> None:
    round_ = scripted(HoldemRound, HoldemConfig(), "7c 2d Ah Ad 3s 8h Tc")
    round_.apply(Action.raise_to(6))
    round_.apply(Action.call())
    policy = dict(make_sparring_bot("overbettor", seed=0).policy(round_.observation(1)))
    # aces on the flop, 12 chips in the pot, nothing to call: bet f * 12 for f = 0.33, 0.75, 1.5, 3
    sizes = {Action.raise_to(amount): 0.25 for amount in (4, 9, 18, 36)}
    assert policy == sizes


def test_reraiser_keeps_raising_and_min_raiser_raises_the_minimum() -> None:
    round_ = scripted(HoldemRound, HoldemConfig(), "Ah Ad Kh Kd")
    reraiser = make_sparring_bot("reraiser", seed=0)
    for _ in range(6):  # six raises each, far past any tree's cap of 2..4 per street
        round_.apply(reraiser.act(round_.observation(round_.to_act)))
    assert [move.action.kind for move in round_.history] == [ActionKind.RAISE] * 6
    min_raiser = make_sparring_bot("min_raiser", seed=0)
    round_ = scripted(HoldemRound, HoldemConfig(), "Ah Ad Kh Kd")
    assert min_raiser.policy(round_.observation(0)) == ((Action.raise_to(4), 1.0),)


def test_auction_bidders_follow_their_rules() -> None:
    round_ = scripted(AuctionRound, AuctionConfig(), "Ah Ad 9h 8h Th Js 2c")
    round_.apply(Action.call())
    round_.apply(Action.check())
    observation = round_.observation(1)
    high = observation.bid_bounds[1]
    bids = {
        name: make_sparring_bot(name, seed=0).act(observation).amount
        for name in ("bid_allin", "bid_zero", "bid_pot", "tag")
    }
    assert bids["bid_allin"] == high and bids["bid_zero"] == 0 and bids["bid_pot"] == 2  # half the 4-chip pot
    assert 0 < bids["tag"] <= 4  # the equity gain of a straight draw, as EquityBot bids


def test_bounty_hunter_raises_more_while_holding_its_rank() -> None:
    config = BountyConfig()
    hunter = make_sparring_bot("bounty_hunter", config=config, seed=0)
    tag = make_sparring_bot("tag", config=config, seed=0)
    round_ = scripted(BountyRound, config, "7c 2d Kh Qd", match_state=(5, 0))  # rank 5 = seven: a hit
    hit = hunter.policy(round_.observation(0))
    assert hit == ((Action.raise_to(2 + round(0.75 * 2 * 4)), 1.0),)
    assert tag.policy(round_.observation(0))[0][0].kind is not ActionKind.RAISE
    missed = scripted(BountyRound, config, "7c 2d Kh Qd", match_state=(12, 0))
    assert hunter.policy(missed.observation(0)) == tag.policy(missed.observation(0))


def test_lock_in_style_folds_once_its_lead_cannot_be_lost() -> None:
    config = HoldemConfig(rounds=10)
    bot = make_sparring_bot("lock_in", config=config, seed=0)
    round_ = scripted(HoldemRound, config, "Ah Ad 7c 2d")
    assert bot.act(round_.observation(0)).kind is ActionKind.RAISE
    bot.match.record(14)  # 9 rounds left from the dealer's seat cost at most 5 * 1 + 4 * 2 = 13 chips
    assert bot.policy(round_.observation(0)) == ((Action.fold(), 1.0),)
    assert bot.act(round_.observation(0)) == Action.fold() and bot.locked_rounds == 1
    for _ in range(9):
        bot.match.record(-1)  # a new 10-round match starts: the lock is off
    assert bot.match.rounds_played == 0 and bot.act(round_.observation(0)).kind is ActionKind.RAISE


def test_the_match_reports_round_results_to_the_lock_in_style() -> None:
    config = HoldemConfig(rounds=1000)
    bot = make_sparring_bot("lock_in", config=config, seed=0)
    result = play_match(config, bot, make_bot("random", seed=1), rounds=300, seed=2)
    assert bot.match.rounds_played == 300 and bot.match.bankroll == result.bankrolls["lock_in"]


def test_styles_are_data_and_refuse_bad_rows() -> None:
    assert all(isinstance(style, Style) for style in STYLES.values()) and len(STYLES) >= 16
    assert len(gauntlet_styles("bounty")) >= 12 and "bid_zero" not in gauntlet_styles("holdem")
    assert STYLES["maniac"].sizes[-1] == ALL_IN
    with pytest.raises(ValueError, match="bluff must be a probability"):
        Style("x", "bad", bluff=1.5)
    with pytest.raises(ValueError, match="unknown sparring style 'shark'"):
        make_sparring_bot("shark")
