"""Runs generated CUDA kernels on the host, on NumPy buffers, through cffi, without a GPU.

The kernel's CUDA source is compiled as C++ behind cuda_on_host.h (blocks of real threads,
__syncthreads a barrier, atomics the compiler's), with a launcher that takes the kernel's
parameter as the FUSED task's GPU variant packs it (_core.cuda_launch_parameter) and launches
as many blocks as the GPU variant does (_core.cuda_blocks), unless told otherwise.

Math functions are the host C library's, or, given libdevice built for the host
(device_math_on_host.py), the device's own: each C name the kernels call then resolves as CUDA
resolves it (`exp` of a double to `__nv_exp`, of a float to `__nv_expf`, `expf` to `__nv_expf`).
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy
from cffi import FFI

from legate_fuse import _core
from legate_fuse.backend.compiler import CompileError, KernelCache, run_tool
from legate_fuse.plan.kernel_spec import KernelSpec

from .device_math_on_host import FUNCTIONS, DeviceMath

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


def device_math_header() -> str:
    """The kernel's math names bound to libdevice's functions, with CUDA's C++ overloads."""
    lines = []
    for name, arity in FUNCTIONS.items():
        for c_type, suffix in (("double", ""), ("float", "f")):
            parameters = ", ".join(f"{c_type} x{i}" for i in range(arity))
            arguments = ", ".join(f"x{i}" for i in range(arity))
            lines += [f'extern "C" {c_type} __nv_{name}{suffix}({parameters});',
                      f"static inline {c_type} lf_device_{name}({parameters}) "
                      f"{{ return __nv_{name}{suffix}({arguments}); }}"]
        lines += [f"#define {name} lf_device_{name}", f"#define {name}f __nv_{name}f"]
    return "\n".join(lines) + "\n"


def host_compiler(cache_dir: Path, device_math: DeviceMath | None = None) -> KernelCache:
    """Kernels for the host, with the host's math functions or, given `device_math`, the
    device's."""
    header = HEADER.read_text()
    extra: list[str] = []
    if device_math is not None:
        math_header = cache_dir / "device_math.h"
        math_header.write_text(device_math_header())
        header += device_math_header()
        folder = device_math.library.parent
        extra = ["-include", str(math_header), f"-Wl,-rpath,{folder}", f"-L{folder}",
                 f"-l:{device_math.library.name}"]

    def produce(source: str, output: Path) -> None:
        """Compiles a CUDA kernel's source, behind the header(s) and before the launcher."""
        cpp = output.with_suffix(".cc")
        cpp.write_text(source)
        command = ["c++", *FLAGS, "-include", str(HEADER), "-o", str(output), str(cpp),
                   *extra, "-lm"]
        result = run_tool(command)
        if result.returncode != 0:
            raise CompileError(f"{' '.join(command)} failed:\n{result.stderr.strip()}")

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

