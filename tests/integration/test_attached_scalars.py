"""A 0-d array over NumPy memory (`cupynumeric.asarray(numpy_scalar_array)`) is a store in a
region, not a Future. A kernel must address it as data, not join it to a group that iterates
over an array: there its element loop re-read the value each element after writing it, so
`x *= x` next to a (1, 3) product squared x once per element (found by the fuzzer), and on two
CPUs each point task wrote the same 0-d store."""

from __future__ import annotations

import sys

import legate_fuse
from legate_fuse.session import Session

from .test_activation import run

PROGRAM = """
import numpy, cupynumeric as np
host = numpy.asarray(numpy.int32(98))
x = np.asarray(host)
flag = np.array(numpy.array([True])).copy()
matrix = np.array(numpy.ones((3, 257), dtype=bool))
float(np.sum(flag))
product = flag.reshape(1, 1) @ matrix.reshape(-1)[:3].reshape(1, 3)
x *= x
y = np.asarray(numpy.asarray(numpy.float64(1.5)))
row = np.array(numpy.arange(300, dtype=numpy.float64))
float(np.sum(row))
row2 = row * 2.0
y += y * 3.0
assert int(x) == 9604 and int(host) == 9604, int(x)
assert float(y) == 6.0, float(y)
assert numpy.asarray(product).all() and float(row2.sum()) == 2 * float(row.sum())
print("ok")
"""


def test_attached_0d_written_in_place_next_to_an_array_loop(session: Session) -> None:
    exec(PROGRAM, {})
    legate_fuse.flush()


def test_attached_0d_written_in_place_on_two_cpus() -> None:
    result = run([sys.executable, "-c", PROGRAM], LEGATE_FUSE="1",
                 LEGATE_CONFIG="--cpus 2 --utility 1 --sysmem 4000 --logging gpu=none "
                               "--min-cpu-chunk 512")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "ok" in result.stdout


def test_the_program_holds_with_numpy() -> None:
    exec(PROGRAM.replace("cupynumeric", "numpy"), {})
