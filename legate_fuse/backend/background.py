"""Kernels compiled while the program runs on (LEGATE_FUSE_COMPILE=background, the default).

A tiered JIT runs a function in its first tier while the optimising compiler works, and
switches when the code is ready. Here the first tier is the program's own tasks: a fused group
whose kernel is not built yet runs its original tasks, in order, as it would with fusion off,
while a builder process compiles the kernel into the cache; the fused task takes over at the
first launch after the builder has finished. A kernel the cache already holds is used at once:
only a miss starts a builder.

No thread of this process other than the program's runs Python for it. An earlier design
compiled on worker threads, and Python's cyclic garbage collector, which runs on whichever
thread allocates when a collection is due, freed the program's Legate stores there: Legate
crashed (a store must be destroyed on a thread it knows). The builders are processes
(`finish_kernels.py --one`), started and polled from the thread that launches the tasks; at
most `workers` run at once, in Linux's idle scheduling class from their first instruction, so
they take only the time that Legate's workers and the program leave idle.

At exit, the builders still running are stopped, and the kernels not built yet are handed to
one detached process that builds them into the cache after the program has gone: the next run
finds them. The program never waits for a compiler.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import signal
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

logger = logging.getLogger("legate_fuse")

# A group whose temporaries take this many bytes or more waits for its kernel instead: run as
# built, its window would hold every temporary at once (its records refer to them until the
# window has run), where the program without the plugin frees each as soon as it is read: a
# chain of 10 steps over 1e7 float64 held 3.8 GB instead of 0.9.
WAIT_BYTES = 256 << 20


class Builder(Protocol):
    """A process building one job's kernels."""

    def poll(self) -> int | None:
        """Its exit status once it has ended (0: built), None while it runs."""

    def stop(self) -> None:
        """Ends it, and every process it started."""


@dataclass
class Job:
    """One kernel to build: its sources by target ("cpu", "gpu"), and once its builder has
    ended, that builder's exit status (the kernel is then looked up in the cache)."""

    kernel_id: str
    sources: dict[str, str]
    builder: Builder | None = None
    status: int | None = None

    @property
    def finished(self) -> bool:
        return self.status is not None


# Starts a builder for a job (finish_kernels.start_builder), or raises OSError.
Starter = Callable[[Job], Builder]
# Takes the jobs left unbuilt at exit (finish_kernels.hand_over).
HandOver = Callable[[list[Job]], None]


class KernelJobs:
    """Kernels built by at most `workers` builder processes at a time, in submission order.
    Every method runs on the program's thread: `get` polls the builders."""

    def __init__(self, start: Starter, workers: int, hand_over: HandOver,
                 on_change: Callable[[int], None] = lambda pending: None) -> None:
        self.start = start
        self.workers = max(1, workers)
        self.hand_over = hand_over
        self.on_change = on_change  # told the number of jobs not finished, when it changes
        self._jobs: dict[str, Job] = {}
        self._queued: deque[Job] = deque()
        self._running: list[Job] = []
        self._exit_registered = False

    def get(self, kernel_id: str) -> Job | None:
        self.poll()
        return self._jobs.get(kernel_id)

    def submit(self, kernel_id: str, sources: dict[str, str]) -> Job:
        job = Job(kernel_id, sources)
        self._jobs[kernel_id] = job
        self._queued.append(job)
        if not self._exit_registered:
            atexit.register(self.at_exit)
            self._exit_registered = True
        self.poll()
        self.on_change(self.pending())
        return job

    def pending(self) -> int:
        """Jobs submitted and not finished."""
        return len(self._queued) + len(self._running)

    def poll(self) -> None:
        """Notes the builders that have ended, and starts queued jobs in their place."""
        before = self.pending()
        for job in list(self._running):
            assert job.builder is not None
            status = job.builder.poll()
            if status is not None:
                job.status = status
                self._running.remove(job)
        while self._queued and len(self._running) < self.workers:
            job = self._queued.popleft()
            try:
                job.builder = self.start(job)
            except OSError as error:  # no builder: the kernel is built when next launched
                logger.debug("could not start a kernel builder: %r", error)
                job.status = -1
                continue
            self._running.append(job)
        if self.pending() != before:
            self.on_change(self.pending())

    def wait(self, timeout: float | None = None) -> bool:
        """Waits until every job submitted so far has finished; False if `timeout` passed
        first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.pending():
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.01)
            self.poll()
        return True

    def at_exit(self) -> None:
        """Stops the builders, and hands the kernels not built to a process of their own."""
        unbuilt = [*self._running, *self._queued]
        for job in self._running:
            assert job.builder is not None
            job.builder.stop()
        self._running.clear()
        self._queued.clear()
        if unbuilt:
            try:
                self.hand_over(unbuilt)
            except Exception as error:  # exiting: the next run compiles them instead
                logger.debug("could not hand over %d kernels to build: %r", len(unbuilt), error)


class SpawnedBuilder:
    """A builder process of this one, leader of a process group of its own (a compiler driver's
    children hold its output open: they must stop with it)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.status: int | None = None

    def poll(self) -> int | None:
        if self.status is None:
            try:
                pid, wait_status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped by someone else: its result is in the cache
                self.status = 0
            else:
                if pid != 0:
                    self.status = os.waitstatus_to_exitcode(wait_status)
        return self.status

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.pid, signal.SIGTERM)


def spawn_idle(argv: list[str], environ: dict[str, str]) -> SpawnedBuilder:
    """Starts `argv` in a session of its own, in Linux's idle scheduling class (SCHED_IDLE), its
    standard streams on /dev/null. The idle class runs a process only on a core no other
    thread wants: nice 19 is not enough, a compiler at nice 19 delays a woken Legate worker by
    up to a scheduler slice, and a program of short tasks wakes its workers thousands of times
    a second (a cuPyNumeric example ran 1.45x slower beside two such compilers, 1.0x beside
    idle ones)."""
    streams = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    pid = os.posix_spawn(argv[0], argv, environ, file_actions=streams, setsid=True)
    # Set from here, right after the start (the C library's spawn takes only the real-time
    # classes): the builder's later threads and the compilers it starts inherit it.
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))
    return SpawnedBuilder(pid)
