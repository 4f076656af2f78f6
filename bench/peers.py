"""Peers of the functional applications (Black-Scholes, the expression): the same computation
with numexpr (fused element-wise evaluation on the CPU), with JAX `jit` on the CPU (XLA
fusion) and with Dask arrays (a distributed engine; each iteration computed and persisted);
Black-Scholes also as hand-written C (`c`: OpenMP on every core, glibc's vector math). JAX also
runs every stepped application (bench/jax_peer.py), numexpr STREAM and the exp and log chains.
Optional: installed by the harness only when asked (`bench/run.py --peers ...`).

    python bench/peers.py numexpr black_scholes --size 1000000 --iterations 3
Prints one RESULT line like the applications.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent / "apps"))
from black_scholes import VOLATILITY, make_inputs, scenario_rates
from jax_peer import APPS as JAX_APPS
from jax_peer import run as run_jax

PACKAGES = {"numexpr": "numexpr", "jax": "jax[cpu]", "dask": "dask[array]"}
DASK_CHUNK = 1_000_000  # elements per chunk
APPS = ("black_scholes", "expression")
# Hand-written C (bench/c/), compiled with the system's compiler: the bound of this machine.
C_PROGRAMS = {"black_scholes": Path(__file__).resolve().parent / "c" / "black_scholes.c"}
C_FLAGS = ("-O3", "-march=native", "-ffast-math", "-fopenmp")


def applies(peer: str, app: str) -> bool:
    """Whether `peer` has a version of `app`."""
    if (peer == "jax" and app in JAX_APPS) or (peer == "numexpr" and app in NUMEXPR_STEPPED):
        return True
    return app in (C_PROGRAMS if peer == "c" else APPS)


def run_c(app: str, size: int, iterations: int) -> None:
    """Compiles the C version of `app` and runs it; it prints its own RESULT line."""
    with tempfile.TemporaryDirectory() as folder:
        program = Path(folder) / app
        subprocess.run(["cc", *C_FLAGS, "-o", str(program), str(C_PROGRAMS[app]), "-lm"],
                       check=True)
        subprocess.run([str(program), str(size), str(iterations)], check=True)


def ensure_installed(peer: str) -> None:
    try:
        __import__(peer)
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", PACKAGES[peer]],
                       check=True)


def numexpr_black_scholes(n: int) -> Callable[[Any], Any]:
    import numexpr

    price, strike, years = make_inputs(n, "float64")
    v = VOLATILITY
    tail = ("0.39894228040143267793994605993438 * exp(-0.5 * d * d) * (k * (0.31938153 + k * "
            "(-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))))")

    def cnd(d: Any) -> Any:
        k = numexpr.evaluate("1.0 / (1.0 + 0.2316419 * abs(d))", local_dict={"d": d})
        return numexpr.evaluate(f"where(d > 0, 1.0 - {tail}, {tail})",
                                local_dict={"d": d, "k": k})

    rates = scenario_rates()

    def step(total: Any) -> Any:
        # The rate is a variable of the expressions: one compilation for every rate.
        inputs = {"price": price, "strike": strike, "years": years, "r": next(rates)}
        d1 = numexpr.evaluate(f"(log(price / strike) + (r + 0.5 * {v} * {v}) * years) / "
                              f"({v} * sqrt(years))", local_dict=inputs)
        d2 = numexpr.evaluate(f"d1 - {v} * sqrt(years)", local_dict={"d1": d1, **inputs})
        values = {"c1": cnd(d1), "c2": cnd(d2), "total": total, **inputs}
        return numexpr.evaluate(
            "total + (price * c1 - strike * exp(-r * years) * c2) + "
            "(strike * exp(-r * years) * (1.0 - c2) - price * (1.0 - c1))", local_dict=values)

    return step


def numexpr_stepped(app: str, n: int) -> tuple[Any, Callable[[Any], Any]]:
    """The state and step of a stepped application numexpr expresses (NUMEXPR_STEPPED), its
    state the application's own: each expression evaluated into the memory of the array it
    replaces, as the application writes into its arrays."""
    import importlib

    import numexpr

    module = importlib.import_module(app)
    if app == "stream":
        scalar = {"scalar": module.SCALAR}

        def stream_step(state: Any) -> Any:
            a, b, c = state
            numexpr.evaluate("a", out=c)
            numexpr.evaluate("scalar * c", local_dict={"c": c, **scalar}, out=b)
            numexpr.evaluate("a + b", out=c)
            numexpr.evaluate("b + scalar * c", local_dict={"b": b, "c": c, **scalar}, out=a)
            return a, b, c

        return module.initial(numpy, n), stream_step
    expression = NUMEXPR_CHAINS[app]

    def chain_step(state: Any) -> Any:
        s, total, k = state
        numexpr.evaluate(expression, local_dict={"s": s, "total": total, "k": float(k)},
                         out=total)
        return s, total, k + 1

    return module.initial(numpy, n), chain_step


# The chains' step, with the new width, scale, gain or frequency of iteration k
# (bench/apps/*_chain.py).
NUMEXPR_CHAINS = {"exp_chain": "total + exp(-(0.5 + 1e-6 * k) * s * s)",
                  "log_chain": "total + log(s / (3.0 + 1e-6 * k))",
                  "tanh_chain": "total + tanh((0.5 + 1e-6 * k) * s)",
                  "sincos_chain": "total + sin((1.0 + 1e-6 * k) * s) * cos((1.0 + 1e-6 * k) * s)"}
NUMEXPR_STEPPED = ("stream", *NUMEXPR_CHAINS)


def jax_black_scholes(n: int) -> Callable[[Any], Any]:
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    from black_scholes import black_scholes

    price, strike, years = (jnp.asarray(a) for a in make_inputs(n, "float64"))
    rates = scenario_rates()

    # The running total is donated: its buffer takes the new total, as an expert JAX user
    # would have it (without, XLA writes each result into fresh memory the system must map).
    @partial(jax.jit, donate_argnums=0)
    def priced(total: Any, price: Any, strike: Any, years: Any, rate: Any) -> Any:
        call, put = black_scholes(jnp, price, strike, years, rate)
        return total + (call + put)

    def step(total: Any) -> Any:
        # The options and the rate are arguments of the compiled function, as the arrays of a
        # JAX program are: as constants of the function, XLA would compute every value that
        # depends on them alone while compiling, once.
        return priced(total, price, strike, years, jnp.float64(next(rates)))

    return step


def dask_black_scholes(n: int) -> Callable[[Any], Any]:
    import dask.array as da
    from black_scholes import black_scholes

    price, strike, years = (da.from_array(a, chunks=DASK_CHUNK)
                            for a in make_inputs(n, "float64"))

    rates = scenario_rates()

    def step(total: Any) -> Any:
        call, put = black_scholes(da, price, strike, years, next(rates))
        return (total + (call + put)).persist()

    return step


def expression_step(peer: str) -> Callable[[Any], Any]:
    if peer == "dask":
        def dask_step(state: Any) -> Any:
            a, b = state
            return b, (a * 2.0 + b * 3.0 - a / 4.0).persist()

        return dask_step
    if peer == "numexpr":
        import numexpr

        def ne_step(state: Any) -> Any:
            a, b = state
            return b, numexpr.evaluate("a * 2.0 + b * 3.0 - a / 4.0", local_dict={"a": a, "b": b})

        return ne_step
    import jax

    jax.config.update("jax_enable_x64", True)

    @partial(jax.jit, donate_argnums=0)  # (the state's buffers hold the next state's)
    def jax_step(state: Any) -> Any:
        a, b = state
        return b, a * 2.0 + b * 3.0 - a / 4.0

    return jax_step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("peer", choices=sorted([*PACKAGES, "c"]))
    parser.add_argument("app", choices=sorted({*APPS, *JAX_APPS, *NUMEXPR_STEPPED}))
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--iterations", type=int, default=3)
    args = parser.parse_args()
    if not applies(args.peer, args.app):
        parser.error(f"{args.peer} has no version of {args.app}")
    if args.peer == "c":
        run_c(args.app, args.size, args.iterations)
        return
    ensure_installed(args.peer)
    n = args.size
    if args.peer == "jax" and args.app in JAX_APPS:
        seconds, checksum = run_jax(args.app, n, args.iterations)
        print("RESULT " + json.dumps({"app": f"{args.app}[jax]", "size": n,
                                      "seconds_per_iteration": seconds, "checksum": checksum}))
        return
    if args.peer == "numexpr" and args.app in NUMEXPR_STEPPED:
        state, step = numexpr_stepped(args.app, n)
    elif args.app == "black_scholes":
        makers = {"numexpr": numexpr_black_scholes, "jax": jax_black_scholes,
                  "dask": dask_black_scholes}
        step = makers[args.peer](n)
        state: Any = numpy.zeros(n)
    else:
        step = expression_step(args.peer)
        state = (numpy.linspace(0.0, 1.0, n), numpy.linspace(-1.0, 1.0, n))
    if args.peer == "jax":
        import jax.numpy as jnp

        state = jax_tree(state, jnp.asarray)
    if args.peer == "dask":
        import dask.array as da

        state = jax_tree(state, lambda a: da.from_array(a, chunks=DASK_CHUNK))
    state = step(state)  # warm-up (compiles)
    start = time.perf_counter()
    for _ in range(args.iterations):
        state = step(state)
    final = (state if args.app == "black_scholes" else
             state[0] if args.app == "stream" else state[1])
    checksum = float(numpy.asarray(final).sum())
    seconds = (time.perf_counter() - start) / args.iterations
    print("RESULT " + json.dumps({"app": f"{args.app}[{args.peer}]", "size": n,
                                  "seconds_per_iteration": seconds, "checksum": checksum}))


def jax_tree(state: Any, convert: Callable[[Any], Any]) -> Any:
    """Applies `convert` to the state's arrays (a tuple of them, or one)."""
    return tuple(convert(s) for s in state) if isinstance(state, tuple) else convert(state)


if __name__ == "__main__":
    main()
