"""Seeded k-means for card buckets, under L2 (E[HS], E[HS²]) or earth mover's distance (histograms).

EMD between distributions on [0, 1] is computed in one of two equivalent 1-D forms: for
histograms over equal-width bins, the L1 distance between cumulative sums times the bin width
(`emd_histograms`); for distributions of ``d`` equal-weight atoms (the final strengths over ``d``
runouts, or the equities of next-street clusters), the mean absolute difference of the sorted
atoms (`emd_atoms`, exact Wasserstein-1). The builder uses atoms: no binning error, and the
centroid update (the mean of sorted atom vectors) is the Wasserstein barycenter of the members.

Fitting: one Lloyd loop in numba for both metrics: k-means++ seeding under the metric, assignment
by the metric (pruned nearest-centroid search), mean update, and an empty cluster restarted at
the point farthest from its centroid (Johanson et al. 2013 use this scheme for EMD). Not
``scipy.cluster.vq.kmeans2``: it raises or warns on empty clusters, which suit-equivalent hands
(many identical feature vectors) produce. Both metrics take a seed and are reproducible.

>>> emd_histograms(np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0]))  # all mass moves 2 bins of 1/3
0.6666666666666666
>>> emd_atoms(np.array([0.1, 0.5]), np.array([0.2, 0.9]))
0.25
>>> points = np.array([[0.1], [0.12], [0.8], [0.82]])
>>> result = fit_kmeans(points, 2, "l2", seed=0)
>>> sorted(np.round(result.centroids[:, 0], 2).tolist()), len(set(result.labels.tolist()))
([0.11, 0.81], 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from abstraction.cards.kernels_clustering import _assign, _plus_plus, _update_means
from game.cards.rng import SeedLike, as_generator, kernel_seed

Metric = Literal["l2", "emd"]
METRICS: tuple[str, ...] = ("l2", "emd")


@dataclass(frozen=True)
class KMeansResult:
    """Centroids ``(k, d)`` float64, labels ``(n,)`` int64, and the mean distance to the centroid."""

    centroids: np.ndarray
    labels: np.ndarray
    mean_distance: float


def emd_histograms(first: np.ndarray, second: np.ndarray) -> float:
    """EMD between two histograms over the same equal-width bins of [0, 1] (each summing to 1)."""
    a, b = np.asarray(first, dtype=np.float64), np.asarray(second, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"histograms must be 1-D of one length, got shapes {a.shape} and {b.shape}")
    return float(np.abs(np.cumsum(a) - np.cumsum(b)).sum() / a.shape[0])


def emd_atoms(first: np.ndarray, second: np.ndarray) -> float:
    """EMD between two distributions of equally many equal-weight atoms (any order)."""
    a, b = np.sort(np.asarray(first, dtype=np.float64)), np.sort(np.asarray(second, dtype=np.float64))
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"atom vectors must be 1-D of one length, got shapes {a.shape} and {b.shape}")
    return float(np.abs(a - b).mean())


def point_keys(points: np.ndarray, metric: Metric) -> np.ndarray:
    """The lower-bound key of each point (see `abstraction.cards.kernels_clustering`)."""
    return points.mean(axis=1) if metric == "emd" else points[:, 0].copy()


def _check(points: np.ndarray, metric: str) -> np.ndarray:
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")
    array = np.ascontiguousarray(points, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] == 0:
        raise ValueError(f"points must be a non-empty 2-D array (n, d), got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError("points contain NaN or infinite values")
    return array


def assign(points: np.ndarray, centroids: np.ndarray, metric: Metric) -> tuple[np.ndarray, np.ndarray]:
    """Nearest centroid (int64 labels) and its distance for every point, in parallel."""
    array = _check(points, metric)
    centers = _check(centroids, metric)
    if centers.shape[1] != array.shape[1]:
        raise ValueError(f"centroids have {centers.shape[1]} coordinates, points {array.shape[1]}")
    labels = np.empty(array.shape[0], dtype=np.int64)
    distances = np.empty(array.shape[0])
    _assign(array, point_keys(array, metric), centers, point_keys(centers, metric), metric == "emd", labels, distances)
    return labels, distances


def fit_kmeans(points: np.ndarray, k: int, metric: Metric, *, seed: SeedLike = 0, iterations: int = 25) -> KMeansResult:
    """k-means with ``k`` clusters under ``metric`` (``"l2"`` or ``"emd"``), seeded and reproducible.

    Fewer distinct points than ``k`` gives centroids on the points themselves (some repeated).
    """
    array = _check(points, metric)
    if not k >= 1:
        raise ValueError(f"k must be >= 1, got {k!r}")
    if iterations < 1:
        raise ValueError(f"iterations must be >= 1, got {iterations!r}")
    use_l1 = metric == "emd"
    chosen = np.empty(k, dtype=np.int64)
    _plus_plus(array, k, use_l1, kernel_seed(as_generator(seed)), chosen)
    centroids = array[chosen].copy()
    previous = None
    for _ in range(iterations):
        labels, distances = assign(array, centroids, metric)
        if previous is not None and np.array_equal(labels, previous):
            break
        _update_means(array, labels, distances, centroids)
        previous = labels
    labels, distances = assign(array, centroids, metric)
    return KMeansResult(centroids, labels, float(distances.mean()))
