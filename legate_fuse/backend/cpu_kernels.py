"""The cache of CPU kernels: generated C compiled with the system compiler into shared objects,
each with the vector math its checks allow on this machine and the C library's tables those
vector forms read, in front of its source."""

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
from legate_fuse.backend.vector_math import kernel_prelude

logger = logging.getLogger("legate_fuse")


def c_producer(compiler: str) -> Producer:
    def produce(source: str, output: Path) -> None:
        compile_c(compiler, FLAGS, source, output)

    return produce


def KernelCompiler(cache_dir: Path, compiler: str = "cc",
                   warn: Callable[[str], None] = logger.warning) -> KernelCache:
    """The cache of CPU kernels: C compiled with the system compiler into shared objects. Each
    source is keyed and compiled with its prelude (vector_math.kernel_prelude): which vector
    forms it may use here, and their tables."""

    def identity() -> dict[str, str]:
        return {"compiler": compiler_identity(compiler), "flags": " ".join(FLAGS + LIBRARIES),
                "machine": machine_identity(), "format": C_FORMAT}

    def prepare(source: str, may_check: bool) -> str | None:
        prelude = kernel_prelude(source, Path(cache_dir), compiler, warn, may_check)
        return None if prelude is None else prelude + source

    return KernelCache(Path(cache_dir), ".so", identity, c_producer(compiler), warn,
                       prepare=prepare)
