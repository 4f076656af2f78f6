"""The cache of CPU kernels: generated C compiled with the system compiler into shared objects,
each with the vector math its checks allow on this machine and the C library's tables those
vector forms read, in front of its source; or, with LEGATE_FUSE_MATH=fast, with the C library's
vector math library (fast_math.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from legate_fuse.backend import fast_math
from legate_fuse.backend.cache_folders import CachePolicy
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


def c_producer(compiler: str, flags: Sequence[str] = FLAGS,
               libraries: Sequence[str] = LIBRARIES) -> Producer:
    def produce(source: str, output: Path) -> None:
        compile_c(compiler, flags, source, output, libraries)

    return produce


def KernelCompiler(cache_dir: Path, compiler: str = "cc",
                   warn: Callable[[str], None] = logger.warning,
                   math: str = "exact", policy: CachePolicy | None = None) -> KernelCache:
    """The cache of CPU kernels: C compiled with the system compiler into shared objects. Each
    source is keyed and compiled with its prelude: in exact `math`, which vector forms it may
    use here, and their tables (vector_math.kernel_prelude); in fast, libmvec's functions.
    `policy` bounds the cache and names a site's read-only cache (cache_folders.py)."""
    policy = policy or CachePolicy()
    fast = math == "fast"
    flags = FLAGS + fast_math.FLAGS if fast else FLAGS
    libraries = fast_math.LIBRARIES + LIBRARIES if fast else LIBRARIES

    def identity() -> dict[str, str]:
        return {"compiler": compiler_identity(compiler),
                "flags": " ".join(flags + libraries), "machine": machine_identity(),
                "format": C_FORMAT}

    def prepare(source: str, may_check: bool) -> str | None:
        if fast:
            return fast_math.prelude() + source
        prelude = kernel_prelude(source, Path(cache_dir), compiler, warn, may_check, policy)
        return None if prelude is None else prelude + source

    return KernelCache(Path(cache_dir), ".so", identity,
                       c_producer(compiler, flags, libraries), warn, prepare=prepare,
                       policy=policy)
