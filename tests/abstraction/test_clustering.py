"""k-means under L2 and EMD: distances against definitions, pruned search against brute force, seeds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstraction.cards.clustering import assign, emd_atoms, emd_histograms, fit_kmeans


def brute_emd_histograms(a: np.ndarray, b: np.ndarray) -> float:
    """Transport cost by moving surplus mass greedily left to right (the 1-D optimal plan)."""
    carried, cost = 0.0, 0.0
    for x, y in zip(a, b, strict=True):
        carried += x - y
        cost += abs(carried) / len(a)
    return cost


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=6, max_size=6), st.lists(st.floats(0, 1), min_size=6, max_size=6))
def test_emd_histograms_equals_transport_cost(first, second):
    a, b = np.array(first) + 1e-3, np.array(second) + 1e-3
    a, b = a / a.sum(), b / b.sum()
    assert emd_histograms(a, b) == pytest.approx(brute_emd_histograms(a, b), abs=1e-12)


def test_emd_atoms_equals_histogram_emd_on_bin_centres():
    # Atoms at bin centres of 4 bins: the same distributions as histograms.
    a_atoms, b_atoms = np.array([0.125, 0.125, 0.625, 0.875]), np.array([0.375, 0.625, 0.625, 0.875])
    a_hist = np.array([2, 0, 1, 1]) / 4
    b_hist = np.array([0, 1, 2, 1]) / 4
    assert emd_atoms(a_atoms, b_atoms) == pytest.approx(emd_histograms(a_hist, b_hist))


@pytest.mark.parametrize("metric", ["l2", "emd"])
def test_pruned_assignment_equals_brute_force(metric):
    rng = np.random.default_rng(1)
    points = np.sort(rng.random((2000, 8)), axis=1)
    centroids = np.sort(rng.random((60, 8)), axis=1)
    labels, distances = assign(points, centroids, metric)
    if metric == "emd":
        all_distances = np.abs(points[:, None, :] - centroids[None, :, :]).mean(axis=2)
    else:
        all_distances = np.sqrt(((points[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2))
    np.testing.assert_allclose(distances, all_distances.min(axis=1), atol=1e-12)
    np.testing.assert_allclose(all_distances[np.arange(2000), labels], distances, atol=1e-12)


@pytest.mark.parametrize("metric", ["l2", "emd"])
def test_kmeans_finds_separated_clusters_and_is_reproducible(metric):
    rng = np.random.default_rng(2)
    centres = np.array([0.1, 0.4, 0.7, 0.95])
    points = np.sort(np.repeat(centres, 300)[:, None] + 0.01 * rng.standard_normal((1200, 5)), axis=1)
    first = fit_kmeans(points, 4, metric, seed=3)
    again = fit_kmeans(points, 4, metric, seed=3)
    np.testing.assert_array_equal(first.labels, again.labels)
    np.testing.assert_array_equal(first.centroids, again.centroids)
    assert sorted(np.round(first.centroids.mean(axis=1), 1).tolist()) == pytest.approx(
        [0.1, 0.4, 0.7, 0.9 + 0.05], abs=0.06
    )
    for block in range(4):
        assert len(set(first.labels[300 * block : 300 * (block + 1)].tolist())) == 1


def test_bad_input_names_the_value():
    with pytest.raises(ValueError, match="cosine"):
        fit_kmeans(np.zeros((3, 1)), 2, "cosine")
    with pytest.raises(ValueError, match="NaN"):
        fit_kmeans(np.array([[np.nan]]), 1, "l2")
