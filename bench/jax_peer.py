"""JAX `jit` versions of the suite's stepped applications, as a JAX user writes them: each step
a compiled function of the state, which it takes as arguments and donates (its buffers then
hold the next state), with the reads back to Python the applications make (a loss, a
convergence test) kept as reads of a value the compiled step returns.

A step that is already a function of its state (the chains, complex_field,
jacobi_dense) is compiled as the application wrote it; the others write into views of their
arrays, which JAX's arrays do not allow, and are written again here with `.at[...].set`, the
same arithmetic in the same order (the expressions themselves the applications' where they are
functions of their own). Run through `bench/peers.py jax APP`.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent / "apps"))

# Applications whose step is a function of its state: compiled as they are.
AS_WRITTEN = ("exp_chain", "log_chain", "tanh_chain", "sincos_chain", "complex_field",
              "jacobi_dense")
# A step: state -> (next state, the value the application reads back, or None).
Step = Callable[[Any], tuple[Any, Any]]


def stream(jnp: Any, n: int) -> tuple[Any, Step]:
    from stream import SCALAR, initial

    def step(state: Any) -> tuple[Any, Any]:
        a, b, c = state
        c = a
        b = SCALAR * c
        c = a + b
        a = b + SCALAR * c
        return (a, b, c), None

    return initial(jnp, n), step


def jacobi2d(jnp: Any, n: int) -> tuple[Any, Step]:
    from jacobi2d import initial

    def step(state: Any) -> tuple[Any, Any]:
        src, dst = state
        dst = dst.at[1:-1, 1:-1].set(
            0.25 * (src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:]))
        # The application reads this norm every few steps; computed each step here (a JAX
        # program cannot read inside a compiled step), so JAX does a little more work.
        return (dst, src), jnp.linalg.norm(dst[1:-1, 1:-1] - src[1:-1, 1:-1])

    src, dst, _ = initial(numpy, n)
    return (jnp.asarray(src), jnp.asarray(dst)), step


def stencil_inplace(jnp: Any, n: int) -> tuple[Any, Step]:
    from stencil_inplace import initial

    def step(grid: Any) -> tuple[Any, Any]:
        average = (grid[1:-1, 1:-1] + grid[:-2, 1:-1] + grid[1:-1, 2:] + grid[1:-1, :-2]
                   + grid[2:, 1:-1])
        return grid.at[1:-1, 1:-1].set(0.2 * average), None

    return jnp.asarray(initial(numpy, n)), step


def conjugate_gradient(jnp: Any, state: dict[str, Any], interior: tuple[slice, ...],
                       operator: Callable[[Any], Any]) -> tuple[Any, Step]:
    def step(s: dict[str, Any]) -> tuple[Any, Any]:
        pv = s["p"][interior]
        ap = operator(s["p"])
        alpha = s["rsold"] / jnp.sum(pv * ap)
        x = s["x"] + alpha * pv
        r = s["r"] - alpha * ap
        rsnew = jnp.sum(r * r)
        p = s["p"].at[interior].set(r + (rsnew / s["rsold"]) * pv)
        return {"x": x, "r": r, "p": p, "rsold": rsnew}, jnp.sqrt(rsnew)

    return {k: jnp.asarray(v) for k, v in state.items()}, step


def cg(jnp: Any, m: int) -> tuple[Any, Step]:
    from cg import apply_poisson, initial

    return conjugate_gradient(jnp, initial(numpy, m), (slice(1, -1), slice(1, -1)),
                              apply_poisson)


def cg1d(jnp: Any, n: int) -> tuple[Any, Step]:
    from cg1d import apply_laplacian, initial

    return conjugate_gradient(jnp, initial(numpy, n), (slice(1, -1),), apply_laplacian)


def linreg(jnp: Any, n: int) -> tuple[Any, Step]:
    from linreg import RATE, initial

    def step(s: dict[str, Any]) -> tuple[Any, Any]:
        x, y = s["x"], s["y"]
        residual = x @ s["w"] - y
        loss = 0.5 * jnp.mean(residual * residual)
        gradient = x.T @ residual / len(y)
        return {"x": x, "y": y, "w": s["w"] - RATE * gradient}, loss

    return {k: jnp.asarray(v) for k, v in initial(numpy, n).items()}, step


def logreg(jnp: Any, n: int) -> tuple[Any, Step]:
    from logreg import FEATURES, RATE, data

    def step(state: Any) -> tuple[Any, Any]:
        x, y, w = state
        p = 1.0 / (1.0 + jnp.exp(-(x @ w)))
        gradient = x.T @ (p - y) / len(y)
        eps = 1e-12
        loss = -jnp.mean(y * jnp.log(p + eps) + (1.0 - y) * jnp.log(1.0 - p + eps))
        return (x, y, w - RATE * gradient), loss

    x, y = data(numpy, n)
    return (jnp.asarray(x), jnp.asarray(y), jnp.zeros(FEATURES)), step


def kmeans(jnp: Any, n: int) -> tuple[Any, Step]:
    from kmeans import CLUSTERS, initial

    def step(s: dict[str, Any]) -> tuple[Any, Any]:
        points, centroids = s["points"], s["centroids"]
        difference = points[:, None, :] - centroids[None, :, :]
        distances = (difference * difference).sum(axis=2)
        labels = jnp.argmin(distances, axis=1)
        mask = labels[:, None] == jnp.arange(CLUSTERS)[None, :]
        counts = mask.sum(axis=0)
        sums = mask.T.astype(points.dtype) @ points
        moved = jnp.where(counts[:, None] > 0, sums / jnp.maximum(counts, 1)[:, None],
                          centroids)
        # The application keeps its centroids once they stop moving (its convergence test,
        # never met in the timed steps): moving them always does the same work.
        return {"points": points, "centroids": moved}, jnp.max(jnp.abs(moved - centroids))

    return {k: jnp.asarray(v) for k, v in initial(numpy, n).items()}, step


def periodic(field: Any) -> Any:
    field = field.at[:, 0].set(field[:, -2])
    return field.at[:, -1].set(field[:, 1])


def cfd(jnp: Any, n: int) -> tuple[Any, Step]:
    from cfd import (
        POISSON_ITERATIONS,
        c,
        initial,
        pressure_interior,
        source_interior,
        u_interior,
        v_interior,
    )

    def step(state: Any) -> tuple[Any, Any]:
        u, v, p = state
        dx = dy = 2.0 / (u.shape[0] - 1)
        b = jnp.zeros_like(u).at[c].set(source_interior(u, v, dx, dy))
        for _ in range(POISSON_ITERATIONS):
            p = periodic(p.at[c].set(pressure_interior(p, b, dx, dy)))
            p = p.at[0, :].set(p[1, :])
            p = p.at[-1, :].set(p[-2, :])
        un, vn = u, v
        u = periodic(u.at[c].set(u_interior(un, vn, p, dx, dy)))
        v = periodic(v.at[c].set(v_interior(un, vn, p, dx, dy)))
        u = u.at[0, :].set(0.0).at[-1, :].set(0.0)
        v = v.at[0, :].set(0.0).at[-1, :].set(0.0)
        return (u, v, p), None

    return tuple(jnp.asarray(a) for a in initial(numpy, n)), step


def shallow_water(jnp: Any, n: int) -> tuple[Any, Step]:
    from shallow_water import GRAVITY, initial, lax_friedrichs

    def reflect(q: Any, sign: float = 1.0) -> Any:
        q = q.at[0, :].set(q[1, :]).at[-1, :].set(q[-2, :])
        return q.at[:, 0].set(sign * q[:, 1]).at[:, -1].set(sign * q[:, -2])

    def step(state: Any) -> tuple[Any, Any]:
        h, hu, hv = state
        u, v = hu / h, hv / h
        pressure = 0.5 * GRAVITY * h * h
        new_h = h.at[1:-1, 1:-1].set(lax_friedrichs(h, hu, hv))
        new_hu = hu.at[1:-1, 1:-1].set(lax_friedrichs(hu, hu * u + pressure, hv * u))
        new_hv = hv.at[1:-1, 1:-1].set(lax_friedrichs(hv, hu * v, hv * v + pressure))
        return (reflect(new_h), reflect(new_hu, -1.0), reflect(new_hv, -1.0)), None

    return tuple(jnp.asarray(a) for a in initial(numpy, n)), step


REWRITTEN: dict[str, Callable[[Any, int], tuple[Any, Step]]] = {
    "stream": stream, "jacobi2d": jacobi2d, "stencil_inplace": stencil_inplace, "cg": cg,
    "cg1d": cg1d, "linreg": linreg, "logreg": logreg, "kmeans": kmeans, "cfd": cfd,
    "shallow_water": shallow_water,
}
APPS = (*AS_WRITTEN, *REWRITTEN)


def as_written(jnp: Any, app: str, n: int) -> tuple[Any, Step]:
    import jax

    module = importlib.import_module(app)
    state = jax.tree_util.tree_map(jnp.asarray, module.initial(numpy, n))

    def step(state: Any) -> tuple[Any, Any]:
        return module.step(jnp, state), None

    return state, step


def run(app: str, size: int, iterations: int) -> tuple[float, float]:
    """Seconds per step of `app` under JAX `jit` after the warm-up steps that compile it, and a
    checksum of the final state."""
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    state, step = (as_written(jnp, app, size) if app in AS_WRITTEN
                   else REWRITTEN[app](jnp, size))
    compiled = jax.jit(step, donate_argnums=0)

    def advance(state: Any) -> Any:
        state, read = compiled(state)
        if read is not None:
            float(read)  # the application's read back to Python
        return state

    # Two warm-up steps: the first compiles for the initial state's types, the second for the
    # step's own (a value typed weakly at first, as `jnp.full(n, 2e-3)` is, comes out typed).
    state = jax.block_until_ready(advance(advance(state)))
    start = time.perf_counter()
    for _ in range(iterations):
        state = advance(state)
    leaves = jax.block_until_ready(jax.tree_util.tree_leaves(state))
    seconds = (time.perf_counter() - start) / iterations
    checksum = sum(float(jnp.sum(jnp.real(leaf))) for leaf in leaves)
    return seconds, checksum
