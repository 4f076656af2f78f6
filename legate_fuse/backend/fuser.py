"""Runs a planned window: fused groups as one generated kernel each, everything else as built.

A fused group that cannot be generated, compiled or loaded runs its original tasks, in order,
after one warning; the program's results are the same either way.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from legate_fuse import _core, _tasks, unfused
from legate_fuse.backend.background import WAIT_BYTES, KernelJobs
from legate_fuse.backend.compiler import CompileError, KernelCache
from legate_fuse.backend.launch import build_fused_task, runs_one_point
from legate_fuse.backend.shared_storage import launch_stores
from legate_fuse.capture.packed_futures import PackedFutures
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.counters import Stats
from legate_fuse.draw_order import DrawOrder
from legate_fuse.lift import runtime_scalar
from legate_fuse.lift.draw_args import draw_words, is_draw
from legate_fuse.lift.row_calls import row_call
from legate_fuse.plan.kernel_spec import (
    ROLE_CALL_READ,
    ROLE_INPUT,
    ROLE_READ_WHOLE,
    FusedKernel,
    KernelSpec,
    UnsupportedGroup,
)
from legate_fuse.plan.launch_steps import Step
from legate_fuse.plan.planner import PlannedWindow
from legate_fuse.stage_clock import StageClock
from legate_fuse.task_timer import TaskTimer

logger = logging.getLogger("legate_fuse")

# Failures the plugin expects (their messages say what went wrong); any other exception is
# reported with its type, and falls back just the same.
EXPECTED_ERRORS = (UnsupportedGroup, CompileError, _core.UnsupportedError, RuntimeError, OSError)
# The roles of a fused task's arguments that it only reads.
_ONLY_READ = (ROLE_INPUT, ROLE_READ_WHOLE, ROLE_CALL_READ)


class Fuser:
    def __init__(self, stats: Stats, cpu: KernelCache, gpu: KernelCache | None,
                 runtime: Callable[[], Any], warn: Callable[[str], None],
                 packed_futures: PackedFutures, log_kernels: bool = False,
                 clock: StageClock | None = None, timer: TaskTimer | None = None,
                 jobs: KernelJobs | None = None, draws: DrawOrder | None = None) -> None:
        self.stats = stats
        self.clock = clock or StageClock(stats.stage_seconds, enabled=False)
        self.cpu = cpu
        self.gpu = gpu  # None when Legate has no GPUs
        self.runtime = runtime
        self.warn = warn
        self.log_kernels = log_kernels
        self.packed_futures = packed_futures
        self.timer = timer  # LEGATE_FUSE_TIME_TASKS=1 only
        # Where kernels missing from the cache compile (LEGATE_FUSE_COMPILE=background); None:
        # the launch waits for its kernel.
        self.jobs = jobs
        self.draws = draws or DrawOrder(runtime)  # fused random draws in program order
        # Legate traces begun and not ended: in one, a kernel missing from the cache is built
        # before its group's launch, so that every run of the trace issues the same operations
        # (its first run unfused while the kernel compiled, Legion aborted the program).
        self.tracing = 0
        # Registered with _tasks: id -> spec, in the order they were first built.
        self._kernels: dict[str, KernelSpec] = {}

    def compiling(self) -> bool:
        """Whether a kernel is compiling in the background; starts the builders queued
        meanwhile (builders start only when polled, from the program's thread)."""
        if self.jobs is None:
            return False
        self.jobs.poll()
        return self.jobs.pending() > 0

    def kernel_specs(self) -> list[KernelSpec]:
        """Every kernel built so far."""
        return list(self._kernels.values())

    def execute(self, planned: PlannedWindow, done: list[bool], flush_reason: str = ""
                ) -> BaseException | None:
        """Runs every task of the window, in plan order: each fused group as one task, or its
        original tasks when anything about fusing it fails; `done[t]` is set once task t has
        run (or was covered by a fused task, or was dead); the temporaries of the groups
        launched fused go into `planned.unallocated`. Every task runs even if one of the
        program's own tasks raises, as without the window: the first such error is returned
        for the caller to raise. `flush_reason`: why the window ended (for the unfused report)."""
        first_error: BaseException | None = None
        group_bytes = planned.plan.group_bytes  # of this window's shapes
        with self.clock.stage("launch"):  # (the stores to launch with: the plugin's part)
            stores = launch_stores(planned, self.stats)
        for step, bytes_not_allocated in zip(planned.steps, group_bytes, strict=True):
            if step.kind == "fused":
                not_fused = self._launch(planned, stores, step, bytes_not_allocated)
                if not_fused is None:
                    planned.unallocated.extend(step.temporaries)
                    covered = (*step.tasks, *step.dead_tasks)
                    planned.fused_tasks.extend(covered)
                    for t in covered:
                        done[t] = True
                    continue
                why: Sequence[str] = (not_fused,) * len(step.tasks)
            elif step.why_unfused == (unfused.WINDOW_ENDED,):
                why = (unfused.window_ended(flush_reason),)
            else:
                why = step.why_unfused
            error = self.run_as_built(planned.records, step.tasks, done, why)
            first_error = first_error or error
        return first_error

    def _launch(self, planned: PlannedWindow, stores: Sequence[Any], step: Step,
                bytes_not_allocated: int) -> str | None:
        """Builds and submits the step's fused task, with the window's `stores` by number;
        None once submitted, else why nothing was (its kernel is compiling, or failed)."""
        # One stage around it all: the clock's own time, charged at each change, spent once.
        with self.clock.stage("launch"):
            try:
                kernel = step.kernel
                if kernel is None and len(step.draws) < len(step.tasks):
                    raise UnsupportedGroup(step.kernel_error or "the group has no kernel")
                if (step.products or step.draws) and not runs_one_point():
                    return unfused.ONE_POINT_ONLY
                if kernel is not None and kernel.kernel_id not in self._kernels:
                    with self.clock.stage("kernel"):
                        if not self._register(kernel, bytes_not_allocated >= WAIT_BYTES
                                              or self.tracing > 0):
                            return unfused.KERNEL_COMPILING
                # Plain tuples in KernelArg's order: built for every argument of every launch.
                args = [(stores[store], role, redop) for store, role, redop in step.args]
                scalars = b"".join(runtime_scalar(planned.records[task], index)
                                   for task, index in step.scalar_sources)
                draws = [(result, draw_words(planned.records[task]))
                         for result, task in step.draws]
                calls = [(row_call(op), positions) for op, positions in step.calls]
                with self.clock.stage("submit"):
                    if draws:
                        self.draws.before_fused_draw()
                    task = build_fused_task(
                        self.runtime(), kernel.kernel_id if kernel is not None else "", args,
                        scalars, step.provenance, step.products, draws,
                        self.draws.token() if draws else None, calls)
                    # Submission is the last step that can fail before the task exists.
                    if self.timer is None:
                        task.execute()
                    else:
                        self.timer.run_fused(task.execute)
            except Exception as error:  # the plugin must never break the program
                # Nothing of the group has run: its original tasks take over.
                self.warn(f"could not fuse tasks {list(step.tasks)}, running them unfused: "
                          f"{_describe(error)}")
                return unfused.KERNEL_FAILED
            # After the try: the task exists now, and must never be run again as originals.
            if step.draws:
                self.draws.note_drawn()
            results = [store for store, role, _ in args if role not in _ONLY_READ]
            self.packed_futures.note_results(results)
            planned.written.extend(results)
            self._count(step, bytes_not_allocated)
        return None

    def _register(self, kernel: FusedKernel, wait: bool = False) -> bool:
        """Registers this process's kernels for the spec under the spec's id, the one the
        FUSED task is launched with: found in the cache, or built now (`wait`, or without
        background builds), or when a builder has built them; False while they compile."""
        spec, kernel_id = kernel.spec, kernel.kernel_id
        try:
            job = self.jobs.get(kernel_id) if self.jobs is not None else None
            if job is None:
                sources = self._sources(kernel)
                background = self.jobs is not None and not wait
                files = self._find(sources) if background else self._build(sources)
                if files is None:
                    assert self.jobs is not None
                    self.jobs.submit(kernel_id, sources)
                    return False
            elif not job.finished and not wait:
                return False
            else:
                # Its builder has ended: the kernel is in the cache, or (the builder failed)
                # built here, to report the compiler's error as a launch that waits would.
                sources = job.sources
                files = self._find(sources) or self._build(sources)
            path = self._register_cpu_kernel(kernel_id, sources["cpu"], files["cpu"])
            self._log(f"-- kernel {kernel_id} compiled: {path}")
            if "gpu" in files:
                _tasks.register_ptx_kernel(kernel_id, str(files["gpu"]), _core.KERNEL_SYMBOL)
        finally:
            self._count_kernel_builds()
        self._kernels[kernel_id] = spec
        return True

    def _sources(self, kernel: FusedKernel) -> dict[str, str]:
        """The kernel's sources by target, logged with its specification (every stage after
        the plan: the specification, its source, the compiled kernel)."""
        spec = kernel.spec
        sources = {"cpu": spec.render_c()}
        self._log(f"legate-fuse kernel {kernel.kernel_id}:\n{spec.describe()}"
                  f"-- C source:\n{sources['cpu']}")
        if self.gpu is not None:
            sources["gpu"] = spec.render_cuda()
        return sources

    def _caches(self) -> dict[str, KernelCache]:
        return {"cpu": self.cpu} if self.gpu is None else {"cpu": self.cpu, "gpu": self.gpu}

    def _build(self, sources: dict[str, str]) -> dict[str, Path]:
        """Every target's kernel, from the cache or compiled now."""
        caches = self._caches()
        return {target: caches[target].build(source) for target, source in sources.items()}

    def _find(self, sources: dict[str, str]) -> dict[str, Path] | None:
        """Every target's kernel if the cache holds them all, without compiling any."""
        caches = self._caches()
        files = {}
        for target, source in sources.items():
            found = caches[target].find(source)
            if found is None:
                return None
            files[target] = found
        return files

    def _log(self, text: str) -> None:
        if self.log_kernels:
            print(text, file=sys.stderr, flush=True)

    def _register_cpu_kernel(self, kernel_id: str, source: str, path: Path) -> Path:
        """Loads the kernel's shared object. `build` and `find` check a cached file against
        its record before it gets here: dlopen must never see a file cut short (it dies of
        SIGBUS)."""
        try:
            _tasks.register_cpu_kernel(kernel_id, str(path), _core.KERNEL_SYMBOL)
        except RuntimeError as error:
            if path in self.cpu.made_here:
                raise
            # Intact, as recorded, yet it does not load (an earlier compiler wrote a broken
            # file): rebuild it once.
            path = self.cpu.rebuild(source, path, f"it does not load: {error}")
            _tasks.register_cpu_kernel(kernel_id, str(path), _core.KERNEL_SYMBOL)
        return path

    def run_as_built(self, records: Sequence[TaskRecord], tasks: Iterable[int],
                     done: list[bool], why: Sequence[str]) -> BaseException | None:
        """Runs `records[t]` for t in `tasks` as the program built them, in order, marking
        them done and counting each with its reason in `why` (one per task); the first error
        after all ran."""
        first_error: BaseException | None = None
        counts, timer = self.stats.unfused, self.timer
        with self.clock.stage("run_unfused"):
            for t, reason in zip(tasks, why, strict=True):
                record = records[t]
                counts[record.library_name, record.task_id, reason] += 1
                done[t] = True
                if is_draw(record):  # after the fused draws submitted before it
                    self.draws.settle()
                try:
                    if timer is None:
                        record.task.execute()
                    else:
                        timer.run_unfused(record.library_name, record.task_id,
                                          record.task.execute)
                except BaseException as error:
                    first_error = first_error or error
        return first_error

    def _count(self, step: Step, bytes_not_allocated: int) -> None:
        stats = self.stats
        stats.tasks_fused += len(step.tasks) + len(step.dead_tasks)
        stats.fused_launches += 1
        stats.temporaries_eliminated += len(step.temporaries)
        stats.bytes_not_allocated += bytes_not_allocated

    def _count_kernel_builds(self) -> None:
        """The compilers' counts, which change only when a kernel is registered."""
        stats, cpu, gpu = self.stats, self.cpu, self.gpu
        stats.kernel_cache_hits = cpu.cache_hits + (gpu.cache_hits if gpu is not None else 0)
        stats.compile_seconds = cpu.compile_seconds + (
            gpu.compile_seconds if gpu is not None else 0.0)


def _describe(error: BaseException) -> str:
    return str(error) if isinstance(error, EXPECTED_ERRORS) else repr(error)
