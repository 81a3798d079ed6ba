"""AIVAT: the check-down value against the rules, unbiasedness over many hands, variance reduction."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from game.cards.deck import parse_cards
from game.play.aivat import MIN_PROBABILITY, CheckDownValue, PolicyValue, aivat_match, round_corrections
from game.play.bot_support import passive_action
from game.play.bots import CheckCallBot, RandomBot
from game.play.history import RoundRecord
from game.play.match import play_match
from game.rules.actions import Action, ActionKind
from game.rules.auction import AuctionConfig, AuctionRound
from game.rules.bounty import BountyConfig, BountyRound
from game.rules.chance import ScriptedChance
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.nolimit import RIVER, TURN
from game.rules.river_of_blood import RiverOfBloodConfig
from game.rules.swap import SwapConfig, SwapRound
from game.rules.variants import get_variant
from tests.game.aivat_bots import NoPolicyBot, StrengthPolicyBot

HOLES = parse_cards("Ah Kd Qc Qs").tolist()  # X (seat 0): Ah Kd; the opponent: Qc Qs
FLOP = parse_cards("Kh 7h 2c").tolist()


def check_down(config, deck: list[int], events: dict, match_state, raise_to: int, bids: tuple[int, ...] = ()) -> int:
    """Seat 0's payoff when seat 0 raises to ``raise_to``, seat 1 calls, the auction (if any) takes
    ``bids`` (seat 1's first), and both check to the end (bidding 0 at an auction still open)."""
    round_ = get_variant(config.variant).round_class(config, ScriptedChance(deck, events), match_state=match_state)
    round_.apply(Action.raise_to(raise_to))
    round_.apply(Action.call())
    for bid in bids:
        round_.apply(Action.bid(bid))
    while not round_.is_terminal:
        round_.apply(Action.check() if ActionKind.CHECK in round_.legal_actions() else Action.bid(0))
    return int(round_.payoffs()[0])


def flop_value(config, match_state=None) -> tuple[float, CheckDownValue]:
    """v at the flop after a raise to 4 and a call (both contributed 4 chips), X at seat 0."""
    value = CheckDownValue(config, seed=0)
    value.start_round(0, match_state)
    state = (tuple(HOLES[:2]), tuple(HOLES[2:]), tuple(FLOP), 3, (0, 0))
    return value.value(state, 4, 4), value


@pytest.mark.parametrize("rules", ["document", "engine"])
@pytest.mark.parametrize("config", [HoldemConfig, BountyConfig], ids=["holdem", "bounty"])
def test_exact_check_down_value_is_the_rules_average_over_every_turn_and_river(config, rules) -> None:
    """From the flop, v is exact: it equals the mean of the rules' payoffs over all 990 turn-river pairs
    (Bounty: X's bounty is a king, hit on the flop; the opponent's a seven: one-hit ties and hits)."""
    config = config(rules=rules)
    match_state = (11, 3) if config.variant == "bounty" else None
    expected, _ = flop_value(config, match_state)
    rest = [card for card in range(52) if card not in HOLES + FLOP]
    payoffs = [
        check_down(config, HOLES + FLOP + [turn, river], {}, match_state, 4)
        for turn, river in itertools.combinations(rest, 2)
    ]
    assert expected == pytest.approx(np.mean(payoffs), abs=1e-9)


@pytest.mark.parametrize("rules", ["document", "engine"])
def test_exact_value_after_an_auction_counts_the_bought_third_card(rules) -> None:
    """Auction, X (seat 0) outbids 0 with 10 and buys the 2s for nothing (second price): from the flop v
    is exact over 990 turn-river pairs with X's three hole cards, as the rules pay; before the bids
    are in, the state says both players still get a third card (a missing bid counts as 0)."""
    config = AuctionConfig(rules=rules)
    value = CheckDownValue(config, seed=0)
    value.start_round(0, None)
    third = parse_cards("2s").tolist()
    state = (tuple(HOLES[:2] + third), tuple(HOLES[2:]), tuple(FLOP), 3, (0, 0))
    rest = [card for card in range(52) if card not in HOLES + FLOP + third]
    payoffs = [
        check_down(config, HOLES + FLOP + third + [turn, river], {}, None, 4, bids=(0, 10))
        for turn, river in itertools.combinations(rest, 2)
    ]
    assert value.value(state, 4, 4) == pytest.approx(np.mean(payoffs), abs=1e-9)
    round_ = AuctionRound(config, ScriptedChance(HOLES + FLOP))
    round_.apply(Action.raise_to(4))
    round_.apply(Action.call())
    assert value.card_state(round_)[4] == (1, 1)
    round_.apply(Action.bid(7))  # the big blind (the opponent) bids 7: it would get the card for 0
    assert value.card_state(round_)[4] == (0, 1)


@pytest.mark.jit_only
@pytest.mark.parametrize(
    "config",
    [
        HoldemConfig(),
        BountyConfig(),
        SwapConfig(flop_swap_probability=0.5, turn_swap_probability=0.5),
        RiverOfBloodConfig(),
    ],
    ids=["holdem", "bounty", "swap", "river_of_blood"],
)
def test_sampled_check_down_value_matches_rollouts_through_the_rules(config) -> None:
    """Preflop (hole cards known, nothing else), the sampled v agrees with the mean payoff of 4,000
    check-downs played by the round itself from shuffled decks (Swap: its flips drawn with the
    configured probabilities; River of Blood: the runs; Auction: both bid 0, both get a third card),
    within 4 standard errors."""
    match_state = (12, 5) if config.variant == "bounty" else None
    value = CheckDownValue(config, samples=200_000, seed=1)
    value.start_round(0, match_state)
    start = get_variant(config.variant).round_class(config, ScriptedChance(HOLES), match_state=match_state)
    expected = value.value((tuple(HOLES[:2]), tuple(HOLES[2:]), (), 0, value.card_state(start)[4]), 4, 4)
    rng = np.random.default_rng(2)
    rest = np.array([card for card in range(52) if card not in HOLES])
    payoffs = []
    for _ in range(4000):
        deck = HOLES + rng.permutation(rest).tolist()
        events = {}
        if config.variant == "swap":
            probabilities = [config.flop_swap_probability] * 4 + [config.turn_swap_probability] * 4
            events = {"swap": [bool(rng.random() < p) for p in probabilities]}
        payoffs.append(check_down(config, deck, events, match_state, 4))
    error = np.std(payoffs) / np.sqrt(len(payoffs))
    assert abs(expected - np.mean(payoffs)) < 4 * error


@pytest.mark.jit_only
@pytest.mark.parametrize(
    ("variant", "rules"),
    [(name, "document") for name in ("holdem", "bounty", "swap", "river_of_blood", "auction")]
    + [("bounty", "engine"), ("auction", "engine")],
)
def test_corrections_have_zero_mean_and_aivat_agrees_with_the_plain_mean(variant, rules) -> None:
    """Unbiasedness: over 600 duplicate rounds of a mixed-strategy X against a random opponent (all
    corrections active: deals, streets, swaps, runs, third cards, X's actions and bids), the corrections' mean is within its
    95% interval of 0, and AIVAT's mean within the plain interval of the plain mean. Engine rules too
    where they change the game most (Bounty's free folds and rounding, Auction's visible bid). The
    flop and the turn card keep the check-down value (``turn_rivers=0``): against the random bot's
    policy over every raise amount their policy trees cost ~10x the match
    (`test_aivat_is_unbiased_where_the_exact_value_is_zero` covers them)."""
    config = get_variant(variant).config_class(rules=rules)
    result = aivat_match(
        config, StrengthPolicyBot(seed=3), RandomBot(seed=4), rounds=600, seed=5, samples=2000, turn_rivers=0
    )
    assert result.uncorrected_decisions == 0
    correction, correction_ci = result.correction_rate()
    assert abs(correction) < correction_ci
    plain, plain_ci = result.plain_rate()
    aivat, _ = result.aivat_rate()
    assert abs(aivat - plain) < plain_ci
    assert np.any(result.action_corrections != 0) and np.any(result.chance_corrections != 0)


@pytest.mark.slow
def test_corrections_have_zero_mean_over_many_seeds() -> None:
    """Hold'em, 10 matches of 500 duplicate rounds with different seeds (deals, bots and value): the
    pooled corrections' mean is within its 95% interval of 0, and in at least 8 of the 10 matches
    AIVAT's mean is within the plain interval of the plain mean."""
    corrections, agreeing = [], 0
    for seed in range(10):
        result = aivat_match(
            HoldemConfig(),
            StrengthPolicyBot(seed=seed),
            RandomBot(seed=100 + seed),
            rounds=500,
            seed=seed,
            turn_rivers=0,  # as in the test above
        )
        corrections.append(result.chance_corrections + result.action_corrections)
        plain, plain_ci = result.plain_rate()
        agreeing += abs(result.aivat_rate()[0] - plain) < plain_ci
    pooled = np.concatenate(corrections).reshape(-1, 2).mean(axis=1)
    assert abs(pooled.mean()) < 1.96 * pooled.std(ddof=1) / np.sqrt(pooled.size)
    assert agreeing >= 8


@pytest.mark.jit_only
def test_aivat_narrows_the_interval_of_an_equity_like_bot() -> None:
    """X plays by hand strength against check/call in Hold'em: AIVAT's variance is at least 2x lower
    (2.8x measured over 2,000 rounds), its interval correspondingly narrower."""
    result = aivat_match(HoldemConfig(), StrengthPolicyBot(seed=1), CheckCallBot(), rounds=400, seed=7, samples=2000)
    assert result.variance_reduction() > 2.0
    assert result.aivat_rate()[1] < result.plain_rate()[1] / np.sqrt(2.0)


@pytest.mark.jit_only
def test_a_deterministic_x_gets_no_action_correction() -> None:
    """Check/call as a point-mass policy: every action correction is exactly 0 (only chance is corrected)."""

    class CheckCallPolicy(CheckCallBot):
        def policy(self, observation):
            return ((self.act(observation), 1.0),)

    result = aivat_match(
        HoldemConfig(), CheckCallPolicy(), RandomBot(seed=2), rounds=40, seed=3, samples=500, correct_opponent=False
    )
    assert np.all(result.action_corrections == 0.0)
    assert np.all(result.estimates == result.winnings - result.chance_corrections)


def test_aivat_refuses_a_bot_without_policy() -> None:
    with pytest.raises(TypeError, match="policy"):
        aivat_match(HoldemConfig(), NoPolicyBot(), CheckCallBot(), rounds=2, seed=0)


@pytest.mark.parametrize("rules", ["document", "engine"])
@pytest.mark.parametrize("x_seat", [0, 1])
def test_payoff_table_is_the_rules_payoff_of_every_outcome(rules, x_seat) -> None:
    """v's payoff in each of the 12 outcomes equals what the rules pay for that winner and those
    hits (``payoffs_if``, Bounty's ``payoffs_for``), from either seat: an Auction showdown with
    unequal contributions (the big blind bought the card for 4: 2 against 6 chips; the engine
    splits a tie unevenly) and a Bounty showdown at 8 chips each (no rounding at 1.5 x + 10)."""
    auction = AuctionRound(
        AuctionConfig(rules=rules), ScriptedChance(parse_cards("Ah Kd Qc Qs Kh 7h 2c 3d 9s 4c").tolist())
    )
    for action in (Action.call(), Action.check(), Action.bid(10), Action.bid(4)):
        auction.apply(action)
    while not auction.is_terminal:
        auction.apply(Action.check())
    bounty = BountyRound(
        BountyConfig(rules=rules), ScriptedChance(HOLES + FLOP + parse_cards("3d 9s").tolist()), match_state=(11, 3)
    )
    bounty.apply(Action.raise_to(8))
    bounty.apply(Action.call())
    while not bounty.is_terminal:
        bounty.apply(Action.check())
    assert auction.contributions == (2, 6) and bounty.contributions == (8, 8)
    for round_ in (auction, bounty):
        value = CheckDownValue(round_.config)
        value.start_round(x_seat, round_.match_state)
        table = value.payoffs(round_.contributions[x_seat], round_.contributions[1 - x_seat])
        for winner, hit_x, hit_o in itertools.product((0, 1, 2), (0, 1), (0, 1)):
            seat_winner = None if winner == 2 else (x_seat if winner == 0 else 1 - x_seat)
            if round_ is auction:
                if hit_x or hit_o:
                    continue
                paid = round_.payoffs_if(seat_winner)
            else:
                hits = (hit_x, hit_o) if x_seat == 0 else (hit_o, hit_x)
                paid = round_.payoffs_for(hits, seat_winner)
            assert table[winner * 4 + hit_x * 2 + hit_o] == paid[x_seat]


@pytest.mark.jit_only
def test_an_opponent_with_a_policy_is_corrected_too_and_that_removes_more_variance() -> None:
    """Both sides play by hand strength (Hold'em, 600 duplicate rounds, the same match twice): with the
    opponent's decisions corrected as well, the corrections still average to zero within their
    interval and the variance drops further than with X's alone. The flop and the turn card keep
    the check-down value (``turn_rivers=0``): the bots raise without a cap, and their policy trees
    from the flop on cost minutes (`test_aivat_is_unbiased_where_the_exact_value_is_zero`)."""
    runs = {
        corrected: aivat_match(
            HoldemConfig(),
            StrengthPolicyBot(seed=1),
            StrengthPolicyBot(seed=2, name="opponent"),
            rounds=600,
            seed=4,
            correct_opponent=corrected,
            turn_rivers=0,
        )
        for corrected in (False, True)
    }
    assert runs[True].opponent_corrected and not runs[False].opponent_corrected
    assert np.array_equal(runs[True].winnings, runs[False].winnings)
    correction, correction_ci = runs[True].correction_rate()
    assert abs(correction) < correction_ci
    assert runs[True].variance_reduction() > runs[False].variance_reduction() > 1.0
    with pytest.raises(TypeError, match="correct_opponent"):
        aivat_match(HoldemConfig(), StrengthPolicyBot(seed=1), NoPolicyBot(), rounds=2, correct_opponent=True)


@pytest.mark.jit_only
def test_a_faulty_decision_is_left_uncorrected() -> None:
    """X's policy says check or call, but on the turn its act returns an illegal raise, replaced by a
    check or fold: each such decision counts as uncorrected (the move was not drawn from the policy),
    exactly as many as the match's faults; the policy's other decisions are corrected."""

    class Faulty(CheckCallBot):
        def policy(self, observation):
            return ((super().act(observation), 1.0),)

        def act(self, observation):
            return Action.raise_to(10**6) if observation.street == 4 else super().act(observation)

    result = aivat_match(HoldemConfig(), Faulty(), CheckCallBot(), rounds=20, seed=3, samples=200)
    faults = result.match.illegal_actions[result.match.players[0]]
    assert faults > 0 and result.uncorrected_decisions == faults


class PassiveUntil(StrengthPolicyBot):
    """Checks or calls before ``street``, then plays by hand strength (a mixed policy)."""

    def __init__(self, street: int, seed: int, name: str = "strength") -> None:
        super().__init__(seed=seed, name=name)
        self.street = street

    def policy(self, observation):
        if observation.street < self.street:
            return ((passive_action(observation), 1.0),)
        return super().policy(observation)


def scripted_round(config, deck: list[int], bots) -> tuple[RoundRecord, dict]:
    """One round on ``deck`` between ``bots`` (by seat), with each seat's recorded decisions."""
    round_ = HoldemRound(config, ScriptedChance(deck))
    decisions: dict[int, list] = {0: [], 1: []}
    while not round_.is_terminal:
        seat = round_.to_act
        observation = round_.observation(seat)
        action = bots[seat].act(observation)
        decisions[seat].append((observation, bots[seat].policy(observation), action))
        round_.apply(action)
    payoffs = round_.payoffs()
    record = RoundRecord(0, 0, ("x", "o"), None, round_.chance_log, round_.history, (int(payoffs[0]), int(payoffs[1])))
    return record, decisions


DECK = HOLES + FLOP + parse_cards("9d 3s").tolist()  # X (seat 0) Ah Kd: kings; the opponent queens


@pytest.mark.parametrize(("street", "rules"), [(RIVER, "document"), (RIVER, "engine"), (TURN, "document")])
def test_with_both_policies_the_betting_from_the_turn_adds_no_variance(street, rules) -> None:
    """Both players check or call until ``street`` of one deck, then play mixed policies: with both
    policies known, every action followed and every river card averaged over, the value of the
    betting from the turn on is exact, so every round's AIVAT estimate is the same number whatever
    the actions, the river card's luck and the payoff (the deal's corrections use the same Monte
    Carlo seed each round). Pruning the actions below 2% (the default) leaves the estimates within
    a chip of each other (two chips when two streets are pruned)."""
    config = HoldemConfig(rules=rules)
    bots = (PassiveUntil(street, seed=1), PassiveUntil(street, seed=2, name="opponent"))
    estimates: dict[float, list[float]] = {0.0: [], MIN_PROBABILITY: []}
    played = set()
    for _ in range(40):
        record, decisions = scripted_round(config, DECK, bots)
        played.add((tuple(record.moves[4:]), record.payoffs))
        for min_probability, found in estimates.items():
            value = CheckDownValue(config, samples=200, seed=0)
            policy_value = PolicyValue(value, bots, min_probability=min_probability, turn_rivers=0)
            corrections = round_corrections(value, record, 0, decisions, policy_value)
            found.append(record.payoffs[0] - corrections.chance - corrections.action)
    assert len(played) >= 4  # folds, calls and raises: different payoffs
    assert np.ptp(estimates[0.0]) < 1e-9
    assert 0 < np.ptp(estimates[MIN_PROBABILITY]) < (1.0 if street == RIVER else 2.0)


def test_with_both_policies_the_turn_card_adds_no_variance() -> None:
    """Both players check or call until the turn, then play mixed policies, on decks that share the
    hole cards and the flop but not the turn and river cards. With every action followed and every
    river card averaged over once the turn is dealt, the turn card's correction (the policy value
    after it minus its mean, estimated over 1 river card per alternative turn: an estimate that does
    not depend on the turn dealt) leaves every round's estimate the same number, whatever the turn,
    the river, the actions and the payoff; with the turn card corrected by the check-down value
    (``turn_rivers=0``) the estimates differ by chips (the turn's luck in the betting that follows)."""
    config = HoldemConfig()
    bots = (PassiveUntil(TURN, seed=1), PassiveUntil(TURN, seed=2, name="opponent"))
    turns = parse_cards("9d 3s 2h Kc Jh 7c").tolist()
    estimates: dict[int, list[float]] = {0: [], 1: []}
    played = set()
    for turn, river in zip(turns, turns[1:] + turns[:1], strict=True):
        record, decisions = scripted_round(config, HOLES + FLOP + [turn, river], bots)
        played.add(record.payoffs)
        for turn_rivers, found in estimates.items():
            value = CheckDownValue(config, samples=200, seed=0)
            policy_value = PolicyValue(value, bots, min_probability=0.0, turn_rivers=turn_rivers, seed=0)
            corrections = round_corrections(value, record, 0, decisions, policy_value)
            found.append(record.payoffs[0] - corrections.chance - corrections.action)
    assert len(played) >= 2
    assert np.ptp(estimates[1]) < 1e-9
    assert np.ptp(estimates[0]) > 1.0


def test_the_turn_gain_over_swaps_is_unbiased() -> None:
    """Swap with a turn swap probability of 0.5 (94% of turn events swap a card), both players
    checking until the river, then playing mixed policies: the estimate of the policy value's mean
    gain over the check-down value at the turn's start (every turn card with no swap, 8 turn events
    drawn given a swap, weighted by their probabilities; 1 river card per turn), averaged over 40
    seeds, equals the mean gain over 300 turn events dealt by the rules (4 river cards each), within
    4 standard errors; the mean gain over the turn cards with no swap (what ignoring the swaps
    would estimate, about 10 chips against 4) is outside them."""
    bots = (PassiveUntil(RIVER, seed=1), PassiveUntil(RIVER, seed=2, name="opponent"))

    def turn_gains(config: SwapConfig, seeds: int) -> np.ndarray:
        return np.array([policy_value(config, seed).turn_gain(flop, Action.check()) for seed in range(seeds)])

    def policy_value(config: SwapConfig, seed: int, river_cards: int | None = None) -> PolicyValue:
        found = PolicyValue(
            CheckDownValue(config, samples=200, seed=0), bots, turn_rivers=1, river_cards=river_cards, seed=seed
        )
        found.check_down.start_round(0, None)
        found.start_round(0, record)
        return found

    config = SwapConfig(turn_swap_probability=0.5)
    flop = SwapRound(config, ScriptedChance(HOLES + FLOP, {"swap": [False] * 4}))
    for action in (Action.call(), Action.check(), Action.check()):
        flop.apply(action)
    record = RoundRecord(0, 0, ("x", "o"), None, flop.chance_log, flop.history, (0, 0))
    actions = (*(move.action for move in flop.history), Action.check())
    estimates = turn_gains(config, 40)
    rng = np.random.default_rng(0)
    dealt, gains = policy_value(config, 0, river_cards=4), []
    check_down = dealt.check_down
    rest = sorted(set(range(52)) - set(HOLES + FLOP))
    for _ in range(300):
        swaps = [False] * 4 + (rng.random(4) < 0.5).tolist()
        turn = SwapRound(config, ScriptedChance(HOLES + FLOP + rng.permutation(rest).tolist(), {"swap": swaps}))
        for action in actions:
            turn.apply(action)
        dealt.start_turn(turn)
        paid = turn.contributions
        gains.append(dealt.value(turn) - check_down.value(check_down.card_state(turn), paid[0], paid[1]))
    error = np.hypot(estimates.std(ddof=1) / np.sqrt(estimates.size), np.std(gains, ddof=1) / np.sqrt(len(gains)))
    assert abs(estimates.mean() - np.mean(gains)) < 4 * error
    assert abs(turn_gains(SwapConfig(turn_swap_probability=0.0), 20).mean() - np.mean(gains)) > 4 * error


def test_sampled_river_cards_are_unbiased_for_the_exact_corrections() -> None:
    """One round whose turn and river are played by mixed policies: averaged over 300 draws of 3
    river cards per round (``river_cards=3``), the corrections equal the ones from every river card
    (each turn-end mean is an unbiased estimate, and the corrections are linear in those means),
    within 4 standard errors; the draws do differ."""
    config = HoldemConfig()
    bots = (PassiveUntil(TURN, seed=5), PassiveUntil(TURN, seed=6, name="opponent"))
    record, decisions = next(
        (record, decisions)
        for record, decisions in (scripted_round(config, DECK, bots) for _ in range(50))
        if len(record.chance.deck) == 9  # the river dealt, after a bet on the turn
        and any(move.street == TURN and move.action.kind is ActionKind.RAISE for move in record.moves)
    )

    def corrections(river_cards, seed):
        value = CheckDownValue(config, samples=200, seed=0)
        policy_value = PolicyValue(value, bots, min_probability=0.0, river_cards=river_cards, turn_rivers=0, seed=seed)
        found = round_corrections(value, record, 0, decisions, policy_value)
        return found.chance + found.action

    exact = corrections(None, 0)
    sampled = np.array([corrections(3, seed) for seed in range(300)])
    error = sampled.std(ddof=1) / np.sqrt(sampled.size)
    assert error > 0.01
    assert abs(sampled.mean() - exact) < 4 * error
    with pytest.raises(ValueError, match="river_cards"):
        PolicyValue(CheckDownValue(config), bots, river_cards=0)


@pytest.mark.jit_only
@pytest.mark.parametrize("variant", ["holdem", "swap"])
@pytest.mark.parametrize("turn_rivers", [0, pytest.param(2, marks=pytest.mark.slow)])
def test_aivat_is_unbiased_where_the_exact_value_is_zero(variant, turn_rivers) -> None:
    """The same mixed strategy in both seats of a duplicate match: every deal pair's exact expected
    value is 0. AIVAT with both policies (the policy value on the turn, after Swap's turn swaps, and
    on the river; with ``turn_rivers=2``, the default, at the turn card and on the flop too: slow,
    as the bots raise without a cap) is within its 95% interval of 0 and removes most of the
    variance; the match is the one played without AIVAT (asking for policies changes no play)."""
    config = get_variant(variant).config_class()

    def players():
        return StrengthPolicyBot(seed=1), StrengthPolicyBot(seed=2, name="twin")

    result = aivat_match(config, *players(), rounds=200, seed=3, samples=500, turn_rivers=turn_rivers)
    mean, half_width = result.aivat_rate()
    assert abs(mean) < half_width
    assert result.variance_reduction() > 3.0
    assert np.array_equal(
        play_match(config, *players(), rounds=200, seed=3, duplicate=True).winnings, result.match.winnings
    )
