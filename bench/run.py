"""The benchmark suite in one command: every application, fusion off and on in alternating
processes, at a small and a large size, against the machine's measured memory bandwidth.

    python bench/run.py [--quick] [--repeats N] [--peers numpy] [--large APP=SIZE]
                        [--out bench/results/latest]

Writes results.md (table), results.json, speedups.png and roofline.png (bench/roofline.py) to
the output folder and prints a summary. The default sizes finish within about 20 minutes on a
2-core machine; --quick runs tiny sizes once (used by the tests to prove every application and
the harness run).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import roofline
from ab import compare, run_once
from peers import applies

from legate_fuse.unfused import summary as unfused_summary

APPS = Path(__file__).resolve().parent / "apps"
PEERS = Path(__file__).resolve().parent / "peers.py"

# application: (small size, large size, iterations at the small size, at the large size); quick
# mode uses the small size. A small size runs enough iterations for about half a second of timed
# work without fusion: fewer (a few milliseconds each) would time the first iterations' one-off
# costs (new plans and kernels loaded) and the machine's noise more than the steady loop.
SUITE: dict[str, tuple[int, int, int, int]] = {
    "black_scholes": (10_000, 2_000_000, 80, 3),
    "expression": (10_000, 10_000_000, 400, 5),
    "stream": (10_000, 10_000_000, 400, 5),
    "jacobi2d": (100, 2000, 400, 20),
    "cg": (100, 1000, 150, 20),
    "logreg": (10_000, 1_000_000, 100, 5),
    "cg1d": (2_000, 10_000_000, 200, 10),
    "kmeans": (10_000, 1_000_000, 100, 5),
    "linreg": (10_000, 1_000_000, 150, 10),
    "cfd": (50, 400, 15, 5),
    "shallow_water": (100, 1000, 60, 5),
    "complex_field": (10_000, 4_000_000, 300, 10),
    "jacobi_dense": (500, 9000, 300, 10),
    "stencil_inplace": (200, 3000, 200, 20),
    "exp_chain": (10_000, 10_000_000, 400, 10),
    "log_chain": (10_000, 10_000_000, 400, 10),
    "tanh_chain": (10_000, 10_000_000, 400, 10),
    "sincos_chain": (10_000, 10_000_000, 400, 10),
    "monte_carlo": (100_000, 10_000_000, 100, 5),
    "sparse_cg": (100, 1000, 150, 20),
}
QUICK_SIZES = {"jacobi2d": 30, "cg": 30, "sparse_cg": 30, "cfd": 20, "shallow_water": 30,
               "jacobi_dense": 100, "stencil_inplace": 30}


@dataclass
class Row:
    app: str
    size: int
    iterations: int  # timed, after one warm-up iteration
    off_median: float
    off_min: float
    off_max: float
    on_median: float
    on_min: float
    on_max: float
    ratio_median: float
    ratio_min: float
    ratio_max: float
    rss_off_mb: float
    rss_on_mb: float
    bandwidth_fraction: float | None
    peers: dict[str, float]  # peer -> median seconds per iteration
    fusion: dict[str, Any]
    # With --time-tasks: the statistics of one more fused run with LEGATE_FUSE_TIME_TASKS=1
    # (what ran unfused, with each kind's seconds; not in the timings above).
    timed_fusion: dict[str, Any] | None = None
    # The bytes and floating-point operations of one iteration of the ideally fused program,
    # where the application states them (bench/roofline.py).
    ideal_bytes: int | None = None
    ideal_flops: int | None = None


def stream_triad_bandwidth(n: int = 20_000_000, repeats: int = 5) -> float:
    """Bytes per second of a NumPy triad a = b + s * c (one core), the best of `repeats`."""
    b, c = numpy.ones(n), numpy.full(n, 2.0)
    a = numpy.empty(n)
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        numpy.multiply(c, 3.0, out=a)
        numpy.add(a, b, out=a)
        best = min(best, time.perf_counter() - start)
    return 4 * 8 * n / best  # multiply reads c, writes a; add reads a, b, writes a


def measure(app: str, size: int, iterations: int, repeats: int, peers: list[str],
            bandwidth: float, time_tasks: bool = False) -> Row:
    args = [str(APPS / f"{app}.py"), "--size", str(size), "--iterations", str(iterations)]
    result = compare(args, repeats)
    off, on, ratios = result.seconds("off"), result.seconds("on"), result.ratios()
    ideal = result.on[-1].get("ideal_bytes")
    peer_medians: dict[str, float] = {}
    for peer in peers:
        if peer == "numpy":
            command = [*args, "--numpy"]
        elif applies(peer, app):
            command = [str(PEERS), peer, app, "--size", str(size), "--iterations",
                       str(iterations)]
        else:
            continue  # this peer does not apply to this application
        peer_medians[peer] = statistics.median(
            run_once(command, "off")["seconds_per_iteration"] for _ in range(repeats))
    return Row(
        app, size, iterations, statistics.median(off), min(off), max(off),
        statistics.median(on), min(on), max(on),
        statistics.median(ratios), min(ratios), max(ratios),
        statistics.median(r["peak_rss_mb"] for r in result.off),
        statistics.median(r["peak_rss_mb"] for r in result.on),
        ideal / statistics.median(on) / bandwidth if ideal else None,
        peer_medians, result.on[-1]["fusion"] or {},
        run_once(args, "on", {"LEGATE_FUSE_TIME_TASKS": "1"})["fusion"] if time_tasks else None,
        ideal, result.on[-1].get("ideal_flops"),
    )


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def legate_config() -> str:
    """The Legate configuration the runs get: the environment's, else the one this environment
    sets at start-up (scripts/host_site_module.py), else Legate's own choice."""
    given = os.environ.get("LEGATE_CONFIG")
    if given is not None:
        return given or "Legate's automatic configuration"
    probe = subprocess.run([sys.executable, "-c",
                            "import os; print(os.environ.get('LEGATE_CONFIG', ''))"],
                           capture_output=True, text=True, timeout=60)
    return probe.stdout.strip() or "Legate's automatic configuration"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(ln.split(":", 1)[1].strip() for ln in info if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import os

    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def table(rows: list[Row], bandwidth: float, peak: float | None) -> str:
    lines = [
        "| application | size | iterations | off s/iter (min-max) | on s/iter (min-max) "
        "| speedup (min-max) | peak RSS off / on MiB | fused launches | temporaries | bandwidth "
        "| peers s/iter | ran unfused (most) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        fraction = f"{r.bandwidth_fraction:.0%}" if r.bandwidth_fraction is not None else ""
        peer = ", ".join(f"{name} {seconds:.4g}" for name, seconds in r.peers.items())
        lines.append(
            f"| {r.app} | {r.size:,} | {r.iterations} "
            f"| {r.off_median:.4g} ({r.off_min:.4g}-{r.off_max:.4g}) "
            f"| {r.on_median:.4g} ({r.on_min:.4g}-{r.on_max:.4g}) "
            f"| {r.ratio_median:.2f}x ({r.ratio_min:.2f}-{r.ratio_max:.2f}) "
            f"| {r.rss_off_mb:.0f} / {r.rss_on_mb:.0f} | {r.fusion.get('fused_launches', '')} "
            f"| {r.fusion.get('temporaries_eliminated', '')} | {fraction} | {peer} "
            f"| {unfused_summary((r.timed_fusion or r.fusion).get('unfused') or {})} |")
    lines.append("")
    lines.append(f"Measured memory bandwidth (NumPy STREAM triad, one core): "
                 f"{bandwidth / 1e9:.1f} GB/s. Bandwidth: bytes the ideally fused program moves "
                 "per iteration / fused time per iteration, as a fraction of it; over 100% "
                 "where fusion joined consecutive iterations into one pass over the arrays.")
    if peak:
        lines.append(f"Measured float64 peak (bench/c/peak_flops.c, every core): "
                     f"{peak / 1e9:.0f} GFLOP/s; roofline.png places each application's "
                     "largest size against it and the bandwidth (bench/roofline.py).")
    return "\n".join(lines)


def chart(rows: list[Row], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{r.app}\n{r.size:,}" for r in rows]
    ratios = [r.ratio_median for r in rows]
    errors = [[r.ratio_median - r.ratio_min for r in rows], [r.ratio_max - r.ratio_median
                                                             for r in rows]]
    fig, ax = plt.subplots(figsize=(max(8, len(rows) * 0.8), 4.5))
    ax.bar(range(len(rows)), ratios, yerr=errors, color="#4878a8", capsize=3)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(rows)), labels, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("speedup, fusion on vs off (median, min-max)")
    ax.set_title("legate-fuse speedups")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, one pair each")
    parser.add_argument("--repeats", type=int, default=3, help="off/on pairs per measurement")
    parser.add_argument("--peers", default="",
                        help="comma-separated peers: numpy, numexpr, jax, dask (installed "
                             "into the environment when asked), c (hand-written, compiled)")
    parser.add_argument("--apps", default=",".join(SUITE), help="comma-separated applications")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "latest"))
    parser.add_argument("--no-chart", action="store_true")
    parser.add_argument("--time-tasks", action="store_true",
                        help="one more fused run per measurement with LEGATE_FUSE_TIME_TASKS=1, "
                             "whose seconds per kind run unfused the table shows")
    parser.add_argument("--large", action="append", default=[], metavar="APP=SIZE",
                        help="another large size for an application (repeatable), e.g. "
                             "black_scholes=10000000")
    args = parser.parse_args()
    peers = [p for p in args.peers.split(",") if p]
    large_sizes = dict(item.split("=", 1) for item in args.large)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for app in args.apps.split(","):
        subprocess.run([sys.executable, str(APPS / f"{app}.py"), "--check"], check=True,
                       capture_output=True)
    bandwidth = stream_triad_bandwidth(2_000_000 if args.quick else 20_000_000)
    peak = roofline.peak_flops()
    rows = []
    for app in args.apps.split(","):
        small, large, small_iterations, large_iterations = SUITE[app]
        large = int(large_sizes.get(app, large))
        runs = ([(QUICK_SIZES.get(app, small), 2)] if args.quick
                else [(small, small_iterations), (large, large_iterations)])
        for size, iterations in runs:
            rows.append(measure(app, size, iterations, 1 if args.quick else args.repeats, peers,
                                bandwidth, args.time_tasks))
            print(f"{app} {size:,}: {rows[-1].ratio_median:.2f}x", flush=True)
    report = table(rows, bandwidth, peak)
    for label, picked in (("small", rows[0::2]), ("large", rows[1::2])):
        if picked and not args.quick:
            report += (f"\n\nGeometric mean speedup, {label} sizes: "
                       f"{geometric_mean([r.ratio_median for r in picked]):.2f}x")
    # Settings of the caller's passed on to every run (LEGATE_FUSE_MATH=fast, ...).
    settings = " ".join(f"{k}={v}" for k, v in sorted(os.environ.items())
                        if k.startswith("LEGATE_FUSE_"))
    header = (f"# legate-fuse benchmarks\n\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; "
              f"{machine()}; LEGATE_CONFIG: {legate_config()}; "
              f"{'settings: ' + settings + '; ' if settings else ''}{args.repeats} alternating "
              "off/on pairs after a warm-up of each.\n\n")
    (out / "results.md").write_text(header + report + "\n")
    (out / "results.json").write_text(json.dumps([asdict(r) for r in rows], indent=1))
    if not args.no_chart:
        chart(rows, out / "speedups.png")
        roofline.chart(rows, bandwidth, peak, out / "roofline.png")
    print(report)
    print(f"\nwritten to {out} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
