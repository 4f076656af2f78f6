"""Runs generated C kernels on NumPy buffers through cffi, without Legate."""

from __future__ import annotations

import numpy
from cffi import FFI

from legate_fuse import _core
from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.plan.kernel_spec import ROLE_INPUT, ROLE_OUTPUT, ROLE_REDUCTION, KernelSpec

IN, OUT, RED = ROLE_INPUT, ROLE_OUTPUT, ROLE_REDUCTION

ffi = FFI()
# The kernel calling convention of runtime/kernel_abi.h.
ffi.cdef(f"""
typedef struct legate_fuse_array {{ char* data; int64_t strides[{_core.MAX_DIM}]; }}
  legate_fuse_array;
void legate_fuse_kernel(int32_t ndim, const int64_t* extents, const legate_fuse_array* arrays,
                        const void* scalars);
""")


def run(compiler: KernelCompiler, spec: KernelSpec, arrays: list[numpy.ndarray],
        extents: tuple[int, ...], scalars: tuple[numpy.generic, ...] = (),
        origin: tuple[int, ...] = (), prefix: str = "") -> None:
    """Runs the kernel of `spec` over `extents` on NumPy arrays (views keep their strides;
    a 0-d array is a single element), with run-time scalars packed as the FUSED task packs
    them (one 8-byte slot each), then the block's lower corner (`origin`, zeros by default);
    `prefix` goes before the kernel's source (a definition that selects one of its paths)."""
    library = ffi.dlopen(str(compiler.build(prefix + spec.render_c())))
    described = ffi.new("legate_fuse_array[]", len(arrays))
    for slot, array in zip(described, arrays, strict=True):
        slot.data = ffi.cast("char*", array.ctypes.data)
        for d, stride in enumerate(array.strides):
            slot.strides[d] = stride
    slots = b"".join(numpy.asarray(value).tobytes().ljust(8, b"\0") for value in scalars)
    corner = numpy.zeros(_core.MAX_DIM, dtype=numpy.int64)
    corner[:len(origin)] = origin
    packed = ffi.from_buffer(bytearray(slots + corner.tobytes()))
    library.legate_fuse_kernel(len(extents), ffi.new("int64_t[]", extents), described, packed)
