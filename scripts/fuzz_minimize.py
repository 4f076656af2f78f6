"""Shrinks a failure of the differential fuzzer (tests/fuzz), even one that crashes the process
(hypothesis cannot shrink those) or one that needs earlier programs to have run in the same
process: each candidate runs in a fresh process, and is kept if it fails the same way (same
signal, or the same kind of difference).

    LEGATE_FUSE_FUZZ_LAST=/tmp/log.py scripts/test.sh tests/fuzz    # crashes...
    .venv/bin/python scripts/fuzz_minimize.py /tmp/log.py [--cpus 2]

The file holds programs as the fuzzer prints them (lists of tuples), separated by lines
`# ---`, run in that order in one process. First the programs that are not needed are dropped,
then the statements; the result is printed and written beside the file (`.min.py`), followed
by how the last program alone fares without the plugin.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SEPARATOR = "# ---\n"
NAMES = {"nan": math.nan, "inf": math.inf}
RUNNER = f"""
import math, sys
sys.path.insert(0, {str(ROOT)!r})
from tests.fuzz import conftest  # enables fusion
from tests.fuzz.test_differential import compare
programs = [eval(p, {{"nan": math.nan, "inf": math.inf}})
            for p in open(sys.argv[1]).read().split({SEPARATOR!r}) if p.strip()]
for program in programs[:-1]:
    try:
        compare(program)
    except AssertionError:
        pass
compare(programs[-1])
"""
# The last program with fusion never enabled (does cuPyNumeric itself fail?).
UNFUSED = f"""
import math, sys
sys.path.insert(0, {str(ROOT)!r})
import cupynumeric
from tests.fuzz.programs import run
programs = open(sys.argv[1]).read().split({SEPARATOR!r})
run(eval([p for p in programs if p.strip()][-1], {{"nan": math.nan, "inf": math.inf}}),
    cupynumeric)
"""
KINDS = ("differs bitwise", "after a fused reduction", "exceptions differ", "vs NumPy", "dtype",
         "shape")
Program = list[Any]


def load(path: Path) -> list[Program]:
    return [list(eval(text, NAMES))
            for text in path.read_text().split(SEPARATOR) if text.strip()]


def source(program: Program) -> str:
    return "[\n" + "".join(f"    {statement!r},\n" for statement in program) + "]\n"


def signature(programs: list[Program], config: str, runner: str = RUNNER) -> str:
    """How the programs fail ('' if they do not)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as file:
        file.write(SEPARATOR.join(source(p) for p in programs))
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    environ.update(LEGATE_CONFIG=config)
    try:
        result = subprocess.run([sys.executable, "-c", runner, file.name], env=environ,
                                capture_output=True, text=True, timeout=1800)
    finally:
        os.unlink(file.name)
    if result.returncode < 0:
        return f"signal {-result.returncode}"
    if result.returncode == 0:
        return ""
    error = result.stderr.strip().splitlines()
    last = next((line for line in reversed(error) if "Error" in line), error[-1] if error else "")
    kind = next((k for k in KINDS if k in result.stderr), "")
    return f"{last.split(':')[0]} {kind}"


def reduce(items: list[Any], fails: Any) -> list[Any]:
    """A smaller list for which fails(list) still holds (removing chunks, then single items)."""
    chunk = max(1, len(items) // 2)
    while chunk >= 1:
        i = 0
        while i < len(items):
            candidate = items[:i] + items[i + chunk:]
            if candidate and fails(candidate):
                items = candidate
                print(f"  {len(items)} left", flush=True)
            else:
                i += chunk
        chunk //= 2
    return items


def shrink(programs: list[Program], config: str) -> list[Program]:
    want = signature(programs, config)
    print(f"fails with: {want or 'nothing (passes)'}", flush=True)
    if not want:
        return programs
    *before, last = programs
    if before:
        print("dropping earlier programs", flush=True)
        if signature([last], config) == want:
            before = []
        else:
            before = reduce(before, lambda c: signature([*c, last], config) == want)
    print("dropping statements of the last program", flush=True)
    setup, *body = last
    body = reduce(body, lambda c: signature([*before, [setup, *c]], config) == want)
    for size in (1, 7, 255, 256, 257, 1000):
        if size < setup[1]:
            candidate = (setup[0], size, *setup[2:])
            if signature([*before, [candidate, *body]], config) == want:
                setup = candidate
                print(f"  size {size}", flush=True)
                break
    return [*before, [setup, *body]]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("programs", type=Path)
    parser.add_argument("--cpus", type=int, default=1)
    args = parser.parse_args()
    config = f"--cpus {args.cpus} --utility 1 --sysmem 4000 --logging gpu=none"
    if args.cpus > 1:
        config += " --min-cpu-chunk 512"
    smallest = shrink(load(args.programs), config)
    text = SEPARATOR.join(source(p) for p in smallest)
    args.programs.with_suffix(".min.py").write_text(text)
    print(text)
    alone = signature(smallest[-1:], config, UNFUSED)
    print(f"last program without the plugin: {alone or 'passes'}")


if __name__ == "__main__":
    main()
