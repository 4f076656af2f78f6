"""The generated CUDA kernels run, without a GPU: compiled for the host (cuda_on_host.h, blocks
of real threads), launched with the parameter the FUSED task's GPU variant packs, on the same
inputs as the C kernels, bit for bit. Math functions are the host's on both sides, so what is
compared is the CUDA kernel's own work: its indexing over blocks and threads, strides,
broadcasts, aliasing, run-time scalars, and its folds (block-wide combines and atomics). The
device's own math functions are tested in test_device_math_on_host.py."""

from __future__ import annotations

import numpy
import pytest

from legate_fuse import _core
from legate_fuse.backend.compiler import KernelCache
from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.lift.cupynumeric import REDUCTIONS
from legate_fuse.plan.kernel_spec import ARG, NO_OPERAND, REGISTER, KernelSpec

from . import c_kernels, cuda_on_host
from .c_kernels import IN, OUT, RED
from .test_codegen_cuda import DTYPES, every_operation

BLOCK = _core.CUDA_BLOCK_SIZE


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> KernelCache:
    return cuda_on_host.host_compiler(tmp_path_factory.mktemp("cuda-on-host"))


def values(dtype: str, count: int, seed: int, exact: bool = False) -> numpy.ndarray:
    """Inputs of every kind: small and extreme integers; floats with zeros of both signs,
    infinities and NaN. `exact`: small integers only, whose sums and products any order of
    folding gives exactly."""
    rng = numpy.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, count).astype(bool)
    if exact:
        return rng.choice([-1, 1, 2] if dtype.startswith("int") or "float" in dtype else [1, 2],
                          count).astype(dtype)
    if dtype.startswith(("int", "uint")):
        info = numpy.iinfo(dtype)
        wide = rng.integers(info.min, info.max, count, endpoint=True, dtype=dtype)
        small = rng.integers(max(info.min, -4), 5, count).astype(dtype)
        return numpy.where(rng.integers(0, 2, count).astype(bool), wide, small)
    out = (rng.standard_normal(count) * 8).astype(dtype)
    specials = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1.0, -1.0], dtype)
    out[rng.integers(0, count, count // 8)] = rng.choice(specials, count // 8)
    return out


def divisors(dtype: str, count: int, seed: int) -> numpy.ndarray:
    """Second operands: integers never 0 or -1, which trap in integer division on the host
    (cuPyNumeric's own CPU kernels die of SIGFPE there too)."""
    out = values(dtype, count, seed)
    if dtype.startswith(("int", "uint")):
        out[(out == 0) | (out == numpy.array(-1).astype(dtype))] = 3
    return out


def scalars_of(spec: KernelSpec) -> tuple[numpy.generic, ...]:
    return tuple(numpy.array(k - 1).astype(t)[()] for k, t in enumerate(spec.scalar_types))


def run_both(compiler: KernelCompiler, host: KernelCache, spec: KernelSpec,
             make_arrays: object, extents: tuple[int, ...], blocks: int | None = None
             ) -> tuple[list[numpy.ndarray], list[numpy.ndarray]]:
    """The arrays after the C kernel and after the CUDA kernel, each run on arrays of its own
    from `make_arrays()` (the same values)."""
    on_cpu = make_arrays()  # type: ignore[operator]
    on_gpu = make_arrays()  # type: ignore[operator]
    scalars = scalars_of(spec)
    c_kernels.run(compiler, spec, on_cpu, extents, scalars)
    cuda_on_host.run(host, spec, on_gpu, extents, scalars, blocks=blocks)
    return on_cpu, on_gpu


def assert_same_bits(on_cpu: list[numpy.ndarray], on_gpu: list[numpy.ndarray]) -> None:
    for index, (a, b) in enumerate(zip(on_cpu, on_gpu, strict=True)):
        assert a.tobytes() == b.tobytes(), f"array {index}: C {a[:8]} CUDA {b[:8]}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_operation_computes_what_the_c_kernel_computes(
        compiler: KernelCompiler, host: KernelCache, dtype: str) -> None:
    spec = every_operation(dtype)
    count = 3 * BLOCK + 17
    outputs = [out for role, out, _ in spec.args if role == OUT]

    def arrays() -> list[numpy.ndarray]:
        return [values(dtype, count, 1), divisors(dtype, count, 2)] + [
            numpy.zeros(count, out) for out in outputs]

    assert_same_bits(*run_both(compiler, host, spec, arrays, (count,)))


CHAIN = KernelSpec(
    args=((IN, "float64", False), (IN, "float64", False), (OUT, "float64", False)),
    scalar_types=(),
    nodes=(("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (ARG, 1))),
           ("BINARY_OP.ADD", "float64", ((REGISTER, 0), (ARG, 0))),
           ("UNARY_OP.EXP", "float64", ((REGISTER, 1),))),
    stores=((2, 2),), reductions=())


@pytest.mark.parametrize(("count", "blocks"), [(1, None), (BLOCK - 1, None), (BLOCK, None),
                                               (BLOCK + 1, None), (2 * BLOCK + 1, None),
                                               (10 * BLOCK + 3, 2), (5000, 1)])
def test_sizes_across_block_boundaries_and_grids_smaller_than_the_array(
        compiler: KernelCompiler, host: KernelCache, count: int, blocks: int | None) -> None:
    """Every element is computed once, whether the launch has a thread per element or each
    thread strides over several (a grid smaller than the array)."""
    def arrays() -> list[numpy.ndarray]:
        return [values("float64", count, 3), values("float64", count, 4),
                numpy.full(count + 1, 7.0)]  # one past the end: must stay untouched

    on_cpu, on_gpu = run_both(compiler, host, CHAIN, arrays, (count,), blocks)
    assert_same_bits(on_cpu, on_gpu)
    assert on_gpu[2][-1] == 7.0


def test_strided_and_broadcast_operands(compiler: KernelCompiler, host: KernelCache) -> None:
    """Views with steps in two dimensions, a row broadcast down the columns (stride 0), the
    output a strided view of a larger array whose other elements must stay as they were."""
    rows, cols = 37, 29

    def arrays() -> list[numpy.ndarray]:
        big = values("float64", 2 * rows * 3 * cols, 5).reshape(2 * rows, 3 * cols)
        row = values("float64", cols, 6)
        out = numpy.full((rows + 3, 2 * cols), -1.0)
        return [big[::2, 1::3], numpy.lib.stride_tricks.as_strided(row, (rows, cols),
                                                                    (0, row.strides[0])),
                out[1:rows + 1, ::2]]

    on_cpu, on_gpu = run_both(compiler, host, CHAIN, arrays, (rows, cols))
    cpu_out, gpu_out = on_cpu[2].base, on_gpu[2].base  # the whole array written through a view
    assert isinstance(cpu_out, numpy.ndarray) and isinstance(gpu_out, numpy.ndarray)
    assert_same_bits([cpu_out], [gpu_out])
    assert (gpu_out[0] == -1.0).all() and (gpu_out[1:rows + 1, 1::2] == -1.0).all()


def test_an_output_that_is_one_of_its_inputs(compiler: KernelCompiler,
                                             host: KernelCache) -> None:
    """`a[:] = exp(a * b + a)`: the output is the first input's memory, each element read before
    it is written, by the thread that writes it."""
    count = 4 * BLOCK + 9

    def arrays() -> list[numpy.ndarray]:
        a = values("float64", count, 7)
        return [a, values("float64", count, 8), a]

    assert_same_bits(*run_both(compiler, host, CHAIN, arrays, (count,)))


def reductions_of(dtype: str) -> list[str]:
    return [op for op in sorted(REDUCTIONS) if _core.c_supports_reduction(op, dtype)]


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_reduction_to_a_value_folds_as_the_c_kernel(
        compiler: KernelCompiler, host: KernelCache, dtype: str) -> None:
    """Each kind of reduction, half of them masked: per thread, across the block (shared memory,
    __syncthreads), across blocks (atomics), into the value already there. On values whose
    folds are exact in any order."""
    ops = reductions_of(dtype)
    args = [(IN, dtype, False), (IN, "bool", False)] + [(RED, dtype, True) for _ in ops]
    reductions = tuple((2 + i, op, (ARG, 0), (ARG, 1) if i % 2 else NO_OPERAND)
                       for i, op in enumerate(ops))
    spec = KernelSpec(tuple(args), (), (), (), reductions)
    count = 6 * BLOCK + 5
    start = values(dtype, len(ops), 9, exact=True)

    def arrays() -> list[numpy.ndarray]:
        return [values(dtype, count, 10, exact=True), values("bool", count, 11)] + [
            start[i:i + 1].copy() for i in range(len(ops))]

    for blocks in (None, 2):
        on_cpu, on_gpu = run_both(compiler, host, spec, arrays, (count,), blocks)
        assert_same_bits(on_cpu, on_gpu)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint32", "uint64",
                                   "int8", "uint16", "bool"])
def test_reductions_along_an_axis_fold_each_element_atomically(
        compiler: KernelCompiler, host: KernelCache, dtype: str) -> None:
    """Reductions into arrays (sum(axis=1) and the like): every thread of a row folds into the
    row's element, racing with the others, by compare-and-swap (bytes and halves of a word
    too)."""
    ops = reductions_of(dtype)
    args = [(IN, dtype, False)] + [(RED, dtype, False) for _ in ops]
    reductions = tuple((1 + i, op, (ARG, 0), NO_OPERAND) for i, op in enumerate(ops))
    spec = KernelSpec(tuple(args), (), (), (), reductions)
    rows, cols = 13, 3 * BLOCK + 7
    start = values(dtype, rows, 12, exact=True)

    targets: list[list[numpy.ndarray]] = []  # of the C kernel's run, then the CUDA kernel's

    def arrays() -> list[numpy.ndarray]:
        targets.append([start.copy() for _ in ops])  # an element per row, for every column
        return [values(dtype, rows * cols, 13, exact=True).reshape(rows, cols)] + [
            numpy.lib.stride_tricks.as_strided(t, (rows, cols), (t.strides[0], 0))
            for t in targets[-1]]

    run_both(compiler, host, spec, arrays, (rows, cols))
    assert_same_bits(targets[0], targets[1])
    assert any(t.tobytes() != start.tobytes() for t in targets[1]), "nothing was folded"
