"""The Legate library `legate_fuse` is registered and its FUSED task runs a kernel compiled at
run time on each point task's local blocks."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import cupynumeric as cn
import numpy
import pytest
from legate.core import align, get_legate_runtime

from legate_fuse.backend import tasks
from legate_fuse.session import Session

KERNEL_SOURCE = Path(__file__).parent / "data" / "axpb_kernel.c"


def compile_kernel(directory: Path) -> Path:
    library = directory / "axpb.so"
    compiler = os.environ.get("CC", "cc")
    subprocess.run(
        [compiler, "-O2", "-shared", "-fPIC", f"-I{tasks.KERNEL_INCLUDE_DIR}",
         "-o", str(library), str(KERNEL_SOURCE)],
        check=True,
    )
    return library


def launch_axpb(kernel: Path, x: cn.ndarray, y: cn.ndarray, out: cn.ndarray, s: float) -> None:
    from legate_fuse import _tasks

    _tasks.register_cpu_kernel("axpb", str(kernel), "axpb")
    runtime = get_legate_runtime()
    task = runtime.create_auto_task(tasks.library(), tasks.FUSED_TASK_ID)
    vx = task.add_input(x._thunk.base)
    vy = task.add_input(y._thunk.base)
    vo = task.add_output(out._thunk.base)
    task.add_constraint(align(vx, vo))
    task.add_constraint(align(vy, vo))
    task.add_scalar_arg("axpb")  # the kernel's id in this process's registry
    task.add_scalar_arg(struct.pack("<d", s))
    task.execute()


@pytest.mark.parametrize("shape", [(1000,), (30, 40), (5, 6, 7)])
def test_fused_task_runs_a_compiled_kernel(session: Session, tmp_path: Path,
                                           shape: tuple[int, ...]) -> None:
    kernel = compile_kernel(tmp_path)
    rng = numpy.random.default_rng(1)
    x0, y0 = rng.random(shape), rng.random(shape)
    x, y, out = cn.array(x0), cn.array(y0), cn.zeros(shape)
    seen = session.stats.tasks_seen
    launch_axpb(kernel, x, y, out, 2.5)
    assert session.stats.tasks_seen == seen + 1  # the FUSED task itself goes through the plugin
    numpy.testing.assert_array_equal(numpy.asarray(out), x0 * 2.5 + y0)


def test_fused_task_sees_views_with_their_strides(session: Session, tmp_path: Path) -> None:
    kernel = compile_kernel(tmp_path)
    grid = numpy.arange(100.0).reshape(10, 10)
    x = cn.array(grid)
    out = cn.zeros((8, 8))
    # Shifted views of one root, and a transposed one: non-trivial offsets and strides.
    launch_axpb(kernel, x[2:, 1:-1], x.T[1:-1, :-2], out, -1.0)
    numpy.testing.assert_array_equal(numpy.asarray(out), -grid[2:, 1:-1] + grid.T[1:-1, :-2])


def test_fused_task_on_several_point_tasks(tmp_path: Path) -> None:
    """With two CPUs each point task gets a sub-block that does not start at 0."""
    kernel = compile_kernel(tmp_path)
    program = f"""
import numpy, cupynumeric as cn, sys
sys.path.insert(0, {str(Path(__file__).parent.parent.parent)!r})
from tests.integration.test_fused_task import launch_axpb
from pathlib import Path
n = 2_000_000
x0 = numpy.arange(n, dtype=numpy.float64); y0 = numpy.ones(n)
x, y, out = cn.array(x0), cn.array(y0), cn.zeros(n)
launch_axpb(Path({str(kernel)!r}), x, y, out, 3.0)
assert numpy.array_equal(numpy.asarray(out), x0 * 3.0 + y0)
print("ok")
"""
    env = dict(os.environ, LEGATE_CONFIG="--cpus 2 --utility 1 --sysmem 4000 --logging gpu=none")
    env["LEGATE_FUSE"] = "1"
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().endswith("ok")


def test_library_is_registered_once(session: Session) -> None:
    import legate_fuse._tasks as native

    assert native.LIBRARY_NAME == "legate_fuse"
    assert tasks.library() is tasks.library()
    assert get_legate_runtime().find_library("legate_fuse") is not None


def test_fused_tasks_are_named_after_their_operations(session: Session, tmp_path: Path) -> None:
    from legate_fuse.backend.launch import build_fused_task
    from legate_fuse.plan.kernel_spec import ROLE_INPUT, ROLE_OUTPUT, KernelArg

    x, y, out = cn.ones(10), cn.ones(10), cn.zeros(10)
    args = [KernelArg(x._thunk.base, ROLE_INPUT, -1), KernelArg(y._thunk.base, ROLE_INPUT, -1),
            KernelArg(out._thunk.base, ROLE_OUTPUT, -1)]
    name = "legate_fuse[BINARY_OP.MULTIPLY, BINARY_OP.ADD]"
    task = build_fused_task(get_legate_runtime(), "axpb-unregistered", args,
                            struct.pack("<d", 2.0), name)
    assert name in task.provenance()
    # Not executed: no kernel is registered under that id. A task built and never executed is
    # simply dropped by Legate.
