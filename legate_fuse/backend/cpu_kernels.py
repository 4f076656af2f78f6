"""The cache of CPU kernels: generated C compiled with the system compiler into shared objects,
with the preprocessor definitions the vector math checks chose for this machine and, in front
of the source, the C library's tables those vector forms read."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from legate_fuse.backend.compiler import (
    C_FORMAT,
    FLAGS,
    LIBRARIES,
    KernelCache,
    Producer,
    compile_c,
    compiler_identity,
    machine_identity,
)
from legate_fuse.backend.vector_math import kernel_defines, kernel_preamble

logger = logging.getLogger("legate_fuse")


def c_producer(compiler: str, defines: Callable[[], tuple[str, ...]]) -> Producer:
    def produce(source: str, output: Path) -> None:
        chosen = defines()
        compile_c(compiler, (*FLAGS, *chosen), kernel_preamble(chosen) + source, output)

    return produce


def KernelCompiler(cache_dir: Path, compiler: str = "cc",
                   warn: Callable[[str], None] = logger.warning) -> KernelCache:
    """The cache of CPU kernels: C compiled with the system compiler into shared objects."""

    def defines() -> tuple[str, ...]:
        return kernel_defines(Path(cache_dir), compiler, warn)

    def identity() -> dict[str, str]:
        chosen = defines()
        return {"compiler": compiler_identity(compiler),
                "flags": " ".join(FLAGS + chosen + LIBRARIES),
                "preamble": kernel_preamble(chosen),
                "machine": machine_identity(), "format": C_FORMAT}

    return KernelCache(Path(cache_dir), ".so", identity, c_producer(compiler, defines), warn)
