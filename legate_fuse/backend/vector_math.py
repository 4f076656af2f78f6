"""Whether generated kernels may use the vector forms of exp, log, expm1, tanh, log1p, sin and cos,
float64 and float32, and of pow (float64, which float32 powers use: codegen/c_vector_math.h).

Each vector form repeats the C library's algorithm operation for operation, so it rounds
exactly as the C library only where the library is the one it was written from (glibc's on a
CPU with FMA); log, expf, logf, sin, cos and pow also take their tables from the library's
file (libm_tables.py).
This is checked, not assumed: for each function, a program that compares the two on millions
of inputs is compiled with the kernels' compiler and flags and run once per machine, compiler
and C library, when a kernel first calls that function; its verdict is cached beside the
kernels. The same program then times both, on values off the special paths: a form is used
only where it is also faster than the library on this machine (not everywhere: without
AVX-512, the loops of the expm1 and tanh forms stay scalar and take twice the library's
time). A kernel's source gets `#define LF_VECTOR_<FUNCTION>` 1 or 0 in front of it (its
function's verdict) and, where 1, the function's table.
"""

from __future__ import annotations

import hashlib
import logging
import re
import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path

from legate_fuse import _core
from legate_fuse.backend import libm_tables
from legate_fuse.backend.cache_folders import CachePolicy
from legate_fuse.backend.compiler import (
    C_FORMAT,
    FLAGS,
    CompileError,
    KernelCache,
    compile_c,
    compiler_identity,
    machine_identity,
    run_tool,
)

logger = logging.getLogger("legate_fuse")

PROGRAM_FLAGS = tuple(f for f in FLAGS if f not in ("-fPIC", "-shared"))
PASSED = "identical"
# A vector form that rounds as the library but is not faster on this machine (its check
# program's exit status 3): the library is called instead.
SLOWER = "identical, slower here"
# Those with a vector form, as _core.vector_math_check_program names them; log, expf, logf, sin,
# cos and pow read a table of the C library's (libm_tables.py).
FUNCTIONS = ("exp", "log", "expf", "logf", "expm1", "tanh", "log1p", "expm1f", "tanhf",
             "log1pf", "sin", "cos", "sinf", "cosf", "pow")


@cache
def c_math_libraries() -> tuple[str, ...]:
    """The C math libraries this process has loaded (normally one)."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "/libm." in line or "/libm-" in line}
    except OSError:
        paths = set()
    return tuple(sorted(paths))


@cache
def c_library_identity() -> str:
    """The C math library this process runs with: its path and a digest of its contents."""
    parts = []
    for path in c_math_libraries():
        try:
            parts.append(f"{path} {hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]}")
        except OSError:
            parts.append(path)
    return "; ".join(parts) or "unknown"


def table(function: str) -> tuple[int, ...] | None:
    """The C library's data for `function`'s vector form, when this process has exactly one C
    math library and it has them (None too for exp, which reads no table of the library's)."""
    libraries = c_math_libraries()
    if function not in libm_tables.FINDERS or len(libraries) != 1:
        return None
    return libm_tables.data(function, libraries[0])


@cache
def preamble(function: str) -> str:
    """What the check of `function`, and kernels using its vector form, are compiled with in
    front of their source: the C library's table, for the functions that read one."""
    return libm_tables.c_definition(function, table(function))


def check_source(function: str) -> str:
    """The C source of the program that checks `function`'s vector form, its table included."""
    return preamble(function) + _core.vector_math_check_program(function)


def check_producer(compiler: str) -> Callable[[str, Path], None]:
    def produce(source: str, output: Path) -> None:
        program = output.with_suffix(".bin")
        try:
            compile_c(compiler, PROGRAM_FLAGS, source, program)
        except CompileError as error:
            # A verdict too, kept like any other: a check that cannot be compiled here never
            # will be, and kernels built in the background (which look verdicts up without
            # running checks) would otherwise wait for it forever.
            output.write_text(f"could not compile: {error}")
            return
        ran = run_tool([str(program)])
        if ran.returncode == 0:
            output.write_text(PASSED)
        elif ran.returncode == 3:
            output.write_text(f"{SLOWER}:\n{ran.stdout}")
        else:
            output.write_text(f"different:\n{ran.stdout}")

    return produce


# Verdicts known in this process, by (function, cache folder, compiler).
_verdicts: dict[tuple[str, Path, str], bool] = {}


def vector_form_available(function: str, cache_dir: Path, compiler: str,
                          warn: Callable[[str], None] = logger.warning,
                          may_check: bool = True,
                          policy: CachePolicy | None = None) -> bool | None:
    """The cached verdict of the check program of `function`'s vector form for this compiler
    (False if it cannot run, or the C library lacks the function's table); `warn` reports a
    damaged verdict in the cache. With `may_check` False: None where the check has not run
    on this machine yet, rather than running it."""
    key = (function, Path(cache_dir), compiler)
    known = _verdicts.get(key)
    if known is not None:
        return known
    if function in libm_tables.FINDERS and table(function) is None:
        logger.debug("vector %s: no table found in the C library", function)
        _verdicts[key] = False
        return False

    def identity() -> dict[str, str]:
        return {"compiler": compiler_identity(compiler), "flags": " ".join(PROGRAM_FLAGS),
                "machine": machine_identity(), "c_library": c_library_identity(),
                "format": C_FORMAT}

    verdicts = KernelCache(Path(cache_dir), ".verdict", identity, check_producer(compiler), warn,
                           policy=policy or CachePolicy())
    source = check_source(function)
    try:
        if not may_check:
            found = verdicts.find(source)
            if found is None:
                return None
            verdict = found.read_text()
        else:
            verdict = verdicts.build(source).read_text()
    except (CompileError, OSError, subprocess.SubprocessError) as error:
        logger.debug("vector %s check could not run: %s", function, error)
        if not may_check:
            return None
        verdict = f"could not run: {error}"
    if verdict != PASSED:
        logger.debug("vector %s not used here: %s", function, verdict)
    _verdicts[key] = verdict == PASSED
    return verdict == PASSED


def used_functions(source: str) -> tuple[str, ...]:
    """The functions whose vector forms a kernel's source calls: the renderer guards each loop
    of vector calls by their macros (`#if 1 && LF_VECTOR_LOG`, codegen/staged_body.cc)."""
    guards = set(re.findall(r"&& (LF_VECTOR_\w+)", source))
    return tuple(f for f in FUNCTIONS if f"LF_VECTOR_{f.upper()}" in guards)


def kernel_prelude(source: str, cache_dir: Path, compiler: str,
                   warn: Callable[[str], None] = logger.warning,
                   may_check: bool = True, policy: CachePolicy | None = None) -> str | None:
    """What a CPU kernel's source is compiled with in front of it: for each function whose
    vector form it calls, whether the form may be used (its check's verdict, run now if no
    kernel needed it before) and, where it may, the C library's table it reads. A kernel that
    calls none is compiled as it is: no check runs for it. With `may_check` False: None where
    a check would have to run first."""
    prelude = []
    for function in used_functions(source):
        available = vector_form_available(function, Path(cache_dir), compiler, warn, may_check,
                                          policy)
        if available is None:
            return None
        prelude.append(f"#define LF_VECTOR_{function.upper()} {int(available)}\n")
        if available:
            prelude.append(preamble(function))
    return "".join(prelude)
