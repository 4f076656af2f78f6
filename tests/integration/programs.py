"""Small programs written as a cuPyNumeric user would, runnable with NumPy too.

Each takes the array module `xp` and returns named results (arrays, or Python values) that are
compared between fusion off, fusion on and NumPy.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from contextlib import redirect_stdout
from typing import Any

import numpy

Results = dict[str, Any]
Program = Callable[[Any], Results]


def inputs(n: int, seed: int = 7) -> tuple[numpy.ndarray, numpy.ndarray]:
    rng = numpy.random.default_rng(seed)
    return rng.random(n), rng.random(n) - 0.5


def elementwise_chain(xp: Any) -> Results:
    a0, b0 = inputs(10_000)
    a, b = xp.array(a0), xp.array(b0)
    d = a * 2.0 + b * 3.0 - a / 4.0
    e = xp.where(b > 0, xp.exp(-a) * xp.sqrt(xp.abs(b)), xp.log1p(a))
    f = (d * d).astype(xp.float32) + 1
    return {"d": d, "e": e, "f": f, "i": (a * 100).astype(xp.int64) % 7}


def reductions(xp: Any) -> Results:
    a0, b0 = inputs(20_000, seed=3)
    a, b = xp.array(a0), xp.array(b0)
    m = xp.array(numpy.arange(12.0).reshape(3, 4))
    return {
        "sum": xp.sum(a * b),
        "dot": xp.dot(a, b),
        "max": xp.max(a - b),
        "min": xp.min(a + b),
        "mean": xp.mean(a),
        "prod": xp.prod(a[:10] + 1),
        "any": xp.any(b > 0.49),
        "all": xp.all(a >= 0),
        "axis0": xp.sum(m, axis=0),
        "axis1": m.max(axis=1),
    }


def axis_reductions(xp: Any) -> Results:
    """Reductions along each axis of element-wise work, large enough to be partitioned."""
    a0, _ = inputs(120_000, seed=5)
    x = xp.array(a0.reshape(400, 300))
    y = xp.exp(x) * 2.0 - x
    return {  # (sums depend on the order of their terms: compare.AXIS_REDUCED_SUFFIX)
        "columns_reduced": xp.sum(y, axis=0),
        "rows": xp.max(y * y, axis=1),
        "mean_reduced": (x - 0.5).mean(axis=0, keepdims=True),
        "centered": x - xp.min(x + 1.0, axis=1, keepdims=True),
        "nearest": xp.argmin(y * y - 1.0, axis=1),
        "farthest": xp.argmax(xp.abs(y), axis=-1, keepdims=True),
        # rows long enough to be split between points: each folds its part from its corner
        "nearest_in_wide_rows": xp.argmin(xp.array(a0.reshape(3, 40_000)) * 3.0 - 1.0, axis=1),
    }


def ranges(xp: Any) -> Results:
    """arange, linspace, clip and mask assignment in element-wise work, large enough to be
    partitioned: each point of a fused arange computes from its own block's first index."""
    n = 100_003
    ramp = xp.arange(n, dtype=xp.float64) * 0.5 - 7.0
    counts = xp.arange(5, 3 * n + 5, 3) % 11
    grid = xp.linspace(-2.0, 3.0, n) * ramp
    grid[grid > 100.0] = 100.0
    return {"ramp": ramp, "counts": counts, "clipped": xp.clip(grid, -50.0, 75.0) + 1.0,
            "int_ramp": xp.arange(-1000, n - 1000, dtype=xp.int32) * 3}


def stencil(xp: Any) -> Results:
    n = 64
    grid = xp.zeros((n + 2, n + 2))
    grid[0, :] = 1.0
    grid[:, 0] = -1.0
    for _ in range(5):
        center = grid[1:-1, 1:-1]
        center[:] = 0.25 * (
            grid[:-2, 1:-1] + grid[2:, 1:-1] + grid[1:-1, :-2] + grid[1:-1, 2:]
        )
    return {"grid": grid, "residual": float(xp.linalg.norm(grid[1:-1, 1:-1]))}


def in_place(xp: Any) -> Results:
    a0, _ = inputs(1_000, seed=5)
    z = xp.array(a0)
    z += 1
    z *= z
    z[2:50] = 7.0
    z[100:200] += z[0:100]
    w = z[300:600]
    w -= 0.5
    return {"z": z}


def periodic_channel(xp: Any) -> Results:
    # An update through named temporaries (written whole, read through slices), copied back
    # into the interior, then periodic ends and walls: arrays the window lets go hand their
    # memory on, and the boundary copies, apart from each other, fuse in pairs.
    n = 48
    p = xp.array(numpy.sin(numpy.arange(n * (n + 3), dtype=numpy.float64)).reshape(n, n + 3))
    for _ in range(4):
        flux = p * p + 0.5
        average = 0.25 * (p[2:, 1:-1] + p[:-2, 1:-1] + p[1:-1, 2:] + p[1:-1, :-2])
        work = average - 0.01 * (flux[1:-1, 2:] - flux[1:-1, :-2])
        p[1:-1, 1:-1] = work
        p[:, 0] = p[:, -2]
        p[:, -1] = p[:, 1]
        p[0, :] = p[1, :]
        p[-1, :] = p[-2, :]
    return {"p": p}


def broadcasting(xp: Any) -> Results:
    rows = xp.array(numpy.arange(40.0).reshape(8, 5))
    col = xp.array(numpy.linspace(-1, 1, 8))
    row = xp.array(numpy.linspace(0, 2, 5))
    out = rows * row + col[:, None] - 2.5
    return {"out": out, "outer": col[:, None] * row[None, :]}


def boolean_indexing(xp: Any) -> Results:
    a0, b0 = inputs(5_000, seed=11)
    a, b = xp.array(a0), xp.array(b0)
    picked = a[b > 0.2] * 2
    a[b < -0.4] = 0.0
    return {"picked": picked, "a": a, "count": int((a == 0).sum())}


def sorting(xp: Any) -> Results:
    a0, _ = inputs(3_000, seed=13)
    a = xp.array(a0) * 3 - 1
    return {"sorted": xp.sort(a * a), "argsort": xp.argsort(a)}


def linear_solve(xp: Any) -> Results:
    rng = numpy.random.default_rng(17)
    m = rng.random((12, 12)) + 12 * numpy.eye(12)
    rhs = rng.random(12)
    a, b = xp.array(m), xp.array(rhs)
    x = xp.linalg.solve(a * 1.0, b + 0.0)
    return {"x": x, "residual_ok": bool(xp.linalg.norm(a @ x - b) < 1e-9)}


def printing(xp: Any) -> Results:
    a = xp.array(numpy.arange(6.0)) * 0.5
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        print(a + 1)
        b = a * a
        print(b.sum())
    return {"printed": buffer.getvalue(), "b": b}


def convergence_loop(xp: Any) -> Results:
    """Newton iterations for sqrt(2) with an `if` on an array value each step."""
    x = xp.full(100, 1.0)
    target = xp.full(100, 2.0)
    steps = 0
    for _ in range(50):
        x = 0.5 * (x + target / x)
        steps += 1
        if xp.max(xp.abs(x * x - target)) < 1e-14:
            break
    return {"x": x, "steps": steps}


def timed_loop(xp: Any) -> Results:
    a0, _ = inputs(10_000, seed=19)
    a = xp.array(a0)
    if xp.__name__ == "cupynumeric":
        from legate.timing import time

        start = time()
        for _ in range(3):
            a = a * 1.5 + 0.25
        elapsed = time() - start
        assert elapsed >= 0
    else:
        for _ in range(3):
            a = a * 1.5 + 0.25
    return {"a": a}


PROGRAMS: dict[str, Program] = {
    program.__name__: program
    for program in (
        elementwise_chain, reductions, axis_reductions, stencil, in_place, broadcasting,
        boolean_indexing, sorting, linear_solve, printing, convergence_loop, timed_loop, ranges,
        periodic_channel,
    )
}


def to_numpy(results: Results) -> Results:
    return {
        name: value if isinstance(value, str | bool | int | float) else numpy.asarray(value)
        for name, value in results.items()
    }
