"""Where each application sits against the machine's bandwidth and compute limits (a roofline).

An application states the bytes and the floating-point operations of one iteration of its
ideally fused program (`ideal_bytes`, `ideal_flops` in its RESULT line: each array read and
written once, each operation of the program as written performed once; see
bench/apps/common.py for how math functions count). Its arithmetic intensity is their ratio;
its attained rate, the operations over its time per iteration, fusion off and on. The roofs:
the memory bandwidth run.py measured (NumPy's triad on one core) times the intensity, and the
float64 peak of every core measured by bench/c/peak_flops.c.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Any

PEAK_PROGRAM = Path(__file__).resolve().parent / "c" / "peak_flops.c"
PEAK_FLAGS = ("-O3", "-march=native", "-ffast-math", "-fopenmp")


def peak_flops() -> float | None:
    """Floating-point operations per second of multiply-adds on every core, or None where
    the program cannot be built or run."""
    with tempfile.TemporaryDirectory() as folder:
        program = Path(folder) / "peak_flops"
        try:
            subprocess.run(["cc", *PEAK_FLAGS, "-o", str(program), str(PEAK_PROGRAM)],
                           check=True, capture_output=True, timeout=120)
            ran = subprocess.run([str(program)], check=True, capture_output=True, text=True,
                                 timeout=120)
            return float(ran.stdout.split()[0])
        except (OSError, subprocess.SubprocessError, ValueError, IndexError):
            return None


def points(rows: list[Any]) -> list[tuple[str, float, float, float]]:
    """(label, intensity in flops per byte, GFLOP/s off, GFLOP/s on) of every row that states
    both its bytes and its operations."""
    found = []
    for r in rows:
        if r.ideal_bytes and r.ideal_flops:
            found.append((f"{r.app} {r.size:,}", r.ideal_flops / r.ideal_bytes,
                          r.ideal_flops / r.off_median / 1e9, r.ideal_flops / r.on_median / 1e9))
    return found


def largest(rows: list[Any]) -> list[Any]:
    """Each application's row of its largest size."""
    chosen: dict[str, Any] = {}
    for r in rows:
        if r.app not in chosen or r.size > chosen[r.app].size:
            chosen[r.app] = r
    return list(chosen.values())


def chart(rows: list[Any], bandwidth: float, peak: float | None, path: Path) -> None:
    """The roofline of each application's largest size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    placed = points(largest(rows))
    if not placed:
        return
    fig, ax = plt.subplots(figsize=(9, 6))
    lowest = min(p[1] for p in placed) / 2
    highest = max(p[1] for p in placed) * 2
    roof_top = peak / 1e9 if peak else max(p[3] for p in placed) * 2
    ridge = roof_top / (bandwidth / 1e9)
    xs = [lowest, min(max(ridge, lowest), highest), highest]
    ax.plot(xs, [min(x * bandwidth / 1e9, roof_top) for x in xs], color="black", linewidth=1.2,
            label=f"memory bandwidth {bandwidth / 1e9:.1f} GB/s (triad, one core)"
                  + (f"; peak {roof_top:.0f} GFLOP/s (every core)" if peak else ""))
    for label, intensity, off, on in placed:
        ax.annotate("", xy=(intensity, on), xytext=(intensity, off),
                    arrowprops={"arrowstyle": "->", "color": "#999999", "linewidth": 0.8})
        ax.scatter([intensity], [off], facecolors="none", edgecolors="#c44e52", s=30)
        ax.scatter([intensity], [on], color="#4878a8", s=30)
        ax.annotate(label, (intensity, on), textcoords="offset points", xytext=(4, 3),
                    fontsize=7)
    ax.scatter([], [], facecolors="none", edgecolors="#c44e52", label="fusion off")
    ax.scatter([], [], color="#4878a8", label="fusion on")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity of the ideally fused program (flops per byte)")
    ax.set_ylabel("GFLOP/s (median time per iteration)")
    ax.set_title("legate-fuse roofline, each application's largest size (above the bandwidth "
                 "roof: fusion joined iterations into one pass)", fontsize=9)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
