"""Activation without code changes, and the errors a user sees; each case in a fresh process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy

from .compare import assert_identical

HERE = Path(__file__).resolve().parent


def run(args: list[str], timeout: float = 600, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Each kernel compiled before its group's first launch: fused from the first window (unless
    # the test sets LEGATE_FUSE_COMPILE; empty is the default).
    environ["LEGATE_FUSE_COMPILE"] = "wait"
    environ.update(env)
    return subprocess.run(args, capture_output=True, text=True, env=environ, timeout=timeout)


def run_programs(tmp_path: Path, label: str, **env: str) -> tuple[Any, dict[str, Any]]:
    out = tmp_path / f"{label}.npz"
    result = run([sys.executable, str(HERE / "run_programs.py"), str(out)], **env)
    assert result.returncode == 0, result.stderr[-4000:]
    return numpy.load(out), json.loads(out.with_suffix(".json").read_text())


def test_fusion_on_equals_plugin_absent_bitwise(tmp_path: Path) -> None:
    off_arrays, off = run_programs(tmp_path, "off")
    on_arrays, on = run_programs(tmp_path, "on", LEGATE_FUSE="1")
    assert off["runtime"] == "Runtime" and off["stats"]["tasks_seen"] == 0
    assert on["runtime"] == "RuntimeProxy" and on["stats"]["tasks_seen"] > 100
    assert sorted(off_arrays.files) == sorted(on_arrays.files)
    # (At the default settings the measurement of whether fusion pays may run some of the
    # small programs unfused, at times the machine's noise decides.)
    assert on["stats"]["tasks_fused"] >= 40
    assert_identical({n: on_arrays[n] for n in on_arrays.files},
                     {n: off_arrays[n] for n in off_arrays.files})
    assert_identical(on["scalars"], off["scalars"])


def test_zero_means_off(tmp_path: Path) -> None:
    _, report = run_programs(tmp_path, "zero", LEGATE_FUSE="0")
    assert report["runtime"] == "Runtime"


STATS_PROGRAM = """
import cupynumeric as np
a = np.ones(1000)
b = a * 2.0 + 1.0   # still held when the program ends
"""


def test_stats_block_at_exit_and_exit_flush() -> None:
    result = run([sys.executable, "-c", STATS_PROGRAM], LEGATE_FUSE="1", LEGATE_FUSE_STATS="1")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "legate-fuse statistics" in result.stderr
    assert "tasks seen" in result.stderr
    assert "exit" in result.stderr.split("window flushes", 1)[1]


def test_stats_as_json_at_exit() -> None:
    result = run([sys.executable, "-c", STATS_PROGRAM], LEGATE_FUSE="1", LEGATE_FUSE_STATS="json")
    assert result.returncode == 0, result.stderr[-3000:]
    (line,) = [ln for ln in result.stderr.splitlines()
               if ln.startswith("legate-fuse statistics {")]
    report = json.loads(line.removeprefix("legate-fuse statistics "))
    assert report["mode"] == "fusing" and report["fused_launches"] >= 1
    assert report["flushes"]["exit"] == 1 and "fusing" in report["mode_seconds"]


def test_legate_launcher_activates_fusion() -> None:
    bin_dir = Path(sys.executable).parent
    launcher = bin_dir / "legate"
    program = "import cupynumeric as np, legate_fuse; x = np.ones(10) + 1; " \
              "print('seen', legate_fuse.stats()['tasks_seen'], float(x.sum()))"
    script = Path(os.environ.get("TMPDIR", "/tmp")) / f"lf_launcher_{os.getpid()}.py"
    script.write_text(program)
    try:
        result = run([str(launcher), "--cpus", "1", str(script)], LEGATE_FUSE="1",
                     PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    finally:
        script.unlink()
    assert result.returncode == 0, result.stderr[-3000:]
    line = [ln for ln in result.stdout.splitlines() if ln.startswith("seen")][-1]
    seen, total = line.split()[1:]
    assert int(seen) >= 2 and float(total) == 20.0


def test_enable_after_cupynumeric_import_is_an_error() -> None:
    code = "import cupynumeric, legate_fuse\nlegate_fuse.enable()"
    result = run([sys.executable, "-c", code])
    assert result.returncode != 0
    assert "called after cupynumeric was imported" in result.stderr


def test_enable_in_code_before_import_works() -> None:
    code = ("import legate_fuse\nlegate_fuse.enable()\nimport cupynumeric as np\n"
            "x = np.arange(5.0) * 2\nprint(float(x.sum()), legate_fuse.stats()['tasks_seen'])")
    result = run([sys.executable, "-c", code])
    assert result.returncode == 0, result.stderr[-3000:]
    total, seen = result.stdout.split()[-2:]
    assert float(total) == 20.0 and int(seen) >= 2


def test_unknown_switch_value_is_a_clear_error() -> None:
    result = run([sys.executable, "-c", "import cupynumeric"], LEGATE_FUSE="yes")
    assert result.returncode != 0
    assert "SettingError: LEGATE_FUSE='yes' is not understood; accepted values: 0 (off), 1 (on)" \
        in result.stderr


def test_invalid_window_size_is_a_clear_error() -> None:
    result = run([sys.executable, "-c", "import cupynumeric"], LEGATE_FUSE="1",
                 LEGATE_FUSE_WINDOW="zero")
    assert result.returncode != 0
    assert "LEGATE_FUSE_WINDOW='zero' is not a valid window size" in result.stderr


def test_environment_defaults_and_override() -> None:
    code = "import os; print(os.environ.get('LEGATE_CONFIG', ''))"
    environ = {k: v for k, v in os.environ.items() if k not in ("LEGATE_CONFIG",)}
    default = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=environ, check=True).stdout.strip()
    assert "--utility 1" in default and "--cpus" in default
    environ["LEGATE_CONFIG"] = "--cpus 1 --sysmem 2000"
    kept = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=environ, check=True).stdout.strip()
    assert kept == "--cpus 1 --sysmem 2000"


def test_plan_log_prints_every_plan() -> None:
    code = "import cupynumeric as np\na = np.ones(100)\nprint(float((a * 2.0 + 1.0).sum()))"
    result = run([sys.executable, "-c", code], LEGATE_FUSE="1", LEGATE_FUSE_LOG="plan")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "legate-fuse plan (" in result.stderr
    assert "BINARY_OP.MULTIPLY" in result.stderr and "SCALAR_UNARY_RED.SUM" in result.stderr
    assert "fused tasks [" in result.stderr and "ended: end of window" in result.stderr


def test_kernel_log_prints_every_stage_after_the_plan(tmp_path: Path) -> None:
    code = "import cupynumeric as np\na = np.ones(100)\nprint(float((a * 2.0 + 1.0).sum()))"
    result = run([sys.executable, "-c", code], LEGATE_FUSE="1", LEGATE_FUSE_LOG="kernels",
                 LEGATE_FUSE_CACHE_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    (kernel_id,) = re.findall(r"legate-fuse kernel ([0-9a-f]{32}):", result.stderr)
    assert "r0 = BINARY_OP.MULTIPLY -> float64 (arg 0, arg 1)" in result.stderr  # the spec
    assert "-- C source:" in result.stderr and "legate_fuse_kernel(" in result.stderr
    assert f"-- kernel {kernel_id} compiled: {tmp_path}" in result.stderr


def test_unknown_log_topic_is_a_clear_error() -> None:
    result = run([sys.executable, "-c", "import cupynumeric"], LEGATE_FUSE="1",
                 LEGATE_FUSE_LOG="plans")
    assert result.returncode != 0
    assert "LEGATE_FUSE_LOG='plans' names unknown topics ['plans']; accepted: plan, kernels" \
        in result.stderr
