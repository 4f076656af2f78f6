"""Random array programs for differential testing, and their interpreter.

A program is a list of statements over a pool of named arrays: vectors `v0..v3` (VECTOR
elements) and matrices `m0..m1` (MATRIX shape). Statements cover the lifted operations, Python
scalars, broadcasting, shifted views (stencils), in-place updates, slice assignment, reductions,
reads back to Python in the middle, control flow on array values, and opaque operations (sort,
boolean indexing, cumulative sums, matrix-vector products) in between. Values stay in
[-1, 1]-ish ranges so that no infinities or NaNs appear: NumPy and cuPyNumeric then agree up
to rounding, and any difference between fusion on and off is a fusion bug.

`run(program, xp)` returns the final arrays and every value read back, each marked with
whether a reduction's result flowed into it (those agree within a tolerance; the others
bit for bit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy
from hypothesis import strategies as st

VECTOR = 48
MATRIX = (6, 8)
VECTORS = ("v0", "v1", "v2", "v3")
MATRICES = ("m0", "m1")

UNARY = {
    "sin": lambda xp, a: xp.sin(a),
    "cos": lambda xp, a: xp.cos(a),
    "tanh": lambda xp, a: xp.tanh(a),
    "neg": lambda xp, a: -a,
    "abs": lambda xp, a: xp.abs(a),
    "sqrt": lambda xp, a: xp.sqrt(xp.abs(a)),
    "exp": lambda xp, a: xp.exp(-xp.abs(a)),
    "log": lambda xp, a: xp.log(xp.abs(a) + 1.0),
    "floor": lambda xp, a: xp.floor(a * 4.0) / 4.0,
    "square": lambda xp, a: xp.square(a),
}
BINARY = {
    "add": lambda xp, a, b: (a + b) * 0.5,
    "sub": lambda xp, a, b: (a - b) * 0.5,
    "mul": lambda xp, a, b: a * b,
    "div": lambda xp, a, b: a / (xp.abs(b) + 1.0),
    "max": lambda xp, a, b: xp.maximum(a, b),
    "min": lambda xp, a, b: xp.minimum(a, b),
    "where": lambda xp, a, b: xp.where(a > b, a, b * 0.5),
    "hypot": lambda xp, a, b: xp.hypot(a, b) * 0.5,
}
REDUCTIONS = {
    "sum": lambda xp, a: xp.sum(a) / a.size,
    "max": lambda xp, a: xp.max(a),
    "min": lambda xp, a: xp.min(a),
    "mean": lambda xp, a: xp.mean(a * a),
    "dot": lambda xp, a: xp.dot(a.ravel(), a.ravel()) / a.size,
}

Statement = tuple[Any, ...]


def statements() -> st.SearchStrategy[Statement]:
    vec, mat = st.sampled_from(VECTORS), st.sampled_from(MATRICES)
    unary, binary = st.sampled_from(sorted(UNARY)), st.sampled_from(sorted(BINARY))
    scalar = st.sampled_from([0.5, -0.25, 2.0, 0.75])
    return st.one_of(
        st.tuples(st.just("unary"), unary, vec, vec),
        st.tuples(st.just("unary"), unary, mat, mat),
        st.tuples(st.just("binary"), binary, vec, vec, vec),
        st.tuples(st.just("binary"), binary, mat, mat, mat),
        st.tuples(st.just("scalar"), vec | mat, scalar),
        st.tuples(st.just("inplace"), vec, vec),
        st.tuples(st.just("broadcast_row"), mat, vec),
        st.tuples(st.just("broadcast_column"), mat, vec),
        st.tuples(st.just("stencil"), vec, vec),
        st.tuples(st.just("stencil2d"), mat, mat),
        st.tuples(st.just("assign_slice"), vec, vec, st.integers(0, 8)),
        st.tuples(st.just("reduce_scale"), st.sampled_from(sorted(REDUCTIONS)), vec | mat,
                  vec | mat),
        st.tuples(st.just("read"), st.sampled_from(sorted(REDUCTIONS)), vec | mat),
        st.tuples(st.just("branch"), vec, vec),
        st.tuples(st.just("sort"), vec),
        st.tuples(st.just("mask"), vec, scalar),
        st.tuples(st.just("cumsum"), vec),
        st.tuples(st.just("matvec"), vec, mat, vec),
    )


def programs(max_size: int = 14) -> st.SearchStrategy[list[Statement]]:
    return st.lists(statements(), min_size=1, max_size=max_size)


@dataclass
class Value:
    data: Any
    tainted: bool  # a reduction's result flowed into it


def initial(xp: Any) -> dict[str, Value]:
    rng = numpy.random.default_rng(11)

    def owned(values: numpy.ndarray) -> Any:
        # `* 1.0` (exact) makes each array the output of a task, not NumPy memory copied in,
        # so that the library may write over it once the program drops it (in-place outputs).
        return xp.array(values) * 1.0

    state = {name: Value(owned(rng.uniform(-1, 1, VECTOR)), False) for name in VECTORS}
    state.update({name: Value(owned(rng.uniform(-1, 1, MATRIX)), False) for name in MATRICES})
    float(state["v0"].data[0])  # a read: the arrays are computed before the program starts
    return state


def run(program: list[Statement], xp: Any) -> dict[str, tuple[Any, bool]]:
    s = initial(xp)
    reads: list[Value] = []
    for statement in program:
        execute(statement, xp, s, reads)
    results = {name: (numpy.asarray(v.data), v.tainted) for name, v in s.items()}
    results.update({f"read{i}": (v.data, v.tainted) for i, v in enumerate(reads)})
    return results


def execute(statement: Statement, xp: Any, s: dict[str, Value], reads: list[Value]) -> None:
    kind = statement[0]
    if kind == "unary":
        _, op, out, a = statement
        s[out] = Value(UNARY[op](xp, s[a].data), s[a].tainted)
    elif kind == "binary":
        _, op, out, a, b = statement
        s[out] = Value(BINARY[op](xp, s[a].data, s[b].data), s[a].tainted or s[b].tainted)
    elif kind == "scalar":
        _, out, c = statement
        s[out] = Value(xp.tanh(s[out].data * c + c), s[out].tainted)
    elif kind == "inplace":
        _, out, a = statement
        s[out].data *= 0.5
        s[out].data += s[a].data * 0.25
        s[out].tainted |= s[a].tainted
    elif kind == "broadcast_row":
        _, out, row = statement
        s[out] = Value((s[out].data + s[row].data[: MATRIX[1]]) * 0.5,
                       s[out].tainted or s[row].tainted)
    elif kind == "broadcast_column":
        _, out, col = statement
        s[out] = Value(s[out].data * s[col].data[: MATRIX[0], None],
                       s[out].tainted or s[col].tainted)
    elif kind == "stencil":
        _, out, a = statement
        src = s[a].data
        s[out].data[1:-1] = (src[:-2] + src[2:] + src[1:-1]) / 3.0
        s[out].tainted |= s[a].tainted
    elif kind == "stencil2d":
        _, out, a = statement
        src = s[a].data
        s[out].data[1:-1, 1:-1] = 0.25 * (src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2]
                                          + src[1:-1, 2:])
        s[out].tainted |= s[a].tainted
    elif kind == "assign_slice":
        _, out, a, shift = statement
        s[out].data[shift:shift + 20] = s[a].data[8:28] * 0.5
        s[out].tainted |= s[a].tainted
    elif kind == "reduce_scale":
        _, op, source, out = statement
        value = REDUCTIONS[op](xp, s[source].data)
        s[out] = Value(s[out].data * value, True)
    elif kind == "read":
        _, op, source = statement
        reads.append(Value(float(REDUCTIONS[op](xp, s[source].data)), True))
    elif kind == "branch":
        _, out, a = statement
        if float(xp.sum(s[a].data)) > 0:
            s[out] = Value(s[out].data * 0.5, s[out].tainted or s[a].tainted)
        else:
            s[out] = Value(s[out].data + 0.125, s[out].tainted or s[a].tainted)
    elif kind == "sort":
        _, out = statement
        s[out] = Value(xp.sort(s[out].data), s[out].tainted)
    elif kind == "mask":
        _, out, c = statement
        data = s[out].data.copy()
        data[data > c] = 0.0
        s[out] = Value(data, s[out].tainted)
    elif kind == "cumsum":
        _, out = statement
        s[out] = Value(xp.tanh(xp.cumsum(s[out].data)), True)
    elif kind == "matvec":
        _, out, m, v = statement
        s[out].data[: MATRIX[0]] = (s[m].data @ s[v].data[: MATRIX[1]]) * 0.125
        s[out].tainted |= s[m].tainted or s[v].tainted
    else:  # pragma: no cover - the strategy makes no other kind
        raise ValueError(f"unknown statement {statement!r}")


def source(program: list[Statement]) -> str:
    """The program as a regression-test literal."""
    return "[\n" + "".join(f"    {statement!r},\n" for statement in program) + "]"
