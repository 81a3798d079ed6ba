"""Hand features of an exact solver game's buckets, read off its deal table, and abstractions clustered on them.

For an exact two-player game (every deal enumerated, each bucket one real view) the deal table
already holds everything: conditioned on a player's view, the rest of the deal (opponent's cards,
cards to come) is uniform, so averaging the player's showdown share (:func:`showdown_shares`, read
off the deal's outcome weights of the showdown context) over the deals of a bucket gives its equity
against a uniform opponent. Per street ``s`` (the bucket slot) and bucket ``b``:

- ``ehs``: E[HS], the mean final showdown share (ties half) over the rest of the deal;
- ``ehs2``: E[HS²], the mean square of HS, where HS is the final-street bucket's strength (its ``ehs``);
- ``atoms``: the distribution of that final HS over the rest of the deal as ``n_atoms`` quantiles
  (midpoint levels), so the earth mover's distance between two buckets is the mean absolute
  difference of their atoms (:func:`abstraction.cards.clustering.emd_atoms`). This is the
  distribution-aware (potential-aware on a two-street game) feature of Johanson et al. 2013;
- ``ochs``: opponent cluster hand strength (Johanson et al. 2013), the mean final share against
  each first-street bucket of the opponent (a vector: it sees card removal and board texture
  that one number against a uniform opponent averages away).

On the last street HS is known, so E[HS²] = E[HS]² and the distribution is a point: ``ehs``,
``ehs2`` and ``emd`` order last-street buckets alike. :func:`build_abstraction` clusters each street
with :func:`abstraction.cards.clustering.fit_kmeans`: ``"ehs"`` (L2 on E[HS]), ``"ehs2"`` (L2 on (E[HS],
E[HS²])), ``"emd"`` (EMD on the atoms), ``"ochs"`` (L2 on the OCHS vector); a method may also be
given per street (e.g. ``("emd", "ochs")``, the potential-aware/OCHS pairing of Johanson et al.).
Both seats' views are pooled: a bucket is a view, whoever holds it.

>>> from abstraction.exact.exact_games import build_game
>>> features = bucket_features(build_game("leduc"))
>>> [round(x, 4) for x in features[0].ehs.tolist()]  # J J Q Q K K over every opponent card and board
[0.3, 0.3, 0.5, 0.5, 0.7, 0.7]
>>> abstraction = build_abstraction(build_game("leduc"), "emd", [2, 5])
>>> abstraction.name, abstraction.bucket_map[0].tolist()  # the river has only 3 distinct strengths
('emd 2/3', [0, 0, 0, 0, 1, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from abstraction.cards.clustering import fit_kmeans
from abstraction.exact.exact_games import showdown_contexts, showdown_outcomes
from abstraction.exact.lifting import CardAbstraction
from abstraction.tree import SolverGame

METHODS = ("ehs", "ehs2", "emd", "ochs")
"""Clustering methods: k-means on E[HS], on (E[HS], E[HS²]), EMD k-means on the HS distribution, k-means on OCHS."""
DEFAULT_ATOMS = 32
DECIMALS = 12
"""Features are rounded to this many decimals, so views of equal strength get equal points despite
summation-order noise (else k-means would split them on noise)."""


@dataclass(frozen=True)
class StreetFeatures:
    """Features of every bucket of one street: ``ehs``, ``ehs2``, ``probability`` float64 ``(n_buckets,)``
    (``probability``: chance a given seat holds the bucket), ``atoms`` float64 ``(n_buckets, n_atoms)``,
    ascending quantiles of the final HS, and ``ochs`` float64 ``(n_buckets, n_first_street_buckets)``,
    the mean share against each opponent first-street bucket (the bucket's E[HS] where it cannot meet one)."""

    ehs: np.ndarray
    ehs2: np.ndarray
    atoms: np.ndarray
    ochs: np.ndarray
    probability: np.ndarray


def showdown_shares(game: SolverGame) -> np.ndarray:
    """float64 ``[n_deals, n_players]``: each player's expected share of the pot (1 win, 1/k in a k-way split)
    on each deal at a showdown nobody folded out of, from the deal's weights of that showdown context.

    >>> from abstraction.exact.exact_games import build_game
    >>> showdown_shares(build_game("kuhn")).tolist()[:2]  # J vs Q, J vs K
    [[0.0, 1.0], [0.0, 1.0]]
    """
    tree, n_players = game.tree, game.tree.n_players
    everyone = tuple(range(n_players))
    contexts = showdown_contexts(tree)
    if everyone not in contexts:
        raise ValueError(f"game {game.name!r} has no showdown among all {n_players} players")
    context = contexts.index(everyone)
    first = int(tree.context_offset[context])
    outcome_share = np.array(
        [
            [1.0 / len(winners) if p in winners else 0.0 for p in everyone]
            for winners in showdown_outcomes(everyone, n_players)
        ]
    )
    return game.deals.weight[:, first : first + len(outcome_share)] @ outcome_share


def _pooled(game: SolverGame, street: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per (deal, seat) pooled: street bucket, last-street bucket, weight (deal probability / 2), own share,
    and the opponent's first-street bucket."""
    deals = game.deals
    last = len(deals.n_buckets) - 1
    share = showdown_shares(game)
    weight = np.repeat(deals.probability[:, None] / 2, 2, axis=1)
    return (
        deals.bucket[:, :, street].reshape(-1),
        deals.bucket[:, :, last].reshape(-1),
        weight.reshape(-1),
        share.reshape(-1),
        deals.bucket[:, ::-1, 0].reshape(-1),
    )


def _weighted_mean(index: np.ndarray, weight: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    mass = np.bincount(index, weights=weight, minlength=count)
    return np.bincount(index, weights=weight * values, minlength=count) / np.where(mass > 0, mass, 1.0)


def bucket_features(game: SolverGame, n_atoms: int = DEFAULT_ATOMS) -> list[StreetFeatures]:
    """E[HS], E[HS²], final-HS quantile atoms and OCHS of every bucket on every street (see the module docstring).

    Exact for an exact game's deal table (e.g. :func:`abstraction.exact.small_deck.build_small_deck_game`);
    for an abstracted table the features are those of the abstract buckets.
    """
    if not isinstance(game, SolverGame):
        raise TypeError(f"game must be a SolverGame, got {game!r}")
    if game.tree.n_players != 2:
        raise ValueError(
            f"bucket features pool the two seats of a heads-up game; {game.name!r} has {game.tree.n_players} players"
        )
    if n_atoms < 1:
        raise ValueError(f"n_atoms must be >= 1, got {n_atoms!r}")
    n_buckets = game.deals.n_buckets
    last = len(n_buckets) - 1
    _, final, weight, share, _ = _pooled(game, last)
    final_strength = _weighted_mean(final, weight, share, int(n_buckets[last]))
    levels = (np.arange(n_atoms) + 0.5) / n_atoms
    features = []
    for street in range(len(n_buckets)):
        bucket, final, weight, share, opponent = _pooled(game, street)
        count = int(n_buckets[street])
        strength = final_strength[final]
        mass = np.bincount(bucket, weights=weight, minlength=count)
        ehs = _weighted_mean(bucket, weight, share, count)
        ehs2 = _weighted_mean(bucket, weight, strength * strength, count)
        # Quantiles of the final HS per bucket: sort by (bucket, HS), cumulate each bucket's weight to
        # (0, 1] and offset it by the bucket index, then one searchsorted finds every level of every bucket.
        order = np.lexsort((strength, bucket))
        sorted_bucket, sorted_weight = bucket[order], weight[order] / mass[bucket[order]]
        cumulative = np.cumsum(sorted_weight)
        starts = np.searchsorted(sorted_bucket, np.arange(count))
        before = np.concatenate([[0.0], cumulative])[starts]
        key = sorted_bucket + (cumulative - before[sorted_bucket])
        positions = np.searchsorted(key, (np.arange(count)[:, None] + levels[None, :]).reshape(-1))
        atoms = strength[order][np.minimum(positions, len(order) - 1)].reshape(count, n_atoms)
        classes = int(n_buckets[0])
        pair = bucket.astype(np.int64) * classes + opponent
        pair_mass = np.bincount(pair, weights=weight, minlength=count * classes).reshape(count, classes)
        pair_share = np.bincount(pair, weights=weight * share, minlength=count * classes).reshape(count, classes)
        ochs = np.where(pair_mass > 0, pair_share / np.where(pair_mass > 0, pair_mass, 1.0), ehs[:, None])
        features.append(
            StreetFeatures(
                ehs=ehs.round(DECIMALS),
                ehs2=ehs2.round(DECIMALS),
                atoms=atoms.round(DECIMALS),
                ochs=ochs.round(DECIMALS),
                probability=mass,
            )
        )
    return features


def cluster_street(features: StreetFeatures, k: int, method: str, seed: int = 0) -> np.ndarray:
    """Exact bucket -> abstract bucket (int32, dense ``0..k'-1`` with ``k' <= k``) for one street.

    ``k`` at least the number of buckets keeps every bucket (lossless).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"k must be an int >= 1, got {k!r}")
    count = len(features.ehs)
    if k >= count:
        return np.arange(count, dtype=np.int32)
    if method == "emd":
        labels = fit_kmeans(features.atoms, int(k), "emd", seed=seed).labels
    elif method == "ochs":
        labels = fit_kmeans(features.ochs, int(k), "l2", seed=seed).labels
    else:
        points = features.ehs[:, None] if method == "ehs" else np.stack([features.ehs, features.ehs2], axis=1)
        labels = fit_kmeans(points, int(k), "l2", seed=seed).labels
    return np.unique(labels, return_inverse=True)[1].reshape(-1).astype(np.int32)


def build_abstraction(
    game: SolverGame,
    method: str | Sequence[str],
    bucket_counts: Sequence[int],
    seed: int = 0,
    features: list[StreetFeatures] | None = None,
) -> CardAbstraction:
    """Cluster every street of ``game`` into ``bucket_counts[s]`` buckets by ``method`` (see :data:`METHODS`).

    ``method`` is one name for every street or one per street. ``features`` (from
    :func:`bucket_features`) may be passed to reuse them; street ``s`` uses seed ``seed + s``. The
    name is the method(s) and the bucket counts reached, e.g. ``'emd+ochs 4/32'``.
    """
    counts = [int(k) for k in bucket_counts]
    n_streets = len(game.deals.n_buckets)
    if len(counts) != n_streets:
        raise ValueError(f"bucket_counts {counts} must give one count per street ({n_streets})")
    methods = [method] * n_streets if isinstance(method, str) else list(method)
    if len(methods) != n_streets:
        raise ValueError(f"method {method!r} must be one name or one per street ({n_streets})")
    features = bucket_features(game) if features is None else features
    maps = tuple(cluster_street(features[s], counts[s], methods[s], seed + s) for s in range(n_streets))
    label = methods[0] if len(set(methods)) == 1 else "+".join(dict.fromkeys(methods))
    return CardAbstraction(f"{label} {'/'.join(str(int(m.max()) + 1) for m in maps)}", maps)
