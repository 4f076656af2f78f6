"""Kernels compiled while the program runs on (LEGATE_FUSE_COMPILE=background, experimental).

A tiered JIT runs a function in its first tier while the optimising compiler works, and
switches when the code is ready. Here the first tier is the program's own tasks: a fused group
whose kernel is not built yet runs its original tasks, in order, as it would with fusion off,
while the kernel compiles on one of `workers` threads; the fused task takes over at the first
launch after the kernel is ready. A kernel the cache already holds is used at once: only a
miss waits for a worker.

The compilers run at the lowest priority (nice 19; on Linux a thread's nice value is its own,
and the compiler processes it starts inherit it), so they take the time that Legate's workers
and the program leave idle rather than slow the program down.

At exit, the compilers still running are stopped, and the kernels not built yet are handed to
one detached process (finish_kernels.py) that builds them into the cache at low priority after
the program has gone: the next run finds them. The program never waits for a compiler.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from legate_fuse.backend.compiler import stop_tools

logger = logging.getLogger("legate_fuse")

# How long the exit waits for the workers to notice that their compilers were stopped.
EXIT_JOIN_SECONDS = 5.0


@dataclass
class Job:
    """One kernel to build: its sources by target ("cpu", "gpu"); once built, its files by
    target, or the error that stopped it."""

    kernel_id: str
    sources: dict[str, str]
    files: dict[str, Path] | None = None
    error: BaseException | None = None
    finished: threading.Event = field(default_factory=threading.Event)


# Builds a job's files (the kernel caches' `build` for each of its sources), or raises.
Builder = Callable[[Job], dict[str, Path]]
# Takes the jobs left unbuilt at exit (finish_kernels.hand_over).
HandOver = Callable[[list[Job]], None]


class KernelJobs:
    """Kernels built on `workers` low-priority threads, started at the first job."""

    def __init__(self, build: Builder, workers: int, hand_over: HandOver,
                 on_change: Callable[[int], None] = lambda pending: None) -> None:
        self.build = build
        self.workers = max(1, workers)
        self.hand_over = hand_over
        self.on_change = on_change  # told the number of jobs not finished, when it changes
        self._jobs: dict[str, Job] = {}
        self._queue: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._pending = 0
        self._exiting = False

    def get(self, kernel_id: str) -> Job | None:
        return self._jobs.get(kernel_id)

    def submit(self, kernel_id: str, sources: dict[str, str]) -> Job:
        job = Job(kernel_id, sources)
        self._jobs[kernel_id] = job
        with self._lock:
            self._pending += 1
            pending = self._pending
        self.on_change(pending)
        if not self._threads:
            atexit.register(self.at_exit)
            for number in range(self.workers):
                thread = threading.Thread(target=self._work, daemon=True,
                                          name=f"legate-fuse-compile-{number}")
                thread.start()
                self._threads.append(thread)
        self._queue.put(job)
        return job

    def pending(self) -> int:
        """Jobs submitted and not finished."""
        return self._pending

    def wait(self, timeout: float | None = None) -> bool:
        """Waits until every job submitted so far has finished; False if `timeout` passed
        first."""
        return all(job.finished.wait(timeout) for job in list(self._jobs.values()))

    def at_exit(self) -> None:
        """Stops the compilers, and hands the kernels not built to a process of their own."""
        self._exiting = True
        stop_tools()
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join(EXIT_JOIN_SECONDS)
        unbuilt = [job for job in self._jobs.values()
                   if not job.finished.is_set() or job.files is None]
        if unbuilt:
            try:
                self.hand_over(unbuilt)
            except Exception as error:  # exiting: the next run compiles them instead
                logger.debug("could not hand over %d kernels to build: %r", len(unbuilt), error)

    def _work(self) -> None:
        lowest_priority()
        while True:
            job = self._queue.get()
            if job is None or self._exiting:
                return
            try:
                job.files = self.build(job)
            except BaseException as error:  # reported on the main thread, at the next launch
                job.error = error
            if self._exiting and job.error is not None:
                return  # stopped by the exit: left unfinished for the hand-over
            job.finished.set()
            with self._lock:
                self._pending -= 1
                pending = self._pending
            self.on_change(pending)


def lowest_priority() -> None:
    """Puts this thread, and every process it starts, in Linux's SCHED_IDLE class (per
    thread): it runs only on a core no other thread wants. Nice 19 is not enough: a compiler
    at nice 19 delays a woken Legate worker by up to a scheduler slice, and a program of short
    tasks wakes its workers thousands of times a second (a cuPyNumeric example ran 1.45x
    slower beside two such compilers, 1.0x beside idle ones)."""
    tid = threading.get_native_id()
    try:
        os.sched_setscheduler(tid, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, tid, 19)
