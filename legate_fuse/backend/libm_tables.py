"""The C library's own constants for its float64 log, read from the library this process runs.

glibc's log (from the Arm Optimized Routines, like its exp) writes x as 2^k z and looks 1/c and
log(c) up in a table of 128 subintervals of z. Unlike exp's table (2^(i/128), which
scripts/gen_exp_table.py computes), each c was chosen by a search whose outcome cannot be
derived again: so the vector form of log (codegen/c_vector_math.h) takes the table, and the
polynomials' coefficients, from the C library's file itself. They are one read-only struct:

    ln2hi, ln2lo, poly[5], poly1[11], then 128 pairs (invc, logc)

found by its first two members (the two parts of ln 2 the algorithm uses, constants of the
algorithm) followed by poly1's first coefficient, -0.5. Whatever is found here is only used
after the check program (vector_math.py) has found the vector form built from it to round
exactly as the library's log on millions of inputs: a different library, or a layout other than
this one, fails the check and kernels keep calling log.
"""

from __future__ import annotations

import hashlib
import re
import struct
from functools import cache

LN2_HI = float.fromhex("0x1.62e42fefa3800p-1")
LN2_LO = float.fromhex("0x1.ef35793c76730p-45")
POLY1_FIRST_INDEX = 7  # after ln2hi, ln2lo and poly[5]
LOG_DATA_WORDS = 2 + 5 + 11 + 2 * 128
MARKER = struct.pack("<dd", LN2_HI, LN2_LO)


def find_log_data(library: bytes) -> tuple[int, ...] | None:
    """The log struct's 64-bit words in `library`'s bytes, or None if it has none."""
    for match in re.finditer(re.escape(MARKER), library):
        start = match.start()
        if start % 8 != 0 or start + 8 * LOG_DATA_WORDS > len(library):
            continue
        values = struct.unpack_from(f"<{LOG_DATA_WORDS}d", library, start)
        if values[POLY1_FIRST_INDEX] == -0.5 and all(v > 0 for v in values[18::2]):
            return struct.unpack_from(f"<{LOG_DATA_WORDS}Q", library, start)
    return None


@cache
def log_data(library_path: str) -> tuple[int, ...] | None:
    """The log struct of the C math library at `library_path` (None if unreadable or absent)."""
    try:
        with open(library_path, "rb") as library:
            return find_log_data(library.read())
    except OSError:
        return None


def c_definition(words: tuple[int, ...] | None) -> str:
    """The C definition kernels with the vector log are compiled with: `lf_log_data`, or
    nothing when no table was found."""
    if words is None:
        return ""
    rows = ",\n".join("  " + ", ".join(f"0x{w:016x}ULL" for w in words[k:k + 3])
                      for k in range(0, len(words), 3))
    return (f"#include <stdint.h>\nstatic const uint64_t lf_log_data[{len(words)}] = {{\n"
            f"{rows}\n}};\n")


def digest(words: tuple[int, ...] | None) -> str:
    """A short digest of the table, for cache keys."""
    text = "none" if words is None else ",".join(map(str, words))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
