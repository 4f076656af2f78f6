"""Black-Scholes pricing of European call and put options, as a cuPyNumeric user writes it.

    python bench/apps/black_scholes.py --size 1000000 --iterations 10
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import MATH_FLOPS, array_module, parse_args, report, timed

RISK_FREE = 0.02
VOLATILITY = 0.30
RATE_STEP = 1e-5  # between the rates of two successive pricings


def normal_cdf(xp: Any, d: Any) -> Any:
    """Abramowitz-Stegun polynomial approximation of the standard normal CDF."""
    a1, a2, a3, a4, a5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
    rsqrt2pi = 0.39894228040143267793994605993438
    k = 1.0 / (1.0 + 0.2316419 * xp.abs(d))
    poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))))
    tail = rsqrt2pi * xp.exp(-0.5 * d * d) * poly
    return xp.where(d > 0, 1.0 - tail, tail)


def black_scholes(xp: Any, price: Any, strike: Any, years: Any,
                  rate: float = RISK_FREE) -> tuple[Any, Any]:
    sqrt_t = xp.sqrt(years)
    d1 = (xp.log(price / strike) + (rate + 0.5 * VOLATILITY * VOLATILITY) * years) / (
        VOLATILITY * sqrt_t
    )
    d2 = d1 - VOLATILITY * sqrt_t
    cnd_d1 = normal_cdf(xp, d1)
    cnd_d2 = normal_cdf(xp, d2)
    discount = xp.exp(-rate * years)
    call = price * cnd_d1 - strike * discount * cnd_d2
    put = strike * discount * (1.0 - cnd_d2) - price * (1.0 - cnd_d1)
    return call, put


def scenario_rates() -> Iterator[float]:
    """The risk-free rate of each pricing in turn: the options are priced under a sweep of
    rates, one per iteration, as a risk scenario run does."""
    return (RISK_FREE + RATE_STEP * k for k in itertools.count())


def make_inputs(n: int, dtype: str, xp: Any = numpy) -> tuple[Any, ...]:
    """Options spread evenly over the ranges (the additive recurrence of the plastic number, a
    low-discrepancy sequence), computed where the pricing runs: no host copies, and the same
    values whatever the partitioning (a random generator's streams depend on it)."""
    i = xp.arange(n, dtype=dtype)

    def spread(alpha: float, low: float, high: float) -> Any:
        return low + (high - low) * ((i * alpha + 0.5) % 1.0)

    price = spread(0.8191725133961645, 5.0, 30.0)
    strike = spread(0.6710436067037893, 1.0, 100.0)
    years = spread(0.5497004779019703, 0.25, 10.0)
    return price, strike, years


def check() -> None:
    import cupynumeric

    for dtype in ("float64", "float32"):
        host = make_inputs(10_000, dtype)
        price, strike, years = (cupynumeric.array(a) for a in host)
        call, put = black_scholes(cupynumeric, price, strike, years)
        want_call, want_put = black_scholes(numpy, host[0], host[1], host[2])
        # Prices are O(1-100); float32 differences come from cancellation in call/put.
        rtol, atol = (1e-12, 1e-12) if dtype == "float64" else (1e-5, 1e-4)
        numpy.testing.assert_allclose(numpy.asarray(call), want_call, rtol=rtol, atol=atol)
        numpy.testing.assert_allclose(numpy.asarray(put), want_put, rtol=rtol, atol=atol)
    print("black_scholes: answer matches NumPy")


def main() -> None:
    args = parse_args(__doc__ or "", size=1_000_000, iterations=10)
    if args.check:
        check()
        return
    np = array_module(args)

    price, strike, years = make_inputs(args.size, "float64", np)

    rates = scenario_rates()

    def step(total: Any) -> Any:
        # Every pricing contributes to the running total, so none of them can be skipped; each
        # is under its own rate, so no two compute the same values.
        call, put = black_scholes(np, price, strike, years, next(rates))
        return total + (call + put)

    seconds, checksum = timed(step, np.zeros(args.size), lambda total: float(total.sum()),
                              args.iterations, args.warmup)
    # Ideally: read the three inputs and the total, write the total; per option, 59
    # operations besides three exps and a log (each normal CDF 19 and an exp).
    report("black_scholes", args.size, args.iterations, seconds, checksum,
           ideal_bytes=5 * 8 * args.size,
           ideal_flops=(59 + 3 * MATH_FLOPS["exp"] + MATH_FLOPS["log"]) * args.size)


if __name__ == "__main__":
    main()
