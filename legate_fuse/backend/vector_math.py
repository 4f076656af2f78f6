"""Whether generated kernels may use the vector form of exp (see codegen/c_vector_math.h).

The vector form repeats the C library's exp algorithm operation for operation, so it rounds
exactly as the C library only where the library is the one it was written from (glibc's on a
CPU with FMA). This is checked, not assumed: a program that compares the two on millions of
inputs is compiled with the kernels' compiler and flags and run once per machine, compiler and
C library; its verdict is cached beside the kernels. Kernels are compiled with
-DLF_VECTOR_EXP=1 only when it passed.
"""

from __future__ import annotations

import hashlib
import logging
import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path

from legate_fuse import _core
from legate_fuse.backend.compiler import (
    C_FORMAT,
    FLAGS,
    CompileError,
    KernelCache,
    compile_c,
    compiler_identity,
    machine_identity,
)

logger = logging.getLogger("legate_fuse")

PROGRAM_FLAGS = tuple(f for f in FLAGS if f not in ("-fPIC", "-shared"))
PASSED = "identical"


@cache
def c_library_identity() -> str:
    """The C math library this process runs with: its path and a digest of its contents."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "/libm." in line or "/libm-" in line}
    except OSError:
        paths = set()
    parts = []
    for path in sorted(paths):
        try:
            parts.append(f"{path} {hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]}")
        except OSError:
            parts.append(path)
    return "; ".join(parts) or "unknown"


def check_producer(compiler: str) -> Callable[[str, Path], None]:
    def produce(source: str, output: Path) -> None:
        program = output.with_suffix(".bin")
        compile_c(compiler, PROGRAM_FLAGS, source, program)
        ran = subprocess.run([str(program)], capture_output=True, text=True, timeout=600)
        output.write_text(PASSED if ran.returncode == 0 else f"different:\n{ran.stdout}")

    return produce


@cache
def vector_exp_available(cache_dir: Path, compiler: str,
                         warn: Callable[[str], None] = logger.warning) -> bool:
    """The cached verdict of the check program for this compiler (False if it cannot run);
    `warn` reports a damaged verdict in the cache."""

    def identity() -> dict[str, str]:
        return {"compiler": compiler_identity(compiler), "flags": " ".join(PROGRAM_FLAGS),
                "machine": machine_identity(), "c_library": c_library_identity(),
                "format": C_FORMAT}

    verdicts = KernelCache(Path(cache_dir), ".verdict", identity, check_producer(compiler), warn)
    try:
        verdict = verdicts.build(_core.vector_math_check_program()).read_text()
    except (CompileError, OSError, subprocess.SubprocessError) as error:
        logger.debug("vector exp check could not run: %s", error)
        return False
    if verdict != PASSED:
        logger.debug("vector exp differs from the C library's here: %s", verdict)
    return verdict == PASSED


def kernel_defines(cache_dir: Path, compiler: str,
                   warn: Callable[[str], None] = logger.warning) -> tuple[str, ...]:
    """The preprocessor definitions every CPU kernel is compiled with."""
    return (f"-DLF_VECTOR_EXP={int(vector_exp_available(Path(cache_dir), compiler, warn))}",)
