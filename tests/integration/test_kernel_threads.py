"""LEGATE_FUSE_THREADS: a large fused CPU kernel runs in parts on the cores Legate's CPU workers
leave (backend/kernel_threads.py, src/cpp/runtime/kernel_threads.*). Each value of the setting
runs the same program in a process of its own: the element-wise results are those of fusion
off bit for bit, a sum too (its operands are folded in element order, as the one pass folds
them), and the parts ran on other threads only where the setting allows it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy
import pytest

from .test_activation import run

PROGRAM = """
import json, numpy, cupynumeric as np, legate_fuse
rng = numpy.random.default_rng(5)
n = 400_000
x = np.array(rng.uniform(-2.0, 2.0, n))
grid = np.array(rng.uniform(-1.0, 1.0, (700, 600)))
for _ in range(2):
    y = np.exp(x * 0.5) - np.sin(x) * 3.0
    total = float((y * 1e3 + x).sum())
    masked = float(np.sum(y * 1e3, where=x > 0.25))
    counted = np.arange(n, dtype=np.float64) * 0.25 + x
    inner = grid[1:-1, 1:-1] * 0.5 + grid[:-2, 1:-1] - grid[2:, 1:-1]
main = [ln for ln in open("/proc/self/status") if ln.startswith("Cpus_allowed_list")]
helpers, classes = [], []
for task in os.listdir("/proc/self/task"):
    if open(f"/proc/self/task/{task}/comm").read().strip() == "lf-kernel":
        helpers += [ln for ln in open(f"/proc/self/task/{task}/status")
                    if ln.startswith("Cpus_allowed_list")]
        classes.append(os.sched_getscheduler(int(task)))
print("RESULT " + json.dumps({
    "arrays": [numpy.asarray(a).tobytes().hex() for a in (y, counted, inner)],
    "total": total.hex(), "masked": masked.hex(), "main": main, "helpers": helpers,
    "helper_classes": classes, "main_class": os.sched_getscheduler(0),
    "stats": legate_fuse.stats()}))
""".replace("import json,", "import os, json,")
ONE_CPU = "--cpus 1 --utility 1 --sysmem 4000 --logging gpu=none"


def run_with(environment: dict[str, str]) -> dict[str, Any]:
    settings = {"LEGATE_CONFIG": ONE_CPU, "LEGATE_AUTO_CONFIG": "0", "LEGATE_FUSE_STATS": "0",
                **environment}
    result = run([sys.executable, "-c", PROGRAM], **settings)
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("RESULT "))
    report: dict[str, Any] = json.loads(line[len("RESULT "):])
    return report


@pytest.fixture(scope="module")
def fusion_off() -> dict[str, Any]:
    return run_with({"LEGATE_FUSE": "0"})


def folded_in_parts(values: numpy.ndarray, part: int) -> float:
    total = 0.0
    for start in range(0, len(values), part):
        part_sum = 0.0
        for value in values[start:start + part].tolist():
            part_sum += value
        total += part_sum
    return total


def cores() -> int:
    return len(os.sched_getaffinity(0))


@pytest.mark.parametrize("threads", ["1", "2", "3", "default"])
def test_results_do_not_depend_on_the_threads(threads: str, fusion_off: dict[str, Any],
                                              tmp_path: Path) -> None:
    environment = {"LEGATE_FUSE": "1", "LEGATE_FUSE_CACHE_DIR": str(tmp_path)}
    if threads != "default":
        environment["LEGATE_FUSE_THREADS"] = threads
    on = run_with(environment)
    stats = on["stats"]
    assert stats["fused_launches"] > 0
    assert on["arrays"] == fusion_off["arrays"], "element-wise results differ from fusion off"
    # The sum is the same bits as fusion off's, whatever the threads: a floating-point
    # reduction into a value folds element after element, as cuPyNumeric's task folds it, its
    # parts' operands in order. (Its terms grow along the array: in parts, it rounds otherwise.)
    assert on["total"] == fusion_off["total"]
    assert on["masked"] == fusion_off["masked"]  # a masked sum folds the elements it keeps
    y = numpy.frombuffer(bytes.fromhex(on["arrays"][0]), dtype=numpy.float64)
    x = numpy.random.default_rng(5).uniform(-2.0, 2.0, len(y))
    assert float.fromhex(on["total"]) != folded_in_parts(y * 1e3 + x, 65_536)
    # One CPU worker: the default is every core this process may use (up to 8).
    expected = min(8, cores()) if threads == "default" else int(threads)
    assert stats["kernel_threads"] == expected
    if expected == 1:
        assert stats["split_kernel_runs"] == 0 and not on["helpers"]
    else:
        assert stats["split_kernel_runs"] > 0
        # A helper runs on any of the process's cores, not on the core of the Legate worker
        # that started it.
        assert on["helpers"] and all(h == on["main"][0] for h in on["helpers"])
        # In the program's own scheduling class: the worker waits for the parts a helper took,
        # so a helper in a lower one would stall the task whenever other processes want the
        # cores.
        assert on["helper_classes"] == [on["main_class"]] * len(on["helpers"])


def test_with_a_worker_per_core_no_kernel_splits(tmp_path: Path) -> None:
    config = f"--cpus {cores()} --utility 1 --sysmem 4000 --logging gpu=none"
    on = run_with({"LEGATE_FUSE": "1", "LEGATE_FUSE_CACHE_DIR": str(tmp_path),
                   "LEGATE_CONFIG": config})
    assert on["stats"]["kernel_threads"] == 1 and on["stats"]["split_kernel_runs"] == 0

