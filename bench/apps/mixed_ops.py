"""A short loop of operations none of which fuses: a sort, a matrix product, an axis sum and a
gather, as a program that does little element-wise work issues them.

    python bench/apps/mixed_ops.py --size 10000 --iterations 100

Each iteration sorts a vector of `size` elements, multiplies it, as a square matrix, by a
vector, sums the matrix along an axis and gathers the vector at shuffled indices; the result is
the next iteration's input. With fusion on, all of it runs as cuPyNumeric built it: what the
plugin costs a short program it cannot speed up, before it steps aside.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import check_matches_numpy, parse_args, report, timed


def step(xp: Any, a: Any, indices: Any) -> Any:
    side = math.isqrt(a.shape[0])
    matrix = xp.sort(a)[: side * side].reshape(side, side)
    product = matrix @ a[:side]
    column = matrix.sum(axis=0)
    gathered = a[indices]
    out = xp.concatenate([product, column, gathered])[: a.shape[0]]
    return out / xp.abs(out).max()


def inputs(xp: Any, size: int) -> tuple[Any, Any]:
    rng = numpy.random.default_rng(7)
    return (xp.array(rng.uniform(-1.0, 1.0, size)),
            xp.array(rng.permutation(size)))


def check() -> None:
    def run(xp: Any) -> Any:
        a, indices = inputs(xp, 400)
        return step(xp, step(xp, a, indices), indices)

    check_matches_numpy("mixed_ops", run, rtol=1e-12)


def main() -> None:
    args = parse_args(__doc__ or "", size=10_000, iterations=100)
    if args.check:
        check()
        return
    import cupynumeric as np

    a, indices = inputs(np, args.size)
    seconds, checksum = timed(lambda x: step(np, x, indices), a, lambda c: float(c[0]),
                              args.iterations, args.warmup)
    report("mixed_ops", args.size, args.iterations, seconds, checksum)


if __name__ == "__main__":
    main()
