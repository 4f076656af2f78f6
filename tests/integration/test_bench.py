"""The benchmark suite's quick mode: every application checks its answer against NumPy, runs
with fusion off and on, and the harness writes its table and chart."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_quick_suite_runs_every_application(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Each kernel compiled before its group's first launch: fused from the first window.
    environ["LEGATE_FUSE_COMPILE"] = "wait"
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--peers", "numpy",
         "--out", str(tmp_path)], capture_output=True, text=True, env=environ, timeout=1800)
    assert result.returncode == 0, result.stderr[-4000:]
    rows = json.loads((tmp_path / "results.json").read_text())
    apps = {row["app"] for row in rows}
    assert apps == {"black_scholes", "expression", "stream", "jacobi2d", "cg", "logreg", "cg1d",
                    "kmeans", "linreg", "cfd", "shallow_water", "complex_field",
                    "jacobi_dense", "stencil_inplace", "exp_chain", "log_chain", "tanh_chain",
                    "sincos_chain", "monte_carlo", "sparse_cg"}
    for row in rows:
        assert row["on_median"] > 0 and row["off_median"] > 0
        assert row["fusion"]["fused_launches"] >= 1, row["app"]
        assert row["peers"]["numpy"] > 0
    table = (tmp_path / "results.md").read_text()
    assert "| black_scholes |" in table and "memory bandwidth" in table
    assert (tmp_path / "speedups.png").stat().st_size > 1000
    # Every application but the two stencil programs states its ideal bytes and operations,
    # and the roofline places it.
    unstated = {row["app"] for row in rows if not (row["ideal_bytes"] and row["ideal_flops"])}
    assert unstated == {"cfd", "shallow_water"}
    assert (tmp_path / "roofline.png").stat().st_size > 1000


def test_time_tasks_adds_the_seconds_of_what_ran_unfused(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Each kernel compiled before its group's first launch: fused from the first window.
    environ["LEGATE_FUSE_COMPILE"] = "wait"
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--apps", "kmeans",
         "--time-tasks", "--no-chart", "--out", str(tmp_path)],
        capture_output=True, text=True, env=environ, timeout=900)
    assert result.returncode == 0, result.stderr[-4000:]
    (row,) = json.loads((tmp_path / "results.json").read_text())
    unfused = row["timed_fusion"]["unfused"]
    products = unfused["cupynumeric.MATMUL"]  # (alone: its iteration shape is its own)
    assert products["tasks"] >= 2 and products["seconds"] > 0.0
    assert row["timed_fusion"]["fused_seconds"] > 0.0
    # The table names the kinds that took longest unfused (which: the machine's noise decides).
    longest = next(iter(unfused)).rpartition(".")[2]
    assert f"{longest} {unfused[next(iter(unfused))]['tasks']:,}, " in (
        tmp_path / "results.md").read_text()
