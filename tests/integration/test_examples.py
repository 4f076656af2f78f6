"""cuPyNumeric 26.06's own example programs and microbenchmarks (bench/examples.py's table), at
their tiny sizes, each run through its command line with fusion off and on: the two agree, the
plugin warns of nothing, and a program with element-wise chains fuses some of them.

The plugin runs at its default settings here: every LEGATE_FUSE_* variable of the test process
(whatever the caller set) is kept from the programs, and each kernel compiles before its group's
first launch (LEGATE_FUSE_COMPILE=wait, the default, set explicitly: the fused kernels run from
a program's first window). Two runs of about 2 s each per program: 130 to 195 s on a 2-core
machine shared with other work (load average 3 to 5) (`pytest -m examples`).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_bench() -> ModuleType:
    """bench/examples.py as a module: the tests run the benchmark's own functions."""
    spec = importlib.util.spec_from_file_location("bench_examples", ROOT / "bench" / "examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


bench = load_bench()
ENVIRON = {**{k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")},
           "LEGATE_FUSE_COMPILE": "wait"}

pytestmark = pytest.mark.examples


@pytest.mark.parametrize("program", bench.PROGRAMS, ids=lambda program: program.name)
def test_an_example_agrees_with_fusion_on_and_off(program: Any) -> None:  # bench.Program
    row = bench.measure(program, tiny=True, pairs=1, warmup=False, environ=ENVIRON, timeout=300)
    assert not row.failure, f"{row.arguments}: {row.failure}"
    assert [run.mode for run in row.runs] == ["off", "on"]
    assert not row.warnings, row.warnings
    stats = row.stats
    assert stats is not None, "the fused run printed no statistics"
    assert stats.get("tasks_seen"), "the plugin saw no task: was it on?"
    if program.fusible:
        assert (stats.get("fused_launches") or 0) >= 1, stats


def test_the_statistics_are_read_from_their_json_line() -> None:
    stderr = "\n".join([
        "some other output",
        'legate-fuse statistics {"tasks_seen": 1234, "fused_launches": 56, "mode": "fusing", '
        '"unfused": {"cupynumeric.SORT": {"tasks": 3, "why": {"not lifted": 3}}}}',
        "Legate's own last words",
    ])
    stats = bench.parse_stats(stderr)
    assert stats is not None
    assert stats.get("tasks_seen") == 1234 and stats.get("fused_launches") == 56
    assert stats.get("mode") is None  # not a number
    assert stats.unfused == {"cupynumeric.SORT": {"tasks": 3, "why": {"not lifted": 3}}}
    assert bench.parse_stats("no statistics printed") is None


def test_a_warning_fails_the_row() -> None:
    program = bench.Program("echo", "-c", ("print('legate-fuse: WARNING: something')",),
                            ("print('legate-fuse: WARNING: something')",), "output")
    row = bench.measure(program, pairs=1, warmup=False, environ=ENVIRON, timeout=60)
    assert row.warnings == ["legate-fuse: WARNING: something"]
    assert "warned" in row.failure
