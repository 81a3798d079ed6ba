"""``vcfr bench chance``: fresh deals per second of each heads-up variant's sampler.

For every variant (River of Blood once per run cap in ``max_runs``), `FreshChance.sample` of
``deals`` deals on the calling thread (``parallel=False``: how a solver thread draws its
deals) and split over all numba threads; best wall-clock of ``repeats``. The card abstraction is
full-size blank tables (`CardAbstraction.blank`, 169/200/200/200 buckets, doubled for Bounty):
table contents do not change the speed, and river and run-street buckets compute the hand's
strength on the spot (about 8 µs on the river, much more on run boards of 6+ cards), which
dominates a deal.
"""

from __future__ import annotations

import dataclasses
import platform

from numba import get_num_threads

from abstraction.cards.buckets import CardAbstraction, card_file_variant
from abstraction.chance.fresh_chance import FreshChance
from abstraction.hooks import hooked_variants
from game.bench.timing import best_seconds
from game.rules.variants import get_variant


def run_chance_benchmark(
    *, deals: int = 20_000, repeats: int = 3, max_runs: tuple[int, ...] = (1, 3), seed: int = 0
) -> dict:
    """Run every measurement; returns the JSON-able result of ``vcfr bench chance --json``:
    ``deals_per_second`` maps ``holdem``, ``swap``, ``bounty``, ``auction`` and
    ``river_of_blood_R<cap>`` to ``{"one_thread": ..., "all_threads": ...}``."""
    if deals < 1 or repeats < 1 or not max_runs or min(max_runs) < 0:
        raise ValueError(
            f"deals and repeats must be >= 1 and max_runs run caps >= 0, got {deals}, {repeats}, {max_runs}"
        )
    blank = CardAbstraction.blank((169, 200, 200, 200))
    samplers: dict[str, FreshChance] = {}
    for variant in hooked_variants():
        config = get_variant(variant).config_class()
        cards = dataclasses.replace(blank, config=dataclasses.replace(blank.config, variant=card_file_variant(variant)))
        if config.has_run_cards:
            for runs in max_runs:
                samplers[f"{variant}_R{runs}"] = FreshChance(config, cards, max_runs=runs)
        else:
            samplers[variant] = FreshChance(config, cards)
    rates: dict[str, dict[str, float]] = {}
    for name, chance in samplers.items():
        chance.sample(0, 2, seed, parallel=False)  # compile or load the kernels outside the timing
        chance.sample(0, 2, seed, parallel=True)
        one_thread, _ = best_seconds(lambda: chance.sample(0, deals, seed, parallel=False), repeats)  # noqa: B023
        all_threads, _ = best_seconds(lambda: chance.sample(0, deals, seed, parallel=True), repeats)  # noqa: B023
        rates[name] = {"one_thread": deals / one_thread, "all_threads": deals / all_threads}
    return {
        "deals_per_second": rates,
        "deals": deals,
        "repeats": repeats,
        "threads": get_num_threads(),
        "machine": platform.processor() or platform.machine(),
    }
