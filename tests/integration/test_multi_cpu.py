"""With two CPU processors cuPyNumeric partitions arrays, and sort and unique use collectives,
outputs of unknown size and tree reductions; each case runs in a fresh two-CPU process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .compare import assert_identical
from .test_activation import run, run_programs

TWO_CPUS = "--cpus 2 --utility 1 --sysmem 4000 --logging gpu=none"

COLLECTIVES = """
import numpy, cupynumeric as cn, legate_fuse
a0 = numpy.random.default_rng(3).random(200_000)
a = cn.array(a0) * 2.0
s = cn.sort(a)
u = cn.unique((a * 10).astype(cn.int64))
assert numpy.array_equal(numpy.asarray(s), numpy.sort(a0 * 2.0))
assert numpy.array_equal(numpy.asarray(u), numpy.unique((a0 * 20).astype(numpy.int64)))
print("flushes", legate_fuse.stats()["flushes"])
"""


def test_collectives_and_unknown_sizes_on_two_cpus() -> None:
    import sys

    result = run([sys.executable, "-c", COLLECTIVES], LEGATE_FUSE="1", LEGATE_CONFIG=TWO_CPUS)
    assert result.returncode == 0, result.stderr[-3000:]
    # The sorts and unique are built at once: what is held before them runs first.
    assert "'opaque_task'" in result.stdout


def test_programs_on_two_cpus_equal_plugin_absent(tmp_path: Path) -> None:
    off_arrays, _ = run_programs(tmp_path, "off2", LEGATE_CONFIG=TWO_CPUS)
    on_arrays, on = run_programs(tmp_path, "on2", LEGATE_FUSE="1", LEGATE_CONFIG=TWO_CPUS)
    assert on["stats"]["tasks_seen"] > 100
    # (At the default settings the measurement of whether fusion pays may run some of the
    # small programs unfused, at times the machine's noise decides.)
    assert on["stats"]["tasks_fused"] >= 40
    assert_identical({n: on_arrays[n] for n in on_arrays.files},
                     {n: off_arrays[n] for n in off_arrays.files})


def plans_with(config: str) -> list[str]:
    import sys

    script = Path(__file__).parent / "print_plans.py"
    result = run([sys.executable, str(script)], LEGATE_FUSE="1", LEGATE_CONFIG=config)
    assert result.returncode == 0, result.stderr[-3000:]
    return [line for line in result.stdout.splitlines() if line.startswith("PLAN ")]


ALONE = "runs alone: writes a 0-d value read after it"


def as_on_one_point(line: str) -> dict[str, Any]:
    """A plan made for several points, as made for one: a 0-d value read after its group,
    which runs alone there (each point would write it), joins the group after it."""
    plan: dict[str, Any] = json.loads(line.removeprefix("PLAN "))
    groups, alone = [], []
    for kind, tasks, temporaries, reason in plan["groups"]:
        if reason == ALONE:
            alone = tasks
            continue
        groups.append([kind, [*alone, *tasks], temporaries, reason])
        alone = []
    plan["groups"] = groups
    return plan


def test_plans_do_not_depend_on_the_number_of_processors() -> None:
    """But for a 0-d value a group computes and the program keeps, which a launch of one
    point writes (CG's alpha), and several run alone."""
    one = plans_with("--cpus 1 --utility 1 --sysmem 4000 --logging gpu=none")
    two = plans_with(TWO_CPUS)
    assert len(one) == 4  # one window per convergence test, and the last flush
    assert sum(line.count(ALONE) for line in two) == 3
    assert not any(ALONE in line for line in one)
    assert [json.loads(line.removeprefix("PLAN ")) for line in one] == [
        as_on_one_point(line) for line in two]


# Found by the differential fuzzer on two CPUs: in a fused group whose first partitioned store
# is promoted (a column or row broadcast), each point task iterated over that store's domain,
# which spans the whole promoted dimension rather than the point's tile: wrong values in some
# runs, SIGSEGV in others. Outer products, with the broadcast operand first or alone, each
# followed by an element-wise operation and a reduction along either axis.
BROADCAST_OPERANDS = """
import numpy, cupynumeric as cn
rng = numpy.random.default_rng(0)
x0, y0 = rng.uniform(-1, 1, 5), rng.uniform(-1, 1, 300)
x, y = cn.array(x0), cn.array(y0)
cases = {
    "compare": (lambda m: m.logical_and(x.reshape(5, 1) < y.reshape(1, 300), True)),
    "outer": (lambda m: (x.reshape(5, 1) + y.reshape(1, 300)) * 2.0),
    "row": (lambda m: m.exp(y.reshape(1, 300) + m.zeros((5, 300)))),
    "sum0": (lambda m: (x.reshape(5, 1) * y.reshape(1, 300) + 1.0).sum(axis=0)),
    "sum1": (lambda m: (x.reshape(5, 1) * y.reshape(1, 300) + 1.0).sum(axis=1)),
}
for name, case in cases.items():
    got = numpy.asarray(case(cn))
    x, y = x0, y0
    want = case(numpy)
    x, y = cn.array(x0), cn.array(y0)
    close = numpy.array_equal if name in ("compare", "outer") else numpy.allclose
    assert close(got, want), name
print("ok")
"""


def test_broadcast_operands_split_across_two_cpus() -> None:
    import sys

    result = run([sys.executable, "-c", BROADCAST_OPERANDS], LEGATE_FUSE="1",
                 LEGATE_CONFIG=TWO_CPUS + " --min-cpu-chunk 512")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "ok" in result.stdout


VALUE_WRITTEN_FOR_A_LATER_TASK = """
import numpy, cupynumeric as np
rng = numpy.random.default_rng(11)
host = rng.random(1000) < 0.5
flags = rng.random((2, 1000)) < 0.5
for dtype in (bool, numpy.float32):
    a = np.array(host.astype(dtype)).copy()
    f = np.array(flags).copy()
    float(np.sum(a))
    # The mask and the conversion of 0.5 to a's dtype (a 0-d value) are computed together;
    # putmask, on every point, then reads the value.
    a[f.reshape(-1)[:1000] > 0] = 0.5
    want = host.astype(dtype)
    want[flags.reshape(-1)[:1000] > 0] = 0.5
    assert (numpy.asarray(a) == want).all(), (dtype, numpy.nonzero(numpy.asarray(a) != want))
print("ok")
"""


def test_a_0d_value_written_by_a_group_and_read_later_on_two_cpus() -> None:
    """A group iterating over an array on two points must not write a 0-d value that a task
    after the group reads: each point writes its own Future, and putmask on point 1 read a
    value its group never gave (it wrote False). The task writing it runs alone. Found by the
    fuzzer."""
    import sys

    result = run([sys.executable, "-c", VALUE_WRITTEN_FOR_A_LATER_TASK], LEGATE_FUSE="1",
                 LEGATE_CONFIG=TWO_CPUS + " --min-cpu-chunk 512")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "ok" in result.stdout
