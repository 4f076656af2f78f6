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


def parse_args(description: str, size: int, iterations: int) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--size", type=int, default=size, help="problem size")
    parser.add_argument("--iterations", type=int, default=iterations, help="timed iterations")
    parser.add_argument("--warmup", type=int, default=1, help="untimed iterations first")
    parser.add_argument("--check", action="store_true",
                        help="check the answer against NumPy on a small size and exit")
    parser.add_argument("--numpy", action="store_true",
                        help="run with NumPy instead of cuPyNumeric (the peer users start from)")
    return parser.parse_args()


def array_module(args: argparse.Namespace) -> Any:
    if args.numpy:
        import numpy

        return numpy
    import cupynumeric

    return cupynumeric


def peak_rss_mb() -> float:
    """Peak resident memory of this process (Legate runs inside it), in MiB."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def fusion_stats() -> dict[str, Any] | None:
    if os.environ.get("LEGATE_FUSE", "0") in ("", "0") or "legate_fuse" not in sys.modules:
        return None
    import legate_fuse

    return legate_fuse.stats()


def timed(step: Callable[[State], State], state: State, sync: Callable[[State], float],
          iterations: int, warmup: int) -> tuple[float, float]:
    """Seconds per iteration of `step`, measured up to the moment the final state reached Python
    (`sync` reads it back, so all submitted work is included). Each iteration's result feeds the
    next, so every iteration's work is needed for the answer and none can be skipped.
    Returns (seconds per iteration, checksum)."""
    for _ in range(warmup):
        state = step(state)
    if warmup:
        sync(state)
    start = time.perf_counter()
    for _ in range(iterations):
        state = step(state)
    checksum = sync(state)
    elapsed = time.perf_counter() - start
    return elapsed / max(iterations, 1), checksum


def report(app: str, size: int, iterations: int, seconds: float, checksum: float,
           **extra: Any) -> None:
    payload = {"app": app, "size": size, "iterations": iterations,
               "seconds_per_iteration": seconds, "checksum": checksum,
               "peak_rss_mb": peak_rss_mb(), "fusion": fusion_stats(), **extra}
    print("RESULT " + json.dumps(payload), flush=True)
