"""2-D incompressible channel flow (Navier-Stokes by finite differences with a pressure Poisson
inner loop, as in "12 steps to Navier-Stokes"), written with shifted slices. Walls at the top
and bottom, a body force along the channel, periodic ends.

    python bench/apps/cfd.py --size 400 --iterations 10
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app

RHO, NU, FORCE, DT, POISSON_ITERATIONS = 1.0, 0.1, 1.0, 0.001, 10


def initial(xp: Any, n: int) -> tuple[Any, Any, Any]:
    return xp.zeros((n, n)), xp.zeros((n, n)), xp.zeros((n, n))


def periodic(field: Any) -> None:
    field[:, 0] = field[:, -2]
    field[:, -1] = field[:, 1]


def source_interior(u: Any, v: Any, dx: float, dy: float) -> Any:
    """The pressure equation's source term on the interior (also bench/jax_peer.py's)."""
    dudx = (u[1:-1, 2:] - u[1:-1, :-2]) / (2 * dx)
    dvdy = (v[2:, 1:-1] - v[:-2, 1:-1]) / (2 * dy)
    dudy = (u[2:, 1:-1] - u[:-2, 1:-1]) / (2 * dy)
    dvdx = (v[1:-1, 2:] - v[1:-1, :-2]) / (2 * dx)
    return RHO * (1 / DT * (dudx + dvdy) - dudx * dudx - 2 * dudy * dvdx - dvdy * dvdy)


def source(xp: Any, u: Any, v: Any, dx: float, dy: float) -> Any:
    b = xp.zeros_like(u)
    b[1:-1, 1:-1] = source_interior(u, v, dx, dy)
    return b


def pressure_interior(pn: Any, b: Any, dx: float, dy: float) -> Any:
    """One Jacobi sweep of the pressure equation on the interior."""
    return ((pn[1:-1, 2:] + pn[1:-1, :-2]) * dy**2 + (pn[2:, 1:-1] + pn[:-2, 1:-1]) * dx**2
            - b[1:-1, 1:-1] * dx**2 * dy**2) / (2 * (dx**2 + dy**2))


# The interior and its four neighbours, as slices of a padded grid.
c, e, w, s, nn = (slice(1, -1), slice(1, -1)), (slice(1, -1), slice(2, None)), \
    (slice(1, -1), slice(None, -2)), (slice(None, -2), slice(1, -1)), \
    (slice(2, None), slice(1, -1))


def u_interior(un: Any, vn: Any, p: Any, dx: float, dy: float) -> Any:
    """The next velocity along the channel on the interior, from the last ones and the
    pressure."""
    return (un[c] - un[c] * DT / dx * (un[c] - un[w]) - vn[c] * DT / dy * (un[c] - un[s])
            - DT / (2 * RHO * dx) * (p[e] - p[w])
            + NU * (DT / dx**2 * (un[e] - 2 * un[c] + un[w])
                    + DT / dy**2 * (un[nn] - 2 * un[c] + un[s])) + FORCE * DT)


def v_interior(un: Any, vn: Any, p: Any, dx: float, dy: float) -> Any:
    """The next velocity across the channel on the interior."""
    return (vn[c] - un[c] * DT / dx * (vn[c] - vn[w]) - vn[c] * DT / dy * (vn[c] - vn[s])
            - DT / (2 * RHO * dy) * (p[nn] - p[s])
            + NU * (DT / dx**2 * (vn[e] - 2 * vn[c] + vn[w])
                    + DT / dy**2 * (vn[nn] - 2 * vn[c] + vn[s])))


def pressure(p: Any, b: Any, dx: float, dy: float) -> Any:
    for _ in range(POISSON_ITERATIONS):
        pn = p.copy()
        p[1:-1, 1:-1] = pressure_interior(pn, b, dx, dy)
        periodic(p)
        p[0, :] = p[1, :]
        p[-1, :] = p[-2, :]
    return p


def step(xp: Any, state: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
    u, v, p = state
    n = u.shape[0]
    dx = dy = 2.0 / (n - 1)
    p = pressure(p, source(xp, u, v, dx, dy), dx, dy)
    un, vn = u.copy(), v.copy()
    u[c] = u_interior(un, vn, p, dx, dy)
    v[c] = v_interior(un, vn, p, dx, dy)
    periodic(u)
    periodic(v)
    u[0, :] = 0.0
    u[-1, :] = 0.0
    v[0, :] = 0.0
    v[-1, :] = 0.0
    return u, v, p


def main() -> None:
    stepped_app("cfd", __doc__ or "", initial, step, lambda s: s[0], size=400, iterations=10,
                check_size=41, check_steps=5, rtol=1e-10, atol=1e-14, volume=lambda n: n * n)


if __name__ == "__main__":
    main()
