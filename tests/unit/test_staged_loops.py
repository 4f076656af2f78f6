"""Kernels that call C library functions run their contiguous rows tile by tile (the calls in
loops of their own); the results must be bit for bit those of the one-loop body, which the
same kernel runs on strided rows."""

from __future__ import annotations

import numpy
import pytest

from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.plan.kernel_spec import ARG, NO_OPERAND, REGISTER, SCALAR, KernelSpec

from .c_kernels import IN, OUT, RED, run

# x, y in; out aliases x when in place. r0 = x*y; r1 = exp(r0); r2 = log(y); r3 = r1 + r2;
# r4 = exp(r3 * s0) (a call whose input depends on a call); r5 = r3 > s0; r6 = where(r5, r4, x);
# out = r6; sum(r4) where r5.
STAGED = KernelSpec(
    args=((IN, "float64", False), (IN, "float64", False), (OUT, "float64", False),
          (RED, "float64", True)),
    scalar_types=("float64",),
    nodes=(("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (ARG, 1))),
           ("UNARY_OP.EXP", "float64", ((REGISTER, 0),)),
           ("UNARY_OP.LOG", "float64", ((ARG, 1),)),
           ("BINARY_OP.ADD", "float64", ((REGISTER, 1), (REGISTER, 2))),
           ("BINARY_OP.MULTIPLY", "float64", ((REGISTER, 3), (SCALAR, 0))),
           ("UNARY_OP.EXP", "float64", ((REGISTER, 4),)),
           ("BINARY_OP.GREATER", "bool", ((REGISTER, 3), (SCALAR, 0))),
           ("WHERE", "float64", ((REGISTER, 6), (REGISTER, 5), (ARG, 0)))),
    stores=((2, 7),),
    reductions=((3, "SUM", (REGISTER, 5), (REGISTER, 6)),))


def inputs(n: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    rng = numpy.random.default_rng(n)
    x = rng.normal(0, 2, n)
    y = rng.uniform(-0.5, 3, n)  # log of negatives: NaN
    x[: min(n, 6)] = [numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1e300][: min(n, 6)]
    return x, y


def strided_copy(a: numpy.ndarray) -> numpy.ndarray:
    holder = numpy.full(2 * len(a), -1.0)
    holder[::2] = a
    return holder[::2]


def test_library_calls_make_the_contiguous_loop_staged() -> None:
    assert "for (int64_t tile = 0" in STAGED.render_c()
    call_free = KernelSpec(args=((IN, "float64", False), (OUT, "float64", False)),
                           scalar_types=(),
                           nodes=(("UNARY_OP.SQRT", "float64", ((ARG, 0),)),
                                  ("BINARY_OP.ADD", "float64", ((REGISTER, 0), (ARG, 0)))),
                           stores=((1, 1),), reductions=())
    assert "tile" not in call_free.render_c()


def test_a_mask_kept_between_loops_is_as_wide_as_the_values() -> None:
    """r6, a comparison the last loop's `where` selects by, is kept in a tile buffer of 8-byte
    integers beside the float64 values (a loop that loads 1-byte bools beside them is not
    vectorised)."""
    source = STAGED.render_c()
    assert "uint64_t t6[256];" in source
    assert "bool t6[" not in source


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("n", [1, 255, 256, 257, 1000])
@pytest.mark.parametrize("in_place", [False, True])
def test_staged_rows_equal_one_loop_rows_bitwise(compiler: KernelCompiler, n: int,
                                                 in_place: bool) -> None:
    x, y = inputs(n)
    results = []
    for layout in (numpy.ascontiguousarray, strided_copy):
        xs, ys = layout(x.copy()), layout(y.copy())
        out = xs if in_place else layout(numpy.zeros(n))
        total = numpy.array(0.0)
        run(compiler, STAGED, [xs, ys, out, total], (n,), (0.25,))
        results.append((out.tobytes(), total.tobytes()))
    assert results[0] == results[1]
    # And the meaning is the one the spec states (NumPy's exp/log may differ in the last bit).
    with numpy.errstate(all="ignore"):
        r3 = numpy.exp(x * y) + numpy.log(y)
        want = numpy.where(r3 > 0.25, numpy.exp(r3 * 0.25), x)
    got = numpy.frombuffer(results[0][0])
    numpy.testing.assert_allclose(got, want, rtol=1e-13)


def test_reductions_only_after_calls(compiler: KernelCompiler) -> None:
    spec = KernelSpec(args=((IN, "float64", False), (RED, "float64", True)), scalar_types=(),
                      nodes=(("UNARY_OP.EXP", "float64", ((ARG, 0),)),
                             ("BINARY_OP.MULTIPLY", "float64", ((REGISTER, 0), (ARG, 0)))),
                      stores=(), reductions=((1, "SUM", (REGISTER, 1), NO_OPERAND),))
    x = numpy.linspace(-3, 3, 700)
    totals = []
    for layout in (numpy.ascontiguousarray, strided_copy):
        total = numpy.array(0.0)
        run(compiler, spec, [layout(x.copy()), total], x.shape)
        totals.append(total.tobytes())
    assert totals[0] == totals[1]
    numpy.testing.assert_allclose(numpy.frombuffer(totals[0]), (numpy.exp(x) * x).sum(),
                                  rtol=1e-12)
