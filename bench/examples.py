"""cuPyNumeric's own example programs and microbenchmarks, with fusion off and on.

    python bench/examples.py [--pairs N] [--tiny] [--only name,name] [--out DIR]

Each program of PROGRAMS runs through its own command line, as a user runs it: `python <program>
<arguments>` from bench/examples/cupynumeric-26.06/examples (the unmodified copy of cuPyNumeric
26.06's examples), without LEGATE_FUSE and with LEGATE_FUSE=1, in alternating processes: one
warm-up run of each (which also fills the kernel cache, each kernel compiled before its first
launch), then N pairs. For each program it reports
whether the two agree (the program's own check where it has one, else its printed output minus
timing lines), the program's own printed time and the process wall time, the off/on ratio of
each pair (median and range), the fusion statistics of the fused run (LEGATE_FUSE_STATS=json) and
any `legate-fuse: WARNING` line of either run, which fails the program's row.

Writes README.md (machine, command, commit, table), results.md (the table) and results.json (every
run) to bench/results/<date>-examples/ (--tiny: bench/results/tmp/<date>-examples-tiny/). Other
LEGATE_FUSE_* settings of the calling environment are passed on to both runs and recorded.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab import FILL_CACHE, summary
from run import geometric_mean, machine

from legate_fuse.unfused import summary as unfused_summary

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "bench" / "examples" / "cupynumeric-26.06" / "examples"
RESULTS = ROOT / "bench" / "results"

# The lines each program prints with its time, summed into its own time (ms).
ELAPSED = r"^Elapsed Time:\s*([-+0-9.eE]+)\s*ms"
# The microbenchmarks print their times only with --summarize: a table of `benchmark | time per
# run (ms)` rows, one per variant; their sum is the suite's time.
SUMMARY_ROW = r"^\S+\s+\|\s+([-+0-9.eE]+)\s*$"
# Lines whose values are times or rates: left out of the output compared between off and on.
TIMING_LINES = r"Elapsed Time|Average|FLOPS/s|GOP/s|GB/s|GiB/s"
STATS_HEADER = "legate-fuse statistics"
WARNING_PREFIX = "legate-fuse: WARNING"
# Variables the harness sets itself; any other LEGATE_FUSE_* of the caller's is passed on.
CONTROLLED = ("LEGATE_FUSE", "LEGATE_FUSE_STATS")


@dataclass(frozen=True)
class Program:
    """One row of the suite: a program, its arguments at two sizes and how its result is
    compared between fusion off and on."""

    name: str
    script: str  # relative to EXAMPLES
    full: tuple[str, ...]  # roughly 0.5-3 s of the program's own time, fusion off, 2 cores
    tiny: tuple[str, ...]  # for the tests: seconds in all
    compared: str  # how the results are compared, as the table says it
    check: str | None = None  # a line the program's own check prints when it passes
    fusible: bool = False  # has element-wise chains: the fused run must fuse something
    own_time: str = ELAPSED  # regex of the lines holding its time in ms (summed)
    # Regexes of printed values that differ between any two runs, fused or not (random data
    # drawn unseeded, times in table rows): replaced by `<varies>` before comparing.
    masks: tuple[str, ...] = ()


def microbenchmark(name: str, suite: str, full: int, tiny: int, *options: str,
                   compared: str, fusible: bool = False,
                   full_options: tuple[str, ...] = ()) -> Program:
    """A suite of microbenchmarks/main.py: its times are printed by --summarize (one row per
    variant, time per run); tiny runs each variant once after one warm-up call."""
    common = ("--suite", suite, "--summarize", *options)
    return Program(name, "microbenchmarks/main.py",
                   (*common, *full_options, "--size", str(full)),
                   (*common, "--size", str(tiny), "--runs", "1", "--warmup", "1"), compared,
                   fusible=fusible, own_time=SUMMARY_ROW, masks=(r"(?<=\| )\S+$",))


NO_RESULT = "prints no result: exit 0, same output"
OWN_CHECK = "its own check ({flag}), exit 0, same output"
NOTHING_PRINTED = "exit 0, same benchmarks run (no result printed)"

# Program, arguments at the full and tiny sizes, how results are compared. Random data:
# cuPyNumeric's generator is seeded differently in every process unless the program seeds it,
# so only sort (42) and quantiles (1729) draw the same data off and on; the others (gemm, solve,
# richardson_lucy, scan, lstm_*, the microbenchmarks' random inputs) print no value drawn from
# it, except solve's residual, which is masked: its own check (residual below 1e-4) decides.
# Not used: scan's and sort's --check, broken in 26.06 without the plugin (scan's calls
# numpy.allclose(equal_nan=True), which cuPyNumeric does not support; sort's calls
# check_sorted without its np argument); scan with floats (indexes its shape as a tuple, which
# the harness passes as an int); lstm_forward with --word unlike --hidden (its X has the
# hidden size).
PROGRAMS: tuple[Program, ...] = (
    Program("black_scholes_greeks", "black_scholes_greeks.py",
            ("-v", "40", "-t", "20", "-m", "60", "-i", "3", "-w", "1"),
            ("-v", "4", "-t", "5", "-m", "6", "-i", "1", "-w", "0"), NO_RESULT, fusible=True),
    Program("richardson_lucy", "richardson_lucy.py",
            ("-t", "--shape", "50,50,50", "-i", "10", "-w", "1"),
            ("-t", "--shape", "8,8,8", "-i", "2", "-w", "0"), NO_RESULT),
    Program("scan", "scan.py", ("-s", "150000000"), ("-s", "1000"),
            "printed problem, exit 0"),
    Program("sort", "sort.py", ("-t", "-s", "10000000"), ("-t", "-s", "1000"), NO_RESULT),
    Program("einsum", "einsum.py", ("-n", "180", "-i", "10", "-w", "2"),
            ("-n", "10", "-i", "1", "-w", "0"), "printed problem, exit 0"),
    Program("gemm", "gemm.py", ("-n", "1500", "-i", "20", "-w", "1"),
            ("-n", "50", "-i", "1", "-w", "0"), "printed problem, exit 0"),
    Program("solve", "solve.py", ("-t", "--check", "-n", "4000", "-s", "10"),
            ("-t", "--check", "-n", "50", "-s", "2"),
            OWN_CHECK.format(flag="--check") + ", residual masked", check=r"^PASS!",
            masks=(r"(?<=max-res = )\S+",)),
    Program("lstm_forward", "lstm_forward.py",
            ("-t", "-B", "64", "--hidden", "64", "-s", "160", "-w", "64"),
            ("-t", "-B", "4", "--hidden", "8", "-s", "3", "-w", "8"), NO_RESULT, fusible=True),
    Program("lstm_backward", "lstm_backward.py",
            ("-t", "-B", "64", "--hidden", "64", "-s", "100", "-w", "64"),
            ("-t", "-B", "4", "--hidden", "8", "-s", "3", "-w", "8"), NO_RESULT, fusible=True),
    Program("quantiles", "quantiles.py", ("-t", "--check", "-s", "10000000"),
            ("-t", "--check", "-s", "1000"), OWN_CHECK.format(flag="--check"),
            check=r"^PASS!"),
    Program("take_pairs", "take_pairs.py", ("-t", "-m", "20000", "-n", "48"),
            ("-t", "-m", "100", "-n", "8"), "printed sum of the result"),
    Program("indexing_routines", "indexing_routines.py",
            ("-t", "-n", "1400", "-i", "10", "-w", "2"), ("-t", "-n", "20", "-i", "1", "-w", "0"),
            "printed sizes, exit 0", own_time=r"^Total Elapsed Time:\s*([-+0-9.eE]+)\s*ms"),
    Program("cholesky", "cholesky.py", ("-t", "--check", "-n", "2500"),
            ("-t", "--check", "-n", "50"), OWN_CHECK.format(flag="--check"), check=r"^PASS!"),
    Program("qr", "qr.py", ("-t", "--check", "-m", "1500", "-n", "1000"),
            ("-t", "--check", "-m", "60", "-n", "40"), OWN_CHECK.format(flag="--check"),
            check=r"^PASS!"),
    Program("svd", "svd.py", ("-t", "--check", "-m", "800", "-n", "800"),
            ("-t", "--check", "-m", "40", "-n", "40"), OWN_CHECK.format(flag="--check"),
            check=r"^PASS!"),
    Program("tssvd", "tssvd.py", ("-t", "--check", "-m", "60000", "-n", "100"),
            ("-t", "--check", "-m", "200", "-n", "10"), OWN_CHECK.format(flag="--check"),
            check=r"^PASS!", own_time=r"^TSSVD elapsed Time:\s*([-+0-9.eE]+)\s*ms"),
    microbenchmark("micro stream", "stream", 5_000_000, 1_000, "--stream-check",
                   compared=OWN_CHECK.format(flag="--stream-check"), fusible=True),
    microbenchmark("micro ufunc", "ufunc", 10_000_000, 1_000, "--ufunc-check",
                   compared=OWN_CHECK.format(flag="--ufunc-check"), fusible=True),
    # Its float32 case's check fails without the plugin too at the full size (4 runs in 10 at
    # 4M elements: sums of 2,000 values centred on 0, some near 0, within rtol 2e-3): left out
    # there; the tiny size checks it.
    microbenchmark("micro axis_sum", "axis_sum", 4_000_000, 1_000, "--axis-sum-check",
                   compared=OWN_CHECK.format(flag="--axis-sum-check")
                   + "; full size without its float32 case",
                   full_options=("--exclude", "float32_axis_last")),
    microbenchmark("micro scalared", "scalared", 10_000_000, 1_000, compared=NOTHING_PRINTED),
    microbenchmark("micro nanred", "nanred", 10_000_000, 1_000, compared=NOTHING_PRINTED),
    microbenchmark("micro astype", "astype", 20_000_000, 1_000, compared=NOTHING_PRINTED),
    microbenchmark("micro random", "random", 4_000_000, 1_000, compared=NOTHING_PRINTED),
    microbenchmark("micro take_put", "take_put", 5_000_000, 1_000, compared=NOTHING_PRINTED),
    microbenchmark("micro general_indexing", "general_indexing", 1_000_000, 1_000,
                   compared=NOTHING_PRINTED),
    microbenchmark("micro advanced_indexing", "advanced_indexing", 1_000_000, 1_000,
                   compared=NOTHING_PRINTED),
    microbenchmark("micro indexing_opt_targets", "indexing_opt_targets", 1_000_000, 1_000,
                   compared=NOTHING_PRINTED),
    microbenchmark("micro sort", "sort", 500_000, 1_000, compared=NOTHING_PRINTED),
    microbenchmark("micro gemm_gemv", "gemm_gemv", 4_000_000, 2_500, "--gemm-gemv-check",
                   compared=OWN_CHECK.format(flag="--gemm-gemv-check")),
    microbenchmark("micro solve", "solve", 1_000_000, 2_500, compared=NOTHING_PRINTED),
)

# What the README of a run says of how results are compared.
NOTES = (
    "Random data: cuPyNumeric seeds its generator differently in every process unless the "
    "program seeds it. sort (42), quantiles (1729) and tssvd (6174) seed it; gemm, solve, qr, "
    "svd, scan, richardson_lucy, lstm_* and several microbenchmarks draw unseeded data, so "
    "off and on compute on different inputs: none of them prints a value drawn from it except "
    "solve, whose residual is masked (its own check, residual below 1e-4, decides).",
    "Not used, broken in 26.06 without the plugin: scan's and sort's --check (scan's calls "
    "numpy.allclose(equal_nan=True), which cuPyNumeric does not support; sort's calls "
    "check_sorted without its np argument), scan with floats (indexes an int shape as a tuple), "
    "lstm_forward with --word unlike --hidden (its input has the hidden size), and the axis_sum "
    "microbenchmark's float32 check at the full size (fails in 4 runs in 10 without the "
    "plugin: sums near 0 within rtol 2e-3); the tiny size checks it.",
    "Own times are the programs' (Legate's timer, execution time); wall times include "
    "starting Python and Legate (about 1.5-2 s) and, fused, the plugin's work at exit.",
)

# Programs of the copy that are not in the suite, and why.
DROPPED: dict[str, str] = {
    "micro batched_fft": "needs a GPU (prints `Skipping batched_fft suite: FFT requires GPU`)",
    "micro sync": "times the harness's timer and fences only, no array work",
    "dlpack/*": "need PyTorch and a GPU (DLPack exchange with torch), some several ranks",
    "inline_task/*": "pytest files of Legate leaf tasks, not programs with a command line",
    "benchmark.py": "a module of helpers for older examples, not a program",
}


@dataclass
class FusionStats:
    """The statistics the plugin prints to stderr at exit with LEGATE_FUSE_STATS=json: one line,
    `legate-fuse statistics` and a JSON object (legate_fuse.stats())."""

    values: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str) -> float | None:
        value = self.values.get(name)
        return value if isinstance(value, int | float) else None

    @property
    def unfused(self) -> dict[str, Any]:
        """What ran unfused and why, per task kind (legate_fuse/unfused.py)."""
        return dict(self.values.get("unfused") or {})


def parse_stats(stderr: str) -> FusionStats | None:
    """The last statistics line of `stderr`, or None when there is none."""
    lines = [line for line in stderr.splitlines() if line.startswith(STATS_HEADER + " {")]
    if not lines:
        return None
    return FusionStats(json.loads(lines[-1][len(STATS_HEADER) + 1:]))


@dataclass
class Run:
    """One process: fusion off or on."""

    mode: str  # "off" or "on"
    returncode: int
    wall_seconds: float
    own_ms: float | None  # the program's own printed time, summed over its timing lines
    output: list[str]  # stdout minus timing lines, varying values masked: what is compared
    warnings: list[str]  # `legate-fuse: WARNING` lines, stdout or stderr
    check_passed: bool | None  # None when the program has no check line
    stats: FusionStats | None
    error: str = ""  # the end of stderr of a failed run


def comparable_output(program: Program, stdout: str) -> list[str]:
    """The printed lines compared between off and on: masked, then without timing lines."""
    kept = []
    for line in stdout.splitlines():
        for mask in program.masks:
            line = re.sub(mask, "<varies>", line)
        if not (re.search(TIMING_LINES, line) or re.search(program.own_time, line)):
            kept.append(line.rstrip())
    return kept


def environment(base: Mapping[str, str] | None, mode: str) -> dict[str, str]:
    """The child's environment: LEGATE_FUSE unset (off) or 1 with statistics (on)."""
    env = {k: v for k, v in (os.environ if base is None else base).items()
           if k not in CONTROLLED}
    if mode == "on":
        env.update(LEGATE_FUSE="1", LEGATE_FUSE_STATS="json")
    return env


def run_program(program: Program, args: Sequence[str], mode: str,
                environ: Mapping[str, str] | None = None, timeout: float = 900) -> Run:
    """Runs `python <program> <args>` from the examples folder, as a user runs it."""
    command = [sys.executable, program.script, *args]
    started = time.perf_counter()
    try:
        result = subprocess.run(command, cwd=EXAMPLES, env=environment(environ, mode),
                                capture_output=True, text=True, timeout=timeout)
        returncode, stdout, stderr = result.returncode, result.stdout, result.stderr
    except subprocess.TimeoutExpired as expired:
        returncode = -1
        output = expired.stdout or ""  # bytes, even with text=True
        stdout = output.decode(errors="replace") if isinstance(output, bytes) else output
        stderr = f"timed out after {timeout:.0f} s"
    wall = time.perf_counter() - started
    times = [float(m.group(1)) for line in stdout.splitlines()
             if (m := re.search(program.own_time, line))]
    warnings = [line.strip() for line in (stdout + "\n" + stderr).splitlines()
                if line.startswith(WARNING_PREFIX)]
    check = (None if program.check is None else
             any(re.search(program.check, line) for line in stdout.splitlines()))
    return Run(mode, returncode, wall, sum(times) if times else None,
               comparable_output(program, stdout), warnings, check,
               parse_stats(stderr) if mode == "on" else None,
               # Paths relative to the repository: the report is committed.
               "" if returncode == 0 else (stdout + stderr)[-3000:].replace(f"{ROOT}/", ""))


def ratios(off: list[float | None], on: list[float | None]) -> list[float]:
    return [a / b for a, b in zip(off, on, strict=False) if a is not None and b]


@dataclass
class Row:
    """A program's result: every run, and what the table shows of them."""

    program: str
    arguments: str
    compared: str
    fusible: bool
    runs: list[Run] = field(default_factory=list)
    failure: str = ""  # empty when the row passed
    # With --time-tasks: one more fused run with LEGATE_FUSE_TIME_TASKS=1, not timed.
    timed_tasks_run: Run | None = None

    def timed(self, mode: str) -> list[Run]:
        return [r for r in self.runs if r.mode == mode]

    def own_ms(self, mode: str) -> list[float | None]:
        return [r.own_ms for r in self.timed(mode)]

    def wall(self, mode: str) -> list[float | None]:
        return [r.wall_seconds for r in self.timed(mode)]

    def own_ratios(self) -> list[float]:
        return ratios(self.own_ms("off"), self.own_ms("on"))

    def wall_ratios(self) -> list[float]:
        return ratios(self.wall("off"), self.wall("on"))

    @property
    def stats(self) -> FusionStats | None:
        fused = [r.stats for r in self.timed("on") if r.stats is not None]
        return fused[-1] if fused else None

    @property
    def unfused(self) -> dict[str, Any]:
        """What ran unfused: with each kind's seconds when tasks were timed."""
        timed = self.timed_tasks_run.stats if self.timed_tasks_run else None
        stats = timed or self.stats
        return stats.unfused if stats else {}

    @property
    def warnings(self) -> list[str]:
        return sorted({w for r in self.runs for w in r.warnings})


def disagreement(program: Program, reference: Run, run: Run) -> str:
    """Why `run` does not agree with `reference` (the first run without fusion), or ''."""
    if run.returncode != 0:
        return f"{run.mode} run exited with {run.returncode}:\n{run.error}"
    if run.check_passed is False:
        return f"{run.mode} run did not print its check's pass line ({program.check})"
    if run.output != reference.output:
        different = [f"  off: {a!r}\n  {run.mode}:  {b!r}"
                     for a, b in zip(reference.output, run.output, strict=False) if a != b]
        lengths = f"{len(reference.output)} and {len(run.output)} lines"
        return f"printed output differs ({lengths}):\n" + "\n".join(different[:5])
    return ""


def measure(program: Program, tiny: bool = False, pairs: int = 3, warmup: bool = True,
            environ: Mapping[str, str] | None = None, timeout: float = 900) -> Row:
    """Runs a program with fusion off and on in alternating processes (after one warm-up run
    of each) and compares each run with the first run without fusion. Stops at a failed run."""
    args = program.tiny if tiny else program.full
    row = Row(program.name, " ".join([program.script, *args]), program.compared,
              program.fusible)
    reference: Run | None = None
    for index in range(pairs + (1 if warmup else 0)):
        warming = warmup and index == 0
        for mode in ("off", "on"):
            base = dict(os.environ if environ is None else environ)
            run = run_program(program, args, mode, {**base, **FILL_CACHE} if warming else base,
                              timeout)
            reference = reference or run
            problem = disagreement(program, reference, run)
            if run.warnings:
                problem = problem or f"{run.mode} run warned: " + "; ".join(run.warnings)
            if warming and not problem:
                continue  # warm-up runs are compared but not timed
            row.runs.append(run)
            if problem:
                row.failure = problem
                return row
    return row


def median_range(values: Sequence[float | None], digits: str = ".4g") -> str:
    present = [v for v in values if v is not None]
    if not present:
        return ""
    return (f"{statistics.median(present):{digits}} "
            f"({min(present):{digits}}-{max(present):{digits}})")


def stat_text(row: Row, name: str) -> str:
    value = row.stats.get(name) if row.stats else None
    return "" if value is None else f"{value:,.0f}"


def table(rows: list[Row]) -> str:
    lines = [
        "| program | agree | off ms (min-max) | on ms (min-max) | off/on (min-max) "
        "| wall off s | wall on s | wall off/on (min-max) | tasks seen | fused launches "
        "| tasks fused | ran unfused (most) | compared by |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        agree = "yes" if not r.failure else "**FAILED**"
        lines.append(
            f"| {r.program} | {agree} | {median_range(r.own_ms('off'))} "
            f"| {median_range(r.own_ms('on'))} | {median_range(r.own_ratios(), '.2f')} "
            f"| {median_range(r.wall('off'), '.2f')} | {median_range(r.wall('on'), '.2f')} "
            f"| {median_range(r.wall_ratios(), '.2f')} | {stat_text(r, 'tasks_seen')} "
            f"| {stat_text(r, 'fused_launches')} | {stat_text(r, 'tasks_fused')} "
            f"| {unfused_summary(r.unfused)} | {r.compared} |")
    own = [statistics.median(r.own_ratios()) for r in rows if r.own_ratios()]
    wall = [statistics.median(r.wall_ratios()) for r in rows if r.wall_ratios()]
    lines.append("")
    lines.append(f"Geometric mean of the median off/on ratios over {len(own)} programs: "
                 f"{geometric_mean(own):.3f} (own times), {geometric_mean(wall):.3f} "
                 "(process wall times).")
    failures = [r for r in rows if r.failure]
    for r in failures:
        lines.append(f"\n**{r.program} failed**: `{r.arguments}`\n\n```\n{r.failure}\n```")
    for r in rows:
        for warning in r.warnings:
            lines.append(f"\n{r.program}: `{warning}`")
    if DROPPED:
        lines.append("\nNot in the suite:\n")
        lines.extend(f"- {name}: {reason}" for name, reason in DROPPED.items())
    return "\n".join(lines)


def arguments_table(programs: Sequence[Program], tiny: bool) -> str:
    lines = ["| program | command (from bench/examples/cupynumeric-26.06/examples) |",
             "|---|---|"]
    for p in programs:
        command = " ".join([p.script, *(p.tiny if tiny else p.full)])
        lines.append(f"| {p.name} | `python {command}` |")
    return "\n".join(lines)


def commit() -> str:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(["git", "status", "--porcelain", "--", "legate_fuse", "src"],
                             cwd=ROOT, capture_output=True, text=True).stdout.strip()
    return head + (", with uncommitted changes in legate_fuse/ or src/" if changed else "")


# The header's words on the `ran unfused` column with --time-tasks.
TIMED_TASKS_NOTE = (", with their seconds, from one more fused run with LEGATE_FUSE_TIME_TASKS=1 "
                    "(not among the timed runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=3, help="off/on pairs to time")
    parser.add_argument("--tiny", action="store_true",
                        help="tiny sizes, one pair, no warm-up (what the tests run)")
    parser.add_argument("--only", default="", help="comma-separated program names")
    parser.add_argument("--no-warmup", action="store_true", help="time from the first run")
    parser.add_argument("--out", help="output folder")
    parser.add_argument("--time-tasks", action="store_true",
                        help="one more fused run per program with LEGATE_FUSE_TIME_TASKS=1, "
                             "whose seconds per kind run unfused the table shows")
    args = parser.parse_args()
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    known = {p.name for p in PROGRAMS}
    if unknown := [n for n in names if n not in known]:
        parser.error(f"unknown programs {unknown}; known: {', '.join(sorted(known))}")
    programs = [p for p in PROGRAMS if not names or p.name in names]
    pairs, warmup = (1, False) if args.tiny else (args.pairs, not args.no_warmup)
    today = f"{datetime.now(UTC):%Y-%m-%d}"
    out = Path(args.out) if args.out else (RESULTS / "tmp" / f"{today}-examples-tiny"
                                           if args.tiny else RESULTS / f"{today}-examples")
    out.mkdir(parents=True, exist_ok=True)
    started, load_before = time.perf_counter(), os.getloadavg()[0]
    rows = []
    for program in programs:
        rows.append(measure(program, tiny=args.tiny, pairs=pairs, warmup=warmup))
        row = rows[-1]
        if args.time_tasks and not row.failure:
            row.timed_tasks_run = run_program(
                program, program.tiny if args.tiny else program.full, "on",
                {**os.environ, "LEGATE_FUSE_TIME_TASKS": "1"})
        status = f"FAILED: {row.failure.splitlines()[0]}" if row.failure else "agree"
        ratio = summary(row.own_ratios()) if row.own_ratios() else "no ratio"
        unfused = unfused_summary(row.unfused)
        print(f"{program.name}: {status}; off/on {ratio}; fused launches "
              f"{stat_text(row, 'fused_launches') or '-'}; ran unfused: {unfused or '-'}",
              flush=True)
    report = table(rows)
    settings = {k: v for k, v in os.environ.items()
                if k.startswith("LEGATE_FUSE") and k not in CONTROLLED}
    command = " ".join(["python", "bench/examples.py", *sys.argv[1:]])
    header = (
        f"# cuPyNumeric 26.06's examples, fusion off and on\n\n"
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC. Machine: {machine()}. Commit {commit()}; "
        f"the plugin as installed by scripts/setup.sh. Command: `{command}`. "
        f"LEGATE_CONFIG: {os.environ.get('LEGATE_CONFIG', 'the default of this machine')}. "
        f"Plugin settings: {settings or 'defaults'}. Load average (1 min) of the machine, "
        f"shared with other work: {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at "
        f"the end; {time.perf_counter() - started:.0f} s in all.\n\n"
        f"Each program runs through its own command line from "
        f"bench/examples/cupynumeric-26.06/examples, without LEGATE_FUSE (off) and with "
        f"LEGATE_FUSE=1 (on) in alternating processes: "
        f"{'one warm-up run of each, then ' if warmup else ''}{pairs} pair(s). ms: the "
        "program's own printed time (`Elapsed Time`, or the sum of the microbenchmarks' times "
        "per run), median (min-max); wall: the process's. off/on above 1: faster with fusion. "
        "Statistics: the last fused run's (LEGATE_FUSE_STATS=json); ran unfused: the task kinds "
        "that ran unfused most, how many, and the first reason for each (legate_fuse.stats())"
        f"{TIMED_TASKS_NOTE if args.time_tasks else ''}. A `legate-fuse: WARNING` line "
        "in either run fails the row. Programs with element-wise chains, where the tests "
        "require a fused launch: "
        f"{', '.join(p.name for p in programs if p.fusible) or 'none of these'}.\n\n")
    (out / "results.md").write_text(report + "\n")
    (out / "README.md").write_text(header + report + "\n\n## Notes\n\n"
                                   + "\n".join(f"- {note}" for note in NOTES)
                                   + "\n\n## Commands\n\n"
                                   + arguments_table(programs, args.tiny) + "\n")
    (out / "results.json").write_text(json.dumps(
        {"command": command, "commit": commit(), "machine": machine(), "pairs": pairs,
         "warmup": warmup, "settings": settings, "dropped": DROPPED,
         "rows": [asdict(r) for r in rows]}, indent=1))
    print(report)
    print(f"\nwritten to {out} in {time.perf_counter() - started:.0f} s")
    if any(r.failure for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
