"""What fusion costs per task: streams of small operations that fuse, that cannot, and that are
read back after every two; a loop whose windows repeat; and a real program's step (CFD).

    python bench/overhead.py [--repeats N] [--size N] [--iterations N]

For each stream, runs the application with fusion off and on in alternating processes (after a
warm-up run of each) and reports microseconds per task of each, the off/on ratio (1.0: no
cost, below 1.0: a slowdown) and the difference, in wall time and in the main thread's CPU time
(where the plugin's work is done: steadier than wall time on a machine whose few cores
Legate's workers share with the program); then one more run with fusion on and
LEGATE_FUSE_PROFILE=1 splits the plugin's own time by stage, in microseconds of the main
thread's CPU time per task (a wait inside Legate is not charged); two more profiled runs, of
the same iterations and of three times as many, give the plugin's own work at a flush (lifting
to launching, Legate's submission excluded) per task held in the iterations the longer adds: in
steady state, the first windows' planning and kernel builds behind (3 such pairs by default:
median and range). Those run with
LEGATE_FUSE_PAYOFF=0, every window fused: the measurement of whether fusion pays would run some
windows unfused, at times chosen by the noise of the machine, and hold different tasks in each
run. The windows of the "replayed" stream repeat: all but the first few are recognised from
their raw records and launched from the cached plan.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab import compare, run_once, summary

APPS = Path(__file__).resolve().parent / "apps"

class Stream(NamedTuple):
    app: str
    what: str
    size: int  # elements per array (the application's --size) unless --size says otherwise
    tasks_per_iteration: int  # when the application does not report its time per task
    iterations: int = 300  # unless --iterations says otherwise


STREAMS = {
    "fusible": Stream("small_ops.py", "8 element-wise tasks per iteration, all fusible", 1_000,
                      0),
    "opaque": Stream("opaque_ops.py", "8 tasks per iteration (clips, scans), none fusible",
                     1_000, 0),
    "readback": Stream("readback_ops.py", "2 element-wise tasks and a read of one element per "
                       "iteration", 10_000, 0),
    "replayed": Stream("cg1d.py", "a conjugate-gradient iteration per window (16 tasks, one "
                       "read of a scalar)", 2_000, 16),
    # A real program: stencils through views of padded arrays, 235 tasks a step, nothing read
    # back until the end (full windows, cut between steps).
    "cfd": Stream("cfd.py", "a CFD step (235 tasks through views, no read until the end)", 400,
                  235, 20),
}
# The stages of the plugin's own work at a flush (stage_clock.py).
FLUSH_STAGES = ("lift", "encode", "analysis", "kernel", "launch")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--size", type=int, default=None,
                        help="elements per array (default: each stream's own)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="iterations of each stream (default: each stream's own)")
    parser.add_argument("--streams", default=",".join(STREAMS))
    parser.add_argument("--steady-pairs", type=int, default=3,
                        help="pairs of profiled runs measuring the steady work at a flush")
    args = parser.parse_args()
    for stream in args.streams.split(","):
        app, what, default_size, tasks_per_iteration, default_iterations = STREAMS[stream]
        size = args.size or default_size
        iterations = args.iterations or default_iterations
        app_args = [str(APPS / app), "--size", str(size), "--iterations", str(iterations)]
        comparison = compare(app_args, args.repeats)
        per_task = {mode: [seconds_per_task(r, tasks_per_iteration) * 1e6
                           for r in getattr(comparison, mode)] for mode in ("off", "on")}
        cpu_per_task = {mode: [cpu_seconds_per_task(r, tasks_per_iteration) * 1e6
                               for r in getattr(comparison, mode)] for mode in ("off", "on")}
        print(f"{stream} stream: {what}; size {size}, {iterations} iterations, "
              f"{args.repeats} alternating off/on process pairs")
        print(f"  fusion off: us/task {summary(per_task['off'])}")
        print(f"  fusion on:  us/task {summary(per_task['on'])}")
        print(f"  off/on ratio        {summary(comparison.ratios())}")
        delta = statistics.median(per_task["on"]) - statistics.median(per_task["off"])
        print(f"  median overhead     {delta:+.2f} us/task")
        print(f"  main-thread CPU, fusion off: us/task {summary(cpu_per_task['off'])}")
        print(f"  main-thread CPU, fusion on:  us/task {summary(cpu_per_task['on'])}")
        cpu_delta = (statistics.median(cpu_per_task["on"])
                     - statistics.median(cpu_per_task["off"]))
        print(f"  median CPU overhead {cpu_delta:+.2f} us/task "
              f"({cpu_delta / statistics.median(cpu_per_task['off']):+.1%})")
        profiled = run_once(app_args, "on", {"LEGATE_FUSE_PROFILE": "1"})["fusion"]
        tasks = max(1, profiled["tasks_seen"])
        stages = profiled.get("stage_seconds", {})
        total = sum(stages.values()) / tasks * 1e6
        aside = profiled.get("steps_aside", 0)
        print(f"  plugin time by stage, us per task seen (whole run, {tasks} tasks seen; "
              f"stepped aside {aside} times, its tasks unseen meanwhile): {total:.1f}")
        for stage, seconds in stages.items():
            print(f"    {stage:<12} {seconds / tasks * 1e6:8.2f}")
        always_fused = {"LEGATE_FUSE_PROFILE": "1", "LEGATE_FUSE_PAYOFF": "0"}
        longer = [*app_args[:-1], str(3 * iterations)]
        steady = [steady_flush_work(run_once(app_args, "on", always_fused)["fusion"],
                                    run_once(longer, "on", always_fused)["fusion"])
                  for _ in range(args.steady_pairs)]
        measured = [work for work in steady if work is not None]
        print(f"  plugin work at a flush ({'+'.join(FLUSH_STAGES)}), us per held task, "
              f"steady state, {args.steady_pairs} pairs of runs: "
              f"{summary(measured) if measured else 'no task held (the stream runs unfused)'}")


def steady_flush_work(shorter: dict[str, Any], longer: dict[str, Any]) -> float | None:
    """The plugin's work at a flush, in microseconds per task held, over the iterations the
    longer of two runs adds: once a loop's first windows (planned afresh, their kernels built
    or loaded) are behind it, what each further window costs. None when no task was held."""
    def work(fusion: dict[str, Any]) -> float:
        stages = fusion.get("stage_seconds", {})
        return sum(stages.get(stage, 0.0) for stage in FLUSH_STAGES)

    held = longer["tasks_held"] - shorter["tasks_held"]
    if held <= 0:
        return None
    return (work(longer) - work(shorter)) / held * 1e6


def cpu_seconds_per_task(result: dict[str, Any], tasks_per_iteration: int) -> float:
    """The main thread's CPU seconds per task (per iteration, over the tasks per iteration
    that `seconds_per_task` divides by)."""
    iterations_per_task = (seconds_per_task(result, tasks_per_iteration)
                           / float(result["seconds_per_iteration"]))
    return float(result["cpu_seconds_per_iteration"]) * iterations_per_task


def seconds_per_task(result: dict[str, Any], tasks_per_iteration: int) -> float:
    if tasks_per_iteration:
        return float(result["seconds_per_iteration"]) / tasks_per_iteration
    return float(result["seconds_per_task"])


if __name__ == "__main__":
    main()
