#!/usr/bin/env python3
"""A long fuzzing campaign as many fresh processes, a few at a time.

One process running tens of thousands of programs slows down as Legate's state grows (about
twice slower after 10,000 programs), so a campaign is split into chunks, each a pytest process
of its own with its own seed: the one-CPU chunks run the differential test in a one-CPU Legate
process, the two-CPU chunks in a process with two CPUs (arrays split between them), as the test
suite's own two-CPU test does.

    .venv/bin/python scripts/fuzz_campaign.py --one-cpu 20000 --two-cpu 5000 --seed 7

Each chunk appends its programs to <out>/<chunk>.last.py (after a crash, the last one is the
culprit: scripts/fuzz_minimize.py shrinks it) and the differences between cuPyNumeric without
the plugin and NumPy to <out>/<chunk>.numpy.txt (those are not the plugin's). Prints one line
per chunk and the totals; exits 1 if any chunk failed.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST = "tests/fuzz/test_differential.py::test_fusion_on_equals_fusion_off_and_numpy"
ONE_CPU = "--cpus 1 --utility 1 --sysmem 4000 --logging gpu=none"
# As tests/fuzz/test_differential.py's TWO_CPUS: arrays of 64 float64 and more are split.
TWO_CPUS = "--cpus 2 --utility 1 --sysmem 4000 --logging gpu=none --min-cpu-chunk 512"


@dataclass(frozen=True)
class Chunk:
    name: str
    examples: int
    seed: int
    legate_config: str


@dataclass(frozen=True)
class ChunkResult:
    chunk: Chunk
    ok: bool
    programs: int
    seconds: float
    tail: str


def chunks(one_cpu: int, two_cpu: int, size: int, seed: int) -> list[Chunk]:
    """The campaign's chunks, one-CPU and two-CPU interleaved, each with a seed of its own."""
    made: dict[str, list[Chunk]] = {"1cpu": [], "2cpu": []}
    for kind, total, config in (("1cpu", one_cpu, ONE_CPU), ("2cpu", two_cpu, TWO_CPUS)):
        for i, start in enumerate(range(0, total, size)):
            chunk_seed = seed * 1000 + (0 if kind == "1cpu" else 500) + i
            made[kind].append(Chunk(f"{kind}-{chunk_seed}", min(size, total - start),
                                    chunk_seed, config))
    ordered = []
    for i in range(max(len(made["1cpu"]), len(made["2cpu"]))):
        ordered += [c[i] for c in (made["1cpu"], made["2cpu"]) if i < len(c)]
    return ordered


def run_chunk(chunk: Chunk, python: str, out: Path) -> ChunkResult:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    last = out / f"{chunk.name}.last.py"
    environ.update(
        LEGATE_CONFIG=chunk.legate_config, LEGATE_AUTO_CONFIG="0",
        LEGATE_FUSE_FUZZ_EXAMPLES=str(chunk.examples), LEGATE_FUSE_FUZZ_EXAMPLES_2CPU="0",
        LEGATE_FUSE_FUZZ_SEED=str(chunk.seed), LEGATE_FUSE_FUZZ_LAST=str(last),
        LEGATE_FUSE_FUZZ_NUMPY_REPORT=str(out / f"{chunk.name}.numpy.txt"),
        # As the suite's own two-CPU test marks its child process.
        LEGATE_FUSE_FUZZ_CHILD="1")
    start = time.perf_counter()
    result = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-s", TEST],
                            cwd=ROOT, env=environ, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    (out / f"{chunk.name}.log").write_text(result.stdout + result.stderr)
    # The test's own count of programs compared (tests/fuzz/conftest.py prints it).
    counted = re.search(r"^fuzz: .*\bprograms (\d+)", result.stdout, re.MULTILINE)
    programs = int(counted.group(1)) if counted else 0
    tail = (result.stdout + result.stderr).strip().splitlines()[-1:] or [""]
    return ChunkResult(chunk, result.returncode == 0, programs, seconds, tail[0].strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one-cpu", type=int, default=20000, help="programs on one CPU")
    parser.add_argument("--two-cpu", type=int, default=5000, help="programs on two CPUs")
    parser.add_argument("--chunk", type=int, default=2500, help="programs per process")
    parser.add_argument("--jobs", type=int, default=2, help="processes at once")
    parser.add_argument("--seed", type=int, default=1, help="the campaign's seed")
    parser.add_argument("--out", type=Path, default=Path("fuzz-campaign"),
                        help="folder for each chunk's log, programs and NumPy report")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    todo = chunks(args.one_cpu, args.two_cpu, args.chunk, args.seed)
    totals = {"1cpu": 0, "2cpu": 0}
    failed = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_chunk, chunk, sys.executable, args.out) for chunk in todo]
        for future in concurrent.futures.as_completed(futures):
            done = future.result()
            kind = done.chunk.name.split("-")[0]
            totals[kind] += done.programs if done.ok else 0
            if not done.ok:
                failed.append(done.chunk.name)
            status = "ok" if done.ok else "FAILED"
            print(f"[fuzz] {done.chunk.name}: {done.programs} programs, {status}, "
                  f"{done.seconds:.0f} s: {done.tail[:120]}", flush=True)
    print(f"programs with fusion on equal to fusion off: {totals['1cpu']} on one CPU, "
          f"{totals['2cpu']} on two CPUs; failed chunks: {', '.join(failed) or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
