"""The C library's own tables and constants for its log, expf, logf, sin, cos and pow, read from
the library this process runs.

glibc's log (from the Arm Optimized Routines, like its exp) writes x as 2^k z and looks 1/c and
log(c) up in a table of 128 subintervals of z. Unlike exp's table (2^(i/128), which
scripts/gen_exp_table.py computes), each c was chosen by a search whose outcome cannot be
derived again: so the vector form of log (codegen/c_vector_math.h) takes the table, and the
polynomials' coefficients, from the C library's file itself. Each function's data is one
read-only struct, found by what can be known of it beforehand:

- log: ln2hi, ln2lo, poly[5], poly1[11], then 128 pairs (invc, logc); found by its first two
  members (the two parts of ln 2 the algorithm uses) followed by poly1's first coefficient,
  -0.5;
- expf: 32 words of 2^(i/32) (its bits minus i << 47, computed here), then the constants the
  algorithm reads (41 words in all);
- logf: 16 pairs (invc, logc), ln 2, then poly[3]; found by ln 2 after 16 pairs in which each
  logc is the logarithm of 1/invc;
- sin and cos (IBM's Accurate Mathematical Library): 110 entries (sin, its tail, cos, its tail)
  of i/128, each value and tail split from a more precise one; found by the first entries
  (0, 0, 1, 0) followed by sin(1/128), every head within 2^-52 of math's sin and cos of i/128
  and every tail below 2^-52 of its head;
- pow: ln2hi, ln2lo, poly[7], then 128 entries (invc, a pad, logc, logctail); found by the same
  two parts of ln 2 followed by poly[0], -0.5, every 1/c in (0.5, 2) and every log(c) within
  2^-20 of -log(1/c).

Whatever is found here is only used after the check program (vector_math.py) has found the
vector form built from it to round exactly as the library's function on millions of inputs: a
different library, or a layout other than this one, fails the check and kernels keep calling
the library.
"""

from __future__ import annotations

import math
import re
import struct
from decimal import Decimal, getcontext
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


EXPF_DATA_WORDS = 41


def expf_table() -> tuple[int, ...]:
    """The first 32 words of expf's struct: 2^(i/32) rounded to double, minus i << 47."""
    getcontext().prec = 40
    return tuple((struct.unpack("<Q", struct.pack("<d", float(Decimal(2) ** (Decimal(i) / 32))))
                  [0] - (i << 47)) % 2**64 for i in range(32))


def find_expf_data(library: bytes) -> tuple[int, ...] | None:
    """expf's struct's 64-bit words in `library`'s bytes, or None if it has none."""
    table = expf_table()
    for match in re.finditer(re.escape(struct.pack("<32Q", *table)), library):
        start = match.start()
        if start % 8 == 0 and start + 8 * EXPF_DATA_WORDS <= len(library):
            return struct.unpack_from(f"<{EXPF_DATA_WORDS}Q", library, start)
    return None


LOGF_DATA_WORDS = 36
LN2 = math.log(2.0)


def find_logf_data(library: bytes) -> tuple[int, ...] | None:
    """logf's struct's 64-bit words in `library`'s bytes, or None if it has none."""
    for match in re.finditer(re.escape(struct.pack("<d", LN2)), library):
        start = match.start() - 32 * 8
        if start < 0 or start % 8 != 0 or start + 8 * LOGF_DATA_WORDS > len(library):
            continue
        values = struct.unpack_from("<32d", library, start)
        invc, logc = values[0::2], values[1::2]
        if all(0.5 < v < 2.0 and abs(c + math.log(v)) < 1e-7 for v, c in zip(invc, logc,
                                                                            strict=True)):
            return struct.unpack_from(f"<{LOGF_DATA_WORDS}Q", library, start)
    return None


SINCOS_ENTRIES = 110
SINCOS_DATA_WORDS = 4 * SINCOS_ENTRIES


def find_sincos_data(library: bytes) -> tuple[int, ...] | None:
    """sin's and cos's table's 64-bit words in `library`'s bytes, or None if it has none."""
    marker = struct.pack("<5d", 0.0, 0.0, 1.0, 0.0, math.sin(1 / 128))
    for match in re.finditer(re.escape(marker), library):
        start = match.start()
        if start % 8 != 0 or start + 8 * SINCOS_DATA_WORDS > len(library):
            continue
        values = struct.unpack_from(f"<{SINCOS_DATA_WORDS}d", library, start)
        if all(abs(values[4 * i] - math.sin(i / 128)) <= 2**-52
               and abs(values[4 * i + 2] - math.cos(i / 128)) <= 2**-52
               and abs(values[4 * i + 1]) <= 2**-52 * abs(values[4 * i])
               and abs(values[4 * i + 3]) <= 2**-52 * values[4 * i + 2]
               for i in range(SINCOS_ENTRIES)):
            return struct.unpack_from(f"<{SINCOS_DATA_WORDS}Q", library, start)
    return None


POW_ENTRIES = 128
POW_DATA_WORDS = 2 + 7 + 4 * POW_ENTRIES


def find_pow_data(library: bytes) -> tuple[int, ...] | None:
    """pow's struct's 64-bit words in `library`'s bytes, or None if it has none."""
    for match in re.finditer(re.escape(MARKER + struct.pack("<d", -0.5)), library):
        start = match.start()
        if start % 8 != 0 or start + 8 * POW_DATA_WORDS > len(library):
            continue
        values = struct.unpack_from(f"<{POW_DATA_WORDS}d", library, start)
        invc, logc = values[9::4], values[11::4]
        if all(0.5 < v < 2.0 and abs(c + math.log(v)) < 2**-20 for v, c in zip(invc, logc,
                                                                             strict=True)):
            return struct.unpack_from(f"<{POW_DATA_WORDS}Q", library, start)
    return None


FINDERS = {"log": find_log_data, "expf": find_expf_data, "logf": find_logf_data,
           "sin": find_sincos_data, "cos": find_sincos_data, "pow": find_pow_data}


@cache
def _contents(library_path: str) -> bytes | None:
    """The C math library's file, read once for all the functions (None if unreadable)."""
    try:
        with open(library_path, "rb") as library:
            return library.read()
    except OSError:
        return None


def data(function: str, library_path: str) -> tuple[int, ...] | None:
    """The struct of `function` (one of FINDERS) in the C math library at `library_path`
    (None if unreadable or absent)."""
    contents = _contents(library_path)
    return None if contents is None else FINDERS[function](contents)


def c_definition(function: str, words: tuple[int, ...] | None) -> str:
    """The C definition kernels with `function`'s vector form are compiled with:
    `lf_<function>_data`, or nothing when no table was found."""
    if words is None:
        return ""
    rows = ",\n".join("  " + ", ".join(f"0x{w:016x}ULL" for w in words[k:k + 3])
                      for k in range(0, len(words), 3))
    return (f"#include <stdint.h>\nstatic const uint64_t lf_{function}_data[{len(words)}] = "
            f"{{\n{rows}\n}};\n")
