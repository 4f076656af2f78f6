"""The overhead streams' applications (bench/overhead.py): each checks its answer against
NumPy, and runs with fusion on, reporting its time per task."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

APPS = Path(__file__).resolve().parents[2] / "bench" / "apps"


def run(app: str, *args: str, fusion: str = "0") -> str:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Each kernel compiled before its group's first launch: fused from the first window.
    environ["LEGATE_FUSE_COMPILE"] = "wait"
    result = subprocess.run([sys.executable, str(APPS / app), *args], capture_output=True,
                            text=True, env={**environ, "LEGATE_FUSE": fusion}, timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    return result.stdout


@pytest.mark.parametrize("app", ["small_ops.py", "opaque_ops.py", "readback_ops.py"])
def test_an_overhead_stream_matches_numpy_and_runs_fused(app: str) -> None:
    assert "answer matches NumPy" in run(app, "--check")
    line = next(text for text in run(app, "--size", "100", "--iterations", "3",
                                     fusion="1").splitlines() if text.startswith("RESULT "))
    result = json.loads(line.removeprefix("RESULT "))
    assert result["seconds_per_task"] > 0 and result["fusion"]["tasks_seen"] > 0
