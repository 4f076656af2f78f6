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
from common import MATH_FLOPS, array_module, check_matches_numpy, parse_args, report, timed

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
    def run(xp: Any) -> Any:
        x, y = data(xp, 2000)
        state = (xp.zeros(FEATURES), 0.0)
        for _ in range(5):
            state = step(xp, x, y, state)
        return [*(float(v) for v in state[0]), state[1]]  # weights and the last loss

    check_matches_numpy("logreg", run, rtol=1e-10)



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
    # The two products (2 per feature each); the sigmoid (exp and 3); the gradient's
    # difference; the loss: two logs and 10.
    report("logreg", n, args.iterations, seconds, checksum,
           ideal_bytes=(2 * FEATURES + 2) * 8 * n,
           ideal_flops=(4 * FEATURES + 14 + MATH_FLOPS["exp"] + 2 * MATH_FLOPS["log"]) * n)


if __name__ == "__main__":
    main()
