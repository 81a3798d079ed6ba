"""Numba kernels of k-means under L2 and earth mover's distance, behind `abstraction.cards.clustering`.

A point is a feature vector plus a scalar *key* that bounds its distance from below:
``|key(p) - key(c)| <= distance(p, c)``. For L2 points whose first coordinate is E[HS] the key is
that coordinate; for EMD points (distributions stored as their ``d`` sorted equal-weight atoms,
distance ``sum |p_i - c_i| / d``) the key is the mean of the atoms. Nearest-centroid search walks
the centroids outward from the key in key order and stops once the bound exceeds the best
distance found, which usually visits a handful of the k centroids.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(cache=True, nogil=True)
def _distance(point: np.ndarray, centroid: np.ndarray, use_l1: bool) -> float:
    total = 0.0
    if use_l1:
        for i in range(point.shape[0]):
            total += abs(point[i] - centroid[i])
        return total / point.shape[0]
    for i in range(point.shape[0]):
        difference = point[i] - centroid[i]
        total += difference * difference
    return np.sqrt(total)


@njit(cache=True, nogil=True)
def _nearest(
    point: np.ndarray, key: float, centroids: np.ndarray, sorted_keys: np.ndarray, order: np.ndarray, use_l1: bool
) -> tuple[int, float]:
    """Nearest centroid of ``point``: ``(label, distance)``. ``order`` lists centroid labels by
    increasing key and ``sorted_keys`` their keys."""
    n = sorted_keys.shape[0]
    right = np.searchsorted(sorted_keys, key)
    left = right - 1
    best = -1
    best_distance = np.inf
    while left >= 0 or right < n:
        left_gap = key - sorted_keys[left] if left >= 0 else np.inf
        right_gap = sorted_keys[right] - key if right < n else np.inf
        if left_gap <= right_gap:
            if left_gap >= best_distance:
                break
            candidate = order[left]
            left -= 1
        else:
            if right_gap >= best_distance:
                break
            candidate = order[right]
            right += 1
        distance = _distance(point, centroids[candidate], use_l1)
        if distance < best_distance:
            best_distance = distance
            best = candidate
    return best, best_distance


@njit(cache=True, nogil=True, parallel=True)
def _assign(
    points: np.ndarray,
    keys: np.ndarray,
    centroids: np.ndarray,
    centroid_keys: np.ndarray,
    use_l1: bool,
    labels: np.ndarray,
    distances: np.ndarray,
) -> None:
    """Nearest centroid of every point, in parallel. Modified in place: ``labels``, ``distances``."""
    order = np.argsort(centroid_keys)
    sorted_keys = centroid_keys[order]
    for i in prange(points.shape[0]):
        label, distance = _nearest(points[i], keys[i], centroids, sorted_keys, order, use_l1)
        labels[i] = label
        distances[i] = distance


@njit(cache=True, nogil=True)
def _plus_plus(points: np.ndarray, k: int, use_l1: bool, seed: int, chosen: np.ndarray) -> None:
    """k-means++ seeding (Arthur and Vassilvitskii 2007) with the given distance: indices of the
    ``k`` chosen points into ``chosen`` (modified in place). Seeds numba's RNG with ``seed``."""
    np.random.seed(seed)
    n = points.shape[0]
    nearest = np.full(n, np.inf)
    chosen[0] = np.random.randint(n)
    for c in range(1, k):
        total = 0.0
        for i in range(n):
            distance = _distance(points[i], points[chosen[c - 1]], use_l1)
            weight = distance * distance
            if weight < nearest[i]:
                nearest[i] = weight
            total += nearest[i]
        target = np.random.random() * total
        pick = n - 1
        running = 0.0
        for i in range(n):
            running += nearest[i]
            if running >= target and nearest[i] > 0.0:
                pick = i
                break
        chosen[c] = pick


@njit(cache=True, nogil=True)
def _update_means(points: np.ndarray, labels: np.ndarray, distances: np.ndarray, centroids: np.ndarray) -> int:
    """Move each centroid to the mean of its points; an empty cluster takes the point farthest
    from its centroid. Modified in place: ``centroids``. Returns how many clusters were empty."""
    k, d = centroids.shape
    counts = np.zeros(k, dtype=np.int64)
    sums = np.zeros((k, d))
    for i in range(points.shape[0]):
        counts[labels[i]] += 1
        for j in range(d):
            sums[labels[i], j] += points[i, j]
    empty = 0
    for c in range(k):
        if counts[c] == 0:
            far = np.argmax(distances)
            for j in range(d):
                centroids[c, j] = points[far, j]
            distances[far] = 0.0
            empty += 1
            continue
        for j in range(d):
            centroids[c, j] = sums[c, j] / counts[c]
    return empty
