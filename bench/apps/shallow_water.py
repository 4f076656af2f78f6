"""A 2-D shallow-water solver in the style of TorchSWE: Lax-Friedrichs fluxes for the height
and the two momenta, many element-wise flux and update expressions per step, reflective walls.

    python bench/apps/shallow_water.py --size 1000 --iterations 10
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app

GRAVITY, DT, DX = 9.81, 0.001, 0.1


def initial(xp: Any, n: int) -> tuple[Any, Any, Any]:
    x = numpy.linspace(-1, 1, n)
    bump = 1.0 + 0.1 * numpy.exp(-10 * (x[:, None] ** 2 + x[None, :] ** 2))
    return xp.array(bump), xp.zeros((n, n)), xp.zeros((n, n))


def reflect(q: Any, sign: float = 1.0) -> None:
    q[0, :] = q[1, :]
    q[-1, :] = q[-2, :]
    q[:, 0] = sign * q[:, 1]
    q[:, -1] = sign * q[:, -2]


def lax_friedrichs(q: Any, f: Any, g: Any) -> Any:
    return (0.25 * (q[2:, 1:-1] + q[:-2, 1:-1] + q[1:-1, 2:] + q[1:-1, :-2])
            - DT / (2 * DX) * (f[1:-1, 2:] - f[1:-1, :-2])
            - DT / (2 * DX) * (g[2:, 1:-1] - g[:-2, 1:-1]))


def step(xp: Any, state: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
    h, hu, hv = state
    u, v = hu / h, hv / h
    pressure = 0.5 * GRAVITY * h * h
    new_h, new_hu, new_hv = h.copy(), hu.copy(), hv.copy()
    new_h[1:-1, 1:-1] = lax_friedrichs(h, hu, hv)
    new_hu[1:-1, 1:-1] = lax_friedrichs(hu, hu * u + pressure, hv * u)
    new_hv[1:-1, 1:-1] = lax_friedrichs(hv, hu * v, hv * v + pressure)
    reflect(new_h)
    reflect(new_hu, -1.0)
    reflect(new_hv, -1.0)
    return new_h, new_hu, new_hv


def main() -> None:
    stepped_app("shallow_water", __doc__ or "", initial, step, lambda s: s[0], size=1000,
                iterations=10, check_size=50, check_steps=5, rtol=1e-12,
                volume=lambda n: n * n)


if __name__ == "__main__":
    main()
