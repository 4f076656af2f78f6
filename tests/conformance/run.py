"""Runs cuPyNumeric's own test suite with fusion off and on and compares every test's outcome.

Each test file runs in a pytest process of its own, with a timeout, so that one abort or hang
does not hide the rest; a few processes run at once. A test that passes (or is skipped or
xfails) without the plugin and fails, errors, times out or dies with the process with it is a
plugin bug; a test that fails without the plugin must fail the same way with it.

    python tests/conformance/run.py                      # fusion on, against the record
    python tests/conformance/run.py --record              # fusion off, rewrites the record
    python tests/conformance/run.py --mode both           # both now, no record involved
    python tests/conformance/run.py --files 'test_ar*'    # a subset

The record (`outcomes-off.json` beside this file) holds the outcomes without the plugin on this
kind of machine; `--record` regenerates it with the same command.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SUITE = HERE / "cupynumeric-26.06" / "tests"
RECORD = HERE / "outcomes-off.json"
# One CPU worker per process; two processes at a time fill a 2-core machine.
LEGATE_CONFIG = "--cpus 1 --utility 1 --sysmem 3000"
# What a test may do with fusion on when it passed without: anything but these.
GOOD = frozenset({"passed", "xpassed", "xfailed", "skipped"})
# Files that do not finish on a 2-core CPU even without the plugin (see the suite's README).
SLOW_FILES = frozenset({"test_random_advanced.py"})

Outcomes = dict[str, str]  # test id -> passed, failed, error, skipped, xfailed, xpassed, ...


@dataclass
class FileRun:
    """One file's run in one mode."""

    name: str
    outcomes: Outcomes = field(default_factory=dict)
    status: str = "ok"  # ok, crashed (exit code), timeout
    seconds: float = 0.0


def run_file(suite: Path, name: str, fused: bool, timeout: float, python: str) -> FileRun:
    env = dict(os.environ)
    env.pop("LEGATE_FUSE", None)
    if fused:
        env["LEGATE_FUSE"] = "1"
        # The settings users run (the caller's LEGATE_FUSE_* variables, if any, pass through:
        # LEGATE_FUSE_PAYOFF=0 fuses every window, where by default a file whose tests read
        # values back every few operations runs part of itself unfused, as measured).
    env["LEGATE_CONFIG"] = LEGATE_CONFIG
    env["LEGATE_AUTO_CONFIG"] = "0"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
    env.setdefault("PYTHONHASHSEED", "0")
    with tempfile.TemporaryDirectory(prefix="conformance-") as scratch:
        results = Path(scratch) / "outcomes.jsonl"
        env["LEGATE_FUSE_CONFORMANCE_OUTCOMES"] = str(results)
        command = [python, "-m", "pytest", "-q", "-c", str(HERE / "pytest.ini"), "--rootdir",
                   str(suite), "-p", "outcome_plugin", "-p", "no:cacheprovider", "--no-header",
                   name]
        start = time.monotonic()
        run = FileRun(name)
        try:
            done = subprocess.run(command, cwd=suite, env=env, timeout=timeout,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            # 0 all passed, 1 some failed, 5 none collected: anything else is a crash.
            if done.returncode not in (0, 1, 5):
                run.status = f"crashed ({done.returncode})"
                tail = done.stdout.decode(errors="replace").strip().splitlines()[-3:]
                run.status += ": " + " | ".join(line[:200] for line in tail)
        except subprocess.TimeoutExpired:
            run.status = "timeout"
        run.seconds = time.monotonic() - start
        if results.exists():
            for line in results.read_text().splitlines():
                entry = json.loads(line)
                # A teardown error after a pass is the test's outcome: the last word wins.
                run.outcomes[entry["test"]] = entry["outcome"]
    return run


def run_suite(suite: Path, files: list[str], fused: bool, jobs: int, timeout: float,
              python: str) -> dict[str, FileRun]:
    mode = "on" if fused else "off"
    runs: dict[str, FileRun] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_file, suite, name, fused, timeout, python): name
                   for name in files}
        for future in concurrent.futures.as_completed(futures):
            run = future.result()
            runs[run.name] = run
            print(f"[conformance {mode}] {run.name}: {len(run.outcomes)} tests, {run.status}, "
                  f"{run.seconds:.0f} s", file=sys.stderr, flush=True)
    return dict(sorted(runs.items()))


def counts(outcomes: Outcomes) -> collections.Counter[str]:
    return collections.Counter(outcomes.values())


def differences(off: FileRun, on: FileRun) -> list[str]:
    """Every test worse with fusion on, or failing another way, as 'test: off -> on'."""
    found = []
    for test, before in off.outcomes.items():
        after = on.outcomes.get(test, "timeout" if on.status == "timeout" else "missing")
        if after == before or (before in GOOD and after in GOOD):
            continue
        found.append(f"{test}: {before} -> {after}")
    if off.status == "ok" and on.status != "ok":
        found.append(f"{on.name}: process {on.status}")
    return found


def summary(outcomes: collections.Counter[str]) -> str:
    order = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")
    parts = [f"{outcomes[k]} {k}" for k in order if outcomes[k]]
    parts += [f"{n} {k}" for k, n in sorted(outcomes.items()) if k not in order]
    return ", ".join(parts) or "none"


def print_table(off: dict[str, FileRun], on: dict[str, FileRun]) -> int:
    """Prints the comparison; returns how many tests are worse with fusion on."""
    rows = [("file", "off", "on", "differences")]
    total_off: collections.Counter[str] = collections.Counter()
    total_on: collections.Counter[str] = collections.Counter()
    worse: list[str] = []
    for name in sorted(set(off) | set(on)):
        a, b = off.get(name, FileRun(name, status="not run")), on.get(name, FileRun(name))
        found = differences(a, b)
        worse += found
        total_off.update(a.outcomes.values())
        total_on.update(b.outcomes.values())
        label_off = summary(counts(a.outcomes)) + ("" if a.status == "ok" else f" [{a.status}]")
        label_on = summary(counts(b.outcomes)) + ("" if b.status == "ok" else f" [{b.status}]")
        rows.append((name, label_off, label_on, str(len(found)) if found else ""))
    widths = [max(len(row[i][:70]) for row in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell[:70].ljust(w) for cell, w in zip(row, widths, strict=True)))
    print(f"\ntotal off: {sum(total_off.values())} tests: {summary(total_off)}")
    print(f"total on:  {sum(total_on.values())} tests: {summary(total_on)}")
    if worse:
        print(f"\n{len(worse)} tests worse with fusion on:")
        for line in worse:
            print(f"  {line}")
    else:
        print("\nno test is worse with fusion on")
    return len(worse)


def save(path: Path, runs: dict[str, FileRun]) -> None:
    data = {name: {"status": r.status if not r.status.startswith("crashed") else "crashed",
                   "outcomes": dict(sorted(r.outcomes.items()))} for name, r in runs.items()}
    path.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")


def load(path: Path) -> dict[str, FileRun]:
    data = json.loads(path.read_text())
    return {name: FileRun(name, entry["outcomes"], entry["status"])
            for name, entry in data.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", type=Path, default=DEFAULT_SUITE,
                        help="folder of the test files (default: %(default)s)")
    parser.add_argument("--mode", choices=("on", "both"), default="on",
                        help="on: fusion on against the record; both: off and on now")
    parser.add_argument("--record", action="store_true",
                        help="run with fusion off and rewrite the record")
    parser.add_argument("--record-file", type=Path, default=RECORD)
    parser.add_argument("--files", default="test_*.py", help="glob of file names")
    parser.add_argument("--jobs", type=int, default=2, help="processes at once")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per file")
    parser.add_argument("--save-on", type=Path, help="also write the fusion-on outcomes here")
    args = parser.parse_args(argv)

    if not args.suite.is_dir():
        print(f"conformance suite not found at {args.suite}", file=sys.stderr)
        return 2
    files = sorted(p.name for p in args.suite.glob(args.files)
                   if p.name.startswith("test_") and p.name not in SLOW_FILES)
    if args.record:
        off = run_suite(args.suite, files, False, args.jobs, args.timeout, sys.executable)
        if args.files != "test_*.py" and args.record_file.exists():
            off = {**load(args.record_file), **off}
        save(args.record_file, off)
        print(f"record written: {args.record_file}")
        return 0
    if args.mode == "both":
        off = run_suite(args.suite, files, False, args.jobs, args.timeout, sys.executable)
    else:
        off = {name: run for name, run in load(args.record_file).items() if name in files}
        missing = sorted(set(files) - set(off))
        if missing:
            print(f"not in the record (run --record): {', '.join(missing)}", file=sys.stderr)
            return 2
    on = run_suite(args.suite, files, True, args.jobs, args.timeout, sys.executable)
    if args.save_on:
        save(args.save_on, on)
    return 1 if print_table(off, on) else 0


if __name__ == "__main__":
    sys.exit(main())
