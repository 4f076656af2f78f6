"""LEGATE_FUSE_TIME_TASKS=1 (task_timer.py): every task that ran unfused is timed, by kind,
whatever path it ran by, and so is every fused launch; the program's results do not change.
Each case in a fresh process, as a user sets the variable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import legate_fuse
from legate_fuse.session import Session

# A sort (no lifting knows it: built at once), a division kept alone by a legality rule (run as
# built from a planned window), element-wise work that fuses, and reads that end the windows.
PROGRAM = """
import numpy, cupynumeric as np

def step(xp, a):
    ordered = xp.sort(a)
    scaled = xp.abs(xp.exp(ordered * 0.5) * 3.0 - 1.0)
    return scaled / scaled.max()

values = numpy.random.default_rng(5).uniform(-1.0, 1.0, 200_000)
a, expected = np.array(values), values
for _ in range(6):
    a, expected = step(np, a), step(numpy, expected)
    # (NumPy's own exp differs from the C library's by an ulp on machines with AVX-512.)
    assert numpy.allclose(numpy.asarray(a), expected, rtol=1e-12, atol=0.0)
print("results match NumPy's")
"""


def statistics(**env: str) -> dict[str, Any]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Each kernel compiled before its group's first launch: fused from the first window.
    environ["LEGATE_FUSE_COMPILE"] = "wait"
    environ.update(LEGATE_FUSE="1", LEGATE_FUSE_STATS="json", **env)
    result = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                            env=environ, timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    assert "results match NumPy's" in result.stdout
    (line,) = [ln for ln in result.stderr.splitlines()
               if ln.startswith("legate-fuse statistics {")]
    report: dict[str, Any] = json.loads(line.removeprefix("legate-fuse statistics "))
    return report


def test_every_task_run_unfused_is_timed_by_kind_longest_first() -> None:
    report = statistics(LEGATE_FUSE_TIME_TASKS="1")
    assert report["fused_launches"] >= 6 and report["fused_seconds"] > 0.0
    kinds = report["unfused"]
    assert kinds["cupynumeric.SORT"]["why"].get("not lifted", 0) >= 6
    assert any(reason.startswith("alone:") for reason in kinds["cupynumeric.BINARY_OP"]["why"])
    # Every kind that ran unfused took time: none of its paths went untimed.
    untimed = [name for name, entry in kinds.items() if not entry["seconds"] > 0.0]
    assert not untimed, kinds
    seconds = [entry["seconds"] for entry in kinds.values()]
    assert seconds == sorted(seconds, reverse=True)


def test_timing_while_fusion_does_not_pay_keeps_every_task_behind_the_plugin() -> None:
    # Steps aside after the first task built at once, were it not timing: tasks handed to
    # Legate without the plugin could not be timed.
    report = statistics(LEGATE_FUSE_TIME_TASKS="1", LEGATE_FUSE_STEP_ASIDE="1")
    assert report["steps_aside"] == 0
    assert all(entry["seconds"] > 0.0 for entry in report["unfused"].values())


def test_untimed_by_default(session: Session) -> None:
    assert not session.config.time_tasks and session.task_timer is None
    values = legate_fuse.stats()
    assert "fused_seconds" not in values
    assert all("seconds" not in entry for entry in values["unfused"].values())
