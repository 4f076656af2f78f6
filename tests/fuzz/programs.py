"""Random array programs for differential testing, and their interpreter.

A program is a list of statements. The first, `("setup", n, shape, dtypes)`, makes the pool
of named arrays: `a0`, `a1`, `a4` vectors of n elements, `a2`, `a5` matrices of `shape`, `a3`
a 0-d array, with the dtypes given (bool, int32, int64, float16, float32, float64, complex64,
complex128). Sizes cross
the 256-element tile of the generated kernels (1, 255, 256, 257, 1000, 3000; 3x257, 257x3 ...)
and, in a two-CPU process, the partition of the arrays across the CPUs.

Each later statement is a tuple `(kind, ...)`, drawn by one strategy function per kind
(`_unary`, `_binary`, `_augment`, ...) and run by one interpreter function per kind (`run_unary`,
`run_binary`, ...). Statements name arrays of the pool; an operand may also be a Python scalar.
Any statement works with any arrays: an operand whose shape does not fit is reshaped, sliced or
broadcast to fit (`fit`), which exercises views too. A statement that raises (a dtype the
operation refuses...) records the exception's type and the program goes on. Most programs also
hold, somewhere among those random statements, a run of element-wise statements chosen for the
dtypes and shapes of the pool at that point (`_element_wise_run`): work the plugin must fuse,
which `expects_fusion` recognises in any program (at the end of this file).

What the statements reach: element-wise operations of every dtype (with integer overflow,
division by zero, NaN and infinity), clip with integer and fractional bounds, ramps
(`arange`) added along the last axis, Python scalars, augmented assignment on arrays and on
views, views kept in the pool (slices with steps, reversal, transposes, rows and columns,
reshapes) so that later writes show through them, writes through slices, setitem with a scalar
index (also NaN/inf), 0-d and one-element arrays, broadcasting, scalar reductions (fused) and
axis reductions, reads back to Python in the middle, control flow on array values, NumPy
interop (`out=` a NumPy array, `cupynumeric.asarray(host)` written through, `np.asarray(x)` and
`x.__array__()` views kept across later writes to x), and opaque operations (sort, solve,
matmul, gather, scatter, argmax, median, quantile, var, compress, cumsum, boolean masks).

Each value carries two levels: how it compares between fusion on and off (`fuse`: BITWISE, or
CLOSE once a fused floating-point reduction flowed in, or UNCHECKED once such a value went
through a discontinuous operation: a comparison, a cast to integer...), and how it compares
with NumPy (`numpy`: BITWISE; CLOSE after operations NumPy computes with other rounding
(transcendental functions, reductions, BLAS); UNCHECKED after operations where cuPyNumeric
itself may differ from NumPy: integer overflow or division by zero, casts of floats to
integers, discontinuous operations on CLOSE values...). A CLOSE single-precision value that
flows into a double-precision result makes it LOOSE: close within single precision.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy
from hypothesis import strategies as st

BITWISE, CLOSE, LOOSE, UNCHECKED = 0, 1, 2, 3

DTYPES = ("bool", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128")
SIZES = (1, 7, 255, 256, 257, 1000, 3000)
SHAPES = ((1, 1), (3, 257), (257, 3), (16, 16), (20, 50), (2, 1000))
NAMES = ("a0", "a1", "a2", "a3", "a4", "a5")
VECTORS, MATRICES, SCALAR = ("a0", "a1", "a4"), ("a2", "a5"), "a3"
SCALARS = (2, -3, 0, 7, 0.5, -0.25, 1.5, True, False)
SPECIALS = (2, -1, 0.5, math.nan, math.inf, -math.inf, True)

Statement = tuple[Any, ...]
Program = list[Statement]


@dataclass
class Value:
    data: Any
    fuse: int = BITWISE  # how fusion on and off compare
    numpy: int = BITWISE  # how cuPyNumeric and NumPy compare
    root: object = field(default_factory=object)  # shared by the views of one array


@dataclass
class State:
    xp: Any
    arrays: dict[str, Value]
    reads: list[Value] = field(default_factory=list)
    hosts: list[Value] = field(default_factory=list)  # NumPy arrays cuPyNumeric writes into
    exports: list[Value] = field(default_factory=list)  # NumPy views of cuPyNumeric arrays
    errors: list[tuple[int, str]] = field(default_factory=list)


# -- operations ------------------------------------------------------------------------------
# Each entry: (function, flags). Flags: "approx" NumPy rounds differently (floating point),
# "discrete" the result jumps with its input, "unsafe" cuPyNumeric may differ from NumPy
# (overflow, division by zero, casts of NaN/inf to integers), "nan_order" cuPyNumeric 26.06
# orders NaN unlike NumPy (max and min ignore it, maximum(x, nan) is x, sort leaves it in place),
# "nonfinite" cuPyNumeric 26.06 differs on NaN or inf operands (inf // 2 is inf, NumPy's NaN),
# "complex_rounding" a complex result may round differently (other formulas than NumPy's),
# "complex_power" a complex power differs (branches of the logarithm, 0 ** 0).

def _astype(dtype: str) -> Callable[[Any, Any], Any]:
    return lambda xp, a: a.astype(dtype)


def _ramp(xp: Any, a: Any) -> Any:
    """0, 1, 2, ... along a's last axis (an `arange` task), of a's dtype where that holds the
    ramp exactly (int32 for bool)."""
    n = a.shape[-1] if a.ndim else 1
    dtype = "int32" if a.dtype.kind == "b" or (a.dtype == numpy.float16 and n > 2048) else a.dtype
    return xp.arange(n, dtype=dtype)


UNARY: dict[str, tuple[Callable[[Any, Any], Any], str]] = {
    "negative": (lambda xp, a: -a, ""),
    "absolute": (lambda xp, a: xp.absolute(a), ""),
    "sqrt": (lambda xp, a: xp.sqrt(a), "approx"),
    "exp": (lambda xp, a: xp.exp(a), "approx"),
    "log": (lambda xp, a: xp.log(a), "approx"),
    "sin": (lambda xp, a: xp.sin(a), "approx"),
    "tanh": (lambda xp, a: xp.tanh(a), "approx"),
    "floor": (lambda xp, a: xp.floor(a), "discrete"),
    "square": (lambda xp, a: xp.square(a), "unsafe"),
    "sign": (lambda xp, a: xp.sign(a), "discrete"),
    "logical_not": (lambda xp, a: xp.logical_not(a), "discrete"),
    "invert": (lambda xp, a: ~a, ""),
    "isnan": (lambda xp, a: xp.isnan(a), "discrete"),
    "to_int32": (_astype("int32"), "discrete"),
    "to_int64": (_astype("int64"), "discrete"),
    "to_float32": (_astype("float32"), ""),
    "to_float64": (_astype("float64"), ""),
    "to_bool": (_astype("bool"), "discrete"),
    "copy": (lambda xp, a: a.copy(), ""),
    "clip": (lambda xp, a: xp.clip(a, -1, 1), ""),
    "clip_fraction": (lambda xp, a: xp.clip(a, -0.5, 0.25), ""),
    "plus_ramp": (lambda xp, a: a + _ramp(xp, a), ""),
}
# The unary statements that compute on complex arrays as NumPy does, bit for bit.
COMPLEX_EXACT = frozenset({"negative", "copy", "isnan", "logical_not", "to_int32", "to_int64",
                           "to_float32", "to_float64", "to_bool"})
BINARY: dict[str, tuple[Callable[[Any, Any, Any], Any], str]] = {
    "add": (lambda xp, a, b: a + b, ""),
    "subtract": (lambda xp, a, b: a - b, ""),
    "multiply": (lambda xp, a, b: a * b, "unsafe complex_rounding"),
    "true_divide": (lambda xp, a, b: a / b, "complex_rounding"),
    "floor_divide": (lambda xp, a, b: a // divisor(xp, a, b), "discrete unsafe nonfinite"),
    "remainder": (lambda xp, a, b: a % divisor(xp, a, b), "discrete unsafe"),
    "maximum": (lambda xp, a, b: xp.maximum(a, b), "nan_order"),
    "minimum": (lambda xp, a, b: xp.minimum(a, b), "nan_order"),
    "less": (lambda xp, a, b: a < b, "discrete"),
    "greater_equal": (lambda xp, a, b: a >= b, "discrete"),
    "equal": (lambda xp, a, b: a == b, "discrete"),
    "logical_and": (lambda xp, a, b: xp.logical_and(a, b), "discrete"),
    "logical_xor": (lambda xp, a, b: xp.logical_xor(a, b), "discrete"),
    "bitwise_and": (lambda xp, a, b: a & b, ""),
    "bitwise_or": (lambda xp, a, b: a | b, ""),
    "where": (lambda xp, a, b: xp.where(a > b, a, b), "discrete"),
    "hypot": (lambda xp, a, b: xp.hypot(a, b), "approx"),
    "arctan2": (lambda xp, a, b: xp.arctan2(a, b), "approx"),
    "power": (lambda xp, a, b: a ** b, "approx unsafe complex_power"),
}
AUGMENTED: dict[str, Callable[[Any, Any, Any], Any]] = {
    "+=": lambda xp, a, b: operator.iadd(a, b),
    "-=": lambda xp, a, b: operator.isub(a, b),
    "*=": lambda xp, a, b: operator.imul(a, b),
    "/=": lambda xp, a, b: operator.itruediv(a, b),
    "//=": lambda xp, a, b: operator.ifloordiv(a, divisor(xp, a, b)),
    "|=": lambda xp, a, b: operator.ior(a, b),
}
AUGMENTED_FLAGS = {"*=": "unsafe complex_rounding", "/=": "complex_rounding",
                   "//=": "discrete unsafe nonfinite", "|=": ""}
# Scalar reductions: the fused ones (and those cuPyNumeric builds of fused ones, mean and var).
REDUCTIONS: dict[str, Callable[[Any, Any], Any]] = {
    "sum": lambda xp, a: xp.sum(a),
    "prod": lambda xp, a: xp.prod(a),
    "max": lambda xp, a: xp.max(a),
    "min": lambda xp, a: xp.min(a),
    "all": lambda xp, a: xp.all(a),
    "any": lambda xp, a: xp.any(a),
    "mean": lambda xp, a: xp.mean(a),
    "var": lambda xp, a: xp.var(floating(a)),
    "count_nonzero": lambda xp, a: xp.count_nonzero(a),
    "dot": lambda xp, a: xp.dot(a.ravel(), a.ravel()),
    "sum_where": lambda xp, a: xp.sum(a, where=a > 0),
    # A reduction of a ramp nothing else uses: a group whose only array is never allocated.
    "sum_ramp": lambda xp, a: xp.sum(_ramp(xp, a) * 2),
}
# Reductions whose result does not depend on the order of accumulation (for their dtypes).
ORDER_FREE = {"max", "min", "all", "any", "count_nonzero"}


def _reshape(a: Any) -> Any:
    """a as one row, or flattened. cuPyNumeric 26.06 flattens into a copy when it merges two
    dimensions longer than 1 (NumPy into a view): the NumPy reference copies there too."""
    if a.ndim == 1:
        return a.reshape(1, -1)
    if isinstance(a, numpy.ndarray) and sum(n > 1 for n in a.shape) > 1:
        return a.reshape(-1).copy()
    return a.reshape(-1)


VIEWS: dict[str, Callable[[Any], Any]] = {
    "step2": lambda a: a[::2],
    "reversed": lambda a: a[::-1],
    "inner": lambda a: a[1:-1],
    "tail_step3": lambda a: a[2::3],
    # Not of a 0-d array: cuPyNumeric 26.06 itself aborts in argmax of the transpose of an
    # attached 0-d array on two CPUs.
    "transpose": lambda a: a.T if a.ndim else a,
    "row": lambda a: a[-1],
    "column": lambda a: a[:, 1],
    "reshape": _reshape,
    "ellipsis": lambda a: a[...],
    "newaxis": lambda a: a[None],
}
SLICE_BOUNDS = (None, 0, 1, 2, 9, -1, -3, 255, 257)
AXIS_REDUCTIONS: dict[str, Callable[[Any, Any], Any]] = {
    "sum0": lambda xp, a: xp.sum(a, axis=0),
    "max_last": lambda xp, a: xp.max(a, axis=-1),
    "argmax": lambda xp, a: xp.argmax(a),
    "argmax0": lambda xp, a: xp.argmax(a, axis=0),
    "argmin_last": lambda xp, a: xp.argmin(a, axis=-1),
    "cumsum": lambda xp, a: xp.cumsum(a),
    "median": lambda xp, a: xp.median(a),
    "quantile": lambda xp, a: xp.quantile(a, 0.3),
    "var0": lambda xp, a: xp.var(floating(a), axis=0),
}


def floating(a: Any) -> Any:
    """a as float64 unless floating already: cuPyNumeric's var aborts the process on bool and
    integer arrays."""
    return a if a.dtype.kind == "f" else a.astype("float64")


def _is_complex(x: Any) -> bool:
    """Whether an array (without reading it) or a Python scalar is complex."""
    dtype = getattr(x, "dtype", None)
    return dtype.kind == "c" if dtype is not None else isinstance(x, complex)


def divisor(xp: Any, a: Any, b: Any) -> Any:
    """b, with its zeros replaced by 7 where the division is an integer one: cuPyNumeric's own
    kernels stop the process (SIGFPE) on integer division by zero, NumPy returns 0. Raises
    NumPy's TypeError for complex operands, where cuPyNumeric aborts the process."""
    if any(_is_complex(x) for x in (a, b)):
        raise TypeError("no floor division of complex numbers")
    if getattr(a, "dtype", numpy.dtype(float)).kind not in "biu":
        return b
    if not hasattr(b, "dtype"):
        return b if isinstance(b, float) or b else 7
    return b if b.dtype.kind == "f" else xp.where(b == 0, 7, b)


# -- strategies: one per kind of statement ---------------------------------------------------

def _name() -> st.SearchStrategy[str]:
    return st.sampled_from(NAMES)


def _operand() -> st.SearchStrategy[Any]:
    return st.one_of(_name(), _name(), st.sampled_from(SCALARS))


def _setup() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("setup"), st.sampled_from(SIZES), st.sampled_from(SHAPES),
                     st.tuples(*[st.sampled_from(DTYPES)] * len(NAMES)))


def _unary() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("unary"), st.sampled_from(sorted(UNARY)), _name(), _name())


def _binary() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("binary"), st.sampled_from(sorted(BINARY)), _name(), _name(),
                     _operand())


def _outer() -> st.SearchStrategy[Statement]:
    """A column and a row broadcast against each other."""
    return st.tuples(st.just("outer"), st.sampled_from(["add", "multiply", "maximum", "less"]),
                     _name(), _name(), _name())


def _augment() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("augment"), st.sampled_from(sorted(AUGMENTED)), _name(),
                     _operand())


def _view() -> st.SearchStrategy[Statement]:
    """out becomes a view of a: later writes to either show in both."""
    return st.tuples(st.just("view"), st.sampled_from(sorted(VIEWS)), _name(), _name())


def _setitem_slice() -> st.SearchStrategy[Statement]:
    bound = st.sampled_from(SLICE_BOUNDS)
    return st.tuples(st.just("setitem_slice"), _name(), bound, bound,
                     st.sampled_from([None, 1, 2, 3, -1]), _operand())


def _setitem_index() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("setitem_index"), _name(), st.integers(-300, 300),
                     st.sampled_from(SPECIALS))


def _mask_assign() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("mask_assign"), _name(), _name(), st.sampled_from([0, 0.5, True]))


def _reduce() -> st.SearchStrategy[Statement]:
    """out = a 0-d reduction of a, or an array scaled by it."""
    return st.tuples(st.just("reduce"), st.sampled_from(sorted(REDUCTIONS)), _name(), _name(),
                     st.booleans())


def _read() -> st.SearchStrategy[Statement]:
    """A value back to Python in the middle of the program."""
    return st.tuples(st.just("read"),
                     st.sampled_from(["sum", "max", "item", "index", "tolist", "bool"]),
                     _name(), st.integers(-5, 300))


def _branch() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("branch"), _name(), _name())


def _axis_reduce() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("axis_reduce"), st.sampled_from(sorted(AXIS_REDUCTIONS)), _name(),
                     _name())


def _sort() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("sort"), _name(), _name())


def _solve() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("solve"), _name(), _name(), _name(), st.sampled_from([1, 3, 8]))


def _matmul() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("matmul"), _name(), _name(), _name(), st.sampled_from([1, 4, 17]))


def _gather() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("gather"), _name(), _name(), st.integers(1, 40))


def _scatter() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("scatter"), _name(), _operand(), st.integers(1, 40), st.booleans())


def _compress() -> st.SearchStrategy[Statement]:
    return st.tuples(st.just("compress"), _name(), _name(), _name())


def _numpy_out() -> st.SearchStrategy[Statement]:
    """A ufunc writing into a NumPy array (`out=`), which then joins the pool."""
    return st.tuples(st.just("numpy_out"), st.sampled_from(["add", "multiply", "maximum"]),
                     _name(), _name(), _operand())


def _attach() -> st.SearchStrategy[Statement]:
    """out = cupynumeric.asarray(host), host a NumPy copy of a; later writes to out go to host."""
    return st.tuples(st.just("attach"), _name(), _name())


def _export() -> st.SearchStrategy[Statement]:
    """A NumPy view of a (np.asarray or __array__) kept; it is read later."""
    return st.tuples(st.just("export"), _name(), st.booleans())


def _read_numpy() -> st.SearchStrategy[Statement]:
    """Reads a NumPy array kept by attach (host) or export."""
    return st.tuples(st.just("read_numpy"), st.sampled_from(["host", "export"]),
                     st.integers(0, 3))


def statements() -> st.SearchStrategy[Statement]:
    element_wise = [_unary(), _binary(), _binary(), _augment(), _augment(), _outer()]
    writes = [_view(), _view(), _setitem_slice(), _setitem_slice(), _setitem_index(),
              _mask_assign()]
    reductions = [_reduce(), _read(), _branch(), _axis_reduce()]
    opaque = [_sort(), _solve(), _matmul(), _gather(), _scatter(), _compress()]
    interop = [_numpy_out(), _attach(), _export(), _read_numpy()]
    return st.one_of(*element_wise, *element_wise, *writes, *reductions, *opaque, *interop)


# Values of each dtype that _result computes on: negative ones too, so that what NumPy refuses
# for some values only (an integer to a negative power) is found.
_SAMPLES = {"bool": [True, False], "int32": [-3, 2], "int64": [-3, 2], "float16": [-1.5, 2.0],
            "complex64": [-1.5 + 0.5j, 2.0 - 1j], "complex128": [-1.5 + 0.5j, 2.0 - 1j],
            "float32": [-1.5, 2.0], "float64": [-1.5, 2.0]}


def _dtype_unlike_numpy(op: str, dtype: numpy.dtype[Any]) -> bool:
    """Whether cuPyNumeric 26.06's unary `op` of an array of `dtype` makes another dtype than
    NumPy's, which the model follows: a clip of integers or booleans to fractional bounds stays
    of their dtype (NumPy's is float64), so a later `floor` of it is the array itself."""
    return op == "clip_fraction" and dtype.kind in "biu"


@functools.cache
def _result(kind: str, op: str, dtype: str, operand: Any) -> str | None:
    """The dtype of what an element-wise statement (`kind`, `op`) makes of an array of `dtype`
    and `operand` (an array of the dtype it names, or a Python scalar), in NumPy; None where it
    raises, makes another dtype than the pool's (float16, int8), or gives cuPyNumeric no
    lifted task (see _lifted)."""
    array = numpy.array(_SAMPLES[dtype], dtype=dtype)
    other = numpy.array(_SAMPLES[operand], dtype=operand) if isinstance(operand, str) else operand
    if kind == "unary" and (_aliases(op, array.dtype) or (op == "isnan" and dtype == "bool")):
        return None
    try:
        with numpy.errstate(all="ignore"):
            if kind == "unary":
                result = UNARY[op][0](numpy, array)
            elif kind == "binary":
                result = BINARY[op][0](numpy, array, other)
            else:
                result = AUGMENTED[op](numpy, array, other)
    except Exception:
        return None
    return str(result.dtype) if str(result.dtype) in _SAMPLES else None  # (not int8, float16)


@st.composite
def _element_wise_run(draw: st.DrawFn, model: _Model) -> list[Statement]:
    """Two or three element-wise statements over arrays of one shape, each reading the result
    of the one before (or updating it in place), with operations that the dtypes allow, then
    a read of the result: work the plugin must fuse, whatever the statements around it do
    (expects_fusion). `model`: the program so far. Nothing if no array fits."""
    operands = model.operands()
    if not operands:
        return []
    dtypes = model.dtypes()
    a = source = draw(st.sampled_from(operands))
    run: list[Statement] = []
    for i in range(draw(st.integers(2, 3))):
        operand = draw(st.one_of(st.sampled_from([source, a]), st.sampled_from(SCALARS)))
        key = dtypes[operand] if isinstance(operand, str) else operand
        dtype = dtypes[source]
        choices = ([("unary", op) for op in sorted(UNARY) if _result("unary", op, dtype, None)]
                   + [("binary", op) for op in sorted(BINARY)
                      if _result("binary", op, dtype, key)])
        if i > 0:  # in place into the result before
            choices += [("augment", op) for op in sorted(AUGMENTED)
                        if _result("augment", op, dtype, key)]
        kind, op = draw(st.sampled_from(choices))
        if kind == "augment":
            run.append((kind, op, source, operand))
            continue
        out = draw(_name())
        run.append((kind, op, out, source) if kind == "unary" else (kind, op, out, source,
                                                                    operand))
        dtypes[out] = _result(kind, op, dtype, None if kind == "unary" else key) or dtype
        source = out
    how = draw(st.sampled_from(["sum", "max", "item", "index", "tolist", "bool"]))
    return [*run, ("read", how, source, draw(st.integers(0, 300)))]


@st.composite
def programs(draw: st.DrawFn, max_size: int = 16) -> Program:
    """A program: statements of every kind, and in most, somewhere among them, a run of
    element-wise statements the plugin must fuse. (Hypothesis draws the first choice more
    often than the others, and shrinks to it: with the run, so that most programs check that
    fusion happens; scripts/fuzz_minimize.py drops its statements too.)"""
    setup = draw(_setup())
    body = draw(st.lists(statements(), min_size=1, max_size=max_size))
    at = draw(st.integers(0, len(body)))
    run: list[Statement] = []
    if draw(st.sampled_from([True] * 7 + [False])):
        model = _Model(setup)  # the pool where the run goes: its arrays' dtypes and shapes
        for statement in body[:at]:
            model.run(statement)
        run = draw(_element_wise_run(model))
    return [setup, *body[:at], *run, *body[at:]]


# -- the interpreter -------------------------------------------------------------------------

def initial(xp: Any, setup: Statement) -> State:
    _, n, shape, dtypes = setup
    rng = numpy.random.default_rng(11)
    arrays = {}
    for i, (name, dtype) in enumerate(zip(NAMES, dtypes, strict=True)):
        dims: tuple[int, ...] = (n,) if name in VECTORS else shape if name in MATRICES else ()
        if dtype == "bool":
            values = rng.random(dims) < 0.5
        elif dtype.startswith("int"):
            values = rng.integers(-100, 100, dims)
        elif dtype.startswith("complex"):
            values = rng.uniform(-1, 1, dims) + 1j * rng.uniform(-1, 1, dims)
        else:
            values = rng.uniform(-1, 1, dims)
        host = numpy.asarray(values, dtype=dtype)
        # Some arrays are outputs of a task, others copies of NumPy memory (attached).
        data = xp.array(host) if i % 2 else xp.array(host).copy()
        arrays[name] = Value(data)
    state = State(xp, arrays)
    complex(xp.sum(arrays["a0"].data))  # a read: the arrays exist before the program starts
    return state


def run(program: Program, xp: Any, started: Callable[[], None] | None = None
        ) -> tuple[dict[str, Value], list[tuple[int, str]]]:
    """The program's results (final arrays, values read, NumPy arrays kept) and its errors;
    `started` is called once the pool is made, before the first statement."""
    state = initial(xp, program[0])
    if started is not None:
        started()
    for index, statement in enumerate(program[1:], start=1):
        try:
            KINDS[statement[0]](state, *statement[1:])
        except Exception as error:  # recorded, compared between the runs
            state.errors.append((index, type(error).__name__))
    results = {name: Value(numpy.array(v.data), v.fuse, v.numpy)
               for name, v in state.arrays.items()}
    results.update({f"read{i}": v for i, v in enumerate(state.reads)})
    results.update({f"host{i}": Value(numpy.array(v.data), v.fuse, v.numpy)
                    for i, v in enumerate(state.hosts)})
    results.update({f"export{i}": Value(numpy.array(v.data), v.fuse, v.numpy)
                    for i, v in enumerate(state.exports)})
    return results, state.errors


def derive(data: Any, *inputs: Any, flags: str = "", root: object | None = None) -> Value:
    """A value computed from inputs (Values or Python scalars), with its comparison levels;
    `root` if it is written in place (the memory of the array with that root)."""
    values = [v for v in inputs if isinstance(v, Value)]
    fuse = max((v.fuse for v in values), default=BITWISE)
    near = max((v.numpy for v in values), default=BITWISE)
    if "discrete" in flags:
        fuse = UNCHECKED if fuse else fuse
        near = UNCHECKED if near else near
    if "approx" in flags:
        near = max(near, CLOSE)
    if "unsafe" in flags and not _all_float(data, values):
        near = UNCHECKED
    if "overlap" in flags:
        near = UNCHECKED  # NumPy copies an overlapping source first, cuPyNumeric does not
    if "unlike_numpy" in flags:
        near = UNCHECKED  # cuPyNumeric itself gives another result than NumPy
    if "nan_order" in flags and _holds(inputs, numpy.isnan):
        near = UNCHECKED
    if "nonfinite" in flags and _holds(inputs, lambda a: ~numpy.isfinite(a)):
        near = UNCHECKED
    if numpy.dtype(getattr(data, "dtype", float)).kind == "c":
        if _holds(inputs, lambda a: ~numpy.isfinite(a)):
            near = UNCHECKED  # cuPyNumeric's complex arithmetic recovers infinities, NumPy's not
        if "complex_rounding" in flags:
            near = max(near, CLOSE)  # libcu++'s formulas, not NumPy's: an ulp apart
        if "complex_power" in flags:
            near = UNCHECKED  # another branch of the logarithm; 0 ** 0 is NaN
    if "run_ties" in flags:
        fuse = UNCHECKED  # cuPyNumeric picks one of the tied indices, another from run to run
    if "run_order" in flags and numpy.dtype(data.dtype).kind in "fc":
        fuse = max(fuse, CLOSE)  # differs between two runs, fused or not
    if _carries_single_precision(data, values, "fuse"):
        fuse = max(fuse, LOOSE)
    if _carries_single_precision(data, values, "numpy"):
        near = max(near, LOOSE)
    return Value(data, fuse, near, object() if root is None else root)


def _carries_single_precision(data: Any, values: list[Value], level: str) -> bool:
    """Whether an approximate (CLOSE) input has fewer bits than the result: its rounding
    error, relative to the result's own precision, is that of the input's."""
    bits = getattr(data, "dtype", numpy.dtype(float)).itemsize
    return any(getattr(v, level) == CLOSE and getattr(v.data, "dtype", None) is not None
               and v.data.dtype.kind == "f" and v.data.dtype.itemsize < bits for v in values)


def _holds(inputs: tuple[Any, ...], test: Callable[[Any], Any]) -> bool:
    """Whether a floating-point input holds a value that passes `test` (NaN, inf), as far as
    can be seen without reading cuPyNumeric arrays (a read would flush, and change the program
    under test): the NumPy run sees all of them, and its levels count with the cuPyNumeric
    run's (test_differential.check_numpy)."""
    for value in inputs:
        data = value.data if isinstance(value, Value) else value
        if isinstance(data, float | numpy.ndarray | numpy.generic) and \
                numpy.asarray(data).dtype.kind in "fc" and numpy.any(test(data)):
            return True
    return False


def _readable(state: State, a: Any) -> Any:
    """`a`, read into NumPy where a read changes nothing that is tested: in NumPy's run, and in
    cuPyNumeric's with fusion off (its results are the reference; the fused run must not read
    more than its program does). Else `a` as it is."""
    import legate_fuse

    if state.xp is numpy or legate_fuse.is_enabled():
        return a
    return numpy.asarray(a)


def _ties(op: str, a: Any) -> bool:
    """Whether the extreme value an arg-reduction looks for occurs twice (seen in NumPy arrays
    only, as _holds; see _readable): on two CPUs cuPyNumeric 26.06 may return another than the
    first, and another from run to run (the points' partial results are folded in either
    order). Seen in the unfused run too, so that it holds when NumPy's run is not comparable
    (it raised elsewhere)."""
    if not isinstance(a, numpy.ndarray) or a.size == 0 or a.ndim == 0:
        return False
    axis = {"argmax": None, "argmax0": 0, "argmin_last": -1}[op]
    best = (a.max if "max" in op else a.min)(axis=axis, keepdims=True)
    return bool(((a == best).sum(axis=axis) > 1).any())


def _all_float(data: Any, values: list[Value]) -> bool:
    kinds = [getattr(v.data, "dtype", numpy.dtype(float)).kind for v in values]
    inexact = "fc"  # floating point, real or complex
    return getattr(data, "dtype", numpy.dtype(float)).kind in inexact and all(
        k in inexact for k in kinds)


def operand(state: State, spec: Any) -> Any:
    """A named array's Value, or a Python scalar as is."""
    return state.arrays[spec] if isinstance(spec, str) else spec


def data(value: Any) -> Any:
    return value.data if isinstance(value, Value) else value


def fit(xp: Any, value: Any, shape: tuple[int, ...]) -> Any:
    """value's data as an operand for an array of `shape`: as is if it broadcasts to it, else
    the first elements reshaped to it (or the first element broadcast)."""
    a = data(value)
    if not hasattr(a, "shape"):
        return a
    if _broadcasts(a.shape, shape):
        return a
    size = math.prod(shape)
    flat = a.reshape(-1)
    if flat.size >= size:
        return flat[:size].reshape(shape)
    if flat.size == 0:
        return xp.zeros(shape, dtype=a.dtype)
    return flat[:1].reshape((1,) * len(shape)) if shape else flat[0]


def _broadcasts(source: tuple[int, ...], target: tuple[int, ...]) -> bool:
    if len(source) > len(target):
        return False
    return all(s in (1, t) for s, t in zip(source[::-1], target[::-1], strict=False))


def run_unary(state: State, op: str, out: str, a: str) -> None:
    function, flags = UNARY[op]
    source = state.arrays[a]
    result = function(state.xp, source.data)
    root = None
    if op == "floor" and source.data.dtype.kind != "f":
        flags += " unlike_numpy"  # NumPy 2.4 keeps bool and integer dtypes, cuPyNumeric 26.06 not
        if source.data.dtype.kind in "iu":
            # cuPyNumeric 26.06's floor of integers returns a view of the array (NumPy copies):
            # later writes to either show in both, in cuPyNumeric only.
            root = source.root
    if source.data.dtype.kind == "c" and op not in COMPLEX_EXACT:
        flags += " approx"  # libcu++'s complex functions, not NumPy's: an ulp apart
    if op.startswith("clip") and source.data.dtype.kind in ("bc" if op == "clip" else "biuc"):
        # cuPyNumeric 26.06 converts the bounds to the array's type (NumPy promotes); of
        # complex numbers it returns the real parts clipped.
        flags += " unlike_numpy"
    if op.startswith("to_") and result is source.data:
        # cuPyNumeric 26.06's astype to the array's own dtype returns the array itself (NumPy
        # copies): later writes to either show in both, in cuPyNumeric only.
        flags, root = flags + " unlike_numpy", source.root
    state.arrays[out] = derive(result, source, flags=flags, root=root)
    if op.startswith("to_int") and source.data.dtype.kind == "f":
        state.arrays[out].numpy = UNCHECKED  # NaN, inf, out of range: undefined in C


def run_binary(state: State, op: str, out: str, a: str, b: Any) -> None:
    function, flags = BINARY[op]
    left, right = state.arrays[a], operand(state, b)
    result = function(state.xp, left.data, fit(state.xp, right, left.data.shape))
    state.arrays[out] = derive(result, left, right, flags=flags)


def run_outer(state: State, op: str, out: str, a: str, b: str) -> None:
    function, flags = BINARY[op]
    left, right = state.arrays[a], state.arrays[b]
    column = fit(state.xp, left, (min(left.data.size, 5) or 1, 1))
    row = fit(state.xp, right, (1, min(right.data.size, 300) or 1))
    state.arrays[out] = derive(function(state.xp, column, row), left, right, flags=flags)


def run_augment(state: State, op: str, target: str, b: Any) -> None:
    value, right = state.arrays[target], operand(state, b)
    array = value.data
    array = AUGMENTED[op](state.xp, array, fit(state.xp, right, array.shape))
    flags = AUGMENTED_FLAGS.get(op, "") + " " + _overlap(value, right)
    _mark_written(state, target, derive(array, value, right, flags=flags, root=value.root))


def run_view(state: State, kind: str, out: str, a: str) -> None:
    source = state.arrays[a]
    state.arrays[out] = Value(VIEWS[kind](source.data), source.fuse, source.numpy, source.root)


def run_setitem_slice(state: State, target: str, start: Any, stop: Any, step: Any,
                      b: Any) -> None:
    value, right = state.arrays[target], operand(state, b)
    array = value.data
    key: Any = slice(start, stop, step) if array.ndim else ...
    shape = array[key].shape
    array[key] = fit(state.xp, right, shape)
    flags = _overlap(value, right)
    if step is not None and step < 0:
        flags += " unlike_numpy"  # cuPyNumeric 26.06 ignores a write through a reversed slice
    _mark_written(state, target, derive(array, value, right, flags=flags, root=value.root))


def run_setitem_index(state: State, target: str, index: int, scalar: Any) -> None:
    value = state.arrays[target]
    array = value.data
    key = tuple(index % n for n in array.shape) if array.size else 0
    array[key] = scalar
    flags = "unsafe" if array.dtype.kind != "f" and isinstance(scalar, float) else ""
    _mark_written(state, target, derive(array, value, flags=flags, root=value.root))


def run_mask_assign(state: State, target: str, mask_of: str, scalar: Any) -> None:
    value, condition = state.arrays[target], state.arrays[mask_of]
    array = value.data
    mask = fit(state.xp, condition, array.shape) > 0
    if mask.shape != array.shape:
        mask = state.xp.broadcast_to(mask, array.shape)
    array[mask] = scalar
    _mark_written(state, target, derive(array, value, condition, flags="discrete",
                                        root=value.root))


def _overlap(target: Value, source: Any) -> str:
    """"overlap" if source may share target's memory."""
    return "overlap" if isinstance(source, Value) and source.root is target.root else ""


def _mark_written(state: State, target: str, result: Value) -> None:
    """A write into target's array: it and the arrays sharing its memory (views, NumPy arrays
    attached or exported) now carry result's levels."""
    for v in [*state.arrays.values(), *state.hosts, *state.exports]:
        if v.root is result.root:
            v.fuse, v.numpy = max(v.fuse, result.fuse), max(v.numpy, result.numpy)
    state.arrays[target] = result


def _reduction_levels(op: str, source: Value, result: Any) -> Value:
    flags = "discrete" if op in ORDER_FREE - {"max", "min"} else "nan_order"
    value = derive(result, source, flags=flags)
    exact = op in ORDER_FREE or (op in ("sum", "prod", "sum_where")
                                 and source.data.dtype.kind in "biu")
    if not exact:
        value.fuse = max(value.fuse, CLOSE)
        value.numpy = max(value.numpy, CLOSE)
    if (op == "prod" and source.data.dtype.kind in "iu") or op == "count_nonzero":
        value.numpy = UNCHECKED  # overflow; cuPyNumeric counts in uint64, NumPy in int64
    if not exact and source.data.dtype == numpy.float16:
        value.numpy = UNCHECKED  # both accumulate in float16, each in its own order: 1% apart
    if op in ("max", "min") and source.data.dtype == numpy.float16:
        value.numpy = UNCHECKED  # cuPyNumeric's float16 max starts at -65504: never -inf
    return value


def run_reduce(state: State, op: str, out: str, a: str, scale: bool) -> None:
    source = state.arrays[a]
    result = _reduction_levels(op, source, REDUCTIONS[op](state.xp, source.data))
    if scale:
        target = state.arrays[out]
        result = derive(target.data * result.data, target, result, flags="unsafe")
    state.arrays[out] = result


def run_read(state: State, how: str, a: str, index: int) -> None:
    source = state.arrays[a]
    array = source.data
    if how in ("sum", "max"):
        result = REDUCTIONS[how](state.xp, array)
        value = _reduction_levels(how, source, numpy.asarray(result.item(), result.dtype))
    elif how == "item":
        item = array.reshape(-1)[index % array.size].item() if array.size else None
        value = derive(numpy.asarray(item, array.dtype) if array.size else None, source)
    elif how == "index":
        key = tuple(index % n for n in array.shape) if array.size else ()
        item = array[key].item() if array.size or not array.ndim else None
        value = derive(None if item is None else numpy.asarray(item, array.dtype), source)
    elif how == "tolist":
        value = derive(numpy.asarray(array.reshape(-1)[:50].tolist(), array.dtype), source)
    else:
        # cuPyNumeric 26.06's any() of complex values is not NumPy's: any([1j]) is False.
        flags = "discrete unlike_numpy" if _is_complex(array) else "discrete"
        value = derive(bool(array.any()), source, flags=flags)
    state.reads.append(value)


def run_branch(state: State, a: str, out: str) -> None:
    condition, target = state.arrays[a], state.arrays[out]
    total = state.xp.sum(condition.data)
    taken = _reduction_levels("sum", condition, total)
    if total > 0:
        result = derive(target.data * 2, target, taken, flags="discrete unsafe")
    else:
        result = derive(target.data - 1, target, taken, flags="discrete")
    state.arrays[out] = result


def run_axis_reduce(state: State, op: str, out: str, a: str) -> None:
    source = state.arrays[a]
    flags = "discrete" if op.startswith("arg") else "approx unsafe"
    if op.startswith("arg") and source.data.dtype == bool:
        flags += " unlike_numpy"  # cuPyNumeric 26.06: argmax of all-False bools can be INT64_MIN
    if op.startswith("arg") and _ties(op, _readable(state, source.data)):
        flags += " unlike_numpy"
        if _split_across_cpus():
            flags += " run_ties"
    if op == "median" or op.startswith("max"):
        flags = ""  # order statistics: exact
    if op == "quantile":
        flags = "approx"  # interpolates between two order statistics, rounded as NumPy does not
    if op.startswith(("arg", "max", "median", "quantile")):
        flags += " nan_order"
    if op == "cumsum" and source.data.dtype == bool:
        flags = "unsafe"  # cuPyNumeric's cumsum of bools is bool, NumPy's int64
    if op == "cumsum" and source.data.dtype in (numpy.float32, numpy.float16):
        # Prefix sums that cancel to near 0 keep the rounding error of large ones: no relative
        # (nor fixed absolute) tolerance holds; two CPUs add the partial sums in another order.
        flags += " unlike_numpy"
    if op in ("sum0", "var0", "cumsum") and state.xp is not numpy and _split_across_cpus():
        # cuPyNumeric 26.06 itself, fusion off, on two CPUs: the points' partial results are
        # combined in an order that varies from run to run (var along an axis of float32
        # values differs in the last bit between two runs of one program).
        flags += " run_order"
    state.arrays[out] = derive(AXIS_REDUCTIONS[op](state.xp, source.data), source, flags=flags)


def run_sort(state: State, out: str, a: str) -> None:
    source = state.arrays[a]
    result = state.xp.sort(source.data)
    if state.xp is not numpy and _split_across_cpus():
        # cuPyNumeric 26.06 itself, on two CPUs, aborts (Realm: "Point ... index == 0") in an
        # element-wise operation between a slice of a sort result and the result of a gather
        # (`np.add(a[idx], s[:37])`), fusion off: the programs go on with a copy made through
        # NumPy.
        result = state.xp.array(numpy.asarray(result))
    state.arrays[out] = derive(result, source, flags="nan_order")


@functools.cache
def _split_across_cpus() -> bool:
    from legate.core import TaskTarget, get_machine

    return bool(get_machine().count(TaskTarget.CPU) > 1)


def run_solve(state: State, out: str, a: str, b: str, k: int) -> None:
    """A diagonally dominant system, so that NumPy and cuPyNumeric agree closely."""
    xp = state.xp
    left, right = state.arrays[a], state.arrays[b]
    matrix = fit(xp, left, (k, k)).astype("float64") + xp.eye(k) * (2 * k + 2)
    matrix = xp.where(xp.isfinite(matrix), matrix, 1.0)
    vector = fit(xp, right, (k,)).astype("float64")
    solution = xp.linalg.solve(matrix, vector)
    # cuPyNumeric 26.06 itself aborts (Legion: "IndexPartition ... does not have the same type
    # as the parent index space") in a cumsum of a solution or of arrays computed from it: the
    # programs go on with a copy made through NumPy.
    solution = xp.array(numpy.asarray(solution))
    state.arrays[out] = derive(solution, left, right, flags="approx")


def run_matmul(state: State, out: str, a: str, b: str, k: int) -> None:
    xp = state.xp
    left, right = state.arrays[a], state.arrays[b]
    rows = max(1, min(left.data.size // k, 40))
    product = fit(xp, left, (rows, k)) @ fit(xp, right, (k, 3))
    state.arrays[out] = derive(product, left, right, flags="approx unsafe")


def run_gather(state: State, out: str, a: str, count: int) -> None:
    source = state.arrays[a]
    array = source.data
    if not array.ndim:
        raise IndexError("0-d")
    state.arrays[out] = derive(array[_unique(state.xp, count, array.shape[0])], source)


def _unique(xp: Any, count: int, size: int) -> Any:
    indices = numpy.unique((numpy.arange(min(count, size)) * 7919 + 3) % max(size, 1))
    return xp.array(indices)


def run_scatter(state: State, target: str, b: Any, count: int, add: bool) -> None:
    value, right = state.arrays[target], operand(state, b)
    array = value.data
    if not array.ndim:
        raise IndexError("0-d")
    indices = _unique(state.xp, count, array.shape[0])
    shape = array[indices].shape
    source = fit(state.xp, right, shape)
    if _overlap(value, right) and hasattr(source, "shape"):
        # cuPyNumeric 26.06 itself, on two CPUs, aborts (Realm: "Point ... index == 0") in
        # b[indices] = b[:k] when b is (a copy of) a sort result: the source goes through NumPy.
        source = state.xp.array(numpy.asarray(source))
    if add:
        array[indices] += source
    else:
        array[indices] = source
    flags = ("unsafe " if add else "") + _overlap(value, right)
    _mark_written(state, target, derive(array, value, right, flags=flags, root=value.root))


def run_compress(state: State, out: str, a: str, condition_of: str) -> None:
    source, condition = state.arrays[a], state.arrays[condition_of]
    flat = source.data.reshape(-1)
    mask = fit(state.xp, condition, flat.shape) > 0
    if mask.shape != flat.shape:
        mask = state.xp.broadcast_to(mask, flat.shape)
    result = state.xp.compress(mask, flat)
    # cuPyNumeric 26.06 itself, fusion off, aborts ("field_size == sizeof(FT)" in its
    # ADVANCED_INDEXING task) when a boolean selection like this one, whose output size is
    # unknown, is still pending while later operations create and free stores (a sort, say) in
    # a loop. Reading the size waits for the selection: the programs stay about the plugin.
    result.shape  # noqa: B018
    state.arrays[out] = derive(result, source, condition, flags="discrete")


def run_numpy_out(state: State, op: str, out: str, a: str, b: Any) -> None:
    left, right = state.arrays[a], operand(state, b)
    host = numpy.zeros(left.data.shape, dtype=left.data.dtype)
    getattr(state.xp, op)(left.data, fit(state.xp, right, host.shape), out=host)
    flags = BINARY[op][1]
    state.arrays[out] = derive(host, left, right, flags=flags)


def run_attach(state: State, out: str, a: str) -> None:
    source = state.arrays[a]
    host = numpy.array(numpy.asarray(source.data))
    attached = state.xp.asarray(host)
    shared = Value(host, source.fuse, source.numpy)
    state.hosts.append(shared)
    state.arrays[out] = Value(attached, source.fuse, source.numpy, shared.root)


def run_export(state: State, a: str, dunder: bool) -> None:
    source = state.arrays[a]
    view = source.data.__array__() if dunder else numpy.asarray(source.data)
    # cuPyNumeric 26.06 keeps a one-element array in a Future and exports a copy of it (NumPy
    # a view): later writes show in NumPy's export only.
    near = UNCHECKED if source.data.size == 1 else source.numpy
    state.exports.append(Value(view, source.fuse, near, source.root))


def run_read_numpy(state: State, which: str, index: int) -> None:
    kept = state.hosts if which == "host" else state.exports
    if kept:
        value = kept[index % len(kept)]
        state.reads.append(Value(numpy.array(value.data), value.fuse, value.numpy))


KINDS: dict[str, Callable[..., None]] = {
    "unary": run_unary, "binary": run_binary, "outer": run_outer, "augment": run_augment,
    "view": run_view, "setitem_slice": run_setitem_slice, "setitem_index": run_setitem_index,
    "mask_assign": run_mask_assign, "reduce": run_reduce, "read": run_read,
    "branch": run_branch, "axis_reduce": run_axis_reduce, "sort": run_sort,
    "solve": run_solve, "matmul": run_matmul, "gather": run_gather, "scatter": run_scatter,
    "compress": run_compress, "numpy_out": run_numpy_out, "attach": run_attach,
    "export": run_export, "read_numpy": run_read_numpy,
}


def source(program: Program) -> str:
    """The program as a regression-test literal."""
    return "[\n" + "".join(f"    {statement!r},\n" for statement in program) + "]"


# -- the fusion a program must get -----------------------------------------------------------
# A program "expects fusion" when cuPyNumeric certainly gives the plugin, with no read between
# them, two element-wise tasks it lifts over arrays of one shape whose results stay live until
# they are read back: two element-wise statements in a row, or one that issues two such tasks
# itself (`where`: a comparison and a selection). The plugin must fuse them: the program's
# statements make at least one fused launch. Decided from the program alone, running it in
# NumPy to know each array's shape and dtype, and conservatively: what the model below does
# not know for sure (views, NumPy memory, casts that return the array itself in cuPyNumeric,
# one-element arrays, float16...) expects nothing.

ELEMENT_WISE = ("unary", "binary", "augment")
# Where a statement names the pool entry it replaces with another array (in-place writes keep
# theirs: augment, setitem_slice, setitem_index, mask_assign, scatter; read, export and
# read_numpy replace none).
REPLACED_AT = {"unary": 2, "binary": 2, "outer": 2, "view": 2, "reduce": 2, "branch": 2,
               "axis_reduce": 2, "sort": 1, "solve": 1, "matmul": 1, "gather": 1,
               "compress": 1, "numpy_out": 2, "attach": 1}
# Most values a statement of each kind may read back to Python (each a read for the payoff
# tuner, mode/payoff.py); a kind not listed, 2.
READS_AT_MOST = {"unary": 0, "binary": 0, "augment": 0, "outer": 0, "view": 0, "read": 1,
                 "branch": 1, "attach": 1, "export": 1, "read_numpy": 0, "setitem_slice": 1,
                 "setitem_index": 1, "mask_assign": 1, "reduce": 1, "matmul": 1, "gather": 1,
                 "scatter": 1, "sort": 1}
SETUP_READS = 1  # initial() reads a sum: the pool exists before the first statement
# Binary operations whose statement issues two lifted tasks or more of one shape.
SELF_FUSING = frozenset({"where"})
# The statements whose tasks on complex arrays are lifted.
COMPLEX_LIFTED = frozenset({"negative", "copy", "to_int32", "to_int64", "to_float32", "to_float64",
                            "to_bool", "add", "subtract", "multiply", "true_divide", "equal", "+=",
                            "-=", "*=", "/="})


@dataclass
class _Entry:
    """What the model knows of a pool entry beyond its NumPy value."""

    device: bool = True  # a cuPyNumeric array in the cuPyNumeric run (not numpy_out's result)
    whole: bool = True  # an array of its own, not a view or an alias of another


@dataclass
class _Step:
    """What the model knows of one statement."""

    reads_before: int  # values read back before it, at most (the setup's included)
    replaces: str | None = None  # the pool entry it replaces (or would, had it not raised)
    raised: bool = False  # in NumPy
    flushes: bool = False  # certainly reads a cuPyNumeric value back (every held task runs)
    written: str | None = None  # for a statement giving lifted tasks only: what it writes,
    shape: tuple[int, ...] = ()  # of that shape,
    inputs: tuple[str, ...] = ()  # reading these entries,
    tasks: int = 0  # in this many lifted tasks of that shape


def expects_fusion(program: Program, reads_before_unfused: int,
                   errors: list[tuple[int, str]]) -> bool:
    """Whether the program has work the plugin must fuse (see above) before it has read back
    `reads_before_unfused` values (from then on the payoff tuner may run it unfused;
    sys.maxsize where every window is fused). `errors`: the statements that raised in
    cuPyNumeric (run()'s): the model, which runs in NumPy, knows nothing past a statement
    where cuPyNumeric raised otherwise."""
    model = _Model(program[0])
    for statement in program[1:]:
        model.run(statement)
    work = _fusible_work(model.steps, reads_before_unfused)
    if work is None:
        return False
    # The statements that raised, of whatever type (NumPy's UFuncTypeError is cuPyNumeric's
    # TypeError): a statement that raises changes nothing in the pool in either.
    return ({i for i, _ in errors if i <= work}
            == {i for i, _ in model.errors if i <= work})


def _fusible_work(steps: list[_Step], reads_before_unfused: int) -> int | None:
    """For the first work the plugin must fuse, the index (in the program: steps[i] is
    program[i + 1]) of the last statement its judgment depends on; None if there is none."""
    for i, step in enumerate(steps):
        if step.written is None or step.reads_before >= reads_before_unfused:
            continue
        if step.tasks >= 2:
            live = _live(steps, i, step.written)
            if live is not None:
                return live + 1
        following = steps[i + 1] if i + 1 < len(steps) else None
        if (following is None or following.written is None
                or following.shape != step.shape):
            continue
        second = _live(steps, i + 1, following.written)
        # The first result is live if the second reads it, or if nothing replaces it first.
        if step.written in following.inputs:
            first: int | None = i + 1
        else:
            first = None if following.replaces == step.written else _live(steps, i,
                                                                          step.written)
        if first is not None and second is not None:
            return max(first, second) + 1
    return None


def _live(steps: list[_Step], index: int, name: str) -> int | None:
    """If the array statement `index` leaves in the pool under `name` is still there at the
    next certain read back (or at the end, where every result is read), the index of that
    statement (or of the last); else None: its tasks may be dead, and never run."""
    for later in range(index + 1, len(steps)):
        step = steps[later]
        if step.replaces == name:
            return None  # (also one that raised in NumPy: it may not in cuPyNumeric)
        if step.flushes:
            return later
    return len(steps) - 1


class _Model:
    """A program run in NumPy statement by statement, with what is known of its pool."""

    def __init__(self, setup: Statement) -> None:
        self.state = initial(numpy, setup)
        self.entries = {name: _Entry() for name in NAMES}
        self.reads = SETUP_READS
        self.steps: list[_Step] = []
        self.errors: list[tuple[int, str]] = []  # as run() records them

    def run(self, statement: Statement) -> None:
        state, entries, kind = self.state, self.entries, statement[0]
        before = dict(state.arrays)
        external = {id(v.root) for v in (*state.hosts, *state.exports)}
        step = _Step(self.reads)
        self.steps.append(step)
        self.reads += READS_AT_MOST.get(kind, 2)
        position = REPLACED_AT.get(kind)
        if position is not None:
            step.replaces = statement[position]
        try:
            KINDS[kind](state, *statement[1:])
        except Exception as error:  # as in run(): the program goes on
            step.raised = True
            self.errors.append((len(self.steps), type(error).__name__))
            return
        if kind == "branch":
            step.flushes = True  # `if` on a cuPyNumeric sum
        elif kind == "read":
            step.flushes = entries[statement[2]].device
        elif kind == "export":
            step.flushes = entries[statement[1]].device
        _lifted(step, statement, before, state, entries, external)
        _note(statement, before, entries)

    def dtypes(self) -> dict[str, str]:
        """The dtype of each pool entry that is an array of a dtype of the pool."""
        return {name: str(value.data.dtype) for name, value in self.state.arrays.items()
                if isinstance(value.data, numpy.ndarray) and str(value.data.dtype) in _SAMPLES}

    def operands(self) -> list[str]:
        """The pool entries an element-wise run can start from: cuPyNumeric arrays of their
        own, of more than one element."""
        dtypes = self.dtypes()
        return [name for name, value in self.state.arrays.items()
                if name in dtypes and value.data.size > 1
                and self.entries[name].device and self.entries[name].whole]


def _lifted(step: _Step, statement: Statement, before: dict[str, Value], state: State,
            entries: dict[str, _Entry], external: set[int]) -> None:
    """Fills in step.written... for an element-wise statement that certainly gives the plugin
    lifted tasks only, over one shape."""
    kind = statement[0]
    if kind not in ELEMENT_WISE:
        return
    b: Any
    if kind == "augment":
        _, op, out, b = statement
        a = out
        if id(before[out].root) in external:
            return  # a write to memory NumPy sees runs at once (external memory)
    elif kind == "unary":
        _, op, out, a = statement
        b = None
        source = before[a].data.dtype
        if _aliases(op, source) or (op == "isnan" and source.kind == "b"):
            return  # (cuPyNumeric 26.06 computes isnan of bool through float16)
    else:
        _, op, out, a, b = statement
    named = (a, b) if isinstance(b, str) else (a,)
    if not all(entries[n].device and entries[n].whole for n in named):
        return  # NumPy arrays, views: what cuPyNumeric makes of them is not modelled
    result = state.arrays[out].data
    arrays = [*(before[n].data for n in named), result]
    if any(not isinstance(x, numpy.ndarray) or x.dtype == numpy.float16 for x in arrays):
        return  # (float16 is not part of the model)
    if any(x.dtype.kind == "c" for x in arrays) and op not in COMPLEX_LIFTED:
        return  # (complex functions and comparisons are not lifted)
    if result.shape != before[a].data.shape or result.size < 2:
        return  # one element: a Future, whose grouping has rules of its own
    if isinstance(b, str) and not _broadcasts(before[b].data.shape, result.shape):
        return  # fit() reshapes it, which may copy
    step.written, step.shape, step.inputs = str(out), result.shape, named
    step.tasks = 2 if kind == "binary" and op in SELF_FUSING else 1


def _note(statement: Statement, before: dict[str, Value], entries: dict[str, _Entry]) -> None:
    """What is known of the entry a statement replaced, after it."""
    kind = statement[0]
    position = REPLACED_AT.get(kind)
    if position is None:
        return
    out = statement[position]
    named = [s for s in statement[1:] if isinstance(s, str) and s in before]
    device = all(entries[n].device for n in named)
    whole = kind not in ("view", "attach")
    if kind == "unary":
        source = before[statement[3]].data.dtype
        if _aliases(statement[1], source) or _dtype_unlike_numpy(statement[1], source):
            whole = False
    if kind == "numpy_out":
        device = False
    elif kind in ("attach", "solve", "sort", "gather", "compress", "axis_reduce", "matmul"):
        device = True  # made by cuPyNumeric from whatever it was given
    entries[out] = _Entry(device, whole)


def _aliases(op: str, dtype: numpy.dtype[Any]) -> bool:
    """Whether cuPyNumeric 26.06's unary `op` of an array of `dtype` is that array's memory
    (a view, or the array itself), with no task: floor of integers, a cast to its own dtype."""
    return (op == "floor" and dtype.kind != "f") or (
        op.startswith("to_") and numpy.dtype(op[3:]) == dtype)
