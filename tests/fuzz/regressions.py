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
    # A 0-d array over NumPy memory (attached: a region, not a Future) joined a group iterating
    # over a (1, 3) product as a 0-d value; the element loop re-read it after writing it, so
    # a1 *= a1 squared it once per element. Fixed: only a Future is a 0-d value (window.cc).
    [("setup", 1, (3, 257), ("bool", "bool", "bool", "int32", "bool", "bool")),
     ("attach", "a1", "a3"), ("matmul", "a0", "a0", "a2", 1), ("augment", "*=", "a1", "a1")],
    # On two CPUs a group over a (1000,) mask also converted 0.5 to bool (a 0-d Future); each
    # point wrote its own, and putmask on point 1 read a value its group never gave: False.
    # Fixed: such a value joins a group iterating over an array only if nothing reads it after.
    [("setup", 1000, (2, 1000), ("bool",) * 6), ("mask_assign", "a0", "a2", 0.5)],
    # cuPyNumeric 26.06 itself, on two CPUs, aborts (Realm: "Point ... index == 0") when a
    # gather result meets a slice of a sort result, fusion off: sort results go on through a
    # NumPy copy there (programs.py).
    [("setup", 1000, (1, 1), ("int64", "float32", "bool", "float32", "int32", "int64")),
     ("gather", "a2", "a4", 37), ("sort", "a5", "a0"), ("numpy_out", "add", "a0", "a2", "a5")],
    # The model of cuPyNumeric against NumPy (each failed before its rule in programs.py):
    # floor of integers returns a view in cuPyNumeric 26.06;
    [("setup", 7, (2, 1000), ("float32", "int32", "int64", "int32", "int64", "float32")),
     ("unary", "floor", "a2", "a1"), ("augment", "+=", "a2", 3)],
    # a float32 sum (close to NumPy's within single precision) scales a float64 matrix: LOOSE;
    [("setup", 257, (16, 16), ("float64", "bool", "float32", "int64", "int32", "float64")),
     ("reduce", "sum", "a5", "a2", True)],
    # max ignores NaN in cuPyNumeric 26.06, and sort leaves NaN in place;
    [("setup", 1000, (3, 257), ("int32", "float32", "float32", "bool", "float32", "float32")),
     ("unary", "sqrt", "a3", "a1"), ("read", "max", "a3", 39)],
    [("setup", 256, (257, 3), ("int32", "int64", "int32", "float64", "float32", "float32")),
     ("unary", "log", "a4", "a5"), ("sort", "a2", "a4")],
    # reshape merging two dimensions longer than 1 copies in cuPyNumeric 26.06;
    [("setup", 255, (257, 3), ("int64", "float64", "float32", "int64", "float32", "int32")),
     ("view", "reshape", "a4", "a2"), ("mask_assign", "a4", "a4", 0)],
    # argmax with ties returns another index on two CPUs; inf // -0.25 is -inf, NumPy's NaN;
    [("setup", 1000, (3, 257), ("float64", "float64", "int32", "int32", "int64", "float64")),
     ("axis_reduce", "argmax", "a3", "a2")],
    [("setup", 7, (1, 1), ("float64", "bool", "bool", "int64", "int64", "float64")),
     ("binary", "true_divide", "a0", "a0", False), ("augment", "//=", "a0", -0.25)],
    # argmin along rows with ties: on two CPUs, another of the tied indices from run to run,
    # fusion on or off (seen once in a two-CPU campaign: fused 23, unfused 40);
    [("setup", 257, (20, 50), ("bool", "bool", "int32", "float64", "float64", "complex128")),
     ("axis_reduce", "argmin_last", "a5", "a2"), ("scatter", "a5", "a5", 10, False)],
    # a float32 cumsum on two CPUs cancels to near 0 with another rounding error;
    [("setup", 3000, (2, 1000), ("int32", "float32", "bool", "int64", "bool", "int64")),
     ("axis_reduce", "cumsum", "a4", "a1")],
    # a float16 sum (arctan2 of bools) accumulates in its own order.
    [("setup", 7, (16, 16), ("int64", "int32", "int64", "bool", "float64", "bool")),
     ("binary", "arctan2", "a4", "a5", "a5"), ("read", "sum", "a4", 17)],
    # int32 / int32 (float64, as NumPy) was not lifted: a chain the fuzzer's model expected to
    # fuse ran unfused. Lifted since: computed as cuPyNumeric computes it, (double)a / b.
    [("setup", 1, (3, 257), ("bool", "bool", "int32", "bool", "bool", "bool")),
     ("unary", "absolute", "a0", "a2"), ("binary", "true_divide", "a0", "a0", "a0"),
     ("read", "sum", "a0", 0), ("attach", "a0", "a0")],
    # a NumPy `out=` array's field, recycled for the conversions' results while that array
    # lived, counted as memory NumPy reads: every conversion flushed, nothing fused.
    [("setup", 7, (2, 1000), ("int64", "int32", "bool", "int64", "complex128", "complex128")),
     ("scatter", "a1", 0, 1, False), ("scatter", "a1", 0, 1, False),
     ("numpy_out", "multiply", "a0", "a1", "a1"), ("binary", "minimum", "a5", "a4", "a4"),
     ("unary", "to_int32", "a5", "a5"), ("unary", "to_float64", "a5", "a5"),
     ("read", "index", "a5", 183)],
    # The model expected clip and floor to fuse, but cuPyNumeric's clip of int32 to fractional
    # bounds stays int32 (NumPy's is float64) and its floor is the array itself: one task.
    [("setup", 1, (3, 257), ("bool", "bool", "int32", "bool", "bool", "bool")),
     ("unary", "clip_fraction", "a0", "a2"), ("unary", "floor", "a0", "a0"),
     ("read", "index", "a0", 0), ("unary", "absolute", "a0", "a0")],
    # On two CPUs, argmin of rows with two minima (row 11: columns 23 and 40) returns either,
    # from run to run, fusion on or off. Seen only in NumPy's run, which raised elsewhere
    # (add of int64 and float64 into an int64 `out=`): the tie went unnoticed, and the fused
    # and unfused runs differed now and then. Ties are now also seen in the unfused run.
    [("setup", 257, (20, 50), ("bool", "bool", "int32", "float64", "float64", "complex128")),
     ("export", "a5", True), ("axis_reduce", "argmin_last", "a5", "a2"),
     ("numpy_out", "add", "a2", "a5", "a3"), ("scatter", "a5", "a5", 10, False)],
]
