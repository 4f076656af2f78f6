"""A complex field rotated, shifted and relaxed towards its previous value every step, in
complex128: products and sums of complex numbers (a damped, driven rotation of a wave field).

    python bench/apps/complex_field.py --size 4000000 --iterations 10
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app

ROTATION = complex(numpy.cos(0.1), numpy.sin(0.1))


def initial(xp: Any, n: int) -> tuple[Any, Any]:
    phase = numpy.linspace(0.0, 2.0 * numpy.pi, n)
    field = numpy.exp(1j * phase)
    drive = 0.01 * numpy.exp(-3j * phase)
    return xp.array(field), xp.array(drive)


def step(xp: Any, state: tuple[Any, Any]) -> tuple[Any, Any]:
    z, c = state
    return (z * ROTATION + c) * 0.5 + z * 0.5, c


def main() -> None:
    stepped_app("complex_field", __doc__ or "", initial, step, lambda s: s[0].real,
                size=4_000_000, iterations=10, check_size=1000, check_steps=5, rtol=1e-12,
                ideal_bytes=lambda n: 3 * 16 * n,
                # a complex product (6), three complex sums (2 each), two real scalings (2 each)
                ideal_flops=lambda n: 16 * n)


if __name__ == "__main__":
    main()
