"""CUDA kernels: CUDA C++ compiled to PTX with NVRTC, in the same on-disk cache as CPU kernels.

NVRTC comes with cuPyNumeric's wheels (`nvidia/cu13/lib/libnvrtc.so.13`); it is loaded by its
versioned name at run time and needs no GPU. The driver compiles the PTX for the device when
the FUSED task's GPU variant loads it; the file it loads is one whose size and digest the cache
checked in this process (see cache_entry.py).
"""

from __future__ import annotations

import glob
import logging
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

from legate_fuse import _core
from legate_fuse.backend.cache_folders import CachePolicy
from legate_fuse.backend.compiler import CompileError, KernelCache, Producer

NVRTC_SONAME = "libnvrtc.so.13"
CUDA_FORMAT = f"abi{_core.KERNEL_ABI_VERSION}-cuda{_core.CUDA_RENDERER_VERSION}"
# Bit-for-bit equality with the unfused kernels: no contraction into fused multiply-adds.
NVRTC_OPTIONS = ("--fmad=false", "-std=c++17")
DEFAULT_ARCH = 75  # the oldest architecture CUDA 13 compiles for

logger = logging.getLogger("legate_fuse")


@cache
def find_nvrtc() -> str:
    """Path of NVRTC from NVIDIA's wheels, else its versioned name for the loader's search."""
    try:
        import nvidia
    except ImportError:
        return NVRTC_SONAME
    for folder in getattr(nvidia, "__path__", []):
        hits = glob.glob(os.path.join(folder, "cu13", "lib", NVRTC_SONAME))
        if hits:
            return hits[0]
    return NVRTC_SONAME


def options(arch: int) -> list[str]:
    return [f"--gpu-architecture=compute_{arch}", *NVRTC_OPTIONS]


def ptx_producer(arch: int, library: str) -> Producer:
    def produce(source: str, output: Path) -> None:
        try:
            ptx = _core.nvrtc_compile_ptx(library, source, "legate_fuse_kernel.cu", options(arch))
        except _core.NvrtcError as error:
            raise CompileError(str(error)) from error
        output.write_text(ptx)

    return produce


def PtxCompiler(cache_dir: Path, arch: int = DEFAULT_ARCH, library: str | None = None,
                warn: Callable[[str], None] = logger.warning,
                policy: CachePolicy | None = None) -> KernelCache:
    """The cache of GPU kernels for one architecture (`warn` reports a damaged entry; `policy`
    bounds the cache and names a site's read-only cache)."""
    nvrtc = library or find_nvrtc()

    def identity() -> dict[str, str]:
        try:
            version = _core.nvrtc_version(nvrtc)
        except _core.NvrtcError as error:
            raise CompileError(str(error)) from error
        return {"compiler": f"nvrtc {version}", "flags": " ".join(options(arch)),
                "machine": f"sm_{arch}", "format": CUDA_FORMAT}

    return KernelCache(Path(cache_dir), ".ptx", identity, ptx_producer(arch, nvrtc), warn,
                       policy=policy or CachePolicy())
