"""Every lifted operation, fused in a chain, equals fusion off bit for bit, over its dtypes and
the values where semantics differ (NaN, infinities, zeros of both signs, extremes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cupynumeric as cn
import numpy
import pytest

import legate_fuse
from legate_fuse.session import Session
from legate_fuse.unfused import KERNEL_FAILED

FLOATS = ("float64", "float32")
INTS = ("int64", "int32", "int16", "int8", "uint64", "uint32", "uint8")


def special_values(dtype: str, n: int = 64) -> numpy.ndarray:
    rng = numpy.random.default_rng(abs(hash(dtype)) % 2**32)
    kind = numpy.dtype(dtype).kind
    if kind == "f":
        specials = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, numpy.nan, -numpy.nan,
                    numpy.inf, -numpy.inf, 1e-300, -1e-300, 1e300, 3.0, -7.0, 1e-8]
        values = numpy.concatenate([specials, rng.normal(0, 10, n - len(specials))])
    elif kind == "b":
        values = rng.integers(0, 2, n).astype(bool)
    else:
        info = numpy.iinfo(dtype)
        specials = [0, 1, info.max, info.min, info.max - 1, 7, 3]
        if info.min < 0:
            specials += [-1, -7, info.min + 1]
        values = numpy.concatenate([specials, rng.integers(max(info.min, -100),
                                                           min(info.max, 100), n - len(specials))])
    return numpy.asarray(values).astype(dtype)


def fused_and_unfused(session: Session, program: Callable[..., Any], *inputs: numpy.ndarray,
                      fuses: bool = True) -> tuple[numpy.ndarray, numpy.ndarray, int]:
    """The program's result with fusion on and off, and the fused tasks the first launched:
    at least one unless `fuses` is False (nothing to fuse: say why)."""
    arrays = [cn.array(x) for x in inputs]
    legate_fuse.flush()
    before = session.stats.fused_launches
    fused = numpy.asarray(program(*arrays))
    launches = session.stats.fused_launches - before
    assert launches >= 1 or not fuses, "nothing was fused: the comparison proves nothing"
    legate_fuse.disable()
    try:
        unfused = numpy.asarray(program(*arrays))
    finally:
        legate_fuse.enable()
    return fused, unfused, launches


def assert_same_bits(fused: numpy.ndarray, unfused: numpy.ndarray) -> None:
    assert fused.dtype == unfused.dtype
    if fused.tobytes() != unfused.tobytes():
        different = [i for i in range(len(fused))
                     if fused[i:i + 1].tobytes() != unfused[i:i + 1].tobytes()]
        raise AssertionError(f"{len(different)} elements differ, e.g. at {different[:5]}: "
                             f"fused {fused[different[:5]]} unfused {unfused[different[:5]]}")


UNARY_FLOAT = ["absolute", "negative", "positive", "sqrt", "exp", "exp2", "expm1", "log", "log2",
               "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh",
               "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "cbrt", "floor", "ceil", "trunc",
               "rint", "square", "reciprocal", "sign", "isnan", "isinf", "isfinite", "signbit",
               "logical_not"]
UNARY_INT = ["absolute", "negative", "positive", "square", "sign", "invert", "logical_not"]
# cuPyNumeric computes these through float16 for one-byte integers (test_half_precision.py).
UNARY_INT_WIDE = ["isnan", "isinf", "isfinite"]
BINARY_FLOAT = ["add", "subtract", "multiply", "divide", "power", "arctan2", "hypot", "copysign",
                "fmod", "maximum", "minimum", "floor_divide", "remainder", "equal", "not_equal",
                "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
                "logical_xor"]
BINARY_INT = ["add", "subtract", "multiply", "maximum", "minimum", "bitwise_and", "bitwise_or",
              "bitwise_xor", "equal", "not_equal", "less", "greater_equal", "logical_and",
              "logical_xor", "power"]


def cases(ops: list[str], dtypes: tuple[str, ...]) -> list[Any]:
    return [pytest.param(op, dtype, id=f"{op}-{dtype}") for op in ops for dtype in dtypes]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("op", "dtype"), cases(UNARY_FLOAT, FLOATS) + cases(UNARY_INT, INTS)
                         + cases(UNARY_INT_WIDE, INTS))
def test_unary_op_in_a_chain(session: Session, op: str, dtype: str) -> None:
    fn = getattr(cn, op)

    def program(a: Any) -> Any:
        b = a + a  # fused producer
        c = fn(b)
        return fn(c) if c.dtype == b.dtype else c  # and a fused consumer

    fused, unfused, launches = fused_and_unfused(session, program, special_values(dtype))
    assert launches >= 1
    assert_same_bits(fused, unfused)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("op", "dtype"), cases(BINARY_FLOAT, FLOATS) + cases(BINARY_INT, INTS))
def test_binary_op_in_a_chain(session: Session, op: str, dtype: str) -> None:
    fn = getattr(cn, op)
    x = special_values(dtype)
    y = numpy.roll(special_values(dtype), 5)

    def program(a: Any, b: Any) -> Any:
        return fn(a * 1, b)  # a fused producer

    fused, unfused, launches = fused_and_unfused(session, program, x, y)
    assert launches >= 1
    assert_same_bits(fused, unfused)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", FLOATS)
def test_a_negated_nan_keeps_its_flipped_sign_in_a_sum(session: Session, dtype: str) -> None:
    """cuPyNumeric negates first: -a + b, with a NaN, is the NaN of the other sign. A compiler
    folds the fused -a + b into b - a, which returns a's NaN unflipped."""
    x = special_values(dtype)
    y = numpy.roll(special_values(dtype), 3)

    def program(a: Any, b: Any) -> Any:
        return -a + b, b - -a, -(a * 2) + b

    arrays = [cn.array(v) for v in (x, y)]
    before = session.stats.fused_launches
    fused = [numpy.asarray(r) for r in program(*arrays)]
    assert session.stats.fused_launches > before
    legate_fuse.disable()
    try:
        unfused = [numpy.asarray(r) for r in program(*arrays)]
    finally:
        legate_fuse.enable()
    for f, u in zip(fused, unfused, strict=True):
        assert_same_bits(f, u)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # special_values' uint64 extremes
@pytest.mark.parametrize(("op", "dtype"), cases(["floor_divide", "remainder", "fmod"], INTS))
def test_integer_division_in_a_chain(session: Session, op: str, dtype: str) -> None:
    # Divisors of every sign and size but zero (which traps without the plugin too), and no
    # minimum over -1 in 32 and 64 bits (the same trap); one- and two-byte integers divide in
    # int, where the minimum over -1 wraps around.
    fn = getattr(cn, op)
    x = special_values(dtype)
    y = numpy.roll(special_values(dtype), 5)
    y[y == 0] = 3
    if numpy.dtype(dtype).itemsize >= 4 and numpy.dtype(dtype).kind == "i":
        y[(x == numpy.iinfo(dtype).min) & (y == -1)] = 2

    def program(a: Any, b: Any) -> Any:
        return fn(a & a, b)  # a fused producer, of the same type (uint64 * 1 is a float)

    fused, unfused, launches = fused_and_unfused(session, program, x, y)
    assert launches >= 1
    assert_same_bits(fused, unfused)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # divisions by zero
@pytest.mark.parametrize("dtype", [*INTS, "bool"])
def test_true_division_of_integers_and_bools_in_a_chain(session: Session, dtype: str) -> None:
    """a / b of integers (and bools) is float64, computed by cuPyNumeric as (double)a / b: zero
    divisors included (infinities and NaN), and 64-bit values rounded to double first."""
    x = special_values(dtype)
    y = numpy.roll(special_values(dtype), 5)

    def program(a: Any, b: Any) -> Any:
        return cn.true_divide(a & a, b) + 1.0  # fused between a producer and a consumer

    fused, unfused, launches = fused_and_unfused(session, program, x, y)
    assert launches >= 1 and fused.dtype == numpy.float64
    assert_same_bits(fused, unfused)


@pytest.mark.parametrize(("src", "dst"), [(s, d) for s in FLOATS + INTS + ("bool",)
                                          for d in FLOATS + INTS + ("bool",) if s != d])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_conversion_in_a_chain(session: Session, src: str, dst: str) -> None:
    values = special_values(src)
    if numpy.dtype(src).kind == "f" and numpy.dtype(dst).kind in "iu":
        values = numpy.nan_to_num(values, nan=0.0, posinf=0.0, neginf=0.0)  # undefined in C
        values = numpy.clip(values, -100, 100).astype(src)

    def program(a: Any) -> Any:
        return (a * 1 if a.dtype != bool else a).astype(dst)

    # From bool, the conversion alone: nothing to fuse it with.
    fused, unfused, _ = fused_and_unfused(session, program, values, fuses=src != "bool")
    assert_same_bits(fused, unfused)


def test_where_fill_and_copy(session: Session) -> None:
    def program(a: Any, b: Any) -> Any:
        c = cn.where(a > b, a * 2.0, b - 1.0)
        d = cn.zeros_like(c)
        d[:] = c + 1.0
        return d

    x, y = special_values("float64"), numpy.roll(special_values("float64"), 3)
    fused, unfused, launches = fused_and_unfused(session, program, x, y)
    assert launches >= 1
    assert_same_bits(fused, unfused)


REDUCTIONS = ["sum", "prod", "max", "min", "all", "any"]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("op", "dtype"), cases(REDUCTIONS, ("float64", "float32", "int64",
                                                             "int32")))
@pytest.mark.parametrize("masked", [False, True])
def test_reduction_fused_with_its_producer(session: Session, op: str, dtype: str,
                                           masked: bool) -> None:
    fn = getattr(cn, op)
    values = special_values(dtype)
    if numpy.dtype(dtype).kind == "f":
        values = values[numpy.isfinite(values)]  # NaN handling is tested separately below
        values = numpy.clip(values, -3, 3).astype(dtype)

    def program(a: Any) -> Any:
        b = a * 1 + a * 0
        return fn(b, where=b > 0) if masked and op not in ("all", "any") else fn(b)

    fused, unfused, launches = fused_and_unfused(session, program, values)
    assert launches >= 1
    rtol = 1e-12 if dtype == "float64" else 1e-5
    if fused.dtype.kind == "f":
        numpy.testing.assert_allclose(fused, unfused, rtol=rtol)
    else:
        assert fused == unfused


@pytest.mark.parametrize("op", ["sum", "max", "min", "prod"])
def test_reductions_over_nan_and_infinities(session: Session, op: str) -> None:
    values = numpy.array([1.0, numpy.inf, -2.0, numpy.nan, 3.0, -numpy.inf, 0.0, -0.0])
    for data in (values, values[numpy.isfinite(values) | numpy.isinf(values)]):
        fused, unfused, _ = fused_and_unfused(session, lambda a: getattr(cn, op)(a + 0.0), data)
        assert_same_bits(fused.reshape(1), unfused.reshape(1))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", [1, 7, 1000, 200_000])
def test_dot_fused_with_its_producers_has_cupynumerics_bits(session: Session, dtype: str,
                                                            size: int) -> None:
    """cuPyNumeric's CPU dot of vectors folds each product by a fused multiply-add, in element
    order (its build contracts `acc += a * b`): the fused dot does the same, bit for bit, its
    factors computed in the kernel, one of them twice (`r @ r`), beside a library call (the
    staged form of a kernel)."""
    rng = numpy.random.default_rng(size)
    x, y = (rng.normal(size=size).astype(dtype) for _ in range(2))

    def program(a: Any, b: Any) -> Any:
        r = b - a * 2.0
        return cn.dot(a * 2.0, b + 1.0) + r @ r + cn.dot(cn.exp(a), b)

    failed = dict(session.stats.unfused)
    fused, unfused, launches = fused_and_unfused(session, program, x, y)
    assert launches >= 1
    assert_same_bits(fused.reshape(1), unfused.reshape(1))
    # (A kernel that failed to build would run cuPyNumeric's tasks: the same bits, untested.)
    assert {key: n for key, n in session.stats.unfused.items()
            if key[2] == KERNEL_FAILED and n != failed.get(key, 0)} == {}


def test_a_sum_over_many_parts_has_cupynumerics_bits(session: Session) -> None:
    """Over more elements than a kernel part holds (65,536), a fused floating-point sum folds
    its elements in one pass, in order, as cuPyNumeric's task does: the same bits."""
    x, y = numpy.linspace(-1, 1, 200_000) ** 3, numpy.linspace(2, 3, 200_000)
    fused, unfused, launches = fused_and_unfused(
        session, lambda a, b: cn.sum((a * 2.0) * (b + 1.0)), x, y)
    assert launches >= 1
    assert_same_bits(fused.reshape(1), unfused.reshape(1))


def test_values_computed_twice_give_the_same_bits(session: Session) -> None:
    """Repeated subexpressions (computed once in the kernel) and a sum of one of them."""
    x = numpy.linspace(-3.0, 3.0, 10_000)

    def program(a: Any) -> Any:
        first = cn.sqrt(a * a + 1.0) * cn.exp(-0.5 * a * a)
        second = cn.exp(-0.5 * a * a) / cn.sqrt(a * a + 1.0)
        return first - second + cn.sum(cn.exp(-0.5 * a * a))

    fused, unfused, launches = fused_and_unfused(session, program, x)
    assert launches >= 1
    assert_same_bits(fused, unfused)


def test_group_of_only_zero_d_values(session: Session) -> None:
    """A fused group that computes only on 0-d values (one element, no partitioned store)."""
    a = cn.array(numpy.arange(8.0))
    legate_fuse.flush()
    total = cn.sum(a)  # ends a group: its result is read by the next tasks
    before = session.stats.fused_launches
    scaled = -(total / 4.0) + 1.0  # divide, negative, add: values only
    assert float(scaled) == -(28.0 / 4.0) + 1.0
    assert session.stats.fused_launches > before


def clip_bounds(dtype: str) -> list[tuple[Any, Any]]:
    """Bounds that matter: ordinary, equal, reversed (min above max: every element is max),
    at the type's extremes, and NaN bounds of floats."""
    if numpy.dtype(dtype).kind == "f":
        return [(-2.5, 3.0), (0.0, 0.0), (3.0, -2.5), (-numpy.inf, 1.0), (numpy.nan, 1.0),
                (-1.0, numpy.nan), (-0.0, 0.0)]
    info = numpy.iinfo(dtype)
    return [(3, 50), (7, 7), (50, 3), (info.min, info.max), (info.max, info.min)]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_clip_reads_its_bounds_at_each_launch(session: Session, dtype: str) -> None:
    """clip's bounds are run-time values of its task: every pair of bounds runs the one kernel
    of the chain, with that pair's values."""
    values = special_values(dtype)
    for low, high in clip_bounds(dtype):
        def program(a: Any, low: Any = low, high: Any = high) -> Any:
            b = cn.clip(a | a if a.dtype.kind in "iu" else a * 1, low, high)  # producer
            return b + b  # and consumer

        fused, unfused, launches = fused_and_unfused(session, program, values)
        assert launches >= 1
        assert_same_bits(fused, unfused)


def test_clip_in_a_loop_shares_one_plan(session: Session) -> None:
    """Windows that differ only in clip's bounds take the first window's plan from the cache
    and run one kernel, each with its own bounds."""
    x = cn.array(numpy.linspace(-10.0, 10.0, 1001))
    legate_fuse.flush()
    hits = session.stats.plan_cache_hits
    results = []
    for i in range(4):
        results.append(numpy.asarray(cn.clip(x * 2.0, -1.0 - i, 1.0 + i) + 1.0))
    assert session.stats.plan_cache_hits - hits >= 3
    for i, result in enumerate(results):
        expected = numpy.clip(numpy.linspace(-10.0, 10.0, 1001) * 2.0, -1.0 - i, 1.0 + i) + 1.0
        assert result.tobytes() == expected.tobytes()


def test_clip_bounds_given_as_value_and_type_are_read_at_launch(session: Session) -> None:
    """A clip task whose bounds are (value, type) pairs, not Scalar objects, fuses and reads
    them as cuPyNumeric's kernel does."""
    from legate.core import get_legate_runtime
    from legate.core import types as ty

    from .tasks_by_hand import clip_task

    def program(a: Any) -> Any:
        doubled = a * 2
        out = cn.empty_like(a)
        clip_task(get_legate_runtime(), out, doubled, (-1.0, ty.float32), (2.0, ty.float32)
                  ).execute()
        return out + 1

    values = numpy.linspace(-3.0, 3.0, 101, dtype=numpy.float32)
    before = session.stats.tasks_fused
    fused, unfused, _ = fused_and_unfused(session, program, values)
    assert session.stats.tasks_fused - before >= 3
    assert_same_bits(fused, unfused)


@pytest.mark.parametrize(("bounds", "lifts"), [
    pytest.param(("float32", "float32"), True, id="two-of-its-type"),
    pytest.param(("float32", "float32", "pair"), True, id="as-pairs"),
    pytest.param(("float64", "float64"), False, id="of-a-wider-type"),
    pytest.param(("float32", "int32"), False, id="one-of-another-type"),
    pytest.param(("float32",), False, id="one"),
    pytest.param(("float32", "float32", "float32"), False, id="three"),
])
def test_clip_lifts_only_with_two_bounds_of_its_type(session: Session, bounds: tuple[str, ...],
                                                     lifts: bool) -> None:
    """The kernel reads clip's bounds as values of its result type, two of them: any other
    task stays as built (lifting checked on tasks that are built but never run, since
    cuPyNumeric's own kernel asserts two bounds of its type)."""
    from legate.core import Scalar, get_legate_runtime
    from legate.core import types as ty

    from legate_fuse.lift import lift

    from .tasks_by_hand import clip_task

    src = cn.array(numpy.linspace(-3.0, 3.0, 101, dtype=numpy.float32))
    out = cn.empty_like(src)
    pairs = bounds[-1] == "pair"
    types = [getattr(ty, name) for name in bounds if name != "pair"]
    args = [(1.0, kind) if pairs else Scalar(1.0, kind) for kind in types]
    task = clip_task(get_legate_runtime(), out, src, *args)
    if task._built is not None:  # built at once: more scalars than any lifted task takes
        assert not lifts
        return
    lifted = lift(task._record)
    assert (lifted is not None and lifted.op == "UNARY_OP.CLIP") == lifts


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", FLOATS + INTS + ("bool",))
def test_boolean_mask_assignment_fuses_with_its_neighbours(session: Session, dtype: str
                                                           ) -> None:
    """`b[mask] = value` is cuPyNumeric's putmask: the array it writes is the array it reads,
    and the value is broadcast; it fuses with the work that makes the array and the mask and
    with the work after it."""
    values = special_values(dtype)

    def program(a: Any) -> Any:
        b = a | a if a.dtype.kind in "iub" else a * 1
        b[b > b.dtype.type(2)] = b.dtype.type(1)
        return b | b if b.dtype.kind in "iub" else b + 1

    fused, unfused, launches = fused_and_unfused(session, program, values)
    assert launches >= 1
    assert_same_bits(fused, unfused)


def test_putmask_with_an_array_of_values_and_nan_to_num(session: Session) -> None:
    """putmask with values of the array's shape, and nan_to_num (three putmasks after the
    masks it computes), fused against unfused."""
    x = special_values("float64")
    y = numpy.roll(x, 3)

    def program(a: Any, b: Any) -> Any:
        c = a * 2.0
        cn.putmask(c, b < 0, b)
        return cn.nan_to_num(c + 1.0) * 3.0

    from cupynumeric.config import CuPyNumericOpCode

    def putmasks_unfused() -> int:
        return sum(count for (_, task_id, _), count in session.stats.unfused.items()
                   if task_id == int(CuPyNumericOpCode.PUTMASK))

    before, unfused_before = session.stats.tasks_fused, putmasks_unfused()
    fused, unfused, launches = fused_and_unfused(session, program, x, y)
    assert launches >= 1 and session.stats.tasks_fused - before >= 8
    assert putmasks_unfused() == unfused_before + 4  # only in the run with fusion off
    assert_same_bits(fused, unfused)


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_arange_fuses_with_its_consumers(session: Session, dtype: str) -> None:
    """arange computes each element from its index (static_cast<T>(i) * step + start in the
    output's type, wrapping in narrow integers), fused with the work after it."""
    info = numpy.finfo(dtype) if numpy.dtype(dtype).kind == "f" else numpy.iinfo(dtype)
    start, step = (-3.5, 0.3) if numpy.dtype(dtype).kind == "f" else (1, 3)
    count = 1000 if numpy.dtype(dtype).itemsize > 1 else 40

    def program() -> Any:
        a = cn.arange(start, start + step * count, step, dtype=dtype)
        return a * a.dtype.type(3) + a

    legate_fuse.flush()
    before = session.stats.fused_launches
    fused = numpy.asarray(program())
    assert session.stats.fused_launches > before
    legate_fuse.disable()
    try:
        unfused = numpy.asarray(program())
    finally:
        legate_fuse.enable()
    assert info is not None and fused.dtype == unfused.dtype
    assert_same_bits(fused, unfused)


def test_linspace_fuses(session: Session) -> None:
    def program() -> Any:
        return cn.linspace(-1.0, 2.0, 4099) * 2.0 + 1.0

    legate_fuse.flush()
    before = session.stats.tasks_fused
    fused = numpy.asarray(program())
    assert session.stats.tasks_fused - before >= 3
    legate_fuse.disable()
    try:
        unfused = numpy.asarray(program())
    finally:
        legate_fuse.enable()
    assert_same_bits(fused, unfused)
