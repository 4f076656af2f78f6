"""Every process issues the same fused tasks, whatever its hardware and cache folder.

Under Legate's control replication every rank must issue identical tasks. A fused task names
its kernel by a content hash of the kernel's specification; each process builds (or finds in
its own cache) the kernel for its own CPU and registers it under that hash. Two processes with
different cache folders and different (simulated) CPU identities must therefore launch
byte-identical task arguments."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

CHILD = f"""
import json, os, sys
sys.path.insert(0, {str(ROOT)!r})
from legate_fuse.backend import compiler

# A CPU identity of its own: it is part of the kernel cache's key, never of a task argument.
compiler.machine_identity = lambda: os.environ["SIMULATED_CPU"]

import cupynumeric as np
import legate_fuse
from legate_fuse.backend import fuser
from tests.integration import plan_programs

launches = []
build = fuser.build_fused_task

def recording(runtime, kernel_id, args, scalars, provenance, products=(), *more):
    # Everything the fused task receives, stores by role, type and shape (their storage ids are
    # the runtime's own numbering, the same on every rank).
    launches.append({{"kernel": kernel_id, "scalars": scalars.hex(), "name": provenance,
                     "args": [[role, redop, str(store.type), list(store.shape)]
                              for store, role, redop in args], "products": list(products)}})
    return build(runtime, kernel_id, args, scalars, provenance, products, *more)

fuser.build_fused_task = recording
plan_programs.every_program(np)
legate_fuse.flush()
print("LAUNCHES " + json.dumps(launches))
"""


def launches_of(cache: Path, cpu: str) -> list[dict[str, Any]]:
    environ = dict(os.environ, LEGATE_FUSE="1", LEGATE_FUSE_COMPILE="wait",
                   LEGATE_FUSE_CACHE_DIR=str(cache),
                   SIMULATED_CPU=cpu)
    result = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                            env=environ, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    (line,) = [x for x in result.stdout.splitlines() if x.startswith("LAUNCHES ")]
    launches: list[dict[str, Any]] = json.loads(line.removeprefix("LAUNCHES "))
    return launches


def test_two_processes_issue_identical_fused_tasks(tmp_path: Path) -> None:
    first_cache, second_cache = tmp_path / "rank0-cache", tmp_path / "rank1-cache"
    first = launches_of(first_cache, "x86_64 simulated-cpu-with-avx512")
    second = launches_of(second_cache, "x86_64 simulated-cpu-with-avx2-only")
    assert len(first) >= 10
    assert first == second
    # Each process built its own kernels, in its own cache...
    assert list(first_cache.glob("kernels/*/*.so")) and list(second_cache.glob("kernels/*/*.so"))
    # ...and nothing of either reaches a task: kernels are named by content hashes.
    text = json.dumps(first)
    assert str(tmp_path) not in text and "simulated" not in text
    assert all(re.fullmatch(r"[0-9a-f]{32}", launch["kernel"]) for launch in first)
