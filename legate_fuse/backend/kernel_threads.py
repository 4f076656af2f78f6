"""How many threads a fused CPU kernel runs on (LEGATE_FUSE_THREADS; the threads themselves are
src/cpp/runtime/kernel_threads.*).

Legate runs a task on one of its CPU workers, one thread each. Where it has fewer workers than
the process has cores (this project's default configuration on 2 cores: one worker, one core
left to Python and Legate's runtime threads), a fused kernel may use the cores no worker holds
while the program's thread waits: its block is split into ranges of rows, run at once. Every
element is computed by the same code from the same inputs, and every reduction gives the same
bits, whatever the number of threads (see docs/SETTINGS.md, LEGATE_FUSE_THREADS: which kernels
split, and how their reductions fold).
"""

from __future__ import annotations

from legate_fuse import _tasks
from legate_fuse.settings import usable_cores


def legate_cpu_workers() -> int:
    from legate.core import TaskTarget, get_machine

    return max(1, int(get_machine().count(TaskTarget.CPU)))


def default_threads(cores: int, workers: int) -> int:
    """The cores shared among the CPU workers (at least 1 each, at most 8: beyond that a
    fused kernel is bound by memory bandwidth long before)."""
    return max(1, min(8, cores // max(1, workers)))


def apply(threads: int) -> int:
    """Sets the threads per fused CPU kernel: `threads`, or with 0 the default for this process
    and Legate's machine; returns the number set."""
    chosen = threads if threads > 0 else default_threads(usable_cores(), legate_cpu_workers())
    _tasks.set_kernel_threads(chosen)
    return chosen
