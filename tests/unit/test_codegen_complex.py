"""Complex kernels computed tile by tile with the inline forms of their sums, differences and
products where no complex value of the tile is NaN, and with the out-of-line functions (which
choose between NaN operands as cuPyNumeric's do) where one is: both paths give the same bits
wherever there is no NaN. Run through cffi, without Legate."""

from __future__ import annotations

import numpy
import pytest

from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.plan.kernel_spec import ARG, REGISTER, KernelSpec

from .c_kernels import IN, OUT, run

TILE = 256  # codegen/staged_body.h STAGE_TILE

COMPLEX = ("complex128", "complex64")


def chain_spec(dtype: str, last_op: str = "BINARY_OP.MULTIPLY") -> KernelSpec:
    """out = ((x * y + x) - y) <last_op> y, in place of x."""
    return KernelSpec(
        args=((IN, dtype, False), (IN, dtype, False), (OUT, dtype, False)), scalar_types=(),
        nodes=(("BINARY_OP.MULTIPLY", dtype, ((ARG, 0), (ARG, 1))),
               ("BINARY_OP.ADD", dtype, ((REGISTER, 0), (ARG, 0))),
               ("BINARY_OP.SUBTRACT", dtype, ((REGISTER, 1), (ARG, 1))),
               (last_op, dtype, ((REGISTER, 2), (ARG, 1)))),
        stores=((2, 3),), reductions=())


def parts_of_every_magnitude(dtype: str, n: int, seed: int) -> numpy.ndarray:
    """Random parts from tiny to huge: a few products of three overflow to infinities or
    underflow to subnormals."""
    rng = numpy.random.default_rng(seed)
    wide = 110 if dtype == "complex128" else 14
    raw = rng.normal(size=(2, n)) * 10.0 ** rng.uniform(-wide, wide, size=(2, n))
    with numpy.errstate(over="ignore"):
        return (raw[0] + 1j * raw[1]).astype(dtype)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", COMPLEX)
def test_tiles_with_and_without_a_nan_agree_bit_for_bit(compiler: KernelCompiler,
                                                        dtype: str) -> None:
    """The same elements computed once in tiles without NaN (inline forms, vectorised) and once
    in tiles that each hold one NaN (the functions): every element but the NaNs has the same
    bits. A product contracted into fused multiply-adds, or computed other than as libcu++'s
    formula, rounds otherwise in some of them."""
    n = 10 * TILE + 37  # tiles and a remainder
    x, y = parts_of_every_magnitude(dtype, n, 5), parts_of_every_magnitude(dtype, n, 6)
    spec = chain_spec(dtype)
    assert "lf_nan" in spec.render_c()
    inline = numpy.zeros_like(x)
    run(compiler, spec, [x, y, inline], x.shape)
    poisoned = x.copy()
    poisoned[::TILE] = complex(numpy.nan, 0)  # one NaN in every tile
    apart = numpy.zeros_like(x)
    run(compiler, spec, [poisoned, y, apart], x.shape)
    keep = numpy.ones(n, dtype=bool)
    keep[::TILE] = False
    finite = numpy.isfinite(inline[keep])
    assert 0.9 < finite.mean() < 1  # mostly ordinary values, some infinities
    assert inline[keep].tobytes() == apart[keep].tobytes()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", COMPLEX)
def test_an_output_that_is_an_input_is_read_before_it_is_written(compiler: KernelCompiler,
                                                                  dtype: str) -> None:
    """x = chain(x, y) in place: a tile with a NaN is computed again from the inputs as the
    kernel found them (the tile's inline results were not stored)."""
    n = 3 * TILE + 5
    x, y = parts_of_every_magnitude(dtype, n, 7), parts_of_every_magnitude(dtype, n, 8)
    x[TILE + 3] = complex(numpy.nan, 1)
    spec = chain_spec(dtype)
    expected = numpy.zeros_like(x)
    run(compiler, spec, [x, y, expected], x.shape)
    run(compiler, spec, [x, y, x], x.shape)
    assert x.tobytes() == expected.tobytes()


def test_only_kernels_whose_complex_operations_all_have_inline_forms_are_checked() -> None:
    assert "lf_nan" in chain_spec("complex64", "BINARY_OP.ADD").render_c()
    assert "lf_nan" not in chain_spec("complex128", "BINARY_OP.DIVIDE").render_c()
    real = chain_spec("float64").render_c()
    assert "lf_nan" not in real
