"""One element-wise expression, d = a*2.0 + b*3.0 - a/4.0, evaluated repeatedly (each
result is an operand of the next evaluation).

    python bench/apps/expression.py --size 10000000 --iterations 5
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import array_module, check_matches_numpy, parse_args, report, timed


def expression(a: Any, b: Any) -> Any:
    return a * 2.0 + b * 3.0 - a / 4.0


def check() -> None:
    a0, b0 = numpy.linspace(0, 1, 1000), numpy.linspace(-1, 1, 1000)
    check_matches_numpy("expression", lambda xp: expression(xp.array(a0), xp.array(b0)))



def main() -> None:
    args = parse_args(__doc__ or "", size=10_000_000, iterations=5)
    if args.check:
        check()
        return
    np = array_module(args)

    a = np.array(numpy.linspace(0.0, 1.0, args.size))
    b = np.array(numpy.linspace(-1.0, 1.0, args.size))
    def step(state: tuple[Any, Any]) -> tuple[Any, Any]:
        a, b = state  # each result feeds the next evaluation
        return b, expression(a, b)

    seconds, checksum = timed(step, (a, b), lambda s: float(s[1][1]) + float(s[1][-1]),
                              args.iterations, args.warmup)
    # Ideally: read a and b, write the result; two products, a quotient, a sum and a difference.
    report("expression", args.size, args.iterations, seconds, checksum,
           ideal_bytes=3 * 8 * args.size, ideal_flops=5 * args.size)


if __name__ == "__main__":
    main()
