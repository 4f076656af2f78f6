"""Generated CUDA kernels compile to PTX with NVRTC: every operation the C renderer supports,
for every dtype, and the reductions; compile errors carry NVRTC's log. No GPU needed."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from legate_fuse import _core
from legate_fuse.backend.compiler import CompileError
from legate_fuse.backend.nvrtc import PtxCompiler, find_nvrtc
from legate_fuse.lift.cupynumeric import BINARY_OPS, CONVERSIONS, REDUCTIONS, UNARY_OPS
from legate_fuse.plan.kernel_spec import ARG, NO_OPERAND, REGISTER, SCALAR, KernelSpec
from legate_fuse.plan.kernel_spec import ROLE_INPUT as IN
from legate_fuse.plan.kernel_spec import ROLE_OUTPUT as OUT
from legate_fuse.plan.kernel_spec import ROLE_REDUCTION as RED

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]


@pytest.fixture(scope="module")
def compiler(tmp_path_factory: pytest.TempPathFactory) -> object:
    try:
        _core.nvrtc_version(find_nvrtc())
    except _core.NvrtcError as error:
        pytest.skip(f"NVRTC is not available: {error}")
    return PtxCompiler(tmp_path_factory.mktemp("ptx"))


def every_operation(dtype: str) -> KernelSpec:
    """One kernel computing every supported unary, binary and conversion operation of `dtype`
    from two inputs (and run-time scalars where the operation takes some), each result stored
    to an output of its own."""
    nodes: list[tuple[str, str, tuple[tuple[int, int], ...]]] = []
    scalar_types: list[str] = []

    def add(op: str, out: str, operands: tuple[tuple[int, int], ...]) -> None:
        for _ in range(_core.runtime_scalar_count(op)):
            operands += ((SCALAR, len(scalar_types)),)
            scalar_types.append(out)
        nodes.append((op, out, operands))

    for name in sorted(UNARY_OPS):
        for out in (dtype, "bool"):
            if _core.c_supports(f"UNARY_OP.{name}", out, [dtype]):
                add(f"UNARY_OP.{name}", out, ((ARG, 0),))
                break
    for name in sorted(BINARY_OPS):
        for out in (dtype, "bool"):
            if _core.c_supports(f"BINARY_OP.{name}", out, [dtype, dtype]):
                add(f"BINARY_OP.{name}", out, ((ARG, 0), (ARG, 1)))
                break
    for mode, out in itertools.product(sorted(CONVERSIONS), DTYPES):
        if out != dtype and _core.c_supports(f"CONVERT.{mode}", out, [dtype]):
            add(f"CONVERT.{mode}", out, ((ARG, 0),))
    args = [(IN, dtype, False), (IN, dtype, False)]
    args += [(OUT, out, False) for _, out, _ in nodes]
    stores = tuple((2 + i, i) for i in range(len(nodes)))
    return KernelSpec(tuple(args), tuple(scalar_types), tuple(nodes), stores, ())


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_operation_compiles_to_ptx(compiler: PtxCompiler, dtype: str) -> None:
    spec = every_operation(dtype)
    assert len(spec.nodes) >= 8
    ptx = Path(compiler.build(spec.render_cuda())).read_text()
    assert ".entry legate_fuse_kernel" in ptx


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_reduction_compiles_to_ptx(compiler: PtxCompiler, dtype: str) -> None:
    ops = [op for op in sorted(REDUCTIONS) if _core.c_supports_reduction(op, dtype)]
    assert ops
    args = [(IN, dtype, False), (IN, "bool", False)]
    args += [(RED, dtype, True) for _ in ops]
    reductions = tuple((2 + i, op, (ARG, 0), (ARG, 1) if i % 2 else NO_OPERAND)
                       for i, op in enumerate(ops))
    spec = KernelSpec(tuple(args), (), (), (), reductions)
    ptx = Path(compiler.build(spec.render_cuda())).read_text()
    assert "atom.global.cas" in ptx or "atom.cas" in ptx


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint32", "uint64"])
def test_axis_reductions_fold_each_element_atomically(compiler: PtxCompiler, dtype: str) -> None:
    # Reductions into arrays (axis reductions): each thread folds into its own target element
    # by compare-and-swap, with no accumulator and no block-wide combine.
    ops = ("SUM", "PROD", "MAX", "MIN")
    args = [(IN, dtype, False)] + [(RED, dtype, False) for _ in ops]
    reductions = tuple((1 + i, op, (ARG, 0), NO_OPERAND) for i, op in enumerate(ops))
    source = KernelSpec(tuple(args), (), (), (), reductions).render_cuda()
    assert "__shared__" not in source and "acc0" not in source
    assert source.count("lf_fold0(&") == 1
    ptx = Path(compiler.build(source)).read_text()
    assert "atom.global.cas" in ptx or "atom.cas" in ptx


def test_values_broadcast_and_chains_compile(compiler: PtxCompiler) -> None:
    spec = KernelSpec(
        args=((IN, "float64", False), (IN, "float64", True), (OUT, "float64", False),
              (RED, "float64", True)),
        scalar_types=(),
        nodes=(("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (ARG, 1))),
               ("UNARY_OP.EXP", "float64", ((REGISTER, 0),))),
        stores=((2, 1),), reductions=((3, "SUM", (REGISTER, 1), NO_OPERAND),))
    source = spec.render_cuda()
    assert "__global__" in source and "--fmad" not in source
    assert ".entry legate_fuse_kernel" in Path(compiler.build(source)).read_text()


def test_compile_errors_carry_the_log(compiler: PtxCompiler) -> None:
    with pytest.raises(CompileError, match=r"(?s)NVRTC could not compile.*undefined"):
        compiler.build('extern "C" __global__ void legate_fuse_kernel() { undefined_name(); }')


def test_missing_nvrtc_is_a_compile_error(tmp_path: Path) -> None:
    broken = PtxCompiler(tmp_path, library=str(tmp_path / "libnvrtc.so.13"))
    with pytest.raises(CompileError, match="cannot load NVRTC"):
        broken.build("__global__ void k() {}")


def test_run_time_scalars_follow_the_arrays(compiler: PtxCompiler) -> None:
    """clip's bounds are read from 8-byte slots after the arrays in the kernel's parameter, as
    the FUSED task's GPU variant packs them."""
    spec = KernelSpec(args=((IN, "float32", False), (OUT, "float32", False)),
                      scalar_types=("float32", "float32"),
                      nodes=(("UNARY_OP.CLIP", "float32", ((ARG, 0), (SCALAR, 0), (SCALAR, 1))),),
                      stores=((1, 0),), reductions=())
    source = spec.render_cuda()
    assert "unsigned long long scalars[2];" in source
    assert "const float s1 = *(const float*)&p.scalars[1];" in source
    assert ".entry legate_fuse_kernel" in Path(compiler.build(source)).read_text()


def test_a_value_output_of_a_loop_has_no_cuda_rendering() -> None:
    # (A group writes one only where its fused task runs as one point on a CPU.)
    spec = KernelSpec(
        args=((IN, "float64", True), (IN, "float64", False), (OUT, "float64", True),
              (OUT, "float64", False)),
        scalar_types=(),
        nodes=(("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (ARG, 0))),
               ("BINARY_OP.MULTIPLY", "float64", ((REGISTER, 0), (ARG, 1)))),
        stores=((2, 0), (3, 1)), reductions=())
    with pytest.raises(_core.UnsupportedError, match="0-d output of a loop"):
        spec.render_cuda()
