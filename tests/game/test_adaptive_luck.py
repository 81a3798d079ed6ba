"""The adaptive bot's budget counts an all-in's value, not its result: checked against an independent
enumeration of the cards to come, and a run of lucky all-ins leaves the budget closed."""

import itertools

import pytest

from game.cards.deck import parse_cards
from game.cards.evaluator import evaluate
from game.play.adaptive import AdaptiveBot, AllInLuck, ExploitConfig
from game.play.bots import EquityBot
from game.rules.actions import Action
from game.rules.chance import ScriptedChance
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.swap import SwapConfig, SwapRound

UNDERDOG, FAVOURITE, FLOP, TURN, RIVER = "Kh Qh", "Ac Ad", "2h 7h 9c", "3h", "4s"  # the flush comes


def _flop_all_in(round_):
    """Call and check preflop, all in and call on the flop, then the checks the engine records."""
    round_.apply(Action.call())
    round_.apply(Action.check())
    round_.apply(Action.raise_to(round_.raise_bounds()[1]))
    round_.apply(Action.call())
    while round_.to_act is not None:
        round_.apply(Action.check())
    return round_


def _holdem_all_in():
    deck = parse_cards(f"{UNDERDOG} {FAVOURITE} {FLOP} {TURN} {RIVER}").tolist()
    return _flop_all_in(HoldemRound(HoldemConfig(rules="engine"), ScriptedChance(deck)))


def _value(hole, other, board, pot_share, dealt):
    """Seat's expected chips over every completion of ``board`` (``dealt`` cards known) by the cards
    nobody holds: ``pot_share`` chips won or lost, a tie 0 (equal contributions)."""
    known = set(hole) | set(other) | set(board[:dealt])
    rest = [card for card in range(52) if card not in known]
    total = count = 0
    for cards in itertools.combinations(rest, len(board) - dealt):
        full = list(board[:dealt]) + list(cards)
        ours, theirs = evaluate(list(hole) + full), evaluate(list(other) + full)
        total += pot_share * ((ours > theirs) - (ours < theirs))
        count += 1
    return total / count


def test_an_all_in_counts_its_value_not_its_result():
    round_ = _holdem_all_in()
    underdog, favourite = round_.observation(0), round_.observation(1)
    assert underdog.payoffs == (400, -400)  # the underdog hit its flush
    expected = _value(underdog.hole_cards, favourite.hole_cards, underdog.board, 400, dealt=3)
    assert -200 < expected < 0  # about a third of the pot: it was behind
    luck = AllInLuck(HoldemConfig(rules="engine"), samples=100, seed=0)
    assert luck.payoff(underdog) == pytest.approx(expected)
    assert luck.payoff(favourite) == pytest.approx(-expected)


def test_swap_counts_the_river_only():
    # no swaps (the hands shown are the hands of the all-in), but Swap's value starts after the turn's
    # swaps: the river card alone is averaged
    deck = parse_cards(f"{UNDERDOG} {FAVOURITE} {FLOP} {TURN} {RIVER}").tolist()
    chance = ScriptedChance(deck, {"swap": [False] * 8})
    round_ = _flop_all_in(SwapRound(SwapConfig(rules="engine"), chance))
    underdog, favourite = round_.observation(0), round_.observation(1)
    stack = SwapConfig(rules="engine").stack
    assert underdog.payoffs == (stack, -stack)
    expected = _value(underdog.hole_cards, favourite.hole_cards, underdog.board, stack, dealt=4)
    assert expected == stack  # the turn made the flush: only the river's luck is out, and there is none
    assert AllInLuck(SwapConfig(rules="engine"), samples=100, seed=0).payoff(underdog) == pytest.approx(expected)


def test_folds_and_showdowns_without_an_all_in_count_as_they_came():
    deck = parse_cards(f"{UNDERDOG} {FAVOURITE} {FLOP} {TURN} {RIVER}").tolist()
    luck = AllInLuck(HoldemConfig(rules="engine"), samples=100, seed=0)
    checked_down = HoldemRound(HoldemConfig(rules="engine"), ScriptedChance(deck))
    checked_down.apply(Action.call())
    while checked_down.to_act is not None:
        checked_down.apply(Action.check())
    folded = HoldemRound(HoldemConfig(rules="engine"), ScriptedChance(deck))
    folded.apply(Action.fold())
    for round_ in (checked_down, folded):
        observation = round_.observation(0)
        assert luck.payoff(observation) == observation.payoffs[0]


@pytest.mark.parametrize("adjusted", [True, False])
def test_luck_alone_does_not_open_the_budget(adjusted):
    # ten all-ins won as the underdog: 4,000 chips of luck; by their value the bot is behind
    config = HoldemConfig(rules="engine")
    exploit = ExploitConfig(prior_weight=5.0, samples=100, luck_adjusted=adjusted)
    bot = AdaptiveBot(EquityBot(config, samples=100, seed=1), config, exploit=exploit, seed=2)
    observation = _holdem_all_in().observation(0)
    for _ in range(10):
        bot.round_over(observation)
    value = _value(observation.hole_cards, _holdem_all_in().observation(1).hole_cards, observation.board, 400, 3)
    assert bot.won_realized == 4000
    if adjusted:
        assert bot.won == pytest.approx(10 * value) and bot.budget == 0.0
    else:
        assert bot.won == 4000 and bot.budget == 4000
