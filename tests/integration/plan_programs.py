"""The programs of DESIGN.md's examples, written as a cuPyNumeric user would, whose plans the
tests compare with the groups derived by hand."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "apps"))
from black_scholes import black_scholes, make_inputs


def chain_inputs(np: Any) -> tuple[Any, Any]:
    return np.array(numpy.linspace(0, 1, 1000)), np.array(numpy.linspace(1, 2, 1000))


def chain(np: Any, a: Any, b: Any) -> Any:
    return a * 2.0 + b * 3.0 - a / 4.0


def jacobi_grids(np: Any, n: int = 32) -> tuple[Any, Any]:
    a, b = np.zeros((n + 2, n + 2)), np.zeros((n + 2, n + 2))
    a[0, :] = 1.0
    return a, b


def jacobi_step(src: Any, dst: Any) -> None:
    dst[1:-1, 1:-1] = 0.25 * (src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:])


def black_scholes_inputs(np: Any, n: int = 1000) -> tuple[Any, ...]:
    return tuple(np.array(v) for v in make_inputs(n, "float64"))


def price(np: Any, inputs: tuple[Any, ...]) -> tuple[Any, Any]:
    return black_scholes(np, *inputs)


def apply_poisson(p: Any) -> Any:
    """The 5-point Laplacian on the interior of a zero-padded grid, matrix-free."""
    return 4.0 * p[1:-1, 1:-1] - p[:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, :-2] - p[1:-1, 2:]


def cg_state(np: Any, m: int = 16) -> dict[str, Any]:
    x, r = np.zeros((m, m)), np.ones((m, m))
    p = np.zeros((m + 2, m + 2))
    p[1:-1, 1:-1] = r
    return {"x": x, "r": r, "p": p, "rsold": np.sum(r * r)}


def cg_until_test(np: Any, s: dict[str, Any]) -> bool:
    """First part of a CG iteration, up to the convergence test (a read back to Python)."""
    pv = s["p"][1:-1, 1:-1]
    ap = apply_poisson(s["p"])
    alpha = s["rsold"] / np.sum(pv * ap)
    s["x"] += alpha * pv
    s["r"] -= alpha * ap
    s["rsnew"] = np.sum(s["r"] * s["r"])
    return bool(np.sqrt(s["rsnew"]) < 1e-10)


def cg_after_test(np: Any, s: dict[str, Any]) -> None:
    pv = s["p"][1:-1, 1:-1]
    pv[:] = s["r"] + (s["rsnew"] / s["rsold"]) * pv
    s["rsold"] = s["rsnew"]


def every_program(np: Any) -> None:
    """The integration programs, Black-Scholes and a CG iteration: most kinds of fused group."""
    from .programs import PROGRAMS

    for program in PROGRAMS.values():
        program(np)
    price(np, black_scholes_inputs(np))
    state = cg_state(np)
    cg_until_test(np, state)
    cg_after_test(np, state)
