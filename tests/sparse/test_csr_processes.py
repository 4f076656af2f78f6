"""legate_csr as a library in its own right: a program using it runs the same without the
plugin and with it, on one CPU and on two (where Legate splits the matrix's rows and each block
reads the part of `x` its columns need)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PROGRAM = Path(__file__).with_name("csr_program.py")
ONE_CPU = "--cpus 1 --utility 1 --sysmem 4000 --logging gpu=none"
TWO_CPUS = "--cpus 2 --utility 1 --sysmem 4000 --logging gpu=none"


def run_program(**env: str) -> dict[str, Any]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Each kernel compiled before its group's first launch (with an empty kernel cache, a
    # background build may outlast this short program): fused from the first window.
    environ["LEGATE_FUSE_COMPILE"] = "wait"
    environ.update(env)
    result = subprocess.run([sys.executable, str(PROGRAM)], capture_output=True, text=True,
                            env=environ, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("FOUND ")]
    found: dict[str, Any] = json.loads(line[len("FOUND "):])
    return found


@pytest.mark.parametrize("payoff", ["", "0"], ids=["default", "every-window-fused"])
@pytest.mark.parametrize("config", [ONE_CPU, TWO_CPUS], ids=["one-cpu", "two-cpus"])
def test_a_program_runs_alike_without_the_plugin_and_with_it(config: str, payoff: str) -> None:
    """At the default settings, and with every window fused (the measurement of whether
    fusion pays may run a window of products unfused: then the partitions the fused task
    reads them through would go unchecked)."""
    alone = run_program(LEGATE_CONFIG=config)
    fused = run_program(LEGATE_CONFIG=config, LEGATE_FUSE="1", LEGATE_FUSE_PAYOFF=payoff)
    checks = {"product": True, "transposed": True, "diagonal": True, "cg": True}
    assert alone == {**checks, "fusion": False}
    assert fused == {**checks, "fusion": True}
