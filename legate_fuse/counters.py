"""Counters of what the plugin did, reported by `legate_fuse.stats()` and at exit (a module named
so that it never shadows the package's `stats` function)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from legate_fuse.unfused import format_report


@dataclass
class Stats:
    tasks_seen: int = 0
    tasks_held: int = 0  # of which held in the window
    tasks_fused: int = 0
    fused_launches: int = 0
    temporaries_eliminated: int = 0
    bytes_not_allocated: int = 0
    # New stores given the store of a temporary a fused task did not allocate (recycling.py).
    stores_reused: int = 0
    # Arrays a window writes and lets go that ran in the memory of one it let go before
    # (backend/shared_storage.py).
    arrays_in_shared_memory: int = 0
    windows_planned: int = 0
    plan_cache_hits: int = 0
    kernel_cache_hits: int = 0
    compile_seconds: float = 0.0
    # Kernels compiling in the background now (backend/background.py); at exit, those left to
    # the process that builds them after the program.
    kernels_compiling: int = 0
    # Threads a large element-wise fused CPU kernel runs on (backend/kernel_threads.py), and
    # the fused launches whose kernels ran in parts on them.
    kernel_threads: int = 1
    split_kernel_runs: int = 0
    # Fused launches whose kernel ran on each part of a row call's rows as it was computed
    # (KernelThreads::run_rows_and_resume).
    pipelined_row_calls: int = 0
    # Random draws of fused tasks made in parts on those threads (tasks/draw_in_parts.h).
    split_draw_runs: int = 0
    # Tasks of call sites whose tasks are not lifted, built at once (capture/call_sites.py).
    tasks_built_at_once: int = 0
    # Measuring whether fusion pays (mode/payoff.py): rounds decided, of which running
    # unfused won, and the tasks run unfused because it did.
    payoff_rounds: int = 0
    payoff_rounds_unfused: int = 0
    tasks_unfused_by_payoff: int = 0
    # Times the plugin stepped aside, no task held (mode/step_aside.py).
    steps_aside: int = 0
    # NumPy data copied by cupynumeric.array, attached read-only (LEGATE_FUSE_READ_ONLY_COPIES).
    copies_attached_read_only: int = 0
    # Reductions not run: the same task over the same unchanged arrays gave their value
    # (window/repeated_reductions.py).
    tasks_reused: int = 0
    flushes: Counter[str] = field(default_factory=Counter)
    # Tasks that ran unfused, by (library, task id, reason): unfused.py reports them.
    unfused: Counter[tuple[str, int, str]] = field(default_factory=Counter)
    # With LEGATE_FUSE_TIME_TASKS=1 (task_timer.py): seconds of the tasks that ran unfused, by
    # (library, task id), and of every fused launch together.
    timed: bool = False
    unfused_seconds: defaultdict[tuple[str, int], float] = field(
        default_factory=lambda: defaultdict(float))
    fused_seconds: float = 0.0
    # Seconds per stage (stage_clock.py), with LEGATE_FUSE_PROFILE=1 only.
    stage_seconds: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "tasks_seen": self.tasks_seen,
            "tasks_held": self.tasks_held,
            "tasks_fused": self.tasks_fused,
            "fused_launches": self.fused_launches,
            "temporaries_eliminated": self.temporaries_eliminated,
            "bytes_not_allocated": self.bytes_not_allocated,
            "stores_reused": self.stores_reused,
            "arrays_in_shared_memory": self.arrays_in_shared_memory,
            "windows_planned": self.windows_planned,
            "plan_cache_hits": self.plan_cache_hits,
            "kernel_cache_hits": self.kernel_cache_hits,
            "compile_seconds": self.compile_seconds,
            "kernels_compiling": self.kernels_compiling,
            "kernel_threads": self.kernel_threads,
            "split_kernel_runs": self.split_kernel_runs,
            "pipelined_row_calls": self.pipelined_row_calls,
            "split_draw_runs": self.split_draw_runs,
            "tasks_built_at_once": self.tasks_built_at_once,
            "payoff_rounds": self.payoff_rounds,
            "payoff_rounds_unfused": self.payoff_rounds_unfused,
            "tasks_unfused_by_payoff": self.tasks_unfused_by_payoff,
            "steps_aside": self.steps_aside,
            "copies_attached_read_only": self.copies_attached_read_only,
            "tasks_reused": self.tasks_reused,
            "flushes": dict(sorted(self.flushes.items())),
            **({"fused_seconds": self.fused_seconds} if self.timed else {}),
            **({"stage_seconds": dict(self.stage_seconds)} if self.stage_seconds else {}),
        }


def full_report(stats: Stats, mode: Any) -> dict[str, Any]:
    """The statistics, with the mode (a mode/machine.ModeMachine): the current one, seconds in
    each, why each was entered; the counts the C++ tasks keep read now."""
    from legate_fuse import _tasks, unfused
    from legate_fuse.lift import task_name_of

    stats.split_kernel_runs = _tasks.split_kernel_runs()
    stats.pipelined_row_calls = _tasks.pipelined_row_calls()
    stats.split_draw_runs = _tasks.split_draw_runs()
    return {"mode": mode.mode.value, **stats.as_dict(),
            "mode_seconds": mode.seconds_by_mode(), "mode_reasons": mode.reasons(),
            "unfused": unfused.report(stats.unfused, task_name_of,
                                      stats.unfused_seconds if stats.timed else None)}


def format_stats(values: dict[str, Any]) -> str:
    """A readable block, as printed at exit with LEGATE_FUSE_STATS=1."""
    lines = ["legate-fuse statistics"]
    for name, value in values.items():
        if isinstance(value, dict):
            continue
        shown = (f"{value:.3f}" if isinstance(value, float)
                 else value if isinstance(value, str) else f"{value:,}")
        lines.append(f"  {name.replace('_', ' '):<24} {shown}")
    lines.extend(_format_modes(values))
    lines.extend(format_report(values.get("unfused", {}),
                               values.get("mode_seconds", {}).get("aside", 0.0)))
    flushes = values.get("flushes", {})
    total = sum(flushes.values())
    lines.append(f"  {'window flushes':<24} {total:,}")
    for reason, count in flushes.items():
        lines.append(f"    {reason:<22} {count:,}")
    stages = values.get("stage_seconds", {})
    if stages:
        tasks = max(1, values.get("tasks_seen", 0))
        lines.append(f"  {'us per task, by stage':<24} {sum(stages.values()) / tasks * 1e6:.2f}")
        for stage, seconds in stages.items():
            lines.append(f"    {stage:<22} {seconds / tasks * 1e6:.2f}")
    return "\n".join(lines)


def _format_modes(values: dict[str, Any]) -> list[str]:
    """Seconds in each mode, and why each mode was entered (how many times)."""
    seconds: dict[str, float] = values.get("mode_seconds", {})
    reasons: dict[str, dict[str, int]] = values.get("mode_reasons", {})
    if not seconds and not reasons:
        return []
    lines = [f"  {'seconds by mode':<24}"]
    for mode in dict.fromkeys([*seconds, *reasons]):
        why = ", ".join(f"{reason} ({count:,})" if count > 1 else reason
                        for reason, count in reasons.get(mode, {}).items())
        shown = f"{seconds[mode]:.3f}" if mode in seconds else "-"
        lines.append(f"    {mode:<22} {shown}" + (f"  ({why})" if why else ""))
    return lines
