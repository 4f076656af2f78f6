"""Runs a planned window: fused groups as one generated kernel each, everything else as built.

A fused group that cannot be generated, compiled or loaded runs its original tasks, in order,
after one warning; the program's results are the same either way.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from legate_fuse import _core, _tasks
from legate_fuse.compiler import CompileError, KernelCache, KernelCompiler
from legate_fuse.in_place import Reuse, WindowFacts, plan_reuse
from legate_fuse.kernel_spec import FusedKernel, KernelSpec, UnsupportedGroup, build_kernel
from legate_fuse.launch import build_fused_task
from legate_fuse.planner import PlannedWindow, task_label
from legate_fuse.stats import Stats

logger = logging.getLogger("legate_fuse")

FUSION_ERRORS = (UnsupportedGroup, CompileError, _core.UnsupportedError, RuntimeError, OSError)


class Fuser:
    def __init__(self, stats: Stats, cpu: KernelCache, gpu: KernelCache | None,
                 runtime: Callable[[], Any], warn: Callable[[str], None],
                 log_kernels: bool = False) -> None:
        self.stats = stats
        self.cpu = cpu
        self.gpu = gpu  # None when Legate has no GPUs
        self.runtime = runtime
        self.warn = warn
        self.log_kernels = log_kernels
        self._kernels: dict[KernelSpec, tuple[str, str]] = {}  # spec -> (shared object, PTX)
        self.in_place = True  # outputs over dying inputs (see in_place.py)
        self.external_roots: set[str] = set()  # never written over (the session's set)
        self._facts: tuple[PlannedWindow, WindowFacts] | None = None

    def kernel_specs(self) -> list[KernelSpec]:
        """Every kernel built so far."""
        return list(self._kernels)

    def execute(self, planned: PlannedWindow) -> None:
        try:
            for group in planned.plan.groups:
                if group.kind == "fused" and self._launch(planned, group):
                    continue
                for t in group.tasks:
                    planned.records[t].task.execute()
        finally:
            self._facts = None

    def _in_place(self, planned: PlannedWindow, group: _core.Group, kernel: FusedKernel
                  ) -> tuple[FusedKernel, list[Reuse]]:
        if not self.in_place or planned.tracker is None:
            return kernel, []
        if self._facts is None or self._facts[0] is not planned:
            self._facts = (planned, WindowFacts(planned, planned.tracker.arrays_with_base,
                                                self.external_roots))
        return plan_reuse(kernel, group, self._facts[1])

    def _launch(self, planned: PlannedWindow, group: _core.Group) -> bool:
        ops = [task_label(planned.records[t], planned.lifted[t]) for t in group.tasks]
        try:
            kernel = build_kernel(planned.lifted, planned.stores, planned.descriptions, group,
                                  planned.parsed)
            cpu_path, gpu_path = self._kernel_paths(kernel.spec)
            kernel, swaps = self._in_place(planned, group, kernel)
            task = build_fused_task(self.runtime(), cpu_path, gpu_path, kernel.args, b"",
                                    "legate_fuse[" + ", ".join(ops) + "]")
        except FUSION_ERRORS as error:
            # Nothing of the group has run yet: its original tasks take over.
            self.warn(f"could not fuse tasks {list(group.tasks)}, running them unfused: {error}")
            return False
        task.execute()
        # The program's new arrays now own the storage their values were written over.
        for swap in swaps:
            swap.array.base = swap.store
        self.stats.outputs_in_place += len(swaps)
        self._count(group, kernel)
        return True

    def _kernel_paths(self, spec: KernelSpec) -> tuple[str, str]:
        known = self._kernels.get(spec)
        if known is not None:
            return known
        source = spec.render_c()
        if self.log_kernels:
            print(f"legate-fuse kernel:\n{source}", file=sys.stderr, flush=True)
        cpu_path = str(self._loaded_cpu_kernel(source))
        gpu_path = ""
        if self.gpu is not None:
            gpu_path = str(self.gpu.build(spec.render_cuda()))
        self._kernels[spec] = (cpu_path, gpu_path)
        return cpu_path, gpu_path

    def _loaded_cpu_kernel(self, source: str) -> Path:
        compiled_before = self.cpu.compiled
        path = self.cpu.build(source)
        try:
            _tasks.load_kernel(str(path), _core.KERNEL_SYMBOL)
        except RuntimeError:
            if self.cpu.compiled != compiled_before:
                raise
            # A cached entry that does not load (truncated, corrupt): rebuild it once.
            self.cpu.forget(source, path)
            path = self.cpu.build(source)
            _tasks.load_kernel(str(path), _core.KERNEL_SYMBOL)
        return path

    def _count(self, group: _core.Group, kernel: FusedKernel) -> None:
        caches = [c for c in (self.cpu, self.gpu) if c is not None]
        self.stats.tasks_fused += len(group.tasks) + len(group.dead_tasks)
        self.stats.fused_launches += 1
        self.stats.temporaries_eliminated += len(group.temporaries)
        self.stats.bytes_not_allocated += group.bytes_not_allocated
        self.stats.kernel_cache_hits = sum(c.cache_hits for c in caches)
        self.stats.compile_seconds = sum(c.compile_seconds for c in caches)


def make_fuser(stats: Stats, cache_dir: str, compiler: str, runtime: Callable[[], Any],
               warn: Callable[[str], None], log_kernels: bool) -> Fuser:
    from legate.core import TaskTarget, get_machine

    cpu = KernelCompiler(Path(cache_dir) / "kernels", compiler)
    gpu = None
    if get_machine().count(TaskTarget.GPU) > 0:
        from legate_fuse.nvrtc import DEFAULT_ARCH, PtxCompiler

        gpu = PtxCompiler(Path(cache_dir) / "kernels", _tasks.cuda_device_arch() or DEFAULT_ARCH)
    return Fuser(stats, cpu, gpu, runtime, warn, log_kernels)
