"""k-means clustering by Lloyd's algorithm: the squared distance of every point to every centroid
by broadcasting, the nearest centroid by `argmin`, and the new centroids from axis reductions
over a one-hot mask, with the centroids' largest move read back every iteration.

    python bench/apps/kmeans.py --size 1000000 --iterations 5
(`size` points in 2-D, 8 clusters.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app

CLUSTERS = 8
DIMENSIONS = 2
# Lloyd's algorithm can settle exactly; a settled step still does all its work, then keeps the
# centroids it had (the same values).
TOLERANCE = 1e-12


def initial(xp: Any, n: int) -> dict[str, Any]:
    """Points around CLUSTERS centres, from a seeded generator on the host (the same values for
    NumPy and cuPyNumeric); the first CLUSTERS points are the initial centroids."""
    rng = numpy.random.default_rng(7)
    centres = rng.uniform(-10.0, 10.0, size=(CLUSTERS, DIMENSIONS))
    points = centres[rng.integers(0, CLUSTERS, size=n)] + rng.normal(scale=2.0,
                                                                    size=(n, DIMENSIONS))
    return {"points": xp.array(points), "centroids": xp.array(points[:CLUSTERS])}


def step(xp: Any, s: dict[str, Any]) -> dict[str, Any]:
    points, centroids = s["points"], s["centroids"]
    difference = points[:, None, :] - centroids[None, :, :]
    distances = (difference * difference).sum(axis=2)  # n x CLUSTERS
    labels = xp.argmin(distances, axis=1)
    mask = labels[:, None] == xp.arange(CLUSTERS)[None, :]
    counts = mask.sum(axis=0)
    sums = mask.T.astype(points.dtype) @ points
    # An empty cluster keeps its centroid.
    moved = xp.where(counts[:, None] > 0, sums / xp.maximum(counts, 1)[:, None], centroids)
    if float(xp.max(xp.abs(moved - centroids))) < TOLERANCE:  # the convergence test
        return s
    s["centroids"] = moved
    return s


def main() -> None:
    # Ideally fused: one pass over the points computes the distances, the nearest centroid and
    # each cluster's count and sum: DIMENSIONS float64 per point per iteration.
    stepped_app("kmeans", __doc__ or "", initial, step, lambda s: s["centroids"],
                size=1_000_000, iterations=5, check_size=2000, check_steps=5, rtol=1e-10,
                ideal_bytes=lambda n: DIMENSIONS * 8 * n,
                # per point and cluster: differences, squares and their sums, the product
                # of the one-hot mask with the points (2 per coordinate)
                ideal_flops=lambda n: 5 * CLUSTERS * DIMENSIONS * n)


if __name__ == "__main__":
    main()
