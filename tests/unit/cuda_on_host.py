"""Runs generated CUDA kernels on the host, on NumPy buffers, through cffi, without a GPU.

The kernel's CUDA source is compiled as C++ behind cuda_on_host.h (blocks of real threads,
__syncthreads a barrier, atomics the compiler's), with a launcher that takes the kernel's
parameter as the FUSED task's GPU variant packs it (_core.cuda_launch_parameter) and launches
as many blocks as the GPU variant does (_core.cuda_blocks), unless told otherwise.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy
from cffi import FFI

from legate_fuse import _core
from legate_fuse.backend.compiler import CompileError, KernelCache, run_tool
from legate_fuse.plan.kernel_spec import KernelSpec

HEADER = Path(__file__).with_name("cuda_on_host.h")
FLAGS = ("-std=c++20", "-O1", "-pthread", "-fPIC", "-shared", "-ffp-contract=off",
         "-fno-fast-math", "-x", "c++")
LAUNCHER = """
extern "C" void lf_host_launch(long long blocks, const void* parameter, unsigned long size)
{
  legate_fuse_launch p;
  if (size != sizeof p) __builtin_trap(); /* the packing and the kernel disagree on the size */
  memcpy(&p, parameter, sizeof p);
  lf_launch_on_host(legate_fuse_kernel, blocks, LEGATE_FUSE_CUDA_BLOCK_SIZE, p);
}
"""

ffi = FFI()
ffi.cdef("void lf_host_launch(long long blocks, const void* parameter, unsigned long size);")


def produce(source: str, output: Path) -> None:
    """Compiles a CUDA kernel's source, behind the header and before the launcher, for the
    host."""
    cpp = output.with_suffix(".cc")
    cpp.write_text(source)
    command = ["c++", *FLAGS, "-include", str(HEADER), "-o", str(output), str(cpp), "-lm"]
    result = run_tool(command)
    if result.returncode != 0:
        raise CompileError(f"{' '.join(command)} failed:\n{result.stderr.strip()}")


def host_compiler(cache_dir: Path) -> KernelCache:
    header = HEADER.read_text()
    return KernelCache(cache_dir, ".so", lambda: {"header": header, "flags": " ".join(FLAGS)},
                       produce)


def described(arrays: list[numpy.ndarray]) -> bytes:
    """The arrays as legate_fuse_array structs: address, then the strides in bytes."""
    out = b""
    for array in arrays:
        strides = list(array.strides) + [0] * (_core.MAX_DIM - array.ndim)
        out += struct.pack(f"<Q{_core.MAX_DIM}q", array.ctypes.data, *strides)
    return out


def run(compiler: KernelCache, spec: KernelSpec, arrays: list[numpy.ndarray],
        extents: tuple[int, ...], scalars: tuple[numpy.generic, ...] = (),
        origin: tuple[int, ...] = (), blocks: int | None = None) -> None:
    """As c_kernels.run, with the CUDA kernel on the host: `blocks` (default: as the FUSED
    task launches) blocks of _core.CUDA_BLOCK_SIZE threads."""
    library = ffi.dlopen(str(compiler.build(spec.render_cuda() + LAUNCHER)))
    volume = int(numpy.prod(extents)) if extents else 1
    slots = b"".join(numpy.asarray(value).tobytes().ljust(8, b"\0") for value in scalars)
    corner = numpy.zeros(_core.MAX_DIM, dtype=numpy.int64)
    corner[:len(origin)] = origin
    parameter = _core.cuda_launch_parameter(volume, len(extents), list(extents),
                                            described(arrays), slots + corner.tobytes())
    count = _core.cuda_blocks(volume) if blocks is None else blocks
    library.lf_host_launch(count, parameter, len(parameter))

