"""Logistic regression by gradient descent: matrix-vector products, the sigmoid and the
log-loss, with the loss read back every iteration.

    python bench/apps/logreg.py --size 1000000 --iterations 10
(`size` samples of 8 features.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import array_module, parse_args, report, timed

FEATURES = 8
RATE = 0.5


def data(xp: Any, n: int) -> tuple[Any, Any]:
    rng = numpy.random.default_rng(5)
    x = rng.normal(size=(n, FEATURES))
    truth = rng.normal(size=FEATURES)
    y = (x @ truth + rng.normal(scale=0.5, size=n) > 0).astype(numpy.float64)
    return xp.array(x), xp.array(y)


def step(xp: Any, x: Any, y: Any, state: tuple[Any, float]) -> tuple[Any, float]:
    w, _ = state
    z = x @ w
    p = 1.0 / (1.0 + xp.exp(-z))
    gradient = x.T @ (p - y) / len(y)
    eps = 1e-12
    loss = float(-xp.mean(y * xp.log(p + eps) + (1.0 - y) * xp.log(1.0 - p + eps)))
    return w - RATE * gradient, loss


def check() -> None:
    import cupynumeric

    def run(xp: Any) -> tuple[numpy.ndarray, float]:
        x, y = data(xp, 2000)
        state = (xp.zeros(FEATURES), 0.0)
        for _ in range(5):
            state = step(xp, x, y, state)
        return numpy.asarray(state[0]), state[1]

    (w1, l1), (w2, l2) = run(cupynumeric), run(numpy)
    numpy.testing.assert_allclose(w1, w2, rtol=1e-10)
    assert abs(l1 - l2) <= 1e-10 * abs(l2)
    print("logreg: answer matches NumPy")


def main() -> None:
    args = parse_args(__doc__ or "", size=1_000_000, iterations=10)
    if args.check:
        check()
        return
    xp = array_module(args)
    x, y = data(xp, args.size)
    seconds, checksum = timed(lambda s: step(xp, x, y, s), (xp.zeros(FEATURES), 0.0),
                              lambda s: s[1], args.iterations, args.warmup)
    # Ideally: read X twice (X @ w, X.T @ r) and y twice.
    n = args.size
    report("logreg", n, args.iterations, seconds, checksum,
           ideal_bytes=(2 * FEATURES + 2) * 8 * n)


if __name__ == "__main__":
    main()
