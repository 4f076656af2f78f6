"""What ran unfused, and why: the vocabulary of reasons, and the report over a whole run.

Every task that runs as its library built it, rather than inside a fused task, is counted once,
by its kind (library and task id) and the reason that kept it out, where that is decided:

- the capture, for the tasks built at once: a kind no lifting knows, a program line whose
  tasks were not fused before (capture/call_sites.py), a mode in which nothing is held;
- the fuser, for the tasks of a planned window that ran by themselves: a task not lifted, the
  legality rule that kept a lifted one out of the group before it or after it, a window that
  ended before anything could join it (with the flush that ended it), a fused kernel that
  failed or was still compiling.

With LEGATE_FUSE_TIME_TASKS=1 each kind also has its tasks' seconds (task_timer.py), and the
kinds that took longest come first: what a program would gain from fusing each.

Tasks the plugin does not see are not counted: those cuPyNumeric sends straight to Legate
while the plugin stands aside (their time is the `aside` mode's, in `mode_seconds`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

NOT_LIFTED = "not lifted"
NOT_LIFTED_CALL = "not lifted: built for a call the lifting does not know"
LINE_NOT_FUSED = "built at once: its program line's tasks of this kind were not fused before"
DID_NOT_PAY = "fusion measured not to pay"
KERNEL_FAILED = "its fused kernel could not be built or launched"
KERNEL_COMPILING = "its fused kernel was compiling (LEGATE_FUSE_COMPILE=background)"
PLUGIN_FAILED = "the plugin failed on its window (warned)"
ONE_POINT_ONLY = ("its group computes a matrix product or draws random numbers, fused only "
                  "where Legate runs one CPU task at a time")
# A lifted task alone in its group because the window ended; the flush that ended it is added.
WINDOW_ENDED = "window ended"
# Modes in which nothing is held (mode/machine.py), by the mode's value.
BY_MODE = {
    "starting": "hooks not installed yet",
    "resuming": "resuming: a cuPyNumeric function may still build one of Legate's tasks",
    "unfused": DID_NOT_PAY,
    "disabled": "disabled (legate_fuse.disable())",
}


def in_mode(mode: str) -> str:
    """The reason of a task run unfused because the plugin is in `mode` (a mode's value)."""
    return BY_MODE.get(mode, mode)


# Key of a count: library name, task id, reason.
Key = tuple[str, int, str]


def window_ended(flush_reason: str) -> str:
    return f"{WINDOW_ENDED} ({flush_reason}) before another task could join"


def alone_by_rule(end_reason: str) -> str:
    """The reason of a lifted task kept alone by a legality rule, from the analysis' text of why
    a group ended ("task 5: accesses store 10 through another view..."), without the numbers
    of tasks and stores (the same rule reads the same in every window)."""
    rule = re.sub(r"^(task \d+|runs alone): ", "", end_reason)
    rule = re.sub(r"; tasks from \d+ join it in the next group$", "", rule)
    rule = re.sub(r"(\w+ )?store \d+", _store_without_number, rule)
    rule = re.sub(r"\btask \d+", "a task", rule)
    return f"alone: {rule}"


# Words after which a store's number is dropped without adding an article.
_QUALIFIED = frozenset({"the", "a", "an", "target", "partitioned", "empty", "unknown"})


def _store_without_number(match: re.Match[str]) -> str:
    before = match.group(1) or ""
    return before + ("store" if before.strip() in _QUALIFIED else "a store")


def report(counts: Counter[Key], task_name: Callable[[str, int], str],
           seconds: Mapping[tuple[str, int], float] | None = None) -> dict[str, Any]:
    """Per task kind (`library.TASK`): the tasks that ran unfused and, for each reason, how
    many; most tasks first. With `seconds` (LEGATE_FUSE_TIME_TASKS=1, by library and task
    id), each kind also has its tasks' seconds, and the kinds come longest first."""
    kinds: dict[str, dict[str, Any]] = {}

    def entry_of(library: str, task_id: int) -> dict[str, Any]:
        return kinds.setdefault(task_name(library, task_id),
                                {"tasks": 0, "seconds": 0.0, "why": Counter()})

    for (library, task_id, reason), count in counts.items():
        entry = entry_of(library, task_id)
        entry["tasks"] += count
        entry["why"][reason] += count
    for (library, task_id), spent in (seconds or {}).items():
        entry_of(library, task_id)["seconds"] += spent
    ordered = sorted(kinds.items(), key=lambda item: (
        -item[1]["seconds"] if seconds is not None else 0, -item[1]["tasks"], item[0]))
    return {name: {"tasks": entry["tasks"],
                   **({"seconds": entry["seconds"]} if seconds is not None else {}),
                   "why": dict(entry["why"].most_common())}
            for name, entry in ordered}


def format_report(unfused: dict[str, Any], aside_seconds: float = 0.0) -> list[str]:
    """The report's lines in the statistics printed at exit; `aside_seconds`: the time the
    plugin stood aside, whose tasks it did not see."""
    if not unfused:
        return []
    total = sum(entry["tasks"] for entry in unfused.values())
    timed = any("seconds" in entry for entry in unfused.values())
    total_seconds = (f"  {sum(entry['seconds'] for entry in unfused.values()):.3f} s"
                     if timed else "")
    lines = [f"  {'ran unfused':<24} {total:,}{total_seconds}"]
    for name, entry in unfused.items():
        kind_seconds = f"  {entry['seconds']:8.3f} s" if timed else ""
        lines.append(f"    {name:<30} {entry['tasks']:>8,}{kind_seconds}")
        for reason, count in entry["why"].items():
            lines.append(f"      {count:>8,}  {reason}")
    if aside_seconds:
        lines.append(f"    (and every task of the {aside_seconds:.3f} s the plugin stood aside)")
    return lines


def summary(unfused: dict[str, Any], kinds: int = 3) -> str:
    """One line: the kinds that ran unfused most, with their first reason (for the bench
    tables)."""
    parts = []
    for name, entry in list(unfused.items())[:kinds]:
        reason = next(iter(entry["why"]), "")
        seconds = f", {entry['seconds']:.3f} s" if "seconds" in entry else ""
        parts.append(f"{name.rpartition('.')[2]} {entry['tasks']:,}{seconds} ({reason})")
    return "; ".join(parts)
