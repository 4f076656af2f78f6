"""What every benchmark application shares: arguments, timing, and a machine-readable report.

An application prints one line `RESULT {json}` with its seconds per iteration, a checksum of
its answer and, when fusion is on, the fusion statistics.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

State = TypeVar("State")

# Floating-point operations of a math function on one element, as applications count their
# `ideal_flops` for the roofline (bench/roofline.py): those of the common path of its vector
# form (src/cpp/codegen/vector_*.cc, glibc's algorithm), a multiply-add as two, rounded.
MATH_FLOPS = {"exp": 20, "log": 27, "tanh": 45, "sin": 40, "cos": 40}


def parse_args(description: str, size: int, iterations: int) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--size", type=int, default=size, help="problem size")
    parser.add_argument("--iterations", type=int, default=iterations, help="timed iterations")
    parser.add_argument("--warmup", type=int, default=1, help="untimed iterations first")
    parser.add_argument("--check", action="store_true",
                        help="check the answer against NumPy on a small size and exit")
    parser.add_argument("--numpy", action="store_true",
                        help="run with NumPy instead of cuPyNumeric (the peer users start from)")
    parser.add_argument("--read-every", type=int, default=0, metavar="N",
                        help="a stepped application reads one value of its answer back every "
                        "N steps, as a progress print or a convergence test would (default: "
                        "only at the end)")
    return parser.parse_args()


def array_module(args: argparse.Namespace) -> Any:
    if args.numpy:
        import numpy

        return numpy
    import cupynumeric

    return cupynumeric


def check_matches_numpy(app: str, run: Callable[[Any], Any], rtol: float = 0.0,
                        atol: float = 0.0) -> None:
    """Runs `run(xp)` with cuPyNumeric and with NumPy and compares the answers (exactly when
    no tolerance is given)."""
    import cupynumeric
    import numpy

    got, want = numpy.asarray(run(cupynumeric)), numpy.asarray(run(numpy))
    if rtol or atol:
        numpy.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
    else:
        numpy.testing.assert_array_equal(got, want)
    print(f"{app}: answer matches NumPy")


def peak_rss_mb() -> float:
    """Peak resident memory of this process (Legate runs inside it), in MiB."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def fusion_stats() -> dict[str, Any] | None:
    if os.environ.get("LEGATE_FUSE", "0") in ("", "0") or "legate_fuse" not in sys.modules:
        return None
    import legate_fuse

    return legate_fuse.stats()


# The main thread's CPU seconds per iteration of the last `timed` loop, for `report`: where the
# plugin's own work is done (Legate's workers and their waits are not counted in it).
_last_cpu_seconds: list[float] = []


def timed(step: Callable[[State], State], state: State, sync: Callable[[State], float],
          iterations: int, warmup: int) -> tuple[float, float]:
    """Seconds per iteration of `step`, measured up to the moment the final state reached Python
    (`sync` reads it back, so all submitted work is included). Each iteration's result feeds the
    next, so every iteration's work is needed for the answer and none can be skipped.
    Returns (seconds per iteration, checksum); the main thread's CPU time per iteration over
    the same span goes into the report."""
    for _ in range(warmup):
        state = step(state)
    if warmup:
        sync(state)
    start, start_cpu = time.perf_counter(), time.thread_time()
    for _ in range(iterations):
        state = step(state)
    checksum = sync(state)
    elapsed = time.perf_counter() - start
    _last_cpu_seconds[:] = [(time.thread_time() - start_cpu) / max(iterations, 1)]
    return elapsed / max(iterations, 1), checksum


def report(app: str, size: int, iterations: int, seconds: float, checksum: float,
           **extra: Any) -> None:
    payload = {"app": app, "size": size, "iterations": iterations,
               "seconds_per_iteration": seconds, "checksum": checksum,
               "peak_rss_mb": peak_rss_mb(), "fusion": fusion_stats(), **extra}
    if _last_cpu_seconds:
        payload["cpu_seconds_per_iteration"] = _last_cpu_seconds[0]
    print("RESULT " + json.dumps(payload), flush=True)


def stepped_app(name: str, doc: str, initial: Callable[[Any, int], State],
                step: Callable[[Any, State], State], answer: Callable[[State], Any], *,
                size: int, iterations: int, check_size: int, check_steps: int,
                rtol: float = 0.0, atol: float = 0.0,
                volume: Callable[[int], int] = lambda n: n,
                ideal_bytes: Callable[[int], int] | None = None,
                ideal_flops: Callable[[int], int] | None = None) -> None:
    """The command line of an application that advances a state step by step: `--check`
    compares `answer` after `check_steps` steps with NumPy's, otherwise the steps are timed."""
    args = parse_args(doc, size=size, iterations=iterations)
    if args.check:
        def run(xp: Any) -> Any:
            state = initial(xp, check_size)
            for _ in range(check_steps):
                state = step(xp, state)
            return answer(state)

        check_matches_numpy(name, run, rtol=rtol, atol=atol)
        return
    xp = array_module(args)
    n = args.size
    steps = 0

    def stepped(state: State) -> State:
        nonlocal steps
        state = step(xp, state)
        steps += 1
        if steps % args.read_every == 0:
            value = answer(state)
            float(value[(0,) * value.ndim])
        return state

    # (Without --read-every, the steps timed are the application's own, as before.)
    advance = stepped if args.read_every else (lambda s: step(xp, s))
    seconds, checksum = timed(advance, initial(xp, n), lambda s: float(xp.sum(answer(s))),
                              args.iterations, args.warmup)
    extra = {"ideal_bytes": ideal_bytes(n)} if ideal_bytes is not None else {}
    if ideal_flops is not None:
        extra["ideal_flops"] = ideal_flops(n)
    report(name, volume(n), args.iterations, seconds, checksum, **extra)
