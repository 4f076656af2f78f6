"""LEGATE_FUSE_MATH=fast: kernels call the C library's vector math library (glibc's libmvec).

Off by default: the vector functions of libmvec do not round as the scalar ones cuPyNumeric's
kernels call (glibc documents them as within 4 ulp; tests/unit/test_fast_math.py measures them
against mpmath), so the fused results then differ in their last bits from fusion off. It is for
users who accept what JAX or numexpr give.

How: each math function a kernel may call is declared `#pragma omp declare simd notinbranch` in
front of its source, and the kernel is compiled with -fopenmp-simd and linked with libmvec: GCC
then vectorises the kernel's loops over calls to libmvec's variants (`_ZGVdN4v_exp` for four
doubles with AVX2, `_ZGVeN8v_exp` for eight with AVX-512). Only the functions: arithmetic,
square roots and conversions round as in exact mode (no -ffast-math), and the exact vector
forms (vector_math.py) are switched off. A function libmvec does not have stays scalar.
"""

from __future__ import annotations

import ctypes
from functools import cache

from legate_fuse.backend import vector_math

MODES = ("exact", "fast")
FLAGS = ("-fopenmp-simd",)
LIBRARIES = ("-lmvec",)
LIBMVEC = "libmvec.so.1"
# The C library functions the kernels call (codegen/c_ops.cc) by their float64 names, with
# their number of arguments; each has a float32 variant named with an `f`.
FUNCTIONS = {name: 1 for name in (
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
    "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "cbrt")}
FUNCTIONS.update({"pow": 2, "atan2": 2, "hypot": 2})


@cache
def vector_functions() -> tuple[str, ...]:
    """The C names (float64 and float32) of the functions this machine's libmvec has in a
    vector form of four doubles or eight floats (AVX2; the AVX-512 forms come with them)."""
    try:
        library = ctypes.CDLL(LIBMVEC)
    except OSError:
        return ()
    found = []
    for name, arity in FUNCTIONS.items():
        arguments = "v" * arity
        if hasattr(library, f"_ZGVdN4{arguments}_{name}"):
            found.append(name)
        if hasattr(library, f"_ZGVdN8{arguments}_{name}f"):
            found.append(f"{name}f")
    return tuple(found)


def prelude() -> str:
    """What a kernel's source is compiled with in front of it in fast mode: the exact vector
    forms off, and libmvec's functions declared as having vector variants."""
    lines = [f"#define LF_VECTOR_{f.upper()} 0" for f in vector_math.FUNCTIONS]
    for name in vector_functions():
        double = name in FUNCTIONS
        arity = FUNCTIONS[name if double else name[:-1]]
        c_type = "double" if double else "float"
        lines.append("#pragma omp declare simd notinbranch")
        lines.append(f"{c_type} {name}({', '.join([c_type] * arity)});")
    return "\n".join(lines) + "\n"


def available() -> bool:
    """Whether this machine has a vector math library to link kernels with."""
    return bool(vector_functions())
