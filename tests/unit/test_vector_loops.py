"""The loops of the vector forms vectorise with AVX2 alone and with AVX-512, whatever CPU runs the
tests: GCC reports, for the check program's timed loop (the form as kernels call it, in tiles),
that it vectorised it. A loop left scalar computes every path of its form in each lane and was
3-4x slower than the C library on an AVX2 CPU (the expm1 and tanh forms, before LF_BLEND)."""

from __future__ import annotations

import platform
import re
import shutil
import subprocess

import pytest

from legate_fuse.backend import vector_math

# AVX2 and FMA without AVX-512 (Haswell's), and AVX-512 (x86-64 level 4).
TARGETS = ("haswell", "x86-64-v4")

pytestmark = pytest.mark.skipif(
    platform.machine() != "x86_64" or shutil.which("cc") is None,
    reason="x86-64 targets, compiled with the default C compiler")


def timed_loop_line(source: str) -> int:
    """The line (from 1) of the loop over a tile in the check's timed call of the form."""
    lines = source.splitlines()
    start = next(i for i, line in enumerate(lines) if "static void lf_time_vector" in line)
    return next(i for i in range(start, len(lines))
                if lines[i].lstrip().startswith("for (long i")) + 1


def vectorised_lines(source: str, target: str) -> set[int]:
    """The lines of the loops GCC vectorised, compiling `source` as kernels are compiled, for
    `target` instead of this machine's CPU."""
    flags = [f for f in vector_math.PROGRAM_FLAGS if f != "-march=native"]
    result = subprocess.run(
        ["cc", *flags, f"-march={target}", "-fopt-info-vec-optimized", "-x", "c", "-", "-c",
         "-o", "/dev/null"], input=source, capture_output=True, text=True, check=True)
    return {int(m) for m in re.findall(r"^<stdin>:(\d+):\d+: optimized: loop vectorized",
                                       result.stderr, re.MULTILINE)}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("function", vector_math.FUNCTIONS)
def test_the_vector_forms_loops_vectorise(function: str, target: str) -> None:
    source = vector_math.check_source(function)
    assert timed_loop_line(source) in vectorised_lines(source, target), (
        f"GCC left the loop of the {function} form scalar for -march={target}")
