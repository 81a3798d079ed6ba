"""``vcfr bench evaluator``: our batch evaluator next to eval7 and phevaluator on the same hands.

All three evaluate the same pre-generated random 7-card hands (seeded) in the same run, one
thread. Peers are called the way their Python APIs allow (one call per hand, card objects built
before timing). Rates are 7-card evaluations per second, best of ``repeats`` passes.
``ours_evals_per_s`` is ``evaluate_batch(..., check=False)`` (trusted input, as inside the
solver; the peers do not check for repeated cards either); ``ours_checked_evals_per_s`` adds the
input validation pass of the default ``check=True``.
"""

from __future__ import annotations

import platform

import numpy as np

from game.bench.timing import best_rate
from game.cards.deck import card_str
from game.cards.evaluator import evaluate_batch


def random_seven_card_hands(n_hands: int, seed: int) -> np.ndarray:
    """``(n_hands, 7)`` int8 array of distinct cards per row, from a seeded generator."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n_hands, 52))
    return np.argsort(keys, axis=1)[:, :7].astype(np.int8)


def _eval7_rate(hands: np.ndarray, repeats: int) -> float | None:
    try:
        import eval7
    except ImportError:
        return None
    deck = [eval7.Card(card_str(c)) for c in range(52)]
    objects = [[deck[c] for c in row] for row in hands.tolist()]
    evaluate = eval7.evaluate

    def run() -> None:
        for hand in objects:
            evaluate(hand)

    return best_rate(run, len(objects), repeats)


def _phevaluator_rate(hands: np.ndarray, repeats: int) -> float | None:
    try:
        from phevaluator import evaluate_cards
    except ImportError:
        return None
    # phevaluator numbers cards 4*rank + suit with suits c d h s: the same ids as ours.
    rows = hands.tolist()

    def run() -> None:
        for row in rows:
            evaluate_cards(*row)

    return best_rate(run, len(rows), repeats)


def run_evaluator_benchmark(n_hands: int = 2_000_000, repeats: int = 5, seed: int = 0) -> dict:
    """Time ours and the peers; returns the JSON-able result of ``vcfr bench evaluator --json``."""
    if n_hands < 1 or repeats < 1:
        raise ValueError(f"n_hands and repeats must be >= 1, got {n_hands} and {repeats}")
    hands = random_seven_card_hands(n_hands, seed)
    out = np.empty(n_hands, dtype=np.int32)
    evaluate_batch(hands[:10], out=out[:10])  # compile / load the kernels outside the timing
    ours = best_rate(lambda: evaluate_batch(hands, out=out, check=False), n_hands, repeats)
    ours_checked = best_rate(lambda: evaluate_batch(hands, out=out), n_hands, repeats)
    # Peers are 10-100x slower per call: time them on a slice so the run stays short.
    peer_hands = hands[: min(n_hands, 200_000)]
    peers = {
        "eval7": _eval7_rate(peer_hands, max(1, repeats // 2)),
        "phevaluator": _phevaluator_rate(peer_hands, max(1, repeats // 2)),
    }
    rates = [r for r in peers.values() if r is not None]
    return {
        "hands": n_hands,
        "cards_per_hand": 7,
        "threads": 1,
        "ours_evals_per_s": ours,
        "ours_checked_evals_per_s": ours_checked,
        "peers": peers,
        "ratio_vs_best_peer": ours / max(rates) if rates else None,
        "machine": f"{platform.machine()} {platform.processor() or ''} {platform.python_implementation()} {platform.python_version()}".strip(),
    }
