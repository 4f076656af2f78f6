"""Linear regression by gradient descent on the mean squared error: a matrix-vector product for
the residual, its transpose for the gradient, and the loss read back every iteration.

    python bench/apps/linreg.py --size 1000000 --iterations 10
(`size` samples of 16 features.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app

FEATURES = 16
RATE = 0.1
TOLERANCE = 1e-30  # never reached in the timed iterations: every iteration does its work


def initial(xp: Any, n: int) -> dict[str, Any]:
    """Samples from a seeded generator on the host (the same values for NumPy and cuPyNumeric),
    targets a noisy linear function of them, weights starting at zero."""
    rng = numpy.random.default_rng(11)
    x = rng.normal(size=(n, FEATURES))
    truth = rng.normal(size=FEATURES)
    y = x @ truth + rng.normal(scale=0.1, size=n)
    return {"x": xp.array(x), "y": xp.array(y), "w": xp.zeros(FEATURES)}


def step(xp: Any, s: dict[str, Any]) -> dict[str, Any]:
    x, y = s["x"], s["y"]
    residual = x @ s["w"] - y
    loss = float(0.5 * xp.mean(residual * residual))  # read back, as a convergence test would
    if loss < TOLERANCE:
        return s
    gradient = x.T @ residual / len(y)
    s["w"] = s["w"] - RATE * gradient
    return s


def main() -> None:
    # Ideally: read X twice (X @ w, X.T @ r) and y once.
    stepped_app("linreg", __doc__ or "", initial, step, lambda s: s["w"], size=1_000_000,
                iterations=10, check_size=2000, check_steps=5, rtol=1e-10,
                ideal_bytes=lambda n: (2 * FEATURES + 1) * 8 * n,
                # the two products (2 per feature each), the residual, the loss (2)
                ideal_flops=lambda n: (4 * FEATURES + 3) * n)


if __name__ == "__main__":
    main()
