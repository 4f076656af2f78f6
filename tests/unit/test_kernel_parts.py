"""How a generated C kernel says it may be split into parts (runtime/kernel_abi.h): which kernels
split, a reduction's part form and combine, and an ordered reduction's stages and fold, on real
kernels, through cffi, without Legate."""

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
void legate_fuse_kernel(int32_t ndim, const int64_t* extents, const legate_fuse_array* arrays,
                        const void* scalars);
void legate_fuse_kernel_stage(int32_t ndim, const int64_t* extents,
                              const legate_fuse_array* arrays, const void* scalars,
                              void* operands);
void legate_fuse_kernel_fold(const void* operands, int64_t count, void* partial);
void legate_fuse_kernel_start(void* partial);
void legate_fuse_kernel_resume(int32_t ndim, const int64_t* extents,
                               const legate_fuse_array* arrays, const void* scalars,
                               void* partial);
""")
ROWS, MOVES_CORNER, PARTIALS, ORDERED, RESUMES = 1, 2, 4, 8, 16

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
# CG's residual: r = b - y stored, and r @ r, each product folded by a fused multiply-add.
RESIDUAL_AND_ITS_DOT = KernelSpec(
    args=((IN, "float64", False), (IN, "float64", False), (OUT, "float64", False),
          (RED, "float64", True)),
    scalar_types=(), nodes=(("BINARY_OP.SUBTRACT", "float64", ((ARG, 1), (ARG, 0))),
                            ("BINARY_OP.MULTIPLY", "float64", ((REGISTER, 0), (REGISTER, 0)))),
    stores=((2, 0),), reductions=((3, "SUM_PRODUCT", (REGISTER, 1), NO_OPERAND),))
# A sum of x into a value beside an element-wise result.
FLOAT_SUM_AND_STORE = KernelSpec(
    args=((IN, "float64", False), (OUT, "float64", False), (RED, "float64", True)),
    scalar_types=(), nodes=(("UNARY_OP.EXP", "float64", ((ARG, 0),)),), stores=((1, 0),),
    reductions=((2, "SUM", (ARG, 0), NO_OPERAND),))
# The sum of exp(x) where x > 0: a masked fold keeps its accumulator where the mask is false.
MASKED_SUM_OF_A_CALL = KernelSpec(
    args=((IN, "float64", False), (RED, "float64", True)), scalar_types=("float64",),
    nodes=(("UNARY_OP.EXP", "float64", ((ARG, 0),)),
           ("BINARY_OP.GREATER", "bool", ((ARG, 0), (SCALAR, 0)))),
    stores=(), reductions=((1, "SUM", (REGISTER, 0), (REGISTER, 1)),))


def reductions_of_a_call(dtype: str, ops: tuple[str, ...], extra: str | None = None,
                         masked: bool = False) -> KernelSpec:
    """exp(x) * scale stored, and reduced into one value per op (`masked`: where x > scale);
    with `extra`, x converted to it and summed too."""
    nodes: list[tuple[str, str, tuple[tuple[int, int], ...]]] = [
        ("UNARY_OP.EXP", dtype, ((ARG, 0),)),
        ("BINARY_OP.MULTIPLY", dtype, ((REGISTER, 0), (ARG, 2))),
        ("BINARY_OP.GREATER", "bool", ((ARG, 0), (ARG, 2)))]
    args = [(IN, dtype, False), (OUT, dtype, False), (IN, dtype, True)]
    mask = (REGISTER, 2) if masked else NO_OPERAND
    reductions = [(len(args) + k, op, (REGISTER, 1), mask) for k, op in enumerate(ops)]
    args += [(RED, dtype, True)] * len(ops)
    if extra is not None:
        nodes.append(("CONVERT.NOOP", extra, ((ARG, 0),)))
        reductions.append((len(args), "SUM", (REGISTER, 3), NO_OPERAND))
        args.append((RED, extra, True))
    return KernelSpec(args=tuple(args), scalar_types=(), nodes=tuple(nodes),
                      stores=((1, 1),), reductions=tuple(reductions))


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
    (FLOAT_VALUES, "LEGATE_FUSE_SPLIT_RESUMES"),
    (RESIDUAL_AND_ITS_DOT, "LEGATE_FUSE_SPLIT_RESUMES"),
    (FLOAT_SUM_AND_STORE, "LEGATE_FUSE_SPLIT_ROWS | LEGATE_FUSE_SPLIT_ORDERED"),
    (MASKED_SUM_OF_A_CALL, "LEGATE_FUSE_SPLIT_ROWS | LEGATE_FUSE_SPLIT_ORDERED"),
], ids=["element-wise", "integer reductions into values", "arange", "along an axis",
        "floating-point reductions into values", "a dot product beside a result",
        "a floating-point sum beside a call",
        "a masked floating-point sum"])
def test_which_kernels_split_and_how(spec: KernelSpec, flags: str | None) -> None:
    """An axis reduction folds rows into shared elements: parts at once would race. A
    floating-point reduction into a value folds element after element, as cuPyNumeric's task
    does (in parts, its sum would round otherwise): its parts run as stages whose operands are
    folded in order, where the kernel calls a C library function (the stage's work then
    outweighs the fold's; a masked one with its masks); otherwise in one pass, which may be
    resumed on its rows' parts one after another, in order."""
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


def described(arrays: list[numpy.ndarray]) -> object:
    slots = ffi.new("legate_fuse_array[]", len(arrays))
    for slot, array in zip(slots, arrays, strict=True):
        slot.data = ffi.cast("char*", array.ctypes.data)
        for d, stride in enumerate(array.strides):
            slot.strides[d] = stride
    return slots


@pytest.mark.parametrize(("spec", "shape"), [
    (reductions_of_a_call("float64", ("SUM",)), (20_000,)),
    (reductions_of_a_call("float64", ("SUM", "PROD", "MAX", "MIN")), (1000,)),
    (reductions_of_a_call("float32", ("SUM",), extra="float64"), (1000,)),
    (reductions_of_a_call("float64", ("SUM",), extra="int64"), (40, 25)),
    (reductions_of_a_call("float64", ("SUM", "MAX")), (3, 5000)),
    (reductions_of_a_call("float64", ("SUM",), masked=True), (20_000,)),
    (reductions_of_a_call("float32", ("SUM", "MAX"), extra="float64", masked=True), (40, 25)),
], ids=["float64 sum", "float64 sum, prod, max, min", "float32 sum and a float64 sum",
        "float64 and int64 sums over rows", "rows longer than a chunk", "a masked sum",
        "masked float32 sum and max, an unmasked float64 sum"])
def test_stages_folded_in_order_give_the_one_pass_bits(compiler: KernelCompiler,
                                                       spec: KernelSpec,
                                                       shape: tuple[int, ...]) -> None:
    """The stage form on parts of the block (ranges of rows), each part's operands folded in
    order into accumulators started at the identities, combined into the targets: the bits of
    the kernel's own pass (itself stages of at most 1,024 elements, or of one longer row),
    element-wise results and reductions alike; and those of a fold element after element."""
    path = str(compiler.build(spec.render_c()))
    assert ctypes.c_int32.in_dll(ctypes.CDLL(path), "legate_fuse_kernel_split").value == (
        ROWS | ORDERED)
    library = ffi.dlopen(path)
    dtype = spec.args[0][1]
    rng = numpy.random.default_rng(3)
    # Terms that grow along the block: summed in parts, they round otherwise.
    x = (rng.uniform(-1.0, 1.0, shape) + numpy.linspace(-3, 6, x_size := int(numpy.prod(shape)))
         .reshape(shape)).astype(dtype)
    x.reshape(-1)[[7, x_size // 2]] = -0.0  # signed zeros among the operands
    scale = numpy.array(1.000001, dtype=dtype)
    reductions = spec.args[3:]

    def fresh() -> list[numpy.ndarray]:
        targets = [numpy.array(0.5, dtype=red[1]) for red in reductions]
        return [x, numpy.zeros(shape, dtype=dtype), scale, *targets]

    scalars = ffi.new("char[]", 8 * _core.MAX_DIM)
    whole = fresh()
    library.legate_fuse_kernel(len(shape), ffi.new("int64_t[]", shape), described(whole), scalars)

    staged = fresh()
    arrays = described(staged)
    partial = ffi.new("char[]", 16 * len(reductions))
    library.legate_fuse_kernel_start(partial)
    rows = shape[0]
    row_volume = x_size // rows
    for start, stop in itertools.pairwise([0, rows * 3 // 10, rows * 7 // 10, rows]):
        part = ffi.new("legate_fuse_array[]", len(staged))
        ffi.memmove(part, arrays, ffi.sizeof("legate_fuse_array") * len(staged))
        for k in (0, 1):
            part[k].data = arrays[k].data + start * staged[k].strides[0]
        volume = (stop - start) * row_volume
        operands = ffi.new("char[]", 2 * 8 * len(reductions) * volume)
        library.legate_fuse_kernel_stage(len(shape), ffi.new("int64_t[]", (stop - start,
                                                                          *shape[1:])),
                                         part, scalars, operands)
        library.legate_fuse_kernel_fold(operands, volume, partial)
    library.legate_fuse_kernel_combine(arrays, partial)
    for got, want in zip(staged, whole, strict=True):
        assert got.tobytes() == want.tobytes()
    if dtype == "float64":
        # The one pass folds element after element (those the mask keeps); the parts' own
        # sums, added, would differ.
        operands = whole[1].reshape(-1)
        if spec.reductions[0][3] != NO_OPERAND:
            operands = operands[x.reshape(-1) > scale]
        operands = operands.tolist()
        assert float(whole[3]) == 0.5 + folded_in_order(operands)
        thirds = numpy.array_split(numpy.array(operands), 3)
        assert float(whole[3]) != 0.5 + sum(folded_in_order(t.tolist()) for t in thirds)


@pytest.mark.parametrize(("spec", "shape"), [
    (RESIDUAL_AND_ITS_DOT, (20_000,)),
    (FLOAT_VALUES, (9_000,)),
], ids=["a residual and its dot product", "a sum and a max"])
def test_parts_resumed_in_order_give_the_one_pass_bits(compiler: KernelCompiler,
                                                       spec: KernelSpec,
                                                       shape: tuple[int, ...]) -> None:
    """The resumed form on parts of the block, in order, from the identities `start` writes,
    its accumulators carried from each part to the next, then combined: the bits of the
    kernel's one pass, element-wise results and reductions alike. Each part's own value from
    the identities, combined, would round otherwise."""
    path = str(compiler.build(spec.render_c()))
    assert ctypes.c_int32.in_dll(ctypes.CDLL(path), "legate_fuse_kernel_split").value == RESUMES
    library = ffi.dlopen(path)
    rng = numpy.random.default_rng(5)
    inputs = [rng.uniform(-1.0, 1.0, shape) + numpy.linspace(-3, 6, shape[0])
              for _ in range(sum(role == IN for role, _, _ in spec.args))]
    inputs[0][[7, shape[0] // 2]] = -0.0  # signed zeros among the operands
    outputs = sum(role == OUT for role, _, _ in spec.args)
    reductions = sum(role == RED for role, _, _ in spec.args)

    def fresh() -> list[numpy.ndarray]:
        return [*inputs, *(numpy.zeros(shape) for _ in range(outputs)),
                *(numpy.array(0.5) for _ in range(reductions))]

    scalars = ffi.new("char[]", 8 * _core.MAX_DIM)
    whole = fresh()
    library.legate_fuse_kernel(1, ffi.new("int64_t[]", shape), described(whole), scalars)

    def in_parts(carried: bool) -> list[numpy.ndarray]:
        arrays = fresh()
        slots = described(arrays)
        partial = ffi.new("char[]", 16 * reductions)
        library.legate_fuse_kernel_start(partial)
        for start, stop in itertools.pairwise([0, 4096, 4096 * 2, shape[0]]):
            part = ffi.new("legate_fuse_array[]", len(arrays))
            ffi.memmove(part, slots, ffi.sizeof("legate_fuse_array") * len(arrays))
            for k, array in enumerate(arrays):
                if array.ndim:
                    part[k].data = slots[k].data + start * array.strides[0]
            if not carried:
                library.legate_fuse_kernel_combine(slots, partial)
                library.legate_fuse_kernel_start(partial)
            library.legate_fuse_kernel_resume(1, ffi.new("int64_t[]", [stop - start]), part,
                                              scalars, partial)
        library.legate_fuse_kernel_combine(slots, partial)
        return arrays

    for got, want in zip(in_parts(carried=True), whole, strict=True):
        assert got.tobytes() == want.tobytes()
    first_sum = len(whole) - reductions
    assert in_parts(carried=False)[first_sum].tobytes() != whole[first_sum].tobytes()


def folded_in_order(values: list[float]) -> float:
    total = 0.0
    for value in values:
        total += value
    return total


def test_a_single_element_block_folds_its_one_operand(compiler: KernelCompiler) -> None:
    """A 0-d block (no dimension) is one element: staged and folded once."""
    library = ffi.dlopen(str(compiler.build(reductions_of_a_call("float64", ("SUM",)).render_c())))
    x, out, scale = numpy.array(0.75), numpy.array(0.0), numpy.array(3.0)
    total = numpy.array(0.5)
    arrays = described([x, out, scale, total])
    library.legate_fuse_kernel(0, ffi.new("int64_t[]", 1), arrays, ffi.new("char[]", 8 * 8))
    assert float(out) == float(numpy.exp(0.75) * 3.0)
    assert float(total) == 0.5 + float(out)
