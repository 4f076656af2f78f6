"""How a generated C kernel says it may be split into parts (runtime/kernel_abi.h): which kernels
split, and a reduction's part form and combine on real kernels, through cffi, without Legate."""

from __future__ import annotations

import ctypes
import itertools

import numpy
import pytest
from cffi import FFI

from legate_fuse import _core
from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.plan.kernel_spec import ARG, INDEX, NO_OPERAND, REGISTER, SCALAR, KernelSpec

from .c_kernels import IN, OUT, RED

ffi = FFI()
ffi.cdef(f"""
typedef struct legate_fuse_array {{ char* data; int64_t strides[{_core.MAX_DIM}]; }}
  legate_fuse_array;
void legate_fuse_kernel_part(int32_t ndim, const int64_t* extents,
                             const legate_fuse_array* arrays, const void* scalars, void* partial);
void legate_fuse_kernel_combine(const legate_fuse_array* arrays, const void* partial);
""")
ROWS, MOVES_CORNER, PARTIALS = 1, 2, 4

ELEMENT_WISE = KernelSpec(
    args=((IN, "float64", False), (OUT, "float64", False)), scalar_types=(),
    nodes=(("UNARY_OP.EXP", "float64", ((ARG, 0),)),), stores=((1, 0),), reductions=())


def two_values(dtype: str) -> KernelSpec:
    """A sum and a max of x * x into single values."""
    return KernelSpec(
        args=((IN, dtype, False), (RED, dtype, True), (RED, dtype, True)),
        scalar_types=(), nodes=(("BINARY_OP.MULTIPLY", dtype, ((ARG, 0), (ARG, 0))),),
        stores=(), reductions=((1, "SUM", (REGISTER, 0), NO_OPERAND),
                               (2, "MAX", (REGISTER, 0), NO_OPERAND)))


INTEGER_VALUES, FLOAT_VALUES = two_values("int64"), two_values("float64")
# A sum of x into a value beside an element-wise result.
FLOAT_SUM_AND_STORE = KernelSpec(
    args=((IN, "float64", False), (OUT, "float64", False), (RED, "float64", True)),
    scalar_types=(), nodes=(("UNARY_OP.EXP", "float64", ((ARG, 0),)),), stores=((1, 0),),
    reductions=((2, "SUM", (ARG, 0), NO_OPERAND),))
# (Of integers, whose reductions into values split.)
ALONG_AN_AXIS = KernelSpec(
    args=((IN, "int64", False), (RED, "int64", False)), scalar_types=(),
    nodes=(("BINARY_OP.MULTIPLY", "int64", ((ARG, 0), (ARG, 0))),),
    stores=(), reductions=((1, "SUM", (REGISTER, 0), NO_OPERAND),))
ARANGE = KernelSpec(args=((OUT, "int64", False),), scalar_types=("int64", "int64"),
                    nodes=(("ARANGE", "int64", ((INDEX, 0), (SCALAR, 0), (SCALAR, 1))),),
                    stores=((0, 0),), reductions=())


def split_flags(source: str) -> str | None:
    line = next((ln for ln in source.splitlines()
                 if ln.startswith("const int32_t legate_fuse_kernel_split")), None)
    return None if line is None else line.split("=", 1)[1].strip(" ;")


@pytest.mark.parametrize(("spec", "flags"), [
    (ELEMENT_WISE, "LEGATE_FUSE_SPLIT_ROWS"),
    (INTEGER_VALUES, "LEGATE_FUSE_SPLIT_ROWS | LEGATE_FUSE_SPLIT_PARTIALS"),
    (ARANGE, "LEGATE_FUSE_SPLIT_ROWS | LEGATE_FUSE_SPLIT_MOVES_CORNER"),
    (ALONG_AN_AXIS, None),
    (FLOAT_VALUES, None),
    (FLOAT_SUM_AND_STORE, None),
], ids=["element-wise", "integer reductions into values", "arange", "along an axis",
        "floating-point reductions into values", "a floating-point sum beside a store"])
def test_which_kernels_split_and_how(spec: KernelSpec, flags: str | None) -> None:
    """An axis reduction folds rows into shared elements: parts at once would race. A
    floating-point reduction into a value runs in one pass, element after element, as
    cuPyNumeric's task does: in parts, its sum would round otherwise."""
    assert split_flags(spec.render_c()) == flags


def test_a_reductions_parts_combined_fold_each_parts_value(compiler: KernelCompiler) -> None:
    path = str(compiler.build(INTEGER_VALUES.render_c()))
    constants = ctypes.CDLL(path)
    assert ctypes.c_int32.in_dll(constants, "legate_fuse_kernel_split").value == ROWS | PARTIALS
    assert ctypes.c_int32.in_dll(constants, "legate_fuse_kernel_partial_count").value == 2
    library = ffi.dlopen(path)
    x = numpy.random.default_rng(11).integers(-3000, 3000, size=1000)
    # The instances start at identities.
    targets = [numpy.array(0, dtype=numpy.int64), numpy.array(numpy.iinfo(numpy.int64).min)]
    arrays = ffi.new("legate_fuse_array[]", 3)
    for slot, array in zip(arrays, [x, *targets], strict=True):
        slot.data = ffi.cast("char*", array.ctypes.data)
        slot.strides[0] = array.strides[0] if array.ndim else 0
    scalars = ffi.new("char[]", 8 * _core.MAX_DIM)
    bounds = [0, 300, 700, 1000]
    partials = []
    for start, stop in itertools.pairwise(bounds):
        part = ffi.new("legate_fuse_array[]", 3)
        ffi.memmove(part, arrays, ffi.sizeof("legate_fuse_array") * 3)
        part[0].data = arrays[0].data + start * 8
        partial = ffi.new("char[]", 2 * 16)
        library.legate_fuse_kernel_part(1, ffi.new("int64_t[]", [stop - start]), part, scalars,
                                        partial)
        partials.append(partial)
    for partial in partials:
        library.legate_fuse_kernel_combine(arrays, partial)
    assert int(targets[0]) == int(numpy.sum(x * x))
    assert int(targets[1]) == int(numpy.max(x * x))
