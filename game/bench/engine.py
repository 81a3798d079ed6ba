"""``vcfr bench engine``: random heads-up rounds per second in each variant, next to PokerKit.

Each variant plays ``rounds`` complete rounds with random legal actions
(``game.rules.nolimit.sample_legal_action``: a uniform action kind, then a uniform raise-to or bid
amount), from deal to payoffs, one thread. In the same run PokerKit plays plain heads-up no-limit
hold'em (stacks 400, blinds 1/2, dealing, blinds and chip moves automated) with the same random
policy through its public ``State`` API. Rates are rounds per second, best of ``repeats`` passes;
``ratio_vs_pokerkit`` is our hold'em rate over PokerKit's.

PokerKit shuffles with Python's global ``random`` module; the benchmark seeds it for the timed
passes and restores its previous state afterwards.
"""

from __future__ import annotations

import platform
import random
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import numpy as np

from game.bench.timing import best_rate
from game.cards.rng import as_generator
from game.dataclass_support import check_int
from game.rules.chance import RandomChance
from game.rules.nolimit import sample_legal_action


def _our_rate(variant_name: str, rounds: int, repeats: int, seed: int) -> float:
    from game.rules.variants import get_variant

    variant = get_variant(variant_name)
    config = variant.config_class()
    round_class = variant.round_class

    def run() -> None:
        rng = as_generator(seed)
        match_state = None
        for index in range(rounds):
            match_state = round_class.next_match_state(config, index, match_state, rng)
            round_ = round_class(config, RandomChance(rng), match_state=match_state)
            while not round_.is_terminal:
                round_.apply(sample_legal_action(round_, rng))
            round_.payoffs()

    return best_rate(run, rounds, repeats)


def _pokerkit_rate(rounds: int, repeats: int, seed: int) -> float | None:
    try:
        from pokerkit import Automation, NoLimitTexasHoldem
    except ImportError:
        return None
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )

    def run() -> None:
        rng = np.random.default_rng(seed)
        for _ in range(rounds):
            # automations, ante trimming, antes, blinds (small, big), min bet, stacks, players
            state = NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, (400, 400), 2)
            while state.status:
                kinds = [
                    kind
                    for kind, possible in enumerate(
                        (state.can_fold(), state.can_check_or_call(), state.can_complete_bet_or_raise_to())
                    )
                    if possible
                ]
                kind = kinds[int(rng.integers(len(kinds)))]
                if kind == 0:
                    state.fold()
                elif kind == 1:
                    state.check_or_call()
                else:
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(int(rng.integers(low, high + 1)))

    saved = random.getstate()
    try:
        random.seed(seed)
        return best_rate(run, rounds, repeats)
    finally:
        random.setstate(saved)


def run_engine_benchmark(
    rounds: int = 2000, pokerkit_rounds: int = 300, repeats: int = 3, seed: int = 0
) -> dict[str, Any]:
    """Rounds per second of every heads-up variant and of PokerKit's hold'em (JSON-ready dict).

    >>> result = run_engine_benchmark(rounds=5, pokerkit_rounds=2, repeats=1)
    >>> sorted(result["rounds_per_s"])
    ['auction', 'bounty', 'holdem', 'river_of_blood', 'swap']
    """
    from game.rules.variants import VARIANTS

    for name, value in (("rounds", rounds), ("pokerkit_rounds", pokerkit_rounds), ("repeats", repeats)):
        check_int(name, value)
    rates = {name: _our_rate(name, rounds, repeats, seed) for name in VARIANTS}
    pokerkit_rate = _pokerkit_rate(pokerkit_rounds, repeats, seed)
    try:
        pokerkit_version: str | None = version("pokerkit")
    except PackageNotFoundError:
        pokerkit_version = None
    return {
        "rounds_per_s": rates,
        "pokerkit_rounds_per_s": pokerkit_rate,
        "ratio_vs_pokerkit": None if pokerkit_rate is None else rates["holdem"] / pokerkit_rate,
        "rounds": rounds,
        "pokerkit_rounds": pokerkit_rounds,
        "repeats": repeats,
        "seed": seed,
        "pokerkit_version": pokerkit_version,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
