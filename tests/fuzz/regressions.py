"""Programs the fuzzer once found failing, kept as regression examples (shrunk)."""

from __future__ import annotations

from .programs import Program

F64 = ("float64",) * 6

REGRESSIONS: list[Program] = [
    # A group computing only on 0-d values (no partitioned store) ran no element.
    [("setup", 7, (3, 257), F64), ("read", "sum", "a0", 0),
     ("reduce", "mean", "a2", "a1", False), ("reduce", "max", "a4", "a2", False),
     ("read", "max", "a4", 0)],
    # A fused group iterating over an empty array (a0[2::3] of one element) ran no point, so the
    # 0-d product it also computed (a3 *= zeros(())) was never written: a3 kept its old value.
    # Fixed: a task over an empty partitioned store is not fused (legality rule 2).
    [("setup", 1, (1, 1), ("bool", "bool", "bool", "bool", "float32", "bool")),
     ("unary", "absolute", "a0", "a4"), ("view", "tail_step3", "a4", "a0"),
     ("reduce", "dot", "a3", "a0", False), ("unary", "absolute", "a0", "a4"),
     ("augment", "*=", "a3", "a0")],
    # A 0-d reduction (the product of an argmax) joined a group iterating over a vector: the
    # element loop multiplied it in once per element (3 ** 7 instead of 3). Fixed: a reduction
    # of 0-d values joins only a group of 0-d values (legality rule 2).
    [("setup", 7, (1, 1), ("bool", "int32", "bool", "bool", "bool", "bool")),
     ("axis_reduce", "argmax", "a1", "a1"), ("reduce", "prod", "a0", "a1", True)],
    # A fill from a packed Future of bool (matmul copies its one-element operand) made a
    # Legate Scalar of NumPy's bool scalar, which it refuses: ValueError with fusion on only.
    [("setup", 1, (1, 1), ("bool",) * 6), ("unary", "absolute", "a0", "a0"),
     ("matmul", "a0", "a0", "a0", 1)],
]
