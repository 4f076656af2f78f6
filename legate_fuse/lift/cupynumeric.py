"""Lifting of cuPyNumeric's element-wise and reduction tasks.

Task ids and operation codes are read from cuPyNumeric at run time (its `config` enums), never
hard-coded; an operation code not listed here is opaque. The shapes of the tasks (argument order,
scalar arguments) are those cuPyNumeric 26.06 builds in `cupynumeric/_thunk/deferred.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy
from legate.core import LogicalStore, Scalar

from legate_fuse import _core
from legate_fuse.capture import compat
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.lift import products, random_draws
from legate_fuse.lift.base import (
    READ,
    REDUCE,
    WRITE,
    LiftedArg,
    LiftedTask,
    constraints_align,
    machine_has_gpus,
)

LIBRARY_NAME = "cupynumeric"

UNARY_OPS = frozenset({
    "ABSOLUTE", "ARCCOS", "ARCCOSH", "ARCSIN", "ARCSINH", "ARCTAN", "ARCTANH", "CBRT", "CEIL",
    "CLIP", "COPY", "COS", "COSH", "DEG2RAD", "EXP", "EXP2", "EXPM1", "FLOOR", "INVERT",
    "ISFINITE", "ISINF", "ISNAN", "LOG", "LOG10", "LOG1P", "LOG2", "LOGICAL_NOT", "NEGATIVE",
    "POSITIVE", "RAD2DEG", "RECIPROCAL", "RINT", "SIGN", "SIGNBIT", "SIN", "SINH", "SQRT",
    "SQUARE", "TAN", "TANH", "TRUNC", "GETARG",
})
BINARY_OPS = frozenset({
    "ADD", "ARCTAN2", "BITWISE_AND", "BITWISE_OR", "BITWISE_XOR", "COPYSIGN", "DIVIDE", "EQUAL",
    "FLOAT_POWER", "FLOOR_DIVIDE", "FMOD", "GREATER", "GREATER_EQUAL", "HYPOT", "LEFT_SHIFT",
    "LESS", "LESS_EQUAL", "LOGADDEXP", "LOGADDEXP2", "LOGICAL_AND", "LOGICAL_OR", "LOGICAL_XOR",
    "MAXIMUM", "MINIMUM", "MOD", "MULTIPLY", "NOT_EQUAL", "POWER", "RIGHT_SHIFT", "SUBTRACT",
})
REDUCTIONS = frozenset({"SUM", "PROD", "MAX", "MIN", "ALL", "ANY"})
# Reductions along an axis (UNARY_RED): folded into the target's elements, in place on CPUs and
# by compare-and-swap on GPUs, into targets 4 or 8 bytes wide (a GPU's compare-and-swap). The
# values are of the target's type, or narrower integers that NumPy sums into 64 bits (exact:
# C converts each value as cuPyNumeric's kernel does).
AXIS_REDUCTIONS = frozenset({"SUM", "PROD", "MAX", "MIN"})
# argmin/argmax along the last axis only: (index, value) pairs (codegen/arg_reduction.h).
ARG_REDUCTIONS = frozenset({"ARGMIN", "ARGMAX"})
AXIS_REDUCTION_TYPES = frozenset({"float32", "float64", "int32", "int64", "uint32", "uint64"})
WIDENED_INTO = {"int64": frozenset({"bool", "int8", "int16", "int32"}),
                "uint64": frozenset({"uint8", "uint16", "uint32"})}
CONVERSIONS = frozenset({"NOOP", "SUM", "PROD"})
# Bytes of one run-time scalar slot of a kernel (src/cpp/codegen/c_renderer.cc).
SCALAR_SLOT = 8


@dataclass(frozen=True)
class Codes:
    task_kinds: dict[int, str]
    unary: dict[int, str]
    binary: dict[int, str]
    reduction: dict[int, str]
    conversion: dict[int, str]


@cache
def codes() -> Codes:
    from cupynumeric.config import (
        BinaryOpCode,
        ConvertCode,
        CuPyNumericOpCode,
        UnaryOpCode,
        UnaryRedCode,
    )

    kinds = compat.LIFTED_TASK_KINDS
    members = CuPyNumericOpCode.__members__

    def table(enum: Any, names: frozenset[str]) -> dict[int, str]:
        return {int(v): k for k, v in enum.__members__.items() if k in names}

    return Codes(
        task_kinds={int(members[k]): k for k in kinds if k in members},
        unary=table(UnaryOpCode, UNARY_OPS),
        binary=table(BinaryOpCode, BINARY_OPS),
        reduction=table(UnaryRedCode, REDUCTIONS | ARG_REDUCTIONS),
        conversion=table(ConvertCode, CONVERSIONS),
    )


def lifted_task_ids() -> list[int]:
    """The ids of the tasks `lift` may lift."""
    return list(codes().task_kinds)


@cache
def scalar_limits() -> dict[int, int]:
    """Task id -> the most scalar arguments a task of that kind can take and be lifted."""
    c = codes()
    most = {"BINARY_OP": c.binary.values(), "UNARY_OP": c.unary.values()}
    limits = {task_id: 1 + max(_core.runtime_scalar_count(f"{kind}.{name}")
                               for name in most[kind])
              for task_id, kind in c.task_kinds.items() if kind in most}
    limits.update({task_id: _core.runtime_scalar_count(kind)
                   for task_id, kind in c.task_kinds.items() if kind == "ARANGE"})
    return limits


@cache
def task_names() -> dict[int, str]:
    from cupynumeric.config import CuPyNumericOpCode
    return {int(v): k for k, v in CuPyNumericOpCode.__members__.items()}


def _code(value: Any) -> int | None:
    """An operation code, axis or flag given as a plain value; None for a Legate Scalar, whose
    value a record's shape does not state (capture/lazy_task.py): such a task is not lifted."""
    return None if type(value) is Scalar else int(value)


def _scalar_type(record: TaskRecord, index: int) -> str:
    """The type of the task's `index`-th scalar argument."""
    args = record.scalar_calls()[index]
    return str(args[0].type if type(args[0]) is Scalar else args[1])


def _first_runtime_scalar(task_id: int) -> int:
    """Where its run-time values begin: after its operation code (arange has none)."""
    return 0 if codes().task_kinds.get(task_id) == "ARANGE" else 1


def runtime_scalar(record: TaskRecord, index: int) -> bytes:
    """The value of the task's `index`-th run-time scalar (the arguments after its operation
    code) as the kernel's scalar slot holds it: its bytes, padded to 8."""
    args = record.scalar_calls()[_first_runtime_scalar(record.task_id) + index]
    value = args[0] if type(args[0]) is Scalar else Scalar(*args)
    data = numpy.asarray(value).tobytes()
    if len(data) > SCALAR_SLOT:
        raise ValueError(f"a run-time scalar of {len(data)} bytes does not fit a kernel slot")
    return data.ljust(SCALAR_SLOT, b"\0")


def _lifted_args(record: TaskRecord) -> tuple[LiftedArg, ...] | None:
    privileges = {"add_input": READ, "add_output": WRITE, "add_reduction": REDUCE}
    lifted = []
    for arg in record.args:
        if not isinstance(arg.store, LogicalStore):
            return None
        lifted.append(LiftedArg(arg.store, privileges[arg.kind], arg.redop))
    return tuple(lifted)


def _aligned(record: TaskRecord) -> bool:
    partitioned = [i for i, arg in enumerate(record.args) if arg.store.ndim > 0]
    return constraints_align(record, partitioned)


def _op_name(record: TaskRecord, kind: str, scalars: list[Any], c: Codes) -> str | None:
    if kind == "ARANGE":
        return kind  # its scalars are run-time values (its start and step), checked by `lift`
    code = _code(scalars[0]) if scalars else None
    if kind == "BINARY_OP":
        name = c.binary.get(code) if code is not None else None
        return f"BINARY_OP.{name}" if name else None
    if kind == "UNARY_OP":
        name = c.unary.get(code) if code is not None else None
        return f"UNARY_OP.{name}" if name else None
    if kind == "CONVERT":
        name = c.conversion.get(code) if code is not None and len(scalars) == 1 else None
        return f"CONVERT.{name}" if name else None
    if kind == "UNARY_RED":
        # Scalars: the axis, the operation, whether a `where` mask is given (then its store is
        # the last input: the kernel builder's mask), and nothing else (the arguments of
        # argmax-like reductions).
        masked = len(record.args) == 3
        if len(scalars) != 3 or _code(scalars[2]) != masked:
            return None
        reduction = _code(scalars[1])
        name = c.reduction.get(reduction) if reduction is not None else None
        if name in ARG_REDUCTIONS:
            axis = _code(scalars[0])
            last = axis is not None and axis == record.args[0].store.ndim - 1
            return f"UNARY_RED.{name}.{axis}" if last and not masked else None
        return f"UNARY_RED.{name}" if name in AXIS_REDUCTIONS else None
    if kind == "SCALAR_UNARY_RED":
        # Scalars: the operation, the shape, whether a `where` mask is given; more (the
        # arguments of other reductions) and it is not lifted.
        name = c.reduction.get(code) if code is not None and len(scalars) == 3 else None
        where = bool(_code(scalars[2])) if name else False
        return f"SCALAR_UNARY_RED.{name}{'.WHERE' if where else ''}" if name else None
    if kind == "PUTMASK" and record.args[0].store is not record.args[3].store:
        return None  # (cuPyNumeric writes the very store it reads)
    return kind if not scalars else None  # WHERE, FILL, DOT, PUTMASK carry no scalar


# Privileges of the store arguments each kind must have, in order.
_EXPECTED = {
    "BINARY_OP": ((WRITE, READ, READ),),
    "UNARY_OP": ((WRITE, READ),),
    "CONVERT": ((WRITE, READ),),
    "WHERE": ((WRITE, READ, READ, READ),),
    "FILL": ((WRITE, READ),),
    "SCALAR_UNARY_RED": ((REDUCE, READ), (REDUCE, READ, READ)),
    "UNARY_RED": ((READ, REDUCE), (READ, REDUCE, READ)),
    "DOT": ((REDUCE, READ, READ),),
    # The array, the mask, the values (broadcast or not), then the array again, written.
    "PUTMASK": ((READ, READ, READ, WRITE),),
    "ARANGE": ((WRITE,),), "BITGENERATOR": ((WRITE,),),
    **dict.fromkeys(products.OPS, ((REDUCE, READ, READ),)),
}


# Dtypes whose kernels model cuPyNumeric's CPU kernels only (src/cpp/codegen/half_float.h,
# complex_float.h, arg_reduction.h): its GPU kernels compute float16 in half precision, complex
# numbers with libcu++'s device code and argval structs ("{int64:0,...}") with atomics.
COMPLEX_DTYPES = frozenset({"complex64", "complex128"})
CPU_ONLY_DTYPES = frozenset({"float16", *COMPLEX_DTYPES})


@cache
def _renderable(op: str, out: str, ins: tuple[str, ...]) -> bool:
    cpu_only = not CPU_ONLY_DTYPES.isdisjoint((out, *ins)) or out.startswith("{")
    if cpu_only and machine_has_gpus():
        return False
    if op == "DOT":
        same = all(d == out for d in ins)
        return (same and _core.c_supports("BINARY_OP.MULTIPLY", out, list(ins))
                and _core.c_supports_reduction("SUM", out))
    if op.startswith("UNARY_RED.") and op.split(".")[1] in ARG_REDUCTIONS:
        return (ins == (ins[0],) and out == f"{{int64:0,{ins[0]}:8}}"
                and _core.c_supports_reduction(op.split(".")[1], out))
    if op.startswith("UNARY_RED."):
        values_ok = ins[0] == out or ins[0] in WIDENED_INTO.get(out, ())
        mask_ok = len(ins) == 1 or ins[1:] == ("bool",)
        return (values_ok and mask_ok and out in AXIS_REDUCTION_TYPES
                and _core.c_supports_reduction(op.split(".")[1], out))
    if op.startswith("SCALAR_UNARY_RED."):
        name = op.split(".")[1]
        # any/all of complex values: cuPyNumeric 26.06's own result is not NumPy's (any([1j])
        # is False), and the kernels have no complex truth test: left to cuPyNumeric.
        # Sums and products of narrower integers (a mask's count) into 64 bits: exact.
        value_ok = (ins[0] == out or (name in ("ALL", "ANY") and out == "bool"
                                      and ins[0] not in COMPLEX_DTYPES)
                    or (name in ("SUM", "PROD") and ins[0] in WIDENED_INTO.get(out, ())))
        mask_ok = len(ins) == 1 or ins[1] == "bool"
        return value_ok and mask_ok and _core.c_supports_reduction(name, out)
    return _core.c_supports(op, out, list(ins))


def _has_kernel(task: LiftedTask) -> bool:
    """Whether the code generator can express the task; if not, it stays opaque."""
    outs = [a for a in task.args if a.privilege != READ]
    ins = tuple(str(a.store.type) for a in task.args if a.privilege == READ)
    return len(outs) == 1 and _renderable(task.op, str(outs[0].store.type), ins)


def lift(record: TaskRecord) -> LiftedTask | None:
    c = codes()
    kind = c.task_kinds.get(record.task_id)
    if kind is None:
        return None
    args = _lifted_args(record)
    if args is None or tuple(a.privilege for a in args) not in _EXPECTED[kind]:
        return None
    if kind in products.OPS or kind == "BITGENERATOR":
        return (products.lift_product(record, kind, args) if kind in products.OPS
                else random_draws.lift_draw(record, args))
    scalars = record.scalars()
    op = _op_name(record, kind, scalars, c)
    if op is None:
        return None
    # The operation code is part of `op`; what follows it are run-time values (clip bounds), of
    # the result's type, which the kernel reads from its scalar slots (runtime_scalar).
    if kind in ("BINARY_OP", "UNARY_OP", "ARANGE"):
        extra = _core.runtime_scalar_count(op)
        first = _first_runtime_scalar(record.task_id)
        result = str(args[0].store.type)
        if len(scalars) != first + extra or any(_scalar_type(record, first + k) != result
                                                for k in range(extra)):
            return None
    task = LiftedTask(op=op, args=args, aligned=False)
    if not _has_kernel(task):
        return None
    # argmin/argmax: the kernel's fold is faster than cuPyNumeric's (1e6 x 8: 8 against 42 ms).
    return LiftedTask(op=op, args=args, aligned=_aligned(record),
                      fused_alone=op.startswith("UNARY_RED.ARG"))


def pays_alone(record: TaskRecord) -> bool:
    """Whether the lifted task runs faster fused alone than as cuPyNumeric built it: a large
    random draw, which the fused task makes in parts on several threads."""
    return (codes().task_kinds.get(record.task_id) == "BITGENERATOR"
            and random_draws.draw_pays_alone(record))
