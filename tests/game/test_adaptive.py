"""Safe exploitation: the risk budget holds at every decision against an opponent that switches from
loose to tight, the bot never crashes a match, ``policy`` changes nothing, and the CLI seats it."""

import dataclasses

import numpy as np
import pytest

from game.play.adaptive import _AT_ONCE, AdaptiveBot, ExploitConfig, _cost, adaptive_player
from game.play.bot_support import policy_rows_by_hand
from game.play.bots import EquityBot, make_bot
from game.play.cli_game import make_player
from game.play.match import play_match
from game.play.opponent_model import SIZE_CLASSES, STATS
from game.rules.actions import Action, ActionKind
from game.rules.holdem import HoldemConfig

SWITCH = 300


def _station(model):
    """Make ``model`` sure of a station: every frequency 0 over 1,000 trials (never folds, never raises)."""
    model.trials[:] = 1000.0
    model.successes[:] = 0.0


class _Switcher:
    """Plays ``first`` for ``SWITCH`` rounds, then ``second`` (counted by ``round_over``)."""

    def __init__(self, first, second):
        self.name = "switcher"
        self.rounds = 0
        self._first, self._second = first, second

    def act(self, observation):
        return (self._first if self.rounds < SWITCH else self._second).act(observation)

    def round_over(self, observation):
        self.rounds += 1


class _Audited(AdaptiveBot):
    """An AdaptiveBot whose every decision and round is checked against an independent tally of
    its winnings: this round's deviation cost <= max(winnings before the round, 0)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tally = 0  # chips won, summed here from the payoffs
        self.worst_slack = np.inf
        self.won_at_switch = None
        self.deviations_at_switch = None
        self.rounds = 0

    def act(self, observation):
        action = super().act(observation)
        self.worst_slack = min(self.worst_slack, max(self.tally, 0) - self.risk)
        return action

    def round_over(self, observation):
        self.worst_slack = min(self.worst_slack, max(self.tally, 0) - self.risk)
        super().round_over(observation)
        self.tally += observation.payoffs[observation.seat]
        self.rounds += 1
        if self.rounds == SWITCH:
            self.won_at_switch, self.deviations_at_switch = self.tally, self.deviations


def _tight_base(config):
    """A deterministic base other than the exploiter: an equity bot that raises only with 85%."""
    return EquityBot(config, samples=200, raise_equity=0.85, seed=1)


def _switcher(config):
    """A maniac for ``SWITCH`` rounds, then a rock (no bluffs, one size: deterministic), which punishes
    the exploiter's loose calls."""
    return _Switcher(make_bot("maniac", config=config, seed=3), make_bot("rock", config=config, seed=4))


def test_loss_after_a_loose_opponent_turns_tight_stays_within_the_bound():
    config = HoldemConfig()
    exploit = ExploitConfig(prior_weight=10.0, samples=200)
    bot = _Audited(_tight_base(config), config, exploit=exploit, seed=2)
    result = play_match(config, bot, _switcher(config), rounds=3 * SWITCH, seed=5)
    assert bot.won == bot.tally == result.winnings.sum()  # value 0: won is the bankroll
    assert bot.worst_slack >= 0  # the invariant, at every decision and round end
    assert bot.deviations_at_switch > 0 and bot.won_at_switch > 0  # it did exploit the maniac
    assert bot.fallbacks == 0 and result.illegal_actions["adaptive-equity"] == 0
    # the same deals against the same switcher played by the base alone: after the switch both are
    # deterministic, so the rounds differ only where the adaptive bot deviated
    base = play_match(config, _tight_base(config), _switcher(config), rounds=3 * SWITCH, seed=5)
    lost_after_switch = base.winnings[SWITCH:].sum() - result.winnings[SWITCH:].sum()
    assert bot.deviations > bot.deviations_at_switch  # it still believed the opponent loose for a while
    assert lost_after_switch <= bot.won_at_switch  # G&S: it risked only what it had won
    # the model has caught up with the rock (which departs from a flat prior)
    assert bot.exploitable() not in _AT_ONCE


@pytest.mark.parametrize(("value", "deviates"), [(1000.0, False), (-1000.0, True)])
def test_deviations_need_winnings_above_the_value(value, deviates):
    # value 1000 chips a round: never above it, no budget; -1000: always far above it
    config = HoldemConfig()
    exploit = ExploitConfig(value=(value, value), prior_weight=5.0, samples=200)
    bot = AdaptiveBot(_tight_base(config), config, exploit=exploit, seed=2)
    result = play_match(config, bot, make_bot("station", config=config, seed=3), rounds=40, seed=1)
    assert (bot.deviations > 0) is deviates and (bot.risk_taken > 0) is deviates
    base = play_match(config, _tight_base(config), make_bot("station", seed=3), rounds=40, seed=1)
    assert np.array_equal(result.winnings, base.winnings) is not deviates  # no budget: exactly the base


class _Broken:
    name = "broken"

    def policy(self, observation):
        raise RuntimeError("no strategy here")

    def act(self, observation):
        return make_bot("checkcall").act(observation)


def test_errors_fall_back_to_the_base_action():
    config = HoldemConfig()
    bot = AdaptiveBot(_Broken(), config, seed=0)
    _station(bot.model)  # a station: the base's policy is asked (only an exploitable opponent needs it)
    bot.won = bot.budget = 1000.0  # and only with a budget left to deviate with
    result = play_match(config, bot, make_bot("maniac", config=config, seed=1), rounds=10, seed=0)
    assert bot.fallbacks > 0 and result.illegal_actions["adaptive-broken"] == 0


def test_policy_changes_nothing_and_act_samples_it():
    from game.rules.chance import RandomChance
    from game.rules.holdem import HoldemRound

    config = HoldemConfig()
    bot = AdaptiveBot(_tight_base(config), config, exploit=ExploitConfig(samples=200), seed=2)
    bot.won = bot.budget = 1000.0  # room to deviate
    _station(bot.model)  # an opponent that never folds and never raises: a station
    round_ = HoldemRound(config, RandomChance(np.random.default_rng(0)))
    observation = round_.observation(round_.to_act)
    first = bot.policy(observation)
    assert bot.policy(observation) == first and bot.risk == 0
    action = bot.act(observation)
    assert action in [a for a, _ in first]


class _RowsBase(EquityBot):
    """The tight base with ``policy_rows`` (as the lookup bot has), counting its calls."""

    calls = 0

    def policy_rows(self, observation, holes, bounty_ranks=None):
        self.calls += 1
        return policy_rows_by_hand(self, observation, holes, bounty_ranks or [None] * len(holes))


def test_policy_rows_are_the_adaptive_policy_per_hand():
    """Full-game LBR's belief reads ``policy_rows``: the base's own rows while no rule plays this round
    or the budget affords no deviation, and the adaptive policy, hand by hand, in a round drawn to
    exploit (the base's rows, which the base would lend, hide the deviations)."""
    from game.cards.deck import parse_cards
    from game.rules.chance import RandomChance
    from game.rules.holdem import HoldemRound

    config = HoldemConfig()
    base = _RowsBase(config, samples=200, raise_equity=0.85, seed=1)
    bot = AdaptiveBot(base, config, exploit=ExploitConfig(samples=200), seed=2)
    round_ = HoldemRound(config, RandomChance(np.random.default_rng(0)))
    observation = round_.observation(round_.to_act)
    holes = [tuple(int(c) for c in parse_cards(text)) for text in ("AsAh", "7c2d", "KsQs", "9h8h")]

    def by_hand(player):
        return [dict(player.policy(dataclasses.replace(observation, hole_cards=hole))) for hole in holes]

    def as_dicts(actions, rows):
        return [{a: p for a, p in zip(actions, row, strict=True) if p > 0} for row in rows]

    assert as_dicts(*bot.policy_rows(observation, holes)) == by_hand(base) and base.calls == 1
    bot.won = bot.budget = 1000.0  # room to deviate
    _station(bot.model)
    bot._rule, bot._arm = "station", 1  # this round drew the exploit arm
    rows = as_dicts(*bot.policy_rows(observation, holes))
    assert base.calls == 1 and rows == by_hand(bot)
    assert rows != by_hand(base)  # the deviations show
    bot.budget = 0.0  # nothing to risk: no deviation is affordable, the base's rows at once
    assert as_dicts(*bot.policy_rows(observation, holes)) == by_hand(base) == by_hand(bot) and base.calls == 2


def test_the_trial_draws_at_the_first_affordable_deviation():
    """A round is drawn into the trial at its first decision where the rule wants a deviation the
    budget affords, not before: a round with a closed budget counts in neither arm (and asks the
    exploiter nothing: every deviation costs chips). Before the draw
    ``policy`` is the mixture of the deviation and the base by the exploit arm's probability and draws
    nothing; ``act`` draws, and the round counts in the arm drawn."""
    from game.cards.deck import parse_cards
    from game.rules.chance import RandomChance
    from game.rules.holdem import HoldemRound

    config = HoldemConfig()
    base = _tight_base(config)
    bot = AdaptiveBot(base, config, exploit=ExploitConfig(samples=200, station_fold=0.0), seed=2)
    _station(bot.model)  # a station, its never folding not counted: a caller, measured by the trial
    round_ = HoldemRound(config, RandomChance(np.random.default_rng(0)))
    seat = round_.to_act
    observation = dataclasses.replace(round_.observation(seat), hole_cards=tuple(int(c) for c in parse_cards("AsAh")))
    wanted = max(bot.exploiter.policy(observation), key=lambda entry: entry[1])[0]
    assert wanted not in dict(base.policy(observation))  # the rule wants a deviation here

    asked = []  # the exploiter's policies asked
    exploiter_policy = bot.exploiter.policy
    bot.exploiter.policy = lambda seen: asked.append(seen) or exploiter_policy(seen)
    bot.act(observation)  # budget 0: no deviation is affordable, none is asked for, nothing is drawn
    assert bot._rule == "caller" and bot._arm is None and bot.over_budget == 1 and bot.deviations == 0
    assert not asked
    finished = dataclasses.replace(observation, payoffs=(0, 0))
    bot.round_over(finished)
    assert "caller" not in bot.trials  # counted in no arm

    bot.won = bot.budget = 1000.0  # room to deviate
    mixture = dict(bot.policy(observation))  # undrawn: the deviation with the exploit arm's 1/2, else the base
    assert mixture[wanted] == pytest.approx(0.5) and sum(mixture.values()) == pytest.approx(1.0)
    assert bot._arm is None
    bot.act(observation)
    assert bot._arm in (0, 1) and bot.deviations == bot._arm and asked
    arm = bot._arm
    bot.round_over(finished)
    assert bot.trials["caller"].rounds.tolist() == [float(arm == 0), float(arm == 1)]


@pytest.mark.parametrize(
    ("fold_preflop", "raising", "fold_postflop", "verdict"),
    [
        (0.0, 0.0, 0.0, "station"),  # a calling station: never folds
        (0.05, 0.5, 0.6, "loose"),  # loose-aggressive: rarely folds preflop and raises half its entries
        (
            0.0,
            0.0,
            0.3,
            "caller",
        ),  # calls a lot, folds some, never opens with a raise: the loose-passive, the equity bot
        (0.3, 0.5, 0.6, None),  # within 0.25 of the base's 1/2 everywhere, folds preflop: nothing to exploit
        (0.45, 0.9, 1.0, "caller"),  # enters and raises 90% as the big blind, folds half preflop: push or fold
    ],
)
def test_the_textbook_styles_are_exploited_at_once_and_a_caller_by_trial(fold_preflop, raising, fold_postflop, verdict):
    """*Loose* (a station, or loose-aggressive) plays the exploiter's action in every round, no trial
    drawn: ``policy`` is the deviation alone. A *caller* is measured by the trial: before the draw its
    ``policy`` is the half-and-half mixture."""
    from game.cards.deck import parse_cards
    from game.play.opponent_model import BETA_SIZE, BID_CLASSES, ModelPrior
    from game.rules.chance import RandomChance
    from game.rules.holdem import HoldemRound

    config = HoldemConfig()
    prior = ModelPrior(np.full(BETA_SIZE, 0.5), np.full(len(BID_CLASSES), 1 / len(BID_CLASSES)), 20.0)
    bot = AdaptiveBot(_tight_base(config), config, prior=prior, exploit=ExploitConfig(samples=200), seed=2)
    model = bot.model

    def observe(name, index, frequency, trials=400.0):
        cells = model._cells(name)
        cell = np.arange(cells.start, cells.stop).reshape(STATS[name])[index]
        model.trials[cell], model.successes[cell] = trials, frequency * trials

    pot = SIZE_CLASSES.index("<=1p")
    observe("fold_to_bet", (0, pot), fold_preflop)
    observe("fold_to_bet", (1, pot), fold_postflop)
    observe("aggression", (0, 0), raising)  # the dealer's raises decide
    observe("aggression", (0, 1), 0.9 if raising > 0.65 else 0.5)  # the big blind re-raises as the base, or more
    observe("vpip", 1, 0.8 if raising > 0.65 else 0.3)  # the big blind enters 80% of its hands, or less than the base
    assert bot.exploitable() == verdict
    if verdict is None:
        return
    round_ = HoldemRound(config, RandomChance(np.random.default_rng(0)))
    observation = dataclasses.replace(
        round_.observation(round_.to_act), hole_cards=tuple(int(c) for c in parse_cards("AsAh"))
    )
    exploiter = bot.station_exploiter if verdict == "station" else bot.exploiter
    wanted = max(exploiter.policy(observation), key=lambda entry: entry[1])[0]
    assert wanted not in dict(bot.base.policy(observation))
    bot.won = bot.budget = 1000.0
    policy = dict(bot.policy(observation))
    at_once = verdict in _AT_ONCE
    assert policy[wanted] == pytest.approx(1.0 if at_once else 0.5)
    if at_once:
        assert bot.act(observation) == wanted and bot._arm == 1
        bot.round_over(dataclasses.replace(observation, payoffs=(5, -5)))
        assert bot.trials[verdict].rounds.tolist() == [0.0, 1.0]  # the rounds are counted, no arm drawn


def test_against_a_station_the_value_hands_move_all_in():
    """A station calls any bet, so a bet of B chips with equity e gains (2e - 1) B over checking: the
    station exploiter moves all-in with aces where the exploiter raises the pot, and plays as the
    exploiter with a hand under ``station_equity``."""
    from game.cards.deck import parse_cards
    from game.rules.chance import RandomChance
    from game.rules.holdem import HoldemRound

    config = HoldemConfig()
    bot = AdaptiveBot(_tight_base(config), config, exploit=ExploitConfig(samples=400), seed=2)
    _station(bot.model)
    assert bot.exploitable() == "station"
    round_ = HoldemRound(config, RandomChance(np.random.default_rng(0)))
    first = round_.observation(round_.to_act)
    high = first.raise_bounds[1]
    for cards, station_raise, pot_raise in (("AsAh", high, 6), ("7c2d", None, None)):
        observation = dataclasses.replace(first, hole_cards=tuple(int(c) for c in parse_cards(cards)))
        target = bot._target(observation, bot.base.policy(observation), "station")
        exploiter = max(bot.exploiter.policy(observation), key=lambda entry: entry[1])[0]
        if station_raise is None:
            assert target == exploiter and target.kind is not ActionKind.RAISE
        else:
            assert target == Action.raise_to(station_raise) and exploiter == Action.raise_to(pot_raise)
    with pytest.raises(ValueError, match="station_equity"):
        ExploitConfig(station_equity=1.5)


def test_against_a_loose_opponent_the_auction_bid_is_the_valuation():
    from game.rules.auction import AuctionConfig, AuctionRound
    from game.rules.chance import RandomChance

    config = AuctionConfig()
    bot = AdaptiveBot(_tight_base(config), config, exploit=ExploitConfig(samples=200), seed=2)
    bot.won = bot.budget = 1000.0
    _station(bot.model)  # never folds, never raises: a station
    assert bot.exploitable() == "station"
    round_ = AuctionRound(config, RandomChance(np.random.default_rng(3)))
    checkcall = make_bot("checkcall")
    while round_.street == 0:
        round_.apply(checkcall.act(round_.observation(round_.to_act)))
    observation = round_.observation(round_.to_act)
    wanted = bot.station_exploiter.policy(observation)  # the equity gain of the third card times the pot
    assert wanted == bot.exploiter.policy(observation)  # both exploiters bid so
    bot._rule, bot._arm = "station", 1  # this round drew the exploit arm
    assert wanted[0][0].kind.name == "BID" and bot.policy(observation) == wanted
    bot.act(observation)
    assert bot.deviations == (wanted != _tight_base(config).policy(observation))


def test_make_player_seats_the_adaptive_bot():
    config = HoldemConfig()
    bot = make_player("adaptive:checkcall", config, 0)
    assert isinstance(bot, AdaptiveBot) and bot.name == "adaptive:checkcall" and bot.base.name == "checkcall"
    assert bot.model.mean("pfr").tolist() == [0.0, 0.0]  # the prior: a check-caller never raises
    with pytest.raises(ValueError, match="adaptive:BASE"):
        adaptive_player(None, "adaptive:", config, 0)
    with pytest.raises(ValueError, match="unknown bot"):
        make_player("adaptive:shark", config, 0)


def test_adaptive_wraps_a_player_file(monkeypatch):
    # a strategy file's loader (the solver registers .h5 this way) builds the base: twice for the
    # self-play prior, once for the base
    from game.play import cli_game

    built = []

    def loader(path, config, seed):
        built.append(path)
        return make_bot("station", config=config, seed=seed)

    monkeypatch.setitem(cli_game.PLAYER_FILES, ".fake", loader)
    bot = make_player("adaptive:strategy.fake", HoldemConfig(), 0)
    assert built == ["strategy.fake"] * 3 and bot.base.name == "station"
    monkeypatch.setitem(cli_game.PLAYER_FILES, ".nopolicy", lambda path, config, seed: _ActOnly())
    with pytest.raises(ValueError, match="need a base with a policy"):
        make_player("adaptive:bot.nopolicy", HoldemConfig(), 0)


class _ActOnly:
    name = "act-only"

    def act(self, observation):
        return make_bot("checkcall").act(observation)


def test_in_bounty_the_model_learns_the_opponents_rank():
    from game.rules.bounty import BountyConfig

    config = BountyConfig(rules="engine")
    bot = AdaptiveBot(_tight_base(config), config, exploit=ExploitConfig(samples=200), seed=2)
    ranks = []  # (ours, the opponent's) each round

    def read(record):
        ours = record.seats.index(bot.name)
        ranks.append((record.match_state[ours], record.match_state[1 - ours]))

    opponent = make_bot("station", config=config, seed=3)
    play_match(config, bot, opponent, rounds=24, seed=0, on_round=read)
    assert len(set(ranks)) == 1 and ranks[0][0] != ranks[0][1]  # one period; the two ranks differ
    assert bot.model.opponent_bounty_posterior().argmax() == ranks[0][1]
    assert AdaptiveBot(_tight_base(HoldemConfig()), HoldemConfig()).model.bounty is None


@pytest.mark.parametrize(("own_vpip", "own_fold", "verdict"), [(0.2, 0.5, "caller"), (0.31, 0.25, None)])
def test_a_base_on_the_thresholds_is_not_taken_for_exploitable(own_vpip, own_fold, verdict):
    """The opponent plays as the 2024 Auction blueprint: its big blind enters 31% and re-raises 70% of
    those, it folds 24% of pot-sized raises preflop and opens with a raise 10% of the time: past the enter-and-raise test's 0.3 and 0.65 and the
    preflop fold's 0.25. A *caller* against a base that enters 20% and folds half; nothing against a
    base that plays so itself (the prior), as the 2024 bot against its own blueprint."""
    config = HoldemConfig()
    bot = AdaptiveBot(_tight_base(config), config, exploit=ExploitConfig(samples=200), seed=2)
    model = bot.model
    beta = model.prior.beta.copy()
    observed = {("vpip", 1): (own_vpip, 0.31), ("aggression", (0, 1)): (0.7, 0.7), ("aggression", (0, 0)): (0.1, 0.1)}
    observed[("fold_to_bet", (0, SIZE_CLASSES.index("<=1p")))] = (own_fold, 0.24)
    for (name, index), (own, seen) in observed.items():
        cells = model._cells(name)
        cell = np.arange(cells.start, cells.stop).reshape(STATS[name])[index]
        beta[cell] = own
        model.trials[cell], model.successes[cell] = 4000.0, seen * 4000.0
    model.prior = dataclasses.replace(model.prior, beta=beta)
    assert bot.exploitable() == verdict


@pytest.mark.parametrize(("prior", "verdict"), [(0.3, "folder"), (0.7, None)])
def test_a_folder_folds_more_than_the_base_itself(prior, verdict):
    """400 pot-sized postflop bets, 70% folded: a folder when the base itself folds 30% of them (the
    model's prior), not when it folds 70% itself (the measured Auction blueprint folded enough that the
    bot, seated against it, took it for a folder and deviated 102 times in 20,000 rounds)."""
    config = HoldemConfig()
    bot = AdaptiveBot(_tight_base(config), config, exploit=ExploitConfig(prior_weight=5.0, samples=200), seed=2)
    model = bot.model
    cells = model._cells("fold_to_bet")
    cell = np.arange(cells.start, cells.stop).reshape(STATS["fold_to_bet"])[1, SIZE_CLASSES.index("<=1p")]
    model.trials[cell], model.successes[cell] = 400.0, 280.0
    beta = model.prior.beta.copy()
    beta[cell] = prior
    model.prior = dataclasses.replace(model.prior, beta=beta)
    assert float(model.prior_mean("fold_to_bet")[1, SIZE_CLASSES.index("<=1p")]) == prior
    assert bot.exploitable() == verdict


class _Quitter:
    """An exploiter that gives up every hand: folds to any bet, checks otherwise (a PolicyBot)."""

    name = "quitter"

    def policy(self, observation):
        from game.play.bot_support import one_point, passive_action

        return one_point(passive_action(observation))

    def act(self, observation):
        return self.policy(observation)[0][0]


@pytest.mark.parametrize("exploiter_wins", [True, False])
def test_the_trial_keeps_the_arm_that_wins(exploiter_wins):
    """Against a station (a caller to a flat prior, its never folding not counted) the rule's deviations are
    tried on random rounds;
    an exploiter that wins more than the base ends up played in nearly every round, one that gives
    every hand up in nearly none."""
    config = HoldemConfig()
    # a budget that never binds; the station taken for a caller (measured by the trial), not for *loose*
    exploit = ExploitConfig(value=(-1000.0, -1000.0), prior_weight=5.0, samples=200, station_fold=0.0)
    equity = EquityBot(config, samples=200, seed=7)
    passive = make_bot("tight_passive", config=config, seed=1)
    base, exploiter = (passive, equity) if exploiter_wins else (equity, _Quitter())
    bot = AdaptiveBot(base, config, exploit=exploit, exploiter=exploiter, seed=2)
    play_match(config, bot, make_bot("station", config=config, seed=3), rounds=600, seed=4)
    trial = max(bot.trials.values(), key=lambda trial: trial.rounds.sum())  # "caller" or "departs" (flat prior)
    gain, error = trial.gain()
    assert trial.rounds.min() >= exploit.trial_minimum  # both arms were tried
    assert (gain - 2 * error > 0) if exploiter_wins else (gain + 2 * error < 0)
    probability = trial.exploit_probability(exploit.trial_minimum)
    assert probability > 0.95 if exploiter_wins else probability < 0.05
    assert trial.rounds[int(exploiter_wins)] > 2 * trial.rounds[int(not exploiter_wins)]


def test_the_departs_rule_needs_a_frequency_far_from_the_bases():
    config = HoldemConfig()
    bot = AdaptiveBot(_tight_base(config), config, exploit=ExploitConfig(prior_weight=20.0, samples=200), seed=2)
    model = bot.model
    cells = model._cells("pfr")
    model.trials[cells], model.successes[cells] = 500.0, 300.0  # 0.6 against the flat prior's 0.5
    assert bot.exploitable() is None
    model.successes[cells] = 450.0  # 0.9: 0.4 away
    assert bot.exploitable() == "departs"
    model.successes[cells] = 250.0
    model.bid_counts[:] = 0.0
    model.bid_counts[-1] = 300.0  # every bid all-in, against a sixth under the flat prior
    assert bot.exploitable() == "departs"


def test_a_deviation_costs_only_the_share_the_base_would_have_played_otherwise():
    """A check where the base bets 30% of the time risks 0.3 of the pot (what the bet might have won, as often
    as the base would have bet); a call where the base folds 40% risks 0.4 of the call; a target the base
    never plays risks its whole cost."""
    from game.rules.chance import RandomChance
    from game.rules.holdem import HoldemRound

    round_ = HoldemRound(HoldemConfig(), RandomChance(np.random.default_rng(3)))
    round_.apply(Action.call())  # the dealer limps: the big blind may check or raise, 2 + 2 in the pot
    checking = round_.observation(round_.to_act)
    mixed = ((Action.check(), 0.7), (Action.raise_to(4), 0.3))
    assert _cost(checking, mixed, Action.check()) == pytest.approx(0.3 * 4)
    assert _cost(checking, ((Action.check(), 1.0),), Action.raise_to(4)) == 2  # the chips the raise adds
    round_.apply(Action.raise_to(6))
    calling = round_.observation(round_.to_act)  # the dealer faces 4 more
    folds = ((Action.fold(), 0.4), (Action.call(), 0.6))
    assert _cost(calling, folds, Action.call()) == pytest.approx(0.4 * 4)
    assert _cost(calling, ((Action.fold(), 1.0),), Action.call()) == 4


def test_a_bid_that_loses_to_the_seen_bid_costs_nothing_and_is_raised():
    """Engine rules: the dealer sees the big blind's bid. Any lower bid loses the card, so a deviation between
    two losing bids risks nothing (it changes only what the opponent pays), and a losing bid played is one chip
    under the seen bid."""
    from game.rules.auction import AuctionConfig, AuctionRound
    from game.rules.chance import RandomChance

    config = AuctionConfig(rules="engine")
    round_ = AuctionRound(config, RandomChance(np.random.default_rng(3)))
    checkcall = make_bot("checkcall")
    while round_.street == 0:
        round_.apply(checkcall.act(round_.observation(round_.to_act)))
    round_.apply(Action.bid(150))  # the big blind bids first
    observation = round_.observation(round_.to_act)
    assert observation.history[-1].action == Action.bid(150) and observation.bid_bounds[1] > 150
    loses, wins = ((Action.bid(3), 1.0),), ((Action.bid(150), 1.0),)
    assert _cost(observation, loses, Action.bid(149)) == 0  # both lose: nothing at risk
    assert _cost(observation, loses, Action.bid(150)) == 150  # a tie pays our bid
    assert _cost(observation, loses, Action.bid(151)) == 151  # so does a win, at most
    assert _cost(observation, wins, Action.bid(149)) == sum(observation.contributions)  # gives up the card

    bot = AdaptiveBot(_tight_base(config), config, exploit=ExploitConfig(samples=200), seed=2)
    target = bot._target(observation, bot.base.policy(observation), "loose")
    assert target.kind is ActionKind.BID and (target.amount == 149 or target.amount >= 150)  # no lower losing bid


def test_a_first_bid_goes_one_chip_under_a_constant_bidders_bid():
    """Bidding first (the engine's big blind), the bot does not see the opponent's bid; once the model
    remembers ``bid_evidence`` bids, a bid under the least of them is raised to one chip under it (a
    constant all-in bidder then pays our stack less a chip), at the cost of its amount; a single bid of 0
    among them and the bid is left alone."""
    from game.rules.auction import AuctionConfig, AuctionRound
    from game.rules.chance import RandomChance

    config = AuctionConfig(rules="engine")
    round_ = AuctionRound(config, RandomChance(np.random.default_rng(3)))
    checkcall = make_bot("checkcall")
    while round_.street == 0:
        round_.apply(checkcall.act(round_.observation(round_.to_act)))
    observation = round_.observation(round_.to_act)
    assert ActionKind.BID in observation.legal_actions and observation.history[-1].action.kind is not ActionKind.BID
    opponent_left = config.stack - observation.contributions[1 - observation.seat]
    high = observation.bid_bounds[1]

    bot = AdaptiveBot(_tight_base(config), config, exploit=ExploitConfig(samples=200, bid_evidence=3), seed=2)
    policy = bot.base.policy(observation)
    value_bid = bot._target(observation, policy, "loose")
    assert value_bid.kind is ActionKind.BID and value_bid.amount < high - 1  # the exploiter's own bid
    bot.model.recent_bids.extend([(196, 4, True), (196, 4, True)])
    assert bot._target(observation, policy, "loose") == value_bid  # two bids: too few
    bot.model.recent_bids.append((150, 4, True))
    raised = bot._target(observation, policy, "loose")
    assert raised == Action.bid(min(high, opponent_left - 1))
    assert _cost(observation, policy, raised) == raised.amount  # what a second-price win could charge at most
    bot.model.recent_bids.append((0, 4, False))
    assert bot._target(observation, policy, "loose") == value_bid


def test_as_the_big_blind_against_an_all_in_bidder_it_bids_one_chip_under_its_stack():
    """In a match: the model sees the dealer's bids at each round's end, and the big blind's first bids
    of the exploit arm go one chip under the all-in bidder's stack; with the rule off (an evidence never
    reached) no first bid does, and the bot wins less."""
    from game.rules.auction import AuctionConfig

    config = AuctionConfig(rules="engine")

    def play(evidence):
        exploit = ExploitConfig(samples=200, prior_weight=10.0, bid_evidence=evidence)
        bot = AdaptiveBot(_tight_base(config), config, exploit=exploit, seed=2)
        first_bids, act = [], bot.act

        def recording(observation):
            action = act(observation)
            last = observation.history[-1] if observation.history else None
            seen = last is not None and last.action.kind is ActionKind.BID and last.street == observation.street
            if action.kind is ActionKind.BID and not seen:
                first_bids.append(action.amount == config.stack - observation.contributions[1 - observation.seat] - 1)
            return action

        bot.act = recording
        result = play_match(config, bot, make_bot("bid_allin", config=config, seed=3), rounds=200, seed=5)
        return first_bids, result

    raised, with_rule = play(5)
    plain, without_rule = play(10**9)
    assert len(raised) > 40 and sum(raised) > len(raised) / 2
    assert not any(plain)
    assert with_rule.winnings.sum() > without_rule.winnings.sum()
