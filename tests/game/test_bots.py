"""Baseline bots: legality, determinism, and the EquityBot's Monte Carlo against a slow reference."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from game.cards.deck import parse_cards
from game.cards.evaluator import evaluate
from game.play.bots import BOTS, CheckCallBot, EquityBot, RandomBot, make_bot
from game.play.freeze_out import FreezeOut
from game.rules.actions import Action, ActionKind
from game.rules.auction import AuctionConfig
from game.rules.bounty import BountyConfig
from game.rules.chance import RandomChance, ScriptedChance
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.limit import LimitConfig
from game.rules.river_of_blood import RiverOfBloodConfig
from game.rules.swap import SwapConfig
from game.rules.variants import VARIANTS
from tests.game.playouts import random_observations


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_bot_only_plays_legal_actions(variant: str) -> None:
    bots = [RandomBot(seed=1), CheckCallBot(), EquityBot(samples=50, seed=2)]
    for round_, observation in random_observations(variant, "document", 25, seed=3):
        for bot in bots:
            action = bot.act(observation)
            assert round_.can_apply(action), (bot.name, action, round_)


def test_random_bot_is_reproducible_and_covers_every_kind_and_the_raise_range() -> None:
    observation = HoldemRound(HoldemConfig(), RandomChance(0)).observation(0)
    first, second = RandomBot(seed=5), RandomBot(seed=5)
    assert [first.act(observation) for _ in range(20)] == [second.act(observation) for _ in range(20)]
    bot = RandomBot(seed=7)
    actions = [bot.act(observation) for _ in range(600)]
    kinds = {action.kind for action in actions}
    assert kinds == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}
    raises = [action.amount for action in actions if action.kind is ActionKind.RAISE]
    assert min(raises) >= 4 and max(raises) <= 400 and max(raises) - min(raises) > 300


def test_check_call_bot_never_folds_or_raises() -> None:
    bot = CheckCallBot()
    for variant in sorted(VARIANTS):
        for _, observation in random_observations(variant, "document", 10, seed=4):
            action = bot.act(observation)
            if ActionKind.CHECK in observation.legal_actions:
                assert action == Action.check()
            elif ActionKind.CALL in observation.legal_actions:
                assert action == Action.call()
            else:
                assert action == Action.bid(0)


def test_baseline_bots_play_the_n_player_limit_freeze_out() -> None:
    bots = [RandomBot(seed=1, name="r1"), CheckCallBot(), RandomBot(seed=2, name="r2")]
    match = FreezeOut(LimitConfig(n_players=3, buy_in=200), bots, seed=6)
    match.run(max_games=2000)
    assert sum(match.stacks) == 600
    assert match.winner is not None


def test_make_bot_builds_every_registered_bot() -> None:
    for name in BOTS:
        bot = make_bot(name, config=HoldemConfig(), seed=1)
        assert bot.name == name and callable(bot.act)
    with pytest.raises(ValueError, match="unknown bot 'nit'"):
        make_bot("nit")


def observation(
    variant: str,
    hole: str,
    board: str = "",
    *,
    bounty_rank: int | None = None,
    bids: tuple[int | None, int | None] = (None, None),
) -> SimpleNamespace:
    """The fields EquityBot.equity reads, for seat 0."""
    return SimpleNamespace(
        variant=variant,
        seat=0,
        hole_cards=tuple(parse_cards(hole).tolist()),
        board=tuple(parse_cards(board).tolist()) if board else (),
        bounty_rank=bounty_rank,
        bids=bids,
    )


def reference_equity(
    config,
    hole: str,
    board: str,
    *,
    extra_hole_cards: int = 0,
    opponent_hole_cards: int = 2,
    bounty_rank: int = -1,
    samples: int,
    seed: int,
) -> tuple[float, float]:
    """Slow obvious Monte Carlo of the same quantity as the kernel (pure Python, game.cards.evaluator)."""
    rng = np.random.default_rng(seed)
    mine_known = parse_cards(hole).tolist()
    board_known = parse_cards(board).tolist() if board else []
    unseen = [card for card in range(52) if card not in mine_known + board_known]
    swaps = [
        p
        for street, p in (
            (3, getattr(config, "flop_swap_probability", 0.0)),
            (4, getattr(config, "turn_swap_probability", 0.0)),
        )
        if len(board_known) < street
    ]
    multiplier = getattr(config, "bounty_multiplier", 1.0)
    shares = weighted = 0.0
    for _ in range(samples):
        deck = iter(rng.permutation(unseen).tolist())
        mine = mine_known + [next(deck) for _ in range(extra_hole_cards)]
        theirs = [next(deck) for _ in range(opponent_hole_cards)]
        for probability in swaps:
            mine = [next(deck) if rng.random() < probability else card for card in mine]
            theirs = [next(deck) if rng.random() < probability else card for card in theirs]
        final = list(board_known)
        while len(final) < 5:
            final.append(next(deck))
        if config.variant == "river_of_blood":
            while len(final) < config.max_board_cards and final[-1] % 4 in (1, 2):  # diamonds, hearts
                final.append(next(deck))
        mine_value, their_value = evaluate(np.array(mine + final)), evaluate(np.array(theirs + final))
        share = 1.0 if mine_value > their_value else 0.5 if mine_value == their_value else 0.0
        hit = any(card // 4 == bounty_rank for card in mine + final)
        shares += share
        weighted += share * multiplier if hit else share
    return shares / samples, weighted / samples


CASES = [
    # (config, hole, board, extra, opponent cards, bounty rank)
    (HoldemConfig(), "Ah Ad", "", 0, 2, None),
    (HoldemConfig(), "7c 2d", "Ks 7h 2s", 0, 2, None),
    (SwapConfig(flop_swap_probability=0.5, turn_swap_probability=0.3), "Ah Ad", "", 0, 2, None),
    (SwapConfig(flop_swap_probability=0.5, turn_swap_probability=0.3), "Kh Kd", "Ks 7h 2s", 0, 2, None),
    (RiverOfBloodConfig(), "Qc Jc", "Tc 9c 2h 5s 4d", 0, 2, None),
    (AuctionConfig(), "9h 8h", "Th Js 2c", 1, 2, None),
    (AuctionConfig(), "9h 8h", "Th Js 2c", 0, 3, None),
    (BountyConfig(), "5c 6d", "", 0, 2, 10),
]


@pytest.mark.jit_only
@pytest.mark.parametrize(("config", "hole", "board", "extra", "opponent", "rank"), CASES)
def test_equity_kernel_matches_a_slow_reference(config, hole, board, extra, opponent, rank) -> None:
    bot = EquityBot(config, samples=20_000, seed=1)
    fast = bot.equity(
        observation(config.variant, hole, board, bounty_rank=rank), extra_hole_cards=extra, opponent_hole_cards=opponent
    )
    slow = reference_equity(
        config,
        hole,
        board,
        extra_hole_cards=extra,
        opponent_hole_cards=opponent,
        bounty_rank=-1 if rank is None else rank,
        samples=4000,
        seed=2,
    )
    # Standard errors: <= 0.5 / sqrt(4000) = 0.008 (reference) and 0.0036 (kernel); 4.5 sigma.
    assert fast[0] == pytest.approx(slow[0], abs=0.04)
    assert fast[1] == pytest.approx(slow[1], abs=0.06)


@pytest.mark.jit_only
def test_equity_known_values() -> None:
    # Pre-flop all-in equity against a random hand: AA 85.2%, 72o 34.6% (standard tables, e.g.
    # PokerStove / "Texas hold'em starting hands" equity vs a random hand).
    bot = EquityBot(HoldemConfig(), samples=40_000, seed=3)
    assert bot.equity(observation("holdem", "Ah Ad"))[0] == pytest.approx(0.852, abs=0.01)
    assert bot.equity(observation("holdem", "7c 2d"))[0] == pytest.approx(0.346, abs=0.01)
    # The nuts on a complete board: a royal flush cannot lose or tie.
    assert bot.equity(observation("holdem", "As Ks", "Qs Js Ts 2c 3d")) == (1.0, 1.0)


@pytest.mark.jit_only
def test_equity_is_variant_aware() -> None:
    aces = observation("swap", "Ah Ad")
    certain_swaps = EquityBot(SwapConfig(flop_swap_probability=1.0), samples=20_000, seed=4).equity(aces)[0]
    assert certain_swaps == pytest.approx(0.5, abs=0.02)  # both hands replaced: a coin flip
    assert EquityBot(SwapConfig(), samples=20_000, seed=4).equity(aces)[0] > 0.75
    # River of Blood: after a red river run cards follow, and each gives a random hand a chance
    # to catch up with our trip aces; with the board capped at five cards none follow.
    red_river = observation("river_of_blood", "As Ad", "Ac Ks 7d 2h 5d")
    with_runs = EquityBot(RiverOfBloodConfig(), samples=20_000, seed=5).equity(red_river)[0]
    capped = EquityBot(RiverOfBloodConfig(max_board_cards=5), samples=20_000, seed=5).equity(red_river)[0]
    black_river = observation("river_of_blood", "As Ad", "Ac Ks 7d 2h 5s")
    assert with_runs < capped - 0.01
    black_with_runs = EquityBot(RiverOfBloodConfig(), samples=2000, seed=5).equity(black_river)
    assert black_with_runs == EquityBot(RiverOfBloodConfig(max_board_cards=5), samples=2000, seed=5).equity(black_river)


@pytest.mark.jit_only
def test_bounty_weighting_and_a_certain_hit() -> None:
    holding_the_rank = observation("bounty", "Ah 7c", bounty_rank=12)  # our bounty is the ace we hold
    equity, weighted = EquityBot(BountyConfig(), samples=5000, seed=6).equity(holding_the_rank)
    assert weighted == pytest.approx(1.5 * equity)
    no_bounty = observation("bounty", "Ah 7c")
    assert EquityBot(BountyConfig(), samples=5000, seed=6).equity(no_bounty) == (equity, equity)


def test_equity_bot_decisions_follow_its_thresholds() -> None:
    deck = parse_cards("Ah Ad 7c 2d Ks 8h 3d 4c 9s").tolist()
    round_ = HoldemRound(HoldemConfig(), ScriptedChance(deck))
    bot = EquityBot(samples=4000, seed=7)
    assert bot.act(round_.observation(0)) == Action.raise_to(6)  # 2 + (3 + 1): a pot-size raise
    round_.apply(Action.raise_to(300))
    assert bot.act(round_.observation(1)) == Action.fold()  # 72o: 35% < 298 / 600 pot odds
    round_ = HoldemRound(HoldemConfig(), ScriptedChance(deck))
    round_.apply(Action.call())
    assert bot.act(round_.observation(1)) == Action.check()  # weak, nothing to call


def test_equity_bot_bids_the_value_of_the_third_card() -> None:
    deck = parse_cards("Ah Ad 9h 8h Th Js 2c").tolist()
    from game.rules.auction import AuctionRound

    round_ = AuctionRound(AuctionConfig(), ScriptedChance(deck))
    round_.apply(Action.call())
    round_.apply(Action.check())
    assert round_.legal_actions() == {ActionKind.BID}
    bot = EquityBot(samples=4000, seed=8)
    bid = bot.act(round_.observation(1))
    low, high = round_.bid_bounds()
    # A straight draw gains a lot from a third card: a positive bid, at most the pot (4 chips).
    assert bid.kind is ActionKind.BID and 0 < bid.amount <= 4 and low <= bid.amount <= high


def test_equity_bot_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="raise_equity must be in"):
        EquityBot(raise_equity=2.0)
    with pytest.raises(TypeError, match="NoLimitConfig"):
        EquityBot(LimitConfig())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="configured for 'holdem' but observes 'swap'"):
        EquityBot(HoldemConfig(), samples=10).equity(observation("swap", "Ah Ad"))
