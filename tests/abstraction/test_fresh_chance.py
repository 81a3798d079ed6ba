"""Fresh chance (`abstraction.chance.fresh_chance`) against a slow reference built on the rules engine.

The reference re-draws each deal in plain Python from the same counter-based generator (the
draws are part of the sampler's definition), then plays the cards through the variant's rules
engine (`game.rules.variants`, scripted chance, checking down) and reads from the engine what the deal
arrays must say: the cards held on each street (bucketed by `BucketLookup.bucket`, the checked
Python path), Bounty's hits (`bounty_hits()`), the street River of Blood's showdown happens on,
and showdown winners (the engine's payoffs, or `game.cards.evaluator.evaluate` for outcomes the
check-down does not reach). The small card abstraction (tables built on 2 flops) sends most
flop and turn hands through the lookup's fallback.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from numba import njit

from abstraction.cards.buckets import BucketLookup, CardAbstractionConfig, canonical_flops
from abstraction.cards.build import build_card_abstraction
from abstraction.cards.kernels_buckets import UNSET
from abstraction.chance.fresh_chance import FreshChance
from abstraction.chance.kernels_chance import _sample_deal, deal_workspace
from abstraction.hooks.river_of_blood import DEFAULT_MAX_RUNS
from abstraction.tree import DealTable
from game.cards.deck import format_cards
from game.cards.evaluator import evaluate
from game.cards.kernels_rng import next_uniform, splitmix64
from game.rules.actions import Action, ActionKind
from game.rules.auction import AuctionConfig
from game.rules.bounty import BountyConfig
from game.rules.chance import ScriptedChance
from game.rules.holdem import HoldemConfig
from game.rules.river_of_blood import RiverOfBloodConfig
from game.rules.swap import SwapConfig
from game.rules.variants import start_round
from tests.abstraction.table_support import table_bucket

SMALL = dict(
    training_flops=2, turn_training_points=500, river_training_points=500, flop_training_points=200, iterations=4
)
SEED = 2**63 + 123_456_789  # above 2**63: the full uint64 seed range is used
RUNS = 3


@pytest.fixture(scope="module")
def lookups():
    abstraction = build_card_abstraction(
        CardAbstractionConfig(buckets=(5, 4, 4, 3), method="ehs", seed=5, **SMALL), flops=canonical_flops()[:2]
    )
    bounty = dataclasses.replace(abstraction, config=dataclasses.replace(abstraction.config, variant="bounty"))
    return {"plain": BucketLookup(abstraction), "bounty": BucketLookup(bounty)}


def make_chance(config, lookups, max_runs=RUNS) -> FreshChance:
    if config.variant == "river_of_blood":
        return FreshChance(config, lookups["plain"], max_runs=max_runs)
    return FreshChance(config, lookups["bounty" if config.variant == "bounty" else "plain"])


CONFIGS = {
    "holdem": HoldemConfig(),
    "swap": SwapConfig(),
    "swap_often": SwapConfig(flop_swap_probability=0.5, turn_swap_probability=0.5),
    "bounty": BountyConfig(),
    "auction": AuctionConfig(),
    "river_of_blood": RiverOfBloodConfig(),
    "river_of_blood_capped": RiverOfBloodConfig(max_board_cards=6),  # the rules cap R at 1
}


# ---------------------------------------------------------------------------- reference
class Replay:
    """One deal's draws in plain Python: the generator the sampler keys by (seed, deal)."""

    def __init__(self, seed: int, deal: int) -> None:
        with np.errstate(over="ignore"):
            self.state = np.array([splitmix64(splitmix64(np.uint64(seed)) ^ np.uint64(deal))], dtype=np.uint64)
        self.deck = list(range(52))
        self.cards: list[int] = []

    def uniform(self) -> float:
        with np.errstate(over="ignore"):
            return float(next_uniform(self.state))

    def draw(self, count: int = 1) -> list[int]:
        for _ in range(count):
            taken = len(self.cards)
            pick = taken + int(self.uniform() * (52 - taken))
            self.deck[pick], self.deck[taken] = self.deck[taken], self.deck[pick]
            self.cards.append(self.deck[taken])
        return self.cards[-count:]


def play_down(config, deck, events=None, match_state=None, bids=(0, 0)):
    """Check (or call, or bid ``bids`` by seat) through a scripted round; returns the round states
    at the first decision of every street (and after the auction) as (hole cards, board, hits),
    and the finished round."""
    round_ = start_round(config, ScriptedChance(deck, events), match_state=match_state)
    states, seen = [], set()
    while not round_.is_terminal:
        key = (round_.street, len(round_.hole_cards[0]), len(round_.hole_cards[1]))
        if key not in seen:
            seen.add(key)
            hits = round_.bounty_hits() if config.variant == "bounty" else None
            states.append((round_.hole_cards, round_.board, hits))
        kinds = round_.legal_actions()
        if ActionKind.BID in kinds:
            round_.apply(Action.bid(bids[round_.to_act]))
        else:
            round_.apply(Action.check() if ActionKind.CHECK in kinds else Action.call())
    return states, round_


def sign_outcome(payoff_0: int) -> int:
    """Showdown outcome from player 0's payoff: 0 wins, 1 tie (no chips move), 2 loses."""
    return 0 if payoff_0 > 0 else 1 if payoff_0 == 0 else 2


def evaluated_outcome(hand_0, hand_1, board) -> int:
    values = [evaluate(np.array(list(hand) + list(board), dtype=np.int8)) for hand in (hand_0, hand_1)]
    return 0 if values[0] > values[1] else 1 if values[0] == values[1] else 2


def reference_deal(chance: FreshChance, seed: int, deal: int) -> dict:
    """What the deal arrays of deal ``deal`` must hold, from the rules engine and the Python lookup."""
    config, lookup, runs = chance.config, chance.lookup, chance.runs
    replay = Replay(seed, deal)
    bucket = np.zeros((2, chance.n_slots), dtype=np.int64)
    weight = np.zeros(chance.weight_columns)
    chance_row: list[int] = []
    ranks = [-1, -1]
    variant = config.variant
    if variant in ("holdem", "swap"):
        flop_swap = getattr(config, "flop_swap_probability", 0.0)
        turn_swap = getattr(config, "turn_swap_probability", 0.0)
        replay.draw(7)
        flips: list[bool] = []
        for probability, board_cards in ((flop_swap, 1), (turn_swap, 1)):
            for _ in range(4):
                flips.append(probability > 0 and replay.uniform() < probability)
                if flips[-1]:
                    replay.draw()
            replay.draw(board_cards)
        states, final = play_down(config, replay.cards, {"swap": flips} if variant == "swap" else None)
        for street, (hole, board, _) in enumerate(states):
            for seat in range(2):
                bucket[seat, street] = lookup.bucket(list(hole[seat]), list(board))
        weight[sign_outcome(final.payoffs()[0])] = 1
        assert sign_outcome(final.payoffs()[0]) == evaluated_outcome(*final.hole_cards, final.board)
    elif variant == "bounty":
        replay.draw(9)
        ranks = [int(replay.uniform() * 13) for _ in range(2)]
        states, final = play_down(config, replay.cards, match_state=tuple(ranks))
        for street, (hole, board, hits) in enumerate(states):
            for seat in range(2):
                bucket[seat, street] = lookup.bucket(list(hole[seat]), list(board), bounty_rank=ranks[seat])
            weight[4 * street + hits[0] + 2 * hits[1]] = 1
        river_hits = states[-1][2]
        weight[16 + 4 * evaluated_outcome(*final.hole_cards, final.board) + river_hits[0] + 2 * river_hits[1]] = 1
    elif variant == "auction":
        hole, flop = replay.draw(4), replay.draw(3)
        third = replay.draw(2)
        turn_river = replay.draw(2)
        states, tie = play_down(config, hole + flop + third + turn_river, bids=(0, 0))
        two_card = [state for state in states if len(state[0][0]) == 2]
        three_card = [state for state in states if len(state[0][0]) == 3]
        assert [len(board) for _, board, _ in two_card] == [0, 3] and [len(b) for _, b, _ in three_card] == [3, 4, 5]
        for seat in range(2):
            for street, (held, board, _) in enumerate(two_card + three_card[1:]):
                bucket[seat, street] = lookup.bucket(list(held[seat][:2]), list(board))
            for slot, (held, board, _) in enumerate(three_card, start=4):
                bucket[seat, slot] = lookup.bucket(list(held[seat]), list(board))
        for context, winner in ((0, 0), (1, 1)):
            bids = (1, 0) if winner == 0 else (0, 1)
            _, won = play_down(config, hole + flop + [third[winner]] + turn_river, bids=bids)
            assert len(won.hole_cards[winner]) == 3 and len(won.hole_cards[1 - winner]) == 2
            weight[3 * context + sign_outcome(won.payoffs()[0])] = 1
        weight[6 + sign_outcome(tie.payoffs()[0])] = 1
        weight[9 + evaluated_outcome(hole[:2], hole[2:], flop + turn_river)] = 1
    else:
        replay.draw(4 + 5 + runs)
        rules = dataclasses.replace(config, max_board_cards=5 + runs)
        states, final = play_down(rules, replay.cards)
        board = replay.cards[4:]
        chance_row = [int(format_cards([card])[1] in "dh") for card in board[4 : 4 + runs]]
        for street, (hole, dealt, _) in enumerate(states):
            for seat in range(2):
                bucket[seat, street] = lookup.bucket(list(hole[seat]), list(dealt))
        reached = len(final.board) - 5
        for context in range(runs + 1):
            outcome = evaluated_outcome(replay.cards[:2], replay.cards[2:4], board[: 5 + context])
            if context == reached:
                assert outcome == sign_outcome(final.payoffs()[0])
            weight[3 * context + outcome] = 1
    return {"bucket": bucket, "weight": weight, "chance": chance_row, "cards": replay.cards, "ranks": ranks}


# ---------------------------------------------------------------------------- tests
@pytest.mark.parametrize("name", list(CONFIGS))
def test_kernel_equals_rules_engine_reference(lookups, name):
    chance = make_chance(CONFIGS[name], lookups)
    n_deals = 150
    deals, cards, ranks = chance.sample_with_cards(1000, n_deals, SEED)
    for row in range(n_deals):
        expected = reference_deal(chance, SEED, 1000 + row)
        drawn = cards[row][cards[row] >= 0].tolist()
        assert drawn == expected["cards"], (row, format_cards(drawn), format_cards(expected["cards"]))
        assert ranks[row].tolist() == expected["ranks"], row
        assert deals.bucket[row].tolist() == expected["bucket"].tolist(), (row, format_cards(drawn))
        assert deals.weight[row].tolist() == expected["weight"].tolist(), (row, format_cards(drawn))
        assert deals.chance[row].tolist() == expected["chance"], row
    assert np.array_equal(chance.sample(1000, n_deals, SEED).bucket, deals.bucket)


def test_reference_covers_the_fallback_and_every_outcome(lookups):
    """The replay test above means something: unreached classes, swaps, ties and red runs occur."""
    plain = lookups["plain"].abstraction
    deals, cards, _ = make_chance(CONFIGS["swap_often"], lookups).sample_with_cards(1000, 150, SEED)
    flops = cards[:, 4:7]
    assert (
        sum(table_bucket(plain, card_row[:2], flop) == UNSET for card_row, flop in zip(cards, flops, strict=True)) > 100
    )
    assert ((cards >= 0).sum(axis=1) > 9).mean() > 0.5  # deals with swaps
    assert set(np.flatnonzero(deals.weight.sum(axis=0))) == {0, 1, 2}
    rob = make_chance(CONFIGS["river_of_blood"], lookups).sample(1000, 150, SEED)
    assert (rob.chance.all(axis=1)).any() and (rob.chance[:, 0] == 0).any()


@pytest.mark.parametrize("name", ["holdem", "swap_often", "bounty", "auction", "river_of_blood"])
def test_any_batch_split_gives_the_same_rows(lookups, name):
    chance = make_chance(CONFIGS[name], lookups)
    whole = chance.sample(50, 120, seed=9, parallel=True)
    parts = [chance.sample(50, 7, 9, parallel=False), chance.sample(57, 1, 9), chance.sample(58, 112, 9, parallel=True)]
    for field in ("bucket", "weight", "chance"):
        assert np.array_equal(whole.__getattribute__(field), np.concatenate([getattr(p, field) for p in parts])), field
    assert isinstance(whole, DealTable) and np.allclose(whole.probability, 1 / 120)
    assert not np.array_equal(chance.sample(50, 120, seed=10).bucket, whole.bucket)


@njit
def _deals_from_a_kernel(seed, first, arguments, bucket, weight, chance):
    """How a solver thread draws: one workspace, then one `_sample_deal` per iteration."""
    work = deal_workspace()
    for row in range(bucket.shape[0] - 1, -1, -1):  # any order
        _sample_deal(seed, first + row, arguments, work, bucket[row], weight[row], chance[row])


@pytest.mark.parametrize("name", ["swap", "bounty", "auction", "river_of_blood"])
def test_per_deal_kernel_callable_from_numba(lookups, name):
    chance = make_chance(CONFIGS[name], lookups)
    expected = chance.sample(3, 40, SEED)
    bucket, weight, chance_rows = (
        np.empty_like(expected.bucket),
        np.empty_like(expected.weight),
        np.empty_like(expected.chance),
    )
    with np.errstate(over="ignore"):
        _deals_from_a_kernel(np.uint64(SEED), 3, chance.kernel_arguments(), bucket, weight, chance_rows)
    assert np.array_equal(bucket, expected.bucket) and np.array_equal(weight, expected.weight)
    assert np.array_equal(chance_rows, expected.chance)


def test_swap_rates_per_street(lookups):
    # each hole card is replaced with the street's probability: 4 * 20,000 trials, sd 0.0011 / 0.0008
    for flop, turn, expected in ((0.10, 0.0, 0.10), (0.0, 0.05, 0.05)):
        chance = make_chance(SwapConfig(flop_swap_probability=flop, turn_swap_probability=turn), lookups)
        _, cards, _ = chance.sample_with_cards(0, 20_000, 3)
        swaps = (cards >= 0).sum(axis=1) - 9
        assert abs(swaps.mean() / 4 - expected) < 0.005, (flop, turn, swaps.mean() / 4)
    _, cards, _ = make_chance(SwapConfig(), lookups).sample_with_cards(0, 20_000, 4)
    assert abs(((cards >= 0).sum(axis=1) - 9).mean() - 4 * (0.10 + 0.05)) < 0.03


def test_river_of_blood_colours_and_runs(lookups):
    chance = make_chance(CONFIGS["river_of_blood"], lookups)
    deals = chance.sample(0, 6000, 5)
    # every board card is red with probability 1/2 (sd 0.0065); two in a row 26/52 * 25/51
    assert np.abs(deals.chance.mean(axis=0) - 0.5).max() < 0.03
    assert abs(deals.chance[:, :2].all(axis=1).mean() - 26 / 52 * 25 / 51) < 0.03
    reached = np.cumprod(deals.chance, axis=1).sum(axis=1)
    for run in range(1, RUNS + 1):
        assert (deals.bucket[reached < run, :, 3 + run] == 0).all()
    # the showdown's winner changes with the run cards: contexts are not copies of each other
    outcomes = deals.weight.reshape(-1, RUNS + 1, 3).argmax(axis=2)
    assert 0.02 < (outcomes[:, 0] != outcomes[:, 1]).mean() < 0.5


def test_bounty_hit_rates_and_hit_bits(lookups):
    deals, _, ranks = make_chance(BountyConfig(), lookups).sample_with_cards(0, 20_000, 6)
    assert np.abs(np.bincount(ranks.ravel(), minlength=13) / 40_000 - 1 / 13).max() < 0.01
    # P(a rank among k cards) = 1 - C(48, k) / C(52, k): 2, 5, 6, 7 cards
    expected = [1 - 1128 / 1326, 1 - 1712304 / 2598960, 1 - 12271512 / 20358520, 1 - 73629072 / 133784560]
    for street in range(4):
        hits = deals.weight[:, 4 * street : 4 * street + 4].argmax(axis=1)
        for seat in range(2):
            hit = (hits >> seat) & 1
            assert abs(hit.mean() - expected[street]) < 0.015, (street, seat, hit.mean())
            assert np.array_equal(deals.bucket[:, seat, street] % 2, hit)  # the bucket's hit bit
    showdown = deals.weight[:, 16:].argmax(axis=1)
    assert np.array_equal(showdown % 4, deals.weight[:, 12:16].argmax(axis=1))  # river hits
    assert abs((showdown // 4 == 0).mean() - (showdown // 4 == 2).mean()) < 0.02


def test_auction_third_card_helps(lookups):
    deals = make_chance(AuctionConfig(), lookups).sample(0, 5000, 7)
    outcome = deals.weight.reshape(-1, 4, 3).argmax(axis=2)
    assert (outcome[:, 0] == 0).mean() > 0.6 and (outcome[:, 1] == 2).mean() > 0.6  # three cards beat two
    assert abs((outcome[:, 3] == 0).mean() - (outcome[:, 3] == 2).mean()) < 0.04
    assert (deals.bucket[:, :, 4:] >= deals.bucket[:, :, 1:4]).mean() > 0.9  # a third card rarely lowers a bucket


def test_layouts(lookups):
    expected = {
        "holdem": (4, [5, 4, 4, 3], [3], []),
        "swap": (4, [5, 4, 4, 3], [3], []),
        "bounty": (4, [10, 8, 8, 6], [4, 4, 4, 4, 12], []),
        "auction": (7, [5, 4, 4, 3, 4, 4, 3], [3, 3, 3, 3], []),
        "river_of_blood": (7, [5, 4, 4, 3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2]),
        "river_of_blood_capped": (5, [5, 4, 4, 3, 3], [3, 3], [2]),
    }
    for name, (n_slots, n_buckets, context_size, chance_size) in expected.items():
        chance = make_chance(CONFIGS[name], lookups)
        assert (
            chance.n_slots,
            chance.n_buckets.tolist(),
            chance.context_size.tolist(),
            chance.chance_size.tolist(),
        ) == (n_slots, n_buckets, context_size, chance_size), name
        assert chance.context_offset.tolist() == np.concatenate([[0], np.cumsum(context_size)[:-1]]).tolist()
        deals = chance.sample(0, 30, 1)
        assert deals.weight.shape == (30, sum(context_size)) and deals.chance.shape == (30, len(chance_size))
        starts = [*chance.context_offset.tolist(), chance.weight_columns]
        for context in range(len(context_size)):
            assert (deals.weight[:, starts[context] : starts[context + 1]].sum(axis=1) == 1).all()
    assert make_chance(RiverOfBloodConfig(), lookups, max_runs=0).n_slots == 4


def test_errors_name_the_bad_value(lookups):
    plain, bounty = lookups["plain"], lookups["bounty"]
    with pytest.raises(ValueError, match=r"'bounty'.*'holdem'"):
        FreshChance(BountyConfig(), plain)
    with pytest.raises(ValueError, match=r"'holdem'.*'bounty'"):
        FreshChance(HoldemConfig(), bounty)
    assert FreshChance(RiverOfBloodConfig(), plain).max_runs == DEFAULT_MAX_RUNS  # the tree's default cap
    with pytest.raises(ValueError, match=r"max_runs.*-1"):
        FreshChance(RiverOfBloodConfig(), plain, max_runs=-1)
    with pytest.raises(ValueError, match=r"'swap'.*2"):
        FreshChance(SwapConfig(), plain, max_runs=2)
    with pytest.raises(TypeError, match="NoLimitConfig"):
        FreshChance("holdem", plain)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="BucketLookup"):
        FreshChance(HoldemConfig(), "tables.h5")  # type: ignore[arg-type]
    chance = FreshChance(HoldemConfig(), plain.abstraction)
    assert isinstance(chance.lookup, BucketLookup)
    with pytest.raises(ValueError, match=r"count.*0"):
        chance.sample(0, 0, 1)
    with pytest.raises(ValueError, match=r"first.*-5"):
        chance.sample(-5, 3, 1)
    with pytest.raises(ValueError, match=r"seed.*-1"):
        chance.sample(0, 3, -1)
    with pytest.raises(ValueError, match="seed"):
        chance.sample(0, 3, 2**64)


def test_lookup_accepts_every_variants_hands(lookups):
    plain, bounty = lookups["plain"], lookups["bounty"]
    flop = canonical_flops()[0].tolist()  # a board the small build reached
    rng = np.random.default_rng(3)
    for _ in range(40):
        hole = rng.choice([card for card in range(52) if card not in flop], 3, replace=False).tolist()
        # the table rule of three hole cards: the best of the three two-card sub-hands
        pairs = [hole[:2], [hole[0], hole[2]], hole[1:]]
        assert plain.bucket(hole, flop) == max(plain.bucket(pair, flop) for pair in pairs)
        rank = int(rng.integers(13))
        hit = any(card // 4 == rank for card in hole[:2] + flop)
        assert bounty.bucket(hole[:2], flop, bounty_rank=rank) == 2 * plain.bucket(hole[:2], flop) + hit
    assert bounty.n_buckets == (10, 8, 8, 6) and plain.n_buckets == (5, 4, 4, 3)
    # the fallback serves three-card hands on unreached boards, by strength
    assert table_bucket(plain.abstraction, "KsKhKd", "As9h4d") == UNSET
    assert plain.bucket("KsKhKd", "As9h4d") == 3 and plain.bucket("2c3d7h", "As9h4d") == 0
    # run boards are bucketed like the river
    run_board = "As9h4dTc2h5d6h"
    assert plain.bucket("AhAd", run_board) == plain.abstraction.bucket("AhAd", run_board)


@pytest.mark.parametrize(
    "hole, board, rank, match",
    [
        ("AhAdAs", "", None, "2 hole cards"),
        ("Ah", "Kc7s2d", None, "2 hole cards"),
        ("AhAd", "Kc7s", None, "0, 3, 4 or 5..48"),
        ("AhAd", "AhKc7s", None, "distinct"),
        ([60, 1], [], None, r"\[60, 1\]"),
        ("AhAd", "", 3, "bounty_rank is for a Bounty"),
    ],
)
def test_lookup_errors(lookups, hole, board, rank, match):
    with pytest.raises(ValueError, match=match):
        lookups["plain"].bucket(hole, board, bounty_rank=rank)


def test_lookup_errors_long_and_bounty(lookups):
    with pytest.raises(ValueError, match="at most 50"):
        lookups["plain"].bucket(list(range(3)), list(range(3, 51)))
    with pytest.raises(ValueError, match=r"bounty_rank 0..12.*None"):
        lookups["bounty"].bucket("AhAd")
    with pytest.raises(ValueError, match=r"bounty_rank 0..12.*13"):
        lookups["bounty"].bucket("AhAd", bounty_rank=13)
