"""Every path of a generated C kernel computes the same values: contiguous rows (one loop, or
tiles of stages when the kernel calls the C library) and strided rows (the element body), on
sizes on both sides of the tile boundary. Reductions read the values the inputs had before the
kernel stored anything, also where an output shares an input's memory (`s = x.sum();
x *= exp(y)` fused into one kernel): both paths must equal, bit for bit, a reference computed
from the inputs before the kernel ran."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy
import pytest

from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.plan.kernel_spec import ARG, NO_OPERAND, REGISTER, KernelSpec

from .c_kernels import IN, OUT, RED, run

# The expected value of every non-input argument, by argument index, from the inputs' values.
Reference = Callable[[list[numpy.ndarray]], dict[int, numpy.ndarray]]


@dataclass(frozen=True)
class Case:
    spec: KernelSpec
    staged: bool  # whether its contiguous rows run tile by tile
    aliases: dict[int, int]  # output argument -> the input whose memory it takes when in place
    reference: Reference


def c_exp(values: numpy.ndarray) -> numpy.ndarray:
    """The C library's exp, element by element: the function the kernels call (their vector
    form is used only where it rounds as the C library does)."""
    return numpy.array([math.exp(v) for v in values.ravel()]).reshape(values.shape)


def sequential_sum(values: numpy.ndarray, mask: numpy.ndarray | None = None) -> numpy.ndarray:
    """A kernel's float64 sum: one accumulator from 0.0, elements in row-major order, then
    folded into a target that starts at 0.0 (NumPy's pairwise sum rounds differently)."""
    acc = 0.0
    flags = numpy.ones(values.shape, bool) if mask is None else mask
    for value, keep in zip(values.ravel().tolist(), flags.ravel().tolist(), strict=True):
        if keep:
            acc = acc + value
    return numpy.array(0.0 + acc)


def sequential_max(values: numpy.ndarray) -> numpy.ndarray:
    """A kernel's float64 max: `acc < value ? value : acc` from -inf, then into a target that
    starts at -inf."""
    acc = -math.inf
    for value in values.ravel().tolist():
        acc = value if acc < value else acc
    return numpy.array(acc if -math.inf < acc else -math.inf)


# x, y in; out (x in place); total. r0 = x * y; r1 = r0 + x; out = r1; total = sum(x).
# No library call: contiguous rows run in one loop.
ELEMENTWISE = Case(
    KernelSpec(args=((IN, "float64", False), (IN, "float64", False), (OUT, "float64", False),
                     (RED, "float64", True)),
               scalar_types=(),
               nodes=(("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (ARG, 1))),
                      ("BINARY_OP.ADD", "float64", ((REGISTER, 0), (ARG, 0)))),
               stores=((2, 1),), reductions=((3, "SUM", (ARG, 0), NO_OPERAND),)),
    staged=False, aliases={2: 0},
    reference=lambda v: {2: v[0] * v[1] + v[0], 3: sequential_sum(v[0])})

# x, y in; out (x in place). r0 = exp(y); r1 = x * r0; out = r1: `x *= exp(y)`, no reduction.
STAGED_STORE = Case(
    KernelSpec(args=((IN, "float64", False), (IN, "float64", False), (OUT, "float64", False)),
               scalar_types=(),
               nodes=(("UNARY_OP.EXP", "float64", ((ARG, 1),)),
                      ("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (REGISTER, 0)))),
               stores=((2, 1),), reductions=()),
    staged=True, aliases={2: 0},
    reference=lambda v: {2: v[0] * c_exp(v[1])})

# The same with total = sum(x) read straight from the input: `s = x.sum(); x *= exp(y)`.
STAGED_SUM = Case(
    KernelSpec(args=((IN, "float64", False), (IN, "float64", False), (OUT, "float64", False),
                     (RED, "float64", True)),
               scalar_types=(),
               nodes=(("UNARY_OP.EXP", "float64", ((ARG, 1),)),
                      ("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (REGISTER, 0)))),
               stores=((2, 1),), reductions=((3, "SUM", (ARG, 0), NO_OPERAND),)),
    staged=True, aliases={2: 0},
    reference=lambda v: {2: v[0] * c_exp(v[1]), 3: sequential_sum(v[0])})


def deep_reference(v: list[numpy.ndarray]) -> dict[int, numpy.ndarray]:
    x, y, m = v
    r1 = x * c_exp(y)
    r3 = c_exp(r1) - x
    return {3: r3, 4: r3 > x, 5: sequential_sum(x, m), 6: sequential_max(x),
            7: sequential_sum(r1)}


# Two call depths (stores four stages after the first load), a masked reduction whose value
# and mask are both inputs that outputs overwrite, and a reduction of a register:
# x, y, m in; out (x in place), flags (m in place); masked_total, largest, product_total.
# r0 = exp(y); r1 = x * r0; r2 = exp(r1); r3 = r2 - x; r4 = r3 > x; out = r3; flags = r4;
# masked_total = sum(x) where m; largest = max(x); product_total = sum(r1).
STAGED_DEEP = Case(
    KernelSpec(args=((IN, "float64", False), (IN, "float64", False), (IN, "bool", False),
                     (OUT, "float64", False), (OUT, "bool", False), (RED, "float64", True),
                     (RED, "float64", True), (RED, "float64", True)),
               scalar_types=(),
               nodes=(("UNARY_OP.EXP", "float64", ((ARG, 1),)),
                      ("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (REGISTER, 0))),
                      ("UNARY_OP.EXP", "float64", ((REGISTER, 1),)),
                      ("BINARY_OP.SUBTRACT", "float64", ((REGISTER, 2), (ARG, 0))),
                      ("BINARY_OP.GREATER", "bool", ((REGISTER, 3), (ARG, 0)))),
               stores=((3, 3), (4, 4)),
               reductions=((5, "SUM", (ARG, 0), (ARG, 2)), (6, "MAX", (ARG, 0), NO_OPERAND),
                           (7, "SUM", (REGISTER, 1), NO_OPERAND))),
    staged=True, aliases={3: 0, 4: 2}, reference=deep_reference)

CASES = {"elementwise": ELEMENTWISE, "staged_store": STAGED_STORE, "staged_sum": STAGED_SUM,
         "staged_deep": STAGED_DEEP}
# Around the 256-element tile: a lone element, one short, exact, one over, several tiles with a
# remainder; and rows of a 2-D array (the accumulators carry from row to row).
SHAPES = [(1,), (255,), (256,), (257,), (1000,), (3, 257)]
IDENTITY = {"SUM": 0.0, "MAX": -numpy.inf}


def make_input(dtype: str, shape: tuple[int, ...], seed: int) -> numpy.ndarray:
    rng = numpy.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    # Small enough that exp(x * exp(y)) stays finite; zeros of both signs included, though not
    # first: a lone element that an update leaves unchanged would hide a reduction of it.
    values = rng.uniform(-2.0, 2.0, shape)
    if values.size >= 3:
        values.reshape(-1)[1:3] = [0.0, -0.0]
    return values


def contiguous(a: numpy.ndarray) -> numpy.ndarray:
    return numpy.ascontiguousarray(a.copy())


def strided(a: numpy.ndarray) -> numpy.ndarray:
    """A copy of `a` whose rows skip every other element: the kernel's strided path."""
    holder = numpy.zeros((*a.shape[:-1], 2 * a.shape[-1]), a.dtype)
    holder[..., ::2] = a
    return holder[..., ::2]


def run_on(compiler: KernelCompiler, case: Case, inputs: list[numpy.ndarray],
           layout: Callable[[numpy.ndarray], numpy.ndarray], in_place: bool,
           shape: tuple[int, ...]) -> dict[int, numpy.ndarray]:
    """Runs the case's kernel on copies of `inputs` in `layout`; returns every non-input
    argument after the kernel."""
    arrays: list[numpy.ndarray] = []
    for index, (role, dtype, _) in enumerate(case.spec.args):
        if role == IN:
            arrays.append(layout(inputs[index]))
        elif role == OUT:
            source = case.aliases.get(index)
            shared = in_place and source is not None
            arrays.append(arrays[source] if shared else layout(numpy.zeros(shape, dtype)))
        else:
            (red,) = [r for r in case.spec.reductions if r[0] == index]
            arrays.append(numpy.array(IDENTITY[red[1]], dtype))
    run(compiler, case.spec, arrays, shape)
    return {i: numpy.array(a) for i, a in enumerate(arrays) if case.spec.args[i][0] != IN}


def first_difference(got: numpy.ndarray, want: numpy.ndarray) -> str:
    g, w = got.reshape(-1), want.reshape(-1)
    for i in range(w.size):
        if g[i:i + 1].tobytes() != w[i:i + 1].tobytes():
            return f"element {i}: {g[i]!r} != {w[i]!r}"
    return "dtype or shape"


def test_the_cases_take_the_paths_they_are_named_for() -> None:
    for case in CASES.values():
        assert ("for (int64_t tile = 0" in case.spec.render_c()) == case.staged


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("in_place", [False, True], ids=["separate", "in_place"])
@pytest.mark.parametrize("name", list(CASES))
def test_contiguous_and_strided_rows_equal_the_reference_bitwise(
        compiler: KernelCompiler, name: str, in_place: bool, shape: tuple[int, ...]) -> None:
    case = CASES[name]
    inputs = [make_input(dtype, shape, seed) if role == IN else numpy.empty(0)
              for seed, (role, dtype, _) in enumerate(case.spec.args)]
    want = case.reference([a for a, (role, _, _) in zip(inputs, case.spec.args, strict=True)
                           if role == IN])
    for layout in (contiguous, strided):
        got = run_on(compiler, case, inputs, layout, in_place, shape)
        for arg, expected in want.items():
            value = got[arg]
            assert value.dtype == expected.dtype and value.shape == expected.shape
            assert value.tobytes() == expected.tobytes(), (
                f"{layout.__name__} rows, argument {arg}: {first_difference(value, expected)}")
