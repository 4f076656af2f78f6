"""A cuPyNumeric draw's arguments (BITGENERATOR), read from its record: which draws the fused
task makes (lift/random_draws.py lifts them), and the words the fused task's layout gives each
(src/cpp/tasks/layout.h), read at each launch."""

from __future__ import annotations

import struct
from functools import cache

from legate_fuse.capture.task_record import TaskRecord

# cuPyNumeric's distribution -> (the fused task's DrawKind, the result's type, whether its two
# parameters are integers (low, high), float32 values or float64 values).
DISTRIBUTIONS = {
    "INTEGERS_16": (1, "int16", "integers"), "INTEGERS_32": (2, "int32", "integers"),
    "INTEGERS_64": (3, "int64", "integers"), "UNIFORM_32": (4, "float32", "floats"),
    "UNIFORM_64": (5, "float64", "doubles"), "NORMAL_32": (6, "float32", "floats"),
    "NORMAL_64": (7, "float64", "doubles"), "LOGNORMAL_32": (8, "float32", "floats"),
    "LOGNORMAL_64": (9, "float64", "doubles"),
}
RAW_KIND = 0  # random_raw: uint32 values
# The generator types randutil makes on a CPU (DEFAULT is XORWOW).
GENERATOR_TYPES = frozenset({"DEFAULT", "XORWOW", "MRG32K3A", "PHILOX4_32_10"})
# Scalars of each operation: (op, id, type, seed, flags) then, for RAND_RAW, the strides; for
# DISTRIBUTION, the distribution, the strides and the three parameter tuples.
RAW_SCALARS, DISTRIBUTION_SCALARS = 6, 10


@cache
def _enums() -> tuple[int, int, dict[int, str], dict[int, str]]:
    from cupynumeric.config import (
        BitGeneratorDistribution,
        BitGeneratorOperation,
        BitGeneratorType,
    )

    return (int(BitGeneratorOperation.RAND_RAW), int(BitGeneratorOperation.DISTRIBUTION),
            {int(v): k for k, v in BitGeneratorDistribution.__members__.items()},
            {int(v): k for k, v in BitGeneratorType.__members__.items()})


def draw_kind(record: TaskRecord, result_type: str) -> int | None:
    """The fused task's DrawKind for the record's draw, or None where it is not lifted."""
    raw, distribution, distributions, types = _enums()
    scalars = record.scalars()
    if not scalars or not all(isinstance(s, (int, tuple)) for s in scalars):
        return None
    op = int(scalars[0])
    if op == raw and len(scalars) == RAW_SCALARS:
        kind, wanted = RAW_KIND, "uint32"
    elif op == distribution and len(scalars) == DISTRIBUTION_SCALARS:
        known = DISTRIBUTIONS.get(distributions.get(int(scalars[5]), ""))
        if known is None:
            return None
        kind, wanted, params = known
        numbers = (scalars[7], scalars[8], scalars[9])
        given = {"integers": 0, "floats": 1, "doubles": 2}[params]
        if len(numbers[given]) != 2 or any(numbers[k] for k in range(3) if k != given):
            return None
    else:
        return None
    if types.get(int(scalars[2])) not in GENERATOR_TYPES or result_type != wanted:
        return None
    return kind


def generator_type(record: TaskRecord) -> str | None:
    """The name of the draw's generator type (cuPyNumeric's BitGeneratorType), if it has one."""
    scalars = record.scalars()
    if len(scalars) < 3 or not isinstance(scalars[2], int):
        return None
    return _enums()[3].get(int(scalars[2]))


def draw_words(record: TaskRecord) -> list[int]:
    """The draw as the fused task's layout states it after its result (src/cpp/tasks/layout.h):
    kind, generator id, type, flags, seed, two reals, two integers; 64-bit values as two int32
    words, low first. Read from the record at each launch: windows that differ only in these
    share their plan."""
    scalars = record.scalars()
    kind = draw_kind(record, str(record.args[0].store.type))
    if kind is None:
        raise ValueError("not a draw the fused task makes")
    reals: tuple[float, ...] = (0.0, 0.0)
    integers: tuple[int, ...] = (0, 0)
    if len(scalars) == DISTRIBUTION_SCALARS:
        integers = tuple(scalars[7]) or integers
        reals = tuple(float(v) for v in (scalars[8] or scalars[9])) or reals
    wide = struct.pack("<Q2d2q", int(scalars[3]), *reals, *integers)
    words = struct.unpack("<10i", wide)
    return [kind, int(scalars[1]), int(scalars[2]), int(scalars[4]), *words]


def is_draw(record: TaskRecord) -> bool:
    """Whether `record` is one of cuPyNumeric's BITGENERATOR tasks, lifted or not: run as it
    built it, it must follow the fused draws submitted before it (draw_order.py)."""
    return record.library_name == "cupynumeric" and record.task_id == _bitgenerator_id()


@cache
def _bitgenerator_id() -> int:
    from cupynumeric.config import CuPyNumericOpCode

    return int(CuPyNumericOpCode.BITGENERATOR)
