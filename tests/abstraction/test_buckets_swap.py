"""Swap card abstractions: features on Swap's futures against brute force, the plain limit, the
equity shift swaps imply, the file's record of its rules, ``vcfr abstract --variant swap`` and
which games accept a Swap card file."""

from __future__ import annotations

import dataclasses
import itertools
import json

import h5py
import numpy as np
import pytest
from typer.testing import CliRunner

from abstraction.cards.buckets import CardAbstraction, CardAbstractionConfig, canonical_flops
from abstraction.cards.build import build_card_abstraction
from abstraction.cards.features import (
    FutureModel,
    all_hands_features,
    hand_features,
    hand_index,
    runout_positions,
    runout_strengths,
    swap_flop_moments,
)
from abstraction.cards.kernels_buckets import _flop_strength_table, _swap_flop_atoms
from abstraction.cards.kernels_features import HAND_CARDS, HAND_OF_PAIR
from abstraction.chance.fresh_chance import FreshChance
from game.cards.deck import parse_cards
from game.rules.holdem import HoldemConfig
from game.rules.swap import SwapConfig
from solver.cli.main import app

SMALL = dict(
    training_flops=2, turn_training_points=1500, river_training_points=1500, flop_training_points=1000, iterations=6
)
FLOP = "Qh7d2c"


def _runout_rows(flop: str) -> tuple[np.ndarray, np.ndarray]:
    """Final strengths ``(1176, 1326)`` of every turn/river runout and the runout of each (turn, river) pair."""
    cards, strengths = runout_strengths(flop)
    row = np.full((52, 52), -1, dtype=np.int64)
    row[cards[:, 0], cards[:, 1]] = row[cards[:, 1], cards[:, 0]] = np.arange(cards.shape[0])
    return strengths, row


def brute_force_moments(flop: str, hole: str, q: float) -> tuple[float, float]:
    """E[HS], E[HS²] of a flop hand under the turn swap by enumerating every future: turn t, which
    cards are replaced, the replacement cards (uniform over the unseen ones) and the river (not t,
    not a held card, not a replaced card), each final hand scored by its plain strength."""
    strengths, row = _runout_rows(flop)
    a, b = parse_cards(hole).tolist()
    unseen = [c for c in range(52) if c not in [*parse_cards(flop).tolist(), a, b]]
    assert len(unseen) == 47
    moments = np.zeros(2)
    for turn in unseen:
        rest = np.array([c for c in unseen if c != turn])
        block = strengths[row[turn, rest]]  # rivers in `rest`; a hand holding the river is -1

        def add(weight: float, hands: np.ndarray, block: np.ndarray = block) -> int:
            values = block[:, hands]
            values = values[values >= 0]
            moments[:] += weight * np.array([values.sum(), (values * values).sum()])
            return values.size

        assert add((1 - q) ** 2 / (47 * 46), np.array([HAND_OF_PAIR[a, b]])) == 46
        single = add(q * (1 - q) / (47 * 46 * 45), HAND_OF_PAIR[b, rest]) + add(
            q * (1 - q) / (47 * 46 * 45), HAND_OF_PAIR[a, rest]
        )
        assert single == 2 * 46 * 45
        pairs = np.array(list(itertools.combinations(rest.tolist(), 2)))
        assert add(q * q / (47 * 1035 * 44), HAND_OF_PAIR[pairs[:, 0], pairs[:, 1]]) == 1035 * 44
    return float(moments[0]), float(moments[1])


@pytest.mark.parametrize("hole", ["AsKd", "QsQd", "4h3h"])
def test_swap_flop_moments_equal_brute_force(hole):
    """Exact kernel against every future enumerated: equal to 1e-12 (summation order only)."""
    ehs, ehs2 = swap_flop_moments(FLOP, 0.3)
    expected = brute_force_moments(FLOP, hole, 0.3)
    assert ehs[hand_index(hole)] == pytest.approx(expected[0], abs=1e-12)
    assert ehs2[hand_index(hole)] == pytest.approx(expected[1], abs=1e-12)


def test_swap_flop_moments_agree_with_monte_carlo_of_the_rules():
    """Against `hand_features`' Monte Carlo of the real future (40,000 draws, which also takes the
    replaced cards out of the opponent's range): within 0.008 at the rules' turn swap 0.05
    (standard error about 0.0015; the kept-in replaced card moves E[HS] by about 0.002 here)."""
    ehs, ehs2 = swap_flop_moments(FLOP, 0.05)
    for hole in ("AsKd", "QsQd", "9s8s"):
        sampled = hand_features(hole, FLOP, FutureModel(swap_turn=0.05), n_samples=40_000, seed=2)
        assert abs(sampled.ehs - ehs[hand_index(hole)]) < 0.008, hole
        assert abs(sampled.ehs2 - ehs2[hand_index(hole)]) < 0.008, hole


def test_zero_swap_probability_gives_the_plain_flop_features():
    plain = all_hands_features(FLOP)
    ehs, ehs2 = swap_flop_moments(FLOP, 0.0)
    np.testing.assert_allclose(ehs, plain.ehs, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ehs2, plain.ehs2, rtol=0, atol=1e-12)
    assert (ehs == -1).sum() == 1326 - 1176


def _turn_labels(flop: str, keys: np.ndarray) -> np.ndarray:
    """A stand-in turn bucket per (hand, turn): E[HS] on flop + turn cut into len(keys) bins; -1 where dead."""
    strengths, row = _runout_rows(flop)
    flop_cards = parse_cards(flop).tolist()
    labels = np.full((1326, 52), -1, dtype=np.int32)
    for turn in (c for c in range(52) if c not in flop_cards):
        rivers = [c for c in range(52) if c not in flop_cards and c != turn]
        block = strengths[row[turn, rivers]]
        live = (block >= 0).sum(axis=0)
        means = np.where(block >= 0, block, 0).sum(axis=0) / np.maximum(live, 1)
        labels[:, turn] = np.where(
            live > 0, np.minimum((means * keys.shape[0]).astype(np.int32), keys.shape[0] - 1), -1
        )
    return labels


def test_swap_flop_atoms_equal_brute_force_and_plain_at_zero():
    """EMD flop feature: quantiles at levels (i + 1/2)/47 of the turn bucket held after the turn
    swap, against the weighted distribution enumerated per turn, replacement and pair (exact)."""
    flop = parse_cards(FLOP).astype(np.int8)
    flop_bits = np.int64(sum(1 << int(c) for c in flop))
    keys = np.sort(np.random.default_rng(0).random(7))
    labels = _turn_labels(FLOP, keys)
    q = 0.3
    atoms = np.empty((1326, 47))
    _swap_flop_atoms(flop_bits, labels, keys, q, atoms)
    for hole in ("AsKd", "QsQd", "4h3h"):
        a, b = parse_cards(hole).tolist()
        hand = hand_index(hole)
        unseen = [c for c in range(52) if c not in [*flop.tolist(), a, b]]
        mass = np.zeros(keys.shape[0])
        for turn in unseen:
            rest = np.array([c for c in unseen if c != turn])
            np.add.at(mass, labels[hand, turn], (1 - q) ** 2 / 47)
            for kept in (a, b):
                np.add.at(mass, labels[HAND_OF_PAIR[kept, rest], turn], q * (1 - q) / (47 * 46))
            pairs = np.array(list(itertools.combinations(rest.tolist(), 2)))
            np.add.at(mass, labels[HAND_OF_PAIR[pairs[:, 0], pairs[:, 1]], turn], q * q / (47 * 1035))
        assert mass.sum() == pytest.approx(1.0, abs=1e-12)
        expected = keys[np.searchsorted(np.cumsum(mass), (np.arange(47) + 0.5) / 47)]
        np.testing.assert_array_equal(atoms[hand], expected)
    _swap_flop_atoms(flop_bits, labels, keys, 0.0, atoms)
    for hand in range(1326):
        live = labels[hand] >= 0
        if live.any():
            np.testing.assert_array_equal(atoms[hand], np.sort(keys[labels[hand, live]]))
        else:
            assert (atoms[hand] == -1).all()


def test_swaps_pull_preflop_equity_toward_the_middle():
    """The future implies it: a replaced card of a strong hand is a random card (worse on average),
    of a weak hand better. 20,000 draws (standard error about 0.002 each); the shifts are 0.03 to 0.07."""
    swap = FutureModel.for_variant("swap")
    shift = {hole: hand_features(hole, future=swap, n_samples=20_000, seed=0).ehs - hand_features(hole, n_samples=20_000, seed=0).ehs
             for hole in ("7h2c", "AhAd")}  # fmt: skip
    assert shift["7h2c"] > 0.015 and shift["AhAd"] < -0.04, shift
    ehs, _ = swap_flop_moments(FLOP, 0.05)
    plain = all_hands_features(FLOP).ehs
    assert ehs[hand_index("QsQd")] < plain[hand_index("QsQd")] and ehs[hand_index("4h3s")] > plain[hand_index("4h3s")]


def _build(variant: str, method: str, **swaps) -> CardAbstraction:
    config = CardAbstractionConfig(buckets=(8, 5, 5, 5), method=method, variant=variant, seed=3, **SMALL, **swaps)
    return build_card_abstraction(config, flops=canonical_flops()[[5, 900]])


@pytest.mark.parametrize("method", ["ehs2", "emd"])
def test_swap_build_with_zero_probabilities_is_the_holdem_build(method):
    plain = _build("holdem", method)
    zero = _build("swap", method, flop_swap_probability=0.0, turn_swap_probability=0.0)
    swapped = _build("swap", method, turn_swap_probability=0.3)
    for name in ("preflop_table", "flop_table", "turn_table", "river_centroids", "flop_centroids", "turn_centroids"):
        np.testing.assert_array_equal(getattr(zero, name), getattr(plain, name), err_msg=name)
    # Swaps change the preflop and flop clustering only: turn and river are the plain ones.
    np.testing.assert_array_equal(swapped.turn_table, plain.turn_table)
    np.testing.assert_array_equal(swapped.river_centroids, plain.river_centroids)
    assert not np.array_equal(swapped.flop_centroids, plain.flop_centroids)
    assert not np.array_equal(swapped.preflop_table, plain.preflop_table)


def test_swap_card_file_records_its_variant_and_swap_probabilities(tmp_path):
    config = CardAbstractionConfig(buckets=(169, 4, 4, 4), variant="swap", turn_swap_probability=0.2)
    assert (config.flop_swap_probability, config.turn_swap_probability) == (SwapConfig().flop_swap_probability, 0.2)
    assert CardAbstractionConfig().turn_swap_probability == 0.0
    with pytest.raises(
        ValueError,
        match=r"flop_swap_probability is a rule of variants with swaps \('swap'\); variant 'holdem' has none",
    ):
        CardAbstractionConfig(flop_swap_probability=0.1)
    with pytest.raises(ValueError, match="turn_swap_probability must be a probability"):
        CardAbstractionConfig(variant="swap", turn_swap_probability=1.5)
    abstraction = dataclasses.replace(CardAbstraction.blank((169, 4, 4, 4)), config=config)
    abstraction.save(tmp_path / "swap.h5")
    with h5py.File(tmp_path / "swap.h5", "r") as file:
        stored = json.loads(file.attrs["config"])
    assert (stored["variant"], stored["flop_swap_probability"], stored["turn_swap_probability"]) == ("swap", 0.1, 0.2)
    assert CardAbstraction.load(tmp_path / "swap.h5").config == config
    # A file written before swap probabilities were stored holds plain tables: it loads with 0.
    with h5py.File(tmp_path / "swap.h5", "r+") as file:
        file.attrs["config"] = json.dumps({k: v for k, v in stored.items() if "swap" not in k})
    old = CardAbstraction.load(tmp_path / "swap.h5").config
    assert (old.variant, old.flop_swap_probability, old.turn_swap_probability) == ("swap", 0.0, 0.0)


def test_vcfr_abstract_variant_swap_writes_a_swap_file(tmp_path):
    out = tmp_path / "cards.h5"
    result = CliRunner().invoke(
        app, ["abstract", "--variant", "swap", "--buckets", "4,2,2,2", "--method", "ehs", "--flops", "1",
              "--turn-swap-probability", "0.2", "--out", str(out), "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert (
        summary["variant"],
        summary["flop_swap_probability"],
        summary["turn_swap_probability"],
        summary["flops"],
    ) == ("swap", 0.1, 0.2, 1)
    config = CardAbstraction.load(out).config
    assert (config.variant, config.flop_swap_probability, config.turn_swap_probability) == ("swap", 0.1, 0.2)
    result = CliRunner().invoke(
        app, ["abstract", "--variant", "holdem", "--turn-swap-probability", "0.2", "--out", str(tmp_path / "x.h5")]
    )
    assert result.exit_code != 0 and "'swap'" in result.output and not (tmp_path / "x.h5").exists()


def test_swap_card_files_serve_swap_games_only():
    blank = CardAbstraction.blank((169, 4, 4, 4))
    swap_cards = dataclasses.replace(blank, config=CardAbstractionConfig(buckets=(169, 4, 4, 4), variant="swap"))
    assert FreshChance(SwapConfig(), swap_cards).variant == "swap"
    assert FreshChance(SwapConfig(), blank).variant == "swap"  # plain tables still serve Swap
    with pytest.raises(ValueError, match="'holdem' game cannot use a card abstraction of variant 'swap'"):
        FreshChance(HoldemConfig(), swap_cards)
    # A Swap file built with no swaps holds plain tables: any plain game takes it.
    plain_swap = dataclasses.replace(
        blank,
        config=CardAbstractionConfig(
            buckets=(169, 4, 4, 4), variant="swap", flop_swap_probability=0, turn_swap_probability=0
        ),
    )
    assert FreshChance(HoldemConfig(), plain_swap).variant == "holdem"


def test_flop_strength_table_matches_runout_strengths():
    """The build's hand-major table (what the swap kernels read) is `runout_strengths` transposed."""
    flop = parse_cards(FLOP).astype(np.int8)
    table = np.empty((1326, 1176))
    rows = np.zeros((52, 52), dtype=np.int16)
    _flop_strength_table(flop, runout_positions(3), table, rows)
    cards, strengths = runout_strengths(FLOP)
    np.testing.assert_array_equal(table[:, rows[cards[:, 0], cards[:, 1]]], strengths.T)
    assert HAND_CARDS.shape == (1326, 2)
